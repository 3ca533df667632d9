"""The GM's escape hatch for Void d20: any stat, status or band set by hand, as a step.

One grammar for every system (:mod:`rulesets.core.override`): "ship, path, value", the
ship by name or id.  People are reached through their ship's crew by name or id
(``Talon.crew.Ann.hp = 4``), wherever they stand now.  Pure Python.
"""
from __future__ import annotations

from rulesets.core.engine import IllegalAction
from rulesets.core.override import OverrideField, one_of, parse_override, whole_number, yes_no
from rulesets.core.state import set_key

from . import tables
from .common import evolve, set_combatant, set_ship, ship
from .model import STANDING, DOWN, OUT, VoidState, pair_key

STATUSES = (*STANDING, *DOWN, *OUT)

FIELDS = (
    OverrideField("frame", whole_number(0, 60), "the frame's Condition (0: drifting)",
                  current=lambda s, parts: s.frame),
    OverrideField("speed", whole_number(1, 30), "Speed (what an escape from this ship rolls against)",
                  current=lambda s, parts: s.speed),
    OverrideField("defence", whole_number(1, 30), "Defence (what gunnery at this ship needs)",
                  current=lambda s, parts: s.defence),
    OverrideField("spare_parts", whole_number(0, 20), "spare parts left", label="spare parts",
                  current=lambda s, parts: s.spare_parts),
    OverrideField("reactor", whole_number(0, 6), "rounds until the reactor explodes (0: no countdown)",
                  label="reactor countdown", current=lambda s, parts: s.reactor or 0),
    OverrideField("reboot", whole_number(0, 6), "rounds the systems stay down", current=lambda s, parts: s.reboot),
    OverrideField("band.*", one_of(*tables.BAND_ORDER), "the range band to another ship: far, medium, close or docked",
                  label="range band"),
    OverrideField("module.*", yes_no, "whether a module is knocked out (yes/no)", label="knocked out"),
    OverrideField("weapon.*", yes_no, "whether a weapon is knocked out (yes/no)", label="knocked out"),
    OverrideField("crew.*.hp", whole_number(-40, 40), "a person's HP", label="HP"),
    OverrideField("crew.*.void", whole_number(0, tables.MAX_VOID_POINTS), "a character's Void Points (at most 4)",
                  label="Void Points"),
    OverrideField("crew.*.cover", one_of(*tables.COVER_ORDER), "cover: none, light, medium or full"),
    OverrideField("crew.*.status", one_of(*STATUSES), "ok, shock, bleeding, unconscious, dead, fled or surrendered"),
    OverrideField("crew.*.timer", whole_number(0, 10), "rounds left of bleeding, unconsciousness or shock"),
    OverrideField("crew.*.aboard", str, "the ship (name or id) a person is in"),
)

HELP = ("Set anything by hand: pick the ship, then a field such as frame, spare_parts, band.<other ship> "
        "(far/medium/close/docked), module.<name> or weapon.<name> (yes/no: knocked out), or "
        "crew.<name>.hp / .void / .cover / .status / .timer / .aboard.")


def _ship_by_word(state: VoidState, word: str):
    low = word.strip().lower()
    for s in state.ships:
        if s.id.lower() == low or s.name.lower() == low:
            return s
    raise IllegalAction(f"No ship called '{word}'.")


def _person(state: VoidState, ship_id: str, word: str):
    low = word.strip().lower()
    for c in state.combatants:
        if c.ship == ship_id and (c.id.lower() == low or c.name.lower() == low):
            return c
    raise IllegalAction(f"No one called '{word}' in that crew.")


def apply_override(state: VoidState, path: str, value: str) -> tuple[VoidState, str]:
    if not str(path or "").strip():  # the bare action (as a random playout may pick it): nothing to change
        return state, "GM override with nothing to change."
    request = parse_override(path, value, [(s.id, s.name) for s in state.ships], FIELDS)
    sid, parts, v = request.ship_id, request.parts, request.value
    assert sid is not None                     # Void d20 has no encounter fields: every path names a ship
    name = request.field.name
    s = ship(state, sid)
    if name in ("frame", "speed", "defence", "spare_parts", "reboot"):
        state = set_ship(state, sid, **{name: v})
    elif name == "reactor":
        state = set_ship(state, sid, reactor=v or None)
    elif name == "band.*":
        other = _ship_by_word(state, parts[1])
        if other.id == sid:
            raise IllegalAction(f"{request.path}: a ship has no range band to itself.")
        state = evolve(state, bands=set_key(state.bands, pair_key(sid, other.id), v))
    elif name == "module.*":
        if not any(m.name.lower() == parts[1].lower() for m in s.modules):
            raise IllegalAction(f"{request.path}: {s.name} has no module '{parts[1]}'.")
        state = set_ship(state, sid, modules=tuple(evolve(m, out=v) if m.name.lower() == parts[1].lower() else m
                                                   for m in s.modules))
    elif name == "weapon.*":
        if not any(w.name.lower() == parts[1].lower() or w.id == parts[1] for w in s.weapons):
            raise IllegalAction(f"{request.path}: {s.name} has no weapon '{parts[1]}'.")
        state = set_ship(state, sid, weapons=tuple(evolve(w, out=v) if parts[1].lower() in (w.name.lower(), w.id) else w
                                                   for w in s.weapons))
    else:
        person = _person(state, sid, parts[1])
        key = parts[2].lower()
        if key == "aboard":
            state = set_combatant(state, person.id, aboard=_ship_by_word(state, v).id)
        else:
            state = set_combatant(state, person.id, **{"void" if key == "void" else key: v})
    return state, request.sentence()
