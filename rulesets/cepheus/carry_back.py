"""The damage a ship carries back to its campaign when the encounter ends (Riparare: battlefield
repairs are undone, so repaired hits count again)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import msg
from rulesets.core.words import count as count_of

from .state import SYSTEM_LABEL, SYSTEMS
from .tables import WEAPONS
from .words import listing, mount_name

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


def _weapon_type(stats: dict, mount_id: str, index: int) -> str:
    """The type of a campaign ship's weapon from its stats: ``t2`` is the second turret, ``b1`` the first bay."""
    try:
        n = int(mount_id[1:]) - 1
        if mount_id[0] == "t":
            return str(stats["turrets"][n]["weapons"][index]["type"])
        return str(stats["bays"][n]["type"]) if index == 0 else ""
    except (KeyError, IndexError, TypeError, ValueError):
        return ""


def _mount_words(stats: dict, mount_id: str) -> str:
    """"turret 1 (pulse laser, sandcaster)" from the stats; the mount alone if the stats lack it."""
    name = mount_name(mount_id)
    labels = []
    for i in range(3):
        kind = WEAPONS.get(_weapon_type(stats, mount_id, i))
        if kind is None:
            break
        labels.append(kind.name)
    if not labels:
        return str(name)
    return str(msg("cepheus.words.mount_with", "{mount} ({weapons})", mount=name, weapons=listing(labels)))


def damage_words(damage: dict, stats: dict, crew_names: dict) -> list[str]:
    """The damage a campaign's ship carries (:func:`damage_of`'s record) as lines a GM reads:
    points lost, systems and mounts by name with their hits, ammunition spent per weapon with the
    weapon and its mount named, the crew by name."""
    out = []
    points = {"hull": ("cepheus.carried.hull", "Hull: {n} lost"), "structure": ("cepheus.carried.structure", "Structure: {n} lost"),
              "armour": ("cepheus.carried.armour", "Armour: {n} lost")}
    tons = {"fuel": ("cepheus.carried.fuel", "Fuel: {n} t lost"), "cargo": ("cepheus.carried.cargo", "Cargo: {n} t lost")}
    for key, value in (damage or {}).items():
        if not value:
            continue
        if key in points and isinstance(value, (int, float)):
            ident, text = points[key]
            out.append(str(msg(ident, text, n=count_of(int(value), "point"))))
        elif key in tons and isinstance(value, (int, float)):
            ident, text = tons[key]
            out.append(str(msg(ident, text, n=value)))
        elif key == "systems" and isinstance(value, dict):
            for system, hits in value.items():
                out.append(str(msg("cepheus.carried.system", "{system}: {hits}", system=SYSTEM_LABEL.get(system, system),
                                   hits=count_of(int(hits), "hit"))))
        elif key == "mounts" and isinstance(value, dict):
            for mount_id, hits in value.items():
                words = _mount_words(stats, str(mount_id))
                out.append(str(msg("cepheus.carried.mount", "{mount}: {hits}", mount=words[:1].upper() + words[1:],
                                   hits=count_of(int(hits), "hit"))))
        elif key == "ammo" and isinstance(value, dict):
            for where, used in value.items():
                mount_id, _, index = str(where).partition(".")
                kind = WEAPONS.get(_weapon_type(stats, mount_id, int(index) if index.isdigit() else 0))
                if kind is not None and kind.missile:
                    spent = count_of(int(used), "missile")
                elif kind is not None and kind.key == "sandcaster":
                    spent = count_of(int(used), "sand canister")
                else:
                    spent = count_of(int(used), "round")
                out.append(str(msg("cepheus.carried.ammo", "Ammunition spent: {spent} from the {weapon} in {mount}",
                                   spent=spent, weapon=kind.name if kind else "weapon", mount=mount_name(mount_id))))
        elif key == "crew" and isinstance(value, dict):
            for crew_id, hurt in value.items():
                name = crew_names.get(str(crew_id)) or str(msg("cepheus.carried.gone", "a crew member no longer aboard"))
                parts = []
                if isinstance(hurt, dict) and hurt.get("damage"):
                    parts.append(str(msg("cepheus.carried.crew_damage", "{n} damage", n=hurt["damage"])))
                if isinstance(hurt, dict) and hurt.get("rads"):
                    parts.append(str(msg("cepheus.carried.crew_rads", "{n} rads", n=hurt["rads"])))
                out.append(str(msg("cepheus.carried.crew", "{name}: {hurt}", name=name, hurt=", ".join(parts))))
        elif key == "destroyed":
            out.append(str(msg("cepheus.carried.destroyed", "Destroyed")))
    return out
