"""Budgets of time and memory: a rules file that runs away stops with an error at its
place (FILE:LINE:COL: error: ..., exit 1), never with a MemoryError, an OverflowError or a
traceback. Each file here ran for minutes or ate gigabytes before the budgets."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from tavernlang import compile_file
from tavernlang.cli import main
from tavernlang.engine import budget

HEAD = 'game "R"\nplayers 2\ncounter c per player = 1\n'
TAIL = 'rounds 1000 { phase p "P" turns from player(1) once_each { actions a } }\nwinner: highest c\n'

RUNAWAY = {
    # an exponential def: 2^60 calls
    "exponential_def": ('def f(n: int): int = if n <= 0 then 1 else f(n - 1) + f(n - 1)\n'
                        'action a "a" { gain f(60) c }\n', "x.tav:4:1:", "budget of"),
    # a counter squared each round
    "squared_counter": ('action a "a" { set me.c = me.c * me.c + 2 }\n', "x.tav:4:27:", "a whole number out of range"),
    # a list that doubles each round
    "doubling_list": ('var xs: list of int = []\naction a "a" { set xs = xs + xs + [1] }\n', "x.tav:5:25:",
                      "a list holds at most"),
    "huge_range_for": ('action a "a" { for i in range(1, 1000000000) { gain 1 c } }\n', "x.tav:4:25:",
                       "range(1, 1000000000) has 1000000000 numbers"),
    "huge_range_count": ('action a "a" { gain count(i in range(1, 1000000000) where i > 5) c }\n', "x.tav:4:32:",
                         "a list holds at most"),
    "huge_range_overflow": ('action a "a" { gain count(i in range(1, 100000000000000000 * 100000000000000000)) c }\n',
                            "x.tav:4:32:", "a list holds at most"),
    "choose_number_huge": ('action a "a" { choose number n in 1..100000000000000000 * 1000 "n" { gain n c } }\n',
                           "x.tav:4:16:", "more than 100000 numbers"),
    "simultaneously_huge": ('action a "a" { simultaneously for p in players choose n in range(1, 1000000000000000) "n" '
                            '{ gain n c to p } }\n', "x.tav:4:60:", "a list holds at most"),
    # 10^5 x 10^5 rounds of a loop writing the log
    "log_growing_loop": ('kind K { var v: int = 0 }\ncard "k": K\naction a "a" { for i in range(1, 100000) '
                         '{ for j in range(1, 100000) { for k in cards { set k.v = i + j } } } }\n',
                         "x.tav:6:", "lines here"),
    # the same loop with a shorter line
    "gaining_loop": ('action a "a" { for i in range(1, 100000) { for j in range(1, 100000) { gain 1 c } } }\n',
                     "x.tav:4:", "lines here"),
    # C(60, 30) subsets, none of which passes: the failing tries count
    "subset_tries": ('kind K { v: int = 1 }\ncard "k" x60: K\nzone z: shared public\nsetup { move cards to z }\n'
                     'action a "a" { choose subset s of z size 30..30 if sum(x.v for x in s) == 1000 "s" { gain 1 c } }\n',
                     "x.tav:8:16:", "more than 65536 subsets to try"),
    # a sum over subsets with values of 2*10^9 and of 10^30
    "subset_sum_large": ('kind K { var v: int = 1 }\ncard "k" x40: K\nzone z: shared public\n'
                         'setup { move cards to z  for k in z { set k.v = 2000000000 + random(1, 1000000000) } }\n'
                         'action a "a" { if any(subset s of z size 1..20 where sum(y.v for y in s) == 40000000003) '
                         '{ gain 1 c } }\n', "x.tav:8:", "more than 65536 totals"),
    "subset_sum_overflow": ('kind K { var v: int = 1 }\ncard "k" x3: K\nzone z: shared public\n'
                            'setup { move cards to z  for k in z { set k.v = 1000000000000000 * 1000000000000000 } }\n'
                            'action a "a" { if any(subset s of z where sum(y.v for y in s) == 2) { gain 1 c } }\n',
                            "x.tav:7:39:", "a whole number out of range"),
    # effects calling each other without end, each a step (not only Python's recursion limit)
    "mutual_effects": ('effect e1(n: int) { do e2(n + 1)  do e2(n + 1) }\neffect e2(n: int) { if n < 40 { do e1(n) } }\n'
                       'action a "a" { do e1(0) }\n', "x.tav:", "budget of"),
    # a repeat whose rounds each run a long loop
    "repeat_of_loops": ('counter k = 0\naction a "a" { repeat while k < 10000 { set k = k + 1  '
                        'gain count(i in range(1, 100000) where i > 3) c } }\n', "x.tav:", "budget of"),
    # ever more turns: every action is a step
    "endless_turns": ('action a "a" { }\n'
                      'rounds 10000 { phase p "P" turns from player(1) { actions a } }\n', "x.tav:", None),
}


def run(tmp_path, text, *args):
    f = tmp_path / "x.tav"
    f.write_text(text)
    return CliRunner().invoke(main, [a if a != "FILE" else str(f) for a in args])


def _text(body: str) -> str:
    return HEAD + body + (TAIL if "rounds" not in body else "winner: highest c\n")


@pytest.mark.parametrize("name", sorted(RUNAWAY))
def test_runaway_files_stop_at_their_place(tmp_path, name):
    body, where, message = RUNAWAY[name]
    assert run(tmp_path, _text(body), "check", "FILE").exit_code == 0  # each passes tav check
    r = run(tmp_path, _text(body), "run", "FILE", "-p", "2", "--seed", "1")
    out = r.output
    assert r.exit_code == 1, out[-2000:]
    assert "internal error" not in out and "Traceback" not in out and "MemoryError" not in out, out[-2000:]
    assert where in out and ": error: " in out, out[-2000:]
    if message is not None:
        assert message in out, out[-2000:]


def test_endless_turns_spend_the_budget(tmp_path, monkeypatch):
    """A phase of turns that never ends is stopped by the step budget, at the phase."""
    monkeypatch.setitem(budget.LIMITS, "steps", 5000)
    body = 'action a "a" { }\nrounds 10000 { phase p "P" turns from player(1) { actions a } }\n'
    r = run(tmp_path, _text(body), "run", "FILE", "-p", "2")
    assert r.exit_code == 1 and "x.tav:5:16: error: the game ran out of its budget of 5000 steps" in r.output, r.output


def test_sim_has_no_log_and_stops_at_the_step_budget(tmp_path):
    body = 'action a "a" { for i in range(1, 100000) { for j in range(1, 100000) { gain 1 c } } }\n'
    r = run(tmp_path, _text(body), "sim", "FILE", "-p", "2", "--games", "2")
    assert r.exit_code == 1 and "x.tav:4:" in r.output and "budget of 5000000 steps" in r.output, r.output


def test_the_budget_is_set_per_command(tmp_path, monkeypatch):
    monkeypatch.setattr(budget, "LIMITS", dict(budget.LIMITS))
    monkeypatch.setenv("TAV_MAX_STEPS", str(budget.LIMITS["steps"]))
    body = 'action a "a" { for i in range(1, 2000) { gain 1 c } }\n'
    r = run(tmp_path, _text(body).replace("rounds 1000", "rounds 1"), "--max-steps", "1000", "run", "FILE", "-p", "2")
    assert r.exit_code == 1 and "x.tav:4:25: error: the game ran out of its budget of 1000 steps" in r.output, r.output
    r = run(tmp_path, _text(body).replace("rounds 1000", "rounds 1"), "--max-steps", "100000", "run", "FILE", "-p", "2")
    assert r.exit_code == 0, r.output
    r = run(tmp_path, _text(body), "--max-steps", "0", "run", "FILE", "-p", "2")
    assert r.exit_code == 2, r.output


def test_seed_games_spend_far_less_than_the_budget():
    """The budgets are generous: 25 times what the heaviest seed game spends (measured over 30
    seeds of every player count, docs/security.md); here a few seeds of each."""
    from tavernlang.engine.runner import Match, play_bots
    for game in ("little_tavern", "cavern_tavern", "tavern_masters", "taverns_of_tiefenthal"):
        g = compile_file(f"games/{game}.tav")
        for n in (g.min_players, g.max_players):
            for seed in range(3):
                m = Match(g, n, seed)
                play_bots(m)
                assert 0 < m.st.steps < budget.DEFAULT_STEPS // 10, (game, n, seed, m.st.steps)
                assert len(m.st.log) < budget.DEFAULT_LOG // 10


def test_nested_if_compiles_in_linear_size():
    """Nested `if` (statements and expressions) is generated once per level: the generated
    source of 40 levels is about twice that of 20, not 2^20 times."""
    def size(n, tmp):
        e = "1"
        for i in range(n):
            e = f"(if me.c > {i} then {e} else 0)"
        stmt = "".join(f"if me.c > {i} {{ gain 1 c " for i in range(n)) + "}" * n
        f = tmp / f"n{n}.tav"
        f.write_text(HEAD + f'def d: int = {e}\naction a "a" {{ gain d c  {stmt} }}\n' + TAIL)
        return sum(len(s) for s in compile_file(str(f)).gen_source)
    import pathlib
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        small, big = size(20, pathlib.Path(d)), size(40, pathlib.Path(d))
    assert big < 3 * small, (small, big)


def test_products_and_stores_are_in_range_but_legal_arithmetic_is_untouched(tmp_path):
    body = ('counter big = 0\naction a "a" { set big = 3037000499 * 3037000499  gain big c }\n')
    r = run(tmp_path, _text(body).replace("rounds 1000", "rounds 1"), "run", "FILE", "-p", "2")
    assert r.exit_code == 0, r.output
    body = ('counter big = 0\naction a "a" { set big = 3037000499 * 3037000499  set big = big * 2 }\n')
    r = run(tmp_path, _text(body).replace("rounds 1000", "rounds 1"), "run", "FILE", "-p", "2")
    assert r.exit_code == 1 and "x.tav:5:51: error: a whole number out of range" in r.output, r.output


@pytest.mark.parametrize("cmd", [["sim", "games/little_tavern.tav", "-p", "2"],
                                 ["compare", "games/little_tavern.tav", "examples/little_tavern/free_events.tav", "-p", "2"]])
def test_a_huge_number_of_games_is_a_usage_error(cmd):
    """`tav sim -g 100000000` grew to 2 GB before a MemoryError: at most a million games."""
    r = CliRunner().invoke(main, cmd + ["-g", "100000000"])
    assert r.exit_code == 2 and "<=x<=1000000" in r.output.replace(" ", ""), r.output


def test_a_game_has_at_most_100_players_and_100000_cards(tmp_path):
    r = run(tmp_path, 'game "P"\nplayers 2..1000000000\n', "check", "FILE")
    assert r.exit_code == 1 and "x.tav:2:1: error: players 2..1000000000: a game has at most 100 players" in r.output
    r = run(tmp_path, 'game "C"\nkind K\n' + "".join(f'card "c{i}" x10000: K\n' for i in range(11)), "check", "FILE")
    assert r.exit_code == 1 and "x.tav:13:1: error: with this card the game has more than 100000 cards" in r.output


# ---------------------------------------------------------------- the caps of the engine, placed
def test_deep_legitimate_recursion_is_not_called_endless(tmp_path):
    """An effect recursing 100,000 deep would end: it is stopped at Python's depth of nested
    calls, and the message says so (not "calls itself without end", not the step budget),
    at the call that is made again and again. A shallower one plays."""
    body = ('effect e(n: int) { if n > 0 { gain 1 c  do e(n - 1) } }\n'
            'action a "a" { do e(N) }\n')
    text = _text(body).replace("rounds 1000", "rounds 1")
    r = run(tmp_path, text.replace("N)", "100000)"), "run", "FILE", "-p", "2")
    assert r.exit_code == 1, r.output
    assert "x.tav:4:41: error: calls nested about " in r.output, r.output
    assert "not the budget of steps" in r.output and "whether it would end or not" in r.output
    assert "without end" not in r.output
    r = run(tmp_path, text.replace("N)", "500)"), "run", "FILE", "-p", "2", "-q")
    assert r.exit_code == 0 and "P1: 501" in r.output, r.output


def test_deep_recursion_of_a_def_is_placed_at_the_def(tmp_path):
    body = ('def f(n: int): int = if n <= 0 then 0 else 1 + f(n - 1)\n'
            'action a "a" { gain f(100000) c }\n')
    r = run(tmp_path, _text(body).replace("rounds 1000", "rounds 1"), "run", "FILE", "-p", "2")
    assert r.exit_code == 1 and "x.tav:4:1: error: calls nested about " in r.output, r.output


def test_an_expression_python_cannot_compile_is_placed(tmp_path):
    """60 nested counts make more nested loops than Python compiles: placed at the expression,
    with its rules line."""
    e = "count(x in z where x.v > " * 60 + "1" + ")" * 60
    body = (f'kind K {{ var v: int = 1 }}\ncard "k" x3: K\nzone z: shared public\n'
            f'def d: int = {e}\naction a "a" {{ gain d c }}\n')
    r = run(tmp_path, _text(body), "run", "FILE", "-p", "2")
    assert r.exit_code == 1, r.output
    assert "x.tav:7:14: error: the rules nest too deeply to run" in r.output, r.output
    assert "    def d: int = count(" in r.output  # the source line is shown, with its caret


WRAP = ('counter t per player = 0 in 0..9 wrap\n'
        'when t of p reaches 3 { gain 1 c to p }\nwhen t of p reaches 7 { gain 10 c to p }\n'
        'action a "a" { gain G t }\n')


@pytest.mark.parametrize("laps,want", [(2, 22 + 1), (100, 1100 + 1), (300, 3300 + 1)])
def test_wrap_around_triggers_fire_once_a_lap_without_a_cap(tmp_path, laps, want):
    """A gain of many laps fires a wrap-around track's triggers once a lap, with no cap
    on the laps."""
    text = _text(WRAP.replace("G", str(10 * laps))).replace("rounds 1000", "rounds 1")
    r = run(tmp_path, text, "run", "FILE", "-p", "2", "-q")
    assert r.exit_code == 0 and f"P1: {want}" in r.output, r.output


def test_wrap_around_laps_beyond_the_budget_are_an_error_at_the_gain(tmp_path):
    text = _text(WRAP.replace("G", "1000000000000")).replace("rounds 1000", "rounds 1")
    r = run(tmp_path, text, "run", "FILE", "-p", "2")
    assert r.exit_code == 1, r.output
    assert ("x.tav:7:16: error: this gain moves t 1000000000000 spaces round its track, passing the spaces of its "
            "'when ... reaches' 200000000000 times") in r.output, r.output


def test_too_many_rounds_is_a_check_error(tmp_path):
    """`rounds 1000000000` was silently capped at 10,000; then an error when run; now `tav check`
    says so at the count."""
    text = HEAD + 'action a "a" { }\nrounds 1000000000 { phase p "P" turns from player(1) once_each { actions a } }\n'
    r = run(tmp_path, text + "winner: highest c\n", "check", "FILE")
    assert r.exit_code == 1 and "x.tav:5:8: error: a game has at most 10000 rounds, not 1000000000" in r.output


def test_a_game_without_end_stops_at_the_rounds_block(tmp_path):
    text = HEAD + 'action a "a" { }\nrounds { phase p "P" turns from player(1) once_each { actions a } }\n'
    r = run(tmp_path, text + "winner: highest c\n", "run", "FILE", "-p", "2", "-q")
    assert r.exit_code == 1 and "x.tav:5:1: error: the game did not end after 10000 rounds" in r.output, r.output


def test_too_many_decisions_is_placed(tmp_path, monkeypatch):
    """A random playout's 200,000 decisions (here 50) end at the rules that asked the last one."""
    from tavernlang.engine import runner
    from tavernlang.errors import GameError
    monkeypatch.setattr(runner, "MAX_DECISIONS", 50)
    f = tmp_path / "x.tav"
    f.write_text(HEAD + 'action a "a" { choose number n in 1..3 "n" { gain n c } }\naction b "b" { }\n'
                 'rounds 100 { phase p "P" turns from player(1) once_each { actions a, b } }\nwinner: highest c\n')
    with pytest.raises(GameError) as e:
        runner.playout(compile_file(str(f)), 2, 1)
    assert "did not end after 50 decisions" in str(e.value) and e.value.span is not None
    assert (e.value.span.line, e.value.span.col) in ((4, 16), (6, 14)), e.value.span  # a choice, or the turn


