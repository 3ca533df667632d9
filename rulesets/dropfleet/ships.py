"""A ship's current values, derived from its profile, order, spikes and crippling effects,
and the working copy a step changes (copy-on-write: only the ships a rule touches are copied).
"""
from __future__ import annotations

import math

from rulesets.core.dice import Dice, Roll
from rulesets.core.engine import Log
from rulesets.core.messages import Message
from rulesets.core.state import clone

from . import checks, tables
from .state import Ship


# --- derived values -------------------------------------------------------------------

def signature(ship: Ship) -> int:
    """Signature with spikes (DF-N02) and the shields' drawback (DF-11); 0 under Silent Running."""
    if ship.silent:
        return 0
    extra = ship.profile.shield_signature if ship.shields_up else 0
    return ship.profile.signature + extra + tables.SPIKE_INCHES[ship.spike]


def scan(ship: Ship) -> int:
    """Scan after Scanner disabled (1", DF-32), Scanner damage (6", DF-41) and Active Scan (x2, decision D3)."""
    value = ship.profile.scan
    if ship.effects:
        if ship.has("scanner_disabled"):
            value = 1
        elif ship.has("scanner_damage"):
            value = min(value, 6)
    if ship.order in _SCANNING:
        value *= tables.ORDERS[ship.order].scan_factor
    return value


#: orders that multiply Scan (Active Scan)
_SCANNING = frozenset(key for key, order in tables.ORDERS.items() if order.scan_factor > 1)


def thrust(ship: Ship) -> int:
    """Thrust after Engines disabled (halved, round up; DF-35) and Engines destroyed (-2"; DF-44)."""
    value = ship.profile.thrust
    if not ship.effects:
        return value
    if ship.has("engines_disabled"):
        value = math.ceil(value / 2)
    if ship.has("engines_destroyed"):
        value = max(0, value - 2)
    return value


def armour_save(ship: Ship) -> int:
    """The best armour save after Cracked armour (+2 each; DF-06, DF-33).  Above 6: no save (decision D6)."""
    best = min(ship.profile.armour)
    if not ship.effects:
        return best
    return best + 2 * sum(1 for e in ship.effects if e.key == "cracked_armour")


def passive_save(ship: Ship) -> int | None:
    """The passive countermeasure save if it works now: always-on, or shields up (DF-09, DF-14, DF-15)."""
    p = ship.profile
    if p.passive is None or (p.passive_switchable and not ship.shields_up):
        return None
    return p.passive


def normal_save(ship: Ship) -> int:
    """The best save against normal hits: armour or passive, whichever is better (DF-12)."""
    passive = passive_save(ship)
    armour = armour_save(ship)
    return armour if passive is None else min(armour, passive)


def point_defence(ship: Ship) -> int:
    """PD dice; none while shields that block point defence are up (DF-11)."""
    if ship.shields_up and ship.profile.shields_block_pd:
        return 0
    return ship.profile.pd


def start_hull(ship: Ship) -> int:
    return ship.profile.hull


def crippled(ship: Ship) -> bool:
    """Crippled: 50% of the starting Hull lost (DF-21), a Dreadnought at 18 or less (DF-22)."""
    if ship.profile.hull <= tables.SMALL_SHIP_HULL:
        return False
    if ship.profile.dreadnought:
        return ship.hull <= tables.DREADNOUGHT_THRESHOLDS[0]
    return 2 * (ship.profile.hull - ship.hull) >= ship.profile.hull


def thresholds_due(ship: Ship) -> list[str]:
    """Crippling thresholds crossed and not rolled yet (DF-25, DF-27, DF-N09)."""
    if ship.destroyed or ship.profile.hull <= tables.SMALL_SHIP_HULL:
        return []
    if ship.profile.dreadnought:
        return [str(t) for t in tables.DREADNOUGHT_THRESHOLDS if ship.hull <= t and str(t) not in ship.cripple_rolled]
    if 2 * (ship.profile.hull - ship.hull) >= ship.profile.hull and "half" not in ship.cripple_rolled:
        return ["half"]
    return []


def weapon(ship: Ship, weapon_id: str):
    for w in ship.profile.weapons:
        if w.id == weapon_id:
            return w
    raise KeyError(f"{ship.name} has no weapon system '{weapon_id}'.")


def weapon_usable(ship: Ship, weapon_id: str) -> bool:
    return not any(e.key == "weapon_destroyed" and e.weapon == weapon_id for e in ship.effects)


# --- the working copy of one step -----------------------------------------------------

class Work:
    """The ships of a state being changed by one step, with the log and the dice.

    ``ships`` is a new list sharing every ship with the old state; :meth:`put` replaces
    one ship (frozen dataclasses: a change is a new object).  ``log`` is the step's core
    :class:`~rulesets.core.engine.Log`: the rules say every line (a message) and, in a playout,
    the log keeps none; the dice drawn are the same either way.
    """

    __slots__ = ("state", "ships", "_index", "dice", "source", "log", "say", "in_attack", "attacked",
                 "explosions", "faces")

    def __init__(self, state, dice: Dice):
        self.state = state
        self.ships: list[Ship] = list(state.ships)
        self._index: dict | None = None  # ship id -> place in ``ships``, built when first needed
        self.dice = dice
        self.source = dice.source
        self.log = Log(dice.recording)
        #: say a log line: ``say(text, rule, gm_only=False)``, the log's own :meth:`~rulesets.core.engine.Log.say`
        self.say = self.log.say
        self.in_attack = False  # damage now counts as from an attack (crippling at the activation's end)
        self.attacked: tuple[str, ...] = state.attacked  # tuples: a step that adds one makes a new one
        self.explosions: tuple = state.explosions
        self.faces: tuple[int, ...] = ()  # the last pool's faces, for the log

    @property
    def index(self) -> dict:
        if self._index is None:
            self._index = {s.id: i for i, s in enumerate(self.ships)}
        return self._index

    def ship(self, ship_id: str) -> Ship:
        index = self._index
        if index is None:
            index = self.index
        return self.ships[index[ship_id]]

    def put(self, ship: Ship, **changes) -> Ship:
        new = clone(ship, **changes)
        index = self._index
        if index is None:
            index = self.index
        self.ships[index[ship.id]] = new
        return new

    def roll(self, count: int, sides: int, purpose: Message | str, rule: str, **kw) -> Roll:
        """A summed roll (damage, tables)."""
        return self.dice.roll(count, sides, purpose=purpose, rule=rule, **kw)

    def successes(self, count: int, need: int, purpose: Message | str, rule: str) -> int:
        """How many of ``count`` D6 roll ``need`` or more (saves, point defence): the core check of
        a :class:`~.checks.LockPool`, rolled the same way in a playout and a recorded step (its
        faces kept in ``faces`` for the log)."""
        result = checks.roll_pool(self.dice, checks.pool_check(checks.LockPool(count, need), rule, purpose))
        self.faces = result.faces
        return result.natural
