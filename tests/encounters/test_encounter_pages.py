"""The encounter pages with the three personas, and the GM's step-by-step controls."""
import pytest
from django.urls import reverse

from campaigns.models import Ship
from encounters.models import Encounter
from tests.encounters.conftest import ship_id

pytestmark = pytest.mark.django_db


def _fire(encounter):
    return f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"


def test_the_gm_starts_an_encounter_from_fleets_on_two_sides(as_gm, campaign):
    fleets = [f.pk for f in campaign.fleets.all()]
    response = as_gm.post(reverse("encounters:new", args=[campaign.pk]), {
        "name": "Ambush", "fleets": fleets, "dice_mode": "auto", "opt-max_rounds": "12"})
    encounter = Encounter.objects.get(name="Ambush")
    assert response["Location"] == encounter.get_absolute_url()
    assert {s["name"] for s in encounter.setup["ships"]} == {"Alpha", "Bravo"}
    assert encounter.setup["options"] == {"max_rounds": 12}


def test_one_side_only_is_refused_by_the_fleets_field(as_gm, campaign):
    response = as_gm.post(reverse("encounters:new", args=[campaign.pk]), {
        "name": "Solo", "fleets": [campaign.fleets.first().pk], "dice_mode": "auto", "opt-max_rounds": "12"})
    assert response.status_code == 400
    assert response.context["form"].errors["fleets"] == ["Pick fleets from at least two sides."]


def test_the_gm_sees_actions_with_odds_and_applies_one_with_htmx(as_gm, encounter):
    page = as_gm.get(encounter.get_absolute_url()).content.decode()
    assert "to hit" in page
    response = as_gm.post(reverse("encounters:step", args=[encounter.pk]),
                          {"action": _fire(encounter), "expected_seq": "0"}, HTTP_HX_REQUEST="true")
    body = response.content.decode()
    assert response.status_code == 200 and body.lstrip().startswith('<div id="runner"')
    assert "Alpha fires at Bravo" in body and encounter.events.count() == 1


