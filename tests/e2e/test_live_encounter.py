"""A GM runs an encounter in one browser while a player follows it live in another.

Runs on uvicorn (ASGI) with the configured broker: over server-sent events through
Redis in CI, by polling on the embedded default.
"""
import pytest
from django.conf import settings
from playwright.sync_api import expect

from encounters.models import Encounter
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e]


def test_the_player_sees_each_step_without_reloading_and_never_a_gm_only_roll(asgi_server, browser_on, campaign,
                                                                             gm, player):
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    encounter = Encounter.objects.create(campaign=campaign, name="Skirmish", ruleset="toy", seed="e2e",
                                         setup={"ships": ships, "options": {"max_rounds": 30}}, created_by=gm)
    gm_page = browser_on(asgi_server, gm, "gm-password-123")
    player_page = browser_on(asgi_server, player, "player-password-123")
    gm_page.goto(encounter.get_absolute_url())
    second_tab = gm_page.context.new_page()  # the same GM in a second tab
    second_tab.goto(encounter.get_absolute_url())
    player_page.goto(encounter.get_absolute_url())
    expect(player_page.locator("#turn")).to_be_visible()  # the players' page (encounters/live.html)
    player_page.evaluate("window.__loaded = true")  # survives only if the page never reloads
    expected_mode = "streaming" if settings.REDIS_URL else "polling"
    expect(player_page.locator("#live")).to_have_attribute("data-mode", expected_mode)

    # Step 1: Alpha fires (odds shown before the roll).
    expect(gm_page.locator("#actions")).to_contain_text("to hit")
    gm_page.locator("#actions button", has_text="fire").first.click()
    expect(gm_page.locator("#log")).to_contain_text("Alpha")
    expect(player_page.locator("#log li").first).to_contain_text("Alpha", timeout=5_000)

    # Step 2 is GM-only: the player never sees it, not even in the markup.
    gm_page.check("#gm-only-toggle")
    gm_page.locator("#actions button", has_text="fire").first.click()
    expect(gm_page.locator("#log li")).to_have_count(2)
    expect(gm_page.locator("#log li.gm-only")).to_have_count(1)
    gm_page.wait_for_timeout(1500)
    expect(player_page.locator("#log li")).to_have_count(1)
    assert "Bravo fires" not in player_page.content() and "Bravo hits" not in player_page.content()

    # Step 3 by auto-play (keyboard shortcut), public again.
    gm_page.keyboard.press("n")
    expect(gm_page.locator("#log li")).to_have_count(3)
    expect(player_page.locator("#log li")).to_have_count(2, timeout=5_000)

    # Reroll the first roll: the old one stays visible as rerolled.
    gm_page.locator("#log li").last.locator("button.reroll").click()
    expect(gm_page.locator("#log .rerolled").first).to_be_visible()
    # Undo the last step: both pages drop it.
    gm_page.locator("#undo-button").click()
    expect(gm_page.locator("#log li")).to_have_count(2)
    expect(player_page.locator("#log li")).to_have_count(1, timeout=5_000)
    assert player_page.evaluate("window.__loaded") is True
    # The GM's own steps are not "news from another tab"; the other tab is told and refreshed.
    expect(gm_page.locator(".notice")).to_have_count(0)
    expect(second_tab.locator(".notice")).to_contain_text("moved on")
    expect(second_tab.locator("#log li")).to_have_count(2)
    screenshot(gm_page, "live-gm")
    screenshot(player_page, "live-player")
