"""The Cepheus stat forms: every stat typed, turret lines parsed with errors on their line.

Forms need no database; when pytest-django is off (``-p no:django``) Django is set up here.
"""
import os

import django
from django.apps import apps

if not apps.ready:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()

from rulesets.cepheus.engine import RULESET
from rulesets.cepheus.forms import POSITIONS, CrewForm, SetupOptionsForm, ShipStatsForm
from rulesets.cepheus.stats import normalise_stats  # noqa: E402


def post(form_cls, initial):
    data = {k: ("on" if v is True else str(v)) for k, v in initial.items() if v is not False and v is not None}
    return form_cls(data=data)


def test_every_template_round_trips_through_the_stats_form():
    for t in RULESET.templates():
        form = post(ShipStatsForm, ShipStatsForm.initial_from(t["stats"]))
        assert form.is_valid(), (t["name"], form.errors)
        assert form.stats() == normalise_stats(t["stats"])[0]


def test_a_bad_turret_line_is_reported_on_its_line():
    data = ShipStatsForm.initial_from({"tonnage": 200})
    data["turrets"] = "pulse laser, sandcaster x12\nphaser"
    form = post(ShipStatsForm, data)
    assert not form.is_valid()
    assert any("Line 2" in e and "phaser" in e for e in form.errors["turrets"])


def test_too_many_mounts_for_the_tonnage_is_an_error_on_turrets():
    data = ShipStatsForm.initial_from({"tonnage": 100})
    data["turrets"] = "pulse laser\nbeam laser"
    form = post(ShipStatsForm, data)
    assert not form.is_valid() and "turrets" in form.errors


def test_missile_kind_and_ammunition_are_parsed():
    data = ShipStatsForm.initial_from({"tonnage": 400})
    data["turrets"] = "missile rack (smart) x9, beam laser"
    data["bays"] = "meson"
    form = post(ShipStatsForm, data)
    assert form.is_valid(), form.errors
    stats = form.stats()
    assert stats["turrets"][0]["weapons"][0] == {"type": "missile_rack", "ammo": 9, "missile": "smart"}
    assert stats["bays"] == [{"type": "meson_bay"}]


def test_integer_limits_are_enforced():
    data = ShipStatsForm.initial_from({})
    data["thrust"] = 42
    form = post(ShipStatsForm, data)
    assert not form.is_valid() and "thrust" in form.errors


def test_crew_form_round_trips_characteristics_and_skills():
    crew = {"characteristics": {"str": 7, "dex": 9, "end": 8, "int": 10, "edu": 6, "soc": 5},
            "skills": {"pilot": 2, "gunnery_turret": 1, "vacc_suit": 0, "medic": 1}}
    form = post(CrewForm, CrewForm.initial_from(crew))
    assert form.is_valid(), form.errors
    assert form.crew_data() == crew


def test_positions_include_the_navigator_and_both_gunners():
    keys = [k for k, _ in POSITIONS]
    assert {"navigator", "turret_gunner", "bay_gunner", "captain", "pilot", "sensors", "damage_control",
            "engineer", "marine", "security", "passenger"} <= set(keys)


def test_setup_options_form_gives_engine_options():
    form = SetupOptionsForm(data={"range": "very_long", "aware": "Red Marrow, Steadfast", "max_rounds": "12",
                                  "hazard": "none", "world_size": "7", "world_atmosphere": "6",
                                  "auto_repair_checks": "1", "smart_fuel": "10", "hasty": "on"})
    assert form.is_valid(), form.errors
    opts = form.options()
    assert opts["range"] == "very_long" and opts["aware"] == ["Red Marrow", "Steadfast"] and opts["hasty"] is True
    assert RULESET.setup({**RULESET.example_setup(0), "options": opts}).options.max_rounds == 12
