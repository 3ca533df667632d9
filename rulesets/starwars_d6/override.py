"""The GM override for Star Wars D6: set a stat, a position or a loss by hand, as a step.

Pure Python (no Django import).  The runner's "GM override" form sends a path and a value;
the ship is named by its name or id, e.g. ``Talon.hull = 3D``, ``Kestrel 1.pos = 4,7``,
``Talon.l.ammo = 2``, ``Warden.destroyed = yes``.
"""
from __future__ import annotations

import dataclasses

from rulesets.core.citation import cite
from rulesets.core.engine import IllegalAction, LogEntry

from . import hexes, rules
from .dice import CodeError, DiceCode

SEC_OVERRIDE = cite("GM override")
HELP = ("A ship (its name or id), a dot and what to set: hull, maneuverability, shields (dice codes), "
        "speed, pos (column,row), facing (N, NE, SE, S, SW, NW), gunnery / piloting / shield_skill (crew codes), "
        "destroyed (yes/no), or <weapon id>.fire_control / damage / ammo / disabled; or 'board.add' = "
        "'planet 12,8 Yavin' (or moon, obstacle) and 'board.remove' = 12,8. "
        "Examples: 'Talon.hull' = 3D, 'Kestrel 1.pos' = 4,7.")
_CODES = ("hull", "maneuverability", "shields")
_CREW = {"gunnery": "gunnery", "piloting": "piloting", "shield_skill": "shields"}
_YES = {"yes": True, "y": True, "true": True, "1": True, "no": False, "n": False, "false": False, "0": False}


def _find_ship(s: rules.CombatState, path: str) -> tuple[rules.Ship, list[str]]:
    """The ship a path starts with (its id or name, case-insensitive; longest match wins)."""
    low = path.lower()
    best = None
    for sh in s.ships:
        for key in (sh.id, sh.name):
            k = key.lower()
            if low.startswith(k + ".") and (best is None or len(k) > len(best[1])):
                best = (sh, k)
    if best is None:
        raise IllegalAction(f"'{path}' does not start with a ship's name or id and a dot (e.g. 'Talon.hull').")
    return best[0], path[len(best[1]) + 1:].split(".")


def _code(value: str, path: str) -> str:
    try:
        return str(DiceCode.parse(value))
    except CodeError:
        raise IllegalAction(f"{path}: '{value}' is not a dice code like 4D+2.") from None


def _int(value: str, path: str, lo: int = 0) -> int:
    try:
        n = int(str(value).strip())
    except ValueError:
        raise IllegalAction(f"{path}: '{value}' is not a whole number.") from None
    if n < lo:
        raise IllegalAction(f"{path}: must be {lo} or more.")
    return n


def _flag(value: str, path: str) -> bool:
    try:
        return _YES[str(value).strip().lower()]
    except KeyError:
        raise IllegalAction(f"{path}: answer yes or no.") from None


