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
from typing import Final, NamedTuple

from rulesets.core.engine import Action

from . import tables
from .common import combatant, crew_aboard, ship, standing
from .dice import parse_damage
from .model import Combatant, Ship, VoidState
from .options import (GM, can_board, can_repair, commandable, enemies_of, helm_moves, repairable, sensors_work,
                      station_open)
from .personal import can_attack_from, defence_of, item_of, weapon_of
from .ships import band, boarders, can_fire, can_manoeuvre, powered, station_crews


def choose(state: VoidState, rng: random.Random) -> Action:
    if state.phase == "initiative":
        return _act("begin", GM)
    actor = state.order[state.turn]
    if state.scale == "ship":
        return _ship_step(state, ship(state, actor))
    return _person_step(state, combatant(state, actor))


# --- ships ------------------------------------------------------------------------------------


def _target(state: VoidState, s: Ship) -> tuple[Ship | None, bool | None]:
    """The enemy ship ``s`` goes for: a drifting one it means to board, else the one with the least
    frame left (the first of them), among the ships of sides with anybody standing; and whether
    ``s`` means to board it (:func:`worth_boarding`), when that was weighed on the way (else None)."""
    sides = standing(state).anywhere
    foes = [t for t in enemies_of(state, s) if t.side in sides]
    if not foes:
        return None, None
    if len(foes) == 1:                  # nothing to choose between: weighed only when a station asks
        return foes[0], None
    for t in foes:
        if t.drifting and worth_boarding(state, s, t):
            return t, True
    t = min(foes, key=lambda t: t.frame)
    return t, (False if t.drifting else None)   # a drifting one was weighed above


def _boards(state: VoidState, s: Ship, t: Ship, weighed: bool | None) -> bool:
    """Whether ``s`` means to board ``t``: as :func:`_target` weighed it, else weighed now."""
    return worth_boarding(state, s, t) if weighed is None else weighed


def _can_dock(s: Ship, t: Ship) -> bool:
    """Whether ``s`` can still come alongside ``t`` (then the guns hold fire on a drifting ``t``)."""
    return can_manoeuvre(s) and "docking" not in s.catastrophes and "docking" not in t.catastrophes


def _best_gun_out_of_reach(s: Ship, b: str) -> bool:
    """Whether the ship's hardest-hitting working gun cannot reach at band ``b`` (short of Docked):
    then the pilot closes in (a Close-only gun is worth nothing at Medium)."""
    ranked = _guns(s.weapons)[0]
    return bool(ranked) and b != "docked" and ranked[0].reach not in tables.BANDS[b].reaches


@lru_cache(maxsize=256)
def _guns(weapons: tuple) -> tuple[tuple, tuple]:
    """The working weapons ranked the most mean damage first, twice: then in the ship's order (the
    first is the best gun), and then by id (the order the guns pick what to fire in).
    Kept by value: a ship's weapons change only when a gun is knocked out or repaired."""
    working = [(-_mean_damage(w.damage), i, w) for i, w in enumerate(weapons) if not w.out]
    return (tuple(w for _, _, w in sorted(working, key=lambda x: (x[0], x[1]))),
            tuple(w for _, _, w in sorted(working, key=lambda x: (x[0], x[2].id, x[1]))))


@lru_cache(maxsize=256)
def _mean_damage(text: str) -> float:
    """The mean of a damage roll (``"2d6+1"``: 8.0)."""
    dd = parse_damage(text)
    return dd.count * (dd.sides + 1) / 2 + dd.plus


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


class Fighter(NamedTuple):
    """What the weighing of a boarding reads of a person (a value: equal people weigh the same)."""

    character: bool
    hp: int
    morale: int
    bonus: int          # what they add to an attack roll (:func:`_attack_bonus`)
    mean: float         # their weapon's mean damage
    dr: int             # their Defence Rating against an attack (personal.defence_of)
    kits: int           # medkit charges


