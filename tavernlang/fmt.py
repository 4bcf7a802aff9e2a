"""`tav fmt`: one canonical layout for rules files.

The formatter works on the file's tokens, never on its meaning: it parses the text (a file
that does not parse is refused with the parser's located error), then lays the same tokens
out again. Only whitespace changes, so a formatted file always means what it meant.

The layout (docs/formatting.md says why):

* Indentation is two spaces per block; a line that continues a statement is indented two
  more (four while the statement's own block has not opened yet, so it stands apart from
  the block's statements). Inside brackets, ``actions`` and ``answers`` lists, a continued
  line lines up after the opening bracket (or keyword) when something follows it on its
  line, else it is indented two more than the line that opened it.
* Spacing inside a line is canonical: one space between words and around operators, none
  inside brackets, before ``,`` ``:`` ``.`` or a call's ``(``, none around ``..``; ``{ a }``
  and ``{ }``; two spaces between statements that share a line in a one-line block.
* The author's line breaks are kept (as gofmt keeps them) with these exceptions: each
  declaration starts a line; a block ``{`` joins its header's line; a block written on
  several lines has one statement per line and its ``}`` on a line of its own. A line longer
  than WIDTH characters (its code; a comment does not count) is broken: a one-line block on
  it opens up first, else it breaks at the outermost place that lets it fit (after a ``,``
  or a def's ``=``, before ``and``/``or``/``then``/``else``/``where``/``+``/``-`` or a label).
  A scenario's ``expect`` condition stays on one line: the scenario log quotes it from its line.
* At most one blank line in a row; none at the start of a file, after a ``{`` or before a
  block's ``}``; one newline at the end.
* Every comment stays where it is: a comment on a line of its own stays on its own line
  (indented as the code after it); a comment at the end of a line stays at the end of that
  line, at its column when the code leaves room, else two spaces after the code. A line
  that ends in a comment is never broken, and the tokens of a source line that ends in a
  comment stay on one line (even two declarations or statements), so a ``# tav: ignore[...]``
  suppression stays on the line of all it suppresses.
"""
from __future__ import annotations

import difflib
import functools
from importlib import resources

import attrs
from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedInput

from .errors import Diagnostic, SourceCache, Span, TavError

WIDTH = 120  # the longest line of code the formatter writes when it can break it

_AGGREGATES = {"count", "any", "every", "filter", "sum", "min", "max", "distinct"}
_BLOCK_BRACES = {"block", "rounds_decl", "scenario_decl", "choose_one", "turns_spec"}
_LABELLED = {"choose_stmt", "choose_number", "choose_subset", "choose_n", "simul_stmt", "simul_choice", "require_stmt",
             "scen_expect", "option_decl"}


@functools.lru_cache(maxsize=1)
def _lark() -> Lark:
    """The project's grammar, keeping every token (keywords and punctuation too)."""
    from .syntax.parser import _grammar_cache
    text = resources.files("tavernlang.syntax").joinpath("grammar.lark").read_text("utf-8")
    cache = _grammar_cache(text + "\n// tav fmt: keep_all_tokens\n")
    return Lark(text, parser="lalr", propagate_positions=True, maybe_placeholders=True,
                keep_all_tokens=True, cache=cache)


@attrs.define
class _Tok:
    text: str
    type: str
    line: int
    col: int  # 1-based
    end_pos: int  # offset just past the token in the source
    pos: int
    parent: str
    stmt: bool = False  # starts a statement, a declaration or a scenario part
    top: bool = False  # starts a declaration
    soft: bool = False  # 'pass' of a phase of turns: lines up with 'actions' when it starts a line
    block: int = -1  # the other brace of a block
    bracket: int = -1  # the other bracket of ( ), [ ], or a brace that is not a block's
    list_end: int = -1  # 'actions'/'answers': the last token of the list
    unary: bool = False
    brk_before: bool = False
    brk_after: bool = False
    depth: int = 0  # brackets open around the token
    header_end: int = -1  # a statement's start: the index of its own block's '{' (-1: none)
    joined: bool = False  # inside an expect's condition: never on a new line


@attrs.define
class _Gap:
    """What lies between two tokens: newlines and comments."""

    newlines: int = 0
    trailing: str | None = None  # a comment on the previous token's line
    trailing_col: int = 0  # 0-based column of it in the source
    comments: list = attrs.Factory(list)  # (text, blank line before it) for comments on lines of their own
    blank_before_next: bool = False


