"""Numbered cards: `card "Bid {n}" [xN] for n in LOW..HIGH: KIND { ... }` declares one card for
each number, in order, exactly as the same cards written one to a line (docs/language.md,
"Numbered cards")."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang.cli import main
from tavernlang.errors import TavError
from tavernlang.loader import load

ROOT = Path(__file__).resolve().parent.parent

HEAD = '''game "Runs"
players 2
kind Bid "{value}" { value: int, doubled: int = 0 }
'''
TAIL = '''zone deck: shared hidden
zone hand: per player public
setup { move cards to deck  shuffle deck  for p in players { move top(deck) to hand of p } }
action keep "keep" { move top(deck) to hand of me }
rounds 2 { phase p turns from player(1) once_each { actions keep once pass } }
winner: highest sum(c.value + c.doubled for c in hand of me)
'''


def _file(tmp_path: Path, name: str, cards: str) -> Path:
    p = tmp_path / name
    p.write_text(HEAD + cards + TAIL)
    return p


def _cards(path: Path) -> list[tuple]:
    m = load(str(path))
    return [(cd.name, cd.copies, cd.kind, tuple((f.name, f.value.value if hasattr(f.value, "value") else None)
                                                for f in cd.fields)) for cd in m.cards]


def _run(path: Path, seed: int, bots: str = "random") -> dict:
    r = CliRunner().invoke(main, ["run", str(path), "-p", "2", "--seed", str(seed), "--bots", bots, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_a_run_is_a_card_for_each_number_in_order_with_the_number_in_its_name_and_values(tmp_path):
    run = _file(tmp_path, "run.tav", 'card "Bid {n}" x2 for n in 3..5: Bid { value: n, doubled: 2 * n }\n')
    m = load(str(run))
    assert [(cd.name, cd.copies) for cd in m.cards] == [("Bid 3", 2), ("Bid 4", 2), ("Bid 5", 2)]
    assert [cd.fields[0].value.value for cd in m.cards] == [3, 4, 5]
    assert len({id(cd.fields[1].value) for cd in m.cards}) == 3  # each card its own nodes (side tables key on nodes)


def test_a_list_of_names_names_each_card_of_the_run_in_turn(tmp_path):
    run = _file(tmp_path, "run.tav", 'card ["Ace", "Deuce", "Trey"] for n in 1..3: Bid { value: n }\n')
    assert _cards(run) == [("Ace", 1, "Bid", (("value", 1),)), ("Deuce", 1, "Bid", (("value", 2),)),
                           ("Trey", 1, "Bid", (("value", 3),))]


def test_a_run_plays_exactly_as_its_cards_written_one_to_a_line(tmp_path):
    run = _file(tmp_path, "run.tav", 'card "Bid {n}" x2 for n in 1..6: Bid { value: n, doubled: n * n }\n')
    lines = _file(tmp_path, "lines.tav", "".join(f'card "Bid {n}" x2: Bid {{ value: {n}, doubled: {n} * {n} }}\n'
                                                 for n in range(1, 7)))
    for seed in (1, 2, 3):
        assert _run(run, seed) == _run(lines, seed)
    assert _run(run, 4, "greedy") == _run(lines, 4, "greedy")


def test_goofspiel_deals_and_plays_as_its_thirteen_card_lines_did(tmp_path):
    """benchmarks/peers/goofspiel.tav declares its cards in one run; written out again one to a
    line (Ace, 2 … 10, Jack, Queen, King: the order the ids follow), the games are the same."""
    text = (ROOT / "benchmarks" / "peers" / "goofspiel.tav").read_text()
    run_line = re.search(r"^card \[.*\] x3 for v in 1\.\.13: Card \{ value: v \}\n", text, re.M)
    assert run_line is not None
    names = ["Ace"] + [str(n) for n in range(2, 11)] + ["Jack", "Queen", "King"]
    written = "".join(f'card "{name}" x3: Card {{ value: {v} }}\n' for v, name in enumerate(names, 1))
    lines = tmp_path / "goofspiel.tav"
    lines.write_text(text.replace(run_line.group(0), written))
    ours = ROOT / "benchmarks" / "peers" / "goofspiel.tav"
    assert _cards(ours) == _cards(lines)
    for seed in (1, 2, 3, 4, 5):
        assert _run(ours, seed) == _run(lines, seed)


@pytest.mark.parametrize("cards, place, message", [
    ('card "Bid {n}" for n in 5..3: Bid { value: n }\n', (4, 25), "the run 5..3 of cards is empty"),
    ('card ["A", "B"] for n in 1..3: Bid { value: n }\n', (4, 7), "2 names for the 3 cards of 1..3"),
    ('card "Bid {m}" for n in 1..3: Bid { value: n }\n', (4, 6), "a hole '{n}' stands for the card's number"),
    ('card "Bid {n}" for n in 1..20000: Bid { value: n }\n', (4, 25), "a run of 20000 cards is too long"),
    ('card "Bid" for n in 1..3: Bid { value: n }\n', (4, 6), "every card of the run would be named \"Bid\""),
    ('card ["A", "A"] for n in 1..2: Bid { value: n }\n', (4, 1), 'card "A" is already defined'),
    ('card "Bid {n}" for n in 1..3: Bid { value: k }\n', (4, 44), "unknown name 'k'"),
])
def test_a_wrong_run_is_a_located_error(tmp_path, cards, place, message):
    p = _file(tmp_path, "bad.tav", cards)
    with pytest.raises(TavError) as e:
        load(str(p))
    d = e.value.diagnostics[0]
    assert (d.span.line, d.span.col) == place and message in d.message, (d.span, d.message)


def test_the_example_game_of_numbered_cards_checks_lints_and_passes_its_scenarios():
    ex = str(ROOT / "examples" / "ten_or_bust.tav")
    r = CliRunner().invoke(main, ["lint", ex])
    assert r.exit_code == 0 and "warning" not in r.output, r.output
    r = CliRunner().invoke(main, ["test", ex])
    assert r.exit_code == 0 and "2 passed, 0 failed" in r.output, r.output


def test_an_error_in_the_values_of_a_run_is_reported_once_at_the_run(tmp_path):
    p = _file(tmp_path, "bad.tav", 'card "Bid {n}" for n in 1..3: Bid { value: k, doubled: true }\n')
    with pytest.raises(TavError) as e:
        load(str(p))
    assert [(d.span.line, d.message.split(" (")[0]) for d in e.value.diagnostics] == [
        (4, "unknown name 'k'"), (4, "attribute 'doubled' should be int, not bool")]


def test_a_variant_removes_one_card_of_a_run_by_its_name(tmp_path):
    _file(tmp_path, "base.tav", 'card "Bid {n}" for n in 1..3: Bid { value: n }\n')
    (tmp_path / "variant.tav").write_text('extends "base.tav"\nremove card "Bid 2"\n')
    assert [cd.name for cd in load(str(tmp_path / "variant.tav")).cards] == ["Bid 1", "Bid 3"]