def override(state: rules.CombatState, path: str, value: str) -> tuple[rules.CombatState, list[LogEntry]]:
    path, value = str(path or "").strip(), str(value or "").strip()
    s = rules.thaw(state)
    if not path:   # the bare action (as a random playout may pick it): a ruling that changes nothing
        return s, [LogEntry("GM override with nothing to change.", SEC_OVERRIDE)]
    log: list[LogEntry] = []
    if path.lower() in ("board.add", "board.remove"):
        _board(s, path.lower(), value)
        return s, [LogEntry(f"GM override: {path} = {value}.", SEC_OVERRIDE)]
    sh, rest = _find_ship(s, path)
    field = rest[0].lower() if rest else ""
    if len(rest) == 1 and field in _CODES:
        setattr(sh, field, _code(value, path))
    elif len(rest) == 1 and field == "speed":
        sh.speed = _int(value, path)
    elif len(rest) == 1 and field in _CREW:
        sh.crew = dataclasses.replace(sh.crew, **{_CREW[field]: _code(value, path)})
    elif len(rest) == 1 and field == "pos":
        try:
            col, row = (int(x) for x in value.replace(" ", "").split(","))
        except ValueError:
            raise IllegalAction(f"{path}: give column,row such as 4,7.") from None
        if not s.hboard.contains((col, row)):
            raise IllegalAction(f"{path}: {col},{row} is off the {s.board.width}×{s.board.height} board.")
        if (col, row) in rules.occupied(s, besides=(sh.id,)):
            raise IllegalAction(f"{path}: {col},{row} holds another ship, a planet, a moon or an obstacle.")
        sh.col, sh.row = col, row
    elif len(rest) == 1 and field == "facing":
        if value.upper() not in hexes.FACING_NAME:
            raise IllegalAction(f"{path}: a facing is one of {', '.join(hexes.FACING_NAME)}.")
        sh.facing = hexes.FACING_NAME.index(value.upper())
    elif len(rest) == 1 and field == "destroyed":
        if _flag(value, path) and sh.in_play:
            _take_out(s, sh, log)
        elif not _flag(value, path):
            sh.destroyed = False
    elif len(rest) == 2:
        weapon = next((w for w in sh.weapons if w.id.lower() == rest[0].lower()), None)
        if weapon is None:
            raise IllegalAction(f"{path}: {sh.name} has no weapon '{rest[0]}' "
                                f"(its weapons: {', '.join(w.id for w in sh.weapons) or 'none'}).")
        attr = rest[1].lower()
        if attr in ("fire_control", "damage"):
            setattr(weapon, attr, _code(value, path))
        elif attr == "ammo":
            weapon.ammo = None if value.lower() in ("", "unlimited", "none") else _int(value, path)
        elif attr == "disabled":
            weapon.disabled = _flag(value, path)
        else:
            raise IllegalAction(f"{path}: a weapon's fire_control, damage, ammo or disabled can be set.")
    else:
        raise IllegalAction(f"Unknown override '{path}'. {HELP}")
    log.insert(0, LogEntry(f"GM override: {path} = {value}.", SEC_OVERRIDE))
    s.active = rules.active_label(s)
    return s, log


def _take_out(s: rules.CombatState, sh: rules.Ship, log: list[LogEntry]) -> None:
    """A ship the GM rules destroyed leaves the queue at once; the fight may end."""
    sh.destroyed = True
    was_moving = bool(s.moving and s.moving.ship == sh.id)
    if was_moving:
        rules.next_mover(s, log)          # pops it (the head of the queue) and starts the next
    s.queue = [q for q in s.queue if q != sh.id]
    for other in s.ships:
        if other.captured_by == sh.id:
            other.captured_by, other.captured_weapon = None, None
    left = rules.sides_in_play(s)
    if len(left) <= 1:
        s.over, s.winner = True, (left[0] if left else None)
        log.append(LogEntry(f"The combat is over: {s.winner or 'no side'} is left.", SEC_OVERRIDE))


def _board(s: rules.CombatState, path: str, value: str) -> None:
    """Place a planet, moon or obstacle mid-fight, or take one away (the GM's board)."""
    if path == "board.remove":
        try:
            col, row = (int(x) for x in value.replace(" ", "").split(","))
        except ValueError:
            raise IllegalAction(f"{path}: give the hex as column,row such as 12,8.") from None
        if rules.feature_at(s, (col, row)) is None:
            raise IllegalAction(f"{path}: there is no planet, moon or obstacle at {col},{row}.")
        s.features = [f for f in s.features if f.pos != (col, row)]
        return
    feature = rules.parse_feature_line(value)
    if feature is None:
        raise IllegalAction(f"{path}: write 'planet 12,8 Yavin' (planet, moon or obstacle, column,row, a name).")
    problems = rules.validate_features([feature], s.board.width, s.board.height)
    if problems:
        raise IllegalAction(f"{path}: {' '.join(problems)}")
    if (feature["col"], feature["row"]) in rules.occupied(s):
        raise IllegalAction(f"{path}: {feature['col']},{feature['row']} already holds a ship or a feature.")
    s.features = [*s.features, *rules.build_features([feature], s.board.width, s.board.height)]
