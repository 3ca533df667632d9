"""The bot for ships and people, used by simulations, re-roll analyses and auto-play.

Stated policy (docs/rulesets/void_d20.md, "The bot"):

* Ships pick one enemy ship: a drifting one they mean to board first, else the one with the
  least frame left.  A ship *means to board* when its boarding party's strength is at least
  BOARDING_NERVE of the defenders' (:func:`worth_boarding`).  The captain urges the guns.  The
  pilot runs when the ship is down to a quarter of its frame and the enemy is not drifting,
  closes on a drifting enemy it means to board (to dock), while at Far, or while its
  hardest-hitting gun cannot reach, and evades otherwise.  Sensors scan the target.  The guns
  fire the weapon with the most damage at the target, but hold fire on a drifting ship they
  mean to board; docked, the crew breaks in (if it means to board) by Body or hacks by
  Technology, whichever the best boarder is better at.  The engineer mends the frame below
  60%, else the engines, else any knocked-out system.
* People: a medkit for a bleeding friend, or for themselves below a third of their HP; else
  they attack the standing enemy with the fewest HP (two actions a turn), spending a Void
  Point when the hit chance is under 50% and making a risky attack when it is 60% or better.

It builds only the action it takes (never the whole list) and uses ``rng`` for nothing:
the dice carry all the chance.  Pure Python.
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Final

from rulesets.core.engine import Action

from . import tables
from .common import SHIP_SLOTS, combatant, crew_aboard, ship, standing_aboard
from .dice import parse_damage
from .model import Combatant, Ship, VoidState
from .options import (GM, can_board, can_repair, commandable, enemies_of, helm_moves, repairable, sensors_work,
                      station_open)
from .personal import can_attack_from, defence_of, item_of, weapon_of
from .ships import band, boarders, can_fire, can_manoeuvre, powered, station_crew


def choose(state: VoidState, rng: random.Random) -> Action:
    if state.phase == "initiative":
        return _act("begin", GM)
    actor = state.order[state.turn]
    if state.scale == "ship":
        return _ship_step(state, ship(state, actor))
    return _person_step(state, combatant(state, actor))


# --- ships ------------------------------------------------------------------------------------


#: the bot's targets, in one slot read and replaced whole: (the combatants and ships tuples they were
#: read from, the ships' marks, ship id -> the index of its target in the ships, or None); kept for a
#: ships tuple changed in inert fields only (common.SHIP_SLOTS: the marks are the same)
_TARGETS: Final[list] = [(None, None, None, None)]
SHIP_SLOTS.append(_TARGETS)


def _marks(ships) -> list:
    """What :func:`_choose_target` reads of the ships: who they are, their frame, whether in space."""
    out = []                            # a loop, not a comprehension (no frame of its own)
    for x in ships:
        out.append((x.id, x.side, x.frame, x.destroyed, x.escaped))
    return out


def _target(state: VoidState, s: Ship) -> Ship | None:
    """The ship ``s`` goes for, kept while the state's people are the same objects and the ships the
    same objects, or the same ships with the same marks (:func:`_marks`; a ship's five stations ask in
    turn, and a station's step changes a ship's other fields: command, evasion, initiative)."""
    ships, people = state.ships, state.combatants
    hit = _TARGETS[0]
    if hit[0] is not people:
        hit = _TARGETS[0] = (people, ships, _marks(ships), {})
    elif hit[1] is not ships:
        marks = _marks(ships)
        hit = _TARGETS[0] = (people, ships, marks, hit[3] if hit[2] == marks else {})
    answers = hit[3]                    # this slot's own: the answers for these people and marks
    index = answers.get(s.id, -1)
    if index == -1:
        t = _choose_target(state, s)
        index = None
        if t is not None:
            for index, x in enumerate(ships):
                if x is t:
                    break
        answers[s.id] = index
    return None if index is None else ships[index]


#: the last (combatants tuple, the sides with anybody standing anywhere), in one slot (not carried over
#: to a changed people tuple: common.PEOPLE_SLOTS' carrying cost more than asking again)
_SIDES_UP: Final[list] = [(None, None)]


def _sides_standing(state: VoidState) -> set:
    hit = _SIDES_UP[0]
    if hit[0] is state.combatants:
        return hit[1]
    sides = set()                       # a loop, not a comprehension (a call)
    for cs in standing_aboard(state).values():
        for c in cs:
            sides.add(c.side)
    _SIDES_UP[0] = (state.combatants, sides)
    return sides


def _choose_target(state: VoidState, s: Ship) -> Ship | None:
    standing = _sides_standing(state)
    foes = []
    for t in enemies_of(state, s):
        if t.side in standing:
            foes.append(t)
    if not foes:
        return None
    for t in foes:
        if t.frame <= 0 and worth_boarding(state, s, t):            # drifting
            return t
    best = foes[0]                      # min(foes, key=frame): the first of the least frame
    for t in foes:
        if t.frame < best.frame:
            best = t
    return best


def _can_dock(s: Ship, t: Ship) -> bool:
    """Whether ``s`` can still come alongside ``t`` (then the guns hold fire on a drifting ``t``)."""
    return can_manoeuvre(s) and "docking" not in s.catastrophes and "docking" not in t.catastrophes


def _best_gun_out_of_reach(s: Ship, b: str) -> bool:
    """Whether the ship's hardest-hitting working gun cannot reach at band ``b`` (short of Docked):
    then the pilot closes in (a Close-only gun is worth nothing at Medium)."""
    ranked = _guns(s.weapons)[0]
    return bool(ranked) and b != "docked" and ranked[0].reach not in tables.BANDS[b].reaches


#: the last rankings per weapons tuple: id -> (the tuple, its rankings); a ship's copies share the tuple
#: until a rule replaces it (a gun knocked out or repaired), so it is compared by identity (and held)
_RANKED: Final[dict[int, tuple]] = {}


def _guns(weapons: tuple) -> tuple[list, list]:
    """The working weapons ranked the most mean damage first, twice: then in the ship's order (the
    first is the best gun), and then by id (the order the guns pick what to fire in)."""
    hit = _RANKED.get(id(weapons))
    if hit is not None and hit[0] is weapons:
        return hit[1]
    working = [(-_mean_damage(w.damage), i, w) for i, w in enumerate(weapons) if not w.out]
    ranked = ([w for _, _, w in sorted(working)], [w for _, _, w in sorted(working, key=lambda x: (x[0], x[2].id, x[1]))])
    if len(_RANKED) > 1_000:
        _RANKED.clear()
    _RANKED[id(weapons)] = (weapons, ranked)
    return ranked


#: damage text -> its mean (a handful of texts per setup)
_MEANS: Final[dict[str, float]] = {}


def _mean_damage(text: str) -> float:
    mean = _MEANS.get(text)
    if mean is None:
        if len(_MEANS) > 1_000:
            _MEANS.clear()
        dd = parse_damage(text)
        mean = _MEANS[text] = dd.count * (dd.sides + 1) / 2 + dd.plus
    return mean


# --- weighing a boarding party ---------------------------------------------------------------

#: the bot boards when its party's strength is at least this share of the defenders' (see
#: :func:`worth_boarding`): the estimate leaves out what favours characters in a fight (initiative
#: on 12+, Void Points, risky attacks), so a party a third weaker by it still has an even fight
#: (docs/rulesets/void_d20.md, "The bot")
BOARDING_NERVE: Final = 2 / 3

#: death-table rows (VD-25..VD-29) after which a character is soon standing again
_BACK_ON_FEET: Final = ("wounded", "shock", "scratched", "miracle", "vision")
_BACK: Final = sum(row.high - row.low + 1 for row in tables.DEATH_TABLE if row.key in _BACK_ON_FEET) / 20
#: hits a character takes beyond their HP on average: each fall is got over with chance _BACK
EXTRA_HITS: Final = _BACK / (1 - _BACK)


def _mean_heal(dice: tuple[int, int, int] | None) -> float:
    assert dice is not None                            # a medkit rolls (not "all HP")
    n, sides, plus = dice
    return n * (sides + 1) / 2 + plus


#: what a medkit charge heals on average (d6+1, VD-30)
MEDKIT_MEAN: Final = _mean_heal(tables.HEALING["medkit"].dice)


@lru_cache(maxsize=None)
def _hold_chance(morale: int) -> float:
    """P(2d6 <= morale): a squad's morale holds (VD-N02)."""
    return sum(1 for a in range(1, 7) for b in range(1, 7) if a + b <= morale) / 36


