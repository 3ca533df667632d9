"""The round's sequence (seed "4. SEQÜENCIA DE JOC"): initiative, then the movement phase with the
movement rules of "1. MOVIMENT I MANIOBRA" (via :mod:`rulesets.starwars_d6.hexes`) and the drift
of dead controls.  Each public rule returns a new state and its log lines.
Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.dice import Dice
from rulesets.core.engine import Log
from rulesets.core.messages import english, Message, msg, msgn, render

from . import hexes, tables
from .dice import roll_code
from .damage import collide, say_complication
from .state import (CombatState, roll_purpose, complication_choice, controls_dead, current_maneuverability,
    feature_at, movement_speed, occupied, own, Progress, SEC_COLLISION, SEC_FIRING_PHASE, SEC_INITIATIVE,
    SEC_IONISED, SEC_RETREAT, Ship, ship_at, ships_in_order, sides_in_play, thaw, update_holds)


INITIATIVE = "starwars_d6.roll.initiative"


def initiative_purpose(side: str) -> Message:
    """The purpose of a side's initiative roll (its Wild Die rolls say more after it, in brackets)."""
    return roll_purpose("starwars_d6.roll.initiative", "initiative of {side}", side=side)


def is_initiative_of(side: str, purpose: Message | str) -> bool:
    """Whether a roll of ``purpose`` is ``side``'s initiative (its 2D or its Wild Die again): the dice
    a player rolling their own types at the initiative step (docs/rulesets/starwars_d6.md).

    A message is matched by its id and its side -- the initiative message itself, or a message
    saying more of it (it as a parameter: "... (Wild Die again)").  Words (a label the dice
    wrote around the message, in English or in the reader's language) are matched against the
    message's words in either."""
    if isinstance(purpose, Message):
        if purpose.id == INITIATIVE:
            return purpose.get("side") == side
        return any(isinstance(v, Message) and is_initiative_of(side, v) for v in purpose.params.values())
    base = initiative_purpose(side)
    return any(purpose == words or purpose.startswith(words + " (") for words in (english(base), render(base)))


def then_chain(names: list[str]) -> Message | str:
    """"A then B then C": an order in words."""
    if len(names) <= 1:
        return names[0] if names else ""
    return msg("starwars_d6.words.then", "{first} then {last}", first=then_chain(names[:-1]), last=names[-1])


def roll_initiative(state: CombatState, dice: Dice) -> tuple[CombatState, Log]:
    """Seed 4. "Fase d'iniciativa": 2D per side; lowest moves first; ties rerolled.

    decision: only the tied sides roll again, and only to order themselves.
    """
    s = thaw(state, ships=False, lists=False)    # the lists it changes are replaced, not changed in place
    log = Log(dice.recording)
    rolls: dict[str, int] = {}

    def order(group: list[str]) -> list[str]:
        if len(group) <= 1:
            return group
        got = {}
        for side in group:
            purpose = initiative_purpose(side)
            r = roll_code(dice, tables.INITIATIVE_DICE, wild=s.wild, purpose=purpose, rule=SEC_INITIATIVE,
                          complication=complication_choice(s))
            got[side] = rolls[side] = r.total
            log.say(msg("starwars_d6.log.initiative", "Initiative: {side} rolls {total}.", side=side, total=r.total),
                    SEC_INITIATIVE)
            say_complication(log, r, purpose)
        out: list[str] = []
        for total in sorted(set(got.values())):
            tied = [side for side in group if got[side] == total]
            if len(tied) > 1:
                log.say(msg("starwars_d6.log.initiative_tie", "Tie on {total} ({sides}): rolled again.", total=total,
                            sides=", ".join(tied)), SEC_INITIATIVE)
            out.extend(order(tied))
        return out

    s.order = order(sides_in_play(s))
    s.initiative = rolls
    s.phase = "movement"
    s.queue = ships_in_order(s)
    s.fired, s.shots, s.guns_fired = [], [], {}
    log.say(msg("starwars_d6.log.order", "Round {round}: {order} (lowest first).", round=s.round,
                order=then_chain(s.order)), SEC_INITIATIVE)
    s.moving = start_moving(s)
    return s, log


def start_moving(s: CombatState) -> Progress | None:
    s.queue = [i for i in s.queue if s.ship(i).in_play]
    if not s.queue:
        return None
    sh = s.ship(s.queue[0])
    return Progress(sh.id, movement_speed(sh), hexes.maneuverability_points(current_maneuverability(sh, s.round)))


def moves_from(state: CombatState, ship: Ship, ms: hexes.MoveState) -> list[hexes.Move]:
    """The legal next moves of ``ship`` from the movement state ``ms`` (occupied hexes blocked; a
    ship held by a tractor beam may only hold) -- for :func:`move_options` and course searches."""
    if ship.captured_by:
        return hexes.moves(hexes.MoveState(ms.pos, ms.facing, 0, 0), ship.scale != tables.STARFIGHTER, state.hboard)
    return hexes.moves(ms, ship.scale != tables.STARFIGHTER, state.hboard, occupied(state, besides=(ship.id,)))


def course_key(state: CombatState) -> tuple:
    """Everything besides the ship's own movement state that its moves depend on (a cache key)."""
    mover = state.ship(state.moving.ship) if state.moving else None
    return (tuple(sorted(occupied(state, besides=(mover.id,) if mover else ()))),
            bool(mover and mover.captured_by))


