"""`tav report GAME [VARIANT] -p N`: a designer's balance report.

Seeded games (random bots unless `--bots`) give: win rate by seat with Wilson 95% intervals (the
first player's advantage), score and margin distributions, game length in rounds and decisions,
ties, lead changes and how early the eventual winner leads (decisiveness), the branching factor
of the decisions asked; then skill (a search bot against random bots, seat-rotated: a game where
search does not beat chance is a game of luck) and strategy (what the search bot chooses and what
fires on its turns beside the random bots, tavernlang/strategy.py); every value of the options asked for with
`--vary`; with a VARIANT, `tav compare`'s seed-matched comparison. As text, and with `--out DIR`
as a Markdown (or HTML) page with its pictures. Its findings are only what holds after Holm's
correction for every test it makes (tavernlang/stats.py), and `--until-ci` plays on until the
seats' intervals are as narrow as asked.
"""
from __future__ import annotations

import base64
import html
import time
from pathlib import Path

from .balance import bot_rates, margin, pct, quantiles, record, seat_rates, wilson
from .bots import describe, parse_bots, rotate, watch
from .stats import EFFECT, next_games, width


class ReportError(ValueError):
    """A report that cannot be made as asked (a usage error)."""


class Stopped(Exception):
    """A game stopped with an error under --fail-fast: the report stops (`failed`: that game,
    `played`: the games played until then)."""

    def __init__(self, failed: list[dict], played: int):
        super().__init__("stopped")
        self.failed, self.played = failed, played


# ------------------------------------------------------------------ traced games
traced = watch  # (bots.watch: one game as `tav sim` plays it, with its branching and leaders)


