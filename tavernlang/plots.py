"""Pictures of many games (`--plot FILE.png|.svg` on `tav sim` and `tav compare`, and `tav report
--out`): seat win rates with Wilson 95% interval bars, score histograms per seat, game lengths.

matplotlib is an optional extra (`pip install -e '.[plot]'`), drawn headless (the Agg backend).
"""
from __future__ import annotations

from pathlib import Path

from .balance import seat_rates

FORMATS = (".png", ".svg")


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
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.set_title("win rate by seat, 95% Wilson interval")
    ax.legend(fontsize=8)


def _scores(ax, sides, players: int) -> None:
    allv = [float(r["scores"][p]) for _, res in sides for r in res for p in range(players)]
    if not allv:
        return
    lo, hi = min(allv), max(allv)
    bins = max(5, min(30, int(hi - lo) + 1))
    for label, res in sides:
        for p in range(players):
            ax.hist([r["scores"][p] for r in res], bins=bins, range=(lo, hi + 1), histtype="step",
                    label=f"P{p + 1}" + (f" {label}" if len(sides) > 1 else ""))
    ax.set_xlabel("final score")
    ax.set_ylabel("games")
    ax.set_title("scores by seat")
    ax.legend(fontsize=7)


def _lengths(ax, sides) -> None:
    # in rounds, or in decisions when every game lasts the same number of rounds
    what = "rounds" if len({r["rounds"] for _, res in sides for r in res}) > 1 else "decisions"
    for label, res in sides:
        ax.hist([r[what] for r in res], bins=20, histtype="step", label=label)
    ax.set_xlabel(what)
    ax.set_ylabel("games")
    ax.set_title("game length")
    if len(sides) > 1:
        ax.legend(fontsize=8)


def figure(path: str, title: str, sides: list[tuple[str, list[dict]]], players: int) -> None:
    """Three panels: win rates, scores, lengths; one series per side."""
    check_target(path)
    plt = _plt()
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.2))
    _win_bars(axes[0], sides, players)
    _scores(axes[1], sides, players)
    _lengths(axes[2], sides)
    fig.suptitle(title)
    _save(fig, path)


def sim_figure(path: str, title: str, results: list[dict], players: int) -> None:
    figure(path, f"{title}: {len(results)} games, {players} players", [("games", results)], players)


def compare_figure(path: str, title: str, base: list[dict], variant: list[dict], players: int) -> None:
    figure(path, title, [("base", base), ("variant", variant)], players)


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
