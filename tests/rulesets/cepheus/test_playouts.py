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
    from rulesets.core import spec

    monkeypatch.setattr(spec, "PLACES_KEPT", 2)
    monkeypatch.setattr(st, "_SHIP_AT", {})
    monkeypatch.setattr(st, "_MEMBER_AT", {})
    s = RULESET.setup(_spec())
    for _ in range(3):
        assert s.ship("b").id == "b" and s.find_ship("a").id == "a" and s.ship("a").member("a1").id == "a1"
        assert s.ship("b").member("b1").id == "b1" and len(st._SHIP_AT) <= 2 and len(st._MEMBER_AT) <= 2


def _recorded(state, rng, limit=RULESET.step_limit):
    """The recorded path (what a GM's fight does): one ``policy`` and one ``apply`` a step, every roll and
    log line kept."""
    from rulesets.core.replay import play_out

    played = play_out(RULESET, state, rng, max_steps=limit, keep_log=True)
    assert played.recorded
    return played.state, played.steps


def _same_battle(start, seed, limit=RULESET.step_limit):
    """Play ``start`` both ways with the same seed: the steps, and the final states, must be identical."""
    import json
    import random

    fast, fast_steps = RULESET.playout(start, random.Random(seed), limit)
    slow, slow_steps = _recorded(start, random.Random(seed), limit)
    assert fast_steps == slow_steps, f"seed {seed}"
    assert json.dumps(to_json(fast), sort_keys=True) == json.dumps(to_json(slow), sort_keys=True), f"seed {seed}"
    assert RULESET.outcome(fast) == RULESET.outcome(slow)
    return fast_steps


def test_the_fast_playout_plays_the_recorded_battle_of_the_demo_fleets_at_every_band():
    """Issue 10: a simulation's playout (on a private copy changed in place, nothing recorded) plays the
    battle the recorded steps play (every roll and log line kept): for the demo fleets starting at each range band, the same number of
    steps and the same final state (hull, crews, ammunition, missiles, the winner, the round), and the
    state it started from is left as it was."""
    import json

    from rulesets.cepheus.tables import BANDS
    from rulesets.core.spec import demo_setup

    for band in BANDS:
        start = RULESET.setup(demo_setup(RULESET, {"range": band}))
        before = json.dumps(to_json(start), sort_keys=True)
        for seed in range(12):
            assert _same_battle(start, f"{band}:{seed}") > 20
        assert json.dumps(to_json(start), sort_keys=True) == before, band


def test_the_fast_playout_plays_the_recorded_battle_with_every_sweep_option():
    """The sweeps' options (hasty allowed or not, surprise, crew skills) and the rarer ones (a collision
    hazard, a planet's atmosphere, Adjacent without hasty) change which rules a battle meets; each plays
    the same battle both ways."""
    from rulesets.core.simulate import with_options

    spec = RULESET.example_setup(0)
    variants = [point.options for sweep in RULESET.sweeps() for point in sweep.points]
    variants += [{"hazard": "asteroids_low"}, {"hazard": "traffic", "range": "close"}, {"planet": True},
                 {"range": "adjacent", "hasty": False}]
    for i, options in enumerate(variants):
        start = RULESET.setup(with_options(spec, options))
        for seed in range(6):
            _same_battle(start, f"opt{i}:{seed}")
    start = RULESET.setup(RULESET.example_setup(1))
    for seed in range(20):
        _same_battle(start, f"ex1:{seed}")


def test_the_fast_playout_plays_the_recorded_battle_with_every_templates_weapons():
    """The battle's ships swapped for each template in turn (particle and meson bays, dampers and screens,
    missile bays) and its missiles made nuclear or smart: the rules those weapons meet (radiation crew
    hits, screens, smart missiles coming round) play the same battle both ways; a playout changes its
    ships in place, so a rule must not depend on whether it reads a ship from before a change."""
    from rulesets.cepheus.library import TEMPLATE, TEMPLATES

    base = RULESET.example_setup(0)
    for place in (1, 2):
        for template in TEMPLATES:
            spec = copy.deepcopy(base)
            spec["ships"][place]["stats"] = copy.deepcopy(TEMPLATE[template["name"]]["stats"])
            start = RULESET.setup(spec)
            for seed in range(20 if "particle" in template["notes"] else 3):
                _same_battle(start, f"{template['name']}:{place}:{seed}")
    for missile in ("nuclear", "smart"):
        spec = copy.deepcopy(base)
        for s in spec["ships"]:
            for mount in s["stats"].get("turrets", []) + s["stats"].get("bays", []):
                for w in mount.get("weapons", []):
                    if "missile" in w["type"]:
                        w["missile"] = missile
        start = RULESET.setup(spec)
        for seed in range(20):
            _same_battle(start, f"{missile}:{seed}")


