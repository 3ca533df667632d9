"""Issue 26: forwarded addresses are believed only from the proxies the deployment names.

uvicorn alone believes X-Forwarded-For from 127.0.0.1, so a client reaching the app through
anything on the same host could rotate addresses past the login lockout and the reset
limit.  These run the real server (``python -m config.serve``, what ./scripts/run, the
Dockerfile and compose start) and forge the header.
"""
import pytest
import yaml
from axes.models import AccessAttempt
from django.conf import settings

from config.proxies import trusted_proxies
from config.serve import uvicorn_args
from tests.servers import Session, real_password, start_server, stop_server
from tests.workers import ROOT

pytestmark = pytest.mark.django_db(transaction=True)  # the server process reads the test database


@pytest.fixture
def direct_server():
    proc = start_server(BEHIND_TLS_PROXY="")
    yield proc
    stop_server(proc)


def test_the_lockout_holds_with_a_forged_forwarded_address(direct_server, gm):
    real_password(gm, "gm-password-123")
    browser = Session(direct_server.url)
    for i in range(settings.AXES_FAILURE_LIMIT):
        status, _ = browser.login("gm", "wrong", headers={"X-Forwarded-For": f"203.0.113.{i + 1}"})
    assert status == 429
    # The right password, "from" yet another address: still locked out.
    status, page = browser.login("gm", "gm-password-123", headers={"X-Forwarded-For": "198.51.100.99"})
    assert status == 429 and "Too many wrong passwords" in page
    # Every attempt was counted against the real peer, never a forged address.
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


def test_the_reset_limit_per_client_holds_with_forged_forwarded_addresses():
    proc = start_server(BEHIND_TLS_PROXY="", PASSWORD_RESET_LIMIT_PER_IP="3", REDIS_URL="")  # counts of its own
    try:
        browser = Session(proc.url)
        statuses = [browser.request("/accounts/password_reset/", {"email": f"who{i}@example.com"},
                                    headers={"X-Forwarded-For": f"203.0.113.{i + 1}"})[0] for i in range(4)]
    finally:
        stop_server(proc)
    assert statuses == [302, 302, 302, 429]


def test_a_named_proxy_gives_the_clients_address(gm):
    real_password(gm, "gm-password-123")
    proc = start_server(BEHIND_TLS_PROXY="127.0.0.1")
    try:
        browser = Session(proc.url)
        browser.login("gm", "wrong", headers={"X-Forwarded-For": "203.0.113.5"})
    finally:
        stop_server(proc)
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["203.0.113.5"]


def test_the_setting_names_proxies_and_nothing_else():
    assert trusted_proxies("") == trusted_proxies("0") == []
    assert trusted_proxies("1") == ["127.0.0.1", "::1"]
    assert trusted_proxies("10.0.0.2, 172.18.0.0/16") == ["10.0.0.2", "172.18.0.0/16"]
    with pytest.raises(ValueError):
        trusted_proxies("proxy.example.com")
    assert uvicorn_args(["--port", "8000"], [])[1] == "--no-proxy-headers"
    assert uvicorn_args([], ["10.0.0.2"])[1:3] == ["--proxy-headers", "--forwarded-allow-ips"]
    with pytest.raises(SystemExit):
        uvicorn_args(["--forwarded-allow-ips=*"], [])


def test_every_way_of_starting_the_app_goes_through_the_launcher():
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    assert "python -m config.serve" in compose["services"]["web"]["command"]
    assert "BEHIND_TLS_PROXY" in compose["x-app"]["environment"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert '"config.serve"' in dockerfile.split("CMD", 1)[1]
    run = (ROOT / "scripts" / "run").read_text()
    assert "-m config.serve" in run
    for text in (compose["services"]["web"]["command"], dockerfile, run):
        assert "uvicorn config.asgi" not in text
