"""The core Check: one declaration that is rolled, recorded, counted for its odds and said in
words (rulesets/core/check.py; issue 23, "One Check in core").  Scripted dice throughout."""
from fractions import Fraction
from itertools import product

import pytest

from rulesets.core import check as core
from rulesets.core.check import Check, Modifier, Natural, Throw
from rulesets.core.dice import Dice, Die, DiceNeeded, ManualSource, RandomSource, Roll, ScriptedSource
from rulesets.core.engine import Action
from rulesets.core.messages import msg

CRIT = Natural(20, 20, "critical", True, "natural 20: critical", "hit")
MISS = Natural(1, 1, "fumble", False, "natural 1: critical miss", "miss")


def _attack(throw=Throw(1, 20), target=12, *mods, naturals=(CRIT, MISS)):
    return Check(throw, target, tuple(mods), "VD-05", msg("t.attack", "{who} attacks", who="Ann"), naturals)


def test_a_d20_check_rolls_records_and_succeeds_at_the_target():
    dice = Dice(ScriptedSource([10]))
    check = _attack(Throw(1, 20), 12, Modifier("Agility", 2), Modifier("nobody", 0), Modifier(core.GM_LABEL, -1))
    result = core.roll(dice, check)
    assert (result.natural, result.total, result.success, result.outcome) == (10, 11, False, "failure")
    assert dice.rolls == [Roll("1d20", (10,), (("Agility", 2), ("GM", -1)), 11, "Ann attacks", "VD-05", target=12)]
    assert dice.dice == [Die(20, 10)]
    assert core.roll(Dice(ScriptedSource([11])), check).success


def test_natural_faces_decide_whatever_the_total_and_are_recorded_as_table_and_row():
    """Void d20, Критические попадания: a natural 20 hits, a natural 1 misses."""
    check = _attack(Throw(1, 20), 40, Modifier("Agility", 2))
    dice = Dice(ScriptedSource([20, 1]))
    hit = core.roll(dice, check)
    assert (hit.success, hit.critical, hit.fumble, hit.total) == (True, True, False, 22)
    miss = core.roll(dice, check._replace(target=2))
    assert (miss.success, miss.fumble, miss.total) == (False, True, 3)
    assert [(r.table, r.row) for r in dice.rolls] == [("natural 20: critical", "hit"), ("natural 1: critical miss", "miss")]


def test_keep_highest_rolls_both_dice_and_keeps_the_higher():
    """RULES-NOTES VD-N04: a Void Point rolls 2d20 and keeps the higher."""
    dice = Dice(ScriptedSource([4, 17]))
    result = core.roll(dice, _attack(Throw(2, 20, keep=1), 12))
    assert (result.natural, result.faces, result.success) == (17, (4, 17), True)
    assert dice.rolls[0].expression == "2d20kh1" and dice.rolls[0].faces == (4, 17)


def test_nothing_is_recorded_in_a_playout_and_the_faces_are_the_same():
    check = _attack(Throw(2, 6), 8, Modifier("Pilot", 1))
    recorded = Dice(ScriptedSource([3, 4]))
    playout = Dice(ScriptedSource([3, 4]), recording=False)
    assert core.roll(recorded, check) == core.roll(playout, check)
    assert playout.rolls == [] and playout.dice == []
    assert recorded.rolls[0].expression == "2D6"


def test_manual_dice_are_asked_for_with_the_checks_purpose_and_rule():
    with pytest.raises(DiceNeeded) as needed:
        core.roll(Dice(ManualSource([])), _attack())
    assert (needed.value.count, needed.value.sides, needed.value.purpose, needed.value.rule) == (1, 20, "Ann attacks", "VD-05")


@pytest.mark.parametrize("throw", [Throw(1, 20), Throw(2, 20, keep=1), Throw(2, 6), Throw(3, 6, keep=2), Throw(2, 10)])
@pytest.mark.parametrize("target", [2, 8, 12, 21])
def test_the_odds_count_every_face_the_roll_could_show(throw, target):
    """chances() agrees with rolling the same declaration on every combination of faces."""
    check = _attack(throw, target, Modifier("skill", 1), naturals=(CRIT, MISS) if throw.sides == 20 else ())
    faces = list(product(range(1, throw.sides + 1), repeat=throw.count))
    counted: dict[str, Fraction] = {"success": Fraction(0), "failure": Fraction(0)}
    for combo in faces:
        r = core.roll(Dice(ScriptedSource(combo), recording=False), check)
        counted["success" if r.success else "failure"] += Fraction(1, len(faces))
        if r.outcome not in ("success", "failure"):
            counted[r.outcome] = counted.get(r.outcome, Fraction(0)) + Fraction(1, len(faces))
    assert core.chances(check) == counted
    assert sum(core.chances(check)[k] for k in ("success", "failure")) == 1


