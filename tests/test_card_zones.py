"""Zones on cards (`zone NAME: ...` in a kind, `drop to`, `.holder`) and what games with them
use: a kind's derived values (`def` in a kind), `repeat while`, a phase for each
player (`for each player [from P]`, `do PHASE as p`), indexing a zone, stdlib/deckbuilding.tav."""
from __future__ import annotations

import json

import pytest

from tavernlang import GameError, Match, TavError, compile_file, playout
from tavernlang.engine.runner import play_bots
from tavernlang.engine.scenario import run_scenario

GAME = '''
game "Inn of Dice"
players 2..4
include "stdlib/dice.tav"
include "stdlib/deckbuilding.tav"
kind Space { reward: int = 1, zone dice: public capacity 1 drop to pool of me }
kind Table { zone nobles: public }
kind Guest { thalers: int = 1 }
kind Marker { var value: int = 1, var raised: int = 0 unlabelled, def pips: int = lesser(6, value + raised) }
card "Cashbox": Space { reward: 3 }
card "Monk": Space
card "Table" x2: Table
card "Noble" x4: Guest { thalers: 2 }
card "Regular" x12: Guest
card "white die" x8: Die
card "marker" x2: Marker
counter thalers per player = 0
zone pool: per player public
zone board: per player public
zone deck: per player hidden
zone discard: per player public
zone tavern: per player public
zone supply: shared public
setup {
  move cards to supply
  for p in players {
    for i in range(1, 4) { do to_deck_top(filter(c in supply where c is Guest)[1], deck of p) as p }
  }
}
action place "place a die" {
  choose s in board of me where not full(dice of s) "space" {
    choose d in pool of me "die" { move d to dice of s }
  }
}
effect arrive { repeat while can_draw(deck of me, discard of me) and size(tavern of me) < 3 {
  do draw_card(deck of me, discard of me, tavern of me) } }
rounds 3 {
  phase arrival "Arrival" for each player from player(2) { do arrive }
  phase closing "Closing" { for p in players { move tavern of p to discard of p } }
}
winner: highest thalers
'''


def run(tmp_path, body: str):
    f = tmp_path / "inn.tav"
    f.write_text(GAME + body)
    g = compile_file(f)
    out = [run_scenario(g, sc) for sc in g.scenarios]
    for r in out:
        assert r.passed, r.transcript()
    return out


def test_a_card_zone_holds_cards_and_carries_them(tmp_path):
    run(tmp_path, '''
scenario "nobles stacked on a table go where the table goes" players 2 {
  given {
    move named("Table")[1] to tavern of me
    move named("Noble")[1] to nobles of named("Table")[1]
    move named("Noble")[2] to nobles of named("Table")[1]
  }
  run { move named("Table")[1] to discard of player(2) }
  expect top(nobles of named("Table")[1]) == named("Noble")[2] "the last one is on top"
  expect size(named("Table")[1].nobles) == 2 and named("Noble")[1].holder == named("Table")[1]
  expect named("Noble")[1].owner == player(2) and (nobles of named("Table")[1]).owner == player(2) "they moved with it"
  expect (nobles of named("Table")[1])[1] == named("Noble")[1] "a zone is indexed from the bottom"
}
''')


def test_drop_to_and_capacity(tmp_path):
    run(tmp_path, '''
scenario "one die fills a 1x space; the space leaving drops the die in its owner's pool" players 3 {
  given {
    move named("Cashbox") to board of player(3)
    move filter(c in cards where c is Die)[1] to pool of player(3)
    move filter(c in cards where c is Die)[2] to pool of player(3)
  }
  answers "white die (value 1)"
  run {
    do place as player(3)
    move named("Cashbox") to supply
  }
  expect size(pool of player(3)) == 2 and empty(dice of named("Cashbox")[1])
  expect every(d in pool of player(3) where d.holder == none)
}
scenario "a full space is not offered" players 2 {
  given {
    move named("Cashbox") to board of me
    move filter(c in cards where c is Die)[1] to dice of named("Cashbox")[1]
    move filter(c in cards where c is Die)[2] to pool of me
  }
  expect full(dice of named("Cashbox")[1]) and not allowed(place)
}
''')