# ---------------------------------------------------------------- time and memory
SLOW_LOOP = 'action a "a" { for i in range(1, 100000) { for j in range(1, 100000) { set c of me = 1 } } }\n'


def test_a_game_has_a_budget_of_time(tmp_path, monkeypatch):
    """A game stops, at its place, after --max-seconds of the engine's time (here with a step
    budget too large to stop it first)."""
    monkeypatch.setattr(budget, "LIMITS", dict(budget.LIMITS))
    monkeypatch.setenv("TAV_MAX_STEPS", str(budget.LIMITS["steps"]))
    monkeypatch.setenv("TAV_MAX_SECONDS", str(budget.LIMITS["seconds"]))
    text = _text(SLOW_LOOP).replace("rounds 1000", "rounds 1")
    r = run(tmp_path, text, "--max-steps", "10000000000", "--max-seconds", "1", "run", "FILE", "-p", "2")
    assert r.exit_code == 1, r.output
    assert "x.tav:4:" in r.output and \
        "error: the game ran out of its time here: 1 s of work (a longer time: tav --max-seconds S)" in r.output, r.output


def test_the_time_to_decide_is_not_the_games(monkeypatch, tmp_path):
    """Only the engine's time counts: a person (or a search bot) may take longer than the game's
    budget of time to decide."""
    import time

    from tavernlang.engine.runner import Match
    monkeypatch.setitem(budget.LIMITS, "seconds", 1)
    f = tmp_path / "x.tav"
    f.write_text(HEAD + 'action a "a" { gain 1 c }\naction b "b" { gain 2 c }\n'
                 'rounds 2 { phase p "P" turns from player(1) once_each { actions a, b } }\n'
                 'winner: highest c\n')
    m = Match(compile_file(str(f)), 2, 1)
    while not m.over:
        time.sleep(0.6)  # (2 seconds over the game's four decisions: more than its budget of 1)
        m.apply(0)
    assert m.result is not None


