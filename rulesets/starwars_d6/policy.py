"""The Star Wars D6 bot: the ``policy`` of the engine, one legal action at a time.

``choose(ruleset, state, rng)`` always returns one of ``ruleset.legal_actions(state)``.
It is deterministic (it does not even draw from ``rng``) and cheap: movement is pure hex
geometry (no odds per candidate move); the odds it uses are the cached ones of
:mod:`rulesets.starwars_d6.odds`.

What it does (decisions, listed in docs/rulesets/starwars_d6.md, "Odds and the bot"):

* **Emergencies first** (whenever the action is legal): structural damage -- jump to
  hyperspace if it can, else ``evacuate``; an overloaded generator -- ``shutdown`` at once
  (no gamble on the three-round grace); severely damaged, or with no weapon that can hurt
  an enemy -- ``jump``; held by a tractor beam -- ``break_free``.  It never rams.
* **Movement**: it *attacks* unless it is badly hurt (severely damaged, hull dice lost,
  structural damage) or outgunned (none of its weapons can hurt any enemy); then it
  *evades*.  Attacking: the target is the enemy with the best expected damage of its
  weapons (worth by scale, nearer first on ties); the goal is the range window where its
  best group of weapons that fire together has the best expected damage -- the far end of
  that window (usually the short band).  Evading: out of every enemy's longest range.
  Each step it takes the move with the best geometric estimate of where the rest of its
  speed can bring it (:func:`navigation.move_key`), ends facing the target (or away from the
  enemies, not facing the edge), never leaves the board and never ends in another ship's
  hex.
* **Firing**: the group of weapons that fire together with the best summed expected
  damage; within it, each weapon at the target of its best expected damage (ties: the
  better chance to hit); ammunition is not spent on a shot with less than 25% to hit;
  a battery fires every gun it has left as one broadside; then ``done``.

It never lists the legal actions: it weighs the moves or shots the rules offer and builds
the one action it picks; what it weighs is cached on what it depends on (see
docs/rulesets/starwars_d6.md, "Playouts").
"""
from __future__ import annotations

import itertools
import random

from rulesets.core.engine import Action

from . import hexes, odds, rules, tables
from .navigation import Goal, choose_move
#: decision: what an enemy is worth, by scale (expected damage is in ships destroyed); see :func:`worth`.
WORTH = {tables.STARFIGHTER: 1.0, tables.CAPITAL: 2.0, tables.DEATH_STAR: 3.0}
#: decision: an ammunition weapon holds its fire below this chance to hit.
AMMO_MIN_HIT = 0.25
BANDS = tables.BANDS
EPS = 1e-9


# ---------------------------------------------------------------- helpers
def _enemies(s: rules.CombatState, me: rules.Ship) -> list[rules.Ship]:
    return [f for f in s.ships if f.side != me.side and f.in_play]


def _fireable(me: rules.Ship) -> list[rules.Weapon]:
    return [w for w in me.weapons if rules.weapon_operative(w)]


def worth(target: rules.Ship) -> float:
    """decision: an enemy's worth -- by scale, halved when it has no weapon left (no threat)."""
    w = WORTH.get(target.scale, 1.0)
    return w if _fireable(target) else w / 2


def _band_values(s: rules.CombatState, me: rules.Ship, target: rules.Ship) -> dict[str, dict[str, float]]:
    """{weapon id: {band: expected value of a shot from that band}} (worth included)."""
    worth_ = worth(target)
    out = {}
    for w in _fireable(me):
        if w.type == "tractor_beam" and getattr(target, "captured_by", None):
            continue
        out[w.id] = {b: odds.shot(s, me, w, target, b).expected * worth_ for b in BANDS}
    return out


