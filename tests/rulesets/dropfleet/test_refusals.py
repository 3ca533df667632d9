"""Refusals that say why (issue 25): an action the rules forbid now is refused with the reason in
words and the rule (the seed section, RULES-NOTES or decision cited), through
``rulesets.core.engine.check_legal`` -- what the runner, scenario files and the physical-dice entry show.

Each test names the seed section (dropfleet-commander-damage.es.txt), the RULES-NOTES rule (DF-Nxx)
or the decision (Dx, docs/rulesets/dropfleet.md) whose rule refuses the action; scripted dice throughout.
"""
from __future__ import annotations

from pathlib import Path

from rulesets.core import citation
from rulesets.core.engine import Action, IllegalAction, refusal_of
from rulesets.core.scenario import load_scenario, run_scenario
from rulesets.dropfleet import refusals, tables
from rulesets.dropfleet.engine import RULESET
from rulesets.dropfleet.state import Effect, PendingAttack

from ..refusals_kit import bracketed, reasons_agree, refused, says
from .helpers import attacker, ship, state, step, weapon

SCENARIO = Path(__file__).resolve().parents[3] / "docs" / "scenarios" / "dropfleet-crippled-and-destroyed.yaml"


def _refused(state, text: str) -> IllegalAction:
    return refused(RULESET, state, text)


def _says(refused: IllegalAction, ident: str, words: str, rule: str):
    """The refusal's message id, its English words, the rule cited (a citation of tables.py, its
    Spanish heading kept for a seed section), and str() = words (rule)."""
    r = says(refused, f"dropfleet.refused.{ident}", words)
    assert r.rule == rule and citation.read(rule, "dropfleet") is not None


def _groups(*extra, phase="orders", **kw):
    """Attacker (blue, group Vess Warden, activating) and Target (red, group Sable Shroud)."""
    return state(attacker(group="Vess Warden"), ship(group="Sable Shroud"), *extra, phase=phase, **kw)


# --- decision D1: whose activation, which step of it --------------------------------------------------


def test_a_ship_out_of_its_group_s_activation_is_refused_naming_whose_it_is():
    """Decision D1: battle groups activate one at a time, the sides taking turns; a group's orders
    are given by its lead ship."""
    _says(_refused(_groups(), "order actor=t order=standard"), "group_later",
          "It is Vess Warden's activation: Target's group activates later this round (the sides take turns, group "
          "by group).", tables.ACTIVATIONS)
    _says(_refused(_groups(activated=("Sable Shroud",)), "order actor=t order=standard"), "group_activated",
          "It is Vess Warden's activation: Target's group has activated this round.", tables.ACTIVATIONS)
    st = _groups(ship("a2", "blue", x=4, y=10, group="Vess Warden"))
    _says(_refused(st, "order actor=a2 order=standard"), "lead_ship.orders",
          "Orders are given by Attacker, the lead ship of Vess Warden.", tables.ACTIVATIONS)
    _says(_refused(_groups(ship("a2", "blue", x=4, y=10, group="Vess Warden"), phase="fire"), "open_fire actor=a2"),
          "lead_ship.open_fire", "Open fire is given by Attacker, the lead ship of Vess Warden.", tables.ACTIVATIONS)
    assert citation.read(tables.ACTIVATIONS, "dropfleet").ruling


def test_an_activation_goes_orders_then_moves_then_fire():
    """Decision D1 (with D4, D2): an activation is the group's orders, its moves, then its fire; the
    End phase (D8) comes when every group has activated, and it is the GM's step."""
    _says(_refused(_groups(), "stay actor=a"), "orders_first",
          "Vess Warden takes its orders first: an activation is its orders, then its moves, then its fire.",
          tables.ACTIVATIONS)
    st = step(_groups(), "order actor=a order=standard").state
    _says(_refused(st, "fire actor=a weapon=g target=t"), "move_first",
          "Attacker has not moved yet: the group moves before it fires.", tables.ACTIVATIONS)
    _says(_refused(st, "order actor=a order=weapons_free"), "orders_given",
          "Vess Warden has its Standard orders for this activation.", tables.ACTIVATIONS)
    st = step(st, "stay actor=a").state
    _says(_refused(st, "order actor=a order=standard"), "moved_already",
          "Vess Warden has moved: it is its fire step (declare weapon systems, then open fire).", tables.ACTIVATIONS)
    _says(_refused(st, "end_round actor=gm"), "end_phase_later",
          "The End phase comes once every battle group has activated: Vess Warden is activating now.",
          tables.END_PHASE)
    end = state(attacker(), ship(), phase="end")
    _says(_refused(end, "order actor=a order=standard"), "end_phase_now",
          "Every battle group has activated: the End phase of round 1 comes next (the GM's step).", tables.END_PHASE)
    _says(_refused(end, "end_round actor=a"), "gm_end_phase", "The End phase is the GM's step (actor=gm, nothing "
          "else).", tables.END_PHASE)


