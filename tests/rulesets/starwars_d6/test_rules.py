"""The state, the round sequence, firing and damage (rules.py); scripted dice, each test names its section."""
import pytest

from rulesets.core.messages import english
from rulesets.core import serial
from rulesets.core.dice import Dice, ScriptedSource
from rulesets.starwars_d6 import rules
from rulesets.starwars_d6 import tables

FIGHTER = {"name": "Wing", "scale": "starfighter", "speed": 8, "maneuverability": "3D", "hull": "4D",
           "shields": "1D", "hyperdrive": "x1", "crew": {"gunnery": "4D", "piloting": "4D", "shields": "3D"},
           "weapons": [{"id": "l", "type": "laser", "fire_control": "3D", "damage": "6D", "linked": 4},
                       {"id": "t", "type": "proton_torpedo", "fire_control": "2D", "damage": "9D", "ammo": 1}]}
EYEBALL = {"name": "Eye", "scale": "starfighter", "speed": 10, "maneuverability": "2D", "hull": "2D",
           "crew": {"gunnery": "3D", "piloting": "3D"},
           "weapons": [{"id": "l", "type": "laser", "fire_control": "2D", "damage": "5D", "linked": 2}]}


def dice(*faces):
    return Dice(ScriptedSource(list(faces)))


def fight(a_pos=(5, 10), b_pos=(8, 10), extra=()):
    a = rules.build_ship(FIGHTER, id="a", side="Rebels", col=a_pos[0], row=a_pos[1], facing=0)
    b = rules.build_ship(EYEBALL, id="b", side="Empire", col=b_pos[0], row=b_pos[1], facing=3)
    return rules.new_combat([a, b, *extra], 20, 20, wild=False)


def to_firing(s):
    """Initiative (Empire 2, Rebels 12), both ships hold."""
    s, _ = rules.roll_initiative(s, dice(6, 6, 1, 1))
    s, _ = rules.move(s, "hold")
    s, _ = rules.move(s, "hold")
    assert s.phase == "firing"
    return s


# ---------------------------------------------------------------- state and stats
def test_state_round_trips_through_serial():
    """Plain data: the combat state is JSON and back, unchanged (rulesets.core.serial)."""
    s = to_firing(fight())
    s, _ = rules.fire(s, "l", "a", dice(*[6] * 6, *[1] * 7, *[3] * 5))
    back = serial.from_json(rules.CombatState, serial.to_json(s))
    assert back == s
    assert serial.to_json(back) == serial.to_json(s)


def test_validate_stats_accepts_a_good_ship_and_names_each_problem():
    """Ship stats: scale, speed, codes, weapons (fire control, damage, fire-linked, ammo), crew codes."""
    assert rules.validate_stats(FIGHTER) == []
    bad = {"name": "", "scale": "moon", "speed": -1, "maneuverability": "lots", "crew": {"gunnery": "x", "cooking": "2D"},
           "weapons": [{"type": "phaser", "fire_control": "?", "linked": 0, "ammo": -2}, {"type": "laser", "id": "w1"}]}
    errors = rules.validate_stats(bad)
    for word in ("name", "Scale", "Speed", "Maneuverability", "hull", "gunnery", "cooking", "type must be",
                 "fire control", "fire-linked", "ammunition", "used twice"):
        assert any(word in e for e in errors), word
    with pytest.raises(ValueError):
        rules.build_ship(bad, id="x", side="y")


def test_build_ship_normalises_codes():
    """RULES-NOTES general rules: codes kept with pips 0-2 (2D-1 is 1D+2)."""
    sh = rules.build_ship({**EYEBALL, "hull": "2D-1"}, id="b", side="E")
    assert sh.hull == "1D+2" and sh.weapons[0].linked == 2 and sh.crew.shields == "3D"


# ---------------------------------------------------------------- sequence
def test_initiative_lowest_moves_first():
    """Seed 4. "Fase d'iniciativa": 2D each side; the lowest moves first; active names the mover."""
    s, log = rules.roll_initiative(fight(), dice(6, 5, 1, 2))  # Rebels 11, Empire 3
    assert s.order == ["Empire", "Rebels"] and s.initiative == {"Rebels": 11, "Empire": 3}
    assert s.phase == "movement" and s.moving.ship == "b" and "Eye" in english(s.active)


