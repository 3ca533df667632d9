"""The firing phase (seed "2. COMBAT", "4. SEQÜENCIA DE JOC: Fase de foc"): who may shoot what,
the attack and evasion rolls, broadsides ("Factors de Foc per les Naus Capitals"), and the
resolution of the simultaneous fire once every ship has fired.
Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.dice import Dice
from rulesets.core.engine import Log
from rulesets.core.messages import Message, msg, msgn

from . import hexes, tables
from .dice import DiceCode, roll_code
from .checks import attack, evasion, note_complication, roll_declared
from .damage import capped_note, damage_ship, ion_ship
from .state import (own, CombatState, complication_choice, controls_dead, current_damage,
    current_fire_control, current_maneuverability, roll_purpose, say_all, feature_hexes, SEC_FIRING_PHASE, SEC_PROCEDURE,
    SEC_SCALE_DAMAGE, SEC_TRACTOR, Ship, Shot, sides_in_play, thaw,
    update_holds, Weapon, weapon_operative)


def weapon_key(ship: Ship, weapon: Weapon) -> str:
    return f"{ship.id}:{weapon.id}"


def line_of_fire(state: CombatState, a: hexes.Hex, b: hexes.Hex) -> bool:
    """decision (docs "Special cases"): planets, moons and obstacles block fire, as they block a
    hyperspace jump's line of sight; ships do not (:func:`hexes.clear_line`)."""
    return hexes.clear_line(a, b, feature_hexes(state)) if state.features else True


def shot_band(state: CombatState, attacker: Ship, weapon: Weapon, target: Ship) -> str | None:
    """The range band of a shot, or None when it cannot be made (range, scale, speed, line of fire)."""
    if (attacker.scale, target.scale) in tables.CANNOT_FIRE:
        return None
    if weapon.type == "proton_torpedo" and tables.speed_modifier("proton_torpedo", target.speed) is None:
        return None
    band = tables.range_band(weapon.type, hexes.distance(attacker.pos, target.pos), target.scale)
    if band is None or not line_of_fire(state, attacker.pos, target.pos):
        return None
    return band


def holding(state: CombatState, ship: Ship, weapon: Weapon) -> Ship | None:
    """The ship this tractor beam holds now, or None."""
    return next((t for t in state.ships if t.captured_by == ship.id and t.captured_weapon == weapon.id), None)


def guns_left(state: CombatState, ship: Ship, weapon: Weapon) -> int:
    """Seed "Factors de Foc per les Naus Capitals", step 1: the guns of a battery (a weapon with
    ``shots`` > 1) not yet fired in a broadside this phase; 1 for a single weapon not fired yet."""
    key = weapon_key(ship, weapon)
    if weapon.shots <= 1:
        return 0 if key in state.fired else 1
    return max(0, weapon.shots - state.guns_fired.get(key, 0))


def fire_options(state: CombatState) -> list[tuple[str, str]]:
    """(weapon id, target id) the firing ship may still shoot this phase.

    Seed "2. COMBAT": each weapon system fires once; only systems that may fire together
    (tables.may_fire_together); a target of another side, in the weapon's range band.
    Seed "Factors de Foc", step 1: a battery fires broadsides until its guns are spent, each at
    one target (several may go at the same target); :func:`guns_left` says how many guns.
    """
    return [(wid, tid) for wid, tid, _ in fire_options_with_bands(state)]


def fire_options_with_bands(state: CombatState) -> list[tuple[str, str, str]]:
    """:func:`fire_options`, each with the range band of the shot (:func:`shot_band`)."""
    return [(w.id, t.id, band) for w, _, t, band in open_shots(state)]


def open_shots(state: CombatState) -> list[tuple[Weapon, int, Ship, str]]:
    """:func:`fire_options_with_bands` as the objects: (weapon, its :func:`guns_left`, target,
    band), in the same order -- for the bot, which reads the weapons and targets."""
    s = state
    if s.phase != "firing" or not s.queue:
        return []
    sh = s.ship(s.queue[0])
    if controls_dead(sh, s.round) or sh.generator_shutdown:
        return []
    prefix = sh.id + ":"                 # weapon_key
    fired = s.fired
    fired_groups = {tables.FIRE_GROUP[w.type] for w in sh.weapons if prefix + w.id in fired}
    # the enemies in play, each with its distance and whether a feature blocks the line (shot_band)
    foes = [(t, hexes.distance(sh.pos, t.pos)) for t in s.ships if t.side != sh.side and t.in_play]
    if not foes:
        return []
    blocked = feature_hexes(s) if s.features else None
    lines: dict[str, bool] = {}
    out = []
    for w in sh.weapons:
        left = guns_left(s, sh, w)
        if not left or not weapon_operative(w):
            continue
        if fired_groups and fired_groups != {tables.FIRE_GROUP[w.type]}:    # tables.may_fire_together
            continue
        tractor = w.type == "tractor_beam"
        if tractor and holding(s, sh, w):
            continue          # decision: a beam holding a ship is busy
        for t, d in foes:
            if tractor and t.captured_by:
                continue      # decision: one holder at a time
            # shot_band, with the distance and the line worked out once per target
            if (sh.scale, t.scale) in tables.CANNOT_FIRE:
                continue
            if w.type == "proton_torpedo" and tables.speed_modifier("proton_torpedo", t.speed) is None:
                continue
            band = tables.range_band(w.type, d, t.scale)
            if band is None:
                continue
            if blocked is not None:
                clear = lines.get(t.id)
                if clear is None:
                    clear = lines[t.id] = hexes.clear_line(sh.pos, t.pos, blocked)
                if not clear:
                    continue
            out.append((w, left, t, band))
    return out


