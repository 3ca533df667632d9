"""Refusals that say why (issue 25): an action the rules forbid now is refused with the reason in
words and the rule (the seed section's citation), through ``rulesets.core.engine.check_legal``.

Each test names the seed section (or the decision of docs/rulesets/wing_commander.md) whose rule
refuses the action; scripted dice throughout.
"""
from __future__ import annotations

from pathlib import Path

from rulesets.core.engine import IllegalAction
from rulesets.core.scenario import load_scenario, run_scenario
from rulesets.core.spec import demo_setup
from rulesets.wing_commander import checks, damage, refusals, tables, turn

from ..refusals_kit import bracketed, reasons_agree, refused, says
from .helpers import GUNS, MISSILE, RULESET, TORPEDO, TURRET, fight, npc, ship, step, with_ship

EXAMPLE = Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "wing_commander-critical-and-fumble.yaml"


def _refused(state, text: str) -> IllegalAction:
    return refused(RULESET, state, text)


def _says(refused: IllegalAction, ident: str, words: str, rule: str):
    """The refusal's message id, its English words, the rule cited, and str() = words (rule)."""
    assert says(refused, f"wing_commander.refused.{ident}", words).rule == rule


# --- 2.1.1 the order, 2.1.3 one action a turn ---------------------------------------------------


def test_acting_out_of_turn_is_refused_naming_whose_turn_it_is():
    """2.1.1 Die Initiative/Reihenfolge: the order decides who acts; B waits for A (the higher MV)."""
    state = fight(ship("a", "blue", mv=2), npc("b", mv=0))
    _says(_refused(state, "attack actor=b target=a weapon=w1"), "out_of_turn",
          "It is A's turn; B comes later in the order.", turn.RULE_ORDER)


def test_a_second_action_in_a_turn_is_refused():
    """2.1.3 ("darf er eine Aktion für diese Runde ausführen"): after its attack the pilot may eject or end
    the turn, not fire again nor stand aside; once the turn is over it has had its turn this round."""
    state = fight(ship("a", "blue", mv=2), npc("b", shields=20), npc("c", shields=20))
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 2, 3)   # 2+3+2 = 7 misses TW 12
    words = "A has taken its action this turn: one action a turn. Its pilot may still eject, or end the turn."
    _says(_refused(state, "attack actor=a target=c weapon=w1"), "one_action", words, turn.RULE_TURN)
    _says(_refused(state, "regenerate actor=a"), "one_action", words, turn.RULE_TURN)
    state, _, _ = step(state, "end actor=a")
    _says(_refused(state, "attack actor=a target=b weapon=w1"), "turn_taken",
          "A has had its turn this round: one action a round. It is B's turn.", turn.RULE_TURN)


def test_ending_a_turn_before_its_action_is_refused():
    """2.1.3: "end" closes the turn after its attack; before the action, holding fire lets it go."""
    state = fight(ship("a", "blue"), npc("b"))
    _says(_refused(state, "end actor=a"), "end_before_action",
          "A has not taken its action yet: to let the turn go without one, hold fire.", turn.RULE_TURN)


def test_a_ship_out_of_the_fight_cannot_act_nor_be_attacked():
    """2.1.6 (hull 0: destroyed, the pilot ejected in a pod) and 2.1.3 (ejecting)."""
    state = fight(ship("a", "blue"), npc("b"), npc("c"))
    state = with_ship(with_ship(state, "b", status="destroyed"), "c", status="ejected")
    _says(_refused(state, "attack actor=a target=b weapon=w1"), "destroyed",
          "B is destroyed: it is out of the fight.", damage.RULE_SHIELDS)
    _says(_refused(state, "attack actor=a target=c weapon=w1"), "ejected",
          "C's pilot has ejected: it is out of the fight.", turn.RULE_TURN)


# --- 2.1.3 and the fumble tables: weapons -----------------------------------------------------------


