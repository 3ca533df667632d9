"""The state of a dogfight: plain frozen dataclasses, built from a setup spec.

Rules never change a state in place: they build changed copies (rulesets.core.state).
A ship's stats (the campaign's data) are read once here; what happens in the fight
(shields, hull, component damage, stocks, timers) lives on the ship's state.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulesets.core.state import clone

from . import tables

DAMAGE_CODE = re.compile(r"^\s*(\d+)\s*[dDwW]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.ASCII)


def parse_damage(text: str) -> tuple[int, int, int]:
    """A damage code such as "2d6", "3W6+2" or "1d10-1" as (count, sides, bonus)."""
    match = DAMAGE_CODE.match(str(text))
    if not match:
        raise ValueError(f"'{text}' is not a damage code like 2d6 or 3W6+2.")
    count, sides = int(match.group(1)), int(match.group(2))
    if not 1 <= count <= 12 or sides not in (4, 6, 8, 10, 12, 20):
        raise ValueError(f"'{text}': use 1-12 dice of 4, 6, 8, 10, 12 or 20 sides.")
    bonus = int(match.group(4) or 0) * (-1 if match.group(3) == "-" else 1)
    return count, sides, bonus


def damage_code(count: int, sides: int, bonus: int) -> str:
    return f"{count}d{sides}" + (f"{bonus:+d}" if bonus else "")


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    kind: str  # gun, turret, missile, torpedo
    count: int
    sides: int
    bonus: int = 0
    mv: int = 0  # missiles and torpedoes: their own MV (2.1.4 d)
    stock: int = -1  # -1: no stock (guns, turrets)
    halved: bool = False  # power supply fault: damage halved until replaced
    broken: bool = False  # out until replaced (burnt leads, failed launch circuits)
    out_until: int = 0  # overheated: out through this round

    @property
    def code(self) -> str:
        return damage_code(self.count, self.sides, self.bonus)

    def ready(self, round_no: int) -> bool:
        return not self.broken and self.out_until < round_no and self.stock != 0


@dataclass(frozen=True)
class Modifier:
    """A skill, advantage or disadvantage as the GM entered it: a name, what it changes, a value."""

    name: str
    on: str  # order, attack, guns, missiles, torpedoes, dodge, dodge_missiles, countermeasures
    value: int


MODIFIER_TARGETS = {
    "order": "the order (RF)", "attack": "every attack roll", "guns": "gun and turret attacks",
    "missiles": "missile attacks", "torpedoes": "torpedo attacks", "dodge": "every dodge roll",
    "dodge_missiles": "dodges against missiles and torpedoes", "countermeasures": "countermeasure rolls",
}

FLOWN_BY = (
    ("character", "a character (rolls attacks and dodges)"),
    ("npc", "an NPC, represented by the ship's TW"),
    ("npc_rolled", "an NPC the GM rolls for"),
)


@dataclass(frozen=True)
class Pilot:
    id: str
    name: str
    rank: int = 1
    months: int = 0
    wild_card: bool = False
    flown_by: str = "character"
    leader: bool = False
    modifiers: tuple[Modifier, ...] = ()

    @property
    def rolls(self) -> bool:
        """Characters roll their attacks and dodges; an NPC is represented by its TW unless the GM rolls."""
        return self.flown_by != "npc"

    def bonus(self, *targets: str) -> tuple[tuple[str, int], ...]:
        if not self.modifiers:
            return ()
        return tuple((m.name, m.value) for m in self.modifiers if m.on in targets and m.value)


NO_PILOT = Pilot("", "NPC pilot", rank=0, flown_by="npc")


@dataclass(frozen=True)
class Ship:
    id: str
    name: str
    side: str
    cls: str
    mv: int
    tw: int
    shields: int
    max_shields: int
    hull: int
    max_hull: int
    weapons: tuple[Weapon, ...] = ()
    chaff: int = 0
    chaff_mv: int = 0
    mines: int = 0
    mines_mv: int = 0
    cloak_device: bool = False
    phase_shields: bool = False  # a capital ship that is a hard torpedo target
    pilot: Pilot = NO_PILOT
    gunner: Pilot | None = None
    status: str = "in"  # in, destroyed, ejected
    # component damage (2.1.8): lasts until replaced or for the whole mission
    shield_generator: bool = True
    thrusters: int = 0  # MV lost
    gun_alignment: bool = False  # gun attacks -2 for the whole mission
    first_damage_done: bool = False
    # what the fight does to the ship for a while
    standing_aside: bool = False
    cloak: str = ""  # "", "activating", "on"
    lock_target: str = ""
    lock_round: int = 0
    evaded: tuple[str, ...] = ()  # enemies critically dodged this round (+1 against them)
    spent: dict[str, int] = field(default_factory=dict)

    @property
    def in_fight(self) -> bool:
        return self.status == "in"

    @property
    def current_mv(self) -> int:
        return self.mv - self.thrusters

    @property
    def rolls(self) -> bool:
        return self.pilot.rolls

    @property
    def wild_card(self) -> bool:
        return self.pilot.wild_card

    @property
    def soft_target(self) -> bool:
        return self.cls == "capital" and not self.phase_shields

    @property
    def hard_target(self) -> bool:
        return self.cls == "capital" and self.phase_shields

    def weapon(self, weapon_id: str) -> Weapon:
        for weapon in self.weapons:
            if weapon.id == weapon_id:
                return weapon
        raise KeyError(f"{self.name} has no weapon '{weapon_id}'.")

    def of_kind(self, kind: str) -> tuple[Weapon, ...]:
        return tuple(w for w in self.weapons if w.kind == kind)


@dataclass(frozen=True)
class PendingAttack:
    """An attack that stands and waits for the target's countermeasure or dodge (2.1.5)."""

    attacker: str
    target: str
    weapon: str
    #: what the countermeasure and the dodge must reach: the attacker's TW (11 +/- MV for a
    #: missile or torpedo), or the attack total when the attacker rolled
    value: int
    critical: bool = False
    countered: bool = False  # a countermeasure was tried against it


