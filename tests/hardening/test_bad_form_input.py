"""Issue 15, "Bad input gets a clear message, never a 500": the inputs that answered 500 or said nothing."""
import pytest
from django.urls import reverse

from campaigns.models import Ship, ShipTemplate
from encounters import log

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name, message", [
    ("x" * 121, "Ensure this value has at most 120 characters (it has 121)."),
    ("Bad\x00name", "Null characters are not allowed."),
])
def test_a_clone_with_a_bad_name_is_refused_next_to_its_fleet(as_gm, campaign, name, message):
    ship = campaign.ships.get(name="Alpha")
    url = reverse("campaigns:ship_clone", args=[campaign.pk, ship.pk])
    before = Ship.objects.count()
    response = as_gm.post(url, {"name": name}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert f"Clone of Alpha: {message}" in response.content.decode()
    response = as_gm.post(url, {"name": name})  # without JavaScript: the campaign page, with the error
    assert response.status_code == 400
    assert f"Clone of Alpha: {message}" in response.content.decode()
    assert Ship.objects.count() == before


def test_a_ship_added_without_javascript_with_bad_data_shows_the_error(as_gm, campaign):
    fleet = campaign.fleets.get(name="Blue squadron")
    template = ShipTemplate.objects.get(name="Toy frigate")
    response = as_gm.post(reverse("campaigns:ship_add", args=[campaign.pk, fleet.pk]),
                          {"template": template.pk, "name": "n" * 200})
    assert response.status_code == 400
    assert "Ensure this value has at most 120 characters (it has 200)." in response.content.decode()
    response = as_gm.post(reverse("campaigns:ship_add", args=[campaign.pk, fleet.pk]), {"template": "999999"})
    assert response.status_code == 400
    assert "Select a valid choice." in response.content.decode()


def test_an_invitation_token_with_a_nul_is_simply_not_found(client):
    assert client.get("/campaigns/join/%00/").status_code == 404
    assert client.get("/campaigns/join/ab%00cd/").status_code == 404


@pytest.mark.parametrize("value", ["v" * 600, "has\x00nul"])
def test_a_step_whose_typed_value_cannot_be_recorded_is_refused_in_words(as_gm, encounter, value):
    action = encounter.engine.legal_actions(log.current(encounter).state)[0].to_str()
    response = as_gm.post(reverse("encounters:step", args=[encounter.pk]),
                          {"action": action, "p.note": value, "expected_seq": "0"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "This step cannot be recorded: its values are too long or hold a NUL character" in response.content.decode()
    assert not encounter.events.exists()
