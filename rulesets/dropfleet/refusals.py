"""Why the rules refuse an action now: the reason in words and the rule that forbids it (issue 25).

:meth:`engine.DropfleetRuleset.refusal` (the core contract's ``refusal``) calls :func:`refusal` for
an action that ``is_legal`` refused.  Each reason asks the same predicates the legality check asks
(:func:`sequence.order_options`, :func:`sequence.check_move`, :func:`sequence.can_fire`,
:func:`damage.pd_options`), in the order a GM would look: is it this step of the activation, is it
this group's activation and this ship's turn in it (and whose it is), then what the action itself
needs (an order the group may take, a move within the allowance and the turn, a layer it may go to,
a weapon system that works, has not fired and is allowed by the order, a target in reach and in the
arc).  A reason is a message (an id ``dropfleet.refused.<what>``, its English text with
``{placeholders}``, the parameters: :mod:`rulesets.core.messages`) and the citation of the seed
section, RULES-NOTES or decision (the citations of :mod:`.tables`).  None where no reason is found
(the core then says the action is not one the rules allow).  Pure Python: no Django import.
"""
from __future__ import annotations

import math
from typing import Final

from rulesets.core.engine import Action, Refusal
from rulesets.core.messages import Message, msg, chain

from . import damage as damage_rules
from . import geometry, sequence, tables, terms
from . import ships as ship_rules
from .state import DropfleetState, Ship

#: the step of an activation (or of the round) each action belongs to
PHASE_OF: Final = {"order": "orders", "move": "move", "manoeuvre": "move", "stay": "move", "fire": "fire", "open_fire": "fire",
                   "spend_pd": "pd", "end_round": "end"}


def _no(ident: str, text: str, rule: str, **params) -> Refusal:
    return Refusal(msg(ident, text, **params), rule)


def _ship(state: DropfleetState, ship_id) -> Ship | None:
    return next((s for s in state.ships if s.id == ship_id), None)


def _order_label(ship: Ship) -> Message:
    return terms.ORDER[ship.order or "standard"]


def _one_after_another(words: list, ident: str = "dropfleet.refused.list_and", text: str = "{first}, {then}") -> Message | str:
    """Parts of a list one after the other ("High orbit, Low orbit, Atmosphere"): each pair a
    message, so each language chooses its own separator."""
    return chain(words, ident, text)


#: who gives what: orders and open fire are the group's, given by its lead ship
_LEAD_GIVES: Final = {
    "order": ("dropfleet.refused.lead_ship.orders", "Orders are given by {lead}, the lead ship of {group}."),
    "open_fire": ("dropfleet.refused.lead_ship.open_fire", "Open fire is given by {lead}, the lead ship of {group}."),
}


def refusal(state: DropfleetState, action: Action) -> Refusal | None:
    if state.over:
        return None                                   # the core's "the fight is over"
    kind = action.kind
    if kind == "override":
        if action.actor:
            return _no("dropfleet.refused.override_gm", "Only the GM overrides, for no ship: leave the actor out.", tables.GM_OVERRIDE)
        return None
    if kind not in PHASE_OF:
        return None
    if state.phase != PHASE_OF[kind]:
        return _wrong_step(state, kind)
    return _KINDS[kind](state, action)


# --- the step of the activation, and whose it is ------------------------------------------------


def _wrong_step(state: DropfleetState, kind: str) -> Refusal | None:
    """Decision D1: group by group, each activation its orders, its moves, then its fire (point
    defence spent between attacks, DF-20); the End phase once every group has activated (D8)."""
    if state.phase == "pd":
        p = state.pending
        attacker = _ship(state, p.ship)
        return _no("dropfleet.refused.pd_first", "{defender} must first spend its point defence against {attacker}'s {weapon}.",
                   tables.POINT_DEFENCE, defender=_ship(state, p.target).name, attacker=attacker.name,
                   weapon=ship_rules.weapon(attacker, p.weapon).name)
    if state.phase == "end":
        return _no("dropfleet.refused.end_phase_now", "Every battle group has activated: the End phase of round {round} comes next "
                   "(the GM's step).", tables.END_PHASE, round=state.round)
    if kind == "end_round":
        return _no("dropfleet.refused.end_phase_later", "The End phase comes once every battle group has activated: {group} is "
                   "activating now.", tables.END_PHASE, group=state.group)
    if kind == "spend_pd":
        return _no("dropfleet.refused.no_pd_now", "No attack is waiting for point defence now.", tables.POINT_DEFENCE)
    if state.phase == "orders":
        return _no("dropfleet.refused.orders_first", "{group} takes its orders first: an activation is its orders, then its moves, "
                   "then its fire.", tables.ACTIVATIONS, group=state.group)
    if state.phase == "move":
        if kind == "order":
            lead = sequence.lead(state, state.group)
            return _no("dropfleet.refused.orders_given", "{group} has its {order} orders for this activation.", tables.ACTIVATIONS,
                       group=state.group, order=_order_label(lead))
        return _no("dropfleet.refused.move_first", "{ship} has not moved yet: the group moves before it fires.", tables.ACTIVATIONS,
                   ship=sequence.mover(state).name)
    return _no("dropfleet.refused.moved_already", "{group} has moved: it is its fire step (declare weapon systems, then open fire).",
               tables.ACTIVATIONS, group=state.group)


