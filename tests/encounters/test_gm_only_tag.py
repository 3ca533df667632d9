"""Issue 27: on the GM's page the "GM only" tag shows where it tells the GM something.

An NPC's step, whose dice are all behind the screen, carries no tag (nearly every NPC line did,
so the tag no longer stood out); a GM-only step carries one; in a public step a hidden line, and
a hidden roll among open ones, carry it; a line the other side's players do not read says whose
it is ("Red Marrow only").
"""
from django.template.loader import render_to_string

from encounters.viewing import Names, step_view
from rulesets.core.dice import Roll
from rulesets.core.engine import LogEntry
from rulesets.core.history import Applied

NPC_ROLL = Roll("2D6", (3, 4), (("Gunnery", 2),), 9, "Gutter Saint's gunner aims", target=8, gm_only=True)
OPEN_ROLL = Roll("2D6", (1, 1), (), 2, "Lantern dodges", target=8)


def gm_reads(gm_only=False, rolls=(), log=()):
    step = Applied(5, "attack", [], list(rolls), list(log) or [LogEntry("Gutter Saint fires.", "Attack")], gm_only)
    view = step_view(step, 1, is_gm=True, names=Names.everyone())
    return render_to_string("encounters/log.html#step_body", {"s": view, "is_gm": True})


def test_an_npcs_hidden_dice_carry_no_tag():
    page = gm_reads(rolls=[NPC_ROLL])
    assert ">GM only<" not in page and "behind the screen" in page


def test_a_gm_only_step_carries_one_tag():
    assert gm_reads(gm_only=True, rolls=[NPC_ROLL], log=[LogEntry("A", gm_only=True)]).count(">GM only<") == 1


def test_a_hidden_roll_among_open_ones_and_a_hidden_line_in_a_public_step_are_tagged():
    page = gm_reads(rolls=[OPEN_ROLL, NPC_ROLL],
                    log=[LogEntry("Gutter Saint fires."), LogEntry("The shot was aimed with care.", gm_only=True)])
    assert page.count(">GM only<") == 2


def test_a_line_of_one_side_says_whose_it_is():
    page = gm_reads(log=[LogEntry("Gutter Saint fires."), LogEntry("The Captain gives Pike DM+1.", side="Red Marrow")])
    assert ">Red Marrow only<" in page and ">GM only<" not in page
