"""Void d20 forms: bad input gets a clear message where it was typed; the sheets round-trip."""
from __future__ import annotations

from campaigns.rulesets import form_errors
from rulesets.void_d20 import forms
from rulesets.void_d20.engine import RULESET


def _ship_data(**changes):
    data = forms.ShipStatsForm.initial_from(RULESET.templates()[0]["stats"])
    data.update(changes)
    return {k: str(v) for k, v in data.items()}


def test_a_bad_weapon_line_is_named_by_its_number_and_nothing_else_is_lost():
    form = forms.ShipStatsForm(data=_ship_data(weapons="Railgun, 2d6, heavy\nLaser, 4X, standard\nFlak, d6, sideways"))
    assert not form.is_valid()
    errors = form.errors["weapons"]
    assert any(e.startswith("Line 2:") and "'4X' is not damage dice" in e for e in errors)
    assert any(e.startswith("Line 3:") and "'sideways' is not a reach" in e for e in errors)
    assert form.data["weapons"].startswith("Railgun, 2d6, heavy")
    assert "frame" not in form.errors


def test_ship_stats_round_trip_through_the_form():
    for template in RULESET.templates():
        form = forms.ShipStatsForm(data=_ship_data(**{k: v for k, v in forms.ShipStatsForm.initial_from(template["stats"]).items()}))
        assert form.is_valid(), form.errors
        assert form.stats() == {**template["stats"], "modules": template["stats"]["modules"]}


def test_a_character_sheet_and_an_enemy_profile():
    sheet = {"characteristics": {"body": 1, "agility": 2, "mind": 0, "technology": 3, "hp": 9, "dr": 12, "void_points": 2},
             "skills": {"profile": "character", "weapon": "Laser pistol, tech, d8, 3", "armour": "Vacc suit, 1, 3",
                        "shield": 2, "medkit": 1}}
    assert form_errors(forms.CrewForm, sheet) == {}
    data = {k: str(v) for k, v in forms.CrewForm.initial_from(sheet).items()}
    form = forms.CrewForm(data=data)
    assert form.is_valid() and form.crew_data() == sheet
    enemy = {"characteristics": {"hp": 5, "dr": 11, "attack": 2, "morale": 8, "count": 3},
             "skills": {"profile": "enemy", "weapon": "Rivet gun, ranged, d6"}}
    data = {k: str(v) for k, v in forms.CrewForm.initial_from(enemy).items()}
    form = forms.CrewForm(data=data)
    assert form.is_valid() and form.crew_data() == enemy


def test_a_bad_gear_line_is_shown_on_its_field():
    data = {k: str(v) for k, v in forms.CrewForm.initial_from({}).items()}
    data.update(weapon="Laser pistol, laser, d8", armour="Vacc suit, lots, 3", void_points="5")
    form = forms.CrewForm(data=data)
    assert not form.is_valid()
    assert "'laser' is not a weapon kind" in form.errors["weapon"][0]
    assert "is not a whole number" in form.errors["armour"][0]
    assert "void_points" in form.errors


def test_setup_options():
    form = forms.SetupOptionsForm(data={"scene": "corridors", "start_band": "close", "max_rounds": "20",
                                        "void_points": "", "squad_bonus": "1"})
    assert form.is_valid()
    assert form.options() == {"scene": "corridors", "start_band": "close", "max_rounds": 20, "squad_bonus": 1}
    assert RULESET.setup({**RULESET.example_setup(0), "options": form.options()}).bands == {"s1|s2": "docked"}


def test_unknown_keys_are_refused_with_the_key_named():
    spec = RULESET.example_setup(0)
    spec["options"] = {"start_band": "far", "max_round": 3}
    try:
        RULESET.setup(spec)
    except ValueError as exc:
        assert "max_round" in str(exc)
    else:
        raise AssertionError("an unknown option was accepted")
