"""`tav play`: one person at the terminal against random bots.

The person sees only what their seat may see: the log is redacted for them and
the view hides other players' private and face-down cards. Typing `s` saves
the game (rules, seed, choices, bot state) to JSON; `tav play --load` resumes it.
"""
from __future__ import annotations

import json
from pathlib import Path

import click

from .engine.runner import Match, bot_pick, bot_rng
from .errors import GameError

HELP = ("type an option's number; i N = the text of option N's card (i NAME: a card by name), "
        "w = why an action is not offered, v = view the table, s = save, q = quit, ? = help")


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
    for i, (lab, c) in enumerate(zip(match.legal(), d.cards()), 1):
        text = g.card_text(c, st, seat) if c is not None and st.visible(c, seat) else None
        out.append(f"  {i}. {lab}" + (f" — {text}" if text else ""))
    return out


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
    missing = match.game.missing_actions([n for n in names if n], match.st, seat, phase)
    if not missing:
        return "every action of this phase is offered" if phase is None else "every action of this phase is open to you now"
    head = "" if phase is None else "(you are inside a turn; as things stand now)\n"
    return head + "\n".join(f"  not offered: {title}: {why}" for title, why in missing)


def _log_lines(match: Match, seat: int) -> list[str]:
    """The log as the seat may read it; a revealed card's text follows the line that reveals it."""
    g, st = match.game, match.st
    by_name = {}
    for c in range(g.ncards):
        by_name.setdefault(g.card_name[c], c)
    out = []
    for line, (_, _, data) in zip(match.log_lines(seat), st.log or []):
        out.append(line)
        if data.get("type") == "reveal" and data.get("card") in by_name:
            text = g.card_text(by_name[data["card"]], st, seat)
            if text:
                out.append(f"    ({text})")
    return out


def _show_view(match: Match, seat: int) -> None:
    v = match.view(seat)
    click.echo(f"-- round {v['round']} --")
    for name, values in v["counters"].items():
        if isinstance(values, list):
            click.echo(f"  {name}: " + ", ".join(f"P{p + 1} {x}" + (" (you)" if p == seat else "") for p, x in enumerate(values)))
        else:
            click.echo(f"  {name}: {values}")
    for z, cards in v["zones"].items():
        if not cards:
            continue
        hidden = cards.count("?")
        shown = [c for c in cards if c != "?"]
        if not shown:
            click.echo(f"  {z}: {hidden} face-down card(s)")
        elif hidden > 3:
            click.echo(f"  {z}: " + ", ".join(shown) + f", and {hidden} face-down cards")
        else:
            click.echo(f"  {z}: " + ", ".join("(face down)" if c == "?" else c for c in cards))


def _search_bots(spec: str | None, players: int, seed: int) -> dict:
    """The search bots of a `--bots` spec, by seat (the random seats are left to the random bot)."""
    if not spec:
        return {}
    from .bots import Seats, parse_bots
    return Seats(parse_bots(spec, players), seed).search


def play_terminal(game, file: str, players: int, seed: int, opts: dict, seat: int,
                  load_path: str | None, save_to: str | None, bots: str | None = None) -> None:
    """`bots`: the other seats' `--bots` (bots.py); None: random bots, as always."""
    rules_bytes = game.model.sources.all_text()  # the rules file and everything it includes
    bot = bot_rng(seed)
    search = {}  # seat -> a search bot (greedy, mcts); the random seats use `bot`
    if load_path:
        try:
            data = json.loads(Path(load_path).read_text("utf-8"))
        except (OSError, ValueError) as e:
            raise GameError(f"cannot read the save '{load_path}': {e}")
        match = Match.load(game, data, rules_text=rules_bytes)
        seat = int(data.get("seat", seat + 1)) - 1
        if "bot_rng" in data:
            _rng_from_json(bot, data["bot_rng"])
        bots = bots or data.get("bots")
        search = _search_bots(bots, match.players, match.seed)
        for k, st in (data.get("search_rng") or {}).items():
            if int(k) in search:
                _rng_from_json(search[int(k)].rng, st)
        click.echo(f"resumed {game.title} after {len(match.choices)} decisions; you are P{seat + 1}")
    else:
        match = Match(game, players, seed, opts)
        search = _search_bots(bots, players, seed)
        click.echo(f"{game.title}: {players} players, seed {seed}; you are P{seat + 1}. {HELP}")
    save_path = save_to or (Path(file).stem + ".tavsave.json")
    shown = 0
    while not match.over:
        d = match.pending
        if d.player != seat:
            if d.player in search:
                from .bots import Root
                match.apply(search[d.player].choose(Root.of(match)))
            else:
                match.apply(bot_pick(bot, len(d.options)))
            continue
        lines = _log_lines(match, seat)
        for line in lines[shown:]:
            click.echo("  " + line)
        shown = len(lines)
        labels = match.legal()
        click.echo(f"\nP{seat + 1}, {d.prompt}:")
        for line in _option_lines(match, seat):
            click.echo(line)
        while True:
            try:
                raw = click.prompt(">", default="", show_default=False, prompt_suffix=" ").strip().lower()
            except (EOFError, click.Abort):
                click.echo("\nno more input: quitting (use 's' to save first)")
                return
            if raw in ("q", "quit"):
                return
            if raw in ("?", "h", "help"):
                click.echo(HELP)
                continue
            if raw == "i" or raw.startswith("i "):
                click.echo(_card_info(match, seat, raw[2:].strip()) if raw[2:].strip() else "i N: option N's card; i NAME: a card by name")
                continue
            if raw in ("w", "why"):
                click.echo(_why_lines(match, seat))
                continue
            if raw in ("v", "view"):
                _show_view(match, seat)
                continue
            if raw in ("s", "save"):
                data = match.save(file, rules_bytes)
                data["seat"] = seat + 1
                data["bot_rng"] = _rng_to_json(bot)
                if bots:
                    data["bots"] = bots
                    data["search_rng"] = {str(p): _rng_to_json(b.rng) for p, b in search.items()}
                Path(save_path).write_text(json.dumps(data), "utf-8")
                click.echo(f"saved to {save_path}; resume with: tav play {file} --players {match.players} --load {save_path}")
                continue
            if raw.isdigit() and 1 <= int(raw) <= len(labels):
                match.apply(int(raw) - 1)
                break
            click.echo(f"? {HELP}")
    lines = _log_lines(match, seat)
    for line in lines[shown:]:
        click.echo("  " + line)
    r = match.result
    click.echo("")
    for p, s in enumerate(r["scores"]):
        click.echo(f"  P{p + 1}: {s}" + ("  (winner)" if p in r["winners"] else "") + ("  <- you" if p == seat else ""))
