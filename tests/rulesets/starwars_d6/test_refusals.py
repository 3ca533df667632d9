"""Refusals that say why (issue 25): an action the rules forbid now is refused with the reason in
words and the rule (the seed section's citation), through ``rulesets.core.engine.check_legal`` --
what the runner, scenario files and the physical-dice entry show.

Each test names the seed section (star-wars-d6-starship-combat.ca.txt) whose rule refuses the
action, or the decision of docs/rulesets/starwars_d6.md; scripted dice throughout.
"""
from __future__ import annotations


from rulesets.core import citation
from rulesets.core.engine import Action, IllegalAction, refusal_of
from rulesets.core.scenario import load_scenario, run_scenario
from rulesets.starwars_d6 import refusals, rules
from rulesets.starwars_d6.engine import RULESET

from ..refusals_kit import bracketed, reasons_agree, refused, says
from .test_special import Faces, combat, firing, movement, ship

ION = {"id": "i", "type": "ion_cannon", "fire_control": "1D", "damage": "2D"}
LASER = {"id": "l", "type": "laser", "fire_control": "1D", "damage": "2D"}


def _refused(state, text: str) -> IllegalAction:
    return refused(RULESET, state, text)


def _says(refused: IllegalAction, ident: str, words: str, section: str):
    """The refusal's message id, its English words, the seed section cited (its Catalan heading, or
    the ruling's English one), and str() = words (rule)."""
    cited = citation.read(says(refused, f"starwars_d6.refused.{ident}", words).rule, "starwars_d6")
    assert section in (cited.original, cited.text)


def _apply(state, text: str, *faces):
    roll = Faces(*faces)
    state = RULESET.apply(state, Action.parse(text), roll.dice).state
    assert roll.used_up
    return state


def duel(a=None, b=None, *, a_at=(5, 10), b_at=(5, 7), features=(), **a_stats):
    """Talon (side Rebels, facing N) and Kestrel (side Empire, facing S), 3 hexes apart by default."""
    talon = ship("a", "Rebels", *a_at, facing=0, name="Talon", **(a or {}), **a_stats)
    kestrel = ship("b", "Empire", *b_at, facing=3, name="Kestrel", **(b or {}))
    return combat(talon, kestrel, features=features)


# --- 4. SEQÜENCIA DE JOC: the phases, and whose step it is ---------------------------------------


def test_moving_out_of_turn_is_refused_naming_whose_movement_it_is():
    """4. SEQÜENCIA DE JOC, "Fase de moviment": the lowest initiative moves first, the others after;
    the Empire (12) waits for the Rebels (2), and Talon, once moved, waits for the next round."""
    s = movement(duel())
    _says(_refused(s, "move actor=b how=forward side=#0"), "moves_later",
          "It is Talon's movement: Kestrel moves later (the sides move from the lowest initiative roll up).",
          "4. SEQÜENCIA DE JOC: Fase de moviment")
    s = _apply(s, "move actor=a how=hold side=#0")
    _says(_refused(s, "move actor=a how=forward side=#0"), "has_moved",
          "Talon has moved this round: it is Kestrel's movement now.", "4. SEQÜENCIA DE JOC: Fase de moviment")


def test_the_phases_come_in_their_order():
    """4. SEQÜENCIA DE JOC: initiative, the movement phase, the firing phase; "Fase de foc": all
    fire is simultaneous, so the damage waits until every ship has fired."""
    s = combat(ship("a", "Rebels", 5, 10, name="Talon"), ship("b", "Empire", 5, 7, facing=3, name="Kestrel"))
    _says(_refused(s, "move actor=a how=hold side=#0"), "initiative_first",
          "Round 1 begins with initiative: each side rolls 2D, the lowest moves first.",
          "4. SEQÜENCIA DE JOC: Fase d'iniciativa")
    s = movement(s)
    _says(_refused(s, "fire actor=a weapon=l target=b"), "not_firing_yet",
          "It is the movement phase of round 1: the ships fire once every ship has moved.", "4. SEQÜENCIA DE JOC")
    refused = _refused(s, "initiative actor=a")
    _says(refused, "initiative_rolled",
          "Round 1's initiative is rolled: it is the movement phase.", "4. SEQÜENCIA DE JOC: Fase d'iniciativa")
    assert bracketed(refused) == "⟨Round 1's initiative is rolled: it is the ⟨movement⟩ phase.⟩"
    s = firing(s)
    _says(_refused(s, "resolve actor=a"), "not_all_fired",
          "Talon has not fired yet: the damage is applied once every ship has fired (all fire is simultaneous).",
          "4. SEQÜENCIA DE JOC: Fase de foc")
    _says(_refused(s, "move actor=a how=forward side=#0"), "moving_over",
          "It is the firing phase of round 1: every ship has moved; the next movement comes after the next "
          "initiative.", "4. SEQÜENCIA DE JOC")
    _says(_refused(s, "fire actor=b weapon=l target=a"), "fires_later",
          "It is Talon's turn to fire: Kestrel fires later (the firing phase follows the order of the movement).",
          "4. SEQÜENCIA DE JOC: Fase de foc")


