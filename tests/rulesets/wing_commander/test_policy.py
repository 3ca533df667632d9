"""The bot that flies NPCs and both sides of a simulation (rulesets/wing_commander/policy.py)."""
from __future__ import annotations

import random

from rulesets.core.simulate import run_trial, with_options

from .helpers import GUNS, MISSILE, RULESET, TORPEDO, TURRET, fight, npc, ship, step, with_ship

RNG = random.Random(0)


def test_the_bot_drops_a_countermeasure_when_it_has_one_then_dodges():
    state = fight(ship("a", "blue", cls="heavy", chaff=1), npc("b", weapons=(GUNS, MISSILE)))
    state, _, _ = step(state, "attack actor=b target=a weapon=w2")
    assert RULESET.policy(state, RNG).to_str() == "countermeasure actor=a"
    state, _, _ = step(state, "countermeasure actor=a", 1, 1)
    assert RULESET.policy(state, RNG).to_str() == "dodge actor=a"


def test_the_bot_locks_a_torpedo_on_a_hard_target_then_fires_it():
    state = fight(ship("a", "blue", cls="bomber", weapons=(GUNS, TORPEDO)),
                  npc("c", cls="capital", tw=6, shields=10, hull=50, phase_shields=True))
    assert RULESET.policy(state, RNG).kind == "lock"
    state, _, _ = step(state, "lock actor=a target=c weapon=w2")
    state, _, _ = step(state, "pass actor=c")
    assert RULESET.policy(state, RNG).to_str() == "torpedo actor=a target=c weapon=w2"


def test_the_bot_stands_aside_with_no_shields_and_half_its_hull():
    state = with_ship(fight(ship("a", "blue", shields=10, hull=20), npc("b")), "a", shields=0, hull=10)
    assert RULESET.policy(state, RNG).kind == "regenerate"


def test_the_bot_attacks_the_enemy_it_can_hurt_most_for_what_it_has_left():
    state = fight(ship("a", "blue"), npc("tough", tw=12, shields=20, hull=30), npc("weak", tw=12, shields=0, hull=5))
    assert RULESET.policy(state, RNG).get("target") == "weak"


def test_every_sweep_point_plays_out():
    spec = RULESET.example_setup(0)
    for sweep in RULESET.sweeps():
        for point in sweep.points:
            outcome = run_trial(RULESET, with_options(spec, point.options), f"sweep:{sweep.key}:{point.label}")
            assert outcome["rounds"] >= 1


def test_the_flight_size_and_npc_tw_options_shape_the_fight():
    spec = RULESET.example_setup(0)
    one = RULESET.setup(with_options(spec, {"flight_size": 1, "npc_tw": 16, "wild_cards": "none"}))
    assert [s.name for s in one.ships] == ["Blue 1", "Claw 1"]
    assert one.ship("s3").tw == 16 and not one.ship("s1").wild_card


def test_the_bot_fires_a_missile_with_the_turret_joining():
    """2.1.3 (the turret joins a gun or a missile attack): a missile worth half again the guns goes with the
    turret beside it."""
    heavy = {"name": "Heavy missile", "kind": "missile", "damage": "6d6", "mv": 3, "stock": 1}
    state = fight(ship("a", "blue", weapons=(GUNS, TURRET, heavy)), npc("b", tw=12, shields=0, hull=40))
    assert RULESET.policy(state, RNG).to_str() == "attack actor=a target=b turret=w2 weapon=w3"
    assert RULESET.is_legal(state, RULESET.policy(state, RNG))
