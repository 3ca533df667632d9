"""Issue 14: a step costs the same at the start of a fight and deep into it.

The snapshot keeps the state and the latest steps only (log.SNAPSHOT_STEPS), so its size
stays bounded as the fight grows; the write path reads the head once and makes a fixed,
small number of queries; the whole log is still there, folded from the rows on request.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from encounters import log
from encounters.models import Encounter, EncounterSnapshot
from tests.encounters.conftest import ship_id

pytestmark = pytest.mark.django_db


@pytest.fixture
def long_fight(campaign, gm):
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    return Encounter.objects.create(campaign=campaign, name="Standoff", ruleset="toy", seed="long",
                                    setup={"ships": ships, "options": {"max_rounds": 100}}, created_by=gm)


def brace(encounter, seq):
    """Both ships brace in turn: the fight goes on as long as we like."""
    actor = "Alpha" if seq % 2 == 0 else "Bravo"
    return log.step(encounter, f"brace actor={ship_id(encounter, actor)}", expected_seq=seq)


def snapshot_size(encounter) -> int:
    snap = EncounterSnapshot.objects.get(encounter=encounter)
    return len(snap.applied) + len(snap.state)  # JSON text


def test_the_snapshot_stays_bounded_as_the_fight_grows(long_fight):
    sizes = {}
    for seq in range(150):
        brace(long_fight, seq)
        if seq + 1 in (log.SNAPSHOT_STEPS, 100, 150):
            sizes[seq + 1] = snapshot_size(long_fight)
    assert EncounterSnapshot.objects.filter(encounter=long_fight).count() == 1
    # Past the window the snapshot no longer grows (a step's text may differ by a digit or two).
    assert abs(sizes[150] - sizes[log.SNAPSHOT_STEPS]) < 0.02 * sizes[log.SNAPSHOT_STEPS]
    now = log.current(long_fight)
    assert len(now.applied) == log.SNAPSHOT_STEPS and now.count == 150 and not now.complete


def test_the_whole_log_is_folded_from_the_rows_when_asked(long_fight):
    for seq in range(90):
        brace(long_fight, seq)
    full = log.history(long_fight)
    assert full.complete and [a.seq for a in full.applied] == list(range(1, 91))
    assert full.state == log.current(long_fight).state


def test_a_step_makes_at_most_ten_queries_however_long_the_fight(long_fight):
    for seq in range(120):
        brace(long_fight, seq)
    log.current(long_fight)  # as the page that posts the step has just read it
    with CaptureQueriesContext(connection) as queries:
        brace(long_fight, 120)
    heads = [q["sql"] for q in queries.captured_queries
             if q["sql"].startswith("SELECT") and 'FROM "encounters_encounterevent"' in q["sql"]]
    assert len(queries.captured_queries) <= 10, "\n".join(q["sql"] for q in queries.captured_queries)
    assert len(heads) == 1, "the head sequence is read once"


def test_undo_past_the_window_still_finds_the_step(long_fight):
    for seq in range(log.SNAPSHOT_STEPS + 5):
        brace(long_fight, seq)
    head = log.SNAPSHOT_STEPS + 5
    for _ in range(log.SNAPSHOT_STEPS + 2):
        log.undo(long_fight, expected_seq=head)
        head += 1
    now = log.current(long_fight)
    assert now.count == 3 and [a.seq for a in now.applied] == [1, 2, 3]
