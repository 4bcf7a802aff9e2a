"""Static lint shares its card tests: a filter tests each distinct
value of what its condition reads once, not every card. These tests pin the
behaviour (the same cards as testing each card, the same reasons, the work counted
in card tests), never a duration: the speed is benchmarks/bench_lint.py --scaling's."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tavernlang.lint import lint_model, make_context
from tavernlang.lint.values import Values, total_copies
from tavernlang.loader import load
from tavernlang.syntax import ast as A

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.synthetic_lint import synthetic  # noqa: E402
FILES = (sorted((ROOT / "games").glob("*.tav")) + sorted((ROOT / "examples").glob("*.tav"))
         + sorted((ROOT / "tests" / "lint").glob("tav10*.tav")))


def _synthetic(tmp_path, cards, effects):
    p = tmp_path / f"synthetic_{cards}.tav"
    p.write_text(synthetic(cards, effects))
    return load(p)


def _filters(ctx):
    """Every (condition, binder) that filters items of a collection in the rules."""
    for n in ctx.facts.nodes(A.Quant, A.Aggregate, A.Choose, A.For, A.ChooseSubset, A.ChooseN):
        if getattr(n, "cond", None) is not None and getattr(n, "coll", None) is not None:
            yield n.cond, n


def _one_by_one(v: Values, cond, binder):
    return [(cd, c) for cd, c in v.universe if v.card_test(cond, binder, cd) is not False]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_shared_card_tests_pick_the_cards_testing_each_card_picks(path):
    ctx = make_context(load(path))
    v = ctx.values
    n = 0
    for cond, binder in _filters(ctx):
        want = _one_by_one(v, cond, binder)
        got = v.filter_cards(v.whole(), cond, binder)
        assert sorted(id(cd) for cd, _ in got) == sorted(id(cd) for cd, _ in want), ctx.facts.source(cond)
        assert total_copies(got) == sum(c for _, c in want)
        # the reason names the first cards in the order of the game's cards
        assert v._cards_why(got, total_copies(got)) == v._cards_why(want, sum(c for _, c in want))
        # a part of the cards (not every card) is filtered card by card, in its order
        part = want[::2]
        assert v.filter_cards(part, cond, binder) == [x for x in part if x in want]
        n += 1
    if path.parent.name == "games":
        assert n > 0  # every seed game filters cards somewhere


def test_a_filter_that_excludes_cards_is_told_from_one_that_keeps_them(tmp_path):
    # Red is one colour in eight: a filter on it keeps an eighth of the cards
    m = _synthetic(tmp_path, 80, 8)
    ctx = make_context(m)
    v = ctx.values
    sizes = {total_copies(v.filter_cards(v.whole(), c, b)) for c, b in _filters(ctx)
             if "colour == Red" in ctx.facts.source(c) and "cost" not in ctx.facts.source(c)}
    assert sizes == {10}


def _card_tests(model, monkeypatch) -> int:
    calls = [0]
    real = Values.card_test

    def counted(self, cond, binder, cd):
        calls[0] += 1
        return real(self, cond, binder, cd)

    monkeypatch.setattr(Values, "card_test", counted)
    assert lint_model(model) == []
    monkeypatch.setattr(Values, "card_test", real)
    return calls[0]


def test_card_tests_grow_with_the_rules_not_rules_times_cards(tmp_path, monkeypatch):
    small = _card_tests(_synthetic(tmp_path, 200, 20), monkeypatch)
    big = _card_tests(_synthetic(tmp_path, 800, 80), monkeypatch)
    # four times the cards and the effects: about four times the tests (sixteen, card by card)
    assert small > 0
    assert big <= 4.4 * small, (small, big)


def test_the_synthetic_file_lints_clean(tmp_path):
    assert lint_model(_synthetic(tmp_path, 50, 10)) == []
