"""Danno (Damage): the damage table, hit locations and each location's hits, with scripted dice."""
import pytest
from hypothesis import given, strategies as st

from rulesets.cepheus.damage import apply_location_hits, crew_hit, hit_location, resolve_hit
from rulesets.cepheus.state import Hit, Tx
from rulesets.cepheus.stats import hull_points, structure_points
from rulesets.cepheus import tables
from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.messages import english

from .helpers import crew, setup, ship


def tx_for(state, *faces):
    return Tx(state, Dice(ScriptedSource(faces)))


def target(**stats):
    return setup(ship("a", "blue"), ship("b", "red", [crew("b1", "pilot"), crew("b2", "turret_gunner", "turret-1")], **stats))


# --- Tabella: Danni da Combattimento Spaziale, every row (RULES-NOTES: contiguous bands)
@pytest.mark.parametrize("damage,expected", [
    (-3, (0, 0, 0)), (0, (0, 0, 0)),
    (1, (1, 0, 0)), (4, (1, 0, 0)), (5, (2, 0, 0)), (8, (2, 0, 0)), (9, (0, 1, 0)), (12, (0, 1, 0)),
    (13, (3, 0, 0)), (16, (3, 0, 0)), (17, (2, 1, 0)), (20, (2, 1, 0)), (21, (0, 2, 0)), (24, (0, 2, 0)),
    (25, (0, 0, 1)), (28, (0, 0, 1)), (29, (1, 0, 1)), (32, (1, 0, 1)), (33, (0, 1, 1)), (36, (0, 1, 1)),
    (37, (1, 1, 1)), (40, (1, 1, 1)), (41, (0, 0, 2)), (44, (0, 0, 2)),
    (47, (1, 0, 2)), (50, (0, 1, 2)), (53, (1, 1, 2)), (56, (0, 2, 2)),
])
def test_damage_table_every_row_and_beyond_44(damage, expected):
    """Tabella: Danni da Combattimento Spaziale; above 44 one Double per 6 extra, a Single for 3+ left."""
    assert tables.damage_effect(damage)[0] == expected


@given(st.integers(min_value=-5, max_value=300))
def test_damage_table_hits_iff_positive_and_grow_beyond_the_last_row(damage):
    """Tabella: Danni da Combattimento Spaziale: any damage above armour hits; past 41 more damage, more hits.

    (Within the table the count is not monotonic in the text itself: 9-12 is a Double Hit and
    13-16 three Single Hits; 21-24 two Doubles (4 hits), 25-28 one Triple (3 hits).)
    """
    assert (tables.hits_in(damage) > 0) == (damage > 0)
    if damage >= 41:
        assert tables.hits_in(damage + 1) >= tables.hits_in(damage)


def test_hull_and_structure_are_one_per_fifty_tons_structure_at_least_one():
    """Danno: Hull 1 per 50 t rounded down; Structure 1 per 50 t, minimum 1."""
    assert (hull_points(420), structure_points(420)) == (8, 8)
    assert (hull_points(10), structure_points(10)) == (0, 1)


# --- Tabella: Posizione dei colpi, every row of every column
@pytest.mark.parametrize("column", ["external", "internal", "small_craft"])
@pytest.mark.parametrize("roll", range(2, 13))
def test_hit_location_table_every_row(column, roll):
    expected = {
        "external": [None, None, "hull", "sensors", "m_drive", "turret", "hull", "armour", "hull", "fuel", "m_drive", "sensors", "hull"],
        "internal": [None, None, "structure", "power_plant", "j_drive", "bay", "structure", "crew", "structure", "hold", "j_drive", "power_plant", "bridge"],
        "small_craft": [None, None, "hull", "power_plant", "hold", "fuel", "hull", "armour", "hull", "turret", "m_drive", "crew", "bridge"],
    }
    assert tables.HIT_LOCATION[column][roll] == expected[column][roll]


def test_armour_is_subtracted_from_each_weapons_damage():
    """Danno: armour comes off the rolled damage before the damage table (each weapon separately)."""
    s = target(armour=3)
    tx = tx_for(s, 3, 3, 2, 3)  # 2D6 = 6 - 3 armour = 3: one single hit; location 2+3 = 5: turret
    resolve_hit(tx, Hit("b", "a", "laser", "pulse_laser", dice=2))
    assert tx.s.ship("b").mount("t1").hits == 1
    assert "armour -3 = 3" in "\n".join(e.text for e in tx.log)


def test_damage_at_or_below_armour_does_nothing():
    s = target(armour=6)
    tx = tx_for(s, 3, 3)
    resolve_hit(tx, Hit("b", "a", "laser", "pulse_laser", dice=2))
    assert tx.s.ship("b").hull == s.ship("b").hull


