"""The append-only log: steps, undo, reroll, reveal, snapshots and stale forms."""
import pytest

from encounters import log
from encounters.models import EncounterEvent
from rulesets.core import serial
from rulesets.core.dice import DiceNeeded, InvalidFace
from rulesets.core.engine import IllegalAction
from rulesets.core.history import Entry, fold
from rulesets.core.dice import Die
from tests.encounters.conftest import ship_id

pytestmark = pytest.mark.django_db


def fire(encounter, at="Bravo", actor="Alpha"):
    return f"fire actor={ship_id(encounter, actor)} target={ship_id(encounter, at)}"


def test_a_step_is_appended_with_its_dice_rolls_and_log(encounter, gm):
    row = log.step(encounter, fire(encounter), expected_seq=0, user=gm)
    assert row.seq == 1 and row.kind == "step" and row.created_by == gm
    assert row.dice and all("/d6" in d for d in row.dice)
    assert row.rolls[0]["purpose"] == "Alpha fires at Bravo"
    assert log.current(encounter).head == 1


def test_dice_are_seeded_from_encounter_seed_and_sequence(encounter, gm, campaign):
    from encounters.models import Encounter

    twin = Encounter.objects.create(campaign=campaign, name="Twin", ruleset="toy", seed=encounter.seed,
                                    setup=encounter.setup)
    a = log.step(encounter, fire(encounter), expected_seq=0)
    b = log.step(twin, fire(twin), expected_seq=0)
    assert a.dice == b.dice


def test_a_stale_form_is_told_the_encounter_moved_on(encounter):
    log.step(encounter, fire(encounter), expected_seq=0)
    with pytest.raises(log.StaleStep, match="moved on"):
        log.step(encounter, fire(encounter, at="Alpha", actor="Bravo"), expected_seq=0)
    assert encounter.events.count() == 1


def test_an_illegal_action_is_refused_and_nothing_is_written(encounter):
    with pytest.raises(IllegalAction):
        log.step(encounter, fire(encounter, at="Alpha", actor="Bravo"), expected_seq=0)  # not Bravo's step
    assert encounter.events.count() == 0


def test_undo_hides_the_last_step_but_keeps_its_row(encounter):
    log.step(encounter, fire(encounter), expected_seq=0)
    before = log.current(encounter).state
    log.step(encounter, fire(encounter, at="Alpha", actor="Bravo"), expected_seq=1)
    log.undo(encounter, expected_seq=2)
    now = log.current(encounter)
    assert [a.seq for a in now.applied] == [1]
    assert serial.to_json(now.state) == serial.to_json(before)
    assert list(encounter.events.values_list("kind", flat=True)) == ["step", "step", "undo"]


def test_undo_with_nothing_to_undo_is_refused(encounter):
    with pytest.raises(log.NothingToUndo):
        log.undo(encounter, expected_seq=0)


def test_reroll_gives_fresh_faces_keeps_the_old_roll_visible_and_replays_what_follows(encounter):
    first = log.step(encounter, fire(encounter), expected_seq=0)
    log.step(encounter, "brace actor=" + ship_id(encounter, "Bravo"), expected_seq=1)
    log.reroll(encounter, 1, expected_seq=2)
    now = log.current(encounter)
    step1 = now.applied[0]
    assert step1.rerolled and step1.rerolled[0][0].faces == tuple(Die.parse(d).face for d in first.dice[:2])
    assert [a.seq for a in now.applied] == [1, 2]  # the brace still follows
    reroll_row = encounter.events.get(kind="reroll")
    assert reroll_row.target_seq == 1 and reroll_row.dice == [str(d) for d in step1.dice]


def test_reveal_makes_a_gm_only_step_public(encounter):
    log.step(encounter, fire(encounter), expected_seq=0, gm_only=True)
    assert log.current(encounter).applied[0].gm_only
    log.reveal(encounter, 1, expected_seq=1)
    assert not log.current(encounter).applied[0].gm_only


def test_the_snapshot_equals_a_fold_of_the_whole_log(encounter):
    seq = 0
    for _ in range(6):
        state = log.current(encounter).state
        if state.over:
            break
        action = encounter.engine.legal_actions(state)[0]
        log.step(encounter, action.to_str(), expected_seq=seq)
        seq += 1
    log.undo(encounter, expected_seq=seq)
    cached = log.current(encounter)
    entries = [Entry(r.seq, r.kind, r.action, tuple(Die.parse(d) for d in r.dice), r.target_seq, r.gm_only)
               for r in EncounterEvent.objects.filter(encounter=encounter).order_by("seq")]
    state, applied = fold(encounter.engine, encounter.setup, entries, encounter.seed)
    assert serial.to_json(cached.state) == serial.to_json(state)
    assert [a.to_json() for a in cached.applied] == [a.to_json() for a in applied]


def test_manual_dice_ask_for_exactly_the_dice_needed(encounter):
    encounter.dice_mode = "manual"
    encounter.save()
    with pytest.raises(DiceNeeded) as need:
        log.step(encounter, fire(encounter), expected_seq=0)
    assert (need.value.count, need.value.sides) == (2, 6)
    with pytest.raises(DiceNeeded) as need:
        log.step(encounter, fire(encounter), expected_seq=0, faces=[6, 6])  # a hit: now the damage die
    assert (need.value.count, need.value.sides, need.value.purpose) == (1, 6, "damage")
    row = log.step(encounter, fire(encounter), expected_seq=0, faces=[6, 6, 4])
    assert row.dice == ["6/d6", "6/d6", "4/d6"]
    assert row.log[0]["text"] == "Alpha hits Bravo for 4."


def test_a_die_face_out_of_range_is_refused(encounter):
    encounter.dice_mode = "manual"
    encounter.save()
    with pytest.raises(InvalidFace, match="7 is not a face of a d6"):
        log.step(encounter, fire(encounter), expected_seq=0, faces=[7, 2])
    assert encounter.events.count() == 0
