"""Abbordaggio, Azioni estese, Ritardo, Manovre planetarie, Danno in scala, the GM's override, damage carried back."""
from dataclasses import replace

from rulesets.cepheus import tables
from rulesets.cepheus.engine import RULESET
from rulesets.cepheus.queries import eff_init
from rulesets.cepheus.state import Task
from rulesets.core.messages import english

from .helpers import act, crew, duel, edit_ship, kinds, legal, setup, ship, start, text

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)


def test_boarding_needs_adjacent_ships():
    """Abbordaggio: only when the ships are adjacent or docked."""
    assert not legal(duel([crew("cso", "security", tactics=1)], [crew("cap", "captain")], range="close"), "board")
    assert legal(duel([crew("cso", "security", tactics=1)], [crew("cap", "captain")], range="adjacent"), "board")


def test_abstract_boarding_attacker_success_costs_the_defender_reactions_and_an_internal_hit():
    """Regole di abbordaggio astratte: opposed Tactics (Int); the attacker's success: defender loses reactions,
    attacker DM+2 next time, the ship takes a single internal hit."""
    s = duel([crew("cso", "security", tactics=1)], [crew("cap", "captain")], range="adjacent")
    step = act(s, "board actor=cso target=b", 4, 4, 3, 3, 1, 1)   # 9 vs 6: attacker success; internal row 2: Structure
    b = step.state.ship("b")
    assert b.reactions == 0 and b.structure == 3
    assert step.state.boarding[0].attacker_dm == 2


def test_abstract_boarding_exceptional_success_takes_the_ship():
    s = duel([crew("cso", "security", tactics=2)], [crew("cap", "captain")], range="adjacent")
    step = act(s, "board actor=cso target=b", 6, 6, 1, 1, 1, 1, 3, 4, 2, 2)  # 14 vs 2: Effect 6 -> boarded; 2D6 = 2 internal
    assert step.state.ship("b").status == "boarded" and step.state.over and step.state.winner == "blue"


def test_boarders_need_a_turn_to_take_control_of_the_ship():
    """Tabella: Risoluzione dell'abbordaggio astratto: "Ha bisogno di un turno per prendere il controllo della
    nave" -- a boarded ship is out of the fight at once and captured when the next round starts."""
    from rulesets.cepheus.sequence import start_round
    from rulesets.cepheus.state import Tx
    from rulesets.core.dice import Dice, ScriptedSource

    s = duel([crew("cso", "security", tactics=2)], [crew("cap", "captain")], range="adjacent")
    boarded = act(s, "board actor=cso target=b", 6, 6, 1, 1, 1, 1, 3, 4, 2, 2).state
    assert boarded.ship("b").status == "boarded" and not boarded.ship("b").can_act
    tx = Tx(replace(boarded, over=False, phase="crew"), Dice(ScriptedSource([])))
    start_round(tx)
    assert tx.s.ship("b").status == "captured"
    assert any("take control of B" in e.text for e in tx.log)


def test_abstract_boarding_defender_exceptional_success_repels_the_boarders():
    s = duel([crew("cso", "security")], [crew("cap", "captain", tactics=2)], range="adjacent")
    step = act(s, "board actor=cso target=b", 1, 1, 6, 6)
    assert step.state.boarding == [] and step.state.ship("b").status == "active"
    assert "repelled" in text(step)


def test_boarding_resolution_table_rows():
    """Tabella: Risoluzione dell'abbordaggio astratto."""
    assert set(tables.BOARDING_RESULTS) == {("attacker", "success"), ("defender", "success"),
                                       ("attacker", "exceptional"), ("defender", "exceptional")}


def test_point_defence_against_boarders_crossing_space_helps_the_defender():
    """Abbordaggio: crossing (not docked), boarders may be attacked by point defence or sand."""
    s = duel([crew("cso", "security")], [crew("cap", "captain"), GUNNER | {"id": "h"}], range="adjacent")
    s = act(s, "board actor=cso target=b").state
    assert s.phase == "react" and "point_defence" in kinds(s)
    s = act(s, "point_defence actor=h mount=t1", 4, 4).state
    assert s.pending.defence == 2


