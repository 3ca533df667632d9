"""Refusals that say why (issue 25): an action the rules forbid now is refused with the reason in
words and the rule (the seed section's citation), through ``rulesets.core.engine.check_legal``.

Each test names the seed section whose rule refuses the action; scripted dice throughout.
"""
from __future__ import annotations

from dataclasses import replace

from rulesets.core.engine import Action, IllegalAction
from rulesets.core.scenario import load_scenario, run_scenario
from rulesets.void_d20 import tables
from rulesets.void_d20.engine import RULESET
from rulesets.void_d20.model import ShipWeapon

from ..refusals_kit import bracketed, reasons_agree, refused, says
from .helpers import aboard_state, char, dice, foe, space_state, used_up, vessel
from .test_override import EXAMPLE


def _refused(state, text: str) -> IllegalAction:
    return refused(RULESET, state, text)


def _says(refused: IllegalAction, ident: str, words: str, section: str):
    """The refusal's message id, its English words, the rule cited, and str() = words (rule)."""
    assert says(refused, f"void_d20.refused.{ident}", words).rule == tables.rule(section)


# --- Боевой раунд: two actions a turn; Инициатива и порядок ходов: whose turn --------------------


def test_a_third_action_in_a_turn_is_refused_two_actions_a_round():
    """Боевой раунд (VD-02): a turn is a move + an action, two moves or two actions; a third is refused."""
    state = aboard_state(char(aboard="s2", technology=2), foe(hp=20, max_hp=20))
    d = dice(5, 5)                                # Ann misses twice
    for _ in range(2):
        state = RULESET.apply(state, Action.make("attack", "ann", target="r1"), d).state
    assert used_up(d) and state.active == "Raider"
    refused = _refused(state, "attack actor=ann target=r1")
    _says(refused, "third_action", "Ann has taken their turn this round: two actions a round (a move and an action, "
          "two moves or two actions).", "round")
    assert refused.refusal.rule == "The combat round"


def test_acting_out_of_turn_is_refused_naming_whose_turn_it_is():
    """Инициатива и порядок ходов (VD-03, VD-04): the round's order decides who acts; Ann waits for Vasha."""
    state = aboard_state(char("vasha", "Vasha", aboard="s2"), char(aboard="s2"), foe())
    _says(_refused(state, "attack actor=ann target=r1"), "out_of_turn", "It is Vasha's turn.", "initiative")


def test_a_character_in_shock_cannot_act_and_the_refusal_counts_the_rounds():
    """Таблица смерти в космосе (VD-26): shock, "ноль действий 2 раунда"; the refusal says how long."""
    state = aboard_state(foe(attack=5), char(aboard="s2", hp=2, max_hp=8))
    d = dice(15, 5, 6, 12)                        # the raider hits Ann for 5; death table 12: shock
    state = RULESET.apply(state, Action.make("attack", "r1", target="ann"), d).state
    _says(_refused(state, "attack actor=ann target=r1"), "cannot_act.shock",
          "Ann is in shock (no actions: 2 rounds left).", "death")
    state = RULESET.apply(state, Action.make("end", "r1"), dice(5)).state      # round 2: Ann rolls 5
    _says(_refused(state, "cover actor=ann level=light"), "cannot_act.shock",
          "Ann is in shock (no actions: 1 round left).", "death")


def test_a_person_in_full_cover_cannot_attack_nor_be_attacked():
    """Укрытия и щиты (VD-15): full cover, "атака невозможна"; nor from it (the decision)."""
    state = aboard_state(char(aboard="s2"), foe(cover="full"))
    _says(_refused(state, "attack actor=ann target=r1"), "target_full_cover",
          "Raider is in full cover: no attack possible.", "cover")
    state = aboard_state(char(aboard="s2", cover="full"), foe())
    _says(_refused(state, "attack actor=ann target=r1"), "from_full_cover",
          "Ann is in full cover: no attack from it (move out first).", "cover")


# --- Раунды и порядок, Дистанции, Стрельба и повреждения рамы: the guns ----------------------------


