"""`tav mutate`: which rules does no scenario pin? Mutation testing of rules files.

:mod:`.operators` makes the mutants (small changes to the checked syntax tree of a
game); :mod:`.run` runs the scenarios that reach the game against each of them;
:mod:`.command` is the `tav mutate` command. See docs/mutate.md.
"""
from __future__ import annotations

from .operators import Mutant, mutants
from .run import Report, Result, find_scenario_files, mutate

__all__ = ["Mutant", "mutants", "Report", "Result", "find_scenario_files", "mutate"]