def test_the_void_point_odds_are_the_square_law():
    """P(the higher of 2d20 = n) = (n² - (n-1)²) / 400 (the odds Void d20 gave before)."""
    assert Throw(2, 20, keep=1).naturals() == {n: Fraction(n * n - (n - 1) ** 2, 400) for n in range(1, 21)}


def test_the_gm_circumstance_modifier_is_one_core_modifier_under_one_label():
    assert core.gm_dm(Action.make("attack", "a", dm=-2)) == -2
    assert core.gm_dm(Action.make("attack", "a")) == 0
    assert core.gm_dm(Action.make("attack", "a", dm="3")) == 3
    assert core.circumstance(0) == ()
    (gm,) = core.circumstance(-2)
    assert (core.words(gm.label), gm.value, gm.rule) == ("GM", -2, core.GM_RULE)


def test_a_check_says_itself_in_words():
    check = _attack(Throw(1, 20), 13, Modifier("Agility", 2), Modifier("unused", 0), *core.circumstance(-3))
    said = core.describe(check)
    assert said.id == "core.check.describe"
    assert said.render() == "Ann attacks: 1d20 + 2 (Agility) - 3 (GM) vs 13+"


def test_effect_is_the_margin_over_the_target():
    """Cepheus's Effect (total - 8) is read from the same result."""
    result = core.roll(Dice(ScriptedSource([6, 5])), Check(Throw(2, 6), 8, (Modifier("Gunner", 1),)))
    assert (result.total, result.effect) == (12, 4)


def test_a_systems_own_dice_plug_in_through_the_same_three_members():
    """A pool counted against a lock (Dropfleet's shape): the natural is the number of hits."""

    class Pool:
        text = "3D6 vs 4+"

        def draw(self, dice, purpose, rule):
            faces = tuple(dice.faces(3, 6, purpose, rule))
            return faces, sum(1 for f in faces if f >= 4)

        def naturals(self):
            hits: dict[int, Fraction] = {}
            for combo in product(range(1, 7), repeat=3):
                n = sum(1 for f in combo if f >= 4)
                hits[n] = hits.get(n, Fraction(0)) + Fraction(1, 216)
            return hits

    check = Check(Pool(), 2, rule="Shooting", purpose="volley")
    dice = Dice(ScriptedSource([4, 1, 6]))
    assert core.roll(dice, check).success
    assert dice.rolls[0].expression == "3D6 vs 4+" and dice.rolls[0].total == 2
    assert core.chances(check)["success"] == Fraction(1, 2)


def test_seeded_rolls_draw_the_same_faces_as_the_dice_would():
    import random

    a = core.roll(Dice(RandomSource(random.Random("s"))), _attack(Throw(2, 20, keep=1)))
    faces = Dice(RandomSource(random.Random("s"))).faces(2, 20)
    assert a.faces == tuple(faces) and a.natural == max(faces)


def test_a_roll_may_name_the_table_it_is_read_on_and_be_the_gms_alone():
    """Cepheus reads a launch's Effect on a table and hides an NPC's rolls: the record says so,
    and a natural that decides names itself instead."""
    check = _attack(Throw(1, 20), 12)
    dice = Dice(ScriptedSource([11, 20]))
    core.roll(dice, check, table="Missile to-hit", row=msg("t.row", "Effect {e}", e=-1), gm_only=True)
    core.roll(dice, check, table="Missile to-hit", row="ignored")
    first, second = dice.rolls
    assert (first.table, first.row, first.gm_only) == ("Missile to-hit", "Effect -1", True)
    assert (second.table, second.row, second.gm_only) == ("natural 20: critical", "hit", False)


def test_a_roll_made_inside_one_sides_ship_is_recorded_for_that_side():
    """Cepheus's checks made inside a ship (a sensor lock, a repair) are read by the GM and that
    side only (Roll.side); a roll without a side is everyone's."""
    check = Check(Throw(2, 6), 8, (Modifier("Comms", 1),), "Sensor targeting", "lock")
    dice = Dice(ScriptedSource([4, 4, 4, 4]))
    core.roll(dice, check, side="blue")
    core.roll(dice, check)
    assert [r.side for r in dice.rolls] == ["blue", ""]
    assert dice.rolls[0].total == 9 and dice.rolls[0].to_json()["side"] == "blue"


