"""The checked model's contract: what GameModel.refs and GameModel.types hold.

Every resolution the checker writes is one of the records declared in check/model.py (never a
bare tuple), each record still equals the tagged tuple it replaced, the module's table documents
every record, and every stored type is a Type."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from tavernlang.check import model as M
from tavernlang.check.checker import check
from tavernlang.check.model import GameModel
from tavernlang.errors import SourceCache, TavError
from tavernlang.loader import read_decls

ROOT = Path(__file__).resolve().parent.parent
RULES = sorted(p for d in ("games", "examples", "tests") for p in (ROOT / d).rglob("*.tav"))


def _checked(path: Path) -> GameModel | None:
    """The model the checker built for a rules file, errors or not (None: it does not parse)."""
    sources = SourceCache()
    try:
        decls = read_decls(path, sources)
    except (TavError, RecursionError):
        return None
    m = GameModel(path=str(path), sources=sources)
    m.decls = list(decls)
    try:
        check(decls, m)
    except RecursionError:
        return None
    return m


# a kind's def reading its card's own zone and another def of the kind by bare name (no shipped
# rules file does)
KIND_SELF = """game "Crates"
players 2
kind Crate { room: int = 3, zone inside: public, def used: int = size(inside), def left: int = room - used }
card "Box": Crate
zone pile: public
setup { }
winner: highest count(c in pile where c.left > 0)
"""


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> list[GameModel]:
    extra = tmp_path_factory.mktemp("rules") / "kind_self.tav"
    extra.write_text(KIND_SELF)
    out = [m for m in map(_checked, RULES) if m is not None]
    assert len(out) > 100  # the shipped games, examples and test files
    m = _checked(extra)
    assert m is not None
    return out + [m]


def test_every_resolution_the_checker_writes_is_a_declared_record(models):
    bad = [(m.path, type(r).__name__, r) for m in models for r in m.refs.values()
           if not isinstance(r, M.REF_CLASSES) or M.REF_TAGS.get(r[0]) is not type(r)]
    assert not bad, bad[:10]


def test_every_declared_record_is_written_for_some_shipped_rules_file(models):
    seen = {r.tag for m in models for r in m.refs.values()}
    assert seen == set(M.REF_TAGS), f"never written: {sorted(set(M.REF_TAGS) - seen)}"


def test_every_type_the_checker_stores_is_a_type_value(models):
    bad = [(m.path, t) for m in models for t in m.types.values() if not isinstance(t, M.Type)]
    for m in models:
        infos = [*m.options.values(), *m.vars.values(), *m.attrs_by_name.values(),
                 *m.defs.values(), *m.effects.values(), *m.actions.values(), *m.kind_defs.values()]
        bad += [(m.path, i.type) for i in infos if not isinstance(i.type, M.Type)]
        bad += [(m.path, t) for c in (*m.defs.values(), *m.effects.values()) for _, t in c.params
                if not isinstance(t, M.Type)]
    assert not bad, bad[:10]


def test_a_record_equals_and_hashes_like_the_tagged_tuple_it_replaced():
    r = M.CounterRef("pcounter", 3)
    assert r == ("pcounter", 3) and hash(r) == hash(("pcounter", 3))
    assert r[0] == "pcounter" and r.slot == 3 and r.whose == "player"
    assert M.SelfAttrRef("selfattr", 1, 4, True) == ("selfattr", 1, 4, True)
    assert M.JOIN == ("join",)
    assert M.CounterRef("counter", 3) != M.VarRef("var", 3)


def test_variants_of_a_record_differ_by_a_field_derived_from_the_tag():
    assert [M.CounterRef(t, 0).whose for t in ("counter", "mecounter", "pcounter")] == ["shared", "me", "player"]
    assert [M.VarRef(t, 0).whose for t in ("var", "pvar")] == ["shared", "player"]
    assert [M.ZoneRef(t, 0).whose for t in ("zone", "pzone", "czone")] == ["shared", "player", "card"]
    assert [M.CardAttrRef(t, 0).mutable for t in ("cattr", "cvar")] == [False, True]
    assert [M.EffectRef(t, "x").is_action for t in ("effect", "action")] == [False, True]


def _table() -> dict[str, set[str]]:
    """The model module's documenting table: record name -> its tags."""
    rows = re.findall(r"^\| (\w+Ref) \| ([^|]+) \|", M.__doc__ or "", re.M)
    return {name: {t.strip() for t in tags.split(",")} for name, tags in rows}


def test_the_model_docstring_tables_every_record_with_its_tags():
    table = _table()
    assert set(table) == {c.__name__ for c in M.REF_CLASSES}
    for cls in M.REF_CLASSES:
        assert table[cls.__name__] == {t for t, c in M.REF_TAGS.items() if c is cls}, cls.__name__


def test_a_record_that_names_a_declaration_says_which_kind():
    nameless = {M.PropRef, M.ValuesRef, M.JoinRef}
    for tag, cls in M.REF_TAGS.items():
        r = cls(tag, *([0] * (len(cls._fields) - 1)))
        assert bool(M.declared_as(r)) == (cls not in nameless), tag


def test_a_type_answers_what_the_tools_ask_of_it():
    t = M.list_of(M.Type.enum_named("Suit"))
    assert t == "list:enum:Suit" and t.is_list and t.list_enum == "Suit"
    assert t.elem == "enum:Suit" and t.elem is not None and t.elem.enum == "Suit"
    assert t.show() == "list of Suit" and M.show(t) == "list of Suit"
    assert M.ZONE.elem == M.CARD and M.ZONE.list_elem is None and M.ZONE.holds_cards
    assert M.list_of(M.CARD).holds_cards and not M.list_of(M.INT).holds_cards
    assert M.INT.elem is None and M.INT.enum is None and M.ANY.elem == M.ANY