def test_a_weapon_out_until_replaced_or_overheated_cannot_fire():
    """RULES-NOTES gun and turret fumble table: burnt leads (guns until replaced, a turret for the mission),
    overheating (out through a round); missile 1-6: the launch circuits fail."""
    state = fight(ship("a", "blue", weapons=(GUNS, TURRET, MISSILE),
                       damage={"guns_out_until_replaced": True, "missile_launch_circuits_failed": True}), npc("b"))
    _says(_refused(state, "attack actor=a target=b weapon=w1"), "guns_out",
          "A's Lasers are out until replaced: their leads burnt out.", tables.FUMBLE_SECTION)
    _says(_refused(state, "attack actor=a target=b weapon=w3"), "launch_circuits",
          "A's launch circuits for Dart have failed: none fires until they are replaced.", tables.FUMBLE_SECTION)
    state = fight(ship("a", "blue", weapons=(GUNS, TURRET), damage={"turret_out_for_the_mission": True}), npc("b"))
    _says(_refused(state, "attack actor=a target=b turret=w2 weapon=w1"), "turret_out",
          "A's Turret is out for the rest of the mission: its leads burnt out.", tables.FUMBLE_SECTION)
    # a fumble (natural 2), gun table 11-13: heavy overheating, out for two rounds
    state = fight(ship("a", "blue", mv=1), npc("b", shields=20))
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 1, 1, 5, 7)
    state, _, _ = step(state, "end actor=a")
    state, _, _ = step(state, "pass actor=b")
    _says(_refused(state, "attack actor=a target=b weapon=w1"), "overheated",
          "A's Lasers: overheated, back in round 4.", tables.FUMBLE_SECTION)


def test_a_missile_or_torpedo_spent_cannot_fire():
    """2.1.4 ("fehlgegangene Raketen ... sind verloren"): a missile fired is spent, hit or miss."""
    state = fight(ship("a", "blue", weapons=(GUNS, MISSILE), damage={"ammo": {"Dart": 2}}), npc("b"))
    _says(_refused(state, "attack actor=a target=b weapon=w2"), "none_left",
          "A has no Dart left: a missile or torpedo fired is spent, hit or miss.", checks.RULE_ATTACK)


def test_the_turret_fires_alone_only_while_the_guns_are_out():
    """2.1.3 (the turret "zusätzlich" in the action) and decision D6: it joins the guns or a missile."""
    state = fight(ship("a", "blue", weapons=(GUNS, TURRET)), npc("b"))
    _says(_refused(state, "attack actor=a target=b weapon=w2"), "turret_alone",
          "Turret joins the guns or a missile in the action; it fires alone only while the guns are out.",
          refusals.RULE_TURRET)


# --- 2.1.3 who may be attacked --------------------------------------------------------------------


def test_a_ship_standing_aside_or_cloaked_cannot_be_attacked():
    """2.1.3 Aussetzen ("Während der Regeneration kann er nicht angegriffen werden"); a cloak once on (D7)."""
    state = fight(ship("a", "blue"), npc("b"), npc("c", cloak=True))
    state = with_ship(with_ship(state, "b", standing_aside=True), "c", cloak="on")
    _says(_refused(state, "attack actor=a target=b weapon=w1"), "standing_aside",
          "B stands aside this round: it cannot be attacked until its next turn.", turn.RULE_TURN)
    _says(_refused(state, "attack actor=a target=c weapon=w1"), "cloaked",
          "C is cloaked: it cannot be attacked until it attacks and drops its cloak.", refusals.RULE_CLOAK_LOCK)