def test_initiative_ties_are_rerolled():
    """Seed 4.: "Tornar a repetir les tirades en cas d'empat" -- tied sides roll again."""
    s, log = rules.roll_initiative(fight(), dice(3, 4, 5, 2, 6, 6, 1, 2))  # 7-7 tie, then 12 vs 3
    assert s.order == ["Empire", "Rebels"]
    assert any("Tie" in e.text for e in log)


def test_movement_in_rising_order_with_hexes_legal_moves():
    """Seed 4. "Fase de moviment" and 1. MOVIMENT I MANIOBRA: the low side moves, then the next,
    spending speed points as hexes.legal_moves allows; free turns = maneuverability dice."""
    s, _ = rules.roll_initiative(fight(), dice(6, 6, 1, 1))
    assert s.moving.ship == "b" and s.moving.speed_left == 10 and s.moving.free_turns_left == 2
    s, _ = rules.move(s, "forward")
    assert s.ship("b").pos == (8, 11) and s.moving.speed_left == 9
    s, _ = rules.move(s, "turn", 1)            # free turn after a forward move
    assert s.moving.speed_left == 9 and s.moving.free_turns_left == 1 and s.ship("b").facing == 4
    with pytest.raises(ValueError):
        rules.move(s, "backward")
    s, _ = rules.move(s, "hold")
    assert s.moving.ship == "a" and s.ship("b").last_moved == 1
    s, _ = rules.move(s, "slide", 1)
    assert s.moving.speed_left == 6 and s.ship("a").facing == 0
    s, _ = rules.move(s, "hold")
    assert s.phase == "firing" and s.queue == ["b", "a"]


def test_leaving_the_board_takes_the_ship_out():
    """Seed 3. "Retirar-se del combat": "Quan surt del taulell de joc"."""
    s = fight(a_pos=(5, 0))
    s, _ = rules.roll_initiative(s, dice(6, 6, 1, 1))
    s, _ = rules.move(s, "hold")
    s, _ = rules.move(s, "forward")
    assert s.ship("a").off_board and s.phase == "firing" and s.queue == ["b"]
    assert rules.fire_options(s) == []


# ---------------------------------------------------------------- firing
def test_to_hit_is_gunnery_plus_fire_control_with_range_bonus_against_piloting_plus_maneuverability():
    """Seed 2. COMBAT steps 1-3 and "Distàncies": 3 hexes is short, +1D fire control; hit on >=."""
    s = to_firing(fight())
    b, a = s.ship("b"), s.ship("a")
    assert str(rules.attack_code(s, b, b.weapons[0], a, "short")) == "6D"   # 3D + 2D + 1D
    assert str(rules.evasion_code(s, a)) == "7D"                              # 4D + 3D
    assert str(rules.attack_code(s, b, b.weapons[0], a, "long")) == "4D"
    # 6 attack dice total 18; 7 evasion dice total 18: a tie hits; damage 5D = 10
    s2, log = rules.fire(s, "l", "a", dice(3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 2, 1, 2, 2, 2, 2, 2))
    shot = s2.shots[0]
    assert (shot.band, shot.attack, shot.evasion, shot.hit, shot.damage) == ("short", 18, 18, True, 10)
    assert s2.ship("a").damage == []  # damage waits for the end of the firing phase


def test_a_miss_rolls_no_damage():
    """Seed 2. COMBAT step 3: attack below evasion misses."""
    s = to_firing(fight())
    s2, _ = rules.fire(s, "l", "a", dice(*[1] * 6, *[6] * 7))
    assert not s2.shots[0].hit and s2.shots[0].damage == 0


