"""Card text: a kind (or a card) says how its cards read, from their attributes."""
from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from tavernlang import compile_file
from tavernlang.cli import main
from tavernlang.errors import TavError
from tavernlang.loader import load

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.tav"))

INN = '''game "Text inn"
players 2
enum Race { Elf, Dwarf }
enum Drink { Ale, Mead }
effect cheer "everyone cheers" { }
kind Order "{race} wants {needs} for {points}; then {then}; {{braces}}; by {by}" {
  race: Race, needs: list of Drink, points: int, then: effect = cheer, by: card = none, var served: bool = false
}
kind Coin
card "Thirsty Elf": Order { race: Elf, needs: [Ale, Ale], points: 6 }
card "Dwarf King": Order "{name} ({kind}): served {served}, nothing else {needs}" { race: Dwarf, needs: [], points: 9 }
card "Coin" x2: Coin
zone table: per player public
zone hand: per player private
setup { }
rounds 1 { phase a { } }
winner: highest 0
'''


def _write(tmp_path, text):
    p = tmp_path / "inn.tav"
    p.write_text(text)
    return p


def test_texts_render_values_as_the_rules_write_them(tmp_path):
    g = compile_file(_write(tmp_path, INN))
    st = g.new_state(2, 1)
    names = g.card_name
    elf, king, coin = names.index("Thirsty Elf"), names.index("Dwarf King"), names.index("Coin")
    assert g.card_text(elf, st) == "Elf wants Ale, Ale for 6; then everyone cheers; {braces}; by -"
    assert g.card_text(king, st) == "Dwarf King (Order): served no, nothing else -"
    assert g.card_text(coin, st) is None  # a kind without text: its cards have none
    slot = g.model.attrs_by_name["served"].slot
    st.cvars[slot][king] = True  # a var attribute reads as it is now
    assert g.card_text(king, st) == "Dwarf King (Order): served yes, nothing else -"


def test_a_card_named_by_an_attribute_reads_face_down_to_who_may_not_see_it(tmp_path):
    g = compile_file(_write(tmp_path, INN))
    st = g.new_state(2, 1)
    elf, king = g.card_name.index("Thirsty Elf"), g.card_name.index("Dwarf King")
    st.attrs[g.model.attrs_by_name["by"].slot][elf] = king
    assert g.card_text(elf, st).endswith("by Dwarf King")
    st.move(king, st.zbase[g.zone_names.index("hand")])  # the King goes to P1's private hand
    assert g.card_text(elf, st, 0).endswith("by Dwarf King")
    assert g.card_text(elf, st, 1).endswith("by a face-down card")


@pytest.mark.parametrize("template, message, col", [
    ('"costs {cots}"', "kind 'Spell' has no attribute 'cots' for its card text (did you mean 'cost'?)", 20),
    ('"a {brace"', "a '{' in a card text opens a hole", 15),
    ('"a } b"', "a '}' in a card text closes no '{'", 15),
    ('"{}"', "a '{' in a card text opens a hole", 13),
])
def test_a_bad_hole_is_an_error_at_its_place(tmp_path, template, message, col):
    p = _write(tmp_path, f'game "x"\nkind Spell {template} {{ cost: int }}\n')
    with pytest.raises(TavError) as e:
        load(p)
    d = next(d for d in e.value.diagnostics if message in d.message)
    assert (d.span.line, d.span.col) == (2, col)


def test_a_cards_own_text_is_checked_against_its_kind(tmp_path):
    p = _write(tmp_path, INN.replace('"{name} ({kind}): served', '"{nmae} ({kind}): served'))
    with pytest.raises(TavError) as e:
        load(p)
    msgs = [d.message for d in e.value.diagnostics]
    assert any("no attribute 'nmae'" in m and "did you mean 'name'?" in m for m in msgs), msgs


