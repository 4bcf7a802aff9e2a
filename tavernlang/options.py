"""A game's options: described for a user (`tav info`, the lobby of `tav serve`), and given on a
command line (`-o NAME=VALUE`), checked and converted: shared by `tav run/sim/play/compare`
(cli.py), `tav lint` (lint/command.py) and `tav serve` (web/)."""
from __future__ import annotations

import click


def describe_options(game) -> dict:
    """Each option of the game by name: its type, default, range or values and description (the
    options of `tav info --json`)."""
    m = game.model
    st = game.new_state(game.min_players, 0)
    opts = {}
    for o in m.options.values():
        d = o.decl
        entry = {"type": o.type.enum or str(o.type), "default": st.opt[o.slot]}
        if d.low is not None:
            entry["min"] = game.evaluate(d.low, st)
            entry["max"] = game.evaluate(d.high, st)
        if o.type.enum is not None:
            entry["values"] = list(m.enums[o.type.enum])
        if o.type == "bool":
            entry["values"] = [False, True]
        if d.doc:
            entry["doc"] = d.doc
        opts[o.name] = entry
    return opts


def parse_options(game, pairs: tuple[str, ...]) -> dict:
    out = {}
    model = game.model
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"'{pair}' should be NAME=VALUE", param_hint="--option")
        name, raw = pair.split("=", 1)
        o = model.options.get(name)
        if o is None:
            from .errors import did_you_mean
            raise click.BadParameter(f"unknown option '{name}'" + did_you_mean(name, model.options)
                                     + (f"; options: {', '.join(model.options)}" if model.options else "; this game has no options"),
                                     param_hint="--option")
        out[name] = _convert(game, o, raw)
    return out


def _convert(game, o, raw: str):
    t = o.type
    if t == "int":
        try:
            v = int(raw)
        except ValueError:
            raise click.BadParameter(f"option '{o.name}' needs a whole number, not '{raw}'", param_hint="--option")
        d = o.decl
        if d.low is not None:
            st = game.new_state(game.min_players, 0)
            lo = game.evaluate(d.low, st)
            hi = game.evaluate(d.high, st)
            if not lo <= v <= hi:
                raise click.BadParameter(f"option '{o.name}' must be in {lo}..{hi}, not {v}", param_hint="--option")
        return v
    if t == "bool":
        if raw.lower() in ("true", "yes", "on", "1"):
            return True
        if raw.lower() in ("false", "no", "off", "0"):
            return False
        raise click.BadParameter(f"option '{o.name}' needs true or false, not '{raw}'", param_hint="--option")
    if t.enum is not None:
        values = game.model.enums[t.enum]
        if raw not in values:
            raise click.BadParameter(f"option '{o.name}' must be one of {', '.join(values)}, not '{raw}'", param_hint="--option")
        return raw
    return raw
