"""What each actor may do now: the ship stations' actions and a person's moves and actions.

The action list, the runner's buttons, the bot and the turn order (which station or
person has something to do) all read these functions.  Pure Python.
"""
from __future__ import annotations

from rulesets.core.engine import Action

from . import tables
from .common import combatant, crew_aboard, ship
from .model import Combatant, Ship, VoidState
from .personal import can_attack, item_of
from .ships import band, boarders, can_fire, can_manoeuvre, powered, station_crew

GM = "gm"


def _void(who: Combatant | None) -> tuple:
    """Whether the check may spend a Void Point: (False,) or (False, True) (VD-N04)."""
    return (False, True) if who is not None and who.kind == "character" and who.void > 0 else (False,)


def enemies_of(state: VoidState, s: Ship) -> list[Ship]:
    return [t for t in state.ships if t.side != s.side and t.in_space]


def repairable(s: Ship) -> list[str]:
    what = ["frame"] if s.frame < s.max_frame else []
    what += [m.name for m in s.modules if m.out] + [w.name for w in s.weapons if w.out]
    return what


def station_actions(state: VoidState, s: Ship, station: str) -> list[Action]:
    """The actions of one station of ship ``s`` (without "pass")."""
    out: list[Action] = []
    if station == "command":
        if station_crew(state, s, "command") is None or not powered(s):
            return out
        return [Action.make("command", s.id, station=st) for st in ("pilot", "sensors", "gunner", "engineer")
                if station_crew(state, s, st) is not None]
    who = station_crew(state, s, station)
    if who is None:
        return out
    voids = _void(who)
    if station == "pilot":
        if not can_manoeuvre(s):
            return out
        for t in enemies_of(state, s):
            b = band(state, s.id, t.id)
            jammed = "docking" in s.catastrophes or "docking" in t.catastrophes
            if b != "docked" and not (b == "close" and jammed):
                out += [Action.make("close", s.id, target=t.id, void=int(v) or None) for v in voids]
            if not (b == "docked" and (jammed or _boarding_under_way(state, s, t))):
                out += [Action.make("break", s.id, target=t.id, void=int(v) or None) for v in voids]
        out += [Action.make("evade", s.id, void=int(v) or None) for v in voids]
    elif station == "sensors":
        if not powered(s) or s.module_out("sensors"):
            return out
        for t in enemies_of(state, s):
            if t.id not in s.weakness:
                out += [Action.make("scan", s.id, target=t.id, void=int(v) or None) for v in voids]
    elif station == "gunner":
        if powered(s):
            for t in enemies_of(state, s):
                for w in s.weapons:
                    if can_fire(state, s, w, t):
                        out += [Action.make("fire", s.id, weapon=w.id, target=t.id, void=int(v) or None) for v in voids]
        for t in enemies_of(state, s):
            if band(state, s.id, t.id) == "docked" and t.id not in s.breached and boarders(state, s):
                out += [Action.make("board", s.id, target=t.id, method=m) for m in ("breach", "hack")]
    elif station == "engineer":
        if s.spare_parts > 0 and not s.reboot:
            out += [Action.make("repair", s.id, what=w, void=int(v) or None) for w in repairable(s) for v in voids]
    return out


def _boarding_under_way(state: VoidState, s: Ship, t: Ship) -> bool:
    """Nobody breaks away while people of either ship are aboard the other."""
    return any(c.alive and ((c.ship == s.id and c.aboard == t.id) or (c.ship == t.id and c.aboard == s.id))
               for c in state.combatants)


def ship_stations(state: VoidState, s: Ship) -> set[str]:
    """The stations of ``s`` with something to do this round."""
    if not s.in_space:
        return set()
    return {st.key for st in tables.STATIONS if station_actions(state, s, st.key)}


# --- personal ---------------------------------------------------------------------------


def personal_can_act(state: VoidState, c: Combatant) -> bool:
    """A person acts in a personal round when standing, not in shock, in a ship with a fight aboard."""
    if c.status != "ok":
        return False
    sides = {o.side for o in crew_aboard(state, c.aboard)}
    return len(sides) > 1


def personal_actions(state: VoidState, c: Combatant) -> list[Action]:
    out: list[Action] = []
    voids = _void(c)
    for t in state.combatants:
        if can_attack(c, t):
            for v in voids:
                out.append(Action.make("attack", c.id, target=t.id, void=int(v) or None))
                if c.kind == "character":
                    out.append(Action.make("attack", c.id, target=t.id, risky=1, void=int(v) or None))
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
