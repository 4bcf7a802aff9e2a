"""Generated code holds only what the generator makes: hostile names and strings in a rules
file (Python keywords and builtins as names, the generator's own prefixes, quotes, backslashes,
newlines, braces, non-ASCII text) stay data in every construct, and faults map back to the rules."""
from __future__ import annotations

import io
import keyword
import re
import tokenize
from pathlib import Path

import pytest

from tavernlang import GameError, Match, compile_file, playout
from tavernlang.engine.runner import play_bots

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile" / "hostile.tav"
GAMES = sorted((ROOT / "games").glob("*.tav"))

# what generated code may name: its locals, temporaries and constants, the state and the
# run-time helpers (names starting with an underscore and a letter the generator gives)
OWN = re.compile(r"^(st|env|src|_[a-z]+\d*|_[A-Z][A-Za-z]+|_[a-z]+(_[a-z0-9]+)*)$")
ATTRS = {"append", "pop", "get", "zones", "zbase", "zfam", "bot_random", "bot_count", "bot_max", "attrs", "cvars", "counters", "vars", "opt", "loc", "cap", "capn",
         "players", "all_cards", "current", "next_player", "round", "n", "rng", "randint", "random", "log", "fired", "count",
         "known_opts", "preset", "agent", "turn_used", "facedown", "seen", "zhidden", "move", "zowner", "czone", "zholder", "zone_owner",
         "result", "ended", "value_text", "offered", "step_limit", "remove", "insert", "zprivate", "lands_on_itself", "card_name", "vis_mask", "holds", "drop_held", "move_everything", "swap", "rng", "final_scoring", "ended", "zsorted",
         # the turn loop's own locals and what it reads of an action
         "cur", "n", "taken", "idle", "steps", "log", "legal", "known", "r", "a", "used", "acted",
         "name", "title", "alone", "frame", "first", "body", "add",
         # the cards a fixed fact of theirs holds for (a frozenset): any and every of a zone
         "isdisjoint", "issuperset",
         "forced",  # (a decision with one option, counted)
         # where the game can be resumed from (the flow and the turn loop: tests/test_flow_restarts.py)
         "on_phase"}
BUILTINS = {"len", "list", "range", "sum", "min", "max", "abs", "reversed", "any", "all", "set"}
STRINGS = {'"winners"', '"type"', '"log"', '"text"', '"effect"', '"effect: "', '"player"'}


def check_source(src: str, rules_names: set[str]) -> None:
    prev = None
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        after_dot, prev = prev is not None and prev.type == tokenize.OP and prev.string == ".", tok
        if tok.type == tokenize.NAME and after_dot:  # an attribute: one of the engine's own (never a rules name)
            assert tok.string in ATTRS, f"unexpected attribute .{tok.string}\n{src}"
            continue
        if tok.type == tokenize.NAME:
            t = tok.string
            assert t not in rules_names or OWN.match(t), f"a rules name in generated code: {t}\n{src}"
            assert t not in ("lambda", "import", "class", "exec", "eval", "__import__"), f"{t} in generated code\n{src}"
            assert keyword.iskeyword(t) or t in BUILTINS or t in ATTRS or OWN.match(t), f"unexpected name {t!r}\n{src}"
        elif tok.type == tokenize.STRING:
            assert tok.string in STRINGS, f"a string literal in generated code: {tok.string}\n{src}"


def rules_identifiers(path: Path) -> set[str]:
    text = path.read_text()
    text = re.sub(r'"([^"\\\n]|\\.)*"', " ", text)  # not what strings say
    text = re.sub(r"#.*", " ", text)
    return set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", text))


