"""Cepheus Engine space combat: the state as plain data, and the rules as plain functions.

Pure Python (no Django).  The engine (``engine.py``) sequences the steps; this
module says what a ship is, how a check is built, and what damage does.  States are
dataclasses that round-trip through :mod:`rulesets.core.serial`.

Mutation is copy-on-write through :class:`Tx`: an ``apply`` copies the state
shallowly, and a ship, crew member or mount is copied the first time it changes.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from rulesets.core.engine import LogEntry

from . import tables as T

# ================================================================ state


@dataclass
class Weapon:
    type: str
    loaded: int = 0
    reserve: int = 0
    missile: str = ""
    full: int = 0  # the stats' full load of ammunition (to report what was used)


@dataclass
class Mount:
    id: str          # t1, t2 ... turrets; b1, b2 ... bays
    kind: str        # turret | bay
    weapons: list[Weapon] = field(default_factory=list)
    hits: int = 0
    repaired: int = 0  # battlefield repairs (undone after the battle)


@dataclass
class Task:
    """An extended action in progress (Azioni estese)."""

    kind: str
    system: str
    turns: int
    done: int = 0
    skill: str = "mechanic"


@dataclass
class Crew:
    id: str
    name: str
    position: str
    station: str = ""
    chars: dict[str, int] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    player: int | None = None
    automated: str = ""  # "", "gunner", "pilot", "engineer", "repair"
    damage: int = 0
    rads: int = 0
    task: Task | None = None


@dataclass
class Ship:
    id: str
    name: str
    side: str
    fleet: str = ""
    tonnage: int = 100
    small_craft: bool = False
    hull_max: int = 2
    structure_max: int = 2
    armour_max: int = 0
    thrust_max: int = 1
    jump: int = 0
    sensors: str = "standard"
    electronics: int = 0
    fire_control: int = 0
    auto_repair: bool = False
    intellect: bool = False
    expert_pilot: int = 0
    expert_engineer: int = 0
    repair_drones: bool = False
    nuclear_damper: bool = False
    meson_screen: bool = False
    fuel_max: int = 0
    cargo_max: int = 0
    hull: int = 2
    structure: int = 2
    armour: int = 0
    fuel: int = 0
    cargo: int = 0
    mounts: list[Mount] = field(default_factory=list)
    crew: list[Crew] = field(default_factory=list)
    hits: dict[str, int] = field(default_factory=dict)      # system -> hits taken
    repaired: dict[str, int] = field(default_factory=dict)  # system -> battlefield repairs
    status: str = "active"  # active | disabled | destroyed | escaped | boarded | captured
    speed: int = 0
    initiative: int = 0
    boost_next: int = 0
    boost: int = 0
    reactions: int = 1
    evasive: int = 0
    lined_up: int = 0
    targeting: dict[str, int] = field(default_factory=dict)
    pool: int = 0
    bonus: dict[str, int] = field(default_factory=dict)
    hasty: bool = False
    pursuing: str = ""
    pursuit_turns: int = 0
    pursuit_kept: bool = False
    jump_plotted: bool = False
    intercepted: str = ""
    intel: str = ""
    jammed: str = ""
    position: str = "space"  # space | orbit | decaying | atmosphere
    avoided: bool = False
    delaying: bool = False
    acted: bool = False
    fuel_leak: int = 0
    leak_acc: int = 0
    no_reactions: bool = False
    fired: list[str] = field(default_factory=list)  # mounts that fired this round

    @property
    def thrust(self) -> int:
        hits = self.hits.get("m_drive", 0)
        if hits <= 0:
            return self.thrust_max
        if hits == 1:
            return max(0, self.thrust_max - 1)
        if hits == 2:
            return max(0, min(self.thrust_max - 1, self.thrust_max // 2))
        return 0

    @property
    def alive(self) -> bool:
        return self.status in ("active", "disabled")

    @property
    def can_act(self) -> bool:
        return self.status == "active"

    def mount(self, mount_id: str) -> Mount | None:
        for m in self.mounts:
            if m.id == mount_id:
                return m
        return None

    def member(self, crew_id: str) -> Crew | None:
        for c in self.crew:
            if c.id == crew_id:
                return c
        return None


@dataclass
class Missile:
    id: str
    kind: str           # standard | smart | nuclear
    count: int
    source: str
    target: str
    to_hit: int
    turns: int          # rounds until impact
    fuel: int = 0       # smart: rounds of flight left
    launched: int = 0


@dataclass
class Boarding:
    attacker: str
    defender: str
    attacker_dm: int = 0
    defender_dm: int = 0
    rounds: int = 0


@dataclass
class PersonalTarget:
    """A personal-scale target (Danno in scala): a squad in vacuum suits, a vehicle."""

    id: str
    name: str
    side: str
    band: str = "close"
    damage: int = 0
    rads: int = 0


@dataclass
class Hit:
    """A successful attack waiting for damage resolution at the end of the ship's turn."""

    target: str
    source: str
    label: str
    weapon: str = ""
    dice: int = 0
    flat: int = 0
    ignore_armour: bool = False
    internal: bool = False
    radiation: str = ""      # "" | "armour" (DM- armour) | "plain"
    sand: int = 0            # 1D6 reductions from sand
    screen: int = 0          # damage removed by screens
    damper: bool = False     # nuclear damper removes the nuclear radiation hit
    single: int = 0          # direct single hits (boarding), no damage roll


