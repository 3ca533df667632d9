"""Refusals that say why (issue 25): an action the rules forbid now is refused with the reason in
words and the rule (the seed section's citation), through ``rulesets.core.engine.check_legal``.

Each test names the seed section whose rule refuses the action; scripted dice throughout.
"""
from __future__ import annotations

import json
from dataclasses import replace

import pytest

from rulesets.cepheus import refusals, tables
from rulesets.cepheus.engine import RULESET
from rulesets.core.engine import Action, IllegalAction
from rulesets.core.scenario import load_scenario, run_scenario

from ..refusals_kit import bracketed, reasons_agree, refused, says
from .helpers import act, crew, duel, edit_ship, kinds, setup, ship

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)
SEC = tables.SEC


def _refused(state, text: str) -> IllegalAction:
    return refused(RULESET, state, text)


def _says(refused: IllegalAction, ident: str, words: str, rule: str):
    """The refusal's message id, its English words, the rule cited, and str() = words (rule)."""
    assert says(refused, f"cepheus.refused.{ident}", words).rule == rule


def _mounts(state, ship_id, **changes):
    """A copy of ``state`` with the first mount of a ship changed (test arrangement, not a rule)."""
    sh = state.ship(ship_id)
    return edit_ship(state, ship_id, mounts=[replace(sh.mounts[0], **changes), *sh.mounts[1:]])


# --- check_legal and the contract ------------------------------------------------------------------------


def test_check_legal_raises_illegal_action_carrying_the_reason_and_the_rule():
    """Tabella: Difficoltà di Attacco nel Combattimento Spaziale (RULES-NOTES: a blank cell, the weapon cannot
    fire at that band): the pulse laser has no Distant cell; check_legal raises IllegalAction with the refusal,
    and apply_checked refuses it the same way."""
    s = duel([GUNNER], [crew("t", "passenger")], range="distant")
    refused = _refused(s, "attack actor=g mount=t1 target=b weapon=0")
    _says(refused, "out_of_reach",
          "The pulse laser cannot fire at Distant: it reaches Adjacent, Close, Short, Medium, Long, Very Long only.",
          tables.SEC_ATTACK)
    assert refused.refusal.rule == "Space Combat Attack Difficulty by Weapon Type table"
    assert RULESET.refusal(s, Action.parse("attack actor=g mount=t1 target=b weapon=0")) == refused.refusal
    with pytest.raises(IllegalAction, match="cannot fire at Distant"):
        act(s, "attack actor=g mount=t1 target=b weapon=0")


# --- Il turno di combattimento spaziale: whose turn, whose step ------------------------------------------


def test_a_ship_acting_out_of_its_initiative_turn_is_told_whose_turn_it_is():
    """Il turno di combattimento spaziale: ships act in descending initiative (A 12, B 2): B's pilot waits."""
    s = duel([GUNNER], [crew("p", "pilot", pilot=1)])
    _says(_refused(s, "evasive actor=p"), "ship_later", "It is A's turn; B acts later in the initiative order.",
          SEC["turn"])
    assert SEC["turn"] == "The Space Combat Turn"


def test_a_ship_that_has_had_its_turn_is_told_so():
    """Il turno di combattimento spaziale: one turn a round; after A's gunner has fired, it is B's turn."""
    s = duel([GUNNER], [crew("p", "pilot", pilot=1)])
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state          # B's pilot may dodge: it does not
    s = act(s, "no_reaction actor=b", 1, 1).state                          # 2 + Gunnery 1 at Short (Average): a miss
    assert s.active == "B — Pilot P"
    _says(_refused(s, "attack actor=g mount=t1 target=b weapon=0"), "ship_acted",
          "A has had its turn this round; it is B's turn now.", SEC["turn"])


def test_a_crew_member_out_of_step_is_told_whose_step_it_is():
    """Il turno di combattimento spaziale: each crew member acts in the ship's turn; the Captain's step comes
    first (the order of positions), so the gunner waits, and the Captain, once done, has acted."""
    s = duel([crew("cap", "captain", leadership=0), GUNNER], [crew("t", "passenger")])
    _says(_refused(s, "attack actor=g mount=t1 target=b weapon=0"), "crew_later",
          "It is CAP's step (Captain) aboard A; G (Turret gunner) acts later in the turn (the Captain first, then "
          "sensors, pilot, navigator, gunners, engineers, damage control, security, marines).", SEC["turn"])
    s = act(s, "done actor=cap").state
    _says(_refused(s, "coordinate actor=cap"), "crew_acted",
          "It is G's step (Turret gunner) aboard A; CAP (Captain) has acted this turn.", SEC["turn"])


