"""Seed 6, "Tirada de Daño incapacitante": thresholds, the two crippling tables and their effects.
RULES-NOTES (dropfleet) settles when it is rolled (DF-N09) and that extra damage is never saved (DF-N12).
"""
import pytest

from rulesets.core import citation
from rulesets.core.engine import Action
from rulesets.dropfleet import damage as damage_rules
from rulesets.dropfleet import sequence
from rulesets.dropfleet import ships as ship_rules
from rulesets.dropfleet import tables
from rulesets.dropfleet.engine import RULESET
from rulesets.dropfleet.state import Effect

from .helpers import attacker, dice, fire, get, ship, state, step, weapon, work

DREAD = dict(dreadnought=True, start=24)


def hurt(st, ship_id, amount, *faces):
    w = work(st, *faces)
    damage_rules.hurt(w, ship_id, amount, "a test")
    assert w.dice.source.remaining == 0
    return sequence.finish(w, st), " ".join(e.text for e in w.log)


def test_df21_crippled_at_half_hull_lost():
    """DF-21, seed 6: 50% or more of the starting Hull lost: crippled (4 Hull: after losing 2)."""
    st = state(ship(start=4, armour=(6,)), ship("o", "blue"))
    after, text = hurt(st, "t", 1)
    assert not ship_rules.crippled(get(after, "t")) and "crippled" not in text
    after, text = hurt(after, "t", 1, 1, 1)  # crippling roll: 1, 1 -> Bright flash
    assert ship_rules.crippled(get(after, "t")) and "Bright flash" in text


def test_df22_dreadnought_crippled_at_18_and_again_at_10():
    """DF-22, seed 6: a Dreadnought rolls at 18 Hull or less and again at 10 or less."""
    st = state(ship(**DREAD), ship("o", "blue"))
    after, _ = hurt(st, "t", 5)  # 19 left: nothing
    assert get(after, "t").cripple_rolled == ()
    after, _ = hurt(after, "t", 1, 3, 3)  # 18: roll (3,3 -> Broken bulkhead: 1 extra -> 17)
    assert get(after, "t").cripple_rolled == ("18",)
    after, _ = hurt(after, "t", 7, 1, 1)  # 10: roll again
    assert get(after, "t").cripple_rolled == ("18", "10")


def test_df23_first_die_picks_the_subtable_second_the_row():
    """DF-23, seed 6: 1-2 Subsystems, 3-4 Hull, 5-6 Main systems; then a second D6 in it."""
    assert tables.crippling_row(1, 3, False).effect == "fire"
    assert tables.crippling_row(4, 2, False).effect == "scanner_disabled"
    assert tables.crippling_row(6, 6, False).effect == "reactor_overload"


def test_df24_dreadnoughts_use_their_own_tables():
    """DF-24, seed 6: Dreadnoughts roll on their own crippling (and catastrophic) tables."""
    assert tables.crippling_row(1, 3, True).effect == "containment_failure"
    st = state(ship(**DREAD), ship("o", "blue"))
    after, text = hurt(st, "t", 6, 5, 5)
    assert get(after, "t").has("reactor_leak") and "Dreadnought crippling damage" in text


def test_df25_small_ships_are_never_crippled():
    """DF-25, seed 6: starting Hull 3 or less never rolls on the crippling table."""
    st = state(ship(start=3), ship("o", "blue"))
    after, text = hurt(st, "t", 2)
    assert get(after, "t").cripple_rolled == () and not ship_rules.crippled(get(after, "t"))


def test_df26_dfn09_crippling_from_an_attack_waits_for_the_activation_end():
    """DF-26, DF-N09: crippling caused by an attack is rolled at the end of the attacking activation
    (after every declared weapon system has fired)."""
    a = attacker(weapons=(weapon(id="g", attacks=3), weapon(id="h", name="Laser", attacks=1)))
    st = state(a, ship(start=6, armour=(7,)))
    st = step(st, "fire actor=a weapon=g target=t").state
    assert sequence.fire_options(st) == []  # Standard orders: one weapon system (decision D2)
    a = attacker(order="weapons_free", weapons=(weapon(id="g", attacks=3), weapon(id="h", name="Laser", attacks=1)))
    st = state(a, ship(start=6, armour=(7,)))
    st = step(st, "fire actor=a weapon=g target=t").state
    st = step(st, "fire actor=a weapon=h target=t").state
    result = step(st, "open_fire actor=a", 4, 4, 4, 4, 1, 1)  # 3 hits, 1 hit, then crippling 1,1
    texts = [e.text for e in result.log]
    fired = max(i for i, t in enumerate(texts) if "fires Laser" in t)
    crippled = min(i for i, t in enumerate(texts) if "is crippled" in t)
    assert crippled > fired