def _takes(c: Combatant, incoming: float) -> float:
    """What ``c`` can take before they are out of the fight, in HP: their HP left, plus a
    character's death-table second chances (EXTRA_HITS hits of the foes' mean damage); an enemy's
    second half of HP counts only as far as its morale holds (it is checked at half, VD-19)."""
    hp = max(0, c.hp)
    if c.kind == "character":
        return hp + EXTRA_HITS * incoming
    return hp * (1 + _hold_chance(c.morale)) / 2


def fighting_strength(party: list[Combatant], foes: list[Combatant]) -> float:
    """A party's expected strength against ``foes`` (Lanchester's square law): the damage it deals
    an action (hit chance times mean damage, against each foe in turn) times what it can take
    (:func:`_takes`, plus its medkit charges)."""
    if not party or not foes:
        return 0.0
    # loops, not generators (each a call): the same sums, added in the same order from 0
    incoming = 0.0
    drs = []                                           # each side's part of _hit_chance read once
    for f in foes:
        incoming += _mean_damage(weapon_of(f).damage)
        drs.append(defence_of(f)[0])
    incoming = incoming / len(foes)
    dealt = 0.0
    kits = 0
    for c in party:
        bonus, mean = _attack_bonus(c), _mean_damage(weapon_of(c).damage)
        for dr in drs:
            dealt += _chance(dr - bonus) * mean
        kit = item_of(c, "medkit")
        if kit is not None:
            kits += kit.charges
    dealt = dealt / len(foes)
    takes = 0.0
    for c in party:
        takes += _takes(c, incoming)
    return dealt * (takes + kits * MEDKIT_MEAN)


