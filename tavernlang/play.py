"""`tav play`: one person at the terminal against random bots.

The person sees only what their seat may see: the log is redacted for them and
the view hides other players' private and face-down cards. Typing `s` saves
the game (rules, seed, choices, bot state) to JSON; `tav play --load` resumes it.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from .check.model import DefRef, KindDefRef
from .colour import Paint
from .engine.runner import Match, bot_pick, bot_rng
from .errors import GameError

KEYS = [
    ("N", "take option N"),
    ("i N", "the full text of option N's card (i NAME: a card by name)"),
    ("v", "view the table: your cards, the other players', the shared zones, counters with their ranges"),
    ("w", "why an action is not offered (its first failed requirement)"),
    ("l", "the log so far, numbered"),
    ("why N", "why log line N says what it says: the rules lines behind it"),
    ("u", "undo your last decision (the game is replayed without it; the bots choose as before)"),
    ("s", "save the game (resume with --load)"),
    ("q", "quit"),
    ("?", "this list"),
]
HELP = "type an option's number, or ? for the other keys (i N: a card's text, v: the table, w: why not)"
KEY_HELP = "\n".join(f"  {k:<6} {what}" for k, what in KEYS)


def _rng_to_json(rng) -> list:
    v, internal, g = rng.getstate()
    return [v, list(internal), g]


def _rng_from_json(rng, data) -> None:
    rng.setstate((data[0], tuple(data[1]), data[2]))


def _option_lines(match: Match, seat: int) -> list[str]:
    """The pending decision's options as the seat reads them: each card's label, then its text."""
    d = match.pending
    g, st = match.game, match.st
    out = []
    labels = match.legal()
    cards = d.cards()
    places = [_where(match, c, seat) if c is not None else "" for c in cards]
    say_where = len({p for p, c in zip(places, cards) if c is not None}) > 1  # (all in one place: said once, by the view)
    if d.labeler == "zone":  # a zone reads by its title and owner: your Table, P2's Table
        labels = [_zone_place(match, z, seat) if isinstance(z, int) else lab for z, lab in zip(d.options, labels)]
    for i, (lab, c, where) in enumerate(zip(labels, cards, places), 1):
        seen = c is not None and st.visible(c, seat)
        text = g.card_text(c, st, seat) if seen else None
        out.append(f"  {i}. {lab}" + (f" ({where})" if say_where and where else "") + (f" — {text}" if text else ""))
    return out


def _where(match: Match, c: int, seat: int) -> str:
    """Where a card lies, for telling identical cards apart: "P2's Board", "your Hand", "Market"."""
    z = match.st.loc[c]
    return _zone_place(match, z, seat) if z >= 0 else ""


def _zone_place(match: Match, z: int, seat: int) -> str:
    """A zone as people name it: its title, with its owner (your Board, P2's Board, Market)."""
    st, g = match.st, match.game
    f = st.zfamily[z]
    if g.zone_is_card[f]:
        return g.zone_text(z, st, seat)
    owner = st.zowner[z]
    name = _zone_title(g, f)
    if owner is None:
        return name
    return ("your " if owner == seat else f"P{owner + 1}'s ") + name


def _card_info(match: Match, seat: int, arg: str) -> str:
    """`i N` / `i NAME`: a card's name, kind and full text."""
    g, st = match.game, match.st
    d = match.pending
    c = None
    if arg.isdigit():
        cards = d.cards() if d is not None else []
        if not 1 <= int(arg) <= len(cards):
            return f"there is no option {arg}"
        c = cards[int(arg) - 1]
        if c is None:
            return f"option {arg} is not a card"
        if not st.visible(c, seat):
            return f"option {arg} is a face-down card"
    else:
        named = [k for k in range(g.ncards) if g.card_name[k].lower() == arg.lower()]
        if not named:
            named = [k for k in range(g.ncards) if g.card_name[k].lower().startswith(arg.lower())]
        names = sorted({g.card_name[k] for k in named})
        if not names:
            return f"no card is named '{arg}'"
        if len(names) > 1:
            return f"'{arg}' could be: " + ", ".join(names)
        c = named[0]
        for k in named:  # a copy the seat may see reads as it is now (a die shows its face)
            if st.visible(k, seat):
                c = k
                break
        if not st.visible(c, seat):
            return f"{g.card_name[c]} ({g.card_kind[c]}): " + (g.card_text(c, st, -1) or "no text")
    text = g.card_text(c, st, seat)
    return f"{g.card_label(c, st, seat)} ({g.card_kind[c]}): " + (text or "the rules give this card no text")


def _why_lines(match: Match, seat: int) -> str:
    """`w`: at a turn, the actions not offered, each with its first failed requirement's message."""
    d = match.pending
    names = [getattr(o, "name", None) for o in d.options]
    phase = None
    if not all(isinstance(n, str) or (n is None and o is None) for n, o in zip(names, d.options)) or not any(names):
        # inside an action: the actions of the phase being played, as they stand now
        phase = next((data["phase"] for _, _, data in reversed(match.st.log or []) if data.get("type") == "phase"), None)
        names = []
        if phase is None or not any(ph.name == phase and ph.decl.actions for ph in match.game.model.phases):
            return "no one takes actions now: this is not a turn"
    missing = match.game.missing_actions([n for n in names if n], match.st, seat, phase)
    if not missing:
        return "every action of this phase is offered" if phase is None else "every action of this phase is open to you now"
    head = "" if phase is None else "(you are inside a turn; as things stand now)\n"
    return head + "\n".join(f"  not offered: {title}: {why}" for title, why in missing)


def _source(match: Match, span) -> str:
    ln = match.game.model.sources.line(span.file, span.line) or ""
    return f"{span}: {ln.strip()}"


def explain(match: Match, seat: int, n: int) -> list[str]:
    """`why N`: where log line N (as `l` numbers them) comes from: the rules statement that wrote
    it, and its amount term by term, each with its value and its place (engine/explain.py); for
    the result, the winner rule and each player's values. Only what the seat may see."""
    from .engine.explain import tree
    st, m = match.st, match.game.model
    log = match.log_lines(seat)
    if not 1 <= n <= len(log):
        return [f"there is no log line {n} (the log has {len(log)}; 'l' numbers them)"]
    text, _, data = (st.log or [])[n - 1]
    out = [f"{n}. {people_line(match, seat, log[n - 1], data)}"]
    found = st.explain.found.get(n - 1) if st.explain is not None else None
    if data.get("type") == "end":
        if found is not None:
            return out + tree(found, seat)
        rules = [w for w in m.guarded_winners] + ([m.winner] if m.winner is not None else [])
        out += ["  decided by the winner rules, the first whose 'when' holds:"] + [f"    {_source(match, w.span)}" for w in rules]
        return out
    span = st.why.get(n - 1)
    if span is None:
        return out + ["  (a move, a choice, a heading or a step the log says in full: nothing more to explain)"]
    out.append(f"  written by {_source(match, span)}")
    if found is not None:
        return out + tree(found, seat)
    if st.explain is not None:
        return out + ["  (its amount is a number of the rules, or was chosen: nothing more to break down)"]
    return out + _defs_used(match, span)  # (a game played without its terms kept: the definitions used)


def _defs_used(match: Match, span) -> list[str]:
    """The definitions a gain's amount is worked out with, each with its place."""
    from .syntax import ast as A
    m = match.game.model
    out = []
    stmt = next((x for d in m.decls for x in A.walk(d) if isinstance(x, A.Gain) and x.span == span), None)
    seen: set = set()
    todo = [stmt.amount] if stmt is not None else []
    while todo:
        e = todo.pop(0)
        for x in A.walk(e):
            ref = m.refs.get(x)
            if isinstance(x, (A.Call, A.Name)) and isinstance(ref, DefRef) and ref.name not in seen:
                seen.add(ref.name)
                d = m.defs.get(ref.name)
                if d is not None:
                    out.append(f"  with {ref.name}: {_source(match, d.decl.span)}")
                    todo.append(d.decl.body)
            elif isinstance(x, A.Attr) and isinstance(ref, KindDefRef) and ref.name not in seen:
                seen.add(ref.name)
                d = m.kind_defs.get(ref.name)
                if d is not None:
                    out.append(f"  with {ref.name}: {_source(match, d.decl.span)}")
                    todo.append(d.decl.body)
    return out


def _log_lines(match: Match, seat: int) -> list[str]:
    """The log as the seat may read it, for people (zones by their titles: "Knight: the deck ->
    P2's Table"); a revealed card's text follows the line that reveals it, and a gain of several
    terms its terms ("= bonus(Knight) 2 ×2 (my_game.tav:31), ...": `why N` gives the rest)."""
    return [x for line, notes in log_entries(match, seat) for x in [line] + notes]


def log_entries(match: Match, seat: int, start: int = 0) -> list[tuple[str, list[str]]]:
    """The log from line `start` on as the seat may read it, one entry per log line (`why N`
    numbers them from 1): the line for people, and the notes `_log_lines` prints under it."""
    from .engine.explain import summary
    g, st = match.game, match.st
    by_name = {}
    for c in range(g.ncards):
        by_name.setdefault(g.card_name[c], c)
    found = st.explain.found if st.explain is not None else {}
    out = []
    for i, (line, (_, _, data)) in enumerate(zip(match.log_lines(seat), st.log or [])):
        if i < start:
            continue
        notes = []
        if data.get("type") == "reveal" and data.get("card") in by_name:
            text = g.card_text(by_name[data["card"]], st, seat)
            if text:
                notes.append(f"    ({text})")
        d = found.get(i)
        if d is not None and data.get("type") in ("gain", "lose", "give", "take") and len(d.get("parts") or ()) > 1:
            s = summary(d, seat)
            if s:
                notes.append(f"    (= {s})")
        out.append((people_line(match, seat, line, data), notes))
    return out


def _zone_labels(match: Match) -> dict:
    """The log's names of zones ("table of P2", "order_deck") -> the zones."""
    g, st = match.game, match.st
    got = g.__dict__.setdefault("_play_zone_labels", {})
    if st.n not in got:
        got[st.n] = {g._zone_label(z, st.n): z for z in range(len(st.zones))}
    return got[st.n]


def people_line(match: Match, seat: int, line: str, data: dict) -> str:
    """A log line with the zones it names as people name them: their titles, "your Table",
    "P2's Table" (the rules' log, `tav run`'s, keeps the rules' names)."""
    kind = data.get("type")
    if kind not in ("move", "move_all", "shuffle", "choice"):
        return line
    zones = _zone_labels(match)

    def named(label: str) -> str:
        z = zones.get(label)
        if z is None or match.game.zone_is_card[match.st.zfamily[z]]:
            # (a zone on a card: the line names its card as the seat could see it when written)
            return label
        return _zone_place(match, z, seat)
    if kind == "move":
        card, sep, path = line.partition(": ")
        src, arrow, to = path.partition(" -> ")
        return f"{card}{sep}{named(src)}{arrow}{named(to)}" if arrow else line
    if kind == "move_all":
        head, arrow, to = line.partition(" -> ")
        return f"{head}{arrow}{named(to)}"
    if kind == "shuffle" and line.startswith("shuffle "):
        return "shuffle " + named(line[len("shuffle "):])
    choice = data.get("choice")
    if isinstance(choice, str) and choice in zones and f" chooses {choice} (" in line:
        return line.replace(f" chooses {choice} (", f" chooses {named(choice)} (", 1)
    return line


def _zone_title(g, f: int) -> str:
    """A zone family's title for people: its declared title, else its name in words."""
    zones = list(g.model.zones.values())
    if f < len(zones) and zones[f].decl.title:
        return zones[f].decl.title
    return g.zone_names[f].replace("_", " ")


def _counted(labels: list[str]) -> str:
    """Identical cards counted, in the order they first appear: "Apple ×6, Pear ×4, Plum"."""
    counts: dict[str, int] = {}
    for lab in labels:
        counts[lab] = counts.get(lab, 0) + 1
    return ", ".join(f"{lab} ×{k}" if k > 1 else lab for lab, k in counts.items())


def _owner_title(owner, seat: int) -> str:
    return "Shared" if owner is None else "Yours" if owner == seat else f"P{owner + 1}'s"


def _fn(g, e):
    """An expression of the rules compiled once for this game (a range's bounds, a view's `if`)."""
    return g.function_of(e)


def _counter_line(match: Match, seat: int, name: str, owner=None) -> str:
    """A counter as people read it: its title, its range, each player's value (yours first), or
    with `owner`, that player's alone ("Score track: 3 (0..12)")."""
    st, g = match.st, match.game
    d = g.model.counters[name].decl
    row = st.counters[g.counter_slots[name]]
    rng = ""
    if d.low is not None and d.high is not None:
        env = [owner] + [None] * (g.model.max_frame + 1)  # (a range of each player's own: that player's)
        try:
            lo, hi = _fn(g, d.low)(st, env), _fn(g, d.high)(st, env)
            rng = f"{lo}..{hi}"
        except Exception:  # a range that cannot be worked out here: shown without it
            rng = ""
    title = d.title or name.replace("_", " ")
    if d.per_player and owner is None:
        vals = [f"you {row[seat]}"] + [f"P{p + 1} {x}" for p, x in enumerate(row) if p != seat]
        return f"  {title}" + (f" ({rng})" if rng else "") + ": " + ", ".join(vals)
    return f"  {title}: {row[owner if d.per_player else 0]}" + (f" ({rng})" if rng else "")


def _var_line(match: Match, seat: int, name: str, owner=None) -> str:
    """A `var` as people read it: its name in words and its value ("server: P2", "you"), each
    player's (yours first), or with `owner`, that player's alone."""
    st, g = match.st, match.game
    info = g.model.vars[name]
    row = st.vars[info.slot]
    t = str(info.type)

    def text(v) -> str:
        return "you" if t == "player" and v == seat else g.label(v, st, t, seat)
    title = name.replace("_", " ")
    if info.decl.per_player and owner is None:
        vals = [f"you {text(row[seat])}"] + [f"P{p + 1} {text(x)}" for p, x in enumerate(row) if p != seat]
        return f"  {title}: " + ", ".join(vals)
    return f"  {title}: {text(row[owner if info.decl.per_player else 0])}"


def _zone_line(match: Match, seat: int, z: int, title: str | None = None) -> str:
    """`Title: Apple ×6, Pear, 3 face-down cards`: what the seat may see of a zone, counted."""
    st, g = match.st, match.game
    cards = st.zones[z]
    f = st.zfamily[z]
    if title is None:
        title = g.zone_text(z, st, seat) if g.zone_is_card[f] else _zone_title(g, f)
    seen = [g.card_label(c, st, seat) for c in cards if st.visible(c, seat)]
    hidden = len(cards) - len(seen)
    parts = ([_counted(seen)] if seen else []) + (
        [f"{hidden} face-down card" + ("s" if hidden != 1 else "")] if hidden else [])
    return f"    {title}: " + ", ".join(parts)


def view_lines(match: Match, seat: int) -> list[str]:
    """The table as the seat may see it, for people: counters with their ranges; zones grouped by
    owner (yours first), identical cards counted, cards the seat may not see as a count, empty
    zones left out. A rules file's `view { ... }` chooses the groups and their order instead."""
    st, g = match.st, match.game
    if g.model.view is not None:
        return _designed_view(match, seat, g.model.view)
    out = [f"-- round {st.round} --"]
    for name in g.model.counters:
        out.append(_counter_line(match, seat, name))
    for name, info in g.model.vars.items():  # a marker a player holds (the first player, a Server)
        if str(info.type) == "player" and not info.decl.per_player and st.vars[info.slot][0] is not None:
            out.append(_var_line(match, seat, name))
    groups: dict = {}
    for z, cards in enumerate(st.zones):
        if not cards:
            continue
        f = st.zfamily[z]
        owner = st.zone_owner(z) if g.zone_is_card[f] else st.zowner[z]  # a zone on a card: with whoever holds the card
        groups.setdefault(owner, []).append(_zone_line(match, seat, z))
    order = sorted(groups, key=lambda o: (o is None, o != seat, o if o is not None else 0))
    for owner in order:
        out.append(f"  {_owner_title(owner, seat)}:")
        out.extend(groups[owner])
    return out


def _designed_view(match: Match, seat: int, v) -> list[str]:
    """The view as the rules file's `view { ... }` orders it: each group in turn (a `per player`
    group once for each player, yours first), its zones and counters in the order written; a
    group whose `if` does not hold, and empty zones, left out."""
    st, g = match.st, match.game
    m = g.model
    out = [f"-- round {st.round} --"]
    fam = {name: i for i, name in enumerate(g.zone_names)}
    pad = [None] * (m.max_frame + 1)
    for grp in v.groups:
        if grp.cond is not None and not _fn(g, grp.cond)(st, [None] + pad):
            continue
        owners = [seat] + [p for p in range(st.n) if p != seat] if grp.per_player else [None]
        for owner in owners:
            lines = []
            for name, _ in grp.names:
                if name in m.counters:
                    lines.append("    " + _counter_line(match, seat, name, owner).strip())
                    continue
                if name in m.vars:
                    lines.append("    " + _var_line(match, seat, name, owner).strip())
                    continue
                f = fam[name]
                if g.zone_is_card[f]:  # a zone on cards: each held by this owner (or shared)
                    zs = [z for z in range(len(st.zones)) if st.zfamily[z] == f and st.zones[z] and st.zone_owner(z) == owner]
                else:
                    zs = [st.zbase[f] + (owner if g.zone_per[f] else 0)]
                lines += [_zone_line(match, seat, z) for z in zs if st.zones[z]]
            if not lines:
                continue
            if grp.per_player:
                head = ("Your " if owner == seat else f"P{owner + 1}'s ") + grp.title if grp.title else _owner_title(owner, seat)
            else:
                head = grp.title
            out.append(f"  {head}:")
            out.extend(lines)
    return out


def _show_view(match: Match, seat: int, paint=None) -> None:
    for line in view_lines(match, seat):
        click.echo(paint.view(line) if paint is not None else line)


def _search_bots(spec: str | None, players: int, seed: int) -> dict:
    """The search bots of a `--bots` spec, by seat (the random seats are left to the random bot)."""
    if not spec:
        return {}
    from .bots import Seats, parse_bots
    return Seats(parse_bots(spec, players), seed).search


def _saved_search_bots(data: dict, bots: str | None, match: Match) -> tuple[dict, str | None]:
    """The search bots of a save (its 'bots', unless `--bots` gives others), each at its saved
    'search_rng': a damaged field is an error naming it."""
    from .bots import BotSpecError
    saved = data.get("bots")
    if saved is not None and not isinstance(saved, str):
        raise GameError("the save file is damaged: 'bots' must be a --bots text")
    try:
        search = _search_bots(bots or saved, match.players, match.seed)
    except BotSpecError as e:
        raise GameError(f"the save file is damaged: 'bots': {e}" if not bots else str(e)) from None
    rngs = data.get("search_rng") or {}
    try:
        if not isinstance(rngs, dict):
            raise TypeError
        for k, st in rngs.items():
            if int(k) in search:
                _rng_from_json(search[int(k)].rng, st)
    except (TypeError, ValueError, IndexError, KeyError, OverflowError):
        raise GameError("the save file is damaged: 'search_rng' is not the state of each search bot's "
                        "random generator, by seat") from None
    return search, bots or saved


def _replay(match: Match, k: int) -> Match:
    """The same game with only its first k decisions made (undo)."""
    m = Match(match.game, match.players, match.seed, match.options, explain=True)
    for i in match.choices[:k]:
        m.apply(i)
    return m


def play_terminal(game, file: str, players: int, seed: int, opts: dict, seat: int,
                  load_path: str | None, save_to: str | None, bots: str | None = None, also=(),
                  seats_given: bool = False) -> None:
    """`bots`: the other seats' `--bots` (bots.py); None: random bots, as always. `also`: more
    seats played by people at this terminal (hot seat): a pass-the-device screen between them."""
    humans = {seat, *also}
    paint = Paint()  # colour in a terminal with rich; plain when piped or with NO_COLOR
    rules_bytes = game.model.sources.all_text()  # the rules file and everything it includes
    bot = bot_rng(seed)
    search = {}  # seat -> a search bot (greedy, mcts); the random seats use `bot`
    if load_path:
        try:
            data = json.loads(Path(load_path).read_text("utf-8"))
        except (OSError, ValueError) as e:
            raise GameError(f"cannot read the save '{load_path}': {e}")
        try:
            match = Match.load(game, data, rules_text=rules_bytes, explain=True)
        except GameError as e:
            where = data.get("rules") if isinstance(data, dict) else None
            if isinstance(where, str) and where != file and "rules" in str(e):
                raise GameError(f"{e} (this save belongs to {where:.200}, not {file})") from None
            raise
        if players and players != match.players:
            raise GameError(f"the save is of a {match.players}-player game: --players {players} contradicts it "
                            f"(give --players {match.players})")
        if seats_given and sorted({seat, *also}) != sorted(k - 1 for k in (data.get("seats") or [data.get("seat")])):
            raise GameError("the save is played by seat(s) " + ", ".join(str(k) for k in (data.get("seats") or [data.get("seat")]))
                            + ": --seat contradicts it (leave --seat out to resume)")
        saved_seat = data.get("seat", seat + 1)
        if type(saved_seat) is not int or not 1 <= saved_seat <= match.players:
            raise GameError(f"the save file is damaged: 'seat' must be a seat from 1 to {match.players}, "
                            f"not {saved_seat!r:.40}")
        seat = saved_seat - 1
        saved = data.get("seats") or [saved_seat]
        if not (isinstance(saved, list) and all(type(k) is int and 1 <= k <= match.players for k in saved)):
            raise GameError(f"the save file is damaged: 'seats' must be seats from 1 to {match.players}")
        humans = {k - 1 for k in saved} | {seat}
        if "bot_rng" in data:
            try:
                _rng_from_json(bot, data["bot_rng"])
            except (TypeError, ValueError, IndexError, KeyError, OverflowError):
                raise GameError("the save file is damaged: 'bot_rng' is not the state of a random generator") from None
        search, bots = _saved_search_bots(data, bots, match)
        click.echo(f"resumed {game.title} after {len(match.choices)} decisions; you are P{seat + 1}")
    else:
        match = Match(game, players, seed, opts, explain=True)
        search = _search_bots(bots, players, seed)
        click.echo(f"{game.title}: {players} players, seed {seed}; you are P{seat + 1}. {HELP}")
    save_path = save_to or (Path(file).stem + ".tavsave.json")
    shown = 0
    undo: list = []  # at each of your decisions: (decisions made before it, the bots' RNG states)
    unsaved = 0  # your decisions since the game was started, loaded or saved
    quitting = False
    shown_by: dict = {}  # hot seat: how much of the log each person has seen
    while not match.over:
        d = match.pending
        if d.player in humans and d.player != seat:  # the next person's turn: pass the device
            shown_by[seat] = shown
            seat = d.player
            shown = shown_by.get(seat, 0)
            click.clear()
            click.echo("\n" * 40 + f"-- pass the device to P{seat + 1} --")
            try:
                click.prompt(f"P{seat + 1}, press Enter when you are ready", default="", show_default=False)
            except (EOFError, click.Abort):
                click.echo("\nno more input: quitting (use 's' to save first)")
                return
            click.clear()
        if d.player != seat:
            if d.player in search:
                from .bots import Root
                match.apply(search[d.player].choose(Root.of(match)))
            else:
                match.apply(bot_pick(bot, len(d.options)))
            continue
        lines = _log_lines(match, seat)
        for line in lines[shown:]:
            click.echo(paint.log("  " + line))
        shown = len(lines)
        labels = match.legal()
        here = (len(match.choices), bot.getstate(), {p: b.rng.getstate() for p, b in search.items()})
        click.echo("\n" + paint(f"P{seat + 1}, {d.prompt}:", "prompt"))
        for line in _option_lines(match, seat):
            click.echo(paint.option(line))
        while True:
            try:
                raw = click.prompt(">", default="", show_default=False, prompt_suffix=" ").strip().lower()
            except (EOFError, click.Abort):
                click.echo("\nno more input: quitting (use 's' to save first)")
                return
            if raw in ("q", "quit"):
                if unsaved and not quitting:
                    quitting = True
                    click.echo(f"you have {unsaved} unsaved decision(s): q again to quit, s to save first")
                    continue
                return
            quitting = False
            if raw in ("u", "undo"):
                if not undo:
                    click.echo("nothing to undo (you have made no decision since the game started or was loaded)")
                    continue
                k, bot_state, search_states = undo.pop()
                match = _replay(match, k)
                bot.setstate(bot_state)  # the bots' later choices replay from the same seed
                for p, b in search.items():
                    b.rng.setstate(search_states[p])
                unsaved = max(0, unsaved - 1)
                shown = len(_log_lines(match, seat))
                click.echo("undone: back to your decision before the last")
                break
            if raw in ("?", "h", "help"):
                click.echo(KEY_HELP)
                continue
            if raw == "i" or raw.startswith("i "):
                click.echo(_card_info(match, seat, raw[2:].strip()) if raw[2:].strip() else "i N: option N's card; i NAME: a card by name")
                continue
            if raw in ("l", "log"):
                for i, (line, (_, _, data)) in enumerate(zip(match.log_lines(seat), match.st.log or []), 1):
                    click.echo(paint.log(f"  {i}. {people_line(match, seat, line, data)}"))
                continue
            if raw.startswith("why ") and raw[4:].strip().isdigit():
                out = explain(match, seat, int(raw[4:].strip()))
                click.echo("\n".join(out[:1] + [paint(ln, "why") for ln in out[1:]]))
                continue
            if raw in ("w", "why"):
                click.echo(paint(_why_lines(match, seat), "warn"))
                continue
            if raw in ("v", "view"):
                _show_view(match, seat, paint)
                continue
            if raw in ("s", "save"):
                data = match.save(file, rules_bytes)
                data["seat"] = seat + 1
                if len(humans) > 1:
                    data["seats"] = sorted(k + 1 for k in humans)
                data["bot_rng"] = _rng_to_json(bot)
                if bots:
                    data["bots"] = bots
                    data["search_rng"] = {str(p): _rng_to_json(b.rng) for p, b in search.items()}
                Path(save_path).write_text(json.dumps(data), "utf-8")
                unsaved = 0
                click.echo(f"saved to {save_path}; resume with: tav play {file} --players {match.players} --load {save_path}")
                continue
            if raw.isdigit() and 1 <= int(raw) <= len(labels):
                undo.append(here)
                unsaved += 1
                match.apply(int(raw) - 1)
                break
            click.echo(f"? {HELP}")
    lines = _log_lines(match, seat)
    for line in lines[shown:]:
        click.echo(paint.log("  " + line))
    r = match.result
    click.echo("")
    for p, s in enumerate(r["scores"]):
        click.echo(f"  P{p + 1}: {s}" + (paint("  (winner)", "gain") if p in r["winners"] else "") + ("  <- you" if p in humans else ""))
    if match.st.explain is not None and match.st.log:  # how the winner was decided
        from .engine.explain import tree
        for line in tree(match.st.explain.found.get(len(match.st.log) - 1), seat):
            click.echo(line)
