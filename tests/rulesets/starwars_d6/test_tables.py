"""The seed's tables as data (each test names the Catalan section)."""
import pytest

from rulesets.starwars_d6 import tables


@pytest.mark.parametrize("weapon,distance,band", [
    ("laser", 1, "short"), ("laser", 5, "short"), ("laser", 6, "medium"), ("laser", 15, "long"), ("laser", 16, None),
    ("ion_cannon", 3, "short"), ("ion_cannon", 4, "medium"), ("ion_cannon", 8, "long"), ("ion_cannon", 9, None),
    ("blaster", 4, "short"), ("blaster", 8, "medium"), ("blaster", 12, "long"), ("blaster", 13, None),
    ("turbolaser", 6, "short"), ("turbolaser", 12, "medium"), ("turbolaser", 20, "long"), ("turbolaser", 21, None),
    ("tractor_beam", 1, "short"), ("tractor_beam", 2, "medium"), ("tractor_beam", 3, "long"), ("tractor_beam", 4, None),
    ("laser", 0, None),
])
def test_range_bands_per_weapon(weapon, distance, band):
    """Seed 2. COMBAT "Distàncies" and "Armes de les naus capitals": bands in hexes."""
    assert tables.range_band(weapon, distance) == band


@pytest.mark.parametrize("scale,distance,band", [
    ("starfighter", 4, "short"), ("starfighter", 14, "medium"), ("starfighter", 25, "long"), ("starfighter", 26, None),
    ("capital", 10, "short"), ("capital", 30, "medium"), ("capital", 60, "long"), ("capital", 61, None),
    ("death_star", 60, "long"),
])
def test_missile_ranges_depend_on_target_scale(scale, distance, band):
    """Seed 2. COMBAT "Míssils": up to 25 hexes at starfighters, 60 at capital ships."""
    assert tables.range_band("concussion_missile", distance, scale) == band
    assert tables.range_band("proton_torpedo", distance, scale) == band


def test_range_modifiers_to_fire_control():
    """Seed 2. COMBAT "Distàncies": short +1D, medium none, long -1D to fire control."""
    assert tables.RANGE_MODIFIER == {"short": 3, "medium": 0, "long": -3}


def test_which_systems_fire_together():
    """Seed 2. COMBAT: lasers with blasters; ion cannons alone; missiles or torpedoes alone."""
    assert tables.may_fire_together(["laser", "blaster", "laser"])
    assert not tables.may_fire_together(["laser", "ion_cannon"])
    assert not tables.may_fire_together(["concussion_missile", "proton_torpedo"])
    assert not tables.may_fire_together(["blaster", "concussion_missile"])
    assert tables.may_fire_together(["proton_torpedo", "proton_torpedo"])


@pytest.mark.parametrize("speed,missile,torpedo", [
    (0, 3, 0), (4, 3, 0), (5, 0, -3), (8, 0, -3), (9, -3, -6), (12, -3, -6), (13, -3, None), (30, -3, None),
])
def test_missile_and_torpedo_speed_modifiers(speed, missile, torpedo):
    """Seed 3. CASOS ESPECIALS "Míssils i torpedes": target speed vs fire control; >12 no torpedo hit."""
    assert tables.speed_modifier("concussion_missile", speed) == missile
    assert tables.speed_modifier("proton_torpedo", speed) == torpedo


@pytest.mark.parametrize("margin,band", [
    (-1, None), (0, "shields_blown"), (3, "shields_blown"), (4, "light"), (8, "light"), (9, "considerable"),
    (12, "considerable"), (13, "severe"), (15, "severe"), (16, "destroyed"), (40, "destroyed"),
])
def test_damage_bands(margin, band):
    """Seed 5. "Magnitud dels danys" + RULES-NOTES: bands on (through - hull) when >= 0."""
    assert tables.damage_band(margin) == band


@pytest.mark.parametrize("margin,controls", [(0, 1), (5, 1), (6, 2), (10, 2), (11, 3), (15, 3), (16, 4), (20, 4), (21, None)])
def test_ion_table(margin, controls):
    """Seed 3. CASOS ESPECIALS "Canons d'ions": 0-5 one control ionised ... 21+ destroyed."""
    assert tables.ion_result(margin) == controls


def test_light_and_considerable_tables_cover_every_face():
    """Seed 5. "Taula de danys lleugers" / "Taula de danys considerables" (1D6)."""
    assert set(tables.LIGHT_DAMAGE) == set(range(1, 7)) == set(tables.CONSIDERABLE_DAMAGE)
    assert tables.LIGHT_DAMAGE[1] == tables.LIGHT_DAMAGE[2] == "maneuverability_-1D"
    assert tables.LIGHT_DAMAGE[6] == "hull_-1D" and tables.CONSIDERABLE_DAMAGE[6] == "destroyed"
    assert tables.CONSIDERABLE_DAMAGE[1] == "dead_in_space"
    assert all(r in tables.RESULT_LABEL for r in list(tables.LIGHT_DAMAGE.values()) + list(tables.CONSIDERABLE_DAMAGE.values()))


def test_fire_factors():
    """Seed "Factors de Foc" + RULES-NOTES: 2 shots 1-3/4-6; 3 shots pairs; 4, 5, 6 shots the die."""
    assert [tables.FIRE_FACTORS[2]["hits"][f] for f in range(1, 7)] == [1, 1, 1, 2, 2, 2]
    assert [tables.FIRE_FACTORS[3]["hits"][f] for f in range(1, 7)] == [1, 1, 2, 2, 3, 3]
    assert tables.FIRE_FACTORS[4]["reroll"] == (5, 6) and tables.FIRE_FACTORS[5]["reroll"] == (6,)
    assert tables.FIRE_FACTORS[6]["hits"] == {f: f for f in range(1, 7)}


def test_collision_modifiers():
    """Seed "Col·lisions accidentals": 5D, head-on/front diagonal +3D, rear -3D, T none."""
    assert tables.COLLISION_DAMAGE == "5D"
    assert tables.COLLISION_MODIFIER["head_on"] == tables.COLLISION_MODIFIER["front_diagonal"] == 9
    assert tables.COLLISION_MODIFIER["rear"] == tables.COLLISION_MODIFIER["rear_diagonal"] == -9
    assert tables.COLLISION_MODIFIER["t_bone"] == 0


def test_scale_caps():
    """Seed 6. ESCALES: to-hit 3, evasion 2/4, damage 3/1/none, defence 3/1."""
    assert tables.TO_HIT_CAP[("capital", "starfighter")] == 3 and tables.TO_HIT_CAP[("death_star", "capital")] == 3
    assert ("death_star", "starfighter") in tables.CANNOT_FIRE
    assert tables.EVASION_CAP == {("capital", "starfighter"): 2, ("capital", "death_star"): 4}
    assert tables.DAMAGE_CAP[("starfighter", "capital")] == 3 and tables.DAMAGE_CAP[("starfighter", "death_star")] == 0
    assert tables.DAMAGE_CAP[("capital", "death_star")] == 1
    assert tables.DEFENCE_CAP == {("capital", "death_star"): 1, ("starfighter", "capital"): 3}


def test_movement_costs_and_hyperspace_distances():
    """Seed 1. MOVIMENT I MANIOBRA costs; "Retirar-se del combat": 10 hexes from planets, 4 from moons."""
    assert tables.MOVE_COST == {"forward": 1, "turn": 1, "slide": 2, "hold": 0}
    assert tables.HYPERSPACE_MIN_DISTANCE == {"planet": 10, "moon": 4}
