"""A simulation's page says what it means (issue 27): a verdict sentence, readable histograms,
an elapsed time that says what it measures, and both sides' fleets ticked on the form."""
import re
from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Fleet
from encounters import charts
from encounters.models import SimulationChunk, SimulationRun
from encounters.simulations import _progress, duration
from encounters.verdict import balance, thresholds, verdict
from rulesets.core.simulate import summarise

SIDES = ["Meridian", "Raiders"]


def point(label, wins, losses, draws=0, rounds=None):
    """A sweep point's statistics as the workers store them, from made-up battles."""
    outcomes = ([{"winner": "Meridian", "rounds": 3, "strength": {"Meridian": 0.8, "Raiders": 0.0}, "lost": {}}] * wins
                + [{"winner": "Raiders", "rounds": 4, "strength": {"Meridian": 0.0, "Raiders": 0.5}, "lost": {}}] * losses
                + [{"winner": None, "rounds": 10, "strength": {"Meridian": 0.5, "Raiders": 0.5}, "lost": {}}] * draws)
    if rounds is not None:
        outcomes = [{**o, "rounds": r} for o, r in zip(outcomes, rounds)]
    return {"label": label, **summarise(outcomes, SIDES)}


@pytest.mark.parametrize("gap, key", [(0, "even"), (9.9, "even"), (10, "edge"), (29.9, "edge"), (30, "clear"),
                                      (59.9, "clear"), (60, "lopsided"), (100, "lopsided")])
def test_how_even_is_the_gap_between_the_win_rates_in_bands_of_10_30_and_60_points(gap, key):
    assert balance(gap) == key


def test_the_thresholds_are_said_in_words():
    assert thresholds() == ("How even: the gap between the two sides' win rates. Under 10 points is even, 10 to 30 "
                            "a slight edge, 30 to 60 a clear favourite, 60 or more lopsided.")


def test_one_side_winning_everywhere_by_much_is_lopsided():
    results = [point(label, wins, 100 - wins) for label, wins in
               (("Adjacent", 94), ("Close", 96), ("Short", 95), ("Distant", 95))]
    said = verdict(results, SIDES)
    assert said["sentence"] == ("Meridian wins about 95% of the battles at every point from Adjacent to Distant: "
                                "lopsided.")
    assert said["key"] == "lopsided"


def test_a_favourite_whose_lead_grows_says_from_which_word_to_which():
    results = [point("Close", 55, 45), point("Long", 70, 30), point("Distant", 90, 10)]
    assert verdict(results, SIDES)["sentence"] == (
        "Meridian wins 55–90% of the battles at every point from Close to Distant: from a slight edge at Close "
        "to lopsided at Distant.")


def test_a_single_point_names_both_rates():
    assert verdict([point("as set up", 75, 25)], SIDES)["sentence"] == (
        "Meridian wins 75% of the battles (Raiders 25%): a clear favourite.")
    assert verdict([point("as set up", 48, 52)], SIDES)["sentence"] == (
        "The sides are even: Meridian wins 48% of the battles, Raiders 52%.")


def test_two_points_are_both_points():
    results = [point("hasty allowed", 30, 70), point("no hasty", 20, 80)]
    assert verdict(results, SIDES)["sentence"] == (
        "Raiders wins 70–80% of the battles at both points (hasty allowed and no hasty): "
        "from a clear favourite at hasty allowed to lopsided at no hasty.")


def test_when_the_favourite_changes_the_verdict_says_where_each_side_is_ahead():
    results = [point("TW 8", 99, 1), point("TW 10", 94, 5, 1), point("TW 12", 51, 43, 6), point("TW 14", 13, 86, 1),
               point("TW 16", 0, 100)]
    assert verdict(results, SIDES)["sentence"] == (
        "Who wins depends on the point: Meridian is ahead at TW 8 and TW 10 (94–99%); Raiders is ahead at TW 14 "
        "and TW 16 (86–100%); the sides are even at TW 12. Draws: 0–6% of the battles.")
    assert verdict(results, SIDES)["key"] is None


def test_draws_are_mentioned_once_they_are_worth_saying():
    even = [point("Far", 40, 40, 20), point("Docked", 42, 40, 18)]
    assert verdict(even, SIDES)["sentence"] == (
        "The sides are even at both points (Far and Docked): Meridian wins about 41% of the battles, Raiders 40%. "
        "Draws: about 19% of the battles.")
    assert "Draws" not in verdict([point("Far", 60, 39, 1)], SIDES)["sentence"]


def test_a_cancelled_runs_points_without_battles_are_left_out():
    results = [point("Close", 90, 10), {"label": "Far", "trials": 0}]
    assert verdict(results, SIDES)["sentence"] == "Meridian wins 90% of the battles (Raiders 10%): lopsided."


