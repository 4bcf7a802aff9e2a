"""The `tav lint` command (a click command object, added to the `tav` group by the CLI).

    tav lint FILE... [--format text|json|sarif|github] [--select CODES] [--ignore CODES]
                     [--simulate N [--seed S] [--players P] [-o NAME=VALUE]... [--max-steps K]
                                   [--bots BOTS] [--jobs J | --dask ADDRESS]]
    tav lint --list-rules

Findings print as ``FILE:LINE:COL: CODE message`` (notes indented below). Exit
code 0 when clean, 1 when there is a finding (or a file does not load), 2 for a
wrong command line. Also runnable as ``python -m tavernlang.lint.command FILE...``.
"""
from __future__ import annotations

import json
import sys

import click

from ..guard import guarded, remember_sources
from ..paths import RulesPath


def _options(game, pairs):
    if not pairs:
        return {}
    from ..options import parse_options as _parse_options  # the same conversions as `tav run -o`

    return _parse_options(game, tuple(pairs))


@click.command("lint")
@click.argument("files", nargs=-1, type=RulesPath(folders=True, stdin=True))
@click.option("--format", "fmt", type=click.Choice(["text", "json", "sarif", "github"]), default="text",
              show_default=True, help="How to print the findings: text, JSON, a SARIF 2.1.0 log, or GitHub Actions "
                                      "annotations (docs/cli.md).")
@click.option("--select", multiple=True, metavar="CODES",
              help="Only these codes (comma-separated; a prefix such as TAV1 selects a family).")
@click.option("--ignore", multiple=True, metavar="CODES", help="Leave out these codes (comma-separated, or prefixes).")
@click.option("--simulate", type=click.IntRange(1), default=None, metavar="N",
              help="Also play N seeded bot games and report what never fired and the well-formedness checks.")
@click.option("--seed", type=int, default=1, show_default=True, help="The seed of the first simulated game.")
@click.option("--players", "-p", type=int, default=None,
              help="Simulate this player count only (default: each count of the game in turn).")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Fix a game option for --simulate (the others that are yes/no or an enum are varied).")
@click.option("--vary-options/--no-vary-options", default=True, show_default=True,
              help="With --simulate, play every value of each yes/no and enum option the game declares.")
@click.option("--max-steps", type=click.IntRange(1), default=None, metavar="K",
              help="Stop a simulated game after K decisions and report it as not ending [default: 20000].")
@click.option("--bots", "bots", default=None, metavar="BOTS",
              help="With --simulate, who plays: random (default), greedy or mcts[:N], or one per seat.")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="With --simulate, play on this many processes (the findings are the same for any number).")
@click.option("--dask", default=None, metavar="ADDRESS",
              help="With --simulate, play on a Dask cluster: a scheduler's address (tcp://HOST:8786), or local:N "
                   "to start N workers here (needs the [dask] extra; docs/scaling.md).")
