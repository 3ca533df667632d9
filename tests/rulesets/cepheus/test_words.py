"""Issue 27: what a GM reads names turrets, bays and weapons in words, never their ids ("t1", "weapon 1"),
and a craft under 50 tons says it has no Hull points rather than "Hull 0/0"."""
from rulesets.cepheus.carry_back import damage_words
from rulesets.cepheus.engine import RULESET
from rulesets.core.engine import Action, Viewer

from .helpers import act, crew, duel, edit_ship, setup, ship, start, text

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)
LASER_AND_SAND = [{"weapons": [{"type": "pulse_laser"}, {"type": "sandcaster", "ammo": 12}]}]


def gm_entry(state, ship_id):
    return next(s for s in RULESET.view(state, Viewer.gm())["ships"] if s["id"] == ship_id)


def test_an_attack_names_the_weapon_and_its_turret():
    """Attacco: the log says which weapon of which turret fires, by name ("fires t1 (pulse laser)" before)."""
    s = duel([GUNNER], [crew("t", "passenger")])
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1)
    assert "A fires the pulse laser in turret 1 at B." in text(step)
    assert step.dice.rolls[0].purpose == "A's pulse laser in turret 1 at B"
    assert "t1" not in text(step)


def test_a_salvo_of_two_lasers_of_one_kind_says_the_two():
    """Attacco: every weapon of a turret may fire together (all weapons); two of one kind read as "the two"."""
    two = [{"weapons": [{"type": "beam_laser"}, {"type": "beam_laser"}]}]
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": two})
    step = act(s, "attack actor=g mount=t1 target=b weapon=all", 1, 1, 1, 1)
    assert "A fires the two beam lasers in turret 1 at B." in text(step)


def test_a_craft_under_50_tons_has_no_hull_points_and_says_so():
    """Danno: one Hull point per 50 tons rounded down, one Structure point per 50 tons minimum 1 (RULES-NOTES):
    a 10 t fighter has no Hull (shown "none (under 50 t)", not "0/0") and 1 Structure; a Hull hit goes to the
    Internal column's row (Scafo: "Se lo scafo di una nave è 0, applica i colpi alla ... colonna Colpo interno")."""
    s = duel([GUNNER], [crew("t", "passenger")], d_stats={"tonnage": 10, "turrets": []})
    fighter = gm_entry(s, "b")
    assert fighter["hull"] == "none (under 50 t)" and fighter["structure"] == "1/1" and fighter["small_craft"]
    # hit (6+6+1); damage 1+2 = 3 (1-4: a single hit); small craft column row 2: Hull -> Internal row 2: Structure
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 6, 6, 1, 2, 1, 1)
    assert "B has no Hull points (under 50 t): the hit goes to Structure (Internal column, row 2)." in text(step)
    assert step.state.ship("b").status == "destroyed"


def test_the_ship_card_names_mounts_ammunition_stations_and_automated_gunners():
    """Posizioni Automatizzate: Fire Control mans the empty turret, named by its turret; ammunition reads
    loaded and in store (a sandcaster holds 3 loaded, the rest in store: decision)."""
    turrets = LASER_AND_SAND + [{"weapons": [{"type": "missile_rack", "ammo": 6, "missile": "smart"}]}]
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": turrets, "fire_control": 1})
    card = gm_entry(s, "a")
    assert [m["name"] for m in card["mounts"]] == ["Turret 1", "Turret 2"]
    assert card["mounts"][0]["weapons"] == ["pulse laser", "sandcaster (3 loaded, 9 in store)"]
    assert card["mounts"][1]["weapons"] == ["missile rack, smart missiles (3 loaded, 3 in store)"]
    stations = {c["name"]: c["station"] for c in card["crew"]}
    assert stations["G"] == "turret 1" and stations["Fire control (turret 2)"] == "turret 2"


def test_effects_on_a_ship_name_the_other_ship():
    """Inseguimento, Targeting del sensore: what is in effect names the ship it is about, never its id."""
    s = duel([GUNNER], [crew("t", "passenger")])
    s = edit_ship(s, "a", pursuing="b", pursuit_turns=2, targeting={"b": 1}, evasive=1)
    effects = gm_entry(s, "a")["effects"]
    assert "pursuing B: DM+2" in effects and "sensor lock on B: DM+1" in effects
    assert "evasive manoeuvres: attacks on it DM-1" in effects


def test_the_gms_buttons_name_the_weapon_to_reload_and_the_station_to_move_to():
    """Ricaricare; Cambiare posizione: the buttons say "the sandcaster in turret 1", "at turret 2"."""
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": LASER_AND_SAND * 2})
    assert RULESET.describe(s, Action.parse("reload actor=g mount=t1 weapon=1")) == "G: reload the sandcaster in turret 1"
    move = Action.parse("change_position actor=g position=turret_gunner station=t2")
    assert RULESET.describe(s, move) == "G: move to Turret gunner at turret 2"


def test_an_enemys_damaged_turret_is_named_by_the_sensors():
    """Tabella: Bande di Gittata: at Close, ship systems show; a damaged turret reads "Turret 1"."""
    s = start(setup(ship("a", "blue", sensors="very_advanced"),
                    ship("b", "red", damage={"mounts": {"t1": 1}}), range="close"), 1, 1, 1, 1)
    enemy = next(e for e in RULESET.view(s, Viewer.player(["a"]))["ships"] if e["id"] == "b")
    assert enemy["damaged mounts"] == ["Turret 1"]


def test_carried_damage_names_each_weapon_its_turret_and_the_crew():
    """Riparare / the damage carried back: ammunition spent per weapon, named with its turret (not
    "turret 2, weapon 1: 1"); mounts with their weapons; crew by name."""
    stats = {"turrets": LASER_AND_SAND + [{"weapons": [{"type": "missile_rack", "ammo": 6}, {"type": "beam_laser"}]}],
             "bays": [{"type": "missile_bay", "ammo": 24}]}
    lines = damage_words({"hull": 3, "systems": {"m_drive": 1}, "mounts": {"t2": 2},
                          "ammo": {"t2.0": 1, "t1.1": 2, "b1.0": 12}, "crew": {"c5": {"damage": 4, "rads": 20}},
                          "destroyed": True}, stats, {"c5": "Dara Voss"})
    assert lines == ["Hull: 3 points lost", "M-Drive: 1 hit", "Turret 2 (missile rack, beam laser): 2 hits",
                     "Ammunition spent: 1 missile from the missile rack in turret 2",
                     "Ammunition spent: 2 sand canisters from the sandcaster in turret 1",
                     "Ammunition spent: 12 missiles from the missile bay in bay 1",
                     "Dara Voss: 4 damage, 20 rads", "Destroyed"]


def test_the_button_of_a_salvo_names_what_it_fires_and_the_sandcaster_it_keeps():
    """Decision (docs: "All weapons" of a turret excludes its sandcasters, kept for defence): the button
    says so, not "all: pulse laser, sandcaster" for a salvo that fires the laser alone."""
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": LASER_AND_SAND})
    salvo = Action.parse("attack actor=g mount=t1 target=b weapon=all")
    assert RULESET.describe(s, salvo) == "Fire turret 1 (all: pulse laser; sandcaster kept) at B"
    two = [{"weapons": [{"type": "missile_rack", "ammo": 6}, {"type": "missile_rack", "ammo": 6}]}]
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": two}, range="long")
    assert RULESET.describe(s, salvo) == "Launch turret 1 (all: 2 × missile rack) at B"
