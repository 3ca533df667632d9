"""What each actor may do now: the ship stations' actions and a person's moves and actions.

The action list, the runner's buttons, the bot and the turn order (which station or
person has something to do) all read these functions.  Pure Python.
"""
from __future__ import annotations

from typing import Final

from rulesets.core.engine import Action

from . import tables
from .common import combatant, ship
from .model import OUT, Combatant, Ship, VoidState
from .personal import can_attack, item_of
from .ships import band, boarders, can_fire, can_manoeuvre, powered, station_crew, station_crews

GM: Final = "gm"


def _void(who: Combatant | None) -> tuple:
    """Whether the check may spend a Void Point: (None,) or (None, 1) (VD-N04)."""
    return (None, 1) if who is not None and who.kind == "character" and who.void > 0 else (None,)


def enemies_of(state: VoidState, s: Ship) -> list[Ship]:
    return [t for t in state.ships if t.side != s.side and t.in_space]


def repairable(s: Ship) -> list[str]:
    return ((["frame"] if s.frame < s.max_frame else []) + [m.name for m in s.modules if m.out]
            + [w.name for w in s.weapons if w.out])


_COMMANDED: Final = ("pilot", "sensors", "gunner", "engineer")


def commandable(state: VoidState, s: Ship) -> list[str]:
    """The stations the captain of ``s`` may urge (VD-41): the manned ones, when the captain is at
    the command station and the ship has power."""
    return _urgeable(s, station_crews(state, s))


def _urgeable(s: Ship, crews: dict[str, str]) -> list[str]:
    """:func:`commandable`, given who works which station of ``s``."""
    if not powered(s) or "command" not in crews:
        return []
    return [st for st in _COMMANDED if st in crews]


def helm_moves(state: VoidState, s: Ship, t: Ship, b: str | None = None) -> tuple[bool, bool]:
    """(close in, break away) of a manoeuvring ship ``s`` against the enemy ship ``t``: no closing from
    Docked, nor to Docked with a docking module jammed (VD-55); no breaking away from Docked with it
    jammed or while boarders are across (house rule).  ``b``: their band, when the caller has it."""
    if b is None:
        b = band(state, s.id, t.id)
    jammed = "docking" in s.catastrophes or "docking" in t.catastrophes
    return (b != "docked" and not (b == "close" and jammed),
            not (b == "docked" and (jammed or _boarding_under_way(state, s, t))))


def station_choices(state: VoidState, s: Ship, station: str):
    """The choices of one station of ship ``s`` (without "pass"), as (kind, params) pairs, lazily:
    the action list builds them all, the turn order only asks whether there is a first."""
    if station == "command":
        for st in commandable(state, s):
            yield "command", {"station": st}
        return
    who = station_crew(state, s, station)
    if who is None:
        return
    voids = _void(who)
    if station == "pilot":
        if not can_manoeuvre(s):
            return
        for t in enemies_of(state, s):
            can_close, can_break = helm_moves(state, s, t)
            if can_close:
                for v in voids:
                    yield "close", {"target": t.id, "void": v}
            if can_break:
                for v in voids:
                    yield "break", {"target": t.id, "void": v}
        for v in voids:
            yield "evade", {"void": v}
    elif station == "sensors":
        if not sensors_work(s):
            return
        for t in enemies_of(state, s):
            if t.id not in s.weakness:
                for v in voids:
                    yield "scan", {"target": t.id, "void": v}
    elif station == "gunner":
        if powered(s):
            for t in enemies_of(state, s):
                for w in s.weapons:
                    if can_fire(state, s, w, t):
                        for v in voids:
                            yield "fire", {"weapon": w.id, "target": t.id, "void": v}
        for t in enemies_of(state, s):
            if can_board(state, s, t):
                for m in (("open",) if t.id in s.breached else ("breach", "hack")):
                    yield "board", {"target": t.id, "method": m}
    elif station == "engineer":
        if can_repair(s):
            for part in repairable(s):
                for v in voids:
                    yield "repair", {"what": part, "void": v}


# What a manned station offers, asked one choice at a time: the list above, the turn order's
# station_open and the bot all read these, so they cannot disagree.


def sensors_work(s: Ship) -> bool:
    """The sensors can scan: power (VD-50, VD-63) and the sensors module on line (VD-51)."""
    return powered(s) and not s.module_out("sensors")


def can_board(state: VoidState, s: Ship, t: Ship) -> bool:
    """Docked with ``t`` and somebody to go across (VD-47, house rules in :func:`ships.boarders`)."""
    return band(state, s.id, t.id) == "docked" and bool(boarders(state, s))


def can_repair(s: Ship) -> bool:
    """A spare part to spend and the systems up (VD-40, VD-63)."""
    return s.spare_parts > 0 and not s.reboot


