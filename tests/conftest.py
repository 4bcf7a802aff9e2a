"""Shared by the tests.

Tests marked `slow` (long simulations, whole oracles, long fuzzing) run only when asked:
`pytest -m slow` (or any -m expression naming slow), or TAV_SLOW=1.

The tests load, compile and play rules in this process as the `tav` command does, so the
session starts as the command does: with Python's recursion limit raised for deep rules.
"""
from __future__ import annotations

import os

import pytest

from tavernlang.loader import allow_deep_rules

allow_deep_rules()


def pytest_collection_modifyitems(config, items):
    if "slow" in (config.getoption("-m") or "") or os.environ.get("TAV_SLOW") == "1":
        return
    skip = pytest.mark.skip(reason="slow: run with -m slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
