"""The re-roll analysis says what it means (issue 27).

A fight the GM stopped early is compared with replays stopped at the same round (not
with replays played to the end), the page says it was stopped rather than calling it a
draw, the turning points are only rolls that moved the odds, and the odds are drawn.
The toy duel (tests/rulesets/core/toy.py): Alpha (blue, gunnery 1) and Bravo (red,
gunnery 2), 10 hull each; a shot hits on 2D6 + gunnery >= 8 for 1D6.
"""
import pytest
from django.urls import reverse

from encounters import log, tasks
from encounters.analysis_page import round_words
from encounters.models import EncounterAnalysis
from rulesets.core.analysis import leader, moved_the_odds
from tests.encounters.conftest import ship_id

pytestmark = pytest.mark.django_db

#: Alpha hits on 2D6 >= 7
P_HIT = 21 / 36


def fire(encounter, faces):
    encounter.dice_mode = "manual"
    encounter.save()
    head = log.current(encounter).head
    log.step(encounter, f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}",
             expected_seq=head, faces=faces)


def analysed(encounter, replays=400, per_roll=200):
    log.finish(encounter, carry_damage=False)
    analysis = EncounterAnalysis.objects.create(encounter=encounter, replays=replays, per_roll=per_roll, seed="luck")
    tasks.run_analysis(analysis.pk)
    analysis.refresh_from_db()
    assert analysis.status == "done", analysis.error
    return analysis


def test_a_fight_stopped_in_round_1_is_compared_with_replays_stopped_there(encounter):
    fire(encounter, [6, 6, 6])  # Alpha hits Bravo for 6; the GM ends the encounter before Bravo answers
    assert not log.current(encounter).state.over
    r = analysed(encounter).results
    assert r["stopped"] is True and r["stop_round"] == 1
    assert r["real"]["winner"] is None and r["real"]["strength"] == {"blue": 1.0, "red": 0.4}
    assert r["leader"] == "blue" and r["won_share"] == 0  # one shot cannot destroy a 10-hull ship
    # Nobody shot at Alpha by round 1 in any replay: the same in every one.
    assert r["strength"]["blue"] == {"real": 1.0, "mean": 1.0, "less": 0.0, "more": 0.0, "same": 1.0}
    # Bravo took the most one shot can do: no replay left it less; those that hit for 6 left it the same.
    red = r["strength"]["red"]
    assert red["less"] == 0 and 0 < red["same"] < 0.2 and red["more"] == pytest.approx(1 - red["same"])
    # Stopped where the real fight stopped (played to the end the loser would average near 0):
    # 1 - P(hit) x 3.5 / 10 = 0.796, give or take four standard errors of 400 replays.
    assert red["mean"] == pytest.approx(1 - P_HIT * 0.35, abs=0.04)
    assert r["happened_share"] == pytest.approx(P_HIT, abs=0.1)  # blue ahead: Alpha's shot hit
    # The one rolled step: blue ahead with fresh dice about P_HIT of the time, with the real dice always.
    [swing] = r["swings"]
    assert swing["before"] == pytest.approx(P_HIT, abs=0.14) and swing["after"] == 1.0
    assert r["turning_points"] == [swing]


def test_the_page_says_the_fight_was_stopped_and_draws_the_odds(as_gm, encounter):
    fire(encounter, [6, 6, 6])
    analysis = analysed(encounter)
    r = analysis.results
    page = as_gm.get(reverse("encounters:analysis", args=[encounter.pk, analysis.pk])).content.decode()
    assert "The fight was stopped in round 1, before either side had won." in page
    assert "a draw" not in page and "were draws" not in page
    assert f"When it stopped, blue was ahead. In the replays blue was ahead at that point " \
           f"{round(r['happened_share'] * 100)}% of the time." in page
    # Alpha's row: the real hull left, the replays' mean, and where it sits, in words (not "100th percentile").
    assert ("<strong>blue</strong> · Hull left: <strong>100%</strong>; the replays averaged 100%.\n"
            '          <span class="muted">The real fight left it the same as in every replay.</span>') in page
    red = r["strength"]["red"]
    assert (f"<strong>red</strong> · Hull left: <strong>40%</strong>; the replays averaged {round(red['mean'] * 100)}%."
            f"\n          <span class=\"muted\">The real fight left it the same as in {round(red['same'] * 100)}% "
            f"and less than in {round(red['more'] * 100)}% of the replays.</span>") in page
    assert "percentile" not in page
    before = round(r["swings"][0]["before"] * 100)
    assert f"blue&#x27;s chance of being ahead in round 1 went from {before}% to 100%." in page
    assert "<strong>Step 1</strong>: Alpha hits Bravo for 6." in page
    assert 'class="chart odds"' in page and "after each roll, by step; the turning points are marked" in page


