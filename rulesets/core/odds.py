"""Exact odds, built on icepool.

Small helpers the rulesets share: the distribution of NdS+k, the chance a check
meets a target, and the distribution of a check's Effect.  Probabilities are
``fractions.Fraction`` so they sum to exactly 1; pages format them as percentages.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import icepool

from .engine import Odds, Outcome


@lru_cache(maxsize=256)
def sum_of(count: int, sides: int) -> icepool.Die:
    if count <= 0:
        return icepool.Die([0])
    return count @ icepool.Die(range(1, sides + 1))


def distribution(count: int, sides: int, modifier: int = 0) -> dict[int, Fraction]:
    """{total: probability} of NdS + modifier."""
    die = sum_of(count, sides) + modifier
    denom = die.denominator()
    return {int(v): Fraction(q, denom) for v, q in die.items()}


def chance_at_least(count: int, sides: int, modifier: int, target: int) -> Fraction:
    """P(NdS + modifier >= target)."""
    return Fraction(sum_of(count, sides).probability(">=", target - modifier))


def die_distribution(die: icepool.Die) -> dict:
    denom = die.denominator()
    return {v: Fraction(q, denom) for v, q in die.items()}


def pass_fail(p: Fraction, summary: str = "", success: str = "success", failure: str = "failure") -> Odds:
    p = Fraction(p)
    return Odds((Outcome(success, float(p)), Outcome(failure, float(1 - p))), summary)


def percent(p) -> str:
    value = float(p) * 100
    if 0 < value < 1:
        return "<1%"
    if 99 < value < 100:
        return ">99%"
    return f"{value:.0f}%"


def convolve(a: dict, b: dict) -> dict:
    """The distribution of the sum of two independent values, each given as {value: probability}."""
    out: dict = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out
