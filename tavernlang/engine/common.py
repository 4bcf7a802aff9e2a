"""What the engine's parts share: the Decision a choice hands out, limits, and how a fault
in the rules is placed in them (`located`)."""
from __future__ import annotations

from typing import Any, Callable

from ..errors import GameError, Span

from .state import State

Fn = Callable[[State, list], Any]
MAX_SUBSETS = 4096
MAX_DECISIONS = 200_000  # a random playout that asks more has not ended (runner.playout)


class _TooLong(Exception):
    """A random playout asked more than MAX_DECISIONS decisions."""


def _too_long():
    raise _TooLong
# Python faults that rules can cause at run time (a none where a value was needed, endless
# recursion...): reported as located GameErrors (runner.located), never as tracebacks
RULE_FAULTS = (TypeError, IndexError, KeyError, AttributeError, ValueError, ZeroDivisionError, RecursionError)


DONE = ("done",)  # `choose up to N`: the option of taking no more (`_DONE` in generated code)


class Decision:
    """A pending choice: who decides, among which options."""

    __slots__ = ("player", "options", "prompt", "labeler", "span", "st")

    def __init__(self, player, options, prompt, labeler, span=None, st=None):
        self.player = player
        self.options = options
        self.prompt = prompt
        self.labeler = labeler  # a function, or the options' type name (labelled by the game)
        self.span = span
        self.st = st

    def cards(self) -> list:
        """The card each option is (None for an option that is not one card), for showing its text."""
        if self.labeler == "card":
            return list(self.options)
        if getattr(self.labeler, "cards", False):  # one card at a time (choose N), and perhaps "done"
            return [o if type(o) is int else None for o in self.options]
        return [None] * len(self.options)

    def labels(self) -> list[str]:
        lab = self.labeler
        if lab is None or isinstance(lab, str):
            st = self.st
            p, g = self.player, st.game
            if lab == "card":  # the chooser sees only what they may see
                return [g.card_label(o, st, p) if st.visible(o, p) else "face-down card" for o in self.options]
            if lab == "list:card":
                return ["{" + ", ".join(g.card_label(c, st, p) if st.visible(c, p) else "face-down card" for c in o) + "}"
                        for o in self.options]
            return [st.game.label(o, st, lab, p) for o in self.options]
        return [lab(o) for o in self.options]


def _const(v):
    return lambda st, env: v


def only_option(st, player, options, prompt, labeler, span=None) -> bool:
    """A decision with one option is not asked: the engine takes it. A scenario still records
    it as offered (so `offered(...)` and `saw(...)` see it) and its transcript says so; it is
    counted in st.forced. Always True."""
    st.forced.append(0)
    if st.offered is not None:
        labels = Decision(player, options, prompt, labeler, span, st).labels()
        st.offered.setdefault(prompt, []).append(list(labels))
        if st.views is not None:
            st.views.setdefault(prompt, []).append((player, st.view()))
        if st.log is not None:
            st.log.append((f"P{player + 1} has one option '{prompt}': {labels[0]}", None,
                           {"type": "forced", "player": player, "prompt": prompt, "options": labels}))
    return True


# What a search bot reads of running rules (bots.remap_held): walking the suspended frames of
# generated code at a decision, it re-deals the cards they hold, found by these local names,
# which the generator gives them (statements.py; turns.py's _simultaneous_turns, whose locals bear the same names).
ENV = "env"  # the local slots of a running body (typed by the checker)
HELD_PREFIX = "_hc"  # a temporary holding the cards a loop or a choice goes through
HELD_CARDS = "_held_cards"  # a list of lists of cards held (_simultaneous_turns)
SECRET_PICKS = "_secret_picks"  # the redraw of the picks others made and not shown yet (a simultaneous choice)


# The spans of generated code live with the game that generated it: in the namespace of its
# generated module (a frame's f_globals), under this name, as file name -> the span of the rules
# statement each line was written for (line 2 of the file is index 0: line 1 is the def).
SPANS = "__tav_spans__"


def frame_span(frame, lineno: int | None = None) -> tuple[bool, Span | None]:
    """(is the frame generated code, the rules span of its line `lineno`, by default the line
    it is at: None when that line was written for no statement)."""
    spans = frame_spans(frame)
    if spans is None:
        return False, None
    i = (frame.f_lineno if lineno is None else lineno) - 2  # (line 1 is the def)
    return True, spans[i] if 0 <= i < len(spans) else None


def frame_spans(frame) -> list | None:
    """The spans of every line of a frame's generated function (None: not generated code)."""
    table = frame.f_globals.get(SPANS)
    return table.get(frame.f_code.co_filename) if table is not None else None


def located(exc: BaseException) -> GameError:
    """A Python error raised while running rules, as a GameError at the nearest rules text.

    A line of generated code maps to the statement it was written for (its module's SPANS);
    a run-time helper that runs rules for a statement (_simultaneous_turns) keeps its span in a
    local named `span`; the innermost frame that has either tells where in the rules the error arose."""
    tb = exc.__traceback__
    where = None
    seen: dict = {}  # span -> the frames that were at it (a recursion: the call made again and again)
    while tb is not None:
        generated, sp = frame_span(tb.tb_frame, tb.tb_lineno)
        if not generated:
            sp = tb.tb_frame.f_locals.get("span")
        if isinstance(sp, Span):
            where = sp
            seen[sp] = seen.get(sp, 0) + 1
        tb = tb.tb_next
    if isinstance(exc, RecursionError):
        return deep_calls(seen, where)
    if "NoneType" in str(exc) or "None" in str(exc):
        return GameError("a value here is none: no player, card or zone was given where one is needed", where)
    return GameError(f"the rules did something impossible here ({type(exc).__name__}: {exc})", where)


def deep_calls(seen: dict, where) -> GameError:
    """Python's recursion limit reached while running rules: the place seen in most frames is
    the call that was made again and again, and how often, the depth. This is not the step
    budget (engine/budget.py): a recursion that would end, only deeper than Python follows, is
    stopped here too, and the message says so."""
    if seen:
        site, depth = max(seen.items(), key=lambda kv: kv[1])
        if depth > 1:
            about = round(depth, 2 - len(str(depth)))  # (the same figure whatever frames were below the game)
            return GameError(
                f"calls nested about {about} deep here: tav follows nested calls of definitions and effects about "
                f"that deep (a limit of depth, not the budget of steps), so a recursion that goes deeper stops "
                f"here, whether it would end or not; write a deep one as a loop ('repeat while', or "
                f"'for i in range(1, N)')", site)
    return GameError("calls nested too deeply here: definitions and effects call each other deeper than tav can "
                     "follow (the depth of nested calls, not the budget of steps)", where)