def _attacker_key(s: rules.CombatState, me: rules.Ship) -> int:
    """Everything of ``me`` that the odds of its shots depend on (a cache key, a number: :func:`_interned`).

    Kept by the very weapons list, ionised list and crew it reads (states are never changed in
    place: a rule that changes a ship's weapons copies them first, and a move shares them), with
    the scale and the round."""
    found = _ATTACKER_KEYS.get(id(me.weapons))
    if (found is not None and found[0] is me.weapons and found[1] is me.ionised and found[2] is me.crew
            and found[3] == me.scale and found[4] == s.round):
        return found[5]
    key = _interned((me.scale, me.crew.gunnery, rules.penalty(me, s.round),
                     tuple((w.id, w.type, w.fire_control, w.damage, w.shots) for w in _fireable(me))))
    if len(_ATTACKER_KEYS) > 256:
        _ATTACKER_KEYS.clear()
    _ATTACKER_KEYS[id(me.weapons)] = (me.weapons, me.ionised, me.crew, me.scale, s.round, key)
    return key


def _target_key(s: rules.CombatState, target: rules.Ship) -> int:
    """Everything of ``target`` that the odds of a shot at it and its worth depend on (a cache key, a number).

    Kept by the very ship object and the round (states are never changed in place: a rule copies
    a ship before changing it)."""
    found = _TARGET_KEYS.get(id(target))
    if found is not None and found[0] is target and found[1] == s.round:
        return found[2]
    key = _interned((target.scale, target.speed, target.crew.piloting, target.maneuverability,
                     rules.penalty(target, s.round), target.hull, target.shields, target.crew.shields, target.severe,
                     rules.controls_dead(target, s.round), target.generator_shutdown, bool(_fireable(target)),
                     bool(target.captured_by)))
    if len(_TARGET_KEYS) > 256:
        _TARGET_KEYS.clear()
    _TARGET_KEYS[id(target)] = (target, s.round, key)
    return key


_ATTACKER_KEYS: dict = {}   # _attacker_key by the id of the weapons list it read (the list kept, so the id is not reused)
_TARGET_KEYS: dict = {}     # _target_key by the id of the ship (the ship kept, so the id is not reused)
_KEY_NUMBERS: dict = {}     # the number of each key tuple (see _interned)
_NEXT_NUMBER = itertools.count()


def _interned(key: tuple) -> int:
    """A number that stands for ``key`` (equal keys, the same number; never reused, even after the
    table is cleared), so the caches keyed on attackers and targets hash a few numbers."""
    found = _KEY_NUMBERS.get(key)
    if found is None:
        if len(_KEY_NUMBERS) > 8192:
            _KEY_NUMBERS.clear()
        found = _KEY_NUMBERS[key] = next(_NEXT_NUMBER)
    return found


_WINDOWS: dict = {}   # _window's answers by what they depend on (the odds are pure)
_SHOT_VALUES: dict = {}  # the bot's value of a shot by what it depends on (see _choose_fire)


def _window(s: rules.CombatState, me: rules.Ship, target: rules.Ship, attacker_key: int | None = None) -> tuple[float, int, int]:
    """(best value, lo, hi): the distances where the best group of weapons that fire together
    has its best summed expected value (the contiguous run ending at the farthest of them).
    ``attacker_key``: :func:`_attacker_key` of ``me`` when the caller has it already."""
    key = (_attacker_key(s, me) if attacker_key is None else attacker_key, _target_key(s, target), bool(s.wild),
           odds.complication_of(s))
    found = _WINDOWS.get(key)
    if found is None:
        if len(_WINDOWS) > 4096:
            _WINDOWS.clear()
        found = _WINDOWS[key] = _compute_window(s, me, target)
    return found


