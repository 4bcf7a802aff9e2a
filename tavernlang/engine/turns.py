"""What the generated turn code runs on: phases and actions as objects, the log lines of a
turn, and the interpreter of a phase of simultaneous turns (`turns from X simultaneous`).

Below engine/compile.py (which generates the code calling these): nothing here imports it.
`TURN_HELPERS` is what the generated code may call of this module.
"""
from __future__ import annotations

from typing import Callable

from ..errors import GameError
from .budget import spend
from .common import DONE as _DONE, Decision, only_option


class _Simul:
    """What a phase of simultaneous turns is made of (its rules, compiled): _simultaneous_turns runs it."""
    __slots__ = ("ph", "frame", "cond", "start", "until", "acts", "at_once", "can_pass", "pass_cond", "required",
                 "one_at_a_time", "heads")

    def __init__(self, ph, frame, cond, start, until, acts, at_once, can_pass, pass_cond, required, one_at_a_time, heads):
        self.ph, self.frame, self.cond, self.start, self.until, self.acts = ph, frame, cond, start, until, acts
        self.at_once, self.can_pass, self.pass_cond, self.required = at_once, can_pass, pass_cond, required
        self.one_at_a_time, self.heads = one_at_a_time, heads


class _Head:
    """A choice at the head of an action of a simultaneous phase: made with the pick, before any
    pick of the step is shown (docs/language.md, "Sealed choices"). `kind` is "choose", "one"
    (`choose { option ... }`), "number", "subset" or "n" (`choose [up to] N`); `opts(st, env)`
    lists its options (for "n": what it picks from, `count(st, env)` times at most); the pick is
    bound at `slot` for the options of the choice after it, `then` (for "one": one per option,
    by its index; None: the head ends there). `prompt` is a text or a function (st, env) -> text;
    `label` the options' labeler (for "n": a function (st, p) -> labeler); `cards`: its picks are
    cards (held while the picks resolve, bots.remap_held)."""
    __slots__ = ("node", "kind", "opts", "prompt", "label", "slot", "cards", "count", "up_to", "then")

    def __init__(self, node, kind, opts, prompt, label, slot, cards=False, count=None, up_to=False, then=None):
        self.node, self.kind, self.opts, self.prompt, self.label, self.slot = node, kind, opts, prompt, label, slot
        self.cards, self.count, self.up_to, self.then = cards, count, up_to, then


def _next_head(h, v):
    """The head choice after h's pick v (None: the head ends)."""
    return h.then[v[1]] if h.kind == "one" else h.then


def _ask_head(st, p, h, aenv, made, pick=None):
    """Player p's choices at the head of an action, one after another, each pick bound in aenv
    for the options of the next; each made appended to `made` as [node, pick, cards]. It asks as
    a turn asks (the only option taken, else the agent, else a yield); with `pick` (options ->
    index), draws instead (a search bot's redraw of a pick not shown). A choice without options
    ends the head, as it skips its body."""
    _held_cards: list = []  # the card choices made, what a `choose N` of cards picks from and picked (bots.remap_held)
    while h is not None:
        opts = h.opts(st, aenv)
        prompt = h.prompt if type(h.prompt) is str else h.prompt(st, aenv, p)  # (holes as p may read them)
        span = h.node.span
        if h.kind == "n":
            picked: list = []
            n, left, lab = h.count(st, aenv), list(opts), h.label(st, p)
            if h.cards:
                _held_cards += [left, picked]
            while len(picked) < n and left:
                o = left + [_DONE] if h.up_to else left
                if not h.up_to and len(left) <= n - len(picked):
                    x = left[0]
                else:
                    i = pick(o) if pick is not None else \
                        0 if len(o) == 1 and only_option(st, p, o, prompt, lab, span) else \
                        st.agent(p, o) if st.agent is not None else (yield Decision(p, o, prompt, lab, span, st))
                    x = o[i]
                    if x is _DONE:
                        break
                picked.append(x)
                left.remove(x)
            v = picked
        else:
            if not opts:
                return
            i = pick(opts) if pick is not None else \
                0 if len(opts) == 1 and only_option(st, p, opts, prompt, h.label, span) else \
                st.agent(p, opts) if st.agent is not None else (yield Decision(p, opts, prompt, h.label, span, st))
            v = opts[i]
        made.append([h.node, v, h.cards])
        if h.cards:
            _held_cards.append(made[-1])
        if h.slot is not None:
            aenv[h.slot] = v
        h = _next_head(h, v)


