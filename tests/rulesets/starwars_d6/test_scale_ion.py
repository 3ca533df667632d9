"""Scale caps, ion cannons and fire factors (rules.py); scripted dice, each test names its section."""
import pytest

from rulesets.core import serial
from rulesets.core.dice import Dice, ScriptedSource
from rulesets.starwars_d6 import rules
from rulesets.starwars_d6.dice import DiceCode

CAPITAL = {"name": "Cruiser", "scale": "capital", "speed": 4, "maneuverability": "1D", "hull": "5D",
           "shields": "2D", "crew": {"gunnery": "2D", "piloting": "2D", "shields": "2D"},
           "weapons": [{"id": "tl", "type": "turbolaser", "fire_control": "2D", "damage": "4D"},
                       {"id": "bs", "type": "turbolaser", "fire_control": "2D", "damage": "2D", "shots": 3}]}
FIGHTER = {"name": "Wing", "scale": "starfighter", "speed": 8, "maneuverability": "3D", "hull": "2D",
           "shields": "2D", "crew": {"gunnery": "2D", "piloting": "2D", "shields": "2D"},
           "weapons": [{"id": "l", "type": "laser", "fire_control": "2D", "damage": "3D"},
                       {"id": "ion", "type": "ion_cannon", "fire_control": "2D", "damage": "4D"}]}
STATION = {"name": "Station", "scale": "death_star", "speed": 0, "maneuverability": "0D", "hull": "6D",
           "crew": {"gunnery": "2D", "piloting": "0D"},
           "weapons": [{"id": "sl", "type": "turbolaser", "fire_control": "2D", "damage": "4D"}]}


def dice(*faces):
    return Dice(ScriptedSource(list(faces)))


def firing(shooter, target, *, wild=False, distance=3):
    """shooter (stats, id) fires at target (stats, id), 'distance' hexes apart in a column."""
    a = rules.build_ship(shooter[0], id=shooter[1], side="A", col=5, row=5)
    b = rules.build_ship(target[0], id=target[1], side="B", col=5, row=5 + distance)
    s = rules.new_combat([a, b], 20, 20, wild=wild)
    s.phase, s.queue = "firing", [a.id]
    return s


def resolve(s, faces):
    s, _ = rules.end_fire(s)
    s.queue = []
    return rules.resolve_firing(s, dice(*faces))


# ---------------------------------------------------------------- 1. scale caps
def test_capital_to_hit_caps_fire_control_and_fighter_hull_is_capped():
    """Seed 6. ESCALES "Escala a la tirada per impactar": a capital ship firing at a starfighter
    counts fire-control dice over 3 as 3 (the gunnery skill is not capped); "Escala per determinar
    el dany": a starfighter hit by a capital ship counts shield and hull dice over 3 as 3."""
    s = firing((CAPITAL, "c"), (FIGHTER, "f"))
    # gunnery 2D: 6,6 = 12; fire control 2D + 1D short: 6,6,6 -> 3,3,3 = 9; attack 21
    # evasion: piloting 2D + maneuverability 3D (not capped for a fighter): 4,4,4,4,4 = 20 -> hit
    s, log = rules.fire(s, "tl", "f", dice(6, 6, 6, 6, 6, 4, 4, 4, 4, 4, 3, 3, 3, 3))
    shot = s.shots[0]
    assert (shot.attack, shot.evasion, shot.hit, shot.damage) == (21, 20, True, 12)
    # shields: skill 2D 6,6 = 12 (not capped) + shields 2D 6,6 -> 3,3 = 6: 18 >= 12 stops it
    s2, log = resolve(s, [6, 6, 6, 6])
    assert any("shields (18) stop 12" in e.text for e in log)
    # with shields 0D the hull 2D rolls 6,6 -> 3,3 = 6; 12 - 6 = 6 -> light damage
    s.ship("f").shields = "0D"
    s3, log = resolve(s, [6, 6, 1])
    assert any("against hull 6, margin 6" in e.text for e in log)


def test_capital_evasion_against_fighters_and_fighter_damage_to_capitals_are_capped():
    """Seed 6. ESCALES "Escala per maniobres evasives": capital ships evading starfighters count
    maneuverability dice over 2 as 2; "Escala per determinar el dany": starfighter damage to a
    capital ship counts dice over 3 as 3.  The capital ship's shields and hull are not capped."""
    s = firing((FIGHTER, "f"), (CAPITAL, "c"))
    # attack: gunnery 2D + fire control 3D, one roll: 3 x5 = 15; evasion: piloting 2D 6,6 = 12,
    # maneuverability 1D 6 -> 2: 14 -> hit.  Damage 3D: 6,6,6 -> 9
    s, log = rules.fire(s, "l", "c", dice(3, 3, 3, 3, 3, 6, 6, 6, 6, 6, 6))
    shot = s.shots[0]
    assert (shot.attack, shot.evasion, shot.damage) == (15, 14, 9)
    # shields 2D + 2D uncapped, one roll: 1,1,1,1 = 4 -> 5 through; hull 5D 1 x5 = 5 -> margin 0
    s, log = resolve(s, [1, 1, 1, 1, 1, 1, 1, 1, 1])
    assert s.ship("c").shields == "1D" and s.ship("c").damage == ["shields_blown"]