def test_a_ship_out_of_the_combat_is_named_so():
    """3. CASOS ESPECIALS, "Retirar-se del combat": a ship that left the board is out of the combat."""
    s = duel(a_at=(5, 0))
    s = _apply(movement(s), "move actor=a how=forward side=#0")        # north, off the board
    _says(_refused(s, "move actor=a how=hold side=#0"), "out_of_the_fight", "Talon is out of the combat "
          "(off the board).", "3. CASOS ESPECIALS: Retirar-se del combat")


# --- 1. MOVIMENT I MANIOBRA: the speed points, turns, no backing up --------------------------------


def test_a_move_that_costs_more_than_the_points_left_is_refused():
    """1. MOVIMENT I MANIOBRA: forward 1 point, a slide 2; one free turn per maneuverability die after
    moving forward, then 1 point a turn; turning without moving forward first costs 1 point."""
    s = movement(duel(speed=1))
    _says(_refused(s, "move actor=a how=slide side=#1"), "slide_no_points",
          "A slide costs 2 speed points: Talon has 1 left.", "1. MOVIMENT I MANIOBRA")
    s = _apply(s, "move actor=a how=forward side=#0")
    _says(_refused(s, "move actor=a how=forward side=#0"), "forward_no_points",
          "Moving one hex forward costs 1 speed point: Talon has none left.", "1. MOVIMENT I MANIOBRA")
    s = _apply(s, "move actor=a how=turn side=#1")                       # the free turn (1D: one)
    _says(_refused(s, "move actor=a how=turn side=#1"), "turn_no_free_turn",
          "Talon has no free turn left (one per maneuverability die) and no speed point to pay for the turn.",
          "1. MOVIMENT I MANIOBRA")
    s = movement(duel(speed=0))
    _says(_refused(s, "move actor=a how=turn side=#-1"), "turn_no_points",
          "Turning without first moving one hex forward costs 1 speed point: Talon has none left.",
          "1. MOVIMENT I MANIOBRA")


def test_no_backing_up_and_capital_ships_turn_only_with_maneuverability():
    """1. MOVIMENT I MANIOBRA: "No estan permesos fer retrocedir una nau"; capital ships turn only
    with their maneuverability dice, each turn also costing a speed point."""
    s = movement(duel())
    _says(_refused(s, "move actor=a how=back side=#0"), "no_such_move",
          "A ship moves forward, turns, slides or holds its position: no other move (no backing up).",
          "1. MOVIMENT I MANIOBRA")
    s = movement(duel(scale="capital", maneuverability="0D"))
    _says(_refused(s, "move actor=a how=turn side=#1"), "capital_turn",
          "A capital ship turns only with its maneuverability points, each turn also costing a speed point: "
          "Talon has 0 maneuverability and 8 speed points left.", "1. MOVIMENT I MANIOBRA")


