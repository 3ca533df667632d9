"""Damage dice such as ``d8``, ``2d6`` or ``d6+1`` (the d20 checks themselves are in checks.py).

Pure Python.  A :class:`DamageDice` is parsed once (setup, forms) and stored in the
state as its text; :func:`parse_damage` is cached, so rules read it for free.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

_PATTERN = re.compile(r"^\s*(\d*)\s*[dDдД]\s*(\d+)\s*(?:([+-])\s*(\d+))?\s*$", re.ASCII)
SIDES = (4, 6, 8, 10, 12, 20)


@dataclass(frozen=True)
class DamageDice:
    count: int
    sides: int
    plus: int = 0

    def __str__(self) -> str:
        count = "" if self.count == 1 else str(self.count)
        plus = f"{'+' if self.plus > 0 else '-'}{abs(self.plus)}" if self.plus else ""
        return f"{count}d{self.sides}{plus}"


@lru_cache(maxsize=256)
def parse_damage(text: str) -> DamageDice:
    """``"2d6+1"`` -> DamageDice(2, 6, 1); ValueError in words otherwise."""
    m = _PATTERN.match(str(text))
    if not m:
        raise ValueError(f"'{text}' is not damage dice like d8, 2d6 or d6+1.")
    count = int(m.group(1) or 1)
    sides = int(m.group(2))
    plus = int(m.group(4) or 0) * (-1 if m.group(3) == "-" else 1)
    if sides not in SIDES:
        raise ValueError(f"'{text}': a d{sides} is not a die of the game (d4, d6, d8, d10, d12, d20).")
    if not 1 <= count <= 6:
        raise ValueError(f"'{text}': roll 1 to 6 dice.")
    if not -5 <= plus <= 20:
        raise ValueError(f"'{text}': a bonus from -5 to +20, please.")
    return DamageDice(count, sides, plus)

