"""Where the generated code's lines come from (engine/writer.py, engine/common.py `located`):
each generated line keeps the span of the rules statement it was written for, with the game
that generated it (in its generated module's namespace), not in a table of the engine's that
grows with every compile. A fault in the rules is reported at its rules line, however many
games were compiled before."""
from __future__ import annotations

import gc
import sys
import weakref

import pytest

from tavernlang import GameError, compile_file, playout
from tavernlang.engine.common import SPANS

FAULTY = ('game "Bad"\nplayers 2..2\ncounter coins per player = 0\nvar who: player\n'
          'rounds 1 {\n  phase a { gain 1 coins to who }\n}\nwinner: highest coins\n')


def _engine_tables() -> dict:
    """The sizes of every dict, list and set held at module level by an engine module."""
    sizes = {}
    for name, mod in list(sys.modules.items()):
        if name.startswith("tavernlang.engine"):
            for attr, v in vars(mod).items():
                if isinstance(v, (dict, list, set)):
                    sizes[(name, attr)] = len(v)
    return sizes


def test_compiling_a_game_many_times_grows_no_table_of_the_engine(tmp_path):
    f = tmp_path / "bad.tav"
    f.write_text(FAULTY)
    compile_file(f).playouts()  # (every module loaded, both flavours compiled once)
    before = _engine_tables()
    for _ in range(5):
        compile_file(f).playouts()
    assert _engine_tables() == before


def test_a_compiled_game_and_its_spans_are_freed_with_it(tmp_path):
    f = tmp_path / "bad.tav"
    f.write_text(FAULTY)
    g = compile_file(f)
    spans = g.namespace[SPANS]
    assert spans and all(isinstance(v, list) for v in spans.values())
    files = set(spans)
    ref = weakref.ref(g)
    del g, spans
    gc.collect()
    assert ref() is None
    assert not any(isinstance(o, dict) and not files.isdisjoint(o) for o in gc.get_objects())


@pytest.mark.parametrize("compiled_before", [0, 30])
def test_a_fault_in_the_rules_is_reported_at_its_rules_line(tmp_path, compiled_before):
    f = tmp_path / "bad.tav"
    f.write_text(FAULTY)
    for _ in range(compiled_before):
        compile_file(f)
    with pytest.raises(GameError) as e:
        playout(compile_file(f), 2, 1)
    assert "a value here is none" in str(e.value)
    assert (e.value.span.line, e.value.span.col) == (6, 13)


def test_each_game_places_its_faults_in_its_own_rules(tmp_path):
    a, b = tmp_path / "a.tav", tmp_path / "b.tav"
    a.write_text(FAULTY)
    b.write_text(FAULTY.replace("rounds 1 {\n", "rounds 1 {\n\n\n"))  # (the same fault, two lines down)
    ga, gb = compile_file(a), compile_file(b)
    for g, path, line in ((gb, b, 8), (ga, a, 6)):
        with pytest.raises(GameError) as e:
            playout(g, 2, 1)
        assert (e.value.span.file, e.value.span.line) == (str(path), line)