def _compute_window(s: rules.CombatState, me: rules.Ship, target: rules.Ship) -> tuple[float, int, int]:
    values = _band_values(s, me, target)
    weapons = {w.id: w for w in me.weapons}
    best_at: dict[int, float] = {}
    far = 1
    # each weapon's bands in table order, its group and its values (tables.range_band, read here
    # from the bands directly: the first band holding the distance)
    reads = []
    for wid, by_band in values.items():
        kind = weapons[wid].type
        bands = [(lo, hi, by_band[band]) for band, (lo, hi) in tables.range_bands(kind, target.scale).items()]
        for lo, hi, _ in bands:
            far = max(far, hi)
        reads.append((tables.FIRE_GROUP[kind], bands))
    for d in range(1, far + 1):
        groups: dict[str, float] = {}
        for g, bands in reads:
            for lo, hi, value in bands:
                if lo <= d <= hi:
                    groups[g] = groups.get(g, 0.0) + value
                    break
        best_at[d] = max(groups.values(), default=0.0)
    best = max(best_at.values(), default=0.0)
    if best <= EPS:
        return 0.0, 1, far
    hi = max(d for d, v in best_at.items() if v >= best - EPS)
    lo = hi
    while lo - 1 >= 1 and best_at.get(lo - 1, 0.0) >= best - EPS:
        lo -= 1
    return best, lo, hi


def _badly_hurt(me: rules.Ship) -> bool:
    return me.severe or "hull_-1D" in me.damage or me.structural_round is not None


def _threat_range(s: rules.CombatState, me: rules.Ship, foes: list | None = None) -> int:
    """The longest range at which any enemy weapon could shoot at ``me`` (``foes``: the enemies
    in play, when the caller has them)."""
    far = 0
    for f in _enemies(s, me) if foes is None else foes:
        if (f.scale, me.scale) in tables.CANNOT_FIRE:
            continue
        far = max(far, _reach_at(f, me.scale))
    return far


def _reach_at(f: rules.Ship, scale: str) -> int:
    """The longest range of ``f``'s weapons at a target of ``scale`` (0: none can fire); kept by
    the very weapons list (a rule that changes a weapon copies the list first)."""
    found = _REACHES.get((id(f.weapons), scale))
    if found is not None and found[0] is f.weapons:
        return found[1]
    far = max((tables.farthest(w.type, scale) for w in _fireable(f)), default=0)
    if len(_REACHES) > 64:
        _REACHES.clear()
    _REACHES[(id(f.weapons), scale)] = (f.weapons, far)
    return far


_REACHES: dict = {}


# ---------------------------------------------------------------- emergencies
def _emergency(s: rules.CombatState, me: rules.Ship) -> Action | None:
    """Structural damage: jump, else evacuate; an overloaded generator: shut down; severely
    damaged or useless: jump; held by a tractor beam: break free (each only when legal)."""
    if me.structural_round is not None:
        if rules.can_jump(s):
            return Action.make("jump", me.id)
        if rules.can_evacuate(s):
            return Action.make("evacuate", me.id)
    if me.generator_overload_round is not None and rules.can_shutdown(s):
        return Action.make("shutdown", me.id)
    # (a ship that has no working hyperdrive cannot jump: asked first, as it is the cheapest)
    if (me.hyperdrive and not me.hyperdrive_out and (me.severe or not _useful(s, me))
            and rules.can_jump(s)):
        return Action.make("jump", me.id)
    if rules.can_break_free(s):
        return Action.make("break_free", me.id)
    return None


def _useful(s: rules.CombatState, me: rules.Ship) -> bool:
    """Some weapon of ``me`` can hurt some enemy (at its best range)."""
    return any(window[0] > EPS for window in _foe_windows(s, me, _enemies(s, me))[0])


# ---------------------------------------------------------------- movement
def _foe_windows(s: rules.CombatState, me: rules.Ship, foes: list[rules.Ship],
                 attacker_key: int | None = None) -> tuple[list, int]:
    """(the :func:`_window` against each foe, the enemies' longest range), kept while the ship
    moves: a move copies only the moving ship, so the other ships are the very same objects from
    step to step (states are never changed in place), and of the mover these read its stats alone,
    not where it is."""
    key = (me.id, me.side, me.scale, _attacker_key(s, me) if attacker_key is None else attacker_key, s.round, s.wild,
           s.complication)
    cached = _LAST_WINDOWS.get("last")
    if cached is not None and cached[0] == key and len(cached[1]) == len(foes) and all(
            a is b for a, b in zip(cached[1], foes)):
        return cached[2]
    windows = [_window(s, me, f, key[3]) for f in foes]
    found = (windows, _threat_range(s, me, foes))
    _LAST_WINDOWS["last"] = (key, tuple(foes), found)
    return found


