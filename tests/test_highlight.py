"""Highlighting: the Pygments lexer lexes every rules file of the repository, and it and the
TextMate grammar of editors/vscode/ highlight exactly the Lark grammar's keywords."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, Operator

from tavernlang import highlight
from tavernlang.errors import TavError
from tavernlang.syntax.parser import parse

ROOT = Path(__file__).resolve().parent.parent
TEXTMATE = ROOT / "editors" / "vscode" / "syntaxes" / "tav.tmLanguage.json"
RULES_FILES = sorted(p for p in ROOT.rglob("*.tav") if ".git" not in p.parts)


def _grammar_words() -> set[str]:
    """The grammar's keywords read straight from grammar.lark's text (not through Lark):
    every quoted word, and every terminal defined as one quoted word."""
    text = (ROOT / "tavernlang" / "syntax" / "grammar.lark").read_text()
    text = re.sub(r"//[^\n]*", "", text)
    return set(re.findall(r'"([A-Za-z_]+)"', text))


def test_keywords_are_the_grammars():
    words = _grammar_words()
    assert {"game", "choose", "once_each", "unlabelled", "wrap", "true"} <= words  # the reading works
    assert set(highlight.keywords()) == words


def test_categories_name_only_keywords_and_cover_them():
    cat = highlight.categories()
    kw = highlight.keywords()
    for name, ws in (("CONSTANTS", highlight.CONSTANTS), ("WORD_OPERATORS", highlight.WORD_OPERATORS),
                     ("DECLARATIONS", highlight.DECLARATIONS)):
        assert ws <= kw, f"{name} has words that are no keyword of the grammar: {sorted(ws - kw)}"
    assert frozenset().union(*cat.values()) == kw
    assert not (highlight.builtins() & kw)


def test_textmate_grammar_is_generated_from_the_lark_grammar():
    committed = json.loads(TEXTMATE.read_text())
    missing = highlight.keywords() - highlight.textmate_keywords(committed)
    extra = highlight.textmate_keywords(committed) - highlight.keywords()
    assert not missing and not extra, (f"{TEXTMATE.relative_to(ROOT)} is stale (missing {sorted(missing)}, "
                                       f"extra {sorted(extra)}): run python -m tavernlang.highlight textmate > {TEXTMATE.relative_to(ROOT)}")
    assert TEXTMATE.read_text() == highlight.textmate_json(), "regenerate it: python -m tavernlang.highlight textmate"


@pytest.mark.parametrize("rel", sorted(highlight.GENERATED_FILES))
def test_generated_editor_files_are_up_to_date(rel):
    assert (ROOT / rel).read_text() == highlight.GENERATED_FILES[rel](), \
        f"{rel} is stale: run python -m tavernlang.highlight write"


def test_vim_and_emacs_name_every_keyword():
    vim = (ROOT / "editors" / "vim" / "syntax" / "tav.vim").read_text()
    words = set()
    for line in vim.splitlines():
        if line.startswith("syn keyword ") and not line.startswith("syn keyword tavBuiltin"):
            words |= set(line.split()[3:])
    assert words == set(highlight.keywords())
    el = (ROOT / "editors" / "emacs" / "tav-mode.el").read_text()
    assert set(highlight.keywords()) <= set(re.findall(r'"([A-Za-z_]+)"', el))


SAMPLE = """\
# A sample.
action pour "pour" {
  require me.coins > 0 and open == true
  log "a mug"
}
"""
VIM_SCRIPT = r"""set rtp^=@VIM@
filetype plugin on
syntax on
edit @FILE@
let out = [&filetype, &commentstring]
for [pat, off] in [['^action', 0], ['\<require\>', 0], ['\<me\.', 0], ['\.coins', 1], ['"a mug', 0], ['\<true\>', 0], ['\<and\>', 0], ['^#', 0]]
  call cursor(1, 1)
  call search(pat)
  call add(out, synIDattr(synID(line('.'), col('.') + off, 1), 'name'))
