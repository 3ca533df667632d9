"""Every action of the Tabella: Riepilogo delle azioni di combattimento spaziale."""
from dataclasses import replace

from rulesets.cepheus import tables
from rulesets.cepheus.engine import RULESET
from rulesets.cepheus.queries import eff_init
from rulesets.core.messages import english

from .helpers import act, crew, duel, edit_ship, kinds, legal, setup, ship, start, text

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)


# ---- minor actions
def test_adjust_speed_changes_speed_by_up_to_thrust_without_a_check():
    """Calibrare la velocità: up to the ship's Thrust, no check."""
    s = duel([crew("p", "pilot", pilot=1)], [], a_stats={"thrust": 3})
    speeds = sorted(a.get("speed") for a in legal(s, "adjust_speed"))
    assert speeds == [1, 2, 3]
    assert act(s, "adjust_speed actor=p speed=#3").state.ship("a").speed == 3


def test_maintain_course_needs_no_check():
    """Mantenere la rotta."""
    step = act(duel([crew("p", "pilot")], []), "maintain_course actor=p")
    assert step.dice.rolls == [] and "maintains course" in text(step)


def test_change_position_takes_up_the_new_position():
    """Cambiare posizione: the crew member now holds the new position."""
    s = duel([crew("x", "passenger"), crew("y", "passenger")], [])
    s = act(s, "change_position actor=x position=pilot").state
    assert s.ship("a").member("x").position == "pilot"
    assert "evasive" in kinds(s)  # the new position's actions are open this turn


def test_personal_action_is_a_minor_action():
    """Azione personale / Nota sulle azioni personali: counts as a minor action."""
    s = duel([GUNNER], [])
    s = act(s, "personal actor=g").state
    assert s.minor == 0 and s.sig == 1


# ---- captain
def test_coordinate_crew_gives_a_pool_equal_to_the_effect_minimum_1():
    """Coordinare Equipaggio: Leadership Average; pool = Effect (minimum 1)."""
    s = duel([crew("cap", "captain", leadership=1), GUNNER], [crew("t", "passenger")])
    s1 = act(s, "coordinate actor=cap", 4, 3).state          # 7 + 1 = 8: Effect 0 -> pool 1
    assert s1.ship("a").pool == 1
    s2 = act(s, "coordinate actor=cap", 6, 6).state          # Effect 5
    assert s2.ship("a").pool == 5


def test_coordination_points_add_dm_plus_1_to_the_crew_members_check():
    s = duel([crew("cap", "captain", leadership=1), GUNNER], [crew("t", "passenger")])
    s = act(s, "coordinate actor=cap", 4, 3).state
    s = act(s, "assign actor=cap crew=g").state   # the last point handed out: the Captain's turn passes
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1)
    assert ("Captain's coordination", 1) in step.dice.rolls[0].modifiers


def test_increase_initiative_adds_the_effect_for_the_next_round_only():
    """Aumentare l'iniziativa: + Effect, for the next turn only."""
    s = duel([crew("cap", "captain", leadership=0)], [crew("q", "passenger")])
    before = eff_init(s, s.ship("a"))
    s = act(s, "increase_initiative actor=cap", 6, 5).state   # Effect 3
    s = act(s, "end_turn actor=q").state                       # round 2
    assert s.round == 2 and eff_init(s, s.ship("a")) == before + 3
    s = act(s, "end_turn actor=cap").state
    s = act(s, "end_turn actor=q").state                       # round 3
    assert eff_init(s, s.ship("a")) == before


# ---- pilot
def test_evasive_manoeuvres_dm_minus_1_or_minus_2_on_exceptional_success():
    """Manovre Evasive."""
    s = duel([crew("p", "pilot", pilot=1)], [])
    assert act(s, "evasive actor=p", 4, 3).state.ship("a").evasive == -1
    assert act(edit_ship(s, "a", crew=[replace(s.ship("a").crew[0], skills={"pilot": 3})]), "evasive actor=p", 6, 5).state.ship("a").evasive == -2


def test_evasive_target_imposes_its_dm_on_attacks():
    s = duel([GUNNER], [crew("t", "passenger")])
    s = edit_ship(s, "b", evasive=-1)
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1)
    assert ("target evasive", -1) in step.dice.rolls[0].modifiers


