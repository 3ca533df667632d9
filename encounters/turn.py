"""The ship's-turn panel (issue 27): the GM chooses every seat's action of the ship whose turn
it is on one form, submitted once; the server applies the choices one after another, each its
own step through the single writer (:func:`encounters.log.step`), checking each is still legal
when its turn comes.

The engine says what the seats are (``turn_plan``, rulesets/core/contract.py: Cepheus's crew
by position).  Applying a seat: its choice, then its ``finish`` ("done") when the choice leaves
the seat more to do.  It stops, with a message, where the rules interrupt (a target's reaction,
a delaying ship acting now) or where a choice is no longer legal; the steps taken stay, the
runner shows the fight at that point and the panel the seats left.

Physical dice: the turn is walked first in memory (:func:`simulate`), the same steps in the
same order, to ask every die of the whole turn at once (:func:`encounters.runner.turn_dice_prompt`)
and, once they are typed, to know which faces each step reads; then the steps are written, each
with its own faces, as the log records them one by one.
"""
from __future__ import annotations

import random

from django.utils.translation import gettext as _

from rulesets.core.dice import Dice, DiceNeeded, derive_seed
from rulesets.core.engine import Action, IllegalAction, apply_checked
from rulesets.core.messages import render

from . import log as encounter_log


class TurnDice(Exception):
    """The turn rolls physical dice not typed yet (``need``, the engine's :class:`DiceNeeded`,
    or None when nothing was typed): nothing of the turn was written."""

    def __init__(self, need=None):
        self.need = need
        super().__init__("dice")


class TurnMovedOn(Exception):
    """The form was made for an earlier step: nothing of it was applied."""

    def __init__(self):
        super().__init__(_("The encounter has moved on since this ship's turn was shown: nothing of it was applied. "
                           "Here is the turn as it stands now."))


def plan_at(encounter, state, head: int):
    """The engine's seats in ``state`` (the step after ``head``), the defaults seeded as
    auto-play's next step is."""
    rng = random.Random(derive_seed(encounter.seed, head + 1, "policy"))
    return encounter.engine.turn_plan(state, rng)


def plan_of(encounter, now):
    """The engine's seats at ``now``, the defaults seeded as auto-play's next step is."""
    return plan_at(encounter, now.state, now.head)


def panel(encounter, now, ships, only=None, words=None) -> dict | None:
    """The panel's context: the ship's name and each seat's choices in words, or None.

    ``only(seat)``: whether the viewer takes that seat (a player's own seats; the GM's, those
    no player takes): the panel shows when the seat acting now is theirs, with their seats
    still to come; the turn stops at a seat that is someone else's."""
    engine = encounter.engine
    seats = plan_of(encounter, now)
    if not seats or (only is not None and not only(seats[0])):
        return None
    ship = engine.turn_ship(now.state)
    words = words or (lambda text: text)  # a player's page words an enemy's crew by their post
    rows = [{"actor": seat.actor, "label": words(seat.label), "default": seat.default.to_str(),
             "choices": [{"value": a.to_str(), "label": words(_describe(engine, now.state, a))} for a in seat.choices]}
            for seat in seats if only is None or only(seat)]
    if not rows:
        return None
    return {"ship": ship, "name": next((s.get("name") for s in ships if s.get("id") == ship), ship),
            "seats": rows}


def seat_owner(encounter, now, links=None):
    """``owner(seat)``: the user id of the player who takes the seat (None: the GM), as for the
    step it stands for (encounters/players.py)."""
    from .players import links_of, owner_of

    links = links if links is not None else links_of(encounter)
    return lambda seat: owner_of(encounter, now.state, seat.default, links).user


def _describe(engine, state, action) -> str:
    try:
        return engine.describe(state, action)
    except (KeyError, ValueError, AttributeError, IndexError, StopIteration):
        return action.to_str()


class Walk:
    """Which step comes next in the posted turn: the order the rules take the seats, each
    seat's choice and then its "done", and where the turn stops.  The same decisions for the
    writer (:func:`play_turn`) and for the dice asked at once (:func:`simulate`)."""

    def __init__(self, engine, ship: str, seats: list[tuple[str, str]]):
        self.engine, self.ship = engine, ship
        self.posted = dict(seats)
        self.order = [actor for actor, _ in seats]
        self.done: set[str] = set()
        self.unfinished: dict[str, str] = {}  # a seat whose choice a reaction interrupted: its "done" to come

    def next(self, state, plan) -> tuple[str | None, str]:
        """(the next step's action, "") or (None, why the turn stops here; "" when it is over)."""
        engine, ship = self.engine, self.ship
        if state.over or engine.turn_ship(state) != ship:
            return None, ""  # the turn is over (the last seat passed, the Captain delayed)
        if not plan:
            if engine.actor_ship(state) != ship:
                return None, _("The rules interrupt the turn here: decide this step, then the rest of the turn shows again.")
            return None, _("The turn goes on step by step from here.")
        seat = plan[0]
        choices = {a.to_str() for a in seat.choices}
        if seat.actor in self.unfinished and seat.actor in self.done:
            action = self.unfinished.pop(seat.actor)
            if action in choices:
                return action, ""
        finish = seat.finish.to_str() if seat.finish is not None else None
        if seat.actor not in self.posted and finish in choices and finish in self.unfinished.values():
            # more of a seat this form played (a second action the form did not offer, the dice
            # having left one): nothing more was chosen for it, so its finish
            self.unfinished = {a: f for a, f in self.unfinished.items() if f != finish}
            return finish, ""
        if (seat.actor not in self.posted or seat.actor in self.done) and engine.actor_ship(state) != ship:
            # another ship decides now (a reaction the form did not hold, a second one)
            return None, _("The rules interrupt the turn here: %(seat)s. Choose it below; "
                            "the rest of the turn is on the panel with it.") % {"seat": render(seat.label)}
        if seat.actor in self.done or seat.actor not in self.posted:
            # a seat the form did not know (it was not there when the panel was shown): the GM's
            return None, _("%(seat)s acts now, and this form held no choice for them: choose it here.") % {
                "seat": render(seat.label)}
        # seats the rules passed over (fallen, no longer at their post)
        self.done.update(a for a in self.order[:self.order.index(seat.actor)] if a not in self.done)
        chosen = self.posted[seat.actor]
        if chosen not in choices:
            return None, _("%(seat)s: the chosen action is no longer possible; choose again.") % {"seat": render(seat.label)}
        self.done.add(seat.actor)
        # the seat's part ends with its finish ("done") when the choice leaves it more to do,
        # now or after the reaction it caused
        if seat.finish is not None and chosen != seat.finish.to_str():
            self.unfinished[seat.actor] = seat.finish.to_str()
        return chosen, ""