def _not_this_group(state: DropfleetState, ship: Ship) -> Refusal:
    """The ship is not of the activating group (decision D1: the sides take turns, group by group)."""
    if ship.destroyed:
        return _destroyed(ship)
    if ship.group in state.activated:
        return _no("dropfleet.refused.group_activated", "It is {group}'s activation: {ship}'s group has activated this round.",
                   tables.ACTIVATIONS, group=state.group, ship=ship.name)
    return _no("dropfleet.refused.group_later", "It is {group}'s activation: {ship}'s group activates later this round (the sides "
               "take turns, group by group).", tables.ACTIVATIONS, group=state.group, ship=ship.name)


def _destroyed(ship: Ship) -> Refusal:
    return _no("dropfleet.refused.destroyed", "{ship} is destroyed.", tables.CATASTROPHIC_DAMAGE, ship=ship.name)


def _lead_only(state: DropfleetState, action: Action) -> Refusal | None:
    """Orders and open fire are the group's, given by its lead ship (None: the actor is the lead)."""
    lead = sequence.lead(state, state.group)
    if lead is None or action.actor == lead.id:
        return None
    ship = _ship(state, action.actor)
    if ship is None:
        return None
    if ship.group != state.group or ship.destroyed:
        return _not_this_group(state, ship)
    ident, text = _LEAD_GIVES[action.kind]
    return _no(ident, text, tables.ACTIVATIONS, lead=lead.name, group=state.group)


# --- orders -------------------------------------------------------------------------------------


def _order(state: DropfleetState, action: Action) -> Refusal | None:
    """RULES-NOTES orders, decision D3 (Monitors), DF-15 (shields raised with the orders)."""
    not_lead = _lead_only(state, action)
    if not_lead is not None:
        return not_lead
    if not set(dict(action.params)) <= {"order", "shields"}:
        return None
    key, shields = action.get("order"), action.get("shields")
    if key not in tables.ORDERS:
        return _no("dropfleet.refused.no_such_order", "There is no order '{order}': {orders}.", tables.ORDERS_AND_SPIKES,
                   order=str(key), orders=", ".join(o.key for o in tables.ORDERS.values()))
    ships = sequence.group_ships(state, state.group)
    if key in ("course_change", "max_thrust") and any(s.profile.monitor for s in ships):
        return _no("dropfleet.refused.monitor", "{group} has a Monitor: Monitors never take Course Change or Max Thrust orders.",
                   tables.ORDERS_AND_SPIKES, group=state.group)
    switchable = any(s.profile.passive_switchable for s in ships)
    if switchable and shields not in ("up", "down"):
        return _no("dropfleet.refused.shields_needed", "{group} has switchable shields: give the order with shields=up or "
                   "shields=down.", tables.ORDERS_AND_SPIKES, group=state.group)
    if not switchable and shields is not None:
        return _no("dropfleet.refused.no_shields", "No ship of {group} has switchable shields: give the order without shields=.",
                   tables.ORDERS_AND_SPIKES, group=state.group)
    return None


# --- moves --------------------------------------------------------------------------------------


