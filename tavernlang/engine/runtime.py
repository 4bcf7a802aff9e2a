"""What generated code may call: the run-time library of the code the engine generates.

The generator (engine/expressions.py, statements.py and the flow in compile.py) writes Python
source whose names are its own temporaries, the constants of the rules it put into the
namespace (``_kN``, never text of the rules), the game (``_g``), and the names listed by hand in
`exported` at the end of this module: plain functions over the state, the log's lines, the
engine's errors. jinja2's ``runtime.py`` (its ``exported``) is the model: a name the generated
code reads is here, or it is a NameError (tests/test_runtime.py checks every generated name).

The turn helpers (``_simultaneous_turns``, the turn's log lines) live in engine/turns.py, the
run-time half of phases played at the same time; they are listed here with the rest.
"""
from __future__ import annotations

import bisect
import functools
import heapq
import itertools
import math
from typing import Any, Generator, Iterable

from ..errors import GameError
from . import budget
from .budget import spend
from .common import DONE, SPANS, Decision, _too_long, only_option
from .state import GameOver
from .turns import TURN_HELPERS

MAX_TRIES = 1 << 16  # `choose subset`: the most subsets one choice may try (passing or not)
_UNSET = object()  # an entry of a table of card values not yet worked out (ExpressionCompiler._card_table)


# ---------------------------------------------------------------- expressions
# (called by the generated code for the rarer shapes; each is plain Python over the state)

def _index(items, i):
    return items[i - 1] if items is not None and 1 <= i <= len(items) else None


def _holder(st, c):
    if c is None or st.zholder is None or st.loc[c] < 0:
        return None
    h = st.zholder[st.loc[c]]
    return None if h < 0 else h


def _zone_of(st, c):
    z = st.loc[c]
    return None if z < 0 else z


def _owner_fixed(st, c):
    z = st.loc[c]
    return None if z < 0 else st.zowner[z]


def _owner(st, c):
    z = st.loc[c]
    return None if z < 0 else st.zone_owner(z)


def _zowner_fixed(st, z):
    return None if z is None else st.zowner[z]


def _zowner(st, z):
    return None if z is None else st.zone_owner(z)


def _allz(st, f):
    b = st.zbase[f]
    out = []
    for cards in st.zones[b:b + st.n]:
        out += cards
    return out


def _is(mask, c):
    return c is not None and mask[c]


def _div(x, y, span):
    if y == 0:
        raise GameError("division by zero", span)
    return x // y


def _mod(x, y, span):
    if y == 0:
        raise GameError("division by zero", span)
    return x % y


def _free(st, z):
    cap = st.cap[z]
    return 1_000_000 if cap is None else max(0, cap - len(st.zones[z]))


def _player(st, v, span):
    if not 1 <= v <= st.n:
        raise GameError(f"there is no player {v} in a {st.n}-player game", span)
    return v - 1


def _allowed(st, g, name, who):
    if name in g.actions:
        act = g.actions[name]
        req, frame = act.req, act.frame
    elif name not in g.effect_cells:
        return True  # a phase can always be run
    else:
        req, _, frame, _ = g.effect_cells[name][0]
    return req is None or bool(req(st, [who] + [None] * frame))


def _offered(st, prompt, nth):
    asked = (st.offered or {}).get(prompt, [])
    i = nth if nth is not None else len(asked)
    return list(asked[i - 1]) if 1 <= i <= len(asked) else []


def _asked_at(st, what, prompt, nth, span):
    """(the player asked, what every player could see) at the decision `prompt` the last time, or
    the N-th, it was asked; an error if it was not asked then (so that a test of it cannot hold
    for a decision that never came)."""
    views = (st.views or {}).get(prompt, [])
    i = nth if nth is not None else len(views)
    if not 1 <= i <= len(views):
        why = f"was asked {len(views)} time(s), so there is no time {nth}" if views else "was not asked at all"
        raise GameError(f"{what}(...): the decision '{prompt}' {why}", span)
    return views[i - 1]


