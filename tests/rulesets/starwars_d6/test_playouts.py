"""Playouts (issue 10): simulations play thousands of battles with dice and rules recording nothing,
through the same rule code as the recorded steps a GM sees."""
import random

from rulesets.core.replay import play_out
from rulesets.starwars_d6.engine import RULESET

#: A short, busy fight: a broadside battery, a tractor beam, an ion cannon, torpedoes, lasers.
MIXED = {"ships": [
    {"id": "b", "name": "Bastion", "side": "Alliance", "template": "Bastion frigate"},
    {"id": "w", "name": "Warden", "side": "Alliance", "template": "Warden corvette"},
    {"id": "k", "name": "Kestrel", "side": "Empire", "template": "Kestrel interceptor"},
    {"id": "t", "name": "Talon", "side": "Empire", "template": "Talon heavy fighter"}],
    "options": {"width": 14, "height": 10, "separation": 4, "max_rounds": 2}}


def test_a_playout_recording_nothing_plays_the_same_battle_over_1000_seeds():
    """For the same seed, a playout with recording off reaches exactly the state of the recorded
    path, step for step: the same winner, rounds and every ship's results (1,000 seeds, the first
    round or so of each fight -- the conformance suite plays whole fights of example_setup(0))."""
    start = RULESET.setup(MIXED)
    kinds = set()
    for seed in range(1000):
        fast = play_out(RULESET, start, random.Random(f"playout:{seed}"), max_steps=20)
        recorded = play_out(RULESET, start, random.Random(f"playout:{seed}"), max_steps=20, keep_log=True)
        assert fast.steps == recorded.steps, f"seed {seed}"
        assert fast.state == recorded.state, f"seed {seed}"
        assert RULESET.outcome(fast.state) == RULESET.outcome(recorded.state)
        assert not fast.log and recorded.log
        kinds |= {step.action.split()[0] for step in recorded.recorded}
    assert {"initiative", "move", "fire", "done", "resolve"} <= kinds


def test_the_setup_is_built_once_and_every_caller_gets_its_own_copy():
    """Setups are cached by their spec; a caller that changes its state changes nobody else's."""
    first = RULESET.setup(MIXED)
    first.ships[0].col = 0
    first.ships[0].crew.gunnery = "9D"
    first.ships[0].weapons[0].ammo = 1
    first.features.append(None)
    again = RULESET.setup(MIXED)
    assert again.ships[0].col != 0 and again.ships[0].crew.gunnery != "9D"
    assert again.ships[0].weapons[0].ammo is None and again.features == []


def test_a_rule_copies_what_it_changes_and_shares_the_rest():
    """Copy on write: a move copies the moving ship only; the state it was given is unchanged."""
    state = RULESET.setup(MIXED)
    state = RULESET.apply(state, RULESET.policy(state, random.Random(0)), _dice(1, 2, 5, 4)).state   # Alliance 3, Empire 9
    mover = state.moving.ship
    before = [(sh.id, sh.pos, sh.facing) for sh in state.ships]
    after = RULESET.apply(state, RULESET.policy(state, random.Random(0)), _dice()).state
    assert [(sh.id, sh.pos, sh.facing) for sh in state.ships] == before
    for old, new in zip(state.ships, after.ships):
        assert (old is new) == (old.id != mover)


def test_the_bots_own_action_is_not_checked_again_but_any_other_action_is():
    """apply skips the legality check only for the very action the bot has just built for the very
    state (one of the legal actions by construction); an equal action typed in (the runner's path),
    or the bot's action on another state, is checked in full."""
    import pytest
    from rulesets.core.engine import Action, IllegalAction
    from rulesets.starwars_d6.policy import built_by_bot

    state = RULESET.setup(MIXED)
    state = RULESET.apply(state, RULESET.policy(state, random.Random(0)), _dice(1, 2, 5, 4)).state
    bot = RULESET.policy(state, random.Random(0))
    typed = Action.parse(str(bot))
    assert typed == bot and built_by_bot(state, bot) and not built_by_bot(state, typed)
    assert RULESET.apply(state, typed, _dice()).state == RULESET.apply(state, bot, _dice()).state
    # the same move, once the ship has moved on and turned: checked again, and refused if illegal
    moved = RULESET.apply(state, bot, _dice()).state
    other = RULESET.policy(moved, random.Random(0))
    illegal = Action.make("move", other.actor, how="slide", side=9)
    with pytest.raises(IllegalAction):
        RULESET.apply(moved, illegal, _dice())
    assert not built_by_bot(moved, bot)


def test_a_move_shares_the_movers_weapons_and_a_shot_copies_them():
    """A move changes where the ship is and which way it faces, not its weapons or damage: they stay
    shared with the state before; a rule that changes them (a shot spending ammunition) copies them
    first, so no earlier state changes."""
    state = RULESET.setup(MIXED)
    state = RULESET.apply(state, RULESET.policy(state, random.Random(0)), _dice(1, 2, 5, 4)).state
    mover = state.moving.ship
    after = RULESET.apply(state, RULESET.policy(state, random.Random(0)), _dice()).state
    old, new = state.ship(mover), after.ship(mover)
    assert old is not new and old.weapons is new.weapons and old.damage is new.damage
    ammo = [(sh.id, w.id, w.ammo) for sh in state.ships for w in sh.weapons]
    steps = 0
    while after.phase != "firing" or not after.queue:
        after = RULESET.apply(after, RULESET.policy(after, random.Random(0)), _dice(*[3] * 40)).state
        steps += 1
        assert steps < 200
    while after.phase == "firing" and after.queue:
        after = RULESET.apply(after, RULESET.policy(after, random.Random(0)), _dice(*[4] * 80)).state
    assert [(sh.id, w.id, w.ammo) for sh in after.ships for w in sh.weapons] != ammo    # a shot spent some
    assert [(sh.id, w.id, w.ammo) for sh in state.ships for w in sh.weapons] == ammo


def test_no_rule_changes_the_state_it_was_given():
    """Copy on write, for every rule a fight reaches (initiative, moves, drifts, shots, broadsides,
    ion hits, tractor beams, damage, collisions, jumps...): the state a step is applied to is equal,
    after the step, to a full copy taken before it -- recorded or played out."""
    from rulesets.core.dice import Dice, RandomSource
    from rulesets.starwars_d6.state import copy_state

    spec = {"ships": MIXED["ships"] + [{"id": "s", "name": "Sparrow", "side": "Empire", "template": "Sparrow scout"},
                                       {"id": "m", "name": "Wasp", "side": "Empire", "template": "Wasp bomber"}],
            "options": {"width": 14, "height": 10, "separation": 5, "max_rounds": 8,
                        "features": [{"kind": "obstacle", "col": 6, "row": 4}, {"kind": "moon", "col": 8, "row": 6}]}}
    kinds = set()
    for seed in range(120):
        rng = random.Random(f"unchanged:{seed}")
        state, source = RULESET.setup(spec), RandomSource(rng)
        while not state.over:
            action = RULESET.policy(state, rng)
            given, snapshot = state, copy_state(state)
            state = RULESET.apply(given, action, Dice(source, recording=seed % 2 == 0)).state
            assert given == snapshot, f"seed {seed}: '{action}' changed the state it was given"
            kinds.add(action.kind)
    assert {"initiative", "move", "fire", "done", "resolve"} <= kinds


def _dice(*faces):
    from rulesets.core.dice import Dice, ScriptedSource

    return Dice(ScriptedSource(list(faces)))