def test_a_stale_step_gets_a_clear_answer_and_changes_nothing(as_gm, encounter):
    as_gm.post(reverse("encounters:step", args=[encounter.pk]), {"action": _fire(encounter), "expected_seq": "0"})
    response = as_gm.post(reverse("encounters:step", args=[encounter.pk]),
                          {"action": _fire(encounter), "expected_seq": "0"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "The encounter moved on" in response.content.decode()
    assert encounter.events.count() == 1


def test_manual_dice_ask_for_the_faces_and_refuse_one_out_of_range(as_gm, encounter):
    encounter.dice_mode = "manual"
    encounter.save()
    url = reverse("encounters:step", args=[encounter.pk])
    response = as_gm.post(url, {"action": _fire(encounter), "expected_seq": "0"}, HTTP_HX_REQUEST="true")
    assert "Die 1: <strong>d6</strong> for Alpha fires at Bravo (1 of 2)" in response.content.decode()
    response = as_gm.post(url, {"action": _fire(encounter), "expected_seq": "0", "face": ["9", "1"]},
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    body = response.content.decode()
    assert "Die 1: 9 is not a face of a d6 (1-6)." in body
    assert 'value="9" required autofocus aria-invalid="true"' in body  # kept, and focused where it is wrong
    assert encounter.events.count() == 0


def test_players_follow_but_never_reach_the_gm_controls(as_player, encounter):
    page = as_player.get(encounter.get_absolute_url())
    assert page.status_code == 200 and "Following the fight" in page.content.decode()
    for name, args in [("step", []), ("undo", []), ("status", []), ("reroll", [1]), ("reveal", [1])]:
        response = as_player.post(reverse(f"encounters:{name}", args=[encounter.pk, *args]),
                                  {"action": _fire(encounter), "expected_seq": "0", "status": "finished"})
        assert response.status_code == 403, name
    assert encounter.events.count() == 0
    encounter.refresh_from_db()
    assert encounter.status == "active"


def test_a_player_never_sees_a_gm_only_step_or_the_enemys_secrets(as_gm, client, player, encounter):
    as_gm.post(reverse("encounters:step", args=[encounter.pk]),
               {"action": _fire(encounter), "expected_seq": "0", "gm_only": "on"})
    client.force_login(player)
    page = client.get(encounter.get_absolute_url()).content.decode()
    assert "Alpha fires at Bravo" not in page
    assert "gunnery" in page  # own ship in full...
    assert page.count("gunnery") == 1  # ...the enemy's gunnery never


def test_an_outsider_gets_404_on_every_encounter_url(as_outsider, encounter):
    urls = [("get", reverse("encounters:detail", args=[encounter.pk])),
            ("get", reverse("encounters:poll", args=[encounter.pk])),
            ("post", reverse("encounters:step", args=[encounter.pk])),
            ("post", reverse("encounters:undo", args=[encounter.pk])),
            ("post", reverse("encounters:status", args=[encounter.pk]))]
    for method, url in urls:
        assert getattr(as_outsider, method)(url).status_code == 404, url


def test_ending_the_encounter_carries_damage_back_to_the_ships(as_gm, encounter):
    encounter.dice_mode = "manual"
    encounter.save()
    as_gm.post(reverse("encounters:step", args=[encounter.pk]),
               {"action": _fire(encounter), "expected_seq": "0", "face": ["6", "6", "5"]})
    as_gm.post(reverse("encounters:status", args=[encounter.pk]), {"status": "finished", "carry_damage": "on"})
    encounter.refresh_from_db()
    assert encounter.status == "finished" and encounter.damage_carried
    assert Ship.objects.get(name="Bravo").damage == {"hull_lost": 5}
    assert Ship.objects.get(name="Alpha").damage == {}


def test_polling_answers_204_until_something_changed(as_player, encounter):
    url = reverse("encounters:poll", args=[encounter.pk])
    assert as_player.get(url + "?seen=0", HTTP_HX_REQUEST="true").status_code == 204
    assert as_player.get(url).json() == {"head": 0, "status": "active"}


def test_mixed_dice_take_typed_faces_first_and_roll_the_rest(as_gm, encounter):
    encounter.dice_mode = "mixed"
    encounter.save()
    page = as_gm.get(encounter.get_absolute_url()).content.decode()
    assert 'name="faces"' in page
    as_gm.post(reverse("encounters:step", args=[encounter.pk]),
               {"action": _fire(encounter), "expected_seq": "0", "faces": "6 6"})
    row = encounter.events.get()
    assert row.dice[:2] == ["6/d6", "6/d6"] and len(row.dice) == 3  # the damage die came from the app


def test_a_player_is_not_told_which_enemy_crew_member_is_acting(client, campaign, gm, player):
    """The GM's header names the acting crew member; a player's shows only what the view allows."""
    from campaigns.models import Campaign, Membership
    from rulesets.core import registry

    engine = registry.get("cepheus")
    cep = Campaign.create_for(gm, name="Cepheus", ruleset="cepheus")
    Membership.objects.create(campaign=cep, user=player, role=Membership.PLAYER)
    spec = engine.example_setup(0)
    enemy_crew = [c["name"] for s in spec["ships"][2:] for c in s["crew"]]
    encounter = Encounter.objects.create(campaign=cep, name="Fog", ruleset="cepheus", setup=spec, created_by=gm)
    client.force_login(player)
    page = client.get(encounter.get_absolute_url()).content.decode()
    for name in enemy_crew:
        assert name not in page


def test_the_runner_shows_the_latest_steps_and_the_whole_log_on_request(as_gm, encounter, settings):
    from encounters import log, views

    for seq in range(views.LOG_LIMIT + 2):
        state = log.current(encounter).state
        log.step(encounter, f"brace actor={encounter.engine.actor_ship(state)}", expected_seq=seq)
    page = as_gm.get(encounter.get_absolute_url())
    assert len(page.context["steps"]) == views.LOG_LIMIT and page.context["hidden_steps"] == 2
    assert "Show the whole log (2 earlier steps)" in page.content.decode()
    assert len(as_gm.get(encounter.get_absolute_url() + "?log=all").context["steps"]) == views.LOG_LIMIT + 2
