"""The Dropfleet engine around the rules: the GM override, what players see, physical dice,
carrying damage back, words for the GM; property tests over random playouts."""
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_

from rulesets.core import serial
from rulesets.core.dice import Dice, DiceNeeded, ManualSource, RandomSource
from rulesets.core.engine import Action, IllegalAction, Viewer
from rulesets.core.messages import english, render
from rulesets.dropfleet import checks
from rulesets.dropfleet import ships as ship_rules
from rulesets.dropfleet.engine import RULESET

from .helpers import attacker, dice, get, ship, state, step, weapon


def start(variant=0):
    return RULESET.setup(RULESET.example_setup(variant))


def override(st, path, value):
    return RULESET.apply(st, Action.make("override", path=path, value=value), dice())


def test_the_gm_sets_any_value_by_hand_recorded_as_a_step():
    """Issue 11, the escape hatch: stats, position, heading, layer, spike, effects, Hull."""
    st = start()
    for path, value in [("Steadfast.hull", "4"), ("Steadfast.pos", "10,12"), ("steadfast.heading", "90"),
                        ("Steadfast.layer", "low"), ("Steadfast.spike", "major"), ("Steadfast.effect.add", "Fire"),
                        ("Steadfast.armour", "3+"), ("Steadfast.passive", "5+"), ("b.scan", "9")]:
        result = override(st, path, value)
        assert result.log and result.log[0].text.startswith("GM sets")
        st = result.state
    a, b = get(st, "a"), get(st, "b")
    assert (a.hull, a.x, a.y, a.heading, a.layer, a.spike) == (4, 10, 12, 90, "low", 2)
    assert a.has("fire") and a.profile.armour == (3,) and a.profile.passive == 5 and b.profile.scan == 9
    assert RULESET.legal_actions(st)  # still playable


@pytest.mark.parametrize("path,value,message", [
    ("Steadfast.hull", "lots", "Steadfast.hull: Hull is a whole number from 0 to 60; 'lots' is not a whole number"),
    ("Steadfast.layer", "orbit", "is not one of"),
    ("Nobody.hull", "3", "does not start with a ship"),
    ("Steadfast.warp", "3", "has no 'warp'"),
])
def test_override_errors_name_the_path(path, value, message):
    with pytest.raises(IllegalAction, match=message):
        override(start(), path, value)


def test_a_hull_of_zero_removes_the_ship_without_a_roll():
    """Overrides roll nothing: Hull 0 removes the ship (the GM rules what follows)."""
    st = override(start(), "Nightglass.hull", "0").state
    assert get(st, "b").destroyed and st.over and st.winner == "Vess"


def test_players_do_not_see_the_enemys_declared_fire():
    """Issue 11: players see the table as their ships would: not the other side's hidden choices."""
    st = state(attacker(), ship(), phase="fire")
    st = step(st, "fire actor=a weapon=g target=t").state
    enemy = Viewer.player({"t"})
    own = Viewer.player({"a"})
    secret = RULESET.secrets(st, enemy)
    assert secret == ["Attacker aims Railgun at Target"]
    assert secret[0] not in json.dumps(RULESET.view(st, enemy), default=render)
    assert secret[0] in json.dumps(RULESET.view(st, own), default=render)
    assert RULESET.view(st, enemy)["ships"][0]["spike"] == "none"  # spikes are visible to all


def test_physical_dice_are_asked_roll_by_roll_saves_after_hits():
    """Issue 11: the runner asks for exactly the dice each step needs, the save dice after the hits."""
    st = step(state(attacker(weapons=weapon(attacks=3)), ship(armour=(4,))), "fire actor=a weapon=g target=t").state
    with pytest.raises(DiceNeeded) as first:
        RULESET.apply(st, Action.parse("open_fire actor=a"), Dice(ManualSource([])))
    assert (first.value.count, first.value.sides) == (3, 6)
    with pytest.raises(DiceNeeded) as second:
        RULESET.apply(st, Action.parse("open_fire actor=a"), Dice(ManualSource([4, 5, 1])))
    assert (second.value.count, second.value.sides) == (2, 6) and "saves" in english(second.value.purpose)


def test_damage_is_carried_back_and_set_up_again():
    """damage_of -> the campaign -> setup: Hull lost, crippling effects and thresholds rolled."""
    st = override(override(start(), "Steadfast.hull", "4").state, "Steadfast.effect.add", "hull breach").state
    carried = RULESET.damage_of(st, "a")
    assert carried == {"hull_lost": 6, "effects": ["hull_breach"]}
    spec = RULESET.example_setup(0)
    spec["ships"][0]["damage"] = carried
    again = get(RULESET.setup(spec), "a")
    assert again.hull == 4 and again.has("hull_breach")


