"""The bot (simulations, auto-play).  Its policy, stated (docs/rulesets/dropfleet.md, D11):

* Orders: Weapons Free when one of the group's moves (as the move rule below weighs them) brings
  a weapon system to bear on an enemy, so it fires everything; otherwise Silent Running (it would
  fire nothing anyway, and Signature 0 keeps it out of the enemy's reach while it closes); shields
  up always.
* Move: to the place, among a few (straight on, or turning as far as it may towards each enemy;
  a full, half or no move), where its weapons can fire at the highest expected damage; with
  nothing in reach, where the fewest enemies could reach it next (in the first half of the
  battle only: from then on it closes in), then the place closest to the nearest enemy.
* Fire: declare the weapon system and target of the highest expected unsaved damage, one
  at a time, until nothing is left; then open fire.
* Point defence: the target's ``pd_policy`` (``min_expected`` by default: block what is most
  likely to get through its saves).
It chooses without listing every legal action (and builds the one it takes with its parameters
already in ``Action.make``'s sorted order), and uses ``rng.random()`` only to break ties.
"""
from __future__ import annotations

import functools
import random

from rulesets.core.engine import Action

from . import damage as damage_rules
from . import geometry
from . import sequence
from . import ships as ship_rules
from . import tables
from .state import DropfleetState, Ship
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
    phase = state.phase
    if phase == "fire":  # the most frequent step
        action = fire_choice(state)
    elif phase == "move" or phase == "orders":
        key = situation(state, phase)
        action = _DECIDED.get(key)
        if action is None:  # a situation not met before (policy.situation)
            action = move_choice(state, sequence.mover(state)) if phase == "move" else order_choice(state)
            action = _remember(key, state, action)
    elif phase == "pd":
        action = pd_choice(state)
    elif phase == "end":
        action = Action("end_round", "gm")
    else:
        action = fire_choice(state)
    _CHOSEN = (state, action)
    return action


#: the bot's orders, moves and fire plans by the situation they were decided in (:func:`situation`).
#: A simulation plays the same setup thousands of times, and the same situations come back (every
#: first round, every round both groups hold their place): each is decided once.  Decisions are
#: shared objects (:data:`_SHARED`) and the profiles the keys name by identity are kept alive in
#: :data:`_KEPT`, so an entry is two small objects (few for the garbage collector to follow).
_DECIDED: dict = {}
_SHARED: dict = {}  # one object per distinct action or planned declaration
_KEPT: dict = {}  # id(profile) -> profile, for every profile a key names


def situation(state: DropfleetState, phase: str) -> tuple:
    """Everything about ``state`` the bot's orders, move and fire plan read, as a flat tuple: the
    phase, the active group and side, the table, which half of the battle it is (the move's
    caution), then the ships in play the bot looks at, in their order:

    * each of the group's: its id, whether it has moved, place, facing, layer, profile (by
      identity), crippling effects, order, spike, silence, shields, weapons offline;
    * each enemy's (another side's): its id and side, place, layer, profile, effects, order,
      spike, silence, shields.

    Never read, so left out: destroyed ships, the side's other groups, Hull, names, thresholds
    rolled, weapons fired, an enemy's facing.  (A group that spans sides, which placements can
    name, makes every ship in play count: :func:`_every_ship`.)"""
    group, side = state.group, state.side
    key = [phase, group, side, state.width, state.height, 2 * state.round <= state.max_rounds]
    for s in state.ships:
        if s.destroyed:
            continue
        if s.side == side:
            if s.group != group:
                continue
            key += (0, s.id, s.moved, s.x, s.y, s.heading, s.layer, id(s.profile), s.effects, s.order, s.spike,
                    s.silent, s.shields_up, s.weapons_offline)
        elif s.group == group:
            return _every_ship(state, phase)
        else:
            key += (1, s.id, s.side, s.x, s.y, s.layer, id(s.profile), s.effects, s.order, s.spike, s.silent,
                    s.shields_up)
    return tuple(key)