def _saw(st, p, c, prompt, nth, span):
    """saw(PLAYER, CARD, PROMPT[, N]): could the player see which card it is when the decision
    was asked (the last time, or the N-th)?"""
    _, view = _asked_at(st, "saw", prompt, nth, span)
    if p is None or c is None:
        raise GameError("saw(...) of " + ("no player (none)" if p is None else "no card (none)"), span)
    return st.visible(c, p, view)


def _asked(st, prompt, nth, span):
    """asked(PROMPT[, N]): the player asked the decision (the last time, or the N-th)."""
    return _asked_at(st, "asked", prompt, nth, span)[0]


def _has_word_lit(cache, want, t):
    if t is None:
        return False
    hit = cache.get(t)
    if hit is None:
        hit = cache[t] = _has_words(_words(t), want)
    return hit


def _card_text(names, v):
    return "none" if v is None else names[v]


def _order_from(st, p):
    return [(p + i) % st.n for i in range(st.n)]


def _any_subset(items, a, b, test, span):
    """Some subset of items of a size in a..b passes test: smallest first, stopping at the first."""
    tried = 0
    for size in range(a, b + 1):
        for combo in itertools.combinations(items, size):
            tried += 1
            if tried > 1 << 16:
                raise GameError("more than 65536 subsets to try", span)
            if test(list(combo)):
                return True
    return False


def _subset_sum(items, a, b, want, col, test, span):
    """`any(subset S ... where sum(x.A for x in S) == V)` by subset sums, without trying subsets
    (but for none or negative values, which are tried as subsets: with test None, the answer is
    then None, for the caller to try them)."""
    if a > b:
        return False
    if want is None or want < 0:
        return None if test is None else _any_subset(items, a, b, test, span)
    if want > 1 << 16:  # sums as sets of the reachable totals (at most 65536 of them), not as bits
        ws = []
        for x in items:
            w = col[x] if x is not None else None
            w = 0 if w is None else w  # none adds nothing to a sum
            if w < 0:
                return None if test is None else _any_subset(items, a, b, test, span)
            if w <= want:  # (an item worth more than the total is in no subset that makes it)
                ws.append(w)
        b = min(b, len(ws))
        sums = [{0}] + [set() for _ in range(b)]
        held = 1
        for w in ws:
            for c in range(b - 1, -1, -1):
                new = {t + w for t in sums[c] if t + w <= want} - sums[c + 1]
                held += len(new)
                if held > 1 << 16:
                    raise GameError("more than 65536 totals to try for this subset", span)
                sums[c + 1] |= new
        return any(want in sums[c] for c in range(a, b + 1))
    # bits past the total are never needed (no value is negative): cut off when they could grow large
    mask = (2 << want) - 1 if len(items) * want > 1 << 20 else -1
    if a <= 1 and b >= len(items) and mask < 0:
        # any size from 1 up: the totals of all subsets at once (one set of bits, not one per
        # size); a total above 0 is never that of the empty subset, a total of 0 needs a 0 item
        # (or no item at all when size 0 is allowed)
        if want == 0:
            vals = [col[x] if x is not None else None for x in items]
            if any(v is not None and v < 0 for v in vals):
                return None if test is None else _any_subset(items, a, b, test, span)
            return a == 0 or any(v is None or v == 0 for v in vals)
        reach = 1
        for x in items:
            w = col[x] if x is not None else None
            if w is None:
                continue  # none adds nothing to a sum
            if w < 0:
                return None if test is None else _any_subset(items, a, b, test, span)
            if w <= want:
                reach |= reach << w
        return bool((reach >> want) & 1)
    reaches = [1] + [0] * b  # reaches[c]: bit s is set when some c items sum to s
    for x in items:
        w = col[x] if x is not None else None
        w = 0 if w is None else w  # none adds nothing to a sum
        if w < 0:
            return None if test is None else _any_subset(items, a, b, test, span)
        if w > want:
            continue
        for c in range(b - 1, -1, -1):
            r = reaches[c]
            if r:
                reaches[c + 1] |= r << w if mask < 0 else (r << w) & mask
    for c in range(a, b + 1):
        if (reaches[c] >> want) & 1:
            return True
    return False