def test_the_gm_reads_words_never_codes():
    """describe() gives words for every listed action (no action codes, no reprs)."""
    st = start(1)
    rng = random.Random(5)
    for _ in range(60):
        if st.over:
            break
        for action in RULESET.legal_actions(st):
            words = english(RULESET.describe(st, action))
            assert "actor=" not in words and "Action(" not in words and "_" not in words
        st = RULESET.apply(st, RULESET.policy(st, rng), Dice(RandomSource(rng))).state


def test_view_is_plain_data_with_the_board():
    view = RULESET.view(start(), Viewer.gm())
    json.dumps(view, default=render)  # numbers, names and messages (words rendered where the page is drawn)
    assert view["ships"][0]["layer_label"] == "High orbit" and view["px_width"] == 480


@settings(max_examples=25, deadline=None)
@given(seed=st_.integers(0, 10_000), variant=st_.integers(0, 1))
def test_hull_never_rises_from_damage_and_thresholds_roll_once(seed, variant):
    """Properties over random legal play: no step but an override raises a ship's Hull, and every
    crippling threshold is rolled at most once (DF-27, DF-N09)."""
    rng = random.Random(seed)
    st = start(variant)
    for _ in range(200):
        if st.over:
            break
        legal = [a for a in RULESET.legal_actions(st) if a.kind != "override"]
        action = rng.choice(legal) if rng.random() < 0.5 else RULESET.policy(st, rng)
        after = RULESET.apply(st, action, Dice(RandomSource(rng))).state
        for before, now in zip(st.ships, after.ships):
            assert now.hull <= before.hull
            assert len(now.cripple_rolled) == len(set(now.cripple_rolled))
        st = after
    assert serial.from_json(type(st), json.loads(json.dumps(serial.to_json(st)))) == st


def test_the_log_cites_every_rule_in_english_with_the_seed_heading_on_hover():
    """docs/ruleset-partials.md "citing the rules": every log line and roll of a played battle
    cites a rule registered by this system (no inventory codes such as "DF-47"); the seed's
    rules carry their Spanish heading, the RULES-NOTES readings and decisions say "Ruling"."""
    from rulesets.core import citation

    cited = set()
    for seed in range(12):
        for variant in (0, 1):
            rng = random.Random(seed)
            s = start(variant)
            while not s.over:
                dice_used = Dice(RandomSource(rng))
                result = RULESET.apply(s, RULESET.policy(s, rng), dice_used)
                s = result.state
                cited |= {entry.rule for entry in result.log if entry.rule}
                cited |= {roll.rule for roll in dice_used.rolls if roll.rule}
    assert "Ruling: Declaring fire" in cited and "5. Armour saves and Hull loss" in cited
    for text in cited:
        assert "DF-" not in text and text not in ("D2", "D4", "D10")
        found = citation.read(text, "dropfleet")
        assert found.system == "dropfleet", text
        assert found.original or found.ruling or found.house_rule or text == "GM override", text


def test_a_playout_counts_a_pool_from_the_same_draws_a_recorded_step_shows():
    """Issue 11 and issue 23: a pool (hits and critical hits, DF-03 / DF-N04; saves and point
    defence through ``Work.successes``) is one core check rolled the same way when nothing is
    recorded; from the same random source it gives what the recorded faces give, and draws as
    many dice."""
    st = start()
    for seed in range(200):
        count, need = 1 + seed % 7, 2 + seed % 5
        pool = checks.LockPool(count, need, need + seed % 3)
        played = ship_rules.Work(st, Dice(RandomSource(random.Random(seed)), recording=False))
        shown = ship_rules.Work(st, Dice(RandomSource(random.Random(seed))))
        seen = checks.roll_pool(shown.dice, checks.pool_check(pool, "rule", "to hit"))
        faces = seen.faces
        unseen = checks.roll_pool(played.dice, checks.pool_check(pool, "rule"))
        assert pool.split(unseen.faces) == pool.split(faces) == (
            sum(1 for f in faces if pool.lock <= f < pool.critical_from),
            sum(1 for f in faces if f >= pool.critical_from))
        assert played.successes(count, need, "", "") == shown.successes(count, need, "saves", "rule") == sum(
            1 for f in shown.faces if f >= need)
        assert played.source._rng.random() == shown.source._rng.random()  # as many dice drawn
        assert not played.dice.rolls and len(shown.dice.rolls) == 2
