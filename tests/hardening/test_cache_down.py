"""Issue 26: the cache (Redis) unreachable, in-process: pages render, reset requests say why.

The cache points at a port nobody listens on (never the machine's shared Redis).
"""
import pytest
from django.core import mail
from django.urls import reverse

from config import outage

pytestmark = pytest.mark.django_db

DEAD = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0",
                    "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1}}}


@pytest.fixture
def cache_down(settings):
    settings.CACHES = DEAD
    outage.reset()
    yield
    outage.reset()


def test_a_players_pages_render_without_the_shared_cache(cache_down, as_player, encounter):
    poll = reverse("encounters:poll", args=[encounter.pk]) + "?seen=-1"
    assert as_player.get(encounter.get_absolute_url()).status_code == 200
    response = as_player.get(poll, HTTP_HX_REQUEST="true")
    assert response.status_code == 200 and 'data-head="0"' in response.content.decode()


def test_a_password_reset_is_refused_in_words_and_sends_nothing(cache_down, client, gm):
    response = client.post(reverse("password_reset"), {"email": "gm@example.com"})
    assert response.status_code == 503
    assert response.context["form"].errors["email"] == [
        "Password reset is unavailable for a moment (the service that counts reset requests cannot be reached); "
        "nothing was sent. Try again in a few minutes."]
    assert not mail.outbox


def test_after_a_failure_the_cache_is_left_alone_for_a_moment_then_tried_again(cache_down):
    from django.core.cache import caches

    calls = []

    def get(key):
        calls.append(key)
        return caches["default"].get(key)

    with pytest.raises(outage.CacheDown):
        outage.cache_call(get, "k")
    with pytest.raises(outage.CacheDown):
        outage.cache_call(get, "k")  # not tried: Redis was just found down
    assert calls == ["k"]
    outage.reset()  # the pause is over
    with pytest.raises(outage.CacheDown):
        outage.cache_call(get, "k")
    assert calls == ["k", "k"]
