"""What `tav lsp` knows about a rules file, with no protocol in it: the checker's errors and the
linter's findings, the names a file declares (with their kind, type, place and the comment
above them), the names bound inside bodies and where they are in scope.

Everything is worked out from a game's *entry file* (a file that no other includes: a data file
is checked through the game that includes it), reading the editor's unsaved texts instead of the
files on disk (loader.load's overlay).
"""
from __future__ import annotations

import os
import re
from collections import OrderedDict
from pathlib import Path

import attrs

from ..check.checker import BUILTIN_FUNCS, BUILTIN_NAMES, BUILTIN_PROPS, TYPE_NAMES
from ..check.model import LocalRef, Ref, declared_as, elem, show
from ..errors import Note, SourceCache, Span, TavError
from ..loader import MAX_RULES_FILE, load, project_root, read_decls, resolve_include
from ..syntax import ast as A
from ..syntax.parser import parse

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_GAME = re.compile(r'^[ \t]*(game|extends)\s+"', re.M)  # ([ \t]: a run of blank lines is not
_INCLUDE = re.compile(r'^[ \t]*include\s+"([^"\n]*)"', re.M)  # scanned again from each of its lines)
MAX_SCAN = 5000  # rules files looked at to find which file includes another
MAX_WALK = 100_000  # folder entries looked at, at most, to find them


@attrs.define
class Symbol:
    name: str
    kind: str  # option, enum, enum value, kind, attribute, card zone, kind def, card, counter, var, zone,
    #            def, effect, action, phase, handler, scenario, parameter, local
    detail: str  # its type, in rules words
    span: Span  # the whole declaration
    name_span: Span  # where its name is written
    doc: str = ""  # the comment lines right above it
    container: str | None = None  # the kind of an attribute, the phase list of a phase
    children: list = attrs.field(factory=list)  # for the outline


@attrs.define
class Local:
    symbol: Symbol
    scope: tuple[str, int, int]  # file, first and last offset where the name is bound


@attrs.define
class Finding:
    """A diagnostic to show: the checker's (code "") or the linter's (TAVnnn)."""

    span: Span
    message: str
    severity: str  # "error" | "warning" | "information"
    code: str = ""
    notes: tuple[Note, ...] = ()


@attrs.define
class Analysis:
    entry: str  # the entry file's path
    files: list[str]  # the files read, as spans name them
    findings: list[Finding]
    sources: SourceCache
    model: object | None = None  # a GameModel when the rules check
    decls: list | None = None  # the declarations (includes spliced, variant applied) when they parse
    symbols: dict[str, list[Symbol]] = attrs.field(factory=dict)
    locals: list[Local] = attrs.field(factory=list)
    changes: list = attrs.field(factory=list)  # a house rule's changes, for going to the base
    indexed: bool = False


# ------------------------------------------------------------------ files and places
def abspath(span_file: str) -> str:
    """Spans name files relative to the working directory (or absolutely): the file's real path."""
    return os.path.realpath(os.path.abspath(span_file))


def offset_of(text: str, line: int, col: int) -> int:
    """The offset of a 1-based line and column in text."""
    i = 0
    for _ in range(line - 1):
        j = text.find("\n", i)
        if j < 0:
            return len(text)
        i = j + 1
    return min(i + max(col, 1) - 1, len(text))


