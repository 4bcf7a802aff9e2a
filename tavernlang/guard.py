"""How a `tav` command fails: every user-facing failure becomes a message and an exit code.

`guarded` wraps the body of every command (those of cli.py, `tav lint` and `tav mutate`), so
they all say the same thing for the same failure:

- an error in a rules file (TavError): its diagnostics, exit 1;
- a game that did something impossible (GameError): FILE:LINE:COL and the rules line, exit 1;
- rules nested too deeply for Python, memory or `tav --timeout` running out: a message at
  the rules that were running, exit 1;
- Ctrl-C: "interrupted", exit 130; a closed pipe: exit 0 quietly;
- anything else is a bug of tav: "internal error: ..." in one line (TAV_DEBUG=1: the traceback).

A command given `--json` (a parameter named `as_json`) gets its errors as one JSON object on
standard output instead: {"errors": [{file, line, col, message...}]}.

This module imports neither the engine nor the linter (only when a failure needs them), so
`tav check` stays light.
"""
from __future__ import annotations

import functools
import json
import os
import sys

import click

from .errors import GameError, SourceCache, TavError

SOURCES: dict[str, SourceCache] = {}
"""The sources of the games a command compiled, to show rules text under run-time errors:
"current", the last game's; "all", every game's of the command (a comparison has two files)."""


def remember_sources(sources: SourceCache) -> None:
    """Keep a game's sources (as SOURCES says), so that an error of running it shows its rules."""
    SOURCES["current"] = sources
    SOURCES.setdefault("all", SourceCache()).update(sources)


class Timeout(Exception):
    """The time of `tav --timeout` is up."""


def diag_json(d) -> dict:
    """A diagnostic as the JSON object of `--json` output."""
    sp = d.span
    return {"file": sp.file, "line": sp.line, "col": sp.col, "end_line": sp.end_line, "end_col": sp.end_col,
            "severity": d.severity, "message": d.message, **({"code": d.code} if d.code else {})}


def fail_json(diags) -> None:
    """An error of a command given --json: one JSON object on stdout (exit 1)."""
    click.echo(json.dumps({"errors": [diag_json(d) for d in diags]}))
    sys.exit(1)


def _fail_tav(e: TavError) -> None:
    click.echo(e.render(), err=True)
    n = len(e.diagnostics)
    if n > 1:
        click.echo(f"{n} errors", err=True)
    sys.exit(1)


def _fail_at(err: GameError, sources: SourceCache | None, as_json: bool) -> None:
    """A run-time error at its place (with the rules line when its file is known), or `error: ...`
    when it has no place."""
    d = err.diagnostic()
    if as_json:
        fail_json([d])
    click.echo(d.render(sources) if d.span.file != "<builtin>" else f"error: {err}", err=True)
    sys.exit(1)


def guarded(fn):
    """Turn every user-facing failure of a command into a message and an exit code (with --json,
    a JSON object on stdout: {"errors": [{file, line, col, message...}]})."""

    @functools.wraps(fn)
    def wrapper(*a, **kw):
        as_json = kw.get("as_json") is True
        try:
            return fn(*a, **kw)
        except TavError as e:
            if as_json:
                fail_json(e.diagnostics)
            _fail_tav(e)
        except GameError as e:
            _fail_at(e, SOURCES.get("current"), as_json)
        except RecursionError:
            _fail_at(GameError("the rules nest too deeply to run"), None, as_json)
        except (MemoryError, Timeout) as e:  # at the rules that were running, when rules were
            from .engine.budget import out_of_memory
            from .engine.common import located
            span = located(e).span
            err = out_of_memory(span) if isinstance(e, MemoryError) else \
                GameError(f"tav stopped{' here' if span.file != '<builtin>' else ''}: the command's time is up "
                          f"(tav --timeout {e.args[0]})", span)
            _fail_at(err, SOURCES.get("all"), as_json)
        except BrokenPipeError:
            sys.stderr.close()
            sys.exit(0)
        except KeyboardInterrupt:
            click.echo("interrupted", err=True)
            sys.exit(130)
        except (click.ClickException, click.exceptions.Exit, click.Abort, SystemExit):
            raise
        except Exception as e:  # a bug of tav: say so briefly, no traceback
            if os.environ.get("TAV_DEBUG"):
                raise
            click.echo(f"internal error: {type(e).__name__}: {e} (set TAV_DEBUG=1 for details)", err=True)
            sys.exit(1)

    return wrapper