def test_a_move_or_a_click_into_an_occupied_hex_or_off_the_board_is_refused():
    """Decision (docs "Special cases"): no ship flies into another ship's hex on purpose -- it declares
    a ram ("Col·lisions premeditades") -- nor into a planet, moon or obstacle ("Col·lisions accidentals");
    a click on the board names a hex within the speed points ("1. MOVIMENT I MANIOBRA") and on the board
    (leaving it is a move forward or a slide: "Retirar-se del combat")."""
    s = movement(duel(b_at=(5, 9), features=[rules.Feature("obstacle", 4, 9)]))
    _says(_refused(s, "move actor=a how=forward side=#0"), "hex_has_ship",
          "Kestrel is in hex 5,9: a ship never flies into another's hex on purpose; to hit it, declare a ram "
          "before moving.", "3. CASOS ESPECIALS: Col·lisions premeditades")
    _says(_refused(s, "course actor=a col=#4 row=#9"), "hex_has_feature",
          "Obstacle is in hex 4,9: a ship never flies into it on purpose.", "3. CASOS ESPECIALS: Col·lisions accidentals")
    _says(_refused(s, "course actor=a col=#5 row=#20"), "course_off_board",
          "Hex 5,20 is off the 20×20 board: a ship leaves the board with a move forward or a slide from its edge.",
          "3. CASOS ESPECIALS: Retirar-se del combat")
    _says(_refused(s, "course actor=a col=#5 row=#19"), "course_too_far",
          "Hex 5,19 is 9 hexes away: Talon has 8 speed points left.", "1. MOVIMENT I MANIOBRA")


# --- 5. DETERMINANT ELS DANYS, "Raigs tractors": a ship that cannot act -----------------------------


def test_dead_controls_drift_and_a_held_ship_only_holds():
    """5. "Controls ionitzats": with dead controls the ship drifts and cannot turn or fire; "Raigs
    tractors": a held ship cannot move (decision: it holds, or breaks free before moving)."""
    s = duel()
    s.ships[0].controls_dead_until = 2
    s = movement(s)
    _says(_refused(s, "move actor=a how=turn side=#1"), "controls_dead",
          "Talon's controls are dead (fully ionised) until the end of round 2: it drifts, and cannot turn, fire "
          "or roll shields.", "5. DETERMINANT ELS DANYS: Controls ionitzats")
    s = duel(b={"weapons": [{"id": "tb", "type": "tractor_beam", "fire_control": "1D", "damage": "3D"}]},
             b_at=(5, 8))
    s.ships[0].captured_by, s.ships[0].captured_weapon = "b", "tb"
    s = movement(s)
    _says(_refused(s, "move actor=a how=forward side=#0"), "held",
          "Talon is held by Kestrel's tractor beam: it only holds its position, or tries to break free before "
          "moving.", "3. CASOS ESPECIALS: Raigs tractors")
    assert RULESET.is_legal(s, Action.parse("break_free actor=a"))


# --- 2. COMBAT: the weapons ---------------------------------------------------------------------------


def test_a_weapon_that_fired_or_cannot_fire_with_the_others_is_refused():
    """2. COMBAT, "Procediment": each weapon system is fired once a phase; ion cannons fire alone
    ("no poden disparar-se conjuntament amb cap altre sistema d'armes")."""
    s = firing(duel(weapons=[LASER, ION]))
    s = _apply(s, "fire actor=a weapon=l target=b", 1, 1, 1, 6, 6)    # 3 against 12: a miss
    _says(_refused(s, "fire actor=a weapon=l target=b"), "weapon_fired",
          "Talon's Laser cannon has fired this phase: each weapon system fires once.", "2. COMBAT: Procediment")
    _says(_refused(s, "fire actor=a weapon=i target=b"), "not_together",
          "Talon has fired its Laser cannon this phase: Ion cannon cannot fire with it (lasers, blasters and the "
          "capital ships' guns fire together; ion cannons, missiles and torpedoes alone).", "2. COMBAT: Procediment")


def test_a_disabled_weapon_or_one_at_0d_fire_control_cannot_fire():
    """5. "Taula de danys lleugers" 3: a weapon system disabled; "Tots els danys es consideren
    acumulatius": a factor reduced to 0D is inoperative; considerable 4: every weapon out."""
    s = duel(weapons=[LASER, ION])
    s.ships[0].weapons[0].disabled = True
    s.ships[0].weapons[1].fire_control, s.ships[0].weapons[1].fc_reduced = "0D", True
    s = firing(s)
    _says(_refused(s, "fire actor=a weapon=l target=b"), "weapon_disabled",
          "Talon's Laser cannon is disabled (light damage).", "5. DETERMINANT ELS DANYS: Taula de danys lleugers")
    _says(_refused(s, "fire actor=a weapon=i target=b"), "fire_control_0d",
          "Talon's Ion cannon has lost all its fire control to damage (0D): it is inoperative.",
          "5. DETERMINANT ELS DANYS: Tots els danys es consideren acumulatius")
    s = duel()
    s.ships[0].weapons[0].disabled, s.ships[0].damage = True, ["weapons_out"]
    _says(_refused(firing(s), "fire actor=a weapon=l target=b"), "weapons_out",
          "All of Talon's weapon systems are out (considerable damage).",
          "5. DETERMINANT ELS DANYS: Taula de danys considerables")