def simulate(encounter, state, head: int, ship: str, seats, source, *, limit: int = 60, own: bool = False):
    """Walk the turn in memory from ``state`` with the dice of ``source`` (a
    :class:`encounters.runner.TurnFaces`: each step's action announced by ``begin``).

    ``own``: a player's own dice: ``source`` answers the rolls that are theirs
    (``RulesetBase.own_rolls``), the app the others, as the write path will draw them.
    Returns ([(action, faces of ``source`` the step read)], why it stops).  The engine's
    exceptions (dice not typed, a face out of range) propagate; an illegal step stops the walk."""
    from rulesets.core.dice import OwnDiceSource

    engine = encounter.engine
    walk = Walk(engine, ship, seats)
    out = []
    while len(out) < limit:
        action, why = walk.next(state, plan_at(encounter, state, head))
        if action is None:
            return out, why
        source.begin(action)
        act = Action.parse(action)
        mine = engine.own_rolls(state, act) if own else None
        dice = Dice(source if mine is None else
                    OwnDiceSource(source, encounter_log.dice_source(encounter, head + 1, mode="auto"), mine))
        try:
            result = apply_checked(engine, state, act, dice)
        except IllegalAction:
            return out, _("The turn stops here: the next step is no longer possible; choose it below.")
        out.append((action, list(source.read)))
        state, head = result.state, head + 1
    return out, ""


def play_turn(encounter, *, ship: str, seats: list[tuple[str, str]], expected_seq: int, user=None,
              faces: dict | None = None, mode: str | None = None, check=None) -> tuple[int, str]:
    """Apply the posted ``seats`` ((actor, action string) in the panel's order) of ``ship``'s turn.

    Returns (steps written, why it stopped early or "").  Raises :class:`TurnMovedOn` when the
    head is not ``expected_seq`` or the turn is no longer ``ship``'s; with physical dice,
    :class:`TurnDice` while a die of the turn is not typed yet (``faces``: the typed faces by
    die key, :func:`encounters.runner.turn_dice_prompt`; nothing written) and the engine's
    :class:`InvalidFace` for a face out of range (nothing written); :class:`encounters.log.StaleStep`
    when someone else's step came in between two of the turn's (those before it stay);
    :class:`encounters.log.EncounterClosed`.

    ``mode``: a player's dice ("auto": the app's; "own": their own, typed as with physical dice),
    else the encounter's; ``check(action)``: the write path's check of each step (a player's:
    still theirs, under the lock).
    """
    from .models import Encounter

    engine = encounter.engine
    now = encounter_log.current(encounter)
    if now.head != expected_seq or engine.turn_ship(now.state) != ship:
        raise TurnMovedOn()
    if mode == Encounter.OWN or (mode is None and encounter.dice_mode == Encounter.MANUAL):
        return _play_typed(encounter, now, ship, seats, faces or {}, user, mode, check)
    taken = 0
    walk = Walk(engine, ship, seats)
    while True:
        action, why = walk.next(now.state, plan_of(encounter, now))
        if action is None:
            return taken, why
        encounter_log.step(encounter, action, expected_seq=now.head, user=user, dice_mode=mode,
                           check=check(action) if check else None)
        taken += 1
        now = encounter_log.current(encounter)


def _play_typed(encounter, now, ship, seats, faces: dict, user, mode=None, check=None) -> tuple[int, str]:
    """Physical dice: every die of the turn typed (checked first, in memory), then each step
    written with the faces it reads, in order."""
    from .runner import TurnFaces

    try:
        steps, why = simulate(encounter, now.state, now.head, ship, seats, TurnFaces(faces), limit=200,
                              own=mode is not None)
    except DiceNeeded as need:
        raise TurnDice(need) from None
    head = now.head
    for action, used in steps:
        row = encounter_log.step(encounter, action, expected_seq=head, user=user, faces=used or None, dice_mode=mode,
                                 check=check(action) if check else None)
        head = row.seq
    return len(steps), why
