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

HELP = "type an option's number; v = view the table, s = save, q = quit, ? = help"


def _rng_to_json(rng) -> list:
    v, internal, g = rng.getstate()
    return [v, list(internal), g]


def _rng_from_json(rng, data) -> None:
    rng.setstate((data[0], tuple(data[1]), data[2]))


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


def play_terminal(game, file: str, players: int, seed: int, opts: dict, seat: int,
                  load_path: str | None, save_to: str | None) -> None:
    rules_bytes = game.model.sources.all_text()  # the rules file and everything it includes
    bot = bot_rng(seed)
    if load_path:
        try:
            data = json.loads(Path(load_path).read_text("utf-8"))
        except (OSError, ValueError) as e:
            raise GameError(f"cannot read the save '{load_path}': {e}")
        match = Match.load(game, data, rules_text=rules_bytes)
        seat = int(data.get("seat", seat + 1)) - 1
        if "bot_rng" in data:
            _rng_from_json(bot, data["bot_rng"])
        click.echo(f"resumed {game.title} after {len(match.choices)} decisions; you are P{seat + 1}")
    else:
        match = Match(game, players, seed, opts)
        click.echo(f"{game.title}: {players} players, seed {seed}; you are P{seat + 1}. {HELP}")
    save_path = save_to or (Path(file).stem + ".tavsave.json")
    shown = 0
    while not match.over:
        d = match.pending
        if d.player != seat:
            match.apply(bot_pick(bot, len(d.options)))
            continue
        lines = match.log_lines(seat)
        for line in lines[shown:]:
            click.echo("  " + line)
        shown = len(lines)
        labels = match.legal()
        click.echo(f"\nP{seat + 1}, {d.prompt}:")
        for i, lab in enumerate(labels, 1):
            click.echo(f"  {i}. {lab}")
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
            if raw in ("v", "view"):
                _show_view(match, seat)
                continue
            if raw in ("s", "save"):
                data = match.save(file, rules_bytes)
                data["seat"] = seat + 1
                data["bot_rng"] = _rng_to_json(bot)
                Path(save_path).write_text(json.dumps(data), "utf-8")
                click.echo(f"saved to {save_path}; resume with: tav play {file} --players {match.players} --load {save_path}")
                continue
            if raw.isdigit() and 1 <= int(raw) <= len(labels):
                match.apply(int(raw) - 1)
                break
            click.echo(f"? {HELP}")
    lines = match.log_lines(seat)
    for line in lines[shown:]:
        click.echo("  " + line)
    r = match.result
    click.echo("")
    for p, s in enumerate(r["scores"]):
        click.echo(f"  P{p + 1}: {s}" + ("  (winner)" if p in r["winners"] else "") + ("  <- you" if p == seat else ""))