# --- RULES-NOTES orders, decision D3, DF-15 shields: an order not allowed ----------------------------


def test_an_order_not_allowed_now_is_refused():
    """Decision D3 (the game's Monitor rule): no Course Change or Max Thrust; "¡Activad los escudos!"
    (DF-15): shields are raised or lowered with the orders, for a group that has them."""
    st = state(attacker(monitor=True, group="Vess Warden"), ship(), phase="orders")
    _says(_refused(st, "order actor=a order=max_thrust"), "monitor",
          "Vess Warden has a Monitor: Monitors never take Course Change or Max Thrust orders.", tables.ORDERS_AND_SPIKES)
    st = state(attacker(passive=4, passive_switchable=True, group="Vess Warden"), ship(), phase="orders")
    _says(_refused(st, "order actor=a order=standard"), "shields_needed",
          "Vess Warden has switchable shields: give the order with shields=up or shields=down.", tables.ORDERS_AND_SPIKES)
    _says(_refused(_groups(), "order actor=a order=standard shields=up"),
          "no_shields", "No ship of Vess Warden has switchable shields: give the order without shields=.",
          tables.ORDERS_AND_SPIKES)
    _says(_refused(state(attacker(), ship(), phase="orders"), "order actor=a order=full_speed"), "no_such_order",
          "There is no order 'full_speed': standard, weapons_free, active_scan, silent_running, station_keeping, "
          "course_change, max_thrust.", tables.ORDERS_AND_SPIKES)


# --- decision D4 and issue 11: moves and layers -----------------------------------------------------


def _moving(**kw):
    kw.setdefault("order", "standard")
    return state(attacker(x=20, y=20, thrust=10, **kw), ship(), phase="move")


def test_a_move_beyond_the_allowance_or_the_turn_or_off_the_table_is_refused():
    """Decision D4: a straight move of at most the order's allowance (Thrust under Standard orders),
    turning at most the order's limit (45°), to a point on the table; the ships of a group move one by one."""
    _says(_refused(_moving(), "move actor=a x=#20 y=#9"), "too_far",
          "Attacker can move 10\" under Standard orders; 20,9 is 11.0\" away.", tables.MOVEMENT)
    _says(_refused(_moving(), "move actor=a x=#28 y=#20"), "turn_too_far",
          "Attacker may turn at most 45° under Standard orders; 28,20 lies 90° off its heading.", tables.MOVEMENT)
    _says(_refused(_moving(), "move actor=a x=#20 y=#60"), "off_table",
          "20,60 is off the 48\" × 48\" table.", tables.MOVEMENT)
    two = state(attacker(x=20, y=20, order="standard", group="G"), ship("a2", "blue", x=30, y=20, order="standard",
                                                                         group="G"), ship(), phase="move")
    _says(_refused(two, "stay actor=a2"), "moves_later", "Attacker moves first: the group's ships move one by one.",
          tables.MOVEMENT)
    _says(_refused(step(two, "stay actor=a").state, "stay actor=a"), "moved",
          "Attacker has moved this activation: A2 moves now.", tables.MOVEMENT)


def test_a_layer_the_ship_cannot_change_to_is_refused():
    """Issue 11 and decision D4: up one layer costs 4" of Thrust, only Atmospheric ships enter the
    Atmosphere; "Tabla de Daño incapacitante", Engines disabled (DF-35): no turn, no orbit change."""
    _says(_refused(_moving(layer="low"), "move actor=a x=#20 y=#20 layer=atmosphere"), "not_atmospheric",
          "Only Atmospheric ships enter the Atmosphere: Attacker is not one.", tables.MOVEMENT)
    _says(_refused(_moving(layer="low", order="station_keeping"), "move actor=a x=#20 y=#20 layer=high"), "up_costs",
          "Going up to High orbit costs 4\" of Thrust: Attacker can move 2\" now.", tables.MOVEMENT)
    _says(_refused(_moving(effects=("engines_disabled",)), "move actor=a x=#20 y=#20 layer=low"),
          "engines_disabled_layer", "Attacker's engines are disabled: it cannot change orbit.", tables.CRIPPLING_TABLE)
    _says(_refused(_moving(effects=("engines_disabled",)), "move actor=a x=#24 y=#20"), "engines_disabled_turn",
          "Attacker's engines are disabled: it cannot turn (24,20 lies 90° off its heading).", tables.CRIPPLING_TABLE)
    assert citation.read(tables.CRIPPLING_TABLE, "dropfleet").original == "Tabla de Daño incapacitante"


