"""The GM override of Void d20 (RULES-NOTES: "the GM's escape hatch": any stat, status or position
set by hand, recorded as a step), issue 25: a number reads the same on every path (a scenario file
with a number or a quoted number, the runner's text, ``value=#4`` and ``value=4``); issue 26: every
numeric field has the range its rule allows, and a value outside it is refused naming the field and
the range (docs/rulesets/void_d20.md, "The GM override")."""
from __future__ import annotations

import typing
from pathlib import Path

import pytest

from rulesets.core.dice import scripted
from rulesets.core.engine import Action, IllegalAction
from rulesets.core.scenario import load_scenario, run_scenario
from rulesets.void_d20 import override, timers
from rulesets.void_d20.engine import RULESET

from .helpers import boat, person

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "void_d20-dock-board-and-bleed.yaml"


def _state():
    return RULESET.setup(RULESET.example_setup(0))      # Kestrel (frame 14) and Grinder; Jun has 7 HP


def _apply(state, action: Action):
    return RULESET.apply(state, action, scripted())


#: every numeric field of the Void override: (path, the value set, where it lands in the state)
NUMERIC = {
    "frame": ("Kestrel.frame", 4, lambda s: boat(s, "s1").frame),
    "speed": ("Kestrel.speed", 4, lambda s: boat(s, "s1").speed),
    "defence": ("Kestrel.defence", 4, lambda s: boat(s, "s1").defence),
    "spare_parts": ("Kestrel.spare_parts", 4, lambda s: boat(s, "s1").spare_parts),
    "reactor": ("Grinder.reactor", 4, lambda s: boat(s, "s2").reactor),
    "reboot": ("Grinder.reboot", 4, lambda s: boat(s, "s2").reboot),
    "crew.hp": ("Kestrel.crew.Jun Okafor.hp", 4, lambda s: person(s, "k2").hp),
    "crew.void": ("Kestrel.crew.k2.void", 4, lambda s: person(s, "k2").void),
    "crew.timer": ("Kestrel.crew.Jun Okafor.timer", 2, lambda s: timers.rounds_left(s, person(s, "k2"))),
}

#: the ways a number reaches the override: the action the step applies, built from what was written
WAYS = {
    "an int param (a scenario file's value=4, read as a number)": lambda path, n: Action.make("override", "gm", path=path, value=n),
    "text (the runner's form)": lambda path, n: Action.make("override", "gm", path=path, value=str(n)),
    "the string form value=#4": lambda path, n: Action.parse(Action.make("override", "gm", path=path, value=n).to_str()),
    "the string form value=4": lambda path, n: Action.parse(Action.make("override", "gm", path=path, value=str(n)).to_str()),
    "a quoted number": lambda path, n: Action.make("override", "gm", path=path, value=f'"{n}"'),
    "a single-quoted number": lambda path, n: Action.make("override", "gm", path=path, value=f"'{n}'"),
}


def _ready(state, field: str):
    """The state a field can be set in: a timer counts only a status that lasts for rounds."""
    if field == "crew.timer":
        state = _apply(state, Action.make("override", "gm", path="Kestrel.crew.Jun Okafor.status", value="unconscious")).state
    return state


@pytest.mark.parametrize("way", list(WAYS))
@pytest.mark.parametrize("field", list(NUMERIC))
def test_a_number_sets_the_same_value_whichever_way_it_arrives(field, way):
    """RULES-NOTES (the GM's escape hatch; issue 25): every numeric field of the Void override reads
    an int, its text, ``#4`` and a quoted number alike, with the same log line."""
    path, n, read = NUMERIC[field]
    state = _ready(_state(), field)
    step = _apply(state, WAYS[way](path, n))
    assert read(step.state) == n
    assert [e.text for e in step.log][:1] == [_apply(state, WAYS["text (the runner's form)"](path, n)).log[0].text]
    assert f"to {n}" in step.log[0].text and '"' not in step.log[0].text


