"""A save is checked field by field against the rules it belongs to (a save edited by hand too):
each damaged field is a clear error naming it, never an internal error; the rules are known by
their content, so a save loads from any folder."""
from __future__ import annotations

import json
import os
import random

import pytest
from click.testing import CliRunner

from tavernlang import compile_file
from tavernlang.cli import main
from tavernlang.engine.runner import Match, play_bots
from tavernlang.errors import GameError

GAME = "games/cavern_tavern.tav"


@pytest.fixture(scope="module")
def game():
    return compile_file(GAME)


def _save(game):
    m = Match(game, 2, 7)
    for _ in range(5):
        m.apply(0)
    return m.save(GAME, game.model.sources.all_text())


@pytest.mark.parametrize(("field", "value", "message"), [
    ("players", 0, "'players' must be a whole number from 1 to 6"),
    ("players", "2", "'players' must be a whole number"),
    ("players", True, "'players' must be a whole number"),
    ("seed", float("inf"), "'seed' must be a whole number"),
    ("seed", 10 ** 30, "'seed' must be a whole number of at most 2^63"),
    ("choices", "0,1", "'choices' must be a list"),
    ("choices", [0, -1], "'choices' must be a list"),
    ("choices", [0, True], "'choices' must be a list"),
    ("options", [1], "'options' must be a table"),
    ("options", "secret_chamber", "'options' must be a table"),
    ("options", {"secret_chamber": "no"}, "gives 'secret_chamber' as 'no': it is true or false"),
    ("options", {"solo_mode": "Hard"}, "gives 'solo_mode' as 'Hard': it is one of"),
    ("options", {"nope": 1}, "names 'nope', which is not an option"),
])
def test_damaged_fields_are_named(game, field, value, message):
    data = dict(_save(game), **{field: value})
    with pytest.raises(GameError) as e:
        Match.load(game, data, rules_text=game.model.sources.all_text())
    assert message in str(e.value)


def test_a_missing_field_is_named(game):
    data = _save(game)
    del data["choices"]
    with pytest.raises(GameError, match="'choices' is missing"):
        Match.load(game, data)


def test_a_good_save_resumes_the_same_game(game):
    data = json.loads(json.dumps(_save(game)))
    m = Match.load(game, data, rules_text=game.model.sources.all_text())
    assert len(m.choices) == 5
    play_bots(m)
    assert m.over


def _play_save(tmp_path, game, **fields):
    data = {**_save(game), "seat": 1, **fields}
    p = tmp_path / "s.json"
    p.write_text(json.dumps(data))
    return p


@pytest.mark.parametrize(("fields", "message"), [
    ({"seat": 0}, "'seat' must be a seat from 1 to 2, not 0"),
    ({"seat": -5}, "'seat' must be a seat from 1 to 2"),
    ({"seat": "P1"}, "'seat' must be a seat from 1 to 2"),
    ({"seat": [1]}, "'seat' must be a seat from 1 to 2"),
    ({"seat": 10 ** 20}, "'seat' must be a seat from 1 to 2"),
    ({"bot_rng": [3, [1, 2], None]}, "'bot_rng' is not the state of a random generator"),
    ({"bot_rng": "x"}, "'bot_rng' is not the state of a random generator"),
])
def test_play_load_refuses_a_damaged_seat_or_bot_state(tmp_path, game, fields, message):
    p = _play_save(tmp_path, game, **fields)
    r = CliRunner().invoke(main, ["play", GAME, "-p", "2", "--load", str(p)], input="q\n")
    assert r.exit_code == 1 and message in r.output and "internal error" not in r.output, r.output


def test_a_save_loads_from_another_folder(tmp_path, game):
    """The rules hash covers the rules' content, not the paths they were read by."""
    p = _play_save(tmp_path, game)
    here = os.getcwd()
    r = CliRunner().invoke(main, ["play", os.path.join(here, GAME), "-p", "2", "--load", str(p)], input="q\n")
    assert r.exit_code == 0 and "resumed" in r.output, r.output
    os.chdir(tmp_path)
    try:
        r = CliRunner().invoke(main, ["play", os.path.join(here, GAME), "-p", "2", "--load", str(p)], input="q\n")
    finally:
        os.chdir(here)
    assert r.exit_code == 0 and "resumed" in r.output, r.output


# ---- every game and layout: Tavern Masters, Tiefenthal, the fast layout, a hot-seat save

LAYOUTS = {  # name: (rules, fast layout, players, a damaged option and the words that name it)
    "tavern_masters": ("games/tavern_masters.tav", False, 3, {"offers_per_day": 9}, "it is in 0..3"),
    "tiefenthal": ("games/taverns_of_tiefenthal.tav", False, 2, {"guest_book": 1}, "it is true or false"),
    "fast_layout": ("games/little_tavern.tav", True, 2, {"event_cost": 26}, "it is in 0..25"),
}
_GAMES: dict = {}


def _layout_game(name):
    path, fast, _, _, _ = LAYOUTS[name]
    if name not in _GAMES:
        _GAMES[name] = compile_file(path, fast=fast)
    return _GAMES[name]


def _layout_save(name, decisions=12):
    path, _, players, _, _ = LAYOUTS[name]
    g = _layout_game(name)
    m = Match(g, players, 3)
    rng = random.Random(3)
    for _ in range(decisions):
        m.apply(rng.randrange(len(m.pending.options)))
    return m, json.loads(json.dumps(m.save(path, g.model.sources.all_text())))