def test_out_of_range_and_fire_together_and_torpedo_speed():
    """Seed 2. COMBAT: lasers 1-15 hexes; launchers fire alone; torpedoes cannot hit speed > 12
    ("Míssils i torpedes"), and against speed 9-12 lose 2D fire control."""
    far = to_firing(fight(a_pos=(5, 19), b_pos=(5, 0)))
    assert rules.fire_options(far) == []
    s = to_firing(fight())
    s, _ = rules.end_fire(s)                   # the Empire ship fires first, passes
    assert sorted(rules.fire_options(s)) == [("l", "b"), ("t", "b")]
    a, b = s.ship("a"), s.ship("b")
    assert str(rules.attack_code(s, a, a.weapons[1], b, "short")) == "5D"   # 4D + 2D + 1D (short) - 2D (speed 10)
    s2, _ = rules.fire(s, "l", "b", dice(*[6] * 10, *[1] * 5, *[1] * 6))
    assert rules.fire_options(s2) == []        # the torpedo may not fire with the lasers
    fast = fight()
    fast.ships[1].speed = 13
    fast = to_firing(fast)
    fast, _ = rules.end_fire(fast)
    assert rules.fire_options(fast) == [("l", "b")]


def test_simultaneous_fire_and_summed_damage():
    """Seed 4. "Fase de foc" (simultaneous) and 2. COMBAT step 4 with RULES-NOTES: two hits on one
    target are summed into one damage total, shields then hull; a ship destroyed still fired."""
    c = rules.build_ship(FIGHTER, id="c", side="Rebels", col=6, row=10, facing=0)
    s = fight(extra=[c])
    s, _ = rules.roll_initiative(s, dice(6, 6, 1, 1))
    for _ in range(3):
        s, _ = rules.move(s, "hold")
    s, _ = rules.end_fire(s)                   # Eye passes
    # each Wing: 4D gunnery + 3D fire control + 1D short = 8D, all 6s, against Eye's 5D of 1s
    s, _ = rules.fire(s, "l", "b", dice(*[6] * 8, *[1] * 5, *[2] * 6))   # damage 12
    s, _ = rules.end_fire(s)
    s, _ = rules.fire(s, "l", "b", dice(*[6] * 8, *[1] * 5, *[1] * 6))   # damage 6
    s, _ = rules.end_fire(s)
    assert s.queue == [] and s.ship("b").in_play
    # Eye has no shields: hull 2D rolls 2 -> margin 16 -> destroyed
    s, log = rules.resolve_firing(s, dice(1, 1))
    assert any("summed to 18" in e.text for e in log)
    assert s.ship("b").destroyed and s.over and s.winner == "Rebels"


def test_initiative_is_rolled_again_each_round():
    """Seed 4. "Fase de foc": after firing, destroyed units are removed and initiative rerolled."""
    s = to_firing(fight())
    s, _ = rules.end_fire(s)
    s, _ = rules.end_fire(s)
    s, _ = rules.resolve_firing(s, dice())
    assert s.round == 2 and s.phase == "initiative" and not s.over
    s, _ = rules.roll_initiative(s, dice(1, 1, 6, 6))
    assert s.order == ["Rebels", "Empire"]


# ---------------------------------------------------------------- damage
def damaged(total, *faces, ship="a"):
    s = to_firing(fight())
    return rules.apply_damage(s, ship, total, dice(*faces))


def test_shields_equal_or_more_stop_the_damage():
    """Seed 2. COMBAT step 5: shields skill + shields; equal or greater -> no damage."""
    s, log = damaged(12, 3, 3, 3, 3)       # 3D + 1D = 12
    assert s.ship("a").damage == [] and "stop" in log[0].text


@pytest.mark.parametrize("margin,band", [(0, "shields_blown"), (3, "shields_blown"), (4, "light"),
                                         (8, "light"), (9, "considerable"), (12, "considerable"),
                                         (13, "severe"), (15, "severe"), (16, "destroyed")])
def test_damage_bands_on_through_minus_hull(margin, band):
    """Seed 5. "Magnitud dels danys" with RULES-NOTES: band on (through - hull) >= 0."""
    # shields 4D roll 4; hull 4D roll 4: damage = margin + 8
    s, log = damaged(margin + 8, *[1] * 8, 1, 1, 2)  # then the table rolls
    assert any(tables.DAMAGE_LABEL[band] in e.text for e in log)


