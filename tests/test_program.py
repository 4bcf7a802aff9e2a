"""What a compiled game holds: the attributes `CompiledGame.__init__` declares, and the compiled
rules as one `Program` whose fields read as the game's own."""
from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

import attrs
import pytest

from tavernlang import compile_file, playout
from tavernlang.engine.compile import CompiledGame
from tavernlang.engine.program import Program

GAMES = Path(__file__).resolve().parent.parent / "games"


def _declared_in_init() -> set[str]:
    """The names `CompiledGame.__init__` assigns as `self.NAME = ...`."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(CompiledGame.__init__)))
    out = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        for t in targets:
            for x in ast.walk(t):
                if isinstance(x, ast.Attribute) and isinstance(x.value, ast.Name) and x.value.id == "self":
                    out.add(x.attr)
    return out


@pytest.mark.parametrize("name", ["little_tavern", "cavern_tavern"])
@pytest.mark.parametrize("fast", [False, True])
def test_a_compiled_game_has_only_the_attributes_its_init_declares(name, fast):
    game = compile_file(GAMES / f"{name}.tav", fast=fast)
    for g in (game, game.playouts()):
        assert set(vars(g)) <= _declared_in_init(), set(vars(g)) - _declared_in_init()


def test_playing_a_game_sets_no_attribute_on_it():
    game = compile_file(GAMES / "little_tavern.tav")
    before = set(vars(game))
    playout(game, 3, 1)
    assert set(vars(game)) == before


def test_every_field_of_the_program_reads_as_the_games_own():
    game = compile_file(GAMES / "little_tavern.tav")
    assert isinstance(game.program, Program)
    for f in attrs.fields(Program):
        if f.name == "flow":  # (the game's flow(st) runs it)
            continue
        assert getattr(game, f.name) is getattr(game.program, f.name), f.name
    assert game.phases and game.actions and game.program.flow is not None


def test_the_program_declares_every_field_the_compiler_sets():
    with pytest.raises(AttributeError):
        Program().not_a_field = 1  # (slots: a field the compiler sets must be declared)
