"""The Wing Commander stat, pilot and setup forms: one weapon or skill per line, errors on their line."""
from __future__ import annotations

from campaigns.rulesets import form_errors
from rulesets.wing_commander.engine import RULESET
from rulesets.wing_commander.forms import CrewForm, SetupOptionsForm, ShipStatsForm

BASE = {"ship_class": "medium", "mv": "1", "tw": "12", "shields": "10", "hull": "12", "chaff": "0", "chaff_mv": "0",
        "mines": "0", "mines_mv": "0"}


def test_weapons_one_per_line_with_missile_mv_and_stock():
    form = ShipStatsForm(data={**BASE, "weapons": "Lasers, gun, 2d6\nDart missile, missile, 3W6+1, MV +1, stock 2"})
    assert form.is_valid(), form.errors
    assert form.stats()["weapons"] == [
        {"name": "Lasers", "kind": "gun", "damage": "2d6", "mv": 0},
        {"name": "Dart missile", "kind": "missile", "damage": "3d6+1", "mv": 1, "stock": 2}]


def test_a_bad_weapon_line_is_named_and_the_text_kept():
    text = "Lasers, gun, 2d6\nLasers, blaster, 2d6\nDart, missile, 3x6"
    form = ShipStatsForm(data={**BASE, "weapons": text})
    assert not form.is_valid()
    assert form.errors["weapons"] == ["Line 2: 'blaster' is not a kind of weapon (gun, turret, missile, torpedo).",
                                      "Line 3: '3x6' is not a damage code like 2d6 or 3W6+2."]
    assert form["weapons"].value() == text


def test_phase_shields_are_for_capital_ships():
    form = ShipStatsForm(data={**BASE, "weapons": "", "phase_shields": "on"})
    assert "phase_shields" in form.errors


def test_stats_round_trip_through_the_form():
    for template in RULESET.templates():
        assert form_errors(ShipStatsForm, template["stats"]) == {}, template["name"]
        form = ShipStatsForm(data=ShipStatsForm.initial_from(template["stats"]))
        assert form.is_valid() and form.stats() == template["stats"]


def test_the_pilot_sheet_with_skills_one_per_line():
    form = CrewForm(data={"flown_by": "npc_rolled", "rank": "3", "months": "7", "wild_card": "on",
                          "skills": "Gunnery, attack, +2\nMissile Man, dodge_missiles, 1"})
    assert form.is_valid(), form.errors
    data = form.crew_data()
    assert data["characteristics"] == {"flown_by": "npc_rolled", "rank": 3, "months": 7, "wild_card": True, "leader": False}
    assert data["skills"] == {"Gunnery": ["attack", 2], "Missile Man": ["dodge_missiles", 1]}
    assert CrewForm.initial_from(data)["skills"] == "Gunnery, attack, +2\nMissile Man, dodge_missiles, +1"


def test_a_bad_skill_line_is_named():
    form = CrewForm(data={"flown_by": "character", "rank": "1", "months": "0", "skills": "Gunnery, aim, 2\nLuck, dodge, lots"})
    assert not form.is_valid()
    assert form.errors["skills"][0].startswith("Line 1: 'aim' is not one of order, attack")
    assert form.errors["skills"][1] == "Line 2: A modifier is a whole number from -20 to 20; 'lots' is not a whole number."


def test_setup_options():
    form = SetupOptionsForm(data={"max_rounds": "10", "first_side": "Kilrathi", "wild_cards": "all", "npc_tw": "",
                                  "flight_size": "2"})
    assert form.is_valid(), form.errors
    assert form.options() == {"max_rounds": 10, "first_side": "Kilrathi", "npc_tw": 0, "wild_cards": "all", "flight_size": 2}