def test_check_prints_the_place_with_a_caret(tmp_path):
    p = _write(tmp_path, 'game "x"\nkind Spell "costs {cots} gold" { cost: int }\n')
    r = CliRunner().invoke(main, ["check", str(p)])
    assert r.exit_code == 1
    assert f"{p}:2:20: error: kind 'Spell' has no attribute 'cots'" in r.output
    lines = r.output.splitlines()
    caret = next(l for l in lines if l.strip().startswith("^"))
    assert caret.index("^") - 4 == 19  # under the hole's name (the excerpt is indented 4)


def test_text_is_data_not_code(tmp_path):
    hostile = INN.replace('"{race} wants', '"__import__(\\"os\\") {race} wants')
    g = compile_file(_write(tmp_path, hostile))
    assert not any("__import__" in src for src in g.gen_source)
    st = g.new_state(2, 1)
    assert g.card_text(g.card_name.index("Thirsty Elf"), st).startswith('__import__("os") Elf wants')


# every card of the seed games reads like a card (dice are components: their label shows the face)
@pytest.mark.parametrize("entry", GAMES, ids=lambda p: p.stem)
def test_every_card_of_the_seed_games_has_text(entry):
    g = compile_file(entry)
    st = g.new_state(g.max_players, 1)
    missing = sorted({g.card_name[c] for c in range(g.ncards) if g.card_kind[c] != "Die" and not g.card_text(c, st)})
    assert not missing, missing


def test_play_shows_card_text_among_options_and_on_demand():
    game = str(ROOT / "games" / "cavern_tavern.tav")
    r = CliRunner().invoke(main, ["play", game, "--players", "2", "--seat", "1", "--seed", "1"],
                           input="i 1\ni hopping gnome\ni nosuchcard\nq\n")
    assert r.exit_code == 0, r.output
    assert "Gnome customer: needs Mead, Ambrosia, Beer, Beer, Spirits; 28 points on time" in r.output  # i NAME
    assert "no card is named 'nosuchcard'" in r.output
    assert " — " in r.output  # an option's card followed by its text


def test_w_says_why_an_action_is_not_offered():
    # seed 5, 3 players: P1 draws a Character first; with the Tables empty, no Event may be drawn
    game = str(ROOT / "games" / "little_tavern.tav")
    r = CliRunner().invoke(main, ["play", game, "--players", "3", "--seat", "1", "--seed", "5"], input="w\nq\n")
    assert r.exit_code == 0, r.output
    assert "not offered: draw an Event: every Table needs at least 1 Character" in r.output
    assert "not offered: draw a Character" not in r.output  # it is being taken: its requirements hold


def test_a_require_without_message_is_shown_by_its_condition_and_place(tmp_path):
    p = tmp_path / "g.tav"
    p.write_text('game "w"\nplayers 2\ncounter coins per player = 0\n'
                 'action rest "rest" { }\naction buy "buy" {\n  require me.coins >= 2\n}\n'
                 'rounds 1 { phase p turns from player(1) { actions rest, buy } }\nwinner: highest 0\n')
    g = compile_file(p)
    st = g.new_state(2, 1)
    assert g.missing_actions(["rest"], st, 0) == [("buy", f"it requires me.coins >= 2 ({p}:6:11)")]
    st.counters[g.counter_slots["coins"]][0] = 2
    assert g.missing_actions(["rest"], st, 0) == [("buy", "nothing to choose for it now")]


def test_the_board_view_is_for_people():
    from tavernlang.engine.runner import Match, bot_pick, bot_rng
    from tavernlang.play import view_lines
    g = compile_file(ROOT / "games" / "cavern_tavern.tav")
    g.model.view = None  # the default view, without the game's own `view` (test_play_view tests that)
    m = Match(g, 3, 1, {})
    rng = bot_rng(1)
    for _ in range(12):
        m.apply(bot_pick(rng, len(m.pending.options)))
    lines = view_lines(m, 0)
    text = "\n".join(lines)
    assert lines.index("  Yours:") < lines.index("  P2's:") < lines.index("  Shared:")  # grouped by owner, yours first
    assert "  the Clock: 1 (1..11)" in lines and "  Nasty track (0..12): you 0, P2 0, P3 0" in lines  # with ranges
    supply = next(ln for ln in lines if ln.startswith("    Ingredient stacks: "))
    assert "Herbs ×6" in supply and supply.count("Herbs") == 1  # identical public cards counted
    assert "    Order deck: 48 face-down cards" in lines  # a hidden zone as a count
    assert "Mess Hall" not in text  # (empty before the first round) an empty zone is left out
    assert not any(ln.endswith(": ") for ln in lines)
    secret_p2 = [ln for ln in lines[lines.index("  P2's:"):lines.index("  P3's:")] if "Secret Task" in ln]
    assert secret_p2 == ["    Secret Task: 1 face-down card"]  # another seat's Secret Task stays hidden
    mine = next(ln for ln in lines[:lines.index("  P2's:")] if ln.startswith("    Secret Task: "))
    assert "face-down" not in mine


