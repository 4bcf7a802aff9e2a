"""The pipeline: read a file and its includes, parse, check -> GameModel.

Every failure on the way (a missing file, bad bytes, a syntax error, a checker
error, runaway recursion) ends as a TavError of located diagnostics.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .check.checker import check
from .check.model import GameModel
from .errors import Diagnostic, Note, SourceCache, Span, TavError
from .syntax import ast as A
from .syntax.parser import parse


def stdlib_dir() -> Path:
    here = Path(__file__).resolve().parent
    packaged = here / "_stdlib"
    if packaged.is_dir():
        return packaged
    return here.parent / "stdlib"


def _display(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return rel if not rel.startswith("..") else str(path)


def read_decls(path: str | Path, sources: SourceCache) -> list[A.Decl]:
    """The file's declarations with its includes spliced in, in order."""
    decls: list[A.Decl] = []
    errors: list[Diagnostic] = []
    stack: list[Path] = []
    done: set[Path] = set()

    def visit(p: Path, site: A.Include | None, chain: list[A.Include]) -> None:
        p = p.resolve()
        name = _display(p)
        if p in stack:
            cycle = " -> ".join(_display(x) for x in stack[stack.index(p):] + [p])
            errors.append(Diagnostic(site.span, f"include cycle: {cycle}"))
            return
        if p in done:
            return
        try:
            data = p.read_bytes()
        except OSError as e:
            if site is None:
                errors.append(Diagnostic(Span(name, 1, 1), f"cannot read the file: {e.strerror or e}"))
            else:
                errors.append(Diagnostic(site.span, f"cannot include '{site.path}': {e.strerror or e}"))
            return
        try:
            sources.add(name, data.decode("utf-8", errors="replace"))
            f = parse(data, name)
        except TavError as e:
            errors.extend(e.diagnostics)
            return
        stack.append(p)
        for d in f.decls:
            if isinstance(d, A.Include):
                visit(resolve_include(p.parent, d.path), d, chain + [d])
            else:
                decls.append(d)
        stack.pop()
        done.add(p)

    try:
        visit(Path(path), None, [])
    except RecursionError:
        errors.append(Diagnostic(Span(_display(Path(path)), 1, 1), "the rules are nested too deeply to read"))
    if errors:
        raise TavError(errors, sources)
    return decls


def resolve_include(base: Path, inc: str) -> Path:
    if inc.startswith("stdlib/"):
        return stdlib_dir() / inc[len("stdlib/"):]
    return base / inc


def load(path: str | Path) -> GameModel:
    """Parse and check a rules file; raise TavError listing every error."""
    if sys.getrecursionlimit() < 6000:  # the syntax tree may be MAX_DEPTH deep
        sys.setrecursionlimit(6000)
    sources = SourceCache()
    decls = read_decls(path, sources)
    model = GameModel(path=str(path), sources=sources)
    try:
        errors = check(decls, model)
    except RecursionError:
        errors = [Diagnostic(Span(_display(Path(path)), 1, 1), "the rules are nested too deeply to check")]
    if errors:
        errors.sort(key=lambda d: (d.span.file, d.span.line, d.span.col))
        raise TavError(errors, sources)
    return model