def test_an_unconscious_crew_member_takes_no_actions():
    """Tabella: Danni all'equipaggio (RULES-NOTES, the decision on wounds): with End and Str at 0 the crew member
    is unconscious and takes no actions."""
    s = duel([GUNNER], [crew("p", "pilot", pilot=1), crew("t", "passenger")])
    b = s.ship("b")
    s = edit_ship(s, "b", crew=[replace(c, damage=14) if c.id == "p" else c for c in b.crew])
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1).state    # nobody to dodge: a miss; B's turn
    assert s.active == "B — Passenger T"
    _says(_refused(s, "evasive actor=p"), "crew_unconscious", "P is unconscious: they take no actions.",
          tables.SEC_CREW_DAMAGE)


# --- Tabella: Riepilogo delle azioni; Azioni minori / significative --------------------------------------


def test_an_action_of_another_position_names_whose_it_is():
    """Tabella: Riepilogo delle azioni di combattimento spaziale: evasive manoeuvres are the pilot's."""
    s = duel([crew("x", "passenger")], [])
    _says(_refused(s, "evasive actor=x"), "not_their_position",
          "Evasive manoeuvres is the Pilot's action; X is the Passenger.", SEC["summary"])


def test_the_significant_action_spent_on_two_minor_actions_is_refused():
    """Azioni minori: up to three minor actions in place of the significant one; after two, no attack."""
    s = duel([GUNNER, crew("x", "passenger")], [crew("t", "passenger")])
    s = act(act(s, "personal actor=g").state, "personal actor=g").state
    _says(_refused(s, "attack actor=g mount=t1 target=b weapon=0"), "no_significant",
          "G has used their significant action this turn (or three minor actions in its place).",
          SEC["significant"])


# --- the pilot: Calibrare la velocità, Ponte ---------------------------------------------------------------


def test_a_speed_change_beyond_the_thrust_is_refused():
    """Calibrare la velocità: the pilot changes the speed by up to the ship's Thrust (here 2)."""
    s = duel([crew("p", "pilot", pilot=1)], [], a_stats={"thrust": 2})
    _says(_refused(s, "adjust_speed actor=p speed=#5"), "beyond_thrust",
          "A's Thrust is 2: from speed 0 it changes to 0-2 at most this turn.", SEC["adjust_speed"])


def test_a_disabled_bridge_refuses_the_pilots_actions():
    """Ponte, second hit: the bridge is disabled, no Pilot or Sensor action until it is repaired."""
    s = edit_ship(duel([crew("p", "pilot", pilot=1)], []), "a", hits={"bridge": 2})
    _says(_refused(s, "evasive actor=p"), "bridge_out",
          "A's bridge is disabled: no pilot or sensor actions and no jump until it is repaired.",
          tables.LOCATION_SECTION["bridge"])


# --- the gunners: Attacco, Torretta, Sensori, Missili, range bands -------------------------------------------


def test_the_sandcaster_reaches_only_adjacent_close_and_short():
    """Tabella: Difficoltà di Attacco (RULES-NOTES: the sandcaster only at Adjacent, Close, Short)."""
    sand = {"turrets": [{"weapons": [{"type": "sandcaster", "ammo": 3}]}]}
    s = duel([GUNNER], [crew("t", "passenger")], a_stats=sand, range="medium")
    _says(_refused(s, "attack actor=g mount=t1 target=b weapon=0"), "out_of_reach",
          "The sandcaster cannot fire at Medium: it reaches Adjacent, Close, Short only.", tables.SEC_ATTACK)


def test_a_disabled_or_destroyed_turret_cannot_fire():
    """Torretta: the second hit disables the turret and all its weapons, the third destroys them."""
    s = duel([GUNNER], [crew("t", "passenger")])
    _says(_refused(_mounts(s, "a", hits=2), "attack actor=g mount=t1 target=b weapon=0"), "mount_disabled",
          "A's Turret 1 (pulse laser) is disabled, with every weapon in it, until it is repaired.",
          tables.LOCATION_SECTION["turret"])
    _says(_refused(_mounts(s, "a", hits=3), "attack actor=g mount=t1 target=b weapon=0"), "mount_destroyed",
          "A's Turret 1 (pulse laser) is destroyed, with every weapon in it.", tables.LOCATION_SECTION["turret"])


def test_a_turret_fires_only_once_a_round():
    """Attacco: each turret or bay fires only once per round (the turret has fired this round)."""
    s = duel([GUNNER], [crew("t", "passenger")])
    s = edit_ship(s, "a", fired=["t1"])
    _says(_refused(s, "attack actor=g mount=t1 target=b weapon=0"), "fired_already",
          "Turret 1 (pulse laser) has fired this round: each turret or bay fires only once per round.",
          SEC["attack"])


