"""The `tav` command: check, info, run, play, sim, test.

Exit codes: 0 success; 1 an error in a rules file or a failed game; 2 a usage
error (or an error in the project file, tavernlang/project.py); `tav test` 5
when no scenario ran, `tav diff` 1 when the games differ and 2 when a file
does not load (docs/cli.md). Errors in rules files print as FILE:LINE:COL
diagnostics, never as tracebacks.
"""
from __future__ import annotations

import functools
import json
import sys
import time
from pathlib import Path

import click

from .options import describe_options
from .options import parse_options as _parse_options
from .paths import RulesPath

from .errors import GameError, TavError
from . import guard
from .guard import Timeout, guarded, remember_sources
from .guard import diag_json as _diag_json

MAX_GAMES = 1_000_000  # games of one sim/compare/report: a run keeps each game's result in memory


def _compile(path: str, exact: bool = True):
    """The game of a rules file in a layout (engine/layout.py): the exact one (tav run's, unless
    --fast), or else the fast one (sim's, compare's and report's, unless --exact)."""
    from .engine.compile import CompiledGame
    from .engine.layout import layout_for
    from .paths import load_rules

    model = load_rules(path)
    remember_sources(model.sources)  # (also under an error of compiling it)
    game = CompiledGame(model, layout=layout_for(model, exact))
    return game


def _exact(game):
    """The game in the exact layout (the one it is, when it is; else compiled again from its model)."""
    from .engine.compile import CompiledGame
    return game if game.layout.exact else CompiledGame(game.model)


def _sorted_names(game) -> list[str]:
    """The zones a game of the fast layout keeps sorted, by name."""
    return [game.zone_names[f] for f in sorted(game.sorted_fams)]


def _exact_flag(f):
    return click.option("--exact", is_flag=True,
                        help="Play each seed's game exactly as `tav run --seed N` plays it. By default a zone whose "
                             "order no rule reads (drawn only at random) is kept sorted: faster, the same games in "
                             "distribution, and `tav run --fast --seed N` replays one (docs/engine.md).")(f)


def _playable(game) -> None:
    from .errors import Diagnostic, Span
    m = game.model
    if m.rounds is None:
        raise TavError([Diagnostic(Span(m.path, 1, 1), "this file has no 'rounds' block, so there is no game to play")],
                       m.sources)


def _check_players(game, players: int) -> None:
    _playable(game)
    if not game.min_players <= players <= game.max_players:
        from . import project
        proj = project.from_file("players")
        if proj is not None:
            project.fail(proj.error("players", f"{game.title} is for {game.min_players} to {game.max_players} "
                                               f"players, not {players} ({proj.setting('players')}; "
                                               "give --players to play another count)"))
        raise click.BadParameter(f"{game.title} is for {game.min_players} to {game.max_players} players, not {players}",
                                 param_hint="--players")


class _Commands(click.Group):
    """The `tav` commands; the ones that live with their tools are imported when asked for, so
    `tav check` does not load the linter or the mutation tester."""

    LAZY = {"lint": ("tavernlang.lint.command", "lint"),  # (lives with the linter)
            "mutate": ("tavernlang.mutate.command", "mutate"),  # (lives with the mutation tester)
            "serve": ("tavernlang.web.command", "serve")}  # (lives with the web tables)

    def list_commands(self, ctx):
        return sorted(set(super().list_commands(ctx)) | set(self.LAZY))

    def get_command(self, ctx, name):
        if name in self.LAZY and name not in self.commands:
            import importlib
            module, attr = self.LAZY[name]
            self.add_command(getattr(importlib.import_module(module), attr), name)
        return super().get_command(ctx, name)


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tavernlang")
@click.option("--max-steps", type=click.IntRange(min=1), default=None,
              help="budget of work of one game, in steps (default 5000000; docs/security.md)")
@click.option("--max-log", type=click.IntRange(min=1), default=None,
              help="budget of log lines of one game (default 100000)")
@click.option("--max-seconds", type=click.IntRange(min=1), default=None,
              help="budget of the engine's time for one game, in seconds (default 600)")
@click.option("--max-memory", type=click.IntRange(min=0), default=None, metavar="MB",
              help="memory (address space) a tav process may use, in MB (default 8192; 0: no limit)")
@click.option("--timeout", type=click.IntRange(min=1), default=None, metavar="SECONDS",
              help="stop the whole command after this many seconds (default: no limit; a game is "
                   "bounded by --max-seconds)")
@click.option("--config", "config_file", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="the project file to read (a tav.toml, or a pyproject.toml with [tool.tav]; default: the "
                   "nearest one in this folder or above it; docs/cli.md)")
@click.option("--isolated", is_flag=True, help="read no project file")
@click.pass_context
def main(ctx, max_steps, max_log, max_seconds, max_memory, timeout, config_file, isolated) -> None:
    """tavernlang: check, run, play and simulate board games written as rules text."""
    proj = _project(config_file, isolated)
    if proj is not None:  # its settings: defaults of the options, under the command line's
        ctx.meta["tav.project"] = proj
        ctx.default_map = {**proj.default_map(), **(ctx.default_map or {})}
        max_steps, max_log, max_seconds, max_memory = (
            given if given is not None else proj.values.get(key)
            for given, key in zip((max_steps, max_log, max_seconds, max_memory), ("max-steps", "max-log",
                                                                                "max-seconds", "max-memory")))
    from .engine import budget
    from .loader import allow_deep_rules
    allow_deep_rules()
    if any(v is not None for v in (max_steps, max_log, max_seconds, max_memory)):
        budget.set_limits(max_steps, max_log, max_seconds, max_memory)
    budget.limit_memory()
    if timeout is not None:
        _start_timeout(timeout)


def _project(config_file: str | None, isolated: bool):
    """The project file of the command (--config's, or the nearest one), read and checked; an
    error in it is a usage error (exit 2)."""
    from . import project
    if isolated:
        if config_file is not None:
            raise click.UsageError("--config and --isolated exclude each other")
        return None
    try:
        if config_file is not None:
            return project.load(Path(config_file))
        try:
            here = Path.cwd()
        except OSError:  # (the current folder was removed)
            return None
        path = project.find(here)
        return project.load(path) if path is not None else None
    except project.ProjectError as e:
        project.fail(e)


