"""Running the mutants of a game against the scenarios that reach it.

The scenario files are found (by default every rules file under the project's
`tests/` folder that includes or extends the game and declares scenarios), each is
parsed once, and its scenarios are run unchanged first: those that fail without a
mutant are left out (and reported). Then each mutant is applied to the game file's
own parse (a mutant that no longer checks is *invalid* and not counted) and, in turn,
to each scenario file's parse, which is checked, compiled and run in-process; the
first failing scenario kills the mutant (an error or a crash of the rules counts as a
failure, and so does a mutant that runs past its time limit). A mutant no scenario
kills survives, unless its line is marked `# tav: equivalent REASON`. A mutant of data the
rulebook does not give (marked `# tav: stand-in REASON`: a line, the declaration below a
marker on a line of its own, or a whole file) is run too but not scored.
"""
from __future__ import annotations

import multiprocessing as mp
import os
import re
import signal
import time
from pathlib import Path

import attrs

from ..check.checker import check
from ..check.model import GameModel
from ..errors import Diagnostic, SourceCache, Span, TavError
from ..loader import _display, load, project_root, read_decls, stdlib_dir
from ..syntax import ast as A
from .operators import Index, Mutant, mutants

EQUIVALENT = re.compile(r"#\s*tav:\s*equivalent\b[ \t]*(.*?)\s*$")
STAND_IN = re.compile(r"#\s*tav:\s*stand-in\b[ \t]*(.*?)\s*$")


class Timeout(BaseException):
    """A mutant ran past its time limit (a loop that no longer ends, say). A BaseException, so
    that no handler of the rules' faults catches it."""


@attrs.define
class Target:
    """A rules file whose scenarios run against the game, parsed once."""

    path: str
    decls: list
    index: Index
    sources: SourceCache
    changes: list
    base_path: str | None
    scenarios: set  # spans of the scenarios of this file that pass without a mutant
    seconds: float = 0.0  # check, compile and run, unmutated


@attrs.define
class Result:
    mutant: Mutant
    status: str  # killed, survived, invalid, timeout (killed)
    by: str | None = None  # the scenario that killed it ("FILE:LINE:COL: title")
    equivalent: str | None = None  # the reason of its line's marker, for a survivor
    stand_in: str | None = None  # the reason of the stand-in marker covering it (not scored)


@attrs.define
class Marker:
    """A `# tav: equivalent REASON` or `# tav: stand-in REASON` comment. A stand-in marker
    covers a region: its own line (at the end of a line), the declaration that starts on the
    next non-comment line (on a line of its own), or its whole file (`stand-in file`)."""

    span: Span  # the comment
    kind: str  # "equivalent" or "stand-in"
    reason: str
    scope: str = "line"  # line, declaration, file
    region: tuple | None = None  # (file, line, col, end line, end col) covered; None: nothing
    problem: str | None = None  # why it marks nothing (no reason, misplaced)

    def covers(self, sp: Span) -> bool:
        if self.region is None or self.problem:
            return False
        f, l0, c0, l1, c1 = self.region
        return sp.file == f and (l0, c0) <= (sp.line, sp.col) <= (l1, c1)