def place_of(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of an offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def word_at(text: str, line: int, col: int) -> tuple[str, int, int] | None:
    """The name under a 1-based place (or just before it): (word, start offset, end offset)."""
    off = offset_of(text, line, col)
    start = off
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    end = off
    while end < len(text) and (text[end].isalnum() or text[end] == "_"):
        end += 1
    w = text[start:end]
    if not w or not WORD.fullmatch(w):
        return None
    return w, start, end


def string_at(text: str, line: int, col: int) -> str | None:
    """The string literal under a place, if any (its text between the quotes)."""
    off = offset_of(text, line, col)
    ls = text.rfind("\n", 0, off) + 1
    le = text.find("\n", off)
    le = len(text) if le < 0 else le
    for m in re.finditer(r'"([^"\\\n]|\\.)*"', text[ls:le]):
        if m.start() <= off - ls < m.end():
            return m.group(0)[1:-1]
    return None


_RULE = re.compile(r"[-=*~_#]{4,}")  # a comment that is a section's rule (`# ------ Setup`)


def doc_above(text: str, line: int) -> str:
    """The comment lines right above a 1-based line (no blank line between, up to a section's
    rule line), without the '#'; then the comment at the end of the line itself, if any."""
    lines = text.split("\n")
    out: list[str] = []
    i = line - 2
    while i >= 0 and lines[i].lstrip().startswith("#"):
        body = lines[i].lstrip()[1:].strip()
        if _RULE.match(body):
            break
        out.append(body)
        i -= 1
    out.reverse()
    if 1 <= line <= len(lines):  # `zone center: shared hidden   # all the cards, face down`
        src = lines[line - 1]
        own = _code(text)[sum(len(x) + 1 for x in lines[:line - 1]):][:len(src)]  # comments blanked
        j = next((k for k, ch in enumerate(src) if ch == "#" and own[k] != "#"), -1)  # not in a string
        if j >= 0 and src.lstrip()[:1] != "#":
            tail = src[j + 1:].strip()
            if tail and not tail.startswith("tav:"):
                out.append(tail)
    return "\n".join(x for x in out if not x.startswith("tav:"))


def _text(sources: SourceCache, file: str) -> str:
    return sources.text(file) or ""


def find_name(sources: SourceCache, span: Span, name: str, after: str = "", quoted: bool = False) -> Span:
    """Where NAME is written in a node (the first whole word, after the regex AFTER): its span,
    else the node's start."""
    text = _text(sources, span.file)
    if not text:
        return span
    start = offset_of(text, span.line, span.col)
    end = offset_of(text, span.end_line, span.end_col) if span.end_line else len(text)
    if end <= start:
        end = len(text)
    word = re.escape(f'"{name}"') if quoted else rf"\b{re.escape(name)}\b"
    code = _code(text)
    m = re.compile(rf"{after}\s*({word})" if after else f"({word})").search(code, start, end)
    if m is None and after:  # (a house rule's `set NAME = ...` stands for the option)
        m = re.compile(f"({word})").search(code, start, end)
    if m is None:
        return Span(span.file, span.line, span.col, span.line, span.col + len(name))
    a, b = m.span(1)
    (l1, c1), (l2, c2) = place_of(text, a), place_of(text, b)
    return Span(span.file, l1, c1, l2, c2)


CODE_CACHE_CHARS = 16 * 1024 * 1024  # the texts _code keeps blanked, at most (the oldest go first)
_CODE_CACHE: OrderedDict[int, tuple[str, str]] = OrderedDict()


def _code(text: str) -> str:
    """The text with comments blanked out (same length), so a name is not found in a comment.
    The latest 64 texts asked for are kept (each is asked for once per declaration in it), up to
    CODE_CACHE_CHARS characters in all."""
    hit = _CODE_CACHE.get(id(text))
    if hit is not None and hit[0] is text:
        _CODE_CACHE.move_to_end(id(text))
        return hit[1]
    out = re.sub(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*', lambda m: m.group(0) if m.group(0)[0] == '"' else " " * len(m.group(0)), text)
    _CODE_CACHE[id(text)] = (text, out)
    _CODE_CACHE.move_to_end(id(text))
    total = sum(len(t) for t, _ in _CODE_CACHE.values())
    while (total > CODE_CACHE_CHARS or len(_CODE_CACHE) > 64) and len(_CODE_CACHE) > 1:
        _, (t, _) = _CODE_CACHE.popitem(last=False)
        total -= len(t)
    return out


class TreeCache:
    """Syntax trees by (file name, bytes), as loader.read_decls reads and fills its `parsed`: the
    latest `per_file` versions of each file, for the latest `files` files. An editor's every edit
    is a new version of its file; the files it did not change keep their trees."""

    def __init__(self, per_file: int = 2, files: int = 256) -> None:
        self.per_file, self.files = per_file, files
        self._by_file: OrderedDict[str, OrderedDict[bytes, object]] = OrderedDict()

    def get(self, key, default=None):
        name, data = key
        versions = self._by_file.get(name)
        if versions is None or data not in versions:
            return default
        self._by_file.move_to_end(name)
        versions.move_to_end(data)
        return versions[data]

    def __setitem__(self, key, tree) -> None:
        name, data = key
        versions = self._by_file.setdefault(name, OrderedDict())
        self._by_file.move_to_end(name)
        versions[data] = tree
        versions.move_to_end(data)
        while len(versions) > self.per_file:
            versions.popitem(last=False)
        while len(self._by_file) > self.files:
            self._by_file.popitem(last=False)

    def __len__(self) -> int:
        return sum(len(v) for v in self._by_file.values())

    def clear(self) -> None:
        self._by_file.clear()


# ------------------------------------------------------------------ which file to check
def project_files(root: Path) -> list[Path]:
    """The `.tav` files under root, sorted: at most MAX_SCAN of them, from at most MAX_WALK
    entries of its folders (a document opened in a huge folder, or at `/`, is not followed
    through the whole disk); no hidden folder is entered, no link to a folder followed."""
    out: list[Path] = []
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        seen += len(dirs) + len(files)
        out += [Path(folder) / f for f in sorted(files) if f.endswith(".tav")]
        if seen >= MAX_WALK or len(out) >= MAX_SCAN:
            break
    return sorted(out)[:MAX_SCAN]


def entry_for(path: str, overlay: dict[Path, str] | None = None) -> str:
    """The file to check to know about PATH: PATH itself if it is a game or a house rule or no
    file includes it, else (following includes up) the game that includes it (or a file no
    other includes), the nearest to PATH's folder."""
    p = Path(path).resolve()
    text = (overlay or {}).get(p)
    if text is None:
        try:
            text = p.read_text("utf-8", errors="replace")
        except OSError:
            return str(p)
    if _GAME.search(_code(text)):
        return str(p)
    root = project_root(p)
    includers: dict[Path, list[Path]] = {}
    games: set[Path] = set()
    for f in project_files(root):
        try:
            t = (overlay or {}).get(f.resolve())
            if t is None:
                t = "" if f.stat().st_size > MAX_RULES_FILE else f.read_text("utf-8", errors="replace")
        except OSError:
            continue
        if _GAME.search(_code(t)):
            games.add(f.resolve())
        for m in _INCLUDE.finditer(_code(t)):
            try:
                target = resolve_include(f.resolve().parent, m.group(1)).resolve()
            except (OSError, ValueError, RuntimeError):
                continue
            includers.setdefault(target, []).append(f.resolve())
    # every file that includes it, through others too, that no file includes: the one whose folder
    # is nearest to PATH's (a game's own entry file before a scenario that includes its data)
    seen, todo, tops = {p: 0}, [p], []
    while todo:
        here = todo.pop(0)
        ups = [x for x in includers.get(here, ()) if x not in seen]
        if here in games or not includers.get(here):  # a game is checked as itself
            tops.append(here)
            continue
        for x in ups:
            seen[x] = seen[here] + 1
            todo.append(x)
    if not tops or tops == [p]:
        return str(p)

    def near(f: Path):
        common = len(os.path.commonpath([f.parent, p.parent]).split(os.sep))
        return (-common, seen[f], str(f))
    return str(min(tops, key=near))


# ------------------------------------------------------------------ analysis
def analyse(path: str, overlay: dict[Path, str] | None = None, lint: bool = True, parsed: dict | None = None,
            names: bool = True) -> Analysis:
    """Check the game PATH belongs to (see entry_for) with the overlay's texts: every error, the
    static lint findings when it checks, and (with `names`, else later by ensure_index) the names
    it declares. `parsed`: a cache of syntax trees kept between analyses (loader.read_decls)."""
    entry = entry_for(path, overlay)
    findings: list[Finding] = []
    model = None
    decls = None
    try:
        model = load(entry, overlay, parsed)
        sources = model.sources
        decls = model.decls
    except TavError as e:
        sources = e.sources or SourceCache()
        findings += [Finding(d.span, d.message, "error", "", tuple(d.notes)) for d in e.diagnostics]
        try:  # the names are still known when every file parses
            sc = SourceCache()
            decls = list(read_decls(entry, sc, overlay=overlay, parsed=parsed))
            sources = sc
        except (TavError, RecursionError):
            decls = None
    except RecursionError:
        sources = SourceCache()
        findings.append(Finding(Span(entry, 1, 1), "the rules are nested too deeply to check", "error"))
    if model is not None and lint:
        from ..lint import lint_path

        try:
            found, _ = lint_path(entry, model=model)
        except Exception as e:  # a linter bug must not take the editor's diagnostics down
            found = []
            findings.append(Finding(Span(entry, 1, 1), f"tav lint failed: {type(e).__name__}: {e}", "information"))
        for f in found:
            sev = "error" if f.code == "TAV000" else "warning"
            findings.append(Finding(f.span, f.message, sev, f.code, tuple(f.notes)))
    a = Analysis(entry, sources.files(), findings, sources, model, decls)
    if model is not None:
        a.changes = list(model.changes)
    if names:
        ensure_index(a)
    return a


def ensure_index(a: Analysis) -> Analysis:
    """The analysis with its names indexed (once)."""
    if a.decls is not None and not a.indexed:
        index(a)
        a.indexed = True
    return a


def _type(t: A.TypeRef | None) -> str:
    if t is None:
        return "?"
    return f"list of {t.name}" if t.list else t.name


def _params(ps) -> str:
    return "(" + ", ".join(f"{p.name}: {_type(p.type)}" for p in ps) + ")" if ps else ""


def declared(d, sources: SourceCache) -> list[Symbol]:
    """The symbols one declaration makes (with its parts as children, for the outline)."""
    if isinstance(d, A.Replace):
        return declared(d.decl, sources)
    if isinstance(d, A.AddPhase):
        return declared(d.phase, sources)
    text = _text(sources, d.span.file)
    doc = doc_above(text, d.span.line) if text else ""

    def sym(name, kind, detail, after="", quoted=False, span=None, container=None, d_doc=None):
        sp = span or d.span
        return Symbol(name, kind, detail, sp, find_name(sources, sp, name, after, quoted),
                      doc if d_doc is None else d_doc, container)
    if isinstance(d, A.OptionDecl):
        rng = f" in {A.text_of(d.low)}..{A.text_of(d.high)}" if d.low is not None else ""
        s = sym(d.name, "option", f"{_type(d.type)} = {A.text_of(d.default)}{rng}", r"\boption")
        if d.doc:
            s.doc = (s.doc + "\n\n" if s.doc else "") + d.doc
        return [s]
    if isinstance(d, A.EnumDecl):
        s = sym(d.name, "enum", "enum { " + ", ".join(d.values) + " }", r"\benum")
        for v, vs in zip(d.values, d.value_spans or [d.span] * len(d.values)):
            s.children.append(Symbol(v, "enum value", f"a value of enum {d.name}", vs,
                                     vs if d.value_spans else find_name(sources, d.span, v), s.doc, d.name))
        return [s] + s.children
    if isinstance(d, A.KindDecl):
        s = sym(d.name, "kind", "kind of card", r"\bkind")
        for a in d.attrs:
            t = _type(a.type)
            s.children.append(sym(a.name, "attribute", f"{'var ' if a.mutable else ''}{t}, an attribute of {d.name}",
                                  span=a.span, container=d.name, d_doc=doc_above(text, a.span.line)))
        for z in d.zones:
            s.children.append(sym(z.name, "card zone", f"zone ({z.visibility}) on each {d.name}", r"\bzone",
                                  span=z.span, container=d.name, d_doc=doc_above(text, z.span.line)))
        for k in d.defs:
            s.children.append(sym(k.name, "kind def", f"{_type(k.type)}, worked out for each {d.name}", r"\bdef",
                                  span=k.span, container=d.name, d_doc=doc_above(text, k.span.line)))
        return [s] + s.children
    if isinstance(d, A.CardDecl):
        if d.name_span is not None:  # a card of a run: its name as the run writes it
            return [Symbol(d.name, "card", f"card of kind {d.kind}, x{d.copies}", d.span, d.name_span, doc, None)]
        return [sym(d.name, "card", f"card of kind {d.kind}, x{d.copies}", r"\bcard", quoted=True)]
    if isinstance(d, A.CounterDecl):
        parts = ["int"]
        if d.per_player:
            parts.append("per player")
        if d.low is not None:
            parts.append(f"in {A.text_of(d.low)}..{A.text_of(d.high)}{' wrap' if d.wrap else ''}")
        if d.initial is not None:
            parts.append(f"starts at {A.text_of(d.initial)}")
        return [sym(d.name, "counter", ", ".join(parts), r"\bcounter")]
    if isinstance(d, A.VarDecl):
        return [sym(d.name, "var", _type(d.type) + (", per player" if d.per_player else ""), r"\bvar")]
    if isinstance(d, A.ZoneDecl):
        parts = ["zone", "per player" if d.per_player else "shared", d.visibility]
        if d.capacity is not None:
            parts.append(f"capacity {A.text_of(d.capacity)}")
        return [sym(d.name, "zone", ", ".join(parts), r"\bzone")]
    if isinstance(d, A.DefDecl):
        return [sym(d.name, "def", f"def{_params(d.params)}: {_type(d.type) if d.type else 'its value'}", r"\bdef")]
    if isinstance(d, A.EffectDecl):
        return [sym(d.name, "effect", f"effect{_params(d.params)}" + (f' "{d.title}"' if d.title else ""), r"\beffect")]
    if isinstance(d, A.ActionDecl):
        return [sym(d.name, "action", "action" + (f' "{d.title}"' if d.title else ""), r"\baction")]
    if isinstance(d, A.Phase):
        how = ("turns" if d.actions or d.start is not None else "for each player" if d.each_player else "steps")
        return [sym(d.name, "phase", f"phase of {how}" + (f' "{d.title}"' if d.title else ""), r"\bphase")]
    if isinstance(d, A.RoundsDecl):
        out = []
        for ph in d.phases:
            out += declared(ph, sources)
        return out
    if isinstance(d, A.OnDecl):
        return [sym(d.event, "handler", f"on {d.event}{_params(d.params)}", r"\bon")]
    if isinstance(d, A.ScenarioDecl):
        return [sym(d.title, "scenario", f"scenario, {d.players} players", r"\bscenario", quoted=True)]
    return []


def index(a: Analysis) -> None:
    """The names of the analysis's declarations, and the names bound inside them."""
    sym: dict[str, list[Symbol]] = {}
    for d in a.decls or ():
        for s in declared(d, a.sources):
            sym.setdefault(s.name, []).append(s)
    a.symbols = sym
    a.locals = []
    for d in a.decls or ():
        _bind_locals(a, d)


def _scope_of(a: Analysis, span: Span) -> tuple[str, int, int]:
    text = _text(a.sources, span.file)
    s = offset_of(text, span.line, span.col)
    e = offset_of(text, span.end_line, span.end_col) if span.end_line else len(text)
    return span.file, s, e


def _local(a: Analysis, name: str, node_span: Span, scope_span: Span, detail: str, after: str = "",
           kind: str = "local") -> None:
    ns = find_name(a.sources, node_span, name, after)
    a.locals.append(Local(Symbol(name, kind, detail, node_span, ns), _scope_of(a, scope_span)))


def _bind_locals(a: Analysis, d) -> None:
    m = a.model
    types = m.types if m is not None else {}

    def t_of(e, el=False, lst=False):
        t = types.get(e) if e is not None else None
        if t is None:
            return "?"
        if el:
            t = elem(t) or t
        return ("list of " if lst else "") + show(t)
    if isinstance(d, A.Replace):
        d = d.decl
    if isinstance(d, A.AddPhase):
        d = d.phase
    if isinstance(d, (A.DefDecl, A.EffectDecl, A.OnDecl)):
        for p in d.params:
            _local(a, p.name, p.span, d.span, _type(p.type), kind="parameter")
    if isinstance(d, A.ReachDecl):
        _local(a, d.pvar, d.span, d.span, "player", r"\bof")
    if isinstance(d, A.KindDecl):  # in a kind's def, `this` is the card (its attributes are this card's)
        ks = find_name(a.sources, d.span, d.name, r"\bkind")
        for k in d.defs:
            a.locals.append(Local(Symbol("this", "builtin", f"{d.name}, the card whose {k.name} it is", d.span, ks),
                                  _scope_of(a, k.span)))
    for n in A.walk(d):
        if isinstance(n, (A.Choose, A.For)):
            word = r"\bchoose" if isinstance(n, A.Choose) else r"\bfor"
            _local(a, n.var, n.span, n.span, t_of(n.coll, el=True), word)
        elif isinstance(n, A.ChooseNumber):
            _local(a, n.var, n.span, n.span, "int", r"\bnumber")
        elif isinstance(n, A.ChooseSubset):
            _local(a, n.var, n.span, n.span, t_of(n.coll, el=True, lst=True), r"\bsubset")
        elif isinstance(n, A.ChooseN):
            _local(a, n.var, n.span, n.span, t_of(n.coll, el=True, lst=True), r"[A-Za-z0-9_)]")
        elif isinstance(n, A.Simultaneous):
            _local(a, n.pvar, n.span, n.span, "player", r"\bfor")
            _local(a, n.var, n.span, n.span, t_of(n.coll, el=True), r"\bchoose")
            for c in n.more:
                _local(a, c.var, c.span, n.span, t_of(c.coll, el=True), r"\bchoose")
        elif isinstance(n, (A.Quant, A.Aggregate)):
            after = r"\bfor" if isinstance(n, A.Aggregate) else r"\("
            _local(a, n.var, n.span, n.span, t_of(n.coll, el=True), after)
        elif isinstance(n, A.AnySubset):
            _local(a, n.var, n.span, n.span, t_of(n.coll, el=True, lst=True), r"\bsubset")
        elif isinstance(n, A.Block):
            for i, s in enumerate(n.stmts):
                if isinstance(s, A.Let):  # from the let to the end of its block
                    scope = Span(s.span.file, s.span.line, s.span.col, n.span.end_line, n.span.end_col)
                    _local(a, s.var, s.span, scope, t_of(s.value), r"\blet")


# ------------------------------------------------------------------ queries
def locals_at(a: Analysis, file: str, offset: int) -> list[Symbol]:
    """The names bound at a place, innermost first."""
    hits = [lc for lc in a.locals if lc.scope[0] == file and lc.scope[1] <= offset <= lc.scope[2]]
    hits.sort(key=lambda lc: lc.scope[2] - lc.scope[1])
    return [lc.symbol for lc in hits]


_MEMBER_KINDS = ("attribute", "kind def", "card zone", "counter", "var", "zone")
_TOP_KINDS = ("option", "counter", "var", "zone", "def", "effect", "action", "enum value", "enum", "kind", "phase",
              "handler", "card", "scenario", "attribute", "kind def", "card zone")


def analysed_place(a: Analysis, file: str, text: str, offset: int) -> tuple[str | None, int]:
    """An offset of the editor's text as an offset of the text the analysis read (they differ
    while the file does not parse and the last analysis that did answers): the same before the
    first difference, and shifted by the length the edit added after it."""
    old = _text(a.sources, file)
    if not old or old == text:
        return (old or None), offset
    n = min(len(old), len(text))
    prefix = next((i for i in range(n) if old[i] != text[i]), n)
    if offset <= prefix:
        return old, offset
    return old, min(len(old), max(prefix, offset - (len(text) - len(old))))


def lookup(a: Analysis, file: str, text: str, line: int, col: int) -> list[Symbol]:
    """What the name at a place stands for: a local, else the declarations of that name (a
    member after a '.', a counter or zone after `of`, ...). Builtins come as kind 'builtin'."""
    w = word_at(text, line, col)
    if w is None:
        return []
    name, start, end = w
    old, at = analysed_place(a, file, text, start)  # where that is in the text analysed
    oline, ocol = place_of(old, at) if old is not None else (line, col)
    for s in locals_at(a, file, at):
        if s.name == name:
            return [s]
    cands = [s for s in a.symbols.get(name, []) if s.kind not in ("card", "scenario")]  # (named in strings)
    here = [s for s in cands if s.name_span.file == file and _contains(s.name_span, oline, ocol)]
    if here:  # on a declaration's own name
        return here
    kinds = resolved_kinds(a, file, oline, ocol, name) if len({s.kind for s in cands}) > 1 else None
    if kinds is not None and any(s.kind in kinds for s in cands):  # the one the checker chose
        cands = [s for s in cands if s.kind in kinds]
    before = text[:start].rstrip()
    if before.endswith(".") and not before.endswith(".."):
        member = [s for s in cands if s.kind in _MEMBER_KINDS]
        if member:
            return member
        props = [t for (t, n) in BUILTIN_PROPS if n == name]
        if props:
            return [_builtin(name, f"{show(BUILTIN_PROPS[(props[0], name)])}, a property of every {props[0]}")]
    if cands:
        return sorted(cands, key=lambda s: _TOP_KINDS.index(s.kind) if s.kind in _TOP_KINDS else 99)
    if name in BUILTIN_NAMES:
        return [_builtin(name, show(BUILTIN_NAMES[name]))]
    if name in BUILTIN_FUNCS:
        ps, r = BUILTIN_FUNCS[name]
        return [_builtin(name, f"({', '.join(_tname(p) for p in ps)}) -> {_tname(r)}")]
    if name in TYPE_NAMES:
        return [_builtin(name, "a type")]
    return []


def value_type(s: Symbol) -> str | None:
    """The type of the value a symbol names, in rules words ("player", a kind's name, "zone",
    "list of card"...), or None (an effect, an action, a def that takes parameters...)."""
    d = s.detail
    if s.kind in ("local", "parameter", "builtin", "attribute", "kind def", "var"):
        t = d.removeprefix("var ")
    elif s.kind == "def" and d.startswith("def: "):
        t = d[len("def: "):]
    elif s.kind == "zone":
        t = "zone"
    elif s.kind in ("counter", "option"):
        t = "int" if s.kind == "counter" else d
    else:
        return None
    t = t.split(",")[0].split(" = ")[0].strip()
    return t if t and t != "its value" else None


def receiver_type(a: Analysis, file: str, text: str, dot: int) -> str | None:
    """The type of the name written just before the '.' at offset `dot` (None: no name there,
    or one whose type is not known)."""
    end = len(text[:dot].rstrip())
    start = end
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] == "_"):
        start -= 1
    if start == end:
        return None
    line, col = place_of(text, start)
    for s in lookup(a, file, text, line, col):
        t = value_type(s)
        if t is not None:
            return t
    return None


