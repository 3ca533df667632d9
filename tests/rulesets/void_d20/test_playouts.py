"""Playouts (issues 10 and 13): simulations and re-roll analyses play the bot's fight with nothing
recorded, through ``RULESET.playout`` (docs/rulesets/void_d20.md, "Playout speed").  It must play the
battle the recorded loop plays (one ``policy`` + one ``apply`` a step, dice recorded, log written):
the same steps, outcome, damage and final state, and leave the state it was given as it was.  The
conformance suite checks 1,000 seeds of ``example_setup(0)``; these check the other fights too."""
import json
import random

import pytest

from rulesets.core.engine import Action
from rulesets.core.replay import play_out
from rulesets.core.serial import to_json
from rulesets.core.simulate import with_options
from rulesets.core.spec import demo_setup
from rulesets.void_d20 import policy, tables
from rulesets.void_d20.engine import RULESET
from rulesets.void_d20.model import VoidState
from rulesets.void_d20.options import station_choices, station_open


def _dump(state) -> str:
    return json.dumps(to_json(state), sort_keys=True)


def _fights():
    """(name, spec): the example setups, the demo fleets, and every sweep point on the duel and the demo."""
    out = [("example 0", RULESET.example_setup(0)), ("example 1", RULESET.example_setup(1)),
           ("demo", demo_setup(RULESET))]
    for sweep in RULESET.sweeps():
        for point in sweep.points:
            for name, spec in (("example 0", RULESET.example_setup(0)), ("demo", demo_setup(RULESET))):
                out.append((f"{name}, {sweep.key} {point.label}", with_options(spec, point.options)))
    return out


FIGHTS = _fights()


@pytest.mark.parametrize("name,spec", FIGHTS, ids=[name for name, _ in FIGHTS])
def test_the_playout_plays_the_recorded_battle_and_leaves_its_start_as_it_was(name, spec):
    """Same seed, same battle: steps, winner, rounds, per-side results, each ship's damage and the
    whole final state equal the recorded loop's, for 25 seeds of each fight; the start state unchanged,
    and the state handed back is a plain VoidState (the playout's private working copy never leaks)."""
    start = RULESET.setup(spec)
    before = _dump(start)
    for seed in range(25):
        fast = play_out(RULESET, start, random.Random(f"playout:{name}:{seed}"))
        recorded = play_out(RULESET, start, random.Random(f"playout:{name}:{seed}"), keep_log=True)
        assert fast.steps == recorded.steps and fast.state.over, (name, seed)
        assert type(fast.state) is VoidState
        assert fast.state == recorded.state, (name, seed)
        assert RULESET.outcome(fast.state) == RULESET.outcome(recorded.state)
        assert [RULESET.damage_of(fast.state, s.id) for s in start.ships] == \
            [RULESET.damage_of(recorded.state, s.id) for s in start.ships]
    assert _dump(start) == before, "a playout changed the state it started from"


def test_a_playout_cut_short_stops_where_the_recorded_loop_stops():
    """``max_steps`` (the conformance suite steps a fight one playout step at a time): after any number
    of steps the state is the recorded loop's, including the steps that begin a round."""
    spec = RULESET.example_setup(0)
    start = RULESET.setup(spec)
    for seed in range(5):
        for limit in (0, 1, 2, 3, 7, 20, 45):
            fast = play_out(RULESET, start, random.Random(f"cut:{seed}"), max_steps=limit)
            recorded = play_out(RULESET, start, random.Random(f"cut:{seed}"), max_steps=limit, keep_log=True)
            assert fast.steps == recorded.steps <= limit
            assert _dump(fast.state) == _dump(recorded.state), (seed, limit)


def test_stepping_a_fight_one_playout_step_at_a_time_plays_the_whole_battle():
    """A playout may start from any state a fight reaches (a re-roll analysis starts mid-fight): one
    step at a time from each state met, the same states as the recorded loop, to the same end."""
    for variant in (0, 1):
        start = RULESET.setup(RULESET.example_setup(variant))
        rng_fast, rng_recorded = random.Random(f"steps:{variant}"), random.Random(f"steps:{variant}")
        fast = recorded = start
        while not recorded.over:
            fast = play_out(RULESET, fast, rng_fast, max_steps=1).state
            recorded = play_out(RULESET, recorded, rng_recorded, max_steps=1, keep_log=True).state
            assert _dump(fast) == _dump(recorded)
        assert fast.over


def test_the_bots_station_choice_is_one_the_station_offers():
    """The bot decides the sensors, guns and engineer by asking the station's questions (sensors_work,
    can_board, can_fire, can_repair), not by listing its choices: whatever it picks is in the list
    (or is "pass"), and the turn order's open check says what the list says, along 20 fights."""
    for seed in range(20):
        state = RULESET.setup(demo_setup(RULESET) if seed % 2 else RULESET.example_setup(0))
        rng = random.Random(f"offered:{seed}")
        while not state.over:
            if state.phase == "turn" and state.scale == "ship":
                s = next(x for x in state.ships if x.id == state.order[state.turn])
                station = tables.STATIONS[state.slot].key
                action = policy.choose(state, rng)
                offered = [Action.make(kind, s.id, **params) for kind, params in station_choices(state, s, station)]
                assert action.kind == "pass" or action in offered, (seed, action)
                for other in state.ships:
                    for info in tables.STATIONS:
                        assert station_open(state, other, info.key) == bool(list(station_choices(state, other, info.key)))
            state = play_out(RULESET, state, rng, max_steps=1).state
