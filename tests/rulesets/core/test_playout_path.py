"""The core's playout path (issue 23's follow-up): the faster ways of making a roll, a
message, a result and a log give exactly what the plain ways gave."""
import random

import pytest

from rulesets.core.check import Check, Modifier, Natural, Result, Throw, roll
from rulesets.core.dice import Dice, RandomSource, Roll, SeededSource, face_from_random, playout_dice
from rulesets.core.engine import Log
from rulesets.core.messages import Message, msg, msgn


@pytest.mark.parametrize("count", [1, 2, 3, 5])
@pytest.mark.parametrize("sides", [6, 20])
def test_drawn_faces_are_face_from_random_of_each_draw_in_order(count, sides):
    expected_rng, rng = random.Random("faces"), random.Random("faces")
    expected = [face_from_random(expected_rng.random(), sides) for _ in range(count * 4)]
    source = RandomSource(rng)
    got = [f for _ in range(4) for f in source.faces(count, sides)]
    assert got == expected
    seeded = SeededSource("faces")
    assert [f for _ in range(4) for f in seeded.faces(count, sides)] == expected


def test_a_playout_roll_keeps_faces_total_and_target_and_a_recorded_one_every_field():
    quiet = playout_dice(random.Random("r")).roll(2, 6, modifiers=[("Skill", 2), ("GM", -1)], target=8,
                                                  purpose="pilot", rule="p.1")
    rng = random.Random("r")
    faces = tuple(face_from_random(rng.random(), 6) for _ in range(2))
    assert quiet == Roll("", faces, (), sum(faces) + 1, target=8)
    loud = Dice(RandomSource(random.Random("r"))).roll(2, 6, modifiers=[("Skill", 2), ("GM", -1)], target=8,
                                                       purpose="pilot", rule="p.1", side="a")
    assert loud == Roll("2D6", quiet.faces, (("Skill", 2), ("GM", -1)), quiet.total, "pilot", "p.1",
                        target=8, side="a")
    assert hash(loud) == hash(Roll.from_json(loud.to_json()))


def test_msg_and_msgn_make_the_message_the_constructor_makes():
    assert msg("a.b", "{x} hits", x=3) == Message("a.b", "{x} hits", {"x": 3})
    m = msgn("a.r", "{count} round", "{count} rounds", 2, side="A")
    assert m == Message("a.r", "{count} round", {"count": 2, "side": "A"}, "{count} rounds")
    assert m.english() == "2 rounds" and m.plural == "{count} rounds"
    assert msg("a.c", "plain").plural is None and msg("a.c", "plain").params == {}


def test_resolve_gives_the_result_a_named_result_would():
    crit = Natural(20, 20, "critical", True, "natural 20", "hit")
    check = Check(Throw(1, 20), 15, (Modifier("Agility", 2), Modifier("GM", -1)), "r", "shot", (crit,))
    assert check.resolve(20, (20,)) == Result(20, 21, True, "critical", (20,), 15, crit)
    assert check.resolve(13, (13,)) == Result(13, 14, False, "failure", (13,), 15, None)
    assert check.resolve(14) == Result(14, 15, True, "success", (), 15)
    assert type(check.resolve(14)) is Result and check.resolve(14).effect == 0
    assert Check(Throw(2, 6), None).resolve(2).success is True


def test_a_checked_roll_is_the_same_recorded_or_not():
    check = Check(Throw(2, 20, keep=1), 12, (Modifier("Agility", 2), Modifier("zero", 0)), "r", "shot")
    quiet = playout_dice(random.Random("c"))
    loud = Dice(RandomSource(random.Random("c")))
    for _ in range(20):
        assert roll(quiet, check) == roll(loud, check)
    assert quiet.rolls == [] and len(loud.rolls) == 20
    first = loud.rolls[0]
    assert first.modifiers == (("Agility", 2),) and first.expression == "2d20kh1" and first.target == 12


def test_a_log_starts_empty_and_keeps_lines_only_when_recording():
    loud, quiet = Log(), Log(recording=False)
    loud.say(msg("a.x", "x"), "r")
    quiet.say(msg("a.x", "x"), "r")
    assert len(loud) == 1 and loud[0].text == "x" and quiet == [] and quiet.recording is False
