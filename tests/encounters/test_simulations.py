"""Simulations: seeded per trial, chunked, idempotent, cancellable, with correct statistics."""
import csv
import io
import json

import pytest
from django.urls import reverse

from encounters import tasks
from encounters.models import SimulationChunk, SimulationRun
from rulesets.core.simulate import sides_of

pytestmark = pytest.mark.django_db


def make_run(campaign, *, trials=60, chunk=25, seed="s1", sweep="max_rounds", setup=None):
    engine = campaign.engine
    if setup is None:
        setup = {"ships": [s.setup_spec() for s in campaign.ships.all()], "options": {"max_rounds": 30}}
    points = {"max_rounds": [{"label": f"{n} rounds", "options": {"max_rounds": n}} for n in (1, 3, 10)],
              "none": [{"label": "as set up", "options": {}}]}[sweep]
    assert engine is not None
    return SimulationRun.objects.create(campaign=campaign, name="Sweep", ruleset="toy", setup=setup, sweep=sweep,
                                        points=points, trials_per_point=trials, chunk_size=chunk, seed=seed)


def results_of(run):
    tasks.run_in_process(run.pk)
    run.refresh_from_db()
    assert run.status == SimulationRun.DONE
    return run.results


def test_a_run_plays_every_trial_of_every_point(campaign):
    run = make_run(campaign)
    results = results_of(run)
    assert [r["label"] for r in results] == ["1 rounds", "3 rounds", "10 rounds"]
    assert all(r["trials"] == 60 for r in results)
    assert all(r["wins"] + r["losses"] + r["draws"] == 60 for r in results)
    assert results[0]["mean_rounds"] == 1  # a 1-round limit decides nothing later


def test_the_same_seed_with_another_chunk_size_gives_the_same_numbers(campaign):
    assert results_of(make_run(campaign, chunk=25)) == results_of(make_run(campaign, chunk=60))
    assert results_of(make_run(campaign, chunk=10)) == results_of(make_run(campaign, chunk=25))


def test_another_seed_gives_other_battles(campaign):
    assert results_of(make_run(campaign, seed="a")) != results_of(make_run(campaign, seed="b"))


def test_a_chunk_run_twice_is_counted_once(campaign):
    run = make_run(campaign, trials=50, chunk=25)
    SimulationRun.objects.filter(pk=run.pk).update(status=SimulationRun.RUNNING)
    assert tasks.run_chunk(run.pk, 0) is True
    assert tasks.run_chunk(run.pk, 0) is False
    assert SimulationChunk.objects.filter(run=run).count() == 1
    tasks.run_in_process(run.pk)
    run.refresh_from_db()
    assert run.status == "done" and [r["trials"] for r in run.results] == [50, 50, 50]


def test_cancel_stops_the_run_and_keeps_what_finished(as_gm, campaign):
    run = make_run(campaign, trials=100, chunk=50)
    SimulationRun.objects.filter(pk=run.pk).update(status=SimulationRun.RUNNING)
    tasks.run_chunk(run.pk, 0)
    as_gm.post(reverse("encounters:simulation_cancel", args=[run.pk]))
    for index in range(1, len(run.chunk_plan())):
        assert tasks.run_chunk(run.pk, index) is False
    run.refresh_from_db()
    assert run.status == "cancelled"
    page = as_gm.get(run.get_absolute_url())
    assert [r["trials"] for r in page.context["results"]] == [50, 0, 0]


def test_the_win_rate_lands_in_its_interval_around_the_exact_probability(campaign):
    """One round between two 1-hull ships: Alpha (gunnery 1) shoots first, Bravo (gunnery 2) answers.

    From the toy's own odds: P(Alpha wins) = P(hit by Alpha), P(Bravo wins) = P(miss) x P(hit by Bravo).
    """
    engine = campaign.engine
    spec = {"ships": [s.setup_spec() for s in campaign.ships.all()], "options": {"max_rounds": 1}}
    for ship in spec["ships"]:
        ship["stats"] = {"hull": 1}
    state = engine.setup(spec)
    alpha, bravo = state.ships[0], state.ships[1]
    p_alpha = engine.odds(state, engine.legal_actions(state)[0]).probability("hit")
    after_miss = engine.setup(spec)
    after_miss.turn = 1
    p_bravo = (1 - p_alpha) * engine.odds(after_miss, engine.legal_actions(after_miss)[0]).probability("hit")
    assert (alpha.name, bravo.name) == ("Alpha", "Bravo")
    # A 95% interval misses the truth 5% of the time: over 40 independent runs it must cover
    # it about 38 times (34 or more: a chance below 1% of failing if the statistics are right).
    blue, red = sides_of(spec)
    covered = {blue: 0, red: 0}
    for seed in range(40):
        result = results_of(make_run(campaign, trials=400, chunk=400, sweep="none", setup=spec, seed=f"cov{seed}"))[0]
        for side, exact in ((blue, p_alpha), (red, p_bravo)):
            low, high = result["sides"][side]["win_interval"]
            covered[side] += low <= exact <= high
    assert covered[blue] >= 34 and covered[red] >= 34, covered