@attrs.define
class Report:
    file: str
    results: list
    targets: list
    left_out: list  # (span, title, why): scenarios failing without a mutant
    markers: dict  # (file, line) -> (Span, reason): the equivalent markers
    unused_markers: list  # Spans of markers that mark nothing (an equivalent: no survivor on its line)
    bad_markers: list  # Spans of markers without a reason (or misplaced)
    seconds: float
    sources: SourceCache
    groups: list = attrs.field(factory=list)  # what ran: the targets merged where they could be
    stand_in_markers: list = attrs.field(factory=list)  # Markers of kind stand-in
    problems: dict = attrs.field(factory=dict)  # Span of an unused or bad marker -> what to say

    def _count(self, *st):
        return sum(1 for r in self.results if r.status in st)

    @property
    def stand_in(self) -> int:
        """The (valid) mutants of stand-in data: run, not scored."""
        return sum(1 for r in self.results if r.stand_in and r.status in ("killed", "timeout", "survived"))

    @property
    def stand_in_survivors(self) -> list:
        return [r for r in self.results if r.status == "survived" and r.stand_in]

    @property
    def scored(self) -> int:
        """The mutants that count for the score: the valid ones but those of stand-in data."""
        return self.mutants - self.stand_in

    @property
    def scored_killed(self) -> int:
        return sum(1 for r in self.results if r.status in ("killed", "timeout") and not r.stand_in)

    @property
    def mutants(self) -> int:
        return self._count("killed", "timeout", "survived")

    @property
    def killed(self) -> int:
        return self._count("killed", "timeout")

    @property
    def timeouts(self) -> int:
        return self._count("timeout")

    @property
    def invalid(self) -> int:
        return self._count("invalid")

    @property
    def equivalent(self) -> int:
        return len(self.equivalents)

    @property
    def survivors(self) -> list:
        return [r for r in self.results if r.status == "survived" and not r.equivalent and not r.stand_in]

    @property
    def judged(self) -> int:
        """The mutants the score is taken over: the scored ones but those marked equivalent
        (no scenario can tell them from the game)."""
        return self.scored - self.equivalent

    @property
    def equivalents(self) -> list:
        """The survivors marked equivalent (not of stand-in data), each with its marker's reason."""
        return [r for r in self.results if r.status == "survived" and r.equivalent and not r.stand_in]

    @property
    def score(self) -> float:
        """Killed mutants over the (valid) mutants neither of stand-in data nor marked equivalent."""
        return self.scored_killed / self.judged if self.judged else 1.0

    @property
    def ok(self) -> bool:
        return not self.survivors and not self.unused_markers and not self.bad_markers


# ------------------------------------------------------------------ the files
def _is_library(f: str) -> bool:
    try:
        p = Path(f).resolve()
    except (OSError, ValueError):
        return False
    lib = stdlib_dir().resolve()
    return lib in p.parents


def game_files(model: GameModel) -> set[str]:
    """The files whose declarations are mutated: a game's entry file and the files it includes
    (its data), never the standard library; for a variant, its own file only."""
    own = {d.span.file for d in model.decls}
    if getattr(model, "base_path", None):
        return {d.span.file for d in model.decls if Path(d.span.file).resolve() == Path(model.path).resolve()}
    return {f for f in own if not _is_library(f)}


_SCENARIO = re.compile(rb"^\s*scenario\b", re.M)


def find_scenario_files(entry: str, paths: list[str] | None) -> list[str]:
    """The rules files (under `paths`, default the project's tests/ folder) that declare
    scenarios and include or extend the game `entry` (directly or through other files); the
    entry file itself too when it declares scenarios."""
    root = project_root(Path(entry))
    if paths is None:
        paths = [str(root / "tests")] if (root / "tests").is_dir() else []
    want = Path(entry).resolve()
    out: list[str] = []
    cands: list[Path] = [want]
    for p in paths:
        pp = Path(p)
        cands.extend(sorted(pp.rglob("*.tav")) if pp.is_dir() else [pp])
    seen = set()
    for f in cands:
        rf = f.resolve()
        if rf in seen:
            continue
        seen.add(rf)
        try:
            data = rf.read_bytes()
        except OSError:
            continue
        if not _SCENARIO.search(data):
            continue
        if rf == want:
            out.append(_display(rf))
            continue
        try:
            decls = read_decls(f, SourceCache())
        except (TavError, RecursionError, OSError, ValueError):
            continue
        if any(Path(d.span.file).resolve() == want for d in decls):
            out.append(_display(rf))
    return out


