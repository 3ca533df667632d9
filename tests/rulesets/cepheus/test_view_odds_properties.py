"""Sensor details by range band (Tabella: Bande di Gittata), exact odds, and state invariants."""
import json
import random

from hypothesis import given, settings, strategies as st

from rulesets.cepheus.engine import RULESET
from rulesets.cepheus.odds import p_at_least
from rulesets.core.engine import Viewer
from rulesets.core.messages import english

from .helpers import act, crew, duel, legal, setup, ship, start

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)


def enemy_entry(state, viewer_ship="a", enemy="b"):
    view = RULESET.view(state, Viewer.player([viewer_ship]))
    return next(s for s in view["ships"] if s["id"] == enemy)


def test_a_player_sees_only_a_contact_at_distant_range():
    """Tabella: Bande di Gittata: at Distant no details."""
    s = start(setup(ship("a", "blue"), ship("b", "red", [crew("x", "pilot", pilot=3)]), range="distant"), 1, 1, 1, 1)
    e = enemy_entry(s)
    assert e["name"] == "Unknown contact" and "hull" not in e and "crew" not in e


def test_long_range_shows_the_configuration_and_advanced_sensors_the_external_structure():
    s = start(setup(ship("a", "blue"), ship("b", "red"), range="long"), 1, 1, 1, 1)
    e = enemy_entry(s)
    assert e["name"] == "B" and "mounts" in e and "hull" not in e
    s2 = start(setup(ship("a", "blue", sensors="advanced"), ship("b", "red"), range="long"), 1, 1, 1, 1)
    assert "hull" in enemy_entry(s2)


def test_close_range_shows_ship_systems_and_very_advanced_sensors_the_neural_activity():
    s = start(setup(ship("a", "blue", sensors="very_advanced"), ship("b", "red", [crew("x", "pilot")]), range="close"),
              1, 1, 1, 1)
    e = enemy_entry(s)
    assert "damaged systems" in e and e["crew aboard"] == 1
    s2 = start(setup(ship("a", "blue"), ship("b", "red", [crew("x", "pilot")]), range="close"), 1, 1, 1, 1)
    assert "crew aboard" not in enemy_entry(s2)


def test_a_player_never_sees_enemy_crew_skills_but_sees_their_own():
    s = duel([crew("p", "pilot", pilot=2)], [crew("x", "pilot", pilot=3)], range="adjacent", a_stats={"sensors": "very_advanced"})
    text = json.dumps(RULESET.view(s, Viewer.player(["a"])), sort_keys=True)
    assert '"crew_id": "p"' in text and '"crew_id": "x"' not in text
    for secret in RULESET.secrets(s, Viewer.player(["a"])):
        assert secret not in text


def test_the_gm_sees_everything():
    s = duel([crew("p", "pilot", pilot=2)], [crew("x", "pilot", pilot=3)], range="distant")
    text = json.dumps(RULESET.view(s, Viewer.gm()))
    assert '"crew_id": "x"' in text and RULESET.secrets(s, Viewer.gm()) == []


def test_check_odds_are_exact_before_the_roll():
    """RULES-NOTES: 2D6 + DMs >= 8; the odds are those of the roll the action makes."""
    s = duel([crew("p", "pilot", pilot=1)], [])
    odds = RULESET.odds(s, legal(s, "evasive")[0])
    assert abs(odds.probability("success") + odds.probability("exceptional success") - float(p_at_least(1))) < 1e-12
    assert abs(odds.total - 1) < 1e-12 and "58% success" in english(odds.summary)


def test_attack_odds_give_hit_chance_and_expected_hits():
    s = duel([GUNNER], [crew("t", "passenger")])
    odds = RULESET.odds(s, legal(s, "attack")[0])
    assert abs(odds.probability("miss") - float(1 - p_at_least(1))) < 1e-12
    assert "to hit" in english(odds.summary) and "hits expected" in english(odds.summary) and abs(odds.total - 1) < 1e-9


def test_describe_labels_the_gms_buttons():
    s = duel([GUNNER], [crew("t", "passenger")])
    assert RULESET.describe(s, legal(s, "attack")[0]) == "Fire turret 1 (pulse laser) at B"


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.integers(min_value=0, max_value=1))
def test_no_sequence_of_legal_actions_corrupts_a_state(seed, variant):
    """Hull, Structure and ammunition never go below zero; a destroyed ship never acts."""
    rng = random.Random(seed)
    s = RULESET.setup(RULESET.example_setup(variant))
    from rulesets.core.dice import Dice, RandomSource
    dice = Dice(RandomSource(rng))
    for _ in range(300):
        if s.over:
            break
        acts = [a for a in RULESET.legal_actions(s) if a.kind != "override"]
        actor = RULESET.actor_ship(s)
        assert s.find_ship(actor).alive          # a destroyed (or escaped) ship never acts
        action = acts[int(rng.random() * len(acts))] if rng.random() < 0.6 else RULESET.policy(s, rng)
        s = RULESET.apply(s, action, dice).state
        for sh in s.ships:
            assert sh.hull >= 0 and sh.structure >= 0 and sh.armour >= 0 and sh.fuel >= 0
            assert all(w.loaded >= 0 and w.reserve >= 0 for m in sh.mounts for w in m.weapons)
