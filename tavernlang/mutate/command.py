"""The `tav mutate` command (a click command object, added to the `tav` group by the CLI).

    tav mutate FILE [--tests PATH...] [--jobs N] [--json] [--stand-ins] [--only PATH[:LINE[-LINE]]...]
               [--operator OP...]

Each surviving mutant prints as ``FILE:LINE:COL: survived: <what was changed>`` with
its source line and a caret, each one marked equivalent as ``FILE:LINE:COL: equivalent:
<what was changed>: <the marker's reason>``, then the counts and the mutation score: the
killed mutants over those neither marked equivalent nor of data marked `# tav: stand-in`
(run but not scored; `--stand-ins` lists their survivors too). Exit code 0 when every mutant is killed or marked equivalent (or stand-in), 1 when
unmarked survivors remain (or the file does not load, or a marker is without reason or
marks nothing), 2 for a wrong command line.
"""
from __future__ import annotations

import json
import re
import sys

import click

from ..errors import _excerpt
from ..guard import guarded
from ..paths import RulesPath
from .operators import OPERATORS, RULE_OPERATORS, VALUE_OPERATORS


def _place(sp) -> dict:
    return {"file": sp.file, "line": sp.line, "col": sp.col, "end_line": sp.end_line, "end_col": sp.end_col}


def report_json(rep) -> dict:
    return {
        "file": rep.file,
        "mutants": rep.mutants,
        "killed": rep.killed,
        "equivalent": rep.equivalent,
        "stand_in": rep.stand_in,
        "survived": [dict(_place(r.mutant.span), change=r.mutant.change, operator=r.mutant.op)
                     for r in rep.survivors],
        "stand_in_survived": [dict(_place(r.mutant.span), change=r.mutant.change, operator=r.mutant.op,
                                   reason=r.stand_in) for r in rep.stand_in_survivors],
        "equivalents": [dict(_place(r.mutant.span), change=r.mutant.change, operator=r.mutant.op,
                             reason=r.equivalent) for r in rep.equivalents],
        "timeouts": rep.timeouts,
        "invalid": rep.invalid,
        "scored": rep.scored,
        "scored_killed": rep.scored_killed,
        "judged": rep.judged,
        "score": round(rep.score, 4),
        "scenario_files": [t.path for t in rep.targets],
        "scenarios": sum(len(t.scenarios) for t in rep.targets),
        "left_out": [dict(_place(sp), title=title, why=why) for sp, title, why in rep.left_out],
        "unused_markers": [dict(_place(sp), message=rep.problems.get(sp)) for sp in rep.unused_markers],
        "markers_without_reason": [dict(_place(sp), message=rep.problems.get(sp)) for sp in rep.bad_markers],
        "seconds": round(rep.seconds, 2),
        "operators": by_operator(rep),
    }


def by_operator(rep) -> dict:
    """For each operator that made a (valid) mutant: its mutants, killed, equivalent, survived
    and stand-in counts."""
    out: dict = {}
    for r in rep.results:
        if r.status == "invalid":
            continue
        c = out.setdefault(r.mutant.op, {"mutants": 0, "killed": 0, "equivalent": 0, "survived": 0, "stand_in": 0})
        c["mutants"] += 1
        if r.stand_in:
            c["stand_in"] += 1
        if r.status in ("killed", "timeout"):
            c["killed"] += 1
        elif r.stand_in:
            pass
        elif r.equivalent:
            c["equivalent"] += 1
        else:
            c["survived"] += 1
    return out


def report_text(rep, stand_ins: bool = False) -> tuple[list[str], list[str]]:
    """(standard output: the survivors, the equivalents with their reasons and the marker
    problems; error output: notes and summary).
    `stand_ins`: list the survivors of stand-in data too."""
    out, err = [], []
    for sp, title, why in rep.left_out:
        err.append(f"{sp}: warning: scenario '{title}' fails without any mutant, so it is left out: {why}")
    for r in rep.survivors:
        out.append(f"{r.mutant.span}: survived: {r.mutant.change}")
        out.extend(_excerpt(r.mutant.span, rep.sources))
    for r in rep.equivalents:
        out.append(f"{r.mutant.span}: equivalent: {r.mutant.change}: {r.equivalent}")
    if stand_ins:
        for r in rep.stand_in_survivors:
            out.append(f"{r.mutant.span}: survived (stand-in, not scored): {r.mutant.change}")
            out.extend(_excerpt(r.mutant.span, rep.sources))
    for sp in rep.bad_markers:
        out.append(f"{sp}: error: {rep.problems.get(sp, 'a marker must say why')}")
        out.extend(_excerpt(sp, rep.sources))
    for sp in rep.unused_markers:
        out.append(f"{sp}: error: {rep.problems.get(sp, 'the marker marks nothing')}")
        out.extend(_excerpt(sp, rep.sources))
    n_sc = sum(len(t.scenarios) for t in rep.targets)
    stand = ""
    if rep.stand_in or rep.equivalent:
        stand = f" ({rep.scored_killed} of {rep.judged})"
    if rep.stand_in:
        n = len(rep.stand_in_survivors)
        stand += (f"; {rep.stand_in} mutants of stand-in data not scored"
                  + (f", {n} of them survived" if n else ""))
    err.append(f"{rep.file}: {rep.mutants} mutants, {rep.killed} killed"
               + (f" ({rep.timeouts} by the time limit)" if rep.timeouts else "")
               + f", {rep.equivalent} equivalent, {len(rep.survivors)} survived: score {rep.score:.1%}" + stand
               + f" ({n_sc} scenarios in {len(rep.targets)} files, {rep.seconds:.1f} s"
               + (f"; {rep.invalid} mutants that do not check left out" if rep.invalid else "") + ")")
    return out, err


