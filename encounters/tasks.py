"""Background work for encounters.  Tasks take ids and are idempotent.

Surviving faults (README, "The real stack"):

- A task is sent with :func:`dispatch` right after its row is saved; when the broker
  cannot be reached the row is deleted and the GM is told (:class:`QueueUnavailable`).
- Tasks are acked late, and on Redis a message left unacked longer than the short
  visibility timeout (``CELERY_VISIBILITY_TIMEOUT``, seconds) goes to another worker:
  that is how the work of a worker killed outright comes back.  A task that runs
  longer renews its hold (:class:`Lease`), so only a dead worker's work moves.
- Every task may run twice: a chunk is stored once (unique row), a start that finds
  its run already running sends the chunks not stored yet, and an analysis found
  running is played again (it is seeded, so the result is the same).
- A worker that starts sends again the work that made no progress for a while
  (:func:`requeue_stalled`): the safety net for a message lost outright.
"""
from __future__ import annotations

import logging
import time

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

logger = logging.getLogger(__name__)


def enqueue(task, *args, **kwargs) -> None:
    """Send a task once the current transaction commits (never for a rolled-back change)."""
    transaction.on_commit(lambda: task.delay(*args, **kwargs))


class QueueUnavailable(Exception):
    """The broker could not be reached; the message says so in words."""

    def __init__(self):
        super().__init__(gettext("The background workers' queue cannot be reached just now, so nothing was "
                                 "started. Try again in a minute; if it persists, the queue service (Redis) needs a look."))


def dispatch(task, row, *args) -> None:
    """Send ``task(*args)`` for a just-saved ``row`` now; when the broker is down, delete the row.

    The row must be committed before a worker looks for it, so the send waits for the
    commit (in a view, which runs outside a transaction, it happens at once).  Raises
    :class:`QueueUnavailable`: the GM sees a clear message and nothing stays "queued".
    """
    def send():
        try:
            task.apply_async(args, retry=True, retry_policy={
                "max_retries": 2, "interval_start": 0, "interval_step": 0.5, "interval_max": 0.5})
        except Exception as exc:  # kombu's OperationalError, redis' ConnectionError, OSError...
            logger.warning("could not send %s for %r: %s", task.name, row, exc)
            row.delete()
            raise QueueUnavailable() from None

    # Outside a transaction (a view) this sends at once; inside one, after it commits.
    transaction.on_commit(send)


class Lease:
    """Keeps the Redis broker from handing a running task's message to another worker.

    With late acks a message stays "unacked" while its task runs, and Redis restores it
    to the queue once it has been unacked for the visibility timeout.  ``renew()``
    (called often; it acts every ``TASK_LEASE_RENEW`` seconds) marks the message as
    delivered just now.  It does nothing off Redis or outside a worker.
    """

    def __init__(self, task_id: str | None):
        self.task_id = task_id
        self.tag = None
        self.last = time.monotonic()

    def renew(self) -> None:
        if not self.task_id or not settings.REDIS_URL:
            return
        if time.monotonic() - self.last < settings.TASK_LEASE_RENEW:
            return
        self.last = time.monotonic()
        try:
            client = _redis()
            if self.tag is None:
                needle = self.task_id.encode()
                self.tag = next((tag for tag, payload in client.hscan_iter("unacked") if needle in payload), None)
            if self.tag is not None:
                client.zadd("unacked_index", {self.tag: time.time()}, xx=True)
        except Exception as exc:  # a lease missed is a possible duplicate, which the tasks tolerate
            logger.warning("could not renew the lease of task %s: %s", self.task_id, exc)


_client = None


def _redis():
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    return _client


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


def run_chunk(run_id: int, index: int, lease: Lease | None = None) -> bool:
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
        if lease is not None:
            lease.renew()
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
        if run.status == SimulationRun.QUEUED:
            _size_chunks(run)
            run.status = SimulationRun.RUNNING
            run.started_at = timezone.now()
            run.save(update_fields=["status", "started_at", "points"])
        elif run.status != SimulationRun.RUNNING:
            return 0  # done or cancelled
        # Running already: this start was delivered again (its worker died while
        # fanning out, say).  Send what is not stored yet; a chunk is stored once.
        stored = set(run.chunks.values_list("index", flat=True))
        missing = [i for i in range(len(run.chunk_plan())) if i not in stored]
    group(simulate_chunk.s(run_id, i) for i in missing).apply_async()
    return len(missing)


