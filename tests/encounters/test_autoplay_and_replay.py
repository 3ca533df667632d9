"""Auto-play for NPC ships by the ruleset's policy, and the read-only replay of a finished fight."""
import pytest
from django.urls import reverse

from encounters import log
from encounters.models import Encounter
from rulesets.core.engine import Viewer
from tests.encounters.conftest import ship_id

pytestmark = pytest.mark.django_db


def test_auto_play_one_step_lets_the_policy_decide(as_gm, encounter):
    response = as_gm.post(reverse("encounters:auto", args=[encounter.pk]), {"mode": "step", "expected_seq": "0"})
    assert response.status_code == 302
    row = encounter.events.get()
    assert row.action.startswith(f"fire actor={ship_id(encounter, 'Alpha')}")


def test_auto_play_refuses_to_decide_for_a_players_ship(as_gm, encounter):
    # Alpha carries the player's character Ann: it is the player's side's decision.
    response = as_gm.post(reverse("encounters:auto", args=[encounter.pk]), {"mode": "round", "expected_seq": "0"},
                          HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert "decide it yourself" in response.content.decode()
    assert encounter.events.count() == 0


def test_auto_play_npcs_stops_when_a_players_ship_must_act(as_gm, encounter):
    log.step(encounter, f"brace actor={ship_id(encounter, 'Alpha')}", expected_seq=0)
    as_gm.post(reverse("encounters:auto", args=[encounter.pk]), {"mode": "round", "expected_seq": "1"})
    now = log.current(encounter)
    assert now.head == 2  # Bravo (NPC) acted once, then it was Alpha's (the player's) step again
    assert encounter.engine.actor_ship(now.state) == ship_id(encounter, "Alpha")


def test_auto_play_is_reproducible_from_the_encounter_seed(as_gm, encounter, campaign):
    twin = Encounter.objects.create(campaign=campaign, name="Twin", ruleset="toy", seed=encounter.seed,
                                    setup=encounter.setup)
    for e in (encounter, twin):
        for seq in range(3):
            as_gm.post(reverse("encounters:auto", args=[e.pk]), {"mode": "step", "expected_seq": str(seq)})
    assert list(encounter.events.values_list("action", "dice")) == list(twin.events.values_list("action", "dice"))


def _finish(encounter):
    for seq in range(4):
        log.step(encounter, encounter.engine.legal_actions(log.current(encounter).state)[0].to_str(),
                 expected_seq=seq, gm_only=(seq == 1))
    encounter.status = Encounter.FINISHED
    encounter.save()


def test_the_replay_walks_the_fight_step_by_step_as_the_players_saw_it(as_player, encounter):
    _finish(encounter)
    url = reverse("encounters:replay", args=[encounter.pk])
    start = as_player.get(url + "?step=0")
    assert start.context["index"] == 0 and start.context["total"] == 3  # the GM-only step is not there
    assert "The start of the fight." in start.content.decode()
    one = as_player.get(url + "?step=1")
    assert [s.seq for s in one.context["steps"]] == [1]
    end = as_player.get(url)
    assert [s.seq for s in end.context["steps"]] == [4, 3, 1]
    player_view = encounter.engine.view(log.current(encounter).state, Viewer.player([ship_id(encounter, "Alpha")]))
    assert end.context["view"] == player_view


def test_players_get_the_replay_only_once_the_encounter_is_finished(as_player, encounter):
    assert as_player.get(reverse("encounters:replay", args=[encounter.pk])).status_code == 404


def test_an_outsider_never_gets_the_replay(as_outsider, encounter):
    _finish(encounter)
    assert as_outsider.get(reverse("encounters:replay", args=[encounter.pk])).status_code == 404