def _every_ship(state: DropfleetState, phase: str) -> tuple:
    key = [phase, 2, state.group, state.side, state.width, state.height, 2 * state.round <= state.max_rounds]
    for s in state.ships:
        key += (s.id, s.group, s.side, s.destroyed, s.moved, s.x, s.y, s.heading, s.layer, id(s.profile), s.effects,
                s.order, s.spike, s.silent, s.shields_up, s.weapons_offline)
    return tuple(key)


def _remember(key: tuple, state: DropfleetState, decision):
    """Keep ``decision`` (an action, or a fire plan: a tuple of planned declarations) for the
    situation ``key``; the shared copy of it is returned."""
    if len(_DECIDED) > 4096:
        _DECIDED.clear()
        _SHARED.clear()
        _KEPT.clear()
    for s in state.ships:
        profile = s.profile
        if id(profile) not in _KEPT:
            _KEPT[id(profile)] = profile
    if type(decision) is tuple:
        decision = tuple(_SHARED.setdefault(item, item) for item in decision)
    else:
        decision = _SHARED.setdefault(decision, decision)
    _DECIDED[key] = decision
    return decision


def _enemies(state, side):
    return [s for s in state.ships if not s.destroyed and s.side != side]


def order_choice(state: DropfleetState) -> Action:
    ships = sequence.group_ships(state, state.group)
    leader = ships[0]
    enemies = _enemies(state, state.side)
    spots = [(e.x, e.y, ship_rules.signature(e)) for e in enemies]
    close = False
    for ship in ships:
        if not ship.profile.weapons:
            continue
        reach = ship_rules.scan(ship) + ship_rules.thrust(ship)
        sx, sy = ship.x, ship.y
        if any(geometry.distance(sx, sy, ex, ey) <= reach + sig for ex, ey, sig in spots):
            limit = 0 if ship.has("engines_disabled") else tables.ORDERS["weapons_free"].turn
            if _brings_to_bear(state, ship, enemies, ship_rules.thrust(ship), limit):
                close = True
                break
    options = _order_dict(any(s.profile.monitor for s in ships), any(s.profile.passive_switchable for s in ships))
    if close and "weapons_free" in options:
        key = "weapons_free"
    elif not close and "silent_running" in options:
        key = "silent_running"
    else:
        key = "standard"
    shields = "up" if options.get(key) is not None else None
    return Action("order", leader.id, (("order", key),) if shields is None else (("order", key), ("shields", shields)))


@functools.lru_cache(maxsize=None)
def _order_dict(monitor: bool, switchable: bool) -> dict:
    """:func:`sequence.order_options` as {order: shields} (the same two facts of the group decide it)."""
    return dict(sequence._order_options(monitor, switchable))


def _values(ship: Ship, enemies) -> list[tuple]:
    """(arc, [(expected unsaved damage, the enemy's place in ``enemies``, reach)], best first) for each usable
    weapon: what a shot is worth does not depend on where the ship stands, only whether it
    reaches (shots worth nothing are left out)."""
    scan = ship_rules.scan(ship)
    signatures = [ship_rules.signature(e) for e in enemies]
    per_enemy = [_pair_values(ship, e) for e in enemies]
    damaged = bool(ship.effects)
    out = []
    for i, weapon in enumerate(ship.profile.weapons):
        if damaged and not ship_rules.weapon_usable(ship, weapon.id):
            continue
        close = weapon.close_action
        targets = []
        for k, (signature, values) in enumerate(zip(signatures, per_enemy)):
            value = values[i]
            if value > 0.0:
                targets.append((value, k, scan if close else scan + signature))
        if len(targets) > 1:
            targets.sort(key=_first, reverse=True)
        out.append((weapon.arc, targets))
    return out


def _first(item):
    return item[0]


#: the expected unsaved damage of each shot :func:`damage.shot` has kept, by its identity (the
#: entry holds the shot, so an identity is never reused while cached)
_EXPECTED: dict = {}


