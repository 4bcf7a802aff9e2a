"""`tav compare`: play a game and a variant on the same seeds and say what changed.

For each, win rate by seat, mean score and its spread, game length in rounds and
decisions, each with a 95% confidence interval; then the differences (variant -
base), paired by seed, with theirs: Wilson intervals for the win rates, normal intervals
for the means and for every difference (the mean of the per-seed differences). The
differences are tested together (tavernlang/stats.py): a difference is marked `*` only when it
holds after Holm's correction for all the differences tested at once, and is stated with its
interval at the corrected level; when nothing about a seat's win rate can be concluded, the
table says how many games a side would resolve a change of a given size.
"""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def mean_ci(xs: list[float]) -> dict:
    n = len(xs)
    m = sum(xs) / n if n else 0.0
    if n < 2:
        return {"mean": m, "sd": 0.0, "ci95": [m, m]}
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = Z95 * sd / math.sqrt(n)
    return {"mean": m, "sd": sd, "ci95": [m - h, m + h]}


def _per_game(results: list[dict], players: int) -> dict:
    return {
        "wins": [[(1 / len(r["winners"]) if p in r["winners"] else 0.0) for r in results] for p in range(players)],
        "scores": [[float(r["scores"][p]) for r in results] for p in range(players)],
        "mean_score": [sum(r["scores"]) / players for r in results],
        "rounds": [float(r["rounds"]) for r in results],
        "decisions": [float(r["decisions"]) for r in results],
    }


def rate_ci(xs: list[float]) -> dict:
    """A win rate (shares of wins, 0..1 per game) with its Wilson 95% interval."""
    from .balance import wilson
    s = mean_ci(xs)
    _, lo, hi = wilson(sum(xs), len(xs))
    return dict(s, ci95=[lo, hi])


def summarize(results: list[dict], players: int) -> dict:
    g = _per_game(results, players)
    return {
        "win_rate_by_seat": [rate_ci(w) for w in g["wins"]],
        "score_by_seat": [mean_ci(s) for s in g["scores"]],
        "mean_score": mean_ci(g["mean_score"]),
        "rounds": mean_ci(g["rounds"]),
        "decisions": mean_ci(g["decisions"]),
    }


def differences(base: list[dict], variant: list[dict], players: int) -> dict:
    b, v = _per_game(base, players), _per_game(variant, players)

    def d(xs, ys):
        return mean_ci([y - x for x, y in zip(xs, ys)])

    def dr(xs, ys):  # a difference of two rates lies in [-1, 1]
        s = d(xs, ys)
        return dict(s, ci95=[max(-1.0, s["ci95"][0]), min(1.0, s["ci95"][1])])
    return {
        "win_rate_by_seat": [dr(b["wins"][p], v["wins"][p]) for p in range(players)],
        "score_by_seat": [d(b["scores"][p], v["scores"][p]) for p in range(players)],
        "mean_score": d(b["mean_score"], v["mean_score"]),
        "rounds": d(b["rounds"], v["rounds"]),
        "decisions": d(b["decisions"], v["decisions"]),
    }


def difference_tests(diff: dict, players: int, n: int) -> list[tuple[dict, dict]]:
    """Each difference of `differences` (over n games paired by seed) with its test against no
    change: [(the difference's entry, its test)], seats' win rates first."""
    from .stats import mean_test
    out = [(d, mean_test(f"P{p + 1} win rate", d["mean"], d["sd"], n, rate=True))
           for p, d in enumerate(diff["win_rate_by_seat"])]
    out += [(d, mean_test(f"P{p + 1} score", d["mean"], d["sd"], n)) for p, d in enumerate(diff["score_by_seat"])]
    out += [(diff[k], mean_test(k.replace("_", " "), diff[k]["mean"], diff[k]["sd"], n))
            for k in ("mean_score", "rounds", "decisions")]
    return out


def widest_change(base: list[dict], variant: list[dict], players: int, m: int) -> float:
    """The widest interval of a seat's change in win rate (variant - base, paired by seed), at
    the level corrected for m tests: what `--until-ci` narrows (1 with no games)."""
    from .stats import correct, mean_test, width
    if not base:
        return 1.0
    diff = differences(base, variant, players)["win_rate_by_seat"]
    tests = [mean_test("", d["mean"], d["sd"], len(base), rate=True) for d in diff]
    return max(width(t) for t in correct(tests, m=m)["tests"])


def annotate(pairs: list[tuple[dict, dict]]) -> None:
    """Copy each test's outcome (after `stats.correct`) into its difference's entry: `p`,
    `p_holm`, `significant` and `ci_corrected` (its interval at the corrected level)."""
    for d, t in pairs:
        d.update(p=t["p"], p_holm=t["p_holm"], significant=t["significant"], ci_corrected=t["ci"])


def assess(report: dict, effect: float) -> dict:
    """Test every difference of a comparison (report["difference"], over report["games"] paired
    games) together, mark them (annotate) and say what the games resolve: the family of tests
    (stats.correct) with `sample_size`, the games a side that detect a change of `effect` (a
    fraction) in a seat's win rate with 80% power at the corrected level (from the spread of the
    paired differences seen; None when no seat's change could be estimated)."""
    from .stats import correct, games_to_resolve
    pairs = difference_tests(report["difference"], report["players"], report["games"])
    fam = correct([t for _, t in pairs])
    annotate(pairs)
    seats = [t for _, t in pairs[:report["players"]]]
    sd = max((t["sd"] for t in seats), default=0.0)
    fam["sample_size"] = {"effect": effect, "power": 0.8,
                          "games": games_to_resolve(dict(seats[0], sd=sd), effect, fam) if seats and sd > 0 else None}
    return fam


