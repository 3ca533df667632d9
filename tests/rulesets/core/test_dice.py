"""The core's dice, odds, actions and serialisation: the promises every ruleset builds on."""
from dataclasses import dataclass, field
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rulesets.core import odds, serial
from rulesets.core.dice import (
    Dice, DiceExhausted, DiceNeeded, Die, InvalidFace, ManualSource, MixedSource, Roll, ScriptedSource,
    SeededSource, derive_seed, face_from_random,
)
from rulesets.core.engine import Action


def test_seeded_faces_are_fixed_for_a_seed_on_every_python():
    # random.Random(str).random() is the one sequence Python keeps stable across versions.
    assert SeededSource("encounter-1:1:0").faces(6, 6) == [6, 1, 2, 3, 1, 1]
    assert SeededSource("encounter-1:1:0").faces(6, 6) == SeededSource("encounter-1:1:0").faces(6, 6)
    assert SeededSource("encounter-1:1:1").faces(6, 6) != SeededSource("encounter-1:1:0").faces(6, 6)


@given(st.floats(min_value=0, max_value=1, exclude_max=True), st.integers(min_value=1, max_value=100))
def test_a_face_is_always_on_the_die(value, sides):
    assert 1 <= face_from_random(value, sides) <= sides


def test_a_roll_records_its_faces_modifiers_total_and_rule():
    dice = Dice(ScriptedSource([4, 5]))
    roll = dice.roll(2, 6, modifiers=[("Gunnery", 1), ("Range", -2), ("nothing", 0)], purpose="Attack",
                     rule="Attacco", target=8)
    assert (roll.faces, roll.total, roll.succeeded) == ((4, 5), 8, True)
    assert roll.modifiers == (("Gunnery", 1), ("Range", -2))
    assert roll.describe() == "Attack: 2D6 [4, 5] + 1 (Gunnery) - 2 (Range) = 8 vs 8+ (success)"
    assert Roll.from_json(roll.to_json()) == roll
    assert dice.dice == [Die(6, 4), Die(6, 5)]


def test_scripted_dice_refuse_to_run_out_or_to_change_their_die():
    with pytest.raises(DiceExhausted, match="needs 2d6, 1 face"):
        Dice(ScriptedSource([3])).roll(2, 6, purpose="Attack")
    with pytest.raises(DiceExhausted, match="is a d20"):
        Dice(ScriptedSource([Die(20, 3)])).roll(1, 6)


def test_manual_dice_ask_for_exactly_what_is_missing_and_refuse_bad_faces():
    with pytest.raises(DiceNeeded) as need:
        Dice(ManualSource([2])).roll(2, 6, purpose="Damage")
    assert (need.value.count, need.value.sides, need.value.purpose, need.value.have) == (2, 6, "Damage", 1)
    with pytest.raises(InvalidFace, match=r"Die 2: 7 is not a face of a d6 \(1-6\)."):
        Dice(ManualSource([3, 7])).roll(2, 6)


def test_mixed_dice_use_typed_faces_then_seeded_ones():
    dice = Dice(MixedSource([6, 6], SeededSource("x")))
    assert dice.roll(2, 6).faces == (6, 6)
    assert dice.roll(1, 6).faces == tuple(SeededSource("x").faces(1, 6))


def test_derived_seeds_name_their_parts():
    assert derive_seed("abc", 3, 0) == "abc:3:0"


def test_exact_odds_of_a_task_check():
    assert odds.chance_at_least(2, 6, 0, 8) == Fraction(15, 36)
    assert odds.chance_at_least(2, 6, 2, 8) == Fraction(26, 36)
    dist = odds.distribution(2, 6, 1)
    assert sum(dist.values()) == 1 and dist[8] == Fraction(6, 36)
    result = odds.pass_fail(Fraction(15, 36), "42% to hit")
    assert result.total == pytest.approx(1) and result.probability("success") == pytest.approx(15 / 36)
    assert odds.percent(0.004) == "<1%" and odds.percent(0.5833) == "58%"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12),
       st.dictionaries(st.from_regex(r"[a-z_]{1,8}", fullmatch=True).filter(lambda k: k != "actor"),
                       st.one_of(st.integers(-50, 50), st.text(max_size=10)), max_size=4))
def test_an_action_round_trips_through_its_string(actor, params):
    action = Action.make("attack", actor, **params)
    assert Action.parse(action.to_str()) == action


def test_actions_with_equal_parameters_are_equal_whatever_their_order():
    assert Action.make("fire", "s1", target="s2", weapon=0) == Action.make("fire", "s1", weapon=0, target="s2")
    assert Action.parse("fire actor=s1 target=s2 weapon=#0").get("weapon") == 0
    with pytest.raises(ValueError, match="is not key=value"):
        Action.parse("fire s1")


@dataclass
class Inner:
    name: str
    hits: dict[str, int] = field(default_factory=dict)


@dataclass
class Outer:
    items: list[Inner]
    pair: tuple[int, ...] = ()
    maybe: Inner | None = None
    ratio: float = 0.0


def test_states_serialise_by_type_hints_and_come_back_equal():
    value = Outer([Inner("a", {"hull": 2})], (1, 2), Inner("b"), 1.0)
    data = serial.to_json(value)
    assert data == {"items": [{"name": "a", "hits": {"hull": 2}}], "pair": [1, 2],
                    "maybe": {"name": "b", "hits": {}}, "ratio": 1.0}
    assert serial.from_json(Outer, data) == value
    assert serial.from_json(Outer, {"items": [], "ratio": 2}).ratio == 2.0


def test_own_dice_source_types_only_the_rolls_that_are_mine():
    """A player's own dice in a step that also rolls for another side: their rolls from what they
    typed (asked for when short), the others' from the app's source, in the order asked."""
    from rulesets.core.dice import DiceNeeded, ManualSource, OwnDiceSource, ScriptedSource

    mine = lambda purpose: purpose.startswith("ours")  # noqa: E731
    d = Dice(OwnDiceSource(ManualSource([6, 5]), ScriptedSource([1, 2, 3]), mine))
    assert d.roll(2, 6, purpose="theirs").faces == (1, 2)
    assert d.roll(2, 6, purpose="ours").faces == (6, 5)
    assert d.roll(1, 6, purpose="theirs again").faces == (3,)
    with pytest.raises(DiceNeeded) as asked:
        d.roll(1, 6, purpose="ours again")
    assert asked.value.purpose == "ours again"