def shot_value(attacker: Ship, weapon, target: Ship) -> float:
    """The expected unsaved damage of a shot (worked out once per shot: the bot weighs the
    same shots at every step, and :func:`damage.shot` keeps them)."""
    s = damage_rules.shot(attacker, weapon, target)
    hit = _EXPECTED.get(id(s))
    if hit is not None and hit[0] is s:
        return hit[1]
    value = expected_unsaved(s)
    if len(_EXPECTED) > 4096:
        _EXPECTED.clear()
    _EXPECTED[id(s)] = (s, value)
    return value


#: :func:`shot_value` of each of an attacker's weapons at a target, by what :func:`damage.shot`
#: reads apart from the weapon (the entries hold the profiles and effects: identities stay unique)
_PAIRS: dict = {}


def _pair_values(attacker: Ship, target: Ship) -> tuple:
    """:func:`shot_value` of each weapon of the attacker's profile, in its order, at ``target``."""
    a_profile, t_profile, effects = attacker.profile, target.profile, target.effects
    key = (attacker.layer, id(a_profile), target.layer, id(t_profile), target.shields_up, id(effects))
    hit = _PAIRS.get(key)
    if hit is not None and hit[0] is a_profile and hit[1] is t_profile and hit[2] is effects:
        return hit[3]
    values = tuple(shot_value(attacker, weapon, target) for weapon in a_profile.weapons)
    if len(_PAIRS) > 4096:
        _PAIRS.clear()
    _PAIRS[key] = (a_profile, t_profile, effects, values)
    return values


def _firepower(values, spots, x: float, y: float, heading: int) -> float:
    """Expected unsaved damage of the ship's weapons, each at its best target in reach from (x, y)
    (the same reach and arc as :func:`sequence.in_reach`; each enemy's distance and direction
    worked out once for all the weapons)."""
    total = 0.0
    seen: list = [None] * len(spots)
    for arc, targets in values:
        for value, k, reach in targets:
            found = seen[k]
            if found is None:
                ex, ey = spots[k]
                found = seen[k] = geometry.sight(x, y, heading, ex, ey)
            if geometry.seen_within(found, arc, reach):
                total += value
                break
    return total


def _threats(ship: Ship, enemies) -> list[tuple[float, float, int]]:
    """(x, y, reach) of each enemy: how far it could reach the ship in its next activation
    (its Scan + Thrust + the ship's Signature)."""
    sig = ship_rules.signature(ship)
    return [(e.x, e.y, ship_rules.scan(e) + ship_rules.thrust(e) + sig) for e in enemies]


def _exposure(threats, x: float, y: float) -> int:
    return sum(1 for ex, ey, reach in threats if geometry.distance(x, y, ex, ey) <= reach)


def move_choice(state: DropfleetState, ship: Ship) -> Action:
    """The place of the highest (firepower, -exposure, -distance to the nearest enemy), staying
    put unless a legal place beats it; the first such place among equals."""
    best, _ = _best_place(state, ship, sequence.allowance(ship), sequence.turn_limit(ship))
    if best is None:
        return Action("stay", ship.id)
    return Action("move", ship.id, (("x", best[0]), ("y", best[1])))


def _best_place(state: DropfleetState, ship: Ship, reach: int, limit: int):
    """(the place to move to or None to stay, its firepower) among straight on and turning as far
    as ``limit`` allows towards each enemy, a full (``reach``) or half move.

    The score is compared lazily (firepower first), and a place is checked against the move
    rule only when it would beat the best so far: the same choice, fewer rule checks.
    """
    enemies = _enemies(state, ship.side)
    here, places = _places(ship, enemies, reach, limit)
    nearest = min(enemies, key=lambda e: geometry.distance(ship.x, ship.y, e.x, e.y))
    threats = _threats(ship, enemies) if 2 * state.round <= state.max_rounds else ()
    nx, ny = nearest.x, nearest.y
    best = None
    best_score = (here, -_exposure(threats, ship.x, ship.y), -geometry.distance(ship.x, ship.y, nx, ny))  # staying put
    for x, y, firepower in places:
        if firepower < best_score[0]:
            continue
        score = (firepower, -_exposure(threats, x, y), -geometry.distance(x, y, nx, ny))
        if score > best_score and sequence.check_move(state, ship, x, y, None, reach, limit) is None:
            best, best_score = (x, y), score
    return best, best_score[0]


