"""Shields, hull and the first-damage roll: 2.1.6 Schilde und Panzerung, 2.1.7 Der Erstschadenswurf,
2.1.8 Die Erstschadenstabelle."""
from __future__ import annotations

import pytest

from rulesets.core.messages import english
from rulesets.core.engine import Action

from .helpers import GUNS, MISSILE, RULESET, TURRET, fight, kinds, npc, pilot, ship, step, text, with_ship


def hit_for(state, *damage_faces, first=()):
    """a (blue, a character) hits b (an NPC, TW 12) with 6+6, then the damage faces (2d6), then first damage."""
    return step(state, "attack actor=a target=b weapon=w1", 6, 6, *damage_faces, *first)


def test_damage_comes_off_the_shields_first():
    """WC-32 (2.1.6: "Der Schild wird in Punkten dargestellt, Schaden von diesen Punkten abgezogen")."""
    state, log, _ = hit_for(fight(ship("a"), npc("b", shields=10, hull=10)), 2, 3)
    assert (state.ship("b").shields, state.ship("b").hull) == (5, 10)
    assert "5 on the shields" in text(log)


def test_once_the_shields_are_down_the_hull_takes_the_rest():
    """WC-33 (2.1.6: "Sinkt der Schild auf 0, wird weiterer Schaden von den Rumpfpunkten abgezogen")."""
    state, log, _ = hit_for(fight(ship("a"), npc("b", shields=3, hull=10)), 4, 4, first=(9, 9))
    assert (state.ship("b").shields, state.ship("b").hull) == (0, 5)


def test_at_zero_hull_the_ship_is_destroyed_and_the_pilot_ejected():
    """WC-34 (2.1.6: "Sinken die Rumpfpunkte auf 0 oder weniger, wird das Schiff zerstört und eine automatische
    Vorrichtung schleudert den Piloten in einer Rettungskapsel ins All")."""
    state, log, _ = hit_for(fight(ship("a"), npc("b", shields=0, hull=6)), 3, 4)
    assert state.ship("b").status == "destroyed"
    assert "escape pod" in text(log)
    assert state.over and state.winner == "blue"


def test_shields_regenerate_only_while_the_generator_works():
    """WC-35 (2.1.6: "Schildpunkte können sich ... regenerieren, so lange der Schildgenerator nicht zerstört wurde")."""
    working = with_ship(fight(ship("a", shields=10), npc("b")), "a", shields=2)
    assert step(working, "regenerate actor=a")[0].ship("a").shields == 5
    broken = with_ship(fight(ship("a", shields=10, damage={"shield_generator_destroyed": True}), npc("b")), "a", shields=2)
    # standing aside is still offered (2.1.3, decision D17), but it regenerates nothing
    state, log, _ = step(broken, "regenerate actor=a")
    assert state.ship("a").shields == 2 and state.ship("a").standing_aside
    assert "shield generator is destroyed, so its shields stay at 2" in text(log)


def test_shields_are_full_again_at_the_next_nav_point():
    """WC-36 (2.1.6: "Zwischen den einzelnen Nav-Punkten regenerieren sich Schilde komplett"): shield loss is not
    carried back, hull loss is; the next encounter starts with full shields."""
    spec_b = npc("b", shields=5, hull=10)
    state, _, _ = hit_for(fight(ship("a"), spec_b), 4, 4, first=(9, 9))
    carried = RULESET.damage_of(state, "b")
    assert carried == {"hull": 3}
    again = fight(ship("a"), {**spec_b, "damage": carried})
    assert (again.ship("b").shields, again.ship("b").hull) == (5, 7)


def test_hull_damage_rolls_for_first_damage():
    """WC-37 (2.1.7: "Sobald ein Schiff Rumpfschaden erleidet, wird auf den Erstschaden gewürfelt")."""
    state, log, rolls = hit_for(fight(ship("a"), npc("b", shields=0, hull=20)), 1, 1, first=(9, 9))
    assert rolls[-1].purpose == "First damage to B"
    assert "No component damage" in text(log)
    assert state.ship("b").first_damage_done


def test_first_damage_is_2w10_or_1w20_for_a_wild_card():
    """WC-38 (2.1.7: "mit 2W10 (oder 1W20 bei Wild Card) ausgewürfelt")."""
    wild = ship("b", "red", cls="heavy", shields=0, crew=[pilot("Wild", wild_card=True)])
    state = fight(wild, npc("c", "blue"))
    state, _, _ = step(state, "attack actor=c target=b weapon=w1")
    state, _, rolls = step(state, "dodge actor=b", 5, 1, 1, 16)  # 1W20 dodge 5 fails; 2 damage; first damage 1W20
    assert rolls[-1].expression == "1d20" and rolls[-1].purpose == "First damage to B"


