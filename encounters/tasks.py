"""Background work for encounters.  Tasks take ids and are idempotent."""
from __future__ import annotations

from celery import shared_task
from django.db import transaction

from rulesets.core import serial


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
    from .models import Encounter, EncounterSnapshot

    encounter = Encounter.objects.get(pk=encounter_id)
    head = log.head_seq(encounter)
    cached = EncounterSnapshot.objects.filter(encounter=encounter, seq=head).first()
    state, applied = log.fold(encounter.engine, encounter.setup, log._entries(encounter), encounter.seed)
    fresh = serial.to_json(state)
    agreed = cached is None or cached.state == fresh
    log._save_snapshot(encounter, head, state, applied)
    return {"encounter": encounter_id, "head": head, "agreed": agreed}