def build(path: str, decls: list, sources: SourceCache, changes=(), base_path=None) -> GameModel:
    """Check a list of declarations (as the loader does after reading them): a GameModel, or
    TavError."""
    model = GameModel(path=path, sources=sources)
    model.changes = list(changes)
    model.decls = list(decls)
    model.base_path = base_path
    errors = check(decls, model)
    if errors:
        raise TavError(errors, sources)
    return model


def _target(path: str) -> Target:
    sources = SourceCache()
    decls = read_decls(path, sources)
    return Target(path, list(decls), Index(list(decls)), sources, list(getattr(decls, "changes", [])),
                  str(decls.base_path) if getattr(decls, "base_path", None) else None, set())


def _own_scenarios(game, path: str):
    want = Path(path).resolve()
    return [sc for sc in game.scenarios if Path(sc["decl"].span.file).resolve() == want]


_FIRST: list = []  # spans of the scenarios that killed mutants lately, the latest first (per process)


def run_target(t: Target, decls: list, only=None):
    """Check, compile and run a target's scenarios on `decls`: None when they all pass, else
    (span, title, why) of the first that fails. `only`: the spans of the scenarios to run
    (default: those declared in the target's own file). The scenarios that killed the last
    mutants run first."""
    from ..engine.compile import CompiledGame
    from ..engine.scenario import run_scenario
    from ..errors import GameError

    try:
        model = build(t.path, decls, t.sources, t.changes, t.base_path)
    except TavError as e:
        d = e.diagnostics[0]
        return d.span, "(the file)", f"no longer checks: {d.message}"
    try:
        game = CompiledGame(model)
    except (GameError, TavError) as e:
        return Span(t.path, 1, 1), "(the file)", f"no longer compiles: {e}"
    scs = _own_scenarios(game, t.path) if only is None else [sc for sc in game.scenarios if sc["decl"].span in only]
    rank = {sp: i for i, sp in enumerate(_FIRST)}
    scs.sort(key=lambda sc: rank.get(sc["decl"].span, len(rank)))
    for sc in scs:
        d = sc["decl"]
        try:
            r = run_scenario(game, sc)
        except Timeout:
            raise
        except Exception as e:  # a crash of the rules (or of the engine) is noticed too
            _killer(d.span)
            return d.span, d.title, f"crashed: {type(e).__name__}: {e}"
        if not r.passed:
            _killer(d.span)
            sp, msg = r.failures[0]
            return d.span, d.title, f"{sp}: {msg}"
    return None


def _killer(span) -> None:
    if span in _FIRST:
        _FIRST.remove(span)
    _FIRST.insert(0, span)
    del _FIRST[32:]


def _decl_id(d) -> tuple:
    s = d.span
    return type(d).__name__, s.file, s.line, s.col, s.end_line, s.end_col


def merge(targets: list, transcripts: dict) -> list:
    """The targets as few groups as they can be: the declarations of several scenario files
    (each with the game and the helpers it includes, once) in one list, checked and compiled
    once per mutant instead of once per file. A file joins a group only if the group still
    checks with it; a group is kept only if each of its scenarios gives, unmutated, the very
    transcript it gives alone (`transcripts`: span -> transcript); else its files run alone.
    Variants (`extends`) always run alone."""
    from ..engine.compile import CompiledGame
    from ..engine.scenario import run_scenario

    groups: list[list] = []
    alone: list = []
    for t in targets:
        if t.changes or t.base_path:
            alone.append([t])
            continue
        placed = False
        for g in groups:
            decls, ids, sources = g[0], g[1], g[2]
            extra = [d for d in t.decls if _decl_id(d) not in ids]
            try:
                build(g[3][0].path, decls + extra, _merged_sources(sources, t.sources))
            except (TavError, RecursionError):
                continue
            g[0] = decls + extra
            g[1] = ids | {_decl_id(d) for d in extra}
            g[2] = _merged_sources(sources, t.sources)
            g[3].append(t)
            placed = True
            break
        if not placed:
            groups.append([list(t.decls), {_decl_id(d) for d in t.decls}, t.sources, [t]])
    out = []
    for decls, _ids, sources, members in groups:
        if len(members) == 1:
            out.append(members[0])
            continue
        spans = set().union(*(m.scenarios for m in members))
        g = Target(members[0].path, decls, Index(decls), sources, [], None, spans,
                   sum(m.seconds for m in members))
        ok = True
        try:
            game = CompiledGame(build(g.path, decls, sources))
            for sc in game.scenarios:
                sp = sc["decl"].span
                if sp in spans and run_scenario(game, sc).transcript() != transcripts.get(sp):
                    ok = False
                    break
        except (TavError, RecursionError):
            ok = False
        out.extend([g] if ok else members)
    return out + [a[0] for a in alone]