def _start_timeout(seconds: int) -> None:
    """An alarm that stops the command after `seconds` (where signals exist; cancelled when the
    command ends, so that a caller in the same process is not hit later)."""
    import signal
    if not hasattr(signal, "SIGALRM"):
        raise click.BadParameter("needs a system with alarms (SIGALRM)", param_hint="--timeout")

    def ring(signum, frame):
        raise Timeout(seconds)
    try:
        old = signal.signal(signal.SIGALRM, ring)
    except ValueError:  # (not the main thread)
        return
    signal.alarm(seconds)

    def cancel():
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    click.get_current_context().call_on_close(cancel)


@main.command()
@click.argument("files", nargs=-1, required=True, type=RulesPath(folders=True, stdin=True))
@click.option("--json", "as_json", is_flag=True, help='Print the errors as JSON: {"errors": [...]} (empty when '
              'clean); the same as --format json.')
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True, help="How to print the errors: text, JSON, a SARIF 2.1.0 log, or GitHub "
                                      "Actions annotations (docs/cli.md).")
@guarded
def check(files, as_json, fmt="text") -> None:
    """Parse and check rules files (a folder: every .tav file in it; -: standard input); silent when clean."""
    from .paths import expand, load_rules

    as_json = as_json or fmt == "json"
    machine = as_json or fmt in ("sarif", "github")
    bad = 0
    found = []
    for f in expand(files):
        try:
            load_rules(f)
        except TavError as e:
            found += e.diagnostics
            if not machine:
                click.echo(e.render(), err=True)
            bad += len(e.diagnostics)
    if fmt in ("sarif", "github"):
        from . import ci_formats
        items = ci_formats.of_diagnostics(found)
        if fmt == "sarif":
            click.echo(json.dumps(ci_formats.sarif(items), indent=2, ensure_ascii=False))
        else:
            for line in ci_formats.github(items):
                click.echo(line)
        sys.exit(1 if bad else 0)
    if as_json:
        click.echo(json.dumps({"errors": [_diag_json(d) for d in found]}))
        sys.exit(1 if bad else 0)
    if bad:
        click.echo(f"{bad} error{'s' if bad != 1 else ''}", err=True)
        sys.exit(1)


@main.command()
@click.argument("file", type=RulesPath(stdin=True))
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@guarded
def info(file, as_json) -> None:
    """Describe a game: name, player counts, options."""
    game = _compile(file)
    m = game.model
    opts = describe_options(game)
    data = {
        "name": game.title,
        "players": {"min": game.min_players, "max": game.max_players},
        "options": opts,
        "cards": game.ncards,
        "actions": list(m.actions),
        "phases": [p.name for p in m.phases],
        "scenarios": [s.decl.title for s in m.scenarios],
    }
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{data['name']}: {game.min_players} to {game.max_players} players, {game.ncards} cards")
    click.echo("phases: " + ", ".join(data["phases"]))
    click.echo("actions: " + ", ".join(data["actions"]))
    for name, o in opts.items():
        rng = f" in {o['min']}..{o['max']}" if "min" in o else ""
        vals = f" one of {', '.join(_lit(v) for v in o['values'])}" if "values" in o else ""
        click.echo(f"option {name} = {_lit(o['default'])}{rng}{vals}" + (f"  ({o['doc']})" if "doc" in o else ""))


def _bots_flag(f):
    return click.option("--bots", "bots_spec", default=None, metavar="BOTS",
                        help="Who plays: random, greedy, mcts[:ITERATIONS][:rollout=random|mast|greedy][:depth=D] "
                             "or lookahead[:SAMPLES][:until=round|phase|end] for every seat, or a comma list, one per "
                             "seat (default random; mcts:200:rollout=greedy: 200 iterations whose playouts choose by "
                             "the score; see docs/balance.md).")(f)


def _bots(spec, players: int):
    """A parsed --bots (None: every seat random, the engine's own playouts)."""
    from .bots import BotSpecError, all_random, parse_bots
    try:
        bots = parse_bots(spec, players)
    except BotSpecError as e:
        from . import project
        proj = project.from_file("bots_spec")
        if proj is not None:
            project.fail(proj.error("bots", f"{e} ({proj.setting('bots')})"))
        raise click.BadParameter(str(e), param_hint="--bots") from None
    return None if all_random(bots) else bots


def _game_options(f, stdin: bool = False):
    f = click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE", help="Set a game option.")(f)
    f = click.option("--seed", type=int, default=1, show_default=True, help="Random seed: the same seed gives the same game.")(f)
    f = click.option("--players", "-p", type=int, required=True, help="Number of players.")(f)
    f = click.argument("file", type=RulesPath(stdin=stdin))(f)
    return f


@main.command()
@functools.partial(_game_options, stdin=True)
@_bots_flag
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (result and log).")
@click.option("--quiet", "-q", is_flag=True, help="Print the result alone, not the log.")
@click.option("--explain", is_flag=True, help="Under each gain or loss, the rules statement that made it and its amount "
              "term by term; under the result, the winner decision (with --json: each carries 'why').")
@click.option("--fast", is_flag=True, help="Play the seed's game as tav sim, compare and report play it (without "
              "--exact): zones whose order no rule reads kept sorted (docs/engine.md).")
