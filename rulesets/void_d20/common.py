"""Small helpers the Void d20 rule modules share: look-ups and copy-on-write updates."""
from __future__ import annotations

from rulesets.core.state import clone

from .model import STANDING, Combatant, Ship, VoidState


def evolve(obj, **changes):
    """A changed copy of a frozen state dataclass, sharing everything else
    (:func:`rulesets.core.state.clone`: no ``__init__`` run again, a plain attribute dict).
    The one way a rule changes the state, in a recorded step and in a playout alike."""
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


def set_combatant(state: VoidState, cid: str, **changes) -> VoidState:
    people = state.combatants
    i = _place(people, cid)
    return evolve(state, combatants=people[:i] + (clone(people[i], changes),) + people[i + 1:])


def set_ship(state: VoidState, sid: str, **changes) -> VoidState:
    ships = state.ships
    for i, s in enumerate(ships):
        if s.id == sid:
            return evolve(state, ships=ships[:i] + (clone(s, changes),) + ships[i + 1:])
    raise KeyError(f"No ship with id '{sid}'.")


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