def test_hull_holds_below_the_band():
    """Seed 2. COMBAT step 6 / RULES-NOTES: through below the hull roll does nothing."""
    s, log = damaged(7, 1, 1, 1, 1, 1, 1, 1, 1)
    assert s.ship("a").damage == [] and "holds" in log[-1].text


def test_shields_blown_then_controls_ionised_without_shields():
    """Seed 5. "Escuts anul·lats": -1D shields; with no shields left, controls ionised."""
    s, _ = damaged(10, *[1] * 8)
    a = s.ship("a")
    assert a.shields == "0D" and a.damage == ["shields_blown"]
    s, log = rules.apply_damage(s, "a", 5, dice(1, 1, 1, 1))   # 0D shields: not rolled; hull 4
    a = s.ship("a")
    assert a.damage[-1] == "controls_ionised"
    assert str(rules.current_maneuverability(a, s.round)) == "2D"
    assert str(rules.current_fire_control(a, a.weapons[0], s.round + 1)) == "2D"
    assert str(rules.current_damage(a, a.weapons[0], s.round + 2)) == "6D"   # over after the next round


def test_fully_ionised_controls_drift():
    """Seed 5. "Controls ionitzats": maneuverability gone -> dead controls for two more rounds;
    the ship moves the hexes it last moved, straight on; it cannot fire."""
    s = to_firing(fight())
    b = s.ship("b")
    b.last_moved = 2
    for _ in range(2):
        s, _ = rules.apply_damage(s, "b", 2, dice(1, 1))       # no shields: ionised each time
    assert rules.controls_dead(s.ship("b"), s.round + 2) and not rules.controls_dead(s.ship("b"), s.round + 3)
    assert rules.fire_options(s) == []          # b fires first and cannot
    s, _ = rules.end_fire(s)
    s, _ = rules.end_fire(s)
    s, _ = rules.resolve_firing(s, dice())
    s, _ = rules.roll_initiative(s, dice(6, 6, 1, 1))
    assert rules.move_options(s) == []
    s, log = rules.drift(s)
    assert s.ship("b").pos == (8, 12) and "drifts" in log[0].text


def test_light_damage_table_and_rerolls_of_dead_systems():
    """Seed 5. "Taula de danys lleugers" and "es torna a repetir la tirada": a 5 (shields) on a
    ship with 0D shields is rolled again; 1-2 then costs 1D maneuverability."""
    s = to_firing(fight())
    s, log = rules.apply_damage(s, "b", 8, dice(1, 1, 5, 2))   # no shields; hull 2, margin 6: light
    b = s.ship("b")
    assert b.maneuverability == "1D" and b.damage == ["maneuverability_-1D"]
    assert any("rolled again" in e.text for e in log)


def test_light_damage_weapon_picked_at_random_and_0d_inoperative():
    """Seed 5.: a weapon system chosen at random loses 1D fire control; at 0D it is inoperative."""
    s = to_firing(fight())
    s, _ = rules.apply_damage(s, "a", 12, dice(1, 1, 1, 1, 1, 1, 1, 1, 4, 2))  # margin 4; weapon 2 of 2
    t = s.ship("a").weapons[1]
    assert t.fire_control == "1D" and rules.weapon_operative(t)
    s, _ = rules.apply_damage(s, "a", 12, dice(*[1] * 8, 4, 2))   # the same again
    t = s.ship("a").weapons[1]
    assert t.fire_control == "0D" and not rules.weapon_operative(t)


