"""Star Wars D6 on the core Check (issue 23, "One Check in core"; rulesets/starwars_d6/checks.py,
dice.py): every roll of a code is a core Check whose dice are the system's own (a D-code with the
Wild Die); the attack and the evasion of a shot are such checks, the ones fire() rolls and the
ones the odds count.  Scripted dice throughout; RULES-NOTES (starwars_d6) general rules and the
Wild Die; seed "2. COMBAT" steps 2-3 and "6. ESCALES"."""
from fractions import Fraction

import pytest

from rulesets.core import check as core
from rulesets.core.check import Check
from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.messages import english
from rulesets.starwars_d6 import checks, odds, rules
from rulesets.starwars_d6.dice import WildDice, code_check, roll_code
from rulesets.starwars_d6.engine import RULESET

from .test_odds import CAPITAL, FIGHTER, combat, weapon


def scripted(*faces) -> Dice:
    return Dice(ScriptedSource(list(faces)))


@pytest.mark.parametrize("code,wild,cap,complication", [
    ("4D+2", True, None, "remove"), ("3D", True, 3, "remove"), ("2D+1", True, None, "add"),
    ("3D+2", False, 2, "remove"), ("0D+2", True, None, "remove"), ("1D", True, 1, "add")])
def test_a_code_is_a_core_check_whose_naturals_are_the_odds(code, wild, cap, complication):
    """RULES-NOTES general rules + the Wild Die: the check's dice (the core's SystemDice) count
    exactly what odds.distribution counts; its pips are its one modifier; it has no target."""
    check = code_check(code, wild=wild, cap=cap, complication=complication, purpose="Han", rule="r")
    assert isinstance(check, Check) and isinstance(check.throw, WildDice) and check.target is None
    assert checks.distribution_of((check,)) == odds.distribution(code, wild=wild, cap=cap, complication=complication)
    assert core.chances(check) == {"success": 1, "failure": 0}       # opposed: the other roll is the target


def test_the_roll_records_the_cap_the_wild_die_and_the_pips_as_modifiers():
    """Seed 6. ESCALES (dice over 3 count 3) and RULES-NOTES Wild Die (a first-roll 1 removes it and
    the highest die, as capped): 6, 2 and the Wild Die 1 on 3D+1 capped at 3 count 2 + 1 = 3."""
    dice = scripted(6, 2, 1)
    r = roll_code(dice, "3D+1", cap=3, purpose="Han to hit", rule="r")
    roll = dice.rolls[-1]
    assert r.total == 3 and r.removed == (1, 6) and r.normal == (6, 2) and r.wild == (1,)
    assert roll.expression == "3D+1 (Wild Die)" and roll.faces == (6, 2, 1) and roll.total == 3
    assert roll.modifiers == (("dice over 3 count 3", -3), ("Wild Die 1: removed with the highest die", -4),
                              ("pips", 1))
    assert (roll.purpose, roll.rule, roll.target) == ("Han to hit", "r", None)


def test_a_complication_is_the_rolls_table_and_row():
    """RULES-NOTES Wild Die, "add normally, complication": the 1 adds, the roll says so."""
    dice = scripted(2, 5, 3, 1)
    r = roll_code(dice, "4D", complication="add", purpose="x")
    assert r.total == 11 and r.complication
    assert (dice.rolls[-1].table, dice.rolls[-1].row) == ("Wild Die", "complication")


def test_a_playout_draws_the_same_faces_and_totals_without_a_record():
    faces = (3, 6, 6, 2, 5, 1, 4, 4)
    recorded, playout = scripted(*faces), Dice(ScriptedSource(list(faces)), recording=False)
    for dice in (recorded, playout):
        a = roll_code(dice, "3D+2", cap=4, purpose="p")
        b = roll_code(dice, "2D", complication="add", purpose="q")
        # 3D+2 capped at 4: 3, 6 -> 4, the Wild Die 6 -> 4 rolled again: 2; + 2 pips.  2D "add": 5 + the 1
        assert (a.total, b.total, b.complication) == (3 + 4 + 4 + 2 + 2, 6, True)
    assert playout.rolls == [] and len(recorded.rolls) == 2


