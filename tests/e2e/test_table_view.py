"""The GM's runner at the table, in Chromium at a desk (1280x800), a tablet (1024x768) and a phone (390x844).

What the GM needs after every step is in the viewport without scrolling: whose step it is,
the latest result with its dice and the actions with their odds; the board and the actions
side by side on the desk and the tablet. A refused action leaves the page whole and styled,
with the message where the GM acted. Nothing the GM reads is a Python repr or an action code.
Physical dice are asked for at once and survive a reload. Screenshots of every state at the
three sizes go to test-artifacts/table-*.png.
"""
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign
from encounters import log as encounter_log
from encounters.autoplay import auto_play
from encounters.models import Encounter
from tests.e2e.conftest import head, screenshot

pytestmark = [pytest.mark.e2e]

SIZES = {"desk": (1280, 800), "tablet": (1024, 768), "phone": (390, 844)}
#: what no page a person reads may contain: reprs and internal codes
CODES = ("actor=", "target=", "s1.", "{'", "['", "None", "<bound")


@pytest.fixture
def demo(django_user_model):
    call_command("seed_demo", verbosity=0)
    return django_user_model.objects.get(username="gm")


def _start(page, ruleset, seed, dice="auto"):
    """An encounter of the demo campaign started through the setup form (every fleet ticked by default)."""
    campaign = Campaign.objects.get(ruleset=ruleset)
    page.goto(campaign.get_absolute_url())
    page.click("text=Start an encounter")
    boxes = page.locator("input[name=fleets]")
    assert boxes.count() >= 2 and all(b.is_checked() for b in boxes.all()), "every fleet ticked by default"
    page.select_option("select[name=dice_mode]", dice)
    page.locator("input[name=players_act]").uncheck()  # the GM runs alone here (players' steps: test_players_take_steps)
    page.click("button:has-text('Start the encounter')")
    expect(page.locator("#runner h1")).to_be_visible()
    encounter = Encounter.objects.get(pk=int(page.url.rstrip("/").rsplit("/", 1)[1]))
    Encounter.objects.filter(pk=encounter.pk).update(seed=seed)
    encounter.refresh_from_db()
    return encounter


def _play(encounter, steps):
    """Steps taken by the bot, as another tab would."""
    for _ in range(steps):
        if encounter_log.current(encounter).state.over:
            break
        auto_play(encounter, mode="step", expected_seq=encounter_log.head_seq(encounter))


def _in_view(page, locator) -> bool:
    """Whether the element lies wholly inside the viewport, as the page is scrolled now."""
    box = locator.bounding_box()
    size = page.viewport_size
    return (box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]
            and box["x"] >= 0 and box["x"] + box["width"] <= size["width"] + 1)


def _words_only(page):
    text = page.locator("body").inner_text()
    for code in CODES:
        assert code not in text, f"{code!r} on the page: {text[max(0, text.find(code) - 80):text.find(code) + 80]}"


def _shots(page, name, at=None):
    """The page at each size for a person to look at: scrolled to the top, or to ``at`` (a selector)."""
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.evaluate("window.scrollTo(0, 0)")
        if at:
            page.locator(at).first.scroll_into_view_if_needed()
        screenshot(page, f"table-{name}-{size}", full_page=False)
    page.set_viewport_size({"width": 1280, "height": 800})


@pytest.mark.parametrize("ruleset,seed,steps", [("cepheus", "table-cepheus", 14), ("starwars_d6", "table-sw", 9)])
def test_the_latest_result_and_the_actions_are_in_sight_at_every_size(asgi_server, browser_on, demo, ruleset,
                                                                       seed, steps):
    page = browser_on(asgi_server, demo, "demo-gm-password")
    encounter = _start(page, ruleset, seed)
    _play(encounter, steps)
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.goto(encounter.get_absolute_url())
        latest = page.locator("#latest")
        first_action = page.locator("#actions .actions button").first
        expect(latest).to_contain_text(re.compile(r"\w"))
        assert _in_view(page, page.locator("#actions h2")), f"whose step, at {size}"
        assert _in_view(page, latest), f"the latest result, at {size}"
        assert _in_view(page, first_action), f"the first action, at {size}"
        if size != "phone":
            assert _in_view(page, page.locator("#active")), f"the header's 'Now', at {size}"
            # The board (or the ships) beside the turn panel, not above it.
            main = page.locator(".table-main").bounding_box()
            turn = page.locator("#actions").bounding_box()
            assert main["x"] + main["width"] <= turn["x"] + 1 and main["y"] < turn["y"] + turn["height"]
        else:
            # One column, the turn panel first: the actions do not wait under the board.
            assert page.locator("#actions").bounding_box()["y"] < page.locator(".table-main").bounding_box()["y"]
        if ruleset == "cepheus":
            expect(page.locator("#actions .actions").first).to_contain_text("%")  # the odds beside the actions
        _words_only(page)
    page.set_viewport_size({"width": 1280, "height": 800})
    # Compact ship cards: the details open on demand.
    card = page.locator(".ship-card").first
    details = card.locator("details.ship-details")
    assert not details.evaluate("d => d.open")
    details.locator("summary").click()
    assert details.evaluate("d => d.open")
    _shots(page, ruleset)