def _merged_sources(a: SourceCache, b: SourceCache) -> SourceCache:
    out = SourceCache()
    out.update(a)
    out.update(b)
    return out


# ------------------------------------------------------------------ markers
def markers(sources: SourceCache, files) -> dict:
    """The equivalent markers of `files`: (file, line) -> (Span, reason)."""
    out = {}
    for f, i, line, mt in sources.tav_comments(EQUIVALENT, files):
        reason = mt.group(1).split("#", 1)[0].strip()
        out[(f, i)] = (Span(f, i, mt.start() + 1, i, len(line.rstrip()) + 1), reason)
    return out


def _is_comment(line: str) -> bool:
    return line.lstrip().startswith("#")


def stand_in_markers(sources: SourceCache, files, decls) -> list[Marker]:
    """The stand-in markers of `files`, each with the region it covers: at the end of a line,
    that line; on a line of its own, the declaration (or statement, or attribute: the largest
    thing) that starts on the next line that is not a comment, to its end; `stand-in file` on a
    line of its own before the file's first declaration, the whole file."""
    out: list[Marker] = []
    by_file: dict = {}
    for d in decls:
        by_file.setdefault(d.span.file, []).append(d)
    for f in sorted(files):
        text = sources.text(f)
        if text is None:
            continue
        lines = text.split("\n")
        tops = by_file.get(f, [])
        first = min((d.span.line for d in tops), default=len(lines) + 1)
        starts: dict | None = None  # line -> (first col, farthest end) of the nodes starting there
        for _, i, line, mt in sources.tav_comments(STAND_IN, [f]):
            sp = Span(f, i, mt.start() + 1, i, len(line.rstrip()) + 1)
            words = mt.group(1).split("#", 1)[0].strip()
            alone = not line[: mt.start()].strip()
            m = Marker(sp, "stand-in", words)
            if re.match(r"file\b", words):
                m.scope, m.reason = "file", words[4:].strip()
                if not alone or i > first:
                    m.problem = "a file's stand-in mark stands on a line of its own before the file's first declaration"
                else:
                    m.region = (f, 1, 1, len(lines) + 1, 1)
            elif not alone:
                m.region = (f, i, 1, i, len(line) + 1)
            else:
                m.scope = "declaration"
                j = i + 1
                while j <= len(lines) and _is_comment(lines[j - 1]):
                    j += 1
                if starts is None:
                    starts = {}
                    for d in tops:
                        for n in A.walk(d):
                            s0 = n.span
                            if s0.file != f:
                                continue
                            end = (s0.end_line, s0.end_col) if s0.end_line else (s0.line, s0.col)
                            c0, e0 = starts.get(s0.line, (s0.col, end))
                            starts[s0.line] = (min(c0, s0.col), max(e0, end))
                if j in starts:
                    c0, (l1, c1) = starts[j]
                    m.region = (f, j, c0, l1, c1)
            if not m.reason and not m.problem:
                m.problem = "a stand-in mark must say what is invented: write '# tav: stand-in the reason'"
            out.append(m)
    return out


# ------------------------------------------------------------------ the run
_STATE: dict = {}  # in a worker: what run_mutant needs (inherited by fork)