def _draw_head(st, p, h, aenv, rng) -> list:
    """The head choices drawn at random (with `rng`) -> what was made (see _ask_head)."""
    made: list = []
    g = _ask_head(st, p, h, aenv, made, lambda opts: int(rng.random() * len(opts)))
    for _ in g:  # (drawing never asks)
        raise AssertionError("a drawn head choice asked")
    return made


def _head_holds(st, h, aenv, made) -> bool:
    """Are the head choices made at the pick still possible as the pick resolves: each among its
    options now (`choose N`: as many as it takes, of what it picks from), and the choice after
    the last one made still without options?"""
    for node, v, _ in made:
        if h is None or h.node is not node:
            return False
        opts = h.opts(st, aenv)
        if h.kind == "n":
            n, left = h.count(st, aenv), list(opts)
            for x in v:
                if x not in left:
                    return False
                left.remove(x)
            if len(v) > n or not h.up_to and len(v) < min(n, len(opts)):
                return False
        elif v not in opts:
            return False
        if h.slot is not None:
            aenv[h.slot] = v
        h = _next_head(h, v)
    return h is None or h.kind == "n" or not h.opts(st, aenv)


_SIMUL_PROMPT = "at the same time: choose an action"


def _simultaneous_turns(st, sp, _at=None):
    """`turns from FIRST simultaneous [if C]`: in each step every player still in the phase
    picks an action (with the choices at its head, _Head) unseen by the others; the picks then
    resolve in seat order from FIRST, each re-checking its requirements and its choices. Passing
    leaves the phase; it ends when nobody is left. With C false, it is played one player at a time.

    Run by the flow with `_at` = (phase, rounds limit, where to resume or None) (the interactive
    flavour), it hands `st.on_phase` where each step starts (who is still in, what each took,
    the steps so far), and resumes at such a step; played one player at a time, the turns'
    own (cur, taken, idle, steps)."""
    ph, frame, cond, start, until, acts = sp.ph, sp.frame, sp.cond, sp.start, sp.until, sp.acts
    at_once, can_pass, pass_cond, required = sp.at_once, sp.can_pass, sp.pass_cond, sp.required
    one_at_a_time, heads = sp.one_at_a_time, sp.heads
    span = ph.span
    prompt, action_label = _SIMUL_PROMPT, _action_label
    if st.fired is not None:
        st.fired[("phase", ph)] = st.fired.get(("phase", ph), 0) + 1
    env = [st.current] + [None] * frame
    resume = _at[2] if _at is not None else None
    if resume is not None and len(resume) == 4 or resume is None and cond is not None and not cond(st, env):
        _r = one_at_a_time(st, _at) if _at is not None else one_at_a_time(st)
        if _r is not None:
            yield from _r
        return
    n = st.n
    log = st.log
    if resume is None:
        first = start(st, env)
        if first is None:
            raise GameError("the first player of the phase is none", ph.start.span)
        inside = [(first + i) % n for i in range(n)]
        used: dict[int, set] = {p: set() for p in inside}  # what each player took in this phase (`once`, `taken`)
        steps = 0
    else:
        inside, used, steps = list(resume[0]), {p: set(t) for p, t in resume[1].items()}, resume[2]
    mark = st.on_phase if _at is not None else None
    picks: list[tuple] = []  # (player, action or None/False, its head choices made with the pick: _ask_head)
    offered: list = []  # what each pick was chosen among (None: nothing)
    _secret_picks: Callable | None  # (see bots.remap_held)

    def redraw(rng):
        """The picks made so far in this step drawn again at random among what each player
        was offered: a search bot's world (bots.remap_held), the others' picks unseen."""
        cur, tu = st.current, st.turn_used
        for j, (p, a, made) in enumerate(picks):
            if a is False:
                continue
            legal = offered[j]
            a, made = legal[int(rng.random() * len(legal))], None
            hd = heads.get(a.name) if a is not None else None
            if hd is not None:
                st.current, st.turn_used = p, used[p]
                made = _draw_head(st, p, hd, [p] + [None] * a.frame, rng)
            picks[j] = (p, a, made)
        st.current, st.turn_used = cur, tu
    while inside:
        if st.out:  # a player out of the game leaves the phase
            inside = [p for p in inside if p not in st.out]
            if not inside:
                return
        if mark is not None:
            mark((_at[0], _at[1], (tuple(inside), {p: frozenset(t) for p, t in used.items()}, steps)))
        if until is not None:
            env[0] = st.current = inside[0]
            if until(st, env):
                return
        steps += 1
        spend(st, 1, span)
        if steps > MAX_STEPS:
            raise GameError(f"the phase did not end after {MAX_STEPS} steps", span)
        picks.clear()
        offered.clear()
        _secret_picks = redraw  # noqa: F841
        for p in inside:
            env[0] = st.current = p
            taken = used[p]
            st.turn_used = taken
            legal = []
            for a in acts:
                if a.once and a.name in taken:
                    continue
                if a.req is None or a.req(st, [p] + [None] * a.frame):
                    legal.append(a)
            if not legal:
                picks.append((p, False, None))  # nothing left to do: out of the phase
                offered.append(None)
                continue
            if can_pass and (pass_cond is None or pass_cond(st, env)) and \
                    not any(a.name not in taken for a in required if a in legal):
                legal.append(None)
            if legal == [None]:
                picks.append((p, False, None))
                offered.append(None)
                continue
            i = 0 if len(legal) == 1 and only_option(st, p, legal, prompt, action_label, span) else st.agent(p, legal) if st.agent is not None else \
                (yield Decision(p, legal, prompt, action_label, span))
            a = legal[i]
            offered.append(legal)
            if a is None:
                picks.append((p, None, None))
                continue
            made: list | None = None
            hd = heads.get(a.name)
            if hd is not None:  # the choices at the head of the action are made now, with the pick
                made = []
                yield from _ask_head(st, p, hd, [p] + [None] * a.frame, made)
            picks.append((p, a, made))
        st.turn_used = _NOTHING
        _secret_picks = None  # noqa: F841  (shown from here on)
        # the head choices that are cards, held while the picks resolve (bots.remap_held)
        _held_cards = [e for _, a, made in picks if made is not None for e in made if e[2]]  # noqa: F841
        # the picks are shown and resolved in order from FIRST
        for p, a, made in picks:
            env[0] = st.current = p
            if p in st.out:  # put out of the game by an earlier pick of this step: theirs is void
                continue
            if a is None or a is False:
                inside.remove(p)
                if log is not None:
                    log.append((f"P{p + 1} passes" if a is None else f"P{p + 1} is done", None,
                                {"type": "pass", "player": p}))
                continue
            aenv = [p] + [None] * a.frame
            st.turn_used = used[p]  # `taken(...)` in the requirements: what p took in this phase
            ok = a.req is None or a.req(st, aenv)
            if ok and made is not None:
                ok = _head_holds(st, heads[a.name], aenv, made)
            st.turn_used = _NOTHING
            if not ok:
                if log is not None:
                    log.append((f"P{p + 1}: {a.title} is no longer possible", None,
                                {"type": "refused", "player": p, "action": a.name}))
                continue
            if log is not None:
                log.append((f"P{p + 1}: {a.title}", None, {"type": "action", "player": p, "action": a.name}))
            if st.fired is not None:
                st.fired[a.name] = st.fired.get(a.name, 0) + 1
            used[p].add(a.name)
            st.turn_used = used[p]
            if made is not None:
                st.preset = {e[0]: e[1] for e in made}
            _r = a.body(st, aenv)
            if _r is not None:
                yield from _r
            st.preset = None
            st.turn_used = _NOTHING
            if at_once and until(st, env):
                return


