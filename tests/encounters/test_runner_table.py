"""The GM's runner at the table: refusals in place, multi-step play, undo back, the dice prompt,
and the small controls (keys, End encounter, the setup form's fleets)."""
import re

import pytest
from django.urls import reverse

from encounters import log as encounter_log
from encounters import runner
from encounters.models import Encounter, EncounterEvent
from tests.encounters.conftest import ship_id

pytestmark = pytest.mark.django_db


def _fire(encounter, who="Alpha", at="Bravo"):
    return f"fire actor={ship_id(encounter, who)} target={ship_id(encounter, at)}"


def _post(client, name, encounter, data, *args):
    return client.post(reverse(f"encounters:{name}", args=[encounter.pk, *args]), data, HTTP_HX_REQUEST="true")


def _steps(encounter, n):
    """n steps by the bot (Alpha and Bravo take turns), through the one write path."""
    from encounters.autoplay import auto_play

    for _ in range(n):
        auto_play(encounter, mode="step", expected_seq=encounter_log.head_seq(encounter))


def test_a_refused_action_answers_with_the_whole_runner_and_the_message_where_the_gm_acted(as_gm, encounter):
    response = _post(as_gm, "step", encounter, {"action": _fire(encounter, "Bravo", "Alpha"), "expected_seq": "0"})
    body = response.content.decode()
    assert response.status_code == 400
    assert body.lstrip().startswith('<div id="runner"')  # htmx swaps it in: the page stays whole and styled
    refusal = re.search(r'<p class="error refusal" role="alert" id="refusal">(.*?)</p>', body)
    assert refusal and refusal.group(1)
    # The message sits in the turn panel, above the actions the GM clicked, which are still there.
    assert body.index('id="refusal"') < body.index('<ul class="actions">')
    assert encounter.events.count() == 0


def test_htmx_swaps_400_and_409_answers_and_not_other_errors(as_gm, encounter, settings):
    settings.DEBUG = True  # as ./scripts/run serves it
    page = as_gm.get(encounter.get_absolute_url()).content.decode()
    config = re.search(r'<meta name="htmx-config" content=\'(.*?)\'>', page).group(1)
    assert '{"code": "40[09]", "swap": true, "error": false}' in config
    assert '{"code": "[45]..", "swap": false, "error": true}' in config
    # Not django-htmx's debug helper: in DEBUG it replaces the whole document with a 400 answer.
    assert "django-htmx.js" not in page and "htmx-2.min.js" in page


def test_reroll_is_not_offered_with_physical_dice(as_gm, encounter):
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    encounter_log.step(encounter, _fire(encounter), expected_seq=0, faces=[6, 6, 3])
    page = as_gm.get(encounter.get_absolute_url()).content.decode()
    assert "Alpha fires at Bravo" in page and 'class="small reroll"' not in page
    assert 'value="step"' not in page  # auto-play rolls the app's dice: not offered either
    assert "Auto-play rolls the app's dice: not with physical dice." in page


def test_npc_auto_play_is_offered_only_on_an_npc_step(as_gm, encounter):
    page = as_gm.get(encounter.get_absolute_url()).content.decode()  # Alpha's step: Ann, a player, decides
    assert "Play Alpha's turn" in page
    assert 'value="round"' not in page and 'value="decision"' not in page
    refused = _post(as_gm, "auto", encounter, {"mode": "round", "expected_seq": "0"})
    assert refused.status_code == 400 and "It is a player&#x27;s ship&#x27;s step" in refused.content.decode()
    _steps(encounter, 1)
    page = as_gm.get(encounter.get_absolute_url()).content.decode()  # Bravo's step: an NPC
    assert 'value="round"' in page and "Play to the next player decision" in page


def test_play_to_the_next_player_decision_takes_every_npc_step_in_one_request(as_gm, encounter):
    _steps(encounter, 1)
    response = _post(as_gm, "auto", encounter, {"mode": "decision", "expected_seq": "1"})
    assert response.status_code == 200
    now = encounter_log.current(encounter)
    assert now.head == 2 and encounter.engine.actor_ship(now.state) == ship_id(encounter, "Alpha")
    assert list(encounter.events.values_list("kind", flat=True)) == [EncounterEvent.STEP] * 2


