"""The bot's stated policy (policy.py, decision D11) and the simulation sweeps."""
import random

import pytest

from rulesets.core.simulate import run_trial, with_options
from rulesets.dropfleet import damage as damage_rules
from rulesets.dropfleet import sequence
from rulesets.dropfleet.engine import RULESET
from rulesets.dropfleet.fleets import demo_spec

from .helpers import attacker, get, ship, state, step, weapon


def test_the_bot_fires_the_shot_of_highest_expected_damage_then_opens_fire():
    guns = (weapon(id="g", attacks=1), weapon(id="h", name="Big gun", attacks=4))
    st = state(attacker(weapons=guns), ship())
    choice = RULESET.policy(st, random.Random(1))
    assert (choice.kind, choice.get("weapon")) == ("fire", "h")
    st = step(st, str(choice)).state
    assert RULESET.policy(st, random.Random(1)).kind == "open_fire"  # Standard orders: one system


def test_the_bot_spends_point_defence_where_it_saves_most():
    """D5: against 3+ armour and no passive, a blocked critical point is worth more than two normal ones."""
    s = damage_rules.shot(attacker(), weapon(close_action=True), ship(armour=(3,)))
    assert damage_rules.best_pd_option(damage_rules.pd_options(2, 1, 2), s) == (0, 1)
    s = damage_rules.shot(attacker(), weapon(close_action=True), ship(armour=(6,), passive=2))
    assert damage_rules.best_pd_option(damage_rules.pd_options(2, 1, 2), s) == (2, 0)
    assert damage_rules.best_pd_option(damage_rules.pd_options(2, 1, 2), s, "crit_first") == (0, 1)


def test_the_bot_takes_weapons_free_when_its_move_brings_a_weapon_to_bear_else_silent_running():
    """D11: Weapons Free when a move can bring a weapon system to bear; otherwise Silent Running
    (it fires nothing this activation anyway, and Signature 0 keeps it out of the enemy's reach)."""
    near = state(attacker(y=20), ship(), phase="orders")
    far = state(attacker(y=44), ship(), phase="orders")
    assert RULESET.policy(near, random.Random(1)).get("order") == "weapons_free"
    assert RULESET.policy(far, random.Random(1)).get("order") == "silent_running"
    # 20" behind a narrow front arc: within Scan + Thrust + Signature, but a 45° turn cannot bring it to bear.
    behind = state(attacker(x=0, y=10, weapons=weapon(arc="NF")), ship(x=0, y=30), phase="orders")
    assert RULESET.policy(behind, random.Random(1)).get("order") == "silent_running"


def test_the_bot_turns_towards_the_enemy_its_narrow_arc_can_reach_not_only_the_nearest():
    """D11: the places weighed turn towards each enemy (as far as the order allows), so a
    narrow-front weapon is brought to bear on a farther enemy when the nearest is behind."""
    behind = ship("t", x=20, y=34)
    ahead = ship("u", x=12, y=16)
    st = state(attacker(x=20, y=30, weapons=weapon(arc="NF"), order="weapons_free"), behind, ahead, phase="move")
    choice = RULESET.policy(st, random.Random(1))
    # heading 330° towards "u": half a move (18,26) brings it to bear as well as a full one, nearer "t"
    assert (choice.kind, choice.get("x"), choice.get("y")) == ("move", 18, 26)
    st = step(st, str(choice)).state
    assert [t.id for _, _, t in sequence.fire_options(st)] == ["u"]


def test_sweeps_vary_distance_and_layers_and_the_demo_fleets_fight_to_an_end():
    keys = {s.key: s for s in RULESET.sweeps()}
    assert set(keys) == {"separation", "layers"}
    for point in keys["layers"].points:
        outcome = run_trial(RULESET, with_options(demo_spec({"separation": 12}), point.options), f"sweep:{point.label}")
        assert outcome["rounds"] >= 1 and set(outcome["strength"]) == {"Vess", "Sable"}


