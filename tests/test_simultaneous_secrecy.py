"""Secrecy within a step played at the same time (`simultaneously`, a phase of `simultaneous`
turns): what a seat reads at its pick does not depend on the picks the other seats made before
it in the same step.

The check is by alternate histories: at a seat's pick, each other seat's last pick of the same
step is made differently (the game replayed from the seed, every other decision as it was) and
the seat's log, view and options at its pick must read the same, word for word. The steps are
found as the engine marks them for the search bots (`_secret_picks` in the running rules, the
contract named in engine/common.py: the picks made so far in the step, not shown yet)."""
from __future__ import annotations

import os
import random

import pytest

from tavernlang import compile_file, play
from tavernlang.engine.common import SECRET_PICKS
from tavernlang.engine.runner import Match

GAMES = {"little_tavern": ("games/little_tavern.tav", 3), "tavern_masters": ("games/tavern_masters.tav", 3),
         "tavern_masters_4": ("games/tavern_masters.tav", 4), "sealed_bids": ("examples/sealed_bids.tav", 3)}
_COMPILED: dict = {}
CHECKS = int(os.environ.get("TAV_SECRECY_PICKS", "6"))  # picks looked at in one game


def _game(path):
    if path not in _COMPILED:
        _COMPILED[path] = compile_file(path)
    return _COMPILED[path]


def step_of(m: Match):
    """Where the pending decision stands in a step played at the same time: (the step's list of
    what was offered, the phase's step number or None, the picks made before in it); None: the
    decision is not a pick of such a step."""
    g = m._gen
    while g is not None:
        f = g.gi_frame
        if f is not None:
            redraw = f.f_locals.get(SECRET_PICKS)
            if redraw is not None:
                cells = dict(zip(redraw.__code__.co_freevars, (c.cell_contents for c in redraw.__closure__)))
                return id(cells["offered"]), f.f_locals.get("steps"), len(cells["offered"])
        g = g.gi_yieldfrom
    return None


def reads(m: Match, p: int) -> dict:
    """Everything seat p reads at its decision: the log as it reads it, `why` of its last lines,
    its view, its options with their card text, and `w` (why an action is not offered)."""
    n = len(m.st.log)
    return {"log": m.log_lines(p), "why": [play.explain(m, p, i) for i in range(max(1, n - 2), n + 1)],
            "view": m.view(p), "options": play._option_lines(m, p), "prompt": m.pending.prompt,
            "why_not": play._why_lines(m, p)}


def _same_step(a, b) -> bool:
    """Decision b (a key of step_of) is in the step of the decision a before it."""
    return a is not None and b is not None and a[:2] == b[:2] and a[2] <= b[2]


def _replayed(game, players, seed, rec, j, alt, k):
    """The game with decision j (of seat q) made as option `alt`, every later decision up to k
    as it was (q's own later decisions, which its other pick may change: the first option) ->
    what the seat of decision k reads then, or a text saying where the game went otherwise.
    (j None: the game as it was.)"""
    q, p = (rec[j][0] if j is not None else None), rec[k][0]
    m = Match(game, players, seed, explain=True)
    start = k if j is None else j
    for _, c, _, _ in rec[:start]:
        m.apply(c)
    if j is not None:
        m.apply(alt)
    for i in range(start + 1, k):
        while not m.over and m.pending.player == q:
            m.apply(0)
        pl, c, _, _ = rec[i]
        if m.over or m.pending.player != pl or c >= len(m.pending.options):
            return f"decision {i} (P{pl + 1}'s) is no longer asked as it was"
        m.apply(c)
    while not m.over and m.pending.player == q:
        m.apply(0)
    if m.over or m.pending.player != p:
        return f"P{p + 1}'s pick is no longer asked"
    return reads(m, p)


def interference(path: str, players: int, seed: int, checks: int = CHECKS, step=step_of) -> list:
    """Play a random game; at up to `checks` picks (drawn among the game's picks that follow
    another seat's pick in their step, as `step` finds the steps) compare what the picking seat
    reads with what it reads when the other seat's pick is made differently."""
    game = _game(path)
    rng = random.Random(seed)
    m = Match(game, players, seed)
    rec = []  # (player, choice, options, step key) of each decision
    while not m.over:
        d = m.pending
        rec.append((d.player, rng.randrange(len(d.options)), len(d.options), step(m)))
        m.apply(rec[-1][1])
    picks = []  # (a pick, each other seat's last pick before it in its step)
    for k, (p, _, _, key) in enumerate(rec):
        j, last = k, {}
        while key is not None and j > 0 and _same_step(rec[j - 1][3], rec[j][3]):
            j -= 1
            if rec[j][0] != p and rec[j][2] > 1:
                last.setdefault(rec[j][0], j)
        if last:
            picks.append((k, last))
    problems = []
    for k, last in rng.sample(picks, min(checks, len(picks))):
        seen = _replayed(game, players, seed, rec, None, None, k)
        for q, j in sorted(last.items()):
            alt = (rec[j][1] + 1) % rec[j][2]
            other = _replayed(game, players, seed, rec, j, alt, k)
            if other != seen:
                problems.append((path, players, seed, k, f"P{rec[k][0] + 1} at its pick reads P{q + 1}'s pick "
                                 f"(decision {j}, option {rec[j][1]} or {alt})",
                                 other if isinstance(other, str) else _first_difference(seen, other)))
    return problems


def _first_difference(a: dict, b: dict) -> str:
    for key in a:
        if a[key] != b[key]:
            return f"{key}: {a[key]!r:.300} / {b[key]!r:.300}"
    return ""


@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("seed", [1, 2])
def test_a_seat_at_its_pick_reads_nothing_of_the_picks_made_before_it_in_the_step(name, seed):
    path, players = GAMES[name]
    assert interference(path, players, seed) == []


@pytest.mark.slow
@pytest.mark.parametrize("name", list(GAMES))
@pytest.mark.parametrize("seed", range(3, 23))
def test_a_seat_at_its_pick_reads_nothing_of_the_picks_made_before_it_in_the_step_long(name, seed):
    path, players = GAMES[name]
    assert interference(path, players, seed, checks=40) == []


def test_the_check_finds_a_view_that_shows_the_picks_of_the_step(monkeypatch):
    """The property can fail: a view that shows the picks made so far in the step (as a view
    that read the step's own list would) is found at the next seat's pick."""
    view = Match.view

    def leaky(self, p):
        v = view(self, p)
        g = self._gen
        while g is not None:
            redraw = g.gi_frame.f_locals.get(SECRET_PICKS) if g.gi_frame is not None else None
            if redraw is not None:
                cells = dict(zip(redraw.__code__.co_freevars, (c.cell_contents for c in redraw.__closure__)))
                v["picks"] = [self.game.card_name[c] if type(c) is int else repr(c) for c in cells["picks"]]
            g = g.gi_yieldfrom
        return v
    monkeypatch.setattr(Match, "view", leaky)
    problems = interference("games/little_tavern.tav", 3, 1, checks=20)
    assert problems and "reads P" in problems[0][4] and "view" in problems[0][5], problems
