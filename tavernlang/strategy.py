"""What strong bots do beside random bots: `tav report`'s strategy section.

A game of the skill test (a search bot against random bots, bots.py) is played as `tav sim`
plays it, then played again from its seed with the same choices in the interactive flavour,
watched: for each seat, what it chose (the action of each action decision; the card of each
decision among cards, by the card's name; otherwise the option's label under its prompt) and
what the engine counted firing after its decisions (`State.fired`, as `tav lint --simulate`
counts coverage: phases entered, actions, effects, `on` handlers, `when ... reaches` triggers,
options of a `choose`), each firing counted for the player who made the latest decision asked
before it: what follows a decision is its consequence, whoever `me` is in the rules that run
(a decision with one option is not asked: what follows it counts for the latest one asked).
`compare` sets the seats of the search bot against the seats of the random bots: the share of
each action, card and choice on each side, and how often each rule fires after a side's
decisions per seat and game, the clearest differences first.

Everything is named by the game's own words (its actions' titles, its cards' names, its prompts
and labels, its rules' names): nothing here knows a game.
"""
from __future__ import annotations

import math
from collections import Counter

from .engine.common import RULE_FAULTS, located
from .engine.turns import _action_label
from .errors import GameError

ACTION, CARD, CHOICE = "action", "card", "choice"


class _ByDecider(dict):
    """`State.fired` that also counts each firing for `who`, the player of the latest decision
    asked (None before the first: counted in `before`)."""

    def __init__(self, per: list[Counter]):
        super().__init__()
        self.per, self.before, self.who = per, Counter(), None

    def __setitem__(self, key, value):
        delta = value - self.get(key, 0)
        super().__setitem__(key, value)
        (self.before if self.who is None else self.per[self.who])[key] += delta


def rule_name(key) -> str | None:
    """A `State.fired` key as the rules name it: an action or effect by its name, `phase P`,
    `on EVENT`, `when COUNTER of P reaches ... (line L)`, `option 'LABEL' (line L)`; None for
    what is not a rule firing (a phase's idle turns)."""
    if isinstance(key, str):
        return key
    if not isinstance(key, tuple) or not key:
        return None
    tag = key[0]
    if tag == "phase":
        return f"phase {getattr(key[1], 'name', key[1])}"
    if tag == "on":
        return f"on {key[1]}"
    if tag == "when":
        d = key[1]
        return f"when {d.counter} of {d.pvar} reaches (line {d.span.line})"
    if tag == "option":
        return f"option '{key[2]}' (line {key[1].span.line})"
    return None


def chosen(game, st, d, i: int) -> list[tuple[str, str, str]]:
    """What option i of decision d is, as (kind, prompt, name) rows: an action by its title
    ("pass"), a card (or each card of a set of cards) by its name, both with no prompt; anything
    else by its label under the decision's prompt."""
    o = d.options[i]
    lab = d.labeler
    if lab is _action_label:
        return [(ACTION, "", _action_label(o))]
    if lab == "card" or (getattr(lab, "cards", False) and type(o) is int):
        return [(CARD, "", game.card_name[o])]
    if lab == "list:card":
        return [(CARD, "", game.card_name[c]) for c in o]
    if isinstance(lab, str) or lab is None:
        text = st.game.label(o, st, lab, d.player)
    else:
        text = lab(o)
    return [(CHOICE, str(d.prompt), text)]


def observe(game, players: int, seed: int, options: dict | None, bots) -> dict:
    """One game with these bots (the game `tav sim` plays for the seed), as runner.playout
    reports it, with `strategy`: per seat, `decisions` asked, `choices` {(kind, prompt, name):
    times} (chosen) and `fired` {rule: times} (after its decisions); and `fired_before`, what
    fired before the first decision. A game that stops with an error gives `{"error", "span", "seed", "players"}`."""
    from .bots import drive
    try:
        try:
            _, history, _ = drive(game, players, seed, options, bots)
            return replay(game, players, seed, options, history)
        except RULE_FAULTS as e:
            raise located(e) from None
        except GameError as e:
            raise GameError(f"{e} (seed {seed}, {players} players)", e.span) from None
    except GameError as e:
        return {"error": str(e), "span": e.span, "seed": seed, "players": players}
    except MemoryError as e:  # (the process's limit, engine/budget.py): this game is reported, the run goes on
        from .engine.budget import out_of_memory
        err = out_of_memory(located(e).span)
        return {"error": str(err), "span": err.span, "seed": seed, "players": players}