#: the last answer per (ship, enemy ship): (the combatants tuple it was read from, the answer)
_WORTH: Final[dict[tuple, tuple]] = {}


def worth_boarding(state: VoidState, s: Ship, t: Ship) -> bool:
    """Whether ``s`` means to board ``t``: it has a boarding party, and the party's strength is at
    least BOARDING_NERVE of the strength of the people of other sides standing aboard ``t``.
    It reads the people only, so it is kept while the state's combatants are the same tuple."""
    key = (s.id, t.id)
    hit = _WORTH.get(key)
    if hit is not None and hit[0] is state.combatants:
        return hit[1]
    party = boarders(state, s)
    if not party:
        answer = False
    else:
        defenders = [c for c in crew_aboard(state, t.id) if c.side != s.side]
        answer = not defenders or (fighting_strength(party, defenders)
                                   >= BOARDING_NERVE * fighting_strength(defenders, party))
    _WORTH[key] = (state.combatants, answer)
    return answer


#: the bot's actions, made once each: (kind, actor, params) -> Action (Actions are frozen values)
_ACTIONS: Final[dict[tuple, Action]] = {}


def _act(kind: str, actor: str, params: tuple = ()) -> Action:
    """``Action.make(kind, actor, **dict(params))``, kept: ``params`` as sorted (key, value) pairs."""
    key = (kind, actor, params)
    action = _ACTIONS.get(key)
    if action is None:
        if len(_ACTIONS) > 10_000:  # ids differ between setups: keep the memo small
            _ACTIONS.clear()
        action = _ACTIONS[key] = Action.make(kind, actor, **dict(params))
    return action


def _ship_step(state: VoidState, s: Ship) -> Action:
    station = tables.STATIONS[state.slot].key
    pass_params = (("station", station),)
    if station == "command":                     # read without listing the station's choices
        urged = commandable(state, s)
        if not urged:
            return _act("pass", s.id, pass_params)
        return _act("command", s.id, (("station", "gunner" if "gunner" in urged else urged[0]),))
    if station == "pilot":
        return _pilot_step(state, s, pass_params)
    if station_crew(state, s, station) is None:  # an unmanned station offers nothing
        return _act("pass", s.id, pass_params)
    t = _target(state, s)
    if t is None:
        return _act("pass", s.id, pass_params)
    # Each choice below is taken only when the station offers it (options.station_choices asks the
    # same questions: sensors_work, can_board, can_fire, can_repair), else the station passes.
    if station == "sensors":
        if sensors_work(s) and t.id not in s.weakness:
            return _act("scan", s.id, (("target", t.id),))
        return _act("pass", s.id, pass_params)
    if station == "gunner":
        if band(state, s.id, t.id) == "docked":
            if not can_board(state, s, t) or not worth_boarding(state, s, t):
                return _act("pass", s.id, pass_params)
            if t.id in s.breached:
                return _act("board", s.id, (("method", "open"), ("target", t.id)))
            party = boarders(state, s)
            body = max(c.body for c in party)
            tech = max(c.technology for c in party)
            return _act("board", s.id, (("method", "breach" if body >= tech else "hack"), ("target", t.id)))
        if (t.frame <= 0 and _can_dock(s, t) and worth_boarding(state, s, t)) or not powered(s):  # drifting
            return _act("pass", s.id, pass_params)
        for w in _guns(s.weapons)[1]:   # the most mean damage, then the first id, that can fire
            if can_fire(state, s, w, t):
                return _act("fire", s.id, (("target", t.id), ("weapon", w.id)))
        return _act("pass", s.id, pass_params)
    if station == "engineer" and can_repair(s):
        what = repairable(s)
        if "frame" in what and s.frame * 10 < s.max_frame * 6:
            return _act("repair", s.id, (("what", "frame"),))
        for name in ("engines", *[w for w in what if w != "frame"]):
            if name in what:
                return _act("repair", s.id, (("what", name),))
    return _act("pass", s.id, pass_params)


