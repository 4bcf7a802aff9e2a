"""The `tav serve` command (a click command, added to the `tav` group when asked for, so that
`tav check` loads neither the engine nor the web server).

    tav serve FILE [--host 127.0.0.1] [--port 8000] [-o NAME=VALUE]... [--bot-delay 0.5]
                   [--replay SAVE.json]

Needs the [web] extra (Starlette, uvicorn); prints the lobby's URL.
"""
from __future__ import annotations

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
@click.option("--replay", "replay", metavar="SAVE.json",
              help="Open a replay of a saved game (a save of `tav play` or of a web table): step forward "
                   "and back, from any seat's view or the public one; read-only.")
def serve(file, host, port, options, bot_delay, replay) -> None:
    """Play a rules file in a browser: a lobby to open tables (people, bots, hot seat), a page
    per seat showing only what that seat may see (needs the [web] extra; docs/web.md)."""
    from ..cli import _compile, _playable, guarded
    guarded(_serve)(file, host, port, options, bot_delay, _compile, _playable, replay)


def _serve(file, host, port, options, bot_delay, compile_, playable, replay=None) -> None:
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
    if replay is not None:  # (refused before the server starts, as `tav play --load` refuses it)
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
