"""Ship stats and the board's features: validation, building the plain data, a new combat.

Seed: star-wars-d6-starship-combat.ca.txt.  Pure Python: no Django import.
"""
from __future__ import annotations

import re

from . import tables
from .dice import CodeError, DiceCode
from .state import (BoardSize, CombatState, COMPLICATIONS, copy_ship, Crew, Feature, clone, Ship,
    Weapon)


def _is_code(value) -> bool:
    try:
        DiceCode.parse(value)
    except (CodeError, TypeError):
        return False
    return True


def validate_stats(stats: dict) -> list[str]:
    """Problems with a ship's stats (empty when they are fine)."""
    errors: list[str] = []
    if not isinstance(stats, dict):
        return ["Ship stats must be a mapping."]
    if not str(stats.get("name", "")).strip():
        errors.append("A ship needs a name.")
    if stats.get("scale", tables.STARFIGHTER) not in tables.SCALES:
        errors.append(f"Scale must be one of {', '.join(tables.SCALES)}.")
    speed = stats.get("speed", 0)
    if not isinstance(speed, int) or isinstance(speed, bool) or speed < 0:
        errors.append("Speed must be a whole number, 0 or more.")
    for key in ("maneuverability", "hull", "shields"):
        if key in stats and not _is_code(stats[key]):
            errors.append(f"{key.capitalize()} must be a dice code like 2D+1.")
    if "hull" not in stats:
        errors.append("A ship needs a hull code.")
    if stats.get("hyperdrive") not in (None, "") and not isinstance(stats.get("hyperdrive"), str):
        errors.append("Hyperdrive must be text such as x1, or empty.")
    for key, value in (stats.get("crew") or {}).items():
        if key not in ("gunnery", "piloting", "shields"):
            errors.append(f"Unknown crew skill {key!r}.")
        elif not _is_code(value):
            errors.append(f"Crew {key} must be a dice code like 4D.")
    ids = set()
    for i, w in enumerate(stats.get("weapons") or []):
        label = f"Weapon {i + 1}"
        if not isinstance(w, dict):
            errors.append(f"{label} must be a mapping.")
            continue
        if w.get("type") not in tables.WEAPON_TYPES:
            errors.append(f"{label}: type must be one of {', '.join(tables.WEAPON_TYPES)}.")
        for key in ("fire_control", "damage"):
            if not _is_code(w.get(key, "0D")):
                errors.append(f"{label}: {key.replace('_', ' ')} must be a dice code.")
        linked = w.get("linked", 1)
        if not isinstance(linked, int) or isinstance(linked, bool) or linked < 1:
            errors.append(f"{label}: fire-linked count must be 1 or more.")
        shots = w.get("shots", 1)
        if not isinstance(shots, int) or isinstance(shots, bool) or shots < 1:
            errors.append(f"{label}: broadside shots must be 1 or more.")
        ammo = w.get("ammo")
        if ammo is not None and (not isinstance(ammo, int) or isinstance(ammo, bool) or ammo < 0):
            errors.append(f"{label}: ammunition must be a whole number, 0 or more, or empty.")
        wid = str(w.get("id", f"w{i + 1}"))
        if wid in ids:
            errors.append(f"{label}: the id {wid!r} is used twice.")
        ids.add(wid)
    return errors


