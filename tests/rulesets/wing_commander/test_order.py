"""The order (RF): 2.1.1 Die Initiative/Reihenfolge (RF)."""
from __future__ import annotations

from .helpers import fight, npc, pilot, ship, step


def test_class_weighs_most_and_the_order_runs_the_turns():
    """WC-01 (2.1.1 Die Initiative/Reihenfolge): the order sets who acts, players and enemies in one
    list; the ship class weighs most, more than an advantage."""
    quick = pilot("Quick", skills={"Quick reflexes": ["order", 3]})
    state = fight(ship("m", "blue", cls="medium", crew=[quick]), npc("l", cls="light"))
    assert state.order == ("l", "m")
    assert state.acting.id == "l"


def test_the_order_stays_until_damage_changes_it():
    """WC-02 (2.1.1): the order stays until outside events (ship damage) change it: thrusters
    damaged in round 1 put the ship behind from round 2 on."""
    state = fight(ship("a", "blue", mv=1), ship("b", "red", mv=0))
    assert state.order == ("a", "b")
    state, _, _ = step(state, "pass actor=a")
    # b attacks a (opposed: a character dodges the attack total): 5+5 = 10
    state, _, _ = step(state, "attack actor=b target=a weapon=w1", 5, 5)
    # a dodges 2+4+1 (MV) = 7, fails; damage 3+3 on the hull; first damage 3+4 = 7: thrusters -2
    state, log, _ = step(state, "dodge actor=a", 2, 4, 3, 3, 3, 4)
    state, _, _ = step(state, "end actor=b")
    assert state.ship("a").current_mv == -1
    assert state.round == 2
    assert state.order == ("b", "a")


def test_the_gm_decides_which_side_goes_first():
    """WC-03 (2.1.1: "Ob die Spieler oder die Feinde zuerst ziehen, entscheidet der SL"): on a tie the
    side the GM names moves first."""
    ships = (ship("a", "blue"), ship("b", "red"))
    assert fight(*ships, first_side="red").order == ("b", "a")
    assert fight(*ships, first_side="blue").order == ("a", "b")


def test_light_fighters_first_then_medium_heavy_bombers():
    """WC-04 (2.1.1 step 1, Die Schiffsklasse): light, medium, heavy, bombers last."""
    state = fight(ship("bomber", "blue", cls="bomber"), ship("heavy", "red", cls="heavy"),
                  ship("medium", "blue", cls="medium"), ship("light", "red", cls="light"))
    assert state.order == ("light", "medium", "heavy", "bomber")


def test_advantages_and_disadvantages_change_the_order():
    """WC-05 (2.1.1 step 2, Vor- und Nachteile): an order advantage moves a pilot ahead of the same class,
    a disadvantage behind."""
    ace = pilot("Ace", skills={"Quick reflexes": ["order", 1]})
    slow = pilot("Slow", skills={"Sluggish": ["order", -1]})
    state = fight(ship("a", "blue", crew=[slow]), ship("b", "red"), ship("c", "blue", crew=[ace]))
    assert state.order == ("c", "b", "a")


def test_on_the_same_class_the_higher_mv_goes_first():
    """WC-06 (2.1.1 step 3, Der Manövervorteil): same class, the MV decides (higher first: a decision)."""
    state = fight(ship("slow", "blue", mv=0), ship("fast", "red", mv=2))
    assert state.order == ("fast", "slow")


def test_rank_then_time_in_rank_then_the_squadron_leader():
    """WC-07 (2.1.1 step 4, Weitere Möglichkeiten): rank, then time in the rank; still tied, the squadron
    leader's call, which is the order the GM set the ships up in."""
    state = fight(ship("ensign", "blue", crew=[pilot("E", rank=1, months=30)]),
                  ship("captain", "red", crew=[pilot("C", rank=4, months=1)]),
                  ship("lt_new", "blue", crew=[pilot("N", rank=3, months=2)]),
                  ship("lt_old", "red", crew=[pilot("O", rank=3, months=9)]),
                  ship("ensign2", "red", crew=[pilot("E2", rank=1, months=30)]))
    assert state.order == ("captain", "lt_old", "lt_new", "ensign", "ensign2")


def test_a_first_side_that_is_not_in_the_fight_is_refused_with_the_sides_named():
    """WC-03 (2.1.1): the GM's choice must name a side of the fight."""
    import pytest

    with pytest.raises(ValueError, match=r"'green', is none of the sides here \(blue, red\)"):
        fight(ship("a", "blue"), ship("b", "red"), first_side="green")