def test_a_gunner_fires_the_turret_they_man():
    """Tabella: Posizioni dell'equipaggio: each turret has its own gunner, chosen at the start."""
    two = [{"weapons": [{"type": "pulse_laser"}]}, {"weapons": [{"type": "beam_laser"}]}]
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": two})
    _says(_refused(s, "attack actor=g mount=t2 target=b weapon=0"), "not_their_mount",
          "G mans Turret 1 (pulse laser): each turret and each bay has its own gunner.", SEC["positions"])


def test_an_empty_missile_rack_and_a_launch_too_close_are_refused():
    """Missili: no missiles left loaded (Ricaricare: reload an exhausted rack); Tabella: Gittata di Lancio dei
    Missili: not at Adjacent or Close."""
    rack = {"turrets": [{"weapons": [{"type": "missile_rack", "ammo": 6}]}]}
    s = duel([GUNNER], [crew("t", "passenger")], a_stats=rack, range="long")
    empty = _mounts(s, "a", weapons=[replace(s.ship("a").mounts[0].weapons[0], loaded=0)])
    _says(_refused(empty, "attack actor=g mount=t1 target=b weapon=0"), "no_missiles",
          "The missile rack in Turret 1 (missile rack) has no missiles left loaded (3 in store: reload it).",
          SEC["missiles"])
    close = duel([GUNNER], [crew("t", "passenger")], a_stats=rack, range="close")
    _says(_refused(close, "attack actor=g mount=t1 target=b weapon=0"), "missile_range",
          "Missiles cannot be launched at Adjacent or Close range: the target is at Close.", tables.SEC_MISSILE_RANGE)


def test_disabled_sensors_forbid_attacks_beyond_adjacent():
    """Sensori, second hit: no attacks at targets beyond Adjacent."""
    s = edit_ship(duel([GUNNER], [crew("t", "passenger")]), "a", hits={"sensors": 2})
    _says(_refused(s, "attack actor=g mount=t1 target=b weapon=0"), "blind",
          "A's sensors are disabled: no attacks beyond Adjacent (B is at Short).", tables.LOCATION_SECTION["sensors"])


# --- Reazioni ---------------------------------------------------------------------------------------------


def test_a_reaction_without_reactions_left_is_refused():
    """Tabella: Reazioni per Iniziativa: B (initiative 2) has one reaction a round; its pilot dodges, and its
    gunner then has no reaction left for the sand."""
    sandy = {"turrets": [{"weapons": [{"type": "sandcaster", "ammo": 3}]}]}
    s = duel([GUNNER], [crew("p", "pilot", pilot=1), crew("h", "turret_gunner", "turret-1", gunnery=1)],
             d_stats=sandy)
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    s = act(s, "dodge actor=p", 1, 1).state                                # 2 + 1: the dodge fails
    assert s.phase == "react" and s.ship("b").reactions == 0
    _says(_refused(s, "sand actor=h mount=t1"), "no_reactions",
          "B has no reactions left this round (initiative 2: 1 a round).", tables.SEC_REACTIONS)


def test_an_empty_sandcaster_cannot_fire_sand():
    """Sparare Raffiche: every burst of sand costs a canister; with none loaded there is no sand to fire."""
    sandy = {"turrets": [{"weapons": [{"type": "sandcaster", "ammo": 3}]}]}
    s = duel([GUNNER], [crew("p", "pilot", pilot=1), crew("h", "turret_gunner", "turret-1", gunnery=1)],
             d_stats=sandy)
    s = _mounts(s, "b", weapons=[replace(s.ship("b").mounts[0].weapons[0], loaded=0)])
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    assert s.phase == "react"
    _says(_refused(s, "sand actor=h mount=t1"), "no_sand",
          "The sandcaster in Turret 1 (sandcaster) is empty: each burst costs a canister (reload it).", SEC["sand"])


# --- Abbordaggio, Iniziativa ---------------------------------------------------------------------------


def test_boarding_needs_adjacent_range():
    """Abbordaggio: the boarders cross to an enemy ship at Adjacent."""
    s = duel([crew("m", "marine")], [crew("t", "passenger")])
    _says(_refused(s, "board actor=m target=b"), "board_adjacent",
          "Boarding needs Adjacent range: B is at Short.", SEC["boarding"])