_LAST_WINDOWS: dict = {}


class _Plan:
    """What a ship's movement goal is made of, besides where the ship is: computed at its first
    step and kept through its movement (a move copies only the moving ship, so the other ships
    are the very same objects from step to step, and of the mover the goal reads its stats, its
    damage and -- to break a tie between equally good targets -- its position alone)."""

    def __init__(self, s: rules.CombatState, me: rules.Ship, key: tuple, others: tuple):
        self.key, self.others, self.features = key, others, tuple(s.features)
        self.board = s.hboard
        self.capital = me.scale != tables.STARFIGHTER
        in_play = [sh for sh in others if sh.in_play]
        self.occupied = frozenset([sh.pos for sh in in_play])
        # what the rules' moves avoid (rules.occupied besides the mover: these and the features)
        self.blocked = self.occupied | rules.feature_hexes(s) if s.features else self.occupied
        self.blocked_key = tuple(sorted(self.blocked))          # ... as a plain tuple (see navigation._GEOMETRY)
        foes = [f for f in in_play if f.side != me.side]       # (_enemies)
        self.foes = [f.pos for f in foes]
        windows, self.threat = _foe_windows(s, me, foes, key[3])    # (key[3]: _attacker_key of me)
        # the targets worth the most (rounded as the choice rounds them): the nearest of them is
        # the target, so with one of them the goal does not depend on where the ship is
        self.tied: list = []
        if windows and not _badly_hurt(me):
            best = max(round(w[0], 9) for w in windows)
            self.tied = [(w, f.pos) for w, f in zip(windows, foes) if round(w[0], 9) == best]
        self.goals: dict = {}

    def fits(self, s: rules.CombatState, key: tuple) -> bool:
        if key != self.key or len(s.ships) != len(self.others) + 1 or len(s.features) != len(self.features):
            return False
        others = iter(self.others)
        mover = key[0]
        for sh in s.ships:
            if sh.id != mover and sh is not next(others):
                return False
        return all(a is b for a, b in zip(s.features, self.features))

    def goal(self, pos) -> Goal:
        """The goal from ``pos`` (as _goal derives it: the best target, then the nearer)."""
        index = 0
        if len(self.tied) > 1:
            index = min(range(len(self.tied)), key=lambda i: hexes.distance(pos, self.tied[i][1]))
        found = self.goals.get(index)
        if found is None:
            evade, target, lo, hi = True, None, self.threat + 1, 10 ** 6
            if self.tied:
                (value, w_lo, w_hi), where = self.tied[index]
                if value > EPS:
                    evade, target, lo, hi = False, where, w_lo, w_hi
            found = self.goals[index] = Goal(self.board, self.capital, self.occupied, self.foes,
                                              evade, target, lo, hi)
        return found


_PLAN: dict = {}     # "last": the _Plan of the ship moving now
_PICKED: list = [None, None, None]   # the state, the action the bot built for it, its hexes.Move (a move)


def built_by_bot(s: rules.CombatState, action: Action) -> bool:
    """``action`` is the very action the bot has just built for the very state ``s`` (legal by
    construction: :func:`choose` returns one of the legal actions).  An action from anywhere else
    -- a GM's, a player's, a scenario's -- is another object, and is checked in full."""
    return _PICKED[0] is s and _PICKED[1] is action


def picked_move(s: rules.CombatState, action: Action) -> hexes.Move | None:
    """The :class:`hexes.Move` of ``action`` if it is the very move action the bot has just built
    for the very state ``s`` (found among the rules' moves for it: no need to look again), else
    None -- an action from anywhere else (a GM's, a player's, a scenario's) is checked in full."""
    if _PICKED[0] is s and _PICKED[1] is action:
        return _PICKED[2]
    return None


