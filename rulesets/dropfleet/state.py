"""The state of a Dropfleet fight: ships, their profiles and effects, the turn sequence.

Plain dataclasses that round-trip through :mod:`rulesets.core.serial`.  Profiles are
read once from the stats dict (the stat form's output) by :func:`profile_from_stats`;
weapon lines as a player writes them (``Heavy railgun, 4+, 3, 1, F``) are read by
:func:`parse_weapon_line`, shared by the form, the override and the import checks.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from . import tables


@dataclass(frozen=True)
class Weapon:
    id: str
    name: str
    lock: int
    attacks: int
    damage: str  # "1", "2", "D3", "D6", "D6+1"
    arc: str = "F"
    close_action: bool = False
    launch: bool = False  # launch assets (bombers, torpedoes): point defence applies
    particle: bool = False
    calibre: str = ""  # tonnage letters, e.g. "H" or "LM"

    @property
    def point_defence_applies(self) -> bool:
        """DF-16 / DF-N06: only against Close Action weapons and launch assets."""
        return self.close_action or self.launch


@dataclass(frozen=True)
class Profile:
    """A ship's printed stats."""

    name: str
    tonnage: str  # L, M, H, S
    scan: int
    signature: int
    thrust: int
    hull: int
    armour: tuple[int, ...]  # one or more saves (DF-06: the best is used)
    passive: int | None = None  # passive countermeasures save (DF-09)
    passive_switchable: bool = False  # shields: raised with orders (DF-15)
    shield_signature: int = 0  # drawback while shields are up (DF-11)
    shields_block_pd: bool = False  # drawback: no point defence while shields are up (DF-11)
    pd: int = 0
    dreadnought: bool = False
    atmospheric: bool = False
    monitor: bool = False
    weapons: tuple[Weapon, ...] = ()


@dataclass(frozen=True)
class Effect:
    """A crippling effect on a ship (seed 6 tables)."""

    key: str
    repairs_left: int = 1  # successful damage-control rolls still needed
    weapon: str = ""  # Weapon destroyed: which system


@dataclass(frozen=True)
class Ship:
    id: str
    name: str
    side: str
    group: str
    profile: Profile
    x: float = 0.0
    y: float = 0.0
    heading: int = 0  # degrees, 0 = up the table (towards y = 0), clockwise
    layer: str = tables.HIGH
    hull: int = 0
    spike: int = tables.NO_SPIKE
    silent: bool = False
    shields_up: bool = False
    order: str = ""
    effects: tuple[Effect, ...] = ()
    cripple_rolled: tuple[str, ...] = ()  # thresholds already rolled ("half", "18", "10")
    destroyed: bool = False
    fate: str = ""  # how it left play, in words
    weapons_offline: bool = False  # Weapons disabled until the end of its next activation
    offline_pending: bool = False  # Weapons disabled was rolled outside its own activation
    moved: bool = False
    fired: tuple[str, ...] = ()  # weapon ids that fired this activation

    @property
    def in_play(self) -> bool:
        return not self.destroyed

    def has(self, key: str) -> bool:
        if not self.effects:
            return False
        for e in self.effects:
            if e.key == key:
                return True
        return False


@dataclass(frozen=True)
class Declared:
    """A weapon system declared against a target; resolved by ``open_fire``."""

    ship: str
    weapon: str
    target: str


@dataclass(frozen=True)
class PendingAttack:
    """An attack waiting for the defender to spend point defence (DF-20)."""

    ship: str
    weapon: str
    target: str
    normal: int  # damage points of normal hits
    critical: int  # damage points of critical hits
    successes: int  # point-defence successes to spend


