"""Damage (seed "2. COMBAT" steps 5-6, "5. DETERMINANT ELS DANYS"), ion cannons ("Canons d'ions")
and collisions ("Col·lisions accidentals"): shields, hull, the bands and the damage tables.

Functions named ``apply_*`` return a new state and its log lines; the others change, in place,
a state a rule has copied already (:func:`rulesets.starwars_d6.state.thaw`).
Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.dice import Dice
from rulesets.core.engine import Log
from rulesets.core.messages import Message, msg, msgn

from . import hexes, tables
from .dice import DiceCode, roll_code
from .checks import note_complication, roll_skill_and_factor
from .state import (CombatState, complication_choice, controls_dead, CONTROLS_DESTROYED,
    current_maneuverability, is_zero, roll_purpose, say_all, SEC_COLLISION, SEC_CUMULATIVE, SEC_IONISED, SEC_OVERLOAD,
    SEC_PROCEDURE, SEC_SCALE_DAMAGE, SEC_SEVERE, SEC_SHIELDS_BLOWN, Ship, thaw, update_holds,
    weapon_operative)


def capped_note(cap: int | None) -> Message | str:
    """" (dice over 3 count 3)" after a total the scale caps rolled (seed "6. ESCALES"); "" without a cap."""
    return "" if cap is None else msg("starwars_d6.words.capped", " (dice over {cap} count {cap})", cap=cap)


def say_complication(log: Log, r, purpose) -> None:
    """The Wild-Die complication line of a roll (``checks.note_complication``), said through the log."""
    lines: list = []
    note_complication(r, purpose, lines)
    say_all(log, lines)


def ionise(s: CombatState, sh: Ship, log: Log) -> None:
    """Seed 5. "Controls ionitzats": -1D maneuverability, fire control, damage this round and
    the next; maneuverability gone -> dead controls this round and the next two."""
    sh.ionised.append(s.round + tables.IONISED_ROUNDS_AFTER)
    sh.damage.append("controls_ionised")
    log.say(msg("starwars_d6.log.ionised", "{ship}: controls ionised (-1D until the end of round {round}).",
                ship=sh.name, round=s.round + 1), SEC_IONISED)
    # "perd totalment el seu factor": only a ship that had maneuverability dice can lose them all
    if not is_zero(sh.maneuverability) and current_maneuverability(sh, s.round).dice == 0:
        sh.controls_dead_until = s.round + tables.FULLY_IONISED_ROUNDS_AFTER
        log.say(msg("starwars_d6.log.fully_ionised", "{ship}: controls fully ionised -- it drifts, cannot turn, fire "
                    "or roll shields until the end of round {round}.", ship=sh.name, round=sh.controls_dead_until),
                SEC_IONISED)


def _lose_die(text: str) -> str:
    return str(DiceCode.parse(text) - 3)


def _pick(dice: Dice, items: list, purpose: Message, rule: str):
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
        log.say(msg("starwars_d6.log.table_no_effect", "{ship}: every system on the table is already inoperative -- "
                    "no effect.", ship=sh.name), SEC_CUMULATIVE)
        return None
    while True:
        face = dice.faces(1, 6, msg("starwars_d6.roll.damage_table", "{ship} damage table", ship=sh.name), rule)[0]
        if applies(sh, face):
            return table[face]
        log.say(msg("starwars_d6.log.table_again", "{ship}: {face} -- {result} already inoperative, rolled again.",
                    ship=sh.name, face=face, result=tables.RESULT_WORDS[table[face]]), SEC_CUMULATIVE)


def _apply_light(s, sh, dice, log) -> None:
    result = _roll_table(s, sh, dice, tables.LIGHT_DAMAGE, _light_applies, tables.SEC_LIGHT, log)
    if result is None:
        return
    sh.damage.append(result)
    text: Message = tables.RESULT_WORDS[result]
    if result == "maneuverability_-1D":
        sh.maneuverability = _lose_die(sh.maneuverability)
    elif result == "shields_-1D":
        sh.shields = _lose_die(sh.shields)
    elif result == "hull_-1D":
        sh.hull = _lose_die(sh.hull)
    else:
        w = _pick(dice, [w for w in sh.weapons if weapon_operative(w)],
                  msg("starwars_d6.roll.weapon_hit", "{ship} weapon hit", ship=sh.name), tables.SEC_LIGHT)
        if result == "weapon_disabled":
            w.disabled = True
        else:
            w.fire_control, w.fc_reduced = _lose_die(w.fire_control), True
        text = msg("starwars_d6.words.result_weapon", "{result} ({weapon})", result=text, weapon=w.name)
    log.say(msg("starwars_d6.log.light", "{ship}: light damage -- {result}.", ship=sh.name, result=text),
            tables.SEC_LIGHT)


def _apply_considerable(s, sh, dice, log) -> None:
    result = _roll_table(s, sh, dice, tables.CONSIDERABLE_DAMAGE, considerable_applies, tables.SEC_CONSIDERABLE, log)
    if result is None:
        return
    sh.damage.append(result)
    extra: Message | str = ""
    if result == "dead_in_space":
        sh.dead_in_space = True
    elif result == "generator_overload":
        sh.generator_overload_round = s.round + tables.GENERATOR_OVERLOAD_ROUNDS
        extra = msg("starwars_d6.words.explodes", " (explodes at the end of round {round})",
                    round=sh.generator_overload_round)
    elif result == "hyperdrive_out":
        sh.hyperdrive_out = True
    elif result == "weapons_out":
        for w in sh.weapons:
            w.disabled = True
    elif result == "structural_damage":
        n = dice.faces(1, 6, msg("starwars_d6.roll.evacuate", "{ship} rounds to evacuate", ship=sh.name),
                       tables.SEC_CONSIDERABLE)[0]
        sh.structural_round = s.round + n
        extra = msgn("starwars_d6.words.evacuate", " ({count} round to evacuate: it breaks up at the end of round {round})",
                     " ({count} rounds to evacuate: it breaks up at the end of round {round})", n,
                     round=sh.structural_round)
    elif result == "destroyed":
        sh.destroyed = True
    log.say(msg("starwars_d6.log.considerable", "{ship}: considerable damage -- {result}{extra}.", ship=sh.name,
                result=tables.RESULT_WORDS[result], extra=extra), tables.SEC_CONSIDERABLE)


def defence_cap(target: Ship, attacker_scales) -> int | None:
    """Seed "6. ESCALES": the cap on the target's shield and hull dice against these attackers.
    decision: with hits of several scales summed, the strictest cap of any of them applies."""
    caps = [tables.DEFENCE_CAP[(target.scale, a)] for a in attacker_scales if (target.scale, a) in tables.DEFENCE_CAP]
    return min(caps) if caps else None


def apply_ion(state: CombatState, target_id: str, ion_damage: int, dice: Dice, *,
              attacker_scales=()) -> tuple[CombatState, Log]:
    """Seed "3. CASOS ESPECIALS: Canons d'ions": no shields; the hull roll against the ion damage.
    Hull greater: nothing; ion damage >= hull: the table on (ion - hull) -- 1-4 controls ionised
    (each as seed 5. "Controls ionitzats") or 21+ controls destroyed."""
    s = thaw(state)
    log = Log(dice.recording)
    ion_ship(s, s.ship(target_id), ion_damage, dice, attacker_scales, log)
    return s, log


def ion_ship(s: CombatState, sh: Ship, ion_damage: int, dice: Dice, attacker_scales, log: Log) -> None:
    """:func:`apply_ion` on ``s`` in place (the firing phase's resolution has copied it already)."""
    cap = defence_cap(sh, attacker_scales)
    purpose = roll_purpose("starwars_d6.roll.hull_ions", "{ship} hull against ions", ship=sh.name)
    hull = roll_code(dice, sh.hull, wild=s.wild, cap=cap, purpose=purpose, rule=tables.SEC_ION,
                     complication=complication_choice(s))
    notes: list = []
    note_complication(hull, purpose, notes)
    margin = ion_damage - hull.total
    if margin < 0:
        log.say(msg("starwars_d6.log.ion_no_effect", "{ship}'s hull ({hull}) is greater than the ion damage {damage}: "
                    "no effect.", ship=sh.name, hull=hull.total, damage=ion_damage), tables.SEC_ION)
        say_all(log, notes)
        return
    n = tables.ion_result(margin)
    words = dict(ship=sh.name, damage=ion_damage, hull=hull.total, margin=margin)
    log.say(msg("starwars_d6.log.ion", "{ship}: ion {damage} against hull {hull}, margin {margin} -- {count} controls "
                "ionised.", count=n, **words) if n else
            msg("starwars_d6.log.ion_destroyed", "{ship}: ion {damage} against hull {hull}, margin {margin} -- "
                "controls destroyed.", **words), tables.SEC_ION)
    say_all(log, notes)
    if n is None:
        sh.controls_dead_until = CONTROLS_DESTROYED
        sh.damage.append("controls_destroyed")
        log.say(msg("starwars_d6.log.controls_destroyed", "{ship}'s controls are destroyed: it drifts, cannot turn, "
                    "fire or roll shields for the rest of the fight.", ship=sh.name), tables.SEC_ION)
    else:
        for _ in range(n):
            ionise(s, sh, log)


def apply_damage(state: CombatState, target_id: str, total: int, dice: Dice, *,
                 attacker_scales=()) -> tuple[CombatState, Log]:
    """Seed "2. COMBAT" steps 5-6 and "5. DETERMINANT ELS DANYS": one (summed) damage total on a ship.

    Shields: the defender rolls shields skill + shields; equal or more stops it (a 0D shield
    is inoperative and not rolled).  Through = damage - shields.  Hull roll; the band is read
    on (through - hull) when 0 or more (RULES-NOTES).
    """
    s = thaw(state)
    log = Log(dice.recording)
    damage_ship(s, s.ship(target_id), total, dice, attacker_scales, log)
    return s, log


def damage_ship(s: CombatState, sh: Ship, total: int, dice: Dice, attacker_scales, log: Log) -> None:
    """:func:`apply_damage` on ``s`` in place (collisions use it within a movement)."""
    cap = defence_cap(sh, attacker_scales)
    rule = SEC_SCALE_DAMAGE if cap is not None else SEC_PROCEDURE
    through = total
    if not is_zero(sh.shields) and not controls_dead(sh, s.round) and not sh.generator_shutdown:
        notes: list = []
        r = roll_skill_and_factor(dice, sh.crew.shields, sh.shields, cap=cap, wild=s.wild,
                                  purpose=roll_purpose("starwars_d6.roll.shields", "{ship} shields", ship=sh.name),
                                  rule=rule,
                                  complication=complication_choice(s), notes=notes)
        if r >= total:
            log.say(msg("starwars_d6.log.shields_stop", "{ship}'s shields ({roll}) stop {damage} damage.", ship=sh.name,
                        roll=r, damage=total), SEC_PROCEDURE)
            say_all(log, notes)
            return
        through = total - r
        log.say(msg("starwars_d6.log.shields_through", "{ship}'s shields roll {roll}: {through} of {damage} gets "
                    "through.", ship=sh.name, roll=r, through=through, damage=total), SEC_PROCEDURE)
        say_all(log, notes)
    elif not is_zero(sh.shields) and sh.generator_shutdown:
        log.say(msg("starwars_d6.log.shields_off", "{ship}'s shields are off (generator shut down).", ship=sh.name),
                SEC_OVERLOAD)
    purpose = roll_purpose("starwars_d6.roll.hull", "{ship} hull", ship=sh.name)
    hull = roll_code(dice, sh.hull, wild=s.wild, cap=cap, purpose=purpose, rule=rule,
                     complication=complication_choice(s))
    margin = through - hull.total
    band = tables.damage_band(margin)
    if band is None:
        log.say(msg("starwars_d6.log.hull_holds", "{ship}'s hull ({hull}) holds against {damage}.", ship=sh.name,
                    hull=hull.total, damage=through), tables.SEC_DAMAGE)
        say_complication(log, hull, purpose)
        return
    log.say(msg("starwars_d6.log.hull_margin", "{ship}: {damage} against hull {hull}, margin {margin} -- {band}.",
                ship=sh.name, damage=through, hull=hull.total, margin=margin, band=tables.DAMAGE_WORDS[band]),
            tables.SEC_DAMAGE)
    say_complication(log, hull, purpose)
    if sh.severe and band in ("light", "considerable", "severe"):
        band = "destroyed"
        log.say(msg("starwars_d6.log.severe_destroys", "{ship} was severely damaged: this hit destroys it.",
                    ship=sh.name), SEC_SEVERE)
    if band == "shields_blown":
        if is_zero(sh.shields):
            ionise(s, sh, log)
        else:
            sh.shields = _lose_die(sh.shields)
            sh.damage.append("shields_blown")
            log.say(msg("starwars_d6.log.shields_blown", "{ship}: shields blown, -1D (now {shields}).", ship=sh.name,
                        shields=sh.shields), SEC_SHIELDS_BLOWN)
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
        log.say(msg("starwars_d6.log.destroyed", "{ship} is destroyed.", ship=sh.name), tables.SEC_DAMAGE)
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


def _collision_damage(s: CombatState, victim: Ship, cause, kind: str, dice: Dice, log: Log,
                      rule: str) -> None:
    """One ship's collision damage: the kind's code (with the scale cap of the ship it hit, decision),
    then shields, hull and the damage table as for a hit (:func:`apply_damage`)."""
    if not victim.in_play:
        return
    scales = [cause.scale] if isinstance(cause, Ship) else []
    cap = tables.DAMAGE_CAP.get((cause.scale, victim.scale)) if isinstance(cause, Ship) else None
    what = cause.name if isinstance(cause, Ship) else cause.label
    if cap == 0:
        log.say(msg("starwars_d6.log.collision_no_damage", "{what} cannot cause {ship} significant damage.", what=what,
                    ship=victim.name), SEC_SCALE_DAMAGE)
        return
    code = collision_code(kind)
    purpose = roll_purpose("starwars_d6.roll.collision", "{ship} collision damage", ship=victim.name)
    r = roll_code(dice, code, wild=s.wild, cap=cap, purpose=purpose,
                  rule=SEC_SCALE_DAMAGE if cap is not None else rule, complication=complication_choice(s))
    total = r.total
    log.say(msg("starwars_d6.log.collision_damage", "{ship} takes {code} collision damage from {what}: "
                "{damage}{capped}.", ship=victim.name, code=str(code), what=what, damage=total,
                capped=capped_note(cap)), SEC_COLLISION)
    say_complication(log, r, purpose)
    damage_ship(s, victim, total, dice, scales, log)


def collide(s: CombatState, mover: Ship, other, came_from: hexes.Hex, dice: Dice, log: Log,
             rule: str, kind: str | None = None) -> str:
    """Seed "Col·lisions accidentals": both ships take 5D modified by the kind of the collision
    (decision: one kind for the collision); the ship that was hit rolls first.  A feature takes
    nothing.  Changes ``s`` in place; returns the kind."""
    kind = kind or collision_kind_of(mover, other, came_from)
    what = other.name if isinstance(other, Ship) else other.label
    log.say(msg("starwars_d6.log.collision", "Collision of {ship} with {what}: {kind}.", ship=mover.name, what=what,
                kind=tables.COLLISION_WORDS[kind]), rule)
    if isinstance(other, Ship):
        _collision_damage(s, other, mover, kind, dice, log, rule)
    _collision_damage(s, mover, other, kind, dice, log, rule)
    return kind