def _tname(t: str) -> str:
    return {"coll": "a list or zone", "same": "the same kind of list"}.get(t, show(t))


def _builtin(name: str, detail: str) -> Symbol:
    sp = Span("<builtin>", 1, 1)
    return Symbol(name, "builtin", detail, sp, sp)


def type_at(a: Analysis, file: str, line: int, col: int) -> str | None:
    """The checked type of the innermost name-like expression at a place (when the rules check)."""
    m = a.model
    if m is None:
        return None
    best = None
    for d in m.decls:
        if d.span.file != file or not _contains(d.span, line, col):
            continue
        for n in A.walk(d):
            if isinstance(n, (A.Name, A.Attr, A.Call, A.Of)) and _contains(n.span, line, col) and n in m.types:
                if best is None or _size(n.span) <= _size(best.span):
                    best = n
    return show(m.types[best]) if best is not None else None


def _ref_kinds(ref: Ref) -> tuple[str, ...] | None:
    """What the checker resolved a name to (GameModel.refs) -> the kinds of symbol it can be
    (a local may also be `this`, listed as a builtin); None: a builtin property, values(...)."""
    kinds = declared_as(ref)
    if isinstance(ref, LocalRef):
        return kinds + ("builtin",)
    return kinds or None


def resolved_kinds(a: Analysis, file: str, line: int, col: int, name: str) -> tuple[str, ...] | None:
    """What the checker made of the name at a place, as symbol kinds (None: it does not say)."""
    m = a.model
    if m is None:
        return None
    best = None
    for d in m.decls:
        if d.span.file != file or not _contains(d.span, line, col):
            continue
        for n in A.walk(d):
            if isinstance(n, A.Gain) and _contains(n.counter_span, line, col) and n.counter == name:
                return ("counter",)
            if isinstance(n, A.Of) and _contains(n.name_span, line, col) and n.name == name:
                return ("counter", "var", "zone", "card zone")
            hit = isinstance(n, (A.Name, A.Attr, A.Call)) and n.name == name
            if hit and _contains(n.span, line, col) and n in m.refs:
                if best is None or _size(n.span) <= _size(best.span):
                    best = n
    if best is None:
        return None
    return _ref_kinds(m.refs[best])


