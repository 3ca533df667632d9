"""Every check of Void d20 declared once: 1d20 + ability + modifiers against a target, as a
core :class:`rulesets.core.check.Check` (issue 23, "One Check in core").

The rule that needs a check (an attack, a piloting manoeuvre, a breach) builds it with
:func:`d20_check`; :func:`rulesets.core.check.roll` rolls and records it, the odds module counts
its chances (:func:`rulesets.core.check.chances`), and the log line names its rule.  A Void Point
spent on a check rolls 2d20 and keeps the higher (:data:`VOID_POINT`, RULES-NOTES VD-N04).  On an
attack a natural 20 hits whatever the target and a natural 1 misses whatever the total
(:data:`ATTACK_NATURALS`: Критические попадания, VD-N06).

Pure Python.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Final, Iterable

from rulesets.core import check as core_check
from rulesets.core.check import Check, Modifier, Natural, Throw
from rulesets.core.dice import Dice
from rulesets.core.messages import Message, msg

#: a check's die: one d20
ONE_D20: Final = Throw(1, 20)
#: a check with a Void Point spent: 2d20, keep the higher (RULES-NOTES VD-N04)
VOID_POINT: Final = Throw(2, 20, keep=1)
#: an attack's naturals (Критические попадания; RULES-NOTES VD-N06): a natural 20 hits whatever the
#: target (a critical: the damage doubled), a natural 1 misses whatever the total (a fumble)
ATTACK_NATURALS: Final = (
    Natural(20, 20, "critical", True, msg("void_d20.natural.20", "natural 20: critical"), msg("void_d20.natural.hit", "hit")),
    Natural(1, 1, "fumble", False, msg("void_d20.natural.1", "natural 1: critical miss"), msg("void_d20.natural.miss", "miss")),
)


def d20_check(purpose: Message | str, modifiers: Iterable[Modifier], target: int, rule: str, *,
              attack: bool = False, void: bool = False) -> Check:
    """1d20 (2d20 keep the higher with a Void Point) + ``modifiers`` against ``target``; an
    attack's naturals decide by themselves."""
    return Check(VOID_POINT if void else ONE_D20, target, tuple(modifiers), rule, purpose,
                 ATTACK_NATURALS if attack else ())


def spends_void(check: Check) -> bool:
    """Whether ``check`` is rolled with a Void Point (2d20, the higher)."""
    return check.throw == VOID_POINT


@lru_cache(maxsize=None)
def _throw(count: int, sides: int) -> Throw:
    """``count`` dice of ``sides`` sides, summed (made once per kind of dice: a frozen value)."""
    return Throw(count, sides)


#: the label of a damage roll's fixed bonus (d6+1)
_BONUS: Final = msg("void_d20.modifier.bonus", "bonus")


def roll_sum(dice: Dice, count: int, sides: int, plus: int = 0, *, purpose: Message | str = "", rule: str = "") -> int:
    """A plain sum of dice (damage, a timer, healing): a core check without a target."""
    mods = (Modifier(_BONUS, plus),) if plus else ()
    return core_check.roll(dice, Check(_throw(count, sides), None, mods, rule, purpose)).total


def roll_one(dice: Dice, sides: int, purpose: Message | str = "", rule: str = "") -> int:
    """One die's face (a table lookup, a random pick)."""
    return core_check.roll(dice, Check(_throw(1, sides), None, (), rule, purpose)).natural


def roll_plus(dice: Dice, sides: int, source: Message | str, bonus: int, purpose: Message | str = "",
              rule: str = "") -> int:
    """One die plus a named bonus (initiative: 1d20 + Agility); returns the total."""
    return core_check.roll(dice, Check(_throw(1, sides), None, (Modifier(source, bonus),), rule, purpose)).total
