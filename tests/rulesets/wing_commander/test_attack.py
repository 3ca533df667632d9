"""The attack roll: 2.1.4 Der Angriffswurf."""
from __future__ import annotations

from rulesets.core.messages import english
from .helpers import GUNS, MISSILE, TORPEDO, fight, npc, pilot, ship, step, text


def attack_roll(rolls):
    return next(r for r in rolls if "attacks" in english(r.purpose))


def test_the_attack_roll_is_2w10_plus_bonuses_and_penalties():
    """WC-17 (2.1.4: "Der Angriffswurf wird 2W10 ausgewürfelt, zusätzlich werden Boni oder Mali ...")."""
    gunner = pilot("G", skills={"Gunnery": ["attack", 1]})
    state = fight(ship("a", "blue", mv=2, crew=[gunner]), npc("b", tw=12, shields=20))
    state, log, rolls = step(state, "attack actor=a target=b weapon=w1", 4, 5, 1, 1)
    roll = attack_roll(rolls)
    assert roll.expression == "2d10" and roll.faces == (4, 5)
    assert roll.total == 4 + 5 + 2 + 1 == 12
    assert "hits" in text(log)


def test_the_ships_mv_counts_for_guns_only():
    """WC-18 (2.1.4 a: "Raketen, Torpedos und Geschütztürme sind nicht vom Schiffs-MV betroffen")."""
    state = fight(ship("a", "blue", mv=3, weapons=(GUNS, MISSILE)), npc("b", tw=12, shields=20))
    state, _, rolls = step(state, "attack actor=a target=b weapon=w2", 5, 5)
    roll = attack_roll(rolls)
    assert all(name != "ship MV" for name, _ in roll.modifiers)
    assert roll.total == 5 + 5 + 1  # the missile's own MV only: 11 misses TW 12


def test_combat_skills_add_to_the_attack():
    """WC-19 (2.1.4 b, Kampffertigkeiten)."""
    state = fight(ship("a", "blue", crew=[pilot("G", skills={"Gunnery": ["attack", 2]})]), npc("b", tw=12, shields=20))
    _, _, rolls = step(state, "attack actor=a target=b weapon=w1", 5, 5, 1, 1)
    assert ("Gunnery", 2) in attack_roll(rolls).modifiers


def test_advantages_and_disadvantages_modify_the_attack():
    """WC-20 (2.1.4 c, Vorteile / Nachteile): a disadvantage on every attack, an advantage on guns only."""
    skills = {"Shaky hands": ["attack", -1], "Gun nut": ["guns", 2]}
    state = fight(ship("a", "blue", weapons=(GUNS, MISSILE), crew=[pilot("G", skills=skills)]), npc("b", tw=30, shields=20))
    _, _, rolls = step(state, "attack actor=a target=b weapon=w1", 5, 5)
    assert {("Shaky hands", -1), ("Gun nut", 2)} <= set(attack_roll(rolls).modifiers)
    _, _, rolls = step(state, "attack actor=a target=b weapon=w2", 5, 5)
    assert ("Gun nut", 2) not in attack_roll(rolls).modifiers


def test_missiles_and_torpedoes_use_their_own_mv():
    """WC-21 (2.1.4 d, Raketen/Torpedos: "Ballistische Waffensysteme haben einen eigenen MV")."""
    old = {**MISSILE, "name": "Old missile", "mv": -1}
    state = fight(ship("a", "blue", cls="bomber", mv=2, weapons=(GUNS, old, TORPEDO)),
                  npc("c", cls="capital", tw=30, shields=20, hull=50))
    _, _, rolls = step(state, "attack actor=a target=c weapon=w2", 5, 5)
    assert attack_roll(rolls).modifiers == (("Old missile MV", -1),)
    _, _, rolls = step(state, "torpedo actor=a target=c weapon=w3", 5, 5)
    assert attack_roll(rolls).modifiers == (("Torpedo MV", 2),)


def test_component_damage_modifies_the_attack():
    """WC-22 (2.1.4 e, Komponentenschäden): damaged thrusters lower the MV, failed gun alignment the guns."""
    state = fight(ship("a", "blue", mv=2, damage={"thrusters_damaged": 1, "gun_alignment_failed": True}), npc("b", tw=30, shields=20))
    _, _, rolls = step(state, "attack actor=a target=b weapon=w1", 5, 5)
    roll = attack_roll(rolls)
    assert set(roll.modifiers) == {("ship MV", 2), ("damaged thrusters", -1), ("gun alignment failed", -2)}
    assert roll.total == 9


def test_the_gm_sets_each_enemys_tw():
    """WC-23 (2.1.4: "Der Spielleiter hat für seine Gegner Trefferwerte (TW) angesetzt"): the same roll hits
    a TW 11 rookie and misses a TW 13 ace."""
    state = fight(ship("a", "blue"), npc("rookie", tw=11, shields=20), npc("ace", tw=13, shields=20))
    _, log, _ = step(state, "attack actor=a target=rookie weapon=w1", 6, 6, 1, 1)
    assert "hits Rookie" in text(log)
    _, log, _ = step(state, "attack actor=a target=ace weapon=w1", 6, 6)
    assert "misses Ace" in text(log)


def test_reaching_the_tw_hits_and_damage_follows_missing_does_nothing():
    """WC-24 (2.1.4: "Erreicht oder übertrifft der Angriffswurf den TW des Ziels, ist der Angriff gelungen")."""
    state = fight(ship("a", "blue"), npc("b", tw=12, shields=20))
    hit, log, rolls = step(state, "attack actor=a target=b weapon=w1", 6, 6, 3, 4)
    assert hit.ship("b").shields == 13 and len(rolls) == 2
    missed, log, rolls = step(state, "attack actor=a target=b weapon=w1", 5, 6)
    assert missed.ship("b").shields == 20 and len(rolls) == 1


def test_a_missile_that_misses_is_lost():
    """WC-25 (2.1.4: "fehlgegegangene Raketen, Torpedos oder Minen sind verloren")."""
    state = fight(ship("a", "blue", weapons=(GUNS, MISSILE)), npc("b", tw=12, shields=20))
    state, log, _ = step(state, "attack actor=a target=b weapon=w2", 2, 4)
    assert state.ship("a").weapon("w2").stock == 1
    assert "The missile is lost." in text(log)