def build_ship(stats: dict, *, id: str, side: str, col: int = 0, row: int = 0, facing: int = 0) -> Ship:
    """A :class:`Ship` from stats that :func:`validate_stats` accepts (codes normalised)."""
    errors = validate_stats(stats)
    if errors:
        raise ValueError("; ".join(errors))
    crew = stats.get("crew") or {}
    weapons = [Weapon(id=str(w.get("id", f"w{i + 1}")), name=str(w.get("name", tables.WEAPON_LABEL[w["type"]])),
                      type=w["type"], fire_control=str(DiceCode.parse(w.get("fire_control", "0D"))),
                      damage=str(DiceCode.parse(w.get("damage", "0D"))), linked=int(w.get("linked", 1)),
                      ammo=w.get("ammo"), shots=int(w.get("shots", 1)))
               for i, w in enumerate(stats.get("weapons") or [])]
    return Ship(id=id, name=str(stats["name"]), side=side, scale=stats.get("scale", tables.STARFIGHTER),
                speed=int(stats.get("speed", 0)),
                maneuverability=str(DiceCode.parse(stats.get("maneuverability", "0D"))),
                hull=str(DiceCode.parse(stats["hull"])), shields=str(DiceCode.parse(stats.get("shields", "0D"))),
                hyperdrive=stats.get("hyperdrive") or None, weapons=weapons,
                crew=Crew(**{k: str(DiceCode.parse(v)) for k, v in crew.items()}),
                col=col, row=row, facing=facing % 6)
_FEATURE_LINE = re.compile(r"^(planet|moon|obstacle)\s+(\d+)\s*,\s*(\d+)(?:\s+(.+))?$", re.I | re.ASCII)


def parse_feature_line(line: str) -> dict | None:
    """``"planet 12,8 Yavin"`` as a feature dict ({kind, col, row, name?}), or None if it is not one
    (the setup form's lines and the GM override's ``board.add``)."""
    m = _FEATURE_LINE.match(line.strip())
    if not m:
        return None
    feature = {"kind": m.group(1).lower(), "col": int(m.group(2)), "row": int(m.group(3))}
    if m.group(4):
        feature["name"] = m.group(4).strip()
    return feature


def validate_features(features, width: int | None = None, height: int | None = None) -> list[str]:
    """Problems with a list of board features ({kind, col, row, name?}); empty when fine."""
    errors: list[str] = []
    if not isinstance(features, (list, tuple)):
        return ["Board features must be a list."]
    for i, f in enumerate(features):
        label = f"Feature {i + 1}"
        if isinstance(f, Feature):
            f = {"kind": f.kind, "col": f.col, "row": f.row}
        if not isinstance(f, dict):
            errors.append(f"{label} must be a mapping.")
            continue
        if f.get("kind") not in tables.FEATURE_KINDS:
            errors.append(f"{label}: kind must be one of {', '.join(tables.FEATURE_KINDS)}.")
        col, row = f.get("col"), f.get("row")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (col, row)):
            errors.append(f"{label}: col and row must be whole numbers.")
        elif width is not None and height is not None and not (0 <= col < width and 0 <= row < height):
            errors.append(f"{label}: ({col},{row}) is off the {width}x{height} board.")
    return errors


def build_features(features, width: int | None = None, height: int | None = None) -> list[Feature]:
    """:class:`Feature` objects from dicts that :func:`validate_features` accepts."""
    errors = validate_features(features or [], width, height)
    if errors:
        raise ValueError("; ".join(errors))
    out = []
    for f in features or []:
        if isinstance(f, Feature):
            out.append(clone(f))
        else:
            out.append(Feature(f["kind"], int(f["col"]), int(f["row"]), str(f.get("name") or "")))
    return out


def new_combat(ships: list[Ship], width: int = 30, height: int = 20, *, wild: bool = True,
               max_rounds: int = 0, features=(), complication: str = "remove") -> CombatState:
    """``complication`` (RULES-NOTES Wild Die): what a 1 on the Wild Die's first roll does --
    "remove" it and the highest other die (default), or "add" normally and flag a complication."""
    if complication not in COMPLICATIONS:
        raise ValueError(f"complication must be 'remove' or 'add', not {complication!r}.")
    sides: list[str] = []
    for sh in ships:
        if sh.side not in sides:
            sides.append(sh.side)
    s = CombatState(ships=[copy_ship(sh) for sh in ships], board=BoardSize(width, height), wild=wild,
                    complication=complication, max_rounds=max_rounds, sides=sides, features=build_features(list(features), width, height))
    return s