def test_line_up_the_shot_gives_gunners_dm_plus_1():
    """Allineare il tiro: DM+1 (DM+2 exceptional) on every attack this turn."""
    s = duel([crew("p", "pilot", pilot=1), GUNNER], [crew("t", "passenger")])
    s = act(s, "line_up actor=p", 4, 3).state
    s = act(s, "done actor=p").state
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1)
    assert ("lined up", 1) in step.dice.rolls[0].modifiers


def test_pursue_needs_close_range_and_the_same_speed_and_grows_to_dm_plus_4():
    """Inseguimento: opposed Pilot at Adjacent/Close and equal speed; DM+1 per turn after the first, max +4."""
    s = duel([crew("p", "pilot", pilot=1), GUNNER], [crew("q", "pilot")], range="short")
    assert not legal(s, "pursue")
    s = duel([crew("p", "pilot", pilot=1), GUNNER], [crew("q", "pilot")], range="close")
    s = act(s, "pursue actor=p target=b", 5, 5, 2, 2).state
    assert s.ship("a").pursuing == "b" and s.ship("a").pursuit_turns == 0
    for n in range(1, 6):
        s = act(s, "done actor=p").state
        s = act(s, "end_turn actor=g").state
        s = act(s, "end_turn actor=q").state
        s = act(s, "pursue actor=p target=b").state
    assert s.ship("a").pursuit_turns == 5
    from rulesets.cepheus.queries import pursuit_dm
    assert pursuit_dm(s.ship("a"), "b") == 4


def test_pursuit_ends_if_not_maintained():
    s = duel([crew("p", "pilot", pilot=1)], [crew("q", "pilot")], range="close")
    s = act(s, "pursue actor=p target=b", 5, 5, 2, 2).state
    s = act(s, "end_turn actor=p").state
    s = act(s, "end_turn actor=q").state
    s = act(s, "end_turn actor=p").state
    assert s.ship("a").pursuing == ""


def test_pursuit_ends_when_the_range_opens_to_medium():
    s = duel([crew("p", "pilot", pilot=1)], [crew("q", "pilot"), crew("n", "navigator", navigation=2)], range="close")
    s = act(s, "pursue actor=p target=b", 5, 5, 2, 2).state
    s = act(s, "end_turn actor=p").state
    s = RULESET.apply(s, __import__("rulesets.core.engine", fromlist=["Action"]).Action.make(
        "override", "gm", path="range.a.b", value="medium"), __import__("rulesets.core.dice", fromlist=["scripted"]).scripted()).state
    assert s.ship("a").pursuing == ""


def test_pursuit_ends_when_the_target_outruns_the_pursuer_by_7():
    s = duel([crew("p", "pilot", pilot=1)], [crew("q", "pilot")], range="close", d_stats={"thrust": 8})
    s = act(s, "pursue actor=p target=b", 5, 5, 2, 2).state
    s = act(s, "end_turn actor=p").state
    s = act(s, "adjust_speed actor=q speed=#7").state
    assert s.ship("a").pursuing == ""


def test_break_pursuit_is_an_opposed_pilot_check():
    """Rompere l'inseguimento: success ends the pursuit and its bonuses."""
    s = duel([crew("p", "pilot")], [crew("q", "pilot", pilot=2)], range="close")
    s = act(s, "pursue actor=p target=b", 6, 6, 1, 1).state
    s = act(s, "end_turn actor=p").state
    s = act(s, "break_pursuit actor=q target=a", 4, 4, 3, 3).state
    assert s.ship("a").pursuing == ""


def test_dock_with_an_unwilling_ship_is_opposed_at_dm_minus_2():
    """Agganciare un altro vascello: unwilling: opposed Pilot, the docking ship DM-2."""
    s = duel([crew("p", "pilot", pilot=1)], [crew("q", "pilot")], range="adjacent")
    step = act(s, "dock actor=p target=b", 5, 5, 3, 3)
    assert ("docking with an unwilling ship", -2) in step.dice.rolls[0].modifiers
    assert step.state.docked == ["a|b"]


def test_dock_with_a_willing_ship_is_an_average_pilot_check():
    s = setup(ship("a", "blue", [crew("p", "pilot", pilot=0)]), ship("a2", "blue"), ship("b", "red"), range="adjacent")
    s = start(s, 6, 6, 5, 5, 1, 1)
    step = act(s, "dock actor=p target=a2", 4, 4)
    assert step.state.docked == ["a2|a" if "a2" < "a" else "a|a2"] and len(step.dice.rolls) == 1