def _tokens(tree: Tree) -> list[_Tok]:
    toks: list[_Tok] = []

    def add(t: Token, parent: str) -> None:
        toks.append(_Tok(str(t), t.type, t.line, t.column, t.end_pos, t.start_pos, parent))

    def visit(tree: Tree) -> tuple[int, int]:
        first = len(toks)
        kids: list[tuple[object, int, int]] = []  # (child, first token, last token)
        for c in tree.children:
            if c is None:
                continue
            if isinstance(c, Token):
                add(c, tree.data)
                kids.append((c, len(toks) - 1, len(toks) - 1))
            else:
                a, b = visit(c)
                if b >= a:
                    kids.append((c, a, b))
        last = len(toks) - 1
        data = tree.data
        if data == "start":
            for _, a, _b in kids:
                toks[a].stmt = toks[a].top = True
        if data in _BLOCK_BRACES:
            opens = [i for c, i, _ in kids if isinstance(c, Token) and c == "{"]
            closes = [i for c, i, _ in kids if isinstance(c, Token) and c == "}"]
            if opens and closes:
                o, cl = opens[0], closes[-1]
                toks[o].block, toks[cl].block = cl, o
                for c, a, b in kids:
                    if not (o < a and b < cl):
                        continue
                    if data == "turns_spec":
                        if isinstance(c, Token) and c == "actions":
                            toks[a].stmt = True
                            refs = [bb for cc, aa, bb in kids if isinstance(cc, Tree) and cc.data == "action_ref"]
                            toks[a].list_end = refs[-1] if refs else a
                        elif isinstance(c, Tree) and c.data == "pass_spec":
                            toks[a].soft = True
                    elif not isinstance(c, Token):
                        toks[a].stmt = True
        if data == "scen_expect" and len(kids) > 1:
            # A scenario's log quotes each expect's condition from its source line: keep it on
            # one line (its label may go to the next).
            _, a, b = kids[1]
            for k in range(a + 1, b + 1):
                toks[k].joined = True
                toks[k].brk_before = toks[k - 1].brk_after = False
        if data == "scen_answers":
            toks[first].list_end = last
        if data in ("or_op", "and_op", "cond_expr", "binop"):
            for c, a, _ in kids:
                if isinstance(c, Token) and (c.type in ("OR", "AND", "THEN", "ELSE") or str(c) in "+-"):
                    toks[a].brk_before = True
        if data in ("def_decl", "kind_def"):
            for c, a, _ in kids:
                if isinstance(c, Token) and c == "=":
                    toks[a].brk_after = True
        if data in _LABELLED:
            for c, a, _ in kids[1:]:
                if isinstance(c, Token) and c.type == "STRING":
                    toks[a].brk_before = True
        for c, a, _ in kids:
            if isinstance(c, Token):
                if c.type == "WHERE":
                    toks[a].brk_before = True
                elif c == ",":
                    toks[a].brk_after = True
                elif c == "-" and data == "neg":
                    toks[a].unary = True
        return first, last

    visit(tree)
    stack: list[int] = []
    for i, t in enumerate(toks):
        t.depth = len(stack)
        if t.text in ("(", "[", "{") and t.block < 0:
            stack.append(i)
        elif t.text in (")", "]", "}") and t.block < 0:
            o = stack.pop()
            toks[o].bracket, t.bracket = i, o
            t.depth = len(stack)
    opened: list[int] = []  # statement starts whose own block has not been seen yet
    for i, t in enumerate(toks):
        if t.stmt:
            opened.append(i)
        if t.block > i and opened:
            toks[opened.pop()].header_end = i
    return toks


def _gaps(text: str, toks: list[_Tok]) -> list[_Gap]:
    """The gap before each token (and the one after the last): its newlines and comments."""
    gaps = []
    prev_end = 0
    for i in range(len(toks) + 1):
        end = toks[i].pos if i < len(toks) else len(text)
        segs = text[prev_end:end].split("\n")  # only whitespace and comments lie between tokens
        g = _Gap(newlines=len(segs) - 1)
        if i > 0:
            s0 = segs[0]
            if "#" in s0:
                line_start = text.rfind("\n", 0, prev_end) + 1
                g.trailing = s0[s0.index("#"):].rstrip()
                g.trailing_col = prev_end + s0.index("#") - line_start
            segs = segs[1:]
        blank = False
        for j, s in enumerate(segs):
            st = s.strip()
            if st.startswith("#"):
                g.comments.append((st, blank))
                blank = False
            elif j < len(segs) - 1:
                blank = True
        g.blank_before_next = blank
        gaps.append(g)
        if i < len(toks):
            prev_end = toks[i].end_pos
    return gaps


@attrs.define
class _Frame:
    kind: str  # block | bracket | list
    content: int | None
    close: int
    open_line_indent: int = 0
    stmt_indent: int = 0
    header_end: int = -1
    multi: bool = True
    end: int = -1
    opened_at: int = -1  # the index of its opening token


