"""A GM runs a Dropfleet Commander fight on the table in inches while a player follows live:
orders, a move by clicking the table, fire with the odds on the button, then play on until a
ship is crippled and one is destroyed with its explosion drawn.

The demo campaign: the Concord of Vess picket against the Sable Hegemony raiders, 12" apart.
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


def _button(page, text):
    return page.locator("#actions .actions button", has_text=text)


def test_a_gm_moves_fires_cripples_and_destroys_while_a_player_follows(asgi_server, browser_on, django_user_model):
    call_command("seed_demo")
    campaign = Campaign.objects.get(ruleset="dropfleet")
    gm = django_user_model.objects.get(username="gm")
    page = browser_on(asgi_server, gm, "demo-gm-password")

    open_setup_with_every_fleet(page, campaign)
    page.fill("input[name=opt-separation]", "12")
    page.click("button:has-text('Start the encounter')")
    expect(page.locator("#df-board svg")).to_be_visible()
    # A fixed seed (the form draws a random one), so the fight is the same on every run.
    Encounter.objects.filter(pk=int(page.url.rstrip("/").rsplit("/", 1)[1])).update(seed="e2e-dropfleet")
    page.reload()
    expect(page.locator("#df-board .df-ship")).to_have_count(8)

    player = django_user_model.objects.get(username="player")
    player_page = browser_on(asgi_server, player, "demo-player-password")
    player_page.goto(page.url)
    expect(player_page.locator("#df-board .df-ship")).to_have_count(8)

    # Orders for the first group, then its ship moves: click the lit point nearest the enemy line.
    _step(page, _button(page, "Weapons Free orders").first.click)
    expect(page.locator("#df-board")).to_contain_text("Moving:")
    targets = page.locator("#df-board .df-target")
    assert targets.count() > 10, "the reachable points are lit"
    ys = [float(c) for c in targets.locator("circle").evaluate_all("els => els.map(e => e.getAttribute('cy'))")]
    _step(page, targets.nth(ys.index(min(ys))).click)
    expect(page.locator("#log")).to_contain_text("moves")
    screenshot(page, "dropfleet-after-move")

    # Fire: the buttons carry the odds. Pointing at one draws that weapon's arc and reach (decision D20).
    fire = _button(page, " fires ")
    expect(fire.first).to_be_visible()
    expect(page.locator("#actions")).to_contain_text("destroys")
    expect(page.locator("#actions")).to_contain_text("expected")
    chosen = page.locator("#df-board .df-chosen")
    expect(chosen.locator("visible=true")).to_have_count(0)  # nothing chosen yet: only the faint arcs
    for i in (fire.count() - 1, 0):  # the last button and the first: each shows its own weapon
        button = fire.nth(i)
        action = button.locator("xpath=..").locator("input[name=action]").get_attribute("value")
        button.hover()
        shown = chosen.locator("visible=true")
        expect(shown).to_have_count(1)
        expect(shown).to_have_attribute("data-action", action)
        weapon = dict(p.split("=", 1) for p in action.split()[1:])["weapon"]
        assert shown.get_attribute("data-weapon") == weapon
    screenshot(page, "dropfleet-chosen-weapon")
    _step(page, fire.first.click)
    # Declared: with the pointer away, the board shows the weapon about to fire.
    page.mouse.move(1, 1)
    shown = chosen.locator("visible=true")
    expect(shown).to_have_count(1)
    expect(shown).to_have_attribute("data-weapon", weapon)
    expect(page.locator("#df-board .legend")).to_contain_text("Now: ")
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 800})
    screenshot(page, "dropfleet-declared-1280", full_page=False)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("#df-board").scroll_into_view_if_needed()
    screenshot(page, "dropfleet-declared-390", full_page=False)
    page.set_viewport_size(size)
    _step(page, _button(page, "opens fire").first.click)
    expect(page.locator("#log")).to_contain_text("fires")

    # Issue 27: the next group's activation by hand, without the board: its orders, then each ship
    # holds position or takes a named move (buttons beside the lit points), then its fire.
    for _ in range(10):  # a point-defence choice of the first activation's attacks, if any
        if _button(page, " orders").count():
            break
        _step(page, page.locator("#actions .actions button").first.click)
    ships = [t.split(" (")[0] for t in page.locator("#df-board .df-ship > title").all_text_contents()]
    now = page.locator("#active")
    expect(now).to_be_visible()
    acting = now.inner_text().removeprefix("Now: ")
    assert acting and all(name in ships for name in acting.split(", ")), (acting, ships)  # ships, not a battle group
    _step(page, _button(page, "Standard orders").first.click)
    assert "none spike" not in page.locator("#log").inner_text()
    expect(page.locator("#log")).to_contain_text("no spike")
    moved = 0
    while _button(page, ": hold position").count():
        mover = page.locator("#df-board .df-moving strong").inner_text()
        expect(now).to_have_text(f"Now: {mover}")  # the header names the ship the board names
        expect(_button(page, f"{mover}: full ahead")).to_be_visible()
        expect(_button(page, f"{mover}: half ahead")).to_be_visible()
        assert page.locator("#df-board .df-target").count() > 10, "the board still gives any exact spot"
        if not moved:
            size = page.viewport_size
            for width, height in ((1280, 800), (1024, 768), (390, 844)):
                page.set_viewport_size({"width": width, "height": height})
                page.locator("#actions").scroll_into_view_if_needed()
                screenshot(page, f"dropfleet-move-buttons-{width}", full_page=False)
            page.set_viewport_size(size)
            _step(page, _button(page, f"{mover}: full ahead").click)
            expect(page.locator("#log")).to_contain_text(f"{mover} moves")
        else:
            _step(page, _button(page, f"{mover}: hold position").click)
            expect(page.locator("#log")).to_contain_text(f"{mover} holds its position")
        moved += 1
    assert moved, "no ship moved by hand"
    if _button(page, " fires ").count():
        _step(page, _button(page, " fires ").first.click)
    _step(page, _button(page, "opens fire").first.click)

    # Play on (the app's bot) until a ship is crippled and one destroyed with its explosion drawn.
    blast_seen = crippled = destroyed = False
    for _ in range(250):
        log = page.locator("#log").inner_text()
        crippled = crippled or "is crippled" in log
        destroyed = destroyed or "is destroyed" in log
        if page.locator("#df-board .df-blast").count() and not blast_seen:
            blast_seen = True
            screenshot(page, "dropfleet-explosion")
        if crippled and destroyed and blast_seen:
            break
        if not page.locator("#auto-step-button").count():
            break
        _step(page, page.locator("#auto-step-button").click)
    assert crippled and destroyed and blast_seen, page.locator("#log").inner_text()[:3000]
    assert "actor=" not in page.locator("#log").inner_text() and "Ship(" not in page.content()

    # Words on the table: a Minor and a Major spike read apart, and no two ships write their names over each other.
    legend = page.locator("#df-board .legend").inner_text()
    assert "orange halo: a spike (thin: Minor, thick: Major)" in legend
    # A spike is a halo round the ship (no letters to crowd a neighbour), and the ship's title names it.
    spiked = page.locator("#df-board .df-ship:has(.df-spike)")
    assert spiked.count(), "no ship with a spike on the table"
    for ship in spiked.all():
        kind = ship.locator(".df-spike").get_attribute("class").split()[-1]
        assert kind in ("minor", "major")
        assert f"{'Minor' if kind == 'minor' else 'Major'} spike" in ship.locator("title").first.text_content()
    assert not page.locator("#df-board .df-ship text", has_text="Maj").count()
    assert not _overlapping_labels(page), (_overlapping_labels(page), page.locator("#df-board .df-name").evaluate_all(
        "gs => gs.map(g => [g.textContent, g.getAttribute('transform'), g.firstChild.getAttribute('class')])"))

    # Compact ship cards (docs/ruleset-partials.md): one line a GM reads every step, the rest on demand.
    cards = page.locator("#ships .ship-card")
    expect(cards).to_have_count(8)
    for card in cards.all():
        expect(card.locator(".ship-line")).to_contain_text("Hull")
        assert not card.locator("details.ship-details").evaluate("d => d.open")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("#ships").scroll_into_view_if_needed()
    screenshot(page, "dropfleet-gm-ships-1280", full_page=False)

    for width, height in ((1280, 800), (1024, 768), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate("window.scrollTo(0, 0)")
        screenshot(page, f"dropfleet-gm-{width}", full_page=False)
    # On a phone the table scrolls sideways instead of shrinking its names to specks.
    page.reload()  # as a phone opens it: the table scrolled to a ship
    label = page.locator("#df-board .df-label").first
    label.scroll_into_view_if_needed()
    assert label.bounding_box()["height"] >= 9, label.bounding_box()
    screenshot(page, "dropfleet-gm-390-table", full_page=False)

    # The player followed live: the same table and log, no controls, no lit points.
    expect(player_page.locator("#log")).to_contain_text("is destroyed", timeout=15_000)
    expect(player_page.locator("#actions .actions button")).to_have_count(0)
    expect(player_page.locator("#df-board .df-target")).to_have_count(0)
    for width, height in ((1280, 800), (1024, 768), (390, 844)):
        player_page.set_viewport_size({"width": width, "height": height})
        player_page.evaluate("window.scrollTo(0, 0)")
        screenshot(player_page, f"dropfleet-player-{width}", full_page=False)
    player_page.reload()
    player_page.locator("#df-board .df-label").first.scroll_into_view_if_needed()
    screenshot(player_page, "dropfleet-player-390-table", full_page=False)


def _overlapping_labels(page):
    """The pairs of ship names on the table whose drawn boxes overlap (as laid out now)."""
    boxes = page.locator("#df-board .df-label").evaluate_all(
        "ts => ts.map(t => { const r = t.getBoundingClientRect(); return [t.textContent, r.left, r.top, r.right, r.bottom]; })")
    return [(a[0], b[0]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[1] < b[3] and b[1] < a[3] and a[2] < b[4] and b[2] < a[4]]