def _move(state: DropfleetState, action: Action) -> Refusal | None:
    """Decision D4 (:func:`sequence.check_move`, in the same order): on the table, a layer the ship
    may change to, within the order's allowance, turning at most the order's limit."""
    mover = sequence.mover(state)
    if mover is None:
        return None
    if action.actor != mover.id:
        ship = _ship(state, action.actor)
        if ship is None:
            return None
        if ship.group != state.group or ship.destroyed:
            return _not_this_group(state, ship)
        if ship.moved:
            return _no("dropfleet.refused.moved", "{ship} has moved this activation: {mover} moves now.", tables.MOVEMENT,
                       ship=ship.name, mover=mover.name)
        return _no("dropfleet.refused.moves_later", "{mover} moves first: the group's ships move one by one.", tables.MOVEMENT,
                   mover=mover.name)
    if action.kind == "stay" or not set(dict(action.params)) <= {"x", "y", "layer"}:
        return None
    x, y, layer = action.get("x"), action.get("y"), action.get("layer")
    if not (isinstance(x, int) and isinstance(y, int)):
        return None
    ship = mover
    if not (0 <= x <= state.width and 0 <= y <= state.height):
        return _no("dropfleet.refused.off_table", "{x},{y} is off the {width}\" × {height}\" table.", tables.MOVEMENT,
                   x=x, y=y, width=state.width, height=state.height)
    budget = sequence.allowance(ship)
    up = ""
    if layer and layer != ship.layer:
        if layer not in sequence.layer_choices(ship):
            return _no_layer(ship, layer)
        if geometry.layer_index(layer) < geometry.layer_index(ship.layer):
            budget -= tables.LAYER_UP_COST
            up = "yes"
    dist = geometry.distance(ship.x, ship.y, x, y)
    if dist > budget + 1e-9:
        if up:
            return _no("dropfleet.refused.too_far_going_up", "{ship} can move {budget}\" under {order} orders once it has paid 4\" "
                       "to go up a layer; {x},{y} is {dist}\" away.", tables.MOVEMENT, ship=ship.name, budget=budget,
                       order=_order_label(ship), x=x, y=y, dist=f"{dist:.1f}")
        return _no("dropfleet.refused.too_far", "{ship} can move {budget}\" under {order} orders; {x},{y} is {dist}\" away.",
                   tables.MOVEMENT, ship=ship.name, budget=budget, order=_order_label(ship), x=x, y=y,
                   dist=f"{dist:.1f}")
    if dist > 0:
        limit = sequence.turn_limit(ship)
        slack = math.degrees(math.asin(min(1.0, sequence.GRID_SLACK / dist)))
        off = geometry.angle_between(geometry.bearing(ship.x, ship.y, x, y), ship.heading)
        if off > limit + slack:
            if ship.has("engines_disabled"):
                return _no("dropfleet.refused.engines_disabled_turn", "{ship}'s engines are disabled: it cannot turn ({x},{y} lies "
                           "{off}° off its heading).", tables.CRIPPLING_TABLE, ship=ship.name, x=x, y=y,
                           off=round(off))
            return _no("dropfleet.refused.turn_too_far", "{ship} may turn at most {limit}° under {order} orders; {x},{y} lies {off}° "
                       "off its heading.", tables.MOVEMENT, ship=ship.name, limit=limit, order=_order_label(ship),
                       x=x, y=y, off=round(off))
    return None


def _manoeuvre(state: DropfleetState, action: Action) -> Refusal | None:
    """Decision D21: the named moves (full ahead, half ahead, a turn each way) of the ship that
    moves now; a turn only where its order lets it turn."""
    not_mover = _move(state, action)          # another ship's move: the same reasons as a move
    if not_mover is not None:
        return not_mover
    mover, way = sequence.mover(state), action.get("way")
    if mover is None or set(dict(action.params)) != {"way"}:
        return None
    ways = [w for w, _, _ in sequence.WAYS]
    if way not in ways:
        return _no("dropfleet.refused.no_such_move", "There is no named move '{way}': {ways}.", tables.MOVEMENT,
                   way=str(way), ways=", ".join(ways))
    if sequence.named_move(state, mover, way) is not None:
        return None
    if way in ("left", "right") and not sequence.named_turn(mover):
        if mover.has("engines_disabled"):
            return _no("dropfleet.refused.engines_disabled_turn_named", "{ship}'s engines are disabled: it cannot turn.",
                       tables.CRIPPLING_TABLE, ship=mover.name)
        return _no("dropfleet.refused.no_turn", "{ship} may not turn under {order} orders.", tables.MOVEMENT,
                   ship=mover.name, order=_order_label(mover))
    return _no("dropfleet.refused.move_not_offered", "{ship} has no room for that move here (the table's edge, or another move "
               "ends on the same spot): pick the spot on the board.", tables.MOVEMENT, ship=mover.name)