def test_considerable_and_severe():
    """Seed 5. "Taula de danys considerables" and RULES-NOTES: severe rolls it twice and marks the
    ship; its next damaging hit destroys it."""
    s = to_firing(fight())
    s, log = rules.apply_damage(s, "b", 13, dice(1, 1, 4))      # margin 11: considerable, 4 weapons out
    assert s.ship("b").weapons[0].disabled and "weapons_out" in s.ship("b").damage
    s, log = rules.apply_damage(s, "b", 16, dice(1, 1, 4, 1, 3, 2))  # margin 14: severe
    # first roll: 4 (weapons already out) rolled again -> 1 dead in space; second: 3 (no hyperdrive)
    # rolled again -> 2 generator overload
    b = s.ship("b")
    assert b.severe and b.dead_in_space and b.generator_overload_round == s.round + 3
    assert sum("rolled again" in e.text for e in log) == 2
    s, log = rules.apply_damage(s, "b", 6, dice(1, 1))           # margin 4: light -> destroyed
    assert s.ship("b").destroyed


def test_considerable_6_destroys():
    """Seed 5. "Taula de danys considerables": 6 -- ship destroyed."""
    s = to_firing(fight())
    s, _ = rules.apply_damage(s, "b", 13, dice(1, 1, 6))
    assert s.ship("b").destroyed and not s.ship("b").in_play


def test_dead_in_space_cannot_move_and_the_generator_explodes_after_3_rounds():
    """Seed 5. considerable 1 "Nau morta a l'espai" (stopped) and 2 "Sobrecàrrega en el generador"
    (explodes unless shut down within 3 rounds; this ship is not shut down -- see test_special.py)."""
    s = to_firing(fight())
    s, _ = rules.apply_damage(s, "b", 13, dice(1, 1, 1))
    s, _ = rules.apply_damage(s, "b", 13, dice(1, 1, 2))
    assert s.ship("b").generator_overload_round == 4
    for rnd in (1, 2, 3, 4):
        s, _ = rules.end_fire(s)
        s, _ = rules.end_fire(s)
        s, log = rules.resolve_firing(s, dice())
        if rnd < 4:
            s, _ = rules.roll_initiative(s, dice(6, 6, 1, 1))
            assert s.moving.ship == "b" and s.moving.speed_left == 0
            assert {m.kind for m in rules.move_options(s)} == {"hold"}
            s, _ = rules.move(s, "hold")
            s, _ = rules.move(s, "hold")
    assert s.ship("b").destroyed and s.over and s.winner == "Rebels"
    assert any("explodes" in e.text for e in log)


def test_capital_ships_turn_only_with_maneuverability_in_the_movement_phase():
    """Seed 1.: capital ships turn only with maneuverability dice, each costing a speed point."""
    cap = rules.build_ship({"name": "Cruiser", "scale": "capital", "speed": 4, "maneuverability": "1D", "hull": "5D"},
                       id="c", side="Empire", col=10, row=10)
    s = rules.new_combat([rules.build_ship(FIGHTER, id="a", side="Rebels", col=1, row=1), cap], 20, 20, wild=False)
    s, _ = rules.roll_initiative(s, dice(6, 6, 1, 1))
    assert s.moving.ship == "c"
    s, _ = rules.move(s, "turn", 1)
    assert s.moving.speed_left == 3 and s.moving.free_turns_left == 0
    s, _ = rules.move(s, "forward")
    assert not any(m.kind == "turn" for m in rules.move_options(s))


def test_wild_die_is_used_when_the_encounter_option_is_on():
    """RULES-NOTES general rules: one die of every roll is the Wild Die (initiative 2D here)."""
    s = fight()
    s.wild = True
    s, log = rules.roll_initiative(s, dice(3, 6, 2, 1, 1))   # Rebels 3 + 6 + 2 = 11; Empire 1 + wild 1 -> 0
    assert s.initiative == {"Rebels": 11, "Empire": 0} and s.order == ["Empire", "Rebels"]


def test_ionising_a_ship_without_maneuverability_does_not_kill_its_controls():
    """Seed 5. "Controls ionitzats": dead controls when maneuverability is *lost* totally; a 0D station
    has none to lose (decision)."""
    station = rules.build_ship({"name": "Station", "scale": "capital", "speed": 0, "maneuverability": "0D", "hull": "2D"},
                           id="st", side="Empire", col=8, row=12)
    s = rules.new_combat([rules.build_ship(FIGHTER, id="a", side="Rebels", col=5, row=10), station], 20, 20, wild=False)
    s, _ = rules.apply_damage(s, "st", 2, dice(1, 1))
    assert s.ship("st").damage == ["controls_ionised"] and not rules.controls_dead(s.ship("st"), s.round)