def test_the_bots_own_choice_is_not_checked_again_but_any_other_action_is(monkeypatch):
    """Issue 10, fast playouts: ``apply`` skips the legality check only for the very action the
    bot chose for the very state; an equal action parsed from its text (the runner's path), or
    the bot's action on another state object, is checked in full."""
    from rulesets.core.dice import Dice, RandomSource
    from rulesets.core.engine import Action, IllegalAction
    from rulesets.core.state import clone

    checked = []
    original = type(RULESET)._check
    monkeypatch.setattr(type(RULESET), "_check", lambda self, s, a: (checked.append(a), original(self, s, a)))
    st = RULESET.setup(RULESET.example_setup(0))
    rng = random.Random(3)
    choice = RULESET.policy(st, rng)
    RULESET.apply(st, choice, Dice(RandomSource(rng), recording=False))
    assert checked == []
    RULESET.apply(st, Action.parse(str(choice)), Dice(RandomSource(rng), recording=False))
    RULESET.apply(clone(st), choice, Dice(RandomSource(rng), recording=False))
    assert len(checked) == 2
    with pytest.raises(IllegalAction):
        RULESET.apply(st, Action.make("end_round", "gm"), Dice(RandomSource(rng), recording=False))


def test_the_planned_fire_step_declares_what_choosing_one_at_a_time_declares():
    """Issue 10: the bot plans a group's fire step once when it begins; each declaration it
    returns is the one ``_best_shot_now`` (the step-by-step choice) gives for that state."""
    from rulesets.dropfleet import policy as bot

    compared = 0
    for seed in range(40):
        rng = random.Random(seed)
        st = RULESET.setup(RULESET.example_setup(seed % 2))
        while not st.over:
            choice = RULESET.policy(st, rng)
            if st.phase == "fire":
                assert str(choice) == str(bot._best_shot_now(st))
                compared += 1
            st = RULESET.apply(st, choice, _quiet(rng)).state
    assert compared > 100


def _quiet(rng):
    from rulesets.core.dice import Dice, RandomSource

    return Dice(RandomSource(rng), recording=False)


def test_a_remembered_decision_is_the_one_deciding_afresh_gives():
    """Issue 11, fast playouts: the bot's orders, moves and fire plans are kept by the
    situation they were decided in (``policy.situation``: every fact of the state they read),
    and a situation that comes back is not decided again.  Over battles of both example setups
    and the demo fleets, each remembered choice equals the one worked out from the state."""
    from rulesets.dropfleet import policy as bot

    reused = 0
    specs = [RULESET.example_setup(0), RULESET.example_setup(1), with_options(demo_spec(), {"layers": "mixed"})]
    for seed in range(30):
        rng = random.Random(seed)
        st = RULESET.setup(specs[seed % 3])
        while not st.over:
            known = bot.situation(st, st.phase) in bot._DECIDED
            choice = RULESET.policy(st, rng)
            if st.phase == "orders":
                assert choice == bot.order_choice(st)
            elif st.phase == "move":
                assert choice == bot.move_choice(st, sequence.mover(st))
            elif st.phase == "fire" and not st.declared:
                assert bot._DECIDED[bot.situation(st, "fire")] == tuple(bot._plan_fire(st))
            reused += known
            st = RULESET.apply(st, choice, _quiet(rng)).state
    assert reused > 100


def test_the_remembered_situation_names_what_the_bot_reads():
    """A fact the bot reads (a ship's place, its order, whether it has moved, the half of the
    battle) makes another situation; one it does not read (Hull, an enemy's facing, a ship of
    the side's other groups) does not."""
    from rulesets.dropfleet import policy as bot
    from rulesets.core.state import clone

    st = RULESET.setup(RULESET.example_setup(1))  # Vess: Steadfast, Lancet 1; Sable: Nightglass, Wisp 1
    assert st.side == "Vess" and st.group == st.ships[0].group != st.ships[1].group

    def changed(index, **changes):
        ships = list(st.ships)
        ships[index] = clone(ships[index], **changes)
        return bot.situation(clone(st, ships=ships), "orders")

    key = bot.situation(st, "orders")
    a, enemy = st.ships[0], st.ships[2]
    for other in (changed(0, x=a.x + 2), changed(0, order="silent_running"), changed(0, moved=True),
                  changed(0, effects=(damage_rules.Effect("engines_disabled", 1),)), changed(2, y=enemy.y - 2),
                  changed(2, shields_up=not enemy.shields_up), changed(2, destroyed=True),
                  bot.situation(clone(st, round=st.max_rounds), "orders")):
        assert other != key
    for same in (changed(0, hull=a.hull - 3), changed(2, heading=90), changed(1, x=0.0, order="max_thrust")):
        assert same == key
    # a group that spans sides: every ship counts, the other groups' too
    ships = list(st.ships)
    ships[2] = clone(enemy, group=a.group)
    mixed = clone(st, ships=ships)
    moved_friend = clone(mixed, ships=[ships[0], clone(ships[1], x=0.0), *ships[2:]])
    assert bot.situation(mixed, "orders") != bot.situation(moved_friend, "orders")
