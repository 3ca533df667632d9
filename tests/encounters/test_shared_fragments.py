"""Issue 14: one render per viewer kind and head, shared by every page of that kind."""
import threading
import time

import pytest
from django.core.cache import cache

from encounters.fragments import fragment_key, shared_render, viewer_kind
from rulesets.core.engine import Viewer


@pytest.fixture(autouse=True)
def own_cache(settings):
    """A cache of this module's own: clearing the configured one (Redis in CI) would empty the
    Celery queue in the same database."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                                   "LOCATION": "shared-fragments-tests"}}
    cache.clear()
    yield
    cache.clear()


def test_players_who_see_through_the_same_ships_share_a_kind_and_the_gm_never_does():
    alice = viewer_kind(Viewer.player({"s2", "s1"}, user_id=7), 7)
    bob = viewer_kind(Viewer.player({"s1", "s2"}, user_id=8), 8)
    enemy = viewer_kind(Viewer.player({"s3"}, user_id=9), 9)
    gm = viewer_kind(Viewer.gm(), 7)
    assert alice == bob
    assert len({alice, enemy, gm}) == 3
    assert viewer_kind(Viewer.gm(), 1) != viewer_kind(Viewer.gm(), 2)  # a GM's forms carry their own token


def test_a_new_head_or_status_is_a_new_key():
    keys = {fragment_key(1, 5, "active", "player:s1", "t"), fragment_key(1, 6, "active", "player:s1", "t"),
            fragment_key(1, 5, "paused", "player:s1", "t"), fragment_key(1, 5, "active", "gm:1", "t"),
            fragment_key(2, 5, "active", "player:s1", "t")}
    assert len(keys) == 5


def test_fifty_simultaneous_requests_render_once():
    renders = []

    def render():
        renders.append(1)
        time.sleep(0.05)
        return "<div id=runner>step 5</div>"

    key = fragment_key(1, 5, "active", "player:s1", "t")
    results = []
    threads = [threading.Thread(target=lambda: results.append(shared_render(key, render))) for _ in range(50)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(renders) == 1
    assert results == ["<div id=runner>step 5</div>"] * 50


def test_two_kinds_never_share_a_render():
    a = shared_render(fragment_key(1, 5, "active", "player:s1", "t"), lambda: "ally view")
    b = shared_render(fragment_key(1, 5, "active", "gm:1", "t"), lambda: "gm view")
    assert (a, b) == ("ally view", "gm view")


@pytest.mark.django_db
def test_players_of_one_side_get_one_shared_render_with_nothing_gm_only(client, campaign, gm, player,
                                                                           django_user_model):
    """Two players aboard the same ship fetch the same fragment, rendered once; the GM's is never it."""
    from campaigns.models import CrewMember, Membership
    from encounters import log
    from encounters.models import Encounter
    from tests.encounters.conftest import ship_id

    second = django_user_model.objects.create_user("second", "s@example.com", "second-password-123")
    Membership.objects.create(campaign=campaign, user=second, role=Membership.PLAYER)
    alpha = campaign.ships.get(name="Alpha")
    CrewMember.objects.create(ship=alpha, name="Cy", position="pilot", player=second)
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    encounter = Encounter.objects.create(campaign=campaign, name="Shared", ruleset="toy", seed="shared",
                                         setup={"ships": ships, "options": {"max_rounds": 30}}, created_by=gm)
    log.step(encounter, f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}",
             expected_seq=0, user=gm)
    url = f"/encounters/{encounter.pk}/poll/?seen=0"

    import encounters.views as views
    calls = []
    real = views.render_to_string
    views.render_to_string = lambda *a, **k: calls.append(1) or real(*a, **k)
    try:
        client.force_login(player)
        first = client.get(url, HTTP_HX_REQUEST="true").content
        client.force_login(second)
        again = client.get(url, HTTP_HX_REQUEST="true").content
    finally:
        views.render_to_string = real
    assert first == again and len(calls) == 1
    assert b'"gunnery": 2' not in first and b"gunnery 2" not in first  # Bravo's gunnery is the GM's secret
    client.force_login(gm)
    gm_page = client.get(url, HTTP_HX_REQUEST="true").content
    assert gm_page != first
