"""Defaults and words on the campaign page (issue 27): a new fleet's colour follows its side, and
the library dropdown names a template's stats as the rules do ("scale Death Star", "1 weapon")."""
import html
import re

import pytest
from django.urls import reverse

from campaigns.forms import SIDE_COLOURS, FleetForm
from campaigns.models import Campaign, Fleet, ShipTemplate
from encounters.templatetags.words import stats_summary

pytestmark = pytest.mark.django_db


def add_fleet(client, campaign, **data):
    return client.post(reverse("campaigns:fleet_create", args=[campaign.pk]), data)


def test_a_new_fleet_is_offered_a_colour_no_side_has_yet(as_gm, campaign):
    """The campaign has blue (#3366cc) and red (#cc3333) fleets: the form offers the next colour, green."""
    page = as_gm.get(campaign.get_absolute_url()).content.decode()
    assert re.search(r'<input type="color" name="colour" value="#2e9e5b"', page)
    add_fleet(as_gm, campaign, name="Green wing", side="green", colour="#2e9e5b")
    assert Fleet.objects.get(name="Green wing").colour == "#2e9e5b"


def test_a_fleet_joining_a_side_takes_that_sides_colour_unless_another_is_picked(as_gm, campaign):
    offered = FleetForm(campaign=campaign).offered
    add_fleet(as_gm, campaign, name="Red reserve", side="red", colour=offered)
    assert Fleet.objects.get(name="Red reserve").colour == "#cc3333"
    add_fleet(as_gm, campaign, name="Red pickets", side="red", colour="#123456")
    assert Fleet.objects.get(name="Red pickets").colour == "#123456"


def test_a_new_campaigns_fleets_are_blue_then_red_not_blue_whatever_the_side(as_gm, gm):
    campaign = Campaign.create_for(gm, name="Fresh", ruleset="toy")
    assert FleetForm(campaign=campaign).offered == SIDE_COLOURS[0] == "#3366cc"
    add_fleet(as_gm, campaign, name="Navy", side="navy", colour="#3366cc")
    assert FleetForm(campaign=campaign).offered == "#cc3333"
    add_fleet(as_gm, campaign, name="Pirates", side="pirates", colour="#cc3333")
    assert dict(campaign.fleets.values_list("name", "colour")) == {"Navy": "#3366cc", "Pirates": "#cc3333"}


def test_editing_a_fleet_keeps_its_colour(as_gm, campaign):
    fleet = campaign.fleets.get(name="Red squadron")
    form = FleetForm({"name": "Red squadron", "side": "red", "colour": "#cc3333"}, instance=fleet, campaign=campaign)
    assert form.offered is None and form.is_valid() and form.cleaned_data["colour"] == "#cc3333"


STAR_WARS_STATION = {"name": "Citadel battle station", "scale": "death_star", "speed": 0, "maneuverability": "0D",
                     "hull": "8D", "shields": "4D",
                     "weapons": [{"type": "turbolaser", "fire_control": "2D", "damage": "7D", "id": "w1"}]}


def test_the_library_summary_names_choices_and_counts_as_words():
    assert stats_summary(STAR_WARS_STATION, "starwars_d6") == (
        "scale Death Star, maneuverability 0D, hull 8D, shields 4D, 1 weapon")
    wing = {"class": "heavy", "tw": 11, "mv": 0, "shields": 13, "hull": 20, "weapons": [{}, {}, {}]}
    assert stats_summary(wing, "wing_commander") == "class Heavy fighter, TW 11, shields 13, hull 20, 3 weapons"
    drop = {"name": "Shroud", "tonnage": "M", "scan": 8, "armour": [5]}
    assert stats_summary(drop, "dropfleet") == "tonnage Medium, scan 8, armour 5+"


def test_the_fleet_pages_template_dropdown_reads_as_words(as_gm, gm):
    campaign = Campaign.create_for(gm, name="Far far away", ruleset="starwars_d6")
    Fleet.objects.create(campaign=campaign, name="Alliance", side="Alliance")
    ShipTemplate.objects.create(ruleset="starwars_d6", name="Citadel battle station", stats=STAR_WARS_STATION)
    page = html.unescape(as_gm.get(campaign.get_absolute_url()).content.decode())
    assert "Citadel battle station — scale Death Star, maneuverability 0D, hull 8D, shields 4D, 1 weapon" in page
    assert "death_star" not in page and "1 weapons" not in page