@functools.lru_cache(maxsize=1 << 16)
def _has_word(text: str, word: str) -> bool:
    """has_word's answer, remembered: texts and words are the rules' own (names, attributes)."""
    return _has_words(_words(text), _words(word))


def _words(text: str) -> tuple:
    """The words of a text, lower case: letters and digits, split at anything else."""
    return tuple(w for w in "".join(ch.lower() if ch.isalnum() else " " for ch in text).split())


def _has_words(words: tuple, want: tuple) -> bool:
    k = len(want)
    if not k:
        return False
    return any(words[i:i + k] == want for i in range(len(words) - k + 1))



# ---------------------------------------------------------------- statements

def _first(hit):
    return hit[0]


def _laps(first, size, last, t, body, env, decl):
    """The firings of one trigger on a wrap-around track: each step of a move that lands on its space."""
    for i in range(first, last + 1, size):
        yield i, t, body, env, decl


def _log_move(st, g, c, old, z, face, me, knew: int = 0) -> None:
    src = g.zone_text(old, st) if old >= 0 else "(out of play)"
    to = g.zone_text(z, st)
    if old < 0 or st.zhidden[z]:
        knew = 0  # out of play, or into a hidden pile (a card shuffled away): only who sees it now
    mask = st.vis_mask(c) | knew | ((1 << me) if face == "facedown" and me is not None else 0)
    alt_src, alt_to = src, to
    if st.zholder is not None:  # a zone on a card some may not see names no card to them
        zm = g.zone_mask(z, st) & (g.zone_mask(old, st) if old >= 0 else -1)
        if zm != (1 << st.n) - 1:
            mask &= zm
            alt_src = g.zone_text(old, st, -1) if old >= 0 and st.zholder[old] >= 0 else src
            alt_to = g.zone_text(z, st, -1) if st.zholder[z] >= 0 else to
    name = g.card_name[c]
    if st.round == 0 and st.log and st.offered is None:
        # the setup of a game (a scenario's transcript keeps a line per move): one line for the
        # cards moved one after another the same way
        text, hidden, data = st.log[-1]
        if data.get("type") == "move" and data["from"] == src and data["to"] == to and hidden is not None \
                and hidden[0] == mask and hidden[1].endswith(f": {alt_src} -> {alt_to}"):
            names = data.get("cards") or [data["card"]]
            names.append(name)
            st.log.pop()  # (the joined line appended anew: a log that watches what it is given sees it)
            st.log.append((f"{_names(names)}: {src} -> {to}", (mask, f"{len(names)} cards: {alt_src} -> {alt_to}"),
                           {**data, "card": _names(names), "cards": names}))
            return
    st.log.append((f"{name}: {src} -> {to}", (mask, f"a card: {alt_src} -> {alt_to}"),
                   {"type": "move", "card": name, "from": src, "to": to}))


def _names(names: list) -> str:
    """Card names in one line: each once, in order, with how many when several ("red die ×3")."""
    counts: dict = {}
    for n in names:
        counts[n] = counts.get(n, 0) + 1
    return ", ".join(n if k == 1 else f"{n} ×{k}" for n, k in counts.items())


def _do_action(st, g, name, me):
    """`do ACTION [as p]` (or an action held in a value): run it if its requires hold for me."""
    act = g.actions[name]
    env2 = [me] + [None] * act.frame
    if act.req is not None and not act.req(st, env2):
        if st.log is not None:
            st.log.append((f"P{me + 1} may not {act.title}", None, {"type": "refused", "player": me, "action": name}))
        return
    if st.log is not None:
        st.log.append((f"P{me + 1}: {act.title}", None, {"type": "action", "player": me, "action": name}))
    if st.fired is not None:
        st.fired[name] = st.fired.get(name, 0) + 1
    _r = act.body(st, env2)
    if _r is not None:
        yield from _r


