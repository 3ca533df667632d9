"""A GM invites players with a single-use or expiring link; a player joins by following it."""
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Invite, Membership

pytestmark = pytest.mark.django_db


def test_the_gm_creates_a_link_and_a_new_user_joins_by_following_it(as_gm, client, campaign, django_user_model):
    response = as_gm.post(reverse("campaigns:invite_create", args=[campaign.pk]), {"single_use": "on", "days": "7"})
    assert response.status_code == 302
    invite = campaign.invites.get()
    assert invite.single_use and invite.expires_at > timezone.now()

    newcomer = django_user_model.objects.create_user("newcomer", "n@example.com", "pw-123-newcomer")
    client.force_login(newcomer)
    url = reverse("campaigns:join", args=[invite.token])
    assert b"Join as a player" in client.get(url).content
    assert client.post(url).status_code == 302
    assert campaign.role_of(newcomer) == Membership.PLAYER


def test_a_single_use_link_used_twice_is_refused_and_changes_nothing(client, campaign, gm, django_user_model):
    invite = Invite.create(campaign, gm, single_use=True)
    first = django_user_model.objects.create_user("first", "f@example.com", "pw-123-first")
    second = django_user_model.objects.create_user("second", "s@example.com", "pw-123-second")
    invite.accept(first)
    client.force_login(second)
    members_before = campaign.memberships.count()
    response = client.post(reverse("campaigns:join", args=[invite.token]))
    assert response.status_code == 410
    assert "This invitation is used" in response.content.decode()
    assert campaign.memberships.count() == members_before
    assert campaign.role_of(second) is None


def test_an_expired_link_is_refused(client, campaign, gm, outsider):
    invite = Invite.create(campaign, gm, single_use=False, days=1)
    Invite.objects.filter(pk=invite.pk).update(expires_at=timezone.now() - timedelta(minutes=1))
    client.force_login(outsider)
    response = client.post(reverse("campaigns:join", args=[invite.token]))
    assert response.status_code == 410 and "expired" in response.content.decode()
    assert campaign.role_of(outsider) is None


def test_a_revoked_link_is_refused(as_gm, client, campaign, gm, outsider):
    invite = Invite.create(campaign, gm, single_use=False)
    as_gm.post(reverse("campaigns:invite_revoke", args=[campaign.pk, invite.pk]))
    client.force_login(outsider)
    assert client.post(reverse("campaigns:join", args=[invite.token])).status_code == 410
    assert campaign.role_of(outsider) is None


def test_a_multi_use_link_lets_several_players_join(campaign, gm, django_user_model):
    invite = Invite.create(campaign, gm, single_use=False, days=3)
    for name in ("p1", "p2"):
        user = django_user_model.objects.create_user(name, f"{name}@example.com", "pw-123-multi")
        invite.accept(user)
        assert campaign.role_of(user) == Membership.PLAYER


def test_an_anonymous_visitor_is_asked_to_sign_up_and_comes_back(client, campaign, gm):
    invite = Invite.create(campaign, gm)
    page = client.get(reverse("campaigns:join", args=[invite.token])).content.decode()
    assert "/accounts/signup/?next=/campaigns/join/" in page


def test_the_gm_role_is_transferable_and_stays_unique(as_gm, campaign, gm, player):
    response = as_gm.post(reverse("campaigns:transfer", args=[campaign.pk]), {"new_gm": player.pk})
    assert response.status_code == 302
    assert campaign.gm == player
    assert campaign.role_of(gm) == Membership.PLAYER
    assert campaign.memberships.filter(role=Membership.GM).count() == 1


def test_a_campaign_cannot_have_two_gms(campaign, player):
    from django.db import IntegrityError, transaction

    with pytest.raises(IntegrityError), transaction.atomic():
        campaign.memberships.filter(user=player).update(role=Membership.GM)
