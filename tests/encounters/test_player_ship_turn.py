"""Players act (issue 22) on the ship's-turn panel (issue 27): a player linked to a Cepheus
character takes their own seats of their ship's turn from their page, with the app's dice or
their own (every die of their part of the turn asked at once); the GM's panel covers the other
seats; a player never submits another seat.  (Cepheus, Il turno: the crew act by position.)

The demo campaign (seed_demo): the demo player plays the first crew member of the first fleet
and commands that ship, so every position of that ship nobody else plays is theirs.
"""
import html
import re

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from campaigns.models import Campaign
from encounters import log as encounter_log
from encounters.autoplay import auto_play
from encounters.models import Encounter, EncounterEvent
from encounters.turn import plan_of, seat_owner

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(django_user_model):
    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get(ruleset="cepheus")
    gm = django_user_model.objects.get(username="gm")
    player = django_user_model.objects.get(username="player")
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    encounter = Encounter.objects.create(campaign=campaign, name="Players' turn", ruleset="cepheus", seed="players-turn",
                                         setup={"ships": ships, "options": {}}, created_by=gm, players_act=True)
    return encounter, gm, player


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def _to_a_players_turn(encounter, player):
    """The bot plays until a crew seat of the player's acts (the initiative, the others' turns;
    players acting off meanwhile, so the bot takes the player's initiative too)."""
    for _ in range(200):
        now = encounter_log.current(encounter)
        plan = plan_of(encounter, now)
        if plan and seat_owner(encounter, now)(plan[0]) == player.pk:
            Encounter.objects.filter(pk=encounter.pk).update(players_act=True)
            encounter.players_act = True
            return now, plan
        encounter.players_act = False
        auto_play(encounter, mode="step", expected_seq=now.head)
    pytest.fail("no seat of the player's acted")


def _form(page: str, form_id: str) -> dict:
    at = page.index(f'id="{form_id}"')
    form = page[at:page.index("</form>", at)]
    data = {"expected_seq": re.search(r'name="expected_seq" value="(\d+)"', form).group(1),
            "ship": re.search(r'name="ship" value="([^"]+)"', form).group(1),
            "seat": re.findall(r'name="seat" value="([^"]+)"', form)}
    for actor in data["seat"]:
        select = re.search(rf'name="choice\.{re.escape(actor)}">(.*?)</select>', form, re.S).group(1)
        data[f"choice.{actor}"] = html.unescape(re.search(r'<option value="([^"]+)" selected', select).group(1))
    return data


