"""Steps 4 and 5 of an attack, passive countermeasures and point defence; to-hit, range and arcs.

Each test cites the seed section ("4. Daño total infligido al casco", "5. Lanzar tiradas de
salvación…", "Contramedidas pasivas", "¡Activad los escudos!", "Defensa de Punto (PD)") or
RULES-NOTES (dropfleet), with the inventory number.
"""
import pytest

from rulesets.core.engine import Action
from rulesets.dropfleet import damage as damage_rules
from rulesets.dropfleet import sequence
from rulesets.dropfleet.engine import RULESET

from .helpers import attacker, fire, get, ship, state, weapon


def test_df01_each_hit_deals_the_weapon_damage():
    """DF-01, seed 4: each hitting Attack die deals the profile's Damage (here 2) in Hull points."""
    st = state(attacker(weapons=weapon(damage="2", attacks=2)), ship(armour=(7,)))
    after, text = fire(st, 4, 5)  # two hits (crit needs 6), no save possible (7+)
    assert get(after, "t").hull == 10 - 4


def test_df02_variable_damage_is_rolled_per_hit_before_saves():
    """DF-02, seed 4: D6+1 per hit is rolled before the armour saves, one die per hit."""
    st = state(attacker(weapons=weapon(damage="D6+1", attacks=2)), ship(armour=(6,), hull=20))
    # hits 4, 5; damage dice 3 and 2 -> 4 + 3 = 7 points; 7 saves on 6+: one 6 saves 1
    after, text = fire(st, 4, 5, 3, 2, 6, 1, 1, 1, 1, 1, 1)
    assert get(after, "t").hull == 20 - 6
    assert "7 normal" in text


def test_df03_a_weapon_rolls_its_attacks_against_lock():
    """DF-03, seed 4 example: Lock 4+, 3 Attacks, Damage 1: hits on 4, 5, 6, one Hull point each."""
    st = state(attacker(weapons=weapon(lock=4, attacks=3)), ship(armour=(7,)))
    after, _ = fire(st, 3, 4, 5)  # 4 and 5 hit (6 would be critical)
    assert get(after, "t").hull == 8


def test_df04_df05_armour_saves_one_die_per_point():
    """DF-04, DF-05, seed 5: a D6 per Hull point; each die >= the Armour value cancels one."""
    st = state(attacker(weapons=weapon(attacks=3)), ship(armour=(4,)))
    after, text = fire(st, 4, 4, 5, 4, 3, 6)  # 3 hits; saves 4 (saved), 3, 6 (saved)
    assert get(after, "t").hull == 9
    assert "2 of 3 saved" in text


def test_df06_the_best_of_several_armour_saves_is_used():
    """DF-06, seed 5: with more than one armour save, the best one is used for all dice."""
    target = ship(armour=(5, 3))
    assert damage_rules.shot(attacker(), weapon(), target).normal_save == 3


def test_df07_unsaved_damage_reduces_hull():
    """DF-07, seed 5: unsaved damage is marked on the ship (its Hull)."""
    st = state(attacker(weapons=weapon(attacks=1)), ship(armour=(4,)))
    after, _ = fire(st, 4, 1)
    assert get(after, "t").hull == 9


def test_df08_df47_a_ship_at_no_hull_is_destroyed():
    """DF-08, DF-47, seed 5 and 7: a ship that loses all its Hull is destroyed."""
    st = state(attacker(weapons=weapon(attacks=2, damage="2")), ship(armour=(7,), start=3))
    after, text = fire(st, 4, 5)
    assert get(after, "t").destroyed and get(after, "t").hull == 0
    assert after.over and after.winner == "blue"


def test_df09_passive_is_a_second_armour_value():
    """DF-09, "Contramedidas pasivas": 3+/4+ means a passive save of 4+."""
    s = damage_rules.shot(attacker(), weapon(), ship(armour=(3,), passive=4))
    assert (s.normal_save, s.critical_save) == (3, 4)


def test_df10_passive_protects_against_criticals():
    """DF-10, "Contramedidas pasivas": passive countermeasures also save critical damage."""
    st = state(attacker(weapons=weapon(lock=4, attacks=1)), ship(armour=(3,), passive=4))
    after, text = fire(st, 6, 4)  # critical, passive 4+ saves it
    assert get(after, "t").hull == 10
    assert "critical damage on 4+" in text


