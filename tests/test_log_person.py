"""Who a log line speaks to: a choice's prompt and an action's title are written to the player
who chooses or acts ("your Character"); every other seat, and the rules' log of no seat, reads
them in the third person ("their Character")."""
from __future__ import annotations

from tavernlang import compile_file
from tavernlang.engine.present import third_person
from tavernlang.engine.runner import Match

RULES = """
game "Person"
players 2
counter coins per player = 0
kind Cook
card "Anna": Cook
card "Bert": Cook
zone market: shared public
zone hand: per player public
effect praise "Praise for your cooking" { gain 1 coins to me }
action boast "Boast of your cooking" { gain 1 coins to me  do praise }
setup {
  move cards to market
  choose c in market "your Character (you keep it)" by player(2) { move c to hand of player(2) }
}
rounds {
  phase play "Play" turns from player(1) once_each { actions boast }
}
end when round > 1
winner: highest coins
"""


def _match(tmp_path):
    f = tmp_path / "person.tav"
    f.write_text(RULES)
    m = Match(compile_file(f), 2, 1)
    while not m.over:
        m.apply(0)
    return m


def test_the_chooser_reads_the_prompt_as_it_was_asked(tmp_path):
    m = _match(tmp_path)
    assert "P2 chooses Anna (your Character (you keep it))" in m.log_lines(1)


def test_another_seat_reads_the_prompt_in_the_third_person(tmp_path):
    m = _match(tmp_path)
    assert "P2 chooses Anna (their Character (they keep it))" in m.log_lines(0)


def test_the_rules_log_of_no_seat_reads_every_choice_in_the_third_person(tmp_path):
    lines = _match(tmp_path).log_lines()
    assert "P2 chooses Anna (their Character (they keep it))" in lines
    assert not any("your" in ln for ln in lines)


def test_an_action_title_reads_your_to_its_player_and_their_to_the_others(tmp_path):
    m = _match(tmp_path)
    assert "P1: Boast of your cooking" in m.log_lines(0)
    assert "P1: Boast of their cooking" in m.log_lines(1)
    assert "P2: Boast of your cooking" in m.log_lines(1)


def test_an_effect_title_reads_your_to_its_player_and_their_to_the_others(tmp_path):
    m = _match(tmp_path)
    for viewer, p1, p2 in ((0, "your", "their"), (1, "their", "your"), (None, "their", "their")):
        lines = m.log_lines(viewer)
        after_p1 = lines.index("P1 gains 1 coin (now 1)") + 1
        after_p2 = lines.index("P2 gains 1 coin (now 1)") + 1
        assert (lines[after_p1], lines[after_p2]) == \
            (f"effect: Praise for {p1} cooking", f"effect: Praise for {p2} cooking")


def test_third_person_turns_each_second_person_word_and_keeps_its_capital():
    assert third_person("You can't hold yours; it's your own, you're sure") == \
        "They can't hold theirs; it's their own, they're sure"
    assert third_person("Young Yourself") == "Young Themselves"
