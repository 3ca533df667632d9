"""The conformance suite: every registered ruleset must pass it.

It checks the engine protocol's promises generically: random playouts driven by
``policy`` end within the ruleset's step limit; states round-trip through JSON;
replaying a recorded log gives the identical state; ``odds`` outcomes sum to 1;
``view`` for a player never contains what ``secrets`` says is GM-only; and every
listed action is legal (``is_legal``, which a ruleset may answer itself) and applies.
"""
from __future__ import annotations

import json
import random

import pytest

from rulesets.core import registry, serial
from rulesets.core.dice import Dice, RandomSource
from rulesets.core.engine import Action, Viewer, is_legal
from rulesets.core.messages import Message, render
from rulesets.core.replay import play_out, replay
from tests.rulesets.core.toy import RULESET as TOY

RULESETS = list({r.key: r for r in [*registry.all_rulesets(), TOY]}.values())
SEEDS = range(8)


@pytest.fixture(params=RULESETS, ids=lambda r: r.key)
def ruleset(request):
    return request.param


def _states_along_playout(ruleset, seed, limit=400):
    """States met in one policy playout (every step), for the per-state checks."""
    rng = random.Random(f"conformance:{ruleset.key}:{seed}")
    state = ruleset.setup(ruleset.example_setup(seed % 2))
    out = [state]
    for _ in range(limit):
        if state.over:
            break
        result = play_out(ruleset, state, rng, max_steps=1)
        state = result.state
        out.append(state)
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_policy_playouts_end_within_the_step_limit(ruleset, seed):
    state = ruleset.setup(ruleset.example_setup(seed % 2))
    result = play_out(ruleset, state, random.Random(f"end:{seed}"))
    assert result.state.over, f"not over after {result.steps} steps"
    assert result.steps <= ruleset.step_limit


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_states_round_trip_through_json(ruleset, seed):
    for state in _states_along_playout(ruleset, seed):
        data = json.loads(json.dumps(serial.to_json(state)))
        back = serial.from_json(ruleset.state_class, data)
        assert back == state
        assert serial.to_json(back) == serial.to_json(state)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_replaying_a_log_gives_the_identical_state(ruleset, seed):
    spec = ruleset.example_setup(seed % 2)
    played = play_out(ruleset, ruleset.setup(spec), random.Random(f"replay:{seed}"), keep_log=True)
    replayed = replay(ruleset, spec, played.recorded)
    assert serial.to_json(replayed) == serial.to_json(played.state)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_odds_outcomes_sum_to_one(ruleset, seed):
    checked = 0
    for state in _states_along_playout(ruleset, seed, limit=120):
        for action in ruleset.legal_actions(state):
            odds = ruleset.odds(state, action)
            if odds is None:
                continue
            checked += 1
            assert abs(odds.total - 1) < 1e-9, (action, odds)
            assert all(0 <= o.probability <= 1 for o in odds.outcomes)
    assert checked > 0, "no action of this ruleset ever had odds"


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_a_players_view_never_contains_gm_only_data(ruleset, seed):
    for state in _states_along_playout(ruleset, seed, limit=150):
        sides = {}
        for ship_id, side in ruleset_ships(ruleset, state):
            sides.setdefault(side, set()).add(ship_id)
        for ships in sides.values():
            viewer = Viewer.player(ships)
            text = json.dumps(ruleset.view(state, viewer), sort_keys=True)
            secrets = ruleset.secrets(state, viewer)
            for secret in secrets:
                assert secret not in text, f"{secret!r} leaked to a player of {sorted(ships)}"


def ruleset_ships(ruleset, state):
    """(ship id, side) pairs, read from the GM's view, which every ruleset gives."""
    view = ruleset.view(state, Viewer.gm())
    return [(s["id"], s["side"]) for s in view["ships"]]


def test_the_gm_view_lists_every_ship_with_id_and_side(ruleset):
    state = ruleset.setup(ruleset.example_setup(0))
    ships = ruleset_ships(ruleset, state)
    assert len(ships) >= 2
    assert len({side for _, side in ships}) >= 2


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_apply_never_changes_the_state_it_is_given(ruleset, seed):
    """The runner keeps recent states in memory and replays from them: apply must copy, not mutate."""
    from rulesets.core.dice import Dice, RandomSource

    rng = random.Random(f"pure:{seed}")
    for state in _states_along_playout(ruleset, seed, limit=150):
        if state.over:
            continue
        before = json.dumps(serial.to_json(state), sort_keys=True)
        ruleset.apply(state, ruleset.policy(state, rng), Dice(RandomSource(rng)))
        assert json.dumps(serial.to_json(state), sort_keys=True) == before


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_every_listed_action_is_legal_and_applies(ruleset, seed):
    """Random legal actions, not the bot's: every one listed passes ``is_legal`` (a ruleset's own
    check must agree with its list) and applies; an unknown action is refused."""
    rng = random.Random(f"legal:{ruleset.key}:{seed}")
    state = ruleset.setup(ruleset.example_setup(seed % 2))
    for _ in range(150):
        if state.over:
            break
        legal = ruleset.legal_actions(state)
        assert legal, "a fight that is not over offers an action"
        assert all(is_legal(ruleset, state, a) for a in legal)
        assert not is_legal(ruleset, state, Action.make("no-such-kind", "nobody"))
        state = ruleset.apply(state, rng.choice(legal), Dice(RandomSource(rng))).state