def test_a_target_out_of_range_is_refused_with_the_weapon_s_bands():
    """2. COMBAT, "Distàncies": lasers reach 1-5 / 6-10 / 11-15 hexes; Kestrel is 16 away."""
    s = firing(duel(a_at=(5, 18), b_at=(5, 2)))
    refused = _refused(s, "fire actor=a weapon=l target=b")
    _says(refused, "out_of_range",
          "Kestrel is 16 hexes away: Laser cannon reaches 15 hexes (short 1-5, medium 6-10, long 11-15).",
          "2. COMBAT: Distàncies")
    assert bracketed(refused) == ("⟨Kestrel is 16 hexes away: Laser cannon reaches 15 hexes (⟨⟨⟨⟨short⟩ 1-5⟩, "
                                  "⟨⟨medium⟩ 6-10⟩⟩, ⟨⟨long⟩ 11-15⟩⟩).⟩")


def test_torpedoes_miss_fast_ships_and_a_death_star_fires_at_nothing_smaller_than_a_capital_ship():
    """3. CASOS ESPECIALS, "Míssils i torpedes": a ship faster than 12 cannot be hit by a torpedo;
    6. ESCALES: "Els objectes d'escala Estrella de la Mort no poden disparar contra objectius d'escala
    més petita que una Nau capital"."""
    torpedo = {"id": "t", "type": "proton_torpedo", "fire_control": "2D", "damage": "9D", "ammo": 3}
    s = firing(duel(b={"speed": 13}, weapons=[torpedo]))
    _says(_refused(s, "fire actor=a weapon=t target=b"), "too_fast_for_torpedoes",
          "Kestrel has speed 13: a proton torpedo cannot hit a ship faster than 12.",
          "3. CASOS ESPECIALS: Míssils i torpedes")
    s = firing(duel(scale="death_star"))
    _says(_refused(s, "fire actor=a weapon=l target=b"), "scale_too_small",
          "Talon is of Death Star scale: it cannot fire at anything smaller than a capital ship (Kestrel is a "
          "starfighter).", "6. ESCALES: Escala a la tirada per impactar")


def test_a_broadside_of_more_guns_than_are_left_is_refused():
    """3. CASOS ESPECIALS, "Factors de Foc per les Naus Capitals", step 1: the gunner decides how many
    guns of the battery form a broadside, from the guns not fired yet."""
    battery = {"id": "tb", "type": "turbolaser", "fire_control": "1D", "damage": "2D", "shots": 4}
    s = firing(duel(scale="capital", weapons=[battery]))
    s = _apply(s, "fire actor=a weapon=tb target=b guns=#3", 1, 1, 1, 6, 6)     # 3 against 12: a miss
    _says(_refused(s, "fire actor=a weapon=tb target=b guns=#2"), "broadside_size",
          "Talon's Turbolaser has 1 of its 4 guns left to fire: a broadside is 1 to 1 of them.",
          "3. CASOS ESPECIALS: Factors de Foc per les Naus Capitals")
    s = _apply(s, "fire actor=a weapon=tb target=b", 1, 1, 1, 6, 6)
    _says(_refused(s, "fire actor=a weapon=tb target=b"), "battery_spent",
          "All 4 guns of Talon's Turbolaser have fired this phase.",
          "3. CASOS ESPECIALS: Factors de Foc per les Naus Capitals")


def test_a_shut_down_generator_fires_nothing():
    """5. considerable 2, "Sobrecàrrega en el generador": on auxiliary batteries every other system is off."""
    s = duel()
    s.ships[0].generator_shutdown = True
    _says(_refused(firing(s), "fire actor=a weapon=l target=b"), "fire_generator_off",
          "Talon's generator is shut down: on auxiliary batteries its weapons are off.",
          "5. DETERMINANT ELS DANYS: Taula de danys considerables, 2: Sobrecàrrega en el generador")


def test_a_planet_between_the_ships_blocks_the_line_of_fire():
    """Decision (docs "Special cases", line of fire): planets, moons and obstacles between two ships
    block fire, as they block a jump's line of sight."""
    s = firing(duel(features=[rules.Feature("planet", 5, 8, "Yavin")]))
    _says(_refused(s, "fire actor=a weapon=l target=b"), "line_blocked",
          "A planet, moon or obstacle blocks the line of fire between Talon and Kestrel.",
          "Ruling: Line of fire: planets, moons and obstacles block it")


