"""Missili, Missili intelligenti, Difesa puntiforme, Sparare Raffiche, Attivare Schermi, Regole per Armi Speciali."""
from dataclasses import replace

import pytest

from rulesets.cepheus import tables
from rulesets.core.messages import english

from .helpers import act, crew, duel, edit_ship, kinds, legal, text

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)
BAY_GUNNER = crew("g", "bay_gunner", "bay-1", gunnery=1)


def rack(kind="standard", ammo=6):
    return {"turrets": [{"weapons": [{"type": "missile_rack", "ammo": ammo, "missile": kind}]}]}


def test_missile_launch_range_table():
    """Tabella: Gittata di Lancio dei Missili."""
    assert [tables.MISSILE_TURNS[b] for b in tables.BANDS] == [None, None, 1, 1, 1, 2, 2]


@pytest.mark.parametrize("effect,need", [(-9, 11), (-6, 11), (-5, 10), (-1, 10), (0, 8), (1, 7), (5, 7), (6, 6), (10, 6)])
def test_missile_to_hit_from_the_launch_effect_every_row(effect, need):
    """Tabella: Tiro per colpire rispetto all'Effetto di Prova Abilità."""
    assert tables.missile_to_hit(effect)[0] == need


def test_missiles_cannot_be_launched_at_adjacent_or_close():
    """Missili: not at Adjacent or Close range."""
    for band in ("adjacent", "close"):
        assert legal(duel([GUNNER], [], a_stats=rack(), range=band), "attack") == []
    assert legal(duel([GUNNER], [], a_stats=rack(), range="short"), "attack")


def test_a_missile_strikes_next_round_with_the_to_hit_number_of_its_launch_effect():
    """Missili: launch Effect sets the to-hit number; the missile hits in a later round, not at launch."""
    s = duel([GUNNER], [crew("t", "passenger")], a_stats=rack(), range="long")
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 4, 3).state   # 7 + 1 = 8: Effect 0 -> 8+
    (m,) = s.missiles
    assert (m.to_hit, m.turns, m.count) == (8, 1, 1) and s.ship("b").hull == 4
    s = act(s, "end_turn actor=t", 5, 3, 4, 1, 1).state   # round 2: 8 hits; 1D6 = 4: one hit, row 2 Hull
    assert s.round == 2 and s.missiles == [] and s.ship("b").hull == 3


def test_missiles_launched_at_very_long_take_two_rounds():
    s = duel([GUNNER], [crew("t", "passenger")], a_stats=rack(), range="very_long")
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 4, 3).state
    assert s.missiles[0].turns == 2
    s = act(s, "end_turn actor=t").state
    assert s.round == 2 and s.missiles[0].turns == 1


def test_the_target_reacts_to_missiles_only_when_they_arrive_with_point_defence():
    """Difesa puntiforme: turret lasers shoot missiles down as they arrive; the chain stops at a miss, DM-1 each."""
    s = duel([GUNNER], [GUNNER | {"id": "h"}], a_stats=rack("standard", 9), range="long")
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 4, 3).state
    assert s.phase == "crew"                                  # no reaction at launch
    s = act(s, "end_turn actor=h").state
    assert s.phase == "react" and "point_defence" in kinds(s)
    step = act(s, "point_defence actor=h mount=t1", 4, 3)      # 7 + 1 = 8: destroyed; no missiles left
    assert step.state.missiles[0].count == 0
    assert "destroys" in text(step)


def test_point_defence_attempts_take_a_cumulative_dm_minus_1():
    s = duel([BAY_GUNNER], [GUNNER | {"id": "h"}], a_stats={"tonnage": 400, "turrets": [],
                                                          "bays": [{"type": "missile_bay", "ammo": 24}]}, range="long")
    s = act(s, "attack actor=g mount=b1 target=b weapon=0", 4, 3).state
    assert s.missiles[0].count == 12                          # a missile bay fires a salvo of 12 (decision)
    s = act(s, "end_turn actor=h").state
    step = act(s, "point_defence actor=h mount=t1", 4, 3, 5, 3, 4, 3)  # 8; 9 - 1 = 8; 8 - 2 = 6: stop
    mods = [r.modifiers for r in step.dice.rolls]
    assert ("point defence, earlier attempts", -1) in mods[1] and ("point defence, earlier attempts", -2) in mods[2]
    assert step.state.missiles[0].count == 10


