"""A save is checked field by field against the rules it belongs to (a save edited by hand too):
each damaged field is a clear error naming it, never an internal error; the rules are known by
their content, so a save loads from any folder."""
from __future__ import annotations

import json
import os

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