# Wing Commander's shape (seed 2.1.4 Der Angriffswurf, 2.1.7 Der Erstschadenswurf, 2.1.9 Kritische
# Treffer; RULES-NOTES wing_commander): an opposed attack, naturals that say themselves, a table roll.
WC_CRIT = Natural(19, 20, "critical", True, row=msg("t.crit", "natural {natural}: critical, always succeeds"))
WC_FUMBLE = Natural(1, 3, "fumble", False, row="natural {natural}: fumble, always fails")


def test_a_check_without_a_target_succeeds_unless_a_natural_decides():
    """2.1.4: an attack on a ship that dodges has no target: its total is what the dodge must reach."""
    check = Check(Throw(2, 10), None, (Modifier("ship MV", 2),), "2.1.4", "A attacks B", (WC_CRIT, WC_FUMBLE))
    assert [check.resolve(n).outcome for n in (2, 3, 4, 18, 19, 20)] == [
        "fumble", "fumble", "success", "success", "critical", "critical"]
    assert core.chances(check) == {"success": Fraction(97, 100), "failure": Fraction(3, 100),
                                   "critical": Fraction(3, 100), "fumble": Fraction(3, 100)}
    assert core.describe(check).render() == "A attacks B: 2d10 + 2 (ship MV)"
    assert core.describe(check).id == "core.check.describe_open"


def test_a_natural_without_a_table_keeps_the_rolls_table_and_names_the_face_it_shows():
    """2.1.9 (RULES-NOTES: critical 19-20, fumble 2-3 on 2W10): the row says which natural it was."""
    check = Check(Throw(2, 10), 12, (), "2.1.5", "B dodges", (WC_CRIT, WC_FUMBLE))
    dice = Dice(ScriptedSource([9, 10, 1, 2]))
    core.roll(dice, check, table="vs 12", row="ignored")
    core.roll(dice, check, table="vs 12")
    assert [(r.table, r.row) for r in dice.rolls] == [
        ("vs 12", "natural 19: critical, always succeeds"), ("vs 12", "natural 3: fumble, always fails")]


def test_a_row_may_be_read_from_the_result_and_the_target_left_to_the_table():
    """2.1.7: the first-damage roll is read on a table by its natural; a system that words the
    target in the table records no target (so the roll shows no "vs N+")."""
    rows = {"success": "success", "failure": "failure"}
    dice = Dice(ScriptedSource([4, 5, 6, 6]))
    seen = core.roll(dice, Check(Throw(2, 10), None), table="First damage", row=lambda r: f"row {r.natural}",
                     record_target=False)
    core.roll(dice, Check(Throw(2, 10), 13), table="vs 13", row=lambda r: rows[r.outcome], record_target=False)
    first, second = dice.rolls
    assert seen.success and (first.table, first.row, first.target) == ("First damage", "row 9", None)
    assert (second.table, second.row, second.target) == ("vs 13", "failure", None)
    assert second.describe() == ": 2d10 [6, 6] = 12; vs 13: failure"
    quiet = Dice(ScriptedSource([4, 5]), recording=False)
    assert core.roll(quiet, Check(Throw(2, 10), None), row=lambda r: 1 / 0).natural == 9


def test_a_systems_dice_may_name_what_their_natural_owes_to_their_own_rules():
    """Star Wars D6's shape (RULES-NOTES starwars_d6, seed "6. ESCALES"): dice over a cap count the
    cap; the adjustment is recorded before the check's modifiers, and a table may be read from the
    result (a complication)."""

    class Capped:
        text = "2D capped at 3"

        def draw(self, dice, purpose, rule):
            faces = tuple(dice.faces(2, 6, purpose, rule))
            return faces, sum(min(f, 3) for f in faces)

        def naturals(self):
            return {}

        def adjustments(self, faces):
            return (("dice over 3 count 3", sum(min(f, 3) - f for f in faces)),)

    dice = Dice(ScriptedSource([5, 2]))
    result = core.roll(dice, Check(Capped(), None, (Modifier("pips", 1),)),
                       table=lambda r: "capped" if r.natural < sum(r.faces) else "")
    assert result.total == 6
    assert dice.rolls[0].modifiers == (("dice over 3 count 3", -2), ("pips", 1))
    assert dice.rolls[0].table == "capped" and dice.rolls[0].total == 6