def test_double_hit_applies_two_hits_to_the_same_location():
    """Danno: a Double Hit applies two hits to the same location."""
    s = target()
    tx = tx_for(s, 5, 5, 1, 3)  # 10 damage: Double Hit; location 4: M-drive twice
    resolve_hit(tx, Hit("b", "a", "laser", "pulse_laser", dice=2))
    assert tx.s.ship("b").hits["m_drive"] == 2


def test_triple_hit_applies_three_hits_to_the_same_location():
    s = target()
    tx = tx_for(s, 1, 6)  # location 7: armour; a Triple Hit on armour 0 -> three Hull hits
    apply_location_hits(tx, "b", 3)
    assert tx.s.ship("b").hull == s.ship("b").hull_max - 3


def test_hull_hit_reduces_hull_and_hull_gone_uses_the_internal_column_same_row():
    """Scafo: with Hull 0 the hit goes to the same row of the Internal column."""
    s = target()
    tx = tx_for(s)
    hit_location(tx, "b", "hull", 2)
    assert tx.s.ship("b").hull == 3
    tx.ship("b").hull = 0
    hit_location(tx, "b", "hull", 3)   # row 3 of the Internal column: power plant
    assert tx.s.ship("b").hits["power_plant"] == 1


def test_a_ship_with_no_hull_left_rolls_on_the_internal_column():
    s = target()
    tx = tx_for(s, 3, 4, 1, 1)
    tx.ship("b").hull = 0
    apply_location_hits(tx, "b", 1)   # 7 on the Internal column: Crew (then 2 on crew damage: no one hurt)
    assert "Internal Hit (Vessel)" in english(tx.dice.rolls[0].table) and tx.dice.rolls[0].row == "7: Crew"


def test_small_craft_use_the_small_craft_column():
    """Danno: small craft (under 100 t) use their own column: 9 is a turret."""
    s = target(tonnage=40)
    tx = tx_for(s, 4, 5)
    apply_location_hits(tx, "b", 1)
    assert tx.s.ship("b").mount("t1").hits == 1


def test_structure_reduced_to_zero_destroys_the_ship():
    """Struttura: Structure 0 means the ship is destroyed."""
    s = target(tonnage=50)
    tx = tx_for(s)
    hit_location(tx, "b", "structure", 2)
    assert tx.s.ship("b").status == "destroyed"


def test_armour_hit_reduces_armour_and_at_zero_counts_as_hull():
    """Corazza."""
    s = target(armour=1)
    tx = tx_for(s)
    hit_location(tx, "b", "armour", 7)
    assert tx.s.ship("b").armour == 0
    hit_location(tx, "b", "armour", 7)
    assert tx.s.ship("b").hull == 3


def test_turret_hits_first_dm_minus_2_second_disabled_third_destroyed_then_hull():
    """Torretta: tracking damaged (DM-2), disabled, destroyed, further hits count on the Hull."""
    s = target()
    tx = tx_for(s)
    for _ in range(3):
        hit_location(tx, "b", "turret", 5)
    assert tx.s.ship("b").mount("t1").hits == 3
    hit_location(tx, "b", "turret", 5)
    assert tx.s.ship("b").hull == 3


def test_turret_hit_on_a_ship_without_turrets_is_a_hull_hit():
    """RULES-NOTES: a Turret hit with no turret counts as a Hull hit."""
    s = target(turrets=[])
    tx = tx_for(s)
    hit_location(tx, "b", "turret", 5)
    assert tx.s.ship("b").hull == 3


def test_bay_hits_and_a_ship_without_bays_takes_structure():
    """Batteria: disabled on the second hit, destroyed on the third, then Structure; no bay: Structure (notes)."""
    s = target(tonnage=400, bays=[{"type": "particle_bay"}])
    tx = tx_for(s)
    for _ in range(4):
        hit_location(tx, "b", "bay", 5)
    assert tx.s.ship("b").mount("b1").hits == 3
    assert tx.s.ship("b").structure == 7
    s2 = target()
    tx2 = tx_for(s2)
    hit_location(tx2, "b", "bay", 5)
    assert tx2.s.ship("b").structure == 3


def test_j_drive_hits_then_structure():
    """Motore-B: first DM-2 to jump, second disabled, third destroyed, then Structure."""
    s = target(jump=2)
    tx = tx_for(s)
    for _ in range(4):
        hit_location(tx, "b", "j_drive", 4)
    assert tx.s.ship("b").hits["j_drive"] == 3 and tx.s.ship("b").structure == 3


