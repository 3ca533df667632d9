"""The round: who acts, in which order, at which scale, and when the fight is over.

A round is a ship round (Раунды и порядок: each ship a manoeuvre and an attack, its
stations in turn) unless boarders and defenders stand in the same ship: then it is a
personal round (Боевой раунд) and the ship fight waits (house rule: guns do not work at
Docked, VD-45).  Each round starts with an "initiative" step that rolls the order and
counts down the timers (bleeding out, unconsciousness, shock, the reactor, a reboot).
The first round begins with a step of its own; each later one begins inside the step
that ends the round before it (its dice are that step's).
Pure Python.
"""
from __future__ import annotations

from typing import Final

from rulesets.core.dice import Dice
from rulesets.core.engine import Log
from rulesets.core.messages import msg, msgn

from . import tables
from .checks import roll_plus
from .common import combatant, evolve, set_combatant, set_ship, ship, standing
from .model import STANDING, VoidState
from .options import STATION_OPEN
from .ships import band, explode, ship_initiative
from .timers import TIMED

# --- scale and order ----------------------------------------------------------------------


def contested_ships(state: VoidState) -> list[str]:
    """Ships with standing people of two sides aboard: a boarding fight is under way there."""
    return standing(state).contested


_INITIATIVE_RULE: Final = tables.rule("initiative", "VD-03")
_AGILITY: Final = tables.ABILITY_WORDS["agility"]


def personal_initiative(state: VoidState, log: Log, dice: Dice, where: list[str], **changes) -> VoidState:
    """Characters roll 1d20 + Agility: 12 or more act before the enemies, the others after (VD-03);
    among themselves by their roll, highest first (VD-04: the players' own order, set by the GM).
    ``changes``: more fields of the state to set in the same copy (the round's scale and phase)."""
    early: list[tuple[int, int, str]] = []
    enemies: list[str] = []
    late: list[tuple[int, int, str]] = []
    people = list(state.combatants)
    for index, c in enumerate(people):
        if c.aboard not in where or c.status not in STANDING:
            continue
        if c.kind == "enemy":
            enemies.append(c.id)
            continue
        total = roll_plus(dice, 20, _AGILITY, c.agility, msg("void_d20.roll.initiative", "initiative of {name}", name=c.name),
                          _INITIATIVE_RULE)
        people[index] = evolve(c, initiative=total)
        (early if total >= tables.INITIATIVE_SPLIT else late).append((-total, index, c.id))
    order = tuple([cid for _, _, cid in sorted(early)] + enemies + [cid for _, _, cid in sorted(late)])
    # the initiatives rolled move nobody: who stands where is as before
    state = evolve(state, combatants=tuple(people), order=order, standing=state.standing, **changes)
    log.say(msg("void_d20.round.order", "Round order: {people} (characters on {split}+ before the enemies, the rest after).",
                people=", ".join([combatant(state, cid).name for cid in order]), split=tables.INITIATIVE_SPLIT),
            tables.rule("initiative", "VD-03"))
    return state


def tick_timers(state: VoidState, log: Log, dice: Dice) -> VoidState:
    """Count down what lasts for rounds: each timer is the rounds still to sit out after the one
    just ended (what it means in turns lost: timers.py)."""
    for c in state.combatants:          # as they were when the round ended
        if c.status not in TIMED:       # the statuses that last for rounds
            continue
        if c.timer > 0:
            state = set_combatant(state, c.id, timer=c.timer - 1)
        elif c.status == "bleeding":                                      # VD-23: nobody helped
            state = set_combatant(state, c.id, status="dead")
            log.say(msg("void_d20.log.bled_out", "Nobody helped {name} in time: dead.", name=c.name), tables.rule("death", "VD-23"))
        else:                                                             # VD-24, VD-26
            state = set_combatant(state, c.id, status="ok")
            log.say(msg("void_d20.log.back_on_feet", "{name} is back on their feet.", name=c.name),
                    tables.rule("death", "VD-24" if c.status == "unconscious" else "VD-26"))
    for s in state.ships:
        if s.destroyed:
            continue
        if s.reactor is not None:
            left = s.reactor - 1
            if left <= 0:
                state = explode(state, log, dice, s.id)
                continue
            state = set_ship(state, s.id, reactor=left)
            log.say(msgn("void_d20.log.reactor", "{ship}'s reactor: {count} round left.", "{ship}'s reactor: {count} rounds left.",
                         left, ship=s.name), tables.rule("catastrophe", "VD-54"))
        if s.reboot:
            state = set_ship(state, s.id, reboot=s.reboot - 1)
            if s.reboot == 1:
                log.say(msg("void_d20.log.systems_back", "{ship}'s systems are back.", ship=s.name), tables.rule("catastrophe", "VD-63"))
    return state


