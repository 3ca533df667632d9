"""From a setup spec to the first state: ships, crews, enemy squads, range bands, options.

Also the stats schema (ship stats, a person's sheet, gear lines), checked here once for
the engine, the forms, the imports and scenario files.  Pure Python.
"""
from __future__ import annotations

import json
import pickle
from functools import lru_cache

from rulesets.core.lines import split_fields
from rulesets.core.state import plain_dicts

from . import tables
from .dice import parse_damage
from .common import with_standing
from .model import Combatant, Item, Module, Ship, ShipWeapon, VoidState, pair_key

#: ship stats: name -> (low, high, default)
SHIP_NUMBERS = {
    "frame": (1, 60, 10),        # the frame's Condition (Стрельба и повреждения рамы)
    "speed": (1, 30, 10),        # the pursuer's Speed an escape rolls against (VD-N08)
    "defence": (1, 30, tables.DEFAULT_SHIP_DEFENCE),  # gunnery's target (house rule)
    "spare_parts": (0, 20, 2),   # spent by repairs (VD-40)
}
DEFAULT_MODULES = ("engines", "sensors", "life support", "docking clamp")
#: a character's numbers: name -> (low, high, default)
CHARACTER_NUMBERS = {
    "body": (-3, 6, 0), "agility": (-3, 6, 0), "mind": (-3, 6, 0), "technology": (-3, 6, 0),
    "hp": (1, 40, 8), "dr": (1, 30, 12), "void_points": (0, tables.MAX_VOID_POINTS, 0),
}
#: an enemy profile's numbers (Враги в бою: HP, DR, attack with modifier, damage, morale) and squad size
ENEMY_NUMBERS = {
    "hp": (1, 40, 6), "dr": (1, 30, 11), "attack": (-3, 10, 2), "morale": (2, 12, 7), "count": (1, 12, 1),
}
PROFILES = ("character", "enemy")
OPTIONS = {
    "scene": ("space", "corridors"),
    "start_band": ("far", "medium", "close", "docked"),
}


# --- lines -----------------------------------------------------------------------------------


def parse_ship_weapon(line: str) -> dict:
    """``Mass driver, 2d6, standard`` -> {"name", "damage", "reach"} (ValueError in words)."""
    fields = split_fields(line)
    if len(fields) not in (2, 3) or not fields[0]:
        raise ValueError("give the name, the damage dice and the reach (standard, heavy, missile or close), "
                         "e.g. 'Railgun, 2d6, heavy'.")
    damage = str(parse_damage(fields[1]))
    reach = (fields[2] if len(fields) == 3 else "standard").lower()
    if reach not in tables.REACHES:
        raise ValueError(f"'{fields[2]}' is not a reach (standard, heavy, missile or close).")
    if len(fields[0]) > 40:
        raise ValueError("a name of at most 40 characters, please.")
    return {"name": fields[0], "damage": damage, "reach": reach}


def ship_weapon_line(w: dict) -> str:
    return f"{w['name']}, {w['damage']}, {w.get('reach', 'standard')}"


def parse_personal_weapon(line: str) -> dict:
    """``Laser pistol, tech, d8`` (and an optional Condition, default 3) -> a weapon dict."""
    fields = split_fields(line)
    if len(fields) not in (3, 4) or not fields[0]:
        raise ValueError("give the name, the kind (melee, ranged or tech), the damage dice and, if you like, "
                         "its Condition, e.g. 'Laser pistol, tech, d8, 3'.")
    kind = fields[1].lower()
    if kind not in tables.ATTACK_ABILITY:
        raise ValueError(f"'{fields[1]}' is not a weapon kind (melee, ranged or tech).")
    condition = _number(fields[3], 0, 10, "Condition") if len(fields) == 4 else 3
    return {"name": fields[0][:40], "attack": kind, "damage": str(parse_damage(fields[2])), "condition": condition}


def personal_weapon_line(w: dict) -> str:
    return f"{w['name']}, {w['attack']}, {w['damage']}, {w.get('condition', 3)}"


def parse_armour(line: str) -> dict:
    """``Vacc suit, 1, 3``: the name, + DR while its Condition lasts, its Condition."""
    fields = split_fields(line)
    if len(fields) != 3 or not fields[0]:
        raise ValueError("give the name, the DR it adds and its Condition, e.g. 'Vacc suit, 1, 3'.")
    return {"name": fields[0][:40], "bonus": _number(fields[1], 0, 6, "the DR it adds"),
            "condition": _number(fields[2], 0, 10, "Condition")}


def armour_line(a: dict) -> str:
    return f"{a['name']}, {a['bonus']}, {a['condition']}"


def _number(text, lo: int, hi: int, what: str) -> int:
    try:
        n = int(str(text).strip())
    except ValueError:
        raise ValueError(f"{what} '{text}' is not a whole number.") from None
    if not lo <= n <= hi:
        raise ValueError(f"{what} must be from {lo} to {hi}.")
    return n


# --- checks over stored data -------------------------------------------------------------------


