"""Background work for encounters.  Tasks take ids and are idempotent."""
from __future__ import annotations

from celery import shared_task
from django.db import transaction



def enqueue(task, *args, **kwargs) -> None:
    """Send a task once the current transaction commits (never for a rolled-back change)."""
    transaction.on_commit(lambda: task.delay(*args, **kwargs))


@shared_task(acks_late=True)
def rebuild_snapshot(encounter_id: int) -> dict:
    """Fold an encounter's whole log again and store the snapshot at its head.

    Run after a deploy that changed a ruleset, or to check a log: returns the head
    and whether the cached snapshot agreed with the fresh fold.
    """
    from . import log
    from .models import Encounter

    now, agreed = log.refold(Encounter.objects.get(pk=encounter_id))
    return {"encounter": encounter_id, "head": now.head, "agreed": agreed}


# -- simulations ---------------------------------------------------------------

def _chunk_outcomes(run, index: int, should_stop=None) -> tuple[int, int, list[dict]]:
    from rulesets.core import registry
    from rulesets.core.simulate import SweepPoint, run_trials

    point, start, stop = run.chunk_plan()[index]
    p = run.points[point]
    outcomes = run_trials(registry.get(run.ruleset), run.setup, SweepPoint(p["label"], p["options"]),
                          run.seed, point, start, stop, should_stop)
    return point, start, outcomes


def run_chunk(run_id: int, index: int) -> bool:
    """Play one chunk and store it; False when it was already stored or the run stopped."""
    import time

    from django.db import IntegrityError

    from .models import SimulationChunk, SimulationRun

    if SimulationChunk.objects.filter(run_id=run_id, index=index).exists():
        return False  # delivered twice: counted once
    run = SimulationRun.objects.get(pk=run_id)
    if run.status not in (SimulationRun.QUEUED, SimulationRun.RUNNING):
        return False

    checked = [time.monotonic()]

    def cancelled():
        # At most two queries a second, however cheap the battles.
        if time.monotonic() - checked[0] < 0.5:
            return False
        checked[0] = time.monotonic()
        return SimulationRun.objects.filter(pk=run_id, status=SimulationRun.CANCELLED).exists()

    began = time.perf_counter()
    point, start, outcomes = _chunk_outcomes(run, index, cancelled)
    plan_point, plan_start, plan_stop = run.chunk_plan()[index]
    try:
        with transaction.atomic():
            SimulationChunk.objects.create(
                run_id=run_id, index=index, point=point, first_trial=start, trials=len(outcomes),
                outcomes=outcomes, complete=len(outcomes) == plan_stop - plan_start,
                seconds=time.perf_counter() - began)
    except IntegrityError:
        return False
    finish_if_complete(run_id)
    return True


def aggregate(run) -> list[dict]:
    """Per sweep point statistics from the stored chunks (whatever has finished)."""
    from rulesets.core.simulate import sides_of, summarise

    sides = sides_of(run.setup)
    by_point: dict[int, list] = {i: [] for i in range(len(run.points))}
    for chunk in run.chunks.order_by("index"):
        by_point[chunk.point].extend(chunk.outcomes)
    return [{"label": run.points[i]["label"], **summarise(by_point[i], sides)} for i in range(len(run.points))]


def finish_if_complete(run_id: int) -> None:
    from django.utils import timezone

    from .models import SimulationRun

    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=run_id)
        if run.status != SimulationRun.RUNNING:
            return
        if run.chunks.count() < len(run.chunk_plan()):
            return
        run.results = aggregate(run)
        run.status = SimulationRun.DONE
        run.finished_at = timezone.now()
        run.save(update_fields=["results", "status", "finished_at"])


@shared_task(acks_late=True)
def start_simulation(run_id: int) -> int:
    """Fan the run out: one task per chunk.  The last chunk to land finishes the run."""
    from celery import group
    from django.utils import timezone

    from .models import SimulationRun

    with transaction.atomic():
        run = SimulationRun.objects.select_for_update().get(pk=run_id)
        if run.status != SimulationRun.QUEUED:
            return 0  # delivered twice
        run.status = SimulationRun.RUNNING
        run.started_at = timezone.now()
        run.save(update_fields=["status", "started_at"])
        count = len(run.chunk_plan())
    group(simulate_chunk.s(run_id, i) for i in range(count)).apply_async()
    return count


@shared_task(acks_late=True, reject_on_worker_lost=True)
def simulate_chunk(run_id: int, index: int) -> bool:
    return run_chunk(run_id, index)


def run_in_process(run_id: int) -> None:
    """The same run without workers (tests, benchmarks, the scenario runner)."""
    from django.utils import timezone

    from .models import SimulationRun

    run = SimulationRun.objects.get(pk=run_id)
    if run.status == SimulationRun.QUEUED:
        SimulationRun.objects.filter(pk=run_id).update(status=SimulationRun.RUNNING, started_at=timezone.now())
    for index in range(len(run.chunk_plan())):
        run_chunk(run_id, index)


# -- re-roll analysis ----------------------------------------------------------------

def run_analysis(analysis_id: int) -> None:
    from django.utils import timezone

    from rulesets.core.analysis import Recorded, analyse

    from . import log
    from .models import EncounterAnalysis

    with transaction.atomic():
        analysis = EncounterAnalysis.objects.select_for_update().select_related("encounter").get(pk=analysis_id)
        if analysis.status != EncounterAnalysis.QUEUED:
            return  # delivered twice
        analysis.status = EncounterAnalysis.RUNNING
        analysis.save(update_fields=["status"])
    encounter = analysis.encounter
    now = log.history(encounter)
    record = [Recorded(a.seq, a.action, tuple(a.dice), len(a.rolls)) for a in now.applied if not a.dropped]
    engine = encounter.engine

    def progress(fraction):
        EncounterAnalysis.objects.filter(pk=analysis_id).update(progress=fraction)

    try:
        results = analyse(engine, encounter.setup, record, engine.outcome(now.state), analysis.seed,
                          count=analysis.replays, per_roll=analysis.per_roll, progress=progress)
    except Exception as exc:
        EncounterAnalysis.objects.filter(pk=analysis_id).update(status=EncounterAnalysis.FAILED, error=str(exc))
        raise
    EncounterAnalysis.objects.filter(pk=analysis_id).update(
        status=EncounterAnalysis.DONE, results=results, progress=1, finished_at=timezone.now())


@shared_task(acks_late=True, reject_on_worker_lost=True)
def analyse_encounter(analysis_id: int) -> None:
    run_analysis(analysis_id)
