"""Two people stepping the same encounter at once: a step is applied exactly once."""
import threading

import pytest
from django.db import connection

from encounters import log
from tests.encounters.conftest import ship_id


@pytest.mark.django_db(transaction=True)
def test_parallel_posts_for_the_same_sequence_apply_exactly_one(encounter):
    action = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"
    outcomes, barrier = [], threading.Barrier(4)

    def attempt():
        try:
            barrier.wait()
            log.step(encounter, action, expected_seq=0)
            outcomes.append("applied")
        except log.StaleStep:
            outcomes.append("stale")
        except Exception as exc:  # a database that cannot serialise the writers fails the test
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["applied", "stale", "stale", "stale"]
    assert list(encounter.events.values_list("seq", flat=True)) == [1]
