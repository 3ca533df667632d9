"""Dice codes and the Wild Die (RULES-NOTES starwars_d6, general rules the text assumes)."""
import pytest
from hypothesis import given, strategies as st

from rulesets.core.dice import DiceExhausted, scripted, seeded
from rulesets.starwars_d6.dice import CodeError, DiceCode, parse_modifier, roll_code

D = DiceCode.parse


# ---------------------------------------------------------------- codes
@pytest.mark.parametrize("text,dice,pips", [
    ("4D+2", 4, 2), ("3D", 3, 0), ("2D-1", 1, 2), ("0D+2", 0, 2), ("3d+4", 4, 1), (" 5 D + 1 ", 5, 1),
])
def test_parse_normalises_pips_to_0_2(text, dice, pips):
    """RULES-NOTES: "4D+2" is four dice plus 2; 3 pips make 1D; pips are 0-2."""
    assert (D(text).dice, D(text).pips) == (dice, pips)


@pytest.mark.parametrize("text", ["4D+2", "3D", "0D", "1D+1", "12D+2"])
def test_str_round_trips(text):
    """RULES-NOTES: the written form of a code is ND+p."""
    assert str(D(text)) == text and D(str(D(text))) == D(text)


def test_2d_minus_1_is_written_1d_plus_2():
    """RULES-NOTES: pips are 0-2, so 2D-1 is the same code as 1D+2."""
    assert str(D("2D-1")) == "1D+2" and D("2D-1") == D("1D+2")


@pytest.mark.parametrize("bad", ["", "D", "4", "4D+", "xD", "4D*2", "-1D"])
def test_parse_rejects_non_codes(bad):
    """A GM typing a stat gets a clear error, never a silent 0D."""
    with pytest.raises(CodeError):
        D(bad)


def test_pip_arithmetic():
    """RULES-NOTES: 3 pips make 1D -- adding pips carries into dice and borrows from them."""
    assert D("3D+2") + 1 == D("4D")
    assert D("4D") - 1 == D("3D+2")
    assert D("2D+1") + D("1D+2") == D("4D")
    assert D("4D+2") - D("1D+2") == D("3D")
    assert 2 + D("1D+1") == D("2D")


def test_plus_and_minus_1d_modifiers():
    """Seed "Distàncies": short range +1D, long range -1D to fire control."""
    assert D("2D+1") + "+1D" == D("3D+1")
    assert D("2D+1") + "-1D" == D("1D+1")
    assert D("2D") - "1D" == D("1D")
    assert parse_modifier("+1D") == 3 and parse_modifier("-2D") == -6
    assert parse_modifier("+2") == 2 and parse_modifier("-1D+1") == -4
    with pytest.raises(CodeError):
        parse_modifier("1D")


def test_never_below_0d():
    """Seed "Tots els danys es consideren acumulatius": a factor reduced to 0D; never below."""
    assert D("1D") - "2D" == D("0D")
    assert D("0D+1") - 5 == D("0D")
    assert DiceCode(-2, 1) == D("0D")


@given(st.integers(0, 30), st.integers(-5, 5), st.integers(-40, 40))
def test_arithmetic_is_pip_arithmetic(dice, pips, delta):
    """RULES-NOTES: a code is a count of pips (3 per die); normalised and never negative."""
    c = DiceCode(dice, pips)
    assert 0 <= c.pips <= 2 and c.dice >= 0
    assert (c + delta).total_pips == max(0, c.total_pips + delta)
    assert D(str(c)) == c


# ---------------------------------------------------------------- rolling without the Wild Die
def test_roll_without_wild_sums_dice_and_pips():
    """RULES-NOTES: "4D+2" is four six-sided dice plus 2."""
    dice = scripted(3, 6, 1, 5)
    r = roll_code(dice, "4D+2", wild=False, purpose="gunnery")
    assert r.total == 17 and r.normal == (3, 6, 1, 5) and r.wild == ()
    assert dice.rolls[-1].total == 17 and dice.rolls[-1].faces == (3, 6, 1, 5)


def test_0d_rolls_no_dice():
    """A 0D factor is inoperative (seed "Tots els danys..."); 0D+2 is just 2."""
    dice = scripted()
    assert roll_code(dice, "0D+2").total == 2 and dice.dice == []


