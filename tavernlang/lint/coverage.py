"""`tav lint --simulate N` (TAV7xx): dynamic coverage and well-formedness.

N seeded games are played by the same uniformly random bots as `tav sim` (game
i has seed S+i and, unless a player count is given, the counts of the game in
turn). The engine counts what fires (``State.fired``): every phase entered,
action taken (a space, in a worker-placement game), effect run, `when ...
reaches` trigger, `on` handler and option of a `choose`. From the same runs come
the well-formedness checks of general game playing: games stopped by a step
limit (termination), turns where the player to act had no legal option
(playability), seats that never won (winnability), and errors while playing,
each with a seed that shows it.

Something the static rules already report as unreachable is not reported again
as never fired; it still appears, at 0, in the fire rates of ``--format json``.
"""
from __future__ import annotations

import math
import os
from typing import Any

import attrs

from ..errors import GameError, Note, Span
from ..syntax import ast as A
from .rule import Finding, rule

DEFAULT_MAX_STEPS = 20_000


class _StepLimit(Exception):
    pass


@attrs.define
class Item:
    """Something that can fire, with where it is written."""

    key: Any
    kind: str  # phase, action, effect, trigger, handler, option
    name: str
    node: A.Node
    code: str
    reached: bool = True
    fired: int = 0
    games: int = 0

    def to_json(self, n_games: int) -> dict:
        sp = self.node.span
        return {"kind": self.kind, "name": self.name, "file": sp.file, "line": sp.line, "col": sp.col,
                "fired": self.fired, "games": self.games, "rate": round(self.games / n_games, 4) if n_games else 0.0}


@attrs.define
class Coverage:
    n_games: int
    seed: int
    players: list[int]
    max_steps: int
    items: list[Item]
    wins: dict[int, list[int]]  # player count -> wins per seat
    games_at: dict[int, list[int]]  # player count -> seeds
    stopped: list[tuple[int, int, str]] = attrs.field(factory=list)  # (seed, players, why)
    errors: list[tuple[int, int, GameError]] = attrs.field(factory=list)
    idle: dict = attrs.field(factory=dict)  # phase node -> [count, games, first seed, players]
    rule_at: dict = attrs.field(factory=dict)  # player count -> the `winner when` rule that decided
    varied: list = attrs.field(factory=list)  # the options the simulation varies
    options_at: dict = attrs.field(factory=dict)  # seed -> the varied options' values (off their defaults)
    fixed: dict = attrs.field(factory=dict)  # the options given with -o
    decisions: int = 0

    def to_json(self) -> dict:
        return {
            "games": self.n_games, "seed": self.seed, "players": self.players, "max_steps": self.max_steps,
            "decisions": self.decisions, "options_varied": self.varied,
            "rules": [it.to_json(self.n_games) for it in self.items],
            "wins_by_seat": {str(n): w for n, w in sorted(self.wins.items())},
            "games_by_players": {str(n): len(s) for n, s in sorted(self.games_at.items())},
            "stopped": [{"seed": s, "players": p, "why": w} for s, p, w in self.stopped],
            "errors": [{"seed": s, "players": p, "message": str(e)} for s, p, e in self.errors],
        }


def items_of(ctx) -> list[Item]:
    """Everything of the game that can fire, in the order of the rules text."""
    f, m = ctx.facts, ctx.model
    out: list[Item] = []
    for info in m.phases:
        out.append(Item(("phase", info.decl), "phase", info.name, info.decl, "TAV706"))
    for u in f.units:
        if f.is_library(u):
            continue
        reached = u in f.reached
        if u.kind == "action":
            out.append(Item(u.name, "action", u.name, u.node, "TAV701", reached))
        elif u.kind == "effect":
            out.append(Item(u.name, "effect", u.name, u.node, "TAV702", reached))
        elif u.kind == "when":
            d = u.node
            out.append(Item(("when", d), "trigger", f"when {d.counter} of {d.pvar} reaches {f.source(d.value)}", d,
                            "TAV703", reached))
        elif u.kind == "on":
            out.append(Item(("on", u.name), "handler", f"on {u.name}", u.node, "TAV704", reached))
    for s in f.nodes(A.ChooseOne):
        u = f.unit_of.get(s)
        if u is None or u.kind == "scenario" or f.is_library(s):
            continue
        for o in s.options:
            out.append(Item(("option", s, o.label), "option", o.label, o, "TAV705", u in f.reached))
    out.sort(key=lambda it: (it.node.span.file, it.node.span.line, it.node.span.col))
    return out