def test_smart_missiles_always_hit_on_8_and_come_back_after_a_miss():
    """Missili intelligenti: 8+ always; a miss attacks again next turn until stopped."""
    s = duel([GUNNER], [crew("t", "passenger")], a_stats=rack("smart"), range="long")
    step = act(s, "attack actor=g mount=t1 target=b weapon=0")   # no launch roll for a smart missile
    assert step.dice.rolls == [] and step.state.missiles[0].to_hit == 8
    s = act(step.state, "end_turn actor=t", 3, 4).state         # 7: miss, comes round again
    assert s.missiles[0].count == 1 and s.missiles[0].turns == 1
    s = act(s, "end_turn actor=g").state
    s = act(s, "end_turn actor=t", 4, 4, 2, 1, 1).state         # 8: hit; 1D6 = 2; Hull
    assert s.missiles == [] and s.ship("b").hull == 3


def test_electronic_warfare_stops_smart_missiles_one_per_success_with_cumulative_dm_minus_1():
    """Guerra Elettronica: Difficult (-2) Comms; each success stops one smart missile; DM-1 per attempt."""
    s = duel([GUNNER], [crew("o", "sensors", comms=2)], a_stats=rack("smart"), range="very_long")
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    assert "ew_missiles" in kinds(s)
    step = act(s, "ew_missiles actor=o", 4, 4)                   # 8 + 2 - 2 = 8: stopped; none left
    assert step.state.missiles[0].count == 0


def test_nuclear_missiles_add_a_radiation_crew_hit_with_dm_minus_armour():
    """Regole per Armi Speciali: nuclear missiles: a radiation crew hit, DM- the ship's armour."""
    s = duel([GUNNER], [crew("t", "passenger")], a_stats=rack("nuclear"), d_stats={"armour": 2}, range="long")
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 4, 3).state
    # impact 8 hits; 2D6 = 6 - 2 armour = 4: one hit (row 2 Hull); radiation crew roll 6+6-2 = 10: 4D6x10 rad
    step = act(s, "end_turn actor=t", 4, 4, 3, 3, 1, 1, 6, 6, 1, 1, 1, 2)
    assert step.state.ship("b").member("t").rads == 50
    crew_roll = [r for r in step.dice.rolls if "crew damage" in english(r.purpose)][0]
    assert ("armour", -2) in crew_roll.modifiers


def test_nuclear_damper_screens_nuclear_missiles_and_removes_their_radiation_hit():
    """Attivare Schermi: 2D6 + Screens off the damage; dampers remove the nuclear radiation hit."""
    defender = [crew("cap", "captain", screens=1), crew("t", "passenger")]
    s = duel([GUNNER], defender, a_stats=rack("nuclear"), d_stats={"nuclear_damper": True}, range="long")
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 4, 3).state
    s = act(s, "end_turn actor=cap").state
    assert s.phase == "react" and "screens" in kinds(s)
    s = act(s, "screens actor=cap screen=damper", 1, 2).state     # 3 + 1 = 4 off the damage
    step = act(s, "no_reaction actor=b", 4, 4, 2, 3, 1, 1)        # hit; 2D6 = 5 - 4 = 1: one hit, row 2 Hull
    assert "removes the radiation hit" in text(step) and step.state.ship("b").hull == 3
    assert all(c.rads == 0 for c in step.state.ship("b").crew)


