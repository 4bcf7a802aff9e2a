"""tavernlang: a declarative rules language for board games.

Public API::

    game = tavernlang.compile_file("games/my_game.tav")       # parse, check, compile
    match = tavernlang.Match(game, players=3, seed=1)            # one game in progress
    match.legal(); match.apply(0); match.view(0); match.save(...)
"""
from __future__ import annotations

from .engine.compile import CompiledGame
from .engine.runner import Match, playout
from .errors import Diagnostic, GameError, TavError
from .loader import load

__all__ = ["CompiledGame", "Diagnostic", "GameError", "Match", "TavError", "compile_file", "load", "playout"]
__version__ = "0.1.0"


def compile_file(path) -> CompiledGame:
    """Parse, check and compile a rules file (raises TavError with every error found)."""
    return CompiledGame(load(path))
