"""Pictures of many games (`--plot FILE.png|.svg` on `tav sim` and `tav compare`, and `tav report
--out`): seat win rates with Wilson 95% interval bars, scores by seat, game lengths; for a game and
its variant on the same seeds, the differences (variant − base) by seat with their paired 95%
intervals, the question a house rule asks.

Every side of a picture shares one set of bin edges, so two histograms compare bar for bar, and
every axis says its unit. matplotlib is an optional extra (`pip install -e '.[plot]'`), drawn
headless (the Agg backend).
"""
from __future__ import annotations

import math
from pathlib import Path

from .balance import seat_rates

FORMATS = (".png", ".svg")
MAX_BINS = 30


class PlotError(ValueError):
    """A picture that cannot be drawn as asked (a usage error: the extension, or no matplotlib)."""


def check_target(path: str) -> None:
    ext = Path(path).suffix.lower()
    if ext not in FORMATS:
        raise PlotError(f"draws .png or .svg, not '{Path(path).name}'")
    _plt()


def _plt():
    try:
        import matplotlib
    except ImportError:
        raise PlotError("pictures need matplotlib: pip install 'tavernlang[plot]' "
                        "(from a checkout: pip install -e '.[plot]')") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    return plt


def _save(fig, path: str) -> None:
    try:
        fig.savefig(path, dpi=100, bbox_inches="tight")
    except OSError as e:
        raise PlotError(f"cannot write '{path}': {e.strerror or e}") from None
    finally:
        _plt().close(fig)


def edges(values: list[float]) -> list[float]:
    """Bin edges shared by every series of a histogram: whole numbers of equal width (a bin per
    value when there are at most MAX_BINS values), each value in the middle of its bin's span."""
    if not values:
        return [0.0, 1.0]
    lo, hi = math.floor(min(values)), math.floor(max(values))
    width = max(1, math.ceil((hi - lo + 1) / MAX_BINS))
    n = (hi - lo) // width + 1
    return [lo - 0.5 + k * width for k in range(n + 1)]


def _whole():
    from matplotlib.ticker import MaxNLocator
    return MaxNLocator(integer=True)


def _win_bars(ax, sides: list[tuple[str, list[dict]]], players: int) -> None:
    width = 0.8 / len(sides)
    for k, (label, results) in enumerate(sides):
        rates = seat_rates(results, players)
        xs = [p + (k - (len(sides) - 1) / 2) * width for p in range(players)]
        ys = [100 * r["rate"] for r in rates]
        err = [[max(0.0, 100 * (r["rate"] - r["ci95"][0])) for r in rates],
               [max(0.0, 100 * (r["ci95"][1] - r["rate"])) for r in rates]]
        ax.bar(xs, ys, width, yerr=err, capsize=4, label=label)
    ax.axhline(100 / players, color="grey", linestyle="--", linewidth=1, label="even share")
    ax.set_xticks(range(players), [f"P{p + 1}" for p in range(players)])
    ax.set_ylabel("win rate (% of games)")
    ax.set_ylim(0, 100)
    ax.set_title("win rate by seat, 95% Wilson interval")
    ax.legend(fontsize=8)


def _score_hists(ax, results: list[dict], players: int) -> None:
    """One game's scores: a histogram per seat, all on the same bins."""
    bins = edges([float(r["scores"][p]) for r in results for p in range(players)])
    for p in range(players):
        ax.hist([r["scores"][p] for r in results], bins=bins, histtype="step", label=f"P{p + 1}")
    ax.xaxis.set_major_locator(_whole())
    ax.set_xlabel("final score (points)")
    ax.set_ylabel("games")
    ax.set_title("final score by seat")
    ax.legend(fontsize=7)


def _score_means(ax, sides, players: int) -> None:
    """Several sides' scores: the mean by seat with its 95% interval, side by side."""
    from .compare import mean_ci
    width = 0.8 / len(sides)
    for k, (label, res) in enumerate(sides):
        stats = [mean_ci([float(r["scores"][p]) for r in res]) for p in range(players)]
        xs = [p + (k - (len(sides) - 1) / 2) * width for p in range(players)]
        ys = [s["mean"] for s in stats]
        err = [[s["mean"] - s["ci95"][0] for s in stats], [s["ci95"][1] - s["mean"] for s in stats]]
        ax.bar(xs, ys, width, yerr=err, capsize=4, label=label)
    ax.set_xticks(range(players), [f"P{p + 1}" for p in range(players)])
    ax.set_ylabel("mean final score (points)")
    ax.set_title("final score by seat, mean and 95% interval")
    ax.legend(fontsize=8)


def _length_of(sides) -> str:
    # in rounds, or in decisions when every game lasts the same number of rounds
    return "rounds" if len({r["rounds"] for _, res in sides for r in res}) > 1 else "decisions"


