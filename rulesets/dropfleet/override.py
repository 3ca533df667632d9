"""The GM's escape hatch for Dropfleet: any stat, position, heading, layer, spike, effect or
Hull value set by hand, recorded as a step ("ship, path, value": rulesets/core/override.py).

A value set by hand rolls nothing: lowering the Hull past a threshold does not roll crippling
damage, and a Hull of 0 removes the ship without a catastrophic roll (the GM rules what follows).
"""
from __future__ import annotations

import dataclasses

from rulesets.core.engine import IllegalAction
from rulesets.core.override import OverrideField, WholeRange, one_of, parse_override, read_decimal, yes_no

from . import tables
from .state import Effect, parse_save

HELP = ("Path and value, e.g. 'Steadfast.hull' = 6, 'Steadfast.pos' = 20,14, 'Steadfast.heading' = 90, "
        "'Steadfast.layer' = low, 'Steadfast.spike' = major, 'Steadfast.effect.add' = fire, "
        "'Steadfast.effect.remove' = fire, 'Steadfast.armour' = 4+, 'Steadfast.passive' = none.")

_EFFECT_WORDS = {**{k: k for k in tables.CRIPPLING_ROWS}, **{row.name.lower(): k for k, row in tables.CRIPPLING_ROWS.items()}}


#: Every number of a ship's profile and of its state the GM sets, with the range its rule allows,
#: stated once: the stats form (forms.py), this override and the import (through the form) read
#: these, and refuse a value outside naming the field and the range (issue 26).
NUMBERS = {
    "scan": WholeRange(0, 60, "Scan"),
    "signature": WholeRange(0, 60, "Signature"),
    "thrust": WholeRange(0, 40, "Thrust"),
    "hull": WholeRange(1, 60, "Hull"),
    "shield_signature": WholeRange(0, 30, "Signature while shields are up"),
    "pd": WholeRange(0, 20, "Point defence"),
    "heading": WholeRange(0, 359, "The heading"),
}
#: the Hull left in a fight: 0 removes the ship (the profile's Hull is its full Hull, 1 or more)
HULL_LEFT = WholeRange(0, NUMBERS["hull"].hi, "Hull")


def read_position(text: str) -> tuple[float, float]:
    """x,y in inches, in the digits 0-9 (where on the table is :func:`check_on_table`'s)."""
    try:
        x, y = (read_decimal(p) for p in str(text).split(","))
    except ValueError:
        raise ValueError(f"'{text}' is not a position such as 20,14 (inches, x,y in the digits 0-9)") from None
    return x, y


def check_on_table(x: float, y: float, width: int, height: int) -> None:
    """ValueError naming the table's range when x,y is off the ``width`` by ``height`` table."""
    if not (0 <= x <= width and 0 <= y <= height):
        raise ValueError(f"the position is on the {width}×{height} table, x from 0 to {width} and y from 0 "
                         f"to {height} inches; {x:.12g},{y:.12g} is off the table")



def _effect(text: str) -> str:
    key = _EFFECT_WORDS.get(text.strip().lower().replace(" ", "_")) or _EFFECT_WORDS.get(text.strip().lower())
    if key is None:
        raise ValueError(f"'{text}' is not a crippling effect ({', '.join(sorted(tables.CRIPPLING_ROWS))})")
    return key


def _passive(text: str):
    return None if text.strip().lower() in ("none", "-", "no") else parse_save(text)


def _yes(value) -> str:
    return "yes" if value else "no"


def fields() -> list[OverrideField]:
    return [
        OverrideField("hull", HULL_LEFT, "Hull points left (0 removes the ship, no catastrophic roll)",
                      current=lambda s, _: str(s.hull)),
        OverrideField("pos", read_position, "position in inches, x,y", label="position",
                      current=lambda s, _: f"{s.x:g},{s.y:g}"),
        OverrideField("heading", NUMBERS["heading"], "degrees clockwise from up the table",
                      current=lambda s, _: str(s.heading)),
        OverrideField("layer", one_of(*tables.LAYERS), "high, low or atmosphere", label="orbital layer",
                      current=lambda s, _: s.layer),
        OverrideField("spike", one_of("none", "minor", "major"), "none, minor or major",
                      current=lambda s, _: tables.SPIKE_LABEL[s.spike].lower()),
        OverrideField("silent", yes_no, "Silent Running, yes or no", current=lambda s, _: _yes(s.silent)),
        OverrideField("shields", yes_no, "shields up, yes or no", current=lambda s, _: _yes(s.shields_up)),
        OverrideField("weapons_offline", yes_no, "weapons disabled, yes or no", label="weapons offline",
                      current=lambda s, _: _yes(s.weapons_offline)),
        OverrideField("effect.add", _effect, "add a crippling effect (fire, power leak, hull breach...)", label="new effect"),
        OverrideField("effect.remove", _effect, "remove a crippling effect", label="removed effect",
                      current=lambda s, _: ", ".join(e.key for e in s.effects)),
        OverrideField("scan", NUMBERS["scan"], "Scan in inches", current=lambda s, _: str(s.profile.scan)),
        OverrideField("signature", NUMBERS["signature"], "Signature in inches",
                      current=lambda s, _: str(s.profile.signature)),
        OverrideField("thrust", NUMBERS["thrust"], "Thrust in inches", current=lambda s, _: str(s.profile.thrust)),
        OverrideField("pd", NUMBERS["pd"], "point defence dice", label="point defence",
                      current=lambda s, _: str(s.profile.pd)),
        OverrideField("armour", parse_save, "armour save such as 4+",
                      current=lambda s, _: f"{min(s.profile.armour)}+"),
        OverrideField("passive", _passive, "passive save such as 4+, or none", label="passive save",
                      current=lambda s, _: f"{s.profile.passive}+" if s.profile.passive else "none"),
    ]


def apply_override(state, w, path, value):
    from . import sequence

    if not str(path or "").strip():  # the bare action (as a random playout may pick it): changes nothing
        w.say("GM override with nothing to change.", tables.GM_OVERRIDE)
        return state
    request = parse_override(path, value, [(s.id, s.name) for s in state.ships], fields())
    ship = w.ship(request.ship_id)
    field = request.field.name
    v = request.value
    if field == "hull":
        changes = {"hull": v, "destroyed": v == 0, "fate": "removed by the GM" if v == 0 else ""}
    elif field == "pos":
        try:
            check_on_table(v[0], v[1], state.width, state.height)
        except ValueError as exc:
            raise IllegalAction(f"{request.path}: {exc}.") from None
        changes = {"x": v[0], "y": v[1]}
    elif field in ("heading", "layer", "silent", "weapons_offline"):
        changes = {field: v}
    elif field == "spike":
        changes = {"spike": {"none": tables.NO_SPIKE, "minor": tables.MINOR, "major": tables.MAJOR}[v]}
    elif field == "shields":
        changes = {"shields_up": v}
    elif field == "effect.add":
        row = tables.CRIPPLING_ROWS[v]
        changes = {"effects": ship.effects + (Effect(v, row.repairs if row.repairable else 0),)}
    elif field == "effect.remove":
        effects = list(ship.effects)
        index = next((i for i, e in enumerate(effects) if e.key == v), None)
        if index is not None:
            effects.pop(index)
        changes = {"effects": tuple(effects)}
    else:
        profile_field = {"armour": "armour", "passive": "passive"}.get(field, field)
        new_value = (v,) if field == "armour" else v
        changes = {"profile": dataclasses.replace(ship.profile, **{profile_field: new_value})}
    w.put(ship, **changes)
    w.say(request.sentence() + ".", tables.GM_OVERRIDE)
    return sequence.finish(w, state)
