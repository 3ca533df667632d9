"""Players take their own characters' steps from their phones (issue 22), in the browser.

Each system's demo campaign: the GM and two players, each in their own browser context at a
phone's size.  The demo player plays the first character of the first fleet and its ship
(linked by seed_demo: Blue 1's pilot in Wing Commander); a second player joins and the GM
links them on the campaign page to the next ship of that fleet (Blue 2 in Wing Commander, the
Steadfast in Cepheus, a Dropfleet ship), or where the fleet has one ship, to its next crew
member (the Kestrel's pilot in Void d20).  The GM starts the encounter with
players acting on and plays the Kilrathi with auto-play, which stops at each player's step
("waiting for <player> (<character>)"); the players tap their steps on their own pages: one
rolls physical dice and first types a face out of range (refused beside the die, nothing else
lost).  The GM then turns on "I confirm players' steps", confirms a player's step with one
tap, and undoes a player's step.
"""
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from campaigns.models import Campaign, Membership
from encounters.models import Encounter
from tests.e2e.conftest import head, screenshot

pytestmark = [pytest.mark.e2e]

PHONE = {"width": 390, "height": 844}


def _phone(browser, base_url, user, password):
    context = browser.new_context(base_url=base_url, viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    user.set_password(password)  # the live server runs in this process, with its hashers
    user.save(update_fields=["password"])
    page.goto("/accounts/login/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", password)
    page.click("button[type=submit]")
    page.wait_for_url("**/campaigns/")
    return context, page


def _waiting_for(gm) -> str:
    """The player the GM's page waits for ("" when none)."""
    waiting = gm.locator("#waiting strong")
    return waiting.first.inner_text() if waiting.count() else ""


def _gm_auto_step(gm):
    before = head(gm)
    gm.locator("#auto-step-button").click()
    expect(gm.locator("#runner")).not_to_have_attribute("data-head", str(before))


def _second_character(campaign):
    """("ship" or "crew", the row) the second player plays: the first fleet's next ship, else
    the first ship's next crew member."""
    fleet = campaign.fleets.order_by("pk").first()
    ships = list(fleet.ships.order_by("pk"))
    first = next(s for s in ships if s.player_id)
    others = [s for s in ships if s.pk != first.pk]
    if others:
        return "ship", others[0]
    return "crew", first.crew.filter(player__isnull=True).order_by("pk").first()


@pytest.mark.parametrize("ruleset", ["wing_commander", "cepheus", "starwars_d6", "dropfleet", "void_d20"])
def test_two_players_take_their_steps_from_their_phones(browser, live_server, django_user_model, ruleset):
    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get(ruleset=ruleset)
    gm_user = django_user_model.objects.get(username="gm")
    p1_user = django_user_model.objects.get(username="player")
    p2_user = django_user_model.objects.create_user("wingmate", "w@example.com", "x")
    Membership.objects.create(campaign=campaign, user=p2_user, role=Membership.PLAYER)
    contexts = []
    try:
        gm_ctx, gm = _phone(browser, live_server.url, gm_user, "demo-gm-password")
        contexts.append(gm_ctx)
        # The GM links the new player to their character on the campaign page.
        kind, character = _second_character(campaign)
        gm.goto(campaign.get_absolute_url() + "#links")
        row = gm.locator(f"#link-{kind}-{character.pk}")
        row.locator("select").select_option(label="wingmate")
        row.locator("button:has-text('Link')").click()
        expect(gm.locator(f"#link-{kind}-{character.pk} select")).to_have_value(str(p2_user.pk))
        screenshot(gm, f"players-links-gm-{ruleset}")

        gm.click("text=Start an encounter")
        expect(gm.locator("input[name=players_act]")).to_be_checked()  # on by default
        gm.select_option("select[name=dice_mode]", "auto")
        gm.click("button:has-text('Start the encounter')")
        expect(gm.locator("#runner h1")).to_be_visible()
        encounter = Encounter.objects.get(pk=int(gm.url.rstrip("/").rsplit("/", 1)[1]))
        Encounter.objects.filter(pk=encounter.pk).update(seed="e2e-players")
        gm.reload()

        pages = {}
        for user, password in ((p1_user, "demo-player-password"), (p2_user, "x")):
            ctx, page = _phone(browser, live_server.url, user, password)
            contexts.append(ctx)
            page.goto(encounter.get_absolute_url())
            pages[user.username] = page

        physical_done = confirmed = undone = False
        taken = {"player": 0, "wingmate": 0}
        for _ in range(150):
            who = _waiting_for(gm)
            if not who:
                if physical_done and confirmed and undone and all(taken.values()):
                    break
                _gm_auto_step(gm)
                continue
            page = pages[who]
            panel = page.locator("#your-turn")
            expect(panel).to_be_visible(timeout=15_000)  # the page polls; a loaded machine is slow
            expect(panel).to_contain_text("Your turn:")
            assert re.search(r"Your turn", page.title())  # the tab title says so
            before = head(gm)
            # The player's page follows the table within a second (polling here: no Redis); a form
            # from an older step would get "the encounter has moved on" (tests/encounters).
            expect(page.locator("#runner")).to_have_attribute("data-head", str(before), timeout=15_000)
            form = panel.locator(".play-actions form").first
            if who == "player" and not physical_done and form.locator("button[value=own]").count():
                form.locator("button[value=own]").click()
                dice = page.locator("#player-dice")
                # The dice to type, or (a step that rolls nothing yet, a declared shot) applied at once.
                page.wait_for_function(f"() => document.getElementById('player-dice') || "
                                       f"document.getElementById('runner').dataset.head !== '{before}'")
                boxes = dice.locator("input[name=face]")
                if boxes.count():
                    sides = int(boxes.first.get_attribute("max"))
                    boxes.first.fill(str(sides + 5))
                    expect(dice.locator(".die-error").first).to_contain_text("is not one of its faces")
                    page.locator("#play-apply").click()  # the browser keeps it: nothing is sent
                    assert head(gm) == before
                    screenshot(page, f"players-face-out-of-range-{ruleset}")
                    boxes.first.fill(str(max(1, sides // 2)))
                    physical_done = True
                for attempt in range(6 if dice.count() else 0):  # more dice may be asked once the first are known
                    boxes = page.locator("#player-dice input[name=face]")
                    for i in range(boxes.count()):
                        box = boxes.nth(i)
                        if not box.input_value() and (attempt or box.get_attribute("required") is not None):
                            # Faces that differ (2, 3, 4, 5...): equal rolls on both sides would tie again.
                            box.fill(str(2 + i % max(1, int(box.get_attribute("max")) - 2)))
                    page.evaluate("document.getElementById('player-dice').dataset.sent = '1'")
                    page.locator("#play-apply").click()
                    page.wait_for_function("() => !document.querySelector('#player-dice[data-sent]')")
                    if not page.locator("#player-dice").count():
                        break
            elif taken["player"] and taken["wingmate"] and not confirmed:
                # The GM confirms players' steps now: the choice waits for one tap.
                gm.locator("#players-setting input[name=gm_confirms]").check()
                gm.locator("#players-setting button").click()
                expect(gm.locator("#players-setting input[name=gm_confirms]")).to_be_checked()
                page.locator("#your-turn .play-actions form").first.locator("button[value=app]").click()
                expect(page.locator("#proposal-waiting")).to_contain_text("Waiting for the GM to confirm")
                expect(gm.locator("#proposal")).to_contain_text(who)
                screenshot(gm, f"players-confirm-gm-{ruleset}")
                gm.locator("#proposal-confirm").click()
                expect(gm.locator("#proposal")).to_have_count(0)
                confirmed = True
                gm.locator("#players-setting input[name=gm_confirms]").uncheck()
                gm.locator("#players-setting button").click()
            else:
                form.locator("button[value=app]").click()
            # The step is applied (once): the GM's page follows, and waits for nobody or the next player.
            expect(page.locator("#runner")).not_to_have_attribute("data-head", str(before))
            gm.reload()
            assert head(gm) > before or undone
            taken[who] += 1
            if confirmed and not undone:
                # The GM undoes a player's step (the confirmed one).
                after = head(gm)
                gm.locator("#undo-button").click()
                expect(gm.locator("#runner")).not_to_have_attribute("data-head", str(after))
                undone = True
        assert physical_done and confirmed and undone and all(taken.values()), (physical_done, confirmed, undone, taken)
        screenshot(pages["player"], f"players-phone-{ruleset}")
        rows = list(Encounter.objects.get(pk=encounter.pk).events.values_list("kind", "created_by__username"))
        assert ("step", "player") in rows and ("step", "wingmate") in rows and ("undo", "gm") in rows
    except Exception:
        for i, c in enumerate(contexts):
            for pg in c.pages:
                screenshot(pg, f"players-failed-{ruleset}-{i}", full_page=False)
                print(i, pg.url, (pg.locator("#your-turn").inner_text() if pg.locator("#your-turn").count() else
                                  pg.locator("#actions").inner_text() if pg.locator("#actions").count() else "")[:800])
        raise
    finally:
        for c in contexts:
            c.close()
