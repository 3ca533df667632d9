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


#: what a crew member may still do after their action that is no reason for a second seat on the
#: panel ("done"; a personal action or a change of post, which the step buttons still offer)
_TRIVIAL = frozenset({"done", "end_turn", "personal", "change_position"})

#: the key suffix of a crew member's second action on the panel
THEN = "+then"


def crew_seats(s: CombatState, rng: random.Random) -> list[TurnSeat]:
    """Each crew member still to act, and after them their second action where the rules leave
    them one worth choosing (Il turno: one minor and one significant action, or three minor ones;
    repair drones with two checks): the pilot's speed after a manoeuvre, the Captain's
    coordination after declaring haste.  A second action is its own seat (``<id>+then``),
    "done" preselected unless the bot would take one."""
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
        then_label = str(msg("cepheus.turn.seat_then", "{name} ({position}): a second action", name=c.name,
                             position=POSITION_LABEL.get(c.position, c.position)))
        if i == s.pos and not _fresh(at, ship, c):  # their first action taken: the second is what is left
            worth = c.task is None and any(a.kind not in _TRIVIAL for a in choices)
            seats.append(TurnSeat(actor=c.id + THEN if worth else c.id, label=then_label if worth else label,
                                  choices=choices, default=default, finish=done))
            continue
        seats.append(TurnSeat(actor=c.id, label=label, choices=choices, default=default, finish=done))
        then = _second(at, ship, c, default) if c.task is None else None
        if then is not None:
            seats.append(TurnSeat(actor=c.id + THEN, label=then_label, choices=then[0], default=then[1], finish=done))
    return seats


def _fresh(s: CombatState, ship, c) -> bool:
    """Whether crew member ``c``, acting in ``s``, has all their actions still (start_crew's)."""
    start = clone(s)
    start_crew(start, ship, c)
    return (s.sig, s.minor) == (start.sig, start.minor)


def _second(at: CombatState, ship, c, first: Action):
    """(choices, default) of crew member ``c``'s second action, or None when the bot's first
    action (``first``, the seat's default) leaves nothing worth a seat.  The choices are those
    open after a significant action (a minor left) or after a minor one (the significant left),
    so they fit whichever first action is chosen; the real one is checked when its turn comes."""
    after = _after(at, c, first)
    if after is None or not any(a.kind not in _TRIVIAL for a in crew_actions(after, ship, c)):
        return None
    seen: dict[str, Action] = {}
    for sig, minor in ((at.sig - 1, at.minor), (at.sig, at.minor - 1)):
        if sig < 0 or minor < 0:
            continue
        for a in crew_actions(clone(at, sig=sig, minor=minor), ship, c):
            if a.kind != "end_turn":
                seen.setdefault(a.to_str(), a)
    choices = tuple(seen.values())
    pick = choose(after, random.Random(f"then-{c.id}"))
    return choices, pick if pick in choices and pick.kind not in _TRIVIAL else Action.make("done", c.id)


def _after(at: CombatState, c, first: Action) -> CombatState | None:
    """The state after ``first`` (a seeded roll: for the panel's preselection only), while ``c``
    still acts in it; None otherwise."""
    from rulesets.core.dice import DiceError, seeded
    from rulesets.core.engine import IllegalAction

    from .engine import HANDLERS
    from .state import Tx

    handler = HANDLERS.get(first.kind)
    if handler is None or first.kind == "done":
        return None
    try:
        tx = Tx(at, seeded(f"then-{c.id}"))
        handler(tx, first)
    except (IllegalAction, DiceError, ValueError):
        return None  # the first action cannot be played from here: no second seat to offer
    after = tx.s
    if after.phase != "crew" or after.pending is not None or after.acting_crew is None or after.acting_crew.id != c.id:
        return None
    return after
