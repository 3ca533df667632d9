"""Who plays whom (issue 22): the GM links players to crew members and ships on the campaign page."""
import pytest
from django.urls import reverse

from campaigns.models import Campaign, CrewMember, Ship

pytestmark = pytest.mark.django_db


def _link(client, campaign, kind, obj, player):
    return client.post(reverse("campaigns:link", args=[campaign.pk]),
                       {"kind": kind, "id": obj.pk, "player": player.pk if player else ""})


def test_the_gm_links_a_player_to_a_crew_member_and_a_ship_and_back(as_gm, campaign, player):
    page = as_gm.get(campaign.get_absolute_url()).content.decode()
    assert "Who plays whom" in page and 'id="links"' in page
    bob = CrewMember.objects.get(name="Bob")
    bravo = Ship.objects.get(name="Bravo")
    assert _link(as_gm, campaign, "crew", bob, player).status_code == 302
    assert _link(as_gm, campaign, "ship", bravo, player).status_code == 302
    bob.refresh_from_db(), bravo.refresh_from_db()
    assert bob.player == player and bravo.player == player
    # The ship's link reaches the encounter's setup (the players' view of their ships).
    assert bravo.setup_spec()["player"] == player.pk
    _link(as_gm, campaign, "ship", bravo, None)
    bravo.refresh_from_db()
    assert bravo.player is None


def test_only_a_player_of_the_campaign_can_be_linked(as_gm, campaign, gm, outsider, other_campaign):
    bob = CrewMember.objects.get(name="Bob")
    for who in (outsider, gm):
        response = _link(as_gm, campaign, "crew", bob, who)
        assert response.status_code == 302
        bob.refresh_from_db()
        assert bob.player is None
    # Another campaign's ship is not found.
    ship = Ship.objects.create(campaign=other_campaign, fleet=other_campaign.fleets.first(), name="Ghost")
    assert as_gm.post(reverse("campaigns:link", args=[campaign.pk]),
                      {"kind": "ship", "id": ship.pk, "player": ""}).status_code == 404


def test_links_survive_editing_a_crew_member_and_moving_a_ship(as_gm, campaign, player):
    ann = CrewMember.objects.get(name="Ann")
    alpha = Ship.objects.get(name="Alpha")
    _link(as_gm, campaign, "ship", alpha, player)
    red = campaign.fleets.get(name="Red squadron")
    as_gm.post(reverse("campaigns:ship_move", args=[campaign.pk, alpha.pk]), {"fleet": red.pk})
    alpha.refresh_from_db()
    assert alpha.fleet == red and alpha.player == player
    as_gm.post(reverse("campaigns:crew", args=[campaign.pk, ann.pk]),
               {"crew-name": "Ann B.", "crew-position": "gunner", "crew-station": "", "crew-player": player.pk,
                "sheet-gunnery": 1})
    ann.refresh_from_db()
    assert ann.name == "Ann B." and ann.player == player


def test_a_removed_player_loses_every_link(as_gm, campaign, player):
    alpha = Ship.objects.get(name="Alpha")
    _link(as_gm, campaign, "ship", alpha, player)
    member = campaign.memberships.get(user=player)
    as_gm.post(reverse("campaigns:member_remove", args=[campaign.pk, member.pk]))
    assert not Ship.objects.filter(player=player).exists()
    assert not CrewMember.objects.filter(player=player).exists()
    assert not Campaign.objects.for_user(player).exists()


def test_the_player_sees_the_ship_they_command(client, campaign, player):
    Ship.objects.filter(name="Bravo").update(player=player)
    client.force_login(player)
    page = client.get(campaign.get_absolute_url()).content.decode()
    assert "you command the ship" in page and "Red squadron" in page
