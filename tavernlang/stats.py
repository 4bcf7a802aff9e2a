"""The statistics behind what `tav report` and `tav compare` conclude (docs/balance.md, *Chance
and findings*).

A report tests several things at once (each seat's win rate against an even share, the search
bot's against its share, each difference a variant makes); each test alone errs one time in 20
at α = 0.05, so together they would find something in a fair game far more often. Every test of
one run is therefore corrected together by Holm's step-down method, which holds the chance of
any false finding in the run at α whatever the dependence between the tests.

- a win rate against a reference share p0: the score test, z = (p̂ − p0) / √(p0 (1 − p0) / n),
  whose inversion is the Wilson interval (a Wilson interval excludes p0 exactly when the test
  rejects at its level);
- a mean of per-game values (a difference paired by seed, a length): the normal test,
  z = mean / (sd / √n), with the normal interval mean ± z sd / √n;
- the interval stated with a finding is at level 1 − α/m for m tests (Bonferroni: intervals that
  hold together); a finding is made when Holm's adjusted p-value is below α;
- the games that resolve an effect δ with power 1 − β at the corrected level α/m:
  n = ((z_{1 − α/(2m)} + z_{1 − β}) · σ / δ)², with σ² = p0 (1 − p0) for a win rate against
  p0 and the observed variance of the per-game values for a mean.

Only the standard library (statistics.NormalDist, math).
"""
from __future__ import annotations

import math
from statistics import NormalDist

ALPHA = 0.05
POWER = 0.8
EFFECT = 0.02  # the shift in win rate (2 points) a sample-size estimate is stated for, unless asked otherwise
_N = NormalDist()


def z_for(alpha: float) -> float:
    """The two-sided critical value: z with P(|Z| > z) = alpha."""
    return _N.inv_cdf(1 - alpha / 2)


def p_from_z(z: float) -> float:
    """The two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def holm(ps: list[float]) -> list[float]:
    """Holm's adjusted p-values, in the order given: the i-th smallest p times (m − i + 1), made
    non-decreasing in that order and capped at 1. A test is rejected at level α when its adjusted
    p-value is at most α."""
    m = len(ps)
    out = [1.0] * m
    run = 0.0
    for i, k in enumerate(sorted(range(m), key=lambda j: ps[j])):
        run = max(run, min(1.0, (m - i) * ps[k]))
        out[k] = run
    return out


def rate_p(rate: float, n: int, p0: float) -> float:
    """The score test of a win rate against p0 over n games (two-sided)."""
    if n <= 0 or not 0 < p0 < 1:
        return 1.0
    return p_from_z((rate - p0) / math.sqrt(p0 * (1 - p0) / n))


def mean_p(mean: float, sd: float, n: int) -> float:
    """The normal test of a mean of per-game values against 0 (two-sided)."""
    if n < 2:
        return 1.0
    if sd == 0:
        return 1.0 if mean == 0 else 0.0
    return p_from_z(mean / (sd / math.sqrt(n)))


def wilson(rate: float, n: int, z: float) -> list[float]:
    """The Wilson score interval of a rate over n games at the critical value z."""
    from .balance import wilson as w
    _, lo, hi = w(rate * n, n, z)
    return [lo, hi]


def normal(mean: float, sd: float, n: int, z: float) -> list[float]:
    """The normal interval of a mean of n per-game values."""
    h = z * sd / math.sqrt(n) if n >= 2 else 0.0
    return [mean - h, mean + h]


def games_for(sd: float, effect: float, alpha: float, power: float = POWER) -> int:
    """Games that detect a shift of `effect` (in the unit of `sd`) with probability `power` by a
    two-sided test at level `alpha`: ((z_{1−α/2} + z_{power}) σ / δ)², rounded up."""
    if effect <= 0:
        raise ValueError("the effect must be more than 0")
    return max(2, math.ceil(((z_for(alpha) + _N.inv_cdf(power)) * sd / effect) ** 2))


def rate_test(name: str, rate: float, n: int, p0: float) -> dict:
    """A test of a win rate against a share p0 (`kind` "rate")."""
    return {"name": name, "kind": "rate", "estimate": rate, "reference": p0, "games": n, "p": rate_p(rate, n, p0)}


def mean_test(name: str, mean: float, sd: float, n: int, rate: bool = False) -> dict:
    """A test of a mean of per-game values against 0 (`kind` "mean"; `rate`: a difference of
    win rates, whose interval stays within [−1, 1])."""
    return {"name": name, "kind": "mean", "estimate": mean, "reference": 0.0, "sd": sd, "games": n,
            "rate": rate, "p": mean_p(mean, sd, n)}


def correct(tests: list[dict], alpha: float = ALPHA, m: int | None = None) -> dict:
    """Holm over `tests` (each made by rate_test or mean_test): adds to each its adjusted p-value
    (`p_holm`), whether it is a finding (`significant`) and its interval at the corrected level
    (`ci`, level 1 − α/m). Returns the family: method, α, number of comparisons, the tests. `m`:
    the number of comparisons the intervals are corrected for, when more tests than these will
    be made (by default, these)."""
    m = max(1, len(tests) if m is None else m)
    z = z_for(alpha / m)
    for t, ph in zip(tests, holm([t["p"] for t in tests])):
        t["p_holm"] = ph
        t["significant"] = ph <= alpha
        if t["kind"] == "rate":
            t["ci"] = wilson(t["estimate"], t["games"], z)
        else:
            lo, hi = normal(t["estimate"], t["sd"], t["games"], z)
            t["ci"] = [max(-1.0, lo), min(1.0, hi)] if t.get("rate") else [lo, hi]
    return {"method": "holm", "alpha": alpha, "comparisons": len(tests), "ci_level": 1 - alpha / m, "tests": tests}


def width(t: dict) -> float:
    return t["ci"][1] - t["ci"][0]


def games_to_resolve(t: dict, effect: float, family: dict, power: float = POWER) -> int:
    """Games that resolve a shift of `effect` (a fraction: 0.02 is 2 points) in test t's quantity
    at the family's corrected level (α/m, Holm's first step: what any of its tests must pass)."""
    sd = math.sqrt(t["reference"] * (1 - t["reference"])) if t["kind"] == "rate" else t["sd"]
    return games_for(sd, effect, family["alpha"] / max(1, family["comparisons"]), power)


def next_games(n: int, widest: float, target: float, cap: int) -> int:
    """How many games to have played after the next batch of `--until-ci`: an interval narrows as
    1/√n, so n (widest/target)², at least a tenth more and at most eight times as many, within
    the cap (a whole function of what was played: the same run for the same seeds)."""
    want = math.ceil(n * (widest / target) ** 2) if target > 0 else cap
    return min(cap, max(want, n + max(1, math.ceil(n / 10))), 8 * n)
