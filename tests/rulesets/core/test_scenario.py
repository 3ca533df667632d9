"""Scenario files: a setup and steps, played headless, with errors naming line and field."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from rulesets.core import registry, serial
from rulesets.core.replay import replay
from rulesets.core.scenario import ScenarioError, load_scenario, run_scenario
from tests.rulesets.core.toy import RULESET as TOY

SCENARIOS = Path(__file__).parent / "scenarios"

SETUP = """\
ruleset: toy
seed: "fixed"
setup:
  ships:
    - id: a
      name: Alpha
      side: blue
      stats: {hull: 10}
      crew: [{id: a1, name: Ann, skills: {gunnery: 1}}]
    - id: b
      name: Bravo
      side: red
      stats: {hull: 10}
      crew: [{id: b1, name: Bob, skills: {gunnery: 2}}]
"""
# SETUP is 14 lines; "steps:" is line 15 and the first step starts on line 16.


@pytest.fixture(autouse=True)
def toy_ruleset():
    registry.register(TOY)
    yield TOY
    registry.unregister(TOY.key)


def scenario(steps: str, head: str = SETUP):
    return load_scenario(head + "steps:\n" + textwrap.dedent(steps))


def refused(text_or_steps: str, *, whole: bool = False, run: bool = True) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        loaded = load_scenario(text_or_steps) if whole else scenario(text_or_steps)
        if run:
            run_scenario(loaded)
    return info.value


# --- playing ------------------------------------------------------------------------


def test_a_scripted_duel_gives_the_asserted_state():
    result = run_scenario(load_scenario(SCENARIOS / "toy-duel.yaml"))
    assert result["state"]["over"] is True
    assert result["state"]["winner"] == "blue"
    assert [s["hull"] for s in result["state"]["ships"]] == [4, 0]
    assert [e["text"] for e in result["log"]] == [
        "Alpha hits Bravo for 3.",
        "Bravo braces.",
        "Alpha misses Bravo.",
        "Bravo hits Alpha for 6.",
        "Alpha hits Bravo for 5.",
    ]
    assert [r["faces"] for r in result["rolls"]] == [[4, 5], [3], [3, 4], [2, 2], [6], [6, 6], [5]]


def test_each_step_record_names_the_action_and_the_dice_it_used():
    result = run_scenario(load_scenario(SCENARIOS / "toy-duel.yaml"))
    first = result["steps"][0]
    assert first["kind"] == "action"
    assert first["dice_from"] == "script"
    assert first["note"] == "Alpha opens fire"
    assert first["actions"][0]["action"] == "fire actor=a target=b"
    assert first["actions"][0]["dice"] == ["4/d6", "5/d6", "3/d6"]
    assert first["actions"][0]["log"] == [{"text": "Alpha hits Bravo for 3.", "rule": "toy 2", "gm_only": False}]
    assert result["steps"][2] == {
        "index": 2, "line": 27, "kind": "expect",
        "expect": {"ships.b.hull": 1, "active": "Alpha", "round": 2},
    }


def test_a_left_out_actor_is_the_one_who_can_act_and_a_gm_dm_is_kept():
    result = run_scenario(load_scenario(SCENARIOS / "toy-duel.yaml"))
    assert result["steps"][4]["actions"][0]["action"] == "fire actor=b dm=#2 target=a"
    assert ["GM", 2] in result["rolls"][3]["modifiers"]


def test_the_recorded_steps_replay_to_the_same_state():
    loaded = load_scenario(SCENARIOS / "toy-duel.yaml")
    result = run_scenario(loaded)
    recorded = [a for step in result["steps"] for a in step.get("actions", [])]
    assert serial.to_json(replay(TOY, loaded.setup, recorded)) == result["state"]


def test_without_each_step_only_the_final_state_is_given():
    result = run_scenario(load_scenario(SCENARIOS / "toy-duel.yaml"))
    assert "initial_state" not in result
    assert all("state" not in a for s in result["steps"] for a in s.get("actions", []))


def test_each_step_gives_the_state_after_every_action():
    result = run_scenario(load_scenario(SCENARIOS / "toy-duel.yaml"), each_step=True)
    assert [s["hull"] for s in result["initial_state"]["ships"]] == [10, 4]
    states = [a["state"] for s in result["steps"] for a in s.get("actions", [])]
    assert [[s["hull"] for s in st["ships"]] for st in states] == [[10, 1], [10, 1], [10, 1], [4, 1], [4, 0]]
    assert states[1]["ships"][1]["braced"] is True
    assert states[-1] == result["state"]


def test_the_same_file_twice_gives_the_same_json():
    text = (SCENARIOS / "toy-auto.yaml").read_text()
    first = json.dumps(run_scenario(load_scenario(text), each_step=True))
    second = json.dumps(run_scenario(load_scenario(text), each_step=True))
    assert first == second


def test_a_different_scenario_seed_gives_different_dice():
    text = (SCENARIOS / "toy-auto.yaml").read_text()
    one = run_scenario(load_scenario(text))
    other = run_scenario(load_scenario(text.replace('seed: "auto duel"', 'seed: "another duel"')))
    assert one["rolls"] != other["rolls"]


def test_dice_without_a_script_come_from_the_scenario_seed_and_the_step_index():
    result = run_scenario(scenario("""\
        - action: fire target=b
        - action: fire target=a
          seed: "my own"
        """))
    assert result["steps"][0]["seed"] == "fixed:0"
    assert result["steps"][1]["seed"] == "my own"


def test_auto_steps_let_the_policy_play_that_many_steps():
    result = run_scenario(scenario("""\
        - auto: 3
        - expect: {turn: 1, round: 2}
        """))
    auto = result["steps"][0]
    assert auto["kind"] == "auto"
    assert auto["seed"] == "fixed:0"
    assert len(auto["actions"]) == 3
    assert all(a["action"].startswith("fire ") for a in auto["actions"])


def test_auto_end_plays_until_the_fight_is_over():
    result = run_scenario(load_scenario(SCENARIOS / "toy-auto.yaml"))
    assert result["state"]["over"] is True
    assert result["steps"][3] == {"index": 3, "line": 13, "kind": "expect", "expect": {"over": True}}


def test_auto_stops_early_when_the_fight_ends():
    result = run_scenario(scenario("""\
        - auto: end
        - auto: 5
        """))
    assert result["steps"][1]["actions"] == []


def test_a_scenario_with_no_steps_gives_the_setup_state():
    result = run_scenario(load_scenario(SETUP))
    assert result["steps"] == [] and result["log"] == []
    assert result["state"]["ships"][0]["hull"] == 10


# --- refused files: the shape (load_scenario) ------------------------------------


def test_yaml_that_does_not_parse_is_refused_with_its_line():
    err = refused("ruleset: toy\nsetup:\n  ships: [\n", whole=True)
    assert err.line == 4 and err.field == ""
    assert str(err).startswith("line 4: not valid YAML")


def test_an_empty_file_is_refused():
    assert str(refused("", whole=True)) == "line 1: the file is empty"


def test_a_missing_ruleset_is_refused():
    err = refused("name: x\nsetup: {ships: []}\n", whole=True)
    assert str(err) == "line 1: missing key 'ruleset' at the top of the file"


def test_an_unknown_ruleset_is_refused_naming_the_known_ones():
    err = refused(SETUP.replace("ruleset: toy", "ruleset: cephus"), whole=True)
    assert (err.line, err.field) == (1, "ruleset")
    assert "unknown ruleset 'cephus'" in err.message and "toy" in err.message


def test_an_unknown_top_key_is_refused_with_a_suggestion():
    err = refused(SETUP + "stpes: []\n", whole=True)
    assert (err.line, err.field) == (15, "stpes")
    assert "unknown key 'stpes' (did you mean 'steps'?)" in err.message


def test_an_unknown_step_key_is_refused():
    err = refused("""\
        - action: brace
          dise: [1]
        """, run=False)
    assert str(err).startswith("line 17, steps[0].dise: unknown key 'dise' (did you mean 'dice'?)")


def test_a_key_given_twice_is_refused():
    err = refused("""\
        - action: brace
          action: fire target=b
        """, run=False)
    assert str(err) == "line 17, steps[0].action: this key appears twice"


def test_a_ship_without_a_side_is_refused():
    err = refused(SETUP.replace("      side: red\n", ""), whole=True)
    assert str(err) == "line 10, setup.ships[1]: missing key 'side'"


def test_a_number_where_text_belongs_is_refused_with_a_hint():
    err = refused(SETUP.replace("id: b\n", "id: 2\n"), whole=True)
    assert str(err) == "line 10, setup.ships[1].id: expected text, got a number (2) (put it in quotes)"


def test_two_ships_with_one_id_are_refused():
    err = refused(SETUP.replace("id: b\n", "id: a\n"), whole=True)
    assert (err.line, err.field) == (10, "setup.ships[1].id")


def test_stats_that_are_not_a_mapping_are_refused():
    err = refused(SETUP.replace("stats: {hull: 10}\n      crew: [{id: b1", "stats: [10]\n      crew: [{id: b1"), whole=True)
    assert (err.line, err.field) == (13, "setup.ships[1].stats")


def test_a_setup_the_ruleset_cannot_use_is_refused_at_setup():
    err = refused(SETUP.replace("stats: {hull: 10}\n      crew: [{id: b1", "stats: {hul: 10}\n      crew: [{id: b1"), whole=True)
    assert str(err) == "line 3, setup: the Toy duel ruleset refused this setup: missing key 'hull'"


def test_steps_that_are_not_a_list_are_refused():
    err = refused(SETUP + "steps: fire\n", whole=True)
    assert str(err) == "line 15, steps: expected a list, got text ('fire')"


def test_a_step_written_as_bare_text_is_refused():
    err = refused("- fire target=b\n", run=False)
    assert (err.line, err.field) == (16, "steps[0]")
    assert "action: fire target=b" in err.message


def test_a_step_with_both_action_and_auto_is_refused():
    err = refused("- {action: brace, auto: 2}\n", run=False)
    assert (err.line, err.field) == (16, "steps[0].auto")


def test_dice_and_seed_together_are_refused():
    err = refused("""\
        - action: brace
          dice: []
          seed: x
        """, run=False)
    assert (err.line, err.field) == (18, "steps[0].seed")


def test_a_face_below_one_is_refused_where_it_is_written():
    err = refused("""\
        - action: fire target=b
          dice:
            - 4
            - 0
        """, run=False)
    assert str(err) == "line 19, steps[0].dice[1]: a die face is a whole number from 1 up, got a number (0)"


def test_auto_needs_a_positive_number_or_end():
    err = refused("- auto: yes\n", run=False)
    assert str(err) == "line 16, steps[0].auto: auto takes a number of steps (1 or more) or 'end', got true/false (true)"


def test_an_action_that_does_not_read_is_refused():
    err = refused("- action: fire target\n", run=False)
    assert (err.line, err.field) == (16, "steps[0].action")
    assert "'target' is not key=value" in err.message


# --- refused files: what only play shows (run_scenario) -------------------------


def test_an_illegal_action_is_refused_listing_the_legal_ones():
    err = refused("""\
        - action: brace
          dice: []
        - action: fire target=c
          dice: [6, 6, 6]
        """)
    assert (err.line, err.field) == (18, "steps[1].action")
    assert err.message == (
        "'fire target=c' is not legal now (round 1, Bravo to act); legal: fire actor=b target=a; brace actor=b"
    )


def test_an_action_for_an_actor_whose_turn_it_is_not_is_refused():
    err = refused("- action: brace actor=b\n")
    assert (err.line, err.field) == (16, "steps[0].action")
    assert "legal: fire actor=a target=b; brace actor=a" in err.message


def test_an_action_after_the_end_is_refused():
    err = refused("""\
        - auto: end
        - action: brace
        """)
    assert (err.line, err.field) == (17, "steps[1].action")
    assert "the fight is over" in err.message and "no action is legal" in err.message


def test_a_face_the_die_does_not_have_is_refused():
    err = refused("""\
        - action: fire target=b
          dice: [4, 7, 3]
        """)
    assert str(err) == "line 17, steps[0].dice: 7 is not a face of a d6 (die 2, for Alpha fires at Bravo)"


def test_too_few_dice_are_refused():
    err = refused("""\
        - action: fire target=b
          dice: [6, 6]
        """)
    assert str(err) == "line 17, steps[0].dice: too few dice: all 2 given are used, and damage needs 1d6 more"


def test_too_few_dice_for_a_roll_say_how_many_are_left():
    err = refused("""\
        - action: fire target=b
          dice: [6]
        """)
    assert err.message == "too few dice: 1 given, and Alpha fires at Bravo needs 2d6 with only 1 left"


def test_too_many_dice_are_refused():
    err = refused("""\
        - action: fire target=b
          dice: [1, 1, 5]
        """)
    assert (err.line, err.field) == (17, "steps[0].dice")
    assert err.message.startswith("too many dice: 3 given, the step used 2 (Alpha fires at Bravo: 2D6 [1, 1]")


def test_a_step_that_rolls_nothing_refuses_any_dice():
    err = refused("""\
        - action: brace
          dice: [3]
        """)
    assert err.message == "too many dice: 1 given, the step used 0 (no rolls)"


# --- expectations -------------------------------------------------------------------


def test_a_failing_expect_names_its_line_and_path():
    err = refused("""\
        - action: fire target=b
          dice: [4, 5, 3]
        - expect:
            over: false
            ships.b.hull: 8
        """)
    assert str(err) == "line 20, steps[1].expect.ships.b.hull: expected 8, got 7"


def test_an_expect_on_a_path_the_state_has_not_is_refused():
    err = refused("- expect: {ships.c.hull: 3}\n")
    assert (err.line, err.field) == (16, "steps[0].expect.ships.c.hull")
    assert err.message == "ships has no entry 'c' (give a number from 0, or an id)"


def test_an_expect_past_the_end_of_a_list_is_refused():
    err = refused("- expect: {ships.2.hull: 3}\n")
    assert err.message == "ships has 2 entries, so no entry 2"


def test_an_expect_on_an_unknown_key_lists_the_keys():
    err = refused("- expect: {hull: 3}\n")
    assert err.message.startswith("the state has no 'hull' (it has: ships, round, turn")


def test_true_is_not_one_in_an_expect():
    err = refused("- expect: {round: true}\n")
    assert err.message == "expected true, got 1"


def test_an_expect_on_the_same_step_is_checked_after_its_action():
    result = run_scenario(scenario("""\
        - action: fire target=b
          dice: [4, 5, 3]
          expect: {ships.1.hull: 7, active: Bravo}
        """))
    assert result["steps"][0]["expect"] == {"ships.1.hull": 7, "active": "Bravo"}


def test_the_error_text_is_line_then_field_then_message():
    assert str(ScenarioError(14, "steps[2].dice", "7 is not a face of a d6")) == (
        "line 14, steps[2].dice: 7 is not a face of a d6"
    )


# --- reading ------------------------------------------------------------------------


def test_a_file_is_read_from_a_path_or_a_path_string_or_as_text():
    path = SCENARIOS / "toy-duel.yaml"
    assert load_scenario(path) == load_scenario(str(path)) == load_scenario(path.read_text())


def test_a_missing_yaml_file_is_an_os_error_not_a_scenario_error(tmp_path):
    with pytest.raises(FileNotFoundError):
        load_scenario(str(tmp_path / "nowhere.yaml"))


def test_anchors_and_merge_keys_let_ships_share_their_stats():
    loaded = load_scenario("""\
