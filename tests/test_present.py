"""How a compiled game names its zones to people (engine/present.py)."""
from __future__ import annotations

from pathlib import Path

from tavernlang import compile_file

GAMES = Path(__file__).resolve().parent.parent / "games"


def test_zone_name_numbers_the_zones_of_the_states_player_count():
    game = compile_file(GAMES / "little_tavern.tav")
    st = game.new_state(3, 1)
    names = [game.zone_name(z, st) for z in range(len(st.zones))]
    assert names == ["center", "table of P1", "table of P2", "table of P3", "box"]


def test_zone_name_names_each_zone_as_a_saved_state_does_at_every_player_count():
    game = compile_file(GAMES / "little_tavern.tav")
    for n in range(game.min_players, game.max_players + 1):
        st = game.new_state(n, 0)
        assert [game.zone_name(z, st) for z in range(len(st.zones))] == list(st.snapshot()["zones"])
