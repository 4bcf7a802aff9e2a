"""Every syntax error of a file is reported, not only the first: after an error the
parser starts again at the next declaration, each error at its own place."""
from __future__ import annotations

import pytest

from tavernlang.errors import TavError
from tavernlang.syntax.parser import MAX_SYNTAX_ERRORS, parse

TEXT = ('game "G"\nplayers 2\ncounter c = 0\naction a "a" { gain 1 c c }\nzone z shared\n'
        'action b "b" {\n  gain 1 c\n  move }\n}\nwinner: highest c\n')


def test_each_broken_declaration_is_reported():
    with pytest.raises(TavError) as e:
        parse(TEXT, "m.tav")
    places = [(d.span.line, d.span.col) for d in e.value.diagnostics]
    assert places == [(4, 25), (5, 8), (8, 8)], [d.render() for d in e.value.diagnostics]


def test_one_error_is_one_diagnostic():
    with pytest.raises(TavError) as e:
        parse('game "G"\nplayers 2 3\ncounter c = 0\n', "m.tav")
    assert len(e.value.diagnostics) == 1


def test_the_errors_are_bounded():
    with pytest.raises(TavError) as e:
        parse('game "G"\n' + "zone z shared\n" * 500, "m.tav")
    assert len(e.value.diagnostics) == MAX_SYNTAX_ERRORS
