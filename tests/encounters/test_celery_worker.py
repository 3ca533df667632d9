"""A real Celery worker, on the configured broker (Redis in CI), completes a task enqueued on commit."""
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection, transaction

from encounters import log
from encounters.models import EncounterSnapshot
from encounters.tasks import enqueue, rebuild_snapshot

ROOT = Path(__file__).resolve().parents[2]


def _database_url() -> str:
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture
def worker():
    env = {**os.environ, "DATABASE_URL": _database_url(), "STARSHIP_EXTRA_RULESETS": "tests.rulesets.core.toy",
           "DJANGO_SETTINGS_MODULE": "config.settings"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "--loglevel=info",
         "--without-mingle", "--without-gossip", "--without-heartbeat"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    yield proc
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_completes_a_task_enqueued_on_commit(worker, encounter):
    first = encounter.engine.legal_actions(log.current(encounter).state)[0]
    log.step(encounter, first.to_str(), expected_seq=0)
    EncounterSnapshot.objects.filter(encounter=encounter).delete()

    with transaction.atomic():
        enqueue(rebuild_snapshot, encounter.pk)
        # Not sent yet: the transaction has not committed.
        time.sleep(0.2)
        assert not EncounterSnapshot.objects.filter(encounter=encounter).exists()

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if EncounterSnapshot.objects.filter(encounter=encounter, seq=1).exists():
            break
        assert worker.poll() is None, worker.stdout.read()
        time.sleep(0.25)
    else:
        worker.terminate()
        pytest.fail("The worker did not complete the task in 60 s:\n" + worker.communicate(timeout=20)[0][-3000:])
    snapshot = EncounterSnapshot.objects.get(encounter=encounter, seq=1)
    assert snapshot.state["ships"][1]["hull"] == log.current(encounter).state.ships[1].hull
    expected_broker = "redis" if settings.REDIS_URL else "filesystem"
    assert settings.CELERY_BROKER_URL.startswith(expected_broker)