# --- DF-36, DF-45, D2, D3: a weapon system that cannot fire ------------------------------------------


def test_a_weapon_system_disabled_destroyed_or_declared_already_is_refused():
    """"Tabla de Daño incapacitante", Weapons disabled (DF-36): no fire at the next activation; the
    Dreadnought table's Weapon destroyed (DF-45); decision D2: each weapon system fires once, at one target."""
    st = state(attacker(weapons_offline=True), ship())
    _says(_refused(st, "fire actor=a weapon=g target=t"), "weapons_disabled",
          "Attacker's weapons are disabled: it cannot fire or launch in this activation.", tables.CRIPPLING_TABLE)
    st = state(attacker(effects=(Effect("weapon_destroyed", 0, "g"),), dreadnought=True), ship())
    _says(_refused(st, "fire actor=a weapon=g target=t"), "weapon_destroyed",
          "Attacker's Railgun is destroyed (Weapon destroyed).", tables.DREADNOUGHT_CRIPPLING_TABLE)
    assert citation.read(tables.DREADNOUGHT_CRIPPLING_TABLE, "dropfleet").original == \
        "Tabla de Daño incapacitante en Dreadnoughts"
    st = step(state(attacker(order="weapons_free"), ship()), "fire actor=a weapon=g target=t").state
    _says(_refused(st, "fire actor=a weapon=g target=t"), "declared",
          "Attacker's Railgun is declared already: each weapon system fires once an activation, at one target.",
          tables.FIRE)


def test_an_order_that_allows_no_more_weapon_systems_is_refused():
    """Decision D3: Standard orders fire one weapon system besides Close Action ones; Max Thrust Close
    Action only; Silent Running nothing."""
    guns = (weapon(), weapon(id="g2", name="Laser"))
    st = step(state(attacker(order="standard", weapons=guns), ship()), "fire actor=a weapon=g target=t").state
    _says(_refused(st, "fire actor=a weapon=g2 target=t"), "order_systems",
          "Attacker has declared Railgun: under Standard orders it fires no more weapon systems besides Close "
          "Action ones (a Dreadnought fires two where an order allows one).", tables.ORDERS_AND_SPIKES)
    _says(_refused(state(attacker(order="max_thrust"), ship()), "fire actor=a weapon=g target=t"), "order_fires_none",
          "Under Max Thrust orders Attacker fires Close Action weapons only.", tables.ORDERS_AND_SPIKES)
    st = state(attacker(order="silent_running", weapons=weapon(close_action=True)), ship())
    _says(_refused(st, "fire actor=a weapon=g target=t"), "no_close_action",
          "Under Silent Running orders Attacker fires no weapon system, not even Close Action ones.",
          tables.ORDERS_AND_SPIKES)


# --- RULES-NOTES DF-N01: range and arcs -------------------------------------------------------------


def test_a_target_out_of_reach_or_out_of_the_arc_is_refused():
    """DF-N01, RULES-NOTES: a weapon reaches the attacker's Scan + the target's Signature; Close Action
    weapons Scan alone; the target must be in the arc."""
    _says(_refused(state(attacker(y=30, order="standard"), ship()), "fire actor=a weapon=g target=t"),
          "out_of_reach", "Target is 30.0\" away: Railgun reaches 18\" (Attacker's Scan 12\" + Target's Signature "
          "6\").", tables.RANGE_AND_ARCS)
    st = state(attacker(y=15, order="standard", weapons=weapon(close_action=True, name="Flak")), ship())
    _says(_refused(st, "fire actor=a weapon=g target=t"), "out_of_reach_close",
          "Target is 15.0\" away: Flak is a Close Action weapon and reaches Attacker's Scan alone, 12\".",
          tables.RANGE_AND_ARCS)
    _says(_refused(state(attacker(heading=180, order="standard"), ship()), "fire actor=a weapon=g target=t"),
          "out_of_arc", "Target is outside the front arc of Attacker's Railgun: it lies 180° clockwise from "
          "Attacker's heading.", tables.RANGE_AND_ARCS)
    friend = ship("f", "blue", x=0, y=5)
    _says(_refused(state(attacker(order="standard"), ship(), friend), "fire actor=a weapon=g target=f"),
          "target_friend", "F is on Attacker's side.", tables.FIRE)
    assert citation.read(tables.RANGE_AND_ARCS, "dropfleet").ruling