def test_an_extended_repair_rebuilds_a_destroyed_system_over_several_turns():
    """Azioni estese: a timing roll gives the turns; the character does nothing else meanwhile."""
    s = edit_ship(duel([crew("d", "damage_control", mechanic=2)], [crew("q", "pilot")]), "a", hits={"sensors": 3})
    assert not [a for a in legal(s, "repair")]
    s = act(s, "overhaul actor=d system=sensors", 4, 4, 2).state   # 8 + 2 - 2 = 8: started; timing 2 turns
    assert s.ship("a").member("d").task.turns == 2
    for _ in range(2):
        s = act(s, "end_turn actor=q").state
        assert kinds(s) - {"override"} == {"continue_task", "abandon_task", "end_turn"}
        s = act(s, "continue_task actor=d").state
    assert s.ship("a").hits["sensors"] == 1 and s.ship("a").member("d").task is None


def test_damage_interrupts_an_extended_action_unless_the_worker_rolls_8_plus_minus_damage():
    """Azioni estese: hit while working: 8+ with DM- the damage, or the turn's work does not count."""
    s = edit_ship(duel([GUNNER], [crew("d", "damage_control", mechanic=1)]), "b", hits={"sensors": 3})
    b = s.ship("b")
    s = edit_ship(s, "b", crew=[replace(b.crew[0], task=Task(
        "overhaul", "sensors", 3, done=2))])
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 6, 6, 2, 2, 2, 2, 3, 3)
    # 4 damage: one hit (row 4 M-drive); worker rolls 2+2+1-4 = 1: the turn's work is lost (not exceptional? -7: restart)
    assert step.state.ship("b").member("d").task.done == 0


def test_a_delaying_ship_acts_later_and_takes_that_initiative():
    """Ritardo: the Captain may act later in the round; the initiative becomes the count it acted at."""
    s = duel([crew("cap", "captain")], [crew("q", "pilot")])
    s = act(s, "delay actor=cap").state
    assert english(s.active).startswith("B —")
    s = act(s, "end_turn actor=q").state
    assert s.phase == "delay" and {"act_now", "act_first"} <= kinds(s)
    s = act(s, "act_now actor=a").state
    assert english(s.active).startswith("A —") and eff_init(s, s.ship("a")) == eff_init(s, s.ship("b"))


def test_a_ship_still_delaying_at_the_end_of_the_round_may_act_first_next_round():
    """Ritardo: giving up the round's actions sets initiative above the current first."""
    s = duel([crew("cap", "captain")], [crew("q", "pilot")])
    s = edit_ship(s, "b", initiative=9)
    s = act(s, "delay actor=cap").state
    s = act(s, "end_turn actor=q").state
    s = act(s, "act_first actor=a").state
    assert s.round == 2 and s.order[0] == "a" and eff_init(s, s.ship("a")) == 10


def test_orbit_insertion_failure_starts_a_decaying_orbit():
    """Manovre planetarie: orbit insertion, Routine (+2) Pilot; failure: the orbit decays."""
    s = duel([crew("p", "pilot")], [], planet=True)
    s = edit_ship(s, "a", position="space")
    s = act(s, "orbit actor=p", 1, 1).state
    assert s.ship("a").position == "decaying"


def test_reentry_uses_the_world_size_and_atmosphere_dms():
    """Tabella: Rientro in Atmosfera."""
    assert tables.reentry_dms(10, 8) == ([("world size 9+", -2), ("atmosphere 8-9, D", -2)], False)
    assert tables.reentry_dms(3, 4) == ([("world size 4 or less", 2), ("atmosphere 2-5, E", 2)], False)
    assert tables.reentry_dms(6, 1)[1] is True
    s = duel([crew("p", "pilot", pilot=1)], [crew("q", "pilot")], planet=True, world_size=10, world_atmosphere=8)
    step = act(s, "reentry actor=p", 6, 5)   # 11 + 1 - 4 = 8: into the atmosphere, out of the fight
    assert step.state.ship("a").status == "escaped"