def test_play_this_ships_turn_stops_when_another_ship_acts(as_gm, encounter):
    response = _post(as_gm, "auto", encounter, {"mode": "ship", "expected_seq": "0"})
    assert response.status_code == 200
    now = encounter_log.current(encounter)
    assert now.head == 1 and encounter.engine.actor_ship(now.state) == ship_id(encounter, "Bravo")


def test_an_unknown_auto_play_mode_is_refused_in_words(as_gm, encounter):
    response = _post(as_gm, "auto", encounter, {"mode": "everything", "expected_seq": "0"})
    assert response.status_code == 400 and "&#x27;everything&#x27; is none of them" in response.content.decode()


def test_undo_back_to_a_step_undoes_every_later_step_one_row_each(as_gm, encounter):
    _steps(encounter, 4)
    first = encounter_log.current(encounter).applied[0]
    after_first = encounter_log.state_before(encounter, encounter_log.current(encounter).applied[1].seq)
    response = _post(as_gm, "undo", encounter, {"back_to": str(first.seq), "expected_seq": "4"})
    assert response.status_code == 200
    now = encounter_log.current(encounter)
    assert [a.seq for a in now.applied] == [first.seq] and now.state == after_first
    assert list(encounter.events.filter(seq__gt=4).values_list("kind", flat=True)) == [EncounterEvent.UNDO] * 3


def test_undo_back_to_the_newest_step_has_nothing_to_undo(as_gm, encounter):
    _steps(encounter, 2)
    response = _post(as_gm, "undo", encounter, {"back_to": "2", "expected_seq": "2"})
    assert response.status_code == 409 and "nothing to undo" in response.content.decode()
    assert encounter.events.count() == 2


def test_the_log_offers_undo_back_to_each_earlier_step(as_gm, encounter):
    _steps(encounter, 3)
    page = as_gm.get(encounter.get_absolute_url()).content.decode()
    assert page.count("Undo back to here") == 2  # not on the newest step


def test_physical_dice_are_asked_for_at_once_each_box_naming_its_die(as_gm, encounter):
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    body = _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0"}).content.decode()
    labels = re.findall(r'<label for="die-\d">(.*?)</label>', body)
    assert labels == ["Die 1: <strong>d6</strong> for Alpha fires at Bravo (1 of 2)",
                      "Die 2: <strong>d6</strong> for Alpha fires at Bravo (2 of 2)",
                      "Die 3: <strong>d6</strong> for damage <em>if needed</em>"]
    assert re.search(r'id="die-1" name="face"[^>]*required autofocus', body)  # the first box has the focus
    assert re.search(r'id="die-3" name="face" min="1" max="6" inputmode="numeric" data-sides="6" '
                     r'aria-describedby="die-error-3">', body)  # optional


def test_the_dice_of_a_hit_and_its_damage_are_applied_in_one_go(as_gm, encounter):
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    response = _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0",
                                                 "face": ["6", "6", "4"]})
    assert response.status_code == 200 and encounter.events.count() == 1
    assert encounter.events.get().dice == ["6/d6", "6/d6", "4/d6"]


def test_a_miss_leaves_the_damage_box_empty(as_gm, encounter):
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0", "face": ["1", "1", ""]})
    assert encounter.events.get().dice == ["1/d6", "1/d6"]


def test_a_pending_prompt_and_its_typed_faces_survive_a_reload_and_can_be_cancelled(as_gm, encounter):
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    # A hit with the damage die left empty: the step asks again, keeping what was typed.
    body = _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0",
                                            "face": ["6", "6", ""]}).content.decode()
    assert 'id="die-1" name="face" min="1" max="6" inputmode="numeric" value="6" required' in body
    page = as_gm.get(encounter.get_absolute_url()).content.decode()  # a reload
    assert 'id="dice-entry"' in page and 'value="6"' in page
    assert re.search(r'id="die-3" name="face"[^>]*required autofocus', page)  # the die still wanted
    _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0", "cancel": "1"})
    page = as_gm.get(encounter.get_absolute_url()).content.decode()
    assert 'id="dice-entry"' not in page and '<ul class="actions">' in page
    assert encounter.events.count() == 0