def option_values(model, fixed) -> list[tuple[str, list]]:
    """The yes/no and enum options a simulation plays every value of (default first), except
    those fixed by `-o` or by a house rule's `set`."""
    fixed = set(fixed) | {c.name for c in getattr(model, "changes", []) if c.op == "set"}
    out = []
    for name, o in model.options.items():
        if name in fixed or not isinstance(o.decl.default, (A.Lit, A.Name)):
            continue
        d = o.decl.default
        if o.type == "bool" and isinstance(d, A.Lit):
            out.append((name, [d.value, not d.value]))
        elif o.type.enum is not None and isinstance(d, A.Name):
            vals = list(model.enums.get(o.type.enum, ()))
            if d.name in vals and len(vals) > 1:
                out.append((name, [d.name] + [v for v in vals if v != d.name]))
    return out


def _portable(v, where=None):
    """A key of what fired, as the same value in any process: a rules node by its kind and place
    (the nodes of a game compiled on a worker are not this process's). `where` maps a rules
    file's absolute path to its name here."""
    if isinstance(v, A.Node):
        sp = v.span
        return ("@node", type(v).__name__, os.path.abspath(sp.file), sp.line, sp.col, sp.end_line, sp.end_col)
    if isinstance(v, tuple):
        return tuple(_portable(x) for x in v)
    return v


def play_game(game, n: int, s: int, opts: dict, bots: str | None, max_steps: int) -> dict:
    """One game of the simulation, as data that can come back from a worker process (`--jobs`,
    `--dask`): what fired (`_portable` keys), the decisions, who won by which rule, or why the
    game stopped."""
    from ..engine.common import RULE_FAULTS
    from ..engine.runner import bot_rng, located

    fired: dict = {}
    seat_bots = None
    if bots is not None:  # `--bots`: other bots than the uniform ones (bots.py)
        from ..bots import all_random, parse_bots
        seat_bots = parse_bots(bots, n)
        seat_bots = None if all_random(seat_bots) else seat_bots
    st = game.new_state(n, s, opts)
    st.fired = fired
    rnd = bot_rng(s).random
    steps = [0]

    def agent(player, opts, rnd=rnd, steps=steps):
        steps[0] += 1
        if steps[0] > max_steps:
            raise _StepLimit
        return int(rnd() * len(opts))
    st.agent = agent
    out: dict = {"seed": s, "players": n}
    try:
        if seat_bots is not None:
            from ..bots import drive
            st, history, _ = drive(game, n, s, opts, seat_bots, fired, max_steps)
            steps[0] = len(history)
        else:
            for _ in game.flow(st):  # pragma: no cover - the agent answers inline
                raise AssertionError("a decision escaped the agent")
        result = game.result(st)
        out["winners"] = list(result["winners"])
        if "rule" in result:
            out["rule"] = result["rule"]
    except _StepLimit:
        out["stopped"] = f"no end after {max_steps} decisions"
    except GameError as e:
        if "did not end after" in str(e):
            out["stopped"] = str(e)
        else:
            out["error"] = (str(e), e.span)
    except RecursionError:
        out["error"] = ("the rules nest too deeply to run (endless 'do'?)", None)
    except RULE_FAULTS as e:  # a none where a value was needed, and the like: placed like in `tav run`
        e = located(e)
        out["error"] = (str(e), e.span)
    out["decisions"] = steps[0]
    out["fired"] = [(_portable(k), c) for k, c in fired.items()]
    return out


