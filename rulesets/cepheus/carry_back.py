"""The damage a ship carries back to its campaign when the encounter ends (Riparare: battlefield
repairs are undone, so repaired hits count again)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .state import SYSTEMS
from .tables import WEAPONS

if TYPE_CHECKING:
    from .state import CombatState


def damage_of(s: CombatState, ship_id: str) -> dict:
    """Persistent damage after the encounter (battlefield repairs are undone: Riparare)."""
    sh = s.ship(ship_id)
    out: dict = {}
    if sh.hull_max - sh.hull:
        out["hull"] = sh.hull_max - sh.hull
    if sh.structure_max - sh.structure:
        out["structure"] = sh.structure_max - sh.structure
    if sh.armour_max - sh.armour:
        out["armour"] = sh.armour_max - sh.armour
    systems = {}
    for k in SYSTEMS:
        n = min(3, sh.hits.get(k, 0) + sh.repaired.get(k, 0))
        if n:
            systems[k] = n
    if systems:
        out["systems"] = systems
    mounts = {m.id: min(3, m.hits + m.repaired) for m in sh.mounts if m.hits + m.repaired}
    if mounts:
        out["mounts"] = mounts
    if sh.fuel_max - sh.fuel:
        out["fuel"] = sh.fuel_max - sh.fuel
    if sh.cargo_max - sh.cargo:
        out["cargo"] = sh.cargo_max - sh.cargo
    ammo = {}
    for m in sh.mounts:
        for i, w in enumerate(m.weapons):
            kind = WEAPONS[w.type]
            if kind.ammo:
                used = w.full - (w.loaded + w.reserve)
                if used > 0:
                    ammo[f"{m.id}.{i}"] = used
    if ammo:
        out["ammo"] = ammo
    crew = {c.id: {k: v for k, v in (("damage", c.damage), ("rads", c.rads)) if v}
            for c in sh.crew if not c.automated and (c.damage or c.rads)}
    if crew:
        out["crew"] = crew
    if sh.status == "destroyed":
        out["destroyed"] = True
    return out
