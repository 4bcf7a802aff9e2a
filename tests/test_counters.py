"""Counters: a range bound may be any expression, a quantifier too."""
from __future__ import annotations


def test_counter_range_bound_with_a_quantifier(rules_file, passing_scenarios):
    """A counter's range bound may count with a quantifier (the bound is worked out per player)."""
    passing_scenarios(rules_file("c.tav", '''
game "Range with a quantifier"
players 2..3
kind Mug
card "Mug" x3: Mug
counter ale per player = 0 in 0..count(c in cards where c is Mug or true)
scenario "the bound counts the mugs" players 2 { run { gain 5 ale } expect me.ale == 3 }
'''))
