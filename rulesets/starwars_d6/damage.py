"""Damage (seed "2. COMBAT" steps 5-6, "5. DETERMINANT ELS DANYS"), ion cannons ("Canons d'ions")
and collisions ("Col·lisions accidentals"): shields, hull, the bands and the damage tables.

Functions named ``apply_*`` return a new state and its log lines; the others change, in place,
a state a rule has copied already (:func:`rulesets.starwars_d6.state.thaw`).
Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.dice import Dice
from rulesets.core.engine import LogEntry
from rulesets.core.words import count

from . import hexes, tables
from .dice import DiceCode, roll_code
from .checks import note_complication, roll_skill_and_factor
from .state import (CombatState, complication_choice, controls_dead, CONTROLS_DESTROYED,
    current_maneuverability, is_zero, SEC_COLLISION, SEC_CUMULATIVE, SEC_IONISED, SEC_OVERLOAD,
    SEC_PROCEDURE, SEC_SCALE_DAMAGE, SEC_SEVERE, SEC_SHIELDS_BLOWN, Ship, thaw, update_holds,
    weapon_operative)


def ionise(s: CombatState, sh: Ship, log: list[LogEntry]) -> None:
    """Seed 5. "Controls ionitzats": -1D maneuverability, fire control, damage this round and
    the next; maneuverability gone -> dead controls this round and the next two."""
    sh.ionised.append(s.round + tables.IONISED_ROUNDS_AFTER)
    sh.damage.append("controls_ionised")
    log.append(LogEntry(f"{sh.name}: controls ionised (-1D until the end of round {s.round + 1}).", SEC_IONISED))
    # "perd totalment el seu factor": only a ship that had maneuverability dice can lose them all
    if not is_zero(sh.maneuverability) and current_maneuverability(sh, s.round).dice == 0:
        sh.controls_dead_until = s.round + tables.FULLY_IONISED_ROUNDS_AFTER
        log.append(LogEntry(f"{sh.name}: controls fully ionised -- it drifts, cannot turn, fire or roll "
                            f"shields until the end of round {sh.controls_dead_until}.", SEC_IONISED))


def _lose_die(text: str) -> str:
    return str(DiceCode.parse(text) - 3)


def _pick(dice: Dice, items: list, purpose: str, rule: str):
    """decision: "escollit a l'atzar" -- one die with as many sides as candidates."""
    if len(items) == 1:
        return items[0]
    return items[dice.faces(1, len(items), purpose, rule)[0] - 1]


def _light_applies(sh: Ship, face: int) -> bool:
    result = tables.LIGHT_DAMAGE[face]
    live = [w for w in sh.weapons if weapon_operative(w)]
    return {"maneuverability_-1D": not is_zero(sh.maneuverability), "weapon_disabled": bool(live),
            "weapon_fire_control_-1D": bool(live), "shields_-1D": not is_zero(sh.shields),
            "hull_-1D": not is_zero(sh.hull)}[result]


def considerable_applies(sh: Ship, face: int) -> bool:
    result = tables.CONSIDERABLE_DAMAGE[face]
    return {"dead_in_space": not sh.dead_in_space,
            "generator_overload": sh.generator_overload_round is None and not sh.generator_shutdown,
            "hyperdrive_out": bool(sh.hyperdrive) and not sh.hyperdrive_out,
            "weapons_out": any(not w.disabled for w in sh.weapons),
            "structural_damage": sh.structural_round is None, "destroyed": True}[result]


def _roll_table(s, sh, dice, table, applies, rule, log) -> str | None:
    """Roll 1D6 on a table, rolling again while the result hits a system already inoperative
    (seed 5. "es torna a repetir la tirada").  decision: with no result able to apply, nothing."""
    if not any(applies(sh, f) for f in table):
        log.append(LogEntry(f"{sh.name}: every system on the table is already inoperative -- no effect.",
                            SEC_CUMULATIVE))
        return None
    while True:
        face = dice.faces(1, 6, f"{sh.name} damage table", rule)[0]
        if applies(sh, face):
            return table[face]
        log.append(LogEntry(f"{sh.name}: {face} -- {tables.RESULT_LABEL[table[face]]} already inoperative, "
                            "rolled again.", SEC_CUMULATIVE))


def _apply_light(s, sh, dice, log) -> None:
    result = _roll_table(s, sh, dice, tables.LIGHT_DAMAGE, _light_applies, tables.SEC_LIGHT, log)
    if result is None:
        return
    sh.damage.append(result)
    text = tables.RESULT_LABEL[result]
    if result == "maneuverability_-1D":
        sh.maneuverability = _lose_die(sh.maneuverability)
    elif result == "shields_-1D":
        sh.shields = _lose_die(sh.shields)
    elif result == "hull_-1D":
        sh.hull = _lose_die(sh.hull)
    else:
        w = _pick(dice, [w for w in sh.weapons if weapon_operative(w)], f"{sh.name} weapon hit", tables.SEC_LIGHT)
        if result == "weapon_disabled":
            w.disabled = True
        else:
            w.fire_control, w.fc_reduced = _lose_die(w.fire_control), True
        text += f" ({w.name})"
    log.append(LogEntry(f"{sh.name}: light damage -- {text}.", tables.SEC_LIGHT))


def _apply_considerable(s, sh, dice, log) -> None:
    result = _roll_table(s, sh, dice, tables.CONSIDERABLE_DAMAGE, considerable_applies, tables.SEC_CONSIDERABLE, log)
    if result is None:
        return
    sh.damage.append(result)
    extra = ""
    if result == "dead_in_space":
        sh.dead_in_space = True
    elif result == "generator_overload":
        sh.generator_overload_round = s.round + tables.GENERATOR_OVERLOAD_ROUNDS
        extra = f" (explodes at the end of round {sh.generator_overload_round})"
    elif result == "hyperdrive_out":
        sh.hyperdrive_out = True
    elif result == "weapons_out":
        for w in sh.weapons:
            w.disabled = True
    elif result == "structural_damage":
        n = dice.faces(1, 6, f"{sh.name} rounds to evacuate", tables.SEC_CONSIDERABLE)[0]
        sh.structural_round = s.round + n
        extra = f" ({count(n, 'round')} to evacuate: it breaks up at the end of round {sh.structural_round})"
    elif result == "destroyed":
        sh.destroyed = True
    log.append(LogEntry(f"{sh.name}: considerable damage -- {tables.RESULT_LABEL[result]}{extra}.", tables.SEC_CONSIDERABLE))


def defence_cap(target: Ship, attacker_scales) -> int | None:
    """Seed "6. ESCALES": the cap on the target's shield and hull dice against these attackers.
    decision: with hits of several scales summed, the strictest cap of any of them applies."""
    caps = [tables.DEFENCE_CAP[(target.scale, a)] for a in attacker_scales if (target.scale, a) in tables.DEFENCE_CAP]
    return min(caps) if caps else None


def apply_ion(state: CombatState, target_id: str, ion_damage: int, dice: Dice, *,
              attacker_scales=()) -> tuple[CombatState, list[LogEntry]]:
    """Seed "3. CASOS ESPECIALS: Canons d'ions": no shields; the hull roll against the ion damage.
    Hull greater: nothing; ion damage >= hull: the table on (ion - hull) -- 1-4 controls ionised
    (each as seed 5. "Controls ionitzats") or 21+ controls destroyed."""
    s = thaw(state)
    log: list[LogEntry] = []
    ion_ship(s, s.ship(target_id), ion_damage, dice, attacker_scales, log)
    return s, log


def ion_ship(s: CombatState, sh: Ship, ion_damage: int, dice: Dice, attacker_scales, log: list[LogEntry]) -> None:
    """:func:`apply_ion` on ``s`` in place (the firing phase's resolution has copied it already)."""
    cap = defence_cap(sh, attacker_scales)
    hull = roll_code(dice, sh.hull, wild=s.wild, cap=cap, purpose=f"{sh.name} hull against ions",
                     rule=tables.SEC_ION, complication=complication_choice(s))
    notes: list[LogEntry] = []
    note_complication(hull, f"{sh.name} hull against ions", notes)
    margin = ion_damage - hull.total
    if margin < 0:
        log.append(LogEntry(f"{sh.name}'s hull ({hull.total}) is greater than the ion damage {ion_damage}: "
                            "no effect.", tables.SEC_ION))
        log.extend(notes)
        return
    n = tables.ion_result(margin)
    log.append(LogEntry(f"{sh.name}: ion {ion_damage} against hull {hull.total}, margin {margin} -- "
                        + (f"{n} controls ionised." if n else "controls destroyed."), tables.SEC_ION))
    log.extend(notes)
    if n is None:
        sh.controls_dead_until = CONTROLS_DESTROYED
        sh.damage.append("controls_destroyed")
        log.append(LogEntry(f"{sh.name}'s controls are destroyed: it drifts, cannot turn, fire or roll "
                            "shields for the rest of the fight.", tables.SEC_ION))
    else:
        for _ in range(n):
            ionise(s, sh, log)


def apply_damage(state: CombatState, target_id: str, total: int, dice: Dice, *,
                 attacker_scales=()) -> tuple[CombatState, list[LogEntry]]:
    """Seed "2. COMBAT" steps 5-6 and "5. DETERMINANT ELS DANYS": one (summed) damage total on a ship.

    Shields: the defender rolls shields skill + shields; equal or more stops it (a 0D shield
    is inoperative and not rolled).  Through = damage - shields.  Hull roll; the band is read
    on (through - hull) when 0 or more (RULES-NOTES).
    """
    s = thaw(state)
    log: list[LogEntry] = []
    damage_ship(s, s.ship(target_id), total, dice, attacker_scales, log)
    return s, log


def damage_ship(s: CombatState, sh: Ship, total: int, dice: Dice, attacker_scales, log: list[LogEntry]) -> None:
    """:func:`apply_damage` on ``s`` in place (collisions use it within a movement)."""
    cap = defence_cap(sh, attacker_scales)
    rule = SEC_SCALE_DAMAGE if cap is not None else SEC_PROCEDURE
    through = total
    if not is_zero(sh.shields) and not controls_dead(sh, s.round) and not sh.generator_shutdown:
        notes: list[LogEntry] = []
        r = roll_skill_and_factor(dice, sh.crew.shields, sh.shields, cap=cap, wild=s.wild,
                                  purpose=f"{sh.name} shields", rule=rule, complication=complication_choice(s), notes=notes)
        if r >= total:
            log.append(LogEntry(f"{sh.name}'s shields ({r}) stop {total} damage.", SEC_PROCEDURE))
            log.extend(notes)
            return
        through = total - r
        log.append(LogEntry(f"{sh.name}'s shields roll {r}: {through} of {total} gets through.", SEC_PROCEDURE))
        log.extend(notes)
    elif not is_zero(sh.shields) and sh.generator_shutdown:
        log.append(LogEntry(f"{sh.name}'s shields are off (generator shut down).", SEC_OVERLOAD))
    hull = roll_code(dice, sh.hull, wild=s.wild, cap=cap, purpose=f"{sh.name} hull", rule=rule,
                     complication=complication_choice(s))
    margin = through - hull.total
    band = tables.damage_band(margin)
    if band is None:
        log.append(LogEntry(f"{sh.name}'s hull ({hull.total}) holds against {through}.", tables.SEC_DAMAGE))
        note_complication(hull, f"{sh.name} hull", log)
        return
    log.append(LogEntry(f"{sh.name}: {through} against hull {hull.total}, margin {margin} -- "
                        f"{tables.DAMAGE_LABEL[band]}.", tables.SEC_DAMAGE))
    note_complication(hull, f"{sh.name} hull", log)
    if sh.severe and band in ("light", "considerable", "severe"):
        band = "destroyed"
        log.append(LogEntry(f"{sh.name} was severely damaged: this hit destroys it.", SEC_SEVERE))
    if band == "shields_blown":
        if is_zero(sh.shields):
            ionise(s, sh, log)
        else:
            sh.shields = _lose_die(sh.shields)
            sh.damage.append("shields_blown")
            log.append(LogEntry(f"{sh.name}: shields blown, -1D (now {sh.shields}).", SEC_SHIELDS_BLOWN))
    elif band == "light":
        _apply_light(s, sh, dice, log)
    elif band == "considerable":
        _apply_considerable(s, sh, dice, log)
    elif band == "severe":
        sh.severe = True
        sh.damage.append("severe")
        for _ in range(tables.SEVERE_ROLLS):
            if not sh.destroyed:
                _apply_considerable(s, sh, dice, log)
    else:
        sh.destroyed = True
        sh.damage.append("destroyed")
    if sh.destroyed:
        log.append(LogEntry(f"{sh.name} is destroyed.", tables.SEC_DAMAGE))
    update_holds(s, log)


def collision_code(kind: str) -> DiceCode:
    """Seed "Col·lisions accidentals": 5D, +3D head-on or diagonally from the front, -3D from
    behind or diagonally from behind, T-collision unmodified."""
    return DiceCode.parse(tables.COLLISION_DAMAGE) + tables.COLLISION_MODIFIER[kind]


def collision_kind_of(mover: Ship, other, came_from: hexes.Hex) -> str:
    """The kind of the collision of ``mover`` (coming from the adjacent hex ``came_from``) with
    ``other`` (a ship, or a feature: no course, T-collision) -- :func:`hexes.collision_kind`."""
    if not isinstance(other, Ship):
        return hexes.collision_kind(mover.facing, None)
    return hexes.collision_kind(mover.facing, other.facing, hexes.relative_side(other.pos, other.facing, came_from))


def _collision_damage(s: CombatState, victim: Ship, cause, kind: str, dice: Dice, log: list[LogEntry],
                      rule: str) -> None:
    """One ship's collision damage: the kind's code (with the scale cap of the ship it hit, decision),
    then shields, hull and the damage table as for a hit (:func:`apply_damage`)."""
    if not victim.in_play:
        return
    scales = [cause.scale] if isinstance(cause, Ship) else []
    cap = tables.DAMAGE_CAP.get((cause.scale, victim.scale)) if isinstance(cause, Ship) else None
    what = cause.name if isinstance(cause, Ship) else cause.label
    if cap == 0:
        log.append(LogEntry(f"{what} cannot cause {victim.name} significant damage.", SEC_SCALE_DAMAGE))
        return
    code = collision_code(kind)
    r = roll_code(dice, code, wild=s.wild, cap=cap, purpose=f"{victim.name} collision damage",
                  rule=SEC_SCALE_DAMAGE if cap is not None else rule, complication=complication_choice(s))
    total = r.total
    capped = f" (dice over {cap} count {cap})" if cap is not None else ""
    log.append(LogEntry(f"{victim.name} takes {code} collision damage from {what}: {total}{capped}.", SEC_COLLISION))
    note_complication(r, f"{victim.name} collision damage", log)
    damage_ship(s, victim, total, dice, scales, log)


def collide(s: CombatState, mover: Ship, other, came_from: hexes.Hex, dice: Dice, log: list[LogEntry],
             rule: str, kind: str | None = None) -> str:
    """Seed "Col·lisions accidentals": both ships take 5D modified by the kind of the collision
    (decision: one kind for the collision); the ship that was hit rolls first.  A feature takes
    nothing.  Changes ``s`` in place; returns the kind."""
    kind = kind or collision_kind_of(mover, other, came_from)
    what = other.name if isinstance(other, Ship) else other.label
    log.append(LogEntry(f"Collision of {mover.name} with {what}: {tables.COLLISION_LABEL[kind]}.", rule))
    if isinstance(other, Ship):
        _collision_damage(s, other, mover, kind, dice, log, rule)
    _collision_damage(s, mover, other, kind, dice, log, rule)
    return kind