def _at_the_guns(kestrel, band="medium"):
    """Kestrel's gunner station, its turn (Раунды и порядок: the stations in order)."""
    people = (char("ilse", "Ilse", position="gunner", technology=2), foe(ship="s2"))
    state = space_state(kestrel, vessel("s2", "Grinder", "raiders"), people=people, band=band)
    return replace(state, slot=[s.key for s in tables.STATIONS].index("gunner"))


def test_a_ship_without_power_cannot_fire():
    """Стрельба и повреждения рамы (VD-50): at frame 0 the ship drifts, and has no power for its guns."""
    state = _at_the_guns(vessel(frame=0, max_frame=10))
    _says(_refused(state, "fire actor=s1 weapon=w1 target=s2"), "no_power_drifting",
          "Kestrel has no power: its frame is at 0 and it drifts.", "frame")


def test_a_knocked_out_weapon_cannot_fire():
    """Стрельба и повреждения рамы (VD-51): a hit knocks out a module; a weapon out does not fire."""
    state = _at_the_guns(vessel(weapons=(ShipWeapon("w1", "Autocannon", "d8", "standard", out=True),)))
    _says(_refused(state, "fire actor=s1 weapon=w1 target=s2"), "weapon_out", "Kestrel's Autocannon is knocked out.",
          "frame")


def test_a_target_out_of_the_weapons_range_band_is_refused():
    """Дистанции (VD-42): at Far only heavy weapons and missiles; Сцеплены (VD-45): docked, no guns at all."""
    state = _at_the_guns(vessel(), band="far")
    refused = _refused(state, "fire actor=s1 weapon=w1 target=s2")
    _says(refused, "out_of_range",
          "Grinder is at Far: Autocannon (standard) does not reach it; only heavy, missile weapons do.", "ranges")
    # the band, the weapon's reach and the reaches that work are words a translator reaches
    assert bracketed(refused) == ("⟨Grinder is at ⟨Far⟩: Autocannon (⟨standard⟩) does not reach it; only "
                                  "⟨⟨heavy⟩, ⟨missile⟩⟩ weapons do.⟩")
    state = _at_the_guns(vessel(), band="docked")
    _says(_refused(state, "fire actor=s1 weapon=w1 target=s2"), "docked_no_guns",
          "Kestrel and Grinder are docked: guns do not work.", "ranges")


def test_a_ship_makes_one_manoeuvre_and_one_attack_a_round():
    """Раунды и порядок (VD-35): one manoeuvre + one attack for each ship; the helm has had its step."""
    state = _at_the_guns(vessel())
    _says(_refused(state, "evade actor=s1"), "manoeuvre_taken",
          "Kestrel has made its manoeuvre this round: one manoeuvre and one attack for each ship a round.", "ship_round")


def test_a_scenario_file_shows_the_reason(tmp_path):
    """Раунды и порядок (VD-35) and docs/scenarios.md ("A refused action"): a refused step's message says
    why, and a step may require the words."""
    head = EXAMPLE.read_text().split("steps:")[0]
    path = tmp_path / "refused.yaml"
    path.write_text(head + "steps:\n"
                    "  - action: begin\n"
                    "    dice: [15, 4]\n"
                    "  - action: fire actor=s1 weapon=w1 target=s2\n"
                    "    refused: the gunner station comes later\n")
    result = run_scenario(load_scenario(path))
    assert "It is Kestrel's pilot step; the gunner station comes later" in result["steps"][-1]["refused"]


# --- every reason agrees with the action list ----------------------------------------------------


def test_no_legal_action_has_a_reason_and_every_refused_one_has_one():
    """Every section: the refusal asks what the action list asks, so it never names a reason for a legal
    action, and names one for each action legal at another step of the fight and not now (60 bot steps
    of each example, 20 of those actions at each step)."""
    from rulesets.void_d20 import refusals

    reasons_agree(RULESET, refusals.refusal, [RULESET.example_setup(v) for v in (0, 1)], steps=60, sample=20)

