"""Small helpers the Void d20 rule modules share: look-ups and copy-on-write updates."""
from __future__ import annotations

from typing import Final, NamedTuple

from rulesets.core.state import clone

from . import tables
from .model import STANDING, Combatant, Ship, VoidState


def evolve(obj, **changes):
    """A changed copy of a frozen state dataclass, sharing everything else
    (:func:`rulesets.core.state.clone`: no ``__init__`` run again, a plain attribute dict).
    The one way a rule changes the state, in a recorded step and in a playout alike.
    A state given new ``combatants`` or ``ships`` gets who stands where worked out again
    (:class:`Standing`), unless the caller says it is as before (``standing=``)."""
    if ("combatants" in changes or "ships" in changes) and "standing" not in changes:
        changes["standing"] = work_out_standing(changes.get("ships", obj.ships), changes.get("combatants", obj.combatants))
    return clone(obj, changes)


def _place(people: tuple, cid: str) -> int:
    for i, c in enumerate(people):
        if c.id == cid:
            return i
    raise KeyError(f"No one with id '{cid}'.")


def combatant(state: VoidState, cid: str) -> Combatant:
    for c in state.combatants:
        if c.id == cid:
            return c
    raise KeyError(f"No one with id '{cid}'.")


def ship(state: VoidState, sid: str) -> Ship:
    for s in state.ships:
        if s.id == sid:
            return s
    raise KeyError(f"No ship with id '{sid}'.")


#: the fields of a person that who stands where (:class:`Standing`) does not read: changing only
#: these (HP, Void Points, gear, cover, a timer, the initiative, notes) leaves it as it was
_STILL: Final = frozenset({"hp", "void", "items", "cover", "timer", "initiative", "notes", "morale"})
#: the fields of a ship that :class:`Standing` does not read (all but its side and whether it is in the fight)
_SHIP_STILL: Final = frozenset({"name", "frame", "max_frame", "speed", "defence", "weapons", "modules", "spare_parts",
                                "initiative", "evading", "weakness", "command", "catastrophes", "reactor", "reboot",
                                "breached"})


def set_combatant(state: VoidState, cid: str, **changes) -> VoidState:
    people = state.combatants
    i = _place(people, cid)
    people = people[:i] + (clone(people[i], changes),) + people[i + 1:]
    if _STILL.issuperset(changes):      # HP, gear, Void Points...: everybody stands where they stood
        return clone(state, {"combatants": people})
    return evolve(state, combatants=people)


def set_ship(state: VoidState, sid: str, **changes) -> VoidState:
    ships = state.ships
    for i, s in enumerate(ships):
        if s.id == sid:
            ships = ships[:i] + (clone(s, changes),) + ships[i + 1:]
            if _SHIP_STILL.issuperset(changes):     # frame, guns, orders...: the same ships in the fight
                return clone(state, {"ships": ships})
            return evolve(state, ships=ships)
    raise KeyError(f"No ship with id '{sid}'.")


class Standing(NamedTuple):
    """Who stands where: the answers to "is the fight over?", "where is a boarding fight under
    way?" and "who works which station?", which every step asks.  Worked out from the people and
    the ships (:func:`work_out_standing`) by the helpers that change them (:func:`evolve`,
    :func:`set_combatant`, :func:`set_ship`) when a change can move it (somebody downed, in shock,
    back on their feet, gone across; a ship destroyed or gone), and kept in the state
    (``VoidState.standing``) otherwise.  People by id (their HP and gear change under it)."""

    sides: frozenset[str]               # the sides with somebody standing in a ship still in the fight
    anywhere: frozenset[str]            # the sides with somebody standing, in any ship
    contested: tuple[str, ...]          # ships not destroyed with standing people of two sides aboard
    crews: dict[str, dict[str, str]]    # ship id -> station key -> the id of who works it (ships.station_crew)


#: the crew of a ship with nobody able aboard
_NO_CREW: Final[dict[str, str]] = {}


def work_out_standing(ships: tuple[Ship, ...], people: tuple[Combatant, ...]) -> Standing:
    """:class:`Standing` of these ships and people."""
    gone = [s.id for s in ships if s.destroyed or s.escaped]
    first: dict[str, str] = {}          # ship id -> the side of the first person standing aboard
    sides: set[str] = set()
    anywhere: set[str] = set()
    mixed: set[str] = set()             # ships with people of two sides standing aboard
    able: dict[str, list[Combatant]] = {}   # ship id -> the people standing aboard, not in shock
    for c in people:
        status = c.status
        if status in STANDING:
            aboard, side = c.aboard, c.side
            if first.setdefault(aboard, side) != side:
                mixed.add(aboard)
            anywhere.add(side)
            if aboard not in gone:
                sides.add(side)
            if status == "ok":
                if aboard in able:
                    able[aboard].append(c)
                else:
                    able[aboard] = [c]
    contested = tuple(s.id for s in ships if s.id in mixed and not s.destroyed) if mixed else ()
    crews = {}
    for s in ships:
        crew = able.get(s.id)
        if crew:
            side = s.side
            crew = [c for c in crew if c.side == side]
        crews[s.id] = works(crew) if crew else _NO_CREW
    return Standing(frozenset(sides), frozenset(anywhere), contested, crews)


#: position -> the station a crew member at that position works (VD-37..41)
_STATION_AT: Final = {info.position: info.key for info in tables.STATIONS}
#: the stations somebody always works when anybody is aboard: the best at it, failing one at the position
_ALWAYS: Final = tuple((info.key, info.ability) for info in tables.STATIONS if info.key in ("pilot", "gunner"))


def works(crew: list[Combatant]) -> dict[str, str]:
    """Station key -> the id of who works it, among ``crew`` (a ship's own people aboard, standing and
    not in shock, in crew order): the first crew member at that position; for the helm and the guns,
    failing one, whoever is best at it (house rule: somebody always flies and shoots; Действия на корабле)."""
    out: dict[str, str] = {}
    for c in crew:
        key = _STATION_AT.get(c.position)
        if key is not None and key not in out:
            out[key] = c.id
    for key, ability in _ALWAYS:
        if key not in out and crew:
            out[key] = max(crew, key=lambda c: getattr(c, ability)).id
    return out


def standing(state: VoidState) -> Standing:
    """Who stands where in ``state``: as the state keeps it, or worked out now (a state just built
    or read back from storage has not got it yet)."""
    kept = state.standing
    return kept if kept is not None else work_out_standing(state.ships, state.combatants)


def with_standing(state: VoidState) -> VoidState:
    """``state`` keeping who stands where (a copy, when it did not yet)."""
    return state if state.standing is not None else clone(state, {"standing": standing(state)})


def standing_aboard(state: VoidState) -> dict[str, list[Combatant]]:
    """Ship id -> the standing combatants aboard it (in crew order), for every ship with anybody."""
    where: dict[str, list[Combatant]] = {}
    for c in state.combatants:
        if c.status in STANDING:
            where.setdefault(c.aboard, []).append(c)
    return where


def crew_aboard(state: VoidState, sid: str, side: str | None = None) -> list[Combatant]:
    """Standing combatants aboard ship ``sid`` (of ``side`` when given)."""
    return [c for c in state.combatants
            if c.aboard == sid and c.status in STANDING and (side is None or c.side == side)]
