"""Issue 14: a run's chunks are sized by a measured battle, costliest points first, same numbers."""
import pytest

from encounters import tasks
from encounters.models import SimulationRun
from tests.encounters.test_simulations import make_run, results_of

pytestmark = pytest.mark.django_db


def test_a_run_left_to_measure_sizes_its_chunks_by_battle_cost(campaign):
    run = make_run(campaign, trials=200, chunk=0)
    tasks.run_in_process(run.pk)
    run.refresh_from_db()
    assert run.status == SimulationRun.DONE
    assert all(p["chunk"] >= 10 and p["cost"] > 0 for p in run.points)
    costs = [run.points[point]["cost"] for point, _, _ in run.chunk_plan()]
    assert costs == sorted(costs, reverse=True), "the costliest points are played first"
    assert [r["trials"] for r in run.results] == [200, 200, 200]


def test_measured_chunks_give_the_same_numbers_as_fixed_ones(campaign):
    assert results_of(make_run(campaign, trials=120, chunk=0)) == results_of(make_run(campaign, trials=120, chunk=25))
