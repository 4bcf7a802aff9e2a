"""`tav compare`: what a variant changes, corrected by Holm for every difference tested at once,
with intervals at the corrected level, sample sizes for what is unresolved, and `--until-ci`."""
from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BALANCE = ROOT / "tests" / "balance"
LOTS = str(BALANCE / "lots.tav")  # every seat wins with the same chance
FROM_THE_LAST = str(BALANCE / "lots_from_the_last.tav")  # as fair, another seat for a seed
HEAD_START = str(BALANCE / "head_start.tav")  # the first seat wins 2 in n + 1, every other 1 in n + 1


def _compare(tav, *args) -> dict:
    r = tav("compare", *map(str, args), "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_two_fair_games_show_no_change_at_most_seeds(tav):
    # 20 comparisons of 200 games on disjoint seeds; each seat's win rate and score differ seed by
    # seed, but Holm holds the chance of any false * in a comparison at 5%
    marked = []
    for k in range(20):
        rep = _compare(tav, LOTS, FROM_THE_LAST, "-p", 4, "-g", 200, "--seed", 1 + 200 * k)
        assert rep["statistics"]["comparisons"] == 2 * 4 + 3
        if any(t["significant"] for t in rep["statistics"]["tests"]):
            marked.append(k)
    assert len(marked) <= 2, marked


def test_a_seat_that_wins_more_by_construction_is_marked(tav):
    rep = _compare(tav, LOTS, HEAD_START, "-p", 4, "-g", 200)
    p1 = rep["difference"]["win_rate_by_seat"][0]
    assert p1["significant"] and p1["p_holm"] <= 0.05 and p1["ci_corrected"][0] > 0
    lo95, hi95 = p1["ci95"]
    lo, hi = p1["ci_corrected"]
    assert lo < lo95 and hi > hi95  # at the corrected level, wider than the 95% interval
    assert not rep["difference"]["rounds"]["significant"]  # (one round either way: no change, p 1)
    text = tav("compare", LOTS, HEAD_START, "-p", "4", "-g", "200").output
    row = next(x for x in text.splitlines() if x.startswith("P1 win rate"))
    assert row.endswith("*")
    assert "What holds after Holm's correction for the 11 differences tested" in " ".join(text.split())
    assert max(len(x) for x in text.splitlines()) <= 80


def test_an_unresolved_change_says_how_many_games_a_side_would_resolve_it(tav):
    text = " ".join(tav("compare", LOTS, FROM_THE_LAST, "-p", "4", "-g", "200", "--effect", "3").output.split())
    assert "No difference holds beyond chance" in text
    assert "a change of 3 points takes about" in text and "games a side to detect" in text
    rep = _compare(tav, LOTS, FROM_THE_LAST, "-p", 4, "-g", 200, "--effect", 3)
    ss = rep["statistics"]["sample_size"]
    assert ss["effect"] == 0.03 and ss["games"] > 200


def test_compare_json_keeps_every_field_it_had_and_adds_the_statistics(tav):
    rep = _compare(tav, LOTS, HEAD_START, "-p", 3, "-g", 20)
    assert {"base_file", "variant_file", "players", "games", "seed", "base_exact", "variant_exact", "base_options",
            "variant_options", "bots", "base", "variant", "difference"} <= set(rep)
    for key in ("rounds", "decisions", "mean_score"):
        assert {"mean", "sd", "ci95", "p", "p_holm", "significant", "ci_corrected"} <= set(rep["difference"][key])
    assert {"method", "alpha", "comparisons", "ci_level", "tests", "sample_size"} <= set(rep["statistics"])
    assert "until_ci" not in rep


def test_until_ci_on_compare_stops_by_width_and_by_cap(tav):
    rep = _compare(tav, LOTS, FROM_THE_LAST, "-p", 2, "-g", 20, "--until-ci", 30)
    u = rep["until_ci"]
    assert u["reached"] and u["widest"] <= 0.30 and rep["games"] > 20
    assert all(d["ci_corrected"][1] - d["ci_corrected"][0] <= 0.30 for d in rep["difference"]["win_rate_by_seat"])
    again = _compare(tav, LOTS, FROM_THE_LAST, "-p", 2, "-g", 20, "--until-ci", 30, "-j", 2)
    assert again["games"] == rep["games"] and again["difference"] == rep["difference"]
    capped = _compare(tav, LOTS, FROM_THE_LAST, "-p", 2, "-g", 20, "--until-ci", 1, "--max-games", 150)
    assert capped["games"] == 150 and not capped["until_ci"]["reached"]