def test_hostile_names_and_strings_stay_data():
    game = compile_file(HOSTILE)
    names = rules_identifiers(HOSTILE) - {"st", "env"}  # (a zone is named env and one st: see below)
    assert {"__import__", "exec", "eval", "lambda", "yield", "__class__", "_t1", "_k0", "_g"} <= names | {"st", "env"}
    assert game.gen_source and game.playouts().gen_source
    fast = compile_file(HOSTILE, fast=True)  # (and the fast layout's, engine/layout.py)
    for src in game.gen_source + game.playouts().gen_source + fast.gen_source + fast.playouts().gen_source:
        check_source(src, names - set(keyword.kwlist) - BUILTINS - ATTRS - {"src"})
    # the game runs, and its log says the strings exactly as written
    m = Match(game, 2, 3)
    play_bots(m)
    log = "\n".join(line for line, *_ in m.st.log)
    assert "'); import os; os.system('echo pwned') #" in log
    assert "Bière ☃ — 𝔘𝔫𝔦𝔠𝔬𝔡𝔢" in log
    assert "logged: ''' \"\"\" \\ {__import__} \n ☃" in log
    assert 'P1: take a card: \'def\' "x" \\' in log
    assert m.st.vars[game.var_slots["_g"]][0] in ("", "set to 'a' \"quoted\" \\ value\nwith a newline")
    for seed in range(20):
        for n in (2, 3):
            r = playout(game, n, seed)
            assert r["rounds"] >= 1


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_seed_games_generate_only_their_own_names(path):
    game = compile_file(path)
    names = rules_identifiers(path)
    for inc in path.parent.joinpath(path.stem).glob("*.tav"):
        names |= rules_identifiers(inc)
    names -= set(keyword.kwlist) | BUILTINS | ATTRS | {"st", "env", "src"}
    fast = compile_file(path, fast=True)  # (the fast layout, engine/layout.py: its own lines where it keeps a zone sorted)
    for src in game.gen_source + game.playouts().gen_source + fast.gen_source + fast.playouts().gen_source:
        check_source(src, names)


def test_a_fault_in_generated_code_is_reported_at_the_rules_statement(tmp_path):
    p = tmp_path / "fault.tav"
    p.write_text('game "Fault"\nplayers 2\ncounter score per player = 0\nvar nobody: player\nvar n: int\n'
                 'setup {\n  set n = 1\n  if n == 1 {\n    set n = nobody.seat\n  }\n}\n'
                 'rounds 1 { phase a "A" { log "x" } }\nwinner: highest score\n')
    game = compile_file(p)
    with pytest.raises(GameError) as e:
        playout(game, 2, 0)
    assert e.value.span is not None and e.value.span.line == 9, e.value


RULES_Q8 = '''game "Q8"
players 2
kind Coin { points: int }
kind Gem { shine: int }
card "Penny": Coin { points: 1 }
card "Ruby": Gem { shine: 2 }
counter score per player = 0
zone pile: shared public
setup { move cards to pile }
def worth(c: Coin): int = c.points
action grab "grab" {
  require REQ
  choose c in pile where COND "coin" { gain 1 score }
}
rounds 1 {
  phase p "P" turns from player(1) once_each { actions grab }
}
winner: highest score
'''


@pytest.mark.parametrize("req,cond,line", [
    ("true", "worth(c) > 0", 13),              # the choice's condition, costly: worked out by the legality test
    ("true", "c.points > 0", 13),              # cheap: listed by the choice's options
    ("worth(top(pile)) > 0", "true", 12),      # a requirement
])
def test_a_fault_while_a_turn_lists_its_actions_is_reported_at_the_rules_that_failed(tmp_path, req, cond, line):
    """Not at the phase (QA): where the same fault is reported when the action runs."""
    p = tmp_path / "q8.tav"
    p.write_text(RULES_Q8.replace("REQ", req).replace("COND", cond))
    game = compile_file(p)
    for play in (lambda: playout(game, 2, 1), lambda: play_bots(Match(game, 2, 1))):
        with pytest.raises(GameError) as e:
            play()
        assert e.value.span is not None and e.value.span.line == line, e.value
