"""The Wing Commander forms on the app's pages: the ship editor keeps a bad weapon line and names it,
the encounter setup names a side that is not in the fight, the runner offers the dogfight's actions."""
from __future__ import annotations

import re

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign
from encounters.models import Encounter

pytestmark = pytest.mark.django_db


@pytest.fixture
def wc(django_user_model):
    call_command("seed_demo", verbosity=0)
    return Campaign.objects.get(ruleset="wing_commander"), django_user_model.objects.get(username="gm")


def test_a_bad_weapon_line_is_named_on_the_ship_page_and_nothing_typed_is_lost(client, wc):
    campaign, gm = wc
    client.force_login(gm)
    ship = campaign.ships.get(name="Blue 1")
    weapons = "Ion cannons, gun, 2d6+2\nHeat-seeker missile, missile, 3d6+2, MV +2, stok 2"
    data = {"name": "Blue 1", "fleet": ship.fleet_id, "notes": "", "stats-ship_class": "medium", "stats-mv": "1",
            "stats-tw": "12", "stats-shields": "10", "stats-hull": "12", "stats-weapons": weapons, "stats-chaff": "2",
            "stats-chaff_mv": "1", "stats-mines": "1", "stats-mines_mv": "0"}
    response = client.post(reverse("campaigns:ship", args=[campaign.pk, ship.pk]), data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "Line 2: &#x27;stok 2&#x27; is not &#x27;MV +1&#x27; or &#x27;stock 2&#x27;." in page
    assert "Heat-seeker missile, missile, 3d6+2, MV +2, stok 2" in page
    data["stats-weapons"] = weapons.replace("stok", "stock")
    assert client.post(reverse("campaigns:ship", args=[campaign.pk, ship.pk]), data).status_code == 302
    ship.refresh_from_db()
    assert ship.stats["weapons"][1] == {"name": "Heat-seeker missile", "kind": "missile", "damage": "3d6+2", "mv": 2,
                                        "stock": 2}


def test_the_setup_names_a_first_side_that_is_not_in_the_fight_and_the_runner_offers_the_dogfight(client, wc):
    campaign, gm = wc
    client.force_login(gm)
    data = {"name": "Patrol", "fleets": [f.pk for f in campaign.fleets.all()], "dice_mode": Encounter.AUTO,
            "opt-max_rounds": "20", "opt-first_side": "Pirates", "opt-npc_tw": "", "opt-wild_cards": "as_set",
            "opt-flight_size": ""}
    response = client.post(reverse("encounters:new", args=[campaign.pk]), data)
    assert response.status_code == 400
    assert "is none of the sides here (Confederation, Kilrathi)" in response.content.decode().replace("&#x27;", "'")
    data["opt-first_side"] = "Kilrathi"
    assert client.post(reverse("encounters:new", args=[campaign.pk]), data).status_code == 302
    page = client.get(Encounter.objects.get(name="Patrol").get_absolute_url()).content.decode()
    assert "Order of play, round 1" in page and "Claw 3 fires Neutron guns at Blue 3" in page
    buttons = re.findall(r"<button[^>]*>([^<]*)</button>", page)
    assert buttons and not any("actor=" in b or "weapon=" in b for b in buttons)
