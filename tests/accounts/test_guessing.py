"""Issue 26, "Access and abuse": over-long usernames and guessing one username from many addresses."""
import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse

pytestmark = pytest.mark.django_db

PAUSED = "signing in to it from a new place is paused"


def login(client, username, password, address):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("length", [151, 256, 5000])
def test_an_over_long_username_is_refused_with_the_forms_message(client, length):
    """django-axes stores a failed username in a 255-character column: PostgreSQL refused it (500)."""
    username = "u" * length
    response = login(client, username, "whatever", "10.1.1.1")
    assert response.status_code == 200
    assert response.context["form"].errors["__all__"] == [
        "Please enter a correct username and password. Note that both fields may be case-sensitive."]
    assert not AccessAttempt.objects.filter(username__startswith="uuu").exists()  # never given to axes


def test_guessing_one_username_from_many_addresses_is_paused_for_new_addresses(client, gm):
    limit = settings.LOGIN_FAILURE_LIMIT_PER_USERNAME
    assert limit < settings.AXES_FAILURE_LIMIT * limit  # the per-address lock alone would allow far more
    # The owner signs in from home once: a known address.
    assert login(client, "gm", "gm-password-123", "192.0.2.10").status_code == 302
    client.post(reverse("logout"))
    # Someone guesses from many addresses, fewer guesses from each than axes' per-address lock.
    for i in range(limit):
        assert login(client, "gm", f"guess-{i}", f"198.51.100.{i // 2 + 1}").status_code == 200
    # The next guess from a new address is refused before the password is checked, even the right one.
    response = login(client, "gm", "gm-password-123", "203.0.113.77")
    assert response.status_code == 429
    assert PAUSED in response.content.decode()
    assert "_auth_user_id" not in client.session
    # The owner, from home, still signs in.
    assert login(client, "gm", "gm-password-123", "192.0.2.10").status_code == 302


def test_the_pause_is_per_username(client, gm, player):
    for i in range(settings.LOGIN_FAILURE_LIMIT_PER_USERNAME):
        login(client, "gm", f"guess-{i}", f"198.51.100.{i + 1}")
    assert login(client, "player", "player-password-123", "203.0.113.78").status_code == 302


def test_the_pause_ends_when_the_wrong_passwords_age_out(client, gm):
    from datetime import timedelta

    from django.utils import timezone

    for i in range(settings.LOGIN_FAILURE_LIMIT_PER_USERNAME):
        login(client, "gm", f"guess-{i}", f"198.51.100.{i + 1}")
    assert login(client, "gm", "gm-password-123", "203.0.113.79").status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    assert login(client, "gm", "gm-password-123", "203.0.113.79").status_code == 302