@attrs.define
class _Line:
    first: int  # first token on it (-1: a comment line)
    last: int
    code_len: int
    trailing: bool


def _space(a: _Tok, b: _Tok, in_one_line_block: bool) -> str:
    if b.stmt and in_one_line_block and not (a.block > -1 and a.text == "{"):
        return "  "  # statements sharing a line
    ta, tb = a.text, b.text
    if ta in ("(", "[") or tb in (")", "]", ",", ":"):
        return ""
    if ta == "." or tb == "." or ta == ".." or tb == "..":
        return ""
    if a.unary:
        return ""
    if tb == "(" and (a.type == "NAME" or ta in _AGGREGATES):
        return ""
    if tb == "[" and (a.type == "NAME" or ta in (")", "]")):
        return ""
    return " "


def _render(toks: list[_Tok], gaps: list[_Gap], expanded: set[int], breaks: set[int]):
    n = len(toks)
    # a block is on several lines when its source is, or when it was opened up to fit
    # the source lines that end in a comment: their tokens stay on one line, so that the
    # comment (a '# tav:' suppression too) stays on the line of each of them
    commented = {toks[k - 1].line for k in range(1, n + 1) if gaps[k].trailing is not None}
    nl_prefix = [0]
    for g in gaps:
        nl_prefix.append(nl_prefix[-1] + g.newlines + (1 if g.trailing or g.comments else 0))

    def multi(o: int) -> bool:
        c = toks[o].block
        return o in expanded or nl_prefix[c + 1] - nl_prefix[o + 1] > 0 or any(b in breaks for b in range(o + 1, c + 1))

    out: list[str] = []
    lines: list[_Line] = []
    cur: list[str] = []
    col = 0
    line_indent = 0
    line_first = -1
    frames = [_Frame("block", 0, 0)]
    cols = [0] * n
    cont = [0] * n
    inside = [-1] * n  # the opener of the brackets (or list) a token lines up in, on its line

    def block_frame() -> _Frame:
        for f in reversed(frames):
            if f.kind == "block":
                return f
        return frames[0]

    def indent_for(i: int, comment: bool = False, peek: bool = False) -> int:
        f = frames[-1]
        if i >= n:
            return 0
        t = toks[i]
        if t.block >= 0 and t.block < i:  # a block's '}'
            return f.content if comment else f.close
        if t.bracket >= 0 and t.bracket < i and not comment:
            return f.close
        if f.kind == "block":
            if t.stmt or t.soft:
                return f.content
            if f.header_end >= 0 and i <= f.header_end:
                return f.stmt_indent + 4
            return f.stmt_indent + 2
        if f.content is None:
            if peek:
                return f.open_line_indent + 2
            f.content = f.open_line_indent + 2
        return f.content

    def end_line(trailing: str | None = None, trailing_col: int = 0) -> None:
        nonlocal cur, col, line_first
        code = "".join(cur).rstrip()
        code_len = len(code)
        if trailing is not None:
            if code:
                at = max(trailing_col, code_len + 2)
                code = code + " " * (at - code_len) + trailing
            else:
                code = trailing
        out.append(code)
        lines.append(_Line(line_first, last_tok, code_len, trailing is not None and line_first >= 0))
        cur, col, line_first = [], 0, -1

    def start_line(indent: int, first: int) -> None:
        nonlocal cur, col, line_indent, line_first
        cur = [" " * indent]
        col = indent
        line_indent = indent
        line_first = first

    def blank() -> None:
        if out and out[-1] != "":
            out.append("")
            lines.append(_Line(-1, -1, 0, False))

    last_tok = -1
    for i in range(n + 1):
        g = gaps[i]
        t = toks[i] if i < n else None
        a = toks[i - 1] if i > 0 else None
        after_open = a is not None and a.block > i - 1
        before_close = t is not None and 0 <= t.block < i
        if i == 0:
            newline = True
        elif t is None:
            newline = True
        elif g.trailing or g.comments:
            newline = True
        elif a.line == t.line and t.line in commented:
            newline = False
        elif t.top:
            newline = True
        elif t.block > i:  # a block's '{' joins its header's line
            newline = False
        elif t.parent == "else_part" and t.text == "else" and 0 <= a.block < i - 1:
            newline = False  # '} else {'
        elif t.stmt and frames[-1].kind == "block" and frames[-1].multi:
            newline = True
        elif after_open and multi(i - 1):
            newline = True
        elif before_close and multi(t.block):
            newline = True
        elif i in breaks:
            newline = True
        elif t.joined:
            newline = False
        elif (_space(a, t, False) == "" and not a.bracket > i - 1 and not 0 <= t.bracket < i
              and not t.stmt and not t.soft):
            newline = False  # never inside 'a.b', 'f(', 'x[', '1..2', '-1', nor before ',' or ':'
        else:
            newline = g.newlines > 0
        if not newline:
            one_line = (frames[-1].kind == "block" and not frames[-1].multi and len(frames) > 1
                        or a.line == t.line and t.line in commented)  # (statements sharing a line)
            sp = _space(a, t, one_line)
            if a.block > i - 1 and a.block >= 0 or before_close:
                sp = " "
            cur.append(sp)
            col += len(sp)
        else:
            if i > 0:
                end_line(g.trailing, g.trailing_col)
            fresh = after_open  # no blank line just inside a '{'
            for text, blank_before in g.comments:
                if blank_before and not fresh:
                    blank()
                start_line(indent_for(i, comment=True), -1)
                cur.append(text)
                end_line()
                fresh = False
            if t is None:
                break
            if g.blank_before_next and not fresh and not before_close:
                blank()
            start_line(indent_for(i), i)
        cont[i] = indent_for(i, peek=True)  # where it would start, were a line broken before it
        inside[i] = frames[-1].opened_at if frames[-1].kind != "block" and not 0 <= t.bracket < i else -1
        # place the token
        if t.block >= 0 and t.block < i or t.bracket >= 0 and t.bracket < i:
            frames.pop()
        f = frames[-1]
        if f.kind != "block" and f.content is None:
            f.content = col  # something follows the opener on its line: line up with it
        if line_first < 0:
            line_first = i
        cols[i] = col
        cur.append(t.text)
        col += len(t.text)
        last_tok = i
        if t.stmt:
            bf = frames[-1]
            bf.stmt_indent = line_indent
            bf.header_end = t.header_end
        if t.block > i:
            bf = frames[-1]
            frames.append(_Frame("block", bf.stmt_indent + 2, bf.stmt_indent, multi=multi(i)))
        elif t.bracket > i:
            frames.append(_Frame("bracket", None, line_indent, open_line_indent=line_indent, opened_at=i))
        elif t.list_end > i:
            frames.append(_Frame("list", None, line_indent, open_line_indent=line_indent, end=t.list_end,
                                 opened_at=i))
        while frames[-1].kind == "list" and frames[-1].end <= i:
            frames.pop()
    while out and out[-1] == "":
        out.pop()
        lines.pop()
    return out, lines, cols, cont, inside


