"""Exact odds of every Void d20 roll, from the same check declarations the rules roll.

A d20 check's chances are the core's (:func:`rulesets.core.check.chances`: counted over the kept
face of the check's own dice, one d20 or the higher of two with a Void Point); damage
distributions come from icepool (:mod:`rulesets.core.odds`).  Pure Python.
"""
from __future__ import annotations

from fractions import Fraction

from rulesets.core import check as core_check
from rulesets.core import odds as core_odds
from rulesets.core.check import Check
from rulesets.core.engine import Odds, Outcome

from .checks import VOID_POINT, spends_void


def check_chances(check: Check) -> tuple[Fraction, Fraction, Fraction]:
    """(P(success), P(critical), P(natural 1 on an attack)) of ``check``."""
    chances = core_check.chances(check)
    return chances["success"], chances.get("critical", Fraction(0)), chances.get("fumble", Fraction(0))


def with_void(check: Check) -> Check:
    """The same check with a Void Point spent on it (RULES-NOTES VD-N04)."""
    return check.with_throw(VOID_POINT)


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
    if void_available and not spends_void(check):
        summary += f", {core_odds.percent(check_chances(with_void(check))[0])} with a Void Point"
    summary += (f"; critical {core_odds.percent(critical)}; damage {lo}-{hi} (average {float(mean(normal)):.1f}), "
                f"doubled on a critical; natural 1 {core_odds.percent(fumble)}")
    return Odds((Outcome("miss", float(1 - success)), Outcome("hit", float(success - critical)),
                 Outcome("critical hit", float(critical))), summary)


def check_odds(check: Check, success_label: str, failure_label: str, *, void_available: bool) -> Odds:
    success, _, _ = check_chances(check)
    summary = f"{core_odds.percent(success)}: {success_label} ({check.target}+)"
    if void_available and not spends_void(check):
        summary += f", {core_odds.percent(check_chances(with_void(check))[0])} with a Void Point"
    return Odds((Outcome(success_label, float(success)), Outcome(failure_label, float(1 - success))), summary)


def morale_break_chance(morale: int) -> Fraction:
    """P(2d6 > morale): the squad flees or surrenders (VD-19, VD-N02)."""
    return Fraction(core_odds.chance_at_least(2, 6, 0, morale + 1))
