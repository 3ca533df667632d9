"""Issue 27, "The player page keeps the enemy's secrets": what the other side reads of a ship's step.

A player of the other side reads what their sensors and eyes would show (a ship manoeuvres,
fires, is hit), not what happens inside the enemy ship: its Captain's coordination (Coordinate
Crew), the hasty declaration (RULES-NOTES: acting hastily, house rule), the DMs its gunners get
(Sensor Targeting, Line Up the Shot).  Those lines are marked with the ship's side
(docs/rulesets/cepheus.md, "What the other side reads").
"""
from dataclasses import replace

from encounters.viewing import Names, readable, step_view
from rulesets.core.dice import Roll
from rulesets.core.history import Applied

from .helpers import act, crew, duel

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)


def _lines(step, *wanted):
    found = [e for e in step.log if any(w in e.text for w in wanted)]
    assert found, f"no line with {wanted} in {[e.text for e in step.log]}"
    return found


def _read_by(step, sides):
    """The texts a player of ``sides`` reads of ``step`` (the GM when ``sides`` is None)."""
    applied = Applied(1, "done actor=x", [], list(step.dice.rolls), list(step.log), False)
    view = step_view(applied, 1, is_gm=sides is None, names=Names({}, sides))
    return [] if view is None else [view.headline.text] + [line.text for line in view.lines]


def test_the_three_quoted_lines_are_read_by_their_side_only():
    """Coordinate Crew, the hasty declaration, Sensor Targeting: blue's inner lines; red reads none."""
    captain = crew("cap", "captain")  # unskilled Leadership: 2 on the dice fails
    s = duel([captain, crew("o", "sensors", comms=1), GUNNER], [crew("t", "passenger")], hasty=True)
    hasty = act(s, "hasty actor=cap")
    failed = act(hasty.state, "coordinate actor=cap", 1, 1)
    no_captain = duel([crew("o", "sensors", comms=1), GUNNER], [crew("t", "passenger")])
    targeting = act(no_captain, "sensor_target actor=o target=b", 4, 4)   # 8 + 1 = 9: DM+1 against B
    quoted = [(hasty, "declares the crew acts hastily"), (failed, "fails to coordinate the crew"),
              (targeting, "gunners get DM+1 against B")]
    for step, words in quoted:
        for entry in _lines(step, words):
            assert entry.side == "blue" and not entry.gm_only
            assert readable(entry, is_gm=False, sides={"blue"})
            assert not readable(entry, is_gm=False, sides={"red"})
            assert not readable(entry, is_gm=False, sides=set())  # a viewer with no ship
            assert readable(entry, is_gm=True)
        for roll in step.dice.rolls:  # the check behind the line: the same side's
            assert roll.side == "blue" and not readable(roll, is_gm=False, sides={"red"})
        assert not any(words in text for text in _read_by(step, frozenset({"red"})))
        assert any(words in text for text in _read_by(step, frozenset({"blue"})))
        assert any(words in text for text in _read_by(step, None))


def test_what_sensors_and_eyes_show_stays_public():
    """Attack resolution: the other side reads that A fires at it, and the result."""
    s = duel([GUNNER], [crew("t", "passenger")])
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1)   # a miss, seen by both sides
    assert step.dice.rolls and not any(r.side for r in step.dice.rolls)
    public = [e for e in step.log if not e.side]
    assert public and any("B" in e.text for e in public)
    assert _read_by(step, frozenset({"red"})), "the target's side reads the attack"


def test_a_side_line_survives_the_stored_log_and_old_lines_read_as_before():
    from rulesets.core.engine import LogEntry

    line = LogEntry("A's gunners get DM+1 this turn.", "Line Up the Shot", side="blue")
    assert LogEntry.from_json(line.to_json()) == line
    old = {"text": "A fires.", "rule": "", "gm_only": False}   # stored before issue 27
    assert LogEntry.from_json(old).side == "" and "side" not in LogEntry.from_json(old).to_json()
    roll = Roll("2D6", (4, 4), (), 8, "A's sensor operator locks on", side="blue")
    assert Roll.from_json(roll.to_json()) == roll and "side" not in replace(roll, side="").to_json()