def _no_layer(ship: Ship, layer) -> Refusal | None:
    """Why ``layer`` is not among :func:`sequence.layer_choices` (issue 11, decision D4, DF-35)."""
    labels = _one_after_another([terms.LAYER[key] for key in tables.LAYERS])
    if layer not in tables.LAYERS:
        return _no("dropfleet.refused.no_such_layer", "There is no layer '{layer}': {layers}.", tables.MOVEMENT, layer=str(layer),
                   layers=labels)
    if sequence.turn_limit(ship) == 0:
        if ship.has("engines_disabled"):
            return _no("dropfleet.refused.engines_disabled_layer", "{ship}'s engines are disabled: it cannot change orbit.",
                       tables.CRIPPLING_TABLE, ship=ship.name)
        return _no("dropfleet.refused.no_turn_no_layer", "Under {order} orders {ship} cannot turn, nor change layer.", tables.MOVEMENT,
                   order=_order_label(ship), ship=ship.name)
    here, there = geometry.layer_index(ship.layer), geometry.layer_index(layer)
    if abs(here - there) > 1:
        return _no("dropfleet.refused.one_layer", "{layer} is not next to {here}: a ship changes one layer at a time.", tables.MOVEMENT,
                   layer=terms.LAYER[layer], here=terms.LAYER[ship.layer])
    if there < here:
        return _no("dropfleet.refused.up_costs", "Going up to {layer} costs 4\" of Thrust: {ship} can move {budget}\" now.",
                   tables.MOVEMENT, layer=terms.LAYER[layer], ship=ship.name, budget=sequence.allowance(ship))
    if layer == tables.ATMOSPHERE and not ship.profile.atmospheric:
        return _no("dropfleet.refused.not_atmospheric", "Only Atmospheric ships enter the Atmosphere: {ship} is not one.",
                   tables.MOVEMENT, ship=ship.name)
    return None


# --- fire ---------------------------------------------------------------------------------------


def _fire(state: DropfleetState, action: Action) -> Refusal | None:
    """:func:`sequence.can_fire` in the same order: the active group's ship, its weapons not
    disabled (DF-36), a weapon system not destroyed (DF-45) and not declared yet (D2), allowed by
    the order (D3), at an enemy in play, within Scan + Signature and in the arc (DF-N01)."""
    if set(dict(action.params)) != {"weapon", "target"}:
        return None
    ship, target = _ship(state, action.actor), _ship(state, action.get("target"))
    if ship is None or target is None:
        return None
    if ship.group != state.group or ship.destroyed:
        return _not_this_group(state, ship)
    if ship.weapons_offline:
        return _no("dropfleet.refused.weapons_disabled", "{ship}'s weapons are disabled: it cannot fire or launch in this "
                   "activation.", tables.CRIPPLING_TABLE, ship=ship.name)
    if not target.in_play:
        return _no("dropfleet.refused.target_destroyed", "{target} is destroyed.", tables.CATASTROPHIC_DAMAGE, target=target.name)
    if target.side == state.side:
        return _no("dropfleet.refused.target_friend", "{target} is on {ship}'s side.", tables.FIRE, target=target.name, ship=ship.name)
    weapon_id = action.get("weapon")
    weapon = next((w for w in ship.profile.weapons if w.id == weapon_id), None)
    if weapon is None:
        return _no("dropfleet.refused.no_such_weapon", "{ship} has no weapon system {weapon} (its systems: {weapons}).", tables.FIRE,
                   ship=ship.name, weapon=str(weapon_id),
                   weapons=", ".join(f"{w.id} {w.name}" for w in ship.profile.weapons)
                   or msg("dropfleet.refused.no_weapons", "none"))
    if not ship_rules.weapon_usable(ship, weapon.id):
        return _no("dropfleet.refused.weapon_destroyed", "{ship}'s {weapon} is destroyed (Weapon destroyed).",
                   tables.DREADNOUGHT_CRIPPLING_TABLE, ship=ship.name, weapon=weapon.name)
    if any(d.ship == ship.id and d.weapon == weapon.id for d in state.declared):
        return _no("dropfleet.refused.declared", "{ship}'s {weapon} is declared already: each weapon system fires once an "
                   "activation, at one target.", tables.FIRE, ship=ship.name, weapon=weapon.name)
    order = tables.ORDERS[ship.order or "standard"]
    if weapon.close_action:
        if not order.close_action:
            return _no("dropfleet.refused.no_close_action", "Under {order} orders {ship} fires no weapon system, not even Close "
                       "Action ones.", tables.ORDERS_AND_SPIKES, order=terms.ORDER[order.key], ship=ship.name)
    else:
        allowed = sequence.systems_allowed(ship)
        declared = [ship_rules.weapon(ship, d.weapon) for d in state.declared if d.ship == ship.id]
        declared = [w for w in declared if not w.close_action]
        if allowed is not None and len(declared) >= allowed:
            if allowed == 0:
                words = ("Under {order} orders {ship} fires Close Action weapons only." if order.close_action
                         else "Under {order} orders {ship} fires no weapon system.")
                return _no("dropfleet.refused.order_fires_none", words, tables.ORDERS_AND_SPIKES, order=terms.ORDER[order.key], ship=ship.name)
            return _no("dropfleet.refused.order_systems", "{ship} has declared {declared}: under {order} orders it fires no more "
                       "weapon systems besides Close Action ones (a Dreadnought fires two where an order allows "
                       "one).", tables.ORDERS_AND_SPIKES, ship=ship.name,
                       declared=", ".join(w.name for w in declared), order=terms.ORDER[order.key])
    return _reach(ship, weapon, target)


