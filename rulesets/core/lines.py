"""The "one entry per line" textareas: weapons, features, placements.

Pure Python, so the same parser serves a Django form, the GM override and an import.
Every line that is not understood is reported with its number ("Line 3: …"), all of
them at once, so a GM fixes a pasted list in one go.
"""
from __future__ import annotations

from typing import Callable, TypeVar

T = TypeVar("T")


def foreign_digits(text: str) -> str:
    """The digits of other scripts in ``text`` ("١٢", "٤", "²"), in order; "" when there are none.

    Python reads "١٢" as 12 (``int``, ``float``, ``re``'s ``\\d``); a number a GM types, a form
    keeps or a file holds is written in the digits 0-9, so these are refused, not read (issue 26).
    """
    return "".join(c for c in text if c.isdigit() and c not in "0123456789")


def refuse_foreign_digits(text: str) -> None:
    """ValueError naming the digits of another script in ``text``, if it holds any."""
    odd = foreign_digits(text)
    if odd:
        raise ValueError(f"'{odd}' {'is a digit' if len(odd) == 1 else 'are digits'} of another script: "
                         f"write numbers in the digits 0-9.")


class LineError(ValueError):
    """One or more lines were not understood; ``messages`` has one "Line N: …" per problem."""

    def __init__(self, messages: list[str]):
        self.messages = list(messages)
        super().__init__("; ".join(self.messages))


def parse_lines(text: str | None, parse_line: Callable[[str], T]) -> list[T]:
    """Each non-blank line of ``text`` through ``parse_line``, which raises ValueError with a
    message for a line it does not understand (or returns None: "is not understood").

    Raises :class:`LineError` naming every bad line; returns the parsed entries otherwise.
    """
    out: list[T] = []
    errors: list[str] = []
    for number, line in enumerate((text or "").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            refuse_foreign_digits(line)
            item = parse_line(line.strip())
        except ValueError as exc:
            errors.append(f"Line {number}: {exc}")
            continue
        if item is None:
            errors.append(f"Line {number}: '{line.strip()}' is not understood.")
        else:
            out.append(item)
    if errors:
        raise LineError(errors)
    return out


def split_fields(line: str, sep: str = ",") -> list[str]:
    """The comma-separated fields of a line, stripped ("Heavy railgun, 4+, 3" -> three fields)."""
    return [field.strip() for field in line.split(sep)]
