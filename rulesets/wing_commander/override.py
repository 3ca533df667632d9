"""The GM's escape hatch: any value of a ship set by hand ("ship, path, value"), recorded as a step.

Uses the one override grammar of rulesets/core/override.py: the ship by name or id, then a
field of the schema below.  ``Blue 2.hull = 5``, ``Claw 1.tw = 14``, ``Blue 1.weapons.Dart missile.stock = 1``.
"""
from __future__ import annotations

from rulesets.core.citation import cite
from rulesets.core.engine import IllegalAction, LogEntry
from rulesets.core.override import OverrideField, WholeRange, one_of, parse_override, yes_no
from rulesets.core.state import clone

from . import turn
from .state import FLOWN_BY, DogfightState, replace_by_id, with_ship

RULE = cite("GM override", "RULES-NOTES: the GM's escape hatch", ruling=True)

#: Every number of a ship and a pilot sheet with the range its rule allows, stated once: the
#: ship and pilot forms (forms.py), this override and the import (through the forms) read these,
#: and refuse a value outside naming the field and the range (issue 26).  An MV is a bonus or a
#: malus (2.1.4 a: "erhöht den Wurf (Bonus) oder senkt ihn (Malus)"; bombers and capital ships
#: have negative ones); the MV lost to damaged thrusters (2.1.8: "sinkt um 2", "um 1") is never
#: negative, or the damage would raise the ship's MV.
NUMBERS = {
    "mv": WholeRange(-10, 10, "MV"),
    "tw": WholeRange(1, 40, "TW"),
    "shields": WholeRange(0, 999, "Shield points"),
    "hull": WholeRange(1, 999, "Hull points"),
    "chaff": WholeRange(0, 99, "Chaff pods"),
    "chaff_mv": WholeRange(-10, 10, "Chaff MV"),
    "mines": WholeRange(0, 99, "Mines"),
    "mines_mv": WholeRange(-10, 10, "Mines MV"),
    "weapon_mv": WholeRange(-10, 10, "A missile's MV"),
    "stock": WholeRange(0, 99, "Stock"),
    "thrusters": WholeRange(0, 10, "MV lost to damaged thrusters"),
    "months": WholeRange(0, 600, "Months in rank"),
    "modifier": WholeRange(-20, 20, "A modifier"),
}
#: the hull left in a fight: 0 destroys the ship (the sheet's hull is its full hull, 1 or more)
HULL_LEFT = WholeRange(0, NUMBERS["hull"].hi, "Hull points")

def _now(name):
    """The field's current value as text, for the runner's override form."""
    def current(ship, parts) -> str:
        if name in ("flown_by", "wild_card"):
            value = getattr(ship.pilot, name)
        else:
            value = getattr(ship, name)
        if isinstance(value, bool):
            return "yes" if value else "no"
        return str(value)
    return current


FIELDS = (
    OverrideField("shields", NUMBERS["shields"], "shield points", current=_now("shields")),
    OverrideField("hull", HULL_LEFT, "hull points (0 destroys the ship)", current=_now("hull")),
    OverrideField("tw", NUMBERS["tw"], "the TW (target value) the GM sets", label="TW", current=_now("tw")),
    OverrideField("mv", NUMBERS["mv"], "the ship's MV before component damage", label="MV", current=_now("mv")),
    OverrideField("status", one_of("in", "destroyed", "ejected"), "in, destroyed or ejected", current=_now("status")),
    OverrideField("flown_by", one_of(*dict(FLOWN_BY)), "character, npc (its TW stands for it) or npc_rolled",
                  label="pilot mode", current=_now("flown_by")),
    OverrideField("wild_card", yes_no, "the pilot rolls 1W20 instead of 2W10", label="Wild Card",
                  current=_now("wild_card")),
    OverrideField("chaff", NUMBERS["chaff"], "chaff left", current=_now("chaff")),
    OverrideField("mines", NUMBERS["mines"], "mines left", current=_now("mines")),
    OverrideField("thrusters", NUMBERS["thrusters"], "MV lost to damaged thrusters", label="thruster damage",
                  current=_now("thrusters")),
    OverrideField("shield_generator", yes_no, "whether the shield generator works", label="shield generator working",
                  current=_now("shield_generator")),
    OverrideField("gun_alignment", yes_no, "gun alignment failed (-2 to gun and turret attacks)", label="gun alignment failed",
                  current=_now("gun_alignment")),
    OverrideField("first_damage_done", yes_no, "the first-damage roll was made", label="first damage rolled",
                  current=_now("first_damage_done")),
    OverrideField("weapons.*.stock", NUMBERS["stock"], "missiles or torpedoes left"),
    OverrideField("weapons.*.broken", yes_no, "out until replaced"),
    OverrideField("weapons.*.halved", yes_no, "damage halved (power supply fault)"),
)

HELP = ("Ship name or id, a dot, a field: " + ", ".join(f.name for f in FIELDS)
        + ". Weapons by name, e.g. 'Blue 1.weapons.Dart missile.stock' = 1.")


def apply_override(state: DogfightState, path: str, value: str) -> tuple[DogfightState, list[LogEntry]]:
    if not str(path or "").strip():  # the bare action (as a random playout may pick it): nothing to change
        return state, [LogEntry("GM override with nothing to change.", RULE)]
    request = parse_override(path, value, [(s.id, s.name) for s in state.ships], FIELDS)
    ship = state.ship(request.ship_id)
    name = request.field.name
    if name.startswith("weapons."):
        wanted = request.parts[1].lower()
        matches = [w for w in ship.weapons if w.name.lower() == wanted or w.id == wanted]
        if not matches:
            raise IllegalAction(f"{request.path}: {ship.name} has no weapon '{request.parts[1]}' "
                                f"(it has {', '.join(w.name for w in ship.weapons) or 'none'}).")
        attr = request.parts[2].lower()
        if attr == "stock" and matches[0].stock < 0:
            raise IllegalAction(f"{request.path}: {matches[0].name} has no stock to set.")
        weapons = replace_by_id(ship.weapons, matches[0].id, **{attr: request.value})
        state = with_ship(state, ship.id, weapons=weapons)
    elif name == "flown_by" or name == "wild_card":
        pilot = clone(ship.pilot, **{name: request.value})
        state = with_ship(state, ship.id, pilot=pilot)
    elif name == "hull":
        changes = {"hull": request.value}
        if request.value <= 0:
            changes["status"] = "destroyed"
        state = with_ship(state, ship.id, **changes)
    else:
        state = with_ship(state, ship.id, **{name: request.value})
    state = _after(state, ship.id)
    return state, [LogEntry(request.sentence() + ".", RULE)]


def _after(state: DogfightState, ship_id: str) -> DogfightState:
    """A ship put out of the fight by hand leaves the order; the fight may be over."""
    if state.ship(ship_id).in_fight:
        return state
    if state.phase == "defend":
        rest = tuple(p for p in state.pending if state.ship(p.target).in_fight and state.ship(p.attacker).in_fight)
        state = clone(state, pending=rest, phase="defend" if rest else "act")
        if not rest:
            return turn.after_attack(state)  # the attack settled: its pilot ends the turn or ejects (2.1.3)
    if state.acting is not None and not state.acting.in_fight:
        return turn.end_turn(state)
    return turn.check_over(state)