def _size_chunks(run) -> None:
    """Measure a battle's cost at each sweep point and size the chunks by it (issue 14)."""
    from rulesets.core import registry
    from rulesets.core.simulate import SweepPoint, battle_costs, chunk_sizes

    if run.chunk_size or (run.points and all("chunk" in p for p in run.points)):
        return  # a size the GM chose, or measured already
    points = [SweepPoint(p["label"], p["options"]) for p in run.points]
    costs = battle_costs(registry.get(run.ruleset), run.setup, points, run.seed)
    sizes = chunk_sizes(costs, run.trials_per_point)
    run.points = [{**p, "cost": cost, "chunk": size} for p, cost, size in zip(run.points, costs, sizes)]


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def simulate_chunk(self, run_id: int, index: int) -> bool:
    return run_chunk(run_id, index, Lease(self.request.id))


def requeue_stalled(minutes: float | None = None) -> list[str]:
    """Send again the work that made no progress for ``minutes`` (``TASK_STALLED_MINUTES``).

    The safety net behind the visibility timeout, run by every worker as it starts: a
    message lost outright (a worker killed in the instant between taking it off the queue
    and noting it as unacknowledged) would leave its run "running" for ever.  A queued
    run or analysis is sent again; a running simulation whose last chunk (or start) is
    older than that gets its start again, which sends the chunks not stored yet.  Chunks
    are stored once, so a run that was only slow loses nothing but some duplicated work.
    A running analysis cannot be told from a slow one (it has no heartbeat) and is left.
    Returns what was sent, for the log.
    """
    from datetime import timedelta

    from django.db.models import Max
    from django.utils import timezone

    from .models import EncounterAnalysis, SimulationRun

    cutoff = timezone.now() - timedelta(minutes=settings.TASK_STALLED_MINUTES if minutes is None else minutes)
    sent = []
    runs = (SimulationRun.objects.filter(status__in=[SimulationRun.QUEUED, SimulationRun.RUNNING])
            .annotate(last_chunk=Max("chunks__created_at")))
    for run in runs:
        last = run.last_chunk or run.started_at or run.created_at
        if last < cutoff:
            start_simulation.delay(run.pk)
            sent.append(f"simulation {run.pk}")
    for analysis in EncounterAnalysis.objects.filter(status=EncounterAnalysis.QUEUED, created_at__lt=cutoff):
        analyse_encounter.delay(analysis.pk)
        sent.append(f"analysis {analysis.pk}")
    if sent:
        logger.warning("sent again, after no progress for a while: %s", ", ".join(sent))
    return sent


def run_in_process(run_id: int) -> None:
    """The same run without workers (tests, benchmarks, the scenario runner)."""
    from django.utils import timezone

    from .models import SimulationRun

    run = SimulationRun.objects.get(pk=run_id)
    if run.status == SimulationRun.QUEUED:
        _size_chunks(run)
        run.status, run.started_at = SimulationRun.RUNNING, timezone.now()
        run.save(update_fields=["status", "started_at", "points"])
    for index in range(len(run.chunk_plan())):
        run_chunk(run_id, index)


# -- re-roll analysis ----------------------------------------------------------------

def run_analysis(analysis_id: int, lease: Lease | None = None) -> None:
    from django.utils import timezone

    from rulesets.core.analysis import Recorded, analyse

    from . import log
    from .models import EncounterAnalysis

    with transaction.atomic():
        analysis = EncounterAnalysis.objects.select_for_update().select_related("encounter").get(pk=analysis_id)
        if analysis.status not in (EncounterAnalysis.QUEUED, EncounterAnalysis.RUNNING):
            return  # done or failed already
        # Found running: its worker died mid-way (a live one renews its lease), so play
        # it again; the replays are seeded, so the result is the one it would have had.
        analysis.status = EncounterAnalysis.RUNNING
        analysis.save(update_fields=["status"])
    encounter = analysis.encounter
    now = log.history(encounter)
    record = [Recorded(a.seq, a.action, tuple(a.dice), len(a.rolls)) for a in now.applied if not a.dropped]
    engine = encounter.engine

    def progress(fraction):
        if lease is not None:
            lease.renew()
        EncounterAnalysis.objects.filter(pk=analysis_id).update(progress=fraction)

    try:
        # Ended by the GM while the fight still went on: the replays stop where it stopped.
        results = analyse(engine, encounter.setup, record, engine.outcome(now.state), analysis.seed,
                          count=analysis.replays, per_roll=analysis.per_roll, progress=progress,
                          stopped=not now.state.over)
    except Exception as exc:
        EncounterAnalysis.objects.filter(pk=analysis_id).update(status=EncounterAnalysis.FAILED, error=str(exc))
        raise
    EncounterAnalysis.objects.filter(pk=analysis_id).update(
        status=EncounterAnalysis.DONE, results=results, progress=1, finished_at=timezone.now())


@shared_task(bind=True, acks_late=True, reject_on_worker_lost=True)
def analyse_encounter(self, analysis_id: int) -> None:
    run_analysis(analysis_id, Lease(self.request.id))