def test_meson_hit_ignores_armour_rolls_internal_and_irradiates_the_crew():
    """Regole per Armi Speciali: meson guns ignore armour, always roll internal, and add a radiation crew hit."""
    s = duel([BAY_GUNNER], [crew("t", "passenger")], a_stats={"tonnage": 400, "turrets": [], "bays": [{"type": "meson_bay"}]},
             d_stats={"armour": 4}, range="long")
    step = act(s, "attack actor=g mount=b1 target=b weapon=0", 4, 3,   # Long: Average: 8 hits
               1, 1, 1, 1, 1,        # 5D6 = 5, no armour: two single hits
               1, 1, 1, 2,           # Internal column rows 2 (Structure) and 3 (Power Plant)
               1, 1)                 # radiation crew roll 2: no one hurt
    b = step.state.ship("b")
    assert b.structure == 3 and b.hits["power_plant"] == 1 and b.hull == 4
    assert "Internal Hit (Vessel)" in [english(r.table) for r in step.dice.rolls if "hit location" in english(r.purpose)][0]


def test_meson_screen_reduces_meson_damage():
    defender = [crew("cap", "captain", screens=0), crew("t", "passenger")]
    s = duel([BAY_GUNNER], defender, a_stats={"tonnage": 400, "turrets": [], "bays": [{"type": "meson_bay"}]},
             d_stats={"meson_screen": True}, range="long")
    s = act(s, "attack actor=g mount=b1 target=b weapon=0").state
    s = act(s, "screens actor=cap screen=meson", 3, 3).state
    assert s.pending.screen == 6
    step = act(s, "no_reaction actor=b", 4, 3, 1, 1, 1, 1, 2, 1, 1)   # hit; 5D6 = 6 - 6 = 0: no damage; rad roll 2
    assert step.state.ship("b").structure == 4


def test_fusion_gun_adds_a_radiation_crew_hit_with_dm_minus_armour():
    """Regole per Armi Speciali: fusion guns: a radiation crew hit, DM- armour."""
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": [{"weapons": [{"type": "fusion_gun"}]}]},
             d_stats={"armour": 2}, range="medium")
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 4, 4, 2, 2, 2, 3, 3, 6, 6, 1, 1, 1, 1)
    crew_roll = [r for r in step.dice.rolls if "crew damage" in english(r.purpose)][0]
    assert ("armour", -2) in crew_roll.modifiers and step.state.ship("b").member("t").rads == 40


def test_particle_beam_adds_a_radiation_crew_hit():
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": [{"weapons": [{"type": "particle_beam"}]}]},
             range="long")
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 4, 4, 1, 1, 1, 1, 1, 3, 4, 1, 1)
    assert any("radiation crew hit" in english(r.purpose) for r in step.dice.rolls)


def test_a_radiation_crew_hit_takes_dm_minus_the_armour_the_hit_met_even_when_the_hit_strikes_the_armour():
    """Regole per Armi Speciali: the radiation crew hit is at DM- armour, the armour the hit met (the one its
    damage was reduced by), for every hit of a turn's damage: the second of two particle beams hits the
    Armour (2 -> 1) and its crew hit is still at DM-2, like the first (until 3 December 2026 the second
    hit of a turn read the armour after its own hit, DM-1, the first the armour before it)."""
    twin = {"turrets": [{"weapons": [{"type": "particle_beam"}, {"type": "particle_beam"}]}]}
    s = duel([GUNNER], [crew("t", "passenger")], a_stats=twin, d_stats={"armour": 2})
    step = act(s, "attack actor=g mount=t1 target=b weapon=all", 6, 6, 6, 6,  # both hit
               1, 1, 1, 4, 4, 1, 1,   # first: 3 - armour 2 = 1, a single hit on row 8 (Hull); crew roll 2
               1, 1, 1, 3, 4, 1, 1)   # second: 1, a single hit on row 7 (Armour); crew roll 2
    crew_rolls = [r for r in step.dice.rolls if "crew damage" in english(r.purpose)]
    assert [r.modifiers for r in crew_rolls] == [(("armour", -2),), (("armour", -2),)]
    assert step.state.ship("b").armour == 1 and step.state.ship("b").hull == 3


