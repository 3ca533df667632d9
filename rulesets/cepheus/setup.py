"""The state at the start of a fight: ships and crews from the campaign, the options."""
from __future__ import annotations

import copy

from rulesets.core.messages import msg
from rulesets.core.spec import sides_in_order
from rulesets.core.state import clone, plain_dicts

from .crew import GUNNER_POSITIONS, POSITION_LABEL
from .state import CombatState, Crew, Mount, Options, PersonalTarget, SYSTEMS, Ship, Weapon, copy_ship, pair
from .stats import hull_points, normalise_stats, structure_points
from .tables import BANDS, COLLISION_SITUATIONS, WEAPONS
from .words import mount_name


def station_id(station: str) -> str:
    st = (station or "").strip().lower().replace(" ", "-").replace("_", "-")
    for prefix, short in (("turret-", "t"), ("bay-", "b")):
        if st.startswith(prefix) and st[len(prefix):].isdigit():
            return f"{short}{int(st[len(prefix):])}"
    if len(st) >= 2 and st[0] in "tb" and st[1:].isdigit():
        return st
    return st


def build_ship(spec: dict, options: Options) -> Ship:
    stats, errors = normalise_stats(spec.get("stats") or {})
    if errors:
        raise ValueError(f"{spec.get('name', spec.get('id'))}: " + "; ".join(errors))
    tonnage = stats["tonnage"]
    mounts = []
    for i, t in enumerate(stats["turrets"]):
        mounts.append(Mount(f"t{i + 1}", "turret", [_weapon(w) for w in t["weapons"]]))
    for i, b in enumerate(stats["bays"]):
        mounts.append(Mount(f"b{i + 1}", "bay", [_weapon(b)]))
    hull = hull_points(tonnage)
    structure = structure_points(tonnage)
    ship = Ship(
        id=str(spec["id"]), name=str(spec.get("name") or spec["id"]), side=str(spec.get("side") or "?"),
        fleet=str(spec.get("fleet") or ""), tonnage=tonnage, small_craft=tonnage < 100,
        hull_max=hull, structure_max=structure, armour_max=stats["armour"], thrust_max=stats["thrust"],
        jump=stats["jump"], sensors=stats["sensors"], electronics=stats["electronics"],
        fire_control=stats["fire_control"], auto_repair=stats["auto_repair"], intellect=stats["intellect"],
        expert_pilot=stats["expert_pilot"], expert_engineer=stats["expert_engineer"],
        repair_drones=stats["repair_drones"], nuclear_damper=stats["nuclear_damper"],
        meson_screen=stats["meson_screen"], fuel_max=stats["fuel"], cargo_max=stats["cargo"],
        hull=hull, structure=structure, armour=stats["armour"], fuel=stats["fuel"], cargo=stats["cargo"],
        mounts=mounts, crew=[], hits={}, repaired={},
        position="orbit" if options.planet else "space",
    )
    _apply_damage(ship, spec.get("damage") or {})
    carried = (spec.get("damage") or {}).get("crew")
    ship.crew = _build_crew(ship, spec.get("crew") or [], carried if isinstance(carried, dict) else {})
    return ship


def _weapon(w: dict) -> Weapon:
    kind = WEAPONS[w["type"]]
    if kind.ammo:
        ammo = int(w.get("ammo", kind.capacity))
        loaded = min(kind.capacity, ammo)
        return Weapon(w["type"], loaded, ammo - loaded, w.get("missile", "standard") if kind.missile else "", ammo)
    return Weapon(w["type"])


def _apply_damage(ship: Ship, dmg: dict):
    """A campaign ship's persistent damage (the form :meth:`CepheusRuleset.damage_of` gives)."""
    ship.hull = max(0, ship.hull_max - int(dmg.get("hull", 0)))
    ship.structure = max(0, ship.structure_max - int(dmg.get("structure", 0)))
    ship.armour = max(0, ship.armour_max - int(dmg.get("armour", 0)))
    ship.fuel = max(0, ship.fuel_max - int(dmg.get("fuel", 0)))
    ship.cargo = max(0, ship.cargo_max - int(dmg.get("cargo", 0)))
    ship.hits = {k: int(v) for k, v in (dmg.get("systems") or {}).items() if k in SYSTEMS and int(v) > 0}
    mounts = dmg.get("mounts") or {}
    ammo = dmg.get("ammo") or {}
    for m in ship.mounts:
        m.hits = min(3, int(mounts.get(m.id, 0)))
        for i, w in enumerate(m.weapons):
            used = int(ammo.get(f"{m.id}.{i}", 0))
            if used:
                total = max(0, w.loaded + w.reserve - used)
                cap = WEAPONS[w.type].capacity
                w.loaded, w.reserve = min(cap, total), max(0, total - cap)
    if dmg.get("destroyed") or ship.structure <= 0:
        ship.status = "destroyed"
    elif ship.hits.get("power_plant", 0) >= 3 or (ship.hull_max > 0 and ship.hull <= 0):
        ship.status = "disabled"


