"""Issue 15: the safety net behind the visibility timeout: a starting worker sends stalled work again."""
from datetime import timedelta

import pytest
from django.utils import timezone

from encounters import tasks
from encounters.models import Encounter, EncounterAnalysis, SimulationChunk, SimulationRun
from tests.encounters.test_simulations import make_run

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    calls = []
    monkeypatch.setattr(tasks.start_simulation, "delay", lambda pk: calls.append(("start", pk)))
    monkeypatch.setattr(tasks.analyse_encounter, "delay", lambda pk: calls.append(("analyse", pk)))
    return calls


def test_runs_without_progress_for_ten_minutes_are_sent_again_and_others_are_left(campaign, encounter, sent):
    long_ago = timezone.now() - timedelta(minutes=20)
    stalled = make_run(campaign, seed="stalled")
    SimulationRun.objects.filter(pk=stalled.pk).update(status=SimulationRun.RUNNING, started_at=long_ago)
    lost_start = make_run(campaign, seed="lost")
    SimulationRun.objects.filter(pk=lost_start.pk).update(created_at=long_ago)
    busy = make_run(campaign, seed="busy")  # its last chunk landed a moment ago
    SimulationRun.objects.filter(pk=busy.pk).update(status=SimulationRun.RUNNING, started_at=long_ago)
    SimulationChunk.objects.create(run=busy, index=0, point=0, first_trial=0, trials=1, outcomes=[])
    fresh = make_run(campaign, seed="fresh")
    done = make_run(campaign, seed="done")
    SimulationRun.objects.filter(pk=done.pk).update(status=SimulationRun.DONE, started_at=long_ago)
    Encounter.objects.filter(pk=encounter.pk).update(status=Encounter.FINISHED)
    waiting = EncounterAnalysis.objects.create(encounter=encounter)
    EncounterAnalysis.objects.filter(pk=waiting.pk).update(created_at=long_ago)
    running = EncounterAnalysis.objects.create(encounter=encounter, status=EncounterAnalysis.RUNNING)
    EncounterAnalysis.objects.filter(pk=running.pk).update(created_at=long_ago)

    assert sorted(tasks.requeue_stalled()) == sorted(
        [f"simulation {stalled.pk}", f"simulation {lost_start.pk}", f"analysis {waiting.pk}"])
    assert sorted(sent) == sorted([("start", stalled.pk), ("start", lost_start.pk), ("analyse", waiting.pk)])
    assert fresh.pk not in [pk for _, pk in sent] and busy.pk not in [pk for _, pk in sent]


@pytest.mark.django_db(transaction=True)
def test_a_run_whose_messages_were_lost_finishes_when_a_worker_starts(campaign):
    """No message anywhere for it (lost): the worker's start sends it again, and it finishes."""
    from encounters.simulations import wait_for
    from tests.workers import start_worker, stop_worker, worker_log

    run = make_run(campaign, trials=40, chunk=20, seed="lost-for-good")
    SimulationRun.objects.filter(pk=run.pk).update(status=SimulationRun.RUNNING,
                                                   started_at=timezone.now() - timedelta(minutes=20))
    proc = start_worker()
    try:
        done = wait_for(run.pk, timeout=90)
        assert done.status == SimulationRun.DONE, worker_log(proc)
    finally:
        stop_worker(proc)
    assert SimulationChunk.objects.filter(run=run).count() == len(run.chunk_plan())
