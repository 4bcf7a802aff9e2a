"""The pipeline: read a file and its includes, parse, check -> GameModel.

Every failure on the way (a missing file, bad bytes, a syntax error, a checker
error, runaway recursion) ends as a TavError of located diagnostics.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

from .check.checker import check
from .check.variants import apply_changes, retarget
from .check.model import GameModel
from .errors import Diagnostic, SourceCache, Span, TavError
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


MAX_RULES_FILE = 4 * 1024 * 1024  # bytes: no rules file is near this; a larger one is refused
ROOT_MARKERS = (".tavroot", ".git")  # a folder holding one of these is a project root


def project_root(entry: Path) -> Path:
    """The folder tree a rules file may include from: the nearest folder at or above the entry
    file's that holds a `.tavroot` file (or a `.git`), else the entry file's own folder."""
    here = entry.resolve().parent
    for folder in (here, *here.parents):
        if any((folder / m).exists() for m in ROOT_MARKERS):
            return folder
    return here


def _refused(p: Path, root: Path, entry: bool = False) -> str | None:
    """Why a path may not be read as rules (None: it may). Only regular files, of at most
    MAX_RULES_FILE bytes; an included or extended file must also be a `.tav` file inside the
    project root or the installed stdlib/, reached through no link that leads out."""
    try:
        real = p.resolve()
        st = os.stat(real)  # (stat never blocks, as opening a FIFO would)
    except (OSError, RuntimeError, ValueError) as e:
        return getattr(e, "strerror", None) or "no such file"
    import stat as _stat
    if not _stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > MAX_RULES_FILE:
        return f"the file is larger than {MAX_RULES_FILE // (1024 * 1024)} MB"
    if entry:
        return None
    if real.suffix != ".tav":
        return "only rules files (.tav) may be included"
    inside = [root.resolve(), stdlib_dir().resolve()]
    if not any(real == r or r in real.parents for r in inside):
        return f"it is outside the game's folder tree ({_display(root)}) and the standard library"
    return None


def read_decls(path: str | Path, sources: SourceCache, _depth: int = 0, root: Path | None = None,
               overlay: dict[Path, str] | None = None, parsed: dict | None = None) -> list[A.Decl]:
    """The file's declarations with its includes spliced in, in order.

    A file that starts with `extends "BASE"` is a variant: its declarations are the
    base game's, changed by the variant's own (see check/variants.py). The changes
    are left on the returned list's `changes` attribute. Includes and bases stay inside
    the entry file's project root (project_root) or the standard library. `overlay` maps resolved
    paths to texts read instead of the file's (an editor's unsaved buffers, for `tav lsp`); a file
    of it is held to the same rules, except that the entry file need not be on disk. `parsed` is a
    cache of syntax trees by (file name, bytes) that a long-lived caller keeps from one load to the
    next (the trees are immutable), so that only the files that changed are parsed again."""
    decls: list[A.Decl] = []
    errors: list[Diagnostic] = []
    stack: list[Path] = []
    done: set[Path] = set()
    if root is None:
        root = project_root(Path(path))

    def visit(p: Path, site: A.Include | None, chain: list[A.Include]) -> None:
        text = overlay.get(p.resolve()) if overlay else None
        why = None if text is not None and site is None else _refused(p, root, entry=site is None)
        if why is None and text is not None and len(text) > MAX_RULES_FILE:
            why = f"the file is larger than {MAX_RULES_FILE // (1024 * 1024)} MB"
        if why is not None:  # never read: nothing of it is shown
            if site is None:
                errors.append(Diagnostic(Span(_display(p), 1, 1), f"cannot read the file: {why}"))
            else:
                errors.append(Diagnostic(site.span, f"cannot include '{site.path[:200]}': {why}"))
            return
        p = p.resolve()
        name = _display(p)
        if p in stack:
            cycle = " -> ".join(_display(x) for x in stack[stack.index(p):] + [p])
            errors.append(Diagnostic(site.span, f"include cycle: {cycle}"))
            return
        if p in done:
            return
        try:
            data = p.read_bytes() if text is None else text.encode("utf-8")
        except OSError as e:
            if site is None:
                errors.append(Diagnostic(Span(name, 1, 1), f"cannot read the file: {e.strerror or e}"))
            else:
                errors.append(Diagnostic(site.span, f"cannot include '{site.path}': {e.strerror or e}"))
            return
        try:
            shown = data.decode("utf-8", errors="replace")
            sources.add(name, shown[1:] if shown.startswith("\ufeff") else shown)  # (as parse reads it)
            f = parsed.get((name, data)) if parsed is not None else None
            if f is None:
                f = parse(data, name, keep=text is None)  # (an editor's unsaved text is not kept)
                if parsed is not None:
                    parsed[(name, data)] = f
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
    ext = [d for d in decls if isinstance(d, A.Extends)]
    if not ext:
        return _Decls(decls)
    first = ext[0]
    own_file = first.span.file
    if decls[0] is not first or len(ext) > 1:
        bad = ext[1] if decls[0] is first else first
        raise TavError([Diagnostic(bad.span, "'extends' must be the first declaration of a file, and only once")], sources)
    if _depth > 20:
        raise TavError([Diagnostic(first.span, "variants extend each other too deeply (a cycle?)")], sources)
    base_path = resolve_include(Path(path).resolve().parent, first.path)
    why = _refused(base_path, root)
    if why is not None:
        raise TavError([Diagnostic(first.span, f"cannot extend '{first.path[:200]}': {why}")], sources)
    if base_path.resolve() == Path(path).resolve():
        raise TavError([Diagnostic(first.span, "a game cannot extend itself")], sources)
    base = read_decls(base_path, sources, _depth + 1, root, overlay, parsed)
    merged, changes, errs = apply_changes(list(base), decls[1:], own_file)
    if errs:
        raise TavError(errs, sources)
    out = _Decls(merged)
    out.changes = list(getattr(base, "changes", [])) + changes
    out.extends = first
    out.base_path = base_path
    out.variant_file = own_file
    return out


class _Decls(list):
    """A list of declarations, with what a variant changed (if it is one)."""

    changes: list = []
    extends = None
    base_path = None
    variant_file = None


def resolve_include(base: Path, inc: str) -> Path:
    if inc.startswith("stdlib/"):
        return stdlib_dir() / inc[len("stdlib/"):]
    return base / inc


DEEP_RULES = 6000
"""The recursion limit that rules nested as deep as the parser allows (MAX_DEPTH), and calls of
definitions nested some thousand deep, need."""


def allow_deep_rules() -> None:
    """Raise Python's recursion limit to DEEP_RULES (never lower it). Called once where a program
    starts with rules: the `tav` command and `tavernlang.compile_file`. `load` itself leaves the
    limit alone: under Python's default a file still loads, and a recursion of definitions
    deeper than Python follows stops with a located error ("calls nested about N deep")."""
    if sys.getrecursionlimit() < DEEP_RULES:
        sys.setrecursionlimit(DEEP_RULES)


def load(path: str | Path, overlay: dict[Path, str] | None = None, parsed: dict | None = None) -> GameModel:
    """Parse and check a rules file; raise TavError listing every error. `overlay`: texts to read
    instead of files; `parsed`: a cache of syntax trees to use and fill (see read_decls)."""
    sources = SourceCache()
    decls = read_decls(path, sources, overlay=overlay, parsed=parsed)
    if not decls:  # (it would pass, and then have no game to run)
        raise TavError([Diagnostic(Span(_display(Path(path)), 1, 1), "this file is empty: it declares nothing "
                                   "(a game starts with 'game \"NAME\"')")], sources)
    model = GameModel(path=str(path), sources=sources)
    model.changes = list(decls.changes)
    model.decls = list(decls)
    model.base_path = str(decls.base_path) if decls.base_path else None
    try:
        errors = check(decls, model)
    except RecursionError:
        errors = [Diagnostic(Span(_display(Path(path)), 1, 1), "the rules are nested too deeply to check")]
    if errors and decls.extends is not None:
        load(decls.base_path, overlay, parsed)  # the base's own errors are reported as they are
        def text_at(span):
            line = sources.line(span.file, span.line) or ""
            end = span.end_col if span.end_line == span.line and span.end_col > span.col else len(line) + 1
            return line[span.col - 1:end - 1]
        errors = retarget(errors, decls.changes, decls.variant_file, decls.extends.span, text_at)
    if errors:
        errors.sort(key=lambda d: (d.span.file, d.span.line, d.span.col))
        raise TavError(errors, sources)
    return model