def simulate(ctx, game, n_games: int, seed: int = 1, players: int | None = None, options: dict | None = None,
             max_steps: int = DEFAULT_MAX_STEPS, vary_options: bool = True, bots: str | None = None,
             path: str | None = None, jobs: int = 1, dask: str | None = None, progress=None) -> Coverage:
    """Play the simulation's games (on `jobs` processes or a Dask cluster, given the rules file's
    `path`: the same coverage for any) and gather what fired, in the order of the seeds."""
    counts = [players] if players else list(range(game.min_players, game.max_players + 1))
    items = items_of(ctx)
    cov = Coverage(n_games, seed, counts, max_steps, items, {n: [0] * n for n in counts}, {n: [] for n in counts})
    varied = option_values(ctx.model, options or {}) if vary_options else []
    cov.varied = [name for name, _ in varied]
    cov.fixed = dict(options or {})
    todo = []
    for i in range(n_games):
        s = seed + i
        n = counts[i % len(counts)]
        cov.games_at[n].append(s)
        # each player count plays its first game with the defaults, then every value of each
        # yes/no and enum option in turn (the options shift against each other)
        k = i // len(counts)
        opts = dict(options or {})
        off = {}
        if k > 0:
            for j, (name, vals) in enumerate(varied):
                v = vals[(k + j) % len(vals)]
                opts[name] = v
                if v != vals[0]:
                    off[name] = v
        cov.options_at[s] = off
        todo.append((n, s, opts))
    if path is not None and (jobs > 1 or dask is not None):
        from ..parallel import playouts
        records = playouts([(path, n, s, opts, bots, max_steps) for n, s, opts in todo], jobs, {path: game}, dask,
                           progress=progress, fn=play_game)
    else:
        def played():
            for n, s, opts in todo:
                r = play_game(game, n, s, opts, bots, max_steps)
                if progress is not None:
                    progress(1)
                yield r
        records = played()
    by_key = {_portable(it.key): it for it in items}
    phases = {_portable(info.decl): info.decl for info in ctx.model.phases}
    here = {os.path.abspath(f): f for f in ctx.model.files}
    for r in records:
        s, n = r["seed"], r["players"]
        if "stopped" in r:
            cov.stopped.append((s, n, r["stopped"]))
        elif "error" in r:
            msg, sp = r["error"]
            if sp is not None and sp.file in here:  # (a worker reads the rules at their absolute path)
                sp = Span(here[sp.file], sp.line, sp.col, sp.end_line, sp.end_col)
            cov.errors.append((s, n, GameError(msg, sp)))
        cov.decisions += r["decisions"]
        for key, c in r["fired"]:
            it = by_key.get(key)
            if it is not None:
                it.fired += c
                it.games += 1
            elif isinstance(key, tuple) and key[0] == "idle" and key[1] in phases:
                rec = cov.idle.setdefault(phases[key[1]], [0, 0, s, n])
                rec[0] += c
                rec[1] += 1
        if "winners" in r:
            if "rule" in r:
                cov.rule_at[n] = r["rule"]
            for p in r["winners"]:
                cov.wins[n][p] += 1
    return cov


def games_to_judge(n: int, confidence: float = 0.99) -> int:
    """How many games of n players before a seat that never won is reported: a seat
    winning as often as the others would have won at least once with 99% odds."""
    if n <= 1:
        return 1
    return math.ceil(math.log(1 - confidence) / math.log(1 - 1 / n))


def _seeds(seeds: list[int], k: int = 5) -> str:
    shown = ", ".join(map(str, seeds[:k]))
    return shown + (", ..." if len(seeds) > k else "")


