"""The Dropfleet stat forms: one weapon per line as a player writes it, errors on their line;
the setup options and ship positions.

Forms need no database; when pytest-django is off (``-p no:django``) Django is set up here.
"""
import os

import django
from django.apps import apps

if not apps.ready:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()

import pytest  # noqa: E402

from rulesets.dropfleet import fleets  # noqa: E402
from rulesets.dropfleet.forms import SetupOptionsForm, ShipStatsForm  # noqa: E402
from rulesets.dropfleet.state import parse_weapon_line, profile_from_stats  # noqa: E402


def post(form_cls, initial):
    return form_cls(data={k: ("on" if v is True else str(v)) for k, v in initial.items()
                          if v is not False and v is not None})


def test_a_weapon_line_as_a_player_writes_it():
    """Issue 11: 'Heavy railgun, 4+, 3, 1, F' reads as Lock 4+, 3 Attacks, Damage 1, front arc."""
    w = parse_weapon_line("Heavy railgun, 4+, 3, 1, F")
    assert (w["name"], w["lock"], w["attacks"], w["damage"], w["arc"]) == ("Heavy railgun", 4, 3, "1", "F")
    w = parse_weapon_line("Torpedoes, 3+, 2, D6+1, NF, launch, calibre H, particle")
    assert (w["damage"], w["launch"], w["calibre"], w["particle"]) == ("D6+1", True, "H", True)
    assert parse_weapon_line("Flak, 5+, 4, 1, A, close action")["close_action"]


def test_every_template_round_trips_through_the_form():
    """The templates' stats are what the form gives back from its own initial values."""
    for template in fleets.TEMPLATES:
        form = post(ShipStatsForm, ShipStatsForm.initial_from(template["stats"]))
        assert form.is_valid(), (template["name"], form.errors)
        assert profile_from_stats(form.stats()) == profile_from_stats(template["stats"])


def test_bad_weapon_lines_are_named_by_line():
    """A weapon problem names its line, every bad line at once; nothing typed is lost."""
    data = ShipStatsForm.initial_from(fleets.TEMPLATES[0]["stats"])
    data["weapons"] = "Railgun, 4+, 3, 1, F\nLaser, 9+, 2, 1, F\n\nBomb, 4+, x, 1, Q"
    form = post(ShipStatsForm, data)
    assert not form.is_valid()
    errors = form.errors["weapons"]
    assert any(e.startswith("Line 2: Lock '9+'") for e in errors)
    assert any(e.startswith("Line 4: Attacks 'x'") for e in errors)
    assert form.data["weapons"] == data["weapons"]


@pytest.mark.parametrize("field,value,message", [
    ("armour", "9", "is not a save"), ("passive", "4", "is not a save"), ("hull", "0", "Hull is a whole number from 1 to 60; 0 is outside that range."),
])
def test_bad_stats_are_refused_at_their_field(field, value, message):
    data = {**ShipStatsForm.initial_from(fleets.TEMPLATES[1]["stats"]), field: value}
    form = post(ShipStatsForm, data)
    assert not form.is_valid() and message in " ".join(form.errors[field])


def test_a_dreadnought_needs_more_than_eighteen_hull():
    """DF-22: a Dreadnought is crippled at 18 and 10: a smaller one is refused with a reason."""
    data = {**ShipStatsForm.initial_from(fleets.TEMPLATES[3]["stats"]), "hull": 16}
    form = post(ShipStatsForm, data)
    assert not form.is_valid() and "18" in " ".join(form.non_field_errors())


def test_setup_options_and_placements():
    """Positions in inches with a heading, a layer and a battle group; a bad line is named."""
    form = post(SetupOptionsForm, {"width": 48, "height": 36, "separation": 20, "layers": "mixed", "max_rounds": 5,
                                   "pd_policy": "crit_first", "placements": "Steadfast: 20,30 90 low group Line"})
    assert form.is_valid(), form.errors
    assert form.options()["placements"] == {"Steadfast": {"x": 20.0, "y": 30.0, "heading": 90, "layer": "low",
                                                          "group": "Line"}}
    bad = post(SetupOptionsForm, {"width": 48, "height": 36, "separation": 20, "layers": "high", "max_rounds": 5,
                                  "pd_policy": "min_expected", "placements": "Steadfast 20,30\nWisp: 1,2 orbit"})
    assert not bad.is_valid()
    assert [e[:7] for e in bad.errors["placements"]] == ["Line 1:", "Line 2:"]
