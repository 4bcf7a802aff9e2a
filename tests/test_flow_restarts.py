"""Where a game can be resumed from (the interactive flavour): the flow hands `st.on_phase` a
token at the start of each phase, of each turn of a phase of turns and of each step of a phase
of simultaneous turns; `game.flow(copy, token)` plays on from a copy of the state taken there
exactly as the game went on. A search's worlds start there (bots.py)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.bots import Root, Searcher, _Stop
from tavernlang.engine.runner import Match

ROOT = Path(__file__).resolve().parent.parent
GAMES = [  # (a phase of turns; rounds N and phases of steps; simultaneous turns, and one at a time)
    ("games/little_tavern.tav", 3), ("examples/dice_tavern.tav", 4), ("games/tavern_masters.tav", 4),
    ("examples/tavern_masters/one_at_a_time.tav", 3), ("games/cavern_tavern.tav", 2)]


def _marked_game(game, players: int, seed: int):
    """A random game of the interactive flavour, with every restart point: (its choices, the
    restarts (copy, token, choices before it), the final state's snapshot and result)."""
    st = game.new_state(players, seed)
    choices: list[int] = []
    marks = []
    st.on_phase = lambda at: marks.append((st.copy(), at, len(choices)))
    rng = random.Random(seed)
    gen = game.flow(st)
    try:
        d = next(gen)
        while True:
            choices.append(int(rng.random() * len(d.options)))
            d = gen.send(choices[-1])
    except StopIteration:
        pass
    return choices, marks, st.snapshot(), game.result(st)


@pytest.mark.parametrize("path,players", GAMES)
def test_a_game_resumed_from_a_copy_at_a_restart_point_ends_as_the_game_did(path, players):
    game = compile_file(ROOT / path)
    choices, marks, end, result = _marked_game(game, players, 5)
    assert any(at[2] is not None for _, at, _ in marks)  # (points inside phases: turns or steps)
    for copy, at, before in marks[:: max(1, len(marks) // 12)] + marks[-1:]:
        st = copy.copy()
        rest = iter(choices[before:])
        st.agent = lambda p, opts: next(rest)
        for _ in game.flow(st, at):
            raise AssertionError("a decision escaped the agent")
        assert next(rest, None) is None
        assert st.snapshot() == end and game.result(st) == result


def test_the_playout_flavour_does_not_resume():
    game = compile_file(ROOT / "games" / "little_tavern.tav")
    with pytest.raises(ValueError):
        game.playouts().flow(game.new_state(2, 1), (0, None, None))


@pytest.mark.parametrize("path,players", GAMES[:4])
def test_a_search_samples_the_same_world_from_a_restart_as_from_the_seed(path, players):
    """The worlds of a search (determinized, the game's RNG drawn again) are the same whether
    they replay the game from its seed or from the copy at the latest restart point: the games
    search bots play do not depend on where their worlds start."""
    game = compile_file(ROOT / path)
    m = Match(game, players, 2, log=False)
    rng = random.Random(2)
    worlds = 0
    while not m.over and worlds < 60:
        d = m.pending
        at_restart = Root.of(m)
        from_seed = Root(game, players, 2, {}, m.choices, d.player, len(d.options), d.labeler)
        if at_restart.restart is not None:
            got = []

            def decide(st, p, opts, at_root, rnd):
                snap = st.snapshot()
                del snap["decisions"]  # (the decisions a Match counted: a replay from the seed counts none)
                got.append((snap, list(opts), [rnd() for _ in range(3)]))
                raise _Stop
            for root in (from_seed, at_restart):
                Searcher("mcts", 1, random.Random(0))._world(root, random.Random(worlds), decide)
            assert got[0] == got[1]
            worlds += 1
        m.apply(int(rng.random() * len(d.options)))
    assert worlds > 10