@dataclass(frozen=True)
class DogfightState:
    ships: tuple[Ship, ...]
    order: tuple[str, ...] = ()
    turn: int = 0
    round: int = 1
    phase: str = "act"  # act, defend (an attack waits for its target), after (the attack settled: end or eject)
    pending: tuple[PendingAttack, ...] = ()
    over: bool = False
    winner: str | None = None
    max_rounds: int = 20
    first_side: str = ""  # the side the GM lets move first on a tie (2.1.1)
    sides: tuple[str, ...] = ()

    def ship(self, ship_id: str) -> Ship:
        for ship in self.ships:
            if ship.id == ship_id:
                return ship
        raise KeyError(f"No ship '{ship_id}'.")

    @property
    def acting(self) -> Ship | None:
        if self.over or not self.order:
            return None
        return self.ship(self.order[self.turn])

    @property
    def deciding(self) -> Ship | None:
        """The ship whose pilot decides the current step: the defender while an attack waits."""
        if self.over:
            return None
        if self.phase == "defend" and self.pending:
            return self.ship(self.pending[0].target)
        return self.acting

    @property
    def active(self) -> str:
        ship = self.deciding
        return ship.name if ship else ""


# --- building the state from a setup spec -------------------------------------------------

#: the keys of a ship's carried damage (engine.damage_of writes them, ship_from reads them), worded
#: so that the ship page reads them as they stand: "Hull: 3 points lost", "Gun alignment failed"
OUT_KEYS = {"gun": "guns_out_until_replaced", "turret": "turret_out_for_the_mission",
            "missile": "missile_launch_circuits_failed", "torpedo": "torpedo_launch_circuits_failed"}
HALVED_KEYS = {"gun": "guns_damage_halved", "turret": "turret_damage_halved",
               "missile": "missile_damage_halved", "torpedo": "torpedo_damage_halved"}

def weapon_from(index: int, data: dict) -> Weapon:
    count, sides, bonus = parse_damage(data["damage"])
    kind = data["kind"]
    stock = data.get("stock")
    if kind in ("missile", "torpedo"):
        stock = int(stock if stock is not None else 1)
    else:
        stock = -1
    return Weapon(f"w{index + 1}", data["name"], kind, count, sides, bonus, int(data.get("mv", 0) or 0), stock)


def modifiers_from(skills: dict) -> tuple[Modifier, ...]:
    out = []
    for name, value in (skills or {}).items():
        if isinstance(value, (list, tuple)) and len(value) == 2:
            out.append(Modifier(str(name), str(value[0]), int(value[1])))
        elif isinstance(value, dict):
            out.append(Modifier(str(name), str(value.get("on", "attack")), int(value.get("value", 0))))
        else:
            raise ValueError(f"skill '{name}': give what it modifies and a value, e.g. [attack, 2].")
    return tuple(out)