def _num(x: float) -> str:
    return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.1f}"


def _fmt(s: dict, pct=False) -> str:
    k = 100.0 if pct else 1.0
    unit = "%" if pct else ""
    lo, hi = s["ci95"]
    return f"{_num(s['mean'] * k)}{unit} [{_num(lo * k)}, {_num(hi * k)}]"


def _dfmt(s: dict, pct=False) -> str:
    lo, hi = s["ci95"]
    mark = " *" if s.get("significant", lo > 0 or hi < 0) else "  "
    return _fmt(s, pct) + mark


def _side(report: dict, side: str) -> str:
    opts = report.get(f"{side}_options") or {}
    return report[f"{side}_file"] + "".join(f" -o {k}={_lit(v)}" for k, v in opts.items())


def _lit(v) -> str:
    return "true" if v is True else "false" if v is False else str(v)


def render(report: dict) -> str:
    """The comparison as a table of 80 columns."""
    b, v, d = report["base"], report["variant"], report["difference"]
    W, C, D = 12, 22, 24
    lines = [
        f"{report['games']} games per side, {report['players']} players, seeds {report['seed']}..{report['seed'] + report['games'] - 1}"
        + (f", bots {report['bots']}" if report.get("bots") else ""),
        f"base:    {_side(report, 'base')}",
        f"variant: {_side(report, 'variant')}",
        "mean [95% interval]; * marks a difference that holds after correction",
        "",
        f"{'':{W}}{'base':>{C}}{'variant':>{C}}{'difference':>{D - 2}}",
        f"{'rounds':{W}}{_fmt(b['rounds']):>{C}}{_fmt(v['rounds']):>{C}}{_dfmt(d['rounds']):>{D}}",
        f"{'decisions':{W}}{_fmt(b['decisions']):>{C}}{_fmt(v['decisions']):>{C}}{_dfmt(d['decisions']):>{D}}",
        f"{'mean score':{W}}{_fmt(b['mean_score']):>{C}}{_fmt(v['mean_score']):>{C}}{_dfmt(d['mean_score']):>{D}}",
        f"{'  spread, sd':{W}}{b['mean_score']['sd']:>{C}.2f}{v['mean_score']['sd']:>{C}.2f}",
    ]
    for p in range(report["players"]):
        lines.append(f"{f'P{p + 1} win rate':{W}}{_fmt(b['win_rate_by_seat'][p], True):>{C}}"
                     f"{_fmt(v['win_rate_by_seat'][p], True):>{C}}{_dfmt(d['win_rate_by_seat'][p], True):>{D}}")
    for p in range(report["players"]):
        lines.append(f"{f'P{p + 1} score':{W}}{_fmt(b['score_by_seat'][p]):>{C}}"
                     f"{_fmt(v['score_by_seat'][p]):>{C}}{_dfmt(d['score_by_seat'][p]):>{D}}")
    fam = report.get("statistics")
    if fam:
        lines += [""] + conclusions(report, fam)
    return "\n".join(lines)


def _wrap(paragraphs: list[str], width: int = 80) -> list[str]:
    import textwrap
    return [ln for x in paragraphs for ln in textwrap.wrap(x, width, subsequent_indent="  ")]


def _p(p: float) -> str:
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}"


def _signed(x: float, pct: bool) -> str:
    return f"{x * 100:+.1f}" if pct else f"{x:+.{0 if abs(x) >= 1000 else 2}f}"


def conclusions(report: dict, fam: dict) -> list[str]:
    """What a comparison's differences support, as lines of at most 80 columns: each one that
    holds after Holm's correction, with its corrected interval and the games it rests on; else
    that none does; and, when a seat's change in win rate is not resolved, how many games a side
    would resolve a change of the effect asked."""
    m, level = fam["comparisons"], 100 * fam["ci_level"]
    n = fam["tests"][0]["games"] if fam["tests"] else 0
    found = [t for t in fam["tests"] if t["significant"]]
    if found:
        out = _wrap([f"What holds after Holm's correction for the {m} differences tested (α {fam['alpha']}), "
                     f"over {n} games paired by seed, with intervals at {level:.2f}% that hold together:"])
        for t in found:
            pct = t.get("rate", False)
            lo, hi = t["ci"]
            out.append(f"  {t['name']:<14}{_signed(t['estimate'], pct) + (' pts' if pct else ''):>12} "
                       f"[{_signed(lo, pct)}, {_signed(hi, pct)}]".ljust(58) + f"adjusted {_p(t['p_holm'])}")
    else:
        out = _wrap([f"No difference holds beyond chance after Holm's correction for the {m} differences "
                     f"tested (α {fam['alpha']}) over {n} games paired by seed."])
    open_ = [t for t in fam["tests"] if t.get("rate") and not t["significant"]]
    ss = fam.get("sample_size") or {}
    if open_ and ss.get("games"):
        half = max((t["ci"][1] - t["ci"][0]) / 2 for t in open_)
        if half > ss["effect"]:
            out += _wrap([f"A seat's change in win rate is known only to ±{100 * half:.1f} points (at {level:.2f}%); "
                          f"a change of {100 * ss['effect']:g} points takes about {ss['games']:,} games a side to "
                          f"detect (80% power at this correction; --until-ci WIDTH plays until it is known)."])
    return out