def move_options(state: CombatState) -> list[hexes.Move]:
    """The moving ship's legal next moves (seed "1. MOVIMENT I MANIOBRA", via hexes.legal_moves).

    A ship with fully ionised controls only drifts (see :func:`drift`): no options here.  Hexes
    of other ships and of planets, moons and obstacles cannot be entered (decision); a ship held
    by a tractor beam can only hold ("Raigs tractors", decision).
    """
    s = state
    if s.phase != "movement" or not s.moving:
        return []
    sh = s.ship(s.moving.ship)
    ms = hexes.MoveState(sh.pos, sh.facing, s.moving.speed_left, s.moving.free_turns_left, s.moving.after_forward)
    if sh.captured_by:
        return moves_from(s, sh, ms)
    if controls_dead(sh, s.round):
        return []
    return moves_from(s, sh, ms)


def next_mover(s: CombatState, log: Log) -> None:
    if s.queue:
        s.queue.pop(0)
    update_holds(s, log)
    if not any(sh.in_play for sh in s.ships):
        s.over, s.winner, s.moving, s.queue = True, None, None, []
        log.say(msg("starwars_d6.log.nobody_left", "No ship is left in the combat: it is over, with no winner."),
                SEC_RETREAT)
        return
    s.moving = start_moving(s)
    if s.moving is None:
        s.phase = "firing"
        s.queue = ships_in_order(s)
        log.say(msg("starwars_d6.log.firing_phase", "Round {round}: firing phase, in the same order; all fire is "
                    "simultaneous.", round=s.round), SEC_FIRING_PHASE)


def move(state: CombatState, kind: str, side: int = 0, *, log: Log | None = None) -> tuple[CombatState, Log]:
    """Make one of :func:`move_options` (``kind`` forward/turn/slide/hold, ``side`` -1/+1).
    ``log``: where its lines go (a new one, kept, when None)."""
    m = next((m for m in move_options(state) if m.kind == kind and m.side == side), None)
    if m is None:
        raise ValueError(f"{kind} {side} is not a legal move now.")
    return make_move(state, m, log=log)


def make_move(state: CombatState, m: hexes.Move, *, log: Log | None = None) -> tuple[CombatState, Log]:
    """:func:`move` with the move already found among :func:`move_options` (the engine's check);
    ``log``: the step's log (a playout's keeps nothing)."""
    # only the mover and its progress change (and a ship a hold releases); the order, the queue
    # and the rest only when its movement ends (next_mover)
    s = thaw(state, ships=False, lists=m.after.done)
    sh = own(s, s.moving.ship, fields_only=True)   # its weapons and lists do not change
    sh.col, sh.row = m.to
    sh.facing = m.facing
    p = s.moving
    p.speed_left, p.free_turns_left, p.after_forward = m.speed_left, m.free_turns_left, m.after.after_forward
    p.started = True
    if m.kind in ("forward", "slide"):
        p.hexes += 1
    log = Log() if log is None else log
    log.say(msg("starwars_d6.log.move", "{ship}: {move}.", ship=sh.name, move=m.label), tables.SEC_MOVEMENT)
    if m.leaves_board:
        sh.off_board = True
        log.say(msg("starwars_d6.log.off_board", "{ship} leaves the board and the combat.", ship=sh.name), SEC_RETREAT)
    update_holds(s, log)
    if m.after.done:
        own(s, sh.id, fields_only=True).last_moved = p.hexes
        next_mover(s, log)          # (it sets the label of who acts next)
    # else the same ship moves on, in the same round and phase: the label of who acts is unchanged
    return s, log


def drift(state: CombatState, dice: Dice | None = None) -> tuple[CombatState, Log]:
    """Seed 5. "Controls ionitzats": dead controls -- the ship moves as many hexes as it last
    moved, straight on, even off the board.

    decision: a hex with another ship in play or a feature on the way is an accidental collision
    ("Col·lisions accidentals", :func:`collide`); the ship stops in the hex before it.
    ``dice`` is needed only for such a collision.
    """
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    if not controls_dead(sh, s.round):
        raise ValueError(f"{sh.name} has working controls: it moves normally.")
    entered, off, hit = 0, False, None
    for _ in range(sh.last_moved):
        nxt = hexes.neighbour(sh.pos, sh.facing)
        if not s.hboard.contains(nxt):
            sh.col, sh.row = nxt
            entered, off = entered + 1, True
            break
        hit = ship_at(s, nxt, besides=(sh.id,)) or feature_at(s, nxt)
        if hit is not None:
            break
        sh.col, sh.row = nxt
        entered += 1
    log = Log(dice.recording if dice is not None else True)
    log.say(msg("starwars_d6.log.drift", "{ship} drifts {hexes} with dead controls.", ship=sh.name,
                hexes=msgn("starwars_d6.words.hexes", "{count} hex", "{count} hexes", entered)), SEC_IONISED)
    if off:
        sh.off_board = True
        log.say(msg("starwars_d6.log.drift_off", "{ship} drifts off the board and leaves the combat.", ship=sh.name),
                SEC_IONISED)
    if hit is not None:
        if dice is None:
            raise ValueError("A drift into an occupied hex is a collision: it needs dice.")
        what = hit.name if isinstance(hit, Ship) else hit.label
        log.say(msg("starwars_d6.log.drift_into", "{ship} drifts into {what} and stops in the hex before it.",
                    ship=sh.name, what=what), SEC_COLLISION)
        collide(s, sh, hit, sh.pos, dice, log, SEC_COLLISION)
    next_mover(s, log)
    return s, log