def test_the_gm_asks_for_a_sweep_and_an_oversized_one_is_refused_with_the_cap(as_gm, campaign, settings,
                                                                               django_capture_on_commit_callbacks):
    settings.SIMULATION_MAX_TRIALS = 1000
    fleets = [f.pk for f in campaign.fleets.all()]
    url = reverse("encounters:simulation_new", args=[campaign.pk])
    data = {"name": "Big", "fleets": fleets, "sweep": "max_rounds", "trials_per_point": "500", "chunk_size": "100",
            "seed": "", "opt-max_rounds": "30"}
    response = as_gm.post(url, data)
    assert response.status_code == 400
    assert response.context["form"].errors["trials_per_point"] == [
        "That is 1,500 battles (500 × 3 sweep points); the limit is 1,000 per run."]
    assert not SimulationRun.objects.exists()
    with django_capture_on_commit_callbacks() as callbacks:
        response = as_gm.post(url, {**data, "name": "Small", "trials_per_point": "300"})
    run = SimulationRun.objects.get(name="Small")
    assert response["Location"] == run.get_absolute_url()
    assert len(callbacks) == 1  # start_simulation is sent after the commit


def test_results_download_as_csv_and_json(as_gm, campaign):
    run = make_run(campaign, trials=20, chunk=20)
    results_of(run)
    body = as_gm.get(reverse("encounters:simulation_download", args=[run.pk, "csv"])).content.decode()
    rows = list(csv.DictReader(io.StringIO(body)))
    assert [r["point"] for r in rows] == ["1 rounds", "3 rounds", "10 rounds"] and rows[0]["trials"] == "20"
    data = json.loads(as_gm.get(reverse("encounters:simulation_download", args=[run.pk, "json"])).content)
    assert data["seed"] == "s1" and len(data["points"]) == 3


def test_the_results_page_draws_the_charts(as_gm, campaign):
    run = make_run(campaign, trials=20, chunk=20)
    results_of(run)
    page = as_gm.get(run.get_absolute_url()).content.decode()
    assert 'aria-label="Win probability of blue by sweep point"' in page
    assert page.count('aria-label="How many battles ended in each round, ') == 3


def test_players_and_outsiders_never_reach_simulations(client, player, outsider, campaign):
    run = make_run(campaign, trials=5, chunk=5)
    urls = [reverse("encounters:simulation", args=[run.pk]), reverse("encounters:simulation_cancel", args=[run.pk]),
            reverse("encounters:simulation_download", args=[run.pk, "csv"]),
            reverse("encounters:simulation_new", args=[campaign.pk])]
    client.force_login(player)
    assert [client.get(u).status_code for u in urls] == [403, 405, 403, 403]
    client.force_login(outsider)
    assert [client.get(u).status_code for u in urls] == [404, 405, 404, 404]
    assert client.post(urls[1]).status_code == 404


def test_the_gm_simulates_an_encounters_setup(as_gm, encounter, django_capture_on_commit_callbacks):
    url = reverse("encounters:simulation_from_encounter", args=[encounter.pk])
    page = as_gm.get(url)
    assert "fleets" not in page.context["form"].fields and "Skirmish" in page.content.decode()
    with django_capture_on_commit_callbacks():
        response = as_gm.post(url, {"name": "What if", "sweep": "max_rounds", "trials_per_point": "10",
                                    "chunk_size": "10", "seed": "w"})
    run = SimulationRun.objects.get(name="What if")
    assert response["Location"] == run.get_absolute_url() and run.setup == encounter.setup


def test_a_player_cannot_simulate_an_encounter(client, player, encounter):
    client.force_login(player)
    assert client.get(reverse("encounters:simulation_from_encounter", args=[encounter.pk])).status_code == 403