# ---------------------------------------------------------------- the Wild Die's first-roll 1: "add" (complication)
def _wild_fight(complication):
    """Wing (8D to hit at short range: 4D gunnery + 3D fire control + 1D) against Eye (5D evasion),
    Wild Die on, firing phase, Wing first."""
    a = rules.build_ship(FIGHTER, id="a", side="Rebels", col=5, row=10, facing=0)
    b = rules.build_ship(EYEBALL, id="b", side="Empire", col=8, row=10, facing=3)
    s = rules.new_combat([a, b], 20, 20, wild=True, complication=complication)
    s.phase, s.queue = "firing", ["a"]
    return s


# to hit: 7 normal dice (6, 5, 2, 2, 2, 2, 2 = 21), the Wild Die 1; evasion 4, 4, 4, 4 + Wild Die 3 = 19;
# damage 6D: 3, 3, 3, 3, 3 + Wild Die 2 = 17
_TO_HIT_ONE = (6, 5, 2, 2, 2, 2, 2, 1, 4, 4, 4, 4, 3, 3, 3, 3, 3, 3, 2)


def test_complication_add_wild_one_on_to_hit_counts_one_and_keeps_the_highest():
    """RULES-NOTES starwars_d6, the Wild Die: "a 1 on its first roll removes it and the highest
    other die (the GM may choose 'add normally, complication')".  With the encounter option
    complication "add", a Wild-Die 1 on the to-hit roll counts 1, the highest die (6) stays:
    21 + 1 = 22 >= 19, a hit; the roll is flagged and the log says so.  With "remove" the same
    faces give 21 - 6 = 15, a miss."""
    s = _wild_fight("add")
    d = dice(*_TO_HIT_ONE)
    t, log = rules.fire(s, "l", "b", d)
    shot = t.shots[0]
    assert shot.attack == 22 and shot.evasion == 19 and shot.hit and shot.damage == 17
    to_hit = d.rolls[0]
    assert to_hit.total == 22 and to_hit.row == "complication" and "Wild Die: complication" in to_hit.describe()
    notes = [e for e in log if e.text.startswith(rules.COMPLICATION_TEXT)]
    assert len(notes) == 1 and "to hit" in notes[0].text and notes[0].rule == rules.SEC_WILD  # RULES-NOTES starwars_d6: the Wild Die
    # the same faces under "remove": the 1 and the 6 go
    t, log = rules.fire(_wild_fight("remove"), "l", "b", dice(*_TO_HIT_ONE[:13]))
    assert t.shots[0].attack == 15 and not t.shots[0].hit
    assert not any(e.text.startswith(rules.COMPLICATION_TEXT) for e in log)


def test_complication_reaches_every_wild_die_roll():
    """RULES-NOTES Wild Die, "add": the state's choice is used by every Wild-Die roll -- the
    initiative 2D (1 + Wild Die 1 = 2, not 0) and the damage, shields and hull rolls."""
    s, log = rules.roll_initiative(_wild_fight("add"), dice(3, 1, 5, 2))   # Rebels 3 + 1 = 4, Empire 7
    assert s.initiative == {"Rebels": 4, "Empire": 7}
    assert sum(e.text.startswith(rules.COMPLICATION_TEXT) for e in log) == 1
    s, _ = rules.roll_initiative(_wild_fight("remove"), dice(3, 1, 5, 2))
    assert s.initiative == {"Rebels": 0, "Empire": 7}
    # damage 10 on Wing: shields 3D + 1D (3, 3, 3 + Wild Die 1 = 10 with "add": stops it)
    s = _wild_fight("add")
    t, log = rules.apply_damage(s, "a", 10, dice(3, 3, 3, 1))
    assert any("stop 10 damage" in e.text for e in log)
    assert any(e.text.startswith(rules.COMPLICATION_TEXT) and "shields" in e.text for e in log)
    # shields 1, 2, 1 + Wild Die 2 = 6: 4 of 10 through; hull 4D: 2, 2, 2 + Wild Die 1 --
    # "add" 7 (the hull holds), "remove" 2 + 2 = 4 (margin 0: shields blown)
    faces = (1, 2, 1, 2, 2, 2, 2, 1)
    t, log = rules.apply_damage(_wild_fight("add"), "a", 10, dice(*faces))
    assert any("4 of 10 gets through" in e.text for e in log) and any("hull (7) holds" in e.text for e in log)
    assert any(e.text.startswith(rules.COMPLICATION_TEXT) and "hull" in e.text for e in log)
    t, log = rules.apply_damage(_wild_fight("remove"), "a", 10, dice(*faces))
    assert any("against hull 4, margin 0" in e.text for e in log) and "shields_blown" in t.ship("a").damage