def test_the_player_takes_their_own_seats_from_their_page_and_the_gm_panel_waits(demo):
    encounter, gm, player = demo
    now, plan = _to_a_players_turn(encounter, player)
    owner = seat_owner(encounter, now)
    page = _client(player).get(encounter.get_absolute_url()).content.decode()
    assert 'id="play-turn"' in page
    data = _form(page, "play-turn")
    # only their own seats, every one of them theirs
    assert data["seat"] and all(owner(s) == player.pk for s in plan if s.actor in data["seat"])
    assert set(data["seat"]) == {s.actor for s in plan if owner(s) == player.pk}
    # the GM's panel does not offer the player's seat that acts now
    gm_page = _client(gm).get(encounter.get_absolute_url()).content.decode()
    assert 'id="ship-turn"' not in gm_page
    start = now.head
    response = _client(player).post(reverse("encounters:play_turn", args=[encounter.pk]), {**data, "roll": "app"},
                                    HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    rows = list(EncounterEvent.objects.filter(encounter=encounter, seq__gt=start).order_by("seq"))
    assert rows and all(r.created_by_id == player.pk for r in rows)
    assert rows[0].action == data[f"choice.{data['seat'][0]}"]


def test_a_player_never_submits_another_seat(demo, django_user_model):
    encounter, gm, player = demo
    now, plan = _to_a_players_turn(encounter, player)
    page = _client(player).get(encounter.get_absolute_url()).content.decode()
    data = _form(page, "play-turn")
    # a seat of another ship's crew, or of this ship's that is not theirs: refused, nothing applied
    other = next(c["id"] for s in encounter.setup["ships"] if s["id"] != data["ship"] for c in s.get("crew", []))
    forged = {**data, "seat": data["seat"] + [other], f"choice.{other}": f"done actor={other}", "roll": "app"}
    response = _client(player).post(reverse("encounters:play_turn", args=[encounter.pk]), forged, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert encounter_log.head_seq(encounter) == now.head
    # the GM's turn endpoint is the GM's
    response = _client(player).post(reverse("encounters:turn", args=[encounter.pk]), {**data}, HTTP_HX_REQUEST="true")
    assert response.status_code in (403, 404)
    assert encounter_log.head_seq(encounter) == now.head


def test_a_player_rolling_their_own_dice_types_every_die_of_their_turn_at_once(demo):
    encounter, gm, player = demo
    now, plan = _to_a_players_turn(encounter, player)
    client = _client(player)
    page = client.get(encounter.get_absolute_url()).content.decode()
    data = _form(page, "play-turn")
    url = reverse("encounters:play_turn", args=[encounter.pk])
    page = client.post(url, {**data, "roll": "own"}, HTTP_HX_REQUEST="true").content.decode()
    start = now.head
    typed = {}
    for _ in range(20):
        if 'id="dice-entry"' not in page:
            break
        assert encounter_log.head_seq(encounter) == start  # nothing applied before the faces are in
        at = page.index('id="dice-entry"')
        form = page[at:page.index("</form>", at)]
        boxes = re.findall(r'name="die" value="([^"]*)"><input type="number" id="die-\d+" name="face" data-key="[^"]*" '
                           r'min="1" max="(\d+)"([^>]*)>', form)
        assert boxes
        # the other ship's half of an opposed check is the app's roll, not the player's to type
        assert not any(html.unescape(k).split("|")[1].endswith(" opposes") for k, _, _ in boxes)
        for key, sides, rest in boxes:
            if " required" in rest:
                typed.setdefault(html.unescape(key), min(3, int(sides)))
        keys = [html.unescape(k) for k, _, _ in boxes]
        page = client.post(url, {**data, "roll": "own", "die": keys,
                                 "face": [str(typed.get(k, "")) for k in keys]}, HTTP_HX_REQUEST="true").content.decode()
    else:
        pytest.fail("the prompt kept asking")
    rows = list(EncounterEvent.objects.filter(encounter=encounter, seq__gt=start).order_by("seq"))
    assert rows and all(r.created_by_id == player.pk for r in rows)
    faces = [f for r in rows for roll in r.rolls if not roll["purpose"].endswith(" opposes") for f in roll["faces"]]
    assert faces and all(f <= 3 for f in faces)  # their own faces, typed once
    assert len(faces) <= len(typed)
    # the navigator's range check was opposed: the other ship's dice rolled by the app
    assert any(roll["purpose"].endswith(" opposes") for r in rows for roll in r.rolls)


def test_while_the_gm_confirms_each_step_the_player_takes_them_one_at_a_time(demo):
    """One step waits for the GM's tap at a time: no panel then, and a posted turn is refused."""
    encounter, gm, player = demo
    now, plan = _to_a_players_turn(encounter, player)
    data = _form(_client(player).get(encounter.get_absolute_url()).content.decode(), "play-turn")
    Encounter.objects.filter(pk=encounter.pk).update(gm_confirms=True)
    page = _client(player).get(encounter.get_absolute_url()).content.decode()
    assert 'id="play-turn"' not in page and 'id="your-turn"' in page
    response = _client(player).post(reverse("encounters:play_turn", args=[encounter.pk]), {**data, "roll": "app"},
                                    HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "one at a time" in response.content.decode()
    assert encounter_log.head_seq(encounter) == now.head