@dataclass
class DropfleetState:
    ships: list[Ship] = field(default_factory=list)
    width: int = 48
    height: int = 48
    round: int = 1
    phase: str = "orders"  # orders, move, fire, pd, end
    group: str = ""  # the activating battle group
    side: str = ""  # its side
    activated: tuple[str, ...] = ()  # groups that have activated this round
    declared: tuple[Declared, ...] = ()
    pending: PendingAttack | None = None
    resolving: int = 0  # index into ``declared`` being resolved
    attacked: tuple[str, ...] = ()  # ships damaged by this activation's attacks (crippling at its end)
    explosions: tuple[tuple[float, float, float, str], ...] = ()  # blasts since the last orders: x, y, radius, layer
    over: bool = False
    winner: str | None = None
    max_rounds: int = 6
    pd_policy: str = "min_expected"
    sides: tuple[str, ...] = ()
    first_side: str = ""

    @property
    def active(self) -> str:
        """Who acts now, by ship name (the runner's "Now:"): the defender spending point
        defence, the ship to move, else the activating group's ships ("" in the End phase)."""
        if self.over or not self.group:
            return ""
        if self.phase == "pd" and self.pending is not None:
            return next((s.name for s in self.ships if s.id == self.pending.target), "")
        ships = [s for s in self.ships if s.group == self.group and not s.destroyed]
        if self.phase == "move":
            ships = [s for s in ships if not s.moved][:1] or ships
        return ", ".join(s.name for s in ships)




# --- reading stats --------------------------------------------------------------------

_SAVE = re.compile(r"^\s*([2-6])\s*\+\s*$", re.ASCII)
_DAMAGE = re.compile(r"^\s*(?:(\d+)|D([36])(?:\s*\+\s*(\d+))?)\s*$", re.I | re.ASCII)
_CALIBRE = re.compile(r"^calibre\s*\(?\s*([LMHS]+)\s*\)?$", re.I | re.ASCII)


def parse_save(text: str) -> int:
    """'4+' -> 4."""
    m = _SAVE.match(str(text))
    if not m:
        raise ValueError(f"'{text}' is not a save such as 4+")
    return int(m.group(1))


def parse_damage(text: str) -> str:
    """A weapon's Damage: a number, D3, D6 or D6+N (DF-01, DF-02); normalised."""
    m = _DAMAGE.match(str(text))
    if not m:
        raise ValueError(f"damage '{text}' is not a number, D3, D6 or D6+1")
    if m.group(1):
        if int(m.group(1)) < 1:
            raise ValueError("damage must be 1 or more")
        return str(int(m.group(1)))
    extra = f"+{int(m.group(3))}" if m.group(3) and int(m.group(3)) else ""
    return f"D{m.group(2)}{extra}"


def damage_dice(damage: str) -> tuple[int, int]:
    """(die sides, fixed part): '2' -> (0, 2), 'D6+1' -> (6, 1)."""
    if damage.startswith("D"):
        sides, _, plus = damage[1:].partition("+")
        return int(sides), int(plus or 0)
    return 0, int(damage)


WEAPON_HELP = ("One weapon system per line: name, Lock, Attacks, Damage, Arc, then any of 'close action', "
               "'launch', 'particle', 'calibre H' (tonnage letters L, M, H, S). Damage is a number, D3, D6 or "
               "D6+1; arcs are F, NF (narrow front), S (sides), R, FS (front and sides), A (all round). "
               "Example: 'Heavy railgun, 4+, 3, 1, F' or 'Flak turrets, 5+, 4, 1, A, close action'.")


