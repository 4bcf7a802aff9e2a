"""`tav rules` on a round's phases of turns: what a turn is (one action, or all of a player's
actions in the phase), what `once` means (once a turn; once in a phase played at the same time)
and how a phase played at the same time goes."""
from __future__ import annotations

from tavernlang.loader import load
from tavernlang.rulebook import rulebook

HEAD = ('game "Phases"\nplayers 2..3\ncounter coins per player = 3 "coins"\n'
        'action buy "buy a dish" { require me.coins > 0  lose 1 coins }\n'
        'action look "look around" { gain 1 coins }\n'
        'option at_once: bool = true "Day played by everyone at the same time"\n')


def _phase(tmp_path, phase: str) -> str:
    """The page's text of the one phase of a small game."""
    f = tmp_path / "phases.tav"
    f.write_text(HEAD + "rounds 2 {\n  " + phase + "\n}\nwinner: highest coins\n", encoding="utf-8")
    page = rulebook(load(f))
    return page.split("### 1. ")[1].split("\n## ")[0]


def test_once_in_a_simultaneous_phase_is_once_in_the_phase_not_once_a_turn(tmp_path):
    text = _phase(tmp_path, 'phase day "Day" turns from player(1) simultaneous { actions buy, look once pass final }')
    assert "once a turn" not in text
    assert "“look around” (at most once in this phase for each player)" in text
    assert "On a turn" not in text  # a phase played at the same time goes in steps, not turns
    assert "In each step, every player still in the phase secretly picks one of these actions, or passes" in text
    assert "leaves the phase for good; the phase ends when every player has left." in text


def test_a_simultaneous_phase_with_a_condition_says_how_it_goes_one_player_at_a_time(tmp_path):
    text = _phase(tmp_path, 'phase day "Day" turns from player(1) simultaneous if at_once '
                            '{ actions buy, look once pass final }')
    assert "All players play this phase at the same time, when *at_once*." in text
    assert ("Otherwise the phase is played one player at a time: starting with the player in seat 1, each player "
            "in turn takes all their actions of the phase, one after another (“look around” at most once)") in text


def test_a_phase_of_one_turn_each_says_a_player_takes_all_their_actions_in_it(tmp_path):
    text = _phase(tmp_path, 'phase plan "Plan" turns from player(1) once_each { actions buy, look once pass }')
    assert "Each player takes one turn, in seat order starting with the player in seat 1." in text
    assert "a player takes all their actions of this phase in their one turn" in text
    assert "the next player's turn begins only when theirs is over" in text
    assert "“look around” (at most once in this phase)" in text
    assert "does one of these actions" not in text
    assert "The turn ends when the player passes or can take no more actions." in text


def test_once_in_a_phase_of_turns_is_once_a_turn(tmp_path):
    text = _phase(tmp_path, 'phase work "Work" turns from player(1) { actions buy, look once pass }')
    assert "Players take turns, starting with the player in seat 1." in text
    assert "A turn is several actions long" in text
    assert "“look around” (at most once a turn)" in text


def test_a_turn_of_one_action_says_one_action(tmp_path):
    text = _phase(tmp_path, 'phase work "Work" turns from player(1) { actions buy, look }')
    assert "On a turn, a player does one of these actions: “buy a dish”; “look around”." in text
    assert "several actions" not in text
    assert "The phase ends once every player in a row has had a turn without taking an action." in text


def test_a_turn_without_pass_goes_on_while_the_player_can_act(tmp_path):
    text = _phase(tmp_path, 'phase work "Work" turns from player(1) once_each { actions buy once, look once }')
    assert "The turn ends when the player can take no more actions: they may not pass while they can take one." in text


def test_a_required_action_in_a_turn_of_several_actions_is_taken_once_a_turn_when_allowed(tmp_path):
    text = _phase(tmp_path, 'phase work "Work" turns from player(1) { actions buy required, look pass }')
    assert "“buy a dish” (must be taken once a turn when allowed)" in text
    text = _phase(tmp_path, 'phase work "Work" turns from player(1) { actions buy once required, look pass }')
    assert "“buy a dish” (at most once a turn, and must be taken when allowed)" in text