def findings(ctx, cov: Coverage) -> list[Finding]:
    m = ctx.model
    out: list[Finding] = []
    N = cov.n_games
    last = cov.seed + N - 1
    runs = f"{N} game{'s' if N != 1 else ''} (seeds {cov.seed}..{last})"
    for it in cov.items:
        if it.fired or not it.reached:
            continue
        label = f"'{it.name}'" if it.kind in ("trigger", "handler") else f"{it.kind} '{it.name}'"
        verb = {"phase": "was never entered", "action": "was never taken", "effect": "never ran",
                "trigger": "never fired", "handler": "never ran", "option": "was never chosen"}[it.kind]
        out.append(Finding(it.code, it.node.span, f"{label} {verb} in {runs}",
                           data={"fired": 0, "games": N, "rate": 0.0}))
    where = m.rounds.span if m.rounds is not None else (m.title_span or Span(m.path, 1, 1))

    def opts_of(s):  # how to replay seed s: the options fixed with -o, and those varied off their defaults
        def text(v):
            return ("true" if v else "false") if isinstance(v, bool) else str(v)
        return "".join(f" -o {k}={text(v)}" for k, v in {**cov.fixed, **cov.options_at.get(s, {})}.items())

    def shows(s, n):
        o = opts_of(s)
        return f"seed {s} with {n} players" + (f" and{o}" if o else "") + " shows it"
    if cov.stopped:
        s, n, why = cov.stopped[0]
        seeds = [x for x, _, _ in cov.stopped]
        out.append(Finding("TAV711", where, f"{len(cov.stopped)} of {runs} did not end: stopped by a step limit "
                                            f"({why}); {shows(s, n)} (tav run {m.path} --players "
                                            f"{n} --seed {s}{opts_of(s)})", data={"seeds": seeds}))
    groups: dict = {}
    for s, n, e in cov.errors:
        sp = e.span if e.span.file != "<builtin>" else where
        groups.setdefault((sp, str(e)), []).append((s, n))
    for (sp, msg), hits in groups.items():
        s, n = hits[0]
        out.append(Finding("TAV714", sp, f"{len(hits)} of {runs} stopped with an error: {msg}; {shows(s, n)}",
                           data={"seeds": [x for x, _ in hits]}))
    for node, (count, games, s, n) in cov.idle.items():
        out.append(Finding("TAV712", node.span,
                           f"in phase '{node.name}' the player to act had no legal option {count} time"
                           f"{'s' if count != 1 else ''}, in {games} of {runs}; {shows(s, n)}",
                           data={"seed": s, "players": n, "times": count, "games": games}))
    wspan = m.winner.span if m.winner is not None else where
    for n, wins in sorted(cov.wins.items()):
        if n in cov.rule_at:  # a `winner when` rule decided these games
            wspan = m.guarded_winners[cov.rule_at[n]].span
        else:
            wspan = m.winner.span if m.winner is not None else where
        seeds = cov.games_at[n]
        played = len(seeds) - sum(1 for s, p, _ in cov.stopped + [(a, b, None) for a, b, _ in cov.errors] if p == n)
        if played < games_to_judge(n):
            continue  # too few games to tell a seat that never wins from bad luck
        never = [p for p, w in enumerate(wins) if w == 0]
        if not never:
            continue
        if len(never) == n:
            msg = f"no player ever won in {played} games of {n} players (seeds {_seeds(seeds)})"
        else:
            who = ", ".join(f"P{p + 1}" for p in never)
            msg = (f"seat{'s' if len(never) > 1 else ''} {who} never won in {played} games of {n} players "
                   f"(seeds {_seeds(seeds)})")
        out.append(Finding("TAV713", wspan, msg, (Note(wspan, "ties count as wins for every tied player"),),
                           data={"players": n, "seats": [p + 1 for p in never], "seeds": seeds}))
    return out


# The dynamic rules are reported by --simulate, from the games played (see `findings`).
@rule("TAV701", "action-never-taken", "an action (a space) that no player took in the simulated games")
def _r701(ctx):
    return ()


@rule("TAV702", "effect-never-ran", "an effect that never ran in the simulated games")
def _r702(ctx):
    return ()


@rule("TAV703", "trigger-never-fired", "a 'when ... reaches' that never fired in the simulated games")
def _r703(ctx):
    return ()


@rule("TAV704", "handler-never-ran", "an 'on EVENT' handler that never ran in the simulated games")
def _r704(ctx):
    return ()


@rule("TAV705", "option-never-chosen", "an option of a 'choose' that was never chosen in the simulated games")
def _r705(ctx):
    return ()


@rule("TAV706", "phase-never-entered", "a phase never entered in the simulated games")
def _r706(ctx):
    return ()


@rule("TAV711", "no-termination", "simulated games stopped by a step limit: the game may not end")
def _r711(ctx):
    return ()


@rule("TAV712", "no-legal-option", "a turn where the player to act had no legal option (was skipped)")
def _r712(ctx):
    return ()


@rule("TAV713", "never-won", "a seat that never won in the simulated games")
def _r713(ctx):
    return ()


@rule("TAV714", "runtime-error", "a simulated game stopped with an error of the rules")
def _r714(ctx):
    return ()


RULES = (_r701, _r702, _r703, _r704, _r705, _r706, _r711, _r712, _r713, _r714)