def test_a_kinds_derived_value(tmp_path):
    run(tmp_path, '''
scenario "lesser(6, value + raised)" players 2 {
  given { set named("marker")[1].value = 4  set named("marker")[1].raised = 1  set named("marker")[2].value = 6  set named("marker")[2].raised = 2 }
  expect named("marker")[1].pips == 5 and named("marker")[2].pips == 6 and named("marker")[2].value == 6
}
''')


def test_a_phase_for_each_player_and_for_one(tmp_path):
    r = run(tmp_path, '''
scenario "arrival for each, then again for P1" players 2 {
  run { do arrival  move tavern of player(1) to supply  do arrival as player(1) }
  expect size(tavern of player(2)) == 3 and size(tavern of player(1)) == 1 "P1 draws the last card of their 4"
}
''')
    t = r[0].transcript()
    assert t.index("deck of P2 -> tavern of P2") < t.index("deck of P1 -> tavern of P1"), "from player(2)"
    assert "-- phase: Arrival, for P1 --" in t


def test_drawing_reshuffles_the_discard_mid_draw(tmp_path):
    run(tmp_path, '''
scenario "an empty deck is made from the discard pile while drawing" players 2 {
  given {
    move deck of me to discard of me
    move first(1, discard of me) to deck of me
  }
  run { do arrive as me }
  expect size(tavern of me) == 3 and empty(discard of me) and size(deck of me) == 1 "1 drawn, then 3 reshuffled: 2 drawn"
}
''')


def test_a_card_on_top_of_the_deck_is_known_to_its_owner_only(tmp_path):
    f = tmp_path / "inn.tav"
    f.write_text(GAME)
    g = compile_file(f)
    st = g.new_state(3, 1)
    for _ in g.setup(st, [None] * (g.setup_frame + 1)):  # the setup only (it asks nothing)
        pass
    deck1 = st.zones[st.zbase[list(g.model.zones).index("deck")]]
    assert len(deck1) == 4
    assert all(st.visible(c, 0) for c in deck1), "P1 put these cards on their deck"
    assert not any(st.visible(c, 1) or st.visible(c, 2) for c in deck1)
    assert all(st.facedown[c] for c in deck1)


def test_repeat_has_a_bound(tmp_path):
    f = tmp_path / "loop.tav"
    f.write_text('''
game "Loop"
players 2..2
counter c per player = 0
effect spin { repeat while true { gain 1 c } }
scenario "runaway" players 2 { run { do spin } expect true }
''')
    g = compile_file(f)
    r = run_scenario(g, g.scenarios[0])
    assert not r.passed
    (span, msg), = r.failures
    assert "'repeat while' went round 10000 times" in msg and span.line == 5


def test_games_with_card_zones_play_save_and_resume(tmp_path):
    f = tmp_path / "inn.tav"
    f.write_text(GAME)
    g = compile_file(f)
    for n in (2, 3, 4):
        for seed in range(5):
            r = playout(g, n, seed)
            assert len(r["scores"]) == n
    m = Match(g, 3, 2)
    play_bots(m)
    data = json.loads(json.dumps(m.save(str(f))))
    assert Match.load(g, data).st.snapshot() == m.st.snapshot()
    # no card is created or lost: every card is in exactly one zone, card zones included
    where = [c for z in m.st.zones for c in z]
    assert sorted(where) == list(range(g.ncards))