def test_timeout_stops_the_whole_command_at_its_place(tmp_path, monkeypatch):
    import signal
    monkeypatch.setattr(budget, "LIMITS", dict(budget.LIMITS))
    monkeypatch.setenv("TAV_MAX_STEPS", str(budget.LIMITS["steps"]))
    text = _text(SLOW_LOOP).replace("rounds 1000", "rounds 1")
    r = run(tmp_path, text, "--max-steps", "10000000000", "--timeout", "1", "run", "FILE", "-p", "2")
    assert r.exit_code == 1, r.output
    assert "x.tav:4:" in r.output and "error: tav stopped here: the command's time is up (tav --timeout 1)" \
        in r.output, r.output  # (in the loop, or at the statement in it)
    assert signal.alarm(0) == 0  # the alarm went with the command


@pytest.mark.skipif(not __import__("sys").platform.startswith("linux"), reason="address-space limits: Linux")
def test_a_memory_limit_stops_the_game_at_its_place(tmp_path):
    """Ten lists of 900,000 numbers pass every budget but memory: under --max-memory 300 the game
    stops at the rules that asked for the memory (a MemoryError was an internal error)."""
    import subprocess
    import sys
    stm = "  ".join(f"set x{i} = range(1, 900000)" for i in range(10))
    f = tmp_path / "x.tav"
    f.write_text(HEAD + "".join(f"var x{i}: list of int = []\n" for i in range(10)) +
                 f'action a "a" {{ {stm} }}\n' + TAIL.replace("rounds 1000", "rounds 1"))
    cmd = [sys.executable, "-m", "tavernlang", "--max-steps", "100000000", "--max-memory", "300"]
    r = subprocess.run(cmd + ["run", str(f), "-p", "2", "-q"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert "x.tav:14:" in r.stderr and "error: the game ran out of memory here (a tav process may use 300 MB" \
        in r.stderr, r.stderr
    r = subprocess.run(cmd + ["sim", str(f), "-p", "2", "-g", "2"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 1 and "2 of 2 games stopped with an error" in r.stderr, r.stderr
    assert "replay: tav --max-steps 100000000 --max-memory 300 run" in r.stderr
    r = subprocess.run(cmd[:-2] + ["run", str(f), "-p", "2", "-q"], capture_output=True, text=True, cwd=tmp_path)
    assert r.returncode == 0, r.stderr  # under the default limit the same game plays
