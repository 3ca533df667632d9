"""Exact odds of codes (RULES-NOTES starwars_d6 Wild Die; seed "2. COMBAT" tie rules)."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from rulesets.core.dice import seeded
from rulesets.starwars_d6 import odds as O
from rulesets.starwars_d6.dice import DiceCode, roll_code


def test_no_wild_is_the_plain_sum():
    """RULES-NOTES: without the Wild Die a code is a plain sum of d6 plus pips."""
    d = O.distribution("2D+1", wild=False)
    assert d[3] == Fraction(1, 36) and d[8] == Fraction(6, 36) and sum(d.values()) == 1


def test_1d_wild_distribution():
    """RULES-NOTES Wild Die: on 1D the 1 removes the die (total 0); a 6 explodes."""
    d = O.distribution("1D")
    assert d[0] == Fraction(1, 6) and 1 not in d
    assert all(d[v] == Fraction(1, 6) for v in (2, 3, 4, 5))
    assert d[6 + 3] == Fraction(1, 36) and 6 not in d and 12 not in d
    assert sum(d.values()) == 1


def test_wild_one_removes_the_highest_die_exactly():
    """RULES-NOTES Wild Die: 2D, Wild Die 1 -> 0 (the other die is the highest and goes)."""
    d = O.distribution("2D")
    # total 0 only when the Wild Die's first roll is 1: the other die is removed too.
    assert d[0] == Fraction(1, 6)


def test_complication_add_keeps_the_one():
    """RULES-NOTES Wild Die: "add normally, complication" -- a 1 just adds 1."""
    d = O.distribution("1D", complication="add")
    assert d[1] == Fraction(1, 6) and 0 not in d


def test_capped_wild_still_explodes():
    """RULES-NOTES: a capped Wild Die still explodes on a natural 6 (cap 3: 6 -> 3 + reroll)."""
    d = O.distribution("1D", cap=3)
    assert max(d) > 3 and d[3 + 2] == Fraction(1, 36)


def test_truncation_is_below_1e_12():
    """odds module doc: the explosion is truncated where the remaining mass < 1e-12."""
    assert Fraction(1, 6) ** (O.EXPLODE_DEPTH + 1) < Fraction(1, 10**12)
    assert sum(O.distribution("5D+2").values()) == 1
    exact_mean = O.mean(O.distribution("1D"))
    # E[wild value] = 2+3+4+5 over 6 plus (1/6)(6 + E[explosion]); E[explosion] = 21/5 untruncated.
    assert abs(float(exact_mean) - (14 / 6 + (6 + 21 / 5) / 6)) < 1e-11


@pytest.mark.parametrize("code,wild,cap,complication", [
    ("3D+1", True, None, "remove"), ("4D", True, 3, "remove"), ("2D+2", True, None, "add"), ("3D", False, 2, "remove"),
])
def test_distribution_matches_rolling(code, wild, cap, complication):
    """odds.distribution follows roll_code rule for rule (checked against 20,000 seeded rolls)."""
    d = O.distribution(code, wild=wild, cap=cap, complication=complication)
    dice = seeded("odds-check")
    n = 20000
    counts = {}
    for _ in range(n):
        t = roll_code(dice, code, wild=wild, cap=cap, complication=complication).total
        counts[t] = counts.get(t, 0) + 1
        dice.rolls.clear(); dice.dice.clear()
    assert set(counts) <= set(d)
    for v, p in d.items():
        assert abs(counts.get(v, 0) / n - float(p)) < 0.015
    assert abs(sum(v * c for v, c in counts.items()) / n - float(O.mean(d))) < 0.1


def test_to_hit_ties_go_to_the_attacker():
    """Seed 2. COMBAT step 3: a hit when the attacker's roll is greater than or equal."""
    a = {5: Fraction(1)}
    assert O.p_at_least(a, {5: Fraction(1)}) == 1 and O.p_greater(a, {5: Fraction(1)}) == 0
    # 1D vs 1D without Wild Die: P(A >= B) = 21/36
    assert O.hit_chance("1D", "1D", wild=False) == Fraction(21, 36)


def test_shields_ties_go_to_the_defender():
    """Seed 2. COMBAT step 5: equal or greater shield roll -> no damage (attacker needs >)."""
    assert O.opposed("1D", "1D", ties="defender", wild=False) == Fraction(15, 36)


def test_difference_distribution():
    """Seed 2. COMBAT step 5: damage through = damage - shields; exact distribution."""
    d = O.difference(O.distribution("1D", wild=False), O.distribution("1D", wild=False))
    assert d[0] == Fraction(6, 36) and d[5] == Fraction(1, 36) and sum(d.values()) == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 5), st.integers(0, 2), st.integers(0, 5), st.integers(0, 2), st.booleans())
def test_win_lose_tie_sum_to_one(ad, ap, bd, bp, wild):
    """P(A > B) + P(A = B) + P(B > A) = 1 exactly, for any two codes."""
    a = O.distribution(DiceCode(ad, ap), wild=wild)
    b = O.distribution(DiceCode(bd, bp), wild=wild)
    tie = O.p_at_least(a, b) - O.p_greater(a, b)
    assert O.p_greater(a, b) + tie + O.p_greater(b, a) == 1
    assert 0 <= tie <= 1


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 6), st.integers(0, 2))
def test_more_dice_never_hurts(n, p):
    """A bigger attack code never lowers the chance to hit (sanity of the exact odds)."""
    c = DiceCode(n, p)
    assert O.hit_chance(c + "+1D", "3D") >= O.hit_chance(c, "3D")
