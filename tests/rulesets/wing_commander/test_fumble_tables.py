"""The attack-fumble tables of RULES-NOTES (wing_commander), rolled after an attack fumble (2.1.9 Der Patzer)."""
from __future__ import annotations

from .helpers import GUNS, MISSILE, RULESET, TORPEDO, TURRET, fight, npc, ship, step, text

ARMED = (GUNS, TURRET, MISSILE)


def fumbled(weapon, table_faces, *more, target="b", **attacker):
    """a fumbles (natural 2) with ``weapon`` and rolls ``table_faces`` on the fumble table."""
    state = fight(ship("a", "blue", shields=20, **attacker), npc("b", shields=20), ship("c", "blue", shields=20),
                  npc("d", cls="capital", tw=6, shields=20, hull=60))
    kind = "torpedo" if weapon == "w4" else "attack"
    while state.acting.id != "a":  # a bomber moves after the medium fighters
        state, _, _ = step(state, f"pass actor={state.acting.id}")
    return step(state, f"{kind} actor=a target={target} weapon={weapon}", 1, 1, *table_faces, *more)


def test_gun_fumble_1_6_burns_the_gun_leads_until_replaced():
    """WC-N08 (RULES-NOTES gun and turret fumble 1-6: guns out until replaced, a turret for the rest of the mission)."""
    state, log, _ = fumbled("w1", (1, 2), weapons=ARMED)
    assert "Gun leads burn out" in text(log)
    assert state.ship("a").weapon("w1").broken and RULESET.damage_of(state, "a")["guns_out_until_replaced"] is True
    state = fight(ship("a", "blue", shields=20, weapons=ARMED), npc("b", shields=20))
    # the guns miss (2 + 3 vs TW 12), the turret fumbles (natural 2) and burns its leads (2 + 2)
    state, log, _ = step(state, "attack actor=a target=b weapon=w1 turret=w2", 2, 3, 1, 1, 2, 2)
    assert state.ship("a").weapon("w2").broken and not state.ship("a").weapon("w1").broken and RULESET.damage_of(state, "a")["turret_out_for_the_mission"] is True


def test_gun_fumble_7_10_halves_the_weapons_damage_until_replaced():
    """WC-N09 (RULES-NOTES gun fumble 7-10: power supply fault, damage halved until replaced; rounded down)."""
    state, log, _ = fumbled("w1", (3, 5), weapons=ARMED)
    state, _, _ = step(state, "end actor=a")  # a ends the turn of its fumble (2.1.3)
    assert state.ship("a").weapon("w1").halved
    for mover in ("b", "c", "d"):
        state, _, _ = step(state, f"pass actor={mover}")
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 6, 6, 3, 4)
    assert state.ship("b").shields == 20 - 3


def test_gun_fumble_11_13_overheats_the_weapon_for_two_rounds():
    """WC-N10 (RULES-NOTES gun fumble 11-13: heavy overheating, weapon out for two rounds)."""
    state, _, _ = fumbled("w1", (5, 7), weapons=ARMED)
    state, _, _ = step(state, "end actor=a")  # a ends the turn of its fumble (2.1.3)
    ready_by_round = {}
    for _ in range(3):
        for mover in ("b", "c", "d"):
            state, _, _ = step(state, f"pass actor={mover}")
        ready_by_round[state.round] = state.ship("a").weapon("w1").ready(state.round)
        state, _, _ = step(state, "pass actor=a")
    assert ready_by_round == {2: False, 3: False, 4: True}


def test_gun_fumble_14_up_overheats_the_weapon_for_one_round():
    """WC-N11 (RULES-NOTES gun fumble 14+: light overheating, weapon out for one round)."""
    state, _, _ = fumbled("w1", (7, 8), weapons=ARMED)
    state, _, _ = step(state, "end actor=a")  # a ends the turn of its fumble (2.1.3)
    for mover in ("b", "c", "d"):
        state, _, _ = step(state, f"pass actor={mover}")
    assert not any("weapon=w1" in a.to_str() for a in RULESET.legal_actions(state))
    state, _, _ = step(state, "pass actor=a")
    for mover in ("b", "c", "d"):
        state, _, _ = step(state, f"pass actor={mover}")
    assert state.round == 3 and state.ship("a").weapon("w1").ready(3)


def test_missile_fumble_1_6_launch_circuits_fail():
    """WC-N12 (RULES-NOTES missile fumble 1-6: no more missiles until replaced)."""
    state, log, _ = fumbled("w3", (3, 3), weapons=ARMED)
    assert state.ship("a").weapon("w3").broken and RULESET.damage_of(state, "a")["missile_launch_circuits_failed"] is True


def test_missile_fumble_7_10_the_missile_hits_a_random_ship_friend_or_foe():
    """WC-N13 (RULES-NOTES missile fumble 7-10: targeting fails; the missile picks a random ship and hits it):
    one die over the other ships in the fight (b, c, d); 2 is c, a friend."""
    state, log, _ = fumbled("w3", (4, 4), 2, 2, 2, 2, weapons=ARMED)
    assert "turns on C" in text(log)
    assert state.ship("c").shields == 14 and state.ship("b").shields == 20


def test_missile_fumble_11_13_heavy_premature_blast_half_damage_to_the_own_ship():
    """WC-N14 (RULES-NOTES missile fumble 11-13: own ship takes half the missile's damage)."""
    state, _, _ = fumbled("w3", (6, 6), 4, 4, 5, weapons=ARMED)
    assert state.ship("a").shields == 20 - 6


def test_missile_fumble_14_up_light_premature_blast_a_quarter():
    """WC-N15 (RULES-NOTES missile fumble 14+: a quarter of the damage, rounded down)."""
    state, _, _ = fumbled("w3", (7, 7), 4, 4, 5, weapons=ARMED)
    assert state.ship("a").shields == 20 - 3


def test_torpedo_fumble_1_6_launch_circuits_fail():
    """WC-N16 (RULES-NOTES torpedo fumble 1-6: no more torpedoes until replaced)."""
    state, _, _ = fumbled("w4", (2, 4), target="d", cls="bomber", weapons=(*ARMED, TORPEDO))
    assert state.ship("a").weapon("w4").broken and RULESET.damage_of(state, "a")["torpedo_launch_circuits_failed"] is True


def test_torpedo_fumble_7_up_the_torpedo_is_lost():
    """WC-N17 (RULES-NOTES torpedo fumble 7+: the torpedo is lost; house rule: the rest of the table is not
    available)."""
    state, log, _ = fumbled("w4", (9, 9), target="d", cls="bomber", weapons=(*ARMED, TORPEDO))
    assert "Torpedo lost" in text(log) and "house rule" in text(log)
    torpedo = state.ship("a").weapon("w4")
    assert torpedo.stock == 1 and not torpedo.broken