@pytest.mark.parametrize("written", ["4", "#4", '"4"', "'4'"])
def test_a_scenario_file_sets_a_number_written_plain_or_quoted(tmp_path, written):
    """RULES-NOTES (the GM's escape hatch) and docs/scenarios.md: ``override actor=gm path=Kestrel.frame
    value=4`` in a scenario file, the number written plain, with ``#`` or in quotes."""
    head = EXAMPLE.read_text().split("steps:")[0]
    path = tmp_path / "override.yaml"
    path.write_text(head + "steps:\n"
                    f"  - action: override actor=gm path=Kestrel.frame value={written}\n"
                    "    expect: {ships.s1.frame: 4}\n"
                    f"  - action: override actor=gm path=Kestrel.crew.c2.hp value={written}\n"
                    "    expect: {combatants.c2.hp: 4}\n")
    result = run_scenario(load_scenario(path))
    assert [e["text"] for e in result["log"]] == ["GM sets Kestrel's frame to 4", "GM sets Kestrel's c2 HP to 4"]


def test_the_override_takes_a_number_or_text_as_its_annotations_say():
    """RULES-NOTES (the GM's escape hatch; issue 25): a compiled build checks the annotations, so the
    value (and the path) are declared as whatever an action parameter may be, not as text."""
    hints = typing.get_type_hints(override.apply_override)
    assert hints["value"] is object and hints["path"] is object


# --- the ranges (issue 26) -------------------------------------------------------------------------

REFUSED = [
    # (path, value, the field and range the refusal names)
    ("Kestrel.frame", "-1", "Kestrel.frame: the frame's Condition is a whole number from 0 to the ship's full frame; -1"),
    ("Kestrel.frame", "15", "Kestrel.frame: the frame's Condition is a whole number from 0 to 14 (Kestrel's full frame); 15"),
    ("Kestrel.speed", "0", "Kestrel.speed: Speed is a whole number from 1 to 30; 0"),
    ("Kestrel.defence", "31", "Kestrel.defence: Defence is a whole number from 1 to 30; 31"),
    ("Kestrel.spare_parts", "21", "Kestrel.spare_parts: spare parts is a whole number from 0 to 20; 21"),
    ("Grinder.reactor", "7", "Grinder.reactor: the reactor countdown is a whole number from 0 to 6; 7"),
    ("Grinder.reboot", "-2", "Grinder.reboot: the reboot is a whole number from 0 to 6; -2"),
    ("Kestrel.crew.Jun Okafor.hp", "-3", "Kestrel.crew.Jun Okafor.hp: HP is a whole number from 0 to the person's full HP; -3"),
    ("Kestrel.crew.Jun Okafor.hp", "8", "Kestrel.crew.Jun Okafor.hp: HP is a whole number from 0 to 7 (Jun Okafor's full HP); 8"),
    ("Kestrel.crew.k2.void", "5", "Kestrel.crew.k2.void: Void Points is a whole number from 0 to 4; 5"),
    ("Grinder.crew.Raider boss.void", "1", "Grinder.crew.Raider boss.void: Void Points is a whole number from 0 to 0 (enemies have none); 1"),
    ("Kestrel.speed", "fast", "Kestrel.speed: Speed is a whole number from 1 to 30; 'fast' is not a whole number"),
    ("Kestrel.speed", "4.5", "Kestrel.speed: Speed is a whole number from 1 to 30; '4.5' is not a whole number"),
]


@pytest.mark.parametrize("path, value, says", REFUSED, ids=[f"{p}={v}" for p, v, _ in REFUSED])
def test_a_value_outside_its_rule_is_refused_naming_the_field_and_the_range(path, value, says):
    """RULES-NOTES (the GM's escape hatch; issue 26): Стрельба и повреждения рамы (the frame's Condition,
    0 drifting, never above the ship's own), Бегство (Speed), Смерть и исцеление (HP from 0 to the
    person's own), the notes' Void Points (at most 4; enemies have none), the d6 counts of the tables."""
    state = _state()
    with pytest.raises(IllegalAction) as refused:
        _apply(state, Action.make("override", "gm", path=path, value=value))
    assert str(refused.value).startswith(says)


