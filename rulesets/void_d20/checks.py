"""Every check of Void d20 declared once: 1d20 + ability + modifiers against a target.

A :class:`Check` is built by the rule that needs it (an attack, a piloting manoeuvre,
a breach) and read by everything else: :func:`roll_check` rolls it, the odds module
computes its chances exactly, and the log line names its modifiers and rule.  A Void
Point spent on a check rolls 2d20 and keeps the higher (RULES-NOTES, VD-N04).  On an
attack a natural 20 hits whatever the target and a natural 1 misses whatever the
total (Критические попадания, VD-N06).

Pure Python.
"""
from __future__ import annotations

from typing import NamedTuple

from rulesets.core.dice import Dice, Roll


class Check(NamedTuple):
    """A check's declaration (a named tuple: built for every roll, so it must be cheap)."""

    purpose: str                               # words: "Ann shoots at Raider 1"
    modifiers: tuple[tuple[str, int], ...]     # ("Agility", 2), ("cover", ...) never: cover is in the target
    target: int
    rule: str
    attack: bool = False                       # natural 20 hits, natural 1 misses
    void: bool = False                         # a Void Point spent: 2d20, keep the higher

    @property
    def bonus(self) -> int:
        total = 0
        for _, v in self.modifiers:
            total += v
        return total


class CheckResult(NamedTuple):
    natural: int
    total: int
    success: bool
    critical: bool = False   # natural 20 on an attack
    fumble: bool = False     # natural 1 on an attack


_tuple_new = tuple.__new__


def make_check(purpose, modifiers: tuple, target: int, rule: str, attack: bool = False, void: bool = False) -> Check:
    """``Check(...)`` with every field given, built without the named tuple's Python ``__new__``
    (a check is built for every roll of a playout)."""
    return _tuple_new(Check, (purpose, modifiers, target, rule, attack, void))


def resolve(check: Check, natural: int) -> CheckResult:
    """What a kept face means for ``check`` (shared by the roll and the odds)."""
    total = natural + check.bonus
    if check.attack:
        if natural == 20:
            return _tuple_new(CheckResult, (natural, total, True, True, False))
        if natural == 1:
            return _tuple_new(CheckResult, (natural, total, False, False, True))
    return _tuple_new(CheckResult, (natural, total, total >= check.target, False, False))


def roll_check(dice: Dice, check: Check) -> CheckResult:
    """Roll ``check`` through ``dice`` (one d20, or two keeping the higher with a Void Point)."""
    if check.void:
        faces = dice.faces(2, 20, check.purpose, check.rule)
        natural = max(faces)
    else:
        faces = dice.faces(1, 20, check.purpose, check.rule)
        natural = faces[0]
    result = resolve(check, natural)
    if dice.recording:
        mods = tuple((src, v) for src, v in check.modifiers if v)
        if check.void:
            mods = (("Void Point: 2d20, the higher", 0),) + mods
        dice.record(Roll("2d20kh1" if check.void else "1d20", tuple(faces), tuple((s, v) for s, v in mods if v),
                         result.total, check.purpose, check.rule, target=check.target,
                         table="natural 20: critical" if result.critical else ("natural 1: critical miss"
                                                                                if result.fumble else ""),
                         row="hit" if result.critical else ("miss" if result.fumble else "")))
    return result


def _words(purpose) -> str:
    """A roll's purpose: words, or a callable giving them (built only when the roll is recorded)."""
    return purpose() if callable(purpose) else purpose


def roll_sum(dice: Dice, count: int, sides: int, plus: int = 0, *, purpose="", rule: str = "",
             table: str = "", row: str = "") -> int:
    """A plain sum of dice (damage, a timer, healing); recorded with its purpose."""
    if dice.recording:
        return dice.roll(count, sides, modifiers=(("bonus", plus),) if plus else (), purpose=_words(purpose), rule=rule,
                         table=table, row=row).total
    faces = dice.faces(count, sides)
    return sum(faces) + plus


def roll_one(dice: Dice, sides: int, purpose="", rule: str = "") -> int:
    """One die's face (a table lookup, a random pick); recorded when anybody reads the log."""
    if dice.recording:
        return dice.roll(1, sides, purpose=_words(purpose), rule=rule).faces[0]
    return dice.faces(1, sides)[0]


def roll_plus(dice: Dice, sides: int, source: str, bonus: int, purpose="", rule: str = "") -> int:
    """One die plus a named bonus (initiative: 1d20 + Agility); returns the total."""
    if dice.recording:
        return dice.roll(1, sides, modifiers=((source, bonus),), purpose=_words(purpose), rule=rule).total
    return dice.faces(1, sides)[0] + bonus
