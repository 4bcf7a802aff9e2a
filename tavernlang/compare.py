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


def summarize(results: list[dict], players: int) -> dict:
    g = _per_game(results, players)
    return {
        "win_rate_by_seat": [mean_ci(w) for w in g["wins"]],
        "score_by_seat": [mean_ci(s) for s in g["scores"]],
        "mean_score": mean_ci(g["mean_score"]),
        "rounds": mean_ci(g["rounds"]),
        "decisions": mean_ci(g["decisions"]),
    }


def differences(base: list[dict], variant: list[dict], players: int) -> dict:
    b, v = _per_game(base, players), _per_game(variant, players)

    def d(xs, ys):
        return mean_ci([y - x for x, y in zip(xs, ys)])
    return {
        "win_rate_by_seat": [d(b["wins"][p], v["wins"][p]) for p in range(players)],
        "score_by_seat": [d(b["scores"][p], v["scores"][p]) for p in range(players)],
        "mean_score": d(b["mean_score"], v["mean_score"]),
        "rounds": d(b["rounds"], v["rounds"]),
        "decisions": d(b["decisions"], v["decisions"]),
    }


def _fmt(s: dict, pct=False) -> str:
    k = 100.0 if pct else 1.0
    unit = "%" if pct else ""
    lo, hi = s["ci95"]
    return f"{s['mean'] * k:8.2f}{unit} [{lo * k:7.2f}, {hi * k:7.2f}]"


def _dfmt(s: dict, pct=False) -> str:
    lo, hi = s["ci95"]
    mark = " *" if lo > 0 or hi < 0 else "  "
    return _fmt(s, pct) + mark


def render(report: dict) -> str:
    b, v, d = report["base"], report["variant"], report["difference"]
    lines = [
        f"{report['games']} games per side, {report['players']} players, seeds {report['seed']}..{report['seed'] + report['games'] - 1}",
        f"base:    {report['base_file']}",
        f"variant: {report['variant_file']}",
        "mean [95% confidence interval]; * marks a difference whose interval excludes 0",
        "",
        f"{'':18}{'base':>28}{'variant':>28}{'difference':>30}",
        f"{'rounds':18}{_fmt(b['rounds']):>28}{_fmt(v['rounds']):>28}{_dfmt(d['rounds']):>30}",
        f"{'decisions':18}{_fmt(b['decisions']):>28}{_fmt(v['decisions']):>28}{_dfmt(d['decisions']):>30}",
        f"{'mean score':18}{_fmt(b['mean_score']):>28}{_fmt(v['mean_score']):>28}{_dfmt(d['mean_score']):>30}",
        f"{'  (spread, sd)':18}{b['mean_score']['sd']:>28.2f}{v['mean_score']['sd']:>28.2f}",
    ]
    for p in range(report["players"]):
        lines.append(f"{f'P{p + 1} win rate':18}{_fmt(b['win_rate_by_seat'][p], True):>28}"
                     f"{_fmt(v['win_rate_by_seat'][p], True):>28}{_dfmt(d['win_rate_by_seat'][p], True):>30}")
    for p in range(report["players"]):
        lines.append(f"{f'P{p + 1} score':18}{_fmt(b['score_by_seat'][p]):>28}"
                     f"{_fmt(v['score_by_seat'][p]):>28}{_dfmt(d['score_by_seat'][p]):>30}")
    return "\n".join(lines)
