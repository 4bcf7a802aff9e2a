"""How the engine's modules lean on each other: the compiler (engine/compile.py) sits above what
the generated code and the compiled game run on, and nothing else reaches into the compiler."""
from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "tavernlang" / "engine"


def _imported_modules(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            out.add("." * node.level + (node.module or ""))
        elif isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
    return out


def test_the_modules_below_the_compiler_import_nothing_from_it():
    for name in ("turns", "present", "initial", "ranking", "program", "layout", "state"):
        mods = _imported_modules(ENGINE / f"{name}.py")
        assert not any(m in (".compile", "tavernlang.engine.compile") for m in mods), name


def test_no_module_but_the_compilers_own_reads_the_games_compiler():
    """Tools evaluate the rules' expressions through the game (function_of, evaluate)."""
    root = ENGINE.parent.parent
    readers = []
    for path in sorted((root / "tavernlang").rglob("*.py")) + sorted((root / "tests").rglob("*.py")):
        if path == ENGINE / "compile.py":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "_compiler":
                readers.append(f"{path.relative_to(root)}:{node.lineno}")
    assert readers == []
