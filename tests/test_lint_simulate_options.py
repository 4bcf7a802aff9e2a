"""`tav lint --simulate` and game options: each yes/no and enum option is varied (unless
--no-vary-options), and the replay hint of a finding names the options fixed with -o."""
from __future__ import annotations

from click.testing import CliRunner

from tavernlang.lint.command import lint

LINT_VARY = '''
game "Lint vary"
players 2..3
enum Mode { Calm, Wild, Crazy }
option wild: bool = false "a wild game"
option mode: Mode = Calm "the mode"
counter coins per player = 0
action earn "earn" { gain 1 coins }
action boom "boom" { require wild and mode == Crazy  gain 1 / (coins of me - coins of me) coins }
rounds 2 { phase work "Work" turns from player(1) once_each { actions earn, boom } }
winner: highest coins
'''


def test_lint_simulate_varies_options(rules_file):
    f = rules_file("v.tav", LINT_VARY)
    r = CliRunner().invoke(lint, [str(f), "--simulate", "12"])
    assert "varying wild, mode" in r.output and "TAV714" in r.output
    assert "-o wild=true -o mode=Crazy shows it" in r.output
    r = CliRunner().invoke(lint, [str(f), "--simulate", "12", "--no-vary-options"])
    assert "varying" not in r.output and "TAV701 action 'boom' was never taken" in r.output


def test_lint_replay_hint_includes_fixed_options(rules_file):
    """The command a TAV714 finding suggests includes the options fixed with -o, so it shows the
    error."""
    f = rules_file("v.tav", LINT_VARY)
    r = CliRunner().invoke(lint, [str(f), "--simulate", "12", "-o", "wild=true"])
    assert "TAV714" in r.output
    hint = r.output.split("TAV714", 1)[1].splitlines()[0]
    assert "wild=true" in hint
