"""Text -> typed syntax tree. Lark LALR with positions; every failure is a Diagnostic."""
from __future__ import annotations

import functools
import re
from importlib import resources

from lark import Lark, Token, Transformer_NonRecursive, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError

from ..errors import Diagnostic, Span, TavError, did_you_mean
from . import ast as A

MAX_DEPTH = 200  # deeper syntax trees than this are refused with a located error
MAX_DIGITS = 18  # a number literal has at most this many digits (a billion billion)
MAX_RUN = 10_000  # cards of one numbered run (`card "Bid {n}" for n in 1..13`)


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    text = resources.files("tavernlang.syntax").joinpath("grammar.lark").read_text("utf-8")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=True, cache=_grammar_cache(text))


def _grammar_cache(text: str) -> str | bool:
    """Where Lark keeps the analysed grammar between runs (it takes ~0.3 s to build): a file in
    the user's own cache directory, named for the grammar, Lark and Python, so a change of any of
    them builds it afresh; no cache where that directory cannot be made (Lark carries on
    without one if the file is unreadable or damaged). Never a shared temporary directory: the
    file is a pickle, so only its user may write it."""
    import hashlib
    import os
    import sys

    import lark
    folder = _cache_folder()
    if folder is None:
        return False
    key = hashlib.sha256(f"{text}\0{lark.__version__}\0{sys.version_info[:2]}".encode()).hexdigest()[:20]
    return os.path.join(folder, f"grammar-{key}.lark-cache")


def _cache_folder() -> str | None:
    """The user's own cache directory for tavernlang (made if missing), or None: with
    TAV_NO_CACHE set, without platformdirs, or when the folder is not the user's own (what is
    kept there is read back as pickles, so only its user may write it)."""
    import os
    if os.environ.get("TAV_NO_CACHE"):
        return None
    try:
        from platformdirs import user_cache_dir
        folder = user_cache_dir("tavernlang", appauthor=False)
        folder.encode("utf-8")  # (Lark hashes the grammar cache's path as UTF-8)
        os.makedirs(folder, mode=0o700, exist_ok=True)
        if not _private(folder):  # not the user's own, or others may write it: do not trust it
            return None
    except (ImportError, OSError, AttributeError, UnicodeError):
        return None
    return folder


def _private(path: str) -> bool:
    """Only this user may write in the folder at path (what is kept there is read as pickles)."""
    import os
    st = os.stat(path)
    return st.st_uid == os.getuid() and not st.st_mode & 0o022


@functools.lru_cache(maxsize=1)
def _terminal_names() -> dict[str, str]:
    names = {}
    for t in _lark().terminals:
        p = t.pattern
        if p.type == "str":
            names[t.name] = f"'{p.value}'"
    names.update({"NAME": "a name", "INT": "a number", "STRING": "a string", "$END": "end of file",
                  "COPIES": "a copy count like x3", "CMP": "a comparison (==, !=, <, <=, >, >=)",
                  "ADDOP": "'+' or '-'", "MULOP": "'*', '/' or '%'"})
    return names


def _describe(tok: str) -> str:
    return _terminal_names().get(tok, tok.lower())


def parse(text: str | bytes, file: str, keep: bool = True) -> A.File:
    """Parse one file; raise TavError with a located diagnostic on failure. `keep`: the tree may
    be kept in the user's cache (not for an editor's unsaved text: each keystroke is a new one)."""
    if isinstance(text, bytes):
        raw = text
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            before = raw[: e.start]
            line = before.count(b"\n") + 1
            col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
            raise TavError([Diagnostic(Span(file, line, col), f"the file is not valid UTF-8 text (byte 0x{raw[e.start]:02x})")])
    if text.startswith("\ufeff"):  # a byte-order mark is not part of the rules (nor of any place)
        text = text[1:]
    if "\x00" in text:
        i = text.index("\x00")
        line = text.count("\n", 0, i) + 1
        col = i - (text.rfind("\n", 0, i) + 1) + 1
        raise TavError([Diagnostic(Span(file, line, col), "the file contains a NUL byte; is it a binary file?")])
    cached = _tree_cache(text, file) if keep else None
    if cached is not None:
        f = cached.load()
        if f is not None:
            return f
    try:
        tree = _lark().parse(text)
    except UnexpectedInput as e:
        raise TavError(_syntax_errors(e, text, file)) from None
    try:
        built = _Builder(file).transform(tree)
    except VisitError as e:  # an internal bug in the builder: still give a place
        if isinstance(e.orig_exc, TavError):  # a located refusal of the builder's (a number too large)
            raise e.orig_exc from None
        raise TavError([Diagnostic(Span(file, 1, 1), f"cannot read this file: {e.orig_exc}")]) from None
    decls: list = []
    for d in built.children:  # a run of numbered cards is a declaration of each of its cards
        decls.extend(d) if isinstance(d, tuple) else decls.append(d)
    f = A.File(Span(file, 1, 1), tuple(decls), text)
    _check_depth(f)
    if cached is not None:
        cached.store(f)
    return f