def test_zones_and_counters_have_titles_for_people(tmp_path):
    from tavernlang.engine.runner import Match
    from tavernlang.play import _option_lines, view_lines
    p = tmp_path / "z.tav"
    p.write_text('game "z"\nplayers 2\ncounter coins per player = 3 in 0..99 "Gold coins"\n'
                 'kind C "a card"\ncard "Elf" x4: C\n'
                 'zone deal_pile: shared public\nzone table: per player public "Table"\n'
                 'setup { move top(deal_pile) to table of player(1)  move top(deal_pile) to table of player(2) }\n'
                 'action take "take" { choose c in all table "take" { move c to deal_pile } }\n'
                 'rounds 1 { phase a turns from player(1) once_each { actions take } }\nwinner: highest 0\n'
                 .replace("setup {", "setup { move cards to deal_pile "))
    m = Match(compile_file(p), 2, 1)
    lines = view_lines(m, 0)
    assert "  Gold coins (0..99): you 3, P2 3" in lines
    assert "    Table: Elf" in lines and "    deal pile: Elf ×2" in lines  # a title, else the name in words
    opts = _option_lines(m, 0)
    assert opts == ["  1. Elf (your Table) — a card", "  2. Elf (P2's Table) — a card"]  # told apart


def test_why_n_names_the_rules_lines_behind_a_gain_and_the_result():
    from tavernlang.engine.runner import Match, bot_pick, bot_rng
    from tavernlang.play import explain
    g = compile_file(ROOT / "games" / "little_tavern.tav")
    m = Match(g, 3, 2)
    rng = bot_rng(2)
    while not m.over:
        m.apply(bot_pick(rng, len(m.pending.options)))
    log = m.log_lines(0)
    n = next(i for i, line in enumerate(log, 1) if " gains " in line and "coins" in line)
    out = explain(m, 0, n)
    assert out[0] == f"{n}. {log[n - 1]}"
    assert "written by games/little_tavern.tav:" in out[1] and "gain sum(tip(c) for c in table of p) coins" in out[1]
    assert any(line.startswith("  with tip: ") for line in out)  # the definitions it is worked out with
    assert any("with elf_tips: " in line for line in out)
    end = explain(m, 0, len(log))
    assert "winner: highest coins" in end[-1]
    # played with its terms kept (as tav play does): the amount term by term, the winner key by key
    m2 = Match(g, 3, 2, explain=True)
    rng = bot_rng(2)
    while not m2.over:
        m2.apply(bot_pick(rng, len(m2.pending.options)))
    out = explain(m2, 0, n)
    assert out[:2] == explain(m, 0, n)[:2]
    assert out[2].startswith(f"  sum(tip(c) for c in table of p) = {m2.st.log[n - 1][2]['amount']}")
    assert any(line.startswith("    tip(") and "c.clan is " in line for line in out)
    end = explain(m2, 0, len(log))
    assert "decided by little_tavern.tav:" in end[1] and "winner: highest coins" in end[1]
    assert end[2] == "    highest coins: " + ", ".join(f"P{p + 1} {s}" for p, s in enumerate(m2.result["scores"]))
    assert "nothing more to explain" in explain(m, 0, 1)[-1]
    assert explain(m, 0, len(log) + 1) == [f"there is no log line {len(log) + 1} (the log has {len(log)}; 'l' numbers them)"]


