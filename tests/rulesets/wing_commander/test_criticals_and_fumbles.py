"""Criticals, critical dodges and fumbles: 2.1.9 Kritische Treffer, kritisches Ausweichen, Patzer und
Fehlwürfe, with the resolutions of RULES-NOTES (wing_commander)."""
from __future__ import annotations

from fractions import Fraction

from rulesets.core.messages import english
from rulesets.wing_commander import checks

from .helpers import GUNS, RULESET, TURRET, fight, npc, pilot, ship, step, text


def defender(**kw):
    kw.setdefault("shields", 20)
    return ship("a", "blue", cls="heavy", **kw)


def test_a_natural_19_or_20_always_hits():
    """WC-44 (2.1.9 Der Kritische Treffer: "eine natürliche 19 oder 20 ... ist immer erfolgreich")."""
    state = fight(ship("a"), npc("b", tw=40, shields=20))
    state, log, _ = step(state, "attack actor=a target=b weapon=w1", 10, 9, 1, 1, 1, 1)
    assert "critical hit" in text(log)
    assert state.ship("b").shields == 16


def test_a_critical_rolls_damage_twice_and_adds_it():
    """WC-45 (2.1.9: "Der Schaden ... wird bei einem kritischen Treffer zweimal gewürfelt, die Ergebnisse werden
    zusammen als Gesamtschaden gezählt")."""
    state = fight(ship("a"), npc("b", tw=12, shields=20))
    state, _, rolls = step(state, "attack actor=a target=b weapon=w1", 10, 10, 3, 4, 5, 6)
    damage = [r for r in rolls if "damage" in english(r.purpose)]
    assert [r.total for r in damage] == [7, 11]
    assert state.ship("b").shields == 20 - 18


def test_a_natural_19_or_20_dodge_always_succeeds():
    """WC-46 (2.1.9 Kritisches Ausweichen: "Ein kritisches Ausweichen ist immer erfolgreich")."""
    state = fight(defender(crew=[pilot("Clumsy", skills={"Clumsy": ["dodge", -10]})]), npc("b", tw=12))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")
    state, log, _ = step(state, "dodge actor=a", 9, 10)
    assert "dodges" in text(log) and state.ship("a").shields == 20


def test_a_critical_dodge_gives_plus_one_against_that_enemy_this_round():
    """WC-47 (2.1.9: "zusätzlich erhält der Charakter +1 gegen alle weiteren Angriffe des Gegners in dieser
    Kampfrunde"): the turret's attack in the same action meets the bonus; the next round it is gone."""
    state = fight(defender(), npc("b", tw=12, weapons=(GUNS, TURRET)))
    state, _, _ = step(state, "attack actor=b target=a turret=w2 weapon=w1")
    state, _, _ = step(state, "dodge actor=a", 10, 10)
    assert state.ship("a").evaded == ("b",)
    state, _, rolls = step(state, "dodge actor=a", 5, 6)  # 11 + 1 = 12 reaches the TW
    assert ("critical dodge this round", 1) in rolls[0].modifiers
    assert state.ship("a").shields == 20
    state, _, _ = step(state, "end actor=b")
    state, _, _ = step(state, "pass actor=a")
    assert state.round == 2 and state.ship("a").evaded == ()


def test_a_natural_1_to_3_always_fails():
    """WC-48 (2.1.9 Der Patzer: "Ein Patzer bei einem Angriffs- oder Ausweichwurf ist immer fehlgeschlagen")."""
    ace = pilot("Ace", skills={"Legend": ["attack", 30]})
    state = fight(ship("a", crew=[ace]), npc("b", tw=12, shields=20))
    state, log, rolls = step(state, "attack actor=a target=b weapon=w1", 1, 2, 10, 10)
    assert rolls[0].total == 33 and "fumbles" in text(log)
    assert state.ship("b").shields == 20


def test_an_attack_fumble_rolls_on_the_weapons_table_with_1w20_for_a_wild_card():
    """WC-49 (2.1.9: "Bei einem Angriffspatzer wird auf die entsprechende Patzertabelle mit 2W10 (oder 1W20 bei
    Wild Card) gewürfelt")."""
    state = fight(ship("a", crew=[pilot("Wild", wild_card=True)]), npc("b", tw=12, shields=20))
    state, log, rolls = step(state, "attack actor=a target=b weapon=w1", 2, 9)
    assert [r.expression for r in rolls] == ["1d20", "1d20"]
    assert "Gun and turret fumble table" in text(log) and "Power supply fault" in text(log)
    assert state.ship("a").weapon("w1").halved


def test_a_dodge_fumble_takes_the_hit_with_damage_rolled_twice():
    """WC-50 (2.1.9 Der Ausweichpatzer: "er erleidet einen besonders schweren Treffer")."""
    state = fight(defender(), npc("b", tw=12))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")
    state, log, rolls = step(state, "dodge actor=a", 1, 2, 1, 1, 2, 2)
    assert "dodge fumble" in text(log)
    assert state.ship("a").shields == 20 - 6


