"""A fight's setup besides the rules: each ship's crew skills from the characters aboard, where
each ship starts on the board, and the damage it carries from an earlier encounter.
Pure Python: no Django import.
"""
from __future__ import annotations

from . import hexes, rules
from .dice import DiceCode

CREW = {"gunnery": "4D", "piloting": "4D", "shields": "3D"}


#: Which crew position brings which skill (forms.POSITIONS).
SKILL_OF_POSITION = {"gunner": "gunnery", "pilot": "piloting", "shields": "shields"}


def crew_skills(base: dict, crew: list[dict]) -> dict:
    """The ship's three skills: for each, the best crew member at the position that uses it
    (the pilot's piloting...), else the best aboard, else the template's or the default."""
    out = dict(CREW)
    out.update(base)
    for skill in CREW:
        codes = [c.get("skills", {}).get(skill) for c in crew if SKILL_OF_POSITION.get(c.get("position")) == skill]
        codes = [x for x in codes if x] or [x for x in (c.get("skills", {}).get(skill) for c in crew) if x]
        if codes:
            out[skill] = str(max((DiceCode.parse(x) for x in codes), key=lambda d: d.total_pips))
    return out


def _placements(raws: list[dict], opts: dict, width: int, height: int,
                features: set = frozenset()) -> list[tuple[int, int, int]]:
    """Where each ship starts: its spec's ``position``/``facing``, the GM's placement by name,
    else lined up on its side's line, the two lines ``separation`` hexes apart, facing each other
    (skipping the hexes of planets, moons and obstacles)."""
    named = opts.get("placements") or {}
    unknown = sorted(set(named) - {str(raw.get("name")) for raw in raws})
    if unknown:
        raise ValueError(f"Ship positions name no ship in these fleets: {', '.join(unknown)}.")
    separation = max(1, min(int(opts.get("separation", height - 5)), height - 2))
    top = max(0, (height - 1 - separation) // 2)
    sides: list[str] = []
    for raw in raws:
        if str(raw.get("side")) not in sides:
            sides.append(str(raw.get("side")))
    count: dict[str, int] = {}
    taken: set[tuple[int, int]] = set()
    out = []
    for i, raw in enumerate(raws):
        k = sides.index(str(raw.get("side")))
        n = count.get(raw.get("side"), 0)
        count[raw.get("side")] = n + 1
        place = named.get(raw.get("name")) or {}
        facing = place.get("facing", raw.get("facing"))
        if isinstance(facing, str):
            facing = hexes.FACING_NAME.index(facing.upper())
        if "position" in raw or place:
            col, row = (place["col"], place["row"]) if place else raw["position"]
        else:
            row = top if k % 2 == 0 else min(height - 1, top + separation)
            centre = width // 2 + (k // 2) * 5 * (1 if k % 4 < 2 else -1)
            offset = (n + 1) // 2 * 2 * (1 if n % 2 else -1)
            col = max(0, min(width - 1, centre + offset))
            while ((col, row) in taken or (col, row) in features) and col < width - 1:
                col += 1
        if (int(col), int(row)) in taken:
            raise ValueError(f"{raw.get('name')} would start on a hex another ship holds ({col},{row}).")
        if (int(col), int(row)) in features:
            raise ValueError(f"{raw.get('name')} would start on a planet, moon or obstacle ({col},{row}).")
        if not (0 <= int(col) < width and 0 <= int(row) < height):
            raise ValueError(f"{raw.get('name')} would start off the {width}×{height} board ({col},{row}).")
        taken.add((int(col), int(row)))
        out.append((int(col), int(row), int(facing if facing is not None else (3 if k % 2 == 0 else 0))))
    return out


def carry_damage(ship: rules.Ship, damage: dict) -> None:
    """Damage carried from an earlier encounter (``damage_of``): reduced codes and lost systems."""
    codes = damage.get("codes") or {}
    for key in ("maneuverability", "hull", "shields"):
        if key in codes:
            setattr(ship, key, str(DiceCode.parse(codes[key])))
    if "speed" in codes:
        ship.speed = int(codes["speed"])
    for w in ship.weapons:
        lost = (damage.get("weapons") or {}).get(w.id) or {}
        if "fire_control" in lost:
            w.fire_control, w.fc_reduced = str(DiceCode.parse(lost["fire_control"])), True
        w.disabled = bool(lost.get("disabled", w.disabled))
        if lost.get("ammo") is not None:
            w.ammo = int(lost["ammo"])
    ship.hyperdrive_out = bool(damage.get("hyperdrive_out", ship.hyperdrive_out))
    ship.dead_in_space = bool(damage.get("dead_in_space", ship.dead_in_space))
    ship.severe = bool(damage.get("severe", ship.severe))
    # A ship lost in an earlier fight stays lost until the GM clears its damage (a yard visit).
    ship.destroyed = bool(damage.get("destroyed", ship.destroyed))
    ship.damage = list(damage.get("results") or [])
