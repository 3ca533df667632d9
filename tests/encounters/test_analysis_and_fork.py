"""Re-roll analysis of a finished encounter, and "reroll from here" forks."""
import pytest
from django.urls import reverse

from encounters import log, tasks
from encounters.models import Encounter, EncounterAnalysis
from tests.encounters.conftest import ship_id

pytestmark = pytest.mark.django_db


def _fight(encounter, steps=12):
    for seq in range(steps):
        state = log.current(encounter).state
        if state.over:
            break
        log.step(encounter, encounter.engine.legal_actions(state)[0].to_str(), expected_seq=seq)


def test_the_analysis_says_where_the_real_outcome_sits(as_gm, encounter, django_capture_on_commit_callbacks):
    _fight(encounter)
    encounter.status = Encounter.FINISHED
    encounter.save()
    with django_capture_on_commit_callbacks() as callbacks:
        response = as_gm.post(reverse("encounters:analysis_start", args=[encounter.pk]))
    analysis = EncounterAnalysis.objects.get()
    assert response["Location"] == reverse("encounters:analysis", args=[encounter.pk, analysis.pk])
    assert len(callbacks) == 1
    analysis.replays, analysis.per_roll = 60, 10
    analysis.save()
    tasks.run_analysis(analysis.pk)
    analysis.refresh_from_db()
    r = analysis.results
    assert analysis.status == "done" and r["replays"] == 60
    assert 0 <= r["winner_share"] <= 1 and set(r["strength"]) == {"blue", "red"}
    assert len(r["swings"]) == sum(1 for a in log.current(encounter).applied if a.rolls)
    assert r["turning_points"] and abs(r["turning_points"][0]["swing"]) == max(abs(s["swing"]) for s in r["swings"])
    page = as_gm.get(response["Location"]).content.decode()
    assert "The rolls that moved the odds" in page


def test_the_analysis_is_deterministic_for_its_seed(encounter):
    _fight(encounter)
    a = EncounterAnalysis.objects.create(encounter=encounter, replays=30, per_roll=5, seed="x")
    b = EncounterAnalysis.objects.create(encounter=encounter, replays=30, per_roll=5, seed="x")
    tasks.run_analysis(a.pk)
    tasks.run_analysis(b.pk)
    a.refresh_from_db()
    b.refresh_from_db()
    assert a.results == b.results


def test_an_unfinished_encounter_is_not_analysed(as_gm, encounter):
    response = as_gm.post(reverse("encounters:analysis_start", args=[encounter.pk]), follow=True)
    assert "End the encounter first" in response.content.decode()
    assert not EncounterAnalysis.objects.exists()


def test_reroll_from_here_forks_the_history_up_to_a_step(as_gm, encounter):
    _fight(encounter, steps=4)
    log.undo(encounter, expected_seq=4)  # step 4 is undone: not part of the history
    response = as_gm.post(reverse("encounters:fork", args=[encounter.pk, 2]))
    fork = Encounter.objects.get(forked_from=encounter)
    assert response["Location"] == fork.get_absolute_url()
    original = log.current(encounter).applied[:2]
    forked = log.current(fork).applied
    assert [(a.action, a.dice) for a in forked] == [(a.action, a.dice) for a in original]
    assert fork.setup == encounter.setup and fork.status == "active"


def test_players_cannot_fork_or_analyse(as_player, encounter):
    _fight(encounter, steps=2)
    assert as_player.post(reverse("encounters:fork", args=[encounter.pk, 1])).status_code == 403
    assert as_player.post(reverse("encounters:analysis_start", args=[encounter.pk])).status_code == 403
    assert Encounter.objects.count() == 1
