"""Issue 14: one render per viewer kind and head, shared by every page of that kind."""
import threading
import time

import pytest
from django.core.cache import cache

from encounters.fragments import fragment_key, shared_render, viewer_kind
from rulesets.core.engine import Viewer


@pytest.fixture(autouse=True)
def empty_cache():
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