# ---------------------------------------------------------------- the Wild Die
def test_wild_die_is_rolled_after_the_normal_dice():
    """RULES-NOTES Wild Die: one die of the roll is the Wild Die (asked for last)."""
    r = roll_code(scripted(2, 3, 4), "3D")
    assert r.normal == (2, 3) and r.wild == (4,) and r.total == 9


def test_wild_six_adds_and_rerolls_repeatedly():
    """RULES-NOTES Wild Die: a 6 adds and is rolled again, repeatedly."""
    r = roll_code(scripted(2, 3, 6, 6, 4), "3D+1")
    assert r.wild == (6, 6, 4) and r.exploded == 2
    assert r.total == 2 + 3 + 6 + 6 + 4 + 1


def test_wild_reroll_of_1_just_adds_1():
    """RULES-NOTES Wild Die: only a 1 on its *first* roll removes dice."""
    r = roll_code(scripted(2, 3, 6, 1), "3D")
    assert r.total == 12 and r.removed == ()


def test_wild_one_removes_itself_and_the_highest_die():
    """RULES-NOTES Wild Die: a 1 on its first roll removes it and the highest other die."""
    r = roll_code(scripted(2, 5, 3, 1), "4D+2")
    assert r.removed == (1, 5) and r.total == 2 + 3 + 2 and not r.complication


def test_wild_one_on_1d_leaves_only_the_pips():
    """RULES-NOTES Wild Die: a 1D code's only die is the Wild Die; a 1 removes it."""
    assert roll_code(scripted(1), "1D+2").total == 2


def test_wild_one_complication_adds_normally_and_flags():
    """RULES-NOTES Wild Die: the GM may choose "add normally, complication"."""
    dice = scripted(2, 5, 3, 1)
    r = roll_code(dice, "4D", complication="add")
    assert r.total == 11 and r.complication and r.removed == ()
    assert dice.rolls[-1].row == "complication"


def test_wild_die_off_is_an_encounter_option():
    """RULES-NOTES: the Wild Die is an encounter option: off, a 6 neither rerolls nor a 1 removes."""
    assert roll_code(scripted(6, 1), "2D", wild=False).total == 7


# ---------------------------------------------------------------- caps
def test_cap_counts_high_dice_as_the_cap():
    """Seed 6. ESCALES, "Escala a la tirada per impactar": dice over 3 count as 3."""
    r = roll_code(scripted(5, 2, 4), "3D", cap=3)
    assert r.total == 3 + 2 + 3


def test_capped_wild_die_still_explodes_on_a_natural_6():
    """RULES-NOTES: a capped Wild Die still explodes on a natural 6."""
    r = roll_code(scripted(5, 6, 6, 2), "2D", cap=3)
    assert r.wild == (6, 6, 2) and r.total == 3 + 3 + 3 + 2


def test_capped_wild_one_removes_the_highest_counted_die():
    """RULES-NOTES Wild Die + seed 6. ESCALES: the 1 removes the highest die (as capped)."""
    assert roll_code(scripted(6, 2, 1), "3D", cap=3).total == 2


def test_cap_1_is_one_point_per_die():
    """Seed 6. ESCALES: capital ships only do 1 point per damage die to a Death Star."""
    assert roll_code(scripted(6, 4, 3, 5), "4D", cap=1).total == 4


# ---------------------------------------------------------------- the record
@given(st.integers(0, 8), st.integers(0, 2), st.booleans(), st.sampled_from([None, 1, 2, 3, 4]),
       st.sampled_from(["remove", "add"]), st.text("abcdefgh", min_size=1, max_size=6))
def test_recorded_roll_explains_its_total(n, pips, wild, cap, complication, seed):
    """The Roll records every raw face; faces + modifiers = total (the log explains the roll)."""
    dice = seeded(seed)
    r = roll_code(dice, DiceCode(n, pips), wild=wild, cap=cap, complication=complication, purpose="x")
    roll = dice.rolls[-1]
    assert roll.total == r.total == sum(roll.faces) + sum(v for _, v in roll.modifiers)
    assert list(roll.faces) == dice.faces_used
    assert r.total >= 0


def test_scripted_dice_running_out_is_reported():
    """Scripted dice (tests, replays) that run short raise, never invent faces."""
    with pytest.raises(DiceExhausted):
        roll_code(scripted(6), "1D")
