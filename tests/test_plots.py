"""The pictures of many games (`--plot`, `tav report --out`): shared bins, units, and for a
variant the differences by seat with their paired intervals."""
from __future__ import annotations

import pytest

from tavernlang import plots

pytest.importorskip("matplotlib")


def _games(scores_by_game, rounds):
    return [{"scores": s, "winners": [s.index(max(s))], "rounds": r, "decisions": 10 * r}
            for s, r in zip(scores_by_game, rounds)]


def test_edges_are_whole_numbers_each_value_in_the_middle_of_its_bin():
    e = plots.edges([2, 3, 3, 7])
    assert e == [1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5]
    wide = plots.edges([0, 299])
    assert len(wide) - 1 <= plots.MAX_BINS and wide[0] == -0.5 and wide[-1] >= 299
    assert all(b - a == wide[1] - wide[0] for a, b in zip(wide, wide[1:]))
    assert plots.edges([]) == [0.0, 1.0]


def _step_xs(ax):
    return [sorted({round(x, 6) for x, _ in p.get_xy()}) for p in ax.patches]


def test_a_variant_is_drawn_with_its_differences_and_shared_length_bins():
    base = _games([[3, 1], [2, 4], [5, 0], [1, 1]], [2, 3, 3, 9])
    variant = _games([[6, 1], [5, 4], [8, 0], [4, 1]], [4, 5, 5, 6])
    fig = plots.draw_compare("t", base, variant, 2)
    titles = [ax.get_title() for ax in fig.axes]
    assert "change in win rate by seat, paired 95% interval" in titles
    assert "change in mean final score by seat, paired 95% interval" in titles
    score = fig.axes[titles.index("change in mean final score by seat, paired 95% interval")]
    assert [round(b.get_height(), 6) for b in score.patches] == [3.0, 0.0]  # P1 +3 in every game, P2 the same
    assert score.patches[0].get_facecolor()[:3] != score.patches[1].get_facecolor()[:3]  # shown vs may be noise
    assert "(points)" in score.get_ylabel()
    assert "(percentage points)" in fig.axes[titles.index("change in win rate by seat, paired 95% interval")].get_ylabel()
    lengths = fig.axes[titles.index("game length")]
    xs = _step_xs(lengths)
    assert len(xs) == 2 and xs[0] == xs[1]  # base and variant on the same bin edges
    assert lengths.get_xlabel() == "game length (rounds)"
    plots._plt().close(fig)


def test_several_sides_show_mean_scores_not_a_histogram_per_seat_and_side():
    sides = [(f"v{k}", _games([[k, 1], [k + 1, 2], [k, 3]], [2, 3, 4])) for k in range(4)]
    fig = plots.draw("t", sides, 2)
    scores = fig.axes[1]
    assert scores.get_title() == "final score by seat, mean and 95% interval"
    assert len(scores.patches) == 4 * 2  # a bar per side and seat
    assert scores.get_ylabel() == "mean final score (points)"
    one = plots.draw("t", sides[:1], 2)
    assert one.axes[1].get_xlabel() == "final score (points)" and len(one.axes[1].patches) == 2
    xs = _step_xs(one.axes[1])
    assert xs[0] == xs[1]  # every seat on the same bins
    plots._plt().close(fig)
    plots._plt().close(one)