@pytest.mark.parametrize("ruleset", ["dropfleet", "wing_commander", "void_d20"])
def test_the_systems_being_added_run_in_the_same_table_view(asgi_server, browser_on, demo, ruleset):
    """The same runner and partial contract (docs/ruleset-partials.md) serve every registered system."""
    page = browser_on(asgi_server, demo, "demo-gm-password")
    encounter = _start(page, ruleset, f"table-{ruleset}")
    _play(encounter, 8)
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.goto(encounter.get_absolute_url())
        assert _in_view(page, page.locator("#actions h2")), f"whose step, at {size}"
        assert _in_view(page, page.locator("#latest")), f"the latest result, at {size}"
        controls = page.locator("#actions .actions button, #auto-step-button")
        assert _in_view(page, controls.first), f"the first action, at {size}"
        _words_only(page)
    _shots(page, ruleset)


def test_a_refused_action_leaves_the_page_styled_with_the_message_where_the_gm_acted(asgi_server, browser_on, demo):
    page = browser_on(asgi_server, demo, "demo-gm-password")
    encounter = _start(page, "starwars_d6", "table-refused")
    _play(encounter, 3)
    page.route("**/poll/**", lambda route: route.abort())  # this tab does not catch up by itself
    page.goto(encounter.get_absolute_url())
    # 1. The encounter moved on in another tab: the click is refused (409), the page stays whole.
    _play(encounter, 1)
    before = head(page)
    page.locator("#actions .actions button").first.click()
    expect(page.locator("#refusal")).to_contain_text("moved on")
    assert head(page) == before + 1  # refreshed to the new head, nothing applied twice
    assert encounter_log.head_seq(encounter) == before + 1
    assert _in_view(page, page.locator("#refusal"))
    assert page.locator("header.topbar").is_visible()
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(15, 20, 32)", "the page keeps its stylesheet"
    _shots(page, "refused")
    # 2. A GM override the rules refuse (400): said on the ship card, what was typed kept.
    card = page.locator(".ship-slot").first
    card.locator(".ship-override > summary").click()
    field = card.locator("[name=override_field]")
    if field.evaluate("f => f.tagName") == "SELECT":
        field.select_option("hull")
    else:
        field.fill("hull")
    card.locator("input[name='p.value']").fill("3X")
    card.locator(".ship-override button[type=submit]").click()
    card = page.locator(".ship-slot").first
    message = card.locator(".ship-override .refusal")
    expect(message).to_contain_text("3X")
    assert _in_view(page, message) or message.evaluate("m => { m.scrollIntoView(); return true; }")
    expect(card.locator("input[name='p.value']")).to_have_value("3X")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == background
    _shots(page, "override-refused", at=".ship-override[open]")
    _words_only(page)


