"""The rules files a command is given: files, folders and `-` (standard input), checked as the
command line is read.

A path that does not exist, cannot be read as rules (a device, a FIFO, a socket, a file over
the loader's size limit, one that cannot be opened) or is a folder where the command plays one
game is a usage error (exit 2), as click reports it, before any rules are read. `tav check`,
`tav test`, `tav lint` and `tav fmt` take folders (every rules file in them that no other file
of the folder includes; for `tav test`, the ones with scenarios) and `-`; so do `tav run` and
`tav info`, for one game read from standard input. Rules read from standard input are named
`<stdin>` in messages, and include files from the working folder's project root.
"""
from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import click

STDIN = "-"
STDIN_NAME = "<stdin>"  # the name of the rules read from standard input, in messages
_READ: dict = {}


class RulesPath(click.ParamType):
    """A rules file (or, with `folders`, a folder of them; with `stdin`, `-`)."""

    name = "path"

    def __init__(self, folders: bool = False, stdin: bool = False):
        self.folders, self.stdin = folders, stdin

    def convert(self, value, param, ctx):
        v = os.fspath(value)
        if v == STDIN:
            if not self.stdin:
                self.fail("reads a rules file, not standard input ('-')", param, ctx)
            return v
        why = refused(v, self.folders)
        if why is not None:
            self.fail(why, param, ctx)
        return v


def refused(path: str, folders: bool) -> str | None:
    """Why the command line's path cannot be read as rules (None: it can)."""
    from .loader import MAX_RULES_FILE
    try:
        st = os.stat(path)  # (never opens: a FIFO would block)
    except FileNotFoundError:
        return f"'{path}' does not exist"
    except (OSError, ValueError) as e:
        return f"cannot read '{path}': {getattr(e, 'strerror', None) or e}"
    if stat.S_ISDIR(st.st_mode):
        return None if folders else f"'{path}' is a folder: give a rules file"
    if not stat.S_ISREG(st.st_mode):
        return f"cannot read '{path}': not a regular file"
    if st.st_size > MAX_RULES_FILE:
        return f"cannot read '{path}': the file is larger than {MAX_RULES_FILE // (1024 * 1024)} MB"
    try:
        with open(path, "rb"):
            pass
    except OSError as e:
        return f"cannot read '{path}': {e.strerror or e}"
    return None


def stdin_text() -> str:
    """Standard input, read once (at most the loader's size limit: more is a usage error)."""
    if _READ.get("stdin") is not sys.stdin:  # (read once per standard input: a test's runner gives each its own)
        _READ.clear()
        _READ["stdin"] = sys.stdin
    if "text" not in _READ:
        from .loader import MAX_RULES_FILE
        data = sys.stdin.buffer.read(MAX_RULES_FILE + 1) if hasattr(sys.stdin, "buffer") else \
            sys.stdin.read(MAX_RULES_FILE + 1).encode("utf-8")
        if len(data) > MAX_RULES_FILE:
            raise click.BadParameter(f"standard input holds more than {MAX_RULES_FILE // (1024 * 1024)} MB",
                                     param_hint="'-'")
        _READ["text"] = data.decode("utf-8", errors="replace")
    return _READ["text"]


def source(path: str) -> tuple[str, dict | None]:
    """(the name to load, the overlay of texts to load it with): standard input as `<stdin>`."""
    if path != STDIN:
        return path, None
    return STDIN_NAME, {Path(STDIN_NAME).resolve(): stdin_text()}


def load_rules(path: str):
    """Parse and check the rules at a command line's path (`-`: standard input)."""
    from .loader import load
    name, overlay = source(path)
    return load(name, overlay=overlay)


def entry_files(folder: Path) -> list[str]:
    """The rules files of a folder that no other file of it includes (a game's data files are
    checked through the game that includes them); only regular files are read."""
    from .errors import TavError
    from .loader import resolve_include
    from .syntax import ast as A
    from .syntax.parser import parse
    files = sorted(f for f in folder.rglob("*.tav") if f.is_file())
    included = set()
    for f in files:
        try:
            decls = parse(f.read_bytes(), str(f)).decls
        except (TavError, OSError):
            continue  # checked as an entry: its error is reported then
        for d in decls:
            if isinstance(d, A.Include):
                try:
                    included.add(resolve_include(f.resolve().parent, d.path).resolve())
                except (OSError, ValueError, RuntimeError):
                    pass
    return [str(f) for f in files if f.resolve() not in included]


def expand(paths) -> list[str]:
    """The command line's paths with each folder replaced by its entry files, each once."""
    out: list[str] = []
    seen: set = set()
    for p in paths:
        found = entry_files(Path(p)) if p != STDIN and Path(p).is_dir() else [p]
        for f in found:
            key = f if f == STDIN else Path(f).resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out
