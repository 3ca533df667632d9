"""The bot (simulations, auto-play).  Its policy, stated (docs/rulesets/dropfleet.md, D11):

* Orders: Weapons Free when an enemy could be within reach after a move (Scan + Thrust + the
  enemy's Signature), so it fires everything; otherwise Standard (no spike while closing);
  shields up always.
* Move: to the place, among a few (straight on or turning as far as it may towards the
  nearest enemy; a full, half or no move), where its weapons can fire at the highest expected
  damage; with nothing in reach, where the fewest enemies could reach it next, then the
  place closest to the nearest enemy (it does not walk into reach without firing).
* Fire: declare the weapon system and target of the highest expected unsaved damage, one
  at a time, until nothing is left; then open fire.
* Point defence: the target's ``pd_policy`` (``min_expected`` by default: block what is most
  likely to get through its saves).
It chooses without listing every legal action, and uses ``rng.random()`` only to break ties.
"""
from __future__ import annotations

import random

from rulesets.core.engine import Action

from . import damage as D
from . import geometry as G
from . import sequence as Q
from . import ships as S
from .model import DropfleetState, Ship
from .odds import expected_unsaved


#: the bot's last choice and the state it was made for (strong references: identities stay unique)
_CHOSEN: tuple = (None, None)


def chosen_for(state: DropfleetState, action: Action) -> bool:
    """Whether ``action`` is the very object this bot chose for this very state: its legality
    was derived from the conditions the legality check reads, so ``apply`` need not check it
    again (the runner's path, ``apply_checked``, checks every action anyway)."""
    chosen = _CHOSEN
    return chosen[1] is action and chosen[0] is state


def choose(state: DropfleetState, rng: random.Random) -> Action:
    global _CHOSEN
    action = _choose(state, rng)
    _CHOSEN = (state, action)
    return action


def _choose(state: DropfleetState, rng: random.Random) -> Action:
    if state.phase == "end":
        return Action.make("end_round", "gm")
    if state.phase == "pd":
        return pd_choice(state)
    if state.phase == "orders":
        return order_choice(state)
    if state.phase == "move":
        return move_choice(state, Q.mover(state))
    return fire_choice(state)


def _enemies(state, side):
    return [s for s in state.ships if s.in_play and s.side != side]


def order_choice(state: DropfleetState) -> Action:
    leader = Q.lead(state, state.group)
    ships = Q.group_ships(state, state.group)
    enemies = _enemies(state, state.side)
    close = False
    for ship in ships:
        if not ship.profile.weapons:
            continue
        reach = S.scan(ship) + S.thrust(ship)
        if any(G.distance(ship.x, ship.y, e.x, e.y) <= reach + S.signature(e) for e in enemies):
            close = True
    options = dict(Q.order_options(state))
    key = "weapons_free" if close and "weapons_free" in options else "standard"
    shields = "up" if options.get(key) is not None else None
    return Action.make("order", leader.id, order=key, shields=shields)


def _values(ship: Ship, enemies) -> list[tuple]:
    """(weapon, [(enemy, expected unsaved damage)]) for each usable weapon: what a shot is worth
    does not depend on where the ship stands, only whether it reaches."""
    out = []
    for weapon in ship.profile.weapons:
        if S.weapon_usable(ship, weapon.id):
            out.append((weapon, [(e, shot_value(ship, weapon, e)) for e in enemies]))
    return out


#: expected unsaved damage of a shot, by what :func:`damage.shot` reads of the attacker (its
#: layer and profile), the weapon and the target (frozen: a changed ship is a new object);
#: the entries hold the objects themselves, so an identity is never reused while cached
_VALUES: dict = {}


def shot_value(attacker: Ship, weapon, target: Ship) -> float:
    """``expected_unsaved(damage.shot(attacker, weapon, target))``, worked out once per
    activation: the move and the fire step of a group ask for the same shots."""
    profile = attacker.profile
    key = (attacker.layer, id(profile), id(weapon), id(target))
    hit = _VALUES.get(key)
    if hit is not None and hit[0] is profile and hit[1] is weapon and hit[2] is target:
        return hit[3]
    value = expected_unsaved(D.shot(attacker, weapon, target))
    if len(_VALUES) > 4096:
        _VALUES.clear()
    _VALUES[key] = (profile, weapon, target, value)
    return value


def _firepower(values, scan: int, x: float, y: float, heading: int) -> float:
    """Expected unsaved damage of the ship's weapons, each at its best target in reach from (x, y)."""
    total = 0.0
    for weapon, targets in values:
        best = 0.0
        for enemy, value in targets:
            if value <= best:
                continue
            reach = scan + (0 if weapon.close_action else S.signature(enemy))
            if G.within(x, y, enemy.x, enemy.y, reach) and G.in_arc(heading, x, y, enemy.x, enemy.y, weapon.arc):
                best = value
        total += best
    return total


