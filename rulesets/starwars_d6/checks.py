"""Every roll of a crew skill and a ship factor, declared once as core checks (issue 23, "One
Check in core"): the attack and the evasion of a shot (seed "2. COMBAT", steps 2-3), a piloting
roll against another ship (a ram), the shields -- each under the scale caps of seed "6. ESCALES".

A declaration is a :class:`SkillAndFactor` (the crew's code, the ship's code, the cap, the Wild
Die and its complication choice, the rule cited); :meth:`SkillAndFactor.checks` gives the core
:class:`~rulesets.core.check.Check` it rolls -- one, or two when a cap splits it -- each a
:func:`rulesets.starwars_d6.dice.code_check`.  The rules roll them (:func:`roll_declared`); the
odds count them (:meth:`SkillAndFactor.key` for the float distributions, :func:`distribution_of`
exactly, from :func:`rulesets.core.check.chances`'s same naturals).

Star Wars rolls are opposed: a shot hits when the attack's total is at least the evasion's, so
each roll is a check without a target, and the other roll's total is the target ("two checks").
The system offers the GM no circumstance modifier (its ``free_params`` have no ``dm``).

The log line of a Wild-Die complication is here too (RULES-NOTES, the Wild Die).
Pure Python: no Django import.
"""
from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from rulesets.core.check import Check
from rulesets.core.dice import Dice
from rulesets.core.engine import LogEntry
from rulesets.core.messages import Message, msg

from . import tables
from .dice import SEC_WILD, CodeRoll, DiceCode, code_check, roll_check
from .state import (SEC_PROCEDURE, SEC_SCALE_EVASION, SEC_SCALE_TO_HIT, complication_choice,
                    current_maneuverability)

COMPLICATION_TEXT = "Wild Die 1: a complication (the GM decides what goes wrong)"


def note_complication(r: CodeRoll, purpose, notes: list[LogEntry] | None) -> CodeRoll:
    """RULES-NOTES Wild Die, "add normally, complication": a roll the dice flagged (a first-roll
    1 that added normally) gets a log line, so the GM sees it."""
    if r.complication and notes is not None:
        notes.append(LogEntry(msg("starwars_d6.log.complication", COMPLICATION_TEXT + " -- {purpose}.",
                                  purpose=purpose), SEC_WILD))
    return r


class SkillAndFactor(NamedTuple):
    """A crew skill + a ship factor, declared once: the codes, the scale cap on the factor's dice
    (None: no cap), the Wild Die (encounter option) and its complication choice, the rule cited."""

    skill: DiceCode
    factor: DiceCode
    cap: int | None
    wild: bool
    complication: str
    rule: str

    def checks(self, purpose: Message | str = "") -> tuple[Check, ...]:
        """The core checks this roll makes (seed "6. ESCALES": "totes les tirades de Control de Foc /
        Maniobrabilitat / Escuts").  No cap: one check of skill + factor.  A cap: the skill with the
        Wild Die, uncapped, then the factor, every die over the cap counting the cap.  decision: the
        Wild Die stays with the skill; only a 0D skill leaves it to the capped factor (where, per the
        notes, it still explodes on a natural 6).  A part of no dice and no pips is not rolled."""
        skill, factor, cap = self.skill, self.factor, self.cap
        if cap is None:
            return (code_check(skill + factor, wild=self.wild, complication=self.complication, purpose=purpose,
                               rule=self.rule),)
        out = []
        if skill.total_pips:
            out.append(code_check(skill, wild=self.wild, complication=self.complication, rule=self.rule,
                                  purpose=msg("starwars_d6.roll.skill_part", "{purpose} (skill)", purpose=purpose)))
        if factor.total_pips:
            out.append(code_check(factor, wild=self.wild and skill.dice == 0, cap=cap, complication=self.complication,
                                  rule=self.rule, purpose=msg("starwars_d6.roll.capped_part", "{purpose} (capped at {cap})",
                                                              purpose=purpose, cap=cap)))
        return tuple(out)

    @property
    def key(self) -> tuple:
        """The roll's key for :func:`rulesets.starwars_d6.distributions.skill_factor_fd`."""
        return ((self.skill.dice, self.skill.pips), (self.factor.dice, self.factor.pips), self.cap, self.wild,
                self.complication)


def skill_and_factor(skill, factor, *, cap: int | None, wild: bool, rule: str,
                     complication: str = "remove") -> SkillAndFactor:
    return SkillAndFactor(DiceCode.parse(skill), DiceCode.parse(factor), cap, bool(wild), str(complication), rule)


def attack(s, attacker, target, fire_control) -> SkillAndFactor:
    """The attack roll of a shot: gunnery + the weapon's fire control (its range and speed dice in
    it), capped by the scales (seed "2. COMBAT" step 2; "6. ESCALES: Escala a la tirada per impactar")."""
    cap = tables.TO_HIT_CAP.get((attacker.scale, target.scale))
    return skill_and_factor(attacker.crew.gunnery, fire_control, cap=cap, wild=s.wild,
                            rule=SEC_SCALE_TO_HIT if cap is not None else SEC_PROCEDURE,
                            complication=complication_choice(s))


def piloting(s, ship, other, rule: str = SEC_PROCEDURE) -> SkillAndFactor:
    """``ship``'s piloting + its maneuverability now, against ``other`` (seed "6. ESCALES: Escala per
    maniobres evasives": the cap applies to every maneuverability roll): the evasion of a shot, a
    ram; ``rule`` is cited without a cap."""
    cap = tables.EVASION_CAP.get((ship.scale, other.scale))
    return skill_and_factor(ship.crew.piloting, current_maneuverability(ship, s.round), cap=cap, wild=s.wild,
                            rule=SEC_SCALE_EVASION if cap is not None else rule, complication=complication_choice(s))


def evasion(s, target, attacker) -> SkillAndFactor:
    """The evasion roll against a shot (seed "2. COMBAT" step 3: hit when attack >= evasion)."""
    return piloting(s, target, attacker)


def roll_declared(dice: Dice, roll: SkillAndFactor, purpose: Message | str,
                  notes: list[LogEntry] | None = None) -> int:
    """Roll a declaration's checks (:func:`rulesets.starwars_d6.dice.roll_check`); the total.  A check
    the dice flagged as a complication adds a log line to ``notes`` when it is given."""
    total = 0
    for check in roll.checks(purpose):
        total += note_complication(roll_check(dice, check), purpose, notes).total
    return total


def roll_skill_and_factor(dice: Dice, skill, factor, *, cap: int | None, wild: bool, purpose, rule: str,
                          complication: str = "remove", notes: list[LogEntry] | None = None) -> int:
    """Roll a crew skill + a ship factor (:class:`SkillAndFactor`, :func:`roll_declared`)."""
    return roll_declared(dice, skill_and_factor(skill, factor, cap=cap, wild=wild, rule=rule,
                                                complication=complication), purpose, notes)


def distribution_of(checks: tuple[Check, ...]) -> dict[int, Fraction]:
    """{total: probability} of rolling ``checks`` and adding their totals, exact: each check's
    naturals (what :func:`rulesets.core.check.chances` counts) plus its modifiers."""
    out = {0: Fraction(1)}
    for check in checks:
        bonus, naturals = check.bonus, check.throw.naturals().items()
        nxt: dict[int, Fraction] = {}
        for x, p in out.items():
            for n, q in naturals:
                nxt[x + n + bonus] = nxt.get(x + n + bonus, 0) + p * q
        out = nxt
    return out