@pytest.mark.parametrize("faces, key, check", [
    ((2, 3), "shield_generator", lambda s: not s.shield_generator),
    ((4, 4), "thrusters_heavy", lambda s: s.thrusters == 2 and s.current_mv == -2),
    ((5, 7), "thrusters_light", lambda s: s.thrusters == 1),
    ((7, 8), "gun_alignment", lambda s: s.gun_alignment),
    ((8, 8), "none", lambda s: (s.thrusters, s.gun_alignment, s.shield_generator) == (0, False, True)),
])
def test_first_damage_table_rows(faces, key, check):
    """WC-39..WC-43 (2.1.8 Die Erstschadenstabelle): 1-5 shield generator destroyed, 6-8 MV -2, 9-12 MV -1,
    13-15 gun attacks -2 for the mission, 16+ nothing."""
    state, log, _ = hit_for(fight(ship("a"), npc("b", shields=0, hull=20)), 1, 1, first=faces)
    assert check(state.ship("b"))


def test_shield_generator_destroyed_stops_regeneration_until_replaced():
    """WC-39 (2.1.8, 1-5: "Schildpunkte regenerieren ist nicht mehr möglich, bis der Schildgenerator ersetzt wurde")."""
    state, log, _ = hit_for(fight(ship("a"), npc("b", shields=0, hull=20, tw=12)), 1, 1, first=(1, 1))
    assert "Shield generator destroyed" in text(log)
    assert not state.ship("b").shield_generator
    assert RULESET.describe(state, Action.make("regenerate", "b")) == \
        "B stands aside for a round (shield generator destroyed: no regeneration)"
    assert RULESET.damage_of(state, "b")["shield_generator_destroyed"] is True


def test_thrusters_badly_damaged_cost_two_mv_until_replaced():
    """WC-40 (2.1.8, 6-8: "Der MV des Schiffes sinkt um 2, bis die Steuerdüsen ersetzt wurden")."""
    state, _, _ = hit_for(fight(ship("a", mv=1), npc("b", shields=0, hull=20, mv=1)), 1, 1, first=(3, 3))
    assert state.ship("b").current_mv == -1
    assert RULESET.damage_of(state, "b")["thrusters_damaged"] == 2
    assert fight(ship("a", mv=1), npc("b", mv=1, damage=RULESET.damage_of(state, "b"))).ship("b").current_mv == -1


def test_thrusters_lightly_damaged_cost_one_mv():
    """WC-41 (2.1.8, 9-12: "Der MV des Schiffes sinkt um 1")."""
    state, _, _ = hit_for(fight(ship("a", mv=1), npc("b", shields=0, hull=20, mv=1)), 1, 1, first=(6, 6))
    assert state.ship("b").current_mv == 0


def test_gun_alignment_costs_two_on_gun_attacks_for_the_mission():
    """WC-42 (2.1.8, 13-15: "Alle Geschützangriffe werden für die gesamte Mission um 2 reduziert")."""
    state = fight(ship("a"), ship("b", "red", shields=0, hull=20))
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 6, 6)  # b, a character, dodges 12
    state, _, _ = step(state, "dodge actor=b", 1, 4, 1, 1, 6, 7)  # natural 5 fails; 2 damage; first damage 13
    assert state.ship("b").gun_alignment
    assert RULESET.damage_of(state, "b")["gun_alignment_failed"] is True


def test_gun_alignment_costs_the_turret_two_as_well():
    """WC-42 (2.1.8, 13-15: "Alle Geschützangriffe werden für die gesamte Mission um 2 reduziert"): a turret's
    fire is gun fire (mines answer it, the dodge takes the ship's MV against it, the gun fumble table), so
    the failed alignment costs it 2 too; missiles keep their roll (decision)."""
    state = fight(ship("a", "blue", mv=2, weapons=(GUNS, TURRET, MISSILE), damage={"gun_alignment_failed": True}),
                  npc("b", tw=30, shields=20))
    _, _, rolls = step(state, "attack actor=a target=b weapon=w1 turret=w2", 5, 5, 5, 5)
    guns, turret = [r for r in rolls if "attacks" in english(r.purpose)]
    assert ("gun alignment failed", -2) in guns.modifiers and guns.total == 10
    assert turret.modifiers == (("gun alignment failed", -2),) and turret.total == 8
    _, _, rolls = step(state, "attack actor=a target=b weapon=w3", 5, 5)
    assert rolls[0].modifiers == (("Dart MV", 1),)


def test_sixteen_or_more_no_component_damage():
    """WC-43 (2.1.8, 16+: "Keine Komponentenschäden! Glück gehabt")."""
    state, log, _ = hit_for(fight(ship("a"), npc("b", shields=0, hull=20)), 1, 1, first=(10, 10))
    assert "No component damage" in text(log)
    assert RULESET.damage_of(state, "b") == {"hull": 2}


def test_first_damage_is_rolled_only_once_per_encounter():
    """WC-N03 (RULES-NOTES: "The first-damage roll is made the first time a ship takes hull damage in the
    encounter")."""
    state = fight(ship("a"), npc("b", shields=0, hull=30), ship("c"))
    state, _, _ = hit_for(state, 1, 1, first=(10, 10))
    state, _, _ = step(state, "end actor=a")
    state, _, _ = step(state, "pass actor=b")
    state, _, rolls = step(state, "attack actor=c target=b weapon=w1", 6, 6, 2, 2)
    assert [r.purpose for r in rolls][-1] == "Lasers damage to B"
