"""Small helpers the Void d20 rule modules share: look-ups and copy-on-write updates."""
from __future__ import annotations

from rulesets.core.dice import Dice
from rulesets.core.engine import LogEntry
from rulesets.core.state import evolve, replace_item

from .model import Combatant, Ship, VoidState


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


def crew_aboard(state: VoidState, sid: str, side: str | None = None):
    """Standing combatants aboard ship ``sid`` (of ``side`` when given)."""
    return [c for c in state.combatants
            if c.aboard == sid and c.status in ("ok", "shock") and (side is None or c.side == side)]