def test_sand_reduces_each_beams_damage_by_1d6_and_uses_a_canister():
    """Sparare Raffiche: a successful turret check takes 1D6 off each incoming beam; one canister a use."""
    sandy = {"turrets": [{"weapons": [{"type": "sandcaster", "ammo": 3}]}]}
    s = duel([GUNNER], [GUNNER | {"id": "h"}], d_stats=sandy)
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    assert "sand" in kinds(s)
    s = act(s, "sand actor=h mount=t1", 4, 3).state
    assert s.pending.sand == 1 and s.ship("b").mount("t1").weapons[0].loaded == 2
    step = act(s, "no_reaction actor=b", 4, 4, 3, 3, 5, 1, 1)    # hit; 2D6 = 6, sand 1D6 = 5: 1, one hit on row 2
    assert "sand -5 = 1" in text(step) and step.state.ship("b").hull == 3


def test_sand_does_not_stop_particle_beams():
    """Decision: sand works against lasers (the beams of the text)."""
    sandy = {"turrets": [{"weapons": [{"type": "sandcaster", "ammo": 3}]}]}
    s = duel([GUNNER], [GUNNER | {"id": "h"}], a_stats={"turrets": [{"weapons": [{"type": "particle_beam"}]}]}, d_stats=sandy)
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1, check_all_used=False).state
    assert "sand" not in kinds(s)


def test_missiles_arriving_together_from_two_launchers_are_one_reaction_and_one_point_defence_chain():
    """Difesa puntiforme: the gunner keeps rolling until an attempt fails, each at a cumulative -1, and the
    attempts may be aimed at different incoming missiles: two racks' missiles arriving together are one
    reaction, and the chain goes on from the first launcher's missile to the second's at DM-1."""
    racks = {"turrets": [{"weapons": [{"type": "missile_rack", "ammo": 3}]},
                         {"weapons": [{"type": "missile_rack", "ammo": 3}]}]}
    s = duel([crew("g1", "turret_gunner", "turret-1", gunnery=1), crew("g2", "turret_gunner", "turret-2", gunnery=1)],
             [GUNNER | {"id": "h"}], a_stats=racks, range="long")
    s = act(s, "attack actor=g1 mount=t1 target=b weapon=0", 4, 3).state     # 8: Effect 0, the missile needs 8+
    s = act(s, "attack actor=g2 mount=t2 target=b weapon=0", 4, 3).state
    assert [m.count for m in s.missiles] == [1, 1] and {m.source for m in s.missiles} == {"a"}
    s = act(s, "end_turn actor=h").state                                        # round 2: both arrive
    assert s.phase == "react" and len(s.pending.missiles) == 2 and s.ship("b").reactions == 1
    step = act(s, "point_defence actor=h mount=t1", 4, 4, 4, 4)   # 8 + 1 = 9: one down; 8 + 1 - 1 = 8: the other
    assert ("point defence, earlier attempts", -1) in step.dice.rolls[1].modifiers
    assert [m.count for m in step.state.missiles] == [0, 0]
    s = act(step.state, "no_reaction actor=b").state                            # nothing left to hit
    assert s.missiles == [] and s.ship("b").hull == 4


def test_the_point_defence_chain_stops_at_the_first_miss_across_the_incoming_missiles():
    """Difesa puntiforme: one chain, whichever missile each attempt aims at; a miss ends it."""
    racks = {"turrets": [{"weapons": [{"type": "missile_rack", "ammo": 3}]},
                         {"weapons": [{"type": "missile_rack", "ammo": 3, "missile": "nuclear"}]}]}
    s = duel([crew("g1", "turret_gunner", "turret-1", gunnery=1), crew("g2", "turret_gunner", "turret-2", gunnery=1)],
             [GUNNER | {"id": "h"}], a_stats=racks, range="long")
    s = act(s, "attack actor=g1 mount=t1 target=b weapon=0", 4, 3).state
    s = act(s, "attack actor=g2 mount=t2 target=b weapon=0", 4, 3).state
    s = act(s, "end_turn actor=h").state
    step = act(s, "point_defence actor=h mount=t1", 4, 4, 3, 3)   # 9: the nuclear missile first; 6 + 1 - 1 = 6: miss
    left = {m.kind: m.count for m in step.state.missiles}
    assert left == {"standard": 1, "nuclear": 0} and "misses; it stops" in text(step)
