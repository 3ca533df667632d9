"""Checklist, Posizioni dell'equipaggio, Posizioni Automatizzate, Iniziativa, Il turno."""
from rulesets.cepheus import tables
from rulesets.cepheus.engine import RULESET

from .helpers import AVG, act, crew, legal, setup, ship, start


def test_starting_range_band_is_set_for_every_pair_of_ships():
    """Gittata nel combattimento spaziale: the GM sets the starting band; range is per pair."""
    s = setup(ship("a", "blue"), ship("b", "red"), ship("c", "red"), range="very_long", ranges={"a|c": "close"})
    assert s.band("a", "b") == "very_long" and s.band("b", "c") == "very_long" and s.band("a", "c") == "close"


def test_there_can_be_only_one_pilot():
    """Posizioni dell'equipaggio: only one pilot; a second one is a passenger."""
    s = setup(ship("a", "blue", [crew("p1", "pilot"), crew("p2", "pilot")]), ship("b", "red"))
    assert [c.position for c in s.ship("a").crew] == ["pilot", "passenger"]


def test_turret_gunner_mans_the_turret_chosen_at_the_start():
    """Posizioni dell'equipaggio: a turret gunner picks the turret they man."""
    two = [{"weapons": [{"type": "pulse_laser"}]}, {"weapons": [{"type": "beam_laser"}]}]
    s = setup(ship("a", "blue", [crew("g", "turret_gunner", "turret-2")], turrets=two), ship("b", "red"))
    assert s.ship("a").member("g").station == "t2"


def test_fire_control_software_mans_the_empty_turrets():
    """Posizioni Automatizzate: fire control programs act as gunners."""
    two = [{"weapons": [{"type": "pulse_laser"}]}, {"weapons": [{"type": "beam_laser"}]}]
    s = setup(ship("a", "blue", [crew("g", "turret_gunner", "turret-1")], turrets=two, fire_control=1), ship("b", "red"))
    auto = [c for c in s.ship("a").crew if c.automated]
    assert [(c.station, c.automated) for c in auto] == [("t2", "gunner")]


def test_intellect_and_expert_pilot_fly_a_ship_with_no_pilot():
    """Posizioni Automatizzate: Intellect + Expert Pilot can be the pilot."""
    s = setup(ship("a", "blue", [], intellect=True, expert_pilot=2), ship("b", "red"))
    pilot = [c for c in s.ship("a").crew if c.position == "pilot"]
    assert pilot and pilot[0].automated == "pilot" and pilot[0].skills["pilot"] == 2


def test_drones_intellect_and_expert_engineer_stand_in_as_engineer():
    """Posizioni Automatizzate: drones + Intellect + Expert Engineer can be an engineer."""
    s = setup(ship("a", "blue", [], repair_drones=True, intellect=True, expert_engineer=1), ship("b", "red"))
    assert any(c.automated == "engineer" for c in s.ship("a").crew)


def test_repair_drones_with_auto_repair_act_as_damage_control():
    """Posizioni Automatizzate: drones + Auto-Repair are damage control."""
    s = setup(ship("a", "blue", [], repair_drones=True, auto_repair=True), ship("b", "red"))
    assert any(c.automated == "repair" and c.position == "damage_control" for c in s.ship("a").crew)


def test_initiative_is_2d6_and_the_higher_thrust_gets_dm_plus_1():
    """Iniziativa: 2D6, DM+1 to the ship with the higher Thrust."""
    s = setup(ship("a", "blue", thrust=4), ship("b", "red", thrust=2))
    s = start(s, 3, 4, 3, 4)
    assert (s.ship("a").initiative, s.ship("b").initiative) == (8, 7)


def test_an_aware_ship_counts_its_initiative_roll_as_12():
    """Checklist 3 (and RULES-NOTES): aware ships of some-but-not-all count 12, then add their DMs."""
    s = setup(ship("a", "blue", thrust=3), ship("b", "red", thrust=2), aware=["a"])
    s = start(s, 2, 2)  # only b rolls
    assert (s.ship("a").initiative, s.ship("b").initiative) == (13, 4)


def test_when_everyone_is_aware_everyone_rolls():
    s = setup(ship("a", "blue"), ship("b", "red"), aware=["a", "b"])
    s = start(s, 1, 2, 3, 4)
    assert (s.ship("a").initiative, s.ship("b").initiative) == (3, 7)


def test_the_captains_tactics_effect_is_added_to_initiative():
    """Iniziativa: the Captain's Tactics check Effect is added to the ship's initiative."""
    s = setup(ship("a", "blue", [crew("cap", "captain", tactics=2)]), ship("b", "red"))
    s = start(s, 5, 5, 3, 3, 4, 4)  # Tactics 10 + 2 = 12: Effect 4; a's 2D6 = 6; b 8
    from rulesets.cepheus.queries import eff_init
    assert eff_init(s, s.ship("a")) == 10 and eff_init(s, s.ship("b")) == 8


def test_the_fleet_commanders_tactics_goes_to_every_ship_of_the_fleet():
    """Iniziativa: with more than one ship a side, the fleet commander's Tactics counts for the fleet."""
    s = setup(ship("a1", "blue", [crew("cap", "captain", tactics=1)]), ship("a2", "blue", [crew("cap2", "captain")]),
              ship("b", "red"))
    s = start(s, 6, 5, 1, 1, 1, 1, 3, 3)  # commander cap (Tactics 1): 12 -> Effect 4
    from rulesets.cepheus.queries import eff_init
    assert eff_init(s, s.ship("a1")) == 6 and eff_init(s, s.ship("a2")) == 6


def test_ships_act_in_descending_initiative_ties_to_the_higher_thrust():
    """Il turno di combattimento spaziale: descending initiative; ties go to the higher Thrust."""
    s = setup(ship("a", "blue", [crew("pa", "pilot")], thrust=2), ship("b", "red", [crew("pb", "pilot")], thrust=3),
              ship("c", "red", [crew("pc", "pilot")], thrust=2))
    s = start(s, 4, 4, 3, 4, 5, 5)  # a 8, b 7 + 1 (higher thrust than every enemy) = 8, c 10
    assert s.order == ["c", "b", "a"]


def test_reactions_per_round_come_from_initiative():
    """Tabella: Reazioni per Iniziativa, every row."""
    assert [tables.reactions_for(i) for i in (0, 4, 5, 8, 9, 12, 13, 20)] == [1, 1, 2, 2, 3, 3, 4, 4]
    s = start(setup(ship("a", "blue"), ship("b", "red")), 6, 6, 2, 2)
    assert (s.ship("a").reactions, s.ship("b").reactions) == (3, 1)


def test_the_first_step_is_initiative_and_each_side_rolls():
    s = setup(ship("a", "blue"), ship("b", "red"))
    assert s.phase == "initiative" and [a.kind for a in legal(s) if a.kind != "override"] == ["initiative"]
    assert RULESET.actor_ship(s) == "a"
