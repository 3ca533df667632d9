"""Every pool of Dropfleet declared once as a core :class:`rulesets.core.check.Check` (issue 23,
"One Check in core"): one D6 per Attack against the Lock (to hit), one D6 per point against a
save, one D6 per point of point defence.

The dice are Dropfleet's own (:class:`LockPool`, the core's ``SystemDice``): ``count`` D6, each
face of ``lock`` or more a success, each of ``critical_from`` or more also a critical hit (7:
none).  The natural is the number of successes; the check has no target and no modifiers: what
changes a shot (across orbital layers, calibre) changes the Lock, clamped 2..6, not a total
(RULES-NOTES DF-N05; seed "Tabla de Blancos"), so it lives inside the dice, as :attr:`LockPool.modifiers`.
Critical hits are read from the result's faces by :meth:`LockPool.split`, so the roll, a playout
and the odds (:meth:`LockPool.splits`) count them alike.  :func:`roll_pool` rolls and records it
through :func:`rulesets.core.check.roll`: ``nD6``, the faces, the successes as the total and
``"k of n at L+"`` as the row, with no target.  Dropfleet offers the GM no circumstance modifier
(its ``free_params`` are empty).

Pure Python.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from math import comb

from rulesets.core.check import Check, Result, roll
from rulesets.core.dice import Dice
from rulesets.core.messages import Message, msg


@dataclass(frozen=True)
class LockPool:
    """``count`` D6 against ``lock``: a face of ``lock`` or more succeeds (a hit, a save, a PD
    success), of ``critical_from`` or more is also critical (7: no critical possible).
    ``modifiers`` are what changed the Lock ((words, value) each), already in ``lock``."""

    count: int
    lock: int
    critical_from: int = 7
    modifiers: tuple[tuple[Message | str, int], ...] = ()

    @property
    def text(self) -> str:
        return f"{self.count}D6"

    def draw(self, dice: Dice, purpose: Message | str, rule: str) -> tuple[tuple[int, ...], int]:
        """The faces rolled and the natural they make: how many reach the Lock."""
        faces = tuple(dice.faces(self.count, 6, purpose, rule))
        lock = self.lock
        return faces, sum(1 for f in faces if f >= lock)

    def split(self, faces: tuple[int, ...]) -> tuple[int, int]:
        """(successes under ``critical_from``, successes of ``critical_from`` or more): normal
        and critical hits (DF-03, DF-N04)."""
        low = high = 0
        lock, better = self.lock, self.critical_from
        for f in faces:
            if f >= lock:
                if f >= better:
                    high += 1
                else:
                    low += 1
        return low, high

    def naturals(self) -> dict[int, Fraction]:
        """{successes: probability}, exact."""
        return dict(_naturals(self.count, self.lock))

    def splits(self) -> dict[tuple[int, int], Fraction]:
        """{(normal, critical): probability}, exact: what :meth:`split` counts, over every roll."""
        return dict(_splits(self.count, self.lock, self.critical_from))

    def row(self, result: Result) -> Message:
        """The recorded row: ``"k of n at L+"``."""
        return msg("dropfleet.check.pool_row", "{hits} of {count} at {lock}+",
                   hits=result.natural, count=self.count, lock=self.lock)


@lru_cache(maxsize=256)
def _naturals(count: int, lock: int) -> tuple[tuple[int, Fraction], ...]:
    p = Fraction(max(0, 7 - lock), 6)
    return tuple((k, comb(count, k) * p ** k * (1 - p) ** (count - k)) for k in range(count + 1))


@lru_cache(maxsize=512)
def _splits(count: int, lock: int, critical_from: int) -> tuple[tuple[tuple[int, int], Fraction], ...]:
    p_crit = Fraction(max(0, 7 - max(lock, critical_from)), 6)
    p_hit = Fraction(max(0, 7 - lock), 6) - p_crit
    p_miss = 1 - p_hit - p_crit
    out: dict[tuple[int, int], Fraction] = {(0, 0): Fraction(1)}
    for _ in range(count):
        nxt: dict = {}
        for (n, c), p in out.items():
            for key, q in (((n, c), p_miss), ((n + 1, c), p_hit), ((n, c + 1), p_crit)):
                if q:
                    nxt[key] = nxt.get(key, 0) + p * q
        out = nxt
    return tuple(out.items())


def pool_check(pool: LockPool, rule: str, purpose: Message | str = "") -> Check:
    """The check of ``pool``: no target, no modifiers (they are in the Lock), the rule cited."""
    return Check(pool, None, (), rule, purpose)


def roll_pool(dice: Dice, check: Check) -> Result:
    """Roll a pool's check; recorded (the core check asks whether anybody reads it) with its
    successes as the total and ``"k of n at L+"`` as the row, no target.  The natural is the successes; the faces are
    in the result (:meth:`LockPool.split` counts the critical hits)."""
    return roll(dice, check, row=check.throw.row)
