"""A GM flies a Star Wars D6 ship on the hex board by clicking hexes, then fires; a player
follows the board live.

The board is the ruleset's SVG partial on the generic runner: the lit hexes are the
course actions (the engine's ``board_kinds``), each showing the speed points left on
arrival; a click moves the ship there through the ordinary movement rules.
"""
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign
from encounters.models import Encounter
from rulesets.starwars_d6.hexes import distance
from tests.e2e.conftest import head, open_setup_with_every_fleet, screenshot

pytestmark = [pytest.mark.e2e]


def _hex(text: str) -> tuple[int, int]:
    col, row = text.split(",")
    return int(col), int(row)


def test_a_gm_moves_a_ship_on_the_board_and_fires_while_a_player_follows(asgi_server, browser_on, django_user_model):
    call_command("seed_demo")
    campaign = Campaign.objects.get(ruleset="starwars_d6")
    gm = django_user_model.objects.get(username="gm")
    page = browser_on(asgi_server, gm, "demo-gm-password")

    open_setup_with_every_fleet(page, campaign)
    page.fill("input[name=opt-separation]", "9")
    page.fill("textarea[name=opt-features]", "planet 3,3 Yavin\nmoon 26,16\nobstacle 20,8 debris")
    screenshot(page, "starwars-setup")
    page.click("button:has-text('Start the encounter')")
    expect(page.locator("#hex-board svg")).to_be_visible()
    expect(page.locator("#hex-board .feature-planet")).to_have_count(1)
    # A fixed seed (the form draws a random one), so the fight is the same on every run.
    Encounter.objects.filter(pk=int(page.url.rstrip("/").rsplit("/", 1)[1])).update(seed="e2e-board")
    page.reload()

    # A player follows on the live page: the same board, no lit hexes, no controls.
    player = django_user_model.objects.get(username="player")
    player_page = browser_on(asgi_server, player, "demo-player-password")
    player_page.goto(page.url)
    expect(player_page.locator("#hex-board svg")).to_be_visible()

    page.locator("#actions .actions button", has_text="Roll initiative").click()
    expect(page.locator("#hex-board")).to_contain_text("Moving:")
    # Issue 27: the names are legible at 1024x768 and no name covers a lit hex's number; the
    # Moving line says when a turn is free (seed 1.: right after a forward move).
    expect(page.locator("#hex-board .sw-moving")).to_contain_text("a free turn comes right after a forward move")
    size = page.viewport_size
    for width, height in ((1280, 800), (1024, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#hex-board .ship.moving").scroll_into_view_if_needed()
        screenshot(page, f"starwars-board-moving-{width}", full_page=False)
        names = _boxes(page, "#hex-board .ship-name")
        # a line box is 1.16 em tall: 11.6 px is a 10-pixel font (it was 9 units, about 7 px, at 1024x768)
        assert names and min(b[4] - b[2] for b in names) >= 11.6, (width, [round(b[4] - b[2], 1) for b in names])
        numbers = _boxes(page, "#hex-board .target text")
        covered = [(n, t) for n in names for t in numbers if _overlap(n, t)]
        assert not covered, (width, [(n[0], t[0], t[5], t[6], t[7], round(min(n[3], t[3]) - max(n[1], t[1])), round(min(n[4], t[4]) - max(n[2], t[2]))) for n, t in covered])
    page.set_viewport_size(size)

    # Click the lit hex farthest ahead: the moving ship flies there, showing what is left.
    mover = page.locator("#hex-board .ship.moving")
    ship_id = mover.get_attribute("data-ship")
    start_hex = mover.get_attribute("data-hex")
    targets = page.locator("#hex-board .target")
    assert targets.count() > 3, "the legal destinations are lit"
    lefts = [int(t) for t in targets.locator("text").all_text_contents()]
    assert min(lefts) >= 0 and max(lefts) < 20, "each lit hex shows the speed points left on arrival"
    # Fly towards the enemy: the lit hex nearest to one of the other side's ships.
    side = mover.get_attribute("class").split("side-")[1].split()[0]
    enemies = [_hex(e.get_attribute("data-hex")) for e in page.locator("#hex-board .ship").all()
               if f"side-{side}" not in e.get_attribute("class")]
    hexes = [_hex(h) for h in targets.evaluate_all("els => els.map(e => e.dataset.hex)")]
    pick = min(range(len(hexes)), key=lambda i: (min(distance(hexes[i], e) for e in enemies), -lefts[i]))
    dest = targets.nth(pick).get_attribute("data-hex")
    before = head(page)
    # From the keyboard: the lit hex is a button (tab to it, Enter), with no script evaluated.
    targets.nth(pick).focus()
    page.keyboard.press("Enter")
    expect(page.locator("#runner")).to_have_attribute("data-head", str(before + 1))
    moved = page.locator(f"#hex-board .ship[data-ship='{ship_id}']")
    expect(moved).to_have_attribute("data-hex", dest)
    assert dest != start_hex
    expect(page.locator("#log")).to_contain_text("forward")
    screenshot(page, "starwars-board-after-move")
    expect(player_page.locator(f"#hex-board .ship[data-ship='{ship_id}']")).to_have_attribute("data-hex", dest,
                                                                                              timeout=10_000)
    expect(player_page.locator("#hex-board .target")).to_have_count(0)
    expect(player_page.locator("#actions .actions button")).to_have_count(0)
    screenshot(player_page, "starwars-board-player")

    # Finish the movement phase (hold, then auto-play the other ships' moves).
    for _ in range(40):
        if page.locator("#actions .actions button", has_text=re.compile(r" fires ")).count():
            break
        before = head(page)
        hold = page.locator("#actions .actions button", has_text=re.compile(r": hold\b"))
        if hold.count() and page.locator("#hex-board .ship.moving").get_attribute("data-ship") == ship_id:
            hold.click()
        else:
            page.keyboard.press("n")
        expect(page.locator("#runner")).to_have_attribute("data-head", str(before + 1))

    fire = page.locator("#actions .actions button", has_text=re.compile(r" fires "))
    assert fire.count(), "the firing phase offers shots"
    expect(page.locator("#actions")).to_contain_text("to hit")
    before = head(page)
    fire.first.click()
    expect(page.locator("#runner")).to_have_attribute("data-head", str(before + 1))
    expect(page.locator("#hex-board .shot")).to_have_count(1)   # the shot drawn on the board
    log = page.locator("#log li").first.inner_text()
    assert "fire control" in log.lower() or "to hit" in log.lower(), log
    screenshot(page, "starwars-board-after-fire")


def _boxes(page, selector):
    """[text, left, top, right, bottom] of each element drawn (as laid out now)."""
    return page.locator(selector).evaluate_all(
        "ts => ts.map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom, t.parentNode.dataset.hex, t.getAttribute('x'), t.getAttribute('y')]; })")


def _overlap(a, b):
    return a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]