def test_dfn09_a_ship_destroyed_by_the_attack_skips_crippling():
    """DF-N09: a ship destroyed by that attack skips its crippling roll."""
    st = state(attacker(weapons=weapon(attacks=3, damage="2")), ship(start=6, armour=(7,)),
               ship("far", "red", x=40, y=40))
    after, text = fire(st, 4, 4, 4, 1)  # 6 damage: destroyed; catastrophic roll 1 (Incineration); no crippling
    assert get(after, "t").destroyed and "crippled" not in text


def test_df27_rolled_once_per_threshold():
    """DF-27, seed 6: a ship rolls once, even if it crosses the limit again; it stays Crippled."""
    st = state(ship(start=10, armour=(6,)), ship("o", "blue"))
    after, _ = hurt(st, "t", 5, 1, 1)
    after, text = hurt(after, "t", 1)
    assert "crippled" not in text and ship_rules.crippled(get(after, "t"))


def test_df28_dfn12_extra_crippling_damage_is_never_saved():
    """DF-28, DF-N12: extra Hull damage from crippling results allows no armour or passive save."""
    st = state(ship(start=10, armour=(2,), passive=2), ship("o", "blue"))
    after, text = hurt(st, "t", 5, 3, 3)  # Cracked armour: 2 extra, no dice rolled for saves
    assert get(after, "t").hull == 3


ROWS = [
    ("DF-29", False, 1, 1, "bright_flash", 0, False, False),
    ("DF-30", False, 1, 3, "fire", 0, True, False),
    ("DF-31", False, 1, 5, "power_leak", 2, True, True),
    ("DF-32", False, 3, 1, "scanner_disabled", 0, True, False),
    ("DF-33", False, 3, 3, "cracked_armour", 2, False, False),
    ("DF-34", False, 3, 5, "hull_breach", 2, False, True),
    ("DF-35", False, 5, 1, "engines_disabled", 2, True, True),
    ("DF-36", False, 5, 3, "weapons_disabled", 3, False, False),
    ("DF-37", False, 5, 5, "reactor_overload", 3, False, True),
    ("DF-38", True, 2, 2, "bright_flash", 0, False, False),
    ("DF-39", True, 2, 4, "containment_failure", 0, True, False),
    ("DF-40", True, 2, 6, "power_fluctuation", 0, True, False),
    ("DF-41", True, 4, 2, "scanner_damage", 0, True, False),
    ("DF-42", True, 4, 4, "broken_bulkhead", 1, False, False),
    ("DF-43", True, 4, 6, "auxiliary_damage", 2, False, True),
    ("DF-44", True, 6, 2, "engines_destroyed", 0, False, False),
    ("DF-45", True, 6, 4, "weapon_destroyed", 0, False, False),
    ("DF-46", True, 6, 6, "reactor_leak", 0, False, True),
]