def test_a_roll_that_could_not_change_the_outcome_is_no_turning_point(as_gm, encounter):
    """Alpha with gunnery 10 always hits (2D6 + 10 >= 8) and Bravo has 1 hull: the fight is decided
    before the dice are rolled, so its one roll moves nothing."""
    setup = encounter.setup
    for ship in setup["ships"]:
        if ship["name"] == "Alpha":
            ship["crew"][0]["skills"]["gunnery"] = 10
        else:
            ship["stats"]["hull"] = 1
    encounter.setup = setup
    encounter.save()
    fire(encounter, [1, 1, 1])
    assert log.current(encounter).state.winner == "blue"
    analysis = analysed(encounter, replays=50, per_roll=20)
    r = analysis.results
    assert r["stopped"] is False and r["winner_share"] == 1.0
    assert [(s["before"], s["after"]) for s in r["swings"]] == [(1.0, 1.0)]
    assert r["turning_points"] == []
    page = as_gm.get(reverse("encounters:analysis", args=[encounter.pk, analysis.pk])).content.decode()
    assert "blue won. In the replays blue also won 100% of the time." in page
    assert "No roll moved the odds by a whole percentage point." in page and "went from" not in page


def test_an_analysis_stored_before_keeps_reading_without_zero_swings(as_gm, encounter):
    """Results stored by the earlier analysis (a percentile, every roll listed) still read: the rolls
    that moved nothing ("from 0% to 0%") are not listed."""
    fire(encounter, [6, 6, 6])
    log.finish(encounter, carry_damage=False)
    seq = log.current(encounter).applied[0].seq
    old = {"replays": 10, "real": {"winner": None, "rounds": 1, "strength": {"blue": 1.0, "red": 0.4}, "lost": {}},
           "winner_share": 0.0, "draw_share": 0.0, "strength_percentile": {"blue": 1.0, "red": 0.2},
           "mean_strength": {"blue": 0.5, "red": 0.3},
           "swings": [{"seq": seq, "action": "x", "before": 0.0, "after": 0.0, "swing": 0.0}],
           "turning_points": [{"seq": seq, "action": "x", "before": 0.0, "after": 0.0, "swing": 0.0}]}
    analysis = EncounterAnalysis.objects.create(encounter=encounter, status="done", results=old)
    page = as_gm.get(reverse("encounters:analysis", args=[encounter.pk, analysis.pk])).content.decode()
    assert "went from 0% to 0%" not in page and "No roll moved the odds" in page
    assert "<strong>red</strong> · Hull left: <strong>40%</strong>; the replays averaged 30%." in page
    assert "The real fight left it at the 20th percentile of the replays." in page


def test_a_roll_moves_the_odds_by_a_whole_point_as_the_page_shows_it():
    assert not moved_the_odds({"before": 0.0, "after": 0.0})
    assert not moved_the_odds({"before": 0.401, "after": 0.404})  # 40% to 40%
    assert moved_the_odds({"before": 0.40, "after": 0.41})


def test_the_side_ahead_is_the_one_with_strictly_the_most_left():
    assert leader({"strength": {"blue": 1.0, "red": 0.4}}) == "blue"
    assert leader({"strength": {"blue": 0.5, "red": 0.5}}) is None
    assert leader({"strength": {"blue": 0.1 + 0.2, "red": 0.3}}) is None  # a float sum is still level


def test_round_0_is_before_the_first_round():
    assert round_words(0) == "before the first round"
    assert round_words(3) == "in round 3"
