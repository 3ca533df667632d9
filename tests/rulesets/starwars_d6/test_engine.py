"""The engine (engine.py) against the conformance suite, run directly (the ruleset is not registered yet)."""
import pytest

from rulesets.core.messages import english
from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.engine import Action, IllegalAction, Viewer
from rulesets.starwars_d6 import rules
from rulesets.starwars_d6.engine import RULESET, TEMPLATES
from tests.rulesets import test_conformance as conformance


@pytest.mark.parametrize("seed", conformance.SEEDS)
def test_conformance_playouts_end(seed):
    conformance.test_policy_playouts_end_within_the_step_limit(RULESET, seed)


@pytest.mark.parametrize("seed", conformance.SEEDS[:4])
def test_conformance_round_trip_replay_odds_views(seed):
    conformance.test_states_round_trip_through_json(RULESET, seed)
    conformance.test_replaying_a_log_gives_the_identical_state(RULESET, seed)
    conformance.test_odds_outcomes_sum_to_one(RULESET, seed)
    conformance.test_a_players_view_never_contains_gm_only_data(RULESET, seed)


@pytest.mark.parametrize("seed", conformance.SEEDS[:3])
def test_conformance_apply_is_pure(seed):
    conformance.test_apply_never_changes_the_state_it_is_given(RULESET, seed)


def test_conformance_gm_view():
    conformance.test_the_gm_view_lists_every_ship_with_id_and_side(RULESET)


def test_templates_are_valid_and_span_the_scales():
    """Issue 6: at least eight original templates across the scales; every one passes validate_stats."""
    assert len(TEMPLATES) >= 8
    assert {t["stats"]["scale"] for t in TEMPLATES} == {"starfighter", "capital", "death_star"}
    for t in TEMPLATES:
        assert rules.validate_stats(t["stats"]) == [], t["name"]
    for fleet in RULESET.demo_fleets():
        for ship in fleet["ships"]:
            assert ship["template"] in {t["name"] for t in TEMPLATES}


def test_round_through_the_protocol():
    """Seed 4. SEQÜENCIA DE JOC through the engine: initiative, moves, fire, resolve."""
    s = RULESET.setup(RULESET.example_setup(0))
    assert [a.kind for a in RULESET.step_actions(s)] == ["initiative"]
    with pytest.raises(IllegalAction):
        RULESET.apply(s, Action.make("resolve", "a"), Dice(ScriptedSource([])))
    s = RULESET.apply(s, RULESET.legal_actions(s)[0], Dice(ScriptedSource([1, 1, 5, 5]))).state
    assert s.phase == "movement" and RULESET.actor_ship(s) == "a"   # Alliance 1 + Wild Die 1 = 0, Empire 10
    assert Action.make("move", "a", how="forward", side=0) in RULESET.legal_actions(s)
    s = RULESET.apply(s, Action.make("move", "a", how="hold", side=0), Dice(ScriptedSource([]))).state
    s = RULESET.apply(s, Action.make("move", "b", how="hold", side=0), Dice(ScriptedSource([]))).state
    assert s.phase == "firing"
    # 11 hexes apart: lasers at long range
    fire = [a for a in RULESET.legal_actions(s) if a.kind == "fire"]
    assert fire and RULESET.odds(s, fire[0]).total == pytest.approx(1.0)
    assert "fires" in english(RULESET.describe(s, fire[0]))


def test_player_view_hides_enemy_crew():
    """The board is open; crew skills are shown only to the ship's own players."""
    s = RULESET.setup(RULESET.example_setup(0))
    v = RULESET.view(s, Viewer.player({"a"}))
    by = {sh["id"]: sh for sh in v["ships"]}
    assert "crew" in by["a"] and "crew" not in by["b"]


def test_templates_use_broadsides_and_ion_cannons():
    """Seed 3. "Factors de Foc" and "Canons d'ions": a template fires a broadside, one an ion cannon."""
    from rulesets.starwars_d6.engine import TEMPLATES
    weapons = [w for t in TEMPLATES for w in t["stats"]["weapons"]]
    assert any(w.get("shots", 1) > 1 for w in weapons)
    assert any(w["type"] == "ion_cannon" for w in weapons)