def _do_phase(st, g, pname, p, as_p, span):
    """`do PHASE [as p]`: the phase, under its heading (`as p`: a phase for each player, for p only)."""
    ph = next(x for x in g.phases if x.name == pname)
    if as_p:
        if p is None:
            raise GameError("the phase is run for nobody (the player after 'as' is none)", span)
        if st.log is not None:
            st.log.append((f"-- phase: {ph.title}, for P{p + 1} --", None, {"type": "phase", "phase": pname}))
        _r = ph.run_for(st, p)
        if _r is not None:
            yield from _r
        return
    yield from run_headed(st, ph, f"-- phase: {ph.title} --", {"type": "phase", "phase": pname})


def _do_named(st, g, name, me, span):
    """`do X` of a value naming an action, a phase or an effect (an effect the table of
    l_Do_value did not hold): run it as `do NAME` would."""
    if name in g.actions:  # an action held in an attribute: run it as `do ACTION` does
        yield from _do_action(st, g, name, me)
        return
    ph = next((x for x in g.phases if x.name == name), None)
    if ph is not None:  # a phase held in an attribute
        if st.log is not None:
            st.log.append((f"-- phase: {ph.title} --", None, {"type": "phase", "phase": name}))
        _r = ph.run(st)
        if _r is not None:
            yield from _r
        return
    if name not in g.effect_cells:
        raise GameError(f"'{name}' is not an effect", span)
    req, body, frame, _ = g.effect_cells[name][0]
    env2 = [me] + [None] * frame
    if req is not None and not req(st, env2):
        return
    if st.log is not None and g.model.effects[name].decl.title is not None:
        st.log.append((f"effect: {g.effect_titles[name]}", None, {"type": "effect", "effect": name, "player": me}))
    if st.fired is not None:
        st.fired[name] = st.fired.get(name, 0) + 1
    spend(st, 1, span)  # (an effect held in a value: each call a step of the budget)
    r = body(st, env2)  # (an effect that asks nothing is a plain function)
    if r is not None:
        yield from r


def _run_handlers(st, name, hs, me, vals):
    """`emit EVENT(vals)`: each `on EVENT` handler (body, frame, how many parameters) in turn."""
    if st.log is not None:
        st.log.append((f"event: {name}", None, {"type": "emit", "event": name}))
    if st.fired is not None:
        st.fired[("on", name)] = st.fired.get(("on", name), 0) + 1
    for body, frame, np in hs:
        env2 = [me] + vals[:np]
        env2 += [None] * (frame - len(env2))
        _r = body(st, env2)
        if _r is not None:
            yield from _r


def _redraw_picks(picks, offered, more=()):
    """A simultaneous choice's picks not shown yet, drawn again (a search bot's world: bots.remap_held);
    `more`: the (picks, offered) of its next choices, each drawn again among what it offered."""
    def redraw(rng):
        for j, opts in enumerate(offered):
            picks[j] = opts[int(rng.random() * len(opts))]
        for ps, offs in more:
            for j, opts in enumerate(offs):
                ps[j] = opts[int(rng.random() * len(opts))]
    return redraw


def _log_simultaneous(st, g, chosen, picks, prompt, t):
    st.log.append((f"all choose at once ({prompt}):", None, {"type": "simultaneous", "prompt": prompt}))
    for p, x in zip(chosen, picks):
        text = f"  P{p + 1} chose {g.label(x, st, t)}"
        hidden = g.card_hiding(x, st, text, f"  P{p + 1} chose a card they may not show") if t == "card" else None
        st.log.append((text, hidden, {"type": "choice", "player": p, "prompt": prompt, "choice": g.label(x, st, t)}))


def _log_random(st, g, x, prompt, t, among=None):
    """The log's line for a pick `at random` (`among`: how many options there were, when known:
    a pick among one was no draw, and says so: "the only one: P3 (gets the white die)")."""
    how = "the only one" if among == 1 else "at random"
    if t == "card":
        text = f"{how}: {g.card_label(x, st)} ({prompt})"
        st.log.append((text, g.card_hiding(x, st, text, f"{how}: a card ({prompt})"),
                       {"type": "random", "prompt": prompt, "choice": g.card_name[x]}))
    else:
        st.log.append((f"{how}: {g.label(x, st, t)} ({prompt})", None,
                       {"type": "random", "prompt": prompt, "choice": g.label(x, st, t)}))


