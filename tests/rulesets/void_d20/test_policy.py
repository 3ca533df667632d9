"""The bot's stated policy (docs/rulesets/void_d20.md, "The bot") and the simulation sweeps."""
from __future__ import annotations

import random

from rulesets.core.engine import Action, is_legal
from rulesets.core.replay import play_out
from rulesets.core.simulate import with_options
from rulesets.void_d20.engine import RULESET
from rulesets.void_d20.model import ShipWeapon, pair_key

from .helpers import aboard_state, char, foe, medkit, person, space_state, vessel

RNG = random.Random(0)


def _duel(band="medium", grinder_frame=10, **kestrel):
    k = vessel("s1", "Kestrel", "crew", **kestrel)
    g = vessel("s2", "Grinder", "raiders", frame=grinder_frame, max_frame=10)
    people = (char("jun", "Jun", position="pilot", agility=3), char("tom", "Tom", position="marine", body=3),
              char("ilse", "Ilse", position="gunner", technology=3),
              char("skarn", "Skarn", side="raiders", ship="s2", position="pilot"))
    return space_state(k, g, people=people, band=band)


def _at(state, station):
    from rulesets.void_d20 import tables

    return type(state)(**{**state.__dict__, "slot": [s.key for s in tables.STATIONS].index(station)})


def test_the_pilot_closes_on_a_drifting_enemy_to_board_it():
    state = _at(_duel(grinder_frame=0), "pilot")
    assert RULESET.policy(state, RNG) == Action.make("close", "s1", target="s2")


def test_the_guns_hold_fire_on_a_drifting_ship_they_mean_to_board_and_board_when_docked():
    state = _at(_duel(band="close", grinder_frame=0), "gunner")
    assert RULESET.policy(state, RNG).kind == "pass"
    state = _at(_duel(band="docked", grinder_frame=0), "gunner")
    assert RULESET.policy(state, RNG) == Action.make("board", "s1", target="s2", method="breach")


def test_a_battered_ship_runs():
    state = _at(_duel(frame=2, max_frame=10), "pilot")
    assert RULESET.policy(state, RNG) == Action.make("break", "s1", target="s2")


def test_a_bleeding_friend_gets_the_medkit_first():
    state = aboard_state(char("bo", "Bo", aboard="s2", items=(medkit(),)),
                         char("ann", "Ann", aboard="s2", hp=0, status="bleeding", timer=1), foe())
    assert RULESET.policy(state, RNG) == Action.make("medkit", "bo", target="ann")


def test_a_void_point_goes_on_a_hard_shot_and_a_risky_attack_on_an_easy_one():
    hard = aboard_state(char(aboard="s2", technology=0, void=1), foe(dr=15))
    assert RULESET.policy(hard, RNG) == Action.make("attack", "ann", target="r1", void=1)
    easy = aboard_state(char(aboard="s2", technology=5, void=1), foe(dr=11))
    assert RULESET.policy(easy, RNG) == Action.make("risky", "ann", target="r1")


def test_every_bot_choice_is_legal_along_playouts():
    for variant in (0, 1):
        state = RULESET.setup(RULESET.example_setup(variant))
        rng = random.Random(f"bot:{variant}")
        for _ in range(300):
            if state.over:
                break
            action = RULESET.policy(state, rng)
            assert is_legal(RULESET, state, action), action
            state = play_out(RULESET, state, rng, max_steps=1).state


def test_each_sweep_point_sets_up_and_plays_out():
    spec = RULESET.example_setup(0)
    for sweep in RULESET.sweeps():
        for point in sweep.points:
            state = RULESET.setup(with_options(spec, point.options))
            assert play_out(RULESET, state, random.Random(point.label)).state.over
    far = RULESET.setup(with_options(spec, {"start_band": "far"}))
    assert far.bands[pair_key("s1", "s2")] == "far"
    bigger = RULESET.setup(with_options(spec, {"squad_bonus": 2}))
    assert sum(1 for c in bigger.combatants if c.squad == "g4") == 5
    rich = RULESET.setup(with_options(spec, {"void_points": 4}))
    assert {c.void for c in rich.combatants if c.kind == "character"} == {4}


