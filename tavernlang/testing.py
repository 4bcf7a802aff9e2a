"""What `tav test` shares with pytest: `-k EXPR` to pick scenarios by the words of their titles,
and `--junitxml FILE` to write the results as JUnit XML for CI.

A -k expression is words joined by `and`, `or`, `not` and parentheses (`tips and not draw`,
`(a or b) and c`); a word matches a scenario whose title or file name holds it, ignoring case.

The XML is pytest's: `<testsuites><testsuite name="tav test" tests= failures= errors= skipped=
time= timestamp= hostname=>`, a `<testcase classname=FILE name=TITLE file= line= time=>` per
scenario run, with a `<failure message=...>` holding the failed expectations and the
scenario's transcript; a file that does not load is a testcase named after the file with an
`<error>`.
"""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Callable


class KeywordError(ValueError):
    """A -k expression that cannot be read."""


_TOKEN = re.compile(r"\s*(\(|\)|[^\s()]+)")


def keyword_matcher(expr: str) -> Callable[[str, str], bool]:
    """The test of a -k expression: (title, file) -> whether the scenario is selected."""
    tokens = [m.group(1) for m in _TOKEN.finditer(expr)]
    if not tokens:
        raise KeywordError("an empty expression: give words to look for in the scenarios' titles")
    pos = 0

    def peek():
        return tokens[pos] if pos < len(tokens) else None

    def take():
        nonlocal pos
        pos += 1
        return tokens[pos - 1]

    def disjunction():
        left = conjunction()
        while peek() == "or":
            take()
            right = conjunction()
            left = (lambda a, b: lambda t: a(t) or b(t))(left, right)
        return left

    def conjunction():
        left = negation()
        while peek() == "and":
            take()
            right = negation()
            left = (lambda a, b: lambda t: a(t) and b(t))(left, right)
        return left

    def negation():
        if peek() == "not":
            take()
            inner = negation()
            return lambda t: not inner(t)
        return atom()

    def atom():
        tok = peek()
        if tok is None:
            raise KeywordError(f"'{expr}' ends where a word was expected")
        if tok == "(":
            take()
            inner = disjunction()
            if peek() != ")":
                raise KeywordError(f"'{expr}': a '(' is not closed")
            take()
            return inner
        if tok in (")", "and", "or"):
            raise KeywordError(f"'{expr}': '{tok}' where a word was expected")
        word = take().lower()
        return lambda t: word in t

    test = disjunction()
    if peek() is not None:
        raise KeywordError(f"'{expr}': unexpected '{peek()}'")
    return lambda title, file: test(f"{title}\n{file}".lower())


class Report:
    """The results of a `tav test` run, for --junitxml."""

    def __init__(self) -> None:
        self.started = datetime.now(timezone.utc)
        self.cases: list[dict] = []

    def case(self, file: str, result, seconds: float) -> None:
        self.cases.append({"file": file, "name": result.title, "line": result.span.line, "seconds": seconds,
                           "failures": [f"{sp}: {msg}" for sp, msg in result.failures],
                           "transcript": result.transcript()})

    def error(self, file: str, span, text: str) -> None:
        self.cases.append({"file": file, "name": file, "line": span.line if span is not None else 1, "seconds": 0.0,
                           "error": text})

    def write(self, path: str) -> None:
        import socket
        import xml.etree.ElementTree as ET

        failures = sum(1 for c in self.cases if c.get("failures"))
        errors = sum(1 for c in self.cases if "error" in c)
        total = sum(c["seconds"] for c in self.cases)
        suites = ET.Element("testsuites", name="tav test")
        suite = ET.SubElement(suites, "testsuite", name="tav test", errors=str(errors), failures=str(failures),
                              skipped="0", tests=str(len(self.cases)), time=f"{total:.3f}",
                              timestamp=self.started.isoformat(timespec="seconds"), hostname=socket.gethostname())
        for c in self.cases:
            tc = ET.SubElement(suite, "testcase", classname=c["file"], name=c["name"], file=c["file"],
                               line=str(c["line"]), time=f"{c['seconds']:.3f}")
            if "error" in c:
                first = c["error"].split("\n", 1)[0]
                ET.SubElement(tc, "error", message=first).text = c["error"]
            elif c["failures"]:
                ET.SubElement(tc, "failure", message="; ".join(c["failures"])).text = c["transcript"]
        tree = ET.ElementTree(suites)
        ET.indent(tree)
        tree.write(path, encoding="utf-8", xml_declaration=True)