def test_ram_only_at_close_range_when_faster_and_deals_1d6_per_point_of_speed_difference():
    """Speronamento: Close range only, the rammer faster; opposed Pilot; 1D6 per point of speed difference."""
    s = duel([crew("p", "pilot", pilot=1)], [crew("q", "pilot")], range="close")
    assert not legal(s, "ram")
    s = edit_ship(s, "a", speed=2)
    assert legal(s, "ram")
    step = act(s, "ram actor=p target=b", 6, 6, 1, 1)
    assert "rams" in text(step) and step.state.band("a", "b") == "adjacent"
    # at the end of the turn: 2D6 (speed difference 2) to each: B 6 -> two Hull hits, A 4 -> one
    s = act(step.state, "done actor=p", 3, 3, 1, 1, 1, 1, 2, 2, 1, 1).state
    assert (s.ship("b").hull, s.ship("a").hull) == (2, 3)


def test_avoid_collision_in_an_asteroid_field_failure_deals_1d6_per_point_of_speed():
    """Evitare Collisioni: the situation table's difficulty; a collision deals 1D6 per point of speed."""
    s = duel([crew("p", "pilot", pilot=1)], [], hazard="asteroids_medium")
    s = edit_ship(s, "a", speed=1)
    assert [a.kind for a in legal(s) if a.kind in ("evasive", "avoid_collision")] == ["avoid_collision"]
    step = act(s, "avoid_collision actor=p", 3, 3)     # 6 + 1 - 4 = 3: collision
    assert ("Very Difficult (-4)", -4) in step.dice.rolls[0].modifiers
    s = act(step.state, "done actor=p", 4, 1, 1).state   # end of turn: 1D6 (speed 1) = 4, one hit on row 2: Hull
    assert s.ship("a").hull == 3


def test_collision_situation_table_rows():
    """Tabella: Evitare Collisioni."""
    assert [v[1] for v in tables.COLLISION_SITUATIONS.values()] == [None, "average", "difficult", "very_difficult", "formidable"]
    assert tables.COLLISION_SPEED_MISMATCH_DM == -2


# ---- navigator
def test_jump_plot_is_easy_navigation_with_dm_minus_1_for_the_hurry():
    """Calcolare Rotta di Balzo: Easy (+4) Navigation (Edu), DM-1 hurried."""
    s = duel([crew("n", "navigator", navigation=0)], [], a_stats={"jump": 2})
    step = act(s, "jump_plot actor=n", 2, 3)   # 5 + 4 - 1 = 8
    assert step.state.ship("a").jump_plotted
    assert ("hurried into one turn", -1) in step.dice.rolls[0].modifiers


def test_with_a_plot_the_engineer_jumps_out_of_the_fight():
    s = duel([crew("e", "engineer", engineering=1)], [crew("q", "pilot")], a_stats={"jump": 1, "fuel": 40})
    assert not legal(s, "jump")
    s = edit_ship(s, "a", jump_plotted=True)
    s = act(s, "jump actor=e", 4, 3).state
    assert s.ship("a").status == "escaped" and s.over and s.winner == "red"


def test_a_damaged_j_drive_gives_jumps_dm_minus_2():
    """Motore-B, first hit: all jump attempts DM-2 to Engineering."""
    s = duel([crew("e", "engineer", engineering=1)], [], a_stats={"jump": 1, "fuel": 40})
    s = edit_ship(s, "a", jump_plotted=True, hits={"j_drive": 1})
    step = act(s, "jump actor=e", 4, 3)
    assert ("J-drive damaged", -2) in step.dice.rolls[0].modifiers and step.state.ship("a").status == "active"


def test_range_check_winner_chooses_to_change_the_range():
    """Verifica gittata: opposed Navigation; the higher result increases, decreases or keeps the range."""
    s = duel([crew("n", "navigator", navigation=2)], [crew("m", "navigator")], range="long")
    s = act(s, "range_check actor=n target=b want=closer", 4, 4, 3, 3).state
    assert s.band("a", "b") == "medium"


def test_range_check_loser_lets_the_other_ship_choose():
    s = duel([crew("n", "navigator")], [crew("m", "navigator", navigation=2)], range="long")
    s = act(s, "range_check actor=n target=b want=closer", 2, 2, 5, 5).state
    assert s.phase == "range" and s.active == "B — range choice"
    s = act(s, "choose_range actor=b want=farther").state
    assert s.band("a", "b") == "very_long"