def stats_problems(stats: dict) -> list[str]:
    """What is wrong with a ship's stats, in words (empty when they are fine)."""
    out = []
    for key, (lo, hi, default) in SHIP_NUMBERS.items():
        try:
            _number(stats.get(key, default), lo, hi, key)
        except ValueError as exc:
            out.append(str(exc))
    for n, w in enumerate(stats.get("weapons") or [], start=1):
        try:
            parse_ship_weapon(ship_weapon_line(w))
        except (ValueError, KeyError) as exc:
            out.append(f"weapon {n}: {exc}")
    return out


# --- the state ---------------------------------------------------------------------------------


def _int(d: dict, key: str, table: dict) -> int:
    lo, hi, default = table[key]
    try:
        return max(lo, min(hi, int(d.get(key, default))))
    except (TypeError, ValueError):
        return default


def build_ship(spec: dict) -> Ship:
    stats = spec.get("stats") or {}
    damage = spec.get("damage") or {}
    frame = _int(stats, "frame", SHIP_NUMBERS)
    weapons_out = set(damage.get("weapons_out") or [])
    modules_out = set(damage.get("modules_out") or [])
    weapons = tuple(ShipWeapon(f"w{i}", w["name"], str(w["damage"]), w.get("reach", "standard"), w["name"] in weapons_out)
                    for i, w in enumerate(stats.get("weapons") or [], start=1))
    modules = tuple(Module(m, m in modules_out) for m in (stats.get("modules") or DEFAULT_MODULES))
    return Ship(
        id=spec["id"], name=spec["name"], side=spec["side"],
        frame=max(0, frame - int(damage.get("frame_lost", 0))), max_frame=frame,
        speed=_int(stats, "speed", SHIP_NUMBERS), defence=_int(stats, "defence", SHIP_NUMBERS),
        weapons=weapons, modules=modules,
        spare_parts=max(0, _int(stats, "spare_parts", SHIP_NUMBERS) - int(damage.get("spare_parts_used", 0))),
    )


def _items(gear: dict) -> tuple[Item, ...]:
    return _items_of(str(gear.get("weapon") or ""), str(gear.get("armour") or ""), int(gear.get("shield") or 0),
                     int(gear.get("medkit") or 0))


@lru_cache(maxsize=512)
def _items_of(weapon: str, armour: str, shield: int, medkit: int) -> tuple[Item, ...]:
    """A person's gear from their sheet's lines (cached: items are frozen, simulations set up thousands)."""
    items = []
    gear: dict = {"weapon": weapon, "armour": armour, "shield": shield, "medkit": medkit}
    if gear.get("weapon"):
        w = parse_personal_weapon(gear["weapon"])
        items.append(Item("weapon", w["name"], "weapon", w["condition"], w["condition"], w["attack"], w["damage"]))
    if gear.get("armour"):
        a = parse_armour(gear["armour"])
        items.append(Item("armour", a["name"], "armour", a["condition"], a["condition"], bonus=a["bonus"]))
    if int(gear.get("shield") or 0):
        items.append(Item("shield", "energy shield", "shield", 3, 3, charges=int(gear["shield"])))
    if int(gear.get("medkit") or 0):
        items.append(Item("medkit", "medkit", "medkit", 3, 3, charges=int(gear["medkit"])))
    return tuple(items)


def _carried(items: tuple[Item, ...], carried: dict) -> tuple[Item, ...]:
    from dataclasses import replace

    out = []
    for item in items:
        got = carried.get(item.id) or {}
        out.append(replace(item, condition=int(got.get("condition", item.condition)),
                           charges=int(got.get("charges", item.charges))))
    return tuple(out)


def build_crew(ship_spec: dict, crew: dict, options: dict) -> list[Combatant]:
    numbers = crew.get("characteristics") or {}
    gear = crew.get("skills") or {}
    carried = ((ship_spec.get("damage") or {}).get("crew") or {}).get(crew["id"], {})
    base = dict(side=ship_spec["side"], ship=ship_spec["id"], aboard=ship_spec["id"], position=crew.get("position") or "crew",
                player=crew.get("player"))
    if gear.get("profile") == "enemy":
        count = _int(numbers, "count", ENEMY_NUMBERS) + int(options.get("squad_bonus", 0) or 0)
        hp = _int(numbers, "hp", ENEMY_NUMBERS)
        items = _items({"weapon": gear.get("weapon")}) if gear.get("weapon") else ()
        lost = carried.get("lost", 0)
        out = []
        for k in range(1, max(1, count) + 1):
            cid, name = (crew["id"], crew["name"]) if count == 1 else (f"{crew['id']}.{k}", f"{crew['name']} {k}")
            out.append(Combatant(id=cid, name=name, kind="enemy", squad=crew["id"], hp=hp, max_hp=hp,
                                 dr=_int(numbers, "dr", ENEMY_NUMBERS), attack=_int(numbers, "attack", ENEMY_NUMBERS),
                                 morale=_int(numbers, "morale", ENEMY_NUMBERS), items=items,
                                 status="dead" if k <= lost else "ok", **base))
        return out
    hp = _int(numbers, "hp", CHARACTER_NUMBERS)
    void = _int(numbers, "void_points", CHARACTER_NUMBERS)
    if str(options.get("void_points", "")).strip() != "":
        void = max(0, min(tables.MAX_VOID_POINTS, int(options["void_points"])))
    if "void" in carried:
        void = int(carried["void"])
    return [Combatant(
        id=crew["id"], name=crew["name"], kind="character",
        body=_int(numbers, "body", CHARACTER_NUMBERS), agility=_int(numbers, "agility", CHARACTER_NUMBERS),
        mind=_int(numbers, "mind", CHARACTER_NUMBERS), technology=_int(numbers, "technology", CHARACTER_NUMBERS),
        hp=max(0, hp - int(carried.get("hp_lost", 0))), max_hp=hp, dr=_int(numbers, "dr", CHARACTER_NUMBERS),
        void=void, items=_carried(_items(gear), carried.get("items") or {}),
        status="dead" if carried.get("status") == "dead" else "ok", notes=tuple(carried.get("notes") or ()), **base)]


