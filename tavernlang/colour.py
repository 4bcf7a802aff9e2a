"""Colour at the terminal: with rich installed (the `color` extra), a terminal shows the log, the
options, the view and the explanations in colour; output that is piped, `NO_COLOR` set (to
anything but nothing), `TERM=dumb`, or no rich: plain text, the same words (https://no-color.org).
Colour only marks what the words say already (a heading, a gain, a loss, an option's number)."""
from __future__ import annotations

import os
import sys

STYLES = {
    "heading": "bold yellow",  # -- round 2: End of the Round --, game over
    "gain": "green",
    "loss": "red",
    "prompt": "bold",  # P1, your turn: choose an action:
    "number": "bold cyan",  # an option's number
    "text": "dim",  # a card's text after its name
    "warn": "yellow",  # not offered: ..., nothing to undo
    "owner": "bold",  # Yours:, P2's:, Shared:
    "why": "cyan",  # an explanation's terms
}


def wanted(stream=None) -> bool:
    """Colour for this stream: a terminal, NO_COLOR unset (or empty), TERM not dumb, rich installed."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    stream = stream if stream is not None else sys.stdout
    try:
        if not stream.isatty():
            return False
    except (AttributeError, ValueError, OSError):
        return False
    try:
        import rich.style  # noqa: F401  (the optional extra)
    except ImportError:
        return False
    return True


class Paint:
    """paint(text, kind) -> the text in the kind's colour (or as it is, when colour is off)."""

    def __init__(self, on: bool | None = None):
        self.on = wanted() if on is None else on
        self._styles: dict = {}

    def __call__(self, text: str, kind: str) -> str:
        if not self.on or not text:
            return text
        st = self._styles.get(kind)
        if st is None:
            from rich.color import ColorSystem
            from rich.style import Style
            st = self._styles[kind] = (Style.parse(STYLES[kind]), ColorSystem.STANDARD)
        return st[0].render(text, color_system=st[1])

    def log(self, line: str) -> str:
        """A log line by what it says: a heading, a gain, a loss; anything else plain."""
        if not self.on:
            return line
        s = line.lstrip()
        if s.startswith("-- ") or s.startswith("game over"):
            return self(line, "heading")
        if " gains " in s:
            return self(line, "gain")
        if " loses " in s:
            return self(line, "loss")
        return line

    def option(self, line: str) -> str:
        """`  3. Knight (P2's hand) — its text`: the number marked, the text dimmed."""
        if not self.on:
            return line
        head, sep, text = line.partition(" — ")
        num, dot, rest = head.partition(". ")
        pad = num[:len(num) - len(num.lstrip())]
        return pad + self(num.lstrip(), "number") + dot + rest + (sep + self(text, "text") if sep else "")

    def view(self, line: str) -> str:
        if not self.on:
            return line
        if line.startswith("-- "):
            return self(line, "heading")
        if line.startswith("  ") and not line.startswith("   ") and line.endswith(":"):
            return self(line, "owner")
        return line