class _Phase:
    __slots__ = ("name", "title", "run", "run_for", "resumes")

    def __init__(self, name, title, run, run_for=None, resumes=False):
        self.name, self.title, self.run = name, title, run
        self.run_for = run_for or (lambda st, p: run(st))  # `do PHASE as p`
        # run by the flow as run(st, (phase, rounds limit, turn or None)): it hands st.on_phase where
        # each turn starts, and resumes at a turn given (a phase of turns, the interactive flavour)
        self.resumes = resumes


_NOTHING: frozenset = frozenset()
MAX_STEPS = 100_000  # actions in one phase: a phase that does not end is an error, not a hang


class _Action:
    __slots__ = ("name", "title", "req", "body", "frame", "once", "required", "alone", "first")

    def __init__(self, name, title, req, body, frame, first=None):
        self.name, self.title, self.req, self.body, self.frame = name, title, req, body, frame
        self.first = first  # its first choice, handed the options the legality check worked out
        self.once = False
        self.required = False
        self.alone = frozenset((name,))  # the turn's actions when it is the only one


def _action_label(a):
    return "pass" if a is None else a.title


def _log_action(log, p, a):
    log.append((f"P{p + 1}: {a.title}", None, {"type": "action", "player": p, "action": a.name}))


def _log_pass(log, p):
    log.append((f"P{p + 1} passes", None, {"type": "pass", "player": p}))


def _log_nothing(log, p):
    log.append((f"P{p + 1} can do nothing", None, {"type": "skip", "player": p}))


TURN_HELPERS = {"_simultaneous_turns": _simultaneous_turns, "_log_action": _log_action, "_log_pass": _log_pass, "_log_nothing": _log_nothing, "_NOTHING": _NOTHING}
