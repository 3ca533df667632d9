"""The GM override: "ship, path, value", one grammar for every rule system.

The GM's escape hatch sets any value by hand and is recorded as a step.  The runner's
form sends a path and a value; the path starts with a ship as the GM sees it (its name,
or its id) and a dot, then a field of the system's own schema::

    Talon.hull = 3D          Kestrel 1.pos = 4,7          Talon.weapons.laser.ammo = 2

A system declares its fields as :class:`OverrideField` (name pattern, parser, help);
``*`` in a pattern matches one part of the path (a weapon's id or name).  Fields that
belong to the encounter rather than a ship (the board) are declared as encounter
fields and written without a ship (``board.add = planet 12,8``).  Errors name the path
("Talon.hull: '3X' is not a dice code like 4D+2.").

Pure Python; the system applies the parsed request to its state itself.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

from .engine import Action, IllegalAction
from .lines import foreign_digits

#: the longest value a GM may type (an override is a ruling, not a document)
MAX_VALUE = 200


@dataclass(frozen=True)
class OverrideField:
    """One settable field: a dotted name pattern, how its value is read, and help in words."""

    name: str
    parse: Callable[[str], Any]
    help: str = ""
    #: words for the log line and the form ("hull code"); the last part of ``name`` by default
    label: str = ""
    #: the current value, for the form (which shows it as text): ``current(ship, parts)``
    current: Callable[[Any, tuple], Any] | None = None

    @property
    def words(self) -> str:
        return self.label or self.name.split(".")[-1].replace("_", " ")

    def matches(self, parts: Sequence[str]) -> bool:
        pattern = self.name.split(".")
        return len(pattern) == len(parts) and all(p == "*" or p == q.lower() for p, q in zip(pattern, parts))


@dataclass(frozen=True)
class OverrideRequest:
    """A parsed override: which ship (None for an encounter field), which field, the value."""

    ship_id: str | None
    ship_name: str
    field: OverrideField
    parts: tuple[str, ...]
    value: Any
    raw: str

    @property
    def path(self) -> str:
        return ".".join(((self.ship_name,) if self.ship_id else ()) + self.parts)

    def sentence(self) -> str:
        """The log line: "GM sets Talon's hull to 3D" ("GM ruling: add planet 12,8" for the encounter)."""
        named = [part for pattern, part in zip(self.field.name.split("."), self.parts) if pattern == "*"]
        what = " ".join([*named, self.field.words])
        if self.ship_id is None:
            return f"GM ruling: {what} {self.raw}"
        return f"GM sets {self.ship_name}'s {what} to {self.raw}"


def clean_value(path: str, raw: Any) -> str:
    text = str(raw if raw is not None else "").strip()
    if not text:
        raise IllegalAction(f"{path}: give a value.")
    if len(text) > MAX_VALUE:
        raise IllegalAction(f"{path}: a value of at most {MAX_VALUE} characters, please.")
    if any(ord(c) < 32 for c in text):
        raise IllegalAction(f"{path}: the value holds a control character.")
    return text


def parse_override(path: str, raw: Any, ships: Iterable[tuple[str, str]], fields: Sequence[OverrideField],
                   encounter_fields: Sequence[OverrideField] = ()) -> OverrideRequest:
    """Read ``path = raw`` against the ships (``(id, name)`` pairs) and the system's fields.

    The ship is the longest id or name (case-insensitive) the path starts with, then a dot.
    Raises :class:`IllegalAction` naming the path for anything it cannot read.
    """
    path = str(path or "").strip()
    if not path:
        raise IllegalAction("Name what to set, e.g. 'Talon.hull'.")
    if len(path) > MAX_VALUE or any(ord(c) < 32 for c in path):
        raise IllegalAction("That is not a path such as 'Talon.hull'.")
    value_text = clean_value(path, raw)
    low = path.lower()
    best = None
    for ship_id, name in ships:
        for key in (ship_id, name):
            k = str(key).lower()
            if k and low.startswith(k + ".") and (best is None or len(k) > len(best[2])):
                best = (ship_id, name, k)
    if best is None:
        parts = tuple(low.split("."))
        for field in encounter_fields:
            if field.matches(parts):
                return OverrideRequest(None, "", field, parts, _parse(field, path, value_text), value_text)
        names = ", ".join(f.name for f in encounter_fields)
        extra = f" (or an encounter field: {names})" if names else ""
        raise IllegalAction(f"'{path}' does not start with a ship's name or id and a dot, e.g. 'Talon.hull'{extra}.")
    ship_id, name, key = best
    parts = tuple(path[len(key) + 1:].split("."))
    for field in fields:
        if field.matches(parts):
            return OverrideRequest(ship_id, name, field, parts, _parse(field, path, value_text), value_text)
    known = ", ".join(f.name for f in fields)
    raise IllegalAction(f"{path}: {name} has no '{'.'.join(parts)}' to set. Fields: {known}.")


def _parse(field: OverrideField, path: str, text: str):
    try:
        return field.parse(text)
    except (ValueError, TypeError) as exc:
        raise IllegalAction(f"{path}: {exc}") from None


def override_action(actor: str, path: str, value: str) -> Action:
    """The step that carries an override (the runner's form fills ``path`` and ``value``)."""
    return Action.make("override", actor, path=path, value=value)


# --- value parsers a system composes its schema from (each raises ValueError in words)

_WHOLE = re.compile(r"[+-]?[0-9]+")


def read_whole(text: object) -> int:
    """A whole number written in the digits 0-9 (a sign allowed), or ValueError.

    Python's ``int`` also reads the digits of other scripts ("١٢" is 12) and underscores
    ("1_000"); a GM's value, a form and a file read only what a person writes as a number here.
    """
    if isinstance(text, int) and not isinstance(text, bool):
        return text
    word = str(text).strip()
    if not _WHOLE.fullmatch(word):
        if foreign_digits(word):
            raise ValueError(f"'{word}' is not a whole number written in the digits 0-9.")
        raise ValueError(f"'{word}' is not a whole number.")
    return int(word)


_DECIMAL = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


def read_decimal(text: object) -> float:
    """A number such as 20 or 12.5 written in the digits 0-9, or ValueError (``float`` also reads
    "١٢", "1e9", "inf" and "nan", which no measure on a table is)."""
    if isinstance(text, (int, float)) and not isinstance(text, bool) and math.isfinite(text):
        return float(text)
    word = str(text).strip()
    if not _DECIMAL.fullmatch(word):
        if foreign_digits(word):
            raise ValueError(f"'{word}' is not a number written in the digits 0-9.")
        raise ValueError(f"'{word}' is not a number such as 20 or 12.5.")
    return float(word)


@dataclass(frozen=True)
class WholeRange:
    """The whole numbers a field takes, stated once and read by its form, its override and the
    import (issue 26): ``WholeRange(-10, 10, "MV")``.  ``None`` leaves a side open; ``upto`` gives
    the top in words where it is the ship's or person's own ("the ship's full frame")."""

    lo: int | None
    hi: int | None
    what: str = ""
    upto: str = ""

    @property
    def words(self) -> str:
        """"from -10 to 10", "0 or more", "40 or less"."""
        if self.lo is not None and (self.hi is not None or self.upto):
            return f"from {self.lo} to {self.upto or self.hi}"
        if self.lo is not None:
            return f"{self.lo} or more"
        if self.hi is not None:
            return f"{self.hi} or less"
        return "any whole number"

    def read(self, text: object) -> int:
        """``text`` as a number of this range, or ValueError naming the field and the range
        ("MV is a whole number from -10 to 10; -11 is outside that range."; without a name, as
        the override's path names it: "'x' is not a whole number; it must be from 0 to 40.")."""
        try:
            n = read_whole(text)
        except ValueError as exc:
            if self.what:
                raise ValueError(f"{self.what} is a whole number {self.words}; {exc}") from None
            raise ValueError(f"{str(exc).rstrip('.')}; it must be {self.words}.") from None
        return self.check(n)

    def check(self, n: int) -> int:
        if (self.lo is not None and n < self.lo) or (self.hi is not None and n > self.hi):
            if self.what:
                raise ValueError(f"{self.what} is a whole number {self.words}; {n} is outside that range.")
            raise ValueError(f"must be {self.words}; {n} is outside that range.")
        return n

    def problem(self, path: str, value: object, top: int | None = None, whose: str = "") -> str | None:
        """What is wrong with ``value`` as a count of this range, as ``"path: why"``, or None when
        the rules can mean it (carried damage read back on import, issue 26).  ``top``: a tighter top
        that is the ship's or person's own, named by ``whose`` ("the ship's full frame").  A value
        that is not a whole number is left to the import's own checks (None)."""
        if not isinstance(value, int) or isinstance(value, bool):
            return None
        try:
            self.check(value)
        except ValueError as exc:
            return f"{path}: {exc}"
        if top is not None and value > top:
            return (f"{path}: {self.what} is a whole number from {self.lo} to {top} ({whose}); "
                    f"{value} is outside that range.")
        return None

    __call__ = read  # an OverrideField's parser


def whole_number(lo: int | None = 0, hi: int | None = None, what: str = "") -> Callable[[str], int]:
    """The parser of a whole number from ``lo`` to ``hi`` (:class:`WholeRange`)."""
    return WholeRange(lo, hi, what)


_YES = {"yes": True, "y": True, "true": True, "on": True, "1": True,
        "no": False, "n": False, "false": False, "off": False, "0": False}


def yes_no(text: str) -> bool:
    try:
        return _YES[text.strip().lower()]
    except KeyError:
        raise ValueError(f"'{text}' is not yes or no.") from None


def one_of(*choices: str) -> Callable[[str], str]:
    def parse(text: str) -> str:
        low = text.strip().lower()
        for choice in choices:
            if choice.lower() == low:
                return choice
        raise ValueError(f"'{text}' is not one of {', '.join(choices)}.")
    return parse
