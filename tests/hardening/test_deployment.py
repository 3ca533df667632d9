"""Issue 15, "Deployment and accounts": throttled login and reset, demo accounts, headers, error pages."""
import pytest
from django.conf import settings
from django.core import mail
from django.core.management import call_command
from django.urls import reverse

from accounts import throttle

pytestmark = pytest.mark.django_db


def test_login_locks_a_username_after_five_wrong_passwords_even_with_the_right_one(client, gm):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(reverse("login"), {"username": "gm", "password": "wrong"})
        assert response.status_code == 200  # the form again, "please enter a correct username"
    response = client.post(reverse("login"), {"username": "gm", "password": "wrong"})
    assert response.status_code == 429
    assert "Too many wrong passwords" in response.content.decode()
    response = client.post(reverse("login"), {"username": "gm", "password": "gm-password-123"})
    assert response.status_code == 429
    assert "15 minutes" in response.content.decode()


def test_a_right_password_resets_the_count(client, gm):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post(reverse("login"), {"username": "gm", "password": "wrong"})
    assert client.post(reverse("login"), {"username": "gm", "password": "gm-password-123"}).status_code == 302
    client.post(reverse("logout"))
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert client.post(reverse("login"), {"username": "gm", "password": "wrong"}).status_code == 200


def test_password_reset_sends_at_most_three_mails_an_hour_to_one_address(client, gm):
    throttle.forget("gm@example.com", "127.0.0.1")
    try:
        for _ in range(settings.PASSWORD_RESET_LIMIT_PER_EMAIL):
            assert client.post(reverse("password_reset"), {"email": "gm@example.com"}).status_code == 302
        response = client.post(reverse("password_reset"), {"email": "gm@example.com"})
        assert response.status_code == 429
        assert response.context["form"].errors["email"] == [
            "Too many password-reset mails were sent to this address; try again in an hour."]
        assert len(mail.outbox) == settings.PASSWORD_RESET_LIMIT_PER_EMAIL
    finally:
        throttle.forget("gm@example.com", "127.0.0.1")


def test_password_reset_counts_per_client_too(client, settings):
    settings.PASSWORD_RESET_LIMIT_PER_IP = 2
    throttle.forget(client_ip="10.9.8.7")
    try:
        for i in range(2):
            client.post(reverse("password_reset"), {"email": f"who{i}@example.com"}, REMOTE_ADDR="10.9.8.7")
        response = client.post(reverse("password_reset"), {"email": "who9@example.com"}, REMOTE_ADDR="10.9.8.7")
        assert response.status_code == 429
        assert "from your network" in response.content.decode()
    finally:
        throttle.forget(client_ip="10.9.8.7")
        for i in (0, 1, 9):
            throttle.forget(f"who{i}@example.com")


def test_seed_demo_outside_development_makes_no_accounts(settings, django_user_model):
    settings.DEMO_ACCOUNTS = False
    call_command("seed_demo", verbosity=0)
    assert not django_user_model.objects.exists()
    from campaigns.models import Campaign, ShipTemplate
    assert ShipTemplate.objects.exists() and not Campaign.objects.exists()


def test_seed_demo_with_the_flag_outside_development_never_publishes_the_staff_password(
        settings, django_user_model, capsys):
    settings.DEMO_ACCOUNTS = False
    call_command("seed_demo", demo_accounts=True)
    admin = django_user_model.objects.get(username="admin")
    assert admin.is_staff and not admin.check_password("demo-admin-password")
    assert django_user_model.objects.get(username="gm").check_password("demo-gm-password")
    assert "demo-admin-password" not in capsys.readouterr().out


def test_every_page_carries_a_content_security_policy(client):
    policy = client.get(reverse("login"))["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    scripts = policy.split("script-src", 1)[1].split(";", 1)[0]
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts


def test_forwarded_proto_is_trusted_only_behind_a_configured_proxy():
    import subprocess
    import sys

    code = "from django.conf import settings; print(getattr(settings, 'SECURE_PROXY_SSL_HEADER', None))"
    base = {"DJANGO_SETTINGS_MODULE": "config.settings", "SECRET_KEY": "x" * 50, "DEBUG": "0",
            "PATH": "/usr/bin:/bin"}
    run = lambda **env: subprocess.run(  # noqa: E731
        [sys.executable, "-c", f"import django; django.setup(); {code}"], env={**base, **env},
        capture_output=True, text=True, cwd=settings.BASE_DIR, check=True).stdout.strip()
    assert run() == "None"
    assert run(BEHIND_TLS_PROXY="1") == "('HTTP_X_FORWARDED_PROTO', 'https')"


def test_404_and_403_pages_are_in_the_site_layout_with_the_reason(client, as_player, campaign):
    response = as_player.get("/campaigns/999999/")
    body = response.content.decode()
    assert response.status_code == 404 and "Starship Table" in body and "not a member of" in body
    response = as_player.post(reverse("campaigns:edit", args=[campaign.pk]), {"name": "x"})
    body = response.content.decode()
    assert response.status_code == 403 and "Only the campaign&#x27;s GM can do that." in body
    assert "topbar" in body
