"""The GM's escape hatch (RULES-NOTES): set a stat, status, position or range by hand.

The path is the shared grammar of :mod:`rulesets.core.override`: a ship as the GM sees
it (its name or its id), a dot, then one of :data:`SHIP_FIELDS` (``Steadfast.hull = 3``,
``Gutter Saint.hits.m_drive = 2``, ``Steadfast.t1.hits = 1``, ``Steadfast.crew.Hiro Tan.damage = 4``),
or an encounter field (``range.Steadfast.Gutter Saint = long``, ``round = 3``).  Values
are checked against this system's schema, and errors name the path.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import english
from rulesets.core.engine import IllegalAction
from rulesets.core.override import OverrideField, WholeRange, one_of, parse_override, whole_number, yes_no

from .crew import POSITIONS
from .stats import STAT_LIMITS
from .tables import WEAPONS
from .damage import over_check
from .manoeuvre import set_band
from .state import SYSTEM_LABEL, SYSTEMS
from .tables import BAND_LABEL, BANDS, SEC

if TYPE_CHECKING:
    from rulesets.core.engine import Action

    from .state import CombatState, Ship, Tx


def _band(text: str) -> str:
    low = text.strip().lower().replace("_", " ")
    for band in BANDS:
        if low in (band.replace("_", " "), english(BAND_LABEL[band]).lower()):
            return band
    raise ValueError(f"'{text}' is not a range band ({', '.join(english(BAND_LABEL[b]) for b in BANDS)}).")


def _attr(name: str):
    return lambda ship, parts: str(getattr(ship, name))


_COUNTERS = ("hull", "structure", "armour", "fuel", "cargo", "speed", "reactions", "lined_up", "pool",
             "pursuit_turns", "boost_next", "thrust_max")

#: the most hits a system or a mount takes (Danno: the third hit destroys it)
MOST_HITS = 3
#: the most reactions a round gives (Reazioni: initiative 13 or more)
MOST_REACTIONS = 4

#: the range of each number the GM may set (issue 26), stated once: the range its value is read with and,
#: where the top is the ship's or the person's own, how to find that top (checked by :func:`within`);
#: the import of carried damage reads the same tops (:func:`damage_problems`)
RANGES: dict[str, WholeRange] = {
    "hull": WholeRange(0, None, "Hull", "the ship's full Hull"),
    "structure": WholeRange(0, None, "Structure", "the ship's full Structure"),
    "armour": WholeRange(0, None, "Armour", "the ship's full Armour"),
    "fuel": WholeRange(0, None, "fuel", "the ship's full tanks"),
    "cargo": WholeRange(0, None, "cargo", "the ship's full hold"),
    "speed": WholeRange(0, None, "speed"),
    "reactions": WholeRange(0, MOST_REACTIONS, "reactions"),
    "lined_up": WholeRange(0, None, "lined-up rounds"),
    "pool": WholeRange(0, None, "the thrust pool"),
    "pursuit_turns": WholeRange(0, None, "pursuit rounds"),
    "boost_next": WholeRange(0, None, "the next round's boost"),
    "thrust_max": WholeRange(*STAT_LIMITS["thrust"], "Thrust"),
    "hits.*": WholeRange(0, MOST_HITS, "hits on a system"),
    "*.hits": WholeRange(0, MOST_HITS, "hits on a mount"),
    "*.*.loaded": WholeRange(0, None, "ammunition loaded", "the weapon's magazine"),
    "*.*.reserve": WholeRange(0, None, "ammunition in store", "the weapon's full load"),
    "crew.*.damage": WholeRange(0, None, "damage", "the crew member's Str + Dex + End"),
    "crew.*.rads": WholeRange(0, None, "rads"),
}

#: the ship's own top of a counter (the ship as the encounter holds it)
SHIP_TOPS = {"hull": "hull_max", "structure": "structure_max", "armour": "armour_max", "fuel": "fuel_max",
             "cargo": "cargo_max"}


def magazine(weapon) -> int:
    """The most a weapon holds loaded (its kind's capacity: a missile rack 3, a missile bay 12);
    0 without ammunition."""
    kind = WEAPONS.get(weapon.type)
    return kind.capacity if kind is not None and kind.ammo else 0


def wound_top(chars: dict) -> int:
    """The most damage a crew member can take: Str + Dex + End (all three at 0 is dead; crew.current_chars)."""
    return sum(int(chars.get(k, 7)) for k in ("str", "dex", "end"))


def within(path: str, field: str, n: int, top: int, whose: str) -> None:
    """Refuse ``n`` above the ship's or person's own ``top`` for ``field`` (:data:`RANGES` has the rest)."""
    if n > top:
        rng = RANGES[field]
        raise IllegalAction(f"{path}: {rng.what} is a whole number from {rng.lo} to {top} ({whose}); "
                            f"{n} is outside that range.")


#: what the GM may set on a ship (``*``: a system, a mount id, a weapon's index, a crew member)
SHIP_FIELDS: tuple[OverrideField, ...] = (
    *(OverrideField(name, RANGES[name], f"{RANGES[name].what}: {RANGES[name].words}", current=_attr(name))
      for name in _COUNTERS),
    OverrideField("initiative", whole_number(None), "the initiative roll (before Tactics and boosts)",
                  current=_attr("initiative")),
    OverrideField("evasive", whole_number(-2, 0), "the DM attacks against it take", current=_attr("evasive")),
    OverrideField("status", one_of("active", "disabled", "destroyed", "escaped", "boarded", "captured"),
                  current=_attr("status")),
    OverrideField("position", one_of("space", "orbit", "decaying", "atmosphere"), current=_attr("position")),
    OverrideField("pursuing", str, "the ship it pursues (a name or id; 'none')", label="pursuit target"),
    OverrideField("jammed", str, "the ship jamming it (a name or id; 'none')", label="jammer"),
    OverrideField("intel", str, "the enemy whose intentions it knows (a name or id; 'none')",
                  label="intercepted intentions"),
    OverrideField("jump_plotted", yes_no, "yes or no", label="jump plot"),
    OverrideField("hits.*", RANGES["hits.*"], f"hits on a system ({', '.join(SYSTEMS)}): 0 to {MOST_HITS}",
                  label="hits"),
    OverrideField("*.hits", RANGES["*.hits"], f"hits on a turret or bay (t1, b1...): 0 to {MOST_HITS}", label="hits"),
    OverrideField("*.*.loaded", RANGES["*.*.loaded"], "ammunition loaded in a mount's weapon (t1.0...): 0 to its "
                  "magazine", label="loaded"),
    OverrideField("*.*.reserve", RANGES["*.*.reserve"], "ammunition in store for a mount's weapon: 0 to its full "
                  "load", label="in store"),
    OverrideField("crew.*.damage", RANGES["crew.*.damage"], "a crew member's damage (a name or id): 0 to their "
                  "Str + Dex + End", label="damage"),
    OverrideField("crew.*.rads", RANGES["crew.*.rads"], "a crew member's rads: 0 or more", label="rads"),
    OverrideField("crew.*.position", one_of(*(key for key, _ in POSITIONS)), "a crew position", label="position"),
    OverrideField("crew.*.station", str, "a crew member's turret or bay (t1, b1)", label="station"),
)
#: what the GM may set on the encounter
ENCOUNTER_FIELDS: tuple[OverrideField, ...] = (
    OverrideField("range.*.*", _band, "the range band between two ships", label="range"),
    OverrideField("round", whole_number(1), "the round number"),
)

HELP = ("A ship (its name or id), a dot and what to set: hull, structure, armour, fuel, speed, status, position, "
        "hits.<system>, <mount>.hits, <mount>.<weapon>.loaded, crew.<crew member>.damage; or range.<ship>.<ship> "
        "= a band, or round. Examples: 'Steadfast.hull' = 3, 'Gutter Saint.hits.m_drive' = 2, "
        "'range.Steadfast.Gutter Saint' = long.")


def do_override(tx: Tx, a: Action):
    path, value = a.get("path"), a.get("value")
    if not path:
        tx.say("GM override with nothing to change.", SEC["override"], gm_only=True)
        return
    override(tx, str(path), value)
    over_check(tx)


def _ship_ref(s: CombatState, path: str, text: str) -> str:
    """A ship named by id or name, or '' for 'none'."""
    if text.strip().lower() in ("none", "-"):
        return ""
    low = text.strip().lower()
    for ship in s.ships:
        if low in (ship.id.lower(), ship.name.lower()):
            return ship.id
    raise IllegalAction(f"{path}: no ship '{text}'.")


def _crew_ref(ship: Ship, path: str, text: str) -> str:
    low = text.strip().lower()
    for c in ship.crew:
        if low in (c.id.lower(), c.name.lower()):
            return c.id
    raise IllegalAction(f"{path}: {ship.name} has no crew member '{text}'.")


def override(tx: Tx, path: str, value):
    """Apply one GM override (the shared grammar: ship, path, value)."""
    s = tx.s
    req = parse_override(path, value, [(sh.id, sh.name) for sh in s.ships], SHIP_FIELDS, ENCOUNTER_FIELDS)
    name = req.field.name
    if req.ship_id is None:
        if name == "round":
            s.round = req.value
            tx.say(f"GM override: the round is now {req.value}.", SEC["override"])
        else:
            a, b = _two_ships(s, path, str(path).strip().lower()[len("range."):])
            tx.say(f"GM override: the range between {s.ship(a).name} and {s.ship(b).name} is set to "
                   f"{english(BAND_LABEL[req.value])}.", SEC["override"])
            set_band(tx, a, b, None, band=req.value)
        return
    ship = s.ship(req.ship_id)
    parts = req.parts
    sh = tx.ship(ship.id)
    if name in _COUNTERS or name in ("initiative", "evasive", "status", "position", "jump_plotted"):
        if name in SHIP_TOPS:
            within(req.path, name, req.value, getattr(ship, SHIP_TOPS[name]), f"{ship.name}'s full "
                   f"{RANGES[name].upto.rpartition(' ')[2]}")
        setattr(sh, name, req.value)
    elif name in ("pursuing", "jammed", "intel"):
        setattr(sh, name, _ship_ref(s, req.path, req.value))
    elif name == "hits.*":
        system = parts[1].lower()
        if system not in SYSTEMS:
            raise IllegalAction(f"{req.path}: '{parts[1]}' is not a system ({', '.join(SYSTEMS)}).")
        sh.hits[system] = req.value
        tx.say(f"GM override: GM sets {ship.name}'s {english(SYSTEM_LABEL[system])} hits to {req.value}.", SEC["override"])
        return
    elif name == "*.hits":
        mount = _mount_id(ship, req.path, parts[0])
        tx.mount(ship.id, mount).hits = req.value
    elif name in ("*.*.loaded", "*.*.reserve"):
        mount = _mount_id(ship, req.path, parts[0])
        weapons = tx.mount(ship.id, mount).weapons
        if not (parts[1].isascii() and parts[1].isdigit()) or int(parts[1]) >= len(weapons):
            raise IllegalAction(f"{req.path}: {mount} has weapons 0 to {len(weapons) - 1}.")
        weapon = weapons[int(parts[1])]
        if name == "*.*.loaded":
            within(req.path, name, req.value, magazine(weapon), f"the {_weapon_label(weapon)}'s magazine")
        else:
            within(req.path, name, req.value, weapon.full, f"the {_weapon_label(weapon)}'s full load")
        setattr(weapon, parts[2].lower(), req.value)
    else:  # crew.*.<field>
        member = tx.crew(ship.id, _crew_ref(ship, req.path, parts[1]))
        if name == "crew.*.damage":
            within(req.path, name, req.value, wound_top(member.chars), f"{member.name}'s Str + Dex + End")
        setattr(member, parts[2].lower(), req.value)
    tx.say(f"GM override: {req.sentence()}.", SEC["override"])


def _weapon_label(weapon) -> str:
    kind = WEAPONS.get(weapon.type)
    return kind.label if kind is not None else weapon.type


def _mount_id(ship: Ship, path: str, text: str) -> str:
    mount = ship.mount(text.strip().lower())
    if mount is None:
        raise IllegalAction(f"{path}: {ship.name} has no turret or bay '{text}' ("
                            f"{', '.join(m.id for m in ship.mounts) or 'none'}).")
    return mount.id


def _two_ships(s: CombatState, path: str, rest: str) -> tuple[str, str]:
    """The two ships of ``range.<ship>.<ship>``, named by id or name (names may hold no dot)."""
    names = {}
    for ship in s.ships:
        names[ship.id.lower()] = ship.id
        names[ship.name.lower()] = ship.id
    for i, ch in enumerate(rest):
        if ch == "." and rest[:i] in names and rest[i + 1:] in names:
            a, b = names[rest[:i]], names[rest[i + 1:]]
            if a != b:
                return a, b
    raise IllegalAction(f"{path}: name two different ships, e.g. 'range.{s.ships[0].name}.{s.ships[-1].name}'.")



#: the range of each count of carried damage (``carry_back.damage_of``'s record), read with the override's
#: :data:`RANGES` where the count is the same number (points, tons and hits lost; a crew member's damage)
DAMAGE_RANGES = {
    "hull": WholeRange(0, None, "Hull lost", "the ship's full Hull"),
    "structure": WholeRange(0, None, "Structure lost", "the ship's full Structure"),
    "armour": WholeRange(0, None, "Armour lost", "the ship's full Armour"),
    "fuel": WholeRange(0, None, "fuel lost", "the ship's full tanks"),
    "cargo": WholeRange(0, None, "cargo lost", "the ship's full hold"),
    "systems": RANGES["hits.*"],
    "mounts": RANGES["*.hits"],
    "ammo": WholeRange(0, None, "ammunition spent", "the weapon's full load"),
    "crew": RANGES["crew.*.damage"],
}


def damage_problems(s: CombatState, ship_id: str, damage: dict) -> list[str]:
    """What of a ship's carried damage the rules cannot mean, as ``"path: why"`` (issue 26): points and
    tons lost up to the ship's own, at most 3 hits on a system or a mount, ammunition spent up to the
    weapon's full load, a crew member's damage up to their Str + Dex + End."""
    ship = s.ship(ship_id)
    out: list[str] = []

    def check(path: str, rng: WholeRange, value, top: int | None = None, whose: str = "") -> None:
        problem = rng.problem(path, value, top, whose)   # not a number: the import's own checks say so
        if problem:
            out.append(problem)

    for key, top in SHIP_TOPS.items():
        if key in damage:
            rng = DAMAGE_RANGES[key]
            check(key, rng, damage[key], getattr(ship, top), rng.upto)
    for key in ("systems", "mounts"):
        for where, hits in (damage.get(key) or {}).items() if isinstance(damage.get(key), dict) else ():
            check(f"{key}.{where}", DAMAGE_RANGES[key], hits)
    ammo = damage.get("ammo")
    for where, used in (ammo.items() if isinstance(ammo, dict) else ()):
        mount_id, _, index = str(where).partition(".")
        mount = ship.mount(mount_id)
        weapons = mount.weapons if mount is not None else []
        i = int(index) if index.isascii() and index.isdigit() else -1
        if 0 <= i < len(weapons):
            check(f"ammo.{where}", DAMAGE_RANGES["ammo"], used, weapons[i].full,
                  f"the {_weapon_label(weapons[i])}'s full load")
    crew = damage.get("crew")
    for key, hurt in (crew.items() if isinstance(crew, dict) else ()):
        member = next((c for c in ship.crew if c.id == key), None)
        if member is not None and isinstance(hurt, dict):
            check(f"crew.{key}.damage", DAMAGE_RANGES["crew"], hurt.get("damage", 0), wound_top(member.chars),
                  f"{member.name}'s Str + Dex + End")
            check(f"crew.{key}.rads", RANGES["crew.*.rads"], hurt.get("rads", 0))
    return out