@pytest.mark.parametrize(("text", "message"), [
    ('kind K { zone dice: private }\n', "a zone on a card is public or hidden"),
    ('zone dice: shared public\nkind K { zone dice: public }\n', "zone 'dice' is already defined"),
    ('kind K { zone dice: public capacity true }\n', "capacity should be int, not bool"),
    ('kind K { v: int = 1, def twice: bool = v * 2 }\n', "value of 'twice' should be bool, not int"),
    ('kind K { zone dice: public }\nkind L\ndef f(x: L): int = size(dice of x)\n', "kind 'L' has no zone 'dice'"),
    ('effect e { repeat while 3 { } }\n', "'repeat while' condition should be bool, not int"),
    ('rounds 1 { phase a "A" for each player from 3 { } }\n', "first player of the phase should be player, not int"),
])
def test_check_errors(tmp_path, text, message):
    f = tmp_path / "bad.tav"
    f.write_text('game "Bad"\nplayers 2..2\n' + text)
    with pytest.raises(TavError) as info:
        compile_file(f)
    msgs = [d.message for d in info.value.diagnostics]
    assert any(message in m for m in msgs), msgs


# ====================================================================== card zones: edges
# (each test below failed before its fix)

def scen_file(tmp_path, text):
    f = tmp_path / "q.tav"
    f.write_text(text)
    g = compile_file(f)
    return g, {sc["decl"].title: run_scenario(g, sc) for sc in g.scenarios}


def test_a_zone_on_a_card_others_may_not_see_names_no_card(tmp_path):
    f = tmp_path / "leak.tav"
    f.write_text('''
game "Leak"
players 3
kind Space { zone dice: public }
kind Die
card "Cashbox": Space
card "Vault": Space
card "die": Die
zone hand: per player private
zone pool: per player public
setup { move named("Cashbox") to hand of player(2)  move named("Vault") to hand of player(2)  move named("die") to pool of player(1) }
action put "put" { choose s in cards where s is Space "space" { move named("die")[1] to dice of s } }
rounds 1 { phase day "Day" turns from player(1) once_each { actions put } }
''')
    g = compile_file(f)
    m = Match(g, 3, 1)
    assert m.legal() == ["face-down card", "face-down card"]
    m.apply(0)
    for p in (0, 2):  # P1 and P3 may not see P2's hand
        text = "\n".join(m.log_lines(p)) + repr(m.view(p))
        assert "Cashbox" not in text and "Vault" not in text, text
        assert "dice of a face-down card" in text
    assert any("dice of Cashbox" in line or "dice of Vault" in line for line in m.log_lines(1))


def test_derived_values_and_zones_stay_with_their_kinds(tmp_path):
    g, r = scen_file(tmp_path, '''
game "KDef"
players 2
kind K { v: int = 1, def d: int = v * 10 }
kind L { v: int = 7 }
card "k": K
card "l": L
def dd(c: card): int = c.d
scenario "only K has d" players 2 { expect dd(named("l")[1]) == none and dd(named("k")[1]) == 10 }
''')
    assert all(x.passed for x in r.values()), [x.transcript() for x in r.values()]


@pytest.mark.parametrize(("text", "message"), [
    ('kind M { w: int = 1 }\nkind N { def w: int = 2 }\n', "'w' is already an attribute of kind 'M'"),
    ('kind M { w: int = 1 }\nkind N { zone w: public }\n', "'w' is already an attribute of kind 'M'"),
    ('kind N { zone owner: public }\n', "'owner' is a property every card has"),
    ('kind N { def name: str = "x" }\n', "'name' is a property every card has"),
    ('kind N { holder: int = 1 }\n', "'holder' is a property every card has"),
    ('counter gold per player = 1\nkind S { zone dice: public capacity me.gold }\n', "'me' is nobody in the capacity of a zone on a card"),
    ('counter g per player = 0\naction a "a" { gain 1 g }\n'
     'rounds 1 { phase d "D" turns from player(1) simultaneous until true at once { actions a pass final } }\n',
     "a simultaneous phase has no 'until ... at once'"),
    ('counter g per player = 0\naction a "a" { gain 1 g }\n'
     'rounds 1 { phase d "D" turns from player(1) once_each { actions a } phase e "E" { do d as player(1) } }\n',
     "phase 'd' is not played 'for each player'"),
    ('zone hand: per player private\neffect e { show hand of me to none }\n', "show to nobody"),
])
def test_more_check_errors(tmp_path, text, message):
    f = tmp_path / "bad.tav"
    f.write_text('game "Bad"\nplayers 2..2\n' + text)
    with pytest.raises(TavError) as info:
        compile_file(f)
    msgs = [d.message for d in info.value.diagnostics]
    assert any(message in m for m in msgs), msgs