def test_torpedoes_fire_at_capital_ships_deciphered_from_the_next_round():
    """2.1.3: a torpedo at a soft target, a hard target's phase shields deciphered first (a round: D7)."""
    state = fight(ship("bomber", "blue", cls="bomber", weapons=(GUNS, TORPEDO)), npc("fighter"),
                  npc("cruiser", cls="capital", tw=6, shields=10, hull=50, phase_shields=True))
    state, _, _ = step(state, "pass actor=fighter")
    _says(_refused(state, "torpedo actor=bomber target=fighter weapon=w2"), "not_capital",
          "Fighter is not a capital ship: torpedoes fire at capital ships.", turn.RULE_TURN)
    _says(_refused(state, "torpedo actor=bomber target=cruiser weapon=w2"), "not_deciphered",
          "Cruiser has phase shields: lock the torpedo on it first (deciphering takes the round).", turn.RULE_TURN)
    _says(_refused(state, "attack actor=bomber target=cruiser weapon=w2"), "torpedo_action",
          "A torpedo has actions of its own: fire it at a soft target, or lock it on a hard one first.",
          turn.RULE_TURN)
    state = with_ship(state, "bomber", lock_target="cruiser", lock_round=1)
    _says(_refused(state, "torpedo actor=bomber target=cruiser weapon=w2"), "deciphering",
          "Bomber's torpedo deciphers Cruiser's phase shields this round: it fires from round 2.",
          refusals.RULE_CLOAK_LOCK)


def test_firing_and_locking_a_torpedo_need_the_same_ready_torpedo_and_a_target():
    """2.1.3 (a torpedo fired, or locked on a hard target): both ask one of the ship's torpedoes,
    ready, and an enemy that may be attacked, refused in the same words either way."""
    state = fight(ship("bomber", "blue", cls="bomber", weapons=(GUNS, TORPEDO)), npc("fighter"),
                  npc("cruiser", cls="capital", tw=6, shields=10, hull=50, phase_shields=True))
    state, _, _ = step(state, "pass actor=fighter")
    for kind in ("torpedo", "lock"):
        _says(_refused(state, f"{kind} actor=bomber target=cruiser weapon=w1"), "not_a_torpedo",
              "Lasers is not a torpedo.", turn.RULE_TURN)
        _says(_refused(state, f"{kind} actor=bomber target=cruiser weapon=w9"), "no_such_weapon",
              "Bomber has no weapon 'w9'.", turn.RULE_TURN)
        _says(_refused(state, f"{kind} actor=bomber target=bomber weapon=w2"), "same_side",
              "Bomber is on Bomber's side: an attack is on an enemy.", turn.RULE_TURN)
    spent = fight(ship("bomber", "blue", cls="bomber", weapons=(GUNS, TORPEDO), damage={"ammo": {"Torpedo": 2}}),
                  npc("fighter"), npc("cruiser", cls="capital", tw=6, shields=10, hull=50, phase_shields=True))
    spent, _, _ = step(spent, "pass actor=fighter")
    for kind in ("torpedo", "lock"):
        _says(_refused(spent, f"{kind} actor=bomber target=cruiser weapon=w2"), "none_left",
              "Bomber has no Torpedo left: a missile or torpedo fired is spent, hit or miss.", checks.RULE_ATTACK)


def test_a_cloak_is_built_into_fighters_and_bombers_and_takes_a_round():
    """2.1.3 Eine eingebaute Tarnvorrichtung aktivieren ("in einem Jäger oder Bomber", "eine volle Runde")."""
    state = fight(ship("a", "blue"), npc("b"))
    _says(_refused(state, "cloak actor=a"), "no_cloak", "A has no cloaking device.", turn.RULE_TURN)
    state = with_ship(fight(ship("a", "blue", cloak=True), npc("b")), "a", cloak="activating")
    _says(_refused(state, "cloak actor=a"), "cloak_activating",
          "A's cloak is being activated: it is on from A's next turn.", refusals.RULE_CLOAK_LOCK)


# --- 2.1.5 the answer to an attack -----------------------------------------------------------------


def test_a_dodge_with_no_attack_waiting_is_refused():
    """2.1.5 ("Wenn der Charakter angegriffen wird ..."): a countermeasure and a dodge answer an attack."""
    state = fight(ship("a", "blue"), npc("b"))
    _says(_refused(state, "dodge actor=a"), "no_attack_waits",
          "No attack waits for an answer: a countermeasure or a dodge answers an attack on one's own ship.",
          checks.RULE_DODGE)


