"""The turn: battle groups activate in turn by side, each with an order, a move and its fire;
then the End phase.  What the seed leaves to the rest of the game is decided here and
written down in docs/rulesets/dropfleet.md (decisions D1..D12).

Every action is declared once: :func:`order_options`, :func:`check_move`,
:func:`fire_options` are read by the action list, the legality check, ``apply`` and the
bot alike.
"""
from __future__ import annotations

import functools
import math

from rulesets.core.engine import IllegalAction
from rulesets.core.messages import Message, msg
from rulesets.core.state import clone

from . import damage as damage_rules
from . import geometry
from . import ships as ship_rules
from . import tables, terms
from .state import Declared, DropfleetState, PendingAttack, Ship

#: a move may miss the allowed turn by the width of a whole-inch grid square (decision D4)
GRID_SLACK = 0.71


# --- groups and sides ---------------------------------------------------------------

def groups_in_play(state: DropfleetState, side: str | None = None) -> list[str]:
    out = []
    for s in state.ships:
        if s.in_play and (side is None or s.side == side) and s.group not in out:
            out.append(s.group)
    return out


def group_ships(state, group: str) -> list[Ship]:
    return [s for s in state.ships if s.group == group and not s.destroyed]


def lead(state, group: str) -> Ship | None:
    for s in state.ships:
        if s.group == group and not s.destroyed:
            return s
    return None


def next_group(state: DropfleetState, after_side: str | None) -> str | None:
    """The next group to activate: the other side's if it has one waiting, else the same side's (D1)."""
    return _next_group(state.ships, state.activated, state.sides, state.first_side, after_side)


def _next_group(ships, activated, sides, first_side, after_side):
    waiting: dict[str, list[str]] = {}
    for s in ships:  # each side's groups in play not activated yet, in the ships' order
        if not s.destroyed and s.group not in activated:
            groups = waiting.setdefault(s.side, [])
            if s.group not in groups:
                groups.append(s.group)
    order = list(sides)
    if after_side in order:
        i = order.index(after_side)
        order = order[i + 1:] + order[:i + 1]
    else:
        i = order.index(first_side) if first_side in order else 0
        order = order[i:] + order[:i]
    for side in order:
        if waiting.get(side):
            return waiting[side][0]
    return None


def side_of_group(state, group: str) -> str:
    return next(s.side for s in state.ships if s.group == group)


# --- orders (RULES-NOTES orders; DF-15 shields) ---------------------------------------

def order_options(state: DropfleetState) -> list[tuple[str, str | None]]:
    """(order, shields) pairs the active group may choose.  Monitors never Course Change or Max
    Thrust (D3); shields "up"/"down" when a ship of the group has switchable passives (DF-15)."""
    ships = group_ships(state, state.group)
    monitor = any(s.profile.monitor for s in ships)
    switchable = any(s.profile.passive_switchable for s in ships)
    return list(_order_options(monitor, switchable))


@functools.lru_cache(maxsize=None)
def _order_options(monitor: bool, switchable: bool) -> tuple[tuple[str, str | None], ...]:
    out = []
    for key in tables.ORDERS:
        if monitor and key in ("course_change", "max_thrust"):
            continue
        for shields in (("up", "down") if switchable else (None,)):
            out.append((key, shields))
    return tuple(out)


def effective_order(ship: Ship, key: str) -> str:
    """Power leak: no special orders (DF-31); Power fluctuation: no Silent Running (DF-40)."""
    if ship.has("power_leak") and tables.ORDERS[key].special:
        return "standard"
    if ship.has("power_fluctuation") and key == "silent_running":
        return "standard"
    return key