@lru_cache(maxsize=1024)
def fighter(c: Combatant) -> Fighter:
    """``c``'s :class:`Fighter` (kept by value: a person weighed again is weighed the same)."""
    kit = item_of(c, "medkit")
    return Fighter(c.kind == "character", c.hp, c.morale, _attack_bonus(c), _mean_damage(weapon_of(c).damage),
                   defence_of(c)[0], kit.charges if kit is not None else 0)


def _takes(c: Fighter, incoming: float) -> float:
    """What ``c`` can take before they are out of the fight, in HP: their HP left, plus a
    character's death-table second chances (EXTRA_HITS hits of the foes' mean damage); an enemy's
    second half of HP counts only as far as its morale holds (it is checked at half, VD-19)."""
    hp = max(0, c.hp)
    if c.character:
        return hp + EXTRA_HITS * incoming
    return hp * (1 + _hold_chance(c.morale)) / 2


def fighting_strength(party: list[Combatant], foes: list[Combatant]) -> float:
    """A party's expected strength against ``foes`` (Lanchester's square law): the damage it deals
    an action (hit chance times mean damage, against each foe in turn) times what it can take
    (:func:`_takes`, plus its medkit charges)."""
    return _strength(tuple(map(fighter, party)), tuple(map(fighter, foes)))


def worth_boarding(state: VoidState, s: Ship, t: Ship) -> bool:
    """Whether ``s`` means to board ``t``: it has a boarding party, and the party's strength is at
    least BOARDING_NERVE of the strength of the people of other sides standing aboard ``t``."""
    party = tuple(map(fighter, boarders(state, s)))
    if not party:
        return False
    defenders = tuple(fighter(c) for c in crew_aboard(state, t.id) if c.side != s.side)
    return not defenders or _strength(party, defenders) >= BOARDING_NERVE * _strength(defenders, party)


@lru_cache(maxsize=1024)
def _strength(party: tuple[Fighter, ...], foes: tuple[Fighter, ...]) -> float:
    """:func:`fighting_strength` of the people's :class:`Fighter` values (kept by value: a boarding
    is weighed at every station's step while nobody's HP or gear changes)."""
    if not party or not foes:
        return 0.0
    incoming = sum(f.mean for f in foes) / len(foes)
    dealt = sum(_chance(f.dr - c.bonus) * c.mean for c in party for f in foes) / len(foes)
    kits = sum(c.kits for c in party)
    takes = sum(_takes(c, incoming) for c in party)
    return dealt * (takes + kits * MEDKIT_MEAN)


@lru_cache(maxsize=4096)
def _act(kind: str, actor: str, params: tuple = ()) -> Action:
    """``Action.make(kind, actor, **dict(params))``: ``params`` as sorted (key, value) pairs (kept by
    value: an Action is a frozen value, and the bot takes the same few actions again and again)."""
    return Action.make(kind, actor, **dict(params))


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
    if station not in station_crews(state, s):   # an unmanned station offers nothing
        return _act("pass", s.id, pass_params)
    t, weighed = _target(state, s)
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
            if not can_board(state, s, t) or not _boards(state, s, t, weighed):
                return _act("pass", s.id, pass_params)
            if t.id in s.breached:
                return _act("board", s.id, (("method", "open"), ("target", t.id)))
            party = boarders(state, s)
            body = max(c.body for c in party)
            tech = max(c.technology for c in party)
            return _act("board", s.id, (("method", "breach" if body >= tech else "hack"), ("target", t.id)))
        if (t.drifting and _can_dock(s, t) and _boards(state, s, t, weighed)) or not powered(s):
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
    t, weighed = _target(state, s)
    if t is None:
        return _act("pass", s.id, pass_params)
    b = band(state, s.id, t.id)
    can_close, can_break = helm_moves(state, s, t, b)
    if s.frame * 4 <= s.max_frame and not t.drifting:
        return _act("break", s.id, (("target", t.id),)) if can_break else _act("pass", s.id, pass_params)
    if (t.drifting and _boards(state, s, t, weighed)) or b == "far" or _best_gun_out_of_reach(s, b):
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
    for t in crew_aboard(state, c.aboard):
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
