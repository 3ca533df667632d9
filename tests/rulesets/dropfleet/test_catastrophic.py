"""Seed 7, "Tirada de daño catastrófico", both tables; RULES-NOTES for layers (DF-N07) and the
Dreadnought table's missing 6 (DF-N10)."""
import pytest

from rulesets.dropfleet import damage as damage_rules
from rulesets.dropfleet import sequence
from rulesets.dropfleet import tables

from .helpers import get, ship, state, work


def destroy(st, ship_id, *faces):
    w = work(st, *faces)
    damage_rules.destroy(w, ship_id, "a test")
    assert w.dice.source.remaining == 0, "unused faces"
    return sequence.finish(w, st), " ".join(e.text for e in w.log)


def boom(start=6, **kw):
    return ship("x", "red", start=start, **kw)


def test_df48_hull_four_plus_rolls_on_the_catastrophic_table():
    """DF-48, seed 7: a destroyed ship of starting Hull 4+ rolls a D6 on the catastrophic table."""
    st = state(boom(), ship("o", "blue", x=50))
    _, text = destroy(st, "x", 1)
    assert "Incineration" in text


def test_df49_small_ships_do_not_roll():
    """DF-49, seed 7: starting Hull 3 or less: removed, no roll."""
    st = state(boom(start=3), ship("o", "blue"))
    _, text = destroy(st, "x")
    assert "without a catastrophic roll" in text


def test_df50_ships_in_the_atmosphere_do_not_roll():
    """DF-50, seed 7: ships in the Atmosphere do not roll and are removed."""
    st = state(boom(layer="atmosphere"), ship("o", "blue"))
    _, text = destroy(st, "x")
    assert "Atmosphere: removed without a catastrophic roll" in text


def test_df51_hull_ten_plus_adds_one():
    """DF-51, seed 7: a starting Hull of 10+ adds 1 to the D6 (6 + 1 = Warp bubble)."""
    st = state(boom(start=10), ship("o", "blue", x=50))
    _, text = destroy(st, "x", 6, 1)  # 7: Warp bubble; radius D6 = 1: nobody near
    assert "Warp bubble" in text and "6 + 1 (starting Hull 10+) = 7" in text


@pytest.mark.parametrize("start,sides", [(4, 3), (6, 3), (7, 6), (12, 6)])
def test_df52_explosion_radius_by_starting_hull(start, sides):
    """DF-52, seed 7: Hull 4-6 explodes D3", Hull 7+ D6"."""
    assert tables.explosion_die(start) == sides


def test_df53_dfn07_only_the_same_layer_is_caught():
    """DF-53, DF-N07: the explosion reaches only ships in the destroyed ship's orbital layer."""
    st = state(boom(), ship("o", "blue", x=1, layer="low"), ship("p", "blue", x=1, armour=(7,)))
    after, _ = destroy(st, "x", 6, 3)  # Radiation burst, radius 3
    assert get(after, "o").hull == 10 and get(after, "p").hull == 8


def test_dfn08_the_blast_reaches_ships_whose_centre_is_within_the_radius():
    """DF-N08: wholly within = centre distance <= radius."""
    st = state(boom(), ship("o", "blue", x=3), ship("p", "blue", x=3.1))
    after, _ = destroy(st, "x", 6, 3)
    assert get(after, "o").hull == 8 and get(after, "p").hull == 10


def test_df54_incineration_no_effect():
    """DF-54, seed 7 table 1-2: Incineration: no further effect."""
    st = state(boom(), ship("o", "blue", x=1))
    after, _ = destroy(st, "x", 2)
    assert get(after, "o").hull == 10


def test_df55_burning_wreck_minor_spike():
    """DF-55, seed 7 table 3: ships gain a Minor spike (Silent Running ends instead)."""
    st = state(boom(), ship("o", "blue", x=1), ship("p", "blue", x=-1, silent=True))
    after, _ = destroy(st, "x", 3, 2)
    assert get(after, "o").spike == tables.MINOR
    assert not get(after, "p").silent and get(after, "p").spike == tables.NO_SPIKE


def test_df56_crushed_one_damage_saves_allowed():
    """DF-56, seed 7 table 4: 1 Hull damage, armour and passive usable."""
    st = state(boom(), ship("o", "blue", x=1, armour=(4,)))
    after, _ = destroy(st, "x", 4, 2, 4)  # radius 2; save 4: saved
    assert get(after, "o").hull == 10