def gunner_open(state: VoidState, s: Ship) -> bool:
    """Whether the gunner has a first choice: a gun that can fire at an enemy ship, or a boarding."""
    return _gunner_open(state, s, station_crews(state, s))


def _gunner_open(state: VoidState, s: Ship, crews: dict[str, str]) -> bool:
    if "gunner" not in crews:
        return False
    enemies = enemies_of(state, s)
    if powered(s):
        for t in enemies:
            for w in s.weapons:
                if can_fire(state, s, w, t):
                    return True
    for t in enemies:
        if can_board(state, s, t):
            return True
    return False


def station_list(state: VoidState, s: Ship, station: str) -> list:
    """:func:`station_choices` as a list."""
    return list(station_choices(state, s, station))


def station_actions(state: VoidState, s: Ship, station: str) -> list[Action]:
    """The actions of one station of ship ``s`` (without "pass")."""
    return [Action.make(kind, s.id, **params) for kind, params in station_list(state, s, station)]


# Each takes ``crews``, who works which station of ``s`` (:func:`ships.station_crews`): the turn
# order reads it once for all the stations of a ship it passes.

def _command_open(state: VoidState, s: Ship, crews: dict[str, str]) -> bool:
    return bool(_urgeable(s, crews))


def _pilot_open(state: VoidState, s: Ship, crews: dict[str, str]) -> bool:  # "evade" whenever it can manoeuvre
    return "pilot" in crews and can_manoeuvre(s)


def _sensors_open(state: VoidState, s: Ship, crews: dict[str, str]) -> bool:
    if "sensors" not in crews or not sensors_work(s):
        return False
    for t in enemies_of(state, s):
        if t.id not in s.weakness:
            return True
    return False


def _engineer_open(state: VoidState, s: Ship, crews: dict[str, str]) -> bool:
    return "engineer" in crews and can_repair(s) and bool(repairable(s))


#: station key -> whether that station of a ship has anything to do (:func:`station_open`)
STATION_OPEN: Final = {"command": _command_open, "pilot": _pilot_open, "sensors": _sensors_open,
                "gunner": _gunner_open, "engineer": _engineer_open}


def station_open(state: VoidState, s: Ship, station: str) -> bool:
    """Whether a station of ``s`` has anything to do: whether :func:`station_choices` has a first
    choice, answered without listing them (the turn order asks it of every station it passes)."""
    return STATION_OPEN[station](state, s, station_crews(state, s))


def _boarding_under_way(state: VoidState, s: Ship, t: Ship) -> bool:
    """Nobody breaks away while people of either ship are aboard the other."""
    a, b = s.id, t.id
    for c in state.combatants:
        if c.status not in OUT and ((c.ship == a and c.aboard == b) or (c.ship == b and c.aboard == a)):  # alive
            return True
    return False


# --- personal ---------------------------------------------------------------------------


def personal_can_act(state: VoidState, c: Combatant) -> bool:
    """A person acts in a personal round when standing, not in shock, in a ship with a fight aboard."""
    from .turns import contested_ships  # turns imports this module

    return c.status == "ok" and c.aboard in contested_ships(state)


def personal_actions(state: VoidState, c: Combatant) -> list[Action]:
    out: list[Action] = []
    voids = _void(c)
    for t in state.combatants:
        if can_attack(c, t):
            for v in voids:
                out.append(Action.make("attack", c.id, target=t.id, void=v))
                if c.kind == "character":
                    out.append(Action.make("risky", c.id, target=t.id, void=v))
    kit = item_of(c, "medkit")
    if kit is not None and kit.charges > 0:
        for t in state.combatants:
            if (t.side == c.side and t.aboard == c.aboard and t.alive and t.kind == "character"
                    and (t.hp < t.max_hp or t.status == "bleeding")):
                out.append(Action.make("medkit", c.id, target=t.id))
    out += [Action.make("cover", c.id, level=level) for level in tables.COVER_ORDER if level != c.cover]
    out.append(Action.make("end", c.id))
    return out


def actor_actions(state: VoidState) -> list[Action]:
    """The actions of whoever's step it is (no GM actions)."""
    if state.over:
        return []
    if state.phase == "initiative":
        return [Action.make("begin", GM)]
    actor = state.order[state.turn]
    if state.scale == "ship":
        s = ship(state, actor)
        station = tables.STATIONS[state.slot].key
        return station_actions(state, s, station) + [Action.make("pass", s.id, station=station)]
    return personal_actions(state, combatant(state, actor))


def gm_actions(state: VoidState) -> list[Action]:
    """The GM's tools at any step: the override, a called catastrophe, rest between scenes."""
    if state.over:
        return []
    out = [Action.make("override", GM)]
    out += [Action.make("catastrophe", GM, target=s.id) for s in state.ships if not s.destroyed]
    out += [Action.make("rest", GM, what=k) for k in ("hub", "medbay", "week")]
    return out
