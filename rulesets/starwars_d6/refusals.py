"""Why the rules refuse an action now: the reason in words and the rule that forbids it (issue 25).

:meth:`engine.StarWarsRuleset.refusal` (the core contract's ``refusal``) calls :func:`refusal` for
an action that ``is_legal`` refused.  Each reason asks the same predicates the action list asks
(:mod:`.sequence`, :mod:`.special`, :mod:`.firing`, :mod:`.hexes`), in the order a GM would look:
is it this phase, is it this ship's step (and whose it is), can the ship act at all (dead controls,
a tractor beam, a shut-down generator), then what the action itself needs (speed points, a free hex,
a weapon that works and has not fired, a target in range and in the line of fire).  A reason is a
message (an id ``starwars_d6.refused.<what>``, its English text with ``{placeholders}``, the
parameters: :mod:`rulesets.core.messages`) and the citation of the seed section (the ``SEC_*``
strings of :mod:`.tables` and :mod:`.state`).  None where no reason is found (the core then says
the action is not one the rules allow).  Pure Python: no Django import.
"""
from __future__ import annotations

from typing import Final

from rulesets.core.engine import Action, Refusal
from rulesets.core.messages import Message, msg, chain

from . import hexes, tables
from .firing import guns_left, holding, line_of_fire, weapon_key
from .override import SEC_OVERRIDE
from .state import (CombatState, controls_dead, Feature, feature_at, feature_hexes, is_zero, PHASE_WORDS, SEC_CUMULATIVE,
    SEC_FIRING_PHASE, SEC_INITIATIVE, SEC_IONISED, SEC_PROCEDURE, SEC_SCALE_TO_HIT, Ship, ship_at)

#: the actions of the movement phase (the moving ship's), and of the firing phase (the firing ship's)
MOVEMENT_KINDS: Final = ("move", "course", "drift", "ram", "jump", "shutdown", "evacuate", "break_free")
FIRING_KINDS: Final = ("fire", "done")


def _no(ident: str, text: str, rule: str, **params) -> Refusal:
    return Refusal(msg(ident, text, **params), rule)


def _hex(h) -> str:
    return f"{h[0]},{h[1]}"


def _feature(f: Feature) -> Message | str:
    """A planet, moon or obstacle in words: its name, or its kind for one the GM left unnamed."""
    return f.name or tables.FEATURE_WORDS.get(f.kind, f.kind)


def _one_after_another(words: list) -> Message | str:
    """Parts of a list one after the other ("short 1-5, medium 6-10"): each pair a message, so
    each language chooses its own separator."""
    return chain(words, "starwars_d6.refused.list_and", "{first}, {then}")


def refusal(state: CombatState, action: Action) -> Refusal | None:
    s, kind = state, action.kind
    if s.over:
        return None                                   # the core's "the fight is over"
    if kind == "override":
        if action.actor:
            return _no("starwars_d6.refused.override_gm", "Only the GM overrides, for no ship: leave the actor out.", SEC_OVERRIDE)
        return None
    if kind not in MOVEMENT_KINDS + FIRING_KINDS + ("initiative", "resolve"):
        return None
    wrong_phase = _phase(s, kind)
    if wrong_phase is not None:
        return wrong_phase
    if kind in ("initiative", "resolve"):
        return _in_the_name_of(s, action)
    sh = s.ship(action.actor)
    not_yours = _whose_step(s, sh)
    if not_yours is not None:
        return not_yours
    if kind in FIRING_KINDS:
        return _fire(s, sh, action) if kind == "fire" else None
    return _MOVEMENT[kind](s, sh, action)


# --- the phase and whose step it is ----------------------------------------------------------