def fire_control_code(state: CombatState, attacker: Ship, weapon: Weapon, target: Ship, band: str) -> DiceCode:
    """The fire control of a shot: the range band's +1D/-1D, missiles and torpedoes against the
    target's speed, controls ionised."""
    fc = current_fire_control(attacker, weapon, state.round) + tables.RANGE_MODIFIER[band]
    if weapon.type in tables.MISSILE_WEAPONS:
        fc = fc + tables.speed_modifier(weapon.type, target.speed)
    return fc


def attack_code(state: CombatState, attacker: Ship, weapon: Weapon, target: Ship, band: str) -> DiceCode:
    """Seed "2. COMBAT" step 1: gunnery + fire control (see :func:`fire_control_code`)."""
    return DiceCode.parse(attacker.crew.gunnery) + fire_control_code(state, attacker, weapon, target, band)


def evasion_code(state: CombatState, target: Ship) -> DiceCode:
    """Seed "2. COMBAT" step 2: piloting + maneuverability (less controls ionised)."""
    return DiceCode.parse(target.crew.piloting) + current_maneuverability(target, state.round)


FIRE_FACTOR = msg("starwars_d6.roll.fire_factor", "fire factor")


def broadside_hits(dice: Dice, shots: int, purpose: Message | str = FIRE_FACTOR) -> int:
    """Seed "Factors de Foc per les Naus Capitals" with RULES-NOTES: the hits of a broadside that hit.

    One d6 per full 6 shots (the die is the hits), and the small-volley table for the remainder
    (2: 1-3/4-6 = 1/2; 3: 1-2/3-4/5-6 = 1/2/3; 4: the die, 5-6 rolled again; 5: the die, 6 rolled
    again).  decision: a remainder of 1 shot is one hit, no die.
    """
    if shots < 1:
        raise ValueError("a broadside has at least one shot")
    groups = [6] * (shots // 6) + ([shots % 6] if shots % 6 else [])
    hits = 0
    for n in groups:
        table = tables.FIRE_FACTORS[n]
        if n == 1:
            hits += 1
            continue
        while True:
            face = dice.faces(1, 6, msgn("starwars_d6.roll.volley", "{purpose} ({count} shot)", "{purpose} ({count} shots)",
                                         n, purpose=purpose), tables.SEC_FIRE_FACTORS)[0]
            if face not in table["reroll"]:
                break
        hits += table["hits"][face]
    return hits


def fire(state: CombatState, weapon_id: str, target_id: str, dice: Dice, *, guns: int | None = None,
         checked: bool = False) -> tuple[CombatState, Log]:
    """One weapon system of the firing ship shoots (seed "2. COMBAT", steps 1-4).

    Hit when attack >= evasion (the defender rolls against each shot).  A hit rolls the
    weapon's damage now; it is applied in :func:`resolve_firing`.  ``checked``: the caller
    found the shot among :func:`fire_options` already.

    A battery (``shots`` > 1) fires a broadside of ``guns`` of its guns left (seed "Factors de
    Foc", step 1: the gunner decides how many form the broadside; None: every gun left): one
    attack roll, one evasion, then the fire factor of that many shots (steps 2-4).
    """
    if not checked and (weapon_id, target_id) not in fire_options(state):
        raise ValueError(f"{weapon_id} at {target_id} is not a legal shot now.")
    # only the shooter changes (its ammunition), if at all; the lists it changes are replaced
    s = thaw(state, ships=False, lists=False)
    sh = s.ship(s.queue[0])
    w = next(w for w in sh.weapons if w.id == weapon_id)
    if w.ammo is not None:
        sh = own(s, sh.id)
        w = next(w for w in sh.weapons if w.id == weapon_id)
    left = guns_left(s, sh, w)
    guns = left if guns is None else guns
    if not 1 <= guns <= left:
        raise ValueError(f"{sh.name}'s {w.name} has {left} gun(s) left to fire, not {guns}.")
    t = s.ship(target_id)
    band = shot_band(s, sh, w, t)
    dmg_cap = tables.DAMAGE_CAP.get((sh.scale, t.scale))
    log = Log(dice.recording)
    notes: list = []
    # the attack and the evasion, declared once (checks.attack, checks.evasion: the odds read them too)
    a = roll_declared(dice, attack(s, sh, t, fire_control_code(s, sh, w, t, band)),
                      roll_purpose("starwars_d6.roll.to_hit", "{ship} {weapon} to hit", ship=sh.name, weapon=w.name),
                      notes)
    e = roll_declared(dice, evasion(s, t, sh), roll_purpose("starwars_d6.roll.evades", "{ship} evades", ship=t.name),
                      notes)
    hit = a >= e
    shot = Shot(sh.id, w.id, t.id, band, a, e, hit, ion=w.type == "ion_cannon", tractor=w.type == "tractor_beam")
    key = weapon_key(sh, w)
    if key not in s.fired:
        s.fired = [*s.fired, key]
    if w.shots > 1:
        s.guns_fired = {**s.guns_fired, key: s.guns_fired.get(key, 0) + guns}
    if w.ammo is not None:
        w.ammo -= 1                        # decision: a broadside spends one round of ammunition
    what = (msg("starwars_d6.words.broadside", "{weapon} ({guns}-gun broadside)", weapon=w.name, guns=guns)
            if w.shots > 1 else w.name)
    words = dict(ship=sh.name, what=what, target=t.name, band=tables.RANGE_WORDS[band], attack=a, evasion=e)
    log.say(msg("starwars_d6.log.fire_hit", "{ship} fires {what} at {target} ({band} range): {attack} against "
                "{evasion} -- hit.", **words) if hit else
            msg("starwars_d6.log.fire_miss", "{ship} fires {what} at {target} ({band} range): {attack} against "
                "{evasion} -- miss.", **words), SEC_PROCEDURE)
    say_all(log, notes)
    if hit and shot.tractor:
        log.say(msg("starwars_d6.log.caught", "{ship} is caught by the tractor beam, without damage (held after "
                    "all fire).", ship=t.name), SEC_TRACTOR)
    elif hit:
        if guns > 1:
            shot.hits = broadside_hits(dice, guns, msg("starwars_d6.roll.ship_fire_factor", "{ship} {weapon} fire factor",
                                                       ship=sh.name, weapon=w.name))
            log.say(msg("starwars_d6.log.fire_factor", "Fire factor: {hits} of {guns} shots hit.", hits=shot.hits,
                        guns=guns), tables.SEC_FIRE_FACTORS)
        if dmg_cap == 0:
            shot.no_damage = True
            log.say(msg("starwars_d6.log.no_damage_scale", "A {scale} cannot cause significant damage to {target}.",
                        scale=tables.SCALE_WORDS[sh.scale], target=t.name), SEC_SCALE_DAMAGE)
        else:
            rule = SEC_SCALE_DAMAGE if dmg_cap is not None else SEC_PROCEDURE
            what = (roll_purpose("starwars_d6.roll.ion_damage", "{weapon} ion damage", weapon=w.name) if shot.ion
                    else roll_purpose("starwars_d6.roll.damage", "{weapon} damage", weapon=w.name))
            notes: list = []
            rolls = [note_complication(roll_code(dice, current_damage(sh, w, s.round), wild=s.wild, cap=dmg_cap,
                                          purpose=what, rule=rule, complication=complication_choice(s)), what, notes).total
                     for _ in range(shot.hits)]
            shot.damage = sum(rolls)
            if shot.ion:
                log.say(msg("starwars_d6.log.ion_damage", "Ion damage {damage}{capped} (applied after all fire).",
                            damage=shot.damage, capped=capped_note(dmg_cap)), tables.SEC_ION)
            else:
                log.say(msg("starwars_d6.log.damage", "Damage {damage}{capped} (applied after all fire).",
                            damage=shot.damage, capped=capped_note(dmg_cap)), SEC_FIRING_PHASE)
            say_all(log, notes)
    s.shots = [*s.shots, shot]
    return s, log


def end_fire(state: CombatState, *, log: Log | None = None) -> tuple[CombatState, Log]:
    """The firing ship is done; the next in order fires (none left: resolve the damage)."""
    if state.phase != "firing" or not state.queue:
        raise ValueError("No ship is firing now.")
    s = thaw(state, ships=False, lists=False)     # only the queue changes: replaced, not changed in place
    s.queue = s.queue[1:]
    return s, Log() if log is None else log


def resolve_firing(state: CombatState, dice: Dice) -> tuple[CombatState, Log]:
    """After every ship fired: sum the damage of the hits on each target (seed step 4, RULES-NOTES),
    apply it, remove the destroyed ships, check the end, and go to the next round's initiative."""
    if state.phase != "firing" or state.queue:
        raise ValueError("Damage is resolved when every ship has fired.")
    # only the ships hit (or held, or blowing up) change: each copied first (own), the rest shared;
    # the lists it changes are replaced, not changed in place
    s = thaw(state, ships=False, lists=False)
    log = Log(dice.recording)
    before = {sh.id for sh in s.ships if sh.in_play}
    totals: dict[str, int] = {}
    scales: dict[str, list[str]] = {}
    damaging = [x for x in s.shots if x.hit and not x.ion and not x.no_damage and not x.tractor]
    for shot in damaging:
        totals[shot.target] = totals.get(shot.target, 0) + shot.damage
        scales.setdefault(shot.target, []).append(s.ship(shot.attacker).scale)
    for ship_id in [sh.id for sh in s.ships if sh.id in totals]:   # in list order
        sh = own(s, ship_id)
        n = sum(x.hits for x in damaging if x.target == sh.id)
        if n > 1:
            log.say(msg("starwars_d6.log.summed", "{hits} hits on {ship}: damage summed to {total}.", hits=n,
                        ship=sh.name, total=totals[sh.id]), SEC_PROCEDURE)
        damage_ship(s, sh, totals[sh.id], dice, scales[sh.id], log)   # sh is this rule's copy
    # decision: ion hits after the summed damage, one hull roll per ion hit, in the order fired
    for shot in s.shots:
        if shot.hit and shot.ion and not shot.no_damage and s.ship(shot.target).in_play:
            ion_ship(s, own(s, shot.target), shot.damage, dice, [s.ship(shot.attacker).scale], log)
    # "Raigs tractors": a hit captures, after the damage (decision: not by a holder destroyed now)
    for shot in s.shots:
        if not (shot.hit and shot.tractor):
            continue
        holder, t = s.ship(shot.attacker), s.ship(shot.target)
        beam = next(w for w in holder.weapons if w.id == shot.weapon)
        if not (holder.in_play and t.in_play) or t.captured_by or not weapon_operative(beam):
            log.say(msg("starwars_d6.log.cannot_hold", "{holder}'s tractor beam cannot hold {ship}.", holder=holder.name,
                        ship=t.name), SEC_TRACTOR)
            continue
        t = own(s, t.id, fields_only=True)
        t.captured_by, t.captured_weapon = holder.id, beam.id
        log.say(msg("starwars_d6.log.held", "{ship} is held by {holder}'s {weapon}: it cannot move until it breaks "
                    "free.", ship=t.name, holder=holder.name, weapon=beam.name), SEC_TRACTOR)
    for ship_id in [sh.id for sh in s.ships]:
        sh = s.ship(ship_id)
        if sh.in_play and sh.generator_overload_round is not None and sh.generator_overload_round <= s.round:
            sh = own(s, ship_id, fields_only=True)
            sh.destroyed = True
            log.say(msg("starwars_d6.log.generator_explodes", "{ship}'s generator explodes.", ship=sh.name),
                    tables.SEC_CONSIDERABLE)
        if sh.in_play and sh.structural_round is not None and sh.structural_round <= s.round:
            sh = own(s, ship_id, fields_only=True)
            sh.destroyed = True
            log.say(msg("starwars_d6.log.breaks_up", "{ship} breaks up.", ship=sh.name), tables.SEC_CONSIDERABLE)
    update_holds(s, log)
    removed = [sh.name for sh in s.ships if sh.id in before and sh.destroyed]
    if removed:
        log.say(msg("starwars_d6.log.removed", "Removed after firing: {ships}.", ships=", ".join(removed)),
                SEC_FIRING_PHASE)
    s.shots, s.fired, s.guns_fired = [], [], {}
    left = sides_in_play(s)
    if len(left) > 1 and s.max_rounds and s.round >= s.max_rounds:
        s.over, s.winner = True, None
        log.say(msg("starwars_d6.log.round_limit", "Round limit ({rounds}) reached: the combat ends undecided.",
                    rounds=s.max_rounds), "encounter option")
    elif len(left) <= 1:
        s.over = True
        s.winner = left[0] if left else None
        log.say(combat_over(s.winner), SEC_FIRING_PHASE)
    else:
        s.round += 1
        s.phase = "initiative"
        log.say(msg("starwars_d6.log.next_round", "Round {round}: initiative is rolled again.", round=s.round),
                SEC_FIRING_PHASE)
    return s, log


def combat_over(winner: str | None) -> Message:
    """The log line of the end of the combat (the firing phase's, a GM override's)."""
    if winner:
        return msg("starwars_d6.log.over", "The combat is over: {side} is left.", side=winner)
    return msg("starwars_d6.log.over_nobody", "The combat is over: no side is left.")