def _pilot_step(state: VoidState, s: Ship, pass_params: tuple) -> Action:
    """The helm (read without listing the station's choices: :func:`options.helm_moves`)."""
    if not station_open(state, s, "pilot"):
        return _act("pass", s.id, pass_params)
    t = _target(state, s)
    if t is None:
        return _act("pass", s.id, pass_params)
    b = band(state, s.id, t.id)
    can_close, can_break = helm_moves(state, s, t, b)
    drifting = t.frame <= 0
    if s.frame * 4 <= s.max_frame and not drifting:
        return _act("break", s.id, (("target", t.id),)) if can_break else _act("pass", s.id, pass_params)
    if (drifting and worth_boarding(state, s, t)) or b == "far" or _best_gun_out_of_reach(s, b):
        return _act("close", s.id, (("target", t.id),)) if can_close else _act("pass", s.id, pass_params)
    return _act("evade", s.id)


# --- people ------------------------------------------------------------------------------------


def _hit_chance(c: Combatant, t: Combatant) -> float:
    """P(``c`` hits ``t``)."""
    return _chance(defence_of(t)[0] - _attack_bonus(c))


def _attack_bonus(c: Combatant) -> int:
    """What ``c`` adds to the attack roll: an enemy's attack modifier, a character's weapon ability (VD-05)."""
    return c.attack if c.kind == "enemy" else getattr(c, tables.ATTACK_ABILITY[weapon_of(c).attack])


def _chance(need: int) -> float:
    """P(1d20 >= need) with the naturals: a 1 always misses, a 20 always hits (VD-N06)."""
    faces = 21 - need                                  # the faces that hit, 1 to 19
    return (19 if faces > 19 else 1 if faces < 1 else faces) / 20


def _weakest_target(state: VoidState, c: Combatant) -> Combatant | None:
    """The standing enemy with the fewest HP (then the first id) that ``c`` can attack
    (:func:`personal.can_attack`, read in one pass: the attacker's part once, then each target's)."""
    if not can_attack_from(c):
        return None
    side, best = c.side, None
    for t in standing_aboard(state).get(c.aboard, ()):   # standing, aboard c's ship (the order: any)
        if (t.side != side and t.cover != "full"
                and (best is None or t.hp < best.hp or (t.hp == best.hp and t.id < best.id))):
            best = t
    return best


def _person_step(state: VoidState, c: Combatant) -> Action:
    kit = item_of(c, "medkit")
    if kit is not None and kit.charges > 0:
        for friend in state.combatants:
            if friend.side == c.side and friend.aboard == c.aboard and friend.status == "bleeding" and friend.kind == "character":
                return _act("medkit", c.id, (("target", friend.id),))
        if c.kind == "character" and c.hp * 3 <= c.max_hp:
            return _act("medkit", c.id, (("target", c.id),))
    if c.cover == "full":
        return _act("cover", c.id, (("level", "medium"),))
    t = _weakest_target(state, c)
    if t is None:
        return _act("end", c.id)
    chance = _hit_chance(c, t)
    void = 1 if c.kind == "character" and c.void > 0 and chance < 0.5 else None
    risky = c.kind == "character" and chance >= 0.6 and void is None
    return _act("risky" if risky else "attack", c.id, (("target", t.id), ("void", 1)) if void else (("target", t.id),))