@dataclass
class Pending:
    """An incoming attack the defender may react to, or an opposed result to choose."""

    kind: str                # fire | missiles | board | range
    attacker: str
    target: str
    crew: str = ""
    mount: str = ""
    weapons: list[int] = field(default_factory=list)
    dm: int = 0
    missiles: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    dodge: int = 0
    sand: int = 0
    screen: int = 0
    screen_kind: str = ""
    defence: int = 0         # boarding: DM to the defender from point defence / sand
    chooser: str = ""        # range: ship id that chooses


@dataclass
class Options:
    range: str = "short"
    ranges: dict[str, str] = field(default_factory=dict)
    aware: list[str] = field(default_factory=list)
    skill_delta_side0: int = 0  # simulations: the first side's trained skills shifted by this
    max_rounds: int = 20
    hasty: bool = True
    hazard: str = "none"
    hazard_mismatch: bool = False
    planet: bool = False
    world_size: int = 7
    world_atmosphere: int = 6
    auto_repair_checks: int = 1
    smart_fuel: int = 10
    comms_noise: bool = False
    encrypted: bool = False
    hull_zero_disables: bool = True


@dataclass
class CombatState:
    ships: list[Ship] = field(default_factory=list)
    ranges: dict[str, str] = field(default_factory=dict)
    docked: list[str] = field(default_factory=list)
    missiles: list[Missile] = field(default_factory=list)
    boarding: list[Boarding] = field(default_factory=list)
    personal: list[PersonalTarget] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    pending: Pending | None = None
    options: Options = field(default_factory=Options)
    sides: list[str] = field(default_factory=list)
    tactics: dict[str, int] = field(default_factory=dict)
    round: int = 0
    phase: str = "initiative"
    order: list[str] = field(default_factory=list)
    turn: int = 0
    queue: list[str] = field(default_factory=list)
    pos: int = 0
    sig: int = 1
    minor: int = 1
    impacts: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    asked: int = 0
    over: bool = False
    winner: str | None = None
    serial: int = 0

    # ---- lookups
    def ship(self, ship_id: str) -> Ship:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def find_ship(self, ship_id: str) -> Ship | None:
        for s in self.ships:
            if s.id == ship_id:
                return s
        return None

    def crew_ship(self, crew_id: str) -> Ship | None:
        for s in self.ships:
            for c in s.crew:
                if c.id == crew_id:
                    return s
        return None

    def band(self, a: str, b: str) -> str:
        return self.ranges.get(pair(a, b), self.options.range)

    @property
    def acting_ship(self) -> Ship | None:
        if self.phase == "crew" and self.turn < len(self.order):
            return self.find_ship(self.order[self.turn])
        return None

    @property
    def acting_crew(self) -> Crew | None:
        ship = self.acting_ship
        if ship is None or self.pos >= len(self.queue):
            return None
        return ship.member(self.queue[self.pos])

    @property
    def active(self) -> str:
        if self.over:
            return "Fight over"
        if self.phase == "initiative":
            return f"{self.order[self.turn]} — initiative" if self.turn < len(self.order) else "initiative"
        if self.phase == "react" and self.pending is not None:
            target = self.find_ship(self.pending.target)
            return f"{target.name if target else '?'} — reactions"
        if self.phase == "range" and self.pending is not None:
            chooser = self.find_ship(self.pending.chooser)
            return f"{chooser.name if chooser else '?'} — range choice"
        if self.phase == "delay" and self.waiting:
            ship = self.find_ship(self.waiting[min(self.asked, len(self.waiting) - 1)])
            return f"{ship.name if ship else '?'} — delaying"
        ship, crew = self.acting_ship, self.acting_crew
        if ship and crew:
            return f"{ship.name} — {POSITION_LABEL.get(crew.position, crew.position)} {crew.name}"
        return self.phase


def pair(a: str, b: str) -> str:
    return f"{a}|{b}" if a <= b else f"{b}|{a}"


# ================================================================ crew positions

POSITIONS = [
    ("captain", "Captain"),
    ("pilot", "Pilot"),
    ("navigator", "Navigator"),
    ("sensors", "Sensor operator"),
    ("turret_gunner", "Turret gunner"),
    ("bay_gunner", "Bay gunner"),
    ("gunner", "Gunner (turret or bay, by station)"),
    ("engineer", "Engineer"),
    ("damage_control", "Damage control"),
    ("security", "Chief security officer"),
    ("marine", "Marine"),
    ("passenger", "Passenger"),
]
POSITION_LABEL = dict(POSITIONS)
#: the order in which a ship's crew act within its turn (boosters before gunners)
POSITION_ORDER = {key: i for i, key in enumerate(
    ("captain", "sensors", "pilot", "navigator", "turret_gunner", "gunner", "bay_gunner",
     "engineer", "damage_control", "security", "marine", "passenger"))}
