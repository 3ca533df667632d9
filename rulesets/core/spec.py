"""Look-ups every rule system needs over a setup spec or a state: sides in order, by id.

Works on dicts (a setup spec's ``ships``) and on objects with ``id``/``side`` attributes
(a state's ships and crews) alike.
"""
from __future__ import annotations

from typing import Any, Iterable


def _get(item: Any, name: str):
    return item[name] if isinstance(item, dict) else getattr(item, name)


def sides_in_order(ships: Iterable) -> list[str]:
    """The sides in the order their first ship appears (the setup's order is the GM's)."""
    seen: list[str] = []
    for ship in ships:
        side = _get(ship, "side")
        if side not in seen:
            seen.append(side)
    return seen


def by_id(items: Iterable, item_id: str):
    """The item whose id is ``item_id``; KeyError naming it otherwise."""
    for item in items:
        if _get(item, "id") == item_id:
            return item
    raise KeyError(f"No '{item_id}'.")


def index_of(items, item_id: str) -> int:
    """The position of the item whose id is ``item_id`` (for copy-on-write replacement)."""
    for index, item in enumerate(items):
        if _get(item, "id") == item_id:
            return index
    raise KeyError(f"No '{item_id}'.")