def _build_crew(ship: Ship, specs: list, carried: dict | None = None) -> list[Crew]:
    """The crew of the specs; ``carried``: the ship's carried damage by crew id (what ``damage_of``
    wrote under ``"crew"``), for a crew spec that brings none of its own."""
    carried = carried or {}
    crew: list[Crew] = []
    manned: set[str] = set()
    has_pilot = False
    for i, c in enumerate(specs):
        position = str(c.get("position") or "passenger")
        if position not in POSITION_LABEL:
            position = "passenger"
        station = station_id(str(c.get("station") or ""))
        if position == "pilot":
            if has_pilot:
                position = "passenger"  # one pilot only (Posizioni dell'equipaggio)
            has_pilot = True
        if position in GUNNER_POSITIONS:
            kinds = {"turret_gunner": ("turret",), "bay_gunner": ("bay",), "gunner": ("turret", "bay")}[position]
            mount = ship.mount(station)
            if mount is None or mount.id in manned or mount.kind not in kinds:
                free = [m for k in kinds for m in ship.mounts if m.kind == k and m.id not in manned]
                station = free[0].id if free else ""
            if station:
                manned.add(station)
        member = Crew(
            id=str(c.get("id") or f"{ship.id}.c{i + 1}"), name=str(c.get("name") or f"Crew {i + 1}"),
            position=position, station=station,
            chars={k: int(v) for k, v in (c.get("characteristics") or {}).items()},
            skills={k: int(v) for k, v in (c.get("skills") or {}).items()},
            player=c.get("player"),
        )
        dmg = c.get("damage") or carried.get(member.id) or {}
        member.damage, member.rads = int(dmg.get("damage", 0)), int(dmg.get("rads", 0))
        crew.append(member)
    # Posizioni Automatizzate: software fills the positions no one holds.
    if ship.fire_control > 0:
        for m in ship.mounts:
            if m.id not in manned:
                crew.append(Crew(f"{ship.id}.fc-{m.id}", str(msg("cepheus.crew.fire_control", "Fire control ({mount})",
                                                                 mount=mount_name(m.id, m.kind))),
                                 "bay_gunner" if m.kind == "bay" else "turret_gunner", m.id,
                                 skills={"gunnery": 0}, automated="gunner"))
    if ship.intellect and ship.expert_pilot > 0 and not has_pilot:
        crew.append(Crew(f"{ship.id}.auto-pilot", "Intellect + Expert Pilot", "pilot",
                         skills={"pilot": ship.expert_pilot}, automated="pilot"))
    if ship.repair_drones and ship.intellect and ship.expert_engineer > 0 and not any(c.position == "engineer" for c in crew):
        crew.append(Crew(f"{ship.id}.auto-engineer", "Intellect + Expert Engineer", "engineer",
                         skills={"engineering": ship.expert_engineer, "mechanic": ship.expert_engineer},
                         automated="engineer"))
    if ship.repair_drones and ship.auto_repair:
        crew.append(Crew(f"{ship.id}.drones", "Repair drones (Auto-Repair)", "damage_control",
                         skills={"mechanic": 0}, automated="repair"))
    return crew


