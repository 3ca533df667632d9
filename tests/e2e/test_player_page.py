"""The pages a player (and the GM, after the fight) reads, in a browser at a desk, a tablet and a phone.

For a player: whose turn it is and the latest result are on the first screen, without
scrolling, at 1280x800, 1024x768 and 390x844; and no page a person reads holds a Python
repr or an engine code.  Screenshots of the players' page, the replay, the analysis, the
ship page and the simulation page at each size go to test-artifacts/ (issue 16).
"""
import re

import pytest
from playwright.sync_api import expect

from campaigns.models import Ship
from encounters import log
from encounters.models import EncounterAnalysis, SimulationRun
from encounters.tasks import run_analysis, run_in_process
from tests.e2e.conftest import ARTIFACTS, screenshot
from tests.encounters.test_leaks import demo_campaign, hidden_step, play, start

pytestmark = [pytest.mark.e2e]

SIZES = [("desktop", 1280, 800), ("tablet", 1024, 768), ("phone", 390, 844)]
REPRS = [re.compile(p) for p in (r"\['", r"\{'", r"\bactor=", r"\b[sc]\d+\.\w", r"\bweapon=", r"\bmount=",
                                 r"\bTrue\b", r"\bFalse\b", r"\bNone\b", r"(?<!\d)(?:\d*[02-9])?[123]th\b", r"Tabella", r"RULES-NOTES")]


@pytest.fixture(autouse=True)
def _logins_as_in_production(settings):
    """The in-process live server checks the passwords browser_on sets (PBKDF2, as in production)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.PBKDF2PasswordHasher",
                                 "django.contrib.auth.hashers.MD5PasswordHasher"]


def assert_words(page, where: str) -> None:
    text = page.locator("main").inner_text()
    for pattern in REPRS:
        found = pattern.search(text)
        assert not found, f"{where}: {found.group(0)!r} in …{text[max(0, found.start() - 80):found.end() + 80]}…"


def assert_no_sideways_scroll(page, where: str) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"] + 1, f"{where}: the page is {width} px wide"


def assert_in_view(page, selector: str, where: str) -> None:
    """The element is wholly inside the first screen (no scrolling)."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None, f"{where}: {selector} is not shown"
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], \
        f"{where}: {selector} is at {box['y']:.0f}-{box['y'] + box['height']:.0f} px, the screen is {size['height']} px"
    assert box["x"] >= 0 and box["x"] + min(box["width"], 40) <= size["width"], f"{where}: {selector} is off to the side"


@pytest.mark.parametrize("key", ["cepheus", "starwars_d6"])
def test_a_player_sees_whose_turn_and_the_latest_result_on_the_first_screen(transactional_db, context_for, gm, player,
                                                                          key):
    campaign = demo_campaign(key, gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 10 if key == "cepheus" else 40)  # Star Wars D6: on to the firing phase
    hidden_step(encounter, gm)  # a GM-only step at the head: the player's latest result is the one before
    play(encounter, gm, 3)
    page = context_for(player, "player-password-123")
    for name, width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.goto(encounter.get_absolute_url())
        expect(page.locator("#turn #active")).to_be_visible()
        assert_in_view(page, "#turn #active", f"{key} at {name}")
        assert_in_view(page, "#latest .headline", f"{key} at {name}")
        assert_words(page, f"the {key} players' page at {name}")
        page.locator("#latest").screenshot(path=str(ARTIFACTS / f"player-latest-{key}-{name}.png"))
        assert_no_sideways_scroll(page, f"the {key} players' page at {name}")
        screenshot(page, f"player-page-{key}-{name}", full_page=False)
        screenshot(page, f"player-page-{key}-{name}-whole", full_page=True)


def test_the_pages_after_the_fight_read_as_words_at_every_size(transactional_db, context_for, gm, player):
    campaign = demo_campaign("cepheus", gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 40)
    log.finish(encounter, carry_damage=True)
    analysis = EncounterAnalysis.objects.create(encounter=encounter, replays=40, per_roll=4)
    run_analysis(analysis.pk)
    own = Ship.objects.filter(campaign=campaign, crew__player=player).first()
    damaged = Ship.objects.filter(campaign=campaign).exclude(damage={}).first() or own

    wars = demo_campaign("starwars_d6", gm, player)
    hurt = Ship.objects.filter(campaign=wars).first()
    hurt.damage = {"results": ["lightly damaged"], "codes": {"hull": "3D"}}
    hurt.save()
    ships = Ship.objects.filter(campaign=wars).select_related("fleet").prefetch_related("crew")
    run = SimulationRun.objects.create(
        campaign=wars, name="Distance sweep", ruleset="starwars_d6", created_by=gm,
        setup={"ships": [s.setup_spec() for s in ships], "options": {}}, sweep="distance",
        points=[{"label": p.label, "options": p.options} for p in _sweep(wars, "distance").points],
        trials_per_point=12, chunk_size=12)
    run_in_process(run.pk)

    player_page = context_for(player, "player-password-123")
    gm_page = context_for(gm, "gm-password-123")
    pages = [
        (player_page, "replay", f"{encounter.get_absolute_url()}replay/?step=12", "#replay-counter"),
        (player_page, "campaign-page-player", campaign.get_absolute_url(), "h1"),
        (gm_page, "campaign-page-gm", campaign.get_absolute_url(), "h1"),
        (player_page, "ship-page", f"/campaigns/{campaign.pk}/ships/{own.pk}/", "h1"),
        (gm_page, "ship-page-damaged", f"/campaigns/{campaign.pk}/ships/{damaged.pk}/", "h1"),
        (gm_page, "analysis", f"{encounter.get_absolute_url()}analyses/{analysis.pk}/", ".turning-points"),
        (gm_page, "simulation", run.get_absolute_url(), "svg.chart"),
    ]
    for page, what, url, landmark in pages:
        for name, width, height in SIZES:
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url)
            expect(page.locator(landmark).first).to_be_visible()
            assert_words(page, f"the {what} at {name}")
            assert_no_sideways_scroll(page, f"the {what} at {name}")
            screenshot(page, f"{what}-{name}", full_page=True)
    gm_page.goto(run.get_absolute_url())
    expect(gm_page.locator("#damaged-notice")).to_contain_text(hurt.name)


def _sweep(campaign, key):
    from rulesets.core.simulate import sweep_by_key

    return sweep_by_key(campaign.engine, key)


def test_the_players_open_page_shows_the_pause_and_the_resume_without_a_reload(transactional_db, context_for, gm,
                                                                                player):
    """Issue 27: the GM pauses; the player's open page says "paused by the GM" by itself (the
    page polls with its head and status here: no Redis), and the resume takes it away."""
    campaign = demo_campaign("cepheus", gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 2)
    follower = context_for(player, "player-password-123")
    follower.goto(encounter.get_absolute_url())
    expect(follower.locator("#runner")).to_have_attribute("data-status", "active")
    runner = context_for(gm, "gm-password-123")
    runner.goto(encounter.get_absolute_url())
    runner.get_by_role("button", name="Pause").click()
    expect(follower.get_by_text("paused by the GM")).to_be_visible()
    runner.get_by_role("button", name="Resume").click()
    expect(follower.locator("#runner")).to_have_attribute("data-status", "active")
    expect(follower.get_by_text("paused by the GM")).to_have_count(0)
