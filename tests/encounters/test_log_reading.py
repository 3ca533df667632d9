"""The log reads as words: what each viewer reads of a step (encounters/viewing.py), issue 16 item 4."""
import html

import pytest
from django.urls import reverse

from encounters import log
from encounters.viewing import Names, log_for, step_view
from rulesets.core.citation import cite, read
from rulesets.core.dice import Roll
from rulesets.core.engine import LogEntry, Viewer
from rulesets.core.history import Applied
from tests.encounters.conftest import ship_id

SETUP = {"ships": [
    {"id": "s1", "name": "Lantern", "side": "Meridian", "crew": [{"name": "Bram Oduya", "position": "captain"}]},
    {"id": "s3", "name": "Gutter Saint", "side": "Red Marrow", "crew": [
        {"name": "Mags Orlo", "position": "captain"},
        {"name": "Pike", "position": "gunner"}, {"name": "Quill", "position": "gunner"}]},
]}
POSITIONS = {"captain": "Captain", "gunner": "Turret gunner"}


def player_names():
    return Names.for_viewer(SETUP, Viewer.player(["s1"]), POSITIONS)


def test_a_player_reads_enemy_crew_by_ship_and_position():
    names = player_names()
    assert names("Mags Orlo fails to coordinate the crew.") == "Gutter Saint's captain fails to coordinate the crew."
    assert names("The Captain gives Pike DM+1") == "The Captain gives Gutter Saint's turret gunner 1 DM+1"
    assert names("Quill fires") == "Gutter Saint's turret gunner 2 fires"
    assert names("Bram Oduya coordinates") == "Bram Oduya coordinates"  # their own side, by name
    assert names("Spike and Pikes") == "Spike and Pikes"  # whole names only
    assert Names.for_viewer(SETUP, Viewer.gm(), POSITIONS).hidden == []
    same = {"ships": [*SETUP["ships"], {"id": "s4", "name": "Raven", "side": "Red Marrow",
                                         "crew": [{"name": "Lantern", "position": "pilot"}]}]}
    assert "Lantern" not in Names.for_viewer(same, Viewer.player(["s1"]), POSITIONS).hidden  # a ship's name stays


def _applied(**kw):
    base = dict(seq=5, action="attack", dice=[], rolls=[], log=[], gm_only=False)
    base.update(kw)
    return Applied(**base)


def test_gm_only_rolls_and_their_rerolls_never_reach_a_player():
    """Issue 15: a rerolled GM-only roll was shown struck through, with the enemy's name and skill."""
    secret = Roll("2D6", (3, 4), (("Gunnery", 2),), 9, "Mags Orlo aims", target=8, gm_only=True)
    public = Roll("2D6", (1, 1), (), 2, "Lantern dodges", target=8)
    step = _applied(rolls=[public, secret], rerolled=[[secret]],
                    log=[LogEntry("Mags Orlo fires.", "Attack"), LogEntry("The shot was aimed with care.", gm_only=True)])
    player = step_view(step, 1, is_gm=False, names=player_names())
    text = repr(player)
    assert "Mags Orlo" not in text and "aimed with care" not in text and "aims" not in text
    assert [r.purpose for r in player.rolls] == ["Lantern dodges"] and player.rerolled == []
    gm = step_view(step, 1, is_gm=True, names=Names.everyone())
    assert len(gm.rolls) == 2 and len(gm.rerolled) == 1 and gm.lines[0].gm_only


def test_a_step_with_nothing_to_read_is_left_out():
    """A crew member who is done writes nothing: no empty numbered entry, for anyone."""
    assert step_view(_applied(action="done actor=c1"), 3, is_gm=True, names=Names.everyone()) is None


def test_a_step_reads_as_one_line_with_its_outcome():
    step = _applied(log=[LogEntry("The pulse laser misses Lantern.", "Attack"), LogEntry("Second line.")],
                    rolls=[Roll("2D6", (3, 2), (), 5, "Stinger's pulse laser", target=8)])
    view = step_view(step, 7, is_gm=True, names=Names.everyone())
    assert view.headline.text == "The pulse laser misses Lantern." and view.tone == "bad"
    assert [line.text for line in view.lines] == ["Second line."]
    assert view.rolls[0].outcome == "failure"
    hit = step_view(_applied(log=[LogEntry("The beam laser hits Gutter Saint (Effect +4).")]), 8, is_gm=True,
                    names=Names.everyone())
    assert hit.tone == "good"


def test_the_wild_die_and_its_explosions_are_marked():
    """Star Wars D6: the last die of the code is the Wild Die; a 6 on it is rolled again."""
    roll = Roll("3D+1 (Wild Die)", (2, 5, 6, 6, 3), (("pips", 1),), 23, "Talon fires")
    view = step_view(_applied(rolls=[roll]), 1, is_gm=True, names=Names.everyone()).rolls[0]
    assert [f.kind for f in view.faces] == ["", "", "wild", "again", "again"]
    assert view.wild_exploded == 2 and view.expression == "3D+1"


def test_citations_read_in_english_with_the_source_heading_and_house_rules_in_words():
    stored = cite("Attack", "Attacco", system="cepheus")
    assert stored == "Attack" and read(stored, "cepheus").original == "Attacco"
    assert cite("Acting hastily", house_rule=True, system="cepheus") == "House rule: Acting hastily"
    assert read("House rule: Acting hastily").kind == "house rule"
    # strings stored before the convention still read as English
    assert read("Iniziativa (Initiative)").english == "Initiative"
    assert read("Iniziativa (Initiative)").original == "Iniziativa"
    assert read("RULES-NOTES (cepheus): acting hastily, house rule").house_rule
    assert read("RULES-NOTES: the GM's escape hatch").english == "GM override"


@pytest.mark.django_db
def test_step_numbers_do_not_jump_after_an_undo_and_the_replay_counts_the_same(as_gm, encounter):
    fire = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"
    brace = f"brace actor={ship_id(encounter, 'Bravo')}"
    log.step(encounter, fire, expected_seq=0)
    log.step(encounter, brace, expected_seq=1)
    log.undo(encounter, expected_seq=2)
    log.step(encounter, brace, expected_seq=3)  # sequence 4, the second step in effect
    steps = log_for(log.current(encounter), is_gm=True, names=Names.everyone())
    assert [s.number for s in steps] == [2, 1] and [s.seq for s in steps] == [4, 1]
    page = html.unescape(as_gm.get(encounter.get_absolute_url()).content.decode())
    assert 'id="step-2"' in page and 'id="step-3"' not in page
    log.finish(encounter, carry_damage=False)
    replay = as_gm.get(reverse("encounters:replay", args=[encounter.pk])).content.decode()
    assert "Step 2 of 2" in replay