def test_an_empty_box_before_a_filled_one_is_named(as_gm, encounter):
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    response = _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0",
                                                 "face": ["", "6", "3"]})
    assert response.status_code == 400
    assert "Die 1 is empty but a later die is filled" in response.content.decode()


def _die_error(body, number):
    return re.search(rf'<span class="die-error error" id="die-error-{number}"[^>]*>(.*?)</span>', body).group(1)


def test_a_face_out_of_range_is_refused_by_the_app_beside_its_die_not_by_the_browser(as_gm, encounter):
    """Issue 27: no browser bubble (in English, whatever the page's language) pre-empts the app:
    the dice form is novalidate, the boxes stay numeric, and the refusal is said beside the die,
    its words from the page (translated) for the check as it is typed."""
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    body = _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0"}).content.decode()
    form = re.search(r'<form [^>]*id="dice-entry"[^>]*>', body).group(0)
    assert " novalidate" in form
    assert 'data-bad-face="A d{sides} shows 1 to {sides}: {face} is not one of its faces."' in form
    assert 'inputmode="numeric"' in body and _die_error(body, 1) == ""
    response = _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0",
                                                 "face": ["3", "7"]})
    body = response.content.decode()
    assert response.status_code == 400 and encounter.events.count() == 0
    assert _die_error(body, 2) == "Die 2: 7 is not a face of a d6 (1-6)." and _die_error(body, 1) == ""
    assert re.search(r'id="die-2" name="face"[^>]*value="7"[^>]*aria-invalid="true"[^>]*'
                     r'aria-describedby="die-error-2"', body)
    assert 'id="face-error"' not in body  # said once, beside the die


def test_a_face_refused_is_said_in_the_pages_language(as_gm, encounter, monkeypatch):
    """The refusal goes through gettext (encounters.runner.face_refusal), not an English f-string."""
    from django.utils import translation

    catalog = {"Die %(number)s: %(face)s is not a face of a d%(sides)s (1-%(sides)s).":
               "Würfel %(number)s: %(face)s ist keine Seite eines W%(sides)s (1-%(sides)s)."}
    monkeypatch.setattr(runner, "_", lambda text: catalog.get(text, text))
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    with translation.override("de"):
        body = _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0",
                                                "face": ["9", "1"]}).content.decode()
    assert _die_error(body, 1) == "Würfel 1: 9 ist keine Seite eines W6 (1-6)."


def test_actions_past_nine_get_keys():
    actions = runner.action_keys([{} for _ in range(13)])
    assert [a["key"] for a in actions] == list("1234567890abc")
    assert "u" not in runner.KEYS and "n" not in runner.KEYS  # undo and auto-play keep theirs


def test_end_encounter_asks_first_and_says_what_carrying_damage_back_does(as_gm, encounter):
    page = as_gm.get(encounter.get_absolute_url()).content.decode()
    assert 'data-confirm="End this encounter? It cannot be resumed."' in page
    assert '<input type="checkbox" name="carry_damage" id="carry-damage">' in page  # not ticked silently
    assert "each ship in the campaign keeps the damage it has now" in page


def test_a_new_encounter_has_every_fleet_ticked(as_gm, campaign):
    page = as_gm.get(reverse("encounters:new", args=[campaign.pk])).content.decode()
    boxes = re.findall(r'<input type="checkbox" name="fleets"[^>]*>', page)
    assert len(boxes) == 2 and all("checked" in b for b in boxes)


@pytest.fixture
def cepheus(django_user_model):
    from django.core.management import call_command

    from campaigns.models import Campaign, Ship

    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get(ruleset="cepheus")
    gm = django_user_model.objects.get(username="gm")
    ships = [s.setup_spec() for s in Ship.objects.filter(campaign=campaign).select_related("fleet")
             .prefetch_related("crew")]
    encounter = Encounter.objects.create(campaign=campaign, name="Convoy", ruleset="cepheus", seed="override",
                                         setup={"ships": ships, "options": {}}, created_by=gm)
    return encounter, gm