ruleset: toy
seed: 7
setup:
  ships:
    - &frigate
      id: a
      name: Alpha
      side: blue
      stats: {hull: 6}
      crew: [{id: c1, name: Cat, skills: {gunnery: 1}}]
    - <<: *frigate
      id: b
      name: Bravo
      side: red
""")
    assert loaded.seed == "7"
    assert loaded.setup["ships"][1]["stats"] == {"hull": 6}
    assert run_scenario(loaded)["state"]["ships"][1]["hull"] == 6


def test_a_file_that_is_not_a_mapping_is_refused():
    err = refused("- ruleset: toy\n", whole=True)
    assert str(err) == "line 1: a scenario file is a mapping (ruleset:, setup:, steps: ...), got a list"


# --- a step the rules must refuse (refused: true) -------------------------------------


def test_a_refused_step_passes_when_the_rules_refuse_it_and_changes_nothing():
    result = run_scenario(scenario("""\
        - action: brace actor=b
          refused: true
          expect: {round: 1}
        - action: fire target=b
          dice: [4, 5, 3]
        """))
    first, second = result["steps"]
    assert first["kind"] == "refused" and "legal: fire actor=a target=b; brace actor=a" in first["refused"]
    assert second["kind"] == "action" and result["log"][0]["text"] == "Alpha hits Bravo for 3."


def test_a_refused_step_can_name_the_message_it_expects():
    run_scenario(scenario("""\
        - action: brace actor=b
          refused: is not legal now
        """))
    err = refused("""\
        - action: brace actor=b
          refused: out of ammunition
        """)
    assert (err.line, err.field) == (17, "steps[0].refused")
    assert err.message.startswith("refused, but with another message: expected it to say 'out of ammunition'")


def test_a_refused_step_that_the_rules_take_fails_saying_what_happened():
    err = refused("""\
        - action: fire target=b
          dice: [4, 5, 3]
          refused: true
        """)
    assert (err.line, err.field) == (18, "steps[0].refused")
    assert err.message == "expected the ruleset to refuse 'fire target=b', but it was taken (Alpha hits Bravo for 3.)"


def test_refused_belongs_to_an_action_and_takes_true_or_text():
    err = refused("- auto: 1\n  refused: true\n", run=False)
    assert err.field == "steps[0].refused" and "refused belongs to an action step" in err.message
    err = refused("- action: brace\n  refused: 3\n", run=False)
    assert err.message == "refused takes true, or the text the refusal must contain, got a number (3)"


# --- files that are not scenarios: refused in words, never a crash -------------------------


def test_an_alias_bomb_is_refused_before_it_expands():
    laughs = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8))
    err = refused(laughs, whole=True, run=False)
    assert "the file expands to more than 100,000 values (aliases repeating aliases?)" in err.message


@pytest.mark.parametrize("depth, message", [
    (60, "nested more than 40 deep"),
    (20000, "nested far too deeply (more than 40 levels)"),
])
def test_deep_nesting_is_refused(depth, message):
    err = refused("a: " + "[" * depth + "]" * depth + "\n", whole=True, run=False)
    assert err.message == message


def test_a_number_of_thousands_of_digits_is_refused_where_it_is():
    err = refused(SETUP.replace('seed: "fixed"', "seed: " + "9" * 5000), whole=True, run=False)
    assert str(err) == "line 2, seed: a number with thousands of digits"


# --- a key the ruleset does not read is refused, not dropped --------------------------


def test_a_stat_the_ruleset_does_not_read_is_refused_with_a_suggestion():
    err = refused(SETUP.replace("stats: {hull: 10}\n      crew: [{id: b1", "stats: {hull: 10, hulls: 2}\n      crew: [{id: b1"),
                  whole=True, run=False)
    assert (err.line, err.field) == (13, "setup.ships[1].stats.hulls")
    assert err.message == "the Toy duel ruleset has no such key, so it would be ignored (did you mean 'hull'?)"


def test_an_option_the_ruleset_does_not_read_is_refused():
    head = SETUP + "  options: {max_rounds: 3, max_round: 4}\n"
    err = refused(head, whole=True, run=False)
    assert (err.line, err.field) == (15, "setup.options.max_round")
    assert err.message == "the Toy duel ruleset has no such key, so it would be ignored (did you mean 'max_rounds'?)"