def test_df57_explosion_two_damage_saves_allowed():
    """DF-57, seed 7 table 5: 2 Hull damage, saves usable."""
    st = state(boom(), ship("o", "blue", x=1, armour=(4,)))
    after, _ = destroy(st, "x", 5, 2, 4, 1)
    assert get(after, "o").hull == 9


def test_df58_radiation_burst_two_damage_no_saves():
    """DF-58, seed 7 table 6: 2 Hull damage, no saves."""
    st = state(boom(), ship("o", "blue", x=1, armour=(2,)))
    after, _ = destroy(st, "x", 6, 2)
    assert get(after, "o").hull == 8


def test_df59_warp_bubble_d6_per_ship_no_saves():
    """DF-59, seed 7 table 7+: D6 Hull damage rolled for each ship, no saves."""
    st = state(boom(start=10), ship("o", "blue", x=1, armour=(2,), start=20), ship("p", "blue", x=-1, start=20))
    after, _ = destroy(st, "x", 6, 4, 3, 5)  # 7; radius 4; 3 and 5 damage
    assert get(after, "o").hull == 17 and get(after, "p").hull == 15


DREAD = dict(dreadnought=True, start=24)


def test_df60_violent_descent_has_no_sectors_here():
    """DF-60, seed 7 Dreadnought table 2: sectors within 8" take D6 damage; the table has no
    ground sectors, so no ship is affected (decision D9)."""
    st = state(boom(**DREAD), ship("o", "blue", x=1))
    after, text = destroy(st, "x", 1)  # 1 + 1 = 2
    assert "Violent descent" in text and get(after, "o").hull == 10


def test_df61_immolation_major_spike_and_fires():
    """DF-61, seed 7 Dreadnought table 3: ships within 8" gain a Major spike and D3 Fires."""
    st = state(boom(**DREAD), ship("o", "blue", x=8), ship("p", "blue", x=9))
    after, _ = destroy(st, "x", 2, 2)  # 3; fires D3 = 2 for o
    o = get(after, "o")
    assert o.spike == tables.MAJOR and sum(1 for e in o.effects if e.key == "fire") == 2
    assert get(after, "p").spike == tables.NO_SPIKE


def test_df62_superstructure_failure_two_d6_on_five_plus():
    """DF-62, seed 7 Dreadnought table 4: ships within 12" take 2D6 on a 5+ (per ship), saves usable."""
    st = state(boom(**DREAD), ship("o", "blue", x=12, armour=(7,), start=20), ship("p", "blue", x=-5, start=20))
    after, _ = destroy(st, "x", 3, 5, 3, 4, 4)  # 4; o: 5+ ok, 2D6 = 7 (no save); p: 4 escapes
    assert get(after, "o").hull == 13 and get(after, "p").hull == 20


def test_df63_magazine_detonation_two_damage_within_twelve():
    """DF-63, seed 7 Dreadnought table 5: ships within 12" take 2 damage, saves usable."""
    st = state(boom(**DREAD), ship("o", "blue", x=12, armour=(4,)))
    after, _ = destroy(st, "x", 4, 4, 1)  # 5; saves 4 (saved), 1
    assert get(after, "o").hull == 9


def test_dfn10_a_dreadnought_six_reads_as_magazine_detonation():
    """DF-N10, RULES-NOTES: the Dreadnought table has no 6; read as 5 and shown as a house rule."""
    st = state(boom(**DREAD), ship("o", "blue", x=12, armour=(7,)))
    after, text = destroy(st, "x", 5)  # 5 + 1 = 6
    assert "Magazine detonation" in text and "House rule" in text and get(after, "o").hull == 8


def test_df64_space_time_rupture():
    """DF-64, seed 7 Dreadnought table 7+: Hull 6+ ships within 8" take 3+D3 (saves usable); ships of
    starting Hull 5 or less within 8" are removed with no catastrophic roll."""
    st = state(boom(**DREAD), ship("o", "blue", x=8, armour=(7,), start=20), ship("p", "blue", x=-8, start=5))
    after, text = destroy(st, "x", 6, 2)  # 7; o takes 3 + 2
    assert get(after, "o").hull == 15
    assert get(after, "p").destroyed and get(after, "p").fate == "removed"


def test_chained_explosions():
    """Seed 7: a ship destroyed by an explosion is destroyed like any other and rolls its own."""
    st = state(boom(), ship("o", "blue", x=2, start=4, hull=1, armour=(7,)), ship("p", "blue", x=4, armour=(7,)))
    after, text = destroy(st, "x", 6, 3, 6, 3)  # x: burst r3 hits o (dies) -> o: burst r3 hits p
    assert get(after, "o").destroyed and get(after, "p").hull == 8