def parse_weapon_line(line: str, index: int = 1) -> dict:
    """One weapon line as a weapon dict; ValueError in words for a line it cannot read."""
    parts = [p.strip() for p in line.split(",")]
    if len(parts) < 5:
        raise ValueError("give the name, Lock, Attacks, Damage and Arc, separated by commas")
    name, lock, attacks, damage, arc, *extras = parts
    if not name:
        raise ValueError("the weapon needs a name")
    try:
        lock_value = parse_save(lock)
    except ValueError:
        raise ValueError(f"Lock '{lock}' is not a value such as 4+") from None
    if not (attacks.isascii() and attacks.isdigit()) or not 1 <= int(attacks) <= 30:
        raise ValueError(f"Attacks '{attacks}' is not a whole number from 1 to 30")
    arc_key = arc.upper().replace("/", "")
    if arc_key not in tables.ARCS:
        raise ValueError(f"arc '{arc}' is not one of {', '.join(tables.ARCS)}")
    weapon = {"id": f"w{index}", "name": name, "lock": lock_value, "attacks": int(attacks),
              "damage": parse_damage(damage), "arc": arc_key,
              "close_action": False, "launch": False, "particle": False, "calibre": ""}
    for extra in extras:
        word = extra.lower().strip()
        if word in ("close action", "close-action", "ca"):
            weapon["close_action"] = True
        elif word in ("launch", "launch asset", "bombers", "torpedoes", "torpedo"):
            weapon["launch"] = True
        elif word == "particle":
            weapon["particle"] = True
        elif _CALIBRE.match(word):
            weapon["calibre"] = "".join(sorted(set(_CALIBRE.match(word).group(1).upper()), key="LMHS".index))
        elif word:
            raise ValueError(f"'{extra}' is not 'close action', 'launch', 'particle' or 'calibre X'")
    return weapon


def weapon_line(weapon: dict) -> str:
    """A weapon dict as the line a player would write."""
    parts = [weapon["name"], f"{weapon['lock']}+", str(weapon["attacks"]), str(weapon["damage"]), weapon.get("arc", "F")]
    if weapon.get("close_action"):
        parts.append("close action")
    if weapon.get("launch"):
        parts.append("launch")
    if weapon.get("particle"):
        parts.append("particle")
    if weapon.get("calibre"):
        parts.append(f"calibre {weapon['calibre']}")
    return ", ".join(parts)


def armour_line(armour, passive) -> str:
    text = "/".join(f"{a}+" for a in armour)
    return f"{text} (passive {passive}+)" if passive else text


def profile_from_stats(stats: dict) -> Profile:
    """The profile of a stats dict as the stat form leaves it."""
    weapons = tuple(
        Weapon(w.get("id") or f"w{i}", w["name"], int(w["lock"]), int(w["attacks"]), parse_damage(w["damage"]),
               w.get("arc", "F"), bool(w.get("close_action")), bool(w.get("launch")), bool(w.get("particle")),
               w.get("calibre", "") or "")
        for i, w in enumerate(stats.get("weapons") or [], start=1))
    armour = stats.get("armour") or [6]
    if isinstance(armour, (int, str)):
        armour = [armour]
    return Profile(
        name=stats.get("name", ""), tonnage=stats.get("tonnage", "L"), scan=int(stats.get("scan", 6)),
        signature=int(stats.get("signature", 4)), thrust=int(stats.get("thrust", 8)), hull=int(stats.get("hull", 4)),
        armour=tuple(int(a) for a in armour), passive=int(stats["passive"]) if stats.get("passive") else None,
        passive_switchable=bool(stats.get("passive_switchable")), shield_signature=int(stats.get("shield_signature") or 0),
        shields_block_pd=bool(stats.get("shields_block_pd")), pd=int(stats.get("pd", 0)),
        dreadnought=bool(stats.get("dreadnought")), atmospheric=bool(stats.get("atmospheric")),
        monitor=bool(stats.get("monitor")), weapons=weapons)


def validate_stats(stats: dict) -> list[str]:
    """Problems of a stats dict that no single field shows (empty when it is sound)."""
    problems = []
    if stats.get("dreadnought") and int(stats.get("hull", 0)) <= tables.DREADNOUGHT_THRESHOLDS[0]:
        problems.append("A Dreadnought needs more than 18 Hull: it is crippled at 18 and at 10.")
    if stats.get("passive_switchable") and not stats.get("passive"):
        problems.append("Switchable shields need a passive countermeasure save.")
    ids = [w.get("id") for w in stats.get("weapons") or []]
    if len(ids) != len(set(ids)):
        problems.append("Two weapon systems share an id.")
    return problems