STAT_KEYS = (*SHIP_NUMBERS, "modules", "weapons")
DAMAGE_KEYS = ("frame_lost", "modules_out", "weapons_out", "spare_parts_used", "crew")
OPTION_KEYS = ("scene", "start_band", "max_rounds", "void_points", "squad_bonus")
#: the round limit when the setup names none (house rule): a fight still undecided is broken off.
#: 60, not 30: a crew that will not board a drifting wreck shoots it until its reactor goes
#: (docs/rulesets/void_d20.md, "Balance of the demo fleets")
DEFAULT_MAX_ROUNDS = 60


def _refuse_unknown(data: dict, allowed: tuple, where: str) -> None:
    for key in data:
        if key not in allowed:
            raise ValueError(f"{where}: unknown key '{key}' (known: {', '.join(allowed)}).")


#: states built from a spec, by the spec's content (_spec_key): a state is immutable, so a simulation's thousands of
#: trials of one setup share the first state instead of parsing the sheets again
_BUILT: dict = {}


def _spec_key(spec: dict):
    """The cache key of a spec: its pickle (exact: 1, 1.0 and True differ; a quarter of the cost of
    its JSON), or its JSON when something in it does not pickle.  Two equal specs may get two keys
    (keys in another order): that only builds the state twice."""
    try:
        return pickle.dumps(spec, 5)
    except Exception:  # noqa: BLE001 - anything unpicklable falls back to the JSON key
        return json.dumps(spec, sort_keys=True, default=str)


def build_state(spec: dict) -> VoidState:
    key = _spec_key(spec)
    state = _BUILT.get(key)
    if state is None:
        state = plain_dicts(_build_state(spec))   # faster attribute reads (rulesets.core.state.plain_dicts)
        if len(_BUILT) > 64:
            _BUILT.clear()
        _BUILT[key] = state
    return state


def _build_state(spec: dict) -> VoidState:
    options = dict(spec.get("options") or {})
    _refuse_unknown(options, OPTION_KEYS, "options")
    for s in spec["ships"]:
        _refuse_unknown(s.get("stats") or {}, STAT_KEYS, f"{s.get('name', s.get('id'))}.stats")
        _refuse_unknown(s.get("damage") or {}, DAMAGE_KEYS, f"{s.get('name', s.get('id'))}.damage")
    for key, allowed in OPTIONS.items():
        if key in options and options[key] not in allowed:
            raise ValueError(f"options.{key}: '{options[key]}' is not one of {', '.join(allowed)}.")
    ships = tuple(build_ship(s) for s in spec["ships"])
    people = []
    for s in spec["ships"]:
        for crew in s.get("crew") or []:
            people.extend(build_crew(s, crew, options))
    scene = options.get("scene", "space")
    start = options.get("start_band", "medium")
    if scene == "corridors":
        start = "docked"
    if start not in tables.BANDS:
        start = "medium"
    bands = {pair_key(a.id, b.id): start for i, a in enumerate(ships) for b in ships[i + 1:] if a.side != b.side}
    state = VoidState(ships=ships, combatants=tuple(people), bands=bands,
                      max_rounds=max(1, min(200, int(options.get("max_rounds", DEFAULT_MAX_ROUNDS) or DEFAULT_MAX_ROUNDS))),
                      options={k: str(v) for k, v in options.items()})
    if scene == "corridors" and len(ships) >= 2:
        state = _boarded(state)
    return with_standing(state)


def _boarded(state: VoidState) -> VoidState:
    """The corridors scene: the first ship's boarders are already through the first enemy ship's lock."""
    from dataclasses import replace

    first = state.ships[0]
    target = next((s for s in state.ships if s.side != first.side), None)
    if target is None:
        return state
    crew = [c for c in state.combatants if c.ship == first.id and c.standing]
    going = {c.id for c in crew if c.position != "pilot"} or {c.id for c in crew}
    people = tuple(replace(c, aboard=target.id) if c.id in going else c for c in state.combatants)
    ships = tuple(replace(s, breached=(target.id,)) if s.id == first.id else s for s in state.ships)
    return replace(state, combatants=people, ships=ships)