GUNNER_POSITIONS = ("gunner", "turret_gunner", "bay_gunner")
CHARACTERISTICS = ("str", "dex", "end", "int", "edu", "soc")
SKILLS = ("pilot", "gunnery", "gunnery_turret", "gunnery_bay", "tactics", "leadership", "comms",
          "mechanic", "engineering", "navigation", "screens", "gun_combat", "vacc_suit", "melee")
SKILL_LABEL = {
    "pilot": "Pilot", "gunnery": "Gunnery", "gunnery_turret": "Gunnery (Turret)",
    "gunnery_bay": "Gunnery (Bay)", "tactics": "Tactics", "leadership": "Leadership", "comms": "Comms",
    "mechanic": "Mechanic", "engineering": "Engineering", "navigation": "Navigation", "screens": "Screens",
    "gun_combat": "Gun Combat", "vacc_suit": "Vacc Suit", "melee": "Melee",
}
SYSTEMS = ("sensors", "m_drive", "j_drive", "power_plant", "bridge", "fuel", "hold")
SYSTEM_LABEL = {k: T.LOCATION_LABEL[k] for k in SYSTEMS}


def char_dm(score: int) -> int:
    """RULES-NOTES: characteristic DM = floor(score / 3) - 2."""
    return score // 3 - 2


def current_chars(c: Crew) -> dict[str, int]:
    """Characteristics after wounds: damage comes off End, then Str, then Dex (decision)."""
    chars = dict(c.chars)
    dmg = c.damage
    for key in ("end", "str", "dex"):
        if dmg <= 0:
            break
        have = chars.get(key, 7)
        take = min(have, dmg)
        chars[key] = have - take
        dmg -= take
    return chars


def crew_state(c: Crew) -> str:
    if c.automated or c.damage <= 0:
        return "ok"
    ch = current_chars(c)
    zero = sum(1 for k in ("str", "dex", "end") if ch.get(k, 7) <= 0)
    return "dead" if zero >= 3 else "unconscious" if zero >= 2 else "wounded"


def able(c: Crew) -> bool:
    return crew_state(c) in ("ok", "wounded")


def skill_of(c: Crew, skill: str) -> tuple[int, str]:
    """(level, label) of a skill; unskilled is -3.  Gunnery specialities fall back to Gunnery."""
    s = c.skills
    if skill in s:
        return int(s[skill]), SKILL_LABEL.get(skill, skill)
    if skill in ("gunnery_turret", "gunnery_bay") and "gunnery" in s:
        return int(s["gunnery"]), "Gunnery"
    return T.UNSKILLED, f"unskilled {SKILL_LABEL.get(skill, skill)}"


def char_of(c: Crew, key: str) -> int:
    if c.automated or not key:
        return 0
    return char_dm(current_chars(c).get(key, 7))


def gunnery_skill(mount_kind: str) -> str:
    return "gunnery_bay" if mount_kind == "bay" else "gunnery_turret"


# ================================================================ stats: schema and validation

WEAPON_ALIASES = {
    "pulse laser": "pulse_laser", "pulse": "pulse_laser", "pulse_laser": "pulse_laser",
    "beam laser": "beam_laser", "beam": "beam_laser", "beam_laser": "beam_laser", "laser": "beam_laser",
    "missile rack": "missile_rack", "missile": "missile_rack", "missiles": "missile_rack", "missile_rack": "missile_rack",
    "sandcaster": "sandcaster", "sand": "sandcaster",
    "particle beam": "particle_beam", "particle": "particle_beam", "particle_beam": "particle_beam",
    "fusion gun": "fusion_gun", "fusion": "fusion_gun", "fusion_gun": "fusion_gun",
}
BAY_ALIASES = {
    "particle": "particle_bay", "particle beam": "particle_bay", "particle bay": "particle_bay",
    "particle beam bay": "particle_bay", "particle_bay": "particle_bay",
    "fusion": "fusion_bay", "fusion gun": "fusion_bay", "fusion bay": "fusion_bay", "fusion gun bay": "fusion_bay",
    "fusion_bay": "fusion_bay",
    "meson": "meson_bay", "meson gun": "meson_bay", "meson bay": "meson_bay", "meson gun bay": "meson_bay",
    "meson_bay": "meson_bay",
    "missile": "missile_bay", "missiles": "missile_bay", "missile bay": "missile_bay", "missile_bay": "missile_bay",
}
_ITEM = re.compile(r"^(?P<name>[a-z _]+?)\s*(?:\((?P<kind>[a-z]+)\))?\s*(?:x\s*(?P<ammo>\d+))?$")

STAT_LIMITS = {
    "tonnage": (10, 1_000_000), "armour": (0, 20), "thrust": (0, 10), "jump": (0, 6),
    "electronics": (-4, 6), "fire_control": (0, 5), "expert_pilot": (0, 3), "expert_engineer": (0, 3),
    "fuel": (0, 1_000_000), "cargo": (0, 1_000_000),
}
STAT_FLAGS = ("auto_repair", "intellect", "repair_drones", "nuclear_damper", "meson_screen")