@pytest.mark.parametrize("rule,dread,first,second,effect,extra,repairable,decay", ROWS, ids=[r[0] for r in ROWS])
def test_crippling_table_rows(rule, dread, first, second, effect, extra, repairable, decay):
    """DF-29..DF-46, seed 6 "Tabla de Daño incapacitante" (and "… en Dreadnoughts"): each row's
    effect, extra Hull damage, whether it is repairable and whether it decays the orbit."""
    row = tables.crippling_row(first, second, dread)
    assert (row.effect, row.extra, row.repairable, row.decay) == (effect, extra, repairable, decay)
    cited = citation.read(row.rule, "dropfleet")  # the table cited in English, its Spanish heading on hover
    if dread:
        assert (cited.english, cited.original) == ("Dreadnought crippling damage table", "Tabla de Daño incapacitante en Dreadnoughts")
    else:
        assert (cited.english, cited.original) == ("Crippling damage table", "Tabla de Daño incapacitante")
    start = 24 if dread else 10
    st = state(ship(start=start, armour=(6,), dreadnought=dread, hull=start), ship("o", "blue"))
    w = work(st, first, second, *([1] if effect == "weapon_destroyed" else []),
             *([1, 1] if effect == "reactor_overload" else []))
    damage_rules.roll_crippling(w, "t")
    t = w.ship("t")
    assert t.hull == start - extra
    if effect == "bright_flash":
        assert t.spike == tables.MINOR
    elif effect == "weapons_disabled":
        assert t.weapons_offline
    elif effect != "reactor_overload":
        assert t.has(effect)
    assert damage_rules.decaying(t) == decay or effect == "reactor_overload"


def test_df29_bright_flash_under_silent_running_restores_signature():
    """DF-29, seed 6 table: a Minor spike; under Silent Running the Signature returns to normal instead."""
    st = state(ship(start=10, silent=True), ship("o", "blue"))
    w = work(st, 1, 1)
    damage_rules.roll_crippling(w, "t")
    assert not w.ship("t").silent and w.ship("t").spike == tables.NO_SPIKE


def test_df30_fire_burns_one_hull_each_end_phase_before_damage_control():
    """DF-30, seed 6 table: 1 extra Hull damage in each End phase, before damage control."""
    st = state(ship(effects=[Effect("fire")], armour=(2,)), ship("o", "blue"), phase="end")
    result = step(st, "end_round actor=gm", 4)  # fire: 1 damage; damage control 4: repaired
    texts = [e.text for e in result.log]
    assert get(result.state, "t").hull == 9 and not get(result.state, "t").has("fire")
    assert texts.index(next(t for t in texts if "fire" in t and "Hull damage" in t)) < \
        texts.index(next(t for t in texts if "damage control" in t))


def test_df31_power_leak_allows_no_special_orders():
    """DF-31, seed 6 table: the ship cannot use special orders (it follows Standard)."""
    a = attacker(effects=["power_leak"])
    st = state(a, ship(), phase="orders")
    after = step(st, "order actor=a order=weapons_free").state
    assert get(after, "a").order == "standard"


def test_df32_scanner_disabled_scan_one_inch():
    """DF-32, seed 6 table: Scan becomes 1"."""
    assert ship_rules.scan(ship(effects=["scanner_disabled"])) == 1


def test_df33_cracked_armour_plus_two():
    """DF-33, seed 6 table: Armour +2 for the rest of the game; past 6+ no save (decision D6)."""
    assert ship_rules.armour_save(ship(armour=(3,), effects=["cracked_armour"])) == 5
    s = damage_rules.shot(attacker(), weapon(), ship(armour=(5,), effects=["cracked_armour"]))
    assert s.normal_save == 7 and damage_rules.fail_chance(s.normal_save) == 1.0


def test_df34_hull_breach_decays_every_end_phase():
    """DF-34, seed 6 table: no further effect but orbital decay (not repairable: every End phase)."""
    st = state(ship(effects=[Effect("hull_breach", 0)]), ship("o", "blue"), phase="end")
    after = step(st, "end_round actor=gm").state
    assert get(after, "t").layer == "low"


def test_df35_engines_disabled_halve_thrust_no_turn_no_orbit_change():
    """DF-35, seed 6 table: Thrust halved (round up), cannot turn or change orbit."""
    s = ship(thrust=9, effects=["engines_disabled"], order="standard")
    assert ship_rules.thrust(s) == 5 and sequence.turn_limit(s) == 0 and sequence.layer_choices(s) == []


def test_df36_weapons_disabled_for_the_next_activation_only():
    """DF-36, seed 6 table: at its next activation the ship cannot fire; normal afterwards."""
    a = attacker(weapons_offline=True)
    st = state(a, ship())
    assert sequence.fire_options(st) == []
    after = step(st, "open_fire actor=a").state
    assert not get(after, "a").weapons_offline