def _lengths(ax, sides) -> None:
    what = _length_of(sides)
    bins = edges([float(r[what]) for _, res in sides for r in res])
    for label, res in sides:
        ax.hist([r[what] for r in res], bins=bins, histtype="step", label=label)
    ax.xaxis.set_major_locator(_whole())
    ax.set_xlabel(f"game length ({what})")
    ax.set_ylabel("games")
    ax.set_title("game length")
    if len(sides) > 1:
        ax.legend(fontsize=8)


def _differences(ax, diffs: list[dict], players: int, scale: float, ylabel: str, title: str) -> None:
    """variant − base by seat: the mean of the paired differences and its 95% interval; a bar
    whose interval holds zero is grey (may be noise), one that excludes it is coloured."""
    ys = [scale * d["mean"] for d in diffs]
    err = [[scale * (d["mean"] - d["ci95"][0]) for d in diffs], [scale * (d["ci95"][1] - d["mean"]) for d in diffs]]
    colours = ["lightgrey" if d["ci95"][0] <= 0 <= d["ci95"][1] else ("tab:green" if d["mean"] > 0 else "tab:red")
               for d in diffs]
    ax.bar(range(players), ys, 0.6, yerr=err, capsize=4, color=colours, edgecolor="black", linewidth=0.5)
    ax.axhline(0, color="black", linewidth=1)
    from matplotlib.patches import Patch
    ax.legend(handles=[Patch(facecolor="tab:green", label="up: the interval excludes 0"),
                       Patch(facecolor="tab:red", label="down: the interval excludes 0"),
                       Patch(facecolor="lightgrey", label="the interval holds 0: may be noise")], fontsize=7)
    ax.set_xticks(range(players), [f"P{p + 1}" for p in range(players)])
    ax.set_ylabel(ylabel)
    ax.set_title(title)


def draw(title: str, sides: list[tuple[str, list[dict]]], players: int):
    """The figure of some games (one side) or of a game and its variants on the same seeds (several
    sides), not yet saved: win rates, scores, lengths."""
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    _win_bars(axes[0], sides, players)
    if len(sides) == 1:
        _score_hists(axes[1], sides[0][1], players)
    else:
        _score_means(axes[1], sides, players)
    _lengths(axes[2], sides)
    fig.suptitle(title, y=1.03)
    return fig


def draw_compare(title: str, base: list[dict], variant: list[dict], players: int):
    """A game and its variant on the same seeds: win rates side by side, then what the variant
    changes (variant − base, paired by seed) in win rate and in final score by seat, and the
    game lengths of both on the same bins."""
    from .compare import differences
    plt = _plt()
    sides = [("base", base), ("variant", variant)]
    d = differences(base, variant, players)
    fig, axes = plt.subplots(2, 2, figsize=(12, 8.4))
    _win_bars(axes[0][0], sides, players)
    _differences(axes[0][1], d["win_rate_by_seat"], players, 100, "variant − base (percentage points)",
                 "change in win rate by seat, paired 95% interval")
    _differences(axes[1][0], d["score_by_seat"], players, 1, "variant − base (points)",
                 "change in mean final score by seat, paired 95% interval")
    _lengths(axes[1][1], sides)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def figure(path: str, title: str, sides: list[tuple[str, list[dict]]], players: int) -> None:
    """Three panels: win rates, scores, lengths; one series per side."""
    check_target(path)
    _save(draw(title, sides, players), path)


def sim_figure(path: str, title: str, results: list[dict], players: int) -> None:
    figure(path, f"{title}: {len(results)} games, {players} players", [("games", results)], players)


def compare_figure(path: str, title: str, base: list[dict], variant: list[dict], players: int) -> None:
    check_target(path)
    _save(draw_compare(title, base, variant, players), path)


def bars(path: str, title: str, labels: list[str], rates: list[tuple[float, float, float]], ylabel: str,
         even: float | None = None) -> None:
    """One bar per label with its interval (report: skill, option values)."""
    check_target(path)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(labels) + 2), 3.6))
    ys = [100 * r for r, _, _ in rates]
    err = [[max(0.0, 100 * (r - lo)) for r, lo, _ in rates], [max(0.0, 100 * (hi - r)) for r, _, hi in rates]]
    ax.bar(range(len(labels)), ys, yerr=err, capsize=4, color="tab:green")
    if even is not None:
        ax.axhline(100 * even, color="grey", linestyle="--", linewidth=1, label="even share")
        ax.legend(fontsize=8)
    ax.set_xticks(range(len(labels)), labels, rotation=0)
    ax.set_ylim(0, 100)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    _save(fig, path)