def pilot_from(crew: dict) -> Pilot:
    chars = crew.get("characteristics") or {}
    flown_by = chars.get("flown_by", "character")
    if flown_by not in dict(FLOWN_BY):
        raise ValueError(f"{crew.get('name', 'a pilot')}: flown_by '{flown_by}' is not one of {', '.join(dict(FLOWN_BY))}.")
    return Pilot(str(crew.get("id", "")), str(crew.get("name", "Pilot")), int(chars.get("rank", 1)),
                 int(chars.get("months", 0)), bool(chars.get("wild_card", False)), flown_by,
                 bool(chars.get("leader", False)), modifiers_from(crew.get("skills")))


def ship_from(spec: dict) -> Ship:
    stats = spec["stats"]
    damage = spec.get("damage") or {}
    cls = stats.get("class", "medium")
    if cls not in tables.CLASS_ORDER:
        raise ValueError(f"{spec['name']}: class '{cls}' is not one of {', '.join(tables.CLASS_ORDER)}.")
    weapons = [weapon_from(i, w) for i, w in enumerate(stats.get("weapons") or [])]
    spent = {str(k): int(v) for k, v in (damage.get("ammo") or {}).items()}
    weapons = [_carried(w, damage, spent) for w in weapons]
    crew = spec.get("crew") or []
    pilots = [c for c in crew if c.get("position", "pilot") == "pilot"]
    gunners = [c for c in crew if c.get("position") == "gunner"]
    max_shields, max_hull = int(stats.get("shields", 0)), int(stats.get("hull", 1))
    # A ship destroyed in an earlier fight starts out of this one until the GM clears its damage.
    hull = max(0, max_hull - int(damage.get("hull", 0)))
    return Ship(
        id=spec["id"], name=spec["name"], side=spec["side"], cls=cls, mv=int(stats.get("mv", 0)),
        tw=int(stats.get("tw", 12)), shields=max_shields, max_shields=max_shields, hull=hull, max_hull=max_hull,
        weapons=tuple(weapons),
        chaff=max(0, int(stats.get("chaff", 0)) - spent.get("chaff", 0)), chaff_mv=int(stats.get("chaff_mv", 0)),
        mines=max(0, int(stats.get("mines", 0)) - spent.get("mines", 0)), mines_mv=int(stats.get("mines_mv", 0)),
        cloak_device=bool(stats.get("cloak", False)), phase_shields=bool(stats.get("phase_shields", False)),
        pilot=pilot_from(pilots[0]) if pilots else NO_PILOT,
        gunner=pilot_from(gunners[0]) if gunners else None,
        shield_generator=not damage.get("shield_generator_destroyed"), thrusters=int(damage.get("thrusters_damaged", 0)),
        gun_alignment=bool(damage.get("gun_alignment_failed", False)), spent=spent,
        status="in" if hull > 0 else "destroyed",
    )


def _carried(weapon: Weapon, damage: dict, spent: dict) -> Weapon:
    """Weapon damage that outlives an encounter (until replaced, or for the whole mission)."""
    changes = {}
    if damage.get(OUT_KEYS[weapon.kind]):
        changes["broken"] = True
    if damage.get(HALVED_KEYS[weapon.kind]):
        changes["halved"] = True
    if weapon.stock > 0 and spent.get(weapon.name):
        changes["stock"] = max(0, weapon.stock - spent[weapon.name])
    return clone(weapon, **changes) if changes else weapon


# --- copy-on-write, fast -----------------------------------------------------------------
# rulesets.core.state.evolve is dataclasses.replace, which re-runs the frozen __init__ of all
# thirty-odd fields of a Ship (about 60 microseconds); a playout changes a ship a few times a
# step.  rulesets.core.state.clone copies the instance dict instead: the same copy-on-write, a
# tenth of the cost.

def replace_by_id(items: tuple, item_id: str, **changes) -> tuple:
    """A copy of the tuple ``items`` with the item whose id is ``item_id`` changed."""
    for index, item in enumerate(items):
        if item.id == item_id:
            return items[:index] + (clone(item, **changes),) + items[index + 1:]
    raise KeyError(f"No '{item_id}'.")


def with_ship(state: "DogfightState", ship_id: str, **changes) -> "DogfightState":
    """The state with one ship changed."""
    return clone(state, ships=replace_by_id(state.ships, ship_id, **changes))