def _layout(toks: list[_Tok], gaps: list[_Gap], width: int) -> list[str]:
    """Render, then open up blocks or add breaks on the lines that are too long, until none is
    (or none can be broken further)."""
    expanded: set[int] = set()
    breaks: set[int] = set()

    def rank(k: int) -> tuple[int, int]:
        return toks[k].depth, 0 if toks[k - 1].text == "=" else 1

    while True:
        out, lines, cols, cont, inside = _render(toks, gaps, expanded, breaks)
        changed = False
        for ln in lines:
            if ln.first < 0 or ln.trailing or ln.code_len <= width:
                continue
            blocks = [k for k in range(ln.first, ln.last + 1)
                      if toks[k].block > k and toks[k].block <= ln.last and k not in expanded]
            if blocks:  # a one-line block on it opens up first (the outermost)
                expanded.add(blocks[0])
                changed = True
                continue
            # Then breaks, greedily along the line: at the outermost place (a def's '=' first)
            # that lets the piece fit, the latest of them; if none fits, the first outermost one.
            # The pieces after a break are placed where a line starting there would be (the
            # next render corrects a guess that was too short).
            start, shift = ln.first, 0
            shifts = [(ln.first, 0)]  # each piece's first token and how far it moves
            end = cols[ln.last] + len(toks[ln.last].text)
            while end + shift > width:
                cands = [k for k in range(start + 1, ln.last + 1)
                         if (toks[k].brk_before or toks[k - 1].brk_after) and k not in breaks]
                if not cands:
                    break
                fits = [k for k in cands if cols[k - 1] + len(toks[k - 1].text) + shift <= width]
                if fits:
                    best = min(rank(k) for k in fits)
                    k = max(k for k in fits if rank(k) == best)
                else:
                    best = min(rank(k) for k in cands)
                    k = min(k for k in cands if rank(k) == best)
                breaks.add(k)
                changed = True
                moved = 0  # lined up after an opener on this line: it moves with the opener
                if inside[k] >= ln.first:
                    moved = next(sh for st, sh in reversed(shifts) if st <= inside[k])
                start, shift = k, cont[k] + moved - cols[k]
                shifts.append((start, shift))
        if not changed:
            return out