def test_taken_in_a_simultaneous_phase(tmp_path):
    g, r = scen_file(tmp_path, '''
game "Taken"
players 2
counter g per player = 0
action a "a" { gain 1 g }
action b "b" { require taken(a)  gain 1 g }
rounds 1 { phase d "D" turns from player(1) simultaneous { actions a once, b once pass final } }
scenario "b after a" players 2 {
  answers "a", "a", "b", "b"
  run { do d }
  expect player(1).g == 2 and player(2).g == 2
}
''')
    assert r["b after a"].passed, r["b after a"].transcript()


def test_none_players_are_located_errors_everywhere(tmp_path):
    from click.testing import CliRunner
    from tavernlang.cli import main
    cases = {
        "next turn w": 'action a "a" { gain 1 g  next turn w }\nrounds 1 { phase d "D" turns from player(1) { actions a } }\n',
        "turns from w": 'action a "a" { gain 1 g }\nrounds 1 { phase d "D" turns from w once_each { actions a } }\n',
        "until w.g": 'action a "a" { gain 1 g }\nrounds 1 { phase d "D" turns from player(1) until w.g > 2 { actions a } }\n',
        "for each from w": 'rounds 1 { phase fe "FE" for each player from w { gain 1 g } }\n',
    }
    for what, body in cases.items():
        f = tmp_path / "n.tav"
        f.write_text('game "N"\nplayers 2..2\nvar w: player\ncounter g per player = 0\n' + body)
        for args in (["run", str(f), "-p", "2"], ["lint", str(f), "--simulate", "3"]):
            res = CliRunner().invoke(main, args)
            assert "internal error" not in res.output and "Traceback" not in res.output, (what, args, res.output)
            assert "n.tav:" in res.output, (what, args, res.output)


def test_a_card_never_lies_on_itself(tmp_path):
    g, r = scen_file(tmp_path, '''
game "Cyc"
players 2
kind Bag { zone stuff: public }
card "X": Bag
card "Y": Bag
zone z: shared public
setup { move cards to z }
scenario "self" players 2 { run { move named("X")[1] to stuff of named("X")[1] } expect true }
scenario "cycle" players 2 { run { move named("X")[1] to stuff of named("Y")[1]  move named("Y")[1] to stuff of named("X")[1] } expect true }
scenario "swap onto itself" players 2 { run { move named("X")[1] to stuff of named("Y")[1]  swap named("Y")[1] with named("X")[1] } expect true }
''')
    for title, res in r.items():
        assert not res.passed, title
        assert "cannot be" in res.failures[0][1] and "itself" in res.failures[0][1], res.failures


def test_each_kind_keeps_its_own_capacity_and_drop_and_swap_drops(tmp_path):
    g, r = scen_file(tmp_path, '''
game "Drop"
players 2
kind K { zone dice: public capacity 1 drop to pool of me }
kind L { zone dice: public capacity 3 drop to bin }
kind Die
card "k": K
card "k2": K
card "l": L
card "die": Die
zone pool: per player public
zone bin: shared public
zone mine: per player public
scenario "L's own rules" players 2 {
  given { move named("l") to mine of me  move named("die")[1] to dice of named("l")[1] }
  run { move named("l") to mine of player(2) }
  expect (dice of named("l")[1]).capacity == 3 and (dice of named("k")[1]).capacity == 1 and named("die")[1].zone == bin
}
scenario "a swap drops too, and the drop is logged" players 2 {
  given { move named("k") to mine of player(1)  move named("k2") to mine of player(2)  move named("die") to dice of named("k")[1] }
  run { swap named("k")[1] with named("k2")[1] }
  expect named("die")[1].zone == pool of player(1)
}
''')
    for title, res in r.items():
        assert res.passed, res.transcript()
    assert "die: dice of k -> pool of P1" in r["a swap drops too, and the drop is logged"].transcript()


