"""One way down: syntax <- check <- engine <- tools (lint, cli, play, ...), and no import cycles
between the package's modules (imports inside functions count too)."""
from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parent.parent / "tavernlang"
LAYER = {"syntax": 0, "errors": 0, "check": 1, "loader": 1, "engine": 2}  # anything else: a tool (3)


def _module(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports() -> dict[str, set[str]]:
    mods = {_module(p): p for p in PKG.rglob("*.py")}
    out: dict[str, set[str]] = {m: set() for m in mods}
    for m, p in mods.items():
        pkg = m if p.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(p.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = pkg.split(".")
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target + "." + a.name for a in node.names]
                hit = [n for n in names if n in mods] or ([target] if target in mods else [])
                out[m] |= set(hit)
            elif isinstance(node, ast.Import):
                out[m] |= {a.name for a in node.names if a.name in mods}
    return out


def _layer(m: str) -> int:
    part = m.split(".")[1] if "." in m else ""
    return LAYER.get(part, 3)


def test_no_import_cycles():
    graph = _imports()
    state: dict[str, int] = {}

    def visit(m, path):
        state[m] = 1
        for n in graph[m]:
            if n == m or n == m.rsplit(".", 1)[0]:
                continue  # a module and its own package's __init__
            if state.get(n) == 1:
                raise AssertionError("import cycle: " + " -> ".join(path + [n]))
            if n not in state:
                visit(n, path + [n])
        state[m] = 2
    for m in graph:
        if m not in state:
            visit(m, [m])


def test_each_layer_imports_only_layers_below():
    bad = [(m, n) for m, ns in _imports().items() for n in ns
           if _layer(n) > _layer(m) and n != "tavernlang"]
    assert bad == [], bad