def test_a_capped_wild_die_still_explodes():
    """RULES-NOTES: a capped Wild Die still explodes on a natural 6.  decision: the Wild Die stays
    with the (uncapped) skill; only a 0D skill leaves it to the capped factor."""
    # skill 0D: factor 2D capped 3 -- normal 5 -> 3, Wild Die 6 -> 3 and again 4 -> 3: 9
    assert rules.roll_skill_and_factor(dice(5, 6, 4), "0D", "2D", cap=3, wild=True, purpose="t", rule="r") == 9
    # skill 1D: its Wild Die 6 then 2 = 8; factor 2D+1 without the Wild Die: 6,6 -> 3,3 +1 = 7
    assert rules.roll_skill_and_factor(dice(6, 2, 6, 6), "1D", "2D+1", cap=3, wild=True, purpose="t", rule="r") == 15
    # no cap: one roll of skill + factor
    assert rules.roll_skill_and_factor(dice(6, 6, 6), "1D", "2D", cap=None, wild=False, purpose="t", rule="r") == 18


def test_death_star_scale():
    """Seed 6. ESCALES: a Death Star firing at a capital ship counts fire-control dice over 3 as 3;
    capital ships oppose 1 point per shield or hull die to its weapons; capital ships evading it
    count maneuverability over 4 as 4; a starfighter causes no significant damage to it; capital
    ships cause 1 point per damage die to it."""
    s = firing((STATION, "d"), (CAPITAL, "c"))
    # gunnery 2D 1,1 = 2; fire control 3D 6,6,6 -> 9: 11; evasion 2D 1,1 + 1D 6 -> 4: 6 -> hit
    s, _ = rules.fire(s, "sl", "c", dice(1, 1, 6, 6, 6, 1, 1, 6, 5, 5, 5, 5))
    assert (s.shots[0].attack, s.shots[0].evasion, s.shots[0].damage) == (11, 6, 20)
    # shields: skill 2D 6,6 = 12, shields 2D 6,6 -> 1,1: 14 -> 6 through; hull 5D 6 x5 -> 5: margin 1
    _, log = resolve(s, [6, 6, 6, 6, 6, 6, 6, 6, 6])
    assert any("shields roll 14" in e.text for e in log) and any("hull 5, margin 1" in e.text for e in log)

    s = firing((CAPITAL, "c"), (STATION, "d"))
    # attack 2D + 3D one roll (no to-hit cap) 2 x5 = 10; evasion piloting 0D + 0D = 0; damage 4D -> 1 each
    s, _ = rules.fire(s, "tl", "d", dice(2, 2, 2, 2, 2, 6, 6, 6, 6))
    assert s.shots[0].damage == 4

    s = firing((FIGHTER, "f"), (STATION, "d"))
    s, log = rules.fire(s, "l", "d", dice(2, 2, 2, 2, 2))   # hit; no damage rolled
    assert s.shots[0].no_damage and any("cannot cause significant damage" in e.text for e in log)
    s, log = resolve(s, [])                              # nothing to roll
    assert s.ship("d").damage == []


def test_a_death_star_cannot_fire_at_starfighters():
    """Seed 6. ESCALES: "Els objectes d'escala Estrella de la Mort no poden disparar contra
    objectius d'escala més petita que una Nau capital" -- no shot at a starfighter is offered or
    allowed; the same station may fire at a capital ship."""
    s = firing((STATION, "d"), (FIGHTER, "f"))
    assert rules.fire_options(s) == []
    with pytest.raises(ValueError):
        rules.fire(s, "sl", "f", dice(6, 6, 6, 6))
    assert rules.fire_options(firing((STATION, "d"), (CAPITAL, "c"))) == [("sl", "c")]


# ---------------------------------------------------------------- 2. ion cannons
def _ionised(margin_faces, ion):
    s = firing((FIGHTER, "a"), (FIGHTER, "b"))
    return rules.apply_ion(s, "b", ion, dice(*margin_faces))


@pytest.mark.parametrize("ion,controls", [(4, 1), (9, 1), (10, 2), (14, 2), (15, 3), (24, 4), (19, 3), (20, 4)])
def test_ion_table(ion, controls):
    """Seed 3. "Canons d'ions": the hull roll (here 2,2 = 4) against the ion damage; ion >= hull
    reads the table on the margin: 0-5 one control ionised, 6-10 two, 11-15 three, 16-20 four."""
    s, log = _ionised([2, 2], ion)
    b = s.ship("b")
    assert b.damage == ["controls_ionised"] * controls
    assert str(rules.current_maneuverability(b, s.round)) == str(DiceCode.parse("3D") - 3 * controls)


