"""The `tav serve` command (a click command, added to the `tav` group when asked for, so that
`tav check` loads neither the engine nor the web server).

    tav serve FILE [--host 127.0.0.1] [--port 8000] [-o NAME=VALUE]... [--bot-delay 0.5]
                   [--replay SAVE.json | --replay GAMES.jsonl --seed S [--side NAME]]

Needs the [web] extra (Starlette, uvicorn); prints the lobby's URL.
"""
from __future__ import annotations

import json
import sys

import click

from ..paths import RulesPath


@click.command()
@click.argument("file", type=RulesPath())
@click.option("--host", default="127.0.0.1", show_default=True,
              help="The address to listen on (another than 127.0.0.1 lets other machines in: anyone who "
                   "can reach it can open tables).")
@click.option("--port", type=click.IntRange(1, 65535), default=8000, show_default=True, help="The port to listen on.")
@click.option("--option", "-o", "options", multiple=True, metavar="NAME=VALUE",
              help="Set a game option (the lobby's default; a table may change it).")
@click.option("--bot-delay", type=click.FloatRange(0, 60), default=0.5, show_default=True,
              help="Seconds a bot waits before it moves, so that a person can follow.")
@click.option("--replay", "replay", metavar="SAVE.json|GAMES.jsonl",
              help="Open a replay of a saved game (a save of `tav play` or of a web table), or of one game "
                   "of a --games-out file (with --seed): step forward and back, from any seat's view or "
                   "the public one; read-only.")
@click.option("--seed", "seed", type=int, default=None,
              help="With --replay GAMES.jsonl: the seed of the game to replay.")
@click.option("--side", "side", default=None, metavar="NAME",
              help="With --replay GAMES.jsonl of `tav compare` or `tav report`: the side of that seed "
                   "(base, variant, game, skill...).")
def serve(file, host, port, options, bot_delay, replay, seed, side) -> None:
    """Play a rules file in a browser: a lobby to open tables (people, bots, hot seat), a page
    per seat showing only what that seat may see (needs the [web] extra; docs/web.md)."""
    from ..cli import _compile, _playable, guarded
    if replay is None and (seed is not None or side is not None):
        raise click.UsageError("--seed and --side choose a game of --replay GAMES.jsonl")
    if replay is not None and replay.lower().endswith(".jsonl") and seed is None:
        raise click.BadParameter("a --games-out file holds many games: say which with --seed", param_hint="--replay")
    guarded(_serve)(file, host, port, options, bot_delay, _compile, _playable, replay, seed, side)


def _record(path: str, seed: int, side: str | None) -> dict:
    """The record of the game of `seed` (and `side`) in a --games-out JSONL file."""
    found = []
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    raise click.BadParameter(f"{path}:{n}: not a JSON record: {e}", param_hint="--replay") from None
                if isinstance(rec, dict) and rec.get("seed") == seed and (side is None or rec.get("side") == side):
                    found.append(rec)
    except OSError as e:
        raise click.BadParameter(f"cannot read '{path}': {e.strerror or e}", param_hint="--replay") from None
    if not found:
        raise click.BadParameter(f"'{path}' has no game of seed {seed}" + (f" on side {side}" if side else ""),
                                 param_hint="--seed")
    if len(found) > 1:
        sides = ", ".join(sorted({str(r.get("side")) for r in found}))
        raise click.BadParameter(f"'{path}' has {len(found)} games of seed {seed} (sides: {sides}): say which "
                                 "with --side", param_hint="--seed")
    return found[0]


def _serve(file, host, port, options, bot_delay, compile_, playable, replay=None, seed=None, side=None) -> None:
    try:
        import uvicorn

        from .app import MAX_FRAME, make_app
    except ImportError as e:
        raise click.ClickException(f"tav serve needs the web extra: pip install 'tavernlang[web]' ({e})") from None
    from ..options import parse_options
    from .tables import Server, WebError

    game = compile_(file)
    playable(game)
    server = Server(game, file, parse_options(game, options))
    server.report = lambda text: click.echo(text, err=True)
    watch = None
    if replay is not None and seed is not None:  # one game of a --games-out file
        try:
            watch = server.links(server.replay_record(_record(replay, seed, side)))["watch"]
        except WebError as e:
            raise click.BadParameter(str(e), param_hint="--replay") from None
        replay = f"{replay} (seed {seed})"
    elif replay is not None:  # (refused before the server starts, as `tav play --load` refuses it)
        try:
            with open(replay, "rb") as f:
                body = f.read()
        except OSError as e:
            raise click.BadParameter(f"cannot read the save '{replay}': {e}", param_hint="--replay") from None
        try:
            watch = server.links(server.replay(body))["watch"]
        except WebError as e:
            raise click.BadParameter(str(e), param_hint="--replay") from None
    app = make_app(server, bot_delay)
    shown = f"[{host}]" if ":" in host else host
    if watch is not None:
        click.echo(f"{game.title}: the replay of {replay} is at http://{shown}:{port}{watch} (the lobby: "
                   f"http://{shown}:{port}/; Ctrl-C stops the server)")
    else:
        click.echo(f"{game.title}: open http://{shown}:{port}/ (Ctrl-C stops the server)")
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=MAX_FRAME)
    sys.exit(0)