def give_order(w: ship_rules.Work, group: str, key: str, shields: str | None) -> None:
    for ship in group_ships(w.state, group):
        ship = w.ship(ship.id)
        own = effective_order(ship, key)
        order = tables.ORDERS[own]
        changes: dict = {"order": own, "moved": False, "fired": ()}
        if ship.profile.passive_switchable and shields is not None:
            changes["shields_up"] = shields == "up"
        if order.spike == "silent":
            changes.update(silent=True, spike=tables.NO_SPIKE)
        elif order.spike == "clear_minor":
            changes.update(silent=False, spike=tables.NO_SPIKE if ship.spike == tables.MINOR else ship.spike)
        elif order.spike == "minor":
            changes.update(silent=False, spike=min(tables.MAJOR, ship.spike + 1))
        else:
            changes.update(silent=False, spike=tables.MAJOR)
        ship = w.put(ship, **changes)
        w.say(msg("dropfleet.order.taken", "{ship} takes {order} orders{instead}: signature {signature}\" ({spike}){shields}.",
                  ship=ship.name, order=terms.ORDER[own],
                  instead=msg("dropfleet.order.instead", " instead of {order}", order=terms.ORDER[key]) if own != key else "",
                  signature=ship_rules.signature(ship), spike=terms.SPIKE_WORDS[ship.spike, ship.silent],
                  shields=(SHIELDS_UP if ship.shields_up else SHIELDS_DOWN) if ship.profile.passive_switchable else ""),
              tables.ORDERS_AND_SPIKES)
        if ship.has("power_fluctuation") and order.special:
            rule = tables.CRIPPLING_ROWS["power_fluctuation"].rule
            amount = w.roll(1, 3, msg("dropfleet.order.power_fluctuation_roll", "{ship}: power fluctuation (D3)",
                                      ship=ship.name), rule).total
            damage_rules.hurt(w, ship.id, amount, POWER_FLUCTUATION, rule)
        if ship.has("engines_destroyed") and own in ("max_thrust", "course_change") and not w.ship(ship.id).destroyed:
            rule = tables.CRIPPLING_ROWS["engines_destroyed"].rule
            amount = w.roll(1, 3, msg("dropfleet.order.wrecked_engines_roll", "{ship}: strained wrecked engines (D3)",
                                      ship=ship.name), rule).total
            damage_rules.hurt(w, ship.id, amount, WRECKED_ENGINES, rule)


#: an order's notes and its costs, as the log says them (DF-15, DF-40, DF-44)
SHIELDS_UP = msg("dropfleet.order.shields_up", "; shields up")
SHIELDS_DOWN = msg("dropfleet.order.shields_down", "; shields down")
POWER_FLUCTUATION = msg("dropfleet.cause.power_fluctuation", "power fluctuation")
WRECKED_ENGINES = msg("dropfleet.cause.wrecked_engines", "its destroyed engines")


# --- movement (issue 11; decision D4) -------------------------------------------------

def allowance(ship: Ship) -> int:
    order = tables.ORDERS[ship.order or "standard"]
    if order.fixed_move is not None:
        return min(order.fixed_move, ship_rules.thrust(ship))
    return ship_rules.thrust(ship) * order.thrust_factor


def turn_limit(ship: Ship) -> int:
    if ship.has("engines_disabled"):
        return 0  # DF-35: cannot turn
    return tables.ORDERS[ship.order or "standard"].turn


def layer_choices(ship: Ship) -> list[str]:
    """Adjacent layers a ship may change to: needs the ability to turn and, for the Atmosphere,
    the Atmospheric rule (issue 11; DF-35 no orbit change with disabled engines)."""
    if turn_limit(ship) == 0:
        return []
    i = geometry.layer_index(ship.layer)
    out = []
    if i > 0 and allowance(ship) >= tables.LAYER_UP_COST:
        out.append(tables.LAYERS[i - 1])
    if i + 1 < len(tables.LAYERS) and (tables.LAYERS[i + 1] != tables.ATMOSPHERE or ship.profile.atmospheric):
        out.append(tables.LAYERS[i + 1])
    return out


