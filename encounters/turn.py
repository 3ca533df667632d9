"""The ship's-turn panel (issue 27): the GM chooses every seat's action of the ship whose turn
it is on one form, submitted once; the server applies the choices one after another, each its
own step through the single writer (:func:`encounters.log.step`), checking each is still legal
when its turn comes.

The engine says what the seats are (``turn_plan``, rulesets/core/contract.py: Cepheus's crew
by position).  Applying a seat: its choice, then its ``finish`` ("done") when the choice leaves
the seat more to do.  It stops, with a message, where the rules interrupt (a target's reaction,
a delaying ship acting now), where a choice is no longer legal, or where dice must be typed;
the steps taken stay, the runner shows the fight at that point and the panel the seats left.
"""
from __future__ import annotations

import random

from rulesets.core.dice import DiceNeeded, derive_seed

from . import log as encounter_log


class TurnDice(Exception):
    """A step of the turn rolls physical dice: ``action`` (its action string) waits for them at
    ``head``; ``need`` is the engine's :class:`DiceNeeded`.  The steps before it are written."""

    def __init__(self, action: str, head: int, need):
        self.action, self.head, self.need = action, head, need
        super().__init__(action)


class TurnMovedOn(Exception):
    """The form was made for an earlier step: nothing of it was applied."""

    def __init__(self):
        super().__init__("The encounter has moved on since this ship's turn was shown: nothing of it was applied. "
                         "Here is the turn as it stands now.")


def plan_of(encounter, now):
    """The engine's seats at ``now``, the defaults seeded as auto-play's next step is."""
    rng = random.Random(derive_seed(encounter.seed, now.head + 1, "policy"))
    return encounter.engine.turn_plan(now.state, rng)


def panel(encounter, now, ships) -> dict | None:
    """The panel's context: the ship's name and each seat's choices in words, or None."""
    engine = encounter.engine
    seats = plan_of(encounter, now)
    if not seats:
        return None
    ship = engine.turn_ship(now.state)
    rows = [{"actor": seat.actor, "label": seat.label, "default": seat.default.to_str(),
             "choices": [{"value": a.to_str(), "label": _describe(engine, now.state, a)} for a in seat.choices]}
            for seat in seats]
    return {"ship": ship, "name": next((s.get("name") for s in ships if s.get("id") == ship), ship),
            "seats": rows}


def _describe(engine, state, action) -> str:
    try:
        return engine.describe(state, action)
    except (KeyError, ValueError, AttributeError, IndexError, StopIteration):
        return action.to_str()


def play_turn(encounter, *, ship: str, seats: list[tuple[str, str]], expected_seq: int, user=None,
              faces=None) -> tuple[int, str]:
    """Apply the posted ``seats`` ((actor, action string) in the panel's order) of ``ship``'s turn.

    Returns (steps written, why it stopped early or "").  Raises :class:`TurnMovedOn` when the
    head is not ``expected_seq`` or the turn is no longer ``ship``'s; :class:`TurnDice` at the
    first step needing typed dice (steps before it stay written; ``faces``: the typed dice of
    the first step applied, the one that asked for them); :class:`encounters.log.StaleStep`
    when someone else's step came in between two of the turn's (those before it stay);
    :class:`encounters.log.EncounterClosed`.
    """
    engine = encounter.engine
    now = encounter_log.current(encounter)
    if now.head != expected_seq or engine.turn_ship(now.state) != ship:
        raise TurnMovedOn()
    taken = 0
    posted = dict(seats)
    order = [actor for actor, _ in seats]
    done_seats: set[str] = set()
    unfinished: dict[str, str] = {}  # a seat whose choice a reaction interrupted: its "done" still to come
    while True:
        if now.state.over:
            return taken, ""
        if engine.turn_ship(now.state) != ship:
            return taken, ""  # the turn is over (the last seat passed, the Captain delayed)
        plan = plan_of(encounter, now)
        if not plan:
            if engine.actor_ship(now.state) != ship:
                return taken, "The rules interrupt the turn here: decide this step, then the rest of the turn shows again."
            return taken, "The turn goes on step by step from here."
        seat = plan[0]
        if seat.actor in unfinished and seat.actor in done_seats:
            action = unfinished.pop(seat.actor)
            if action in {a.to_str() for a in seat.choices}:
                encounter_log.step(encounter, action, expected_seq=now.head, user=user)
                taken += 1
                now = encounter_log.current(encounter)
                continue
        if (seat.actor not in posted or seat.actor in done_seats) and engine.actor_ship(now.state) != ship:
            # another ship decides now (a reaction the form did not hold, a second one)
            return taken, (f"The rules interrupt the turn here: {seat.label}. Choose it below; "
                           "the rest of the turn is on the panel with it.")
        if seat.actor in done_seats or seat.actor not in posted:
            # a seat the form did not know (it was not there when the panel was shown): the GM's
            return taken, f"{seat.label} acts now, and this form held no choice for them: choose it here."
        skipped = [a for a in order[:order.index(seat.actor)] if a not in done_seats]
        done_seats.update(skipped)  # seats the rules passed over (fallen, no longer at their post)
        chosen = posted[seat.actor]
        if chosen not in {a.to_str() for a in seat.choices}:
            return taken, f"{seat.label}: the chosen action is no longer possible; choose again."
        try:
            encounter_log.step(encounter, chosen, expected_seq=now.head, user=user,
                               faces=faces if not taken else None)
        except DiceNeeded as need:
            raise TurnDice(chosen, now.head, need) from None
        taken += 1
        now = encounter_log.current(encounter)
        done_seats.add(seat.actor)
        # the seat's part ends with its finish ("done") when the choice leaves it more to do,
        # now or after the reaction it caused
        if seat.finish is not None and chosen != seat.finish.to_str():
            unfinished[seat.actor] = seat.finish.to_str()
            if not now.state.over and engine.turn_ship(now.state) == ship:
                again = plan_of(encounter, now)
                if again and again[0].actor == seat.actor:
                    encounter_log.step(encounter, unfinished.pop(seat.actor), expected_seq=now.head, user=user)
                    taken += 1
                    now = encounter_log.current(encounter)