@guarded
def run(file, players, seed, options, bots_spec, as_json, quiet=False, explain=False, fast=False) -> None:
    """Play one whole game with bots (random unless --bots) and print its log."""
    from .engine.runner import Match, play_bots

    game = _compile(file, exact=not fast)
    _check_players(game, players)
    opts = _parse_options(game, options)
    bots = _bots(bots_spec, players)
    match = Match(game, players, seed, opts, explain=explain)
    if bots is None:
        play_bots(match)
    else:
        from .bots import play_match
        play_match(match, bots)
    r = match.result
    if as_json:
        click.echo(json.dumps({
            "game": game.title, "seed": seed, "players": players, "options": opts,
            "winners": [p + 1 for p in r["winners"]], "scores": r["scores"], "rounds": match.st.round,
            "decisions": len(match.choices),  # (with more than one option; "forced": with one, taken without asking)
            "forced": len(match.st.forced),
            # a gain or loss carries the place of the rules statement that made it ("at"); with
            # --explain, its amount term by term ("why"), and the result its winner decision
            "log": [_json_event(e, i, match.st) for i, e in enumerate(match.events())],
        }))
        return
    from .colour import Paint
    from .engine.explain import summary, tree
    paint = Paint()  # colour in a terminal with rich; plain when piped or with NO_COLOR
    found = match.st.explain.found if match.st.explain is not None else {}
    for i, line in enumerate(match.log_lines() if not quiet else []):
        click.echo(paint.log(line))
        if explain and i in match.st.why:  # (the place of the statement, and its line)
            sp = match.st.why[i]
            click.echo(f"    by {sp}: {(game.model.sources.line(sp.file, sp.line) or '').strip()}")
            s = summary(found.get(i))
            if s:
                click.echo(paint(f"    = {s}", "why"))
        elif explain and i in found:  # the winner decision
            for ln in tree(found[i], None, "    "):
                click.echo(ln)
    if not quiet:
        click.echo("")
    click.echo(f"{game.title}, {players} players, seed {seed}: {match.st.round} rounds, {len(match.choices)} decisions"
               + (f" (and {len(match.st.forced)} with one option)" if match.st.forced else ""))
    for p, s in enumerate(r["scores"]):
        click.echo(f"  P{p + 1}: {s}" + ("  (winner)" if p in r["winners"] else ""))


def _json_event(e: dict, i: int, st) -> dict:
    if i in st.why:
        e = dict(e, at=str(st.why[i]))
    if st.explain is not None and st.explain.found.get(i) is not None:
        from .engine.explain import public
        e = dict(e, why=public(st.explain.found[i]))
    return e


@main.command()
@_game_options
@click.option("--seat", type=int, multiple=True, help="Your seat (1 = first player; default 1). Give it again for "
              "several people at one terminal (--seat 1 --seat 3): a pass-the-device screen between them.")
@click.option("--load", "load_path", type=click.Path(exists=True, dir_okay=False), help="Resume a saved game.")
@click.option("--save-to", type=click.Path(dir_okay=False), default=None, help="Where 's' saves (default: FILE.tavsave.json).")
@_bots_flag
@guarded
def play(file, players, seed, options, seat, load_path, save_to, bots_spec) -> None:
    """Play a seat yourself against bots (random unless --bots; your own seat's bot is ignored), at the terminal."""
    from .play import play_terminal

    game = _compile(file)
    _check_players(game, players)
    seat_given = seat
    seats = list(dict.fromkeys(seat or (1,)))
    for k in seats:
        if not 1 <= k <= players:
            raise click.BadParameter(f"seat must be 1..{players}", param_hint="--seat")
    seat = seats[0]
    opts = _parse_options(game, options)
    bots = _bots(bots_spec, players)  # checked here: a usage error before the game starts
    play_terminal(game, file, players, seed, opts, seat - 1, load_path, save_to, bots_spec if bots else None,
                  also=[k - 1 for k in seats[1:]], seats_given=bool(seat_given))


def _seat_bots(bots, players: int, i: int, rotate: bool):
    """The bots of the i-th game (rotated one seat a game with --rotate), and their names by seat."""
    from .bots import describe, rotate as rot
    if bots is None:
        return None, ["random"] * players
    b = rot(bots, i) if rotate else bots
    return b, [describe([x]) for x in b]


def _outputs(games_out, plot, plot_flag: str = "--plot"):
    """Check --games-out and --plot before any game is played (a usage error, exit 2);
    `plot_flag`: the flag that asked for pictures, named in the message."""
    if games_out is not None and Path(games_out).suffix.lower() not in (".jsonl", ".csv"):
        raise click.BadParameter(f"writes .jsonl or .csv, not '{Path(games_out).name}'", param_hint="--games-out")
    if plot is not None:
        from .plots import PlotError, check_target
        try:
            check_target(plot)
        except PlotError as e:
            raise click.BadParameter(str(e), param_hint=plot_flag) from None


def _write_games(path, records) -> None:
    from .balance import OutputError, write_games
    try:
        write_games(path, records)
    except OutputError as e:
        raise click.BadParameter(str(e), param_hint="--games-out") from None


