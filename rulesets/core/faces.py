"""Die faces from ``random()``: the one mapping every source of chance uses (rulesets/core/dice.py).

Compiled with the rules (rulesets/core/compiled.py): a simulated battle draws faces a few hundred
times, and a compiled draw costs a fraction of an interpreted one.  No Django.
"""
from __future__ import annotations

from typing import Callable


def face_from_random(value: float, sides: int) -> int:
    """Map a float in [0, 1) to a face 1..sides without bias beyond float precision."""
    face = int(value * sides) + 1
    return face if face <= sides else sides


class RandomFaces:
    """Faces drawn from a ``random.Random``'s ``random()``, one call per die."""

    def __init__(self, random: Callable[[], float]) -> None:
        self._random = random

    def faces(self, count: int, sides: int, purpose: str = "", rule: str = "") -> list[int]:
        """``count`` faces of a ``sides``-sided die (``purpose`` and ``rule``: a source's signature)."""
        rnd = self._random
        out = []
        for _ in range(count):
            out.append(face_from_random(rnd(), sides))
        return out
