"""Who stands where (common.Standing): the sides standing (the fight is over when one is left,
Раунды и порядок), the ships with a boarding fight aboard (Абордаж: a personal round there) and who
works which station (Действия на корабле, VD-37..41) are one value kept in the state by the helpers
that change the people and ships.  It must always be what the people and ships say now, and it is
never saved (docs/rulesets/void_d20.md, "Playout speed")."""
import random

import pytest

from rulesets.core.dice import Dice, RandomSource
from rulesets.core.engine import Action
from rulesets.core.serial import from_json, to_json
from rulesets.core.spec import demo_setup
from rulesets.void_d20.common import set_combatant, set_ship, work_out_standing
from rulesets.void_d20.engine import RULESET
from rulesets.void_d20.model import VoidState

SETUPS = [("example 0", RULESET.example_setup(0)), ("example 1", RULESET.example_setup(1)), ("demo", demo_setup(RULESET))]


def _check(state: VoidState) -> None:
    assert state.standing == work_out_standing(state.ships, state.combatants)


@pytest.mark.parametrize("name,spec", SETUPS, ids=[n for n, _ in SETUPS])
def test_the_kept_standing_is_what_the_people_say_at_every_step(name, spec):
    for seed in range(12):
        rng = random.Random(f"standing {seed}")
        state = RULESET.setup(spec)
        _check(state)
        while not state.over:
            state = RULESET.apply(state, RULESET.policy(state, rng), Dice(RandomSource(rng))).state
            _check(state)


def test_a_person_downed_or_gone_across_changes_it_and_hp_does_not():
    state = RULESET.setup(RULESET.example_setup(0))           # space: nobody aboard an enemy ship
    assert state.standing.contested == ()
    pilot = next(c for c in state.combatants if c.ship == "s1" and c.position == "pilot")
    assert state.standing.crews["s1"]["pilot"] == pilot.id
    hurt = set_combatant(state, pilot.id, hp=1)
    assert hurt.standing is state.standing                    # HP moves nobody: kept as it was
    shocked = set_combatant(state, pilot.id, status="shock")  # in shock: works no station (VD-37)
    _check(shocked)
    assert shocked.standing.crews["s1"].get("pilot") != pilot.id
    across = set_combatant(state, pilot.id, aboard="s2")      # gone across: a boarding fight aboard s2
    _check(across)
    assert across.standing.contested == ("s2",)
    gone = set_ship(state, "s2", destroyed=True)              # the raiders' only ship: their side is out
    _check(gone)
    assert gone.standing.sides == {"crew"}


def test_a_gm_override_of_a_status_keeps_it_right():
    state = RULESET.setup(RULESET.example_setup(1))
    step = RULESET.apply(state, Action.make("override", "gm", path="Kestrel.crew.Jun Okafor.status", value="shock"),
                         Dice(RandomSource(random.Random(1))))
    assert step.state.standing != state.standing
    _check(step.state)


def test_it_is_neither_saved_nor_compared():
    state = RULESET.setup(RULESET.example_setup(1))
    data = to_json(state)
    assert "standing" not in data
    back = from_json(VoidState, data)
    assert back.standing is None and back == state
    _check(RULESET.apply(back, RULESET.policy(back, random.Random(2)), Dice(RandomSource(random.Random(2)))).state)