def test_tw_mv_and_the_wild_cards_1w20():
    """WC-N01 (RULES-NOTES: "TW" the target value the GM sets, "MV" the ship's manoeuvre value, Wild Card
    characters roll 1W20 instead of 2W10)."""
    state = fight(ship("a", mv=2, crew=[pilot("Wild", wild_card=True)]), npc("b", tw=14, shields=20))
    _, log, rolls = step(state, "attack actor=a target=b weapon=w1", 12, 1, 1)
    assert rolls[0].expression == "1d20" and rolls[0].total == 14 and rolls[0].table == "vs 14"


def test_2w10_cannot_show_a_natural_1_fumbles_are_2_3_and_1_3_on_1w20():
    """WC-N02 (RULES-NOTES: on 2W10 fumble 2-3 and critical 19-20; on 1W20 fumble 1-3, critical 19-20)."""
    two, one = checks.declare("", "", False, (), 12), checks.declare("", "", True, (), 12)
    assert [two.resolve(n).outcome for n in (2, 3, 4, 18, 19, 20)] == ["fumble", "fumble", "failure", "success", "critical", "critical"]
    assert [one.resolve(n).outcome for n in (1, 3, 4, 19)] == ["fumble", "fumble", "failure", "critical"]
    assert checks.chances(two)["fumble"] == Fraction(3, 100) and checks.chances(two)["critical"] == Fraction(3, 100)
    assert checks.chances(one)["fumble"] == Fraction(3, 20) and checks.chances(one)["critical"] == Fraction(2, 20)


def test_a_critical_hit_against_a_critical_dodge_stands():
    """WC-N04 (RULES-NOTES: "When a critical hit meets a critical dodge, the hit stands")."""
    state = fight(ship("a"), ship("b", "red", shields=20))
    state, log, _ = step(state, "attack actor=a target=b weapon=w1", 10, 10)
    state, log, _ = step(state, "dodge actor=b", 9, 10, 1, 1, 1, 1)
    assert "the critical hit stands" in text(log)
    assert state.ship("b").shields == 16 and state.ship("b").evaded == ("a",)


def test_a_dodge_fumble_hits_even_when_the_total_would_reach():
    """WC-N05 (RULES-NOTES: "Dodge fumble: the attack hits and its damage is rolled twice and added")."""
    state = fight(defender(crew=[pilot("Ace", skills={"Ace": ["dodge", 20]})]), npc("b", tw=12))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")
    state, _, rolls = step(state, "dodge actor=a", 1, 2, 1, 2, 3, 4)
    assert rolls[0].total == 23 and len([r for r in rolls if "damage" in english(r.purpose)]) == 2
    assert state.ship("a").shields == 10


def test_a_critical_hit_met_by_a_dodge_fumble_rolls_damage_twice_not_four_times():
    """Open point (decision, docs/rulesets/wing_commander.md): a critical hit and a dodge fumble together roll
    the damage twice."""
    state = fight(ship("a"), ship("b", "red", shields=20))
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 10, 9)
    state, _, rolls = step(state, "dodge actor=b", 1, 1, 1, 1, 1, 1)
    assert len([r for r in rolls if "damage" in english(r.purpose)]) == 2


def test_a_countermeasure_rolls_2w10_plus_its_mv_and_each_use_spends_one():
    """WC-N06 (RULES-NOTES: "Countermeasures ... roll 2W10 + their own MV against the attacker's TW, like a
    dodge; each use spends one"); decision: 2W10 even for a Wild Card, no criticals or fumbles."""
    state = fight(defender(mines=2, mines_mv=2, crew=[pilot("Wild", wild_card=True)]), npc("b", tw=12))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")
    stopped, log, rolls = step(state, "countermeasure actor=a", 5, 5)
    assert rolls[0].expression == "2d10" and rolls[0].modifiers == (("mines MV", 2),) and rolls[0].total == 12
    assert stopped.ship("a").mines == 1 and RULESET.damage_of(stopped, "a") == {"ammo": {"mines": 1}}
    weak = fight(defender(mines=1, mines_mv=-10), npc("b", tw=12))
    weak, _, _ = step(weak, "attack actor=b target=a weapon=w1")
    weak, log, _ = step(weak, "countermeasure actor=a", 10, 10)  # a natural 20 is no critical here
    assert "fails" in text(log) and weak.ship("a").mines == 0


def test_dodging_a_missile_the_tw_is_11_plus_or_minus_its_mv():
    """WC-N07 (RULES-NOTES: "Dodging a missile: the attacker's TW is 11 +/- the missile's MV")."""
    slow = {"name": "Dumb rocket", "kind": "missile", "damage": "2d6", "mv": -2, "stock": 1}
    state = fight(defender(), npc("b", tw=18, weapons=(GUNS, slow)))
    state, log, _ = step(state, "attack actor=b target=a weapon=w2")
    assert state.pending[0].value == 9 and "11 - 2 (Dumb rocket MV)" in text(log)
