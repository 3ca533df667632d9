"""JSON export/import of templates, fleets and campaigns: versioned, checked, all or nothing."""
import io
import json

import pytest
from django.urls import reverse
from django.utils.html import escape

from campaigns import exchange
from campaigns.models import Campaign, CrewMember, Fleet, Ship, ShipTemplate

pytestmark = pytest.mark.django_db


def _upload(data, name="file.json"):
    raw = data if isinstance(data, (bytes, str)) else json.dumps(data)
    f = io.BytesIO(raw.encode() if isinstance(raw, str) else raw)
    f.name = name
    return f


def _counts():
    return (Campaign.objects.count(), Fleet.objects.count(), Ship.objects.count(), CrewMember.objects.count(),
            ShipTemplate.objects.count())


def test_a_campaign_round_trips_through_its_export(as_gm, campaign, gm):
    data = json.loads(as_gm.get(reverse("campaigns:export", args=[campaign.pk])).content)
    assert data["format"] == "starship-table" and data["version"] == 1 and data["kind"] == "campaign"
    copy = exchange.import_campaign(json.dumps(data), gm)
    assert copy.pk != campaign.pk and copy.gm == gm
    assert exchange.export_campaign(copy)["campaign"] == data["campaign"]


def test_a_fleet_imports_into_another_campaign_of_the_same_ruleset(as_gm, campaign, gm):
    fleet = campaign.fleets.get(name="Red squadron")
    data = exchange.export_fleet(fleet)
    target = Campaign.create_for(gm, name="Other", ruleset="toy")
    response = as_gm.post(reverse("campaigns:fleet_import", args=[target.pk]), {"file": _upload(data)})
    assert response.status_code == 302
    imported = target.fleets.get(name="Red squadron")
    assert [s.name for s in imported.ships.all()] == ["Bravo"]
    assert imported.ships.get().crew.get().skills == {"gunnery": 2}


def test_a_bad_stat_deep_in_the_file_is_named_and_nothing_is_imported(as_gm, campaign):
    data = exchange.export_campaign(campaign)
    data["campaign"]["fleets"][1]["ships"][0]["stats"]["hull"] = "many"
    before = _counts()
    response = as_gm.post(reverse("campaigns:import"), {"file": _upload(data)})
    assert response.status_code == 400
    message = response.context["import_form"].errors["file"][0]
    assert message == "campaign.fleets[1] 'Red squadron'.ships[0] 'Bravo': stats.hull: Enter a whole number."
    assert escape(message) in response.content.decode()
    assert _counts() == before


@pytest.mark.parametrize("raw, message", [
    (b"{not json", "Not a JSON file"),
    ({"format": "other"}, "Not a starship-table export"),
    ({"format": "starship-table", "version": 99, "kind": "campaign"}, "Unsupported version 99"),
    ({"format": "starship-table", "version": 1, "kind": "planet"}, "Unknown kind 'planet'"),
    ({"format": "starship-table", "version": 1, "kind": "fleet"}, "This file holds a fleet, but a campaign was expected"),
    ({"format": "starship-table", "version": 1, "kind": "campaign",
      "campaign": {"name": "X", "ruleset": "chess"}}, "campaign.ruleset: unknown ruleset 'chess'"),
    ({"format": "starship-table", "version": 1, "kind": "campaign",
      "campaign": {"name": "X", "ruleset": "toy", "fleets": [{"name": "A", "side": "a", "ships": [
          {"name": "S", "stats": {"hull": 5}, "crew": [{"name": "Z", "position": "cook"}]}]}]}},
     "campaign.fleets[0] 'A'.ships[0] 'S'.crew[0] 'Z'.position: 'cook' is not a position of this ruleset."),
])
def test_bad_campaign_files_are_refused_with_a_clear_message(as_gm, raw, message):
    before = _counts()
    response = as_gm.post(reverse("campaigns:import"), {"file": _upload(raw)})
    assert response.status_code == 400
    assert response.context["import_form"].errors["file"][0].startswith(message)
    assert _counts() == before


def test_templates_import_updates_by_name_and_refuses_a_bad_file_whole(gm):
    ShipTemplate.objects.create(ruleset="toy", name="Old", stats={"hull": 3})
    good = {"format": "starship-table", "version": 1, "kind": "templates", "ruleset": "toy",
            "templates": [{"name": "Old", "stats": {"hull": 4}}, {"name": "New", "stats": {"hull": 8}}]}
    exchange.import_templates(json.dumps(good))
    assert ShipTemplate.objects.get(name="Old").stats == {"hull": 4}
    bad = {**good, "templates": [{"name": "Third", "stats": {"hull": 2}}, {"name": "Broken", "stats": {"hull": 0}}]}
    with pytest.raises(exchange.ImportRefused, match=r"templates\[1\] 'Broken': stats.hull: Ensure this value is greater than or equal to 1."):
        exchange.import_templates(json.dumps(bad))
    assert not ShipTemplate.objects.filter(name="Third").exists()


def test_a_star_wars_campaign_round_trips_and_a_bad_code_is_named(gm):
    from django.core.management import call_command

    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get(ruleset="starwars_d6")
    data = exchange.export_campaign(campaign)
    demo_gm = campaign.gm
    copy = exchange.import_campaign(json.dumps(data), demo_gm)
    assert exchange.export_campaign(copy)["campaign"] == data["campaign"]
    ship = next(sh for f in data["campaign"]["fleets"] for sh in f["ships"] if sh["crew"])   # Talon and its ace
    ship["crew"][0]["skills"]["gunnery"] = "5X"
    before = _counts()
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_campaign(json.dumps(data), demo_gm)
    assert f"'{ship['name']}'.crew[0]" in str(refused.value) and "'5X' is not a dice code" in str(refused.value)
    assert _counts() == before
