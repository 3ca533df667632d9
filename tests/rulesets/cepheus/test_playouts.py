"""Playouts (issue 10): a simulation sets up one spec thousands of times and plays it with nothing
recorded, through the same rule code as the recorded steps a GM sees."""
import copy

from rulesets.cepheus.engine import RULESET
from rulesets.core.serial import to_json

from .helpers import AVG, crew, ship


def _spec():
    return {"ships": [ship("a", "blue", [crew("a1", "turret_gunner", "t1", gunnery=1)]),
                      ship("b", "red", [crew("b1", "pilot", pilot=2)])],
            "options": {"range": "short"}}


def test_the_setup_is_built_once_and_every_caller_gets_its_own_copy():
    """Checklist step 1 sets up the fight from the spec; the state is built once per spec and every
    call gets a copy that shares nothing it could change: changing one changes no other setup."""
    first = RULESET.setup(_spec())
    first.ships[0].hull = 0
    first.ships[0].crew[0].skills["gunnery"] = 9
    first.ships[0].crew[0].chars["dex"] = 2
    first.ships[0].mounts[0].weapons[0].loaded = 99
    first.ships[1].hits["bridge"] = 2
    first.ranges["a|b"] = "distant"
    first.options.aware.append("a")
    again = RULESET.setup(_spec())
    assert again.ships[0].hull == again.ships[0].hull_max
    assert again.ships[0].crew[0].skills == {"gunnery": 1} and again.ships[0].crew[0].chars == AVG
    assert again.ships[0].mounts[0].weapons[0].loaded == 0 and again.ships[1].hits == {}
    assert again.band("a", "b") == "short" and again.options.aware == []


def test_an_equal_spec_gives_an_equal_state_and_a_changed_spec_a_new_one():
    """The cache is keyed on the spec's value: an equal spec (another dict) gives the state a fresh
    build gives, and a spec changed in place after a setup is built again."""
    spec = _spec()
    assert to_json(RULESET.setup(copy.deepcopy(spec))) == to_json(RULESET.setup(spec))
    spec["options"]["range"] = "long"
    spec["ships"][0]["crew"][0]["skills"]["gunnery"] = 3
    state = RULESET.setup(spec)
    assert state.band("a", "b") == "long" and state.ships[0].crew[0].skills == {"gunnery": 3}


def test_ships_and_crew_are_found_by_id_whichever_fight_was_asked_before():
    """Checklist step 1: each ship and crew member is the one its id names.  Look-ups first try the
    place an id was last found at (the order of ships and crews never changes in a fight): after a
    fight that lists the same ids in another order, and for an id a ship does not hold, the answer is
    still the ship or crew member with that id, or none."""
    forward = RULESET.setup(_spec())
    backward = RULESET.setup({"ships": [ship("b", "red", [crew("x", "navigator"), crew("b1", "pilot", pilot=2)]),
                                        ship("a", "blue", [crew("a1", "turret_gunner", "t1", gunnery=1)])],
                              "options": {"range": "short"}})
    for state in (forward, backward, forward, backward):
        assert [state.ship(i).id for i in ("a", "b")] == ["a", "b"]
        assert state.find_ship("c") is None and state.ship("a").member("b1") is None
        assert state.ship("b").member("b1").skills == {"pilot": 2}
        assert state.ship("a").member("a1").position == "turret_gunner"
    assert backward.ship("b").member("x").position == "navigator" and forward.ship("b").member("x") is None


def test_asking_whether_a_defender_may_react_agrees_with_the_list_of_reactions():
    """Reazioni: an attack waits for the defender when it has any reaction left; the question asked with
    ``any_one`` (the list may stop at the first option) gives the first options of the full list, and is
    empty exactly when the full list is, at every reaction step of 20 seeded fights of the demo fleets."""
    import random

    from rulesets.cepheus.attacks import reaction_options
    from rulesets.core.dice import Dice, RandomSource
    from rulesets.core.spec import demo_setup

    spec, checked = demo_setup(RULESET), 0
    for seed in range(20):
        state, rng = RULESET.setup(spec), random.Random(seed)
        dice = Dice(RandomSource(rng), recording=False)
        while not state.over:
            if state.pending is not None and state.phase == "react":
                full, first = reaction_options(state, state.pending), reaction_options(state, state.pending, any_one=True)
                assert full[:len(first)] == first and bool(first) == bool(full)
                checked += 1
            state = RULESET.apply(state, RULESET.policy(state, rng), dice).state
    assert checked > 200


def test_the_places_remembered_are_bounded_and_forgetting_them_changes_no_answer(monkeypatch):
    """Checklist step 1: a long-running process meets many fights; past a bound the remembered places
    are forgotten, and every look-up still finds the ship or crew member its id names."""
    from rulesets.cepheus import state as st

    monkeypatch.setattr(st, "_AT_KEEP", 2)
    monkeypatch.setattr(st, "_SHIP_AT", {})
    monkeypatch.setattr(st, "_MEMBER_AT", {})
    s = RULESET.setup(_spec())
    for _ in range(3):
        assert s.ship("b").id == "b" and s.find_ship("a").id == "a" and s.ship("a").member("a1").id == "a1"
        assert s.ship("b").member("b1").id == "b1" and len(st._SHIP_AT) <= 2 and len(st._MEMBER_AT) <= 2
