"""A GM runs a Wing Commander dogfight of four fighters against four, with physical dice where
it matters (a natural 20, a natural 2), while a player follows live: the log shows a critical,
a fumble with its table row and a first-damage roll.

The demo campaign: Blue Flight (four Confederation characters) against Red Claw (four Kilrathi
NPCs standing for their TW).  The encounter uses mixed dice: a face typed beside an action is
used, the rest the app rolls from the encounter's seed.
"""
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign
from encounters.models import Encounter
from tests.e2e.conftest import head, open_setup_with_every_fleet, screenshot

pytestmark = [pytest.mark.e2e]

# Blue 1's pilot is a Wild Card (1W20); the others roll 2W10, so two faces make the natural result.
BLUE_ATTACK = re.compile(r"^Blue [234] fires .+ at Claw \d")
# 2.1.3: once its attack is settled a pilot ends the turn (or ejects): a player's decision
BLUE_ANSWER = re.compile(r"^Blue \d (dodges |ends its turn)")


def _step(page, click):
    before = head(page)
    click()
    expect(page.locator("#runner")).to_have_attribute("data-head", str(before + 1))


def _to_a_blue_attack(page, limit=40):
    """Play on (the bot for the Kilrathi and Blue 1, dodges and ends of turn for Blue pilots) until Blue 2, 3
    or 4 may fire."""
    for _ in range(limit):
        buttons = page.locator("#actions .actions button")
        if buttons.filter(has_text=BLUE_ATTACK).count():
            return buttons.filter(has_text=BLUE_ATTACK).first
        answer = buttons.filter(has_text=BLUE_ANSWER)
        if answer.count():
            _step(page, answer.first.click)
        else:
            _step(page, lambda: page.locator("#auto-step-button").click())
    raise AssertionError("no Blue pilot got to fire")


def _fire_with_faces(page, button, faces: str):
    form = button.locator("xpath=ancestor::form[1]")
    form.locator("input[name=faces]").fill(faces)
    _step(page, button.click)


def test_a_gm_runs_four_against_four_with_a_critical_a_fumble_and_first_damage(asgi_server, browser_on,
                                                                                   django_user_model):
    call_command("seed_demo")
    campaign = Campaign.objects.get(ruleset="wing_commander")
    assert sum(fleet.ships.count() for fleet in campaign.fleets.all()) == 8
    gm = django_user_model.objects.get(username="gm")
    page = browser_on(asgi_server, gm, "demo-gm-password")

    open_setup_with_every_fleet(page, campaign)
    page.select_option("select[name=dice_mode]", "mixed")
    page.fill("input[name=opt-max_rounds]", "20")
    page.click("button:has-text('Start the encounter')")
    expect(page.locator("#dogfight-order")).to_contain_text("Order of play")
    # A fixed seed (the form draws a random one), so the dice the app rolls are the same every run.
    Encounter.objects.filter(pk=int(page.url.rstrip("/").rsplit("/", 1)[1])).update(seed="e2e-dogfight")
    page.reload()
    expect(page.locator("#dogfight-order li")).to_have_count(8)

    player = django_user_model.objects.get(username="player")
    player_page = browser_on(asgi_server, player, "demo-player-password")
    player_page.goto(page.url)
    expect(player_page.locator("#dogfight-order li")).to_have_count(8)

    # A Blue pilot fires with a natural 20 from the GM's physical dice: a critical, damage twice.
    attack = _to_a_blue_attack(page)
    expect(page.locator("#actions")).to_contain_text("critical")  # the odds beside each shot
    _fire_with_faces(page, attack, "10 10")
    expect(page.locator("#log")).to_contain_text("critical hit")
    expect(player_page.locator("#log")).to_contain_text("critical hit", timeout=15_000)
    screenshot(page, "wing-commander-critical")

    # The next Blue shot with a natural 2: a fumble, and the weapon's fumble table.
    attack = _to_a_blue_attack(page)
    _fire_with_faces(page, attack, "1 1")
    expect(page.locator("#log")).to_contain_text("Fumble!")
    expect(page.locator("#log")).to_contain_text("fumble table")
    # The player sees it live (the page shows the latest steps; the older ones are behind 'the whole log').
    expect(player_page.locator("#log")).to_contain_text("Fumble!", timeout=15_000)

    # Play on until a ship takes its first hull damage and rolls on the first-damage table.
    for _ in range(80):
        if "First damage to" in page.locator("#log").inner_text():
            break
        buttons = page.locator("#actions .actions button")
        if not buttons.count():
            break
        answer = buttons.filter(has_text=BLUE_ANSWER)
        _step(page, answer.first.click if answer.count() else page.locator("#auto-step-button").click)
    log = page.locator("#log").inner_text()
    assert "First damage to" in log, log[:2000]
    assert "actor=" not in log and "w1" not in page.locator("#ships").inner_text()

    # A ship out of the fight reads as such: its card dimmed, its state in words.
    for card in page.locator("#ships .ship-card").all():
        status = card.locator("h3 .tag-warn").all_inner_texts()
        out = "ship-out" in (card.get_attribute("class") or "")
        assert out == any(s in ("destroyed", "pilot ejected") for s in status), (status, out)

    for width, height in ((1280, 800), (1024, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"wing-commander-gm-{width}", full_page=False)

    # The player followed live: the same log, no controls, no enemy pilot sheet.
    expect(player_page.locator("#log")).to_contain_text("First damage to", timeout=15_000)
    expect(player_page.locator("#actions .actions button")).to_have_count(0)
    # The order of play once, in the turn panel (the board's copy is the GM's).
    expect(player_page.locator("#turn .order li")).to_have_count(page.locator("#dogfight-order li").count())
    expect(player_page.locator("#dogfight-order .initiative")).to_be_hidden()
    assert "NPC (TW)" not in player_page.content()  # the Kilrathi pilot sheets are the GM's
    for width, height in ((1280, 800), (1024, 768), (390, 844)):
        player_page.set_viewport_size({"width": width, "height": height})
        player_page.evaluate("window.scrollTo(0, 0)")
        screenshot(player_page, f"wing-commander-player-{width}", full_page=False)