def hull_points(tonnage: int) -> int:
    """Danno: one Hull point per 50 tons, rounded down."""
    return tonnage // 50


def structure_points(tonnage: int) -> int:
    """Danno: one Structure point per 50 tons, minimum 1."""
    return max(1, tonnage // 50)


def parse_mount_line(line: str, mount: str) -> tuple[list[dict], list[str]]:
    """A turret ("pulse laser, sandcaster x20") or bay ("missile (smart) x24") line as weapon dicts."""
    weapons, errors = [], []
    items = [p.strip().lower() for p in line.split(",") if p.strip()]
    if not items:
        return [], ["empty line"]
    aliases = BAY_ALIASES if mount == "bay" else WEAPON_ALIASES
    for item in items:
        m = _ITEM.match(item)
        name = m.group("name").strip() if m else item
        key = aliases.get(name)
        if key is None:
            known = ", ".join(sorted({v.replace("_", " ") for v in aliases.values()}))
            errors.append(f"'{item}' is not a {mount} weapon (one of: {known})")
            continue
        kind = T.WEAPONS[key]
        w = {"type": key}
        if kind.ammo:
            w["ammo"] = int(m.group("ammo")) if m.group("ammo") else kind.capacity
        elif m.group("ammo"):
            errors.append(f"'{item}': only missiles and sandcasters carry ammunition")
        if kind.missile:
            w["missile"] = m.group("kind") or "standard"
            if w["missile"] not in T.MISSILES:
                errors.append(f"'{item}': missile kind must be standard, smart or nuclear")
        elif m.group("kind"):
            errors.append(f"'{item}': only missiles have a kind in brackets")
        weapons.append(w)
    if mount == "bay" and len(weapons) > 1:
        errors.append("a bay holds a single weapon")
    if mount == "turret" and len(weapons) > T.TURRET_CAPACITY:
        errors.append(f"a turret holds at most {T.TURRET_CAPACITY} weapons")
    return weapons, errors


def mount_line(weapons: list[dict]) -> str:
    """The inverse of :func:`parse_mount_line`."""
    out = []
    for w in weapons:
        kind = T.WEAPONS[w["type"]]
        text = kind.label.replace(" bay", "") if kind.mount == "bay" else kind.label
        if kind.missile and w.get("missile", "standard") != "standard":
            text += f" ({w['missile']})"
        if kind.ammo:
            text += f" x{w.get('ammo', kind.capacity)}"
        out.append(text)
    return ", ".join(out)


def _as_weapon_list(raw, mount: str, where: str, errors: list[str]) -> list[dict]:
    if isinstance(raw, str):
        weapons, errs = parse_mount_line(raw, mount)
        errors.extend(f"{where}: {e}" for e in errs)
        return weapons
    if isinstance(raw, dict) and mount == "bay":
        raw = [raw]
    elif isinstance(raw, dict):
        raw = raw.get("weapons", [])
    out = []
    for w in raw or []:
        if isinstance(w, str):
            ws, errs = parse_mount_line(w, mount)
            errors.extend(f"{where}: {e}" for e in errs)
            out.extend(ws)
            continue
        key = w.get("type", "")
        key = (BAY_ALIASES if mount == "bay" else WEAPON_ALIASES).get(str(key).replace("_", " "), key)
        if key not in T.WEAPONS or T.WEAPONS[key].mount != mount:
            errors.append(f"{where}: '{w.get('type')}' is not a {mount} weapon")
            continue
        kind = T.WEAPONS[key]
        item = {"type": key}
        if kind.ammo:
            item["ammo"] = int(w.get("ammo", kind.capacity))
            if item["ammo"] < 0:
                errors.append(f"{where}: ammunition cannot be negative")
        if kind.missile:
            item["missile"] = w.get("missile", "standard")
            if item["missile"] not in T.MISSILES:
                errors.append(f"{where}: missile kind must be standard, smart or nuclear")
        out.append(item)
    return out


def normalise_stats(stats: dict) -> tuple[dict, list[str]]:
    """(normalised stats, errors).  See docs/rulesets/cepheus.md for the schema."""
    errors: list[str] = []
    out: dict = {}
    defaults = {"tonnage": 100, "armour": 0, "thrust": 1, "jump": 0, "electronics": 0, "fire_control": 0,
                "expert_pilot": 0, "expert_engineer": 0, "fuel": 0, "cargo": 0}
    for key, (lo, hi) in STAT_LIMITS.items():
        raw = stats.get(key, defaults[key])
        try:
            value = int(raw)
        except (TypeError, ValueError):
            errors.append(f"{key}: '{raw}' is not a whole number")
            continue
        if not lo <= value <= hi:
            errors.append(f"{key}: {value} is outside {lo}-{hi}")
        out[key] = value
    sensors = stats.get("sensors", "standard")
    if sensors not in T.SENSOR_GRADES:
        errors.append(f"sensors: '{sensors}' is not one of {', '.join(T.SENSOR_GRADES)}")
    out["sensors"] = sensors
    for flag in STAT_FLAGS:
        out[flag] = bool(stats.get(flag, False))
    out["turrets"] = []
    for i, raw in enumerate(stats.get("turrets", []) or []):
        weapons = _as_weapon_list(raw, "turret", f"turret {i + 1}", errors)
        if not weapons:
            errors.append(f"turret {i + 1}: no weapons")
        if len(weapons) > T.TURRET_CAPACITY:
            errors.append(f"turret {i + 1}: at most {T.TURRET_CAPACITY} weapons")
        out["turrets"].append({"weapons": weapons})
    out["bays"] = []
    for i, raw in enumerate(stats.get("bays", []) or []):
        weapons = _as_weapon_list(raw, "bay", f"bay {i + 1}", errors)
        if len(weapons) != 1:
            errors.append(f"bay {i + 1}: a bay holds exactly one weapon")
            continue
        out["bays"].append(weapons[0])
    tonnage = out.get("tonnage", 100)
    hardpoints = max(1, tonnage // 100)
    if len(out["turrets"]) + len(out["bays"]) > hardpoints and tonnage >= 100:
        errors.append(f"turrets and bays: {len(out['turrets']) + len(out['bays'])} mounts, but {tonnage} t has {hardpoints} hardpoints")
    if out["bays"] and tonnage < 200:
        errors.append("bays: a bay needs a ship of 200 tons or more")
    return out, errors


def validate_stats(stats: dict) -> list[str]:
    """Problems with a stats dict, as readable strings ([] when fine)."""
    if not isinstance(stats, dict):
        return ["stats must be a mapping"]
    return normalise_stats(stats)[1]


# ================================================================ copy-on-write


def clone(obj):
    """A shallow copy of a dataclass instance, much faster than ``dataclasses.replace``."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


class Tx:
    """The state being built by one ``apply``: copied shallowly, parts copied on first write."""

    def __init__(self, state: CombatState, dice, log: list):
        self.s = clone(state)
        self.s.ships = list(state.ships)
        self.dice = dice
        self.log = log
        self._ships: set[str] = set()
        self._crews: set[str] = set()
        self._mounts: set[str] = set()

    def ship(self, ship_id: str) -> Ship:
        ships = self.s.ships
        for i, sh in enumerate(ships):
            if sh.id == ship_id:
                if ship_id not in self._ships:
                    sh = clone(sh)
                    sh.hits = dict(sh.hits)
                    sh.repaired = dict(sh.repaired)
                    sh.targeting = dict(sh.targeting)
                    sh.bonus = dict(sh.bonus)
                    ships[i] = sh
                    self._ships.add(ship_id)
                return sh
        raise KeyError(ship_id)

    def crew(self, ship_id: str, crew_id: str) -> Crew:
        sh = self.ship(ship_id)
        key = f"{ship_id}/{crew_id}"
        if f"{ship_id}/" not in self._crews:
            sh.crew = list(sh.crew)
            self._crews.add(f"{ship_id}/")
        for i, c in enumerate(sh.crew):
            if c.id == crew_id:
                if key not in self._crews:
                    c = clone(c)
                    if c.task is not None:
                        c.task = clone(c.task)
                    sh.crew[i] = c
                    self._crews.add(key)
                return c
        raise KeyError(crew_id)

    def mount(self, ship_id: str, mount_id: str) -> Mount:
        sh = self.ship(ship_id)
        key = f"{ship_id}/{mount_id}"
        if f"{ship_id}/" not in self._mounts:
            sh.mounts = list(sh.mounts)
            self._mounts.add(f"{ship_id}/")
        for i, m in enumerate(sh.mounts):
            if m.id == mount_id:
                if key not in self._mounts:
                    m = clone(m)
                    m.weapons = [clone(w) for w in m.weapons]
                    sh.mounts[i] = m
                    self._mounts.add(key)
                return m
        raise KeyError(mount_id)

    def say(self, text: str, rule: str = "", gm_only: bool = False):
        self.log.append(LogEntry(text, rule, gm_only))

    def next_id(self, prefix: str) -> str:
        self.s.serial += 1
        return f"{prefix}{self.s.serial}"


# ================================================================ checks


def is_npc(ship: Ship) -> bool:
    return not any(c.player is not None for c in ship.crew)


def roll_check(tx: Tx, ship: Ship, crew: Crew | None, skill: str, char: str, difficulty: str,
               purpose: str, rule: str, extra=(), target: int = T.TARGET, table: str = "", row: str = ""):
    """2D6 + skill + characteristic DM + difficulty DM + extras >= 8; returns (roll, effect)."""
    mods = check_mods(ship, crew, skill, char, difficulty, extra)
    roll = tx.dice.roll(2, 6, modifiers=mods, purpose=purpose, rule=rule, target=target,
                        table=table, row=row, gm_only=is_npc(ship))
    if crew is not None and ship.bonus.get(crew.id):
        sh = tx.ship(ship.id)
        sh.bonus.pop(crew.id, None)
    return roll, roll.total - target


def check_mods(ship: Ship, crew: Crew | None, skill: str, char: str, difficulty: str, extra=()) -> list:
    mods = []
    if crew is not None and skill:
        level, label = skill_of(crew, skill)
        mods.append((label, level))
        if char:
            mods.append((f"{char.capitalize()} DM", char_of(crew, char)))
    if difficulty:
        mods.append((T.DIFFICULTY_LABEL[difficulty], T.DIFFICULTY[difficulty]))
    if ship.hasty:
        mods.append(("acting hastily (house rule)", -1))
    if crew is not None and ship.bonus.get(crew.id):
        mods.append(("Captain's coordination", ship.bonus[crew.id]))
    mods.extend(extra)
    return [(s, v) for s, v in mods if v]


def effect_band(effect: int) -> str:
    if effect >= T.EXCEPTIONAL:
        return "exceptional success"
    if effect >= 0:
        return "success"
    if effect <= -T.EXCEPTIONAL:
        return "exceptional failure"
    return "failure"


# ================================================================ damage


def table_roll(tx: Tx, count: int, purpose: str, rule: str, table: str, row_of, mods=(), target=None,
               gm_only: bool = False):
    """Roll ``count``D6 + mods and record it with the table row its total selects."""
    from rulesets.core.dice import Roll

    faces = tuple(tx.dice.faces(count, 6, purpose, rule))
    mods = tuple((str(s), int(v)) for s, v in mods if v)
    total = sum(faces) + sum(v for _, v in mods)
    return tx.dice.record(Roll(f"{count}D6", faces, mods, total, purpose, rule, table, row_of(total), target, gm_only))


def column_for(ship: Ship, internal: bool = False) -> str:
    """Danno: small craft use their column; ships use External until Hull is gone."""
    if internal:
        return "internal"
    if ship.small_craft:
        return "small_craft"
    return "internal" if ship.hull <= 0 else "external"


def resolve_hit(tx: Tx, hit: Hit) -> int:
    """Roll damage for one successful attack and apply it.  Returns the damage after armour."""
    target = tx.s.find_ship(hit.target)
    if target is None or target.status in ("destroyed", "escaped"):
        return 0
    rule = T.SEC["damage"]
    mods = []
    if hit.single:
        tx.say(f"{hit.label}: {hit.single} single internal hit(s) on {target.name}.", T.SEC["abstract_boarding"])
        for _ in range(hit.single):
            apply_location_hits(tx, target.id, 1, internal=True)
        return 0
    if hit.dice:
        dmg_roll = tx.dice.roll(hit.dice, 6, purpose=f"{hit.label}: damage", rule=rule)
        raw = dmg_roll.total
    else:
        raw = hit.flat
    text = [f"{hit.label}: damage {raw}"]
    if not hit.ignore_armour and target.armour:
        mods.append(("armour", -target.armour))
    for _ in range(hit.sand):
        sand = tx.dice.roll(1, 6, purpose="sand: damage reduced by 1D6", rule=T.SEC["sand"])
        mods.append(("sand", -sand.total))
    if hit.screen:
        mods.append(("screens", -hit.screen))
    net = raw + sum(v for _, v in mods)
    if mods:
        text.append(", ".join(f"{s} {v:+d}" for s, v in mods) + f" = {max(net, 0)}")
    counts, row = T.damage_effect(net)
    text.append(f"({T.SEC_DAMAGE}: {row})")
    tx.say(" ".join(text), T.SEC_DAMAGE)
    if net > 0:
        interrupt_extended(tx, target.id, net)
    singles, doubles, triples = counts
    for size, n in ((3, triples), (2, doubles), (1, singles)):
        for _ in range(n):
            if tx.s.ship(target.id).status == "destroyed":
                break
            apply_location_hits(tx, target.id, size, internal=hit.internal)
    if hit.radiation and tx.s.ship(target.id).status != "destroyed" and not (hit.damper and hit.weapon == "nuclear"):
        dm = -target.armour if hit.radiation == "armour" else 0
        crew_hit(tx, target.id, radiation=True, dm=dm, why=f"{hit.label}: radiation crew hit ({T.SEC_SPECIAL})")
    elif hit.radiation and hit.damper:
        tx.say(f"{target.name}'s nuclear damper removes the radiation hit.", T.SEC["screens"])
    return max(net, 0)


def apply_location_hits(tx: Tx, ship_id: str, count: int, internal: bool = False):
    ship = tx.s.ship(ship_id)
    column = column_for(ship, internal)
    roll = table_roll(tx, 2, f"hit location on {ship.name}", T.SEC_LOCATION,
                      f"{T.SEC_LOCATION} — {T.COLUMN_LABEL[column]}",
                      lambda total: f"{total}: {T.LOCATION_LABEL[T.HIT_LOCATION[column][total]]}")
    location = T.HIT_LOCATION[column][roll.total]
    for _ in range(count):
        if tx.s.ship(ship_id).status == "destroyed":
            return
        hit_location(tx, ship_id, location, roll.total)


def hit_location(tx: Tx, ship_id: str, location: str, row: int):
    """Apply one hit to ``location`` (each location's section of the text)."""
    sh = tx.ship(ship_id)
    sec = T.LOCATION_SECTION.get(location, T.SEC["damage"])
    if location == "hull":
        if sh.hull <= 0:
            inner = T.HIT_LOCATION["internal"][row]
            tx.say(f"{sh.name}: Hull is gone, the hit goes to {T.LOCATION_LABEL[inner]} (Internal column, row {row}).", sec)
            hit_location(tx, ship_id, inner, row)
            return
        sh.hull -= 1
        tx.say(f"{sh.name}: Hull hit, Hull {sh.hull}/{sh.hull_max}.", sec)
        if sh.hull <= 0 and tx.s.options.hull_zero_disables and sh.status == "active":
            sh.status = "disabled"
            tx.say(f"{sh.name} has run out of Hull and is disabled.", T.SEC["damage"])
        return
    if location == "structure":
        sh.structure = max(0, sh.structure - 1)
        tx.say(f"{sh.name}: Structure hit, Structure {sh.structure}/{sh.structure_max}.", sec)
        if sh.structure <= 0:
            destroy(tx, ship_id)
        return
    if location == "armour":
        if sh.armour <= 0:
            tx.say(f"{sh.name}: no armour left, counts as a Hull hit.", sec)
            hit_location(tx, ship_id, "hull", row)
            return
        sh.armour -= 1
        tx.say(f"{sh.name}: Armour hit, Armour {sh.armour}.", sec)
        return
    if location == "crew":
        crew_hit(tx, ship_id, radiation=False, dm=0, why=f"{sh.name}: Crew hit")
        return
    if location in ("turret", "bay"):
        mounts = [m for m in sh.mounts if m.kind == location]
        if not mounts:
            instead = "hull" if location == "turret" else "structure"
            tx.say(f"{sh.name} has no {location}: counts as a {instead} hit (notes).", T.SEC["notes"])
            hit_location(tx, ship_id, instead, row)
            return
        if len(mounts) == 1:
            mount = mounts[0]
        else:
            pick = tx.dice.roll(1, len(mounts), purpose=f"which {location} is hit", rule=sec)
            mount = mounts[pick.total - 1]
        m = tx.mount(ship_id, mount.id)
        if m.hits >= 3:
            instead = T.FURTHER_HITS[location]
            tx.say(f"{sh.name}: {location} {m.id} already destroyed, counts as a {instead} hit.", sec)
            hit_location(tx, ship_id, instead, row)
            return
        m.hits += 1
        tx.say(f"{sh.name}: {location} {m.id} hit ({_ordinal(m.hits)} hit): {T.LOCATION_EFFECTS[location][m.hits - 1]}.", sec)
        return
    if location == "j_drive" and sh.jump <= 0:
        tx.say(f"{sh.name} has no J-drive: counts as a Structure hit (decision).", sec)
        hit_location(tx, ship_id, "structure", row)
        return
    # the systems with first / second / third hits
    have = sh.hits.get(location, 0)
    if have >= 3:
        instead = T.FURTHER_HITS[location]
        tx.say(f"{sh.name}: {T.LOCATION_LABEL[location]} already destroyed, counts as a {instead} hit.", sec)
        hit_location(tx, ship_id, instead, row)
        return
    sh.hits[location] = have + 1
    n = have + 1
    tx.say(f"{sh.name}: {T.LOCATION_LABEL[location]} hit ({_ordinal(n)} hit): {T.LOCATION_EFFECTS[location][n - 1]}.", sec)
    if location == "power_plant":
        if n == 2:
            crew_hit(tx, ship_id, radiation=True, dm=0, why=f"{sh.name}: power plant leak")
        elif n == 3:
            if sh.status == "active":
                sh.status = "disabled"
            tx.say(f"{sh.name} is disabled.", sec)
    elif location == "bridge" and n == 1:
        crew_hit(tx, ship_id, radiation=False, dm=0, why=f"{sh.name}: bridge hit")
    elif location == "fuel":
        if n == 1:
            leak = tx.dice.roll(1, 6, purpose="fuel leak, tons per hour", rule=sec)
            sh.fuel_leak += leak.total
            tx.say(f"{sh.name} leaks {leak.total} t of fuel per hour.", sec)
        elif n == 2:
            lost = tx.dice.roll(1, 6, purpose="fuel lost, x10%", rule=sec)
            gone = sh.fuel * lost.total * 10 // 100
            sh.fuel -= gone
            tx.say(f"{sh.name} loses {lost.total * 10}% of its fuel ({gone} t), {sh.fuel} t left.", sec)
        else:
            sh.fuel = 0
            sh.fuel_leak = 0
    elif location == "hold":
        if n <= 2:
            lost = tx.dice.roll(1, 6, purpose="cargo destroyed, x10%", rule=sec)
            gone = sh.cargo * lost.total * 10 // 100
            sh.cargo -= gone
            tx.say(f"{sh.name} loses {lost.total * 10}% of its cargo ({gone} t).", sec)
        else:
            sh.cargo = 0


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def destroy(tx: Tx, ship_id: str):
    sh = tx.ship(ship_id)
    if sh.status == "destroyed":
        return
    sh.status = "destroyed"
    sh.pursuing = ""
    tx.say(f"{sh.name} breaks up and is destroyed.", T.SEC["damage"])
    s = tx.s
    s.docked = [p for p in s.docked if ship_id not in p.split("|")]
    s.boarding = [b for b in s.boarding if ship_id not in (b.attacker, b.defender)]
    for other in s.ships:
        if other.pursuing == ship_id:
            tx.ship(other.id).pursuing = ""


def crew_hit(tx: Tx, ship_id: str, radiation: bool, dm: int, why: str):
    """Tabella: Danni all'equipaggio — 2D6 on the Normal or Radiation column."""
    ship = tx.s.ship(ship_id)
    column = "Radiation Damage" if radiation else "Normal Damage"
    roll = table_roll(tx, 2, f"{why}: crew damage", T.SEC_CREW_DAMAGE, f"{T.SEC_CREW_DAMAGE} — {column}",
                      lambda total: T.crew_damage_row(total)[2], mods=[("armour", dm)] if dm else [])
    who, dice_n, row = T.crew_damage_row(roll.total)
    people = [c for c in ship.crew if not c.automated and crew_state(c) != "dead"]
    if who == "none" or not people:
        tx.say(f"{ship.name}: crew hit — lucky escape, no one hurt.", T.SEC_CREW_DAMAGE)
        return
    if who == "one":
        pick = people[0] if len(people) == 1 else people[
            tx.dice.roll(1, len(people), purpose="which crew member", rule=T.SEC_CREW_DAMAGE).total - 1]
        victims = [pick]
    else:
        victims = people
    for v in victims:
        amount = tx.dice.roll(dice_n, 6, purpose=f"{v.name}: {'rads' if radiation else 'damage'}",
                              rule=T.SEC_CREW_DAMAGE).total
        c = tx.crew(ship_id, v.id)
        if radiation:
            c.rads += amount * 10
            tx.say(f"{ship.name}: {c.name} takes {amount * 10} rad.", T.SEC_CREW_DAMAGE)
        else:
            c.damage += amount
            state = crew_state(c)
            tx.say(f"{ship.name}: {c.name} takes {amount} damage ({state}).", T.SEC_CREW_DAMAGE)


def interrupt_extended(tx: Tx, ship_id: str, damage: int):
    """Azioni estese: a crew member on an extended action rolls 8+ with DM- damage, or loses the turn."""
    ship = tx.s.ship(ship_id)
    for c in ship.crew:
        if c.task is None or not able(c):
            continue
        roll, effect = roll_check(tx, ship, c, c.task.skill, "edu", "", f"{c.name} keeps working under fire",
                                  T.SEC["extended"], extra=[("damage taken", -damage)])
        member = tx.crew(ship_id, c.id)
        if effect <= -T.EXCEPTIONAL:
            member.task = replace(member.task, done=0)
            tx.say(f"{c.name}'s extended task is interrupted (exceptional failure): must start again.", T.SEC["extended"])
        elif effect < 0:
            member.task = replace(member.task, done=max(0, member.task.done - 1))
            tx.say(f"{c.name}'s work this turn does not count.", T.SEC["extended"])


def repairable(ship: Ship) -> list[str]:
    """Systems a damage-control check can work on: damaged but not destroyed (decision)."""
    out = [k for k in SYSTEMS if 0 < ship.hits.get(k, 0) < 3]
    out += [m.id for m in ship.mounts if 0 < m.hits < 3]
    if ship.armour < ship.armour_max:
        pass  # armour is not a system (decision: not repaired in combat)
    return out


def destroyed_systems(ship: Ship) -> list[str]:
    out = [k for k in SYSTEMS if ship.hits.get(k, 0) >= 3]
    out += [m.id for m in ship.mounts if m.hits >= 3]
    return out


def repair_system(tx: Tx, ship_id: str, system: str, hits: int) -> int:
    """Remove up to ``hits`` hits from a system; returns the hits removed."""
    sh = tx.ship(ship_id)
    if system in SYSTEMS:
        have = sh.hits.get(system, 0)
        fixed = min(have, hits)
        sh.hits[system] = have - fixed
        sh.repaired[system] = sh.repaired.get(system, 0) + fixed
        if system == "fuel" and sh.hits[system] == 0:
            sh.fuel_leak = 0
        if system == "power_plant" and sh.status == "disabled" and sh.hits[system] < 3 and (sh.hull > 0 or not tx.s.options.hull_zero_disables):
            sh.status = "active"
        return fixed
    m = tx.mount(ship_id, system)
    fixed = min(m.hits, hits)
    m.hits -= fixed
    m.repaired += fixed
    return fixed


def system_label(ship: Ship, system: str) -> str:
    if system in SYSTEM_LABEL:
        return SYSTEM_LABEL[system]
    m = ship.mount(system)
    if m is None:
        return system
    kind = "Turret" if m.kind == "turret" else "Bay"
    return f"{kind} {m.id[1:]} ({', '.join(T.WEAPONS[w.type].label for w in m.weapons)})"
