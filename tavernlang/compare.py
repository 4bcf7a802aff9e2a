"""`tav compare`: play a game and a variant on the same seeds and say what changed.

For each, win rate by seat, mean score and its spread, game length in rounds and
decisions, each with a 95% confidence interval; then the differences (variant -
base), paired by seed, with theirs. A difference whose interval excludes zero is
one the simulation shows; one whose interval holds zero may be noise.
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


def _num(x: float) -> str:
    return f"{x:.0f}" if abs(x) >= 1000 else f"{x:.1f}"


def _fmt(s: dict, pct=False) -> str:
    k = 100.0 if pct else 1.0
    unit = "%" if pct else ""
    lo, hi = s["ci95"]
    return f"{_num(s['mean'] * k)}{unit} [{_num(lo * k)}, {_num(hi * k)}]"


def _dfmt(s: dict, pct=False) -> str:
    lo, hi = s["ci95"]
    mark = " *" if lo > 0 or hi < 0 else "  "
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
        "mean [95% interval]; * marks a difference whose interval excludes 0",
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
    return "\n".join(lines)