def test_undo_replays_the_game_without_your_last_decision():
    game = str(ROOT / "games" / "little_tavern.tav")

    def run(keys):
        r = CliRunner().invoke(main, ["play", game, "--players", "3", "--seat", "1", "--seed", "5"], input=keys)
        assert r.exit_code == 0, r.output
        return r.output

    straight = run("1\n2\nl\nq\nq\n")
    undone = run("1\n1\nu\n2\nl\nq\nq\n")  # the second choice taken back and made otherwise
    assert "undone: back to your decision before the last" in undone
    numbered = lambda out: out[out.rindex("  1. "):out.rindex("you have")]  # the log 'l' printed last
    assert numbered(undone) == numbered(straight)  # the same game: the bots chose as before
    assert "you have 2 unsaved decision(s)" in undone  # and q warns before quitting
    assert run("u\nq\n").count("nothing to undo") == 1


def test_run_quiet_prints_the_result_alone_and_explain_places_each_gain():
    game = str(ROOT / "games" / "little_tavern.tav")
    quiet = CliRunner().invoke(main, ["run", game, "-p", "3", "--seed", "1", "--quiet"])
    assert quiet.exit_code == 0, quiet.output
    assert quiet.output.splitlines()[0] == "Little Tavern, 3 players, seed 1: 2 rounds, 93 decisions (and 42 with one option)"
    assert "->" not in quiet.output  # no log
    full = CliRunner().invoke(main, ["run", game, "-p", "3", "--seed", "1", "--explain"]).output
    lines = full.splitlines()
    gains = [i for i, line in enumerate(lines) if " gains " in line]
    assert gains and all(lines[i + 1].startswith("    by games/little_tavern.tav:") for i in gains)
    assert "gain sum(tip(c) for c in table of p) coins to p" in full


def test_tav_diff_says_a_card_text_changed(tmp_path):
    (tmp_path / "base.tav").write_text(INN)
    (tmp_path / "v.tav").write_text('extends "base.tav"\n'
                                    'replace card "Thirsty Elf": Order "a thirsty {race}" { race: Elf, needs: [Ale], points: 6 }\n')
    r = CliRunner().invoke(main, ["diff", str(tmp_path / "base.tav"), str(tmp_path / "v.tav")])
    assert "text (its kind's) -> \"a thirsty {race}\"" in r.output, r.output


def test_run_json_gives_each_gain_the_place_of_its_statement():
    import json as _json
    game = str(ROOT / "games" / "little_tavern.tav")
    r = CliRunner().invoke(main, ["run", game, "-p", "3", "--seed", "1", "--json"])
    log = _json.loads(r.output)["log"]
    gains = [e for e in log if e["type"] == "gain"]
    assert gains and all(e["at"].startswith("games/little_tavern.tav:") for e in gains)
    assert not any("at" in e for e in log if e["type"] == "move")


def test_load_refuses_players_and_seats_the_save_contradicts_and_names_its_rules(tmp_path):
    lt, ct = str(ROOT / "games" / "little_tavern.tav"), str(ROOT / "games" / "cavern_tavern.tav")
    save = str(tmp_path / "s.json")
    r = CliRunner().invoke(main, ["play", lt, "--players", "3", "--seat", "2", "--seed", "5", "--save-to", save],
                           input="1\n1\ns\nq\n")
    assert r.exit_code == 0, r.output

    def load(*args):
        return CliRunner().invoke(main, ["play", *args, "--load", save], input="q\n")
    assert "--players 4 contradicts it (give --players 3)" in load(lt, "--players", "4").output
    assert "the save is played by seat(s) 2: --seat contradicts it" in load(lt, "--players", "3", "--seat", "1").output
    assert "resumed Little Tavern" in load(lt, "--players", "3", "--seat", "2").output
    other = load(ct, "--players", "3")
    assert other.exit_code == 1 and "this save belongs to" in other.output and "little_tavern.tav" in other.output