def lead_stats(results: list[dict]) -> dict:
    changes, early, from_frac = [], 0, []
    for r in results:
        ls = [set(x) for x in r["leaders"]]
        changes.append(sum(1 for a, b in zip(ls, ls[1:]) if a != b))
        win = set(r["winners"])
        k = len(ls) - 1  # the first standing from which a winner leads to the end
        while k > 0 and ls[k - 1] & win:
            k -= 1
        from_frac.append(k / max(1, len(ls) - 1) if len(ls) > 1 else 0.0)
        mid = ls[(len(ls) - 1) // 2]
        early += bool(mid & win)
    return {"lead_changes": quantiles([float(x) for x in changes]),
            "winner_leads_from": quantiles(from_frac),
            "winner_led_at_half": wilson(early, len(results)) if results else (0, 0, 1)}


def summary(results: list[dict], players: int) -> dict:
    ties = sum(1 for r in results if len(r["winners"]) != 1)
    br = [b for r in results for b in r.get("branching", [])]
    out = {
        "games": len(results),
        "win_rate_by_seat": seat_rates(results, players),
        "score_by_seat": [quantiles([float(r["scores"][p]) for r in results]) for p in range(players)],
        "margin": quantiles([m for m in (margin(r) for r in results) if m is not None]),
        "rounds": quantiles([float(r["rounds"]) for r in results]),
        "decisions": quantiles([float(r["decisions"]) for r in results]),
        "ties": dict(zip(("rate", "lo", "hi"), wilson(ties, len(results)))),
        "no_winner": sum(1 for r in results if not r["winners"]),
        "branching": quantiles([float(b) for b in br]),
    }
    if results and "leaders" in results[0]:
        out.update(lead_stats(results))
    return out


# ------------------------------------------------------------------ the report
def vary_values(game, spec: str) -> tuple[str, list]:
    """`NAME` (every value of a yes/no or enum option; an int: its default and the ends of its
    range) or `NAME=V1,V2,...`."""
    from .options import _convert
    name, _, vals = spec.partition("=")
    o = game.model.options.get(name)
    if o is None:
        raise ReportError(f"--vary: unknown option '{name}'" + (f"; options: {', '.join(game.model.options)}"
                                                                 if game.model.options else "; this game has no options"))
    if vals:
        import click
        try:
            return name, [_convert(game, o, v.strip()) for v in vals.split(",")]
        except click.BadParameter as e:
            raise ReportError(f"--vary: {e.message}") from None
    if o.type == "bool":
        return name, [False, True]
    if o.type.enum is not None:
        return name, list(game.model.enums[o.type.enum])
    st = game.new_state(game.min_players, 0)
    d = o.decl
    default = st.opt[o.slot]
    if d.low is None:
        raise ReportError(f"--vary: option '{name}' has no range: give its values ({name}=V1,V2)")
    lo, hi = game.evaluate(d.low, st), game.evaluate(d.high, st)
    return name, sorted({lo, default, hi})


def build(game, path: str, players: int, n_games: int, seed: int, options: dict, bots, skill_games: int | None,
          skill_bots: str, vary: list[str], variant=None, variant_path: str | None = None,
          variant_options: dict | None = None, progress=None, jobs: int = 1, dask: str | None = None,
          fail_fast: bool = False, until_ci: float | None = None, max_games: int = 20_000,
          effect: float = EFFECT) -> dict:
    """Every number of the report, as data (and the games, for pictures and --games-out). The games
    are played on `jobs` processes or a Dask cluster (`parallel.playouts`): the same for any. A
    game that stops with an error is left out of the numbers and listed in `failed` (with the
    part of the report, file, options and bots that replay it); with `fail_fast` the first one
    stops the report (Stopped). `until_ci` (a fraction: 0.04 is 4 points of win rate): after the
    first `n_games`, play more seeds in batches until every seat's win-rate interval (and, with a
    variant, every seat's change) at the corrected level is at most that wide, or `max_games`
    are played; the other parts then play as many seeds. `effect` (a fraction): the shift the
    findings say how many games would resolve. `skill_games` None: default_skill_games. The skill
    games are watched (strategy.observe) for the strategy section (`strategy`)."""
    from .parallel import playouts
    t0 = time.perf_counter()
    tick = progress  # told of the games as they finish, chunk by chunk
    names = describe(bots) if bots else "random"
    from .parallel import game_key
    games = {path: game, **({variant_path: variant} if variant is not None else {})}
    keys = {p: game_key(p, g) for p, g in games.items()}  # (each game named with its layout to the workers)
    local = {keys[p]: g for p, g in games.items()}

    failed: list[dict] = []
    played = [0]

    def play_all(todo: list[tuple], part: str, fn=None) -> list[dict]:
        out = []
        jobs_ = [(keys[f], players, s, o or None, b) + (() if fn else (True,)) for f, s, o, b in todo]
        results = playouts(jobs_, jobs, local, dask, progress=tick, fn=fn)
        for (f, _, o, b), r in zip(todo, results):
            played[0] += 1
            if "error" in r:
                failed.append(dict(r, part=part, file=f, options=o or {}, bots=describe(b) if b else None,
                                   fast=not games[f].layout.exact))
                if fail_fast:
                    results.close()
                    raise Stopped(failed, played[0])
                continue
            out.append(r)
        return out

    def run(f, opts, b=None, part="game", seeds=None):
        return play_all([(f, s, opts, b) for s in seeds], part)
    vopts = variant_options or options
    main_games = run(path, options, bots, seeds=range(seed, seed + n_games))
    vgames = run(variant_path, vopts, bots, "variant", range(seed, seed + n_games)) if variant is not None else []
    stop = None
    if until_ci is not None:
        m = planned_comparisons(players, skill_games is None or skill_games > 0, variant is not None)
        while True:
            widest = widest_interval(main_games, vgames if variant is not None else None, players, m)
            if widest <= until_ci or n_games >= max_games or not main_games:  # (no game ended: none would)
                stop = {"width": until_ci, "max_games": max_games, "widest": widest, "reached": widest <= until_ci}
                break
            more = next_games(n_games, widest, until_ci, max_games)
            main_games += run(path, options, bots, seeds=range(seed + n_games, seed + more))
            if variant is not None:
                vgames += run(variant_path, vopts, bots, "variant", range(seed + n_games, seed + more))
            n_games = more
    seeds = range(seed, seed + n_games)
    rep = {"game": game.title, "file": path, "players": players, "games": n_games, "seed": seed, "exact": game.layout.exact,
           "options": options, "bots": names, "balance": summary(main_games, players)}
    if stop is not None:
        rep["until_ci"] = stop
    records = [record(r, options, names, "game") for r in main_games]
    skill = strategy = None
    if skill_games is None:
        skill_games = default_skill_games(players, rep["balance"]["decisions"])
    if skill_games > 0:
        from .strategy import observe
        sb = parse_bots(skill_bots, 1)[0]
        field = [sb] + [("random", 0)] * (players - 1)
        rot = [rotate(field, i) for i in range(skill_games)]
        sgames = play_all([(path, seed + i, options, rot[i]) for i in range(skill_games)], "skill", observe)
        for b, r in zip((rot[r["seed"] - seed] for r in sgames), sgames):
            r["bots"] = [describe([x]) for x in b]
            records.append(record(r, options, ",".join(r["bots"]), "skill"))
        skill, strategy = skill_parts(sgames, describe([sb]), skill_games, players)
    rep["skill"] = skill
    rep["strategy"] = strategy
    rep["vary"] = []
    for spec in vary:
        name, values = vary_values(game, spec)
        rows = []
        for v in values:
            opts = dict(options, **{name: v})
            gs = run(path, opts, bots, f"vary {name}={_lit(v)}", seeds)
            records += [record(r, opts, names, f"vary {name}={v}") for r in gs]
            rows.append({"value": v, "summary": summary(gs, players), "results": gs})
        rep["vary"].append({"option": name, "rows": rows})
    rep["variant"] = None
    if variant is not None:
        from .compare import differences, summarize
        records += [record(r, vopts, names, "variant") for r in vgames]
        pb, pv = paired(main_games, vgames)
        rep["variant"] = {"file": variant_path, "options": vopts,
                          "base": summarize(pb, players), "variant": summarize(pv, players),
                          "difference": differences(pb, pv, players), "games": len(pb), "results": vgames,
                          "balance": summary(vgames, players)}
    rep["statistics"] = assess(rep, effect)
    rep["failed"] = failed
    rep["seconds"] = round(time.perf_counter() - t0, 2)
    rep["_games"] = main_games
    rep["_records"] = records
    return rep


SKILL_WORK = 2_400  # a skill test's default: seats per player count times decisions of a game
MIN_SKILL_SEATS, MAX_SKILL_SEATS = 2, 25


def default_skill_games(players: int, decisions: dict) -> int:
    """The skill test's games unless asked: whole rotations (each seat once), as many a seat as
    SKILL_WORK over the mean decisions of the balance games (a search's work grows with the
    decisions of a game), from 2 to 25 a seat: 2 a seat for a game of 1,200 decisions, 25 for one
    of under 100."""
    mean = decisions.get("mean") if decisions.get("n") else None
    per_seat = MIN_SKILL_SEATS if not mean else int(SKILL_WORK // max(1.0, mean))
    return players * max(MIN_SKILL_SEATS, min(MAX_SKILL_SEATS, per_seat))


def skill_parts(games: list[dict], bot: str, n_games: int, players: int) -> tuple[dict, dict]:
    """The skill section (each bot's share of the wins, the verdict against chance) and the
    strategy section (strategy.compare) of the skill games played (each with its `bots`)."""
    from .strategy import compare
    rates = bot_rates(games, players)
    skill = {"bot": bot, "games": n_games, "by_bot": rates, "verdict": skill_verdict(rates.get(bot), players)}
    return skill, compare(games, bot)


def skill_verdict(mine: dict | None, players: int) -> dict | None:
    """What the search bot's share of the wins says at 95% (Wilson), against chance (an even
    share, 1/players): `skill` when its interval lies above chance, `worse` below, else
    `unresolved` with the games that would tell its observed edge (at least 5 points) from chance
    with 80% power."""
    from .stats import games_for
    if not mine or not mine["seats_played"]:
        return None
    even, (lo, hi) = 1 / players, mine["ci95"]
    out = {"rate": mine["rate"], "ci95": [lo, hi], "chance": even, "games": mine["seats_played"]}
    if lo > even:
        out["outcome"] = "skill"
    elif hi < even:
        out["outcome"] = "worse"
    else:
        edge = max(0.05, abs(mine["rate"] - even))
        out.update(outcome="unresolved", edge=edge, games_needed=games_for((even * (1 - even)) ** 0.5, edge, 0.05))
    return out


def paired(base: list[dict], variant: list[dict]) -> tuple[list[dict], list[dict]]:
    """The games of the seeds both sides played to the end, in seed order."""
    both = {r["seed"] for r in base} & {r["seed"] for r in variant}
    return [r for r in base if r["seed"] in both], [r for r in variant if r["seed"] in both]


# ------------------------------------------------------------------ what is chance, what is not
def planned_comparisons(players: int, skill: bool, variant: bool) -> int:
    """How many tests a report makes at once: each seat's win rate, the search bot's share of the
    wins, and a variant's differences (each seat's win rate and score, the mean score, rounds,
    decisions)."""
    return players + int(skill) + (2 * players + 3 if variant else 0)


def widest_interval(main: list[dict], variant: list[dict] | None, players: int, m: int) -> float:
    """The widest interval, at the level corrected for m tests, of a seat's win rate (and, with a
    variant's games, of a seat's change in win rate): what `--until-ci` narrows."""
    from .compare import widest_change
    from .stats import correct, rate_test
    if not main:
        return 1.0
    tests = [rate_test("", r["rate"], len(main), 1 / players) for r in seat_rates(main, players)]
    widest = max(width(t) for t in correct(tests, m=m)["tests"])
    return max(widest, widest_change(*paired(main, variant), players, m)) if variant is not None else widest


def assess(rep: dict, effect: float) -> dict:
    """Every test the report makes (each seat against an even share, the search bot against its
    share, a variant's differences), corrected together by Holm (stats.correct); a variant's
    differences are marked with their outcome (compare.annotate). With `sample_size`: the games
    that detect a seat `effect` off an even share (a fraction) with 80% power at the corrected
    level."""
    from .compare import difference_tests, annotate
    from .stats import correct, games_to_resolve, rate_test
    n, b = rep["players"], rep["balance"]
    tests = [dict(rate_test(f"P{p + 1} win rate", r["rate"], b["games"], 1 / n), part="seat")
             for p, r in enumerate(b["win_rate_by_seat"])]
    s = rep.get("skill")
    mine = s["by_bot"].get(s["bot"]) if s else None
    if mine:
        tests.append(dict(rate_test(f"{s['bot']} share of the wins", mine["rate"], mine["seats_played"], 1 / n),
                          part="skill"))
    pairs = difference_tests(rep["variant"]["difference"], n, rep["variant"]["games"]) if rep.get("variant") else []
    for _, t in pairs:
        t["part"] = "variant"
    fam = correct(tests + [t for _, t in pairs])
    annotate(pairs)
    fam["sample_size"] = {"effect": effect, "power": 0.8,
                          "games": games_to_resolve(tests[0], effect, fam) if n > 1 else None}
    return fam


def _q(q: dict, nd: int = 1) -> str:
    if not q.get("n"):
        return "-"
    f = f"{{:.{nd}f}}"
    return (f"mean {f.format(q['mean'])}, median {f.format(q['median'])}, "
            f"quartiles {f.format(q['q1'])}..{f.format(q['q3'])}, range {f.format(q['min'])}..{f.format(q['max'])}")


def _lit(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def _pc(x: float) -> str:
    return f"{100 * x:.1f}%"


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def findings(rep: dict) -> list[str]:
    """What the numbers say, in words: only what holds after Holm's correction for every test the
    report makes (rep["statistics"]), each with its interval at the corrected level and the games
    it rests on; and when nothing about the seats can be concluded, how many games would."""
    out = []
    b, n = rep["balance"], rep["players"]
    even = 1 / n
    fam = rep["statistics"]
    m, level = fam["comparisons"], 100 * fam["ci_level"]
    out.append(f"Each finding below holds after Holm's correction for the {m} tests this report makes "
               f"(α {fam['alpha']}); its interval is at {level:.2f}%, which holds for all {m} together.")
    seats = [t for t in fam["tests"] if t["part"] == "seat"]
    for t in seats:
        if t["significant"]:
            lo, hi = t["ci"]
            more = "more" if t["estimate"] > even else "less"
            out.append(f"{t['name'].split()[0]} wins {more} often than an even share: {_pc(t['estimate'])} "
                       f"[{_pc(lo)}, {_pc(hi)}] against {_pc(even)} in {t['games']} games (adjusted {_p(t['p_holm'])}).")
    if not any(t["significant"] for t in seats):
        half = max((width(t) / 2 for t in seats), default=0.0)
        out.append(f"No seat's win rate differs from an even share ({_pc(even)}) beyond chance in {b['games']} games; "
                   f"each seat's rate is known to ±{100 * half:.1f} points.")
        ss = fam.get("sample_size") or {}
        if ss.get("games") and half > ss["effect"]:
            out.append(f"A seat {100 * ss['effect']:g} points off an even share takes about {ss['games']:,} games "
                       f"to detect (80% power at this correction); `--until-ci` plays until the intervals are "
                       f"as narrow as asked.")
    u = rep.get("until_ci")
    if u and not u["reached"]:
        out.append(f"--until-ci {100 * u['width']:g} stopped at the cap of {u['max_games']:,} games with intervals "
                   f"{100 * u['widest']:.1f} points wide.")
    t = b["ties"]
    if t["rate"] > 0:
        out.append(f"{100 * t['rate']:.1f}% of the games end in a shared win.")
    s = rep.get("skill")
    if s:
        mine = [x for x in fam["tests"] if x["part"] == "skill"]
        if mine:
            x = mine[0]
            lo, hi = x["ci"]
            verdict = ("search does not beat chance at this budget and number of games" if not x["significant"] else
                       "search beats chance: skill matters" if x["estimate"] > even else "search does worse than chance")
            out.append(f"{s['bot']} against {n - 1} random bot(s), seat-rotated: {_pc(x['estimate'])} "
                       f"[{_pc(lo)}, {_pc(hi)}] of the wins against an even {_pc(even)} in {x['games']} games "
                       f"(adjusted {_p(x['p_holm'])}): {verdict}.")
    v = rep.get("variant")
    if v:
        from .compare import _signed
        found = False
        for x in fam["tests"]:
            if x["part"] != "variant" or not x["significant"]:
                continue
            found = True
            pct = x.get("rate", False)
            lo, hi = x["ci"]
            out.append(f"The variant changes {x['name']}: {_signed(x['estimate'], pct)}{' points' if pct else ''} "
                       f"[{_signed(lo, pct)}, {_signed(hi, pct)}] over {x['games']} games paired by seed "
                       f"(adjusted {_p(x['p_holm'])}).")
        if not found:
            out.append(f"The variant changes nothing beyond chance in {v['games']} games paired by seed.")
    if "winner_led_at_half" in b:
        r, lo, hi = b["winner_led_at_half"]
        out.append(f"The eventual winner leads at half time in {100 * r:.0f}% [{100 * lo:.0f}, {100 * hi:.0f}] of the games.")
    return out


def render_text(rep: dict) -> str:
    b, n = rep["balance"], rep["players"]
    opts = "".join(f" -o {k}={_lit(v)}" for k, v in rep["options"].items())
    L = [f"{rep['game']} ({rep['file']}{opts}): {rep['games']} games, {n} players, seeds "
         f"{rep['seed']}..{rep['seed'] + rep['games'] - 1}, bots {rep['bots']}", ""]
    L.append("win rate by seat [Wilson 95% interval]   (an even share: " f"{100 / n:.1f}%)")
    for p, r in enumerate(b["win_rate_by_seat"]):
        L.append(f"  P{p + 1:<3} {pct(r['rate'], *r['ci95'])}   score: {_q(b['score_by_seat'][p])}")
    L.append(f"shared wins: {pct(b['ties']['rate'], b['ties']['lo'], b['ties']['hi'])}"
             + (f"; no winner in {b['no_winner']} games" if b["no_winner"] else ""))
    L.append(f"winning margin (winner's score minus the next): {_q(b['margin'])}")
    L.append(f"length in rounds: {_q(b['rounds'])}")
    L.append(f"length in decisions: {_q(b['decisions'], 0)}")
    L.append(f"options per decision asked (branching): {_q(b['branching'])}")
    if "lead_changes" in b:
        L.append(f"lead changes (leader at each round's start, then the winner): {_q(b['lead_changes'])}")
        r, lo, hi = b["winner_led_at_half"]
        L.append(f"the eventual winner leads at half time: {pct(r, lo, hi)}; leads for good from "
                 f"{100 * b['winner_leads_from']['mean']:.0f}% of the game on average")
    s = rep.get("skill")
    if s:
        L += ["", f"skill: {s['bot']} against random bots, {s['games']} games, the bots rotated a seat each game"]
        for name, v in s["by_bot"].items():
            L.append(f"  {name:<10} {pct(v['rate'], *v['ci95'])} of the wins over {v['seats_played']} seats")
        if s.get("verdict"):
            L.append(f"  {verdict_text(s['bot'], s['verdict'])}")
    if rep.get("strategy"):
        L += [""] + strategy_text(rep["strategy"])
    for vr in rep["vary"]:
        w = max(5, *(len(_lit(r["value"])) for r in vr["rows"]))
        L += ["", f"--vary {vr['option']}, on the same seeds:",
              f"  {'value':>{w}}  {'rounds':>7}  {'decisions':>9}  {'shared wins':>11}  " +
              "  ".join(f"{f'P{p + 1} wins':>8}" for p in range(n))]
        for row in vr["rows"]:
            sm = row["summary"]
            L.append(f"  {_lit(row['value']):>{w}}  {sm['rounds']['mean']:7.2f}  {sm['decisions']['mean']:9.1f}  "
                     f"{100 * sm['ties']['rate']:10.1f}%  " +
                     "  ".join(f"{100 * r['rate']:7.1f}%" for r in sm["win_rate_by_seat"]))
    if rep.get("variant"):
        from .compare import render
        v = rep["variant"]
        L += ["", "variant, on the same seeds:", render(_compare_report(rep))]
    L += ["", "findings:"] + [f"  - {x}" for x in findings(rep)]
    L += ["", f"({rep['seconds']} s)"]
    return "\n".join(L)


def verdict_text(bot: str, v: dict) -> str:
    """The skill test in a sentence, at 95% (Wilson) against chance."""
    lo, hi = v["ci95"]
    said = (f"{bot} wins {_pc(v['rate'])} [{_pc(lo)}, {_pc(hi)}] of {v['games']} games "
            f"where chance is {_pc(v['chance'])}")
    if v["outcome"] == "skill":
        return f"skill matters: {said} (95% interval)"
    if v["outcome"] == "worse":
        return f"search does worse than chance: {said} (95% interval)"
    return (f"skill not shown at this budget and number of games: {said}, an interval that holds chance; about "
            f"{v['games_needed']:,} games would tell a {100 * v['edge']:.1f}-point edge from chance (--skill-games)")


STRATEGY_ROWS = 8  # rows of each strategy table shown (--json has them all)
STRATEGY_TABLES = (("actions", "actions chosen (share of each side's action decisions)", True),
                   ("cards", "cards chosen (share of the cards each side chose)", True),
                   ("choices", "other choices (share of each side's decisions asked by the same prompt)", True),
                   ("rules", "rules fired after each side's decisions (times per seat and game)", False))


def _cap(x: str) -> str:
    return x[:1].upper() + x[1:]


def _cell(x: float, share: bool) -> str:
    return f"{100 * x:.1f}%" if share else f"{x:.2f}"


def _diff(x: float, share: bool) -> str:
    return f"{100 * x:+.1f}" if share else f"{x:+.2f}"


def strategy_tables(st: dict) -> list[tuple[str, bool, list[dict]]]:
    """The strategy section's tables that have rows: (title, shares?, the first rows)."""
    return [(title, share, st[key][:STRATEGY_ROWS]) for key, title, share in STRATEGY_TABLES if st[key]]


def strategy_heading(st: dict) -> str:
    a, b = st["strong"], st["weak"]
    return (f"strategy: what {a} does beside the {b} bots in the {st['games']} skill games ({st['seats'][a]} seats "
            f"of {a}, {st['seats'][b]} of {b}), the clearest differences first")


def strategy_text(st: dict) -> list[str]:
    a, b = st["strong"], st["weak"]
    L = [strategy_heading(st)]
    for title, share, rows in strategy_tables(st):
        w = min(48, max(4, *(len(r["name"]) for r in rows)))
        L.append(f"  {title}:")
        L.append(f"    {'':<{w}}  {a:>9}  {b:>9}  {'difference':>10}")
        for r in rows:
            name = r["name"] if len(r["name"]) <= w else r["name"][:w - 1] + "…"
            L.append(f"    {name:<{w}}  {_cell(r['strong'], share):>9}  {_cell(r['weak'], share):>9}  "
                     f"{_diff(r['difference'], share):>10}")
    return L


def strategy_markdown(st: dict) -> list[str]:
    a, b = st["strong"], st["weak"]
    out = [_cap(strategy_heading(st)) + ".", ""]
    for title, share, rows in strategy_tables(st):
        out += [f"**{_cap(title)}**", "", f"| | {a} | {b} | difference |", "|---|---|---|---|"]
        out += [f"| {r['name'].replace('|', '/')} | {_cell(r['strong'], share)} | {_cell(r['weak'], share)} | "
                f"{_diff(r['difference'], share)} |" for r in rows]
        out.append("")
    return out


def strategy_html(st: dict) -> str:
    a, b = st["strong"], st["weak"]
    e = html.escape
    parts = [f"<p>{e(strategy_heading(st))}.</p>"]
    for title, share, rows in strategy_tables(st):
        parts.append(f"<h3>{e(title)}</h3><table><tr><th></th><th>{e(a)}</th><th>{e(b)}</th><th>difference</th></tr>"
                     + "".join(f"<tr><td>{e(r['name'])}</td><td>{_cell(r['strong'], share)}</td>"
                               f"<td>{_cell(r['weak'], share)}</td><td>{_diff(r['difference'], share)}</td></tr>"
                               for r in rows) + "</table>")
    return "".join(parts)


def _compare_report(rep: dict) -> dict:
    v = rep["variant"]
    return {"base_file": rep["file"], "variant_file": v["file"], "players": rep["players"], "games": v["games"],
            "seed": rep["seed"], "base_options": rep["options"], "variant_options": v["options"],
            "bots": rep["bots"] if rep["bots"] != "random" else None,
            "base": v["base"], "variant": v["variant"], "difference": v["difference"]}


# ------------------------------------------------------------------ pictures and pages
def pictures(rep: dict, out: Path) -> list[tuple[str, str]]:
    """The report's pictures, drawn into `out`: [(file name, caption)]."""
    from . import plots
    n = rep["players"]
    pics = []
    plots.figure(str(out / "games.png"), f"{rep['game']}: {rep['games']} games, {n} players, bots {rep['bots']}",
                 [("games", rep["_games"])], n)
    pics.append(("games.png", "Win rate by seat (95% Wilson intervals; the dashed line is an even share), "
                              "final scores by seat, game length."))
    s = rep.get("skill")
    if s:
        labels = list(s["by_bot"])
        plots.bars(str(out / "skill.png"), f"skill: {s['bot']} against random bots ({s['games']} games)", labels,
                   [(v["rate"], *v["ci95"]) for v in s["by_bot"].values()], "share of the wins (%)", 1 / n)
        pics.append(("skill.png", "Share of the wins of the search bot and of the random bots, seat-rotated."))
    for vr in rep["vary"]:
        fn = f"vary_{vr['option']}.png"
        plots.figure(str(out / fn), f"{rep['game']}: {vr['option']} = " +
                     ", ".join(_lit(r["value"]) for r in vr["rows"]),
                     [(f"{vr['option']}={_lit(r['value'])}", r["results"]) for r in vr["rows"]], n)
        pics.append((fn, f"Each value of {vr['option']} on the same seeds."))
    if rep.get("variant"):
        plots.compare_figure(str(out / "variant.png"), f"{rep['game']}: base and variant", rep["_games"],
                             rep["variant"]["results"], n)
        pics.append(("variant.png", "The game and its variant on the same seeds."))
    return pics


def write(rep: dict, out_dir: str, fmt: str, command: str) -> Path:
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ReportError(f"cannot make '{out_dir}': {e.strerror or e}") from None
    pics = pictures(rep, out)
    text = render_text(rep)
    title = f"Balance report: {rep['game']}, {rep['players']} players"
    if fmt == "md":
        body = [f"# {title}", "", f"Made by `{command}`.", "", "## Findings", ""]
        body += [f"- {x}" for x in findings(rep)] + [""]
        s = rep.get("skill")
        if s and s.get("verdict"):
            body += ["## Skill", "", _cap(verdict_text(s["bot"], s["verdict"])) + ".", ""]
        if rep.get("strategy"):
            body += ["## Strategy", ""] + strategy_markdown(rep["strategy"])
        body += ["## Pictures", ""]
        for fn, cap in pics:
            body += [f"![{cap}]({fn})", "", f"*{cap}*", ""]
        body += ["## The numbers", "", "```", text, "```", ""]
        page = out / "report.md"
        page.write_text("\n".join(body), "utf-8")
    else:
        imgs = "".join(f'<figure><img alt="{html.escape(cap)}" src="data:image/png;base64,'
                       f'{base64.b64encode((out / fn).read_bytes()).decode()}"><figcaption>{html.escape(cap)}'
                       f"</figcaption></figure>" for fn, cap in pics)
        page = out / "report.html"
        page.write_text(
            f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:1100px;margin:auto}img{max-width:100%}"
            "pre{background:#f4f4f4;padding:1em;overflow-x:auto}td,th{padding:0 .6em;text-align:right}"
            "td:first-child{text-align:left}</style></head><body>"
            f"<h1>{html.escape(title)}</h1><p>Made by <code>{html.escape(command)}</code>.</p><h2>Findings</h2><ul>"
            + "".join(f"<li>{html.escape(x)}</li>" for x in findings(rep)) + "</ul>"
            + (f"<h2>Skill</h2><p>{html.escape(verdict_text(rep['skill']['bot'], rep['skill']['verdict']))}.</p>"
               if rep.get("skill") and rep["skill"].get("verdict") else "")
            + (f"<h2>Strategy</h2>{strategy_html(rep['strategy'])}" if rep.get("strategy") else "") +
            f"<h2>Pictures</h2>{imgs}<h2>The numbers</h2><pre>{html.escape(text)}</pre></body></html>", "utf-8")
    return page


def jsonable(rep: dict) -> dict:
    """The report without its games (for --json)."""
    out = {k: v for k, v in rep.items() if not k.startswith("_")}
    out["findings"] = findings(rep)
    out["vary"] = [{"option": vr["option"], "rows": [{"value": r["value"], "summary": r["summary"]} for r in vr["rows"]]}
                   for vr in rep["vary"]]
    if rep.get("variant"):
        out["variant"] = {k: v for k, v in rep["variant"].items() if k != "results"}
    return out