def check_move(state: DropfleetState, ship: Ship, x: int, y: int, layer: str | None,
               budget: int | None = None, limit: int | None = None) -> Message | None:
    """Why the move is not allowed (None: it is).  ``budget`` and ``limit``, when given, stand for
    the ship's :func:`allowance` and :func:`turn_limit` (the bot weighing an order before giving it)."""
    if not (0 <= x <= state.width and 0 <= y <= state.height):
        return msg("dropfleet.illegal.off_table", "{x},{y} is off the {width}\" x {height}\" table.", x=x, y=y,
                   width=state.width, height=state.height)
    if budget is None:
        budget = allowance(ship)
    if layer and layer != ship.layer:
        if layer not in layer_choices(ship):
            return msg("dropfleet.illegal.layer", "{ship} cannot change to {layer} now.", ship=ship.name,
                       layer=terms.layer(layer))
        if geometry.layer_index(layer) < geometry.layer_index(ship.layer):
            budget -= tables.LAYER_UP_COST
    dist = geometry.distance(ship.x, ship.y, x, y)
    if dist > budget + 1e-9:
        return msg("dropfleet.illegal.too_far", "{ship} can move {budget}\" now; {x},{y} is {inches:.1f}\" away.",
                   ship=ship.name, budget=budget, x=x, y=y, inches=dist)
    if dist > 0:
        if limit is None:
            limit = turn_limit(ship)
        slack = math.degrees(math.asin(min(1.0, GRID_SLACK / dist)))
        if geometry.angle_between(geometry.bearing(ship.x, ship.y, x, y), ship.heading) > limit + slack:
            return msg("dropfleet.illegal.turn", "{ship} may turn at most {limit}° under {order} orders.", ship=ship.name,
                       limit=limit, order=terms.ORDER[ship.order or "standard"])
    return None


def move_targets(state: DropfleetState, ship: Ship, step: int = 2) -> list[tuple[int, int]]:
    """Whole-inch points the ship may reach, on a ``step``-inch grid (the board's clickable places)."""
    reach = allowance(ship)
    out = []
    x0, y0 = int(round(ship.x)), int(round(ship.y))
    for dx in range(-reach - reach % step, reach + 1, step):
        for dy in range(-reach - reach % step, reach + 1, step):
            x, y = x0 + dx, y0 + dy
            if (dx or dy) and check_move(state, ship, x, y, None) is None:
                out.append((x, y))
    return out


#: the named moves (decision D21), in the order the buttons list them: (way, turn: -1 left,
#: 0 straight, +1 right, the share of the allowance: 1 full, 2 half)
WAYS = (("ahead", 0, 1), ("half_ahead", 0, 2), ("left", -1, 1), ("right", 1, 1))


def named_turn(ship: Ship) -> int:
    """How far a named turn turns: the order's limit, at most 90° (Station Keeping turns any
    way; its buttons turn a quarter, the board gives any other spot)."""
    return min(turn_limit(ship), 90)


def named_moves(state: DropfleetState, ship: Ship) -> list[tuple[str, int, int]]:
    """(way, x, y) of each named move the ship may make now (decision D21): straight ahead its
    whole allowance and half of it, and turning left and right as far as its order allows
    (:func:`named_turn`) its whole allowance.  Each ends on a whole-inch point next to the spot
    (the farthest that is a legal move by :func:`check_move`); a move the table's edge cuts
    short stops on the last legal point before it.  Moves that end where an earlier one does are left out."""
    out: list[tuple[str, int, int]] = []
    budget = allowance(ship)
    turn = named_turn(ship)
    here = (int(round(ship.x)), int(round(ship.y)))
    taken = {here}
    for way, side, share in WAYS:
        if side and not turn:
            continue
        length = budget // share
        heading = ship.heading + side * turn
        for reach in range(length, 0, -1):
            px, py = geometry.point_at(ship.x, ship.y, heading, reach)
            x, y = int(round(px)), int(round(py))
            if (x, y) in taken:
                break  # where the ship stands or an earlier move ends: no move of its own
            # the whole-inch corners round the spot, the farthest legal one (then the nearest the spot)
            corners = sorted({(cx, cy) for cx in (math.floor(px), math.ceil(px)) for cy in (math.floor(py), math.ceil(py))},
                             key=lambda c: (-geometry.distance(ship.x, ship.y, *c), geometry.distance(px, py, *c)))
            spot = next((c for c in corners if c not in taken and check_move(state, ship, c[0], c[1], None) is None), None)
            if spot is not None:
                out.append((way, *spot))
                taken.add(spot)
                break
    return out


def named_move(state: DropfleetState, ship: Ship, way: str) -> tuple[int, int] | None:
    """The point the named move ``way`` takes the ship to now (None: not offered)."""
    return next(((x, y) for w, x, y in named_moves(state, ship) if w == way), None)


