"""JSON round-trip for engine states: dataclasses to plain data and back, by type hints.

Supports nested dataclasses, ``list[X]``, ``tuple[X, ...]``, ``dict[str, X]``,
``X | None``, enums and the JSON scalars.  That is all an engine state needs, and
it keeps the states themselves free of (de)serialisation code.
"""
from __future__ import annotations

import dataclasses
import enum
import types
import typing
from functools import lru_cache
from typing import Any


#: the types ``to_json`` returns as they are (exact types: a subclass, say an enum, goes the long way)
_PLAIN = frozenset({str, int, float, bool, type(None)})


@lru_cache(maxsize=None)
def _field_names(cls: type) -> tuple[str, ...] | None:
    """The fields of a dataclass type, in order (None for any other type); asked once per type.
    A field marked ``metadata={"derived": True}`` (worked out from the others) is not saved."""
    if dataclasses.is_dataclass(cls):
        return tuple(f.name for f in dataclasses.fields(cls) if not f.metadata.get("derived"))
    return None


def to_json(obj: Any) -> Any:
    """``obj`` as plain JSON data: dataclasses as dicts of their fields, enums as their values,
    lists, tuples and sets as lists (sets sorted), dict keys as strings.

    The web process writes a fight's state with every step, a thousand values or so: the
    commonest cases (a scalar, a dataclass whose fields are known) come first.
    """
    kind = type(obj)
    if kind in _PLAIN:
        return obj
    names = _field_names(kind)
    if names is not None:
        return {name: to_json(getattr(obj, name)) for name in names}
    if isinstance(obj, enum.Enum):
        return obj.value
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    if isinstance(obj, (frozenset, set)):
        return sorted(to_json(v) for v in obj)
    return obj


@lru_cache(maxsize=None)
def _hints(cls) -> dict:
    """The field types of a dataclass."""
    return typing.get_type_hints(cls)


def from_json(tp: Any, data: Any) -> Any:
    if tp is Any:
        return data
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        if data is None:
            return None
        non_none = [a for a in args if a is not type(None)]
        if len(non_none) == 1:
            return from_json(non_none[0], data)
        for a in non_none:  # scalar unions such as str | int
            if isinstance(a, type) and isinstance(data, a):
                return data
        return data
    if origin is list:
        return [from_json(args[0] if args else Any, v) for v in data]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(from_json(args[0], v) for v in data)
        if args:
            return tuple(from_json(a, v) for a, v in zip(args, data))
        return tuple(data)
    if origin in (frozenset, set):
        inner = args[0] if args else Any
        return origin(from_json(inner, v) for v in data)
    if origin is dict:
        kt, vt = args if args else (Any, Any)
        conv = int if kt is int else (lambda k: k)
        return {conv(k): from_json(vt, v) for k, v in data.items()}
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints = _hints(tp)
        kwargs = {}
        for f in dataclasses.fields(tp):
            if f.name in data:
                kwargs[f.name] = from_json(hints[f.name], data[f.name])
        return tp(**kwargs)
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    if tp is float and isinstance(data, int):
        return float(data)
    return data