def test_the_ruleset_fulfils_the_written_contract(ruleset):
    """Everything rulesets/core/contract.py declares is there (the message names what is not)."""
    from rulesets.core.contract import missing

    assert missing(ruleset) == [], f"{ruleset.key} lacks: " + "; ".join(missing(ruleset))


def test_the_forms_module_fulfils_the_contract(ruleset):
    """Positions, the stat form, the crew form and the setup form, with the methods the app calls."""
    from importlib import import_module

    from rulesets.core.contract import forms_missing

    module = import_module(ruleset.forms_module)
    assert forms_missing(module) == [], "; ".join(forms_missing(module))
    assert module.POSITIONS and all(len(p) == 2 for p in module.POSITIONS)


def test_the_demo_templates_pass_the_systems_own_stat_validation(ruleset):
    from importlib import import_module

    from campaigns.rulesets import form_errors

    form_cls = import_module(ruleset.forms_module).ShipStatsForm
    templates = ruleset.templates()
    assert templates, "a system ships templates for the library"
    for template in templates:
        assert form_errors(form_cls, template["stats"]) == {}, template["name"]
    names = {t["name"] for t in templates}
    for fleet in ruleset.demo_fleets():
        for ship in fleet["ships"]:
            assert ship["template"] in names, f"demo fleet {fleet['name']!r} names no template {ship['template']!r}"


def test_the_outcome_is_typed_and_labelled(ruleset):
    from rulesets.core.contract import BattleOutcome

    state = play_out(ruleset, ruleset.setup(ruleset.example_setup(0)), random.Random("outcome")).state
    outcome = ruleset.outcome(state)
    assert isinstance(outcome, BattleOutcome)
    assert ruleset.strength_label and ruleset.strength_label[0].isupper()
    assert all(0 <= s.strength_left <= 1 and s.ships_lost >= 0 for s in outcome.sides)
    assert BattleOutcome.from_json(outcome.to_json()) == outcome


def _result(ruleset, spec, state):
    return ruleset.outcome(state), [ruleset.damage_of(state, ship["id"]) for ship in spec["ships"]]


def test_a_playout_that_records_nothing_plays_the_same_battle(ruleset):
    """Issue 10: for the same seed, playout mode (dice and rules recording nothing) gives exactly the
    same winner, rounds and per-ship results as the recorded path, over 1,000 seeds (through the
    system's own ``playout`` where it has one), and leaves the state it started from as it was."""
    spec = ruleset.example_setup(0)
    start = ruleset.setup(spec)
    before = json.dumps(serial.to_json(start), sort_keys=True)
    for seed in range(1000):
        fast = play_out(ruleset, start, random.Random(f"mode:{seed}"))
        recorded = play_out(ruleset, start, random.Random(f"mode:{seed}"), keep_log=True)
        assert recorded.recorded, "the recorded path records its steps"
        assert fast.steps == recorded.steps, f"seed {seed}"
        assert _result(ruleset, spec, fast.state) == _result(ruleset, spec, recorded.state), f"seed {seed}"
    assert json.dumps(serial.to_json(start), sort_keys=True) == before, "a playout changed the state it started from"


def test_the_warm_up_computes_odds_along_a_fight(ruleset):
    """Issue 14: the web server warms the odds caches at start-up, not on the GM's first click."""
    assert ruleset.warm_up(steps=5) > 0


def test_the_demo_fleets_fight_to_the_end(ruleset):
    """The demo campaign's fleets, as seed_demo builds them, set up and fight to a result."""
    from rulesets.core.spec import demo_setup

    result = play_out(ruleset, ruleset.setup(demo_setup(ruleset)), random.Random("demo"))
    assert result.state.over and result.steps <= ruleset.step_limit


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_every_listed_action_is_described_and_every_viewer_served_along_random_play(ruleset, seed):
    """Random legal actions and the bot's, mixed, from the example setups and the demo fleets: every
    action listed has words for the GM and odds (or none), and the GM's and a player's views build, at
    every step."""
    from rulesets.core.spec import demo_setup

    rng = random.Random(f"words:{ruleset.key}:{seed}")
    spec = demo_setup(ruleset) if seed == 2 and ruleset is not TOY else ruleset.example_setup(seed % 2)
    state = ruleset.setup(spec)
    player = Viewer("player", frozenset(s["id"] for s in spec["ships"][:1]), 1)
    for _ in range(120):
        if state.over:
            break
        legal = ruleset.legal_actions(state)
        for action in legal:
            words = ruleset.describe(state, action)
            assert isinstance(words, (str, Message)) and render(words).strip(), action  # words or a message
            ruleset.odds(state, action)
        assert isinstance(ruleset.view(state, Viewer.gm()), dict)
        assert isinstance(ruleset.view(state, player), dict)
        action = rng.choice(legal) if rng.random() < 0.6 else ruleset.policy(state, rng)
        state = ruleset.apply(state, action, Dice(RandomSource(rng))).state