@click.option("--list-rules", is_flag=True, help="List every rule with its code and exit.")
@guarded
def lint(files, fmt, select, ignore, simulate, seed, players, options, vary_options, max_steps, bots, jobs, dask,
         list_rules):
    """Find rules that can never take effect, statically (and by simulation with --simulate)."""
    from . import all_rules, lint_path, make_context, parse_codes
    from .coverage import DEFAULT_MAX_STEPS

    if list_rules:
        for r in all_rules():
            click.echo(f"{r.code}  {r.name:<28} {r.summary}")
        return
    if not files:
        raise click.UsageError("give at least one rules file (or --list-rules)")
    from .. import project
    if simulate is None:  # (the project file's players and bots are for --simulate)
        players = None if project.from_file("players") else players
        bots = None if project.from_file("bots") else bots
    sel, ign = parse_codes(select), parse_codes(ignore)
    known = {r.code for r in all_rules()} | {"TAV000"}
    for key, codes in (("select", sel), ("ignore", ign)):
        for c in codes:
            if not any(k.startswith(c) for k in known):
                proj = project.from_file(key)
                if proj is not None:
                    project.fail(proj.error(f"lint.{key}", f"no rule has a code starting with '{c}'; "
                                                           "see tav lint --list-rules"))
                raise click.BadParameter(f"no rule has a code starting with '{c}'; see tav lint --list-rules",
                                         param_hint="--select/--ignore")
    if players is not None and simulate is None:
        raise click.BadParameter("--players is for --simulate", param_hint="--players")
    if bots is not None and simulate is None:
        raise click.BadParameter("--bots is for --simulate", param_hint="--bots")
    if (jobs > 1 or dask is not None) and simulate is None:
        raise click.BadParameter("is for --simulate", param_hint="--jobs" if jobs > 1 else "--dask")
    all_findings = []
    coverage = {}

    def simulated(path):
        def run(model):
            """The simulation's findings for a loaded file (None: nothing to simulate)."""
            if model.rounds is None:
                click.echo(f"{path}: no 'rounds' block, nothing to simulate", err=True)
                return None
            from ..engine.compile import CompiledGame
            from .coverage import findings as dyn_findings, simulate as run_sim

            remember_sources(model.sources)  # (the rules text under an error that stops the simulation)
            game = CompiledGame(model)
            if players is not None and not game.min_players <= players <= game.max_players:
                proj = project.from_file("players")
                if proj is not None:
                    project.fail(proj.error("players", f"{game.title} is for {game.min_players} to "
                                                       f"{game.max_players} players, not {players} "
                                                       f"({proj.setting('players')}; give --players to simulate "
                                                       "another count)"))
                raise click.BadParameter(f"{game.title} is for {game.min_players} to {game.max_players} "
                                         f"players, not {players}", param_hint="--players")
            if bots is not None:
                from ..bots import BotSpecError, parse_bots
                for n in ([players] if players else range(game.min_players, game.max_players + 1)):
                    try:
                        parse_bots(bots, n)
                    except BotSpecError as e:
                        proj = project.from_file("bots")
                        if proj is not None:
                            project.fail(proj.error("bots", f"{e} ({proj.setting('bots')})"))
                        raise click.BadParameter(f"{e} (give one bot for all seats, or --players)" if "," in bots
                                                 else str(e), param_hint="--bots") from None
            ctx = make_context(model, sel, ign)
            from ..parallel import DaskError, progress_bar
            with progress_bar("simulating", simulate) as tick:
                try:
                    cov = run_sim(ctx, game, simulate, seed, players, _options(game, options),
                                  max_steps or DEFAULT_MAX_STEPS, vary_options, bots, path=path, jobs=jobs, dask=dask,
                                  progress=tick)
                except DaskError as e:
                    raise click.BadParameter(str(e), param_hint="--dask") from None
            coverage[path] = cov
            fired = sum(1 for it in cov.items if it.fired)
            varied = f", varying {', '.join(cov.varied)}" if cov.varied else ""
            click.echo(f"{path}: simulated {simulate} game{'s' if simulate != 1 else ''} "
                       f"(seeds {seed}..{seed + simulate - 1}, {cov.decisions} decisions{varied}): {fired} of "
                       f"{len(cov.items)} phases, actions, effects, triggers, handlers and options fired", err=True)
            return dyn_findings(ctx, cov)
        return run

    from ..paths import expand, source
    files = expand(files)  # (a folder: its entry files; -: standard input, as <stdin>)
    for path in files:
        name, overlay = source(path)
        found, _ = lint_path(name, sel, ign, extra=simulated(name) if simulate is not None else None, overlay=overlay)
        all_findings.extend(found)
    if fmt == "json":
        data = {
            "files": list(files),
            "findings": [f.to_json() for f in all_findings],
            "summary": _summary(all_findings),
        }
        if simulate is not None:
            data["coverage"] = {p: c.to_json() for p, c in coverage.items()}
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
    elif fmt in ("sarif", "github"):
        from .. import ci_formats
        items = ci_formats.of_findings(all_findings)
        if fmt == "sarif":
            rules = [(r.code, r.name, r.summary) for r in all_rules()]
            click.echo(json.dumps(ci_formats.sarif(items, rules), indent=2, ensure_ascii=False))
        else:
            for line in ci_formats.github(items):
                click.echo(line)
    else:
        for f in all_findings:
            click.echo(f.render())
        if all_findings:
            n = len(all_findings)
            click.echo(f"{n} finding{'s' if n != 1 else ''}", err=True)
    if all_findings:
        sys.exit(1)


def _summary(findings) -> dict:
    by_code: dict[str, int] = {}
    for f in findings:
        by_code[f.code] = by_code.get(f.code, 0) + 1
    return {"findings": len(findings), "by_code": dict(sorted(by_code.items()))}


if __name__ == "__main__":  # pragma: no cover
    lint(prog_name="tav lint")
