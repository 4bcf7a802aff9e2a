"""The project file: settings of `tav` for the rules files of a folder, as ruff and pytest read theirs.

`tav` looks in the current folder and then in each folder above it for a `tav.toml`, or a
`pyproject.toml` with a `[tool.tav]` table; the first folder that has one gives the project file
(a `tav.toml` wins over a `pyproject.toml` beside it; a `pyproject.toml` without `[tool.tav]` is
passed over). `tav --config FILE` names the file (read as a tav.toml unless it is named
pyproject.toml); `tav --isolated` reads none.

    [tool.tav]               # in a tav.toml: the same keys, without this header
    players = 4              # the default of --players (run, play, sim, compare, report, lint --simulate)
    bots = "greedy,random"   # the default of --bots (the same commands)
    max-steps = 1000000      # the budgets of `tav --max-steps`, --max-log, --max-seconds, --max-memory
    max-log = 20000
    max-seconds = 60
    max-memory = 4096

    [tool.tav.lint]          # in a tav.toml: [lint]
    select = ["TAV1", "TAV7"]
    ignore = ["TAV105"]

A flag on the command line wins over the file. A key or a value the file should not have is a
usage error (exit 2) at its place: `FILE:LINE:COL: error: message`.

This module reads TOML and nothing of the engine, so `tav check` starts as fast with a project
file as without.
"""
from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import click

from .errors import did_you_mean

BUDGETS = ("max-steps", "max-log", "max-seconds", "max-memory")
KEYS = {"players": "a whole number of players, at least 1", "bots": "a string such as \"greedy\" or \"mcts:50,random\"",
        "max-steps": "a whole number, at least 1", "max-log": "a whole number, at least 1",
        "max-seconds": "a whole number, at least 1", "max-memory": "a whole number of MB (0: no limit)",
        "lint": "a table of 'select' and 'ignore'"}
LINT_KEYS = {"select": "a list of lint codes (strings such as \"TAV1\")",
             "ignore": "a list of lint codes (strings such as \"TAV105\")"}
PLAYING = ("run", "play", "sim", "compare", "report")  # the commands with --players and --bots
_BOTS_PARAM = {"lint": "bots"}  # the name of --bots's parameter where it is not `bots_spec`


class ProjectError(Exception):
    """A project file that cannot be used: FILE:LINE:COL and a message (exit 2)."""

    def __init__(self, file: str, line: int, col: int, message: str) -> None:
        super().__init__(f"{file}:{line}:{col}: error: {message}")


@dataclass
class Project:
    """The settings of a project file: `values` by key ("players", "max-steps", "lint.select"...)."""
    path: str
    text: str
    table: tuple[str, ...]  # the table of tav's keys: ("tool", "tav") in a pyproject.toml, () in a tav.toml
    values: dict = field(default_factory=dict)

    def place(self, key: str) -> tuple[int, int]:
        """The line and column of a key ("players", "lint.select"), or of the file's tav table,
        or 1:1."""
        *sub, name = key.split(".")
        table = self.table + tuple(sub)
        found = _locate(self.text, table, name)
        if found is None and table:
            found = _locate_table(self.text, table)
        return found or (1, 1)

    def error(self, key: str, message: str) -> ProjectError:
        line, col = self.place(key)
        return ProjectError(self.path, line, col, message)

    def setting(self, key: str) -> str:
        """How the file names a key, in messages ('players = 5 in tav.toml')."""
        v = self.values[key]
        shown = f'"{v}"' if isinstance(v, str) else str(v)
        return f"{key.split('.')[-1]} = {shown} in {self.path}"

    def default_map(self) -> dict:
        """Click's defaults of the commands' options, from the file."""
        out: dict = {}
        for cmd in PLAYING + ("lint",):
            d = out.setdefault(cmd, {})
            if "players" in self.values:
                d["players"] = self.values["players"]
            if "bots" in self.values:
                d[_BOTS_PARAM.get(cmd, "bots_spec")] = self.values["bots"]
        for k in ("select", "ignore"):
            if f"lint.{k}" in self.values:
                out["lint"][k] = list(self.values[f"lint.{k}"])
        return {c: d for c, d in out.items() if d}


def find(start: Path) -> Path | None:
    """The project file for a folder: the nearest `tav.toml`, or `pyproject.toml` with a
    `[tool.tav]` table, in it or above it."""
    for folder in (start, *start.parents):
        own = folder / "tav.toml"
        if own.is_file():
            return own
        py = folder / "pyproject.toml"
        if py.is_file() and _has_tav_table(py):
            return py
    return None


