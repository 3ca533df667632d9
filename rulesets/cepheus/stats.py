"""A ship's stats: the schema, its validation, and the "one mount per line" text.

Shared by the stat forms, the import checks and :mod:`.setup` (docs/rulesets/cepheus.md,
"Ship stats schema").
"""
from __future__ import annotations

import re
from typing import Any

from rulesets.core.lines import split_fields

from .tables import MISSILES, SENSOR_GRADES, TURRET_CAPACITY, WEAPONS


WEAPON_ALIASES = {
    "pulse laser": "pulse_laser", "pulse": "pulse_laser", "pulse_laser": "pulse_laser",
    "beam laser": "beam_laser", "beam": "beam_laser", "beam_laser": "beam_laser", "laser": "beam_laser",
    "missile rack": "missile_rack", "missile": "missile_rack", "missiles": "missile_rack", "missile_rack": "missile_rack",
    "sandcaster": "sandcaster", "sand": "sandcaster",
    "particle beam": "particle_beam", "particle": "particle_beam", "particle_beam": "particle_beam",
    "fusion gun": "fusion_gun", "fusion": "fusion_gun", "fusion_gun": "fusion_gun",
}


BAY_ALIASES = {
    "particle": "particle_bay", "particle beam": "particle_bay", "particle bay": "particle_bay",
    "particle beam bay": "particle_bay", "particle_bay": "particle_bay",
    "fusion": "fusion_bay", "fusion gun": "fusion_bay", "fusion bay": "fusion_bay", "fusion gun bay": "fusion_bay",
    "fusion_bay": "fusion_bay",
    "meson": "meson_bay", "meson gun": "meson_bay", "meson bay": "meson_bay", "meson gun bay": "meson_bay",
    "meson_bay": "meson_bay",
    "missile": "missile_bay", "missiles": "missile_bay", "missile bay": "missile_bay", "missile_bay": "missile_bay",
}


_ITEM = re.compile(r"^(?P<name>[a-z _]+?)\s*(?:\((?P<kind>[a-z]+)\))?\s*(?:x\s*(?P<ammo>\d+))?$", re.ASCII)


STAT_LIMITS = {
    "tonnage": (10, 1_000_000), "armour": (0, 20), "thrust": (0, 10), "jump": (0, 6),
    "electronics": (-4, 6), "fire_control": (0, 5), "expert_pilot": (0, 3), "expert_engineer": (0, 3),
    "fuel": (0, 1_000_000), "cargo": (0, 1_000_000),
}


STAT_FLAGS = ("auto_repair", "intellect", "repair_drones", "nuclear_damper", "meson_screen")


def hull_points(tonnage: int) -> int:
    """Danno: one Hull point per 50 tons, rounded down."""
    return tonnage // 50


