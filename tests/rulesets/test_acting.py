"""The contract's "who acts": every listed action maps to a character the campaign can link.

Issue 22: the rule system says who acts at each step (``RulesetBase.acting``); the app maps
that :class:`~rulesets.core.contract.Actor` to its player (encounters/players.py).  Here,
over the registry and the toy: along bot-played example fights, every legal action is either
the GM's own (None: the override, bookkeeping) or names a ship of the setup, a crew member of
the setup, or a crew position the system's forms offer aboard a ship of the setup.
"""
from __future__ import annotations

import importlib
import random

import pytest

from rulesets.core import registry
from rulesets.core.contract import Actor
from rulesets.core.replay import play_out
from tests.rulesets.core.toy import RULESET as TOY

RULESETS = list({r.key: r for r in [*registry.all_rulesets(), TOY]}.values())


def _positions(ruleset) -> set[str]:
    try:
        module = importlib.import_module(ruleset.forms_module)
    except ImportError:
        return set()
    return {str(k) for k, _ in getattr(module, "POSITIONS", [])}


@pytest.mark.parametrize("ruleset", RULESETS, ids=lambda r: r.key)
@pytest.mark.parametrize("variant", [0, 1])
def test_every_listed_action_names_a_linkable_character(ruleset, variant):
    spec = ruleset.example_setup(variant)
    ships = {s["id"] for s in spec["ships"]}
    crew = {c["id"] for s in spec["ships"] for c in s.get("crew", []) if c.get("id")}
    positions = _positions(ruleset)
    rng = random.Random(f"acting:{ruleset.key}:{variant}")
    state = ruleset.setup(spec)
    seen_player_steps = 0
    for _ in range(300):
        if state.over:
            break
        for action in ruleset.legal_actions(state):
            actor = ruleset.acting(state, action)
            if action.kind == "override":
                assert actor is None, f"{ruleset.key}: the GM's override is nobody's character: {action}"
                continue
            if actor is None:
                continue
            assert isinstance(actor, Actor)
            seen_player_steps += 1
            if actor.character:
                assert actor.character in crew, f"{ruleset.key}: {action} names crew {actor.character!r}, not in the setup"
            else:
                assert actor.ship in ships, f"{ruleset.key}: {action} names ship {actor.ship!r}, not in the setup"
                if actor.position:
                    assert actor.position in positions, (
                        f"{ruleset.key}: {action} names position {actor.position!r}, not one of {sorted(positions)}")
        state = play_out(ruleset, state, rng, max_steps=1).state
    assert seen_player_steps, f"{ruleset.key}: no action along the fight is a character's"


def test_the_default_reads_the_actor_field():
    """``actor`` "" and "gm" are the GM's; a ship id is the ship; a crew id, or a part of one
    before a ".", is that crew member."""
    from rulesets.core.engine import Action

    state = TOY.setup(TOY.example_setup(0))
    ship = state.ships[0].id
    assert TOY.acting(state, Action.make("x", "gm")) is None
    assert TOY.acting(state, Action.make("x", "")) is None
    assert TOY.acting(state, Action.make("x", ship)) == Actor(ship=ship)
    assert TOY.acting(state, Action.make("x", f"{ship}.turret-2")) == Actor(ship=ship)
    assert TOY.acting(state, Action.make("x", "c7.2")) == Actor(character="c7")