def _threats(ship: Ship, enemies) -> list[tuple[float, float, int]]:
    """(x, y, reach) of each enemy: how far it could reach the ship in its next activation
    (its Scan + Thrust + the ship's Signature)."""
    sig = S.signature(ship)
    return [(e.x, e.y, S.scan(e) + S.thrust(e) + sig) for e in enemies]


def _exposure(threats, x: float, y: float) -> int:
    return sum(1 for ex, ey, reach in threats if G.distance(x, y, ex, ey) <= reach)


def move_choice(state: DropfleetState, ship: Ship) -> Action:
    enemies = _enemies(state, ship.side)
    nearest = min(enemies, key=lambda e: G.distance(ship.x, ship.y, e.x, e.y))
    values = _values(ship, enemies)
    threats = _threats(ship, enemies)
    scan = S.scan(ship)
    reach = Q.allowance(ship)
    limit = Q.turn_limit(ship)
    towards = G.bearing(ship.x, ship.y, nearest.x, nearest.y)
    offset = (towards - ship.heading + 180) % 360 - 180
    headings = {ship.heading, ship.heading + max(-limit, min(limit, offset))}
    best, best_score = None, None
    for heading in sorted(headings):
        for length in (reach, reach // 2):
            if length <= 0:
                continue
            x, y = G.point_at(ship.x, ship.y, heading, length)
            x, y = int(round(x)), int(round(y))
            if Q.check_move(state, ship, x, y, None) is not None:
                continue
            facing = int(round(G.bearing(ship.x, ship.y, x, y))) % 360 if (x, y) != (ship.x, ship.y) else ship.heading
            score = (_firepower(values, scan, x, y, facing), -_exposure(threats, x, y),
                     -G.distance(x, y, nearest.x, nearest.y))
            if best_score is None or score > best_score:
                best, best_score = (x, y), score
    stay_score = (_firepower(values, scan, ship.x, ship.y, ship.heading), -_exposure(threats, ship.x, ship.y),
                  -G.distance(ship.x, ship.y, nearest.x, nearest.y))
    if best is None or stay_score >= best_score:
        return Action.make("stay", ship.id)
    return Action.make("move", ship.id, x=best[0], y=best[1])


#: the last activation's choices, worth computing once: (its ships list, [(value, attacker, weapon, target)])
_FIRE_CACHE: list = [None, []]


def _fire_values(state: DropfleetState) -> list:
    """Every (value, attacker, weapon, target) open to the group when its fire step began, best first.

    Declaring changes no ship, so the declarations of one activation share the ships list;
    the list is kept (a strong reference: its identity cannot be reused) and compared by identity.
    """
    if _FIRE_CACHE[0] is not state.ships or not state.declared:
        values = [(shot_value(a, w, t), a, w, t) for a, w, t in Q.fire_options(state)]
        values.sort(key=lambda v: -v[0])
        _FIRE_CACHE[0], _FIRE_CACHE[1] = state.ships, values
    return _FIRE_CACHE[1]


def fire_choice(state: DropfleetState) -> Action:
    """The best shot still open: not declared yet, within the order's weapon systems (the ships
    have not changed since the values were worked out, so reach and arc still hold)."""
    declared = {(d.ship, d.weapon) for d in state.declared}
    systems: dict[str, int] = {}
    for d in state.declared:
        ship = next(s for s in state.ships if s.id == d.ship)
        if not S.weapon(ship, d.weapon).close_action:
            systems[d.ship] = systems.get(d.ship, 0) + 1
    best = None
    for value, attacker, weapon, target in _fire_values(state):
        if value <= 0.0:
            break
        if (attacker.id, weapon.id) in declared:
            continue
        if not weapon.close_action:
            allowed = Q.systems_allowed(attacker)
            if allowed is not None and systems.get(attacker.id, 0) >= allowed:
                continue
        best = (attacker, weapon, target)
        break
    if best is None:
        return Action.make("open_fire", Q.lead(state, state.group).id)
    attacker, weapon, target = best
    return Action.make("fire", attacker.id, weapon=weapon.id, target=target.id)


def pd_choice(state: DropfleetState) -> Action:
    p = state.pending
    attacker = next(s for s in state.ships if s.id == p.ship)
    target = next(s for s in state.ships if s.id == p.target)
    s = D.shot(attacker, S.weapon(attacker, p.weapon), target)
    chosen = D.best_pd_option(D.pd_options(p.normal, p.critical, p.successes), s, state.pd_policy)
    return Action.make("spend_pd", target.id, critical=chosen[1])
