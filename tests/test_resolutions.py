"""The checked model's contract: what GameModel.refs and GameModel.types hold.

Every resolution the checker writes is one of the records declared in check/model.py (never a
bare tuple), every variant of each is written somewhere, a record equals only a record of its
own class, the module's table documents every record with its fields, and every stored type is
a Type."""
from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import get_args, get_type_hints

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


def _variant(r) -> tuple:
    """A record's class and the fields that say which variant of it it is (whose, mutable,
    is_action)."""
    return (type(r), *(getattr(r, f) for f in ("whose", "mutable", "is_action") if f in r._fields))


def _variants() -> set[tuple]:
    """Every variant of every record: each value a `whose` (a Literal) or a flag field may take."""
    out = set()
    for cls in M.REF_CLASSES:
        hints = get_type_hints(cls)
        choices = [get_args(hints[f]) if f == "whose" else (False, True)
                   for f in ("whose", "mutable", "is_action") if f in cls._fields]
        out |= {(cls, *c) for c in itertools.product(*choices)}
    return out


def _sample(variant: tuple):
    """A record of that variant (its other fields 0)."""
    cls, *picked = variant
    vals, it = [], iter(picked)
    for f in cls._fields:
        vals.append(next(it) if f in ("whose", "mutable", "is_action") else 0)
    return cls(*vals)


def test_every_resolution_the_checker_writes_is_a_declared_record(models):
    bad = [(m.path, type(r).__name__, r) for m in models for r in m.refs.values() if type(r) not in M.REF_CLASSES]
    assert not bad, bad[:10]


def test_every_variant_of_every_record_is_written_for_some_shipped_rules_file(models):
    seen = {_variant(r) for m in models for r in m.refs.values()}
    assert seen == _variants(), f"never written: {sorted(map(str, _variants() - seen))}"


def test_a_record_holds_only_its_fields_and_equals_only_a_record_of_its_class():
    r = M.CounterRef(3, "player")
    assert r._fields == ("slot", "whose") and r.slot == 3 and r.whose == "player"
    assert r == M.CounterRef(3, "player") and hash(r) == hash(M.CounterRef(3, "player"))
    assert r != M.CounterRef(3, "shared") and r != (3, "player")
    assert M.DefRef("x") != M.BuiltinRef("x") and M.DefRef("x") != M.ConstRef("x")
    assert len({M.DefRef("x"), M.BuiltinRef("x"), M.KindDefRef("x")}) == 3
    assert M.LocalRef(3) != M.OptionRef(3) and M.JOIN == M.JoinRef() and M.JOIN != ()
    assert M.SelfAttrRef(1, 4, True) == M.SelfAttrRef(this=1, slot=4, mutable=True)


def test_a_runnable_record_says_the_kind_of_declaration_it_runs():
    assert [M.DefRef("x").kind, M.PhaseRef("x").kind] == ["def", "phase"]
    assert [M.EffectRef("x", a).kind for a in (False, True)] == ["effect", "action"]


def test_is_builtin_asks_a_builtin_by_name_only():
    assert M.is_builtin(M.BuiltinRef("players"), "players", "others")
    assert not M.is_builtin(M.BuiltinRef("round"), "players", "others")
    assert not M.is_builtin(M.DefRef("players"), "players") and not M.is_builtin(None, "players")


def _table() -> dict[str, str]:
    """The model module's documenting table: record name -> its fields column."""
    rows = re.findall(r"^\| (\w+Ref) \| ([^|]+) \|", M.__doc__ or "", re.M)
    return {name: fields for name, fields in rows}


def test_the_model_docstring_tables_every_record_with_its_fields_and_variants():
    table = _table()
    assert set(table) == {c.__name__ for c in M.REF_CLASSES}
    for cls in M.REF_CLASSES:
        col = table[cls.__name__]
        named = {part.split(":")[0].split("(")[0].strip() for part in col.split(";")} - {""}
        assert named == set(cls._fields), (cls.__name__, col)
        for v in _variants():
            if v[0] is cls and "whose" in cls._fields:
                assert re.search(rf"\b{v[1]}\b", col.split("whose:")[1]), (cls.__name__, v)


def test_a_record_that_names_a_declaration_says_which_kind():
    nameless = {M.PropRef, M.ValuesRef, M.JoinRef}
    for v in _variants():
        assert bool(M.declared_as(_sample(v))) == (v[0] not in nameless), v


def test_a_type_answers_what_the_tools_ask_of_it():
    t = M.list_of(M.Type.enum_named("Suit"))
    assert t == "list:enum:Suit" and t.is_list and t.list_enum == "Suit"
    assert t.elem == "enum:Suit" and t.elem is not None and t.elem.enum == "Suit"
    assert t.show() == "list of Suit" and M.show(t) == "list of Suit"
    assert M.ZONE.elem == M.CARD and M.ZONE.list_elem is None and M.ZONE.holds_cards
    assert M.list_of(M.CARD).holds_cards and not M.list_of(M.INT).holds_cards
    assert M.INT.elem is None and M.INT.enum is None and M.ANY.elem == M.ANY
