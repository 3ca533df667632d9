"""The GM override for Star Wars D6: set a stat, a position or a loss by hand, as a step.

The path is the shared grammar of :mod:`rulesets.core.override`: a ship as the GM sees it (its
name or its id), a dot, then one of :data:`SHIP_FIELDS` (``Talon.hull = 3D``, ``Kestrel 1.pos =
4,7``, ``Talon.l.ammo = 2``, ``Warden.destroyed = yes``), or an encounter field of
:data:`ENCOUNTER_FIELDS` (``board.add = planet 12,8 Yavin``, ``board.remove = 12,8``).  Values are
read by this system's schema (dice codes, hexes, facings) and errors name the path.

Pure Python (no Django import).
"""
from __future__ import annotations

import dataclasses

from rulesets.core.citation import cite
from rulesets.core.engine import IllegalAction, Log
from rulesets.core.messages import msg
from rulesets.core.lines import refuse_foreign_digits
from rulesets.core.override import OverrideField, WholeRange, parse_override, read_whole, whole_number, yes_no

from . import hexes, rules
from .dice import CodeError, DiceCode
from .firing import combat_over

SEC_OVERRIDE = cite("GM override")
HELP = ("A ship (its name or id), a dot and what to set: hull, maneuverability, shields (dice codes), "
        "speed, pos (column,row), facing (N, NE, SE, S, SW, NW), gunnery / piloting / shield_skill (crew codes), "
        "destroyed (yes/no), or <weapon id>.fire_control / damage / ammo / disabled; or 'board.add' = "
        "'planet 12,8 Yavin' (or moon, obstacle) and 'board.remove' = 12,8. "
        "Examples: 'Talon.hull' = 3D, 'Kestrel 1.pos' = 4,7.")


# ---------------------------------------------------------------- the schema's values
#: a ship's speed, stated once: the stats form (forms.py), this override and the import (through
#: the form) read it, and refuse a value outside naming the field and the range (issue 26)
SPEED = WholeRange(0, 40, "Speed")


def dice_code(text: str) -> str:
    refuse_foreign_digits(text)
    try:
        return str(DiceCode.parse(text))
    except CodeError:
        raise ValueError(f"'{text}' is not a dice code like 4D+2.") from None


def hex_position(text: str) -> tuple[int, int]:
    try:
        col, row = (read_whole(x) for x in text.replace(" ", "").split(","))
    except ValueError:
        raise ValueError("give column,row such as 4,7.") from None
    return col, row


def facing(text: str) -> int:
    if text.strip().upper() not in hexes.FACING_NAME:
        raise ValueError(f"a facing is one of {', '.join(hexes.FACING_NAME)}.")
    return hexes.FACING_NAME.index(text.strip().upper())


def ammunition(text: str) -> int | None:
    if text.strip().lower() in ("unlimited", "none"):
        return None
    return whole_number(0)(text)


def feature_line(text: str) -> dict:
    feature = rules.parse_feature_line(text)
    if feature is None:
        raise ValueError("write 'planet 12,8 Yavin' (planet, moon or obstacle, column,row, a name).")
    return feature


def _stat(name: str):
    return lambda ship, parts: str(getattr(ship, name))


def _skill(name: str):
    return lambda ship, parts: str(getattr(ship.crew, name))


#: the ship's own crew skill fields: override name -> :class:`rules.Crew` attribute
CREW_FIELDS = {"gunnery": "gunnery", "piloting": "piloting", "shield_skill": "shields"}