def test_m_drive_hits_reduce_thrust_by_one_then_half_then_disable():
    """Motore-M: Thrust -1, Thrust -50%, disabled; further hits on the Hull."""
    s = target(thrust=6)
    tx = tx_for(s)
    thrusts = []
    for _ in range(3):
        hit_location(tx, "b", "m_drive", 4)
        thrusts.append(tx.s.ship("b").thrust)
    assert thrusts == [5, 3, 0]
    hit_location(tx, "b", "m_drive", 4)
    assert tx.s.ship("b").hull == 3


def test_power_plant_second_hit_irradiates_crew_third_disables_ship():
    """Generatore: damaged; a radiation crew hit; destroyed and the ship disabled; then Structure."""
    s = target()
    tx = tx_for(s, 2, 3, 1, 1)  # 2nd hit: crew damage roll 5 (one crew), which member d2 = 1, 1D6... see below
    hit_location(tx, "b", "power_plant", 3)
    tx2 = tx_for(tx.s, 3, 2, 1, 4, 4)  # radiation column 5: one member (d2=1) takes 2D6 x10 rad = 80
    hit_location(tx2, "b", "power_plant", 3)
    assert tx2.s.ship("b").crew[0].rads == 80
    tx3 = tx_for(tx2.s)
    hit_location(tx3, "b", "power_plant", 3)
    assert tx3.s.ship("b").status == "disabled"


def test_sensors_second_hit_forbids_attacks_beyond_adjacent():
    """Sensori: disabled sensors stop sensor checks and attacks beyond Adjacent."""
    from rulesets.cepheus.engine import RULESET
    from .helpers import duel, legal, edit_ship

    s = duel([crew("g", "turret_gunner", "turret-1", gunnery=1)], [])
    s = edit_ship(s, "a", hits={"sensors": 2})
    assert legal(s, "attack") == []
    s2 = RULESET.apply(s, __import__("rulesets.core.engine", fromlist=["Action"]).Action.make(
        "override", "gm", path="range.a.b", value="adjacent"), Dice(ScriptedSource([]))).state
    assert legal(s2, "attack")


def test_bridge_first_hit_is_a_crew_hit_second_disables_pilot_actions():
    """Ponte: first hit a Crew hit (Normal column); second: no Pilot or Sensor actions, attacks DM-2."""
    s = target()
    tx = tx_for(s, 1, 1)  # crew damage 2: lucky escape
    hit_location(tx, "b", "bridge", 12)
    assert "lucky escape" in "\n".join(e.text for e in tx.log)
    from .helpers import duel, edit_ship, kinds
    d = duel([crew("p", "pilot", pilot=1)], [])
    assert "evasive" in kinds(d)
    d = edit_ship(d, "a", hits={"bridge": 2})
    assert "evasive" not in kinds(d)


def test_fuel_hits_leak_lose_a_share_then_the_tank():
    """Carburante: a leak of 1D6 t/hour, 1D6x10% lost, then the tank destroyed."""
    s = target(fuel=40)
    tx = tx_for(s, 3, 2)
    hit_location(tx, "b", "fuel", 9)
    assert tx.s.ship("b").fuel_leak == 3
    hit_location(tx, "b", "fuel", 9)
    assert tx.s.ship("b").fuel == 32
    hit_location(tx, "b", "fuel", 9)
    assert tx.s.ship("b").fuel == 0


def test_hold_hits_destroy_cargo():
    """Stiva: 1D6x10% of the cargo twice, then the hold and everything in it."""
    s = target(cargo=50)
    tx = tx_for(s, 2, 4)
    hit_location(tx, "b", "hold", 9)
    hit_location(tx, "b", "hold", 9)
    assert tx.s.ship("b").cargo == 50 - 10 - 16
    hit_location(tx, "b", "hold", 9)
    assert tx.s.ship("b").cargo == 0


# --- Tabella: Danni all'equipaggio
@pytest.mark.parametrize("total,who,dice", [(2, "none", 0), (4, "none", 0), (5, "one", 2), (8, "one", 2),
                                            (9, "one", 4), (10, "one", 4), (11, "all", 2), (12, "all", 4)])
def test_crew_damage_table_every_row(total, who, dice):
    assert tables.crew_damage_row(total)[:2] == (who, dice)


def test_crew_hit_wounds_one_random_member_with_2d6():
    """Equipaggio: 2D6 on the Normal column; 5-8 a random crew member takes 2D6."""
    s = target()
    tx = tx_for(s, 3, 3, 2, 4, 5)   # 6: one member; d2 = 2 (b2); 2D6 = 9
    hit_location(tx, "b", "crew", 7)
    assert tx.s.ship("b").member("b2").damage == 9


def test_crew_hit_on_all_crew():
    s = target()
    tx = tx_for(s, 5, 6, 1, 1, 2, 2)  # 11: all crew 2D6 each
    crew_hit(tx, "b", radiation=False, dm=0, why="test")
    assert [c.damage for c in tx.s.ship("b").crew] == [2, 4]
