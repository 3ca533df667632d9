"""Small helpers the Void d20 rule modules share: look-ups and copy-on-write updates."""
from __future__ import annotations

from typing import Final

from rulesets.core.spec import remembered_place
from rulesets.core.state import clone

from .model import STANDING, Combatant, PlayoutState, Ship, VoidState


def evolve(obj, **changes):
    """A changed copy of a frozen state dataclass, sharing everything else
    (:func:`rulesets.core.state.clone`: no ``__init__`` run again, a plain attribute dict).

    A playout's own state (:class:`~.model.PlayoutState`, held by nobody else) is changed in place.
    """
    if obj.__class__ is PlayoutState:
        obj.__dict__.update(changes)
        return obj
    return clone(obj, changes)


#: id -> the place in the combatants tuple it was last found at (a fight never reorders its people);
#: only a hint: the person there is checked, and the tuple searched when it is somebody else
_PLACE: Final[dict[str, int]] = {}


def combatant(state: VoidState, cid: str) -> Combatant:
    people = state.combatants
    try:
        c = people[_PLACE[cid]]
    except (KeyError, IndexError):
        pass
    else:
        if c.id == cid:
            return c
    i = remembered_place(people, cid, _PLACE)
    if i is None:
        raise KeyError(f"No one with id '{cid}'.")
    return people[i]


def ship(state: VoidState, sid: str) -> Ship:
    for s in state.ships:
        if s.id == sid:
            return s
    raise KeyError(f"No ship with id '{sid}'.")


def set_combatant(state: VoidState, cid: str, **changes) -> VoidState:
    people = state.combatants
    i = remembered_place(people, cid, _PLACE)  # where combatant() last found them, checked
    if i is None:
        raise KeyError(f"No one with id '{cid}'.")
    c = people[i]
    new = clone(c, changes)
    replaced = people[:i] + (new,) + people[i + 1:]
    if "status" not in changes and "aboard" not in changes and "side" not in changes:
        # ``c`` stands as before, in the same ship, on the same side (their HP, gear, Void Points...
        # changed): the answers kept for ``people`` hold for ``replaced`` (who stands aboard each ship,
        # listing ``new`` in place of ``c``, and the PEOPLE_SLOTS')
        hit = _ABOARD[0]
        if hit[0] is people:
            where = hit[1]
            if c.status in STANDING:
                where = dict(where)            # the kept lists are shared: replace, never change
                aboard = where[c.aboard] = where[c.aboard][:]
                for k, x in enumerate(aboard):
                    if x is c:
                        aboard[k] = new
                        break
            _ABOARD[0] = (replaced, where)
        for slot in PEOPLE_SLOTS:
            hit = slot[0]
            if hit[0] is people:
                slot[0] = (replaced,) + hit[1:]
    return evolve(state, combatants=replaced)


#: answers kept against a people tuple that read only who stands where on which side: one-slot lists
#: holding a tuple whose first item is the people tuple the answer was read from; when a new tuple differs
#: from the old only in a person's other fields (HP, gear, Void Points...), an answer kept for the old
#: tuple is kept for the new one too (the slot's tuple replaced whole, its first item the new people)
PEOPLE_SLOTS: Final[list] = []


def people_changed(old: tuple, people: tuple) -> None:
    """``people`` is ``old`` with some people replaced by copies standing as they did, in the same
    ships, on the same sides (their initiative rolled): the PEOPLE_SLOTS' answers hold for ``people``
    (who stands aboard, which lists the people themselves, is asked again)."""
    for slot in PEOPLE_SLOTS:
        hit = slot[0]
        if hit[0] is old:
            slot[0] = (people,) + hit[1:]


#: a ship's fields that no kept answer keyed on the ships reads (who stands, the sides standing, the
#: contested ships, the bot's targets, whether a ship manoeuvres, what its captain may urge)
INERT_SHIP_FIELDS: Final = frozenset({"command", "evading", "initiative", "weakness", "spare_parts", "breached"})

#: answers kept against the people and ships tuples that read none of :data:`INERT_SHIP_FIELDS`:
#: one-slot lists holding a tuple (people, ships, ...); when the new ships tuple holds the same ships
#: in the same places, changed in those fields only, the answer is kept for the new tuple too
SHIP_SLOTS: Final[list] = []


def ships_changed(old: tuple, ships: tuple) -> None:
    """``ships`` is ``old`` with some ships replaced by copies changed in inert fields only."""
    for slot in SHIP_SLOTS:
        hit = slot[0]
        if hit[1] is old:
            slot[0] = (hit[0], ships) + hit[2:]


def set_ship(state: VoidState, sid: str, **changes) -> VoidState:
    ships = state.ships
    for i, s in enumerate(ships):
        if s.id == sid:
            break
    else:
        raise KeyError(f"No ship with id '{sid}'.")
    replaced = ships[:i] + (clone(s, changes),) + ships[i + 1:]
    if INERT_SHIP_FIELDS.issuperset(changes):
        ships_changed(ships, replaced)
    return evolve(state, ships=replaced)


#: the last answer, in one slot: (the combatants tuple it was read from, ship id -> the standing people
#: aboard).  One tuple, read and replaced whole, so threads sharing the module never mix two answers.
_ABOARD: Final[list] = [(None, {})]


def standing_aboard(state: VoidState) -> dict:
    """Ship id -> the standing combatants aboard it (in crew order), for every ship with anybody.

    States share their combatants tuple until a rule changes somebody, so the answer is
    kept against that very tuple (compared by identity, and held, so it cannot be reused).
    """
    people = state.combatants
    hit = _ABOARD[0]
    if hit[0] is people:
        return hit[1]
    where: dict = {}
    for c in people:
        if c.status in STANDING:
            aboard = where.get(c.aboard)
            if aboard is None:
                where[c.aboard] = [c]
            else:
                aboard.append(c)
    _ABOARD[0] = (people, where)
    return where


_NOBODY: Final[list] = []


def crew_aboard(state: VoidState, sid: str, side: str | None = None):
    """Standing combatants aboard ship ``sid`` (of ``side`` when given)."""
    aboard = standing_aboard(state).get(sid, _NOBODY)
    if side is None:
        return aboard
    out = []                                   # a loop, not a comprehension (no frame of its own)
    for c in aboard:
        if c.side == side:
            out.append(c)
    return out