def expand_operators(names) -> set[str] | None:
    """The operators named on the command line, `values` and `rules` standing for their groups
    (None: all of them)."""
    out: set[str] = set()
    for n in names:
        out.update(VALUE_OPERATORS if n == "values" else RULE_OPERATORS if n == "rules" else (n,))
    return out or None


_RANGE = re.compile(r"^(.*?):(\d+)(?:-(\d+))?$")


def parse_only(text: str) -> tuple[str, int | None, int | None]:
    """`PATH`, `PATH:LINE` or `PATH:FIRST-LAST` -> (PATH, first, last); ValueError if the lines
    are no range."""
    mt = _RANGE.match(text)
    if mt is None or not mt.group(1):
        if not text:
            raise ValueError("--only: give a file of the game, PATH[:LINE[-LINE]]")
        return text, None, None
    lo = int(mt.group(2))
    hi = int(mt.group(3)) if mt.group(3) is not None else lo
    if lo < 1 or hi < lo:
        raise ValueError(f"--only {text}: the lines must be LINE or FIRST-LAST with 1 <= FIRST <= LAST")
    return mt.group(1), lo, hi


def _usage(message: str):
    """A wrong command line: one line on the error output, exit 2."""
    click.echo(f"tav mutate: error: {message}", err=True)
    sys.exit(2)


@click.command("mutate")
@click.argument("file", type=RulesPath())
@click.option("--tests", "tests", multiple=True, type=RulesPath(folders=True), metavar="PATH",
              help="Scenario files or folders to run (default: every file under tests/ that includes or "
                   "extends FILE). Repeat for several.")
@click.option("--jobs", "-j", type=click.IntRange(1), default=1, show_default=True,
              help="Run the mutants on this many processes.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
@click.option("--time-limit", type=click.FloatRange(0.1), default=None, metavar="SECONDS",
              help="Stop a mutant's scenarios after this long and count it killed "
                   "[default: 20 x the unmutated run + 10 s].")
@click.option("--progress/--no-progress", default=None,
              help="Show how far the run is on the error output [default: when it is a terminal].")
@click.option("--only", "only", multiple=True, metavar="PATH[:LINE[-LINE]]",
              help="Make only the mutants that start in this file of the game (a path from here, or as "
                   "the game includes it), or in these lines of it. Repeat for several.")
@click.option("--operator", "operators", multiple=True, type=click.Choice(OPERATORS + ("values", "rules")),
              metavar="OP",
              help="Make only the mutants of this operator (or of every operator on values, or on "
                   "rules). Repeat for several.")
@click.option("--stand-ins", "stand_ins", is_flag=True,
              help="List the survivors of stand-in data too (marked '# tav: stand-in'; never scored).")
@guarded
def mutate(file, tests, jobs, as_json, time_limit, progress, only, operators, stand_ins):
    """Change the rules of FILE one small step at a time and report the changes no scenario notices."""
    from .run import OnlyError
    from .run import mutate as run

    places = []
    for o in only:
        try:
            places.append(parse_only(o))
        except ValueError as e:
            _usage(str(e))

    show = sys.stderr.isatty() if progress is None else progress

    def tick(done, total, _r):
        if show and (done % 10 == 0 or done == total):
            click.echo(f"\r{done}/{total} mutants", err=True, nl=done == total)

    try:
        rep = run(file, list(tests) or None, jobs, tick, time_limit, places or None, expand_operators(operators))
    except OnlyError as e:
        _usage(str(e))
    if as_json:
        click.echo(json.dumps(report_json(rep), indent=2))
    else:
        out, err = report_text(rep, stand_ins)
        if out:
            click.echo("\n".join(out))
        click.echo("\n".join(err), err=True)
    sys.exit(0 if rep.ok else 1)


if __name__ == "__main__":  # pragma: no cover
    mutate()
