"""Issue 27, "the same panel is what a player sees for their own position once players act":
the demo player (seed_demo links them to the first crew member of the Cepheus demo's first fleet
and gives them that ship's command, so every post of that ship nobody else plays is theirs)
plays their ship's turn from a phone-sized page on the ship's-turn panel, rolling their own
dice: every die of their turn asked at once, each face typed once.  Meanwhile the GM's page
offers no panel for the player's seats (it waits for them) and plays the other ships' turns on
its own panel.  (Cepheus, Il turno: the crew act by position; each one minor and one
significant action.)
"""
import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign
from encounters.models import Encounter, EncounterEvent
from tests.e2e.conftest import head, open_setup_with_every_fleet, screenshot
from tests.e2e.test_cepheus_ship_turn import _type_the_dice
from tests.e2e.test_players_take_steps import _phone

pytestmark = [pytest.mark.e2e]
SEED = "e2e-player-turn"


def test_a_player_plays_their_ships_turn_from_a_phone_with_their_own_dice(live_server, browser, django_user_model):
    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get(ruleset="cepheus")
    gm_user = django_user_model.objects.get(username="gm")
    player_user = django_user_model.objects.get(username="player")
    gm_context, gm = _phone(browser, live_server.url, gm_user, "demo-gm-password")
    gm.set_viewport_size({"width": 1280, "height": 800})
    open_setup_with_every_fleet(gm, campaign, players_act=True)
    gm.select_option("select[name=dice_mode]", "auto")
    gm.click("button:has-text('Start the encounter')")
    expect(gm.locator("#runner h1")).to_be_visible()
    encounter = Encounter.objects.get(pk=int(gm.url.rstrip("/").rsplit("/", 1)[1]))
    Encounter.objects.filter(pk=encounter.pk).update(seed=SEED)
    gm.reload()
    context, phone = _phone(browser, live_server.url, player_user, "demo-player-password")
    try:
        phone.goto(encounter.get_absolute_url())
        played = None
        for _ in range(60):
            now = head(gm)
            expect(phone.locator("#runner")).to_have_attribute("data-head", str(now), timeout=15_000)
            if phone.locator("#play-turn").count():
                # The player's own seats on their phone; the GM's page waits for them, without a panel.
                gm.reload()
                expect(gm.locator("#waiting")).to_contain_text("player")
                expect(gm.locator("#ship-turn")).to_have_count(0)
                if phone.locator("#play-turn select").count() < 2:
                    # their ship's reaction to an attack (one seat): one tap, the app rolling
                    screenshot(phone, "cepheus-player-reaction-390x844", full_page=False)
                    phone.locator("#play-turn-app").click()
                    expect(phone.locator("#runner")).not_to_have_attribute("data-head", str(now))
                    gm.reload()
                    continue
                screenshot(phone, "cepheus-player-turn-panel-390x844", full_page=False)
                phone.locator("#play-turn-own").click()
                prompt = phone.locator("#dice-entry")
                expect(prompt).to_be_visible()
                assert head(gm) == now  # nothing applied before the dice are in
                # a face out of range: said beside its box in the app's words, nothing sent
                first = prompt.locator("input[name=face]").first
                first.fill("9")
                expect(prompt.locator(".die-error").first).to_contain_text("is not one of its faces")
                first.fill("")
                screenshot(phone, "cepheus-player-turn-dice-390x844", full_page=False)
                typed = _type_the_dice(phone, prompt)
                phone.locator("#play-apply").click()
                expect(phone.locator("#runner")).not_to_have_attribute("data-head", str(now))
                played = (now, typed)
                break
            if phone.locator("#play-actions").count():  # the player's initiative: one step, the app rolling
                phone.locator("#play-actions button[value=app]").first.click()
                expect(phone.locator("#runner")).not_to_have_attribute("data-head", str(now))
                gm.reload()
                continue
            gm.evaluate("document.querySelector('#runner').setAttribute('data-old', '1')")
            if gm.locator("#ship-turn").count():
                gm.click("#ship-turn-play")
            elif gm.locator("#waiting").count():
                gm.reload()  # the player's step: their page has it
                continue
            else:
                gm.locator("#actions .actions button").first.click()
            expect(gm.locator("#runner:not([data-old])")).to_have_count(1)
        assert played, "the player's ship's turn never came"
        start, typed = played
        rows = list(EncounterEvent.objects.filter(encounter=encounter, seq__gt=start, kind="step").order_by("seq"))
        theirs = [r for r in rows if r.created_by_id == player_user.pk]
        assert theirs, "the player's steps, in the log as theirs"
        # every face typed once: the player's steps read exactly the faces typed (the other ship's
        # half of an opposed check is the app's roll, not theirs to type)
        own = [f for r in theirs for roll in r.rolls if not roll["purpose"].endswith(" opposes") for f in roll["faces"]]
        assert len(own) == typed
        screenshot(phone, "cepheus-player-turn-after-390x844", full_page=False)
    finally:
        context.close()
        gm_context.close()