def _contains(sp: Span, line: int, col: int) -> bool:
    el, ec = (sp.end_line, sp.end_col) if sp.end_line else (sp.line, sp.col + 1)
    return (sp.line, sp.col) <= (line, col) <= (el, ec)


def _size(sp: Span) -> tuple[int, int]:
    return (sp.end_line - sp.line, sp.end_col - sp.col)


def change_target(a: Analysis, file: str, line: int, col: int, name: str) -> Span | None:
    """In a house rule, the base's definition that the `replace`/`remove`/`set` at a place changes."""
    for c in a.changes:
        if c.span.file == file and c.base_span is not None and c.name == name and _contains(c.span, line, col):
            return c.base_span
    return None


def outline(text: str, file: str) -> list[Symbol]:
    """The declarations of one file's own text (for the outline): parsed alone, so it works while
    the rest of the game has errors; [] while the file itself does not parse."""
    try:
        f = parse(text, file, keep=False)  # (an editor's text: not kept in the cache)
    except TavError:
        return []
    sources = SourceCache()
    sources.add(file, text)
    out = []
    for d in f.decls:
        syms = declared(d, sources)
        if isinstance(d, (A.EnumDecl, A.KindDecl)):
            syms = syms[:1]  # the values and attributes are its children
        if isinstance(d, A.RoundsDecl):
            rounds = Symbol("rounds", "rounds", "the round's phases", d.span,
                            find_name(sources, d.span, "rounds"), children=syms)
            syms = [rounds]
        for kind, word in ((A.SetupDecl, "setup"), (A.GameEndDecl, "at game end"), (A.EndDecl, "end"),
                           (A.WinnerDecl, "winner")):
            if isinstance(d, kind):
                syms = [Symbol(word, word, "", d.span, Span(d.span.file, d.span.line, d.span.col,
                                                             d.span.line, d.span.col + len(word.split()[0])))]
        out += syms
    return out
