"""tavernlang/stats.py: the tests, corrections, intervals and sample sizes behind what `tav
report` and `tav compare` conclude, against values worked by hand or printed in the literature."""
from __future__ import annotations

import math

import pytest

from tavernlang.balance import wilson
from tavernlang.stats import (correct, games_for, games_to_resolve, holm, mean_p, mean_test, next_games, rate_p,
                              rate_test, z_for)


def test_holm_adjusts_the_textbook_example():
    # four p-values, α 0.05: sorted 0.005, 0.01, 0.03, 0.04 are compared with α/4, α/3, α/2, α;
    # 0.005 and 0.01 are rejected, 0.03 > 0.025 stops the procedure (0.04 is kept though < α)
    adjusted = holm([0.01, 0.04, 0.03, 0.005])
    assert adjusted == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert [p <= 0.05 for p in adjusted] == [True, False, False, True]


def test_holm_is_monotone_capped_at_one_and_leaves_one_test_alone():
    assert holm([0.3, 0.5, 0.9]) == pytest.approx([0.9, 1.0, 1.0])
    assert holm([0.02]) == [0.02]
    assert holm([]) == []


def test_wilson_matches_newcombe_and_a_hand_computed_interval():
    # Newcombe (1998), Statistics in Medicine 17:857, example 81/263: score interval 0.2553..0.3662
    _, lo, hi = wilson(81, 263)
    assert (round(lo, 4), round(hi, 4)) == (0.2553, 0.3662)
    # 70 of 200 by hand: centre (0.35 + z²/400)/(1 + z²/200), half width
    # z √(0.35·0.65/200 + z²/160000)/(1 + z²/200), z = 1.96: 0.2873..0.4184
    _, lo, hi = wilson(70, 200)
    assert (round(lo, 4), round(hi, 4)) == (0.2873, 0.4184)


def test_critical_values_and_the_score_test():
    assert z_for(0.05) == pytest.approx(1.959964, abs=1e-6)
    assert z_for(0.05 / 4) == pytest.approx(2.497705, abs=1e-6)
    # 70 wins of 200 against a quarter: z = 0.1 / √(0.1875/200) = 3.266, two-sided p = 0.00109
    assert rate_p(0.35, 200, 0.25) == pytest.approx(0.001091, abs=2e-6)
    assert rate_p(0.25, 200, 0.25) == 1.0
    assert mean_p(1.0, 5.0, 100) == pytest.approx(2 * (1 - 0.97724987), abs=1e-6)  # z = 2
    assert mean_p(0.0, 0.0, 10) == 1.0 and mean_p(0.5, 0.0, 10) == 0.0


def test_the_sample_size_of_a_z_test():
    # the classic one-sample z test: effect 0.5 sd, α 0.05 two-sided, 80% power: 31.4, so 32 games
    assert games_for(1.0, 0.5, 0.05) == 32
    # a seat 2 points off a quarter, Holm over 4 seats (α/4 at its first step): 5228 games
    assert games_for(math.sqrt(0.25 * 0.75), 0.02, 0.05 / 4) == 5228
    fam = correct([rate_test(f"P{p}", 0.25, 200, 0.25) for p in range(4)])
    assert games_to_resolve(fam["tests"][0], 0.02, fam) == 5228
    with pytest.raises(ValueError):
        games_for(1.0, 0.0, 0.05)


def test_correct_marks_findings_and_widens_intervals_to_hold_together():
    tests = [rate_test("P1", 0.35, 200, 0.25), rate_test("P2", 0.20, 200, 0.25),
             mean_test("rounds", 0.5, 5.0, 200)]
    fam = correct(tests)
    assert fam["comparisons"] == 3 and fam["ci_level"] == pytest.approx(1 - 0.05 / 3)
    assert [t["significant"] for t in tests] == [True, False, False]
    assert tests[0]["p_holm"] == pytest.approx(3 * tests[0]["p"])
    # the P1 interval is Wilson's at z_{1 − α/6}, wider than its 95% interval
    _, lo95, hi95 = wilson(70, 200)
    _, lo, hi = wilson(70, 200, z_for(0.05 / 3))
    assert tests[0]["ci"] == pytest.approx([lo, hi]) and lo < lo95 and hi > hi95
    h = z_for(0.05 / 3) * 5.0 / math.sqrt(200)
    assert tests[2]["ci"] == pytest.approx([0.5 - h, 0.5 + h])
    # more comparisons to come: the intervals are corrected for them
    wide = correct([rate_test("P1", 0.35, 200, 0.25)], m=10)["tests"][0]["ci"]
    assert wide[0] < lo and wide[1] > hi


def test_a_difference_of_rates_stays_within_minus_one_and_one():
    t = mean_test("P1 win rate", 0.9, 0.3, 3, rate=True)
    correct([t])
    assert -1 <= t["ci"][0] and t["ci"][1] == 1.0


def test_next_games_grows_as_the_width_asks_within_bounds():
    assert next_games(200, 0.10, 0.05, 20_000) == 800  # a width halved takes four times the games
    assert next_games(200, 0.051, 0.05, 20_000) == 220  # at least a tenth more
    assert next_games(200, 1.0, 0.01, 20_000) == 1600  # at most eight times as many
    assert next_games(200, 0.10, 0.05, 500) == 500  # never past the cap