def _phase(s: CombatState, kind: str) -> Refusal | None:
    """Seed "4. SEQÜENCIA DE JOC": initiative, then the movement phase, then the firing phase."""
    if s.phase == "initiative":
        if kind == "initiative":
            return None
        return _no("starwars_d6.refused.initiative_first", "Round {round} begins with initiative: each side rolls 2D, the lowest "
                   "moves first.", SEC_INITIATIVE, round=s.round)
    if kind == "initiative":
        return _no("starwars_d6.refused.initiative_rolled", "Round {round}'s initiative is rolled: it is the {phase} phase.",
                   SEC_INITIATIVE, round=s.round, phase=PHASE_WORDS.get(s.phase, s.phase))
    if s.phase == "movement" and kind in FIRING_KINDS + ("resolve",):
        return _no("starwars_d6.refused.not_firing_yet", "It is the movement phase of round {round}: the ships fire once every ship "
                   "has moved.", tables.SEC_SEQUENCE, round=s.round)
    if s.phase == "firing" and kind in MOVEMENT_KINDS:
        return _no("starwars_d6.refused.moving_over", "It is the firing phase of round {round}: every ship has moved; the next "
                   "movement comes after the next initiative.", tables.SEC_SEQUENCE, round=s.round)
    if s.phase == "firing" and kind == "resolve" and s.queue:
        return _no("starwars_d6.refused.not_all_fired", "{active} has not fired yet: the damage is applied once every ship has "
                   "fired (all fire is simultaneous).", SEC_FIRING_PHASE, active=s.ship(s.queue[0]).name)
    if s.phase == "firing" and kind in FIRING_KINDS and not s.queue:
        return _no("starwars_d6.refused.all_fired", "Every ship has fired: apply the damage of the firing phase first.",
                   SEC_FIRING_PHASE)
    return None


def _in_the_name_of(s: CombatState, action: Action) -> Refusal | None:
    """Initiative and the damage are rolled for everyone; the step is entered in the first ship's name."""
    first = next((sh for sh in s.ships if sh.in_play), None)
    if first is None or action.actor == first.id:
        return None
    return _no("starwars_d6.refused.for_everyone", "That step is for every ship at once: it is entered in the name of {ship}, the "
               "first ship in play.", tables.SEC_SEQUENCE, ship=first.name)


_GONE: Final = (("destroyed", msg("starwars_d6.refused.gone.destroyed", "destroyed")),
                ("escaped", msg("starwars_d6.refused.gone.escaped", "jumped to hyperspace")),
                ("evacuated", msg("starwars_d6.refused.gone.evacuated", "abandoned by its crew")),
                ("off_board", msg("starwars_d6.refused.gone.off_board", "off the board")))


def _whose_step(s: CombatState, sh: Ship) -> Refusal | None:
    """Seed 4. "Fase de moviment" / "Fase de foc": the sides move, then fire, from the lowest
    initiative roll up; one ship at a time (its side's ships in the order they are listed)."""
    current = s.queue[0]
    if sh.id == current:
        return None
    if not sh.in_play:
        how = next(words for flag, words in _GONE if getattr(sh, flag))
        return _no("starwars_d6.refused.out_of_the_fight", "{ship} is out of the combat ({how}).", tables.SEC_RETREAT,
                   ship=sh.name, how=how)
    active = s.ship(current).name
    if s.phase == "movement":
        if sh.id in s.queue:
            return _no("starwars_d6.refused.moves_later", "It is {active}'s movement: {ship} moves later (the sides move from the "
                       "lowest initiative roll up).", tables.SEC_MOVEMENT_PHASE, active=active, ship=sh.name)
        return _no("starwars_d6.refused.has_moved", "{ship} has moved this round: it is {active}'s movement now.",
                   tables.SEC_MOVEMENT_PHASE, active=active, ship=sh.name)
    if sh.id in s.queue:
        return _no("starwars_d6.refused.fires_later", "It is {active}'s turn to fire: {ship} fires later (the firing phase follows "
                   "the order of the movement).", SEC_FIRING_PHASE, active=active, ship=sh.name)
    return _no("starwars_d6.refused.has_fired", "{ship} has finished firing this round: it is {active}'s turn to fire now.",
               SEC_FIRING_PHASE, active=active, ship=sh.name)