def test_a_fast_playout_from_the_middle_of_a_fight_plays_the_same_and_changes_nothing():
    """A re-roll analysis plays on from any state of a fight (an attack waiting for the defender's
    reaction, missiles in flight, a turn half played): from each state of a recorded fight of the demo
    fleets, the fast playout gives the recorded path's battle and leaves that state, and the states of
    the fight before it, as they were."""
    import json
    import random

    from rulesets.core.dice import Dice, RandomSource
    from rulesets.core.spec import demo_setup

    for seed in range(3):
        state, rng = RULESET.setup(demo_setup(RULESET, {"range": "long"})), random.Random(seed)
        dice = Dice(RandomSource(rng), recording=False)
        history = []
        while not state.over:
            history.append((state, json.dumps(to_json(state), sort_keys=True)))
            state = RULESET.apply(state, RULESET.policy(state, rng), dice).state
        phases = set()
        for i, (start, _) in enumerate(history[::7]):
            phases.add(start.phase)
            _same_battle(start, f"mid:{seed}:{i}")
        assert all(json.dumps(to_json(s), sort_keys=True) == text for s, text in history)
        assert {"crew", "react"} <= phases
    # a step limit stops both the same way
    start = RULESET.setup(RULESET.example_setup(0))
    assert _same_battle(start, "limit", limit=17) == 17


def test_the_gunners_choice_kept_by_situation_is_the_choice_worked_out_afresh():
    """Attacco: the bot keeps each gunner's choice by situation (a simulation meets the same ones again and
    again); at every gunner's step of fights of both example setups and the demo fleets, played one
    after the other so that later fights meet situations kept from earlier ones (and from other
    setups), the kept choice is the one worked out afresh from the state."""
    import random

    from rulesets.cepheus import policy
    from rulesets.cepheus.crew import GUNNER_POSITIONS
    from rulesets.core.dice import Dice, RandomSource
    from rulesets.core.spec import demo_setup

    policy._GUNNER_CHOICE.clear()
    specs = [RULESET.example_setup(0), RULESET.example_setup(1), demo_setup(RULESET, {"range": "medium"}),
             demo_setup(RULESET, {"range": "short"})]
    checked = kept = 0
    for seed in range(8):
        for spec in specs:
            state, rng = RULESET.setup(spec), random.Random(seed)
            dice = Dice(RandomSource(rng), recording=False)
            while not state.over:
                if state.phase == "crew" and state.sig > 0:
                    ship, crew = state.actor()
                    if crew is not None and crew.position in GUNNER_POSITIONS and crew.task is None:
                        mount = ship.mount(crew.station)
                        target = policy.focus(state, ship)
                        best_id = target.id if target is not None else None
                        base = policy._gunner_base(ship, crew, mount)
                        key = policy._gunner_situation(state, ship, mount, best_id, base)
                        if key in policy._GUNNER_CHOICE:
                            kept += 1
                            assert policy._GUNNER_CHOICE[key] == policy._gunner_pick(state, ship, mount, best_id, base)
                        checked += 1
                state = RULESET.apply(state, RULESET.policy(state, rng), dice).state
    assert checked > 500 and kept > 200


def test_the_gunners_kept_choices_are_bounded_and_forgetting_them_changes_no_battle(monkeypatch):
    """A long-running process meets many setups: past a bound the kept choices are forgotten, and the
    battles are the ones played with every choice kept (or none)."""
    import random

    from rulesets.cepheus import policy

    start = RULESET.setup(RULESET.example_setup(0))
    kept = [RULESET.playout(start, random.Random(f"keep:{seed}"), RULESET.step_limit) for seed in range(5)]
    monkeypatch.setattr(policy, "_GUNNER_KEEP", 3)
    monkeypatch.setattr(policy, "_GUNNER_CHOICE", {})
    for seed in range(5):
        state, steps = RULESET.playout(start, random.Random(f"keep:{seed}"), RULESET.step_limit)
        assert steps == kept[seed][1] and to_json(state) == to_json(kept[seed][0])
        assert 0 < len(policy._GUNNER_CHOICE) <= 3