def _boarding(defenders, band="docked"):
    """The Kestrel (Tom and Ilse to go across, Jun at the helm) docked with a Grinder whose frame is
    at 0, with ``defenders`` aboard it; the Kestrel's gunner to act."""
    k = vessel("s1", "Kestrel", "crew")
    g = vessel("s2", "Grinder", "raiders", frame=0, max_frame=10)
    people = (char("jun", "Jun", position="pilot", agility=3), char("tom", "Tom", position="marine", body=3),
              char("ilse", "Ilse", position="gunner", technology=3), *defenders)
    return _at(space_state(k, g, people=people, band=band), "gunner")


def _raiders(count):
    return tuple(foe(f"r{i}", f"Raider {i}", squad="r", hp=6, attack=2) for i in range(1, count + 1))


def test_the_bot_weighs_its_boarding_party_against_the_defenders_before_boarding():
    """docs "The bot": board only when the party's strength (policy.fighting_strength: Lanchester,
    hit chance x mean damage x what each can take) is at least BOARDING_NERVE of the defenders'."""
    from rulesets.void_d20 import policy

    weak = _boarding(_raiders(1))
    party = [person(weak, "tom"), person(weak, "ilse")]
    assert policy.fighting_strength(party, list(_raiders(1))) > policy.fighting_strength(list(_raiders(1)), party)
    assert RULESET.policy(weak, RNG) == Action.make("board", "s1", target="s2", method="breach")

    strong = _boarding(_raiders(6))
    assert (policy.fighting_strength(party, list(_raiders(6)))
            < policy.BOARDING_NERVE * policy.fighting_strength(list(_raiders(6)), party))
    assert RULESET.policy(strong, RNG).kind == "pass"


def test_a_drifting_ship_too_well_defended_to_board_is_shot_at_not_closed_on():
    """docs "The bot": a drifting enemy the party will not board is not a reason to close or to hold fire."""
    close = _boarding(_raiders(6), band="close")
    assert RULESET.policy(close, RNG) == Action.make("fire", "s1", weapon="w1", target="s2")
    medium = _at(_boarding(_raiders(6), band="medium"), "pilot")
    assert RULESET.policy(medium, RNG) == Action.make("evade", "s1")
    weak = _at(_boarding(_raiders(1), band="medium"), "pilot")
    assert RULESET.policy(weak, RNG) == Action.make("close", "s1", target="s2")


def test_the_pilot_closes_until_the_hardest_hitting_gun_reaches():
    """docs "The bot": a gun that works only at Close (VD-44) brings the pilot in from Medium."""
    rivets = (ShipWeapon("w1", "Rivet cannon", "2d6", "close"), ShipWeapon("w2", "Cutting beam", "d6", "standard"))
    state = _at(_duel(weapons=rivets), "pilot")
    assert RULESET.policy(state, RNG) == Action.make("close", "s1", target="s2")
    state = _at(_duel(band="close", weapons=rivets), "pilot")
    assert RULESET.policy(state, RNG) == Action.make("evade", "s1")


def test_the_turn_orders_quick_open_station_check_agrees_with_the_station_list():
    """options.station_open answers without listing the choices; it must say what the list says."""
    from rulesets.void_d20 import tables
    from rulesets.void_d20.options import station_choices, station_open

    for variant in (0, 1):
        state = RULESET.setup(RULESET.example_setup(variant))
        rng = random.Random(f"open:{variant}")
        for _ in range(400):
            if state.over:
                break
            for s in state.ships:
                for info in tables.STATIONS:
                    assert station_open(state, s, info.key) == bool(list(station_choices(state, s, info.key)))
            state = play_out(RULESET, state, rng, max_steps=1).state