# --- the movement phase ----------------------------------------------------------------------


def _dead_controls(s: CombatState, sh: Ship) -> Refusal:
    return _no("starwars_d6.refused.controls_dead", "{ship}'s controls are dead (fully ionised) until the end of round {until}: it "
               "drifts, and cannot turn, fire or roll shields.", SEC_IONISED, ship=sh.name,
               until=sh.controls_dead_until)


def _held(s: CombatState, sh: Ship) -> Refusal:
    holder = next((o.name for o in s.ships if o.id == sh.captured_by), sh.captured_by)
    return _no("starwars_d6.refused.held", "{ship} is held by {holder}'s tractor beam: it only holds its position, or tries to break "
               "free before moving.", tables.SEC_TRACTOR, ship=sh.name, holder=holder)


def _drifts(s: CombatState, sh: Ship) -> bool:
    """What the action list asks: dead controls drift, unless a tractor beam holds the ship."""
    return controls_dead(sh, s.round) and not sh.captured_by


def _blocked(s: CombatState, sh: Ship, to) -> Refusal | None:
    """decision (docs "Special cases"): a ship never chooses to enter another ship's hex (it rams
    instead) nor a planet's, moon's or obstacle's."""
    other = ship_at(s, to, besides=(sh.id,))
    if other is not None:
        return _no("starwars_d6.refused.hex_has_ship", "{other} is in hex {hex}: a ship never flies into another's hex on purpose; "
                   "to hit it, declare a ram before moving.", tables.SEC_RAM, other=other.name, hex=_hex(to))
    feature = feature_at(s, to)
    if feature is not None:
        return _no("starwars_d6.refused.hex_has_feature", "{feature} is in hex {hex}: a ship never flies into it on purpose.",
                   tables.SEC_COLLISION, feature=_feature(feature), hex=_hex(to))
    return None


