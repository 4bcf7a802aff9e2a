"""The code writer of the generator: one stream of generated Python lines.

Jinja2's ``CodeGenerator`` is the model (``writeline``, ``indent``/``outdent``, ``newline(node)``
recording the template line): a ``Writer`` holds the lines written so far, each at the current
indent and with the rules span it was written for (a fault on that line is reported there,
``common.located``). Nothing indents by hand: a block is ``with w.block("if x:"): ...``.

The generator uses it in two ways, one shape each:

- a statement, a block, a phase's flow writes into the ``Writer`` of the function being
  generated (``StatementCompiler.l_NODE(s, w)``), nested statements into the same stream;
- an expression gives ``(lines, value)``: the lines to run first (a list of strings, often
  empty) and a Python expression for the value. Where those lines need blocks, they are
  written with a ``Writer`` too (``w.code`` is that list), and a statement writes them into
  its stream with ``w.lines(...)``.

The writer also owns the snippets the generated code repeats: a step of the game's budget
(``step``), a count of what fired for lint's coverage (``count_fired``), the log and the
coverage written only in the interactive flavour (``logged``, ``counted``).
"""
from __future__ import annotations

from contextlib import contextmanager, nullcontext
from typing import ContextManager, Iterable, Iterator

INDENT = "    "
_HERE = object()  # (a line's span: the writer's current one)


class Writer:
    """Generated lines, indented by level, each with its rules span (or None)."""

    __slots__ = ("code", "spans", "span", "playout", "_level", "_mute")

    def __init__(self, span=None, playout: bool = False):
        self.code: list[str] = []  # the lines, indented
        self.spans: list = []  # the rules span of each line (None: none)
        self.span = span  # the span of the lines written now (see `at`)
        self.playout = playout  # the playout flavour: no log, no coverage counts (`logged`, `counted`)
        self._level = 0
        self._mute = 0

    def __len__(self) -> int:
        return len(self.code)

    # ---------------------------------------------------------------- writing
    def line(self, text: str, span=_HERE) -> None:
        """One line at the current indent, at `span` (by default the writer's current span)."""
        if self._mute:
            return
        self.code.append(INDENT * self._level + text)
        self.spans.append(self.span if span is _HERE else span)

    def lines(self, texts: Iterable[str], span=_HERE) -> None:
        """Lines already made (an expression's lines to run first), each at the current indent."""
        for text in texts:
            self.line(text, span)

    def write(self, other: Writer) -> None:
        """Another writer's lines at the current indent, each keeping its own span."""
        if self._mute:
            return
        pre = INDENT * self._level
        self.code += [pre + ln for ln in other.code]
        self.spans += other.spans

    def indent(self) -> _Indented:
        """`with w.indent():` what is written inside is one level in."""
        return _Indented(self)

    def block(self, header: str, span=_HERE) -> ContextManager[None]:
        """`with w.block("if x:"):` the header line, then what is written inside, one level in."""
        self.line(header, span)
        return self.indent()

    def maybe(self, header: str | None) -> ContextManager[None]:
        """`block(header)`; with no header, what is written inside stays at this level."""
        return self.block(header) if header is not None else nullcontext()

    def at(self, span) -> _At:
        """`with w.at(span):` the lines written inside are at `span` (a rules statement's)."""
        return _At(self, span)

    @contextmanager
    def muted(self, mute: bool = True) -> Iterator[None]:
        """Nothing written inside is kept (when `mute`)."""
        self._mute += mute
        try:
            yield
        finally:
            self._mute -= mute

    # ---------------------------------------------------------------- the repeated snippets
    def step(self, span: str | None, amount: str = "1", over: str | None = None) -> None:
        """`amount` steps of the game's budget (engine/budget.py), and the check of it: past the
        limit, `over` (by default `_over(st, span)`) ends the game with an error at `span`."""
        self.line(f"st.steps += {amount}")
        with self.block("if st.steps > st.step_limit:"):
            self.line(over if over is not None else f"_over(st, {span})")

    def count_fired(self, key: str) -> None:
        """One more firing of `key` in lint's coverage count (the caller tests st.fired)."""
        self.line(f"st.fired[{key}] = st.fired.get({key}, 0) + 1")

    def fired(self, key: str) -> None:
        """One more firing of `key`, when the run counts (st.fired; never in the playout flavour)."""
        with self.counted():
            self.count_fired(key)

    @contextmanager
    def logged(self, cond: str = "st.log is not None") -> Iterator[None]:
        """What is written inside writes the log, behind its test; nothing in the playout flavour."""
        with self.muted(self.playout):
            with self.block(f"if {cond}:"):
                yield

    @contextmanager
    def counted(self) -> Iterator[None]:
        """What is written inside counts what fired (lint's coverage); nothing in the playout
        flavour, whose games count nothing (a run that counts uses the interactive flavour)."""
        with self.muted(self.playout):
            with self.block("if st.fired is not None:"):
                yield


class _Indented:
    """The context of `Writer.indent` (a class: generation enters one for every block)."""

    __slots__ = ("w",)

    def __init__(self, w: Writer):
        self.w = w

    def __enter__(self) -> None:
        self.w._level += 1

    def __exit__(self, *exc) -> None:
        self.w._level -= 1


class _At:
    """The context of `Writer.at`."""

    __slots__ = ("w", "span", "saved")

    def __init__(self, w: Writer, span):
        self.w, self.span, self.saved = w, span, None

    def __enter__(self) -> None:
        self.saved, self.w.span = self.w.span, self.span

    def __exit__(self, *exc) -> None:
        self.w.span = self.saved


def fragment(lines: Iterable[str] = (), span=None) -> Writer:
    """A writer for an expression's lines, starting with `lines` (at `span`)."""
    w = Writer(span)
    w.lines(lines)
    return w