def _refused_by_components(own, decls) -> bool:
    """A mutant that checks but for the game's components list (a card's copies one off): the
    list, a specification `tav check` holds the cards to, kills it."""
    if not any(isinstance(d, A.ComponentsDecl) for d in decls):
        return False
    try:
        build(own.path, [d for d in decls if not isinstance(d, A.ComponentsDecl)], own.sources, own.changes,
              own.base_path)
    except Exception:
        return False
    return True


def _alarm(signum, frame):
    raise Timeout()


def run_mutant(i: int) -> tuple[int, str, str | None]:
    st = _STATE
    m: Mutant = st["mutants"][i]
    order: list = st["groups"]
    limit = st["limit"]
    own = st["own"]
    decls = own.index.apply(m)
    if decls is None:
        return i, "invalid", None
    try:
        build(own.path, decls, own.sources, own.changes, own.base_path)
    except (TavError, RecursionError):
        if _refused_by_components(own, decls):
            return i, "killed", "the components list (tav check)"
        return i, "invalid", None
    except Exception:
        return i, "invalid", None
    old = signal.signal(signal.SIGALRM, _alarm) if limit else None
    try:
        if limit:
            signal.setitimer(signal.ITIMER_REAL, limit)
        for k, t in enumerate(list(order)):
            d2 = t.index.apply(m)
            if d2 is None:
                continue
            try:
                hit = run_target(t, d2, t.scenarios)
            except RecursionError:
                hit = (Span(t.path, 1, 1), "(the file)", "the rules nest too deeply")
            if hit is not None:
                order.remove(t)  # the group that killed the last mutant goes first for the next
                order.insert(0, t)
                sp, title, _why = hit
                return i, "killed", f"{sp}: {title}"
        return i, "survived", None
    except Timeout:
        return i, "timeout", None
    finally:
        if limit:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)


class OnlyError(ValueError):
    """An `--only` place that is no file of the game (a usage error)."""


def resolve_only(only, files: set[str]) -> list[tuple[str, int | None, int | None]]:
    """`only`'s (PATH, first line, last line) with PATH as the game's file it names: a path
    relative to the current folder, or as the game includes it (relative to the folder of one
    of the game's files). OnlyError when it names none."""
    by_real = {}
    for f in files:
        try:
            by_real[Path(f).resolve()] = f
        except (OSError, ValueError):
            continue
    bases = [Path.cwd()] + sorted({Path(f).resolve().parent for f in files})
    out = []
    for p, lo, hi in only:
        hit = None
        for b in bases:
            try:
                hit = by_real.get((b / p).resolve())
            except (OSError, ValueError):
                hit = None
            if hit is not None:
                break
        if hit is None:
            names = ", ".join(sorted(files))
            raise OnlyError(f"--only {p}: no file of the game (its files: {names})")
        out.append((hit, lo, hi))
    return out


def _selected(sp: Span, only) -> bool:
    """Whether a place lies in the `--only` selection (everything without one)."""
    if only is None:
        return True
    return any(sp.file == f and (lo is None or lo <= sp.line <= hi) for f, lo, hi in only)