def test_the_gm_override_is_offered_on_each_ship_card_by_field_name_with_the_current_value(client, cepheus):
    encounter, gm = cepheus
    client.force_login(gm)
    ship = encounter.setup["ships"][0]
    page = client.get(encounter.get_absolute_url()).content.decode()
    card = page[page.index(f'id="override-{ship["id"]}"'):]
    assert re.search(r'<option value="hull" data-current="\d+">Hull \(now \d+\)</option>', card)
    assert "s1." not in page and 'placeholder="e.g. s1.hull"' not in page
    response = _post(client, "step", encounter, {"action": "override actor=gm", "expected_seq": "0",
                                                 "override_ship": ship["id"], "override_field": "structure",
                                                 "p.value": "2"})
    assert response.status_code == 200
    body = response.content.decode()
    assert f"GM sets {ship['name']}&#x27;s structure to 2" in body and f"{ship['id']}.structure" not in body


def test_a_refused_override_is_said_on_its_ship_card_with_what_was_typed(client, cepheus):
    encounter, gm = cepheus
    client.force_login(gm)
    ship = encounter.setup["ships"][1]
    response = _post(client, "step", encounter, {"action": "override actor=gm", "expected_seq": "0",
                                                 "override_ship": ship["id"], "override_field": "structure",
                                                 "p.value": "lots"})
    body = response.content.decode()
    assert response.status_code == 400 and 'id="refusal"' not in body
    card = body[body.index(f'id="override-{ship["id"]}" open>'):]
    message = re.search(r'<p class="error refusal" role="alert">(.*?)</p>', card).group(1)
    assert message.startswith(f"{ship['name']}.structure:") and "lots" in message
    assert 'value="lots"' in card[:card.index("</details>")]
    assert encounter.events.count() == 0


@pytest.mark.parametrize("dm", ["two", "1.5", "500"])
def test_a_dm_that_is_not_a_small_whole_number_is_refused_in_words(as_gm, encounter, dm):
    """Issue 15: never "invalid literal for int()"; the message says what a DM is."""
    response = _post(as_gm, "step", encounter, {"action": _fire(encounter), "dm": dm, "expected_seq": "0"})
    body = response.content.decode()
    assert response.status_code == 400
    assert "invalid literal" not in body
    assert "The DM must be a whole number" in body or "A DM between -99 and 99" in body
    assert encounter.events.count() == 0


def test_dice_every_outcome_needs_are_not_marked_if_needed(as_gm, encounter):
    """Issue 27: the damage die depends on the hit (if needed); a die the step asks for whatever
    the first dice show is needed (Star Wars initiative: tests/encounters/test_starwars_runner.py)."""
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    prompt = runner.dice_prompt(encounter, encounter_log.current(encounter).state, _fire(encounter))
    assert [d["maybe"] for d in prompt["dice"]] == [False, False, True]


def test_an_open_dice_prompt_is_kept_with_the_encounter_for_the_gms_other_device(client, gm, encounter):
    """Issue 27: the prompt is not in one session: the same GM on another device (or after
    logging in again) finds it with the faces typed; a step taken there closes it everywhere."""
    from django.test import Client

    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    laptop, phone = Client(), Client()
    laptop.force_login(gm)
    phone.force_login(gm)
    _post(laptop, "step", encounter, {"action": _fire(encounter), "expected_seq": "0", "face": ["6", "6", ""]})
    page = phone.get(encounter.get_absolute_url()).content.decode()
    assert 'id="dice-entry"' in page
    assert re.search(r'id="die-1" name="face"[^>]*value="6"', page) and re.search(r'id="die-2" name="face"[^>]*value="6"', page)
    assert re.search(r'id="die-3" name="face"[^>]*required autofocus', page)
    _post(phone, "step", encounter, {"action": _fire(encounter), "expected_seq": "0", "face": ["6", "6", "4"]})
    assert encounter.events.count() == 1
    assert 'id="dice-entry"' not in laptop.get(encounter.get_absolute_url()).content.decode()
    encounter.refresh_from_db()
    assert encounter.dice_prompt is None


def test_players_never_see_the_gms_open_dice_prompt(as_gm, client, player, encounter):
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    _post(as_gm, "step", encounter, {"action": _fire(encounter), "expected_seq": "0", "face": ["6", "6", ""]})
    client.force_login(player)
    page = client.get(encounter.get_absolute_url()).content.decode()
    assert 'id="dice-entry"' not in page and 'name="face"' not in page