def return_home(state: VoidState, log: Log, dice: Dice) -> VoidState:
    """Between fights (no ship contested), people standing in another side's ship docked to their own
    go back to their own ship (house rule: otherwise two crews could sit in each other's ships for ever)."""
    if standing(state).contested:
        return state
    for c in state.combatants:
        if c.status not in STANDING or c.aboard == c.ship:
            continue
        home, there = ship(state, c.ship), ship(state, c.aboard)
        if home.in_space and there.side != c.side and band(state, home.id, there.id) == "docked":
            state = set_combatant(state, c.id, aboard=home.id)
            log.say(msg("void_d20.log.home", "{name} goes back aboard {ship}.", name=c.name, ship=home.name), tables.rule("house"))
    return state


def begin_round(state: VoidState, log: Log, dice: Dice) -> VoidState:
    """The "initiative" step: the next round's timers, scale and order."""
    state = evolve(state, round=state.round + 1)
    if state.round > state.max_rounds:
        log.say(msg("void_d20.round.limit", "The round limit ({limit}) is reached: the fight is broken off.", limit=state.max_rounds),
                tables.rule("house"))
        return evolve(state, over=True, winner=None, order=(), phase="initiative", round=state.max_rounds)
    state = tick_timers(state, log, dice)
    state = finish_if_over(state, log, dice)
    if state.over:
        return state
    state = return_home(state, log, dice)
    where = standing(state).contested
    if where:
        log.say(msg("void_d20.round.boarding", "Round {round}: a boarding fight aboard {ships}; the ships wait.", round=state.round,
                    ships=", ".join([ship(state, s).name for s in where])), tables.rule("boarding", "VD-48"))
        state = personal_initiative(state, log, dice, where, scale="personal", phase="turn", turn=0, slot=0)
    else:
        log.say(msg("void_d20.round.ships", "Round {round}: an encounter round between the ships.", round=state.round),
                tables.rule("space", "VD-34"))
        state = ship_initiative(state, log, dice, scale="ship", phase="turn", turn=0, slot=0)  # evasion ends
    return advance(state, log, dice)


# --- whose step ----------------------------------------------------------------------------

#: whether each station has something to do (options.station_open), in the stations' order
_STATION_OPEN: Final = tuple(STATION_OPEN[info.key] for info in tables.STATIONS)


def advance(state: VoidState, log: Log, dice: Dice, turn: int | None = None, slot: int | None = None) -> VoidState:
    """Move to the next actor with something to do from ``turn``/``slot`` (default: the state's),
    or begin the next round."""
    state = finish_if_over(state, log, dice)
    if state.over:
        return state
    if turn is None:
        turn = state.turn
    if slot is None:
        slot = state.slot
    order = state.order
    last = len(order)
    if state.scale == "ship":
        opens = _STATION_OPEN
        crews_of = standing(state).crews    # who works which station of each ship
        while turn < last:
            s = ship(state, order[turn])
            if s.in_space:
                crews = crews_of[s.id]
                for nxt in range(slot, len(opens)):
                    if opens[nxt](state, s, crews):
                        if turn == state.turn and nxt == state.slot:
                            return state
                        return evolve(state, turn=turn, slot=nxt)
            turn, slot = turn + 1, 0
    else:
        where = standing(state).contested   # the ships with a fight aboard (personal_can_act)
        slots = tables.SLOTS_PER_TURN
        while turn < last:
            if slot < slots:
                c = combatant(state, order[turn])
                if c.status == "ok" and c.aboard in where:
                    if turn == state.turn and slot == state.slot:
                        return state
                    return evolve(state, turn=turn, slot=slot)
            turn, slot = turn + 1, 0
    # Everyone has acted: the next round begins in the same step (its dice are this step's).
    return begin_round(evolve(state, phase="initiative", turn=last, slot=0), log, dice)


def next_step(state: VoidState, log: Log, dice: Dice, end_turn: bool = False) -> VoidState:
    """After an action: the actor's next slot, or the next actor."""
    if end_turn and state.scale == "personal":
        return advance(state, log, dice, state.turn + 1, 0)
    return advance(state, log, dice, state.turn, state.slot + 1)


# --- the end --------------------------------------------------------------------------------


def sides(state: VoidState) -> list[str]:
    out: list[str] = []
    for s in state.ships:
        if s.side not in out:
            out.append(s.side)
    return out


def standing_sides(state: VoidState) -> frozenset[str]:
    """The sides with somebody standing in a ship still in the fight."""
    return standing(state).sides


_NOBODY_WINS: Final = msg("void_d20.round.nobody_wins", "The fight is over: nobody is left standing.")


def finish_if_over(state: VoidState, log: Log, dice: Dice) -> VoidState:
    """The fight is over when no two sides have somebody standing in a ship still in the fight."""
    if state.over:
        return state
    sides = standing(state).sides
    if len(sides) > 1:
        return state
    winner = next(iter(sides)) if sides else None
    log.say(msg("void_d20.round.won", "The fight is over: {winner} holds the field.", winner=winner) if winner
            else _NOBODY_WINS, tables.rule("round"))
    return evolve(state, over=True, winner=winner, phase="initiative", order=(), turn=0, slot=0)