def test_reentry_through_a_thin_atmosphere_succeeds_automatically():
    s = duel([crew("p", "pilot")], [crew("q", "pilot")], planet=True, world_atmosphere=0)
    assert act(s, "reentry actor=p").state.ship("a").status == "escaped"


def test_ship_weapons_against_personal_scale_targets_take_dm_minus_4_and_the_scaled_table():
    """Danno in scala: DM-4 to hit; Pulse Laser 2D6x50."""
    s = duel([crew("g", "turret_gunner", "turret-1", gunnery=3)], [], range="close",
             personal_targets=[{"id": "p1", "name": "Boarders in suits", "side": "red", "band": "close"}])
    step = act(s, "attack actor=g mount=t1 target=p1 weapon=0", 6, 6, 2, 3)
    assert ("personal-scale target", -4) in step.dice.rolls[0].modifiers
    assert step.state.personal[0].damage == 250
    assert tables.SCALED_DAMAGE["meson_bay"] == (5, 50, 4) and tables.SCALED_DAMAGE["sandcaster"] == (8, 1, 0)


def test_the_gm_can_set_any_stat_status_or_range_by_hand():
    """RULES-NOTES: the GM's escape hatch, recorded like any other step."""
    s = duel([GUNNER], [crew("t", "passenger")])
    step = act(s, "override actor=gm path=b.hull value=#1")
    assert step.state.ship("b").hull == 1 and "GM override" in text(step)
    assert act(step.state, "override actor=gm path=range.a.b value=long").state.band("a", "b") == "long"
    assert act(s, "override actor=gm path=b.status value=destroyed").state.over


def test_damage_carried_back_starts_the_next_encounter_damaged():
    """damage_of gives the persistent damage; setup accepts it back."""
    s = duel([GUNNER], [crew("t", "passenger")])
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 6, 6, 5, 5, 1, 3).state   # 10: Double Hit on row 4: M-drive x2
    dmg = RULESET.damage_of(s, "b")
    assert dmg == {"systems": {"m_drive": 2}}
    again = setup(ship("a", "blue"), ship("b", "red", damage=dmg))
    assert again.ship("b").hits == {"m_drive": 2} and again.ship("b").thrust == 1


def test_a_crew_members_carried_wounds_and_rads_start_the_next_encounter():
    """damage_of keeps a crew member's damage and rads under "crew" by their id; setup gives them back
    (they were lost before: the campaign's crew spec brings none of its own)."""
    carried = {"crew": {"t": {"damage": 4, "rads": 30}}}
    again = setup(ship("a", "blue"), ship("b", "red", [crew("t", "passenger")], damage=carried))
    member = again.ship("b").member("t")
    assert (member.damage, member.rads) == (4, 30)
    assert RULESET.damage_of(again, "b") == {"crew": {"t": {"damage": 4, "rads": 30}}}


def test_a_delaying_ship_may_interrupt_another_ships_turn_and_takes_its_initiative():
    """Ritardo: the Captain may act at any later moment of the turn, even interrupting another's actions;
    the ship's initiative becomes the count it acted at, and the interrupted ship then goes on."""
    s = duel([crew("cap", "captain")], [crew("q", "pilot", pilot=1), crew("h", "turret_gunner", "turret-1", gunnery=1)])
    s = act(s, "delay actor=cap").state
    assert english(s.active).startswith("B —") and "act_now" in kinds(s)            # offered in the middle of B's turn
    s = act(s, "evasive actor=q", 4, 4).state                              # 9: B jinks, DM-1
    assert s.active == "B — Pilot Q" and (s.sig, s.minor) == (0, 1)        # the pilot still has a minor action
    s = act(s, "act_now actor=a").state                                    # A interrupts the pilot's actions
    assert english(s.active).startswith("A —") and eff_init(s, s.ship("a")) == eff_init(s, s.ship("b"))
    s = act(s, "end_turn actor=cap").state
    assert s.active == "B — Pilot Q" and (s.sig, s.minor) == (0, 1)        # B resumes where it stopped
    assert s.ship("b").evasive == -1 and "act_now" not in kinds(s)
    s = act(s, "done actor=q").state
    assert s.active == "B — Turret gunner H"