def test_nothing_but_initiative_before_the_round():
    """Iniziativa: each side rolls initiative before the round begins."""
    s = setup(ship("a", "blue", [GUNNER]), ship("b", "red"))
    _says(_refused(s, "attack actor=g mount=t1 target=b weapon=0"), "not_begun",
          "Round 1 has not begun: each side rolls initiative first (blue now).", SEC["initiative"])


# --- the scenario file and the action list ------------------------------------------------------------------


def test_a_scenario_file_shows_the_reason(tmp_path):
    """Tabella: Difficoltà di Attacco (blank cell) and docs/scenarios.md ("A refused action"): a refused step's
    message says why and cites the rule, and a step may require the words."""
    spec = {"ships": [ship("a", "blue", [GUNNER]), ship("b", "red", [crew("t", "passenger")])],
            "options": {"range": "distant"}}
    path = tmp_path / "refused.yaml"
    path.write_text("ruleset: cepheus\nname: out of reach\nseed: refusals\n"
                    f"setup: {json.dumps(spec)}\n"
                    "steps:\n"
                    "  - action: initiative actor=a\n"
                    "    dice: [6, 6]\n"
                    "  - action: initiative actor=b\n"
                    "    dice: [1, 1]\n"
                    "  - action: attack actor=g mount=t1 target=b weapon=0\n"
                    "    refused: cannot fire at Distant\n")
    result = run_scenario(load_scenario(path))
    assert ("The pulse laser cannot fire at Distant: it reaches Adjacent, Close, Short, Medium, Long, Very Long "
            f"only. ({tables.SEC_ATTACK})") in result["steps"][-1]["refused"]


def test_no_legal_action_has_a_reason_and_every_refused_one_has_one():
    """Every section: the refusal asks what the action list asks, so it never names a reason for a legal
    action, and names one for each action legal at another step of the fight and not now, and for the acting
    crew member taking another's action (80 bot steps of two examples)."""
    def as_the_acting_crew_member(state, pool, rng):
        _, current = state.actor()
        if state.phase != "crew" or current is None:
            return []
        return [Action.make(a.kind, current.id, **dict(a.params)) for a in rng.sample(pool, min(20, len(pool)))]

    reasons_agree(RULESET, refusals.refusal, [RULESET.example_setup(v) for v in (0, 1)], steps=80, sample=20,
                  more=as_the_acting_crew_member)


# --- more of the system's reasons: the crew's other positions, the Captain, delay, reactions, the GM ---------


def test_reloading_needs_an_exhausted_weapon_and_something_in_store():
    """Ricaricare il sistema delle armi: a crew member reloads an exhausted missile rack or sandcaster."""
    rack = {"turrets": [{"weapons": [{"type": "missile_rack", "ammo": 6}]}]}
    s = duel([GUNNER], [], a_stats=rack)
    _says(_refused(s, "reload actor=g mount=t1 weapon=#0"), "not_exhausted",
          "The missile rack in Turret 1 (missile rack) still has 3 loaded: a reload fills an exhausted one.",
          SEC["reload"])
    dry = _mounts(s, "a", weapons=[replace(s.ship("a").mounts[0].weapons[0], loaded=0, reserve=0)])
    _says(_refused(dry, "reload actor=g mount=t1 weapon=#0"), "no_reserve",
          "There is nothing left in store to reload the missile rack in Turret 1 (missile rack).", SEC["reload"])


def test_there_is_only_one_pilot():
    """Tabella: Posizioni dell'equipaggio: "Può esserci un solo pilota"; a second cannot take the helm."""
    s = duel([crew("p", "pilot", pilot=1), crew("x", "passenger")], [])
    s = act(s, "done actor=p").state
    _says(_refused(s, "change_position actor=x position=pilot"), "one_pilot",
          "A has a pilot already (P): there can be only one.", SEC["positions"])


def test_the_jump_needs_a_plot_and_a_working_j_drive():
    """Calcolare Rotta di Balzo: the jump needs a plot first; Motore-B, second hit: the J-drive is disabled."""
    s = duel([crew("e", "engineer", engineering=1)], [], a_stats={"jump": 1, "fuel": 40})
    _says(_refused(s, "jump actor=e"), "no_plot", "A has no jump plotted: the navigator plots it first.",
          SEC["jump_plot"])
    s = edit_ship(s, "a", jump_plotted=True, hits={"j_drive": 2})
    refused = _refused(s, "jump actor=e")
    _says(refused, "j_drive_out", "A's jump drive is disabled.", tables.LOCATION_SECTION["j_drive"])
    assert bracketed(refused) == "⟨A's jump drive is ⟨disabled⟩.⟩"