def _log_choice(st, g, p, x, prompt, t):
    text = f"P{p + 1} chooses {g.label(x, st, t)} ({prompt})"
    hidden = g.card_hiding(x, st, text, f"P{p + 1} chooses a face-down card ({prompt})") if t == "card" else None
    st.log.append((text, hidden, {"type": "choice", "player": p, "prompt": prompt, "choice": g.label(x, st, t)}))


def _amount(st, name, a) -> str:
    """`3 coins`, `1 coin`: an amount in the counter's words."""
    one, many = st.game.counter_words[name]
    return f"{a} {one if a == 1 else many}"


def _log_gain(st, op, name, per, p, a, new, span=None, env=None, node=None, q=None, old=None):
    """The log's line for a counter changed by `gain`/`lose` (of p), or `give`/`take` (p, the
    player acting, and q the other). `old`: a bounded counter's value before, for saying what
    moved when its bound stopped it ("P3 loses no space on the track (stays at 0, its lowest)")."""
    if not a:  # nothing gained, lost or given: no line
        return
    st.why[len(st.log)] = span
    if st.explain is not None and node is not None:  # (its terms, for `why N` / --explain)
        st.explain.gain(st, env, node, p, a, new)
    moved = a if old is None or a < 0 else abs(new - old)
    data = {"type": op, "counter": name, "amount": moved, "player": p, "now": new}
    if moved != a:
        data["asked"] = a
    if op in ("gain", "lose"):
        sign, verb, edge = ("+", "gains", "its highest") if op == "gain" else ("-", "loses", "its lowest")
        if not per:
            text = f"{name} {sign}{moved}"
        elif moved == 0:
            text = f"P{p + 1} {verb} no {st.game.counter_words[name][0]}"
        else:
            text = f"P{p + 1} {verb} {_amount(st, name, moved)}"
        if moved != a:
            now = f"stays at {new}" if moved == 0 else f"not {a}: now {new}"
            st.log.append((text + f" ({now}, {edge})", None, data))
            return
    else:
        giver, getter = (p, q) if op == "give" else (q, p)
        text = f"P{giver + 1} gives {_amount(st, name, a)} to P{getter + 1}"
    st.log.append((text + f" (now {new})", None, data))


def _capply(st, row, p, delta, lo, hi, wrap, pad):
    """A counter of player p changed by delta within its bounds lo..hi (functions of the
    state with me = p, or None), or round its track (wrap): (old, new)."""
    old = row[p]
    v = old + delta
    env = [p] + [None] * pad
    low = lo(st, env) if lo is not None else None
    high = hi(st, env) if hi is not None else None
    if wrap and low is not None and high is not None:
        v = low + (v - low) % (high - low + 1)
    else:
        if low is not None and v < low:
            v = low
        if high is not None and v > high:
            v = high
    row[p] = v
    return old, v


