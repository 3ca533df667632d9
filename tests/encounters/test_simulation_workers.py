"""Simulations on real Celery workers and the configured broker (Redis in CI)."""
import os
import signal
import time
from pathlib import Path

import pytest
from celery import current_app
from django.conf import settings
from django.db import transaction

from encounters import tasks
from encounters.models import SimulationChunk, SimulationRun
from encounters.simulations import wait_for
from tests.encounters.test_simulations import make_run
from tests.workers import start_worker, stop_worker, worker, worker_log  # noqa: F401 (fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def _start(run):
    with transaction.atomic():
        tasks.enqueue(tasks.start_simulation, run.pk)


def test_a_sweep_on_a_worker_equals_the_same_sweep_in_process(worker, campaign):
    run = make_run(campaign, trials=120, chunk=40, seed="same")
    _start(run)
    done = wait_for(run.pk, timeout=90)
    assert done.status == SimulationRun.DONE, worker_log(worker)
    twin = make_run(campaign, trials=120, chunk=120, seed="same")
    tasks.run_in_process(twin.pk)
    twin.refresh_from_db()
    assert done.results == twin.results


def test_cancel_stops_a_run_on_a_worker(worker, campaign):
    run = make_run(campaign, trials=30000, chunk=1000, seed="long")
    _start(run)
    deadline = time.monotonic() + 60
    while not SimulationChunk.objects.filter(run=run).exists():
        assert time.monotonic() < deadline, worker_log(worker)
        time.sleep(0.1)
    SimulationRun.objects.filter(pk=run.pk).update(status=SimulationRun.CANCELLED)
    time.sleep(2)
    settled = SimulationChunk.objects.filter(run=run).count()
    time.sleep(2)
    assert SimulationChunk.objects.filter(run=run).count() == settled < len(run.chunk_plan())
    run.refresh_from_db()
    assert run.status == SimulationRun.CANCELLED


def _children(pid: int) -> list[int]:
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def test_a_run_survives_a_worker_process_killed_mid_chunk(campaign):
    """A pool process dies mid-chunk (say, out of memory): the late-acked chunk is run again.

    This is the production broker's promise, so it runs on Redis (REDIS_URL, or the Redis on
    127.0.0.1:6379) even where the rest of the suite uses the development filesystem broker.
    """
    run = make_run(campaign, trials=6000, chunk=2000, seed="tough")
    redis_url = settings.REDIS_URL or "redis://127.0.0.1:6379/0"
    proc = start_worker(pool="prefork", concurrency=1, REDIS_URL=redis_url)
    try:
        with current_app.connection_for_write(redis_url) as conn:
            tasks.start_simulation.apply_async((run.pk,), connection=conn)
        deadline = time.monotonic() + 60
        while not SimulationChunk.objects.filter(run=run).exists():
            assert time.monotonic() < deadline, worker_log(proc)
            time.sleep(0.05)
        children = _children(proc.pid)
        assert children, worker_log(proc)
        for child in children:
            os.kill(child, signal.SIGKILL)  # it was busy with the next chunk
        done = wait_for(run.pk, timeout=120)
        log = worker_log(proc)
        assert done.status == SimulationRun.DONE, log
        assert "WorkerLostError" in log or "exited prematurely" in log or "signal 9" in log, log
    finally:
        stop_worker(proc)
    twin = make_run(campaign, trials=6000, chunk=6000, seed="tough")
    tasks.run_in_process(twin.pk)
    twin.refresh_from_db()
    assert done.results == twin.results
    assert SimulationChunk.objects.filter(run=run).count() == len(run.chunk_plan())
