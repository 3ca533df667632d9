"""The rolls the rules make on a crew skill and a ship factor (seed "6. ESCALES" caps), and the
log line of a Wild-Die complication (RULES-NOTES, the Wild Die).  Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.dice import Dice
from rulesets.core.engine import LogEntry

from .dice import SEC_WILD, CodeRoll, DiceCode, roll_code


COMPLICATION_TEXT = "Wild Die 1: a complication (the GM decides what goes wrong)"


def note_complication(r: CodeRoll, purpose: str, notes: list[LogEntry] | None) -> CodeRoll:
    """RULES-NOTES Wild Die, "add normally, complication": a roll the dice flagged (a first-roll
    1 that added normally) gets a log line, so the GM sees it."""
    if r.complication and notes is not None:
        notes.append(LogEntry(f"{COMPLICATION_TEXT} -- {purpose}.", SEC_WILD))
    return r


def roll_skill_and_factor(dice: Dice, skill, factor, *, cap: int | None, wild: bool, purpose: str,
                          rule: str, complication: str = "remove", notes: list[LogEntry] | None = None) -> int:
    """Roll a crew skill + a ship factor where a scale cap applies to the factor's dice only
    (seed "6. ESCALES": "totes les tirades de Control de Foc / Maniobrabilitat / Escuts").

    No cap: one roll of skill + factor.  With a cap: the skill is rolled with the Wild Die,
    uncapped; then the factor, every die over the cap counting the cap.  decision: the Wild Die
    stays with the skill; only a 0D skill leaves it to the capped factor (where, per the notes,
    it still explodes on a natural 6).

    ``complication``: the Wild Die's first-roll 1 (RULES-NOTES; dice.roll_code); a roll flagged
    as a complication adds a log line to ``notes`` when it is given.
    """
    skill, factor = DiceCode.parse(skill), DiceCode.parse(factor)
    if cap is None:
        return note_complication(roll_code(dice, skill + factor, wild=wild, purpose=purpose, rule=rule,
                                    complication=complication), purpose, notes).total
    total = 0
    if skill.total_pips:
        total += note_complication(roll_code(dice, skill, wild=wild, purpose=f"{purpose} (skill)", rule=rule,
                                      complication=complication), purpose, notes).total
    if factor.total_pips:
        total += note_complication(roll_code(dice, factor, wild=wild and skill.dice == 0,
                                      purpose=f"{purpose} (capped at {cap})", rule=rule, cap=cap,
                                      complication=complication), purpose, notes).total
    return total