def test_a_drop_to_none_is_a_located_error(tmp_path):
    g, r = scen_file(tmp_path, '''
game "DropNone"
players 2
kind K { zone dice: public drop to pool of me }
kind Die
card "k": K
card "die": Die
zone pool: per player public
zone z: shared public
scenario "from a shared zone, 'pool of me' is nobody's" players 2 {
  given { move named("k") to z  move named("die") to dice of named("k")[1] }
  run { move named("k") to pool of me }
  expect true
}
''')
    res = next(iter(r.values()))
    assert not res.passed and "nowhere to drop" in res.failures[0][1] and res.failures[0][0].line == 4


def test_an_effect_attribute_may_hold_an_action(tmp_path):
    g, r = scen_file(tmp_path, '''
game "Dyn"
players 2
counter g per player = 0
kind Ev { eff: effect }
action work "work" { gain 1 g }
card "W": Ev { eff: work }
scenario "s" players 2 { run { do named("W")[1].eff } expect me.g == 1 }
''')
    assert all(x.passed for x in r.values()), [x.transcript() for x in r.values()]


@pytest.mark.parametrize("bad", [
    {"options": [1]}, {"seed": 1e400}, {"seed": "x"}, {"options": {"x": 1, 2: 3}},
])
def test_a_damaged_save_is_refused_cleanly(tmp_path, bad):
    from tavernlang import GameError
    f = tmp_path / "inn.tav"
    f.write_text(GAME)
    g = compile_file(f)
    data = {"format": "tavernlang-save/1", "players": 3, "seed": 5, "choices": [], "options": {}}
    data.update(bad)
    with pytest.raises(GameError):
        Match.load(g, data)


def test_a_card_zones_capacity_reads_the_cards_own_attributes(tmp_path):
    g, r = scen_file(tmp_path, '''
game "C"
players 2
kind Tile { many: bool = false, zone dice: public capacity (if many then none else 1) }
card "Cashbox": Tile
card "Brewer": Tile { many: true }
scenario "own capacity" players 2 {
  expect (dice of named("Cashbox")[1]).capacity == 1 and (dice of named("Brewer")[1]).capacity == none
  expect not full(dice of named("Brewer")[1]) and free(dice of named("Cashbox")[1]) == 1
}
''')
    assert all(x.passed for x in r.values()), [x.transcript() for x in r.values()]


# ====================================================================== triggers, logs and who saw a card

def test_emit_in_a_handler_or_trigger_and_triggers_in_any_order(tmp_path):
    g, r = scen_file(tmp_path, '''
game "E"
players 2
counter c per player = 0
counter a per player = 0
counter b per player = 0
on first(p: player) { gain 1 c to p  emit second(p) }
on second(p: player) { gain 2 c to p }
when a of p reaches 1 { gain 1 b to p  emit second(p) }
when b of p reaches 1 { gain 10 a to p }
scenario "an emit inside a handler" players 2 { run { emit first(me) } expect me.c == 3 }
scenario "a gain in a trigger fires a trigger declared after it" players 2 {
  run { gain 1 a }
  expect me.b == 1 and me.a == 11 and me.c == 2
}
''')
    for res in r.values():
        assert res.passed, res.transcript()


def test_a_choice_log_hides_a_card_named_by_an_attribute(tmp_path):
    f = tmp_path / "m.tav"
    f.write_text('''
game "M"
players 2
kind Marker { var on: card = none }
kind Cup
card "Marker": Marker
card "The Poisoned Cup": Cup
zone hand: per player private
zone table: shared public
counter c per player = 0
setup { move named("The Poisoned Cup") to hand of player(2)  move named("Marker") to table  set named("Marker")[1].on = named("The Poisoned Cup")[1] }
action pick "pick" { choose m in table "marker" { gain 1 c } }
rounds 1 { phase p "P" turns from player(1) once_each { actions pick } }
''')
    g = compile_file(f)
    m = Match(g, 2, 1)
    play_bots(m)
    mine = [line for line in m.log_lines(0) if "chooses" in line]
    theirs = [line for line in m.log_lines(1) if "chooses" in line]
    assert mine and all("Poisoned" not in line and "on face-down card" in line for line in mine), mine
    assert all("The Poisoned Cup" in line for line in theirs), theirs


