"""How a viewer names the people of a fight: a player reads enemy crew by ship and position.

The app's log names enemy crew "<ship>'s <position>" for a player (encounters/viewing.py,
``Names``); the view does the same, from the same crew entries, so the cards, the order of
the round and the log agree ("Grinder's marine 2" for the second scrapper).  Pure Python.
"""
from __future__ import annotations

from rulesets.core.engine import Viewer

from . import tables
from .model import VoidState


def _entry(c) -> str:
    return c.squad or c.id


def shown_names(state: VoidState, viewer: Viewer) -> dict[str, str]:
    """Combatant id -> the name this viewer reads."""
    names = {c.id: c.name for c in state.combatants}
    if viewer.is_gm:
        return names
    own_sides = {s.side for s in state.ships if s.id in viewer.ships}
    own_names = {c.name for c in state.combatants if c.side in own_sides}
    own_names |= {s.name for s in state.ships} | {s.side for s in state.ships}
    for s in state.ships:
        if s.side in own_sides:
            continue
        entries: dict[str, list] = {}
        for c in state.combatants:
            if c.ship == s.id:
                entries.setdefault(_entry(c), []).append(c)
        labels = {key: tables.POSITION_WORDS.get(members[0].position, members[0].position).lower()
                  for key, members in entries.items()}
        for key, members in entries.items():
            base = members[0].name if len(members) == 1 else members[0].name.rsplit(" ", 1)[0]
            if base in own_names:
                continue
            same = [k for k, lab in labels.items() if lab == labels[key]]
            number = f" {same.index(key) + 1}" if len(same) > 1 else ""
            alias = f"{s.name}'s {labels[key]}{number}"
            for index, c in enumerate(members, start=1):
                names[c.id] = alias if len(members) == 1 else f"{alias} {index}"
    return names


def hidden_names(state: VoidState, viewer: Viewer) -> list[str]:
    """The enemy crew names this viewer never reads."""
    shown = shown_names(state, viewer)
    return sorted({c.name for c in state.combatants if shown[c.id] != c.name})