def do_move(w: ship_rules.Work, ship: Ship, x: int, y: int, layer: str | None) -> None:
    dist = geometry.distance(ship.x, ship.y, x, y)
    heading = int(round(geometry.bearing(ship.x, ship.y, x, y))) % 360 if dist > 0 else ship.heading
    new_layer = layer or ship.layer
    changed = layer and layer != w.state.ships[w.index[ship.id]].layer
    ship = w.put(ship, x=float(x), y=float(y), heading=heading, layer=new_layer, moved=True)
    w.say(msg("dropfleet.move.moved", "{ship} moves {inches:.1f}\" to {x},{y}, heading {heading}°{layer}.", ship=ship.name,
              inches=dist, x=x, y=y, heading=heading,
              layer=msg("dropfleet.move.to_layer", ", to {layer}", layer=terms.LAYER[new_layer]) if changed else ""),
          tables.MOVEMENT)


def mover(state: DropfleetState) -> Ship | None:
    group = state.group
    for s in state.ships:
        if s.group == group and not s.destroyed and not s.moved:
            return s
    return None


# --- fire (RULES-NOTES range and arcs; D2 weapon systems per order) -----------------

def systems_allowed(ship: Ship) -> int | None:
    order = tables.ORDERS[ship.order or "standard"]
    if order.systems is None:
        return None
    return order.systems * (2 if ship.profile.dreadnought and order.systems else 1)


def in_reach(attacker: Ship, weapon, target: Ship, scan: int | None = None, signature: int | None = None) -> bool:
    """Range (Scan + target Signature; Close Action: Scan alone) and arc (DF-N01).  ``scan`` and
    ``signature``, when given, are the attacker's :func:`ships.scan` and the target's
    :func:`ships.signature` (worked out once by a caller that asks for many weapons)."""
    if scan is None:
        scan = ship_rules.scan(attacker)
    if signature is None and not weapon.close_action:
        signature = ship_rules.signature(target)
    return reaches(geometry.sight(attacker.x, attacker.y, attacker.heading, target.x, target.y), weapon, scan, signature)


def reaches(seen: tuple, weapon, scan: int, signature: int | None) -> bool:
    """Whether a target seen at ``seen`` (:func:`geometry.sight`) with that ``signature`` is
    within the weapon's range (Scan + Signature; Close Action: Scan alone) and in its arc (DF-N01)."""
    return geometry.seen_within(seen, weapon.arc, scan if weapon.close_action else scan + signature)


def reach_of(attacker: Ship, weapon, target: Ship | None = None) -> int:
    return ship_rules.scan(attacker) + (0 if weapon.close_action or target is None else ship_rules.signature(target))


def can_fire(state: DropfleetState, ship: Ship, weapon_id: str, target: Ship) -> bool:
    """Whether the active group's ``ship`` may declare ``weapon_id`` at ``target`` now (the
    same conditions as :func:`fire_options`, for one choice)."""
    if ship.group != state.group or ship.destroyed or ship.weapons_offline or not target.in_play:
        return False
    if target.side == state.side or not ship_rules.weapon_usable(ship, weapon_id):
        return False
    if any(d.ship == ship.id and d.weapon == weapon_id for d in state.declared):
        return False
    weapon = ship_rules.weapon(ship, weapon_id)
    order = tables.ORDERS[ship.order or "standard"]
    if weapon.close_action:
        if not order.close_action:
            return False
    else:
        allowed = systems_allowed(ship)
        used = sum(1 for d in state.declared if d.ship == ship.id and not ship_rules.weapon(ship, d.weapon).close_action)
        if allowed is not None and used >= allowed:
            return False
    return in_reach(ship, weapon, target)