def test_ion_hull_greater_does_nothing_and_21_destroys_the_controls():
    """Seed 3. "Canons d'ions": hull greater -- nothing; 21+ -- controls destroyed (decision: dead for
    the rest of the fight)."""
    s, log = _ionised([2, 3], 4)
    assert s.ship("b").damage == [] and "no effect" in log[0].text
    s, log = _ionised([2, 2], 25)
    b = s.ship("b")
    assert b.damage == ["controls_destroyed"] and rules.controls_dead(b, 500)


def test_ion_hits_ignore_shields_and_are_resolved_after_the_damage():
    """Seed 3. "Canons d'ions": "Els escuts no donen cap mena de protecció" -- only the hull is rolled;
    ion hits are not summed with damage (decision: one hull roll per ion hit, after the damage)."""
    s = firing((FIGHTER, "a"), (FIGHTER, "b"))
    # attack 2D + 2D + 1D short: 5 x5 = 25; evasion 5D 1 x5 = 5; ion damage 4D 3 x4 = 12
    s, log = rules.fire(s, "ion", "b", dice(5, 5, 5, 5, 5, 1, 1, 1, 1, 1, 3, 3, 3, 3))
    assert s.shots[0].ion and s.shots[0].damage == 12 and "Ion damage 12" in log[-1].text
    s, log = resolve(s, [1, 1])          # hull only: 2 -> margin 10 -> two controls ionised
    assert s.ship("b").damage == ["controls_ionised", "controls_ionised"]
    assert s.ship("b").shields == "2D"


def test_ion_cannons_fire_alone():
    """Seed 2. COMBAT: "Els canons d'ions no poden disparar-se conjuntament amb cap altre sistema"."""
    s = firing((FIGHTER, "a"), (FIGHTER, "b"))
    assert ("ion", "b") in rules.fire_options(s) and ("l", "b") in rules.fire_options(s)
    s, _ = rules.fire(s, "l", "b", dice(1, 1, 1, 1, 1, 6, 6, 6, 6, 6))   # a miss
    assert rules.fire_options(s) == []


# ---------------------------------------------------------------- 3. fire factors
@pytest.mark.parametrize("shots,faces,hits", [
    (2, [3], 1), (2, [4], 2), (3, [2], 1), (3, [3], 2), (3, [6], 3),
    (4, [5, 6, 3], 3), (4, [4], 4), (5, [6, 5], 5), (5, [6, 6, 1], 1), (6, [4], 4),
    (7, [2], 3), (14, [6, 1, 4], 9), (12, [3, 3], 6), (1, [], 1)])
def test_fire_factor_hits(shots, faces, hits):
    """Seed 3. "Factors de Foc per les Naus Capitals" with RULES-NOTES: 2 shots 1-3/4-6 = 1/2; 3 shots
    1-2/3-4/5-6 = 1/2/3; 4 shots the die, 5-6 rolled again; 5 the die, 6 rolled again; 6 the die;
    larger volleys one die per full 6 shots plus the small-volley rule for the remainder
    (decision: a remainder of 1, or a single shot, is one hit)."""
    d = dice(*faces)
    assert rules.broadside_hits(d, shots) == hits
    with pytest.raises(Exception):
        d.faces(1, 6, "nothing left", "")


def test_a_broadside_rolls_one_attack_then_the_fire_factor_then_each_hit_s_damage():
    """Seed "Factors de Foc" steps 2-4: one attack roll with the guns' fire control against one
    evasion; a miss means no shot hits; a hit rolls the fire factor and each hit's damage (summed)."""
    s = firing((CAPITAL, "c"), (CAPITAL, "e"))
    # attack 2D + 3D, one roll (same scale): 4 x5 = 20; evasion 3D 1 x3 = 3
    # fire factor (3 shots) 5 -> 3 hits; damage 2D x3: 1,2 / 3,4 / 5,6 = 21
    s, log = rules.fire(s, "bs", "e", dice(4, 4, 4, 4, 4, 1, 1, 1, 5, 1, 2, 3, 4, 5, 6))
    shot = s.shots[0]
    assert (shot.hits, shot.damage) == (3, 21)
    assert any("3 of 3 shots hit" in e.text for e in log)
    assert serial.from_json(rules.CombatState, serial.to_json(s)) == s
    s2 = firing((CAPITAL, "c"), (CAPITAL, "e"))
    s2, _ = rules.fire(s2, "bs", "e", dice(1, 1, 1, 1, 1, 6, 6, 6))   # miss: no fire factor, no damage
    assert not s2.shots[0].hit and s2.shots[0].damage == 0


def test_broadside_shots_are_validated():
    """Stats: a broadside has 1 or more shots."""
    bad = {**CAPITAL, "weapons": [{"type": "turbolaser", "shots": 0}]}
    assert any("broadside" in e for e in rules.validate_stats(bad))