class _TreeCache:
    """One file's syntax tree kept between runs (parsing is most of the time a command takes to
    start: a game of 15 files (~200 KB) takes ~0.3 s to parse, ~0.05 s to read back). The entry is
    named for the file's text and name (the tree holds its places), and for the grammar and the
    code that builds trees, so any change to them parses afresh. A damaged or unreadable entry
    is parsed afresh and rewritten; entries are written whole (a temporary file renamed)."""

    def __init__(self, path: str):
        self.path = path

    def load(self):
        import hashlib
        import os
        import pickle
        try:
            with open(self.path, "rb") as fh:
                data = fh.read()
            digest, body = data[:32], data[32:]
            if hashlib.sha256(body).digest() != digest:  # damaged (cut short, a flipped bit): parsed afresh
                return None
            f = pickle.loads(body)
            os.utime(self.path)  # (in use: not among the oldest when the folder is pruned)
        except FileNotFoundError:
            return None
        except Exception:  # another version's: parsed afresh
            return None
        return f if isinstance(f, A.File) else None

    def store(self, f) -> None:
        import os
        import pickle
        tmp = f"{self.path}.{os.getpid()}.tmp"
        try:
            import hashlib
            body = pickle.dumps(f, protocol=pickle.HIGHEST_PROTOCOL)
            with open(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as fh:
                fh.write(hashlib.sha256(body).digest() + body)
            os.replace(tmp, self.path)
        except (OSError, pickle.PicklingError, RecursionError):
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return
        _prune(os.path.dirname(self.path))


CACHE_ENTRIES = 1000  # trees kept at most; past that, the older half is removed
CACHE_MIN_TEXT = 1024  # a shorter file parses in a few milliseconds: not kept


def _prune(folder: str) -> None:
    import os
    try:
        names = [n for n in os.listdir(folder) if n.endswith((".tree", ".tmp"))]
        if len(names) <= CACHE_ENTRIES:
            return
        dated = sorted(names, key=lambda n: os.stat(os.path.join(folder, n)).st_mtime)
        for n in dated[: len(dated) // 2]:
            os.unlink(os.path.join(folder, n))
    except OSError:  # (another process pruning at the same time)
        pass


@functools.lru_cache(maxsize=1)
def _builder_key() -> str:
    """What a cached tree depends on besides its file: the grammar, this module and the tree's
    classes (their source), Lark's and Python's versions."""
    import hashlib
    import sys

    import lark
    h = hashlib.sha256(f"{lark.__version__}\0{sys.version_info[:3]}".encode())
    for name in ("grammar.lark", "parser.py", "ast.py"):
        h.update(resources.files("tavernlang.syntax").joinpath(name).read_bytes())
    h.update(resources.files("tavernlang").joinpath("errors.py").read_bytes())  # (Span: every place in a tree)
    return h.hexdigest()[:16]


def _tree_cache(text: str, file: str) -> _TreeCache | None:
    import hashlib
    import os
    if len(text) < CACHE_MIN_TEXT:
        return None
    folder = _cache_folder()
    if folder is None:
        return None
    key = hashlib.sha256(f"{_builder_key()}\0{file}\0{text}".encode("utf-8", "surrogatepass")).hexdigest()[:32]
    sub = os.path.join(folder, "trees")
    try:
        os.makedirs(sub, mode=0o700, exist_ok=True)
        if not _private(sub):
            return None
    except OSError:
        return None
    return _TreeCache(os.path.join(sub, f"{key}.tree"))


MAX_SYNTAX_ERRORS = 50
_DECL_START = re.compile(r"[A-Za-z_]")


def _syntax_errors(first: UnexpectedInput, text: str, file: str) -> list[Diagnostic]:
    """Every syntax error the parser can find, not only the first: after an error, parsing
    starts again at the next line that begins a declaration (a name at the first column), the
    lines before it blanked out so that places stay where they are. At most MAX_SYNTAX_ERRORS."""
    diags = [_syntax_diag(first, text, file)]
    lines = text.split("\n")
    e = first
    while len(diags) < MAX_SYNTAX_ERRORS:
        at = getattr(e, "line", None)
        if not isinstance(at, int) or at < 1:
            break
        nxt = next((i for i in range(at, len(lines)) if _DECL_START.match(lines[i])), None)  # (0-based: after line `at`)
        if nxt is None:
            break
        masked = "\n" * nxt + "\n".join(lines[nxt:])
        try:
            _lark().parse(masked)
            break
        except UnexpectedInput as e2:
            e = e2
            d = _syntax_diag(e, masked, file)
            if d.span.line <= at:  # (no progress)
                break
            diags.append(d)
    return diags


_STATEMENT_WORDS = {"'move'", "'shuffle'", "'reveal'", "'look'", "'gain'", "'lose'", "'give'", "'take'",
                    "'swap'", "'next'", "'choose'", "'for'", "'simultaneously'", "'if'", "'do'",
                    "'let'", "'emit'", "'require'", "'log'"}

# Tokens that may follow a whole value (a '=' unexpected where one of them is expected: a comparison).
_ENDS_VALUE = {"')'", "']'", "'{'", "'}'", "','", "'then'", "'else'", "'action'"}

# Tokens the user should see first when several are expected.
_FIRST = ("'}'", "')'", "']'", "'{'", "'('", "':'", "'='", "','")


def _syntax_diag(e: UnexpectedInput, text: str, file: str) -> Diagnostic:
    line, col = getattr(e, "line", 1), getattr(e, "column", 1)
    lines = text.split("\n")
    if line is None or line < 1:
        line, col = len(lines), 1
    if isinstance(e, UnexpectedCharacters):
        pos = e.pos_in_stream
        ch = text[pos] if pos is not None and pos < len(text) else "?"
        if ch == '"':
            msg = "unclosed string (a string ends with \" on the same line)"
        elif ch in "\u201c\u201d\u2018\u2019":
            msg = f"unexpected character {ch!r}: use straight quotes (\")"
        else:
            msg = f"unexpected character {ch!r}"
    elif isinstance(e, UnexpectedToken):
        tok = e.token
        if tok.type == "$END":
            msg = "unexpected end of file"
            code = [i for i, ln in enumerate(lines) if ln.split("#", 1)[0].strip()]
            last = code[-1] if code else len(lines) - 1
            line, col = last + 1, len(lines[last].split("#", 1)[0].rstrip()) + 1
        else:
            msg = f"unexpected {str(tok)!r}"
        exp = {_describe(x) for x in e.expected if not x.startswith("_")}
        kind = re.search(r"\bchoose\s+(number|subset)\s*$", lines[line - 1][: col - 1])
        if tok.type == "NAME" and kind and exp == {"'in'"}:  # (only `simultaneously` takes `choose NAME in` alone)
            return Diagnostic(Span(file, line, col), f"a 'simultaneously' has no 'choose {kind[1]}': each of its choices "
                              "is 'choose NAME in LIST' (a number: 'choose n in range(A, B)'); or write the choice at "
                              "the head of an action of a phase played at the same time, where it is sealed too")
        if tok.type == "NAME":
            words = [w.strip("'") for w in exp if w.startswith("'") and w[1:-1].isalpha()]
            hint = did_you_mean(str(tok), words)
            if hint:
                return Diagnostic(Span(file, line, col), msg + hint)
        if (str(tok) == "=" and "'='" not in exp and "':'" not in exp and _after_value(lines[line - 1], col)
                and (exp & _ENDS_VALUE or any(x.startswith("a comparison") for x in exp))):
            return Diagnostic(Span(file, line, col), msg + " (did you mean '=='?): to compare two values write '=='")
        if {"'action'", "'effect'", "'game'", "'players'"} <= exp:  # at the top level of a file
            msg += "; expected a declaration ('action', 'effect', 'def', 'card', 'zone', 'counter', 'option', ...)"
            if tok.type != "$END" and f"'{tok}'" in _STATEMENT_WORDS:
                msg += f": a statement like '{tok}' belongs inside a block"
            return Diagnostic(Span(file, line, col), msg)
        first = [x for x in _FIRST if x in exp]
        rest = sorted(exp - set(first))
        shown = first + rest
        if shown:
            if len(shown) > 10:
                shown = shown[:10] + ["..."]
            msg += "; expected " + ", ".join(shown)
    else:
        msg = "syntax error"
    return Diagnostic(Span(file, line, col), msg)


def _after_value(line: str, col: int) -> bool:
    """Whether the text before column `col` of a line ends a value (a name, a number, a string,
    a closing bracket), not a typed parameter (`(x: int`): a '=' there that the grammar does not
    take is a comparison."""
    before = line[: col - 1].rstrip()
    return (bool(before) and (before[-1].isalnum() or before[-1] in "_)]\"")
            and not re.search(r"[(,]\s*\w+\s*:\s*\w[\w ]*$", before))


def _check_depth(f: A.File) -> None:
    stack: list[tuple[A.Node, int]] = [(f, 0)]
    while stack:
        n, d = stack.pop()
        if d > MAX_DEPTH:
            raise TavError([Diagnostic(n.span, f"nesting is too deep (more than {MAX_DEPTH} levels)")])
        for c in A.children(n):
            stack.append((c, d + 1))


def _span(file: str, meta) -> Span:
    if getattr(meta, "empty", True):
        return Span(file, 1, 1)
    return Span(file, meta.line, meta.column, meta.end_line, meta.end_column)


def _tspan(file: str, tok: Token) -> Span:
    assert tok.line is not None and tok.column is not None  # the parser keeps every token's place
    return Span(file, tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column)


def card_text(file: str, tok) -> "A.CardText | None":
    """A card text template: literal text and `{name}` holes (`{{` and `}}` are braces). Each
    hole keeps its own span inside the string, so an unknown name is reported at it."""
    if tok is None:
        return None
    raw = str(tok)[1:-1]
    parts: list = []
    lit: list[str] = []
    i = 0
    while i < len(raw):
        ch = raw[i]
        if ch == "\\" and i + 1 < len(raw):
            nxt = raw[i + 1]
            lit.append({"n": "\n"}.get(nxt, nxt))
            i += 2
            continue
        if ch in "{}" and raw[i + 1:i + 2] == ch:
            lit.append(ch)
            i += 2
            continue
        col = tok.column + 1 + i
        if ch == "}":
            raise TavError([Diagnostic(Span(file, tok.line, col, tok.line, col + 1),
                                       "a '}' in a card text closes no '{' (write '}}' for a brace)")])
        if ch == "{":
            j = raw.find("}", i)
            name = raw[i + 1:j].strip() if j >= 0 else ""
            if j < 0 or not name.isidentifier():
                raise TavError([Diagnostic(Span(file, tok.line, col, tok.line, col + 1),
                                           "a '{' in a card text opens a hole that names an attribute, "
                                           "like '{points}' (write '{{' for a brace)")])
            parts.append("".join(lit))
            lit = []
            parts.append((name, Span(file, tok.line, col + 1 + raw[i + 1:j].index(name), tok.line,
                                     col + 1 + raw[i + 1:j].index(name) + len(name))))
            i = j + 1
            continue
        lit.append(ch)
        i += 1
    parts.append("".join(lit))
    return A.CardText(_tspan(file, tok), tuple(parts))


def _s(tok) -> str | None:
    """An optional string token's text, unquoted (None when absent)."""
    return None if tok is None else _text(tok)


def _text(tok) -> str:
    """A string token's text, unquoted."""
    s = str(tok)[1:-1]
    return s.replace('\\"', '"').replace("\\\\", "\\").replace("\\n", "\n")


def _q(op: str):
    """The builder method of a quantifier `op(x in coll where cond)`."""
    def f(self, m, c):
        return A.Quant(self.sp(m), op, str(c[0]), c[1], c[2])
    return f


def _a(op: str):
    """The builder method of an aggregate `op(value for x in coll where cond)`."""
    def f(self, m, c):
        return A.Aggregate(self.sp(m), op, c[0], str(c[1]), c[2], c[3])
    return f


def _g(op: str):
    """The builder method of `gain`/`lose`/`give`/`take`."""
    def f(self, m, c):
        return A.Gain(self.sp(m), op, c[0], str(c[1]), _tspan(self.f, c[1]), c[2])
    return f


@v_args(meta=True)
class _Builder(Transformer_NonRecursive):
    """Construction only: parse tree -> AST nodes. No semantics here."""

    def __init__(self, file: str):
        super().__init__()
        self.f = file

    def sp(self, meta) -> Span:
        return _span(self.f, meta)

    # ---- expressions
    def int_lit(self, m, c):
        if len(c[0]) > MAX_DIGITS:  # a whole number the rules could need has far fewer digits
            raise TavError([Diagnostic(self.sp(m), f"a number of {len(c[0])} digits is too large (at most {MAX_DIGITS})")])
        return A.Lit(self.sp(m), int(c[0]))
    def str_lit(self, m, c): return A.Lit(self.sp(m), _s(c[0]))
    def true_lit(self, m, c): return A.Lit(self.sp(m), True)
    def false_lit(self, m, c): return A.Lit(self.sp(m), False)
    def none_lit(self, m, c): return A.Lit(self.sp(m), None)
    def name(self, m, c): return A.Name(self.sp(m), str(c[0]))
    def list_lit(self, m, c): return A.ListLit(self.sp(m), tuple(x for x in c if x is not None))
    def attr(self, m, c): return A.Attr(self.sp(m), c[0], str(c[1]))
    def index(self, m, c): return A.Index(self.sp(m), c[0], c[1])
    def of_expr(self, m, c): return A.Of(self.sp(m), str(c[0]), _tspan(self.f, c[0]), c[1])
    def args(self, m, c): return tuple(x for x in c if x is not None)
    def call(self, m, c): return A.Call(self.sp(m), str(c[0]), c[1])
    def all_zone(self, m, c): return A.AllZone(self.sp(m), str(c[0]))
    def every_zone(self, m, c): return A.EveryZone(self.sp(m), str(c[0]))

    count_q, any_q, every_q, filter_q = _q("count"), _q("any"), _q("every"), _q("filter")

    sum_agg, min_agg, max_agg, distinct_agg = _a("sum"), _a("min"), _a("max"), _a("distinct")

    def any_subset(self, m, c): return A.AnySubset(self.sp(m), str(c[0]), c[1], c[2], c[3], c[4])
    def binop(self, m, c): return A.BinOp(self.sp(m), str(c[1]), c[0], c[2])
    def compare(self, m, c): return A.BinOp(self.sp(m), str(c[1]), c[0], c[2])
    def or_op(self, m, c): return A.BinOp(self.sp(m), "or", c[0], c[1])
    def and_op(self, m, c): return A.BinOp(self.sp(m), "and", c[0], c[1])
    def not_expr(self, m, c): return A.Not(self.sp(m), c[0])
    def neg(self, m, c): return A.Neg(self.sp(m), c[0])
    def is_expr(self, m, c): return A.IsKind(self.sp(m), c[0], str(c[1]))
    def cond_expr(self, m, c): return A.Cond(self.sp(m), c[0], c[1], c[2])
    def pat_name(self, m, c): return ("name", str(c[0]))
    def pat_int(self, m, c): return ("int", int(c[0]))
    def pat_str(self, m, c): return ("str", _s(c[0]))
    def match_case(self, m, c): return A.MatchCase(self.sp(m), tuple(c[:-1]), c[-1])
    def match_else(self, m, c): return A.MatchCase(self.sp(m), (), c[0])
    def match_expr(self, m, c): return A.Match(self.sp(m), c[0], tuple(x for x in c[1:] if x is not None))

    # ---- statements
    def block(self, m, c): return A.Block(self.sp(m), tuple(c))
    def position(self, m, c): return str(c[0])
    def face(self, m, c): return str(c[0])
    def move_stmt(self, m, c): return A.Move(self.sp(m), c[0], c[1], c[2], c[3])
    def shuffle_stmt(self, m, c): return A.Shuffle(self.sp(m), c[0])
    def reveal_stmt(self, m, c): return A.Reveal(self.sp(m), c[0])
    def look_stmt(self, m, c): return A.Look(self.sp(m), c[0])
    def show_stmt(self, m, c): return A.Show(self.sp(m), c[0], c[1])

    gain_stmt, lose_stmt, give_stmt, take_stmt = _g("gain"), _g("lose"), _g("give"), _g("take")

    def set_stmt(self, m, c): return A.Set(self.sp(m), c[0], c[1])
    def swap_stmt(self, m, c): return A.Swap(self.sp(m), c[0], c[1])
    def next_stmt(self, m, c): return A.NextTurn(self.sp(m), c[0])
    def by_player(self, m, c): return A.Chooser(self.sp(m), False, c[0])
    def at_random(self, m, c): return A.Chooser(self.sp(m), True, None)
    def choose_stmt(self, m, c): return A.Choose(self.sp(m), str(c[0]), c[1], c[2], _s(c[3]), c[4], c[5])
    def choice_option(self, m, c): return A.ChoiceOption(self.sp(m), _text(c[0]), c[1], c[2])
    def choose_one(self, m, c): return A.ChooseOne(self.sp(m), _s(c[0]), c[1], tuple(c[2:]))
    def choose_number(self, m, c): return A.ChooseNumber(self.sp(m), str(c[0]), c[1], c[2], _s(c[3]), c[4], c[5])
    def choose_subset(self, m, c):
        return A.ChooseSubset(self.sp(m), str(c[0]), c[1], c[2], c[3], c[4], c[5], _s(c[6]), c[7], c[8])
    def up_to(self, m, c): return True
    def choose_n(self, m, c):
        return A.ChooseN(self.sp(m), bool(c[0]), c[1], str(c[2]), c[3], c[4], _s(c[5]), c[6], c[7])
    def for_stmt(self, m, c): return A.For(self.sp(m), str(c[0]), c[1], c[2], c[3])
    def simul_stmt(self, m, c):
        return A.Simultaneous(self.sp(m), str(c[0]), c[1], str(c[2]), c[3], c[4], _s(c[5]), c[-1], tuple(c[6:-1]))
    def simul_choice(self, m, c): return A.SimulChoice(self.sp(m), str(c[0]), c[1], c[2], _s(c[3]))
    def else_part(self, m, c):
        x = c[0]
        return x if isinstance(x, A.Block) else A.Block(x.span, (x,))
    def if_stmt(self, m, c): return A.If(self.sp(m), c[0], c[1], c[2])
    def repeat_stmt(self, m, c): return A.Repeat(self.sp(m), c[0], c[1])
    def do_stmt(self, m, c): return A.Do(self.sp(m), c[0], c[1])
    def let_stmt(self, m, c): return A.Let(self.sp(m), str(c[0]), c[1])
    def emit_stmt(self, m, c): return A.Emit(self.sp(m), str(c[0]), c[1] or ())
    def end_stmt(self, m, c): return A.EndGame(self.sp(m))
    def eliminate_stmt(self, m, c): return A.Eliminate(self.sp(m), c[0])
    def require_stmt(self, m, c): return A.Require(self.sp(m), c[0], _s(c[1]))
    def log_stmt(self, m, c): return A.Log(self.sp(m), _text(c[0]))

    # ---- declarations
    def type(self, m, c): return A.TypeRef(self.sp(m), str(c[0]))
    def list_type(self, m, c): return A.TypeRef(self.sp(m), str(c[0]), True)
    def param(self, m, c): return A.Param(self.sp(m), str(c[0]), c[1])
    def params(self, m, c): return tuple(x for x in c if x is not None)
    def game_decl(self, m, c): return A.GameDecl(self.sp(m), _text(c[0]))
    def players_decl(self, m, c): return A.PlayersDecl(self.sp(m), int(c[0]), int(c[1] if c[1] is not None else c[0]))
    def include_decl(self, m, c): return A.Include(self.sp(m), _text(c[0]))
    def option_range(self, m, c): return (c[0], c[1])
    def option_decl(self, m, c):
        lo, hi = c[3] if c[3] else (None, None)
        return A.OptionDecl(self.sp(m), str(c[0]), c[1], c[2], lo, hi, _s(c[4]))
    def name_list(self, m, c): return tuple(c)
    def enum_decl(self, m, c):
        return A.EnumDecl(self.sp(m), str(c[0]), tuple(str(x) for x in c[1]), tuple(_tspan(self.f, x) for x in c[1]))
    def attr_decl(self, m, c): return A.AttrDecl(self.sp(m), str(c[1]), c[2], c[3], c[0] is not None, c[4] is not None)
    def kind_decl(self, m, c):
        items = [x for x in c[3:] if x is not None]
        unit, unit_span = c[2] if c[2] else (None, None)
        return A.KindDecl(self.sp(m), str(c[0]), tuple(x for x in items if isinstance(x, A.AttrDecl)),
                          tuple(x for x in items if isinstance(x, A.KindZone)),
                          tuple(x for x in items if isinstance(x, A.KindDef)),
                          card_text(self.f, c[1]), unit, unit_span)
    def zone_drop(self, m, c): return ("drop", c[0])
    def kind_zone(self, m, c):
        vis, cap, drop = "public", None, None
        for k, v in c[1:]:
            if k == "vis":
                vis = v
            elif k == "cap":
                cap = v
            elif k == "drop":
                drop = v
        return A.KindZone(self.sp(m), str(c[0]), vis, cap, drop)
    def kind_def(self, m, c): return A.KindDef(self.sp(m), str(c[0]), c[1], c[2])
    def field(self, m, c): return A.Field(self.sp(m), str(c[0]), c[1])
    def card_decl(self, m, c):
        if c[1] is not None and len(str(c[1])) - 1 > MAX_DIGITS:
            raise TavError([Diagnostic(_tspan(self.f, c[1]), f"{len(str(c[1])) - 1} digits of copies is too many")])
        copies = int(str(c[1])[1:]) if c[1] is not None else 1
        return A.CardDecl(self.sp(m), _text(c[0]), copies, str(c[2]), _tspan(self.f, c[2]),
                          tuple(x for x in c[4:] if x is not None), card_text(self.f, c[3]))
    def card_names(self, m, c): return list(c)
    def card_run(self, m, c):
        """`card "Bid {n}" [xN] for n in LOW..HIGH: KIND ...`: one ordinary card declaration for
        each number from LOW to HIGH, in order, the name's `{n}` holes and the fields' `n`
        reading as that number; a list of names instead of the template names each card. A run
        that cannot be expanded is a CardRunError, which the checker reports."""
        names, copies_tok, var, low, high, kind, text = c[:7]
        for tok in (copies_tok, low, high):
            if tok is not None and len(str(tok).lstrip("x")) > MAX_DIGITS:
                raise TavError([Diagnostic(_tspan(self.f, tok), f"a number of {len(str(tok).lstrip('x'))} digits is too large")])
        copies = int(str(copies_tok)[1:]) if copies_tok is not None else 1
        lo, hi = int(low), int(high)
        first = names[0] if isinstance(names, list) else names
        if hi < lo:
            return A.CardRunError(_tspan(self.f, low), f"the run {lo}..{hi} of cards is empty: it counts up, from the lower number")
        if hi - lo + 1 > MAX_RUN:
            return A.CardRunError(_tspan(self.f, low), f"a run of {hi - lo + 1} cards is too long (at most {MAX_RUN})")
        if isinstance(names, list) and len(names) != hi - lo + 1:
            return A.CardRunError(_tspan(self.f, first), f"{len(names)} names for the {hi - lo + 1} cards of {lo}..{hi}: "
                                  "give one name for each card")
        try:
            out = [self._run_name(names[i] if isinstance(names, list) else names, str(var), n)
                   for i, n in enumerate(range(lo, hi + 1))]
        except ValueError as e:
            return A.CardRunError(_tspan(self.f, first), str(e))
        if not isinstance(names, list) and hi > lo and out[0] == out[-1]:
            return A.CardRunError(_tspan(self.f, names), f"every card of the run would be named {names}: put "
                                  f"'{{{var}}}' in the name for its number, or give a list of names")
        fields = tuple(x for x in c[7:] if x is not None)
        span = self.sp(m)
        return tuple(A.CardDecl(span, name, copies, str(kind), _tspan(self.f, kind),
                                tuple(A.rebuilt(f, str(var), n) for f in fields), card_text(self.f, text),
                                _tspan(self.f, names[i] if isinstance(names, list) else names))
                     for i, (name, n) in enumerate(zip(out, range(lo, hi + 1))))
    def _run_name(self, tok, var: str, n: int) -> str:
        """A numbered card's name: the template's `{VAR}` holes read as `n` (`{{` `}}`: braces)."""
        raw = _text(tok)
        out: list[str] = []
        i = 0
        while i < len(raw):
            ch = raw[i]
            if ch in "{}" and raw[i + 1:i + 2] == ch:
                out.append(ch)
                i += 2
                continue
            if ch == "{" and raw.find("}", i) >= 0 and raw[i + 1:raw.find("}", i)].strip() == var:
                out.append(str(n))
                i = raw.find("}", i) + 1
                continue
            if ch in "{}":
                raise ValueError(f"a '{ch}' in the name of a run of cards: a hole '{{{var}}}' stands for the card's "
                                 f"number (write '{ch}{ch}' for a brace)")
            out.append(ch)
            i += 1
        return "".join(out)
    def component_entry(self, m, c):
        count, target = c[0], c[1]
        if len(str(count)) > MAX_DIGITS:
            raise TavError([Diagnostic(_tspan(self.f, count), f"a number of {len(str(count))} digits is too large (at most {MAX_DIGITS})")])
        label = c[-1] if isinstance(c[-1], Token) and c[-1].type == "STRING" and len(c) > 2 else None
        is_card = target.type == "STRING"
        return A.ComponentEntry(self.sp(m), int(count), _tspan(self.f, count), None if is_card else str(target),
                                _s(target) if is_card else None, _tspan(self.f, target),
                                tuple(x for x in c[2:] if isinstance(x, A.Field)), _s(label))
    def components_decl(self, m, c):
        return A.ComponentsDecl(self.sp(m), _s(c[0]), tuple(x for x in c[1:] if isinstance(x, A.ComponentEntry)))
    def per_player(self, m, c): return True
    def counter_range(self, m, c): return (c[0], c[1], c[2] is not None)
    def view_name(self, m, c): return (str(c[0]), self.sp(m))
    def view_group(self, m, c):
        if c[0] is True:  # per player ["NOUN"]: Your NOUN, P2's NOUN
            return A.ViewGroup(self.sp(m), _s(c[1]), True, c[2], tuple(c[3:]))
        return A.ViewGroup(self.sp(m), _s(c[0]), False, c[1], tuple(c[2:]))
    def view_decl(self, m, c): return A.ViewDecl(self.sp(m), tuple(c))
    def counter_unit(self, m, c): return ((_s(c[0]), _s(c[1]) if c[1] is not None else None), self.sp(m))
    def counter_decl(self, m, c):
        lo, hi, wrap = c[3] if c[3] else (None, None, False)
        unit, unit_span = c[5] if c[5] else (None, None)
        return A.CounterDecl(self.sp(m), str(c[0]), bool(c[1]), c[2], lo, hi, wrap, _s(c[4]), unit, unit_span)
    def var_decl(self, m, c): return A.VarDecl(self.sp(m), str(c[0]), c[1], bool(c[2]), c[3])
    def zone_shared(self, m, c): return ("scope", False)
    def zone_per_player(self, m, c): return ("scope", True)
    def visibility(self, m, c): return str(c[0])
    def zone_visibility(self, m, c): return ("vis", c[0])
    def zone_capacity(self, m, c): return ("cap", c[0])
    def zone_decl(self, m, c):
        per, vis, cap = False, "public", None
        title = _s(c[-1]) if isinstance(c[-1], Token) or c[-1] is None else None
        for k, v in [x for x in c[1:] if isinstance(x, tuple)]:
            if k == "scope":
                per = v
            elif k == "vis":
                vis = v
            else:
                cap = v
        return A.ZoneDecl(self.sp(m), str(c[0]), per, vis, cap, title)
    def def_decl(self, m, c): return A.DefDecl(self.sp(m), str(c[0]), c[1] or (), c[2], c[3])
    def effect_decl(self, m, c): return A.EffectDecl(self.sp(m), str(c[0]), c[1] or (), _s(c[2]), c[3])
    def action_decl(self, m, c): return A.ActionDecl(self.sp(m), str(c[0]), _s(c[1]), c[2])
    def setup_decl(self, m, c): return A.SetupDecl(self.sp(m), c[0])
    def game_end_decl(self, m, c): return A.GameEndDecl(self.sp(m), c[0])
    def action_ref(self, m, c): return A.ActionRef(self.sp(m), str(c[0]), c[1] is not None, c[2] is not None)
    def at_once(self, m, c): return True
    def until_spec(self, m, c): return (c[0], bool(c[1]))
    def winner_guard(self, m, c): return ("guard", c[0])
    def pass_spec(self, m, c): return ("pass", c[1], c[0] is not None)
    def simul_spec(self, m, c): return ("simultaneous", c[0])
    def turns_spec(self, m, c):
        start, once, simul, until = c[0], c[1] is not None, c[2], c[3]
        until, at_once = until if until is not None else (None, False)
        refs = [x for x in c[4:] if isinstance(x, A.ActionRef)]
        ps = [x for x in c[4:] if isinstance(x, tuple)]
        return dict(start=start, once_each=once, until=until, until_at_once=at_once, actions=tuple(refs),
                    can_pass=bool(ps), pass_cond=ps[0][1] if ps else None, pass_final=bool(ps) and ps[0][2],
                    simultaneous=simul is not None, simul_cond=simul[1] if simul is not None else None)
    def phase_steps(self, m, c): return A.Phase(self.sp(m), str(c[0]), _s(c[1]), c[2])
    def phase_each(self, m, c):
        return A.Phase(self.sp(m), str(c[0]), _s(c[1]), c[3], each_player=True, each_from=c[2])
    def phase_turns(self, m, c): return A.Phase(self.sp(m), str(c[0]), _s(c[1]), None, **c[2])
    def rounds_decl(self, m, c): return A.RoundsDecl(self.sp(m), c[0], tuple(x for x in c[1:] if x is not None))
    def end_decl(self, m, c): return A.EndDecl(self.sp(m), c[0])
    def winner_highest(self, m, c): return A.WinnerDecl(self.sp(m), tuple(c[1:]), None, c[0][1] if c[0] else None)
    def winner_everyone(self, m, c): return A.WinnerDecl(self.sp(m), (), c[1], c[0][1] if c[0] else None)
    def reach_decl(self, m, c):
        return A.ReachDecl(self.sp(m), str(c[0]), _tspan(self.f, c[0]), str(c[1]), c[2], c[3])
    def on_decl(self, m, c): return A.OnDecl(self.sp(m), str(c[0]), c[1] or (), c[2])
    def extends_decl(self, m, c): return A.Extends(self.sp(m), _text(c[0]))
    def replace_decl(self, m, c): return A.Replace(self.sp(m), c[0])
    def remove_kind(self, m, c): return str(c[0])
    def remove_decl(self, m, c):
        tok = c[1]
        name = _s(tok) if tok.type == "STRING" else str(tok)
        return A.Remove(self.sp(m), c[0], name, _tspan(self.f, tok))
    def remove_end(self, m, c): return A.Remove(self.sp(m), "end", None, None)
    def remove_components(self, m, c):
        return A.Remove(self.sp(m), "components", _s(c[0]), _tspan(self.f, c[0]) if c[0] is not None else None)
    def set_option_decl(self, m, c): return A.SetOption(self.sp(m), str(c[0]), _tspan(self.f, c[0]), c[1])
    def add_where(self, m, c): return str(c[0])
    def add_phase_decl(self, m, c):
        return A.AddPhase(self.sp(m), c[0], c[1], str(c[2]) if c[2] is not None else None,
                          _tspan(self.f, c[2]) if c[2] is not None else None)

    def scen_option(self, m, c): return ("option", (str(c[0]), c[1], self.sp(m)))
    def scen_given(self, m, c): return ("given", (c[0], self.sp(m)))
    def scen_answers(self, m, c): return ("answers", tuple(_s(x) for x in c))
    def scen_run(self, m, c): return ("run", (c[0], self.sp(m)))
    def scen_setup_random(self, m, c): return ("setup_random", True)
    def scen_expect(self, m, c): return ("expect", (c[0], _s(c[1])))
    def scenario_decl(self, m, c):
        opts, given, answers, run, expects = [], None, [], None, []
        random_setup = False
        # a second `given` or `run` block is a check error (at it, noting the first)
        firsts: dict[str, Span] = {}
        repeated: list = []
        for k, v in c[3:]:
            if k in ("given", "run"):
                v, where = v
                if k in firsts:
                    repeated.append((k, where, firsts[k]))
                    continue
                firsts[k] = where
            if k == "option":
                opts.append(v)
            elif k == "given":
                given = v
            elif k == "answers":
                answers.extend(v)
            elif k == "run":
                run = v
            elif k == "setup_random":
                random_setup = True
            else:
                expects.append(v)
        return A.ScenarioDecl(self.sp(m), _text(c[0]), int(c[1]), int(c[2]) if c[2] is not None else 1,
                              tuple(opts), given, tuple(answers), run, tuple(expects), random_setup,
                              repeated=tuple(repeated))