def test_physical_dice_are_asked_at_once_focused_and_kept_across_a_reload(asgi_server, browser_on, demo):
    page = browser_on(asgi_server, demo, "demo-gm-password")
    page.set_viewport_size({"width": 1024, "height": 768})
    encounter = _start(page, "starwars_d6", "table-dice", dice="manual")
    page.locator("#actions .actions button").first.click()  # roll initiative: every side's dice at once
    boxes = page.locator("#dice-entry input[name=face]")
    expect(boxes.first).to_be_focused()
    expect(boxes).to_have_count(4)  # two sides' 2D
    labels = page.locator("#dice-entry label").all_inner_texts()
    assert labels[0].startswith("Die 1: d6 for initiative of") and "Wild Die" in labels[1]
    assert _in_view(page, page.locator("#dice-entry button.primary"))
    _words_only(page)
    _shots(page, "dice")
    page.set_viewport_size({"width": 1024, "height": 768})
    boxes.nth(0).fill("3")
    boxes.nth(1).fill("4")
    page.reload()  # typed faces and the prompt are still there
    boxes = page.locator("#dice-entry input[name=face]")
    expect(boxes.nth(0)).to_have_value("3")
    expect(boxes.nth(1)).to_have_value("4")
    expect(boxes.nth(2)).to_be_focused()
    boxes.nth(2).fill("2")
    # Issue 27: a face out of range is said beside its die in the app's words (as typed, then by
    # the server), never by the browser's own bubble: the form is sent and refused in place.
    boxes.nth(3).fill("7")
    expect(page.locator("#die-error-4")).to_have_text("A d6 shows 1 to 6: 7 is not one of its faces.")
    with page.expect_response("**/step/") as answer:
        page.locator("#dice-entry button.primary").click()
    assert answer.value.status == 400
    expect(page.locator("#die-error-4")).to_have_text("Die 4: 7 is not a face of a d6 (1-6).")
    boxes = page.locator("#dice-entry input[name=face]")
    expect(boxes.nth(0)).to_have_value("3")
    expect(boxes.nth(2)).to_have_value("2")
    boxes.nth(3).fill("5")
    # 3 + 4 ties 2 + 5 (seed 4. "Fase d'iniciativa": "Tornar a repetir les tirades en cas d'empat"): each
    # tied side's 2D again, asked for as they come, the faces typed so far kept. Each answer is waited
    # for as the GM sees it (more boxes, the first new one focused), never for a fixed time.
    for count, faces in ((6, ("2", "3")), (8, ("5", "2"))):
        page.locator("#dice-entry button.primary").click()
        expect(boxes).to_have_count(count)
        expect(boxes.nth(count - 2)).to_be_focused()
        expect(page.locator("#dice-entry label").nth(count - 2)).to_contain_text("for initiative of")
        expect(boxes.nth(0)).to_have_value("3")
        expect(boxes.nth(count - 3)).not_to_have_value("")
        boxes.nth(count - 2).fill(faces[0])
        boxes.nth(count - 1).fill(faces[1])
    page.locator("#dice-entry button.primary").click()  # 2 + 3 against 5 + 2: no tie
    expect(page.locator("#dice-entry")).to_have_count(0)
    assert encounter.events.count() == 1
    assert encounter.events.get().dice == ["3/d6", "4/d6", "2/d6", "5/d6", "2/d6", "3/d6", "5/d6", "2/d6"]
    expect(page.locator("#latest")).to_contain_text("nitiative")
    assert page.locator("#log button.reroll").count() == 0, "no reroll with physical dice"


def test_keys_work_after_ticking_gm_only_and_multi_step_play_and_undo_back(asgi_server, browser_on, demo):
    page = browser_on(asgi_server, demo, "demo-gm-password")
    encounter = _start(page, "cepheus", "table-keys")
    page.set_viewport_size({"width": 1280, "height": 800})
    page.check("#gm-only-toggle")  # with the mouse: the checkbox has the focus now
    before = head(page)
    page.keyboard.press("1")
    expect(page.locator("#runner")).to_have_attribute("data-head", str(before + 1))
    expect(page.locator("#latest .tag-gm")).to_be_visible()
    # Play the acting ship's turn in one press; then undo back to the first step in one press.
    page.locator("#auto-ship-button").click()
    expect(page.locator("#runner")).not_to_have_attribute("data-head", str(before + 1))
    played = head(page)
    assert played > before + 1
    assert all(e.kind == "step" for e in encounter.events.all())
    page.locator("#log .undo-back").last.click()
    expect(page.locator("#runner")).not_to_have_attribute("data-head", str(played))
    now = encounter_log.current(encounter)
    assert [a.seq for a in now.applied] == [before + 1]
    assert encounter.events.filter(kind="undo").count() == played - before - 1
    # End encounter asks first and says what carrying damage back does.
    page.locator(".end-encounter > summary").click()
    expect(page.locator(".end-encounter")).to_contain_text("keeps the damage it has now")
    assert not page.locator("#carry-damage").is_checked()
    _shots(page, "end", at=".end-encounter[open]")
    page.once("dialog", lambda d: d.dismiss())
    page.locator(".end-encounter button.danger").click()
    encounter.refresh_from_db()
    assert encounter.status == Encounter.ACTIVE, "dismissing the question ends nothing"
    page.once("dialog", lambda d: d.accept())
    page.locator(".end-encounter button.danger").click()
    expect(page.locator("#runner")).to_have_attribute("data-status", "finished")
    _words_only(page)
    _shots(page, "finished")
