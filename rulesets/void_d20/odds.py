"""Exact odds of every Void d20 roll, from the same check declarations the rules roll.

A d20 check's chances are the core's (:func:`rulesets.core.check.chances`: counted over the kept
face of the check's own dice, one d20 or the higher of two with a Void Point); damage
distributions come from icepool (:mod:`rulesets.core.odds`).  Pure Python.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Final

from rulesets.core import check as core_check
from rulesets.core import odds as core_odds
from rulesets.core.check import Check
from rulesets.core.engine import Odds, Outcome
from rulesets.core.messages import Message, msg

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


#: an attack's outcomes
MISS: Final = msg("void_d20.outcome.miss", "miss")
HIT: Final = msg("void_d20.outcome.hit", "hit")
CRITICAL_HIT: Final = msg("void_d20.outcome.critical_hit", "critical hit")

_CLOSES: Final = msg("void_d20.outcome.closes", "closes one band")
#: action kind -> the outcomes of its check: (success, failure)
CHECK_OUTCOMES: Final = {
    "close": (_CLOSES, msg("void_d20.outcome.no_change", "no change")),
    "break": (msg("void_d20.outcome.opens", "opens one band"), _CLOSES),
    "evade": (msg("void_d20.outcome.evades", "evades"), msg("void_d20.outcome.no_evasion", "no evasion")),
    "scan": (msg("void_d20.outcome.weakness", "finds a weakness"), msg("void_d20.outcome.nothing", "finds nothing")),
    "repair": (msg("void_d20.outcome.repaired", "repaired"), msg("void_d20.outcome.part_spent", "fails (the part is spent)")),
    "board": (msg("void_d20.outcome.breaks_in", "breaks in"), msg("void_d20.outcome.lock_holds", "the lock holds")),
}


def attack_odds(check: Check, damage: tuple[int, int, int], *, void_available: bool) -> Odds:
    """Miss / hit / critical hit, with the damage range and the chance with a Void Point."""
    success, critical, fumble = check_chances(check)
    normal = damage_distribution(*damage)
    said = {"hit": core_odds.percent(success), "dr": check.target, "critical": core_odds.percent(critical),
            "low": min(normal), "high": max(normal), "average": float(mean(normal)), "fumble": core_odds.percent(fumble)}
    if void_available and not spends_void(check):
        summary = msg("void_d20.odds.attack_void", "{hit} to hit (DR {dr}), {void} with a Void Point; critical {critical}; "
                      "damage {low}-{high} (average {average:.1f}), doubled on a critical; natural 1 {fumble}",
                      void=core_odds.percent(check_chances(with_void(check))[0]), **said)
    else:
        summary = msg("void_d20.odds.attack", "{hit} to hit (DR {dr}); critical {critical}; damage {low}-{high} "
                      "(average {average:.1f}), doubled on a critical; natural 1 {fumble}", **said)
    return Odds((Outcome(MISS, float(1 - success)), Outcome(HIT, float(success - critical)),
                 Outcome(CRITICAL_HIT, float(critical))), summary)


def check_odds(check: Check, success_label: Message, failure_label: Message, *, void_available: bool) -> Odds:
    success, _, _ = check_chances(check)
    said = {"chance": core_odds.percent(success), "outcome": success_label, "target": check.target}
    if void_available and not spends_void(check):
        summary = msg("void_d20.odds.check_void", "{chance}: {outcome} ({target}+), {void} with a Void Point",
                      void=core_odds.percent(check_chances(with_void(check))[0]), **said)
    else:
        summary = msg("void_d20.odds.check", "{chance}: {outcome} ({target}+)", **said)
    return Odds((Outcome(success_label, float(success)), Outcome(failure_label, float(1 - success))), summary)


def morale_break_chance(morale: int) -> Fraction:
    """P(2d6 > morale): the squad flees or surrenders (VD-19, VD-N02)."""
    return Fraction(core_odds.chance_at_least(2, 6, 0, morale + 1))