def _plan_of(s: rules.CombatState, me: rules.Ship) -> _Plan:
    plan = _PLAN.get("last")
    # (a move copies the mover's own fields only: through its movement its weapons, ionised
    # results and crew are the very same objects, so _attacker_key finds its key at once)
    key = (me.id, me.side, me.scale, _attacker_key(s, me), s.round, s.wild, s.complication,
           _badly_hurt(me), me.captured_by, s.board.width, s.board.height)
    if plan is None or not plan.fits(s, key):
        plan = _PLAN["last"] = _Plan(s, me, key, tuple(sh for sh in s.ships if sh.id != me.id))
    return plan


# ---------------------------------------------------------------- firing
def shot_value(s: rules.CombatState, action: Action) -> tuple[float, float]:
    """(expected value, chance to hit) of a ``fire`` action, as the bot weighs it."""
    me, t = s.ship(action.actor), s.ship(action.get("target"))
    return _shot_value(s, me, next(w for w in me.weapons if w.id == action.get("weapon")), t)


def _shot_value(s: rules.CombatState, me: rules.Ship, w: rules.Weapon, t: rules.Ship) -> tuple[float, float]:
    so = odds.shot(s, me, w, t)
    value = so.expected * worth(t)
    if w.type == "tractor_beam" and t.captured_by:
        value = 0.0
    if w.ammo is not None and so.p_hit < AMMO_MIN_HIT:
        value = 0.0
    return value, so.p_hit


def _choose_fire(s: rules.CombatState, me: rules.Ship) -> Action:
    """The group of weapons that fire together with the best summed value; in it, the shot of
    the best value (then the better chance to hit); nothing worth firing: ``done``."""
    options = rules.open_shots(s)
    if not options:
        return Action("done", me.id)
    mine = _attacker_key(s, me)
    wild, complication = bool(s.wild), s.complication
    scored = []          # (weapon id, target id, value, chance to hit, fire group), in the options' order
    per_weapon: dict[str, float] = {}    # each weapon's best value (in the order the weapons come)
    group_of: dict[str, str] = {}
    for w, left, t, band in options:
        # what the value reads: the two ships' keys, the weapon, the band, the guns left
        key = (mine, _target_key(s, t), w.id, w.ammo is not None, band, left, wild, complication)
        found = _SHOT_VALUES.get(key)
        if found is None:
            if len(_SHOT_VALUES) > 8192:
                _SHOT_VALUES.clear()
            found = _SHOT_VALUES[key] = _shot_value(s, me, w, t)
        value, group = found[0], tables.FIRE_GROUP[w.type]
        scored.append((w.id, t.id, value, found[1], group))
        if w.id not in per_weapon:
            group_of[w.id] = group
        per_weapon[w.id] = max(per_weapon.get(w.id, 0.0), value)
    groups: dict[str, float] = {}
    for wid, v in per_weapon.items():
        g = group_of[wid]
        groups[g] = groups.get(g, 0.0) + v
    first: dict[str, int] = {}
    for i, x in enumerate(scored):
        first.setdefault(x[4], i)
    group = max(groups, key=lambda g: (groups[g], -first[g]))
    if groups[group] <= EPS:
        return Action("done", me.id)
    wid, tid, value, _, _ = max((x for x in scored if x[4] == group), key=lambda x: (round(x[2], 12), round(x[3], 12)))
    if value <= EPS:
        return Action("done", me.id)
    return Action("fire", me.id, (("target", tid), ("weapon", wid)))    # (sorted, as Action.make has them)


# ---------------------------------------------------------------- the policy
def choose(ruleset, s: rules.CombatState, rng: random.Random | None = None) -> Action:
    """The bot's action (always one of ``ruleset.legal_actions(s)``), found without listing them:
    it looks at the moves or shots it weighs and builds only the action it picks."""
    action = _decide(ruleset, s)
    if _PICKED[0] is not s or _PICKED[1] is not action:
        _PICKED[:] = (s, action, None)
    return action


