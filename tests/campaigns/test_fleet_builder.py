"""The GM builds fleets: add from the library, clone, rename, edit stats, crew, move ships."""
import pytest
from django.urls import reverse

from campaigns.models import CrewMember, Fleet, Ship, ShipTemplate

pytestmark = pytest.mark.django_db


def test_adding_a_ship_from_the_library_copies_its_stats(as_gm, campaign):
    fleet = campaign.fleets.get(name="Blue squadron")
    template = ShipTemplate.objects.create(ruleset="toy", name="Toy cutter", stats={"hull": 6})
    response = as_gm.post(reverse("campaigns:ship_add", args=[campaign.pk, fleet.pk]),
                          {"template": template.pk, "name": "Swift"})
    assert response.status_code == 302
    ship = Ship.objects.get(name="Swift")
    assert ship.fleet == fleet and ship.stats == {"hull": 6} and ship.template == template


def test_htmx_add_returns_just_the_fleet_partial(as_gm, campaign):
    fleet = campaign.fleets.get(name="Blue squadron")
    template = ShipTemplate.objects.get(name="Toy frigate")
    response = as_gm.post(reverse("campaigns:ship_add", args=[campaign.pk, fleet.pk]),
                          {"template": template.pk}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200
    assert body.lstrip().startswith('<section class="card fleet" id="fleet-')
    assert "<html" not in body and body.count("Toy frigate") >= 2


def test_a_malformed_stat_is_shown_next_to_its_field_and_nothing_is_saved(as_gm, campaign):
    ship = Ship.objects.get(name="Alpha")
    response = as_gm.post(reverse("campaigns:ship", args=[campaign.pk, ship.pk]), {
        "name": "Alpha renamed", "fleet": ship.fleet.pk, "notes": "", "stats-hull": "lots"})
    assert response.status_code == 400
    form = response.context["stats_form"]
    assert form.errors["hull"] == ["Enter a whole number."]
    assert "Enter a whole number." in response.content.decode()
    ship.refresh_from_db()
    assert ship.name == "Alpha" and ship.stats == {"hull": 10}


def test_editing_stats_and_renaming_saves_both(as_gm, campaign):
    ship = Ship.objects.get(name="Alpha")
    response = as_gm.post(reverse("campaigns:ship", args=[campaign.pk, ship.pk]), {
        "name": "Alpha II", "fleet": ship.fleet.pk, "notes": "refit", "stats-hull": "14"})
    assert response.status_code == 302
    ship.refresh_from_db()
    assert (ship.name, ship.stats, ship.notes) == ("Alpha II", {"hull": 14}, "refit")


def test_cloning_copies_stats_damage_and_crew_but_not_the_players(as_gm, campaign):
    ship = Ship.objects.get(name="Alpha")
    ship.damage = {"hull_lost": 3}
    ship.save()
    as_gm.post(reverse("campaigns:ship_clone", args=[campaign.pk, ship.pk]))
    copy = Ship.objects.get(name="Alpha (copy)")
    assert copy.stats == ship.stats and copy.damage == {"hull_lost": 3}
    assert [c.name for c in copy.crew.all()] == ["Ann"]
    assert copy.crew.get().player is None


def test_moving_a_ship_between_fleets(as_gm, campaign):
    ship = Ship.objects.get(name="Alpha")
    red = campaign.fleets.get(name="Red squadron")
    response = as_gm.post(reverse("campaigns:ship_move", args=[campaign.pk, ship.pk]), {"fleet": red.pk},
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'hx-swap-oob="true"' in body  # the receiving fleet is swapped too
    ship.refresh_from_db()
    assert ship.fleet == red


def test_a_ship_cannot_move_into_another_campaigns_fleet(as_gm, campaign, other_campaign):
    ship = Ship.objects.get(name="Alpha")
    foreign = other_campaign.fleets.get()
    as_gm.post(reverse("campaigns:ship_move", args=[campaign.pk, ship.pk]), {"fleet": foreign.pk})
    ship.refresh_from_db()
    assert ship.fleet.campaign == campaign


def test_the_crew_editor_assigns_a_position_and_a_player(as_gm, campaign, player):
    ship = Ship.objects.get(name="Bravo")
    response = as_gm.post(reverse("campaigns:crew_add", args=[campaign.pk, ship.pk]), {
        "crew-name": "Cleo", "crew-position": "pilot", "crew-station": "", "crew-player": player.pk,
        "sheet-gunnery": "3"})
    assert response.status_code == 302
    cleo = CrewMember.objects.get(name="Cleo")
    assert (cleo.position, cleo.player, cleo.skills) == ("pilot", player, {"gunnery": 3})


def test_a_bad_skill_is_reported_by_its_field_and_no_crew_is_added(as_gm, campaign):
    ship = Ship.objects.get(name="Bravo")
    before = CrewMember.objects.count()
    response = as_gm.post(reverse("campaigns:crew_add", args=[campaign.pk, ship.pk]), {
        "crew-name": "Cleo", "crew-position": "pilot", "sheet-gunnery": "9"})
    assert response.status_code == 400
    assert response.context["sheet_form"].errors["gunnery"] == ["Ensure this value is less than or equal to 5."]
    assert CrewMember.objects.count() == before


def test_fleet_names_are_unique_within_a_campaign(as_gm, campaign):
    response = as_gm.post(reverse("campaigns:fleet_create", args=[campaign.pk]),
                          {"name": "blue squadron", "side": "blue", "colour": "#112233"})
    assert response.status_code == 400
    assert "already has a fleet of that name" in response.content.decode()
    assert Fleet.objects.filter(campaign=campaign).count() == 2


def test_the_basics_work_without_javascript(as_gm, campaign):
    """Plain form posts redirect back to the page, with a message."""
    fleet = campaign.fleets.get(name="Blue squadron")
    template = ShipTemplate.objects.get(name="Toy frigate")
    response = as_gm.post(reverse("campaigns:ship_add", args=[campaign.pk, fleet.pk]),
                          {"template": template.pk}, follow=True)
    assert response.redirect_chain[-1][0].endswith(f"#fleet-{fleet.pk}")
    assert "joined Blue squadron" in response.content.decode()