def _has_tav_table(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    if not re.search(r"tool\s*\.\s*[\"']?tav\b|^\s*\[\s*tool\s*\]", text, re.M):
        return False  # (most pyproject.toml files: no need to parse them)
    import tomllib
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return bool(re.search(r"^\s*\[\s*tool\s*\.\s*tav\s*[.\]]", text, re.M))  # (its errors said by `load`)
    tool = data.get("tool")
    return isinstance(tool, dict) and "tav" in tool


def _shown(path: Path) -> str:
    """A path as messages show it: relative to the current folder when that is shorter."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # (another drive)
        return str(path)
    return rel if len(rel) < len(str(path)) else str(path)


def load(path: Path) -> Project:
    """Read and check a project file (ProjectError: at the place of what is wrong)."""
    import tomllib

    shown = _shown(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ProjectError(shown, 1, 1, "no such project file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise ProjectError(shown, 1, 1, f"cannot read this project file: {getattr(e, 'strerror', None) or e}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        msg = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e)) or "invalid TOML"
        line, col = (int(m.group(1)), int(m.group(2))) if m else (1, 1)
        raise ProjectError(shown, line, col, f"not valid TOML: {msg[0].lower() + msg[1:]}") from None
    table: tuple[str, ...] = ()
    if path.name == "pyproject.toml":  # (any other name: a tav.toml's layout, as ruff reads --config)
        table = ("tool", "tav")
        tav = data.get("tool", {}).get("tav", {}) if isinstance(data.get("tool"), dict) else {}
    else:
        tav = data
    proj = Project(shown, text, table)
    if not isinstance(tav, dict):
        raise proj.error("", f"[{'.'.join(table)}] must be a table")
    _check(proj, tav, "", KEYS)
    lint = tav.get("lint", {})
    if not isinstance(lint, dict):
        raise proj.error("lint", f"'lint' must be {KEYS['lint']}")
    _check(proj, lint, "lint.", LINT_KEYS)
    for k, v in tav.items():
        if k == "lint":
            continue
        if k == "bots":
            if not isinstance(v, str) or not v.strip():
                raise proj.error(k, f"'bots' must be {KEYS['bots']}, not {_toml(v)}")
        else:
            low = 0 if k == "max-memory" else 1
            if isinstance(v, bool) or not isinstance(v, int) or v < low:
                raise proj.error(k, f"'{k}' must be {KEYS[k]}, not {_toml(v)}")
        proj.values[k] = v
    for k, v in lint.items():
        if not isinstance(v, list) or not all(isinstance(c, str) and c.strip() for c in v):
            raise proj.error(f"lint.{k}", f"'{k}' must be {LINT_KEYS[k]}, not {_toml(v)}")
        proj.values[f"lint.{k}"] = [c.strip() for c in v]
    return proj


def _check(proj: Project, table: dict, prefix: str, known: dict) -> None:
    for k in table:
        if k not in known:
            where = ".".join(proj.table + tuple(p for p in prefix.split(".") if p))
            head = f"unknown key '{k}' in [{where}]" if where else f"unknown key '{k}'"
            raise proj.error(prefix + k, head + did_you_mean(k, known) + f"; known: {', '.join(known)}")


def _toml(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    if isinstance(v, dict):
        return "a table"
    return str(v) if not isinstance(v, list) else "a list" if v else "an empty list"


_HEADER = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$")


def _header(line: str) -> tuple[str, ...] | None:
    m = _HEADER.match(line)
    if m is None or line.lstrip().startswith("[["):
        return None
    return tuple(p.strip().strip('"\'') for p in m.group(1).split("."))


def _locate(text: str, table: tuple[str, ...], key: str) -> tuple[int, int] | None:
    """Where `key` is set in `table` (as `key = ...` under its header, or as a dotted key
    `a.key = ...` under a header above it), as (line, column)."""
    current: tuple[str, ...] = ()
    for i, line in enumerate(text.split("\n"), 1):
        h = _header(line)
        if h is not None:
            current = h
            continue
        m = re.match(r"^(\s*)([A-Za-z0-9_.\-\"' ]+?)\s*=", line)
        if m is None:
            continue
        dotted = tuple(p.strip().strip('"\'') for p in m.group(2).split("."))
        if current + dotted[:-1] == table and dotted[-1] == key:
            return i, len(m.group(1)) + 1 + m.group(2).rfind(key) if len(dotted) > 1 else len(m.group(1)) + 1
    return None


def _locate_table(text: str, table: tuple[str, ...]) -> tuple[int, int] | None:
    for i, line in enumerate(text.split("\n"), 1):
        if _header(line) == table:
            return i, line.index("[") + 1
    return None


def fail(err: ProjectError):
    """Say a project file's error and exit 2 (a usage error, as ruff's and pytest's)."""
    click.echo(str(err), err=True)
    sys.exit(2)


def current() -> Project | None:
    """The project file the running `tav` command read (None: none, or no command running)."""
    ctx = click.get_current_context(silent=True)
    return ctx.find_root().meta.get("tav.project") if ctx is not None else None


def from_file(param: str) -> Project | None:
    """The project file, when the value of the running command's parameter `param` came from it
    (not from the command line)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None:
        return None
    from click.core import ParameterSource
    if ctx.get_parameter_source(param) is ParameterSource.DEFAULT_MAP:
        return current()
    return None
