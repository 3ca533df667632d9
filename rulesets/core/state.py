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


_new = object.__new__
_set = object.__setattr__


def clone(obj: Any, given: dict | None = None, /, **changes: Any) -> Any:
    """A copy of the dataclass instance ``obj`` (frozen or not) with ``changes``, sharing the rest:
    what :func:`evolve` gives, without running ``__init__`` again.  The changes may also come as a
    dict, ``given`` (a caller that holds them as one passes it on without packing a second dict).

    The copy-on-write step a playout takes hundreds of times a battle (``dataclasses.replace``
    checks and assigns every field: a ship has thirty).  For a rule system's state dataclasses:
    plain fields, no ``__post_init__`` and no ``__setattr__`` of their own to run.

    The copy's attribute table is a plain dict, made with ``dict(...)``, not ``.copy()``: in
    CPython 3.11 an instance built by ``__init__`` keeps its attributes in a table shared with
    its class, reading its ``__dict__`` gives a *split* dict, ``.copy()`` of that is split too, and
    reading an attribute of an object holding a split dict is about three and a half times slower
    (it is not specialised). See :func:`plain_dicts` for the states a setup builds.
    """
    table = dict(obj.__dict__)
    if given:
        table.update(given)
    if changes:
        table.update(changes)
    new = _new(obj.__class__)
    _set(new, "__dict__", table)  # a frozen dataclass refuses ``new.__dict__ = table``
    return new


def plain_dicts(obj: Any) -> Any:
    """Give ``obj`` and every dataclass instance inside it (in fields, lists, tuples and dict
    values) a plain attribute dict, in place, and return ``obj``.

    For a state just built by a setup (its objects made by their ``__init__``): the first
    :func:`clone` of an object reads its ``__dict__``, which leaves the object itself with a split
    dict and slow attribute reads for as long as it lives (shared by every later state, or kept
    in a setup cache for every battle of a simulation).  The values are the same objects;
    nothing changes but how the attributes are stored.
    """
    stack = [obj]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if id(item) in seen:
            continue
        seen.add(id(item))
        if hasattr(item, "__dataclass_fields__") and not isinstance(item, type):
            table = item.__dict__
            _set(item, "__dict__", dict(table))
            stack.extend(table.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(v for v in item if not isinstance(v, (str, int, float)))
        elif isinstance(item, dict):
            stack.extend(v for v in item.values() if not isinstance(v, (str, int, float)))
    return obj


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