def parse_options(raw: dict) -> Options:
    o = Options()
    raw = raw or {}
    band = str(raw.get("range", "short")).lower().replace(" ", "_")
    o.range = {"extreme": "distant"}.get(band, band) if band in BANDS or band == "extreme" else "short"
    o.ranges = {pair(*k.split("|")): v for k, v in (raw.get("ranges") or {}).items() if v in BANDS and "|" in k}
    aware = raw.get("aware") or []
    o.aware = [str(a) for a in (aware if isinstance(aware, (list, tuple)) else [aware])]
    o.skill_delta_side0 = max(-3, min(3, int(raw.get("skill_delta_side0", 0) or 0)))
    o.max_rounds = max(1, int(raw.get("max_rounds", 20) or 20))
    o.hasty = bool(raw.get("hasty", False))
    o.hazard = raw.get("hazard", "none") if raw.get("hazard", "none") in COLLISION_SITUATIONS else "none"
    o.hazard_mismatch = bool(raw.get("hazard_mismatch", False))
    o.planet = bool(raw.get("planet", False))
    o.world_size = int(raw.get("world_size", 7))
    o.world_atmosphere = int(raw.get("world_atmosphere", 6))
    o.auto_repair_checks = 2 if int(raw.get("auto_repair_checks", 1)) >= 2 else 1
    o.smart_fuel = max(1, int(raw.get("smart_fuel", 10)))
    o.comms_noise = bool(raw.get("comms_noise", False))
    o.encrypted = bool(raw.get("encrypted", False))
    o.hull_zero_disables = bool(raw.get("hull_zero_disables", True))
    return o


#: the last few setups built: (a copy of the spec, its state), each handed out as a fresh copy
_BUILT: list[tuple[dict, CombatState]] = []
_BUILT_KEEP = 8


def setup(spec: dict) -> CombatState:
    """The state at the start of the fight ``spec`` describes: always a fresh copy, which the caller may
    change without touching any other setup's state.  Equal specs (plain JSON data) give equal states."""
    for known, built in _BUILT:
        if known == spec:
            return fresh_copy(built)
    built = plain_dicts(build(spec))  # copied for every battle (rulesets.core.state.clone)
    _BUILT.insert(0, (copy.deepcopy(spec), built))
    del _BUILT[_BUILT_KEEP:]
    return fresh_copy(built)


def fresh_copy(state: CombatState) -> CombatState:
    """A copy of a state just set up that shares nothing mutable with it (ships, crews, mounts, options)."""
    new = clone(state)
    new.ships = [_fresh_ship(sh) for sh in state.ships]
    new.ranges = dict(state.ranges)
    new.docked = list(state.docked)
    new.personal = [clone(p) for p in state.personal]
    new.options = clone(state.options)
    new.options.ranges = dict(state.options.ranges)
    new.options.aware = list(state.options.aware)
    new.sides = list(state.sides)
    new.tactics = dict(state.tactics)
    new.order = list(state.order)
    for name in ("missiles", "boarding", "hits", "queue", "impacts", "waiting", "suspended"):
        if getattr(state, name):
            raise ValueError(f"fresh_copy copies a state just set up; this one has {name}.")
        setattr(new, name, [])
    if state.pending is not None:
        raise ValueError("fresh_copy copies a state just set up; this one has an attack pending.")
    return new


def _fresh_ship(ship: Ship) -> Ship:
    """A ship copied with every part a rule may change (:func:`copy_ship`), and its list of mounts
    fired and its crew members' characteristics and skills too: nothing mutable shared."""
    new = copy_ship(ship, parts=True)
    new.fired = list(ship.fired)
    for c in new.crew:
        c.chars, c.skills = dict(c.chars), dict(c.skills)
    return new


def build(spec: dict) -> CombatState:
    options = parse_options(spec.get("options") or {})
    ships = []
    seen: set[str] = set()
    for raw in spec.get("ships") or []:
        ship = build_ship(raw, options)
        for c in ship.crew:
            if c.id in seen:
                c.id = f"{ship.id}.{c.id}"
            seen.add(c.id)
        ships.append(ship)
    sides = sides_in_order(ships)
    # Simulation sweeps name sides by position ("@side0"), not knowing their names.
    options.aware = [sides[int(a[5:])] if a.startswith("@side") and a[5:].isdigit() and int(a[5:]) < len(sides)
                     else a for a in options.aware]
    if options.skill_delta_side0 and sides:
        for sh in ships:
            if sh.side == sides[0]:
                for c in sh.crew:
                    c.skills = {k: max(0, v + options.skill_delta_side0) for k, v in c.skills.items()}
    ranges = {}
    for i, a in enumerate(ships):
        for b in ships[i + 1:]:
            key = pair(a.id, b.id)
            ranges[key] = options.ranges.get(key, options.range)
    personal = [PersonalTarget(str(p.get("id")), str(p.get("name", p.get("id"))), str(p.get("side", "?")),
                                 p.get("band", "close") if p.get("band", "close") in BANDS else "close")
                for p in (spec.get("options") or {}).get("personal_targets", []) or []]
    return CombatState(ships=ships, ranges=ranges, options=options, sides=sides, order=list(sides),
                       personal=personal, phase="initiative")