# --- 3. CASOS ESPECIALS: rams and jumps, declared before moving -------------------------------------


def test_rams_and_jumps_are_declared_before_moving_and_jumps_need_room():
    """4. "Fase de moviment": hyperspace jumps and rams are declared before moving; "Retirar-se del
    combat": a jump needs a line of sight "sense cap mena d'obstacle" and 10 hexes from the nearest
    planet (and 4 from a moon); "Col·lisions premeditades" (decision): a ram reaches an enemy within
    the speed points."""
    s = _apply(movement(duel()), "move actor=a how=forward side=#0")
    _says(_refused(s, "ram actor=a target=b"), "declared_before_moving",
          "Talon has begun to move: a ram is declared before moving.",
          "4. SEQÜENCIA DE JOC: Fase de moviment (salts a l'hiperespai i col·lisions deliberades, declarats abans "
          "de moure)")
    planet = rules.Feature("planet", 12, 10, "Yavin")
    s = movement(duel(b_at=(5, 2), features=[planet], hyperdrive="x1"))
    _says(_refused(s, "jump actor=a"), "jump_line_blocked",
          "Kestrel (hex 5,2) blocks Talon's line of sight straight ahead: a jump needs it clear of every obstacle.",
          "3. CASOS ESPECIALS: Retirar-se del combat")
    s = movement(duel(b_at=(9, 2), features=[planet], hyperdrive="x1"))
    _says(_refused(s, "jump actor=a"), "jump_too_close",
          "Yavin is 7 hexes away: a jump needs 10 hexes from a planet and 4 from a moon.",
          "3. CASOS ESPECIALS: Retirar-se del combat")
    s = movement(duel(b_at=(5, 1)))
    _says(_refused(s, "ram actor=a target=b"), "ram_too_far",
          "Kestrel is 9 hexes away: more than Talon's 8 speed points.", "3. CASOS ESPECIALS: Col·lisions premeditades")
    _says(_refused(s, "jump actor=a"), "no_hyperdrive", "Talon has no hyperdrive.",
          "3. CASOS ESPECIALS: Retirar-se del combat")


# --- where a GM meets them --------------------------------------------------------------------------


def test_the_refusal_is_the_core_s_refusal_and_a_scenario_file_shows_it(tmp_path):
    """4. SEQÜENCIA DE JOC, "Fase de moviment", and docs/scenarios.md ("A refused action"): the runner,
    scenario files and the dice entry all refuse through ``check_legal``; a step may require the words."""
    s = movement(duel())
    action = Action.parse("move actor=b how=forward side=#0")
    assert refusal_of(RULESET, s, action) == refusals.refusal(s, action) == RULESET.refusal(s, action)
    path = tmp_path / "refused.yaml"
    stats = ("{scale: starfighter, speed: 8, maneuverability: 1D, hull: 2D, shields: 0D, "
             "weapons: [{id: l, type: laser, fire_control: 1D, damage: 2D}]}")
    path.write_text("ruleset: starwars_d6\n"
                    "setup:\n"
                    "  ships:\n"
                    f"    - {{id: a, name: Talon, side: Rebels, stats: {stats}}}\n"
                    f"    - {{id: b, name: Kestrel, side: Empire, stats: {stats}}}\n"
                    "  options: {wild: false}\n"
                    "steps:\n"
                    "  - action: initiative actor=a\n"
                    "    dice: [1, 1, 6, 6]\n"
                    "  - action: move actor=b how=forward side=#0\n"
                    "    refused: Kestrel moves later\n")
    result = run_scenario(load_scenario(path))
    assert "It is Talon's movement: Kestrel moves later" in result["steps"][-1]["refused"]


# --- every reason agrees with the action list ----------------------------------------------------


def test_no_legal_action_has_a_reason_and_every_refused_one_has_one():
    """Every section: the refusal asks what the action list asks, so it never names a reason for a legal
    action (the board's courses included), and names one for each action legal at another step of the
    fight and not now (80 bot steps of each example, 20 of those actions at each step)."""
    reasons_agree(RULESET, refusals.refusal, [RULESET.example_setup(v) for v in (0, 1)], steps=80, sample=20)

