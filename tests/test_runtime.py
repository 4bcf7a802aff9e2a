"""What generated code may call (engine/runtime.py): every name a generated function reads
that it does not bind itself is in its module's namespace, which is runtime.exported, the turn
helpers compile.py adds, the game (`_g`), the constants and the other generated functions; and
no name is exported that the generator never writes."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tavernlang import compile_file
from tavernlang.engine import runtime
from tavernlang.engine.compile import CompiledGame
from tavernlang.loader import load

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.tav"))
GENERATOR = [ROOT / "tavernlang" / "engine" / f for f in ("expressions.py", "statements.py", "compile.py", "writer.py")]


def _free_names(src: str) -> set[str]:
    """The names a generated module's functions read and do not bind themselves."""
    free: set[str] = set()
    for fn in ast.parse(src).body:
        if isinstance(fn, ast.FunctionDef):
            bound = {a.arg for a in fn.args.args} | {n.id for n in ast.walk(fn) if isinstance(n, ast.Name)
                                                     and isinstance(n.ctx, ast.Store)}
            bound |= {n.name for n in ast.walk(fn) if isinstance(n, ast.FunctionDef)}
            bound |= {a.arg for n in ast.walk(fn) if isinstance(n, ast.FunctionDef) for a in n.args.args}
            free |= {n.id for n in ast.walk(fn) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} - bound
    return free


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
@pytest.mark.parametrize("playout", [False, True])
def test_every_name_generated_code_reads_is_in_its_namespace(path, playout):
    g = CompiledGame(load(path), playout=playout)
    ns = g.namespace
    for src in g.gen_source:
        missing = {n for n in _free_names(src) if n not in ns and n not in ns["__builtins__"]}
        assert not missing, (missing, src)
    own = {n for n in ns if re.fullmatch(r"_k\d+|_e\d+|_dp\d+", n)}
    assert set(ns) - own - {"__builtins__"} == set(runtime.exported) | {"_g", runtime.SPANS}


def test_the_generator_writes_every_name_it_exports():
    text = "\n".join(p.read_text() for p in GENERATOR)
    unused = [n for n in runtime.exported if not re.search(r"\b%s\b" % re.escape(n), text)]
    assert unused == []


def test_a_compiled_game_reads_the_runtime_of_its_own():
    a, b = compile_file(GAMES[0]), compile_file(GAMES[0])
    na, nb = a.namespace, b.namespace
    assert na is not nb and na["__builtins__"] is not nb["__builtins__"] and na["_g"] is a