def _reach(ship: Ship, weapon, target: Ship) -> Refusal | None:
    """RULES-NOTES DF-N01: a weapon reaches Scan + the target's Signature (Close Action: Scan
    alone), and the target must be in its arc (:func:`sequence.in_reach`)."""
    if sequence.in_reach(ship, weapon, target):
        return None
    dist, relative = geometry.sight(ship.x, ship.y, ship.heading, target.x, target.y)
    scan = ship_rules.scan(ship)
    if dist > sequence.reach_of(ship, weapon, target) + 1e-9:
        if weapon.close_action:
            return _no("dropfleet.refused.out_of_reach_close", "{target} is {dist}\" away: {weapon} is a Close Action weapon and "
                       "reaches {ship}'s Scan alone, {scan}\".", tables.RANGE_AND_ARCS, target=target.name,
                       dist=f"{dist:.1f}", weapon=weapon.name, ship=ship.name, scan=scan)
        return _no("dropfleet.refused.out_of_reach", "{target} is {dist}\" away: {weapon} reaches {reach}\" ({ship}'s Scan {scan}\" + "
                   "{target}'s Signature {signature}\").", tables.RANGE_AND_ARCS, target=target.name,
                   dist=f"{dist:.1f}", weapon=weapon.name, reach=sequence.reach_of(ship, weapon, target),
                   ship=ship.name, scan=scan, signature=ship_rules.signature(target))
    return _no("dropfleet.refused.out_of_arc", "{target} is outside the {arc} arc of {ship}'s {weapon}: it lies {bearing}° clockwise "
               "from {ship}'s heading.", tables.RANGE_AND_ARCS, target=target.name,
               arc=terms.ARC.get(weapon.arc, weapon.arc), ship=ship.name, weapon=weapon.name,
               bearing=round(relative or 0))


def _open_fire(state: DropfleetState, action: Action) -> Refusal | None:
    return _lead_only(state, action)


# --- point defence and the End phase ------------------------------------------------------------


def _spend_pd(state: DropfleetState, action: Action) -> Refusal | None:
    """DF-17..DF-20 and decision D5: the defender spends its successes, a normal point each or a
    critical point per two."""
    p = state.pending
    defender = _ship(state, p.target)
    if action.actor != p.target:
        return _no("dropfleet.refused.defender_spends", "{defender} spends the point defence: it is the ship under attack.",
                   tables.POINT_DEFENCE, defender=defender.name)
    options = damage_rules.pd_options(p.normal, p.critical, p.successes)
    if any(c == action.get("critical") for _, c in options):
        return None
    return _no("dropfleet.refused.pd_way", "{defender} has {successes} point-defence successes against {normal} normal and {critical} "
               "critical points (a critical point takes two): the ways to spend them block {ways}.",
               tables.POINT_DEFENCE, defender=defender.name, successes=p.successes, normal=p.normal,
               critical=p.critical, ways=_one_after_another(
                   [msg("dropfleet.refused.pd_way_one", "{normal} normal and {critical} critical", normal=n, critical=c)
                    for n, c in options], "dropfleet.refused.pd_way_or", "{first}; {then}"))


def _end_round(state: DropfleetState, action: Action) -> Refusal | None:
    if action.actor == "gm" and not action.params:
        return None
    return _no("dropfleet.refused.gm_end_phase", "The End phase is the GM's step (actor=gm, nothing else).", tables.END_PHASE)


_KINDS: Final = {"order": _order, "move": _move, "manoeuvre": _manoeuvre, "stay": _move, "fire": _fire, "open_fire": _open_fire,
                 "spend_pd": _spend_pd, "end_round": _end_round}