def fire_options(state: DropfleetState) -> list[tuple[Ship, object, Ship]]:
    """(attacker, weapon, target) for every weapon system the group may still declare."""
    out = []
    side = state.side
    enemies = [s for s in state.ships if not s.destroyed and s.side != side]
    signatures = [ship_rules.signature(e) for e in enemies]
    declared = {(d.ship, d.weapon) for d in state.declared}
    for ship in group_ships(state, state.group):
        if ship.weapons_offline:
            continue  # DF-36
        order = tables.ORDERS[ship.order or "standard"]
        allowed = systems_allowed(ship)
        used = sum(1 for d in state.declared if d.ship == ship.id and not ship_rules.weapon(ship, d.weapon).close_action)
        scan = ship_rules.scan(ship)
        damaged = bool(ship.effects)
        sights = None  # each enemy's distance and direction, once for all the ship's weapons
        for weapon in ship.profile.weapons:
            if (ship.id, weapon.id) in declared or (damaged and not ship_rules.weapon_usable(ship, weapon.id)):
                continue
            close = weapon.close_action
            if close:
                if not order.close_action:
                    continue
            elif allowed is not None and used >= allowed:
                continue
            if sights is None:
                sights = [geometry.sight(ship.x, ship.y, ship.heading, e.x, e.y) for e in enemies]
            for target, signature, seen in zip(enemies, signatures, sights):
                if reaches(seen, weapon, scan, signature):
                    out.append((ship, weapon, target))
    return out


def resolve(state: DropfleetState, w: ship_rules.Work) -> DropfleetState:
    """Resolve the declared weapon systems in order from ``state.resolving``; pause when a
    defender must spend point defence (DF-20); end the activation when all are done."""
    w.in_attack = True
    index = state.resolving
    while index < len(state.declared):
        d = state.declared[index]
        index += 1
        attacker, target = w.ship(d.ship), w.ship(d.target)
        weapon = ship_rules.weapon(attacker, d.weapon)
        if target.destroyed:
            w.say(msg("dropfleet.fire.target_gone", "{ship}'s {weapon} has no target left: {target} is gone.",
                      ship=attacker.name, weapon=weapon.name, target=target.name), tables.FIRE)
            continue
        s = damage_rules.shot(attacker, weapon, target)
        normal_hits, critical_hits = damage_rules.roll_hits(w, attacker, weapon, target, s)
        normal = damage_rules.roll_damage(w, normal_hits, weapon.damage, weapon.name)
        critical = damage_rules.roll_damage(w, critical_hits, weapon.damage, weapon.name, critical=True)
        if normal_hits + critical_hits:
            w.say(msg("dropfleet.fire.damage", "{weapon} deals {normal} normal and {critical} critical Hull damage before saves.",
                      weapon=weapon.name, normal=normal, critical=critical), tables.TOTAL_DAMAGE)
        successes = damage_rules.roll_point_defence(w, target, s, normal, critical)
        options = damage_rules.pd_options(normal, critical, successes) if successes else [(0, 0)]
        if len(options) > 1 and normal and critical:
            pending = PendingAttack(d.ship, d.weapon, d.target, normal, critical, successes)
            return finish(w, state, phase="pd", pending=pending, resolving=index)
        damage_rules.finish_attack(w, attacker.name, target.id, normal, critical, s, max(options))
    return end_activation(w, state)  # it sets ``resolving`` back to 0


def spend_pd(state: DropfleetState, w: ship_rules.Work, critical_blocked: int) -> DropfleetState:
    p = state.pending
    attacker, target = w.ship(p.ship), w.ship(p.target)
    s = damage_rules.shot(attacker, ship_rules.weapon(attacker, p.weapon), target)
    options = damage_rules.pd_options(p.normal, p.critical, p.successes)
    chosen = next(o for o in options if o[1] == critical_blocked)
    w.in_attack = True
    damage_rules.finish_attack(w, attacker.name, target.id, p.normal, p.critical, s, chosen)
    return resolve(clone(state, phase="fire", pending=None), w)


