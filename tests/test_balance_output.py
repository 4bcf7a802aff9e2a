"""Data and pictures out of many games: `--games-out`, `--plot`, Wilson intervals, `compare -o`."""
from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tavernlang.balance import wilson

ROOT = Path(__file__).resolve().parent.parent
LITTLE = str(ROOT / "games" / "little_tavern.tav")
CAVERN = str(ROOT / "games" / "cavern_tavern.tav")
THIRTY = str(ROOT / "examples" / "little_tavern" / "thirty_coins.tav")


def test_wilson_stays_within_0_1():
    for w, n in ((0, 5), (5, 5), (1, 5), (2.5, 5), (0, 1), (100, 200)):
        p, lo, hi = wilson(w, n)
        assert 0 <= lo <= p <= hi <= 1
    p, lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3  # the textbook value


def test_sim_json_has_intervals_and_games_out(tav, tmp_path):
    out = tmp_path / "games.jsonl"
    r = tav("sim", LITTLE, "-p", "3", "-g", "12", "--seed", "4", "--json", "--games-out", str(out))
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    for rate, (lo, hi) in zip(data["win_rate_by_seat"], data["win_rate_ci95_by_seat"]):
        assert 0 <= lo <= rate <= hi <= 1
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [x["seed"] for x in recs] == list(range(4, 16))
    assert sum(len(x["winners"]) > 0 for x in recs) == 12
    assert sum(x["decisions"] for x in recs) == data["decisions"]
    assert all(x["bots"] == "random,random,random" and len(x["scores"]) == 3 for x in recs)


def test_games_out_csv_and_bad_extensions(tav, tmp_path):
    out = tmp_path / "g.csv"
    r = tav("sim", LITTLE, "-p", "2", "-g", "5", "--games-out", str(out), "-o", "win_coins=10")
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 5 and rows[0]["option_win_coins"] == "10" and "score_P2" in rows[0]
    for flag, name in (("--games-out", "g.txt"), ("--plot", "p.pdf")):
        r = tav("sim", LITTLE, "-p", "2", "-g", "2", flag, str(tmp_path / name))
        assert r.exit_code == 2 and flag in r.output and "Traceback" not in r.output


def test_plot_png_and_svg_read_back(tav, tmp_path):
    pytest.importorskip("matplotlib")
    import matplotlib.image as mpimg
    png = tmp_path / "sim.png"
    r = tav("sim", LITTLE, "-p", "3", "-g", "20", "--plot", str(png))
    assert r.exit_code == 0, r.output
    img = mpimg.imread(str(png))
    assert img.shape[0] > 200 and img.shape[1] > 600
    assert img[..., :3].std() > 0.05  # something is drawn, not a blank page
    svg = tmp_path / "cmp.svg"
    r = tav("compare", LITTLE, THIRTY, "-p", "3", "-g", "10", "--plot", str(svg))
    assert r.exit_code == 0, r.output
    root = ET.parse(svg).getroot()
    text = svg.read_text()
    assert root.tag.endswith("svg") and "win rate by seat" in text and "variant" in text


def test_plot_without_matplotlib_names_the_extra(tav, tmp_path, monkeypatch):
    import builtins
    real = builtins.__import__

    def no_mpl(name, *a, **kw):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError("no matplotlib")
        return real(name, *a, **kw)
    monkeypatch.setattr(builtins, "__import__", no_mpl)
    r = tav("sim", LITTLE, "-p", "2", "-g", "2", "--plot", str(tmp_path / "x.png"))
    assert r.exit_code == 2
    assert "[plot]" in r.output and "Traceback" not in r.output


def test_compare_intervals_stay_within_bounds_and_fit_80_columns(tav):
    r = tav("compare", LITTLE, THIRTY, "-p", "3", "-g", "5", "--json")
    rep = json.loads(r.output)
    for side in ("base", "variant"):
        for s in rep[side]["win_rate_by_seat"]:
            assert 0 <= s["ci95"][0] <= s["mean"] <= s["ci95"][1] <= 1
    for s in rep["difference"]["win_rate_by_seat"]:
        assert -1 <= s["ci95"][0] <= s["ci95"][1] <= 1
    text = tav("compare", CAVERN, CAVERN, "-p", "3", "-g", "4").output
    assert max(len(x) for x in text.splitlines()) <= 80


def test_compare_with_options_on_both_sides_and_on_one(tav):
    both = json.loads(tav("compare", LITTLE, THIRTY, "-p", "3", "-g", "6", "-o", "event_cost=0", "--json").output)
    assert both["base_options"] == {"event_cost": 0} and both["variant_options"] == {"event_cost": 0}
    # one option value against another of the same game
    r = tav("compare", LITTLE, LITTLE, "-p", "3", "-g", "20", "-V", "win_coins=40", "--json")
    rep = json.loads(r.output)
    assert rep["variant_options"] == {"win_coins": 40} and rep["base_options"] == {}
    assert rep["difference"]["rounds"]["ci95"][0] > 0  # 40 coins take longer than 25
    text = tav("compare", LITTLE, LITTLE, "-p", "3", "-g", "4", "-V", "win_coins=40").output
    assert "variant: " + LITTLE + " -o win_coins=40" in text
    r = tav("compare", LITTLE, LITTLE, "-p", "3", "-g", "4", "-B", "nonsense=1")
    assert r.exit_code == 2 and "unknown option 'nonsense'" in r.output
