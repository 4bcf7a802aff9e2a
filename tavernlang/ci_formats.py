"""Errors and lint findings in the formats of code-scanning tools (`tav check` and `tav lint` with
`--format sarif|github`):

- **sarif**: one SARIF 2.1.0 log (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), a run of the
  tool `tav` whose results carry their code (`ruleId`), level, message and place (a region of
  1-based lines and columns counted in characters, the end column exclusive), and the other
  places of their notes as related locations; a lint run lists the rules it knows.
- **github**: one GitHub Actions workflow command per error,
  `::error file=F,line=L,col=C,endLine=L2,endColumn=C2,title=T::message`, which GitHub shows as
  an annotation on the line of the file.

This module imports neither the engine nor the linter.
"""
from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import quote

from .errors import Span

SARIF_SCHEMA = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
LEVELS = {"error": "error", "warning": "warning", "note": "note"}


def _uri(file: str) -> str:
    """A file's name as a SARIF artifact URI: a relative path stays relative (resolved against
    the folder the command ran in), an absolute one is a file: URI."""
    if os.path.isabs(file):
        return Path(file).as_uri()
    return quote(file.replace(os.sep, "/"), safe="/")


def _region(sp: Span) -> dict:
    r = {"startLine": max(1, sp.line), "startColumn": max(1, sp.col)}
    end_line = sp.end_line or sp.line
    if end_line >= sp.line:
        r["endLine"] = end_line
        if sp.end_col and (end_line > sp.line or sp.end_col > sp.col):
            r["endColumn"] = sp.end_col
    return r


def _location(sp: Span, message: str | None = None) -> dict:
    loc: dict = {"physicalLocation": {"artifactLocation": {"uri": _uri(sp.file)}, "region": _region(sp)}}
    if message is not None:
        loc["message"] = {"text": message}
    return loc


def _version() -> str | None:
    try:
        from importlib.metadata import PackageNotFoundError, version
        return version("tavernlang")
    except (ImportError, PackageNotFoundError):
        return None


def sarif(items, rules=None) -> dict:
    """A SARIF 2.1.0 log of one run of tav. `items`: (code, level, span, message, notes) with
    notes as (span, message) pairs; `rules`: (code, name, summary) of every rule the run checked
    (lint), or None."""
    driver: dict = {"name": "tav", "informationUri": "https://pypi.org/project/tavernlang/"}
    v = _version()
    if v:
        driver["version"] = v
    index = {}
    if rules is not None:
        driver["rules"] = [{"id": code, "name": name, "shortDescription": {"text": summary}}
                           for code, name, summary in rules]
        index = {code: i for i, (code, _, _) in enumerate(rules)}
    results = []
    for code, level, span, message, notes in items:
        r: dict = {}
        if code:
            r["ruleId"] = code
            if code in index:
                r["ruleIndex"] = index[code]
        r["level"] = LEVELS.get(level, "error")
        r["message"] = {"text": message}
        r["locations"] = [_location(span)]
        if notes:
            r["relatedLocations"] = [dict(_location(sp, msg), id=i) for i, (sp, msg) in enumerate(notes)]
        results.append(r)
    return {"$schema": SARIF_SCHEMA, "version": "2.1.0",
            "runs": [{"tool": {"driver": driver}, "columnKind": "unicodeCodePoints", "results": results}]}


def _escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(s: str) -> str:
    return _escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github(items) -> list[str]:
    """GitHub Actions annotations, one line per item (as `sarif` takes them); a note's place is
    told in the message, as GitHub shows one place per annotation."""
    lines = []
    for code, level, span, message, notes in items:
        kind = level if level in ("error", "warning", "notice") else "notice" if level == "note" else "error"
        props = [f"file={_escape_property(span.file)}", f"line={span.line}", f"col={span.col}"]
        if span.end_line:
            props.append(f"endLine={span.end_line}")
            if span.end_col:
                props.append(f"endColumn={span.end_col}")
        props.append(f"title={_escape_property(f'tav ({code})' if code else 'tav')}")
        text = f"{code} {message}" if code else message
        for sp, msg in notes:
            text += f"\n{sp}: note: {msg}"
        lines.append(f"::{kind} {','.join(props)}::{_escape_data(text)}")
    return lines


def of_diagnostics(diags) -> list[tuple]:
    """Errors of rules files (errors.Diagnostic) as items."""
    return [(d.code, d.severity, d.span, d.message, [(n.span, n.message) for n in d.notes]) for d in diags]


def of_findings(findings) -> list[tuple]:
    """Lint findings as items: a finding fails `tav lint`, so each is an error."""
    return [(f.code, "error", f.span, f.message, [(n.span, n.message) for n in f.notes]) for f in findings]
