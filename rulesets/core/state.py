"""Copy-on-write updates of a state: copy what a rule changes, share the rest.

``apply`` must never mutate the state it is given (the runner keeps recent states in
memory and replays from them; the conformance suite checks it).  Deep-copying the whole
state per rule is safe but slow; these helpers copy only along the path that changes:

    ship = by_id(state.ships, "s2")
    state = evolve(state, ships=update_by_id(state.ships, "s2", hull=ship.hull - 3))

Everything not on the path is shared between the old state and the new one, so shared
parts must be treated as immutable by every rule (replace them, never change them).
"""
from __future__ import annotations

import dataclasses
from typing import Any, Callable, Sequence

from .spec import index_of


def evolve(obj: Any, **changes: Any) -> Any:
    """A copy of the dataclass ``obj`` with ``changes`` (a shallow copy: the rest is shared)."""
    return dataclasses.replace(obj, **changes)


def replace_item(seq: Sequence, index: int, new: Any):
    """A copy of the list or tuple ``seq`` with item ``index`` replaced by ``new``."""
    if isinstance(seq, tuple):
        return seq[:index] + (new,) + seq[index + 1:]
    out = list(seq)
    out[index] = new
    return out


def update_by_id(items: Sequence, item_id: str, fn: Callable[[Any], Any] | None = None, **changes: Any):
    """A copy of ``items`` where the item with ``item_id`` is ``fn(item)`` or ``evolve(item, **changes)``."""
    index = index_of(items, item_id)
    item = items[index]
    return replace_item(items, index, fn(item) if fn is not None else evolve(item, **changes))


def set_key(mapping: dict, key: str, value: Any) -> dict:
    """A copy of ``mapping`` with ``key`` set (dicts in a state are replaced, never changed)."""
    out = dict(mapping)
    out[key] = value
    return out