def test_df11_shield_drawbacks_raise_signature_and_stop_point_defence():
    """DF-11, "Contramedidas pasivas": drawbacks come from the ship: higher Signature, no PD while active."""
    from rulesets.dropfleet import ships as ship_rules

    s = ship(passive=4, passive_switchable=True, shield_signature=4, shields_block_pd=True, pd=3)
    up = ship(passive=4, passive_switchable=True, shield_signature=4, shields_block_pd=True, pd=3, shields_up=True)
    assert (ship_rules.signature(s), ship_rules.point_defence(s)) == (6, 3)
    assert (ship_rules.signature(up), ship_rules.point_defence(up)) == (10, 0)


def test_df12_normal_hits_use_the_best_save_of_armour_and_passive():
    """DF-12, "Contramedidas pasivas": with several saves, the best applicable one for all dice."""
    s = damage_rules.shot(attacker(), weapon(), ship(armour=(5,), passive=4))
    assert s.normal_save == 4


def test_df13_criticals_get_only_the_passive_save():
    """DF-13, seed example 3+/4+: three normal points save on 3+, two critical on 4+."""
    st = state(attacker(weapons=weapon(lock=4, attacks=5)), ship(armour=(3,), passive=4))
    # hits: 4, 4, 5 normal; 6, 6 critical -> saves 3 dice at 3+ then 2 dice at 4+
    after, text = fire(st, 4, 4, 5, 6, 6, 3, 2, 2, 4, 3)
    assert "saves normal damage on 3+" in text and "saves critical damage on 4+" in text
    assert get(after, "t").hull == 10 - 3  # two normal and one critical unsaved


def test_df13_no_passive_no_save_against_criticals():
    """DF-13: without passive countermeasures a critical point cannot be saved."""
    st = state(attacker(weapons=weapon(lock=4, attacks=1)), ship(armour=(2,)))
    after, text = fire(st, 6)
    assert get(after, "t").hull == 9 and "no save against 1 critical" in text


def test_df14_always_on_passive_works_without_shields():
    """DF-14, "¡Activad los escudos!": some passives are always on; switchable ones only when raised."""
    from rulesets.dropfleet import ships as ship_rules

    always = ship(passive=4)
    switch = ship(passive=4, passive_switchable=True)
    assert ship_rules.passive_save(always) == 4 and ship_rules.passive_save(switch) is None


def test_df15_shields_are_raised_with_orders_and_stay_up():
    """DF-15, "¡Activad los escudos!": raised ship by ship when orders are chosen, up until the next activation."""
    a = attacker(passive=4, passive_switchable=True)
    st = state(a, ship(), phase="orders")
    after = RULESET.apply(st, Action.parse("order actor=a order=standard shields=up"), _no_dice()).state
    assert get(after, "a").shields_up
    from rulesets.dropfleet import ships as ship_rules
    assert ship_rules.passive_save(get(after, "a")) == 4


def _no_dice():
    from .helpers import dice
    return dice()


def test_df16_dfn06_point_defence_only_against_close_action_and_launch():
    """DF-16, DF-N06: PD works against Close Action weapons and launch assets only."""
    target = ship(pd=4)
    assert damage_rules.shot(attacker(), weapon(), target).point_defence == 0
    assert damage_rules.shot(attacker(), weapon(close_action=True), target).point_defence == 4
    assert damage_rules.shot(attacker(), weapon(launch=True), target).point_defence == 4


def test_df17_df18_each_pd_five_plus_cancels_a_point_then_armour():
    """DF-17, DF-18, "Defensa de Punto": a D6 per PD, each 5+ cancels 1 Hull point; armour after."""
    st = state(attacker(weapons=weapon(attacks=3, close_action=True)), ship(pd=2, armour=(4,)), )
    # 3 hits (4, 4, 5); PD 5, 2 -> 1 success; 2 points left: saves 1, 1
    after, text = fire(st, 4, 4, 5, 5, 2, 1, 1)
    assert "1 success" in text and get(after, "t").hull == 8


def test_df19_a_critical_point_needs_two_pd_successes():
    """DF-19, "Defensa de Punto": a critical point is blocked by two successes."""
    st = state(attacker(weapons=weapon(attacks=1, close_action=True)), ship(pd=2, armour=(4,)))
    after, text = fire(st, 6, 5, 6)  # one critical; PD 5, 6: two successes block it
    assert get(after, "t").hull == 10 and "0 normal and 1 critical" in text


