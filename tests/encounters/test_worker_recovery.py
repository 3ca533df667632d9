"""Issue 15, "Background work survives faults": a worker killed outright, and long tasks kept by their lease.

On Redis (REDIS_URL, or the Redis on 127.0.0.1:6379): the visibility timeout is what
Redis promises, not the development filesystem broker (docs/decisions.md).  The workers
here run with a 6-second visibility timeout, so the tests take seconds, not minutes.
"""
import os
import re
import signal
import time
from pathlib import Path

import pytest
from celery import current_app
from django.conf import settings

from encounters import tasks
from encounters.models import SimulationChunk, SimulationRun
from encounters.simulations import wait_for
from tests.encounters.test_simulations import make_run
from tests.workers import start_worker, stop_worker, worker_log

pytestmark = pytest.mark.django_db(transaction=True)

REDIS = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
VISIBILITY = 6


def _send_start(run):
    with current_app.connection_for_write(REDIS) as conn:
        tasks.start_simulation.apply_async((run.pk,), connection=conn)


def _worker():
    return start_worker(pool="solo", REDIS_URL=REDIS, CELERY_VISIBILITY_TIMEOUT=str(VISIBILITY))


def _wait_for_first_chunk(run, proc):
    deadline = time.monotonic() + 60
    while not SimulationChunk.objects.filter(run=run).exists():
        assert time.monotonic() < deadline, worker_log(proc)
        time.sleep(0.05)


def _received(proc) -> list[str]:
    """The chunk tasks this worker received (task ids)."""
    text = Path(proc.log_path).read_text()
    return re.findall(r"Task encounters\.tasks\.simulate_chunk\[([0-9a-f-]+)\] received", text)


def test_a_run_finishes_within_seconds_after_its_worker_is_killed_outright(campaign):
    """The whole worker (its main process, solo pool) dies mid-chunk: another worker finishes the run.

    It is killed a moment after its first chunk landed, busy with the next (a chunk takes
    a second or more).  (kombu's Redis transport has a window of a millisecond or so,
    between taking a message off the queue and noting it as unacknowledged, in which a
    kill loses the message; this test does not aim at that window.)
    """
    run = make_run(campaign, trials=6000, chunk=3000, seed="killed")
    first = _worker()
    second = None
    try:
        _send_start(run)
        _wait_for_first_chunk(run, first)
        time.sleep(0.3)
        os.kill(first.pid, signal.SIGKILL)  # no warm shutdown, nothing acked or handed back
        first.wait()
        killed_at = time.monotonic()
        second = _worker()
        done = wait_for(run.pk, timeout=90)
        took = time.monotonic() - killed_at
        assert done.status == SimulationRun.DONE, worker_log(second)
        assert took < VISIBILITY + 30, f"recovered in {took:.0f} s"
    finally:
        for proc in (first, second):
            if proc is not None:
                stop_worker(proc)
    twin = make_run(campaign, trials=6000, chunk=6000, seed="killed")  # the numbers do not depend on chunking
    tasks.run_in_process(twin.pk)
    twin.refresh_from_db()
    assert done.results == twin.results
    assert SimulationChunk.objects.filter(run=run).count() == len(run.chunk_plan())


def test_a_chunk_longer_than_the_visibility_timeout_is_not_handed_to_a_second_worker(campaign):
    """Its lease is renewed while it runs, so the idle worker beside it never receives it."""
    run = make_run(campaign, trials=150000, chunk=150000, seed="long", sweep="none")
    workers = [_worker(), _worker()]
    try:
        _send_start(run)
        started = time.monotonic()
        done = wait_for(run.pk, timeout=180)
        assert done.status == SimulationRun.DONE, worker_log(workers[0]) + worker_log(workers[1])
        seconds = SimulationChunk.objects.filter(run=run).values_list("seconds", flat=True)
        assert max(seconds) > VISIBILITY + 2, f"chunks too quick to show anything: {list(seconds)}"
        received = [task for proc in workers for task in _received(proc)]
        assert len(received) == len(set(received)) == len(run.chunk_plan()), received
        assert time.monotonic() - started < 180
    finally:
        for proc in workers:
            stop_worker(proc)