def test_who_saw_a_card_before_it_moved_still_reads_its_move(tmp_path):
    f = tmp_path / "pass.tav"
    f.write_text('''
game "Pass"
players 3
kind Gem
card "Ruby": Gem
zone hand: per player private
setup { move named("Ruby") to hand of player(1) }
action give "give" { move hand of me to hand of me.left }
rounds 1 { phase p "P" turns from player(1) once_each { actions give } }
''')
    g = compile_file(f)
    m = Match(g, 3, 1)
    play_bots(m)
    line = lambda p: next(x for x in m.log_lines(p) if "hand of P1 -> hand of P2" in x)
    assert line(0) == "Ruby: hand of P1 -> hand of P2"  # P1 gave it: P1 knows
    assert line(1) == "Ruby: hand of P1 -> hand of P2"  # P2 has it
    assert line(2) == "a card: hand of P1 -> hand of P2"  # P3 saw neither hand


PLACES = '''
game "Places"
players 2
kind Table { zone guests: public }
kind Guest
card "Table" x6: Table
card "Regular" x6: Guest
zone tables: per player public
zone box: shared hidden
zone street: shared public
setup {
  move cards to street
  for p in players { move first(2, filter(t in street where t is Table)) to tables of p }
  move first(1, filter(t in street where t is Table)) to tables of player(2)
  move filter(g in street where g is Guest)[1] to guests of (tables of player(2))[1]
  move filter(g in street where g is Guest)[1] to guests of (tables of player(2))[3]
  move filter(g in street where g is Guest)[1] to guests of (tables of player(2))[3]
  move (guests of (tables of player(2))[3])[2] to guests of (tables of player(1))[2]
}
end when true
winner: highest 0
'''


def _places(tmp_path):
    f = tmp_path / "places.tav"
    f.write_text(PLACES)
    m = Match(compile_file(f), 2, 1)
    assert m.over
    return m


def test_a_zone_on_a_card_of_a_player_names_the_card_by_owner_and_place_among_its_name(tmp_path):
    # (the Tables are numbered across the box: P2's first Table is the box's third)
    lines = _places(tmp_path).log_lines()
    assert "Regular: street -> guests of P2's Table 1" in lines
    assert "Regular ×2: street -> guests of P2's Table 3" in lines
    assert "Regular: guests of P2's Table 3 -> guests of P1's Table 2" in lines


def test_the_owner_reads_their_own_places_as_yours(tmp_path):
    m = _places(tmp_path)
    assert "Regular: guests of your Table 3 -> guests of P1's Table 2" in m.log_lines(1)
    assert "Regular: guests of P2's Table 3 -> guests of your Table 2" in m.log_lines(0)
    g, st = m.game, m.st
    first = next(z for z in range(len(st.zones)) if g.zone_text(z, st) == "guests of P2's Table 1")
    assert (g.zone_text(first, st, 1), g.zone_text(first, st, 0)) == ("guests of your Table 1", "guests of P2's Table 1")
    # (Match.view, the tools' view, keys a zone by a label that stays the same all game)
    assert m.view(1)["zones"]["guests of Table #3"] == ["Regular"]


def test_a_card_lying_on_a_card_is_named_by_where_it_lies(tmp_path):
    m = _places(tmp_path)
    g, st = m.game, m.st
    named = {g.zone_text(st.loc[c], st): g.place_ref(c, st) for c in st.all_cards if g.card_name[c] == "Regular"}
    assert named["guests of P2's Table 3"] == "Regular on P2's Table 3"
    assert named["guests of P1's Table 2"] == "Regular on P1's Table 2"
    # (in a shared zone: by its number among the cards of its name)
    assert [g.place_ref(c, st) for c in st.all_cards if g.card_name[c] == "Table" and st.zowner[st.loc[c]] is None] \
        == ["Table #6"]