def _lit(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def _replay(file: str, players: int, seed: int, opts: dict | None, bots: str | None = None, fast: bool = False) -> str:
    """The command that plays one game of a run again, alone (with the run's budgets)."""
    import shlex

    from .engine import budget
    pre = "".join(f" --max-{k} {budget.LIMITS[k]}" for k, d in (
        ("steps", budget.DEFAULT_STEPS), ("log", budget.DEFAULT_LOG), ("seconds", budget.DEFAULT_SECONDS),
        ("memory", budget.DEFAULT_MEMORY)) if budget.LIMITS[k] != d)
    args = "".join(f" -o {shlex.quote(f'{k}={_lit(v)}')}" for k, v in (opts or {}).items())
    if bots and bots != "random":
        args += f" --bots {shlex.quote(bots)}"
    if fast:  # (a game of the fast layout: replayed in it)
        args += " --fast"
    return f"tav{pre} run {shlex.quote(file)} -p {players} --seed {seed}{args}"


def _failure(r: dict, file: str, opts: dict | None, bots: str | None = None, part: str | None = None,
             fast: bool = False) -> dict:
    """A game of a run that stopped with an error, as reported (and as JSON): its seed, the
    error and its place, the command that replays it; `part`: which games of the run (a
    comparison's side, a report's part)."""
    sp = r["span"]
    out = {"seed": r["seed"], "message": r["error"].split(" (seed ")[0],
           "file": sp.file if sp is not None else None, "line": sp.line if sp is not None else None,
           "col": sp.col if sp is not None else None, "replay": _replay(file, r["players"], r["seed"], opts, bots, fast)}
    if part is not None and part != "game":  # (a report's own games: no part named)
        out["part"] = part
    out["_span"] = sp
    return out


def _jsonable_failures(failed: list[dict]) -> list[dict]:
    return [{k: v for k, v in f.items() if not k.startswith("_")} for f in failed]


def _print_failures(failed: list[dict], total: int, stopped: bool = False) -> None:
    """The games of a run that stopped with an error: each error once, at its place, with the
    seeds it stopped and the command that replays the first of them (on stderr)."""
    if not failed:
        return
    head = (f"  stopped at the first game that stopped with an error (--fail-fast), after {total} games:"
            if stopped else f"  {len(failed)} of {total} games stopped with an error (left out above):")
    click.echo(head, err=True)
    kinds: dict = {}  # the same error at the same place (in the same part of the run): once, with its seeds
    for f in failed:
        kinds.setdefault((f["message"], f["_span"], f.get("part")), []).append(f)
    for (msg, span, part), fs in kinds.items():
        d = GameError(msg, span).diagnostic()
        click.echo(d.render(guard.SOURCES.get("all")) if d.span.file != "<builtin>" else f"error: {msg}", err=True)
        seeds = [f["seed"] for f in fs]
        click.echo(f"    in {len(fs)} {part + ' ' if part else ''}game(s), seeds {', '.join(map(str, seeds[:10]))}"
                   f"{' ...' if len(seeds) > 10 else ''}; replay: {fs[0]['replay']}", err=True)


def _fail_fast_flag(f):
    return click.option("--fail-fast", is_flag=True,
                        help="Stop at the first game that stops with an error, with a summary of the games "
                             "played (by default such games are reported at the end and the run goes on).")(f)


def _dask_flag(f):
    return click.option("--dask", default=None, metavar="ADDRESS",
                        help="Play on a Dask cluster: a scheduler's address (tcp://HOST:8786), or local:N to start "
                             "N workers here (needs the [dask] extra; docs/scaling.md).")(f)


def _dask_guard(results):
    """The games, with a missing Dask or an unreachable scheduler as a usage error."""
    from .parallel import DaskError
    try:
        yield from results
    except DaskError as e:
        raise click.BadParameter(str(e), param_hint="--dask") from None


def _chance_flags(f):
    f = click.option("--effect", type=click.FloatRange(0, 100, min_open=True), default=2.0, show_default=True,
                     metavar="POINTS", help="The shift in a win rate, in points, that an inconclusive result says "
                                            "how many games would detect (80% power, after correction).")(f)
    f = click.option("--max-games", type=click.IntRange(2, MAX_GAMES), default=20_000, show_default=True,
                     help="The most games --until-ci plays (per side).")(f)
    f = click.option("--until-ci", "until_ci", type=click.FloatRange(0, 100, min_open=True), default=None,
                     metavar="WIDTH", help="Play more games, in batches, until the widest interval of a seat's win rate "
                                           "(against a variant: of its change) is at most WIDTH points wide after "
                                           "correction, or --max-games are played.")(f)
    return f


def _data_flags(f):
    f = click.option("--plot", type=click.Path(dir_okay=False), default=None, metavar="FILE.png|FILE.svg",
                     help="Draw win rates, scores and game lengths (needs the [plot] extra).")(f)
    f = click.option("--games-out", type=click.Path(dir_okay=False), default=None, metavar="FILE.jsonl|FILE.csv",
                     help="Write one record per game (seed, options, bots, winners, scores, rounds, decisions).")(f)
    return f


@main.command()
@_game_options
@click.option("--games", "-g", "n_games", type=click.IntRange(1, MAX_GAMES), default=100, show_default=True,
              help="How many games (at most 1000000).")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="Play on this many processes (the results are the same for any number).")
@_bots_flag
@click.option("--rotate", is_flag=True, help="Move the bots one seat on each game (each bot plays every seat).")
@_data_flags
@_dask_flag
@_fail_fast_flag
@_exact_flag
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@guarded
def sim(file, players, seed, options, n_games, jobs, bots_spec, rotate, games_out, plot, dask, fail_fast,
        exact, as_json) -> None:
    """Simulate many games with bots (random unless --bots) and report speed and balance."""
    from .balance import bot_rates, pct, record, seat_rates
    from .parallel import game_key, playouts, progress_bar

    game = _compile(file, exact)
    _check_players(game, players)
    opts = _parse_options(game, options)
    bots = _bots(bots_spec, players)
    _outputs(games_out, plot)
    wins = [0.0] * players
    score_sum = [0] * players
    decisions = forced = 0
    rounds = 0
    t0 = time.perf_counter()
    seeds = range(seed, seed + n_games)
    seat_bots = [_seat_bots(bots, players, i, rotate) for i in range(n_games)]
    key = game_key(file, game)
    jobs_list = [(key, players, s, opts) + ((b,) if b is not None else ()) for s, (b, _) in zip(seeds, seat_bots)]
    ok, records, search = [], [], {}
    with progress_bar("simulating", n_games) as tick:
        results = _dask_guard(playouts(jobs_list, jobs, {key: game}, dask, progress=tick))
        failed = []
        played = 0
        for i, r in enumerate(results):
            played += 1
            names = seat_bots[i][1]
            if "error" in r:  # this game stopped: reported below, the others go on (or, --fail-fast, not)
                failed.append(_failure(r, file, opts, ",".join(names) if bots is not None else None, fast=not game.layout.exact))
                if fail_fast:
                    break
                continue
            r["bots"] = names
            ok.append(r)
            records.append(record(r, opts, ",".join(names)))
            for p, st in (r.get("search") or {}).items():
                acc = search.setdefault(names[p - 1], [0, 0, 0.0, 0, 0])
                acc[0] += st["decisions"]
                acc[1] += st["worlds"]
                acc[2] += st["seconds"]
                acc[3] += st.get("failed_worlds", 0)
                acc[4] += st.get("reused_trees", 0)
            decisions += r["decisions"]
            forced += r.get("forced", 0)
            rounds += r["rounds"]
            w = r["winners"]
            for p in w:
                wins[p] += 1 / len(w)
            for p, sc in enumerate(r["scores"]):
                score_sum[p] += sc
    secs = time.perf_counter() - t0
    stopped = played < n_games  # (--fail-fast)
    n_games = played
    ended = max(1, n_games - len(failed))  # the statistics are of the games that ended
    rates = seat_rates(ok, players)
    data = {
        "game": game.title, "players": players, "seed": seed, "options": opts,
        "games": n_games, "jobs": jobs, "exact": game.layout.exact, "seconds": round(secs, 4),
        "playouts_per_s": round(n_games / secs, 2), "decisions": decisions,
        "decisions_per_s": round(decisions / secs, 1),
        "forced": forced,  # (decisions with one option, taken without asking: not in "decisions")
        "mean_rounds": round(rounds / ended, 3),
        "wins_by_seat": [round(w, 3) for w in wins],
        "win_rate_by_seat": [round(w / ended, 4) for w in wins],
        "win_rate_ci95_by_seat": [[round(x, 4) for x in r["ci95"]] for r in rates],
        "mean_score_by_seat": [round(s / ended, 3) for s in score_sum],
    }
    if bots is not None:
        data["bots"] = ",".join(seat_bots[0][1])
        data["rotate"] = rotate
        data["win_rate_by_bot"] = {b: {"rate": round(v["rate"], 4), "ci95": [round(x, 4) for x in v["ci95"]],
                                       "seats_played": v["seats_played"]} for b, v in bot_rates(ok, players).items()}
        data["search"] = {b: {"decisions": a[0], "worlds": a[1], "failed_worlds": a[3], "reused_trees": a[4],
                              "seconds": round(a[2], 3),
                              "worlds_per_s": round(a[1] / a[2], 1) if a[2] else None} for b, a in search.items()}
    if failed:
        data["failed"] = _jsonable_failures(failed)
        data["stopped"] = stopped
    if games_out is not None:
        _write_games(games_out, records)
    if plot is not None:
        from .plots import sim_figure
        sim_figure(plot, game.title, ok, players)
    if as_json:
        click.echo(json.dumps(data))
        if failed:
            sys.exit(1)
        return
    click.echo(f"{game.title}: {n_games} games, {players} players, seeds {seed}..{seed + n_games - 1}"
               + (f", bots {data['bots']}" + (" (rotated)" if rotate else "") if bots is not None else ""))
    click.echo(f"  {secs:.2f} s, {data['playouts_per_s']} playouts/s, {decisions} decisions, {data['decisions_per_s']} decisions/s"
               + (f" (and {forced} with one option, taken without asking)" if forced else "")
               + (f" ({jobs} processes)" if jobs > 1 else ""))
    if not game.layout.exact:
        click.echo(f"  fast layout ({', '.join(_sorted_names(game))} kept sorted): `tav run --fast --seed N` replays a game; "
                   "--exact plays each seed's exact game")
    click.echo(f"  mean rounds per game: {data['mean_rounds']}")
    click.echo("  seat  win rate [95% interval]  mean score")
    for p in range(players):
        r = rates[p]
        click.echo(f"  P{p + 1:<3}  {pct(r['rate'], *r['ci95'])}  {score_sum[p] / ended:10.2f}")
    if bots is not None:
        click.echo("  bot         win rate [95% interval]  (an even share: "
                   f"{100 / players:.1f}%)")
        for b, v in bot_rates(ok, players).items():
            click.echo(f"  {b:<10}  {pct(v['rate'], *v['ci95'])}  over {v['seats_played']} seats")
        for b, v in data["search"].items():
            click.echo(f"  {b}: {v['decisions']} decisions searched, {v['worlds']} worlds in {v['seconds']} s"
                       + (f" ({v['worlds_per_s']} iterations/s)" if v["worlds_per_s"] else "")
                       + (f"; {v['failed_worlds']} sampled worlds could not be played on" if v["failed_worlds"] else ""))
    if failed:
        _print_failures(failed, n_games, stopped)
        sys.exit(1)