def test_the_edges_of_each_range_are_taken():
    """RULES-NOTES (the GM's escape hatch): 0 and the ship's full frame, 0 and the person's full HP."""
    state = _state()
    for path, value, read in [("Kestrel.frame", 0, lambda s: boat(s, "s1").frame),
                              ("Kestrel.frame", 14, lambda s: boat(s, "s1").frame),
                              ("Kestrel.crew.Jun Okafor.hp", 0, lambda s: person(s, "k2").hp),
                              ("Kestrel.crew.Jun Okafor.hp", 7, lambda s: person(s, "k2").hp),
                              ("Grinder.reactor", 6, lambda s: boat(s, "s2").reactor),
                              ("Grinder.crew.Raider boss.void", 0, lambda s: person(s, "g3").void)]:
        assert read(_apply(state, Action.make("override", "gm", path=path, value=value)).state) == value


# --- counts of rounds (issue 25's timer decision, timers.py) ------------------------------------------


def _set(state, path, value):
    return _apply(state, Action.make("override", "gm", path=path, value=value))


def test_a_status_set_by_hand_starts_with_the_rules_count_and_the_count_reads_as_the_card_shows():
    """Таблица смерти в космосе (VD-26, VD-24, VD-23) and the GM's escape hatch: shock set by hand is
    "no actions: 2 rounds left", as the death table gives it; a count set by hand is what the card reads."""
    step = _set(_state(), "Kestrel.crew.Jun Okafor.status", "shock")
    assert step.log[0].text == "GM sets Kestrel's Jun Okafor status to shock (no actions: 2 rounds left)"
    step = _set(step.state, "Kestrel.crew.Jun Okafor.timer", 1)
    assert step.log[0].text == "GM sets Kestrel's Jun Okafor rounds left to 1 (no actions: 1 round left)"
    assert timers.rounds_left(step.state, person(step.state, "k2")) == 1
    step = _set(step.state, "Kestrel.crew.Jun Okafor.status", "bleeding")
    assert "(dies unless helped: 1 round left)" in step.log[0].text   # between rounds: the coming one
    assert person(_set(step.state, "Kestrel.crew.Jun Okafor.status", "ok").state, "k2").timer == 0


@pytest.mark.parametrize("status, value, says", [
    ("ok", "2", "Kestrel.crew.Jun Okafor.timer: Jun Okafor is not in shock, unconscious or bleeding out"),
    ("shock", "3", "Kestrel.crew.Jun Okafor.timer: rounds left is a whole number from 1 to 2 (in shock: no actions for 2 rounds); 3"),
    ("bleeding", "3", "Kestrel.crew.Jun Okafor.timer: rounds left is a whole number from 1 to 2 (bleeding out: this round and the next to help); 3"),
    ("unconscious", "7", "Kestrel.crew.Jun Okafor.timer: rounds left is a whole number from 1 to 6 (in shock or bleeding out: 2); 7"),
    ("unconscious", "0", "Kestrel.crew.Jun Okafor.timer: rounds left is a whole number from 1 to 6 (in shock or bleeding out: 2); 0"),
])
def test_a_count_of_rounds_has_the_range_of_its_status(status, value, says):
    """Таблица смерти в космосе: shock 2 rounds (VD-26), unconscious d6 (VD-24), bleeding out this round
    and the next (VD-23); a person standing has no count (issue 26)."""
    state = _set(_state(), "Kestrel.crew.Jun Okafor.status", status).state
    with pytest.raises(IllegalAction) as refused:
        _set(state, "Kestrel.crew.Jun Okafor.timer", value)
    assert str(refused.value).startswith(says)
