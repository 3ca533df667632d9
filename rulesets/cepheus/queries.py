"""What the rules ask of a state: who holds a position, what a weapon reaches, an attack's DMs.

Read-only helpers shared by the turn sequence, the action list, the odds and the bot.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rulesets.core.check import Modifier
from rulesets.core.messages import Message, msg

from .crew import GUNNER_POSITIONS, able
from .tables import (
    ATTACK_DIFFICULTY, BANDS, BAND_LABEL, DIFFICULTY, DIFFICULTY_LABEL, MISSILE_TURNS, SCALED_TO_HIT_DM, SEC,
    WEAPONS,
)

if TYPE_CHECKING:
    from .state import CombatState, Crew, Missile, Mount, Pending, PersonalTarget, Ship


#: the actor of the GM's own steps (the override)
GM = "gm"

#: Intercettare: the one-time DM+4 against the enemy whose intentions were read
INTEL = Modifier(msg("cepheus.mod.intel", "intercepted intentions"), 4, SEC["intercept"])

#: the labels of an attack's and a sensor check's modifiers
ELECTRONICS = msg("cepheus.mod.electronics", "electronics")
SENSORS_DAMAGED = msg("cepheus.mod.sensors_damaged", "sensors damaged")
SENSOR_TARGETING = msg("cepheus.mod.sensor_targeting", "sensor targeting")
LINED_UP = msg("cepheus.mod.lined_up", "lined up")
PURSUIT = msg("cepheus.mod.pursuit", "pursuit")
DAMAGED_MOUNT = msg("cepheus.mod.damaged_mount", "damaged mount")
BRIDGE_DISABLED = msg("cepheus.mod.bridge_disabled", "bridge disabled")
PERSONAL_SCALE = msg("cepheus.mod.personal_scale", "personal-scale target")
TARGET_EVASIVE = msg("cepheus.mod.target_evasive", "target evasive")
TARGET_DODGES = msg("cepheus.mod.target_dodges", "target dodges")


def fire_control(ship: Ship) -> Message:
    """The Fire Control modifier's label: "Fire Control/2"."""
    return _fire_control(ship.fire_control)


@lru_cache(maxsize=16)
def _fire_control(n: int) -> Message:
    return msg("cepheus.mod.fire_control", "Fire Control/{n}", n=n)


def band_index(band: str) -> int:
    return BANDS.index(band)


def enemies(s: CombatState, ship: Ship) -> list[Ship]:
    side = ship.side
    return [o for o in s.ships if o.side != side and o.alive]


def eff_init(s: CombatState, ship: Ship) -> int:
    tactics = s.tactics.get(ship.side, 0)
    if ship.jammed and sum(1 for o in s.ships if o.side == ship.side and o.alive) > 1:
        tactics = 0  # Mantieni le comunicazioni: a fleet without comms has no Tactics
    return ship.initiative + tactics + ship.boost


def bridge_ok(ship: Ship) -> bool:
    return ship.hits.get("bridge", 0) < 2


def sensors_ok(ship: Ship) -> bool:
    return ship.hits.get("sensors", 0) < 2


def sensor_dm(ship: Ship) -> list:
    out = [(ELECTRONICS, ship.electronics)] if ship.electronics else []
    if ship.hits.get("sensors", 0) == 1:
        out.append((SENSORS_DAMAGED, -2))
    return out


def manned(ship: Ship, mount_id: str) -> Crew | None:
    best = None
    for c in ship.crew:
        if c.station == mount_id and c.position in GUNNER_POSITIONS and able(c):
            if not c.automated:
                return c
            best = best or c
    return best


def gunners_by_mount(ship: Ship) -> dict[str, Crew]:
    """:func:`manned` for every mount at once, by mount id (one pass over the crew)."""
    out: dict[str, Crew] = {}
    for c in ship.crew:
        if c.position in GUNNER_POSITIONS and able(c):
            have = out.get(c.station)
            if have is None or (have.automated and not c.automated):
                out[c.station] = c
    return out


def pilot_of(ship: Ship) -> Crew | None:
    auto = None
    for c in ship.crew:
        if c.position == "pilot" and able(c):
            if not c.automated:
                return c
            auto = c
    return auto


def role_active(ship: Ship, c: Crew) -> bool:
    """Automated positions act only where no crew member holds the position."""
    if not c.automated:
        return able(c)
    if not able(c):
        return False
    if c.automated == "pilot":
        return pilot_of(ship) is c
    if c.automated == "gunner":
        return manned(ship, c.station) is c
    if c.automated == "engineer":
        return not any(o.position == "engineer" and not o.automated and able(o) for o in ship.crew)
    return True


def salvo(mount: Mount, usable: list[int]) -> list[int]:
    """The weapons an attack with ``weapon=all`` fires: every usable one but the sandcasters (kept for
    reactions), or the sandcasters when they are all there is."""
    return [i for i in usable if mount.weapons[i].type != "sandcaster"] or usable


def usable_weapons(s: CombatState, ship: Ship, mount: Mount, band: str, personal: bool = False) -> list[int]:
    if mount.hits >= 2:
        return []
    out = []
    for i, w in enumerate(mount.weapons):
        kind = WEAPONS[w.type]
        if kind.ammo and w.loaded <= 0:
            continue
        if kind.missile:
            # Tabella: Gittata di Lancio dei Missili; missiles also at personal scale (Danno in scala)
            if MISSILE_TURNS[band] is None:
                continue
        elif ATTACK_DIFFICULTY[kind.row][band] is None:
            continue
        out.append(i)
    return out


