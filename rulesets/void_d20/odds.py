"""Exact odds of every Void d20 roll, from the same check declarations the rules roll.

A d20 check's chance is counted over the kept face (one d20, or the higher of two with a
Void Point: P(n) = (n² - (n-1)²) / 400); damage distributions come from icepool
(:mod:`rulesets.core.odds`).  Pure Python.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulesets.core import odds as core_odds
from rulesets.core.engine import Odds, Outcome

from .checks import Check, resolve


@lru_cache(maxsize=4)
def kept_face(void: bool) -> tuple[Fraction, ...]:
    """P(kept face = n) for n in 1..20 (index n-1)."""
    if not void:
        return tuple(Fraction(1, 20) for _ in range(20))
    return tuple(Fraction(n * n - (n - 1) * (n - 1), 400) for n in range(1, 21))


def check_chances(check: Check) -> tuple[Fraction, Fraction, Fraction]:
    """(P(success), P(critical), P(natural 1 on an attack)) of ``check``."""
    success = critical = fumble = Fraction(0)
    for n, p in enumerate(kept_face(check.void), start=1):
        r = resolve(check, n)
        if r.success:
            success += p
        if r.critical:
            critical += p
        if r.fumble:
            fumble += p
    return success, critical, fumble


def with_void(check: Check) -> Check:
    return check._replace(void=True)


def damage_distribution(count: int, sides: int, plus: int = 0, doubled: bool = False) -> dict[int, Fraction]:
    dist = core_odds.distribution(count, sides, plus)
    out: dict[int, Fraction] = {}
    for value, p in dist.items():
        v = max(0, value) * (2 if doubled else 1)
        out[v] = out.get(v, Fraction(0)) + p
    return out


def mean(dist: dict[int, Fraction]) -> Fraction:
    return sum((v * p for v, p in dist.items()), Fraction(0))


def attack_odds(check: Check, damage: tuple[int, int, int], *, void_available: bool) -> Odds:
    """Miss / hit / critical hit, with the damage range and the chance with a Void Point."""
    success, critical, fumble = check_chances(check)
    normal = damage_distribution(*damage)
    lo, hi = min(normal), max(normal)
    summary = f"{core_odds.percent(success)} to hit (DR {check.target})"
    if void_available and not check.void:
        summary += f", {core_odds.percent(check_chances(with_void(check))[0])} with a Void Point"
    summary += (f"; critical {core_odds.percent(critical)}; damage {lo}-{hi} (average {float(mean(normal)):.1f}), "
                f"doubled on a critical; natural 1 {core_odds.percent(fumble)}")
    return Odds((Outcome("miss", float(1 - success)), Outcome("hit", float(success - critical)),
                 Outcome("critical hit", float(critical))), summary)


def check_odds(check: Check, success_label: str, failure_label: str, *, void_available: bool) -> Odds:
    success, _, _ = check_chances(check)
    summary = f"{core_odds.percent(success)}: {success_label} ({check.target}+)"
    if void_available and not check.void:
        summary += f", {core_odds.percent(check_chances(with_void(check))[0])} with a Void Point"
    return Odds((Outcome(success_label, float(success)), Outcome(failure_label, float(1 - success))), summary)


def morale_break_chance(morale: int) -> Fraction:
    """P(2d6 > morale): the squad flees or surrenders (VD-19, VD-N02)."""
    return Fraction(core_odds.chance_at_least(2, 6, 0, morale + 1))