@main.command()
@_game_options
@click.option("--games", "-g", "n_games", type=click.IntRange(1, 10000), default=20, show_default=True,
              help="How many random games to count (each runs ~30x slower than in tav sim).")
@click.option("--top", type=click.IntRange(1), default=15, show_default=True, help="How many rules lines to show.")
@_exact_flag
@click.option("--json", "as_json", is_flag=True, help="Print JSON: every rules line with its count.")
@guarded
def profile(file, players, seed, options, n_games, top, exact, as_json) -> None:
    """Where the work of a game goes: the rules lines whose code runs the most, in random games.

    Counts the Python bytecodes executed (a measure that holds on a loaded machine; time is close
    to proportional to it), per decision and as a share of the whole, at the rules line they
    were written for: a def's or helper's work at the line that runs it."""
    from .profile import count, rows

    game = _compile(file, exact)
    _check_players(game, players)
    opts = _parse_options(game, options)
    counted = count(game, players, range(seed, seed + n_games), opts)
    lines = rows(counted)
    data = {"game": game.title, "players": players, "seed": seed, "options": opts, "games": n_games,
            "exact": game.layout.exact, "bytecodes": counted["bytecodes"], "decisions": counted["decisions"],
            "forced": counted["forced"],
            "bytecodes_per_decision": round(counted["bytecodes"] / max(counted["decisions"], 1), 1),
            "lines": lines}
    if as_json:
        click.echo(json.dumps(data))
        return
    click.echo(f"{game.title}: {n_games} random game{'s' if n_games != 1 else ''}, {players} "
               f"player{'s' if players != 1 else ''}, seeds {seed}..{seed + n_games - 1}"
               + (", exact layout" if game.layout.exact else ", fast layout (as tav sim)"))
    click.echo(f"  {data['bytecodes_per_decision']} bytecodes of Python per decision ({counted['decisions']} decisions"
               + (f", and {counted['forced']} with one option" if counted["forced"] else "") + ")")
    click.echo("  share  per decision  rules line")
    for r in lines[:top]:
        place = f"{_shown_path(r['file'])}:{r['line']}  " if r["file"] is not None else ""
        click.echo(f"  {100 * r['share']:5.1f}%  {r['per_decision']:11.1f}  {place}{r['text'][:100]}")
    if len(lines) > top:
        rest = sum(r["bytecodes"] for r in lines[top:]) / max(counted["bytecodes"], 1)
        click.echo(f"  {100 * rest:5.1f}%  on {len(lines) - top} more lines (--top N shows more)")


