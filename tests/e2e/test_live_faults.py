"""Issue 26, "Faults", in the browser: a live page says on screen what it cannot do.

* The server cannot be reached (it stopped): the page says so, keeps trying, and when the
  server is back it says nothing more and shows the step made meanwhile, without a reload.
* Redis cannot be reached: the page says in words that live updates are unavailable and
  follows the fight by checking for new steps.
"""
import pytest
from playwright.sync_api import expect

from encounters import log
from encounters.models import Encounter
from tests.e2e.conftest import screenshot
from tests.servers import start_server, stop_server

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

UNREACHABLE = "Cannot reach the server"
NO_LIVE = "Live updates are unavailable just now"


def _encounter(campaign, gm):
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    return Encounter.objects.create(campaign=campaign, name="Skirmish", ruleset="toy", seed="faults",
                                    setup={"ships": ships, "options": {"max_rounds": 30}}, created_by=gm)


def _one_step(encounter, gm):
    now = log.current(encounter)
    action = next(a for a in encounter.engine.legal_actions(now.state) if a.kind != "override")
    log.step(encounter, action.to_str(), expected_seq=now.head, user=gm)


def test_a_page_that_cannot_reach_the_server_says_so_and_recovers(browser_on, campaign, gm, player):
    encounter = _encounter(campaign, gm)
    server = start_server(REDIS_URL="")
    port = int(server.url.rsplit(":", 1)[1])
    try:
        page = browser_on(server.url, player, "player-password-123")
        page.goto(encounter.get_absolute_url())
        expect(page.locator("#live")).to_have_attribute("data-mode", "polling")
        page.evaluate("window.__loaded = true")
        stop_server(server)
        expect(page.locator("#live-status")).to_contain_text(UNREACHABLE)
        screenshot(page, "live-page-server-unreachable", full_page=False)
        _one_step(encounter, gm)  # made while this page could not ask
        server = start_server(REDIS_URL="", port=port)
        expect(page.locator("#runner")).to_have_attribute("data-head", "1")
        expect(page.locator("#live-status")).to_be_hidden()
        assert page.evaluate("window.__loaded") is True  # never reloaded
    finally:
        stop_server(server)


def test_a_live_page_says_when_redis_is_down_and_follows_by_polling(browser_on, campaign, gm, player):
    encounter = _encounter(campaign, gm)
    server = start_server(REDIS_URL="redis://127.0.0.1:1/0")  # nobody listens there
    try:
        page = browser_on(server.url, player, "player-password-123")
        page.goto(encounter.get_absolute_url())
        expect(page.locator("#live-status")).to_contain_text(NO_LIVE)
        screenshot(page, "live-page-redis-down", full_page=False)
        _one_step(encounter, gm)
        expect(page.locator("#runner")).to_have_attribute("data-head", "1")
        expect(page.locator("#live-status")).to_contain_text(NO_LIVE)
    finally:
        stop_server(server)