def test_while_an_attack_waits_only_its_target_answers():
    """2.1.5: the attacked pilot answers first; 2.1.3: ejecting in one's own turn (the attacker, once its
    attack is settled), or instead of a dodge."""
    state = fight(npc("b", "red", mv=3), ship("a", "blue", chaff=1), ship("c", "blue"))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")      # the NPC's guns: a dodges its TW
    assert state.phase == "defend"
    _says(_refused(state, "attack actor=a target=b weapon=w1"), "attack_waits",
          "B's attack with Lasers waits for A's answer first: a countermeasure, a dodge or ejecting.",
          checks.RULE_DODGE)
    _says(_refused(state, "dodge actor=c"), "not_the_target",
          "B's attack with Lasers is on A: only A's pilot answers it.", checks.RULE_DODGE)
    _says(_refused(state, "eject actor=b"), "eject_attack_waits",
          "B's attack with Lasers waits for A's answer: once it is settled, B's pilot may eject.", turn.RULE_TURN)
    _says(_refused(state, "eject actor=c"), "eject_not_now",
          "C's pilot ejects in C's own turn, or instead of a dodge when attacked; it is B's turn.", turn.RULE_TURN)


def test_a_countermeasure_needs_the_right_kind_left_and_not_a_critical_hit():
    """2.1.5 (chaff against missiles, mines against guns; "keine Abwehrmittel mehr"), RULES-NOTES
    (one countermeasure an attack), 2.1.9 (a critical hit always succeeds)."""
    state = fight(ship("a", "blue", chaff=1), npc("b", weapons=(GUNS, MISSILE, TORPEDO)))
    state, _, _ = step(state, "pass actor=a")
    guns, _, _ = step(state, "attack actor=b target=a weapon=w1")
    refused = _refused(guns, "countermeasure actor=a")
    _says(refused, "counter_empty", "A has no mines left.", checks.RULE_DODGE)
    assert bracketed(refused) == "⟨A has no ⟨mines⟩ left.⟩"
    missile, _, _ = step(state, "attack actor=b target=a weapon=w2")
    missile, _, _ = step(missile, "countermeasure actor=a", 1, 1)
    _says(_refused(missile, "countermeasure actor=a"), "counter_tried",
          "A has tried a countermeasure against this attack: the dodge is left.", checks.RULE_CM)
    # a character (rolls) against a character: a natural 19 is a critical hit
    state = fight(ship("a", "blue", mv=2), ship("b", "red", chaff=1, weapons=(GUNS, MISSILE)))
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 10, 9)
    _says(_refused(state, "countermeasure actor=b"), "counter_critical",
          "A's attack with Lasers is a critical hit: it always succeeds, so no countermeasure stops it.", checks.RULE_CRIT)


# --- where the GM meets them ----------------------------------------------------------------------


def test_a_scenario_file_shows_the_reason(tmp_path):
    """2.1.3 and docs/scenarios.md ("A refused action"): a refused step's message says why, and a step may
    require the words."""
    head = EXAMPLE.read_text().split("steps:")[0]
    path = tmp_path / "refused.yaml"
    path.write_text(head + "steps:\n"
                    "  - action: attack actor=s1 target=s2 weapon=w1\n"
                    "    dice: [2, 3]\n"
                    "  - action: attack actor=s1 target=s2 weapon=w1\n"
                    "    refused: one action a turn\n")
    result = run_scenario(load_scenario(path))
    assert "Blue 1 has taken its action this turn: one action a turn." in result["steps"][-1]["refused"]


def test_no_legal_action_has_a_reason_and_every_refused_one_has_one():
    """Every section: the refusal asks what the action list asks, so it never names a reason for a legal
    action, and names one for each action legal at another step of the fight and not now (bot fights of
    the two examples and the demo flights, 80 steps each)."""
    setups = (RULESET.example_setup(0), RULESET.example_setup(1), demo_setup(RULESET))
    reasons_agree(RULESET, refusals.refusal, setups, steps=80, sample=25)