def _shown_path(path: str) -> str:
    """A file's path as the user would type it: relative to the working directory when inside it."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd()))
    except ValueError:
        return path


@main.command()
@click.argument("file", type=RulesPath())
@click.option("--out", "-o", "out", type=click.Path(dir_okay=False, writable=True), default=None,
              help="Write the rulebook to this file (Markdown) instead of printing it.")
@guarded
def rules(file, out) -> None:
    """A rulebook in plain words, written from FILE's checked rules (Markdown); a house rule's
    page begins with what it changes against its base."""
    from .loader import load
    from .rulebook import rulebook

    model = load(file)
    base = load(model.base_path) if model.base_path else None
    text = rulebook(model, base, source=file)
    if out is None:
        click.echo(text, nl=False)
        return
    try:
        Path(out).write_text(text, encoding="utf-8")
    except OSError as e:
        click.echo(f"error: cannot write {out}: {e.strerror or e}", err=True)
        sys.exit(1)
    click.echo(f"wrote {out}")


@main.command()
@click.argument("base", type=RulesPath())
@click.argument("variant", type=RulesPath())
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@guarded
def diff(base, variant, as_json) -> None:
    """What VARIANT changes in BASE, definition by definition. Exit 0 when the games are the
    same, 1 when they differ, 2 when a file cannot be loaded (as `diff`)."""
    from .diff import diff_games, render
    from .loader import load

    try:
        changes = diff_games(load(base), load(variant))
    except TavError as e:  # (trouble, as `diff` says it: exit 2, not 1, which means "they differ")
        if as_json:
            click.echo(json.dumps({"errors": [_diag_json(d) for d in e.diagnostics]}))
        else:
            click.echo(e.render(), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps({"base": base, "variant": variant, "changes": changes}, indent=2))
    else:
        click.echo(render(changes))
    sys.exit(1 if changes else 0)


@main.command()
@click.argument("base", type=RulesPath())
@click.argument("variant", type=RulesPath())
@click.option("--players", "-p", type=int, required=True, help="Number of players.")
@click.option("--games", "-g", "n_games", type=click.IntRange(2, MAX_GAMES), default=200, show_default=True,
              help="Games per side (at most 1000000).")
@click.option("--seed", type=int, default=1, show_default=True, help="First seed; both sides play the same seeds.")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="Play on this many processes (the results are the same for any number).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE", help="Set a game option on both sides.")
@click.option("--base-option", "-B", "base_options", multiple=True, metavar="NAME=VALUE",
              help="Set a game option on the base side only.")
@click.option("--variant-option", "-V", "variant_options", multiple=True, metavar="NAME=VALUE",
              help="Set a game option on the variant side only (BASE BASE -V x=1: one option value against another).")
@_bots_flag
@_chance_flags
@_data_flags
@_dask_flag
@_fail_fast_flag
@_exact_flag
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@guarded
def compare(base, variant, players, n_games, seed, jobs, options, base_options, variant_options, bots_spec,
            until_ci, max_games, effect, games_out, plot, dask, fail_fast, exact, as_json) -> None:
    """Play BASE and VARIANT on the same seeds and compare balance and length."""
    from .balance import record
    from .compare import assess, differences, render, summarize
    from .parallel import game_key, playouts, progress_bar

    games, opts = {}, {}
    paths = {"base": base, "variant": variant}
    for label, path, own in (("base", base, base_options), ("variant", variant, variant_options)):
        g = _compile(path, exact)
        _check_players(g, players)
        games[label] = g
        opts[label] = _parse_options(g, tuple(options) + tuple(own))
    if games["base"].layout.exact != games["variant"].layout.exact:
        # one side reads the pile's order: both play exactly, so that the sides, paired by seed,
        # draw alike (a fast side against an exact one would share none of its random numbers)
        games = {label: _exact(g) for label, g in games.items()}
    bots = _bots(bots_spec, players)
    _outputs(games_out, plot)
    from .bots import describe
    names = describe(bots) if bots is not None else "random"
    results = {"base": [], "variant": []}
    more = (bots,) if bots is not None else ()
    keys = {label: game_key(paths[label], games[label]) for label in paths}
    local = {keys["base"]: games["base"], keys["variant"]: games["variant"]}
    failed: list[dict] = []

    def play(first: int, last: int, tick) -> int:
        """Play seeds first..last-1 on both sides into `results` (a seed is left out of both when
        either side stops with an error); the number of seeds played (fewer: --fail-fast)."""
        todo = [(keys[label], players, s, opts[label] or None) + more for s in range(first, last)
                for label in ("base", "variant")]
        labels = [label for _ in range(first, last) for label in ("base", "variant")]
        done = _dask_guard(playouts(todo, jobs, local, dask, progress=tick))
        pair, played = {}, 0
        for label, r in zip(labels, done):
            pair[label] = r
            if "error" in r:  # reported at the end; the seed is left out of both sides (they are paired by seed)
                failed.append(_failure(r, paths[label], opts[label], names if bots is not None else None, label,
                                       not games[label].layout.exact))
            if len(pair) < 2:
                continue
            played += 1
            if not any("error" in x for x in pair.values()):
                for k, x in pair.items():
                    results[k].append(x)
            pair = {}
            if failed and fail_fast:
                break
        return played

    with progress_bar("comparing", 2 * n_games) as tick:
        played = play(seed, seed + n_games, tick)
    stopped = played < n_games
    until = None
    if until_ci is not None and not stopped:  # (in batches, each decided by the games before it)
        from .compare import widest_change
        from .stats import next_games
        target, cap = until_ci / 100, max(max_games, n_games)
        while True:
            widest = widest_change(results["base"], results["variant"], players, 2 * players + 3)
            if widest <= target or played >= cap or not results["base"]:  # (no seed ended: none would)
                until = {"width": target, "max_games": cap, "widest": widest, "reached": widest <= target}
                break
            want = next_games(played, widest, target, cap) - played
            with progress_bar("comparing", 2 * want) as tick:
                got = play(seed + played, seed + played + want, tick)
            played += got
            if got < want:  # (--fail-fast)
                stopped = True
                break
    n_games = played
    report = {
        "base_file": base, "variant_file": variant, "players": players, "games": n_games, "seed": seed,
        "base_exact": games["base"].layout.exact, "variant_exact": games["variant"].layout.exact,  # (the layout of each side)
        "base_options": opts["base"], "variant_options": opts["variant"], "bots": names if bots is not None else None,
        "base": summarize(results["base"], players), "variant": summarize(results["variant"], players),
        "difference": differences(results["base"], results["variant"], players),
    }
    report["statistics"] = assess(dict(report, games=len(results["base"])), effect / 100)
    if until is not None:
        report["until_ci"] = until
    if failed:
        report["failed"] = _jsonable_failures(failed)
        report["stopped"] = stopped
    if games_out is not None:
        _write_games(games_out, [record(r, opts[label], names, label) for label in ("base", "variant")
                                 for r in results[label]])
    if plot is not None:
        from .plots import compare_figure
        compare_figure(plot, f"{games['base'].title}: base and variant, {n_games} games each, {players} players",
                       results["base"], results["variant"], players)
    click.echo(json.dumps(report) if as_json else render(report))
    if failed:
        if not as_json:
            _print_failures(failed, 2 * n_games, stopped)
        sys.exit(1)


@main.command()
@click.argument("file", type=RulesPath())
@click.argument("variant", required=False, type=RulesPath())
@click.option("--players", "-p", type=int, required=True, help="Number of players.")
@click.option("--games", "-g", "n_games", type=click.IntRange(2, MAX_GAMES), default=200, show_default=True,
              help="Games for the balance numbers (and per option value, and for the variant).")
@click.option("--seed", type=int, default=1, show_default=True, help="First seed (every part plays the same seeds).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE", help="Set a game option.")
@click.option("--variant-option", "-V", "variant_options", multiple=True, metavar="NAME=VALUE",
              help="Set an option for the variant only.")
@_bots_flag
@click.option("--skill-games", type=click.IntRange(0), default=None,
              help="Games of the skill test and the strategy tables: a search bot against random bots [default: "
                   "from 2 a seat for a game of 1,200 decisions to 25 a seat for a short one; 0: none].")
@click.option("--skill-bot", "skill_bot", default="mcts:10", show_default=True, metavar="BOT",
              help="The bot of the skill test (a --bots name: mcts:50:rollout=mast, lookahead:8...).")
@click.option("--vary", multiple=True, metavar="OPTION[=V1,V2...]",
              help="Play every value of this option (a yes/no or enum; an int: its default and range ends).")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Also write the report with its pictures into this folder (needs the [plot] extra).")
@click.option("--format", "fmt", type=click.Choice(["md", "html"]), default="md", show_default=True,
              help="The page --out writes: Markdown beside its PNG pictures, or one HTML file with them inside.")
@click.option("--games-out", type=click.Path(dir_okay=False), default=None, metavar="FILE.jsonl|FILE.csv",
              help="Write one record per game played for the report.")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="Play on this many processes (the report is the same for any number).")
@_chance_flags
@_dask_flag
@_fail_fast_flag
@_exact_flag
@click.option("--json", "as_json", is_flag=True, help="Print the numbers as JSON.")
@guarded
def report(file, variant, players, n_games, seed, options, variant_options, bots_spec, skill_games, skill_bot,
           vary, out_dir, fmt, games_out, jobs, until_ci, max_games, effect, dask, fail_fast, exact, as_json) -> None:
    """A balance report: seats, scores, length, ties, lead changes, branching, skill (search
    against random bots), option values (--vary) and a variant, with pictures (--out)."""
    from .bots import BotSpecError, parse_bots
    from .report import ReportError, Stopped, build, jsonable, render_text, vary_values, write

    game = _compile(file, exact)
    _check_players(game, players)
    opts = _parse_options(game, options)
    bots = _bots(bots_spec, players)
    try:
        kind = parse_bots(skill_bot, 1)[0]
    except BotSpecError as e:
        raise click.BadParameter(str(e), param_hint="--skill-bot") from None
    if kind[0] == "random":
        raise click.BadParameter("the skill test plays a search bot (greedy or mcts) against random bots",
                                 param_hint="--skill-bot")
    vgame = vopts = None
    if variant is not None:
        vgame = _compile(variant, exact)
        if vgame.layout.exact != game.layout.exact:  # (as compare: both exact, so that a seed draws alike on both)
            game, vgame = _exact(game), _exact(vgame)
        _check_players(vgame, players)
        vopts = _parse_options(vgame, tuple(options) + tuple(variant_options))
        guard.SOURCES["current"] = game.model.sources
    elif variant_options:
        raise click.BadParameter("is for a VARIANT", param_hint="--variant-option")
    try:
        for v in vary:
            vary_values(game, v)
    except ReportError as e:
        raise click.BadParameter(str(e).removeprefix("--vary: "), param_hint="--vary") from None
    _outputs(games_out, str(Path(out_dir or ".") / "x.png") if out_dir else None, "--out")
    skill_n = 2 * players if skill_games is None else skill_games  # (the bar's guess: the default follows the games' length)
    total = n_games * (1 + sum(len(vary_values(game, v)[1]) for v in vary) + (variant is not None)) + skill_n
    from .parallel import DaskError, progress_bar
    halted = None
    with progress_bar("playing", total) as tick:
        try:
            rep = build(game, file, players, n_games, seed, opts, bots, skill_games, skill_bot, list(vary), vgame, variant,
                        vopts, progress=tick, jobs=jobs, dask=dask, fail_fast=fail_fast,
                        until_ci=None if until_ci is None else until_ci / 100, max_games=max(max_games, n_games),
                        effect=effect / 100)
        except DaskError as e:
            raise click.BadParameter(str(e), param_hint="--dask") from None
        except Stopped as e:  # --fail-fast: what was played, and the game that stopped (after the bar)
            halted = e
    if halted is not None:
        failed = [_failure(f, f["file"], f["options"], f["bots"], f["part"], f.get("fast", False)) for f in halted.failed]
        if as_json:
            click.echo(json.dumps({"games_played": halted.played, "stopped": True,
                                   "failed": _jsonable_failures(failed)}))
        else:
            click.echo(f"{game.title}: the report stopped after {halted.played} of {total} games (--fail-fast)")
            _print_failures(failed, halted.played, stopped=True)
        sys.exit(1)
    failed = [_failure(f, f["file"], f["options"], f["bots"], f["part"], f.get("fast", False)) for f in rep.pop("failed")]
    if failed:
        rep["failed"] = _jsonable_failures(failed)
    if games_out is not None:
        _write_games(games_out, rep["_records"])
    if out_dir is not None:
        from .plots import PlotError
        cmd = "tav report " + " ".join(sys.argv[2:]) if len(sys.argv) > 2 and sys.argv[1] == "report" else \
            f"tav report {file} -p {players}"
        try:
            page = write(rep, out_dir, fmt, cmd)
        except (PlotError, ReportError) as e:
            raise click.BadParameter(str(e), param_hint="--out") from None
        if not as_json:
            click.echo(f"wrote {page}", err=True)
    click.echo(json.dumps(jsonable(rep)) if as_json else render_text(rep))
    if failed:
        if not as_json:
            _print_failures(failed, total)
        sys.exit(1)


NO_SCENARIOS = 5  # the exit code of `tav test` when no scenario ran (pytest's "no tests collected")


@main.command()
@click.argument("paths", nargs=-1, required=True, type=RulesPath(folders=True, stdin=True))
@click.option("-v", "--verbose", is_flag=True, help="Print each scenario's log.")
@click.option("-k", "keyword", default=None, metavar="EXPR",
              help="Run only the scenarios whose title (or file) holds these words, ignoring case: "
                   "'tips', 'tips and not draw', '(a or b) and c' (as pytest -k).")
@click.option("-x", "--exitfirst", is_flag=True, help="Stop at the first scenario that fails (or file that does not load).")
@click.option("--junitxml", type=click.Path(dir_okay=False, writable=True), default=None, metavar="FILE",
              help="Also write the results as JUnit XML (as pytest --junitxml), for CI.")
@guarded
def test(paths, verbose, keyword=None, exitfirst=False, junitxml=None) -> None:
    """Run the scenarios in rules files (or folders of them). Exit 0 when every scenario passes,
    1 when one fails or a file does not load, 5 when no scenario ran (as pytest)."""
    from .engine.scenario import run_scenario
    from .testing import KeywordError, Report, keyword_matcher

    from .syntax import ast as A
    from .syntax.parser import parse

    try:
        wanted = keyword_matcher(keyword) if keyword is not None else None
    except KeywordError as e:
        raise click.BadParameter(str(e), param_hint="-k") from None

    def has_scenarios(f: Path) -> bool:
        """In a folder, only files that declare scenarios are run (not the games they include)."""
        try:
            return any(isinstance(d, A.ScenarioDecl) for d in parse(f.read_bytes(), str(f)).decls)
        except TavError:
            return True  # let the run report the error
    files = []
    for p in paths:
        pp = Path(p)
        if p != "-" and pp.is_dir():
            found = [f for f in sorted(pp.rglob("*.tav")) if f.is_file() and has_scenarios(f)]
            if not found:
                click.echo(f"{p}: no rules file in this folder has scenarios")
            files.extend(str(f) for f in found)
        else:
            files.append(p)
    passed = failed = deselected = 0
    errors = 0
    report = Report()
    stop = False
    for f in files:
        try:
            game = _compile(str(f))
        except TavError as e:
            click.echo(e.render(), err=True)
            errors += 1
            report.error(str(f), e.diagnostics[0].span if e.diagnostics else None, e.render())
            stop = exitfirst
        except GameError as e:  # (rules that cannot be compiled: nested too deeply)
            d = e.diagnostic()
            click.echo(d.render(guard.SOURCES.get("current")), err=True)
            errors += 1
            report.error(str(f), d.span, d.render())
            stop = exitfirst
        else:
            if not game.scenarios:
                click.echo(f"{game.model.path}: no scenarios in this file")
            for sc in game.scenarios:
                title = sc["decl"].title
                if wanted is not None and not wanted(title, str(f)):
                    deselected += 1
                    continue
                t0 = time.perf_counter()
                r = run_scenario(game, sc)
                report.case(str(f), r, time.perf_counter() - t0)
                if verbose:
                    click.echo(r.transcript())
                if r.passed:
                    passed += 1
                    click.echo(f"ok    {r.span}: {r.title}")
                else:
                    failed += 1
                    click.echo(f"FAIL  {r.span}: {r.title}")
                    for sp, msg in r.failures:
                        click.echo(f"      {sp}: {msg}")
                    if exitfirst:
                        stop = True
                        break
        if stop:
            click.echo("stopping at the first failure (-x)")
            break
    click.echo(f"{passed} passed, {failed} failed" + (f", {deselected} deselected" if deselected else ""))
    if junitxml is not None:
        try:
            report.write(junitxml)
        except OSError as e:
            raise click.BadParameter(f"cannot write '{junitxml}': {e.strerror or e}", param_hint="--junitxml") from None
    if failed or errors:
        sys.exit(1)
    if passed == 0:
        sys.exit(NO_SCENARIOS)


@main.command()
@click.option("--stdio", is_flag=True, hidden=True, help="Talk over stdin/stdout (always so; editors pass it).")
def lsp(stdio) -> None:
    """A language server for editors, over stdin/stdout: diagnostics, lint, hover, definitions,
    completion, outline, formatting (needs the [lsp] extra; docs/editors.md)."""
    from .lsp import main as serve

    sys.exit(serve())


@main.command("fmt")
@click.argument("paths", nargs=-1, required=True, type=RulesPath(folders=True, stdin=True))
@click.option("--check", is_flag=True, help="Change nothing; list the files that would change (exit 1 if any).")
@click.option("--diff", "show_diff", is_flag=True, help="Change nothing; print what would change as a unified diff.")
@guarded
def fmt(paths, check, show_diff) -> None:
    """Lay rules files out in the canonical format, in place (a folder: every .tav file under it;
    -: standard input, formatted to standard output)."""
    from .fmt import run as run_fmt
    if "-" in paths:
        if len(paths) > 1:
            raise click.BadParameter("standard input ('-') is formatted alone", param_hint="PATHS")
        sys.exit(_fmt_stdin(check, show_diff))
    sys.exit(run_fmt(paths, check=check, show_diff=show_diff, echo=click.echo,
                     echo_err=lambda m: click.echo(m, err=True)))



def _fmt_stdin(check: bool, show_diff: bool) -> int:
    """`tav fmt -`: the formatted text on stdout (--check: exit 1 if it would change; --diff: the diff)."""
    from .fmt import diff_text, format_text
    from .paths import STDIN_NAME, stdin_text
    text = stdin_text()
    try:
        out = format_text(text, STDIN_NAME)
    except TavError as e:
        click.echo(e.render(), err=True)
        return 1
    if show_diff:
        if out != text:
            click.echo(diff_text(text, out, STDIN_NAME).rstrip("\n"))
        return 0
    if check:
        if out != text:
            click.echo(STDIN_NAME)
            return 1
        return 0
    click.echo(out, nl=False)
    return 0


if __name__ == "__main__":  # pragma: no cover
    main()
