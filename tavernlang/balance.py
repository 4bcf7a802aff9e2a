"""Numbers about many games: win rates with Wilson intervals, distributions, one record per game
(`--games-out`), shared by `tav sim`, `tav compare` and `tav report`."""
from __future__ import annotations

import csv
import json
import math
from pathlib import Path

Z95 = 1.959963984540054


class OutputError(ValueError):
    """An output file that cannot be written as asked (a usage error)."""


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """A win rate and its Wilson score interval (always within [0, 1]); a shared win counts its
    share, so `wins` may be fractional."""
    if n <= 0:
        return 0.0, 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / d
    return p, max(0.0, centre - h), min(1.0, centre + h)


def quantiles(xs: list[float]) -> dict:
    """min, quartiles, max, mean and sd of a sample."""
    if not xs:
        return {"n": 0}
    s = sorted(xs)
    n = len(s)

    def q(f):
        k = (n - 1) * f
        lo, hi = math.floor(k), math.ceil(k)
        return s[lo] + (s[hi] - s[lo]) * (k - lo)
    m = sum(s) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in s) / (n - 1)) if n > 1 else 0.0
    return {"n": n, "mean": m, "sd": sd, "min": s[0], "q1": q(0.25), "median": q(0.5), "q3": q(0.75), "max": s[-1]}


def margin(r: dict) -> float | None:
    """The winner's score minus the best other score (0 in a tie; None for fewer than 2)."""
    sc = sorted(r["scores"], reverse=True)
    if len(sc) < 2 or not all(isinstance(x, (int, float)) for x in sc):
        return None
    return float(sc[0] - sc[1])


def seat_rates(results: list[dict], players: int) -> list[dict]:
    n = len(results)
    out = []
    for p in range(players):
        w = sum(1 / len(r["winners"]) for r in results if p in r["winners"])
        rate, lo, hi = wilson(w, n)
        out.append({"wins": round(w, 4), "rate": rate, "ci95": [lo, hi]})
    return out


def bot_rates(results: list[dict], players: int) -> dict:
    """Win rate by bot (for mixed, seat-rotated runs): each bot's share of wins over the seats it
    played, against what an even share (1/players per seat) would give."""
    per: dict[str, list[float]] = {}
    for r in results:
        bots = r.get("bots")
        if not bots:
            continue
        for p, b in enumerate(bots):
            share = (1 / len(r["winners"])) if p in r["winners"] else 0.0
            per.setdefault(b, []).append(share)
    out = {}
    for b, xs in per.items():
        rate, lo, hi = wilson(sum(xs), len(xs))
        out[b] = {"seats_played": len(xs), "rate": rate, "ci95": [lo, hi], "even_share": 1 / players}
    return out


def record(r: dict, options: dict | None, bots: str, side: str | None = None) -> dict:
    """One game as a flat record, seats numbered from 1."""
    rec = {"seed": r["seed"]}
    if side is not None:
        rec["side"] = side
    rec.update({
        "options": dict(options or {}), "bots": bots,
        "winners": [p + 1 for p in r["winners"]], "scores": list(r["scores"]),
        "rounds": r["rounds"], "decisions": r["decisions"],
    })
    if "forced" in r:  # (decisions with one option, taken without asking: not in "decisions")
        rec["forced"] = r["forced"]
    if "layout" in r:  # (the layout the seed was played in: a replay, tav serve --replay, plays it so)
        rec["layout"] = r["layout"]
    if "error" in r:
        rec["error"] = r["error"]
    return rec


def write_games(path: str, records: list[dict]) -> None:
    """`--games-out FILE.jsonl` (one JSON object a line) or `FILE.csv` (options, winners and scores
    as columns: option_NAME, winners as '1 3', score_P1...)."""
    p = Path(path)
    ext = p.suffix.lower()
    if ext not in (".jsonl", ".csv"):
        raise OutputError(f"--games-out writes .jsonl or .csv, not '{p.name}'")
    try:
        with p.open("w", newline="", encoding="utf-8") as f:
            if ext == ".jsonl":
                for rec in records:
                    f.write(json.dumps(rec) + "\n")
                return
            opt_names = sorted({k for rec in records for k in rec["options"]})
            seats = max((len(rec["scores"]) for rec in records), default=0)
            head = ["seed"] + (["side"] if any("side" in r for r in records) else []) + \
                [f"option_{k}" for k in opt_names] + ["bots", "winners"] + \
                [f"score_P{i + 1}" for i in range(seats)] + ["rounds", "decisions"]
            w = csv.writer(f)
            w.writerow(head)
            for rec in records:
                row = [rec["seed"]] + ([rec.get("side", "")] if "side" in head else []) + \
                    [rec["options"].get(k, "") for k in opt_names] + \
                    [rec["bots"], " ".join(map(str, rec["winners"]))] + \
                    list(rec["scores"]) + [""] * (seats - len(rec["scores"])) + [rec["rounds"], rec["decisions"]]
                w.writerow(row)
    except OSError as e:
        raise OutputError(f"cannot write '{path}': {e.strerror or e}") from None


def pct(rate: float, lo: float, hi: float) -> str:
    return f"{100 * rate:5.1f}% [{100 * lo:5.1f}, {100 * hi:5.1f}]"
