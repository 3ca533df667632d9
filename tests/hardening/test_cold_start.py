"""Issue 26, "Faults": a freshly started server answers its first requests, all at once, without error.

One of 20 parallel step posts on a freshly started 3-worker uvicorn once answered 500 (rule
code compiled on first use in several threads at once).  Here a server of three worker
processes starts (``python -m config.serve``, with the start-up warm-up running beside the
requests, as deployed) and at once gets 20 requests in parallel, the first each process
serves: the runner page of an encounter of every registered rule system, and auto-played
steps of each.  None may fail.
"""
import concurrent.futures

import pytest
from django.urls import reverse

from encounters import log
from rulesets.core import registry
from tests.encounters.test_leaks import demo_campaign, start
from tests.servers import Session, real_password, server_log, start_server, stop_server

pytestmark = pytest.mark.django_db(transaction=True)  # the server processes read the test database

SYSTEMS = [module.split(".")[1] for module in registry.ENGINE_MODULES]


def test_twenty_parallel_first_requests_on_a_cold_three_worker_server(gm, player):
    real_password(gm, "gm-password-123")
    encounters = [start(demo_campaign(key, gm, player), gm) for key in SYSTEMS]
    # Signed in before the server starts (the session is in the database): no request warms it.
    from django.test import Client

    client = Client()
    client.force_login(gm)
    cookie = f"sessionid={client.cookies['sessionid'].value}"
    server = start_server("--workers", "3", wait_path="")
    try:
        browser = Session(server.url)
        browser.jar.clear()
        headers = {"Cookie": cookie}
        # The login page's CSRF cookie, without touching an encounter.
        deadline_ok = _wait_up(browser)
        assert deadline_ok, server_log(server)
        token = browser.csrf()
        headers["Cookie"] += f"; csrftoken={token}"

        def page(encounter):
            return browser.request(encounter.get_absolute_url(), headers=headers, timeout=120)[0]

        def auto_step(encounter):
            return browser.request(reverse("encounters:auto", args=[encounter.pk]),
                                   {"mode": "step", "expected_seq": "0"}, headers=headers, timeout=120)[0]

        jobs = [(page, e) for e in encounters] * 2 + [(auto_step, e) for e in encounters] * 2
        jobs = jobs[:20] + [(page, encounters[0])] * (20 - len(jobs))
        with concurrent.futures.ThreadPoolExecutor(len(jobs)) as pool:
            statuses = list(pool.map(lambda job: job[0](job[1]), jobs))
        assert all(status < 500 for status in statuses), (statuses, server_log(server))
        assert all(status == 200 for (kind, _), status in zip(jobs, statuses) if kind is page), statuses
        # Each encounter took one auto-played step (the other post of it was stale: 302 with the words).
        for encounter in encounters:
            assert log.head_seq(encounter) == 1, encounter.ruleset
    finally:
        stop_server(server)


def _wait_up(browser) -> bool:
    import time

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            import urllib.request

            urllib.request.urlopen(browser.base + "/accounts/login/", timeout=5)
            return True
        except OSError:
            time.sleep(0.2)
    return False