def _tree_depth(tree: Tree) -> int:
    deepest, stack = 0, [(tree, 1)]
    while stack:
        t, d = stack.pop()
        deepest = max(deepest, d)
        stack.extend((c, d + 1) for c in t.children if isinstance(c, Tree))
    return deepest


def format_text(text: str, path: str = "<text>", width: int = WIDTH) -> str:
    """The canonical layout of a rules file's text (see the module's doc). Raises TavError, a
    located diagnostic as `tav check` gives it, when the text does not parse; the result always
    parses to the same syntax tree as the text."""
    try:
        return _format(text, path, width)
    except TavError as e:
        if e.sources is None:  # so that the error shows the line and a caret
            e.sources = SourceCache()
            e.sources.add(path, text)
        raise


def _format(text: str, path: str, width: int) -> str:
    from .syntax import parser as P
    src = text.replace("\r\n", "\n").replace("\r", "\n")
    if src.startswith("\ufeff"):
        src = src[1:]
    try:
        tree = _lark().parse(src)
    except UnexpectedInput:
        tree = None
    # what the parser refuses beyond the grammar (huge numbers, deep nesting): its own verdict
    if (tree is None or _tree_depth(tree) > P.MAX_DEPTH - 20
            or any(t.type in ("INT", "COPIES") and len(t) > P.MAX_DIGITS for t in tree.scan_values(lambda v: isinstance(v, Token)))):
        P.parse(text, path)  # raises TavError for a file that does not parse
        if tree is None:  # cannot happen: the grammars are the same; still a place
            raise TavError([Diagnostic(Span(path, 1, 1), "cannot format this file")])
    toks = _tokens(tree)
    gaps = _gaps(src, toks)
    if not toks:
        lines = []
        for c, blank in gaps[0].comments:
            lines.extend([""] if blank and lines else [])
            lines.append(c)
        return "\n".join(lines) + "\n" if lines else ""
    out = _layout(toks, gaps, width)
    return "\n".join(out) + "\n"


def diff_text(before: str, after: str, path: str) -> str:
    """A unified diff of a file's text before and after formatting."""
    def lines(text: str) -> list[str]:
        out = text.splitlines(keepends=True)
        if out and not out[-1].endswith("\n"):
            out[-1] += "\n\\ No newline at end of file\n"
        return out

    return "".join(difflib.unified_diff(lines(before), lines(after), fromfile=path, tofile=path + " (formatted)"))


def _files(paths) -> list[str]:
    """The files to format: each FILE as given, each folder's .tav files (sorted), each once."""
    from pathlib import Path
    out: list[str] = []
    seen: set = set()
    for p in paths:
        pp = Path(p)
        found = sorted(str(f) for f in pp.rglob("*.tav") if f.is_file()) if pp.is_dir() else [str(pp)]
        for f in found:
            key = Path(f).resolve()
            if key not in seen:
                seen.add(key)
                out.append(f)
    return out


def run(paths, check: bool = False, show_diff: bool = False, echo=print, echo_err=None) -> int:
    """`tav fmt`: format files in place (or, with check/show_diff, only say what would change).
    Prints each file changed (or that would be); returns the exit code: 1 when a file does not
    parse, or with check when a file would change; else 0."""
    import sys

    from .syntax.parser import parse
    if echo_err is None:
        def echo_err(msg: str) -> None:
            print(msg, file=sys.stderr)
    errors = changed = 0
    for f in _files(paths):
        try:
            with open(f, "rb") as fh:
                data = fh.read()
        except OSError as e:
            echo_err(Diagnostic(Span(f, 1, 1), f"cannot read the file: {e.strerror or e}").render())
            errors += 1
            continue
        try:
            try:
                text = data.decode("utf-8")
            except UnicodeDecodeError:
                parse(data, f)  # raises the located error
                raise
            out = format_text(text, f)
        except TavError as e:
            echo_err(e.render())
            errors += len(e.diagnostics)
            continue
        if out == text:
            continue
        changed += 1
        if show_diff:
            echo(diff_text(text, out, f).rstrip("\n"))
        elif check:
            echo(f)
        else:
            try:
                with open(f, "w", encoding="utf-8", newline="") as fh:
                    fh.write(out)
            except OSError as e:
                echo_err(Diagnostic(Span(f, 1, 1), f"cannot write the file: {e.strerror or e}").render())
                errors += 1
                continue
            echo(f)
    if errors:
        echo_err(f"{errors} error{'s' if errors != 1 else ''}")
        return 1
    return 1 if check and changed else 0