@pytest.mark.parametrize("seconds, words", [(0.44, "0.4 s"), (9.96, "10.0 s"), (12.4, "12 s"), (185, "3 min 5 s"),
                                            (3725, "1 h 2 min")])
def test_durations_in_words(seconds, words):
    assert duration(seconds) == words


def test_the_histograms_share_their_scale_and_their_labels_never_touch():
    results = [point("Close", 60, 40, rounds=list(range(1, 21)) * 5), point("Far", 50, 50)]
    svgs = [charts.rounds_histogram(r, 1, 20, 40) for r in results]
    for svg in svgs:
        assert 'viewBox="0 0 360 240"' in svg
        assert '<text x="40" y="18" class="title">' in svg
        ticks = re.findall(r'class="axis">(\d+)</text>', svg)
        assert ticks[:2] == ["0", "40"]  # the same battle scale on each
        rounds = re.findall(r'<text x="([\d.]+)" y="\d+" text-anchor="middle" class="axis">(\d+)</text>', svg)
        xs = [float(x) for x, _label in rounds]
        # 13-unit digits: "20" is about 14 units wide; neighbours at least that plus a gap apart
        assert all(b - a >= 20 for a, b in zip(xs, xs[1:])), xs
        assert [label for _x, label in rounds][0] == "1"
    assert "round 20: 5 battles ended" in svgs[0] and "round 4: 50 battles ended" in svgs[1]


@pytest.mark.django_db
def test_the_page_opens_with_the_verdict_and_says_what_the_time_measures(as_gm, campaign):
    start = timezone.now() - timedelta(seconds=40)
    run = SimulationRun.objects.create(
        campaign=campaign, name="Range sweep", ruleset="toy", setup={"ships": [
            {"id": "a", "name": "A", "side": "Meridian"}, {"id": "b", "name": "B", "side": "Raiders"}]},
        sweep="max_rounds", points=[{"label": "Close", "options": {}}, {"label": "Far", "options": {}}],
        trials_per_point=100, status=SimulationRun.DONE, started_at=start, finished_at=start + timedelta(seconds=12),
        results=[point("Close", 94, 6), point("Far", 96, 4)])
    for index, seconds in enumerate((10.5, 9.5, 2.0, 2.0)):
        SimulationChunk.objects.create(run=run, index=index, point=index // 2, first_trial=50 * (index % 2),
                                       trials=50, outcomes=[], complete=True, seconds=seconds)
    page = as_gm.get(run.get_absolute_url()).content.decode()
    sentence = ("Meridian wins about 95% of the battles at both points (Close and Far): lopsided.")
    assert f'<p class="verdict" id="verdict">{sentence}</p>' in page
    assert page.index('id="verdict"') < page.index('id="run-progress"') < page.index('id="results"')
    assert "Under 10 points is even, 10 to 30 a slight edge" in page
    assert ('<span id="run-timing">Computed in 12 s, from the start of the first worker task to the end of the last; '
            'the battles took 24 s of worker time in 4 tasks (about 2.0 workers busy at once).</span>') in page


@pytest.mark.django_db
def test_a_running_and_a_queued_run_say_what_their_time_is(campaign, monkeypatch):
    from types import SimpleNamespace

    now = timezone.now()
    monkeypatch.setattr("encounters.simulations.timezone", SimpleNamespace(now=lambda: now))
    run = SimulationRun.objects.create(campaign=campaign, name="R", ruleset="toy", setup={"ships": []},
                                       points=[{"label": "p", "options": {}}], trials_per_point=100)
    assert _progress(run)["timing"] == "Waiting for a worker to start it."
    run.status, run.started_at = SimulationRun.RUNNING, now - timedelta(seconds=30)
    run.save()
    SimulationChunk.objects.create(run=run, index=0, point=0, first_trial=0, trials=50, outcomes=[], complete=True,
                                   seconds=25)
    assert _progress(run)["timing"] == "Running for 30 s since a worker started it; about 30 s to go."


@pytest.mark.django_db
def test_the_simulation_form_ticks_both_sides_fleets_as_the_encounter_form_does(as_gm, campaign):
    page = as_gm.get(reverse("encounters:simulation_new", args=[campaign.pk])).content.decode()
    boxes = re.findall(r'<input type="checkbox" name="fleets"[^>]*>', page)
    assert len(boxes) == 2 and all("checked" in b for b in boxes)


@pytest.mark.django_db
def test_with_three_sides_the_first_two_sides_fleets_are_ticked(as_gm, campaign):
    Fleet.objects.create(campaign=campaign, name="Zeta pirates", side="yellow")  # sides: blue, red, yellow
    Fleet.objects.create(campaign=campaign, name="Red reserve", side="red")
    form = as_gm.get(reverse("encounters:simulation_new", args=[campaign.pk])).context["form"]
    assert sorted(f.name for f in form.initial["fleets"]) == ["Blue squadron", "Red reserve", "Red squadron"]