def test_repair_works_on_a_damaged_system_and_a_destroyed_one_needs_an_extended_repair():
    """Riparare il sistema danneggiato: a damaged system; Azioni estese: a destroyed one is rebuilt over turns."""
    s = edit_ship(duel([crew("d", "damage_control", mechanic=1)], []), "a", hits={"m_drive": 3})
    _says(_refused(s, "repair actor=d system=sensors"), "not_damaged", "Sensors is not damaged.", SEC["repair"])
    _says(_refused(s, "repair actor=d system=m_drive"), "destroyed_system",
          "M-Drive is destroyed: only an extended repair (overhaul) rebuilds it.", SEC["extended"])


def test_the_captain_declares_hasty_only_at_the_start_of_the_turn():
    """RULES-NOTES (house rule, acting hastily) and Ritardo: the Captain's declarations come before acting."""
    s = duel([crew("cap", "captain"), GUNNER], [crew("t", "passenger")], hasty=True)
    s = act(s, "personal actor=cap").state
    _says(_refused(s, "hasty actor=cap"), "declare_first",
          "The Captain declares this at the start of A's turn, before acting.", SEC["hasty"])
    _says(_refused(s, "delay actor=cap"), "declare_first",
          "The Captain declares this at the start of A's turn, before acting.", SEC["delay"])


def test_only_a_delaying_ship_acts_when_it_chooses():
    """Ritardo: the Captain of a delaying ship acts later, even interrupting; a ship that is not delaying does
    not; at the end of the round the delaying ship acts now or first next round."""
    s = duel([crew("cap", "captain")], [crew("q", "pilot")])
    s = act(s, "delay actor=cap").state
    _says(_refused(s, "act_now actor=b"), "not_delaying",
          "B is not delaying: only a ship whose Captain delayed acts when it chooses.", SEC["delay"])
    s = act(s, "end_turn actor=q").state
    assert s.phase == "delay"
    _says(_refused(s, "keep_waiting actor=a"), "round_ends",
          "The round is at its end: A acts now, or acts first next round giving up this round's actions.",
          SEC["delay"])


def test_a_ship_that_delayed_and_then_acts_cannot_delay_again_that_round():
    """Ritardo: "Una nave non deve per forza agire quando arriva il suo turno ... Quando agisce, la sua
    Iniziativa è impostata sul conteggio in base al quale ha agito": a ship that delayed and then acts
    (interrupting) acts; delaying again would let two ships interrupt each other without end."""
    s = duel([crew("cap", "captain")], [crew("q", "pilot")])
    s = act(s, "delay actor=cap").state
    s = act(s, "act_now actor=a").state           # A interrupts B's turn
    assert s.acting_ship.id == "a" and "delay" not in kinds(s)
    _says(_refused(s, "delay actor=cap"), "delayed_already",
          "A has delayed once this round: now that it acts, it acts.", SEC["delay"])


def test_point_defence_shoots_only_missiles_and_boarders():
    """Difesa puntiforme: turret lasers shoot down incoming missiles (and boarders), not a beam."""
    s = duel([GUNNER], [crew("p", "pilot", pilot=1), crew("h", "turret_gunner", "turret-1", gunnery=1)])
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    assert s.phase == "react"
    _says(_refused(s, "point_defence actor=h mount=t1"), "point_defence_what",
          "Point defence shoots only incoming missiles and boarders crossing open space.", SEC["point_defence"])
    _says(_refused(s, "evasive actor=p"), "reaction_first",
          "B answers the incoming attack first: a reaction, or no reaction.", SEC["reactions"])


def test_a_pursuit_starts_at_adjacent_or_close_at_the_same_speed():
    """Inseguimento: to pursue, the ships are at Adjacent or Close and at the same speed."""
    s = duel([crew("p", "pilot", pilot=1)], [])
    _says(_refused(s, "pursue actor=p target=b"), "pursue_how",
          "A pursuit starts at Adjacent or Close at the same speed: B is at Short, speed 0 against 0.", SEC["pursue"])


def test_intercepting_needs_enemy_fleet_traffic():
    """Intercettare le comunicazioni nemiche: "il nemico deve avere comunicazioni da poter essere intercettate";
    a lone enemy ship has no fleet traffic (the decision)."""
    s = duel([crew("o", "sensors", comms=1)], [])
    _says(_refused(s, "intercept actor=o target=b"), "no_traffic",
          "B flies alone: there is no fleet traffic to intercept.", SEC["intercept"])


def test_only_the_gm_overrides():
    """RULES-NOTES, the GM's escape hatch: the override is the GM's."""
    s = duel([GUNNER], [])
    _says(_refused(s, "override actor=g path=a.hull value=1"), "gm_only", "Only the GM does that.", SEC["override"])
