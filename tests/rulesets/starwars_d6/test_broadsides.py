"""Broadsides of a battery, as the gunner forms them (seed "3. CASOS ESPECIALS: Factors de Foc per
les Naus Capitals", step 1: "Decideix quants làsers/turbolàsers dispararan en andanada contra un
mateix objectiu. Més d'una andanada pot ser dirigida contra el mateix objectiu."); scripted dice."""
import pytest

from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.engine import Action, IllegalAction
from rulesets.starwars_d6 import hexes, rules
from rulesets.starwars_d6.engine import RULESET

# A cruiser with a battery of four turbolasers (2D fire control, 2D damage) against two capital
# ships 3 hexes away (short range: +1D).  No Wild Die, one scale: no caps.
CRUISER = {"name": "Cruiser", "scale": "capital", "speed": 4, "maneuverability": "1D", "hull": "5D",
           "shields": "2D", "crew": {"gunnery": "2D", "piloting": "2D", "shields": "2D"},
           "weapons": [{"id": "bs", "name": "Turbolaser battery", "type": "turbolaser", "fire_control": "2D",
                        "damage": "2D", "shots": 4}]}
HIT = (4, 4, 4, 4, 4, 1, 1, 1)       # attack 2D + 2D + 1D (short range) = 20 against evasion 2D + 1D = 3


def dice(*faces):
    return Dice(ScriptedSource(list(faces)))


def fight():
    c = rules.build_ship(CRUISER, id="c", side="A", col=5, row=5)
    e1 = rules.build_ship({**CRUISER, "name": "Raider"}, id="e1", side="B", col=5, row=8)
    e2 = rules.build_ship({**CRUISER, "name": "Marauder"}, id="e2", side="B", col=7, row=7)
    s = rules.new_combat([c, e1, e2], 20, 20, wild=False)
    s.phase, s.queue = "firing", ["c", "e1", "e2"]
    assert hexes.distance(c.pos, e1.pos) == 3 and hexes.distance(c.pos, e2.pos) == 3
    return s


def fire(guns=None, target="e1"):
    return Action.make("fire", "c", weapon="bs", target=target, guns=guns)


def test_the_gunner_chooses_how_many_guns_form_each_broadside():
    """Step 1: the action list offers, for each target, the broadside of every gun left and every
    smaller one; after a broadside the battery fires the guns it has left, at any target."""
    s = fight()
    offered = [a for a in RULESET.step_actions(s) if a.kind == "fire"]
    assert offered == [fire(None, "e1"), fire(3, "e1"), fire(2, "e1"), fire(1, "e1"),
                       fire(None, "e2"), fire(3, "e2"), fire(2, "e2"), fire(1, "e2")]
    assert RULESET.describe(s, fire(None)) == "Cruiser fires Turbolaser battery at Raider: a broadside of all its 4 guns left"
    assert RULESET.describe(s, fire(3)) == "Cruiser fires Turbolaser battery at Raider: a broadside of 3 of its 4 guns left"
    # three guns at Raider: one attack roll, one evasion, the fire factor of 3 shots (5: 3 hits), 2D each
    step = RULESET.apply(s, fire(3), dice(*HIT, 5, 1, 2, 3, 4, 5, 6))
    s = step.state
    assert (s.shots[0].target, s.shots[0].hits, s.shots[0].damage) == ("e1", 3, 21)
    assert any(e.text == "Fire factor: 3 of 3 shots hit." for e in step.log)
    assert rules.guns_left(s, s.ship("c"), s.ship("c").weapons[0]) == 1
    # one gun left: the single gun at Marauder, a single shot is one hit (no fire-factor die)
    offered = [a for a in RULESET.step_actions(s) if a.kind == "fire"]
    assert offered == [fire(None, "e1"), fire(None, "e2")]
    assert RULESET.describe(s, fire(None, "e2")) == "Cruiser fires Turbolaser battery at Marauder: its last gun"
    s = RULESET.apply(s, fire(None, "e2"), dice(*HIT, 2, 2)).state
    assert (s.shots[1].target, s.shots[1].hits, s.shots[1].damage) == ("e2", 1, 4)
    # every gun has fired: the battery is spent for this phase
    assert [a.kind for a in RULESET.step_actions(s)] == ["done"]
    assert s.guns_fired == {"c:bs": 4}


def test_several_broadsides_at_the_same_target_are_summed_with_the_other_hits():
    """Step 1: "Més d'una andanada pot ser dirigida contra el mateix objectiu"; each broadside rolls
    its own attack and fire factor (2 shots: 1-3 one hit, 4-6 two); the damage of all the hits on
    the target is summed before shields and hull (step 4, RULES-NOTES)."""
    s = fight()
    s = RULESET.apply(s, fire(2), dice(*HIT, 3, 1, 1)).state          # fire factor 3: 1 hit, 2 damage
    s = RULESET.apply(s, fire(None), dice(*HIT, 6, 2, 2, 3, 3)).state  # the other 2 guns: 6 -> 2 hits, 10
    assert [(x.hits, x.damage) for x in s.shots] == [(1, 2), (2, 10)]
    s = RULESET.apply(s, Action.make("done", "c"), dice()).state
    s.queue = []
    # shields 2D + 2D: 1,1,1,1 = 4 -> 8 through; hull 5D: 1 x5 = 5 -> margin 3: shields blown
    step = RULESET.apply(s, Action.make("resolve", "c"), dice(1, 1, 1, 1, 1, 1, 1, 1, 1))
    assert any(e.text == "3 hits on Raider: damage summed to 12." for e in step.log)
    assert step.state.ship("e1").shields == "1D"


def test_a_broadside_of_more_guns_than_are_left_is_refused():
    """Step 1: the broadside is formed from the battery's guns: never more than it has left."""
    s = fight()
    for bad in (fire(4), fire(5), fire(0)):
        assert not RULESET.is_legal(s, bad)
        with pytest.raises(IllegalAction):
            RULESET.apply(s, bad, dice(*HIT, 1, 1, 1, 1, 1, 1, 1, 1, 1))
    with pytest.raises(ValueError, match="has 4 gun"):
        rules.fire(s, "bs", "e1", dice(*HIT), guns=5)


def test_the_odds_follow_the_broadside_chosen():
    """The odds of each broadside: the same chance to hit (one attack roll, step 2-3), the fire
    factor and the damage of that many guns (step 4)."""
    s = fight()
    whole, three, one = (RULESET.odds(s, fire(g)) for g in (None, 3, 1))
    for odds in (whole, three, one):
        assert abs(odds.total - 1) < 1e-12
    assert whole.outcomes[0].label == "miss" and whole.outcomes[0].probability == one.outcomes[0].probability

    def destroyed(odds):
        return sum(o.probability for o in odds.outcomes if o.label == "hit, destroyed")

    assert destroyed(whole) > destroyed(three) > destroyed(one)


def test_the_bot_fires_the_whole_battery_at_its_best_target():
    """Decision (docs "Odds and the bot"): the bot fires every gun a battery has left as one
    broadside at the target of its best expected damage."""
    s = fight()
    chosen = RULESET.policy(s, None)
    assert chosen.kind == "fire" and chosen.get("weapon") == "bs" and chosen.get("guns") is None
