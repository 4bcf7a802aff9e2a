"""Budgets of a game's work and memory: a rules file from a stranger may loop, recurse or grow
its values without end, and each of these stops with an error at the rules that spent it.

- **Steps.** Generated code counts its work in `st.steps`: one step per item a loop of an
  expression goes over (counted when the loop starts: `count(x in L ...)` costs len(L)), per
  round of a `for` or `repeat while` statement, per call of an effect or of a def that can
  call itself, per action taken in a turn, per subset tried. A game may spend `LIMITS["steps"]`
  steps in all; the check is one comparison with `st.step_limit`, and every CHECK_EVERY steps
  the slow path (`over`) also checks the log's length.
- **Values.** A whole number is at most MAX_INT in size (a product of two values worked out at
  run time, a value stored by `set`, `gain`, a def that can call itself); a list at most
  MAX_LIST items (`range`, `L + M`).

- **Time.** A game may run `LIMITS["seconds"]` seconds of the engine's own time (not the
  time a person or a search bot takes to decide), looked at on the slow path of the steps.
- **Memory.** The process may use `LIMITS["memory"]` MB of address space (`limit_memory`, on
  systems with `resource`): a MemoryError is then an error at the rules that asked for it.

`tav --max-steps N` (or TAV_MAX_STEPS), `tav --max-log N` (TAV_MAX_LOG), `tav --max-seconds S`
(TAV_MAX_SECONDS) and `tav --max-memory MB` (TAV_MAX_MEMORY; 0: no limit) change the budgets of
a command; docs/security.md says what each bound is.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable

from ..check.model import DefRef, EffectRef, KindDefRef
from ..errors import GameError

DEFAULT_STEPS = 5_000_000  # 25 times the most a seed game spent in 30 seeded games of each size (docs/security.md)
DEFAULT_LOG = 100_000  # log lines of one game (a seed game writes at most ~4,200)
DEFAULT_SECONDS = 600  # the engine's time for one game (a seed game takes well under a second)
DEFAULT_MEMORY = 8192  # MB of address space for a tav process (a run of the seed games uses under 400; numerical
# libraries reserve address space per thread, hence the margin)
CHECK_EVERY = 1_000  # steps between two looks at the log's length
MAX_INT = 2 ** 63 - 1  # whole numbers: -MAX_INT..MAX_INT
MAX_LIST = 1_000_000  # items of one list made at run time


def _env_int(name: str, default: int, zero: bool = False) -> int:
    try:
        v = int(os.environ.get(name, default))
    except ValueError:
        return default
    return v if v > 0 or (zero and v == 0) else default


LIMITS = {"steps": _env_int("TAV_MAX_STEPS", DEFAULT_STEPS), "log": _env_int("TAV_MAX_LOG", DEFAULT_LOG),
          "seconds": _env_int("TAV_MAX_SECONDS", DEFAULT_SECONDS),
          "memory": _env_int("TAV_MAX_MEMORY", DEFAULT_MEMORY, zero=True)}
_ENV = {"steps": "TAV_MAX_STEPS", "log": "TAV_MAX_LOG", "seconds": "TAV_MAX_SECONDS", "memory": "TAV_MAX_MEMORY"}


def set_limits(steps: int | None = None, log: int | None = None, seconds: int | None = None,
               memory: int | None = None) -> None:
    """Change the budgets for the games started from now on (in this process and in the
    processes it starts: the environment carries them)."""
    for k, v in (("steps", steps), ("log", log), ("seconds", seconds), ("memory", memory)):
        if v is not None:
            LIMITS[k] = v
            os.environ[_ENV[k]] = str(v)


def deadline() -> float:
    """When a game started now runs out of its time."""
    return time.monotonic() + LIMITS["seconds"]


def limit_memory() -> int | None:
    """Hold this process (and those it starts) to LIMITS["memory"] MB of address space: the
    soft limit only, never raised past one already set. The limit in MB, or None (none set:
    0, or no `resource` module)."""
    mb = LIMITS["memory"]
    if not mb:
        return None
    try:
        import resource
    except ImportError:  # (not on Windows)
        return None
    want = mb * 1024 * 1024
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        want = min(want, hard)
    if soft == resource.RLIM_INFINITY or soft > want:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (want, hard))
        except (ValueError, OSError):
            return None
    return mb


def out_of_memory(span) -> GameError:
    """A MemoryError while running rules, at the rules that asked for the memory."""
    mb = LIMITS["memory"]
    return GameError("the game ran out of memory here" + (f" (a tav process may use {mb} MB: tav --max-memory MB)"
                                                          if mb else ""), span)


def first_limit() -> int:
    return min(LIMITS["steps"], CHECK_EVERY)


def over(st, span) -> None:
    """The slow path of a step count that passed `st.step_limit`: over the budget (an error),
    or a checkpoint (the log's length), then the next limit."""
    most = LIMITS["steps"]
    if st.steps > most:
        raise GameError(f"the game ran out of its budget of {most} steps of work here: a loop or a "
                        f"recursion that does not end? (a larger budget: tav --max-steps N)", span)
    if time.monotonic() > st.deadline:
        raise GameError(f"the game ran out of its time here: {LIMITS['seconds']} s of work (a longer time: "
                        f"tav --max-seconds S)", span)
    log = st.log
    if log is not None and len(log) > LIMITS["log"]:
        raise GameError(f"the game's log grew past {LIMITS['log']} lines here (a larger budget: tav --max-log N)", span)
    st.step_limit = min(most, st.steps + CHECK_EVERY)


def spend(st, n, span) -> None:
    """n steps at once (a helper's own work: subsets tried, items joined)."""
    st.steps += n
    if st.steps > st.step_limit:
        over(st, span)


def too_big(v, span) -> GameError:
    return GameError(f"a whole number out of range here: {_digits(v)} (numbers are at most {MAX_INT} "
                     f"either way)", span)


def _digits(v: int) -> str:
    if abs(v) < 10 ** 40:
        return str(v)
    return f"{'-' if v < 0 else ''}a number of about {int(abs(v).bit_length() * 0.30103) + 1} digits"


def mul(a, b, span) -> Any:
    """a * b of two values worked out at run time, within the range of whole numbers."""
    r = a * b
    if -MAX_INT <= r <= MAX_INT:
        return r
    if type(r) is not int:  # (none, a list: the usual fault)
        return r
    raise too_big(r, span)


def num(v, span) -> Any:
    """A value about to be stored, when it is a whole number: within range."""
    if type(v) is int and not -MAX_INT <= v <= MAX_INT:
        raise too_big(v, span)
    return v


def numbers(st, a, b, span) -> list:
    """range(a, b): the numbers a..b, at most MAX_LIST of them."""
    if b - a + 1 > MAX_LIST:
        raise GameError(f"range({a}, {b}) has {b - a + 1} numbers: a list holds at most {MAX_LIST}", span)
    if b < a:
        return []
    spend(st, b - a + 1, span)
    return list(range(a, b + 1))


def over_list(st, items, span) -> None:
    """The slow path of a list made by L + M: at most MAX_LIST items, then the step budget."""
    if len(items) > MAX_LIST:
        raise GameError(f"joining lists into one of {len(items)} items: a list holds at most {MAX_LIST}", span)
    over(st, span)


def counted(fn, span, returns_int: bool = False) -> Callable[..., Any]:
    """A def or effect whose calls are counted (see self_calling): each call is a step (a
    def counts its own in its generated code), and a def's whole number is in range."""
    if returns_int:
        def call(st, env):
            r = fn(st, env)
            if type(r) is int and not -MAX_INT <= r <= MAX_INT:
                raise too_big(r, span)
            return r
    else:
        def call(st, env):
            st.steps += 1
            if st.steps > st.step_limit:
                over(st, span)
            return fn(st, env)
    return call


FAN_OUT = 16  # calls one call of a def or effect may lead to before its calls are counted


def _body_key(ref) -> tuple[str, str] | None:
    """The key of the body a name or call resolved to ref runs: a def's, a kind's def's (read
    on a card) or an effect's; None for anything else."""
    match ref:
        case DefRef(name=n):
            return ("def", n)
        case KindDefRef(name=n):
            return ("kdef", n)
        case EffectRef(name=n) if not ref.is_action:
            return ("effect", n)
    return None


def self_calling(model) -> set:
    """The defs, kinds' defs and effects whose calls are counted as steps: those that can call
    themselves (directly or round a cycle), and those one call of which makes more than FAN_OUT
    calls in all (a chain of defs each calling the next twice). The calls of the others are
    bounded by the size of the rules, so they cost nothing. An effect given as a value
    (`do c.effect`) may be any effect so given."""
    from ..syntax import ast as A
    bodies = {("def", n): d.decl.body for n, d in model.defs.items()}
    bodies.update({("kdef", n): d.decl.body for n, d in model.kind_defs.items()})
    bodies.update({("effect", n): e.decl.body for n, e in model.effects.items()})
    refs = model.refs
    direct = set()  # the effect names right after a `do`
    for decl in model.decls:
        for node in A.walk(decl):
            if isinstance(node, A.Do):
                direct.add(id(node.effect))
    as_values: set = set()  # effects named as values somewhere else (a card's effect attribute...)
    for node, ref in refs.items():
        if isinstance(ref, EffectRef) and not ref.is_action and id(node) not in direct:
            as_values.add(("effect", ref.name))
    edges: dict = {}
    for key, body in bodies.items():
        out = edges[key] = []
        for node in A.walk(body):
            callee = _body_key(refs.get(node))
            if callee is not None and callee in bodies:
                out.append(callee)
            if isinstance(node, A.Do):
                r = refs.get(node.effect)
                if not (isinstance(r, EffectRef) and not r.is_action):  # an effect held in a value: any of those
                    out += sorted(as_values)
    found = set()
    for start in bodies:
        seen, stack = set(), list(edges[start])
        while stack:
            k = stack.pop()
            if k == start:
                found.add(start)
                break
            if k not in seen:
                seen.add(k)
                stack.extend(edges.get(k, ()))
    calls: dict = {}

    def fan(k):  # the calls one call of k makes in all (the others have no cycle)
        if k in found:
            return FAN_OUT + 1
        if k not in calls:
            calls[k] = 0
            total = 1
            for c in edges[k]:
                total += fan(c)
                if total > FAN_OUT:
                    break
            calls[k] = total
        return calls[k]
    for k in bodies:
        if fan(k) > FAN_OUT:
            found.add(k)
    return found