def test_missiles_can_be_launched_at_personal_scale_targets_at_dm_minus_4():
    """Danno in scala: ship weapons take DM-4 against a personal-scale target, and the table gives the
    standard missile 1D6x50: the launch check takes the DM-4, the missile then strikes on arrival."""
    s = duel([GUNNER], [crew("t", "passenger")], range="long",
             a_stats={"turrets": [{"weapons": [{"type": "missile_rack", "ammo": 3}]}]},
             personal_targets=[{"id": "p1", "name": "Squad in vacuum suits", "side": "red", "band": "short"}])
    step = act(s, "attack actor=g mount=t1 target=p1 weapon=0", 6, 6)      # 12 + 1 - 4 = 9: Effect 1, 7+
    assert ("personal-scale target", -4) in step.dice.rolls[0].modifiers
    assert step.state.missiles[0].to_hit == 7 and step.state.missiles[0].target == "p1"
    step = act(step.state, "end_turn actor=t", 4, 3, 3)                    # round 2: 7 hits; 1D6 = 3: 150
    assert step.state.personal[0].damage == 150 and step.state.missiles == []


def test_a_smart_missile_at_a_personal_scale_target_strikes_at_dm_minus_4():
    """Danno in scala: the smart missile (1D6x50) has no launch roll, so its 8+ takes the DM-4 (decision)."""
    s = duel([GUNNER], [crew("t", "passenger")], range="long",
             a_stats={"turrets": [{"weapons": [{"type": "missile_rack", "ammo": 3, "missile": "smart"}]}]},
             personal_targets=[{"id": "p1", "name": "Squad in vacuum suits", "side": "red", "band": "short"}])
    s = act(s, "attack actor=g mount=t1 target=p1 weapon=0").state
    step = act(s, "end_turn actor=t", 6, 6, 2)                             # 12 - 4 = 8: hit; 1D6 = 2: 100
    assert ("personal-scale target", -4) in step.dice.rolls[0].modifiers and step.state.personal[0].damage == 100


def test_the_gm_override_names_ships_as_the_gm_sees_them_and_a_bad_value_names_its_path():
    """RULES-NOTES, the GM's escape hatch, in the shared grammar of rulesets/core/override.py: a ship by
    its name or id, the system's own fields and values, and errors that name the path."""
    import pytest

    from rulesets.core.engine import IllegalAction

    from rulesets.core.engine import Action

    s = duel([GUNNER], [crew("t", "passenger")])
    step = act(s, "override actor=gm path=B.hits.m_drive value=2")
    assert step.state.ship("b").hits["m_drive"] == 2 and "B's M-Drive hits to 2" in text(step)
    assert act(s, "override actor=gm path=b.crew.T.damage value=3").state.ship("b").member("t").damage == 3
    very_long = Action.make("override", "gm", path="range.A.B", value="Very Long")
    assert act(s, very_long).state.band("a", "b") == "very_long"
    for path, value, words in (("B.hull", "-1", "B.hull: Hull is a whole number from 0 to the ship.s full Hull"),
                               ("B.hits.warp", "1", "'warp' is not a system"),
                               ("B.status", "sunk", "'sunk' is not one of"),
                               ("Nobody.hull", "1", "does not start with a ship's name or id")):
        with pytest.raises(IllegalAction, match=words):
            act(s, f"override actor=gm path={path} value={value}")