def _cfire(st, trig, lo, hi, wrap, name, p, old, new, delta, span=None):
    """Run the `when C reaches V` triggers of the spaces p's marker passed, in the order it
    passes them (on a wrap-around track, a space is passed once per lap: a gain of many laps
    fires it as often, each firing a step of the game's budget, counted before the first)."""
    if delta <= 0:
        return
    hits: list[tuple] = []
    laps = []  # (first step, lap length, last step, t, body, env, decl) of a wrap-around track
    for value, body, frame, pslot, decl in trig:
        env = [p] + [None] * frame
        env[pslot] = p
        t = value(st, env)
        if wrap:
            low, high = lo(st, env), hi(st, env)
            if not low <= t <= high:
                continue  # a space off the track is never reached
            size = high - low + 1
            first = (t - old) % size or size  # the first step that lands on t
            if first <= delta:
                laps.append((first, size, delta, t, body, env, decl))
        elif old < t <= new:
            hits.append((t - old, t, body, env, decl))
    if laps:  # (a wrap-around track: every trigger is here, none in hits)
        n = sum((last - first) // size + 1 for first, size, last, *_ in laps)
        if n > 1:
            most = budget.LIMITS["steps"]
            if st.steps + n > most:
                raise GameError(f"this gain moves {name} {delta} spaces round its track, passing the spaces "
                                f"of its 'when ... reaches' {n} times: more firings than the game's budget "
                                f"of {most} steps has left (a larger budget: tav --max-steps N)", span)
            spend(st, n, span)
        # in the order the marker passes them, one lap after another (never all in a list)
        passed: Iterable[tuple] = heapq.merge(*(_laps(*x) for x in laps), key=_first)
    else:
        hits.sort(key=_first)
        passed = hits
    for _, t, body, env, decl in passed:
        if st.fired is not None:
            st.fired[("when", decl)] = st.fired.get(("when", decl), 0) + 1
        if st.log is not None:
            st.log.append((f"P{p + 1}'s {name} reaches {t}", None, {"type": "reach", "player": p, "counter": name, "space": t}))
        _r = body(st, env)
        if _r is not None:
            yield from _r


def _log_set(st, g, c, aname, v, vtype):
    """The log's line for a card's variable set (the value hidden from who may not see the card)."""
    st.log.append((f"{g.card_name[c]}: {aname} = {g.value_text(v, st, vtype)}",
                   (st.vis_mask(c) & g.value_mask(v, st, vtype), f"a card: {aname} changed"),
                   {"type": "set", "card": g.card_name[c], "attr": aname, "value": v}))


def _log_look(st, g, me, c):
    st.log.append((f"P{me + 1} looks at {g.card_name[c]}", (1 << me, f"P{me + 1} looks at a card"),
                   {"type": "look", "player": me, "card": g.card_name[c]}))


def _log_shuffle(st, g, z):
    label = g.zone_text(z, st)
    st.log.append((f"shuffle {label}", None, {"type": "shuffle", "zone": label}))


def _shuffle(cards, rnd):
    """Fisher-Yates, with the game's RNG."""
    for i in range(len(cards) - 1, 0, -1):
        j = int(rnd() * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]


def _swap(st, g, x, y, span):
    """`swap A with B` of two cards (none of either: nothing happens)."""
    if x is None or y is None:
        return
    if st.zholder is not None and (st.lands_on_itself(x, st.loc[y]) or st.lands_on_itself(y, st.loc[x])):
        raise GameError("a card cannot be swapped onto itself (or onto a card it holds)", span)
    st.swap(x, y)
    if st.log is not None:
        st.log.append((f"swap {g.card_name[x]} and {g.card_name[y]}", (st.vis_mask(x) & st.vis_mask(y), "swap two cards"),
                       {"type": "swap", "a": g.card_name[x], "b": g.card_name[y]}))


def _show(st, g, cards, q, me):
    """`show CARDS to q`: q now knows them; the log says who showed what (to whom may see it)."""
    cards = [c for c in cards if c is not None]
    for c in cards:
        st.seen[c] |= 1 << q
    if st.log is not None and cards:
        owner = st.zowner[st.loc[cards[0]]] if st.loc[cards[0]] >= 0 else None
        if owner is None or any(st.loc[c] < 0 or st.zowner[st.loc[c]] != owner for c in cards):
            owner = me  # cards of one player's zones are shown by that player
        who = f"P{owner + 1}" if owner is not None else "the game"
        names = ", ".join(g.card_name[c] for c in cards)
        mask = (1 << q) | ((1 << owner) if owner is not None else 0)
        common = (1 << st.n) - 1
        for c in cards:
            common &= st.vis_mask(c)
        mask |= common  # and whoever could see them all anyway
        st.log.append((f"{who} shows {names} to P{q + 1}", (mask, f"{who} shows {len(cards)} card(s) to P{q + 1}"),
                       {"type": "show", "player": owner, "to": q, "cards": [g.card_name[c] for c in cards]}))


def _prompt_text(st, g, choice, env, chooser=None):
    """A choice's prompt with holes, filled in with their values in its frame, as everyone may
    read them, or as the chooser asked may (Presentation.prompt_text)."""
    return g.prompt_text(choice, st, env, chooser)


def _log_option(st, p, label, prompt):
    st.log.append((f"P{p + 1} chooses '{label}' ({prompt})", None,
                   {"type": "choice", "player": p, "prompt": prompt, "choice": label}))


def _log_number(st, p, x, prompt):
    st.log.append((f"P{p + 1} chooses {x} ({prompt})", None, {"type": "choice", "player": p, "prompt": prompt, "choice": x}))


def _numbers_msg(a, b, most):
    return f"'choose number' from {a} to {b}: more than {most} numbers to choose from"


def _log_subset(st, g, p, x, prompt, t):
    hidden = None
    if t == "card":
        mask = (1 << st.n) - 1
        for c in x:
            mask &= st.vis_mask(c)
        if mask != (1 << st.n) - 1:
            hidden = (mask, f"P{p + 1} chooses {len(x)} card(s) ({prompt})")
    st.log.append((f"P{p + 1} chooses {g.label(x, st, 'list:' + (t or 'any'))} ({prompt})", hidden,
                   {"type": "choice", "player": p, "prompt": prompt}))


_DONE = DONE  # `choose up to N`: the option of taking no more


def _n_label(g, t, x, st, p):
    if x is _DONE:
        return "done"
    if t == "card":
        return g.card_label(x, st, p) if st.visible(x, p) else "face-down card"
    return g.label(x, st, t, p)


def _n_labeler(st, g, p, t):
    """The labels of a `choose N` decision's options, as player p may read them."""
    def lab(v):
        return _n_label(g, t, v, st, p)
    if t == "card":
        setattr(lab, "cards", True)  # (its options are cards: a player may read their text)
    return lab


def _log_done(st, p, prompt):
    st.log.append((f"P{p + 1} is done ({prompt})", None, {"type": "choice", "player": p, "prompt": prompt, "choice": "done"}))


def _log_pick(st, g, rnd, p, x, prompt, t):
    who = "at random" if rnd else f"P{p + 1} chooses"
    label = _n_label(g, t, x, st, None)
    text = f"{who}{':' if rnd else ''} {label} ({prompt})"
    hidden = g.card_hiding(x, st, text, f"{who} a face-down card ({prompt})") if t == "card" else None
    st.log.append((text, hidden, {"type": "random" if rnd else "choice", "player": p, "prompt": prompt, "choice": label}))


def _always(st, env):
    return [True]


def run_headed(st, ph, heading: str, data: dict) -> Generator[Decision, Any, None]:
    """Run a phase under its heading in the log; a phase that did nothing leaves no heading."""
    if st.log is not None:
        st.log.append((heading, None, data))
        mark = len(st.log)
    r = ph.run(st)
    if r is not None:
        yield from r
    if st.log is not None and len(st.log) == mark:
        st.log.pop()


def _log_round(st, ph):
    """A phase's heading in the log, in a round: where the log is now (the heading is taken back
    when the phase leaves nothing after it)."""
    st.log.append((f"-- round {st.round}: {ph.title} --", None, {"type": "phase", "round": st.round, "phase": ph.name}))
    return len(st.log)


def _rounds_msg(n, bound):
    if bound == 1:
        return f"the game has {n} rounds: it needs at least 1"
    return f"the game has {n} rounds: a game may have at most {bound}"


def _log_reveal(st, g, c):
    st.log.append((f"reveal {g.card_name[c]}", None, {"type": "reveal", "card": g.card_name[c]}))


def _log_many(st, g, cards, z, everything: bool = False):
    """The log's one line for a move of more than three cards (or of `everything`, the game's
    cards): how many of each kind's unit ("305 cards, 12 dice -> the box"); a card not every
    player may see now is a card (its kind unsaid), but in a move of everything."""
    full = (1 << st.n) - 1
    counts: dict = {}
    for c in cards:
        if c is None:
            continue
        words = g.kind_words.get(g.card_kind[c], _CARD_WORDS) if everything or st.vis_mask(c) == full else _CARD_WORDS
        counts[words] = counts.get(words, 0) + 1
    to = g.zone_text(z, st)
    what = ", ".join(f"{k} {one if k == 1 else many}" for (one, many), k in counts.items()) or "0 cards"
    st.log.append((f"{what} -> {to}", None, {"type": "move_all", "count": sum(counts.values()), "to": to}))


_CARD_WORDS = ("card", "cards")


def _subset_tries(n, a, b, span):
    """How many subsets `choose subset` tries (sizes a..b of n items): an error past MAX_TRIES
    (failing tries count too: C(60, 30) subsets are never all tried)."""
    tried = 0
    for size in range(a, b + 1):  # (worked out before any is tried; comb(n, k) grows with k up to n/2)
        tried += math.comb(n, size) if min(size, n - size) < 64 else MAX_TRIES + 1
        if tried > MAX_TRIES:
            raise GameError(f"more than {MAX_TRIES} subsets to try for this choice", span)
    return tried


# ---------------------------------------------------------------- what generated code may call
BUILTINS = {"len": len, "list": list, "range": range, "sum": sum, "min": min, "max": max, "abs": abs,
            "reversed": reversed, "any": any, "all": all, "set": set}

exported = {
    # expressions
    "_index": _index, "_holder": _holder, "_zone_of": _zone_of, "_owner": _owner, "_owner_fixed": _owner_fixed,
    "_zowner": _zowner, "_zowner_fixed": _zowner_fixed, "_allz": _allz, "_is": _is, "_div": _div, "_mod": _mod,
    "_free": _free, "_player": _player, "_allowed": _allowed, "_offered": _offered, "_saw": _saw, "_asked": _asked,
    "_has_word": _has_word, "_has_word_lit": _has_word_lit, "_card_text": _card_text, "_order_from": _order_from,
    "_any_subset": _any_subset, "_subset_sum": _subset_sum, "_UNSET": _UNSET, "_int": int,
    "_bisect": bisect.bisect_left, "_insort": bisect.insort,  # (the fast layout's sorted zones, engine/layout.py)
    # the budget (engine/budget.py)
    "_over": budget.over, "_over_list": budget.over_list, "_mul": budget.mul, "_num": budget.num,
    "_numbers": budget.numbers,
    # statements: choices
    "_Decision": Decision, "_only_option": only_option, "_too_long": _too_long, "_DONE": _DONE,
    "_n_labeler": _n_labeler, "_prompt_text": _prompt_text, "_subset_tries": _subset_tries, "_combinations": itertools.combinations,
    "_numbers_msg": _numbers_msg, "_redraw_picks": _redraw_picks,
    # statements: running rules
    "_do_phase": _do_phase, "_do_named": _do_named, "_do_action": _do_action, "_run_handlers": _run_handlers,
    "_capply": _capply, "_cfire": _cfire, "_shuffle": _shuffle, "_swap": _swap, "_show": _show,
    # the log
    "_log_gain": _log_gain, "_log_round": _log_round, "_rounds_msg": _rounds_msg, "_log_simultaneous": _log_simultaneous,
    "_log_option": _log_option, "_log_number": _log_number, "_log_subset": _log_subset, "_log_done": _log_done,
    "_log_pick": _log_pick, "_log_look": _log_look, "_log_shuffle": _log_shuffle, "_log_set": _log_set,
    "_log_reveal": _log_reveal, "_log_random": _log_random, "_log_choice": _log_choice, "_log_move": _log_move,
    "_log_many": _log_many,
    # turns (engine/turns.py)
    **TURN_HELPERS,
    # errors
    "_GameError": GameError, "_GameOver": GameOver,
}


def namespace(game) -> dict:
    """A new generated module's namespace: the builtins generated code may use, `exported`,
    the game as `_g`, and the table of the spans of its lines (common.SPANS, filled as each
    function is generated)."""
    return {"__builtins__": dict(BUILTINS), **exported, "_g": game, SPANS: {}}
