"""Small helpers the Void d20 rule modules share: look-ups and copy-on-write updates."""
from __future__ import annotations

from rulesets.core.dice import Dice
from rulesets.core.engine import LogEntry
from rulesets.core.state import replace_item

from .model import STANDING, Combatant, Ship, VoidState


def evolve(obj, **changes):
    """A changed copy of a frozen state dataclass, sharing everything else.

    What :func:`rulesets.core.state.evolve` does, without running ``__init__`` again: the
    state's dataclasses have no ``__post_init__``, and a playout makes hundreds of these a
    battle (``dataclasses.replace`` was a quarter of a playout's time).
    """
    new = object.__new__(type(obj))
    attrs = new.__dict__
    attrs.update(obj.__dict__)
    attrs.update(changes)
    return new


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
    for i, c in enumerate(state.combatants):
        if c.id == cid:
            return evolve(state, combatants=replace_item(state.combatants, i, evolve(c, **changes)))
    raise KeyError(f"No one with id '{cid}'.")


def set_ship(state: VoidState, sid: str, **changes) -> VoidState:
    for i, s in enumerate(state.ships):
        if s.id == sid:
            return evolve(state, ships=replace_item(state.ships, i, evolve(s, **changes)))
    raise KeyError(f"No ship with id '{sid}'.")


def say(log: list, dice: Dice, text, rule: str = "", gm_only: bool = False) -> None:
    """Append a log line (``text`` may be a callable, built only when the log is recorded)."""
    if dice.recording:
        log.append(LogEntry(text() if callable(text) else text, rule, gm_only))


#: the last answer per ship: (the combatants tuple it was computed from, the standing people aboard)
_ABOARD: dict[str, tuple] = {}


def crew_aboard(state: VoidState, sid: str, side: str | None = None):
    """Standing combatants aboard ship ``sid`` (of ``side`` when given).

    States share their combatants tuple until a rule changes somebody, so the answer is
    kept against that very tuple (compared by identity, and held, so it cannot be reused).
    """
    people = state.combatants
    cached = _ABOARD.get(sid)
    if cached is None or cached[0] is not people:
        cached = (people, [c for c in people if c.aboard == sid and c.status in STANDING])
        _ABOARD[sid] = cached
    if side is None:
        return cached[1]
    return [c for c in cached[1] if c.side == side]
