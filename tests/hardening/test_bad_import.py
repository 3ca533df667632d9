"""Issue 15, "Bad input gets a clear message, never a 500, and nothing is dropped": imports.

Each file below answered 500 or lost part of itself.  Now the file is refused whole,
with the entry at fault named, and nothing is saved.
"""
import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns import exchange
from campaigns.models import Campaign, CrewMember, Fleet, Ship, ShipTemplate

pytestmark = pytest.mark.django_db


def upload(raw: bytes):
    f = io.BytesIO(raw)
    f.name = "file.json"
    return f


def counts():
    return [m.objects.count() for m in (Campaign, Fleet, Ship, CrewMember, ShipTemplate)]


def cepheus_campaign(gm):
    call_command("seed_demo", verbosity=0)
    return Campaign.objects.get(ruleset="cepheus")


def refused(client, data, *, raw=None) -> str:
    before = counts()
    body = raw if raw is not None else json.dumps(data).encode()
    response = client.post(reverse("campaigns:import"), {"file": upload(body)})
    assert response.status_code == 400, response.content[:300]
    assert counts() == before
    return response.context["import_form"].errors["file"][0]


@pytest.fixture
def export(as_gm, gm):
    campaign = cepheus_campaign(gm)
    return exchange.export_campaign(campaign)


def first_ship(data):
    return data["campaign"]["fleets"][0]["ships"][0]


def test_nul_in_a_text_or_a_key_is_refused_by_where_it_is(as_gm, export):
    first_ship(export)["name"] = "Bad\x00name"
    assert refused(as_gm, export) == (
        "file.campaign.fleets[0].ships[0].name: holds a NUL character (\\u0000), which no field can store.")
    first_ship(export)["name"] = "Fine"
    first_ship(export)["stats"]["odd\x00key"] = 1
    assert "a key holds a NUL character" in refused(as_gm, export)


def test_turrets_as_a_list_of_numbers_are_named(as_gm, export):
    first_ship(export)["stats"]["turrets"] = [1, 2]
    assert refused(as_gm, export).endswith("stats.turrets: [1, 2] is not in the form this ruleset reads (see an exported file).")


def test_an_unknown_turret_weapon_refuses_the_file_naming_the_turret(as_gm, export):
    first_ship(export)["stats"]["turrets"] = [{"weapons": [{"type": "death_ray"}]}]
    assert refused(as_gm, export).endswith("stats: turret 1: 'death_ray' is not a turret weapon")


def test_an_unknown_bay_and_a_turret_list_given_as_text_are_refused(as_gm, export):
    ship = first_ship(export)
    ship["stats"].update(tonnage=400, bays=[{"type": "death_bay"}])
    assert "bay 1: 'death_bay' is not a bay weapon" in refused(as_gm, export)
    ship["stats"].update(tonnage=100, bays=[], turrets="pulse laser")
    assert "turret 1:" in refused(as_gm, export)


def test_a_typo_in_a_stat_or_in_damage_is_refused_with_the_key_named(as_gm, export):
    first_ship(export)["stats"]["armor"] = 2
    assert refused(as_gm, export).endswith(
        "stats.armor: this ruleset has no such stat or entry (nothing would be kept of it).")
    del first_ship(export)["stats"]["armor"]
    first_ship(export)["damage"] = {"hul": 3}
    assert refused(as_gm, export).endswith(
        ".damage.hul: this ruleset has no such damage (nothing would be kept of it).")


@pytest.mark.parametrize("value, message", [
    ([7], 'characteristics: expected an object of names and values, like {"gunnery": 1}.'),
    ({"str": [7]}, "characteristics.str: [7] is not a value this ruleset's sheet takes."),
    ({"str": "lots"}, "characteristics.str: \"lots\" is not a value this ruleset's sheet takes."),
    ({"strength": 7}, "characteristics.strength: not on this ruleset's sheet."),
    ({"str": True}, "characteristics.str: true is not a value this field takes (it holds a number)."),
    ({"str": "١٢"}, "characteristics.str: '١٢' is not a number written in the digits 0-9."),
])
def test_characteristics_of_the_wrong_shape_are_named(as_gm, export, value, message):
    crew = next(s for f in export["campaign"]["fleets"] for s in f["ships"] if s["crew"])["crew"][0]
    crew["characteristics"] = value
    assert refused(as_gm, export).endswith(message)


@pytest.mark.parametrize("raw, message", [
    (b"[" * 1000 + b"]" * 1000, "nested far too deeply"),
    (b"[" * 100000 + b"]" * 100000, "nested far too deeply"),
    (b'{"format": "starship-table", "version": ' + b"9" * 5000 + b"}", "a number in it has thousands of digits"),
    (b'{"format": "starship-table", "version": Infinity}', "Infinity is not a number an export holds"),
    (b'{"format": "starship-table", "version": NaN}', "NaN is not a number an export holds"),
    (b'{"format": "starship-table", "version": 1e999}', "1e999 is not a number an export holds"),
    (b'{"format": "starship-table", "deep": ' + b"[" * 40 + b"]" * 40 + b"}", "nested more than 24 deep"),
])
def test_files_that_are_not_exports_are_refused_in_words(as_gm, raw, message):
    assert message in refused(as_gm, None, raw=raw)


def test_a_star_wars_weapon_of_numbers_is_named(as_gm, gm):
    call_command("seed_demo", verbosity=0)
    data = exchange.export_campaign(Campaign.objects.get(ruleset="starwars_d6"))
    first_ship(data)["stats"]["weapons"] = [1]
    assert refused(as_gm, data).endswith("stats.weapons: [1] is not in the form this ruleset reads (see an exported file).")
