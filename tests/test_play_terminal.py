"""`tav play` driven as a person drives it: a pseudo-terminal (pexpect) plays a few decisions of
Cavern Tavern and Little Tavern, reads the screen, and checks that card text, the board view,
the reasons an action is missing and an explanation appear, and that another seat's private
cards (a Secret Task) never appear on the screen of a seat that may not see them."""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pexpect  # the test extra brings it: a missing one is a failure, not a skip
import pytest

from tavernlang import compile_file
from tavernlang.engine.runner import Match

ROOT = Path(__file__).resolve().parent.parent
# the child runs this tree's tavernlang (not whichever one is installed), plain text
ENV = {"NO_COLOR": "1", "PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)}


def _session(game, players, seed, keys, tmp_path):
    save = tmp_path / "s.json"
    child = pexpect.spawn(sys.executable, ["-m", "tavernlang", "play", str(ROOT / "games" / game), "--players",
                                           str(players), "--seat", "1", "--seed", str(seed), "--save-to", str(save)],
                          cwd=str(tmp_path), encoding="utf-8", timeout=60, env=ENV)
    child.logfile_read = io.StringIO()  # everything the screen showed
    for k in keys:
        child.expect_exact("\n> ")
        child.sendline(k)
    child.expect_exact("\n> ")
    child.sendline("s")
    child.expect_exact("saved to")
    child.expect_exact("\n> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    return child.logfile_read.getvalue(), json.loads(save.read_text())


def test_cavern_tavern_at_the_terminal(tmp_path):
    screen, save = _session("cavern_tavern.tav", 2, 1, ["?", "i 1"] + ["1"] * 12 + ["v", "w", "l", "why 1", "u", "v"], tmp_path)
    assert "i N    the full text of option N's card" in screen  # ? lists every key
    assert "Ability, twice a game" in screen  # a Character's text, among the options and with i 1
    # the board view, as the rules file's `view` lays it out: the Tavern, then each player's board
    assert "The Tavern:" in screen and "Your board:" in screen and "P2's board:" in screen and "Ingredient stacks: " in screen
    assert "the Clock: 1 (1..11)" in screen
    assert "not offered: " in screen  # why actions are missing
    assert "1. " in screen  # the numbered log
    # P2's Secret Task is dealt face down: its name never reaches P1's screen
    m = Match.load(compile_file(ROOT / "games" / "cavern_tavern.tav"), save)
    g, st = m.game, m.st
    secret = [g.card_name[c] for z, cards in enumerate(st.zones) for c in cards
              if g.zone_names[st.zfamily[z]] == "secret" and st.zowner[z] == 1]
    assert secret, "P2 holds a Secret Task"
    mine = [g.card_name[c] for z, cards in enumerate(st.zones) for c in cards
            if g.zone_names[st.zfamily[z]] == "secret" and st.zowner[z] == 0]
    assert "undone: back to your decision before the last" in screen
    hidden = [name for name in secret if name not in mine]
    # and every card P1 may not see (other seats' Items, Secret Tasks, cards drawn to choose
    # from), named nowhere P1 may read (a copy P1 sees, P1's log): never on P1's screen either
    log = "\n".join(m.log_lines(0))
    seen = {g.card_name[c] for c in range(g.ncards) if st.visible(c, 0) and st.loc[c] >= 0}
    unseen = {g.card_name[c] for z, cards in enumerate(st.zones) for c in cards
              if st.zowner[z] in (1, 2) and not st.visible(c, 0)} - seen
    hidden += [name for name in unseen if name not in log and name not in hidden]
    assert hidden
    for name in hidden:
        assert name not in screen  # on the view, the options, the log, after undo
    # and after load: the resumed screen hides it too
    child = pexpect.spawn(sys.executable, ["-m", "tavernlang", "play", str(ROOT / "games" / "cavern_tavern.tav"),
                                           "--players", "2", "--load", str(tmp_path / "s.json")],
                          cwd=str(tmp_path), encoding="utf-8", timeout=60, env=ENV)
    child.logfile_read = io.StringIO()
    for k in ["v", "l", "q"]:
        child.expect_exact("\n> ")
        child.sendline(k)
    child.expect(pexpect.EOF)
    resumed = child.logfile_read.getvalue()
    assert "resumed Cavern Tavern" in resumed and "P2's Secret Task and served Orders:\r\n    Secret Task: 1 face-down card" in resumed
    for name in hidden:
        assert name not in resumed


def test_little_tavern_at_the_terminal(tmp_path):
    screen, _ = _session("little_tavern.tav", 3, 5, ["w", "i elf", "1"], tmp_path)
    assert "not offered: draw an Event: every Table needs at least 1 Character" in screen
    assert "Elf (Character): Each Elf tips 1 coin per Elf at their Table, including themself." in screen
    assert "(Each Adventurer tips as many coins as shown on her card: 3.)" in screen  # under the revealed card


def test_hot_seat_passes_the_device_and_hides_the_previous_seats_secret(tmp_path):
    save = tmp_path / "hs.json"
    child = pexpect.spawn(sys.executable, ["-m", "tavernlang", "play", str(ROOT / "games" / "cavern_tavern.tav"),
                                           "--players", "3", "--seat", "1", "--seat", "2", "--seed", "1",
                                           "--save-to", str(save)],
                          cwd=str(tmp_path), encoding="utf-8", timeout=60, env=ENV)
    child.logfile_read = io.StringIO()
    passes = 0
    for _ in range(30):  # every decision answered 1 (a view first), every pass screen with Enter
        i = child.expect_exact(["\n> ", "press Enter when you are ready"])
        if i == 1:
            passes += 1
            child.sendline("")
        else:
            child.sendline("v")
            child.expect_exact("\n> ")
            child.sendline("1")
    while child.expect_exact(["\n> ", "press Enter when you are ready"]) == 1:
        child.sendline("")
    child.sendline("s")
    child.expect_exact("saved to")
    child.sendline("q")
    child.sendline("q")
    child.expect(pexpect.EOF)
    screen = child.logfile_read.getvalue()
    assert passes >= 2, "the device was passed between P1 and P2"
    m = Match.load(compile_file(ROOT / "games" / "cavern_tavern.tav"), json.loads(save.read_text()))
    g, st = m.game, m.st
    secret = {p: [g.card_name[c] for z, cards in enumerate(st.zones) for c in cards
                  if g.zone_names[st.zfamily[z]] == "secret" and st.zowner[z] == p] for p in (0, 1)}
    assert json.loads(save.read_text())["seats"] == [1, 2]
    # each stretch between pass screens belongs to one seat: the other seat's Secret Task never shows in it
    parts = screen.split("-- pass the device to P")
    for part in parts[1:]:
        now = int(part[0]) - 1
        other = 1 - now
        for name in secret[other]:
            if name not in secret[now]:
                assert name not in part.split("press Enter when you are ready", 1)[1], (now + 1, name)


def _first_screen(env):
    child = pexpect.spawn(sys.executable, ["-m", "tavernlang", "play", str(ROOT / "games" / "little_tavern.tav"),
                                           "--players", "3", "--seed", "5"], encoding="utf-8", timeout=60, env=env)
    child.logfile_read = io.StringIO()
    child.expect_exact("\n> ")
    child.sendline("v")
    child.expect_exact("\n> ")
    child.sendline("q")
    child.expect(pexpect.EOF)
    return child.logfile_read.getvalue()


def test_colour_in_a_terminal_plain_with_no_color_or_piped():
    pytest.importorskip("rich")  # (the color extra; the test extra brings it)
    coloured = _first_screen({"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TERM": "xterm"})
    plain = _first_screen({**ENV, "TERM": "xterm"})
    assert "\x1b[1;36m1\x1b[0m. " in coloured  # an option's number
    assert "\x1b[1mP1, " in coloured and "\x1b[1mYours:" not in plain
    assert "\x1b[" not in plain
    strip = __import__("re").sub(r"\x1b\[[0-9;]*m", "", coloured)
    assert strip == plain  # the same words
    import subprocess
    piped = subprocess.run([sys.executable, "-m", "tavernlang", "run", str(ROOT / "games" / "little_tavern.tav"), "-p", "3"],
                           capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "TERM": "xterm"})
    assert piped.returncode == 0 and "gains" in piped.stdout and "\x1b[" not in piped.stdout


def test_colour_is_off_without_rich_or_a_terminal(monkeypatch):
    from tavernlang import colour

    class Tty(io.StringIO):
        def isatty(self):
            return True
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert colour.wanted(Tty()) is (__import__("importlib").util.find_spec("rich") is not None)
    assert not colour.wanted(io.StringIO())  # piped
    monkeypatch.setenv("NO_COLOR", "1")
    assert not colour.wanted(Tty())
    monkeypatch.setitem(sys.modules, "rich.style", None)  # rich missing: plain text, the same words
    monkeypatch.delenv("NO_COLOR")
    assert not colour.wanted(Tty())
    assert colour.Paint(False).option("  1. Elf — tips") == "  1. Elf — tips"