# --- "Defensa de Punto" (DF-17..DF-20, D5): spending point defence ------------------------------------


def test_point_defence_is_spent_by_the_defender_in_a_way_the_successes_allow():
    """"Defensa de Punto": each success blocks a normal point, two a critical point (DF-17, DF-19);
    the defender chooses how (DF-20, decision D5), before the fire goes on."""
    st = state(attacker(), ship(), phase="pd", pending=PendingAttack("a", "g", "t", 2, 1, 2))
    refused = _refused(st, "spend_pd actor=t critical=#2")
    _says(refused, "pd_way",
          "Target has 2 point-defence successes against 2 normal and 1 critical points (a critical point takes "
          "two): the ways to spend them block 2 normal and 0 critical; 0 normal and 1 critical.", tables.POINT_DEFENCE)
    assert bracketed(refused).endswith("block ⟨⟨2 normal and 0 critical⟩; ⟨0 normal and 1 critical⟩⟩.⟩")
    _says(_refused(st, "spend_pd actor=a critical=#1"), "defender_spends",
          "Target spends the point defence: it is the ship under attack.", tables.POINT_DEFENCE)
    _says(_refused(st, "open_fire actor=a"), "pd_first",
          "Target must first spend its point defence against Attacker's Railgun.", tables.POINT_DEFENCE)
    assert citation.read(tables.POINT_DEFENCE, "dropfleet").original == "Defensa de Punto (PD)"


# --- where a GM meets them --------------------------------------------------------------------------


def test_the_refusal_is_the_core_s_and_the_example_scenario_requires_its_words():
    """Decision D1 and docs/scenarios.md ("A refused action"): the runner, scenario files and the dice
    entry refuse through ``check_legal``; the example scenario's refused move names why."""
    st = _groups()
    action = Action.parse("stay actor=a")
    assert refusal_of(RULESET, st, action) == refusals.refusal(st, action) == RULESET.refusal(st, action)
    result = run_scenario(load_scenario(SCENARIO))
    said = [s["refused"] for s in result["steps"] if s.get("refused")]
    assert len(said) == 1 and "Sable Shroud takes its orders first: an activation is its orders, then its moves, " \
        "then its fire. (Ruling: Activations)" in said[0]


# --- every reason agrees with the legality check ---------------------------------------------------


def test_no_legal_action_has_a_reason_and_every_refused_one_has_one():
    """Every section: the refusal asks what the legality check asks, so it never names a reason for a
    legal action, and names one for each action legal at another step of the fight and not now (two
    bot fights of each example, 30 of those actions at each step)."""
    reasons_agree(RULESET, refusals.refusal, [RULESET.example_setup(v) for v in (0, 1)], steps=300, sample=30,
                  fights=2)


def test_a_named_move_is_refused_where_the_order_or_the_engines_forbid_the_turn():
    """Decision D21 (the named moves on buttons, built on D4's movement): a turn button only where the
    order lets the ship turn; Max Thrust turns not at all; a named move that does not exist is named."""
    st = step(_groups(), "order actor=a order=max_thrust").state
    _says(_refused(st, "manoeuvre actor=a way=left"), "no_turn",
          "Attacker may not turn under Max Thrust orders.", tables.MOVEMENT)
    _says(_refused(st, "manoeuvre actor=a way=sideways"), "no_such_move",
          "There is no named move 'sideways': ahead, half_ahead, left, right.", tables.MOVEMENT)
    assert RULESET.is_legal(st, Action.parse("manoeuvre actor=a way=ahead"))
    _says(_refused(st, "manoeuvre actor=t way=ahead"), "group_later",
          "It is Vess Warden's activation: Target's group activates later this round (the sides take turns, group "
          "by group).", tables.ACTIVATIONS)
