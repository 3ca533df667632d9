"""A GM runs a Void d20 ship fight that closes to Docked and ends in a boarding fight, with the
death table used, while a player follows live.

The demo campaign: the Kestrel crew (a salvage tug; the demo player plays its captain) against
the Grinder raiders (a scrap raider with a boss and a squad of scrappers).  Mixed dice: the GM
types the faces of the close-in and the breach (natural 20s), the app rolls the rest from a
fixed seed, and the bots play on until somebody rolls on the death table.
"""
import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign
from encounters.models import Encounter
from tests.e2e.conftest import head, open_setup_with_every_fleet, screenshot

pytestmark = [pytest.mark.e2e]


def _step(page, click):
    before = head(page)
    click()
    expect(page.locator("#runner")).to_have_attribute("data-head", str(before + 1))


def _with_faces(page, button, faces: str):
    button.locator("xpath=ancestor::form[1]").locator("input[name=faces]").fill(faces)
    _step(page, button.click)


def _auto(page):
    _step(page, page.locator("#auto-step-button").click)


def test_a_ship_fight_closes_to_docked_and_ends_in_a_boarding_fight_with_the_death_table(asgi_server, browser_on,
                                                                                         django_user_model):
    call_command("seed_demo")
    campaign = Campaign.objects.get(ruleset="void_d20")
    gm = django_user_model.objects.get(username="gm")
    page = browser_on(asgi_server, gm, "demo-gm-password")

    open_setup_with_every_fleet(page, campaign)
    page.select_option("select[name=dice_mode]", "mixed")
    page.select_option("select[name=opt-start_band]", "close")
    page.click("button:has-text('Start the encounter')")
    expect(page.locator("#void-round")).to_contain_text("Before the first round")
    # A fixed seed (the form draws a random one), so the dice the app rolls are the same every run.
    Encounter.objects.filter(pk=int(page.url.rstrip("/").rsplit("/", 1)[1])).update(seed="e2e-void-d20")
    page.reload()

    player = django_user_model.objects.get(username="player")
    player_page = browser_on(asgi_server, player, "demo-player-password")
    player_page.goto(page.url)
    expect(player_page.locator("#log")).to_be_visible()

    # The ship fight: the bots play until the Kestrel's pilot may close in; the GM's dice close to
    # Docked and force Grinder's lock (each with its odds on the button).
    actions = page.locator("#actions")
    for _ in range(60):
        close = actions.locator("button", has_text="Kestrel closes on Grinder")
        breach = actions.locator("button", has_text="Kestrel's crew force the lock of Grinder")
        if breach.count():
            expect(actions).to_contain_text("breaks in")
            _with_faces(page, breach.first, "20")
            break
        if close.count():
            expect(actions).to_contain_text("closes one band")
            _with_faces(page, close.first, "20")
            continue
        _auto(page)
    log = page.locator("#log")
    expect(log).to_contain_text("Docked")
    expect(log).to_contain_text("into Grinder")
    expect(page.locator("#void-round")).to_contain_text("Round")
    # The order of the round as a list, the one acting marked (not a line of arrows).
    expect(page.locator("#void-round .vd-order li strong")).to_have_count(1)
    screenshot(page, "void-d20-boarded")

    # The corridor fight: the bots play on until somebody drops to 0 HP and rolls on the death table.
    attack_odds = False
    for _ in range(150):
        if "Death table" in log.inner_text() or not page.locator("#auto-step-button").count():
            break
        if actions.locator("button", has_text=" attacks ").count():
            attack_odds = attack_odds or "to hit (DR" in actions.inner_text()
        _auto(page)
    text = log.inner_text()
    assert "Death table, d20 =" in text, text[:3000]
    assert "boarding fight aboard Grinder" in text
    assert attack_odds, "the attacks showed their odds"
    ships = page.locator("#ships").inner_text()
    # The boarders read as such on the ship they fight in (the Kestrel's crew aboard Grinder).
    grinder = page.locator("#card-" + _grinder_id(campaign))
    expect(grinder.locator(".vd-person", has_text="boarding, ")).not_to_have_count(0)
    expect(grinder.locator(".vd-person", has_text="Raider boss").locator(".tag", has_text="boarding")).to_have_count(0)
    assert "actor=" not in text and "['" not in ships and "{'" not in ships

    for width, height in ((1280, 800), (1024, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"void-d20-gm-{width}", full_page=False)

    # The player followed live: the same log, no controls, nothing of the raiders' numbers.
    expect(player_page.locator("#log")).to_contain_text("Death table", timeout=20_000)
    player_log = player_page.locator("#log").inner_text()
    assert "into Grinder" in player_log
    expect(player_page.locator("#actions .actions button")).to_have_count(0)
    content = player_page.content()
    assert "Grinder: frame" not in content and "morale 8:" not in content
    assert "Skarn" not in content and "Raider boss" not in content  # enemy crew by ship and position
    expect(player_page.locator("#card-" + _grinder_id(campaign))).to_contain_text("Grinder's marine")
    for width, height in ((1280, 800), (1024, 768), (390, 844)):
        player_page.set_viewport_size({"width": width, "height": height})
        player_page.evaluate("window.scrollTo(0, 0)")
        screenshot(player_page, f"void-d20-player-{width}", full_page=False)
    player_page.locator("#card-" + _grinder_id(campaign)).scroll_into_view_if_needed()
    screenshot(player_page, "void-d20-player-390-grinder", full_page=False)


def _grinder_id(campaign) -> str:
    return next(ship.spec_id for fleet in campaign.fleets.all() for ship in fleet.ships.all() if ship.name == "Grinder")