def test_complication_state_round_trips_and_old_states_load_with_remove():
    """Plain data: the complication choice is part of the state (serial JSON and back); a state
    saved before the option existed loads with the default "remove" (RULES-NOTES Wild Die)."""
    s = _wild_fight("add")
    s, _ = rules.fire(s, "l", "b", dice(*_TO_HIT_ONE))
    data = serial.to_json(s)
    back = serial.from_json(rules.CombatState, data)
    assert back == s and back.complication == "add"
    data.pop("complication")
    assert serial.from_json(rules.CombatState, data).complication == "remove"
    with pytest.raises(ValueError):
        rules.new_combat([], complication="sometimes")


def test_engine_setup_threads_the_complication_option():
    """forms.py sends options["complication"] ("remove" | "add"); engine.setup puts it on the
    state (default "remove"); any other value is refused with a clear ValueError."""
    from rulesets.starwars_d6.engine import RULESET

    spec = RULESET.example_setup(0)
    assert RULESET.setup(spec).complication == "remove"
    spec["options"]["complication"] = "add"
    assert RULESET.setup(spec).complication == "add"
    spec["options"]["complication"] = "sometimes"
    with pytest.raises(ValueError, match="complication"):
        RULESET.setup(spec)


# ---------------------------------------------------------------- a player's own dice at initiative
def test_a_pilot_rolling_their_own_dice_types_only_their_sides_initiative():
    """Seed 4. "Fase d'iniciativa" ("Cada jugador (o equip de jugadors ...) llença 2D", ties rolled
    again): each side rolls its own 2D.  The initiative step rolls every side's 2D and is the
    first ship's pilot's (``acting``).  A player rolling
    their own dice types only their side's 2D (``own_rolls``); the other side's come from the
    app's dice, and a tie asks the player for their side's new 2D only."""
    from rulesets.core.dice import DiceNeeded, ManualSource, OwnDiceSource
    from rulesets.core.engine import Action
    from rulesets.starwars_d6.engine import StarWarsRuleset

    engine, s = StarWarsRuleset(), fight()
    action = Action.make("initiative", "a")  # entered in the first ship's name: Rebels' pilot
    assert engine.acting(s, action).position == "pilot"
    mine = engine.own_rolls(s, action)
    assert mine("initiative of Rebels") and mine("initiative of Rebels (the last die is the Wild Die)")
    assert not mine("initiative of Empire") and not mine("initiative of Rebels II")
    # Rebels' pilot types 6, 5 (11); the app rolls Empire's 1, 2 (3): the lowest, Empire, moves first.
    typed, app = ManualSource([6, 5]), ScriptedSource([1, 2])
    d = Dice(OwnDiceSource(typed, app, mine))
    step = engine.apply(s, action, d)
    assert step.state.initiative == {"Rebels": 11, "Empire": 3} and step.state.order == ["Empire", "Rebels"]
    assert [(r.purpose, r.faces) for r in d.rolls] == [("initiative of Rebels", (6, 5)),
                                                        ("initiative of Empire", (1, 2))]
    # A tie (7 and 7): the pilot is asked for their side's new 2D, never for Empire's.
    with pytest.raises(DiceNeeded) as asked:
        engine.apply(s, action, Dice(OwnDiceSource(ManualSource([3, 4]), ScriptedSource([5, 2, 1, 1]), mine)))
    assert (asked.value.count, asked.value.purpose) == (2, "initiative of Rebels")
    step = engine.apply(s, action, Dice(OwnDiceSource(ManualSource([3, 4, 6, 6]), ScriptedSource([5, 2, 1, 1]),
                                                      mine)))
    assert step.state.order == ["Empire", "Rebels"]
    # Any other step's rolls are all the acting character's (the default).
    assert engine.own_rolls(step.state, Action.make("move", "b", how="hold")) is None


