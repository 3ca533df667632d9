"""Refusals that say why (issue 25): an action the rules forbid now is refused with the reason in
words and the rule (the seed section's citation), through ``rulesets.core.engine.check_legal``.

Each test names the seed section whose rule refuses the action; scripted dice throughout.
"""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest

from rulesets.cepheus import refusals, tables
from rulesets.cepheus.engine import RULESET
from rulesets.core.dice import Dice, RandomSource
from rulesets.core.engine import Action, IllegalAction, Refusal, check_legal
from rulesets.core.scenario import load_scenario, run_scenario

from .helpers import act, crew, duel, edit_ship, setup, ship

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)
SEC = tables.SEC


def _refused(state, text: str) -> IllegalAction:
    with pytest.raises(IllegalAction) as refused:
        check_legal(RULESET, state, Action.parse(text))
    assert isinstance(refused.value.refusal, Refusal)
    return refused.value


def _says(refused: IllegalAction, ident: str, words: str, rule: str):
    """The refusal's message id, its English words, the rule cited, and str() = words (rule)."""
    r = refused.refusal
    assert r.reason.id == f"cepheus.refused.{ident}"
    assert r.reason.render() == words
    assert r.rule == rule
    assert str(refused) == f"{words} ({rule})"
    assert "{" in r.reason.text or not r.reason.params, "English text with placeholders, filled from params"


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
    for variant in (0, 1):
        rng = random.Random(f"refusals {variant}")
        state, pool = RULESET.setup(RULESET.example_setup(variant)), []
        for _ in range(80):
            if state.over:
                break
            legal = [a for a in RULESET.legal_actions(state) if a.kind != "override"]
            assert all(refusals.refusal(state, a) is None for a in legal)
            pool.extend(legal)
            tried = rng.sample(pool, min(20, len(pool)))
            _, current = state.actor()
            if state.phase == "crew" and current is not None:
                tried += [Action.make(a.kind, current.id, **dict(a.params)) for a in rng.sample(pool, min(20, len(pool)))]
            for action in tried:
                if not RULESET.is_legal(state, action):
                    assert refusals.refusal(state, action) is not None, f"no reason for {action} now"
            state = RULESET.apply(state, RULESET.policy(state, rng), Dice(RandomSource(rng))).state