def end_activation(w: ship_rules.Work, state: DropfleetState) -> DropfleetState:
    """Crippling from the attacks (DF-26, DF-N09: skipped by a ship they destroyed), then the
    next group or the End phase."""
    w.in_attack = False
    for ship_id in w.attacked:
        if not w.ship(ship_id).destroyed:
            damage_rules.settle_crippling(w, ship_id)
    for ship in group_ships(state, state.group):
        ship = w.ship(ship.id)
        if ship.offline_pending:
            w.put(ship, offline_pending=False)
        elif ship.weapons_offline:
            w.put(ship, weapons_offline=False)
    w.attacked = ()
    activated = state.activated + (state.group,)
    if state.over or _sole_side(w.ships, state.sides) is not _PLAYING:  # the fight ends here
        return finish(w, state, activated=activated, declared=(), resolving=0, pending=None, phase="orders")
    # :func:`finish`, then :func:`next_group` and :func:`begin_activation` on what it gives, in one copy
    following = _next_group(w.ships, activated, state.sides, state.first_side, state.side)
    if following is None:
        group, side, phase = "", "", "end"
    else:
        group, side, phase = following, next(s.side for s in w.ships if s.group == following), "orders"
    return clone(state, ships=w.ships, attacked=w.attacked, explosions=w.explosions, activated=activated,
                  declared=(), resolving=0, pending=None, phase=phase, group=group, side=side)


def begin_activation(state: DropfleetState, group: str) -> DropfleetState:
    return clone(state, group=group, side=side_of_group(state, group), phase="orders")


def end_round(state: DropfleetState, w: ship_rules.Work) -> DropfleetState:
    w.say(msg("dropfleet.end.round", "End phase of round {round}.", round=state.round), tables.DAMAGE_CONTROL)
    damage_rules.end_phase(w)
    state = finish(w, state)
    if state.over:
        return state
    if state.round >= state.max_rounds:
        return decide_on_points(w, state)
    first = state.sides[state.round % len(state.sides)]
    state = clone(state, round=state.round + 1, activated=(), first_side=first,
                   ships=[s if not s.moved else clone(s, moved=False) for s in state.ships])
    group = next_group(state, None)
    if group is None:
        return clone(state, over=True)
    return begin_activation(state, group)


def strength(state: DropfleetState, side: str) -> float:
    """Hull left of the side's starting Hull (the simulation figure)."""
    ships = [s for s in state.ships if s.side == side]
    total = sum(s.profile.hull for s in ships)
    return sum(s.hull for s in ships if s.in_play) / total if total else 0.0


def decide_on_points(w: ship_rules.Work, state: DropfleetState) -> DropfleetState:
    """The round limit: the side with the larger share of its Hull left wins; equal shares draw (D10)."""
    scores = {side: strength(state, side) for side in state.sides}
    best = max(scores.values())
    leaders = [side for side, v in scores.items() if v == best]
    winner = leaders[0] if len(leaders) == 1 else None
    left: Message | str = ""
    for side, v in scores.items():
        share = msg("dropfleet.end.hull_left", "{side} {share:.0%} Hull left", side=side, share=v)
        left = share if not left else msg("dropfleet.end.and", "{before}, {next}", before=left, next=share)
    w.say(msg("dropfleet.end.round_limit", "Round limit reached: {scores}; {result}", scores=left,
              result=msg("dropfleet.end.wins", "{side} wins.", side=winner) if winner else DRAW), tables.ROUND_LIMIT)
    return clone(state, over=True, winner=winner, phase="over")


DRAW = msg("dropfleet.end.draw", "a draw.")


def finish(w: ship_rules.Work, state: DropfleetState, **changes) -> DropfleetState:
    """The state with the work's ships (and ``changes``); over when at most one side has ships in play."""
    state = clone(state, ships=w.ships, attacked=w.attacked, explosions=w.explosions, **changes)
    if state.over:
        return state
    winner = _sole_side(state.ships, state.sides)
    if winner is _PLAYING:
        return state
    w.say(msg("dropfleet.end.holds_the_field", "{side} holds the field.", side=winner) if winner else NO_SHIP_LEFT,
          tables.CATASTROPHIC_DAMAGE)
    return clone(state, over=True, winner=winner, phase="over")


NO_SHIP_LEFT = msg("dropfleet.end.no_ship_left", "No ship is left.")

#: what :func:`_sole_side` answers while two sides have ships in play
_PLAYING = object()


def _sole_side(ships, sides):
    """The one side with ships in play (None: no ship is left), or :data:`_PLAYING` while two have."""
    winner = None
    for s in ships:
        if not s.destroyed and s.side in sides:
            if winner is None:
                winner = s.side
            elif s.side != winner:
                return _PLAYING
    return winner


def require(condition: bool, message: Message | str) -> None:
    if not condition:
        raise IllegalAction(message)
