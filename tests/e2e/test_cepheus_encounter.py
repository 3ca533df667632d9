"""A GM runs a Cepheus encounter for two rounds through the page while a player watches live.

Attack, dodge, damage, undo and reroll are done by hand through the page; the other
steps are auto-played with the keyboard shortcut.  The player's browser sees each step
appear without reloading and never sees the GM-only roll.
"""
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign
from encounters.models import Encounter
from tests.e2e.conftest import head, open_setup_with_every_fleet, screenshot

pytestmark = [pytest.mark.e2e]
SEED = "e2e-two-rounds"


def _round(page) -> int:
    found = re.search(r"Round (\d+)", page.locator("#runner .page-head").inner_text())
    return int(found.group(1)) if found else 0  # "Before the first round"


def test_a_gm_runs_two_cepheus_rounds_while_the_player_follows(asgi_server, browser_on, django_user_model):
    call_command("seed_demo")
    campaign = Campaign.objects.get(ruleset="cepheus")
    gm = django_user_model.objects.get(username="gm")
    player = django_user_model.objects.get(username="player")
    gm_page = browser_on(asgi_server, gm, "demo-gm-password")
    player_page = browser_on(asgi_server, player, "demo-player-password")

    # Start the encounter through the setup form.
    open_setup_with_every_fleet(gm_page, campaign)
    gm_page.click("button:has-text('Start the encounter')")
    expect(gm_page.locator("#runner h1")).to_be_visible()
    url = gm_page.url
    # A fixed seed (the form draws a random one): the demo convoy can win in the second round,
    # and this fight must last two full rounds.
    Encounter.objects.filter(pk=int(url.rstrip("/").rsplit("/", 1)[1])).update(seed=SEED)
    gm_page.reload()
    player_page.goto(url)
    expect(player_page.locator("#turn")).to_be_visible()  # the players' page: whose turn
    player_page.evaluate("window.__loaded = true")

    did = {"attack": False, "dodge": False, "undo": False, "reroll": False, "gm_only": None}
    for _ in range(400):
        if _round(gm_page) >= 3 or gm_page.locator(".tag-ok", has_text="Over").count():
            break
        before = head(gm_page)
        attack = gm_page.locator("#actions .actions button", has_text=re.compile(r"^Fire "))
        dodge = gm_page.locator("#actions .actions button", has_text=re.compile(r": dodge$"))
        if not did["dodge"] and dodge.count():
            dodge.first.click()
            did["dodge"] = True
        elif not did["attack"] and attack.count():
            expect(gm_page.locator("#actions")).to_contain_text("to hit")  # odds before the roll
            attack.first.click()
            did["attack"] = True
        elif did["attack"] and did["gm_only"] is None and attack.count():
            gm_page.check("#gm-only-toggle")
            attack.first.click()
            expect(gm_page.locator("#log li.gm-only")).to_have_count(1)
            did["gm_only"] = gm_page.locator("#log li.gm-only").get_attribute("data-seq")
        else:
            # the shortcut works where the GM is not typing: a choice left focused on the ship's-turn
            # panel (a <select>) takes the key as a letter, so the GM's focus is on the page first
            gm_page.evaluate("document.activeElement && document.activeElement.blur()")
            gm_page.keyboard.press("n")
        expect(gm_page.locator("#runner")).to_have_attribute("data-head", str(before + 1))
        if did["attack"] and not did["reroll"] and gm_page.locator("#log button.reroll").count():
            gm_page.locator("#log button.reroll").first.click()
            expect(gm_page.locator("#log .rerolled").first).to_be_visible()
            did["reroll"] = True
        if did["dodge"] and not did["undo"]:
            last = gm_page.locator("#log li.step").first.get_attribute("data-seq")
            gm_page.locator("#undo-button").click()
            expect(gm_page.locator("#log li.step").first).not_to_have_attribute("data-seq", last)
            did["undo"] = True

    assert _round(gm_page) >= 3, "two full rounds were played"
    assert all(did.values()), did
    gm_log = gm_page.locator("#log").inner_text()
    assert "damage" in gm_log.lower()

    # The player's page followed without reloading, and never shows the GM-only step.
    latest_public = gm_page.locator("#log li.step:not(.gm-only)").first.get_attribute("data-seq")
    expect(player_page.locator("#runner")).to_have_attribute("data-head", str(head(gm_page)), timeout=10_000)
    expect(player_page.locator("#log li.step").first).to_have_attribute("data-seq", latest_public)
    assert player_page.evaluate("window.__loaded") is True
    seqs = [li.get_attribute("data-seq") for li in player_page.locator("#log li.step").all()]
    assert did["gm_only"] not in seqs
    assert "Reveal to players" not in player_page.content() and "Undo last step" not in player_page.content()
    screenshot(gm_page, "cepheus-gm", full_page=False)
    screenshot(player_page, "cepheus-player", full_page=False)