endfor
call writefile(out, '@OUT@')
qall!
"""
EMACS_SCRIPT = r"""(add-to-list 'load-path "@EMACS@")
(require 'tav-mode)
(find-file "@FILE@")
(font-lock-ensure)
(defun face-at (re off) (goto-char (point-min)) (re-search-forward re) (get-text-property (+ (match-beginning 0) off) 'face))
(princ (format "%s %s %s %s %s %s\n" major-mode (face-at "^action" 0) (face-at "\\_<require\\_>" 0)
               (face-at "me\\.coins" 3) (face-at "\\_<true\\_>" 0) (face-at "\\_<me\\_>" 0)))
(with-temp-buffer (tav-mode) (insert "action a {\nmove x to y\nif c {\n gain 1 coins\n}\n}\n")
  (indent-region (point-min) (point-max)) (princ (buffer-string)))
"""


@pytest.mark.skipif(shutil.which("vim") is None, reason="no vim here")
def test_vim_highlights_a_rules_file(tmp_path):
    (tmp_path / "s.tav").write_text(SAMPLE)
    script = tmp_path / "t.vim"
    out = tmp_path / "out"
    script.write_text(VIM_SCRIPT.replace("@VIM@", str(ROOT / "editors" / "vim")).replace("@FILE@", str(tmp_path / "s.tav"))
                      .replace("@OUT@", str(out)))
    subprocess.run(["vim", "-Nu", "NONE", "-i", "NONE", "-es", "-S", str(script)], timeout=60, check=True,
                   stdin=subprocess.DEVNULL)
    assert out.read_text().split("\n")[:10] == ["tav", "# %s", "tavDeclaration", "tavKeyword", "tavBuiltin",
                                                "tavAttribute", "tavString", "tavConstant", "tavOperatorWord",
                                                "tavComment"]


@pytest.mark.skipif(shutil.which("emacs") is None, reason="no emacs here")
def test_emacs_mode_highlights_and_indents(tmp_path):
    (tmp_path / "s.tav").write_text(SAMPLE)
    script = tmp_path / "t.el"
    script.write_text(EMACS_SCRIPT.replace("@EMACS@", str(ROOT / "editors" / "emacs")).replace("@FILE@", str(tmp_path / "s.tav")))
    r = subprocess.run(["emacs", "-Q", "--batch", "-l", str(script)], capture_output=True, text=True, timeout=60,
                       stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split("\n")[0] == ("tav-mode font-lock-keyword-face font-lock-keyword-face "
                                       "font-lock-variable-name-face font-lock-constant-face font-lock-builtin-face")
    assert "action a {\n  move x to y\n  if c {\n    gain 1 coins\n  }\n}\n" in r.stdout


def test_textmate_patterns_compile_and_match():
    g = highlight.textmate()

    def patterns(node):
        if isinstance(node, dict):
            for k in ("match", "begin", "end"):
                if k in node:
                    yield node[k]
            for v in node.values():
                yield from patterns(v)
        elif isinstance(node, list):
            for v in node:
                yield from patterns(v)
    pats = list(patterns(g))
    assert len(pats) > 10
    for p in pats:
        re.compile(p)  # TextMate's Oniguruma reads these the same way (no lookbehind, no named groups)
    kw = g["repository"]["keywords"]["patterns"]
    assert re.search(kw[2]["match"], "  effect roll(d) {")
    assert not re.search(kw[3]["match"], "moved")  # whole words only


def test_vscode_manifest_names_the_grammar_and_the_configuration():
    folder = TEXTMATE.parent.parent
    pkg = json.loads((folder / "package.json").read_text())
    lang = pkg["contributes"]["languages"][0]
    assert lang["id"] == "tav" and ".tav" in lang["extensions"]
    assert (folder / lang["configuration"]).is_file()
    conf = json.loads((folder / lang["configuration"]).read_text())
    assert conf["comments"]["lineComment"] == "#"
    gram = pkg["contributes"]["grammars"][0]
    assert gram["scopeName"] == json.loads(TEXTMATE.read_text())["scopeName"]
    assert (folder / gram["path"]).resolve() == TEXTMATE


def test_the_entry_point_finds_the_lexer():
    assert type(get_lexer_by_name("tav")).__name__ == "TavLexer"
    assert type(get_lexer_for_filename("games/little_tavern.tav")).__name__ == "TavLexer"


def test_pygmentize_highlights_a_file():
    out = subprocess.run([sys.executable, "-m", "pygments", "-l", "tav", "-f", "html",
                          str(ROOT / "games" / "little_tavern.tav")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert '<span class="kd">action</span>' in out.stdout and 'class="err"' not in out.stdout


def test_tokens_of_a_line():
    toks = [(t, v) for t, v in highlight.TavLexer().get_tokens('choose p in others where p.coins > 0 "give" { move top(deck) to hand of p }\n')
            if v.strip()]
    assert (Keyword, "choose") in toks and (Operator.Word, "in") in toks and (Name.Attribute, "coins") in toks
    assert (Name.Builtin, "others") in toks and (Name, "deck") in toks and (Keyword, "top") in toks


def _unexpected_character(path: Path):
    """(line, col) of the parser's 'unexpected character' error in this file, if that is its error."""
    try:
        parse(path.read_bytes(), str(path))
    except TavError as e:
        d = e.diagnostics[0]
        if d.message.startswith("unexpected character"):
            return d.span.line, d.span.col
    return None


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_rules_file_lexes_without_error_tokens(path):
    text = path.read_text("utf-8", errors="replace")
    lexer = highlight.TavLexer(stripnl=False, ensurenl=False)
    tokens = list(lexer.get_tokens_unprocessed(text))
    assert "".join(v for _, _, v in tokens) == text
    errors = [i for i, t, _ in tokens if t in Error]
    stray = _unexpected_character(path)
    if stray is None:
        assert errors == [], [(text.count("\n", 0, i) + 1, text[i]) for i in errors]
    else:  # the error corpus's stray characters: the lexer marks the one the parser reports
        i = errors[0]
        assert (text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)) == stray


def test_every_tav_block_of_the_docs_lexes_without_error_tokens():
    blocks = []
    for md in sorted((ROOT / "docs").rglob("*.md")) + [ROOT / "README.md"]:
        text = md.read_text()
        for m in re.finditer(r"```tav\n(.*?)```", text, re.S):
            blocks.append((f"{md.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}", m.group(1)))
    assert len(blocks) > 100
    bad = [(where, v) for where, code in blocks for _, t, v in highlight.TavLexer().get_tokens_unprocessed(code)
           if t in Error]
    assert bad == []


def test_the_corpus_is_all_there():
    assert len(RULES_FILES) > 100
    assert sum(_unexpected_character(p) is not None for p in RULES_FILES if "errors" in p.parts) >= 2