def _decide(ruleset, s: rules.CombatState) -> Action:
    if s.over:
        raise ValueError("No legal action: the combat is over.")
    who = ruleset.actor_ship(s)
    if s.phase == "initiative":
        return Action("initiative", who)
    if s.phase == "movement":
        return _choose_movement(ruleset, s, who)
    if not s.queue:
        return Action("resolve", who)
    return _choose_fire(s, s.ship(who))


def _choose_movement(ruleset, s: rules.CombatState, who: str) -> Action:
    me = s.ship(who)
    drifting = rules.controls_dead(me, s.round) and not me.captured_by
    if drifting or me.captured_by:
        return _choose_held_or_drifting(s, me, drifting)
    # The moves are the rules' moves from here (rules.move_options; the plan keeps what they
    # avoid), and the choice from a movement state is shared by every goal alike.
    plan = _plan_of(s, me)
    m = s.moving
    ms = hexes.MoveState(me.pos, me.facing, m.speed_left, m.free_turns_left, m.after_forward)
    if m.started:
        # under way: the special actions are declared before moving, so the only one left is
        # evacuating (the emergency the bot takes at once)
        if me.structural_round is not None:
            return Action.make("evacuate", who)
        options = None
    else:
        options = hexes.moves(ms, plan.capital, plan.board, plan.blocked)
        if len(options) <= 1:
            # few moves: the special actions decide whether there is a choice at all
            specials = [Action.make(kind, who, **params) for kind, params in rules.special_options(s)]
            if len(options) + len(specials) == 1:
                return _picked(s, who, options[0]) if options else specials[0]
            if not options and not specials:
                raise ValueError("No legal action: the combat is over.")
        urgent = _emergency(s, me)
        if urgent is not None:
            return urgent
        if not options:
            safe = [a for a in specials if a.kind != "ram"]      # decision: the bot never rams
            return safe[0] if safe else specials[0]
    goal = plan.goal(ms.pos)
    choice_key = ms + (plan.blocked_key, ms.pos in plan.occupied)    # (plain tuples: see _GEOMETRY)
    choice = goal.choices.get(choice_key)
    if choice is None:
        if options is None:
            options = hexes.moves(ms, plan.capital, plan.board, plan.blocked)
            if not options:
                raise ValueError("No legal action: the combat is over.")
        if len(goal.choices) > 4096:
            goal.choices.clear()
        move = choose_move(goal, options)
        goal.choices[choice_key] = move[:4] + (tuple(move.after),)
        return _picked(s, who, move)
    kind, side, cost, free_turn, after = choice
    return _picked(s, who, hexes.Move(kind, side, cost, free_turn, hexes.MoveState(*after)))


def _choose_held_or_drifting(s: rules.CombatState, me: rules.Ship, drifting: bool) -> Action:
    """A ship with dead controls drifts; one held by a tractor beam holds or breaks free."""
    who = me.id
    options = [] if drifting else rules.move_options(s)
    if drifting + len(options) <= 1:
        specials = [Action.make(kind, who, **params) for kind, params in rules.special_options(s)]
        base = [Action.make("drift", who)] if drifting else [Action.make("move", who, how=m.kind, side=m.side)
                                                             for m in options]
        if len(base) + len(specials) == 1:
            return (base + specials)[0]
        if not base and not specials:
            raise ValueError("No legal action: the combat is over.")
    urgent = _emergency(s, me)
    if urgent is not None:
        return urgent
    if options:
        goal = _plan_of(s, me).goal(me.pos)
        return _picked(s, who, choose_move(goal, options))
    if drifting:
        return Action.make("drift", who)
    safe = [a for a in specials if a.kind != "ram"]      # decision: the bot never rams
    return safe[0] if safe else specials[0]


def _picked(s: rules.CombatState, who: str, move: hexes.Move) -> Action:
    action = Action("move", who, (("how", move.kind), ("side", move.side)))    # as Action.make sorts them
    _PICKED[:] = (s, action, move)
    return action