def pursuit_dm(ship: Ship, target_id: str) -> int:
    return min(4, ship.pursuit_turns) if ship.pursuing == target_id else 0


def attack_mods(s: CombatState, ship: Ship, crew: Crew, mount: Mount, target_id: str, weapon: str,
                launch: bool = False, dodge: int = 0, personal: bool = False,
                situation: list | None = None) -> list:
    """Attacco: every DM of an attack roll except skill, characteristic, hasty, coordination: the
    weapon's difficulty at the band (:func:`attack_difficulty`) and the situation's DMs
    (:func:`attack_situation`), as named modifiers (:class:`rulesets.core.check.Modifier`).

    ``situation``: :func:`attack_situation` already worked out for this attack (a salvo's
    weapons share it).
    """
    if launch:
        return [m for m in (situation if situation is not None else
                            attack_situation(s, ship, mount, target_id, launch, dodge, personal)) if m.value]
    band = band_to(s, ship, target_id)
    diff = difficulty_of(weapon, band)
    extra = [ATTACK_DM[diff, band]]
    extra += situation if situation is not None else attack_situation(s, ship, mount, target_id, launch, dodge,
                                                                      personal)
    return [m for m in extra if m.value]


#: an attack's difficulty at a band, as its modifier: "Average (+0) at Short"
ATTACK_DM = {(diff, band): Modifier(msg("cepheus.mod.attack_difficulty", "{difficulty} at {band}",
                                        difficulty=DIFFICULTY_LABEL[diff], band=BAND_LABEL[band]), DIFFICULTY[diff])
             for diff in DIFFICULTY for band in BANDS}


def difficulty_of(weapon: str, band: str) -> str:
    """The difficulty of firing ``weapon`` at ``band`` (Tabella: Difficoltà d'attacco); KeyError for a
    blank cell (the weapon cannot fire at this band)."""
    diff = ATTACK_DIFFICULTY[WEAPONS[weapon].row][band]
    if diff is None:
        raise KeyError(None)
    return diff


def attack_difficulty(weapon: str, band: str) -> int:
    """The difficulty DM of firing ``weapon`` at ``band`` (:func:`difficulty_of`; a launch is Average)."""
    return DIFFICULTY[difficulty_of(weapon, band)]


def attack_situation(s: CombatState, ship: Ship, mount: Mount, target_id: str, launch: bool = False,
                     dodge: int = 0, personal: bool = False) -> list:
    """Attacco: the DMs of an attack roll that depend neither on the weapon nor on the gunner (Fire
    Control, sensor lock, lining up, pursuit, damage, intercepted intentions, the target's evasion and
    dodge, the personal scale)."""
    extra = [Modifier(fire_control(ship), ship.fire_control),
             Modifier(SENSOR_TARGETING, ship.targeting.get(target_id, 0)),
             Modifier(LINED_UP, ship.lined_up),
             Modifier(PURSUIT, pursuit_dm(ship, target_id))]
    if mount.hits == 1:
        extra.append(Modifier(DAMAGED_MOUNT, -2))
    if not bridge_ok(ship):
        extra.append(Modifier(BRIDGE_DISABLED, -2))
    if ship.intel and ship.intel == target_id:
        extra.append(INTEL)
    if personal:
        extra.append(Modifier(PERSONAL_SCALE, SCALED_TO_HIT_DM))
    elif not launch:
        target = s.find_ship(target_id)
        if target is not None:
            extra.append(Modifier(TARGET_EVASIVE, target.evasive))
        extra.append(Modifier(TARGET_DODGES, dodge))
    return extra


def band_to(s: CombatState, ship: Ship, target_id: str) -> str:
    for p in s.personal:
        if p.id == target_id:
            return p.band
    return s.band(ship.id, target_id)


def personal_target(s: CombatState, target_id: str) -> PersonalTarget | None:
    """The personal-scale target with this id (Danno in scala), or None for a ship."""
    for p in s.personal:
        if p.id == target_id:
            return p
    return None


def target_name(s: CombatState, target_id: str) -> str:
    """The name of a ship or a personal-scale target."""
    ship = s.find_ship(target_id)
    if ship is not None:
        return ship.name
    p = personal_target(s, target_id)
    return p.name if p is not None else "?"


def find_missile(s: CombatState, mid: str) -> Missile | None:
    for m in s.missiles:
        if m.id == mid:
            return m
    return None


def navigator_of(ship: Ship) -> Crew | None:
    for pos in ("navigator", "pilot"):
        for c in ship.crew:
            if c.position == pos and able(c) and role_active(ship, c):
                return c
    return None


def sensor_operator(ship: Ship) -> Crew | None:
    for c in ship.crew:
        if c.position == "sensors" and able(c):
            return c
    return None


def boarding_leader(ship: Ship) -> Crew | None:
    for pos in ("security", "captain"):
        for c in ship.crew:
            if c.position == pos and able(c):
                return c
    return None


def jump_fuel(ship: Ship) -> int:
    """Decision: a jump-1 needs 10% of the hull's tonnage in fuel."""
    return max(1, ship.tonnage // 10)


def intel_dm(ship: Ship, enemy_id: str) -> list:
    return [INTEL] if ship.intel and ship.intel == enemy_id else []


def uses_intel(mods) -> bool:
    """Whether a check's modifiers hold the intercepted intentions' DM (:data:`INTEL` itself: the one
    modifier every rule adds for it)."""
    return any(m is INTEL for m in mods)


def range_ok(s: CombatState, p: Pending, want: str) -> bool:
    i = band_index(s.band(p.attacker, p.target))
    return not ((want == "closer" and i == 0) or (want == "farther" and i == len(BANDS) - 1))
