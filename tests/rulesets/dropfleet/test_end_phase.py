"""Seed "Control de daños" and "Caída Orbital"; RULES-NOTES DF-N11; the End phase's order (decision D8)."""
from rulesets.dropfleet import damage as damage_rules
from rulesets.dropfleet import tables
from rulesets.dropfleet.state import Effect

from .helpers import get, ship, state, step, work


def end(st, *faces):
    return step(evolve_phase(st), "end_round actor=gm", *faces)


def evolve_phase(st):
    from rulesets.core.state import evolve
    return evolve(st, phase="end")


def test_df65_damage_control_runs_in_the_end_phase():
    """DF-65, seed "Control de daños": repairs happen in the End phase (its third step)."""
    st = state(ship(effects=[Effect("scanner_disabled")]), ship("o", "blue"))
    result = end(st, 6)
    assert not get(result.state, "t").has("scanner_disabled")
    assert result.state.round == 2 and result.state.phase == "orders"


def test_df66_one_die_per_repairable_effect_each_ship_once():
    """DF-66, seed: a D6 per effect that needs repair, for every ship with one, once a turn."""
    st = state(ship(effects=[Effect("scanner_disabled"), Effect("engines_disabled"), Effect("cracked_armour", 0)]),
               ship("o", "blue", effects=[Effect("power_leak")]))
    result = end(st, 5, 2, 3)  # t: two dice (scanner repaired, engines not); o: one die
    t = get(result.state, "t")
    assert [e.key for e in t.effects] == ["engines_disabled", "cracked_armour"]
    assert get(result.state, "o").has("power_leak")


def test_df67_damage_control_damage_is_never_saved():
    """DF-67, seed: armour and passive never prevent Hull damage from damage control."""
    st = state(ship(armour=(2,), passive=2, effects=[Effect("scanner_disabled")]), ship("o", "blue"))
    result = end(st, 1)
    assert get(result.state, "t").hull == 9


def test_df68_dfn11_the_damage_control_table():
    """DF-68, DF-N11: 1 = 1 Hull damage and not repaired; 2-3 = not repaired; 4-6 = repaired."""
    assert [tables.damage_control(f) for f in range(1, 7)] == [
        (False, 1), (False, 0), (False, 0), (True, 0), (True, 0), (True, 0)]
    st = state(ship(effects=[Effect("fire")]), ship("o", "blue"))
    result = end(st, 1)  # fire: 1 damage; damage control 1: 1 more, fire stays
    assert get(result.state, "t").hull == 8 and get(result.state, "t").has("fire")


def test_df69_df70_decaying_ships_drop_a_layer_in_the_end_phase():
    """DF-69, DF-70, "Caída Orbital": a (repairable) decay effect moves the ship one layer down."""
    st = state(ship(effects=[Effect("power_leak")]), ship("o", "blue"))
    result = end(st, 2)  # not repaired: decays
    assert get(result.state, "t").layer == "low"
    st = state(ship(effects=[Effect("power_leak")]), ship("o", "blue"))
    result = end(st, 4)  # repaired first: no decay
    assert get(result.state, "t").layer == "high"


def test_df71_non_atmospheric_ships_decaying_into_the_atmosphere_are_removed():
    """DF-71, "Caída Orbital": removed without a catastrophic roll; Atmospheric ships survive it."""
    st = state(ship(layer="low", effects=[Effect("hull_breach", 0)]),
               ship("o", "blue", layer="low", atmospheric=True, effects=[Effect("hull_breach", 0)]),
               ship("p", "blue"))
    result = end(st)
    assert get(result.state, "t").destroyed and "Atmosphere" in get(result.state, "t").fate
    assert get(result.state, "o").layer == "atmosphere" and get(result.state, "o").in_play


def test_end_phase_order_fire_repairs_decay_leak():
    """Decision D8: fires first, then damage control, orbital decay, and the reactor leak last."""
    st = state(ship(dreadnought=True, start=24, effects=[Effect("fire"), Effect("reactor_leak", 0)]),
               ship("o", "blue"))
    texts = [e.text for e in end(st, 3).log]
    order = [next(i for i, t in enumerate(texts) if key in t)
             for key in ("1 fire", "damage control", "decays", "reactor leak")]
    assert order == sorted(order)


def test_crippling_outside_an_attack_is_rolled_at_once():
    """DF-26 read with DF-N09: crippling not caused by an attack (a fire) is rolled when it happens."""
    st = state(ship(start=4, hull=3, effects=[Effect("fire")], armour=(6,)), ship("o", "blue"))
    result = end(st, 1, 1, 5)  # fire: 3 -> 2: crippled at once (1,1 bright flash); then repairs 5
    assert "crippled" in " ".join(e.text for e in result.log)
