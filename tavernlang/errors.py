"""Source positions and diagnostics: every user-facing failure is a place.

A :class:`Diagnostic` renders as ``FILE:LINE:COL: error: message``, then the
source line and a caret under the column, then any notes (each a place too).
Errors in rules files are data (:class:`TavError` carries a list of them); they
never surface as Python tracebacks.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

import attrs


@attrs.frozen(repr=False)
class Span:
    """A place in a source file: 1-based line and column, plus the end."""

    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __repr__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"

    __str__ = __repr__


NOWHERE = Span("<builtin>", 1, 1)


@attrs.frozen
class Note:
    span: Span
    message: str


@attrs.frozen
class Diagnostic:
    span: Span
    message: str
    severity: str = "error"
    notes: tuple[Note, ...] = ()
    code: str = ""

    def render(self, sources: "SourceCache | None" = None) -> str:
        head = f"{self.span}: {self.severity}: {self.message}"
        out = [head]
        out.extend(_excerpt(self.span, sources))
        for note in self.notes:
            out.append(f"{note.span}: note: {note.message}")
            out.extend(_excerpt(note.span, sources))
        return "\n".join(out)


class SourceCache:
    """Source texts by file name, for rendering excerpts."""

    def __init__(self) -> None:
        self._texts: dict[str, str] = {}

    def add(self, file: str, text: str) -> None:
        self._texts[file] = text

    def update(self, other: SourceCache) -> None:
        """Add every file of `other` (its text replaces one of the same name here)."""
        self._texts.update(other._texts)

    def files(self) -> list[str]:
        """The names of the files held, in the order they were added."""
        return list(self._texts)

    def items(self) -> list[tuple[str, str]]:
        """(file name, text) of each file held, in the order they were added."""
        return list(self._texts.items())

    def text(self, file: str) -> str | None:
        """The text of a file, or None when it is not held."""
        return self._texts.get(file)

    def tav_comments(self, pattern: re.Pattern, files: Iterable[str]) -> Iterator[tuple[str, int, str, re.Match]]:
        """The lines of `files` where `pattern` (a `# tav: ...` comment) is found: (file, line
        number, the line, the match), in file and line order. Files not held are skipped."""
        for f in files:
            text = self._texts.get(f)
            if text is None:
                continue
            for i, line in enumerate(text.split("\n"), 1):  # as the parser counts lines
                if "tav:" not in line:
                    continue
                mt = pattern.search(line)
                if mt is not None:
                    yield f, i, line, mt

    def all_text(self) -> bytes:
        """Every source, in a fixed order: what a save's rules hash covers (includes too). By
        content only, never by path, so that a save loads from any folder."""
        return b"".join(t.encode() + b"\0" for t in sorted(self._texts.values()))

    def line(self, file: str, line: int) -> str | None:
        text = self._texts.get(file)
        if text is None:
            return None
        lines = text.split("\n")  # as the parser counts lines
        if 1 <= line <= len(lines):
            return lines[line - 1]
        return None


def _excerpt(span: Span, sources: SourceCache | None) -> list[str]:
    if sources is None:
        return []
    src = sources.line(span.file, span.line)
    if src is None:
        return []
    src = src.replace("\t", " ").rstrip("\r")
    src = "".join(ch if ch.isprintable() else " " for ch in src)
    width = 1
    if span.end_line == span.line and span.end_col > span.col:
        width = span.end_col - span.col
    caret = " " * (max(span.col, 1) - 1) + "^" + "~" * (width - 1)
    return ["    " + src, "    " + caret]


class TavError(Exception):
    """One or more diagnostics in user input (exit code 1)."""

    def __init__(self, diagnostics: list[Diagnostic], sources: SourceCache | None = None):
        super().__init__(diagnostics[0].message if diagnostics else "error")
        self.diagnostics = diagnostics
        self.sources = sources

    def render(self) -> str:
        return "\n".join(d.render(self.sources) for d in self.diagnostics)


class GameError(Exception):
    """A rules file did something impossible while running (exit code 1)."""

    def __init__(self, message: str, span: Span | None = None):
        super().__init__(message)
        self.span = span or NOWHERE

    def __reduce__(self):  # keeps the place when a worker process sends it back (tav sim --jobs)
        return (type(self), (str(self), self.span))

    def diagnostic(self) -> Diagnostic:
        return Diagnostic(self.span, str(self))


def did_you_mean(name: str, candidates) -> str:
    import difflib

    close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""