def _brings_to_bear(state: DropfleetState, ship: Ship, enemies, reach: int, limit: int) -> bool:
    """Whether one of the places :func:`_best_place` weighs (staying put included) lets a weapon
    fire: its best place's firepower is above nothing."""
    here, places = _places(ship, enemies, reach, limit)
    if here > 0.0:
        return True
    return any(firepower > 0.0 and sequence.check_move(state, ship, x, y, None, reach, limit) is None
               for x, y, firepower in places)


#: each ship's places weighed last: {ship id: (what they depend on, the result)}; the key holds
#: the objects it names, and tuples compare by identity first, so a hit costs a few comparisons
_PLACES: dict = {}


def _places(ship: Ship, enemies, reach: int, limit: int) -> tuple[float, list]:
    """(firepower where the ship stands, [(x, y, firepower)] of each place it may move to, in the
    order :func:`_best_place` weighs them).  The orders step and the move step weigh the same
    places (the order changes neither the ship's place nor its weapons): worked out once."""
    scan = ship_rules.scan(ship)
    key = (ship.x, ship.y, ship.heading, ship.layer, ship.profile, ship.effects, scan, reach, limit, *enemies)
    hit = _PLACES.get(ship.id)
    if hit is not None and hit[0] == key:
        return hit[1]
    # no enemy within Scan + its Signature of any place the move reaches (a whole-inch place is at
    # most an inch past ``reach``): nothing can fire from any of them, so no weapon is weighed.
    sx, sy, h = ship.x, ship.y, ship.heading
    far = True
    spots = []
    headings = {h}  # straight on, and turned as far as ``limit`` allows towards each enemy
    for e in enemies:
        ex, ey = e.x, e.y
        spots.append((ex, ey))
        if far and geometry.distance(sx, sy, ex, ey) <= scan + ship_rules.signature(e) + reach + 1:
            far = False
        offset = (geometry.bearing(sx, sy, ex, ey) - h + 180) % 360 - 180
        headings.add(h + max(-limit, min(limit, round(offset))))
    values = () if far else _values(ship, enemies)
    places = []
    for heading in sorted(headings):
        for length in (reach, reach // 2):
            if length <= 0:
                continue
            px, py = geometry.point_at(sx, sy, heading, length)
            x, y = int(round(px)), int(round(py))
            if not values:
                places.append((x, y, 0.0))
                continue
            facing = int(round(geometry.bearing(sx, sy, x, y))) % 360 if (x != sx or y != sy) else h
            places.append((x, y, _firepower(values, spots, x, y, facing)))
    result = (_firepower(values, spots, sx, sy, h) if values else 0.0, places)
    if len(_PLACES) > 256:
        _PLACES.clear()
    _PLACES[ship.id] = (key, result)
    return result


#: the last activation's choices, worth computing once: (its ships list, [(value, attacker, weapon, target)])
_FIRE_CACHE: list = [None, []]


def _fire_values(state: DropfleetState) -> list:
    """Every (value, attacker, weapon, target) open to the group when its fire step began, best first.

    Declaring changes no ship, so the declarations of one activation share the ships list;
    the list is kept (a strong reference: its identity cannot be reused) and compared by identity.
    """
    if _FIRE_CACHE[0] is not state.ships or not state.declared:
        values = []
        pairs: dict = {}  # each (attacker, target)'s values for all the attacker's weapons, looked up once
        for a, w, t in sequence.fire_options(state):
            key = (a.id, t.id)
            per_weapon = pairs.get(key)
            if per_weapon is None:
                per_weapon = pairs[key] = _pair_values(a, t)
            values.append((per_weapon[a.profile.weapons.index(w)], a, w, t))
        values.sort(key=_first, reverse=True)  # stable: equal values keep the options' order
        _FIRE_CACHE[0], _FIRE_CACHE[1] = state.ships, values
    return _FIRE_CACHE[1]


#: the group's fire step planned at its start: (its ships list, [((ship, weapon, target), Action)])
_FIRE_PLAN: tuple = (None, [])


def fire_choice(state: DropfleetState) -> Action:
    """The best shot still open: not declared yet, within the order's weapon systems.

    Declaring changes no ship, so the whole step is planned once, when it begins (the same
    choices, one at a time, as :func:`_best_shot_now` makes); a declaration the plan did not
    make (a player's) falls back to choosing from what is declared.
    """
    global _FIRE_PLAN
    declared = state.declared
    ships, plan = _FIRE_PLAN
    if ships is not state.ships or not declared:
        if declared:
            return _best_shot_now(state)
        key = situation(state, "fire")
        plan = _DECIDED.get(key)
        if plan is None:
            plan = _remember(key, state, tuple(_plan_fire(state)))
        _FIRE_PLAN = (state.ships, plan)
    n = len(declared)
    if n >= len(plan):
        return _best_shot_now(state)
    for i in range(n):
        d = declared[i]
        if plan[i][0] != (d.ship, d.weapon, d.target):
            return _best_shot_now(state)
    return plan[n][1]


def _open_shots(state: DropfleetState, taken: set, systems: dict):
    """The shots of :func:`_fire_values`, best first, worth firing and still open: the weapon not
    in ``taken`` (ship id, weapon id), and the ship within its order's weapon systems given
    ``systems`` (ship id -> systems declared).  Both are read as the shots are asked for, so a
    caller that takes a shot and counts it narrows the shots that follow."""
    for value, attacker, weapon, target in _fire_values(state):
        if value <= 0.0:
            return
        if (attacker.id, weapon.id) in taken:
            continue
        if not weapon.close_action:
            allowed = sequence.systems_allowed(attacker)
            if allowed is not None and systems.get(attacker.id, 0) >= allowed:
                continue
        yield attacker, weapon, target


def _plan_fire(state: DropfleetState) -> list:
    """Every declaration of the fire step, best first, then open fire: what
    :func:`_best_shot_now` chooses step after step (each choice only narrows the next)."""
    plan = []
    chosen: set = set()
    systems: dict[str, int] = {}
    for attacker, weapon, target in _open_shots(state, chosen, systems):
        if not weapon.close_action:
            systems[attacker.id] = systems.get(attacker.id, 0) + 1
        chosen.add((attacker.id, weapon.id))
        plan.append(((attacker.id, weapon.id, target.id),
                     Action("fire", attacker.id, (("target", target.id), ("weapon", weapon.id)))))
    plan.append((None, Action("open_fire", sequence.lead(state, state.group).id)))
    return plan


def _best_shot_now(state: DropfleetState) -> Action:
    """The best shot still open given what is declared (the ships have not changed since the
    values were worked out, so reach and arc still hold)."""
    declared = {(d.ship, d.weapon) for d in state.declared}
    systems: dict[str, int] = {}
    for d in state.declared:
        ship = next(s for s in state.ships if s.id == d.ship)
        if not ship_rules.weapon(ship, d.weapon).close_action:
            systems[d.ship] = systems.get(d.ship, 0) + 1
    best = next(_open_shots(state, declared, systems), None)
    if best is None:
        return Action("open_fire", sequence.lead(state, state.group).id)
    attacker, weapon, target = best
    return Action("fire", attacker.id, (("target", target.id), ("weapon", weapon.id)))


def pd_choice(state: DropfleetState) -> Action:
    p = state.pending
    attacker = next(s for s in state.ships if s.id == p.ship)
    target = next(s for s in state.ships if s.id == p.target)
    s = damage_rules.shot(attacker, ship_rules.weapon(attacker, p.weapon), target)
    chosen = damage_rules.best_pd_option(damage_rules.pd_options(p.normal, p.critical, p.successes), s, state.pd_policy)
    return Action("spend_pd", target.id, (("critical", chosen[1]),))
