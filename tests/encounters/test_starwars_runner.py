"""The Star Wars D6 ruleset on the generic runner: the board partial, click-to-move courses,
who sees what, bad setup input, and a simulation with the range sweep in hexes."""
import random

import pytest
from django.core.management import call_command
from django.urls import reverse

from campaigns.models import Campaign, Membership
from encounters import log as encounter_log
from encounters import tasks
from encounters.models import Encounter, SimulationRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def sw(django_user_model):
    call_command("seed_demo", verbosity=0)
    campaign = Campaign.objects.get(ruleset="starwars_d6")
    gm = django_user_model.objects.get(username="gm")
    player = django_user_model.objects.get(username="player")
    return campaign, gm, player


def _start(client, campaign, **options):
    data = {"name": "Skirmish", "fleets": [f.pk for f in campaign.fleets.all()], "dice_mode": Encounter.AUTO,
            "opt-width": 30, "opt-height": 20, "opt-separation": 9, "opt-wild": "on", "opt-complication": "remove",
            "opt-max_rounds": 20, "opt-features": "", "opt-placements": ""}
    data.update({f"opt-{k}": v for k, v in options.items()})
    return client.post(reverse("encounters:new", args=[campaign.pk]), data)


def test_the_gm_starts_a_fight_on_the_board_and_flies_a_ship_by_clicking_a_hex(client, sw):
    campaign, gm, _ = sw
    client.force_login(gm)
    response = _start(client, campaign, features="planet 3,3 Yavin")
    assert response.status_code == 302
    encounter = Encounter.objects.get(name="Skirmish")
    assert encounter.setup["options"]["features"] == [{"kind": "planet", "col": 3, "row": 3, "name": "Yavin"}]
    encounter_log.step(encounter, "initiative actor=" + encounter.engine.actor_ship(encounter_log.current(encounter).state),
                       expected_seq=0, user=gm)
    page = client.get(encounter.get_absolute_url()).content.decode()
    assert 'id="hex-board"' in page and "feature-planet" in page
    assert page.count('class="target"') > 3, "the reachable hexes are lit"
    assert "move to" not in page.split('id="actions"')[1].split("</section>")[0], "courses are not listed as buttons"

    state = encounter_log.current(encounter).state
    mover = state.ship(state.moving.ship)
    course = next(a for a in encounter.engine.legal_actions(state) if a.kind == "course")
    response = client.post(reverse("encounters:step", args=[encounter.pk]),
                           {"action": course.to_str(), "expected_seq": 1}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    moved = encounter_log.current(encounter).state.ship(mover.id)
    assert (moved.col, moved.row) == (course.get("col"), course.get("row"))
    # A second tab still showing the old board is told the encounter moved on.
    stale = client.post(reverse("encounters:step", args=[encounter.pk]),
                        {"action": course.to_str(), "expected_seq": 1}, HTTP_HX_REQUEST="true")
    assert stale.status_code == 409


def test_players_see_the_board_but_no_controls_and_no_enemy_crew(client, sw):
    campaign, gm, player = sw
    client.force_login(gm)
    _start(client, campaign)
    encounter = Encounter.objects.get(name="Skirmish")
    encounter_log.step(encounter, encounter.engine.legal_actions(encounter_log.current(encounter).state)[0].to_str(),
                       expected_seq=0, user=gm)
    assert campaign.memberships.filter(user=player, role=Membership.PLAYER).exists()
    client.force_login(player)
    page = client.get(encounter.get_absolute_url()).content.decode()
    assert 'id="hex-board"' in page and 'class="target"' not in page
    state = encounter_log.current(encounter).state
    for ship in state.ships:
        assert f"gunnery {ship.crew.gunnery} · piloting" not in page or ship.name == "Talon"
    course = next(a for a in encounter.engine.legal_actions(state) if a.kind == "course")
    forbidden = client.post(reverse("encounters:step", args=[encounter.pk]),
                            {"action": course.to_str(), "expected_seq": 1})
    assert forbidden.status_code == 403


def test_bad_setup_input_is_reported_where_it_was_typed_and_keeps_what_was_typed(client, sw):
    campaign, gm, _ = sw
    client.force_login(gm)
    response = _start(client, campaign, features="planet 3,3\nsun 4,4", placements="Nobody: 2,2")
    assert response.status_code == 400
    page = response.content.decode()
    assert "Line 2: &#x27;sun 4,4&#x27; is not" in page
    assert "planet 3,3" in page, "what was typed is kept"
    response = _start(client, campaign, placements="Nobody: 2,2 N")
    assert response.status_code == 400
    assert "Ship positions name no ship in these fleets: Nobody." in response.content.decode()
    assert not Encounter.objects.exists()


def test_a_simulation_sweeps_the_starting_distance_in_hexes(client, sw):
    campaign, gm, _ = sw
    client.force_login(gm)
    data = {"name": "Ranges", "fleets": [f.pk for f in campaign.fleets.all()], "sweep": "distance",
            "trials_per_point": 8, "chunk_size": 10, "seed": "r1",
            "opt-width": 30, "opt-height": 20, "opt-separation": 9, "opt-wild": "on", "opt-complication": "remove",
            "opt-max_rounds": 12, "opt-features": "", "opt-placements": ""}
    response = client.post(reverse("encounters:simulation_new", args=[campaign.pk]), data)
    assert response.status_code == 302
    run = SimulationRun.objects.get(name="Ranges")
    tasks.run_in_process(run.pk)
    run.refresh_from_db()
    assert run.status == SimulationRun.DONE
    assert [r["label"] for r in run.results] == [f"{d} hexes apart" for d in (2, 4, 6, 8, 10, 12, 15)]
    assert all(r["trials"] == 8 and r["wins"] + r["losses"] + r["draws"] == 8 for r in run.results)


def test_the_gm_override_form_sets_a_value_and_there_is_no_dm_box(client, sw):
    campaign, gm, _ = sw
    client.force_login(gm)
    _start(client, campaign)
    encounter = Encounter.objects.get(name="Skirmish")
    page = client.get(encounter.get_absolute_url()).content.decode()
    assert "GM override" in page and "Talon.hull" in page, "the override form explains its paths"
    assert 'name="dm"' not in page, "the text has no circumstance modifiers: no DM box"
    response = client.post(reverse("encounters:step", args=[encounter.pk]),
                           {"action": "override", "p.path": "Talon.hull", "p.value": "3X", "expected_seq": 0},
                           HTTP_HX_REQUEST="true")
    assert response.status_code == 400 and "3X&#x27; is not a dice code" in response.content.decode()
    response = client.post(reverse("encounters:step", args=[encounter.pk]),
                           {"action": "override", "p.path": "Talon.hull", "p.value": "3D", "expected_seq": 0})
    assert response.status_code == 302
    state = encounter_log.current(encounter).state
    assert next(sh for sh in state.ships if sh.name == "Talon").hull == "3D"
    assert "GM sets Talon&#x27;s hull to 3D." in client.get(encounter.get_absolute_url()).content.decode()


def test_a_finished_fight_with_clicked_courses_is_analysed_and_replayed(client, sw):
    """The GM flies one ship by clicking hexes, the bot plays the rest to the end; the re-roll
    analysis replays the recorded decisions (courses included) with fresh dice, and the replay
    page shows the board."""
    from encounters.models import EncounterAnalysis

    campaign, gm, _ = sw
    client.force_login(gm)
    _start(client, campaign, separation=6, max_rounds=3)
    encounter = Encounter.objects.get(name="Skirmish")
    engine = encounter.engine
    rng = random.Random("fight")
    clicked = 0
    for _ in range(400):
        now = encounter_log.current(encounter)
        if now.state.over:
            break
        courses = [a for a in engine.legal_actions(now.state) if a.kind == "course"] if clicked < 3 else []
        action = courses[len(courses) // 2] if courses else engine.policy(now.state, rng)
        clicked += action.kind == "course"
        encounter_log.step(encounter, action.to_str(), expected_seq=now.head, user=gm)
    assert encounter_log.current(encounter).state.over and clicked == 3
    client.post(reverse("encounters:status", args=[encounter.pk]), {"status": "finished", "carry_damage": "on"})
    encounter.refresh_from_db()
    assert encounter.status == Encounter.FINISHED
    analysis = EncounterAnalysis.objects.create(encounter=encounter, replays=20, per_roll=2, seed="a1")
    tasks.run_analysis(analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == EncounterAnalysis.DONE, analysis.error
    assert analysis.results["replays"] == 20 and 0 <= analysis.results["winner_share"] <= 1
    page = client.get(reverse("encounters:replay", args=[encounter.pk]) + "?step=3").content.decode()
    assert 'id="hex-board"' in page and 'class="target"' not in page


def test_physical_dice_follow_the_wild_die_as_it_explodes(client, sw):
    """Manual dice: the page asks for a code's dice at once, the Wild Die last, then for each reroll
    of a Wild-Die 6 as it comes (RULES-NOTES: "a 6 adds and is rolled again"), refusing a 7 where it
    was typed."""
    campaign, gm, _ = sw
    client.force_login(gm)
    _start(client, campaign)
    encounter = Encounter.objects.get(name="Skirmish")
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    url = reverse("encounters:step", args=[encounter.pk])
    action = encounter.engine.legal_actions(encounter_log.current(encounter).state)[0].to_str()
    page = client.post(url, {"action": action, "expected_seq": 0}, HTTP_HX_REQUEST="true").content.decode()
    assert "Die 2: <strong>d6</strong> for initiative of Alliance (the last die is the Wild Die) (2 of 2)" in page
    bad = client.post(url, {"action": action, "expected_seq": 0, "face": ["7", "2"]}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 400 and "Die 1: 7 is not a face of a d6 (1-6)." in bad.content.decode()
    page = client.post(url, {"action": action, "expected_seq": 0, "face": ["3", "6"]},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Die 3: <strong>d6</strong> for initiative of Alliance (Wild Die again)</label>" in page
    page = client.post(url, {"action": action, "expected_seq": 0, "face": ["3", "6", "2"]},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Die 4: <strong>d6</strong> for initiative of Empire (the last die is the Wild Die) (1 of 2)</label>" in page
    client.post(url, {"action": action, "expected_seq": 0, "face": ["3", "6", "2", "4", "4"]}, HTTP_HX_REQUEST="true")
    state = encounter_log.current(encounter).state
    assert state.initiative == {"Alliance": 11, "Empire": 8} and state.order == ["Empire", "Alliance"]


def test_each_sides_initiative_dice_are_needed_not_if_needed(client, sw):
    """Issue 27, seed 4 ("Fase d'iniciativa": 2D per side): every side rolls whatever the first
    side rolled, so the second side's dice are not marked "if needed"; only a tie's reroll is."""
    campaign, gm, _ = sw
    client.force_login(gm)
    _start(client, campaign)
    encounter = Encounter.objects.get(name="Skirmish")
    encounter.dice_mode = Encounter.MANUAL
    encounter.save()
    action = encounter.engine.legal_actions(encounter_log.current(encounter).state)[0].to_str()
    page = client.post(reverse("encounters:step", args=[encounter.pk]), {"action": action, "expected_seq": 0},
                       HTTP_HX_REQUEST="true").content.decode()
    assert "Die 4: <strong>d6</strong> for initiative of Empire (the last die is the Wild Die) (2 of 2)</label>" in page
    assert "if needed" not in page and "may not be needed" not in page