def structure_points(tonnage: int) -> int:
    """Danno: one Structure point per 50 tons, minimum 1."""
    return max(1, tonnage // 50)


def parse_mount_line(line: str, mount: str) -> tuple[list[dict], list[str]]:
    """A turret ("pulse laser, sandcaster x20") or bay ("missile (smart) x24") line as weapon dicts."""
    weapons, errors = [], []
    items = [p.lower() for p in split_fields(line) if p]
    if not items:
        return [], ["empty line"]
    aliases = BAY_ALIASES if mount == "bay" else WEAPON_ALIASES
    for item in items:
        m = _ITEM.match(item)
        name = m.group("name").strip() if m else item
        key = aliases.get(name)
        if key is None:
            known = ", ".join(sorted({v.replace("_", " ") for v in aliases.values()}))
            errors.append(f"'{item}' is not a {mount} weapon (one of: {known})")
            continue
        assert m is not None  # every weapon's name is words the pattern matches
        kind = WEAPONS[key]
        w: dict[str, Any] = {"type": key}
        if kind.ammo:
            w["ammo"] = int(m.group("ammo")) if m.group("ammo") else kind.capacity
        elif m.group("ammo"):
            errors.append(f"'{item}': only missiles and sandcasters carry ammunition")
        if kind.missile:
            w["missile"] = m.group("kind") or "standard"
            if w["missile"] not in MISSILES:
                errors.append(f"'{item}': missile kind must be standard, smart or nuclear")
        elif m.group("kind"):
            errors.append(f"'{item}': only missiles have a kind in brackets")
        weapons.append(w)
    if mount == "bay" and len(weapons) > 1:
        errors.append("a bay holds a single weapon")
    if mount == "turret" and len(weapons) > TURRET_CAPACITY:
        errors.append(f"a turret holds at most {TURRET_CAPACITY} weapons")
    return weapons, errors


def mount_line(weapons: list[dict]) -> str:
    """The inverse of :func:`parse_mount_line`."""
    out = []
    for w in weapons:
        kind = WEAPONS[w["type"]]
        text = kind.label.replace(" bay", "") if kind.mount == "bay" else kind.label
        if kind.missile and w.get("missile", "standard") != "standard":
            text += f" ({w['missile']})"
        if kind.ammo:
            text += f" x{w.get('ammo', kind.capacity)}"
        out.append(text)
    return ", ".join(out)


def _as_weapon_list(raw, mount: str, where: str, errors: list[str]) -> list[dict]:
    if isinstance(raw, str):
        weapons, errs = parse_mount_line(raw, mount)
        errors.extend(f"{where}: {e}" for e in errs)
        return weapons
    if isinstance(raw, dict) and mount == "bay":
        raw = [raw]
    elif isinstance(raw, dict):
        raw = raw.get("weapons", [])
    out = []
    for w in raw or []:
        if isinstance(w, str):
            ws, errs = parse_mount_line(w, mount)
            errors.extend(f"{where}: {e}" for e in errs)
            out.extend(ws)
            continue
        key = w.get("type", "")
        key = (BAY_ALIASES if mount == "bay" else WEAPON_ALIASES).get(str(key).replace("_", " "), key)
        if key not in WEAPONS or WEAPONS[key].mount != mount:
            errors.append(f"{where}: '{w.get('type')}' is not a {mount} weapon")
            continue
        kind = WEAPONS[key]
        item = {"type": key}
        if kind.ammo:
            item["ammo"] = int(w.get("ammo", kind.capacity))
            if item["ammo"] < 0:
                errors.append(f"{where}: ammunition cannot be negative")
        if kind.missile:
            item["missile"] = w.get("missile", "standard")
            if item["missile"] not in MISSILES:
                errors.append(f"{where}: missile kind must be standard, smart or nuclear")
        out.append(item)
    return out


def normalise_stats(stats: dict) -> tuple[dict, list[str]]:
    """(normalised stats, errors).  See docs/rulesets/cepheus.md for the schema."""
    errors: list[str] = []
    out: dict = {}
    defaults = {"tonnage": 100, "armour": 0, "thrust": 1, "jump": 0, "electronics": 0, "fire_control": 0,
                "expert_pilot": 0, "expert_engineer": 0, "fuel": 0, "cargo": 0}
    for key, (lo, hi) in STAT_LIMITS.items():
        raw = stats.get(key, defaults[key])
        try:
            value = int(raw)
        except (TypeError, ValueError):
            errors.append(f"{key}: '{raw}' is not a whole number")
            continue
        if not lo <= value <= hi:
            errors.append(f"{key}: {value} is outside {lo}-{hi}")
        out[key] = value
    sensors = stats.get("sensors", "standard")
    if sensors not in SENSOR_GRADES:
        errors.append(f"sensors: '{sensors}' is not one of {', '.join(SENSOR_GRADES)}")
    out["sensors"] = sensors
    for flag in STAT_FLAGS:
        out[flag] = bool(stats.get(flag, False))
    out["turrets"] = []
    for i, raw in enumerate(stats.get("turrets", []) or []):
        weapons = _as_weapon_list(raw, "turret", f"turret {i + 1}", errors)
        if not weapons:
            errors.append(f"turret {i + 1}: no weapons")
        if len(weapons) > TURRET_CAPACITY:
            errors.append(f"turret {i + 1}: at most {TURRET_CAPACITY} weapons")
        out["turrets"].append({"weapons": weapons})
    out["bays"] = []
    for i, raw in enumerate(stats.get("bays", []) or []):
        weapons = _as_weapon_list(raw, "bay", f"bay {i + 1}", errors)
        if len(weapons) != 1:
            errors.append(f"bay {i + 1}: a bay holds exactly one weapon")
            continue
        out["bays"].append(weapons[0])
    tonnage = out.get("tonnage", 100)
    hardpoints = max(1, tonnage // 100)
    if len(out["turrets"]) + len(out["bays"]) > hardpoints and tonnage >= 100:
        errors.append(f"turrets and bays: {len(out['turrets']) + len(out['bays'])} mounts, but {tonnage} t has {hardpoints} hardpoints")
    if out["bays"] and tonnage < 200:
        errors.append("bays: a bay needs a ship of 200 tons or more")
    return out, errors


def validate_stats(stats: dict) -> list[str]:
    """Problems with a stats dict, as readable strings ([] when fine)."""
    if not isinstance(stats, dict):
        return ["stats must be a mapping"]
    return normalise_stats(stats)[1]