def mutate(path: str, tests: list[str] | None = None, jobs: int = 1, progress=None,
           time_limit: float | None = None, only=None, operators=None) -> Report:
    """Make the mutants of the game at `path` and run them; raise TavError when the game
    does not load or no scenario reaches it. `only`: (PATH, first line, last line) places
    (lines None: the whole file); only the mutants starting there are made (OnlyError when a
    PATH is no file of the game). `operators`: the names of the operators to use (default:
    all of them); with them, no marker is reported as unused (it may mark other operators'
    mutants)."""
    from ..engine.compile import CompiledGame
    from ..engine.scenario import run_scenario

    t0 = time.perf_counter()
    model = load(path)
    files = game_files(model)
    if only:
        only = resolve_only(only, files)
    else:
        only = None
    ms = [m for m in mutants(model, files) if _selected(m.span, only) and (not operators or m.op in operators)]
    found = find_scenario_files(path, tests)
    own = _target(path)
    targets, left_out = [], []
    transcripts: dict = {}
    for f in found:
        t = own if Path(f).resolve() == Path(path).resolve() else _target(f)
        s0 = time.perf_counter()
        try:
            game = CompiledGame(build(t.path, t.decls, t.sources, t.changes, t.base_path))
        except TavError as e:
            left_out.append((e.diagnostics[0].span, "(the file)", f"does not check: {e.diagnostics[0].message}"))
            continue
        for sc in _own_scenarios(game, t.path):
            r = run_scenario(game, sc)
            if r.passed:
                t.scenarios.add(sc["decl"].span)
                transcripts[sc["decl"].span] = r.transcript()
            else:
                sp, msg = r.failures[0]
                left_out.append((sc["decl"].span, sc["decl"].title, f"{sp}: {msg}"))
        t.seconds = time.perf_counter() - s0
        if t.scenarios:
            targets.append(t)
    if not targets:
        where = ", ".join(tests) if tests else "tests/"
        raise TavError([Diagnostic(Span(model.path, 1, 1),
                                   f"no passing scenario includes or extends this game (looked in {where})")],
                       model.sources)
    base = sum(t.seconds for t in targets)
    limit = time_limit if time_limit is not None else 20 * base + 10
    _STATE.clear()
    groups = merge(targets, transcripts)
    _STATE.update(mutants=ms, groups=groups, limit=limit, own=own)
    results: list[Result | None] = [None] * len(ms)
    done = 0
    if jobs <= 1 or len(ms) < 2:
        it = map(run_mutant, range(len(ms)))
        pool = None
    else:
        ctx = mp.get_context("fork")
        pool = ctx.Pool(jobs)
        it = pool.imap_unordered(run_mutant, range(len(ms)), chunksize=1)
    try:
        for i, status, by in it:
            results[i] = Result(ms[i], status, by)
            done += 1
            if progress is not None:
                progress(done, len(ms), results[i])
    finally:
        if pool is not None:
            pool.terminate()
            pool.join()
    marks = markers(model.sources, files)
    stands = stand_in_markers(model.sources, files, model.decls)
    used = set()
    problems: dict = {}
    bad = []
    for sp, reason in marks.values():
        if not reason:
            bad.append(sp)
            problems[sp] = "an equivalent mark must say why: write '# tav: equivalent the reason'"
    for m in stands:
        if m.problem:
            bad.append(m.span)
            problems[m.span] = m.problem
    covering: set = set()
    for r in results:
        if r.status == "invalid":
            continue
        for m in stands:
            if m.covers(r.mutant.span):
                r.stand_in = m.reason
                covering.add(id(m))
                break
        if r.status != "survived" or r.stand_in:
            continue
        mk = marks.get(r.mutant.line)
        if mk is not None and mk[1]:
            r.equivalent = mk[1]
            used.add(r.mutant.line)
    unused = []
    for key, (sp, reason) in sorted(marks.items()):
        if reason and key not in used and _selected(sp, only) and not operators:
            unused.append(sp)
            problems[sp] = "marked equivalent, but no mutant of this line survives"
    for m in stands:
        at = Span(*m.region[:3]) if m.region else m.span
        if not m.problem and id(m) not in covering and (_selected(m.span, only) or _selected(at, only)) \
                and not operators:
            unused.append(m.span)
            problems[m.span] = {"line": "marked stand-in, but no mutant starts on this line",
                                "declaration": "marked stand-in, but no mutant lies in the declaration on the next line",
                                "file": "marked stand-in, but no mutant lies in this file"}[m.scope]
    unused.sort(key=lambda sp: (sp.file, sp.line, sp.col))
    bad.sort(key=lambda sp: (sp.file, sp.line, sp.col))
    return Report(model.path, results, targets, left_out, marks, unused, bad, time.perf_counter() - t0,
                  model.sources, groups, stands, problems)


def default_jobs() -> int:
    return max(1, min(2, os.cpu_count() or 1))