def test_df37_reactor_overload_rolls_again():
    """DF-37, seed 6 table: roll again on the crippling table."""
    st = state(ship(start=10, armour=(6,)), ship("o", "blue"))
    w = work(st, 5, 5, 1, 3)
    damage_rules.roll_crippling(w, "t")
    assert w.ship("t").has("fire") and w.ship("t").hull == 7


def test_df39_containment_failure_two_damage_and_two_repairs():
    """DF-39, seed 6 Dreadnought table: 2 extra Hull damage each End phase; "Sí - 2 requeridos":
    two successful repair rolls, over as many End phases as it takes (decision D7)."""
    st = state(ship(**DREAD, effects=[Effect("containment_failure", 2)]), ship("o", "blue"), phase="end")
    after = step(st, "end_round actor=gm", 5).state
    t = get(after, "t")
    assert t.hull == 22 and t.effects[0].repairs_left == 1


def test_df40_power_fluctuation_hurts_on_special_orders():
    """DF-40, seed 6 Dreadnought table: D3 Hull damage when it takes a special order; no Silent Running."""
    a = attacker(**DREAD, effects=["power_fluctuation"])
    st = state(a, ship(), phase="orders")
    after = step(st, "order actor=a order=weapons_free", 2).state
    assert get(after, "a").hull == 22
    after = step(st, "order actor=a order=silent_running").state
    assert get(after, "a").order == "standard" and not get(after, "a").silent


def test_df41_scanner_damage_six_inches():
    """DF-41, seed 6 Dreadnought table: Scan reduced to 6"."""
    assert ship_rules.scan(ship(scan=12, effects=["scanner_damage"])) == 6


def test_df44_engines_destroyed():
    """DF-44, seed 6 Dreadnought table: Thrust -2"; D3 Hull damage at Max Thrust or Course Change."""
    a = attacker(**DREAD, thrust=6, effects=["engines_destroyed"])
    assert ship_rules.thrust(a) == 4
    after = step(state(a, ship(), phase="orders"), "order actor=a order=max_thrust", 3).state
    assert get(after, "a").hull == 21


def test_df45_a_random_weapon_system_is_destroyed():
    """DF-45, seed 6 Dreadnought table: a randomly chosen weapon system is out for the rest of the game."""
    guns = (weapon(id="g"), weapon(id="h", name="Laser"))
    st = state(ship(**DREAD, weapons=guns), ship("o", "blue"))
    w = work(st, 6, 4, 2)  # row 5-6 / 3-4, then a d2: the second system
    damage_rules.roll_crippling(w, "t")
    assert not ship_rules.weapon_usable(w.ship("t"), "h") and ship_rules.weapon_usable(w.ship("t"), "g")


def test_df46_reactor_leak_three_damage_at_the_end():
    """DF-46, seed 6 Dreadnought table: 3 extra Hull damage at the end of each End phase, and decay."""
    st = state(ship(**DREAD, effects=[Effect("reactor_leak", 0)]), ship("o", "blue"), phase="end")
    after = step(st, "end_round actor=gm").state
    assert get(after, "t").hull == 21 and get(after, "t").layer == "low"


def test_a_group_its_own_orders_destroy_ends_its_activation():
    """DF-40 with D1: a Dreadnought killed by the D3 of its power fluctuation ends its group's turn."""
    a = attacker(dreadnought=True, start=24, hull=1, effects=["power_fluctuation"])
    st = state(a, ship(), phase="orders")
    after = step(st, "order actor=a order=weapons_free", 1, 1).state  # D3 = 1; catastrophic 1 + 1: Violent descent
    assert get(after, "a").destroyed and after.over and after.winner == "red"
    b = attacker(dreadnought=True, start=24, hull=1, effects=["power_fluctuation"])
    st = state(b, ship(), ship("c", "blue", group="c", x=5, y=10), phase="orders")
    after = step(st, "order actor=a order=weapons_free", 1, 1).state  # D3 = 1; catastrophic 1 + 1: Violent descent
    assert not after.over and after.group == "t" and after.phase == "orders"
