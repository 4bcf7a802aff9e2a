"""Includes stay inside the game's folder tree: a rules file may
include or extend only regular .tav files under its project root or the installed stdlib/, of
a bounded size, never through a link leading out; nothing of a refused file is ever shown."""
from __future__ import annotations

import os

import pytest
from click.testing import CliRunner

from tavernlang.cli import main
from tavernlang.loader import MAX_RULES_FILE

SECRET = "root:x:0:0:SECRET-LINE"


def check(path):
    return CliRunner().invoke(main, ["check", str(path)])


@pytest.fixture
def tree(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.tav").write_text(SECRET + "\n")
    (outside / "passwd").write_text(SECRET + "\n")
    game = tmp_path / "project" / "game"
    game.mkdir(parents=True)
    (game / "cards.tav").write_text('kind Gem\ncard "Ruby": Gem\n')
    return tmp_path, game


@pytest.mark.parametrize(("inc", "why"), [
    ("{out}/secret.tav", "outside the game's folder tree"),
    ("../../outside/secret.tav", "outside the game's folder tree"),
    ("stdlib/../../../../../../../../{out_rel}/secret.tav", ""),
    ("{out}/passwd", "only rules files (.tav) may be included"),
    ("/dev/zero", "not a regular file"),
    ("a" * 300 + ".tav", ""),
    ("no_such_file.tav", "No such file"),
])
def test_an_include_outside_the_tree_is_refused_and_not_shown(tree, inc, why):
    root, game = tree
    out = root / "outside"
    inc = inc.format(out=out, out_rel=str(out).lstrip("/"))
    f = game / "main.tav"
    f.write_text(f'game "G"\ninclude "{inc}"\n')
    r = check(f)
    assert r.exit_code == 1, r.output
    assert "main.tav:2:1: error: cannot include" in r.output and why in r.output, r.output
    assert "SECRET" not in r.output and "Traceback" not in r.output


def test_a_link_leading_out_a_fifo_and_a_huge_file_are_refused(tree):
    root, game = tree
    os.symlink(root / "outside" / "secret.tav", game / "link.tav")
    os.mkfifo(game / "pipe.tav")
    big = game / "big.tav"
    with open(big, "wb") as fh:
        fh.truncate(MAX_RULES_FILE + 1)
    for name, why in (("link.tav", "outside the game's folder tree"), ("pipe.tav", "not a regular file"),
                      ("big.tav", "larger than")):
        f = game / "main.tav"
        f.write_text(f'game "G"\ninclude "{name}"\n')
        r = check(f)
        assert r.exit_code == 1 and why in r.output and "SECRET" not in r.output, r.output


def test_extends_is_sandboxed_too(tree):
    root, game = tree
    f = game / "variant.tav"
    f.write_text(f'extends "{root / "outside" / "secret.tav"}"\n')
    r = check(f)
    assert r.exit_code == 1 and "cannot extend" in r.output and "outside the game's folder tree" in r.output
    assert "SECRET" not in r.output


def test_the_project_root_is_marked_by_a_tavroot_file(tree):
    root, game = tree
    (game.parent / "shared.tav").write_text('kind Coin\ncard "Copper": Coin\n')
    f = game / "main.tav"
    f.write_text('game "G"\ninclude "cards.tav"\ninclude "../shared.tav"\n')
    r = check(f)
    assert r.exit_code == 1 and "outside the game's folder tree" in r.output  # the folder of main.tav only
    (game.parent / ".tavroot").write_text("")
    r = check(f)
    assert r.exit_code == 0, r.output  # project/ is the root now
    r = check(game / "cards.tav")
    assert r.exit_code == 0


def test_the_stdlib_and_the_repositorys_games_still_load():
    from pathlib import Path
    root = Path(__file__).resolve().parent.parent
    assert check(root / "examples" / "tavern_masters" / "one_at_a_time.tav").exit_code == 0
    assert check(root / "tests" / "scenarios" / "little_tavern" / "turns.tav").exit_code == 0
