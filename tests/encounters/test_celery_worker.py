"""A real Celery worker, on the configured broker (Redis in CI), completes a task enqueued on commit."""
import json
import time

import pytest
from django.conf import settings
from django.db import transaction

from encounters import log
from encounters.models import EncounterSnapshot
from encounters.tasks import enqueue, rebuild_snapshot
from tests.workers import worker, worker_log  # noqa: F401 (fixture)

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
        assert worker.poll() is None, worker_log(worker)
        time.sleep(0.25)
    else:
        pytest.fail("The worker did not complete the task in 60 s:\n" + worker_log(worker))
    snapshot = EncounterSnapshot.objects.get(encounter=encounter, seq=1)
    assert json.loads(snapshot.state)["ships"][1]["hull"] == log.current(encounter).state.ships[1].hull
    expected_broker = "redis" if settings.REDIS_URL else "filesystem"
    assert settings.CELERY_BROKER_URL.startswith(expected_broker)