#: what the GM may set on a ship (``*``: a weapon's id)
SHIP_FIELDS: tuple[OverrideField, ...] = (
    *(OverrideField(name, dice_code, "a dice code such as 4D+2", current=_stat(name))
      for name in ("hull", "maneuverability", "shields")),
    OverrideField("speed", SPEED, "speed points", current=_stat("speed")),
    *(OverrideField(name, dice_code, "a crew skill code such as 5D", label=f"{attr} skill", current=_skill(attr))
      for name, attr in CREW_FIELDS.items()),
    OverrideField("pos", hex_position, "column,row on the board", label="position",
                  current=lambda ship, parts: f"{ship.col},{ship.row}"),
    OverrideField("facing", facing, ", ".join(hexes.FACING_NAME),
                  current=lambda ship, parts: hexes.FACING_NAME[ship.facing]),
    OverrideField("destroyed", yes_no, "yes or no", current=lambda ship, parts: "yes" if ship.destroyed else "no"),
    OverrideField("*.fire_control", dice_code, "a weapon's fire control code", label="fire control"),
    OverrideField("*.damage", dice_code, "a weapon's damage code", label="damage"),
    OverrideField("*.ammo", ammunition, "rounds left (a number, or 'unlimited')", label="ammunition"),
    OverrideField("*.disabled", yes_no, "yes or no", label="disabled"),
)
#: what the GM may set on the encounter: the board's planets, moons and obstacles
ENCOUNTER_FIELDS: tuple[OverrideField, ...] = (
    OverrideField("board.add", feature_line, "planet 12,8 Yavin (or moon, obstacle)", label="board: add"),
    OverrideField("board.remove", hex_position, "the hex of a planet, moon or obstacle", label="board: remove"),
)


# ---------------------------------------------------------------- the override step
def override(state: rules.CombatState, path: str, value: str, *, log: Log | None = None) -> tuple[rules.CombatState, Log]:
    """One GM override (the shared grammar: ship, path, value), as a new state and its log line
    (``log``: the step's log; a new one, kept, when None)."""
    s = rules.thaw(state)
    log = Log() if log is None else log
    if not str(path or "").strip():   # the bare action (a random playout may pick it): changes nothing
        log.say(msg("starwars_d6.log.override_nothing", "GM override with nothing to change."), SEC_OVERRIDE)
        return s, log
    request = parse_override(path, value, [(sh.id, sh.name) for sh in s.ships], SHIP_FIELDS, ENCOUNTER_FIELDS)
    # (the sentence is the shared grammar's words: rulesets/core/override.py)
    log.say(msg("starwars_d6.log.override", "{sentence}.", sentence=request.sentence()), SEC_OVERRIDE)
    name, value = request.field.name, request.value
    if request.ship_id is None:
        _board(s, request.path, name, value)
        return s, log
    sh = s.ship(request.ship_id)
    if name in ("hull", "maneuverability", "shields", "speed"):
        setattr(sh, name, value)
    elif name in CREW_FIELDS:
        sh.crew = dataclasses.replace(sh.crew, **{CREW_FIELDS[name]: value})   # crews are shared: replaced
    elif name == "pos":
        col, row = value
        if not s.hboard.contains((col, row)):
            raise IllegalAction(f"{request.path}: {col},{row} is off the {s.board.width}×{s.board.height} board.")
        if (col, row) in rules.occupied(s, besides=(sh.id,)):
            raise IllegalAction(f"{request.path}: {col},{row} holds another ship, a planet, a moon or an obstacle.")
        sh.col, sh.row = col, row
    elif name == "facing":
        sh.facing = value
    elif name == "destroyed":
        if value and sh.in_play:
            _take_out(s, sh, log)
        elif not value:
            sh.destroyed = False
    else:
        weapon_id = request.parts[0]
        weapon = next((w for w in sh.weapons if w.id.lower() == weapon_id.lower()), None)
        if weapon is None:
            raise IllegalAction(f"{request.path}: {sh.name} has no weapon '{weapon_id}' "
                                f"(its weapons: {', '.join(w.id for w in sh.weapons) or 'none'}).")
        setattr(weapon, name.split(".")[1], value)
    return s, log


def _take_out(s: rules.CombatState, sh: rules.Ship, log: Log) -> None:
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
        log.say(combat_over(s.winner), SEC_OVERRIDE)


def _board(s: rules.CombatState, path: str, name: str, value) -> None:
    """Place a planet, moon or obstacle mid-fight, or take one away (the GM's board)."""
    if name == "board.remove":
        if rules.feature_at(s, value) is None:
            raise IllegalAction(f"{path}: there is no planet, moon or obstacle at {value[0]},{value[1]}.")
        s.features = [f for f in s.features if f.pos != value]
        return
    problems = rules.validate_features([value], s.board.width, s.board.height)
    if problems:
        raise IllegalAction(f"{path}: {' '.join(problems)}")
    if (value["col"], value["row"]) in rules.occupied(s):
        raise IllegalAction(f"{path}: {value['col']},{value['row']} already holds a ship or a feature.")
    s.features = [*s.features, *rules.build_features([value], s.board.width, s.board.height)]
