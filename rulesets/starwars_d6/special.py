"""The special actions of the moving ship (seed "3. CASOS ESPECIALS", considerable damage 2 and 5),
declared before it moves: ramming ("Col·lisions premeditades"), a hyperspace jump ("Retirar-se del
combat"), shutting an overloaded generator down, evacuating, breaking free of a tractor beam.
Decisions in docs/rulesets/starwars_d6.md, "Special cases".  Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.dice import Dice
from rulesets.core.engine import Log
from rulesets.core.messages import english, Message, msg

from . import hexes, tables
from .dice import roll_code
from .checks import note_complication, roll_skill_and_factor
from .damage import collide, defence_cap
from .sequence import next_mover
from .state import (CombatState, complication_choice, controls_dead, current_damage,
    current_maneuverability, feature_at, roll_purpose, say_all, feature_hexes, holder_of, movement_speed, release, SEC_DECLARE,
    SEC_OVERLOAD, SEC_RAM, SEC_RETREAT, SEC_SCALE_EVASION, SEC_STRUCTURAL, SEC_TRACTOR, Ship, ship_at,
    thaw, update_holds)


def moving_ship(s: CombatState) -> Ship | None:
    if s.phase != "movement" or not s.moving or s.over:
        return None
    return s.ship(s.moving.ship)


def ram_targets(state: CombatState) -> list[str]:
    """Seed "Col·lisions premeditades" and 4. "Fase de moviment": the ships the moving ship may
    declare a ram against, before it spends any point.

    decision: a ship of another side in play, 1 to (the speed points it has this phase) hexes away,
    with no planet, moon or obstacle on the line between them; not with dead controls, nor while
    held by a tractor beam.
    """
    s = state
    sh = moving_ship(s)
    if sh is None or s.moving.started or sh.captured_by or controls_dead(sh, s.round):
        return []
    blocked = feature_hexes(s)
    out = []
    for t in s.ships:
        if t.side == sh.side or not t.in_play:
            continue
        d = hexes.distance(sh.pos, t.pos)
        if 1 <= d <= s.moving.speed_left and hexes.clear_line(sh.pos, t.pos, blocked):
            out.append(t.id)
    return out


def approach_hex(start: hexes.Hex, target: hexes.Hex) -> hexes.Hex:
    """The hex next to ``target`` on the line from ``start`` (``start`` itself when adjacent)."""
    return hexes.line(start, target)[-2]


def ram(state: CombatState, target_id: str, dice: Dice) -> tuple[CombatState, Log]:
    """Seed "3. CASOS ESPECIALS: Col·lisions premeditades", declared before moving (4. "Fase de
    moviment").

    1-2. Both pilots roll piloting + maneuverability (the evasion caps of "6. ESCALES" apply to
    both); 3. the target avoids only if it *exceeds* the rammer (ties ram);
    4. the rammer ends its movement in the target's hex, with its facing;
    5. avoided: the target moves one hex forward (off the board: it leaves the combat; decision:
    into an occupied hex, it cannot, stays, and the rammer stops in the hex before it);
    rammed: both ships take collision damage (:func:`collide`, the kind from the facings and
    the hexside the rammer comes in by), then the target is knocked into the adjacent hex on the
    hexside of 1D6 (1 = N, clockwise; decision: rolled again on an occupied hex; off the board, it
    leaves the combat), facing 1D6 (1 = N, clockwise).
    """
    if target_id not in ram_targets(state):
        raise ValueError(f"{target_id} cannot be rammed now.")
    s = thaw(state)
    sh, t = s.ship(s.moving.ship), s.ship(target_id)
    start, target_hex = sh.pos, t.pos
    came_from = approach_hex(start, target_hex)
    log = Log(dice.recording)
    log.say(msg("starwars_d6.log.ram_declared", "{ship} declares a ram against {target} ({hexes} hexes).", ship=sh.name,
                target=t.name, hexes=hexes.distance(start, target_hex)), SEC_DECLARE)
    rolls = {}
    notes: list = []
    for who, other in ((sh, t), (t, sh)):
        cap = tables.EVASION_CAP.get((who.scale, other.scale))
        rolls[who.id] = roll_skill_and_factor(dice, who.crew.piloting, current_maneuverability(who, s.round),
                                              cap=cap, wild=s.wild,
                                              purpose=roll_purpose("starwars_d6.roll.ram", "{ship} piloting (ram)",
                                                                              ship=who.name),
                                              rule=SEC_SCALE_EVASION if cap is not None else SEC_RAM,
                                              complication=complication_choice(s), notes=notes)
    a, e = rolls[sh.id], rolls[t.id]
    rammed = not e > a
    words = dict(ship=sh.name, attack=a, target=t.name, evasion=e)
    log.say(msg("starwars_d6.log.rammed", "Ram: {ship} {attack} against {target} {evasion} -- rammed (the target must "
                "roll higher to avoid it).", **words) if rammed else
            msg("starwars_d6.log.ram_avoided", "Ram: {ship} {attack} against {target} {evasion} -- {target} avoids the "
                "collision.", **words), SEC_RAM)
    say_all(log, notes)
    dest = target_hex

    def free(h) -> bool:
        return ship_at(s, h, besides=(sh.id, t.id)) is None and feature_at(s, h) is None

    if not rammed:
        ahead = hexes.neighbour(target_hex, t.facing)
        if not s.hboard.contains(ahead):
            t.col, t.row = ahead
            t.off_board = True
            log.say(msg("starwars_d6.log.ram_ahead_off", "{ship} moves one hex forward, off the board, and leaves the "
                        "combat.", ship=t.name), SEC_RAM)
        elif free(ahead):
            t.col, t.row = ahead
            log.say(msg("starwars_d6.log.ram_ahead", "{ship} moves one hex forward.", ship=t.name), SEC_RAM)
        else:
            dest = came_from if free(came_from) or came_from == start else start
            log.say(msg("starwars_d6.log.ram_ahead_blocked", "{target} cannot move forward (the hex is occupied): it "
                        "stays, and {ship} stops next to it.", target=t.name, ship=sh.name), SEC_RAM)
    else:
        collide(s, sh, t, came_from, dice, log, SEC_RAM)
        if t.in_play:
            sides = [f for f in hexes.FACINGS if not s.hboard.contains(hexes.neighbour(target_hex, f))
                     or free(hexes.neighbour(target_hex, f))]
            if not sides:
                dest = came_from if free(came_from) or came_from == start else start
                log.say(msg("starwars_d6.log.ram_no_hex", "No free hex around {target}: it stays, and {ship} stops next "
                            "to it.", target=t.name, ship=sh.name), SEC_RAM)
            else:
                while True:
                    face = dice.faces(1, 6, msg("starwars_d6.roll.knocked_to", "{ship} knocked to (hexside, 1 = N)",
                                                ship=t.name), SEC_RAM)[0]
                    if face - 1 in sides:
                        break
                    log.say(msg("starwars_d6.log.hexside_again", "Hexside {face}: occupied, rolled again.", face=face),
                            SEC_RAM)
                to = hexes.neighbour(target_hex, face - 1)
                t.col, t.row = to
                if not s.hboard.contains(to):
                    t.off_board = True
                    log.say(msg("starwars_d6.log.knocked_off", "{ship} is knocked off the board and leaves the combat.",
                                ship=t.name), SEC_RAM)
                else:
                    t.facing = dice.faces(1, 6, msg("starwars_d6.roll.new_facing", "{ship} new facing (1 = N)",
                                                    ship=t.name), SEC_RAM)[0] - 1
                    log.say(msg("starwars_d6.log.knocked_to", "{ship} is knocked to {col},{row}, facing {facing}.",
                                ship=t.name, col=to[0], row=to[1], facing=hexes.FACING_NAME[t.facing]), SEC_RAM)
    sh.col, sh.row = dest
    sh.last_moved = hexes.distance(start, dest)
    log.say(msg("starwars_d6.log.ram_ends", "{ship} ends its movement in {col},{row}, facing {facing}.", ship=sh.name,
                col=dest[0], row=dest[1], facing=hexes.FACING_NAME[sh.facing]), SEC_RAM)
    next_mover(s, log)
    return s, log


def jump_problems(state: CombatState, ship: Ship | None = None) -> list[Message]:
    """Why the ship cannot jump to hyperspace now (empty: it can).  Seed "Retirar-se del combat":
    a line of sight "sense cap mena d'obstacle", at least 10 hexes from the nearest planet and
    4 from any moon; declared before moving (4. "Fase de moviment").

    decisions: an operative hyperdrive (has one, not "Motor d'hiperespai inoperant", generator
    not shut down); working controls; not held by a tractor beam; the line of sight is the ray of
    hexes straight ahead to the board edge: no feature and no other ship in play on it.
    """
    s = state
    sh = ship or moving_ship(s)
    if sh is None:
        return [msg("starwars_d6.jump.not_moving", "Only the moving ship can jump, in the movement phase.")]
    out = []
    if s.moving and s.moving.ship == sh.id and s.moving.started:
        out.append(msg("starwars_d6.jump.started", "A jump is declared before moving."))
    if not sh.hyperdrive:
        out.append(msg("starwars_d6.jump.no_hyperdrive", "{ship} has no hyperdrive.", ship=sh.name))
    elif sh.hyperdrive_out:
        out.append(msg("starwars_d6.jump.hyperdrive_out", "{ship}'s hyperdrive is out.", ship=sh.name))
    if sh.generator_shutdown:
        out.append(msg("starwars_d6.jump.shutdown", "{ship}'s generator is shut down.", ship=sh.name))
    if controls_dead(sh, s.round):
        out.append(msg("starwars_d6.jump.controls_dead", "{ship}'s controls are dead.", ship=sh.name))
    if sh.captured_by:
        out.append(msg("starwars_d6.jump.held", "{ship} is held by a tractor beam.", ship=sh.name))
    blockers = feature_hexes(s) | {o.pos for o in s.ships if o.in_play and o.id != sh.id}
    if any(h in blockers for h in hexes.ray(sh.pos, sh.facing, s.hboard)):
        out.append(msg("starwars_d6.jump.line_blocked", "The line of sight ahead is not clear."))
    for f in s.features:
        need = tables.HYPERSPACE_MIN_DISTANCE.get(f.kind)
        if need is not None and hexes.distance(sh.pos, f.pos) < need:
            out.append(msg("starwars_d6.jump.too_close", "{feature} is {far} hexes away ({need} needed).",
                           feature=f.label, far=hexes.distance(sh.pos, f.pos), need=need))
    return out


def can_jump(state: CombatState) -> bool:
    """``not jump_problems(state)``, the cheap reasons first (most ships have no hyperdrive)."""
    sh = moving_ship(state)
    if (sh is None or state.moving.started or not sh.hyperdrive or sh.hyperdrive_out or sh.generator_shutdown
            or sh.captured_by or controls_dead(sh, state.round)):
        return False
    return not jump_problems(state)


def jump(state: CombatState, *, log: Log | None = None) -> tuple[CombatState, Log]:
    """Seed "Retirar-se del combat": the ship jumps to hyperspace and leaves the combat (escaped).
    ``log``: the step's log (a new one, kept, when None)."""
    problems = jump_problems(state)
    if problems:
        raise ValueError(" ".join(map(english, problems)))
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    sh.escaped = True
    log = Log() if log is None else log
    log.say(msg("starwars_d6.log.jump_declared", "{ship} declares a hyperspace jump.", ship=sh.name), SEC_DECLARE)
    log.say(msg("starwars_d6.log.jumps", "{ship} jumps to hyperspace and leaves the combat.", ship=sh.name), SEC_RETREAT)
    next_mover(s, log)
    return s, log


def can_shutdown(state: CombatState) -> bool:
    sh = moving_ship(state)
    return bool(sh and not state.moving.started and sh.generator_overload_round is not None
                and not sh.generator_shutdown)


def shutdown(state: CombatState, *, log: Log | None = None) -> tuple[CombatState, Log]:
    """Seed 5. considerable 2 "Sobrecàrrega en el generador": the overloaded generator is shut down
    (before the ship moves, decision); it does not explode; on auxiliary batteries the ship moves
    at ¼ of its speed rounded up, and every other system is inoperative -- no firing, no shields,
    no hyperdrive, its tractor beams let go (decision: piloting still evades)."""
    if not can_shutdown(state):
        raise ValueError("No overloaded generator to shut down now.")
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    sh.generator_shutdown, sh.generator_overload_round = True, None
    s.moving.speed_left = movement_speed(sh)
    log = Log() if log is None else log
    log.say(msg("starwars_d6.log.shutdown", "{ship} shuts down its generator: no explosion; auxiliary batteries, "
                "speed {speed}, every other system inoperative.", ship=sh.name, speed=s.moving.speed_left), SEC_OVERLOAD)
    update_holds(s, log)
    return s, log


def can_evacuate(state: CombatState) -> bool:
    sh = moving_ship(state)
    return bool(sh and sh.structural_round is not None)


def evacuate(state: CombatState, *, log: Log | None = None) -> tuple[CombatState, Log]:
    """Seed 5. considerable 5 "Danys estructurals": the crew abandons ship within its 1D rounds.
    decision: on the ship's movement step; the ship leaves the combat (not destroyed), the crew
    is saved."""
    if not can_evacuate(state):
        raise ValueError("Only a ship with structural damage is evacuated, on its movement step.")
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    sh.evacuated = True
    log = Log() if log is None else log
    log.say(msg("starwars_d6.log.evacuated", "{ship}'s crew abandons ship and is saved; the ship leaves the combat.",
                ship=sh.name), SEC_STRUCTURAL)
    next_mover(s, log)
    return s, log


def can_break_free(state: CombatState) -> bool:
    sh = moving_ship(state)
    return bool(sh and sh.captured_by and not state.moving.started)


def break_free(state: CombatState, dice: Dice) -> tuple[CombatState, Log]:
    """Seed "Raigs tractors": the held ship rolls its hull; free only if it is *greater* than the
    beam's strength (its damage code, rolled; ties hold).  decisions: on its movement step, before
    moving; free, it moves normally this phase; still held, its movement ends.  The scale caps of
    damage apply to the strength and of hull to the hull roll, as for a hit."""
    if not can_break_free(state):
        raise ValueError("Only a ship held by a tractor beam breaks free, before it moves.")
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    held = holder_of(s, sh)
    log = Log(dice.recording)
    if held is None:
        release(sh)
        log.say(msg("starwars_d6.log.no_longer_held", "{ship} is no longer held.", ship=sh.name), SEC_TRACTOR)
        return s, log
    holder, beam = held
    notes: list = []
    purpose = roll_purpose("starwars_d6.roll.break_free", "{ship} hull (break free)", ship=sh.name)
    hull = note_complication(roll_code(dice, sh.hull, wild=s.wild, cap=defence_cap(sh, [holder.scale]),
                                purpose=purpose, rule=SEC_TRACTOR, complication=complication_choice(s)),
                      purpose, notes).total
    purpose = roll_purpose("starwars_d6.roll.beam_strength", "{ship} {weapon} strength", ship=holder.name,
                                   weapon=beam.name)
    strength = note_complication(roll_code(dice, current_damage(holder, beam, s.round), wild=s.wild,
                                    cap=tables.DAMAGE_CAP.get((holder.scale, sh.scale)),
                                    purpose=purpose, rule=SEC_TRACTOR, complication=complication_choice(s)),
                          purpose, notes).total
    words = dict(ship=sh.name, hull=hull, strength=strength)
    if hull > strength:
        release(sh)
        log.say(msg("starwars_d6.log.breaks_free", "{ship} breaks free: hull {hull} against strength {strength}.",
                    **words), SEC_TRACTOR)
        say_all(log, notes)
        return s, log
    log.say(msg("starwars_d6.log.still_held", "{ship} is still held: hull {hull} against strength {strength} (it must "
                "be greater).", **words), SEC_TRACTOR)
    say_all(log, notes)
    sh.last_moved = 0
    next_mover(s, log)
    return s, log


def special_options(state: CombatState) -> list[tuple[str, dict]]:
    """The moving ship's special actions besides its moves: (kind, params) for
    ``break_free``, ``ram target=``, ``jump``, ``shutdown``, ``evacuate``."""
    if moving_ship(state) is None:
        return []
    out: list[tuple[str, dict]] = []
    if can_break_free(state):
        out.append(("break_free", {}))
    out += [("ram", {"target": t}) for t in ram_targets(state)]
    if can_jump(state):
        out.append(("jump", {}))
    if can_shutdown(state):
        out.append(("shutdown", {}))
    if can_evacuate(state):
        out.append(("evacuate", {}))
    return out