@pytest.mark.parametrize("shooter,target,wid,capped", [
    (FIGHTER, FIGHTER, "l", False), (CAPITAL, FIGHTER, "tl", True), (FIGHTER, CAPITAL, "l", True)])
def test_a_shots_attack_and_evasion_are_core_checks_and_their_chances_are_the_odds(shooter, target, wid, capped):
    """Seed "2. COMBAT" step 3: a hit when the attack >= the evasion.  The odds page's chance to hit
    is what the declared checks give, counted by the core: P(hit) = sum over the attack's totals a
    of P(a) x P(the evasion check fails against a target of a + 1)."""
    s = combat(shooter, target, wild=True)
    a, b = s.ship("a"), s.ship("b")
    w = weapon(s, wid)
    band = rules.shot_band(s, a, w, b)
    attack = checks.attack(s, a, b, rules.fire_control_code(s, a, w, b, band))
    evasion = checks.evasion(s, b, a)
    attack_checks, evasion_checks = attack.checks("attack"), evasion.checks("evasion")
    assert all(isinstance(c, Check) for c in attack_checks + evasion_checks)
    assert (len(attack_checks) + len(evasion_checks) > 2) == capped   # a cap splits skill and factor
    attack_totals = checks.distribution_of(attack_checks)
    p_hit = odds.p_at_least(attack_totals, checks.distribution_of(evasion_checks))
    assert abs(float(p_hit) - odds.shot(s, a, w, b).p_hit) < 1e-12
    if len(evasion_checks) == 1:
        (dodge,) = evasion_checks
        by_core = sum(p * core.chances(dodge._replace(target=t + 1))["failure"] for t, p in attack_totals.items())
        assert by_core == p_hit


def test_fire_rolls_the_declared_checks_in_order():
    """rules.fire rolls the attack's checks, then the evasion's (one recorded roll each), as declared."""
    s = combat(CAPITAL, FIGHTER, wild=True)
    a, b = s.ship("a"), s.ship("b")
    w = weapon(s, "tl")
    band = rules.shot_band(s, a, w, b)
    declared = (checks.attack(s, a, b, rules.fire_control_code(s, a, w, b, band)).checks()
                + checks.evasion(s, b, a).checks())
    dice = scripted(*([2] * 40))
    rules.fire(s, "tl", "b", dice)
    assert [r.expression for r in dice.rolls[:len(declared)]] == [c.throw.text for c in declared]
    assert [r.rule for r in dice.rolls[:len(declared)]] == [c.rule for c in declared]
    assert english(dice.rolls[0].purpose).endswith("to hit (skill)")
    assert english(dice.rolls[1].purpose).endswith("to hit (capped at 3)")


def test_no_gm_modifier_the_system_has_none():
    """The GM's circumstance modifier is the core's "dm" parameter: Star Wars D6 offers none, so its
    checks carry only their pips."""
    assert "dm" not in RULESET.free_params
    s = combat(FIGHTER, FIGHTER, wild=True)
    a, b = s.ship("a"), s.ship("b")
    for check in checks.evasion(s, b, a).checks() + checks.piloting(s, a, b).checks():
        assert [m.label for m in check.modifiers] in ([], ["pips"])


def test_a_ram_is_two_piloting_checks_and_its_odds_count_them():
    """Seed "Col·lisions premeditades": the target avoids only by rolling higher (rammer >= target)."""
    s = combat(FIGHTER, FIGHTER, wild=True, distance=1)
    a, b = s.ship("a"), s.ship("b")
    rammer = checks.distribution_of(checks.piloting(s, a, b).checks())
    target = checks.distribution_of(checks.piloting(s, b, a).checks())
    assert abs(float(odds.p_at_least(rammer, target)) - odds.ram_chance(s, a, b)) < 1e-12
    assert sum(rammer.values()) == Fraction(1)