def replay(game, players: int, seed: int, options: dict | None, history: list[int]) -> dict:
    """The game of these choices from its seed, watched (see observe)."""
    st = game.new_state(players, seed, options)
    fired: list[Counter] = [Counter() for _ in range(players)]
    choices: list[Counter] = [Counter() for _ in range(players)]
    asked = [0] * players
    st.fired = counts = _ByDecider(fired)
    gen = game.flow(st)
    k = 0
    try:
        d = next(gen)
        while True:
            i = history[k]
            k += 1
            asked[d.player] += 1
            counts.who = d.player
            for row in chosen(game, st, d, i):
                choices[d.player][row] += 1
            d = gen.send(i)
    except StopIteration:
        pass
    r = game.result(st)
    r.update(decisions=k, forced=len(st.forced), rounds=st.round, steps=st.steps, seed=seed,
             layout="exact" if game.layout.exact else "fast")
    r["strategy"] = [{"decisions": n, "choices": dict(ch), "fired": _named(f)}
                     for n, ch, f in zip(asked, choices, fired)]
    r["fired_before"] = _named(counts.before)  # (before the first decision: no seat's)
    return r


def _named(counts: Counter) -> dict[str, int]:
    out: Counter = Counter()
    for key, n in counts.items():
        name = rule_name(key)
        if name is not None and n:
            out[name] += n
    return dict(out)


def compare(games: list[dict], strong: str, weak: str = "random") -> dict:
    """The seats of bot `strong` against those of bot `weak` over games observed (each with
    `bots`, the bot of each seat by name, and `strategy`): for actions and cards, each one's
    share of the side's action decisions / cards chosen; for other choices, each label's share of
    the side's decisions asked by its prompt (its row named `prompt: label`); for rules, firings
    after the side's decisions per seat and game. Rows: {name, strong, weak, difference, strong_count,
    weak_count, z}, ordered by _ranked."""
    seats = {strong: 0, weak: 0}
    asked = {strong: 0, weak: 0}
    choice: dict[str, Counter] = {strong: Counter(), weak: Counter()}
    rules: dict[str, Counter] = {strong: Counter(), weak: Counter()}
    for r in games:
        for b, s in zip(r.get("bots") or (), r.get("strategy") or ()):
            if b not in seats:
                continue
            seats[b] += 1
            asked[b] += s["decisions"]
            choice[b].update(s["choices"])
            rules[b].update(s["fired"])

    whole: dict[str, Counter] = {}  # each side's choices of a kind under a prompt
    for b in seats:
        whole[b] = Counter()
        for (kind, prompt, _), n in choice[b].items():
            whole[b][kind, prompt] += n

    def rows(kind: str) -> list[dict]:
        keys = {key for b in seats for key in choice[b] if key[0] == kind}
        out = []
        for key in keys:
            (a, n), (c, m) = ((choice[b][key], whole[b][key[:2]]) for b in (strong, weak))
            out.append({"name": f"{key[1]}: {key[2]}" if key[1] else key[2],
                        "strong": a / n if n else 0.0, "weak": c / m if m else 0.0,
                        "strong_count": a, "weak_count": c, "z": _z_shares(a, n, c, m)})
        return _ranked(out)

    per = {b: max(1, n) for b, n in seats.items()}
    rule_rows = _ranked([{"name": name, "strong": rules[strong][name] / per[strong],
                          "weak": rules[weak][name] / per[weak],
                          "strong_count": rules[strong][name], "weak_count": rules[weak][name],
                          "z": _z_counts(rules[strong][name], per[strong], rules[weak][name], per[weak])}
                         for name in set(rules[strong]) | set(rules[weak])])
    return {"strong": strong, "weak": weak, "games": len(games), "seats": dict(seats),
            "decisions": dict(asked),
            "actions": rows(ACTION), "cards": rows(CARD), "choices": rows(CHOICE), "rules": rule_rows}


def _z_shares(a: int, n: int, b: int, m: int) -> float:
    """How far apart two shares a/n and b/m are in standard errors (the pooled two-proportion z;
    0 when either side has nothing to share)."""
    if n == 0 or m == 0:
        return 0.0
    p = (a + b) / (n + m)
    se = math.sqrt(p * (1 - p) * (1 / n + 1 / m))
    return (a / n - b / m) / se if se > 0 else 0.0


def _z_counts(a: int, n: int, b: int, m: int) -> float:
    """How far apart two rates of events a/n and b/m (per seat and game) are in standard errors,
    counting the events as Poisson (the pooled rate's)."""
    rate = (a + b) / (n + m)
    se = math.sqrt(rate * (1 / n + 1 / m))
    return (a / n - b / m) / se if se > 0 else 0.0


CLEAR = 2.0  # a difference at least this many standard errors wide is listed before the others


def _ranked(rows: list[dict]) -> list[dict]:
    """The rows with their difference (strong minus weak): first those whose sides are CLEAR
    standard errors apart or more (`z`), then the others, each by the size of the difference,
    then by name; so a large difference over a handful of decisions comes after the clear ones.
    (Decisions within a game are not independent: `z` orders, it does not test.)"""
    for x in rows:
        x["difference"] = x["strong"] - x["weak"]
    return sorted(rows, key=lambda x: (abs(x["z"]) < CLEAR, -abs(x["difference"]), x["name"]))