def _strings(x):
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for k, v in x.items():
            yield k
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_a_save_of_each_game_and_layout_resumes_the_same_state_and_names_no_card(name):
    m, data = _layout_save(name)
    g = _layout_game(name)
    assert data.get("layout") == ("fast" if LAYOUTS[name][1] else None)
    assert not set(_strings(data)) & set(g.card_name), "a save names a card"
    again = Match.load(g, data, rules_text=g.model.sources.all_text())
    assert again.choices == m.choices and again.st.snapshot() == m.st.snapshot()
    play_bots(again)
    assert again.over


def _damages(name):
    opt, says = LAYOUTS[name][3:]
    players = LAYOUTS[name][2]
    return [
        ({"format": "tavernlang-save/0"}, "not a tavernlang save file"),
        ({"players": 99}, "'players' must be a whole number from"),
        ({"players": float(players)}, "'players' must be a whole number"),
        ({"seed": 1.5}, "'seed' must be a whole number"),
        ({"choices": [0, "1"]}, "'choices' must be a list of option numbers"),
        ({"choices": None}, "'choices' must be a list of option numbers"),
        ({"options": opt}, says),
        ({"options": {"no_such_option": 1}}, "names 'no_such_option', which is not an option"),
        ({"rules_sha256": 7}, "'rules_sha256' must be a sha256 in hex"),
        ({"rules_sha256": "0" * 64}, "the rules file has changed"),
        ({"state_sha256": "ABC"}, "'state_sha256' must be a sha256 in hex"),
        ({"state_sha256": "0" * 64}, "the saved state differs from the replayed one"),
        ({"state_sha256": None}, "'state_sha256' is missing"),
        ({"layout": "slow"}, "'layout' must be \"fast\" or left out"),
        ({"layout": None if LAYOUTS[name][1] else "fast"}, "it replays only in that layout"),
        ({"choices": [10 ** 6]}, "the save does not replay with these rules"),
    ]


@pytest.mark.parametrize("name, fields, says", [(n, f, s) for n in LAYOUTS for f, s in _damages(n)],
                         ids=[f"{n}-{i}" for n in LAYOUTS for i in range(len(_damages(n)))])
def test_each_damaged_field_of_each_game_and_layouts_save_is_named(name, fields, says):
    _, data = _layout_save(name, decisions=4)
    g = _layout_game(name)
    data = {k: v for k, v in {**data, **fields}.items() if v is not None or k == "choices"}
    with pytest.raises(GameError) as e:
        Match.load(g, data, rules_text=g.model.sources.all_text())
    assert says in str(e.value)


def _hot_seat_save(tmp_path):
    """A hot-seat save of `tav play` (people at seats 1 and 2 of a three-player game, a greedy
    bot at seat 3)."""
    p = tmp_path / "hot.json"
    r = CliRunner().invoke(main, ["play", GAME, "-p", "3", "--seat", "1", "--seat", "2", "--seed", "4",
                                  "--bots", "random,random,greedy", "--save-to", str(p)],
                           input="1\n\n1\n\n1\ns\nq\n")
    assert r.exit_code == 0 and p.exists(), r.output
    data = json.loads(p.read_text())
    assert data["seats"] == [1, 2] and data["bots"] == "random,random,greedy" and "2" in data["search_rng"]
    return data


def test_a_hot_seat_save_resumes_with_its_people_and_bots(tmp_path):
    data = _hot_seat_save(tmp_path)
    p = tmp_path / "again.json"
    p.write_text(json.dumps(data))
    r = CliRunner().invoke(main, ["play", GAME, "-p", "3", "--load", str(p)], input="q\n")
    assert r.exit_code == 0 and f"resumed Cavern Tavern after {len(data['choices'])} decisions" in r.output, r.output


@pytest.mark.parametrize(("fields", "message"), [
    ({"seats": [1, 9]}, "'seats' must be seats from 1 to 3"),
    ({"seats": "1,2"}, "'seats' must be seats from 1 to 3"),
    ({"seat": 4}, "'seat' must be a seat from 1 to 3"),
    ({"bots": 5}, "'bots' must be a --bots text"),
    ({"bots": "wizard,random,random"}, "'bots': unknown bot 'wizard'"),
    ({"search_rng": [1]}, "'search_rng' is not the state of each search bot's random generator"),
    ({"search_rng": {"2": "x"}}, "'search_rng' is not the state of each search bot's random generator"),
    ({"search_rng": {"seat": [3, [1], None]}}, "'search_rng' is not the state of each search bot's random generator"),
])
def test_play_load_names_a_damaged_field_of_a_hot_seat_save(tmp_path, fields, message):
    p = tmp_path / "bad.json"
    p.write_text(json.dumps({**_hot_seat_save(tmp_path), **fields}))
    r = CliRunner().invoke(main, ["play", GAME, "-p", "3", "--load", str(p)], input="q\n")
    assert r.exit_code == 1 and message in r.output and "internal error" not in r.output, r.output


def test_a_save_that_holds_the_whole_state_still_loads_and_is_compared_with_it(game):
    """Saves once held the state itself: such a save loads, checked against its state."""
    m = Match(game, 2, 7)
    for _ in range(5):
        m.apply(0)
    data = {k: v for k, v in _save(game).items() if k != "state_sha256"}
    data["state"] = json.loads(json.dumps(m.st.snapshot()))
    assert Match.load(game, data).choices == m.choices
    data["state"]["round"] += 1
    with pytest.raises(GameError, match="the saved state differs from the replayed one"):
        Match.load(game, data)