# ---- sensors
def test_sensor_targeting_gives_dm_plus_1_or_plus_2_and_is_opposed_by_jamming():
    """Targeting del sensore: Comms (Edu) against the target's jamming DM; DM+1 (+2 exceptional)."""
    s = duel([crew("o", "sensors", comms=1), GUNNER], [crew("t", "passenger")], d_stats={"electronics": 1})
    step = act(s, "sensor_target actor=o target=b", 4, 4)   # 8 + 1 - 1 = 8
    assert ("target's sensor jamming", -1) in step.dice.rolls[0].modifiers
    assert step.state.ship("a").targeting == {"b": 1}
    step = act(step.state, "attack actor=g mount=t1 target=b weapon=0", 1, 1)
    assert ("sensor targeting", 1) in step.dice.rolls[0].modifiers
    assert act(edit_ship(s, "b", electronics=-5), "sensor_target actor=o target=b", 6, 6).state.ship("a").targeting == {"b": 2}


def test_damaged_sensors_give_comms_checks_dm_minus_2():
    """Sensori, first hit: DM-2 to Comms checks that use the sensors."""
    s = edit_ship(duel([crew("o", "sensors", comms=1)], []), "a", hits={"sensors": 1})
    step = act(s, "sensor_target actor=o target=b", 4, 4)
    assert ("sensors damaged", -2) in step.dice.rolls[0].modifiers


def test_electronic_warfare_jams_comms_and_sensor_locks():
    """Guerra Elettronica: opposed Comms (Int) against the enemy sensor operator."""
    s = duel([crew("o", "sensors", comms=2)], [crew("r", "sensors", comms=0)])
    s = act(s, "jam actor=o target=b", 4, 4, 3, 3).state
    assert s.ship("b").jammed == "a"
    assert s.active == "B — Sensor operator R" and "sensor_target" not in kinds(s)


def test_maintain_communications_restores_jammed_comms_opposed():
    """Mantieni le comunicazioni: a jammed ship's check is opposed by the jammer."""
    s = duel([crew("o", "sensors", comms=0)], [crew("r", "sensors", comms=2)])
    s = edit_ship(s, "a", jammed="b")
    s = act(s, "maintain_comms actor=o", 5, 5, 2, 2).state
    assert s.ship("a").jammed == ""


def test_intercept_then_the_captains_tactics_gives_a_one_time_dm_plus_4():
    """Intercettare le comunicazioni nemiche: Comms Difficult; Captain Tactics Easy; a one-time DM+4."""
    s = setup(ship("a", "blue", [crew("cap", "captain", tactics=0), crew("o", "sensors", comms=2), GUNNER]),
              ship("b", "red", [crew("t", "passenger")]), ship("c", "red"))
    s = start(s, 4, 4, 6, 6, 1, 1, 1, 1)
    assert legal(s, "exploit") == []
    s = act(s, "misc actor=cap").state
    s = act(s, "intercept actor=o target=b", 4, 4).state       # 8 + 2 - 2 = 8
    assert s.ship("a").intercepted == "b"
    s = act(s, "end_turn actor=g").state
    s = act(s, "end_turn actor=t").state if english(s.active).startswith("B") else s
    while not english(s.active).startswith("A — Captain"):
        s = act(s, [a for a in legal(s) if a.kind == "end_turn"][0]).state
    s = act(s, "exploit actor=cap", 2, 2).state               # 4 + 4 = 8
    assert s.ship("a").intel == "b"
    s = act(s, "done actor=o").state
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1)
    assert ("intercepted intentions", 4) in step.dice.rolls[0].modifiers
    assert step.state.ship("a").intel == ""


# ---- damage control and reload
def test_repair_hits_by_mechanic_effect_table():
    """Tabella: Risultato Riparazione Danni: Effect 0: 1 hit, 1-5: 2, 6+: 3."""
    assert [tables.hits_repaired(e)[0] for e in (0, 1, 5, 6, 9)] == [1, 2, 2, 3, 3]
    s = edit_ship(duel([crew("d", "damage_control", mechanic=1)], []), "a", hits={"m_drive": 2})
    s = act(s, "repair actor=d system=m_drive", 4, 4).state     # 8 + 1 = 9: Effect 1: 2 hits
    assert s.ship("a").hits["m_drive"] == 0