def _move(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    """Seed "1. MOVIMENT I MANIOBRA": forward 1 point, a turn 1 point (free after a forward move,
    one per maneuverability die), a slide 2 points, hold 0; no backing up; capital ships turn
    only with maneuverability points, each also costing a speed point."""
    if _drifts(s, sh):
        return _dead_controls(s, sh)
    how, side = action.get("how"), action.get("side")
    if how not in tables.MOVE_COST:
        return _no("starwars_d6.refused.no_such_move", "A ship moves forward, turns, slides or holds its position: no other move (no "
                   "backing up).", tables.SEC_MOVEMENT)
    if sh.captured_by and how != "hold":
        return _held(s, sh)
    m = s.moving
    left, free = m.speed_left, m.free_turns_left
    if how == "forward":
        if left < tables.MOVE_COST["forward"]:
            return _no("starwars_d6.refused.forward_no_points", "Moving one hex forward costs 1 speed point: {ship} has none left.",
                       tables.SEC_MOVEMENT, ship=sh.name)
        return _blocked(s, sh, hexes.neighbour(sh.pos, sh.facing))
    if side not in (hexes.LEFT, hexes.RIGHT):
        return None
    if how == "slide":
        if left < tables.MOVE_COST["slide"]:
            return _no("starwars_d6.refused.slide_no_points", "A slide costs 2 speed points: {ship} has {left} left.",
                       tables.SEC_MOVEMENT, ship=sh.name, left=left)
        return _blocked(s, sh, hexes.neighbour(sh.pos, hexes.turned(sh.facing, side)))
    if how == "turn":
        if sh.scale != tables.STARFIGHTER:
            if free < 1 or left < 1:
                return _no("starwars_d6.refused.capital_turn", "A capital ship turns only with its maneuverability points, each turn "
                           "also costing a speed point: {ship} has {free} maneuverability and {left} speed points "
                           "left.", tables.SEC_MOVEMENT, ship=sh.name, free=free, left=left)
            return None
        if m.after_forward and free >= 1:
            return None
        if left < tables.MOVE_COST["turn"]:
            if m.after_forward:
                return _no("starwars_d6.refused.turn_no_free_turn", "{ship} has no free turn left (one per maneuverability die) and no "
                           "speed point to pay for the turn.", tables.SEC_MOVEMENT, ship=sh.name)
            return _no("starwars_d6.refused.turn_no_points", "Turning without first moving one hex forward costs 1 speed point: {ship} "
                       "has none left.", tables.SEC_MOVEMENT, ship=sh.name)
    return None


def _course(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    """A click on the board: the hex must be reachable by the ordinary moves (see :func:`_move`)."""
    if _drifts(s, sh):
        return _dead_controls(s, sh)
    if sh.captured_by:
        return _held(s, sh)
    col, row = action.get("col"), action.get("row")
    if not (isinstance(col, int) and isinstance(row, int)):
        return None
    to = (col, row)
    if not s.hboard.contains(to):
        return _no("starwars_d6.refused.course_off_board", "Hex {hex} is off the {width}×{height} board: a ship leaves the board with "
                   "a move forward or a slide from its edge.", tables.SEC_RETREAT, hex=_hex(to),
                   width=s.board.width, height=s.board.height)
    if to == sh.pos:
        return _no("starwars_d6.refused.course_here", "{ship} is in hex {hex} already.", tables.SEC_MOVEMENT, ship=sh.name, hex=_hex(to))
    blocked = _blocked(s, sh, to)
    if blocked is not None:
        return blocked
    far, m = hexes.distance(sh.pos, to), s.moving
    if _course_legal(s, action):
        return None
    if far > m.speed_left:
        return _no("starwars_d6.refused.course_too_far", "Hex {hex} is {far} hexes away: {ship} has {left} speed points left.",
                   tables.SEC_MOVEMENT, hex=_hex(to), far=far, ship=sh.name, left=m.speed_left)
    return _no("starwars_d6.refused.course_unreachable", "{ship} cannot reach hex {hex} with the {left} speed points and {free} free "
               "turns it has left (forward 1 point, a slide 2, a turn 1 once the free turns are spent).",
               tables.SEC_MOVEMENT, ship=sh.name, hex=_hex(to), left=m.speed_left, free=m.free_turns_left)


def _course_legal(s: CombatState, action: Action) -> bool:
    """The engine's own question (its course search, cached): is the hex one of the lit ones?"""
    from .engine import RULESET     # the engine imports this module

    return RULESET.is_legal(s, action)


def _drift(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    if sh.captured_by:
        return _held(s, sh)
    if not controls_dead(sh, s.round):
        return _no("starwars_d6.refused.no_drift", "{ship}'s controls work: it moves normally (only a ship with dead controls "
                   "drifts).", SEC_IONISED, ship=sh.name)
    return None


#: what a ship declares before it moves, in words
_DECLARED: Final = {"ram": msg("starwars_d6.refused.declared.ram", "a ram"),
                    "jump": msg("starwars_d6.refused.declared.jump", "a hyperspace jump"),
                    "shutdown": msg("starwars_d6.refused.declared.shutdown", "shutting the generator down"),
                    "break_free": msg("starwars_d6.refused.declared.break_free", "breaking free")}


def _before_moving(s: CombatState, sh: Ship, what: Message, rule: str) -> Refusal | None:
    if s.moving.started:
        return _no("starwars_d6.refused.declared_before_moving", "{ship} has begun to move: {what} is declared before moving.",
                   rule, ship=sh.name, what=what)
    return None


def _ram(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    """Seed "Col·lisions premeditades", declared before moving (4. "Fase de moviment"); decisions:
    an enemy in play within the speed points, nothing on the line, working controls, not held."""
    late = _before_moving(s, sh, _DECLARED["ram"], tables.SEC_DECLARE)
    if late is not None:
        return late
    if controls_dead(sh, s.round):
        return _dead_controls(s, sh)
    if sh.captured_by:
        return _held(s, sh)
    t = s.ship(action.get("target"))
    if t.side == sh.side:
        return _no("starwars_d6.refused.ram_friend", "{target} is on {ship}'s side: a ram is made against an enemy.", tables.SEC_RAM,
                   target=t.name, ship=sh.name)
    if not t.in_play:
        return _no("starwars_d6.refused.target_gone", "{target} is out of the combat.", tables.SEC_RETREAT, target=t.name)
    if sh.dead_in_space:
        return _no("starwars_d6.refused.ram_dead_in_space", "{ship} is dead in space: its maneuvering drive is destroyed and it "
                   "cannot move.", tables.SEC_CONSIDERABLE, ship=sh.name)
    far = hexes.distance(sh.pos, t.pos)
    if far > s.moving.speed_left:
        return _no("starwars_d6.refused.ram_too_far", "{target} is {far} hexes away: more than {ship}'s {left} speed points.",
                   tables.SEC_RAM, target=t.name, far=far, ship=sh.name, left=s.moving.speed_left)
    if not hexes.clear_line(sh.pos, t.pos, feature_hexes(s)):
        return _no("starwars_d6.refused.ram_blocked", "A planet, moon or obstacle lies between {ship} and {target}.", tables.SEC_RAM,
                   ship=sh.name, target=t.name)
    return None


def _jump(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    """Seed "Retirar-se del combat" (special.jump_problems, in the same order): declared before
    moving, a hyperdrive that works, a clear line of sight, 10 hexes from planets and 4 from moons."""
    late = _before_moving(s, sh, _DECLARED["jump"], tables.SEC_DECLARE)
    if late is not None:
        return late
    if not sh.hyperdrive:
        return _no("starwars_d6.refused.no_hyperdrive", "{ship} has no hyperdrive.", tables.SEC_RETREAT, ship=sh.name)
    if sh.hyperdrive_out:
        return _no("starwars_d6.refused.hyperdrive_out", "{ship}'s hyperdrive is out (considerable damage).", tables.SEC_CONSIDERABLE,
                   ship=sh.name)
    if sh.generator_shutdown:
        return _no("starwars_d6.refused.jump_generator_off", "{ship}'s generator is shut down: on auxiliary batteries every system but "
                   "the engines is off, the hyperdrive too.", tables.SEC_OVERLOAD, ship=sh.name)
    if controls_dead(sh, s.round):
        return _dead_controls(s, sh)
    if sh.captured_by:
        return _held(s, sh)
    blockers = {f.pos: _feature(f) for f in s.features}
    blockers.update({o.pos: o.name for o in s.ships if o.in_play and o.id != sh.id})
    ahead = next((h for h in hexes.ray(sh.pos, sh.facing, s.hboard) if h in blockers), None)
    if ahead is not None:
        return _no("starwars_d6.refused.jump_line_blocked", "{what} (hex {hex}) blocks {ship}'s line of sight straight ahead: a jump "
                   "needs it clear of every obstacle.", tables.SEC_RETREAT, what=blockers[ahead], hex=_hex(ahead),
                   ship=sh.name)
    for f in s.features:
        need = tables.HYPERSPACE_MIN_DISTANCE.get(f.kind)
        if need is not None and hexes.distance(sh.pos, f.pos) < need:
            return _no("starwars_d6.refused.jump_too_close", "{feature} is {far} hexes away: a jump needs {need} hexes from a planet "
                       "and 4 from a moon.", tables.SEC_RETREAT, feature=_feature(f),
                       far=hexes.distance(sh.pos, f.pos), need=need)
    return None


def _shutdown(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    if sh.generator_shutdown:
        return _no("starwars_d6.refused.shut_down_already", "{ship}'s generator is shut down already.", tables.SEC_OVERLOAD,
                   ship=sh.name)
    if sh.generator_overload_round is None:
        return _no("starwars_d6.refused.no_overload", "{ship}'s generator is not overloaded: there is nothing to shut down.",
                   tables.SEC_OVERLOAD, ship=sh.name)
    return _before_moving(s, sh, _DECLARED["shutdown"], tables.SEC_OVERLOAD)


def _evacuate(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    if sh.structural_round is None:
        return _no("starwars_d6.refused.no_structural", "{ship} has no structural damage: the crew abandons only a ship breaking up.",
                   tables.SEC_STRUCTURAL, ship=sh.name)
    return None


def _break_free(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    if not sh.captured_by:
        return _no("starwars_d6.refused.not_held", "{ship} is not held by a tractor beam.", tables.SEC_TRACTOR, ship=sh.name)
    return _before_moving(s, sh, _DECLARED["break_free"], tables.SEC_TRACTOR)


_MOVEMENT: Final = {"move": _move, "course": _course, "drift": _drift, "ram": _ram, "jump": _jump,
                    "shutdown": _shutdown, "evacuate": _evacuate, "break_free": _break_free}


# --- the firing phase ------------------------------------------------------------------------


def _bands(weapon: str, scale: str) -> Message | str:
    """A weapon's range bands in words: "short 1-5, medium 6-10, long 11-15"."""
    return _one_after_another([msg("starwars_d6.refused.band_hexes", "{band} {low}-{high}",
                                   band=tables.RANGE_WORDS.get(band, band), low=lo, high=hi)
                               for band, (lo, hi) in tables.range_bands(weapon, scale).items()])


def _fire(s: CombatState, sh: Ship, action: Action) -> Refusal | None:
    """Seed "2. COMBAT" (each weapon system once, which fire together, the ranges), "Factors de Foc"
    (broadsides), "Raigs tractors", "Míssils i torpedes", "6. ESCALES", damage that put a weapon out."""
    wid = action.get("weapon")
    w = next((w for w in sh.weapons if w.id == wid), None)
    if w is None:
        return _no("starwars_d6.refused.no_such_weapon", "{ship} has no weapon {weapon} (its weapons: {weapons}).", SEC_PROCEDURE,
                   ship=sh.name, weapon=str(wid), weapons=", ".join(w.id for w in sh.weapons) or msg("starwars_d6.refused.no_weapons", "none"))
    if controls_dead(sh, s.round):
        return _dead_controls(s, sh)
    if sh.generator_shutdown:
        return _no("starwars_d6.refused.fire_generator_off", "{ship}'s generator is shut down: on auxiliary batteries its weapons are "
                   "off.", tables.SEC_OVERLOAD, ship=sh.name)
    if w.disabled:
        if "weapons_out" in sh.damage:
            return _no("starwars_d6.refused.weapons_out", "All of {ship}'s weapon systems are out (considerable damage).",
                       tables.SEC_CONSIDERABLE, ship=sh.name)
        return _no("starwars_d6.refused.weapon_disabled", "{ship}'s {weapon} is disabled (light damage).", tables.SEC_LIGHT,
                   ship=sh.name, weapon=w.name)
    if w.ammo is not None and w.ammo <= 0:
        return _no("starwars_d6.refused.no_ammo", "{ship}'s {weapon} is out of ammunition.", "", ship=sh.name, weapon=w.name)
    if w.fc_reduced and is_zero(w.fire_control):
        return _no("starwars_d6.refused.fire_control_0d", "{ship}'s {weapon} has lost all its fire control to damage (0D): it is "
                   "inoperative.", SEC_CUMULATIVE, ship=sh.name, weapon=w.name)
    left = guns_left(s, sh, w)
    if not left:
        if w.shots > 1:
            return _no("starwars_d6.refused.battery_spent", "All {guns} guns of {ship}'s {weapon} have fired this phase.",
                       tables.SEC_FIRE_FACTORS, guns=w.shots, ship=sh.name, weapon=w.name)
        return _no("starwars_d6.refused.weapon_fired", "{ship}'s {weapon} has fired this phase: each weapon system fires once.",
                   SEC_PROCEDURE, ship=sh.name, weapon=w.name)
    fired = [o for o in sh.weapons if weapon_key(sh, o) in s.fired]
    if fired and {tables.FIRE_GROUP[o.type] for o in fired} != {tables.FIRE_GROUP[w.type]}:
        return _no("starwars_d6.refused.not_together", "{ship} has fired its {fired} this phase: {weapon} cannot fire with it (lasers, "
                   "blasters and the capital ships' guns fire together; ion cannons, missiles and torpedoes "
                   "alone).", SEC_PROCEDURE, ship=sh.name, fired=", ".join(o.name for o in fired), weapon=w.name)
    tractor = w.type == "tractor_beam"
    held = holding(s, sh, w) if tractor else None
    if held is not None:
        return _no("starwars_d6.refused.beam_busy", "{ship}'s {weapon} holds {held}: a beam that holds a ship does not fire.",
                   tables.SEC_TRACTOR, ship=sh.name, weapon=w.name, held=held.name)
    t = s.ship(action.get("target"))
    if t.side == sh.side:
        return _no("starwars_d6.refused.target_friend", "{target} is on {ship}'s side.", SEC_PROCEDURE, target=t.name, ship=sh.name)
    if not t.in_play:
        return _no("starwars_d6.refused.target_gone", "{target} is out of the combat.", tables.SEC_RETREAT, target=t.name)
    if tractor and t.captured_by:
        return _no("starwars_d6.refused.held_already", "{target} is held by a tractor beam already: one beam holds it at a time.",
                   tables.SEC_TRACTOR, target=t.name)
    if (sh.scale, t.scale) in tables.CANNOT_FIRE:
        return _no("starwars_d6.refused.scale_too_small", "{ship} is of Death Star scale: it cannot fire at anything smaller than a "
                   "capital ship ({target} is a starfighter).", SEC_SCALE_TO_HIT, ship=sh.name, target=t.name)
    if w.type == "proton_torpedo" and tables.speed_modifier("proton_torpedo", t.speed) is None:
        return _no("starwars_d6.refused.too_fast_for_torpedoes", "{target} has speed {speed}: a proton torpedo cannot hit a ship faster "
                   "than 12.", tables.SEC_MISSILES, target=t.name, speed=t.speed)
    far = hexes.distance(sh.pos, t.pos)
    if tables.range_band(w.type, far, t.scale) is None:
        return _no("starwars_d6.refused.out_of_range", "{target} is {far} hexes away: {weapon} reaches {reach} hexes ({bands}).",
                   tables.SEC_RANGES, target=t.name, far=far, weapon=w.name, reach=tables.farthest(w.type, t.scale),
                   bands=_bands(w.type, t.scale))
    if not line_of_fire(s, sh.pos, t.pos):
        return _no("starwars_d6.refused.line_blocked", "A planet, moon or obstacle blocks the line of fire between {ship} and {target}.",
                   tables.SEC_LINE_OF_FIRE, ship=sh.name, target=t.name)
    guns = dict(action.params).get("guns")
    if guns is None:
        return None
    if w.shots <= 1:
        return _no("starwars_d6.refused.not_a_battery", "{ship}'s {weapon} is one gun, not a battery: it fires without guns=.",
                   tables.SEC_FIRE_FACTORS, ship=sh.name, weapon=w.name)
    if not isinstance(guns, int):
        return None
    if guns == left:
        return _no("starwars_d6.refused.broadside_all", "A broadside of every gun {weapon} has left ({left}) is fired without guns=.",
                   tables.SEC_FIRE_FACTORS, weapon=w.name, left=left)
    if not 1 <= guns < left:
        return _no("starwars_d6.refused.broadside_size", "{ship}'s {weapon} has {left} of its {shots} guns left to fire: a broadside is "
                   "1 to {left} of them.", tables.SEC_FIRE_FACTORS, ship=sh.name, weapon=w.name, left=left,
                   shots=w.shots)
    return None