def test_df20_the_defender_spends_pd_between_normal_and_critical():
    """DF-20, seed example: PD 6 rolls 1-6: two successes block 2 normal points or 1 critical;
    the defender chooses (the runner asks for it)."""
    st = state(attacker(weapons=weapon(attacks=6, close_action=True)), ship(pd=6, armour=(4,), hull=20))
    st = RULESET.apply(st, Action.parse("fire actor=a weapon=g target=t"), _no_dice()).state
    from .helpers import step
    # four normal hits (4, 4, 5, 5) and two critical (6, 6); PD rolls 1..6
    paused = step(st, "open_fire actor=a", 4, 4, 5, 5, 6, 6, 1, 2, 3, 4, 5, 6).state
    assert paused.phase == "pd" and paused.pending.successes == 2
    choices = [a.get("critical") for a in RULESET.legal_actions(paused) if a.kind == "spend_pd"]
    assert choices == [0, 1]
    # block one critical: 4 normal saves at 4+ (all fail), 1 critical with no passive
    after = step(paused, "spend_pd actor=t critical=#1", 1, 1, 1, 1).state
    assert get(after, "t").hull == 20 - 5
    assert damage_rules.pd_options(4, 2, 2) == [(2, 0), (0, 1)]


def test_dfn01_range_is_scan_plus_signature_close_action_scan_alone():
    """DF-N01, RULES-NOTES: reach is the attacker's Scan + the target's Signature; Close Action: Scan."""
    a = attacker(y=17, scan=12)
    t = ship(signature=6)
    assert sequence.in_reach(a, weapon(), t)  # 17 <= 18
    assert not sequence.in_reach(a, weapon(close_action=True), t)  # 17 > 12
    assert not sequence.in_reach(attacker(y=19, scan=12), weapon(), t)


def test_dfn01_the_target_must_be_in_the_arc():
    """DF-N01: the target must be in the weapon's arc (front arc 90°, rear arc behind)."""
    t = ship()
    assert sequence.in_reach(attacker(heading=0), weapon(arc="F"), t)
    assert not sequence.in_reach(attacker(heading=180), weapon(arc="F"), t)
    assert sequence.in_reach(attacker(heading=180), weapon(arc="R"), t)
    assert sequence.in_reach(attacker(heading=90), weapon(arc="S"), t)


def test_dfn04_lock_is_clamped_and_a_critical_is_lock_plus_two():
    """DF-N04, RULES-NOTES: hits on D6 >= Lock clamped to 2+..6+; a roll >= Lock + 2 is critical."""
    s = damage_rules.shot(attacker(), weapon(lock=3), ship())
    assert [damage_rules.classify(f, s) for f in range(1, 7)] == [0, 0, 1, 1, 2, 2]
    low = damage_rules.shot(attacker(), weapon(lock=2, calibre="M"), ship(tonnage="M"))
    assert low.lock == 2  # 2 - 1 clamped to 2+
    high = damage_rules.shot(attacker(layer="low"), weapon(lock=6), ship())
    assert high.lock == 6 and high.critical_on == 7  # 6 + 1 clamped; no critical possible


def test_dfn05_lock_plus_one_across_orbital_layers():
    """DF-N05, RULES-NOTES: Lock +1 when firing between orbital layers."""
    assert damage_rules.shot(attacker(layer="low"), weapon(lock=4), ship(layer="high")).lock == 5
    assert damage_rules.shot(attacker(layer="high"), weapon(lock=4), ship(layer="high")).lock == 4


def test_monitor_fires_between_low_and_high_without_penalty():
    """Decision D2 (the game's Monitor rule): no Lock penalty between Low and High orbit."""
    assert damage_rules.shot(attacker(layer="low", monitor=True), weapon(lock=4), ship(layer="high")).lock == 4


def test_calibre_and_particle_weapons():
    """Decision D2 (the game's weapon rules): Calibre X is Lock -1 against its tonnage, H/S calibre
    criticals on Lock + 1; Particle hits are all critical and ignore passive saves."""
    s = damage_rules.shot(attacker(), weapon(lock=4, calibre="H"), ship(tonnage="H"))
    assert (s.lock, s.critical_on) == (3, 4)
    p = damage_rules.shot(attacker(), weapon(lock=4, particle=True), ship(passive=4))
    assert damage_rules.classify(4, p) == 2 and p.critical_save == 7


def test_dfn08_distance_is_centre_to_centre():
    """DF-N08, RULES-NOTES: inches, centre to centre; wholly within R is distance <= R."""
    from rulesets.dropfleet import geometry

    assert geometry.distance(0, 0, 3, 4) == 5
    assert geometry.within(0, 0, 3, 4, 5) and not geometry.within(0, 0, 3, 4, 4.9)
