"""The ship's-turn panel (issue 27): every crew member still to act in this ship's turn, with
their choices, so the GM decides the whole turn on one form.

Il turno: the crew act by position (the Captain first), each taking one minor and one
significant action (or three minor ones) and then passing on ("done").  A seat's choices are
what :func:`crew_actions` offers that crew member when their turn comes, worked out on a copy
of the state with the queue advanced to them (the crew before them have not acted yet: the
runner checks each choice again when its turn comes).  The default is the bot's choice
(:func:`policy.choose`) for that crew member, which is "done" for a position with nothing
useful to do.  "End the ship's turn" is left out: the panel's last seat ends it.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING

from rulesets.core.contract import TurnSeat
from rulesets.core.engine import Action
from rulesets.core.messages import msg
from rulesets.core.state import clone

from .actions import crew_actions, reactions
from .crew import POSITION_LABEL
from .policy import choose
from .queries import role_active
from .sequence import start_crew

if TYPE_CHECKING:
    from .state import CombatState


#: the key of the reaction seat (the target's answer to an attack of this turn) on the panel
REACTION = "reaction"


def turn_plan(s: CombatState, rng: random.Random) -> list[TurnSeat] | None:
    """The seats of the acting ship's turn from the crew member acting now, or None outside a
    crew turn (initiative, a range choice, a delay decision).  While an attack of this turn
    waits for its target's reaction, the reaction is the first seat (the target's choices, the
    bot's preselected), then the attacker's crew still to act, as the turn goes on after it."""
    if s.over:
        return None
    seats: list[TurnSeat] = []
    crew_state = s
    if s.phase == "react" and s.pending is not None:
        choices = tuple(reactions(s))
        default = choose(s, rng)
        target = s.find_ship(s.pending.target)
        seats.append(TurnSeat(actor=REACTION, choices=choices, default=default if default in choices else choices[0],
                              label=str(msg("cepheus.turn.reaction", "{ship} reacts",
                                            ship=target.name if target else s.pending.target))))
        if s.pending.kind == "missiles":
            return seats
        crew_state = clone(s, phase="crew", pending=None)  # the turn as it goes on after the reaction
    elif s.phase != "crew" or s.pending is not None:
        return None
    seats.extend(crew_seats(crew_state, rng))
    return seats or None


def crew_seats(s: CombatState, rng: random.Random) -> list[TurnSeat]:
    ship, crew = s.actor()
    if ship is None or crew is None:
        return []
    seats = []
    for i in range(s.pos, len(s.queue)):
        c = ship.member(s.queue[i])
        if c is None or not role_active(ship, c):
            continue
        if i == s.pos:
            at = s
        else:  # the state when this crew member's turn comes, the crew before them passed
            at = clone(s, pos=i)
            start_crew(at, ship, c)
        choices = tuple(a for a in crew_actions(at, ship, c) if a.kind != "end_turn")
        done = Action.make("done", c.id)
        default = choose(at, rng)
        if default not in choices:
            default = done
        label = str(msg("cepheus.turn.seat", "{name} ({position})", name=c.name,
                        position=POSITION_LABEL.get(c.position, c.position)))
        seats.append(TurnSeat(actor=c.id, label=label, choices=choices, default=default, finish=done))
    return seats
