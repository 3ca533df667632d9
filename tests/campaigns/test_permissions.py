"""Who may see and change what, for every campaign page, with the three personas.

An outsider gets 404 (never another campaign's data); a player may look at their
campaign but gets 403 on every GM control; the GM gets through.
"""
import pytest
from django.urls import reverse

from campaigns.models import CrewMember, Fleet, Invite, Ship

pytestmark = pytest.mark.django_db


def _urls(campaign, gm):
    fleet = campaign.fleets.get(name="Blue squadron")
    ship = Ship.objects.get(name="Alpha")
    crew = CrewMember.objects.get(name="Ann")
    invite = Invite.create(campaign, gm)
    member = campaign.memberships.get(role="player")
    c = campaign.pk
    # (method, url, gm-only?)
    return [
        ("get", reverse("campaigns:detail", args=[c]), False),
        ("get", reverse("campaigns:ship", args=[c, ship.pk]), False),
        ("get", reverse("campaigns:crew", args=[c, crew.pk]), False),
        ("post", reverse("campaigns:edit", args=[c]), True),
        ("post", reverse("campaigns:delete", args=[c]), True),
        ("get", reverse("campaigns:export", args=[c]), True),
        ("post", reverse("campaigns:transfer", args=[c]), True),
        ("post", reverse("campaigns:invite_create", args=[c]), True),
        ("post", reverse("campaigns:invite_revoke", args=[c, invite.pk]), True),
        ("post", reverse("campaigns:member_remove", args=[c, member.pk]), True),
        ("post", reverse("campaigns:link", args=[c]), True),
        ("post", reverse("campaigns:fleet_create", args=[c]), True),
        ("post", reverse("campaigns:fleet_import", args=[c]), True),
        ("get", reverse("campaigns:fleet_edit", args=[c, fleet.pk]), True),
        ("post", reverse("campaigns:fleet_delete", args=[c, fleet.pk]), True),
        ("get", reverse("campaigns:fleet_export", args=[c, fleet.pk]), True),
        ("post", reverse("campaigns:ship_add", args=[c, fleet.pk]), True),
        ("post", reverse("campaigns:ship", args=[c, ship.pk]), True),
        ("post", reverse("campaigns:ship_clone", args=[c, ship.pk]), True),
        ("post", reverse("campaigns:ship_move", args=[c, ship.pk]), True),
        ("post", reverse("campaigns:ship_delete", args=[c, ship.pk]), True),
        ("post", reverse("campaigns:ship_repair", args=[c, ship.pk]), True),
        ("post", reverse("campaigns:crew_add", args=[c, ship.pk]), True),
        ("post", reverse("campaigns:crew", args=[c, crew.pk]), True),
        ("post", reverse("campaigns:crew_delete", args=[c, crew.pk]), True),
        ("get", reverse("encounters:new", args=[c]), True),
    ]


def _snapshot():
    from campaigns.models import Campaign, Membership

    return (Campaign.objects.count(), Fleet.objects.count(), Ship.objects.count(), CrewMember.objects.count(),
            Membership.objects.count(), Invite.objects.count())


def test_an_outsider_gets_404_on_every_page_and_nothing_changes(client, campaign, gm, outsider):
    client.force_login(outsider)
    urls = _urls(campaign, gm)
    before = _snapshot()
    for method, url, _ in urls:
        response = getattr(client, method)(url)
        assert response.status_code == 404, (method, url)
        assert b"The Reach" not in response.content
    assert _snapshot() == before


def test_a_player_sees_the_campaign_but_every_gm_control_is_403(client, campaign, gm, player):
    client.force_login(player)
    urls = _urls(campaign, gm)
    before = _snapshot()
    for method, url, gm_only in urls:
        response = getattr(client, method)(url)
        if gm_only:
            assert response.status_code == 403, (method, url)
        else:
            assert response.status_code == 200, (method, url)
    assert _snapshot() == before


def test_the_gm_reaches_every_page(client, campaign, gm):
    client.force_login(gm)
    for method, url, _ in _urls(campaign, gm):
        if method == "get":
            assert client.get(url).status_code == 200, url


def test_anonymous_visitors_are_sent_to_log_in(client, campaign, gm):
    for method, url, _ in _urls(campaign, gm):
        response = getattr(client, method)(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


def test_a_player_does_not_see_the_enemy_fleet_the_gm_prepared(as_player, campaign):
    page = as_player.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert "Blue squadron" in page
    assert "Red squadron" not in page and "Bravo" not in page
    bravo = Ship.objects.get(name="Bravo")
    assert as_player.get(reverse("campaigns:ship", args=[campaign.pk, bravo.pk])).status_code == 404


def test_a_player_sees_their_own_character_sheet_but_not_an_npcs(as_player, campaign):
    ann = CrewMember.objects.get(name="Ann")
    bob = CrewMember.objects.get(name="Bob")
    assert as_player.get(reverse("campaigns:crew", args=[campaign.pk, ann.pk])).status_code == 200
    assert as_player.get(reverse("campaigns:crew", args=[campaign.pk, bob.pk])).status_code == 404


def test_the_campaign_list_shows_only_my_campaigns(as_gm, campaign, other_campaign):
    page = as_gm.get(reverse("campaigns:list")).content.decode()
    assert "The Reach" in page
    assert "Secret war" not in page
