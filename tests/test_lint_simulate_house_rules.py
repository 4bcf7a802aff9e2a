"""`tav lint --simulate` on a house rule (a file that `extends` a game) plays the house rule,
and the command it prints to replay a game runs the house rule's file, not its base's."""
from __future__ import annotations

BASE = "games/little_tavern.tav"
HOUSE_RULE = "examples/little_tavern/thirty_coins.tav"


def _stopped_games(tav, path):
    """The TAV711 finding of games stopped after 3 decisions (none of them ends so soon)."""
    r = tav("lint", path, "--simulate", 2, "--max-steps", 3, "-p", 2, "--select", "TAV711")
    assert r.exit_code == 1, r.output
    return next(line for line in r.output.splitlines() if "TAV711" in line)


def test_the_replay_command_of_a_house_rule_runs_the_house_rule_file(tav):
    line = _stopped_games(tav, HOUSE_RULE)
    assert f"(tav run {HOUSE_RULE} --players 2 --seed 1)" in line, line
    assert f"tav run {BASE}" not in line


def test_the_replay_command_of_a_game_runs_the_game_file(tav):
    line = _stopped_games(tav, BASE)
    assert f"(tav run {BASE} --players 2 --seed 1)" in line, line
