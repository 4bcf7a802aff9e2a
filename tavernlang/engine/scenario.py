"""Scenarios: rulebook examples written in rules text, run with scripted answers.

A scenario sets up a game (`players`, `seed`, `option`), changes the state
(`given`), runs effects or actions (`run`) answering each decision from its
`answers` list by label, and checks `expect` conditions. Its event log, as
canonical text, is what the snapshot tests pin.
"""
from __future__ import annotations

import attrs

from ..errors import GameError, Span
from .compile import CompiledGame
from .common import RULE_FAULTS
from .runner import bot_rng, located
from .state import GameOver


@attrs.define
class ScenarioResult:
    title: str
    span: Span
    failures: list[tuple[Span, str]]
    log: list[str]

    @property
    def passed(self) -> bool:
        return not self.failures

    def transcript(self) -> str:
        lines = [f"scenario: {self.title}"] + self.log
        lines.append("result: " + ("pass" if self.passed else "FAIL"))
        for sp, msg in self.failures:
            lines.append(f"  {sp}: {msg}")
        return "\n".join(lines) + "\n"


def _source(game: CompiledGame, span: Span) -> str:
    src = game.model.sources
    if span.line == span.end_line:
        line = src.line(span.file, span.line) or ""
        return line[span.col - 1: span.end_col - 1]
    # over several lines: its text from the first column to the last, the line breaks as spaces
    lines = [src.line(span.file, i) or "" for i in range(span.line, span.end_line + 1)]
    lines[-1] = lines[-1][: span.end_col - 1]
    lines[0] = lines[0][span.col - 1:]
    return " ".join(ln.strip() for ln in lines if ln.strip())


SETUP_LINES_SHOWN = 20
_COMPARISONS = ("==", "!=", "<", "<=", ">", ">=")


def _what_failed(game: CompiledGame, e, st, env) -> str:
    """What a failed `expect` found: for `A and B ...` the first part that is false, for `A or B`
    and `not A` what each part found, for a comparison the values of its two sides ("me.coins
    is 3"), for anything else its value ("big(me) is false")."""
    from ..syntax import ast as A

    def value(x):
        return game.value_text(game.evaluate(x, st, env), st, game.model.types.get(x))

    def found(e) -> list[str]:
        while isinstance(e, A.BinOp) and e.op == "and":
            e = e.left if not game.evaluate(e.left, st, env) else e.right
        if isinstance(e, A.BinOp) and e.op == "or":
            return found(e.left) + found(e.right)
        if isinstance(e, A.Not):
            return found(e.operand)
        if isinstance(e, A.BinOp) and e.op in _COMPARISONS:
            return [f"{_source(game, side.span)} is {value(side)}" for side in (e.left, e.right)
                    if not isinstance(side, A.Lit)]
        if isinstance(e, A.Lit):
            return []
        return [f"{_source(game, e.span)} is {value(e)}"]
    try:
        return ", ".join(dict.fromkeys(found(e)))
    except (GameError, *RULE_FAULTS):
        return ""


def run_scenario(game: CompiledGame, sc: dict) -> ScenarioResult:
    d = sc["decl"]
    failures: list[tuple[Span, str]] = []
    log: list[str] = []
    res = ScenarioResult(d.title, d.span, failures, log)
    try:
        probe = game.new_state(d.players, d.seed)
        opts = {name: fn(probe, [None] * (game.model.max_frame + 1)) for name, fn in sc["options"].items()}
        st = game.new_state(d.players, d.seed, opts)
    except GameError as e:
        failures.append((e.span if e.span.file != "<builtin>" else d.span, str(e)))
        return res
    slog: list = []  # (st.log, which the script writes)
    st.log = slog
    st.offered = {}
    st.views = {}
    env = [0] + [None] * max(sc["frame"], game.model.max_frame)
    answers = list(d.answers)

    # the scenario plays as in a turn of P1's: who plays next is P1's left neighbour, unless
    # the setup or the scenario says `next turn`
    st.next_player = 1 % d.players

    def script():
        try:
            if game.setup is not None:
                if d.random_setup:  # `setup at random`: the setup's decisions fall at random from the seed
                    rnd = bot_rng(d.seed).random
                    st.agent = lambda p, opts: int(rnd() * len(opts))
                    st.offered = st.views = None  # none of them is asked: offered() starts after the setup
                yield from game.setup(st, [None] * (game.setup_frame + 1))
                if d.random_setup:
                    st.agent = None
                    st.offered, st.views = {}, {}
            slog.append(("-- given --", None, {"type": "given"}))
            if sc["given"] is not None:
                yield from sc["given"](st, env)
            slog.append(("-- run --", None, {"type": "run"}))
            if sc["run"] is not None:
                yield from sc["run"](st, env)
        except GameOver:
            # `end game` in a scenario ends it as in a game: final scoring runs, once
            yield from game.final_scoring(st)
            raise

    gen = script()
    try:
        dec = next(gen)
        while True:
            labels = dec.labels()
            if not answers:
                failures.append((dec.span or d.span, f"no answer left for P{dec.player + 1}'s decision '{dec.prompt}'; "
                                                    f"options: {', '.join(labels)}"))
                break
            # the options offered are part of the transcript, so a snapshot pins them too
            st.log.append((f"P{dec.player + 1} is asked '{dec.prompt}': " + " | ".join(labels), None,
                           {"type": "asked", "player": dec.player, "prompt": dec.prompt, "options": labels}))
            st.offered.setdefault(dec.prompt, []).append(list(labels))
            st.views.setdefault(dec.prompt, []).append((dec.player, st.view()))  # for asked(...), saw(...)
            want = answers.pop(0)
            if want not in labels:
                # a card's bare name answers for it when every option of that name reads the same
                named = {lb for o, lb in zip(dec.options, labels)
                         if dec.labeler == "card" and game.card_name[o] == want} if dec.labeler == "card" else set()
                if len(named) != 1:
                    why = "names different options" if named else "is not an option of"
                    failures.append((d.span, f"answer '{want}' {why} '{dec.prompt}'; options: {', '.join(labels)}"))
                    break
                want = named.pop()
            st.decisions += 1
            dec = gen.send(labels.index(want))
    except StopIteration:
        pass
    except GameOver:
        st.log.append(("the game ends", None, {"type": "end"}))
    except GameError as e:
        failures.append((e.span, str(e)))
    except RULE_FAULTS as e:
        err = located(e)
        failures.append((err.span if err.span.file != "<builtin>" else d.span, str(err)))
    if answers and not failures:
        failures.append((d.span, f"{len(answers)} answer(s) were not used: {', '.join(answers)}"))
    texts = [text for text, _, _ in st.log]
    # a long setup (a whole board laid out) is one line: the example is what follows it
    given_at = texts.index("-- given --") if "-- given --" in texts else 0
    if given_at > SETUP_LINES_SHOWN:
        texts[:given_at] = [f"-- setup: {given_at} events, not shown --"]
    log.extend(texts)
    if not failures:
        for fn, cond, msg in sc["expects"]:
            try:
                ok = fn(st, env)
            except GameError as err:
                failures.append((err.span, str(err)))
                continue
            except RULE_FAULTS as exc:
                failures.append((cond.span, located(exc).args[0]))
                continue
            text = _source(game, cond.span)
            if ok:
                log.append(f"expect {text}: ok")
            else:
                got = _what_failed(game, cond, st, env)
                failures.append((cond.span, (msg or f"expected {text}") + (f" ({got})" if got else "")))
                log.append(f"expect {text}: FAILED")
    return res