def test_battlefield_repairs_break_after_the_battle():
    """Riparare: field repairs only; the damage carried back still counts them."""
    s = edit_ship(duel([crew("d", "damage_control", mechanic=1)], []), "a", hits={"sensors": 1})
    s = act(s, "repair actor=d system=sensors", 4, 4).state
    assert s.ship("a").hits["sensors"] == 0
    assert RULESET.damage_of(s, "a")["systems"] == {"sensors": 1}


def test_repair_drones_with_auto_repair_check_at_dm_plus_1():
    """Riparare: drones with Auto-Repair make repair checks at DM+1."""
    s = edit_ship(duel([], [], a_stats={"repair_drones": True, "auto_repair": True}), "a", hits={"sensors": 1})
    drones = [c for c in s.ship("a").crew if c.automated == "repair"][0]
    step = act(s, f"repair actor={drones.id} system=sensors", 3, 4)
    assert ("Auto-Repair software", 1) in step.dice.rolls[0].modifiers


def test_reload_refills_an_exhausted_missile_rack():
    """Ricaricare il sistema delle armi."""
    rack = [{"weapons": [{"type": "missile_rack", "ammo": 6}]}]
    s = duel([GUNNER], [], a_stats={"turrets": rack})
    a = s.ship("a")
    m = replace(a.mounts[0], weapons=[replace(a.mounts[0].weapons[0], loaded=0)])
    s = edit_ship(s, "a", mounts=[m])
    s = act(s, "reload actor=g mount=t1 weapon=#0").state
    w = s.ship("a").mount("t1").weapons[0]
    assert (w.loaded, w.reserve) == (3, 0)


TWIN = {"turrets": [{"weapons": [{"type": "pulse_laser"}, {"type": "pulse_laser"}]}]}


def _coordinated_salvo(defender_crew):
    """A turret of two pulse lasers fired together by a gunner holding one coordination point."""
    s = duel([crew("cap", "captain", leadership=1), GUNNER], defender_crew, a_stats=TWIN)
    s = act(s, "coordinate actor=cap", 4, 3).state   # Effect 0: a pool of 1
    return act(s, "assign actor=cap crew=g").state


def _coordination(roll):
    return [m for m in roll.modifiers if m[0] == "Captain's coordination"]


def test_a_coordination_point_gives_dm_plus_1_to_one_check_of_a_salvo_resolved_at_once():
    """Coordinare Equipaggio: each point is DM+1 to a check ("MD+1 per punto ... alle prove"): a
    salvo's first attack roll spends it; the second weapon's roll has none."""
    s = _coordinated_salvo([crew("t", "passenger")])         # no pilot: no reaction, resolved at once
    step = act(s, "attack actor=g mount=t1 target=b weapon=all", 1, 1, 1, 1)
    first, second = step.dice.rolls
    assert _coordination(first) == [("Captain's coordination", 1)] and _coordination(second) == []


def test_the_same_salvo_resolved_after_the_defenders_reaction_spends_the_point_once_too():
    """The same rule when the target reacts first: the salvo resolves in the defender's step, and
    still only its first attack roll has the Captain's DM+1."""
    s = _coordinated_salvo([crew("p", "pilot", pilot=1)])
    s = act(s, "attack actor=g mount=t1 target=b weapon=all").state
    assert s.phase == "react"
    step = act(s, "no_reaction actor=b", 1, 1, 1, 1)
    first, second = step.dice.rolls
    assert _coordination(first) == [("Captain's coordination", 1)] and _coordination(second) == []


RACKS = {"turrets": [{"weapons": [{"type": "missile_rack"}, {"type": "missile_rack"}]}]}


def test_a_coordination_point_gives_dm_plus_1_to_the_first_launch_of_a_salvo_of_missiles_only():
    """Coordinare Equipaggio ("MD+1 per punto ... alle prove") with Missili: each launcher of a mount
    makes its own launch check, so the point goes to the first launch only; the same faces give the
    first launch Effect 0 (8+) and the second Effect -1 (10+)."""
    s = duel([crew("cap", "captain", leadership=1), GUNNER], [crew("t", "passenger")], a_stats=RACKS)
    s = act(s, "coordinate actor=cap", 4, 3).state   # Effect 0: a pool of 1
    s = act(s, "assign actor=cap crew=g").state
    step = act(s, "attack actor=g mount=t1 target=b weapon=all", 3, 3, 3, 3)
    first, second = step.dice.rolls
    assert _coordination(first) == [("Captain's coordination", 1)] and _coordination(second) == []
    assert [m.to_hit for m in step.state.missiles] == [8, 10]
