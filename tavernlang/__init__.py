"""tavernlang: a declarative rules language for board games.

Public API::

    game = tavernlang.compile_file("games/my_game.tav")       # parse, check, compile
    match = tavernlang.Match(game, players=3, seed=1)            # one game in progress
    match.legal(); match.apply(0); match.view(0); match.save(...)

The names are imported when first used, so a command that only checks rules (`tav check`)
never loads the engine.
"""
from __future__ import annotations

import importlib

__all__ = ["CompiledGame", "Diagnostic", "GameError", "Match", "TavError", "compile_file", "load", "playout"]
__version__ = "0.1.0"

_WHERE = {"CompiledGame": ".engine.compile", "Match": ".engine.runner", "playout": ".engine.runner",
          "Diagnostic": ".errors", "GameError": ".errors", "TavError": ".errors", "load": ".loader"}


def __getattr__(name: str):
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'tavernlang' has no attribute {name!r}")


def compile_file(path, fast: bool = False):
    """Parse, check and compile a rules file (raises TavError with every error found).
    `fast`: a choice of layout (engine/layout.py), the fast one (`game.layout` keeps the zones
    whose order no rule reads in card order), as `tav sim` plays unless --exact: the same games
    in distribution, other games for a seed. By default the exact layout. Raises Python's
    recursion limit for deep rules (loader.allow_deep_rules), as the `tav` command does."""
    from .engine.compile import CompiledGame
    from .engine.layout import Layout, analyse
    from .loader import allow_deep_rules, load
    allow_deep_rules()
    model = load(path)
    return CompiledGame(model, layout=analyse(model) if fast else Layout())