# ---------------------------------------------------------------- a player's own dice when damage is resolved
def test_a_shields_operator_rolling_their_own_dice_types_only_their_ships_defence_never_the_enemys():
    """Seed 2. COMBAT steps 4-6: the weapons' damage is the attacker's roll ("es tira el Dany de les
    armes", "la tirada de l'atacant"), made when the shot hits; then "el defensor" rolls its shields
    skill + shields and its Hull.  Resolving the firing phase's damage is one step, the first ship's
    shields operator's (``acting``): rolling their own dice, they type only their own ship's defence
    (``own_rolls``); the enemy's Hull, and what its damage table shows, come from the app's dice."""
    from rulesets.core.dice import DiceNeeded, ManualSource, OwnDiceSource
    from rulesets.core.engine import Action
    from rulesets.starwars_d6.engine import StarWarsRuleset

    engine, s = StarWarsRuleset(), to_firing(fight())
    # Eye hits Wing (6D of 6s against Wing's 7D of 1s): the attacker's damage, 5D of 2s = 10, rolled now.
    d = dice(*[6] * 6, *[1] * 7, *[2] * 5)
    s, _ = rules.fire(s, "l", "a", d)
    assert d.rolls[-1].purpose == "Laser cannon damage" and s.shots[-1].damage == 10
    s, _ = rules.end_fire(s)
    s, _ = rules.fire(s, "l", "b", dice(*[6] * 8, *[1] * 5, *[2] * 6))   # Wing hits Eye: damage 12
    s, _ = rules.end_fire(s)
    action = Action.make("resolve", "a")  # entered in the first ship's name: Wing's shields operator
    assert engine.legal_actions(s)[0] == action and engine.acting(s, action).position == "shields"
    mine = engine.own_rolls(s, action)
    for own in ("Wing shields", "Wing shields (the last die is the Wild Die)", "Wing shields (skill)",
                "Wing hull", "Wing hull (Wild Die again)", "Wing hull against ions", "Wing damage table"):
        assert mine(own), own
    for other in ("Eye hull", "Eye shields", "Eye damage table", "Wing II hull", "Laser cannon damage"):
        assert not mine(other), other
    # Wing's operator types 3, 3, 3, 3: shields 3D + 1D = 12 stop the 10.  The app rolls Eye's Hull
    # 2D (1, 1): 12 against 2, margin 10 -- considerable damage; its table's 1: dead in space.
    typed, app = ManualSource([3, 3, 3, 3]), ScriptedSource([1, 1, 1])
    d = Dice(OwnDiceSource(typed, app, mine))
    step = engine.apply(s, action, d)
    assert [(r.purpose, r.faces) for r in d.rolls] == [("Wing shields", (3, 3, 3, 3)), ("Eye hull", (1, 1))]
    assert step.state.ship("a").damage == [] and step.state.ship("b").damage == ["dead_in_space"]
    assert typed.remaining == 0 and app.remaining == 0
    # Too few dice typed: they are asked for their own shields, never for Eye's Hull.
    with pytest.raises(DiceNeeded) as asked:
        engine.apply(s, action, Dice(OwnDiceSource(ManualSource([3]), ScriptedSource([1, 1, 1]), mine)))
    assert (asked.value.count, asked.value.purpose) == (4, "Wing shields")
