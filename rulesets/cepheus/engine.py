"""Cepheus Engine space combat: the engine protocol (``RULESET``).

The turn is a sequence of steps, each a decision of one side:

* ``initiative``: each side rolls (the fleet commander's Tactics, 2D6 or an aware 12);
* the round opens with the missiles that arrive (the target may react);
* each ship in initiative order takes its turn: the Captain (who may declare the
  crew hasty or delay), then each crew member by position takes one minor and one
  significant action, or three minor actions; an attack gives the target a reaction
  step (dodge, sand, point defence, screens, or no reaction);
* the damage of a ship's attacks is resolved at the end of its turn (of the group of
  ships tied on initiative and Thrust, who act simultaneously).

Pure Python, no Django.  Rules are in :mod:`.rules`, tables in :mod:`.tables`.
"""
from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from functools import lru_cache

from rulesets.core.contract import BattleOutcome, RulesetBase, SideResult
from rulesets.core.engine import Action, IllegalAction, Odds, Outcome, Step, Viewer

from . import rules as R
from . import tables as T
from .rules import CombatState, Crew, Hit, Missile, Options, Pending, Ship, Tx

BANDS = T.BANDS
GM = "gm"


def band_index(band: str) -> int:
    return BANDS.index(band)


# ================================================================ setup


def _station_id(station: str) -> str:
    st = (station or "").strip().lower().replace(" ", "-").replace("_", "-")
    for prefix, short in (("turret-", "t"), ("bay-", "b")):
        if st.startswith(prefix) and st[len(prefix):].isdigit():
            return f"{short}{int(st[len(prefix):])}"
    if len(st) >= 2 and st[0] in "tb" and st[1:].isdigit():
        return st
    return st


def build_ship(spec: dict, options: Options) -> Ship:
    stats, errors = R.normalise_stats(spec.get("stats") or {})
    if errors:
        raise ValueError(f"{spec.get('name', spec.get('id'))}: " + "; ".join(errors))
    tonnage = stats["tonnage"]
    mounts = []
    for i, t in enumerate(stats["turrets"]):
        mounts.append(R.Mount(f"t{i + 1}", "turret", [_weapon(w) for w in t["weapons"]]))
    for i, b in enumerate(stats["bays"]):
        mounts.append(R.Mount(f"b{i + 1}", "bay", [_weapon(b)]))
    hull = R.hull_points(tonnage)
    structure = R.structure_points(tonnage)
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
    ship.crew = _build_crew(ship, spec.get("crew") or [])
    return ship


def _weapon(w: dict) -> R.Weapon:
    kind = T.WEAPONS[w["type"]]
    if kind.ammo:
        ammo = int(w.get("ammo", kind.capacity))
        loaded = min(kind.capacity, ammo)
        return R.Weapon(w["type"], loaded, ammo - loaded, w.get("missile", "standard") if kind.missile else "", ammo)
    return R.Weapon(w["type"])


def _apply_damage(ship: Ship, dmg: dict):
    """A campaign ship's persistent damage (the form :meth:`CepheusRuleset.damage_of` gives)."""
    ship.hull = max(0, ship.hull_max - int(dmg.get("hull", 0)))
    ship.structure = max(0, ship.structure_max - int(dmg.get("structure", 0)))
    ship.armour = max(0, ship.armour_max - int(dmg.get("armour", 0)))
    ship.fuel = max(0, ship.fuel_max - int(dmg.get("fuel", 0)))
    ship.cargo = max(0, ship.cargo_max - int(dmg.get("cargo", 0)))
    ship.hits = {k: int(v) for k, v in (dmg.get("systems") or {}).items() if k in R.SYSTEMS and int(v) > 0}
    mounts = dmg.get("mounts") or {}
    ammo = dmg.get("ammo") or {}
    for m in ship.mounts:
        m.hits = min(3, int(mounts.get(m.id, 0)))
        for i, w in enumerate(m.weapons):
            used = int(ammo.get(f"{m.id}.{i}", 0))
            if used:
                total = max(0, w.loaded + w.reserve - used)
                cap = T.WEAPONS[w.type].capacity
                w.loaded, w.reserve = min(cap, total), max(0, total - cap)
    if dmg.get("destroyed") or ship.structure <= 0:
        ship.status = "destroyed"
    elif ship.hits.get("power_plant", 0) >= 3 or (ship.hull_max > 0 and ship.hull <= 0):
        ship.status = "disabled"


def _build_crew(ship: Ship, specs: list) -> list[Crew]:
    crew: list[Crew] = []
    manned: set[str] = set()
    has_pilot = False
    for i, c in enumerate(specs):
        position = str(c.get("position") or "passenger")
        if position not in R.POSITION_LABEL:
            position = "passenger"
        station = _station_id(str(c.get("station") or ""))
        if position == "pilot":
            if has_pilot:
                position = "passenger"  # one pilot only (Posizioni dell'equipaggio)
            has_pilot = True
        if position in R.GUNNER_POSITIONS:
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
        dmg = c.get("damage") or {}
        member.damage, member.rads = int(dmg.get("damage", 0)), int(dmg.get("rads", 0))
        crew.append(member)
    # Posizioni Automatizzate: software fills the positions no one holds.
    if ship.fire_control > 0:
        for m in ship.mounts:
            if m.id not in manned:
                crew.append(Crew(f"{ship.id}.fc-{m.id}", f"Fire control ({m.id})",
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
    o.ranges = {R.pair(*k.split("|")): v for k, v in (raw.get("ranges") or {}).items() if v in BANDS and "|" in k}
    aware = raw.get("aware") or []
    o.aware = [str(a) for a in (aware if isinstance(aware, (list, tuple)) else [aware])]
    o.skill_delta_side0 = max(-3, min(3, int(raw.get("skill_delta_side0", 0) or 0)))
    o.max_rounds = max(1, int(raw.get("max_rounds", 20) or 20))
    o.hasty = bool(raw.get("hasty", True))
    o.hazard = raw.get("hazard", "none") if raw.get("hazard", "none") in T.COLLISION_SITUATIONS else "none"
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


# ================================================================ helpers


def enemies(s: CombatState, ship: Ship) -> list[Ship]:
    return [o for o in s.ships if o.side != ship.side and o.alive]


def eff_init(s: CombatState, ship: Ship) -> int:
    tactics = s.tactics.get(ship.side, 0)
    fleet = sum(1 for o in s.ships if o.side == ship.side and o.alive) > 1
    if fleet and ship.jammed:
        tactics = 0  # Mantieni le comunicazioni: no comms, no Tactics
    return ship.initiative + tactics + ship.boost


def bridge_ok(ship: Ship) -> bool:
    return ship.hits.get("bridge", 0) < 2


def sensors_ok(ship: Ship) -> bool:
    return ship.hits.get("sensors", 0) < 2


def sensor_dm(ship: Ship) -> list:
    out = [("electronics", ship.electronics)] if ship.electronics else []
    if ship.hits.get("sensors", 0) == 1:
        out.append(("sensors damaged", -2))
    return out


def manned(ship: Ship, mount_id: str) -> Crew | None:
    best = None
    for c in ship.crew:
        if c.station == mount_id and c.position in R.GUNNER_POSITIONS and R.able(c):
            if not c.automated:
                return c
            best = best or c
    return best


def pilot_of(ship: Ship) -> Crew | None:
    auto = None
    for c in ship.crew:
        if c.position == "pilot" and R.able(c):
            if not c.automated:
                return c
            auto = c
    return auto


def role_active(ship: Ship, c: Crew) -> bool:
    """Automated positions act only where no crew member holds the position."""
    if not R.able(c):
        return False
    if c.automated == "pilot":
        return pilot_of(ship) is c
    if c.automated == "gunner":
        return manned(ship, c.station) is c
    if c.automated == "engineer":
        return not any(o.position == "engineer" and not o.automated and R.able(o) for o in ship.crew)
    return True


def usable_weapons(s: CombatState, ship: Ship, mount: R.Mount, band: str, personal: bool = False) -> list[int]:
    if mount.hits >= 2:
        return []
    out = []
    for i, w in enumerate(mount.weapons):
        kind = T.WEAPONS[w.type]
        if kind.ammo and w.loaded <= 0:
            continue
        if kind.missile:
            if personal or T.MISSILE_TURNS[band] is None:
                continue
        elif T.ATTACK_DIFFICULTY[kind.row][band] is None:
            continue
        out.append(i)
    return out


def pursuit_dm(ship: Ship, target_id: str) -> int:
    return min(4, ship.pursuit_turns) if ship.pursuing == target_id else 0


def attack_mods(s: CombatState, ship: Ship, crew: Crew, mount: R.Mount, target_id: str, weapon: str,
                launch: bool = False, dodge: int = 0, personal: bool = False) -> list:
    """Attacco: every DM of an attack roll except skill, characteristic, hasty, coordination."""
    kind = T.WEAPONS[weapon]
    band = _band_to(s, ship, target_id)
    extra = []
    if launch:
        extra.append((T.DIFFICULTY_LABEL["average"] + " launch", 0))
    else:
        diff = T.ATTACK_DIFFICULTY[kind.row][band]
        extra.append((f"{T.DIFFICULTY_LABEL[diff]} at {T.BAND_LABEL[band]}", T.DIFFICULTY[diff]))
    extra.append((f"Fire Control/{ship.fire_control}", ship.fire_control))
    extra.append(("sensor targeting", ship.targeting.get(target_id, 0)))
    extra.append(("lined up", ship.lined_up))
    extra.append(("pursuit", pursuit_dm(ship, target_id)))
    if mount.hits == 1:
        extra.append(("damaged mount", -2))
    if not bridge_ok(ship):
        extra.append(("bridge disabled", -2))
    if ship.intel and ship.intel == target_id:
        extra.append(("intercepted intentions", 4))
    if personal:
        extra.append(("personal-scale target", T.SCALED_TO_HIT_DM))
    elif not launch:
        target = s.find_ship(target_id)
        if target is not None:
            extra.append(("target evasive", target.evasive))
        extra.append(("target dodges", dodge))
    return [(a, b) for a, b in extra if b or "at " in a]


def _band_to(s: CombatState, ship: Ship, target_id: str) -> str:
    for p in s.personal:
        if p.id == target_id:
            return p.band
    return s.band(ship.id, target_id)


def over_check(tx: Tx):
    s = tx.s
    if s.over:
        return
    fighting = {sh.side for sh in s.ships if sh.status == "active"}
    if len(fighting) <= 1:
        if s.hits:
            flush_hits(tx)  # the last attacks still do their damage (carried back to the campaign)
            fighting = {sh.side for sh in s.ships if sh.status == "active"}
        s.over = True
        s.phase = "over"
        s.winner = next(iter(fighting)) if fighting else None
        tx.say(f"The fight is over: {s.winner + ' hold the field' if s.winner else 'no side remains'}.", T.SEC["checklist"])


# ================================================================ the flow


def start_round(tx: Tx):
    s = tx.s
    s.round += 1
    if s.round > s.options.max_rounds:
        s.round = s.options.max_rounds
        s.over, s.phase, s.winner = True, "over", None
        tx.say(f"Round limit ({s.options.max_rounds}) reached: the fight ends as a draw.", T.SEC["checklist"])
        return
    for sh in s.ships:
        if sh.status == "boarded":
            tx.ship(sh.id).status = "captured"
            tx.say(f"The boarders take control of {sh.name}: it is captured.", T.SEC["abstract_boarding"])
        if not sh.alive:
            continue
        m = tx.ship(sh.id)
        m.boost, m.boost_next = m.boost_next, 0
        m.acted = False
        m.fired = []
        m.reactions = 0 if m.no_reactions else T.reactions_for(eff_init(s, m))
        m.no_reactions = False
        if m.fuel_leak and m.fuel:
            m.leak_acc += m.fuel_leak * 1000
            lost, m.leak_acc = divmod(m.leak_acc, 3600)
            m.fuel = max(0, m.fuel - lost)
    live = [sh for sh in s.ships if sh.can_act]
    idx = {sh.id: i for i, sh in enumerate(s.ships)}
    live.sort(key=lambda sh: (-eff_init(s, sh), -sh.thrust, idx[sh.id]))
    s.order = [sh.id for sh in live]
    s.turn = 0
    s.waiting = []
    tx.say(f"Round {s.round}. Order: " + ", ".join(f"{sh.name} ({eff_init(s, sh)})" for sh in live), T.SEC["turn"])
    # Missiles: the salvos that arrive this round strike before anyone acts (decision).
    arriving = []
    missiles = []
    for m in s.missiles:
        m = replace(m, turns=m.turns - 1)
        if m.turns <= 0:
            arriving.append(m.id)
        missiles.append(m)
    s.missiles = missiles
    s.impacts = arriving
    next_impact(tx)


def next_impact(tx: Tx):
    s = tx.s
    while s.impacts:
        mid = s.impacts[0]
        m = _missile(s, mid)
        target = s.find_ship(m.target) if m else None
        if m is None or target is None or not target.alive:
            s.impacts = s.impacts[1:]
            if m is not None:
                s.missiles = [x for x in s.missiles if x.id != mid]
            continue
        pending = Pending("missiles", m.source, m.target, missiles=[mid])
        if reaction_options(s, pending):
            s.pending = pending
            s.phase = "react"
            return
        resolve_missiles(tx, pending)
        s.impacts = s.impacts[1:]
    # all arrivals done: their damage now
    flush_hits(tx)
    over_check(tx)
    if not s.over:
        begin_turn(tx)


def _missile(s: CombatState, mid: str) -> Missile | None:
    for m in s.missiles:
        if m.id == mid:
            return m
    return None


def begin_turn(tx: Tx):
    """Start the turn of the ship at ``order[turn]`` (skipping ships that can no longer act)."""
    s = tx.s
    while True:
        if s.over:
            return
        if s.turn >= len(s.order):
            end_round(tx)
            return
        ship = s.find_ship(s.order[s.turn])
        if ship is None or not ship.can_act:
            s.turn += 1
            continue
        sh = tx.ship(ship.id)
        sh.lined_up = 0
        sh.targeting = {}
        sh.pool = 0
        sh.bonus = {}
        sh.hasty = False
        sh.evasive = 0
        sh.avoided = False
        sh.pursuit_kept = False
        order = sorted((c for c in sh.crew if role_active(sh, c)),
                       key=lambda c: R.POSITION_ORDER.get(c.position, 99))
        s.queue = [c.id for c in order]
        s.pos = 0
        s.phase = "crew"
        if not s.queue:
            end_turn(tx)
            continue
        start_crew(s, sh, order[0])
        return


def start_crew(s: CombatState, ship: Ship, c: Crew):
    """Il turno: one minor and one significant action (drones: one or two repair checks)."""
    s.sig = s.options.auto_repair_checks if c.automated == "repair" else 1
    s.minor = 2 if ship.hasty else 1


def next_crew(tx: Tx):
    s = tx.s
    s.pos += 1
    ship = s.acting_ship
    while s.pos < len(s.queue):
        c = ship.member(s.queue[s.pos]) if ship else None
        if c is not None and role_active(ship, c):
            start_crew(s, ship, c)
            return
        s.pos += 1
    end_turn(tx)
    if not s.over and s.phase != "delay":
        begin_turn(tx)


def end_turn(tx: Tx):
    """After every crew member has acted: pursuit upkeep, hazards, then damage (Checklist 5.3)."""
    s = tx.s
    ship = s.find_ship(s.order[s.turn]) if s.turn < len(s.order) else None
    if ship is not None and ship.alive:
        sh = tx.ship(ship.id)
        sh.acted = True
        if sh.pursuing and not sh.pursuit_kept:
            tx.say(f"{sh.name} did not keep up the pursuit: it ends.", T.SEC["pursue"])
            sh.pursuing, sh.pursuit_turns = "", 0
        sit = T.COLLISION_SITUATIONS[s.options.hazard]
        if sit[1] and not sh.avoided and sh.speed > 0 and not ship.delaying:
            tx.say(f"No one at {sh.name}'s helm avoided the hazard this turn: an unskilled check.", T.SEC["avoid_collision"])
            avoid_collision(tx, sh, None, 0)
        if sh.position == "decaying":
            uncontrolled_reentry(tx, sh)
    s.queue, s.pos = [], 0
    nxt = s.find_ship(s.order[s.turn + 1]) if s.turn + 1 < len(s.order) else None
    simultaneous = (ship is not None and nxt is not None and nxt.can_act
                    and eff_init(s, nxt) == eff_init(s, ship) and nxt.thrust == ship.thrust)
    if not simultaneous:
        flush_hits(tx)
    over_check(tx)
    s.turn += 1
    if not s.over and [w for w in s.waiting if s.find_ship(w) and s.find_ship(w).can_act]:
        s.phase = "delay"


def end_round(tx: Tx):
    s = tx.s
    waiting = [w for w in s.waiting if s.find_ship(w) and s.find_ship(w).can_act]
    if waiting:
        s.waiting = waiting
        s.phase = "delay"
        return
    flush_hits(tx)
    over_check(tx)
    if not s.over:
        start_round(tx)


def flush_hits(tx: Tx):
    s = tx.s
    hits, s.hits = s.hits, []
    for h in hits:
        R.resolve_hit(tx, h)


def advance(tx: Tx):
    """After a decision: continue to the next decision point."""
    s = tx.s
    if s.over:
        return
    if s.phase == "crew":
        ship, crew = s.acting_ship, s.acting_crew
        if ship is None or not ship.can_act:
            end_turn(tx)
            if not s.over and s.phase != "delay":
                begin_turn(tx)
            return
        if crew is None or not role_active(ship, crew) or (s.sig <= 0 and s.minor <= 0 and not (ship.pool and crew.position == "captain")):
            next_crew(tx)


# ================================================================ actions


class CepheusRuleset(RulesetBase):
    key = "cepheus"
    name = "Cepheus Engine"
    strength_label = "Hull and structure left"
    state_class = CombatState
    step_limit = 10000
    free_params = ("dm", "path", "value")
    #: kinds the runner lists under "More actions" rather than with the main choices
    secondary_kinds = ("change_position", "misc", "personal")
    override_help = ("A path and a value: <ship>.hull, <ship>.structure, <ship>.status, <ship>.hits.<system>, "
                     "<ship>.<mount>.hits, <ship>.crew.<crew>.damage, range.<ship>.<ship> = a band, round.")

    # ------------------------------------------------------------ setup
    def setup(self, spec: dict) -> CombatState:
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
        sides = []
        for sh in ships:
            if sh.side not in sides:
                sides.append(sh.side)
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
                key = R.pair(a.id, b.id)
                ranges[key] = options.ranges.get(key, options.range)
        personal = [R.PersonalTarget(str(p.get("id")), str(p.get("name", p.get("id"))), str(p.get("side", "?")),
                                     p.get("band", "close") if p.get("band", "close") in BANDS else "close")
                    for p in (spec.get("options") or {}).get("personal_targets", []) or []]
        return CombatState(ships=ships, ranges=ranges, options=options, sides=sides, order=list(sides),
                           personal=personal, phase="initiative")

    # ------------------------------------------------------------ whose step
    def actor_ship(self, s: CombatState) -> str | None:
        if s.over:
            return None
        if s.phase == "initiative":
            side = s.order[s.turn]
            return next(sh.id for sh in s.ships if sh.side == side)
        if s.phase == "react" and s.pending:
            return s.pending.target
        if s.phase == "range" and s.pending:
            return s.pending.chooser
        if s.phase == "delay" and s.waiting:
            return s.waiting[s.asked]
        ship = s.acting_ship
        return ship.id if ship else None

    # ------------------------------------------------------------ legal actions
    def legal_actions(self, s: CombatState) -> list[Action]:
        if s.over:
            return []
        out = self._decisions(s)
        out.append(Action.make("override", GM))
        return out

    def _decisions(self, s: CombatState, lean: bool = False) -> list[Action]:
        if s.phase == "initiative":
            return [Action.make("initiative", self.actor_ship(s))]
        if s.phase == "react":
            return self._reactions(s)
        if s.phase == "range":
            chooser = s.pending.chooser
            return [Action.make("choose_range", chooser, want=w) for w in ("closer", "hold", "farther")
                    if _range_ok(s, s.pending, w)]
        if s.phase == "delay":
            ship_id = s.waiting[s.asked]
            last = s.turn >= len(s.order)
            return [Action.make("act_now", ship_id), Action.make("act_first" if last else "keep_waiting", ship_id)]
        ship, crew = s.acting_ship, s.acting_crew
        if ship is None or crew is None:
            return []
        return crew_actions(s, ship, crew, lean)

    def _reactions(self, s: CombatState) -> list[Action]:
        p = s.pending
        out = [Action.make("no_reaction", p.target)]
        for kind, actor, params in reaction_options(s, p):
            out.append(Action.make(kind, actor, **params))
        return out

    # ------------------------------------------------------------ apply
    def apply(self, state: CombatState, action: Action, dice) -> Step:
        log: list = []
        tx = Tx(state, dice, log)
        handler = getattr(self, f"_do_{action.kind}", None)
        if handler is None:
            raise IllegalAction(f"Unknown action '{action.kind}'.")
        handler(tx, action)
        advance(tx)
        return Step(tx.s, log)

    # --- initiative
    def _do_initiative(self, tx: Tx, a: Action):
        s = tx.s
        side = s.order[s.turn]
        ships = [sh for sh in s.ships if sh.side == side]
        names = set(s.options.aware)
        aware = {sh.id for sh in s.ships if sh.id in names or sh.name in names or sh.side in names}
        some_aware = bool(aware) and len(aware) < len(s.ships)
        captains = [(sh, c) for sh in ships for c in sh.crew if c.position == "captain" and R.able(c)]
        effect = 0
        if captains:
            sh, cap = max(captains, key=lambda sc: R.skill_of(sc[1], "tactics")[0] + R.char_of(sc[1], "int"))
            who = "fleet commander" if len(ships) > 1 else "Captain"
            roll, effect = R.roll_check(tx, sh, cap, "tactics", "int", "average",
                                        f"{side}: {who} {cap.name}'s Tactics for initiative", T.SEC["initiative"],
                                        extra=_dm(a))
            tx.say(f"{side}: {cap.name}'s Tactics Effect {effect:+d} goes to the initiative of "
                   f"{'every ship of the fleet' if len(ships) > 1 else sh.name}.", T.SEC["initiative"])
        s.tactics = {**s.tactics, side: effect}
        for sh in ships:
            if not sh.alive:
                continue
            others = [o.thrust for o in s.ships if o.side != side]
            thrust_dm = 1 if others and sh.thrust > max(others) else 0
            m = tx.ship(sh.id)
            if some_aware and sh.id in aware:
                m.initiative = 12 + thrust_dm
                tx.say(f"{sh.name} is aware of its enemies: initiative 12{' + 1 (higher Thrust)' if thrust_dm else ''}.",
                       T.SEC["checklist"])
            else:
                roll = tx.dice.roll(2, 6, modifiers=[("higher Thrust", thrust_dm)], purpose=f"{sh.name}: initiative",
                                    rule=T.SEC["initiative"])
                m.initiative = roll.total
            tx.say(f"{sh.name}: initiative {eff_init(s, m)}.", T.SEC["initiative"])
        s.turn += 1
        if s.turn >= len(s.order):
            start_round(tx)

    # --- GM override
    def _do_override(self, tx: Tx, a: Action):
        path, value = a.get("path"), a.get("value")
        if not path:
            tx.say("GM override with nothing to change.", T.SEC["override"], gm_only=True)
            return
        override(tx, str(path), value)
        over_check(tx)

    # --- delay
    def _do_act_now(self, tx: Tx, a: Action):
        s = tx.s
        ship_id = s.waiting[s.asked]
        s.waiting = [w for w in s.waiting if w != ship_id]
        s.asked = 0
        prev = s.find_ship(s.order[s.turn - 1]) if 0 < s.turn <= len(s.order) else None
        sh = tx.ship(ship_id)
        sh.delaying = False
        if prev is not None:
            sh.initiative = eff_init(s, prev) - (eff_init(s, sh) - sh.initiative)
        tx.say(f"{sh.name} stops delaying and acts now (initiative {eff_init(s, sh)}).", T.SEC["delay"])
        s.order = s.order[:s.turn] + [ship_id] + s.order[s.turn:]
        begin_turn(tx)

    def _do_keep_waiting(self, tx: Tx, a: Action):
        s = tx.s
        s.asked += 1
        if s.asked >= len(s.waiting):
            # everyone who waits has been asked: go on with the next ship
            s.asked = 0
            s.phase = "crew"
            begin_turn(tx)

    def _do_act_first(self, tx: Tx, a: Action):
        s = tx.s
        ship_id = s.waiting[s.asked]
        s.waiting = [w for w in s.waiting if w != ship_id]
        s.asked = 0
        others = [eff_init(s, sh) for sh in s.ships if sh.can_act and sh.id != ship_id and sh.id not in s.waiting]
        top = max(others) if others else 0
        sh = tx.ship(ship_id)
        sh.delaying = False
        sh.initiative = top + 1 - (eff_init(s, sh) - sh.initiative)
        tx.say(f"{sh.name} gives up this round's actions to act first next round (initiative {eff_init(s, sh)}).",
               T.SEC["delay"])
        if not s.waiting:
            s.phase = "crew"
            end_round(tx)

    # --- reactions
    def _do_no_reaction(self, tx: Tx, a: Action):
        finish_reaction(tx)

    def _do_dodge(self, tx: Tx, a: Action):
        s, p = tx.s, tx.s.pending
        sh = s.ship(p.target)
        pilot = sh.member(a.actor)
        extra = _intel(sh, p.attacker) + _dm(a)
        roll, effect = R.roll_check(tx, sh, pilot, "pilot", "dex", "average", f"{sh.name} dodges", T.SEC["dodge"],
                                    extra=extra)
        _spend_reaction(tx, sh.id, "dodge", extra)
        if effect >= 0:
            tx.s.pending = replace(tx.s.pending, dodge=-2)
            tx.say(f"{sh.name} dodges: the attack takes DM-2.", T.SEC["dodge"])
        else:
            tx.say(f"{sh.name} fails to dodge.", T.SEC["dodge"])

    def _do_sand(self, tx: Tx, a: Action):
        s, p = tx.s, tx.s.pending
        sh = s.ship(p.target)
        mount_id = a.get("mount")
        gunner = sh.member(a.actor)
        mount = sh.mount(mount_id)
        idx = next(i for i, w in enumerate(mount.weapons) if w.type == "sandcaster" and w.loaded > 0)
        m = tx.mount(sh.id, mount_id)
        m.weapons[idx].loaded -= 1
        extra = [(f"Fire Control/{sh.fire_control}", sh.fire_control)] + _dm(a)
        if mount.hits == 1:
            extra.append(("damaged mount", -2))
        roll, effect = R.roll_check(tx, sh, gunner, "gunnery_turret", "dex", "average",
                                    f"{sh.name} fires sand from {mount_id}", T.SEC["sand"], extra=extra)
        _spend_reaction(tx, sh.id, f"sand:{mount_id}", extra)
        if effect >= 0:
            if p.kind == "board":
                tx.s.pending = replace(tx.s.pending, defence=tx.s.pending.defence + 2)
                tx.say(f"Sand scours the boarders crossing to {sh.name} (8D6 each): defender DM+2 (decision).", T.SEC["sand"])
            else:
                tx.s.pending = replace(tx.s.pending, sand=tx.s.pending.sand + 1)
                tx.say(f"Sand from {mount_id}: every incoming beam loses 1D6 damage.", T.SEC["sand"])
        else:
            tx.say(f"The sand from {mount_id} misses the beam.", T.SEC["sand"])

    def _do_point_defence(self, tx: Tx, a: Action):
        s, p = tx.s, tx.s.pending
        sh = s.ship(p.target)
        mount_id = a.get("mount")
        gunner = sh.member(a.actor)
        mount = sh.mount(mount_id)
        _spend_reaction(tx, sh.id, f"pd:{mount_id}", [])
        base = [(f"Fire Control/{sh.fire_control}", sh.fire_control)] + _dm(a)
        if mount.hits == 1:
            base.append(("damaged mount", -2))
        if p.kind == "board":
            roll, effect = R.roll_check(tx, sh, gunner, "gunnery_turret", "dex", "average",
                                        f"{sh.name}: point defence from {mount_id} at the boarders", T.SEC["point_defence"],
                                        extra=base)
            if effect >= 0:
                tx.s.pending = replace(tx.s.pending, defence=tx.s.pending.defence + 2)
                tx.say("Point defence rakes the boarders: defender DM+2 (decision).", T.SEC["point_defence"])
            return
        attempt = 0
        while True:
            salvo = _missile(tx.s, tx.s.pending.missiles[0])
            if salvo is None or salvo.count <= 0:
                break
            extra = base + [("point defence, earlier attempts", -attempt)]
            roll, effect = R.roll_check(tx, sh, gunner, "gunnery_turret", "dex", "average",
                                        f"{sh.name}: point defence from {mount_id} (attempt {attempt + 1})",
                                        T.SEC["point_defence"], extra=extra)
            attempt += 1
            if effect < 0:
                tx.say(f"Point defence from {mount_id} misses; it stops.", T.SEC["point_defence"])
                break
            _set_missile(tx, replace(salvo, count=salvo.count - 1))
            tx.say(f"Point defence from {mount_id} destroys a {T.MISSILES[salvo.kind]['label']}.", T.SEC["point_defence"])

    def _do_screens(self, tx: Tx, a: Action):
        s, p = tx.s, tx.s.pending
        sh = s.ship(p.target)
        op = sh.member(a.actor)
        level = max(0, int(op.skills.get("screens", 0)))
        roll = tx.dice.roll(2, 6, modifiers=[("Screens", level)] + _dm(a), purpose=f"{sh.name}: screens",
                            rule=T.SEC["screens"], gm_only=R.is_npc(sh))
        _spend_reaction(tx, sh.id, "screens", [])
        kind = a.get("screen")
        tx.s.pending = replace(tx.s.pending, screen=roll.total, screen_kind=kind)
        tx.say(f"{sh.name}'s {'nuclear damper' if kind == 'damper' else 'meson screen'} takes {roll.total} off the damage.",
               T.SEC["screens"])

    # --- range choice (Verifica gittata)
    def _do_choose_range(self, tx: Tx, a: Action):
        p = tx.s.pending
        set_band(tx, p.attacker, p.target, a.get("want"))
        tx.s.pending = None
        tx.s.phase = "crew"

    # --- generic crew actions
    def _do_done(self, tx: Tx, a: Action):
        next_crew(tx)

    def _do_end_turn(self, tx: Tx, a: Action):
        s = tx.s
        s.pos = len(s.queue)
        end_turn(tx)
        if not s.over and s.phase != "delay":
            begin_turn(tx)

    def _do_personal(self, tx: Tx, a: Action):
        _minor(tx)
        c = tx.s.acting_crew
        tx.say(f"{c.name} takes a personal action (GM adjudicates).", T.SEC["personal"])

    def _do_misc(self, tx: Tx, a: Action):
        _significant(tx)
        c = tx.s.acting_crew
        tx.say(f"{c.name} takes a miscellaneous action (GM adjudicates; use the override for effects).", T.SEC["misc"])

    def _do_change_position(self, tx: Tx, a: Action):
        _minor(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        m = tx.crew(ship.id, c.id)
        m.position = a.get("position")
        m.station = a.get("station", "")
        tx.say(f"{c.name} moves to {R.POSITION_LABEL[m.position]}{' at ' + m.station if m.station else ''}.",
               T.SEC["change_position"])

    def _do_hasty(self, tx: Tx, a: Action):
        s = tx.s
        sh = tx.ship(s.acting_ship.id)
        sh.hasty = True
        s.minor += 1
        tx.say(f"{sh.name}'s Captain declares the crew acts hastily: one extra minor action each, DM-1 to every check "
               f"this turn (house rule).", T.SEC["hasty"])

    def _do_delay(self, tx: Tx, a: Action):
        s = tx.s
        sh = tx.ship(s.acting_ship.id)
        sh.delaying = True
        tx.say(f"{sh.name} delays its action.", T.SEC["delay"])
        s.waiting = s.waiting + [sh.id]
        s.order = s.order[:s.turn] + s.order[s.turn + 1:]
        s.queue, s.pos = [], 0
        s.phase = "crew"
        begin_turn(tx)

    def _do_reload(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship = s.acting_ship
        m = tx.mount(ship.id, a.get("mount"))
        w = m.weapons[int(a.get("weapon"))]
        cap = T.WEAPONS[w.type].capacity
        moved = min(cap - w.loaded, w.reserve)
        w.loaded += moved
        w.reserve -= moved
        tx.say(f"{s.acting_crew.name} reloads the {T.WEAPONS[w.type].label} in {m.id} ({w.loaded} loaded, {w.reserve} in store).",
               T.SEC["reload"])

    # --- captain
    def _do_coordinate(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        roll, effect = R.roll_check(tx, ship, c, "leadership", "soc", "average", f"{c.name} coordinates the crew",
                                    T.SEC["coordinate"], extra=_dm(a))
        if effect >= 0:
            tx.ship(ship.id).pool = max(1, effect)
            tx.say(f"{c.name} has a pool of {max(1, effect)} DM+1 to hand out this turn.", T.SEC["coordinate"])
        else:
            tx.say(f"{c.name} fails to coordinate the crew.", T.SEC["coordinate"])

    def _do_assign(self, tx: Tx, a: Action):
        ship = tx.s.acting_ship
        sh = tx.ship(ship.id)
        who = a.get("crew")
        sh.pool -= 1
        sh.bonus[who] = sh.bonus.get(who, 0) + 1
        tx.say(f"The Captain gives {sh.member(who).name} DM+1 for their next check this turn.", T.SEC["coordinate"])

    def _do_increase_initiative(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        roll, effect = R.roll_check(tx, ship, c, "leadership", "soc", "average", f"{c.name} pushes for initiative",
                                    T.SEC["increase_initiative"], extra=_dm(a))
        if effect > 0:
            tx.ship(ship.id).boost_next += effect
            tx.say(f"{ship.name}'s initiative is {effect:+d} for the next round.", T.SEC["increase_initiative"])
        else:
            tx.say(f"{ship.name}'s initiative does not change.", T.SEC["increase_initiative"])

    def _do_exploit(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        enemy = ship.intercepted
        roll, effect = R.roll_check(tx, ship, c, "tactics", "int", "easy", f"{c.name} reads the intercepted traffic",
                                    T.SEC["intercept"], extra=_dm(a))
        sh = tx.ship(ship.id)
        sh.intercepted = ""
        if effect >= 0:
            sh.intel = enemy
            tx.say(f"{c.name} knows {tx.s.ship(enemy).name}'s intentions: a one-time DM+4 against it.", T.SEC["intercept"])
        else:
            tx.say(f"{c.name} cannot make sense of the intercepts.", T.SEC["intercept"])

    # --- pilot
    def _do_adjust_speed(self, tx: Tx, a: Action):
        _minor(tx)
        ship = tx.s.acting_ship
        sh = tx.ship(ship.id)
        sh.speed = int(a.get("speed"))
        tx.say(f"{sh.name} adjusts speed to {sh.speed}.", T.SEC["adjust_speed"])
        for other in tx.s.ships:
            if other.pursuing == sh.id and sh.speed - other.speed >= 7:
                o = tx.ship(other.id)
                o.pursuing, o.pursuit_turns = "", 0
                tx.say(f"{sh.name} outruns {o.name} by 7+: the pursuit ends.", T.SEC["pursue"])

    def _do_maintain_course(self, tx: Tx, a: Action):
        _minor(tx)
        tx.say(f"{tx.s.acting_ship.name} maintains course at speed {tx.s.acting_ship.speed}.", T.SEC["maintain_course"])

    def _do_evasive(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        roll, effect = R.roll_check(tx, ship, c, "pilot", "dex", "average", f"{ship.name}: evasive manoeuvres",
                                    T.SEC["evasive"], extra=_dm(a))
        if effect >= 0:
            tx.ship(ship.id).evasive = -2 if effect >= T.EXCEPTIONAL else -1
            tx.say(f"{ship.name} jinks: attacks against it take DM{tx.s.ship(ship.id).evasive}.", T.SEC["evasive"])
        else:
            tx.say(f"{ship.name}'s evasive manoeuvres fail.", T.SEC["evasive"])

    def _do_line_up(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        roll, effect = R.roll_check(tx, ship, c, "pilot", "dex", "average", f"{ship.name}: line up the shot",
                                    T.SEC["line_up"], extra=_dm(a))
        if effect >= 0:
            tx.ship(ship.id).lined_up = 2 if effect >= T.EXCEPTIONAL else 1
            tx.say(f"{ship.name}'s gunners get DM+{tx.s.ship(ship.id).lined_up} this turn.", T.SEC["line_up"])
        else:
            tx.say(f"{ship.name} cannot line up the shot.", T.SEC["line_up"])

    def _do_pursue(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        target = s.ship(a.get("target"))
        sh = tx.ship(ship.id)
        if ship.pursuing == target.id:
            sh.pursuit_kept = True
            sh.pursuit_turns += 1
            tx.say(f"{ship.name} keeps up the pursuit of {target.name}: DM+{pursuit_dm(sh, target.id)} to hit it.",
                   T.SEC["pursue"])
            return
        won = opposed(tx, ship, c, target, pilot_of(target), "pilot", "dex", f"{ship.name} pursues {target.name}",
                      T.SEC["pursue"], extra=_intel(ship, target.id) + _dm(a))
        if won:
            sh.pursuing, sh.pursuit_turns, sh.pursuit_kept = target.id, 0, True
            tx.say(f"{ship.name} is on {target.name}'s tail.", T.SEC["pursue"])
        else:
            tx.say(f"{target.name} shakes off {ship.name}'s attempt to pursue.", T.SEC["pursue"])

    def _do_break_pursuit(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        chaser = s.ship(a.get("target"))
        won = opposed(tx, ship, c, chaser, pilot_of(chaser), "pilot", "dex", f"{ship.name} breaks {chaser.name}'s pursuit",
                      T.SEC["break_pursuit"], extra=_intel(ship, chaser.id) + _dm(a))
        if won:
            ch = tx.ship(chaser.id)
            ch.pursuing, ch.pursuit_turns = "", 0
            tx.say(f"{ship.name} breaks the pursuit: {chaser.name} loses its accumulated bonus.", T.SEC["break_pursuit"])
        else:
            tx.say(f"{chaser.name} stays on {ship.name}'s tail.", T.SEC["break_pursuit"])

    def _do_dock(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        target = s.ship(a.get("target"))
        unwilling = target.side != ship.side and target.can_act and pilot_of(target) is not None
        if unwilling:
            won = opposed(tx, ship, c, target, pilot_of(target), "pilot", "dex", f"{ship.name} docks with unwilling {target.name}",
                          T.SEC["dock"], extra=[("docking with an unwilling ship", -2)] + _intel(ship, target.id) + _dm(a))
        else:
            roll, effect = R.roll_check(tx, ship, c, "pilot", "dex", "average", f"{ship.name} docks with {target.name}",
                                        T.SEC["dock"], extra=_dm(a))
            won = effect >= 0
        if won:
            s.docked = s.docked + [R.pair(ship.id, target.id)]
            tx.say(f"{ship.name} docks with {target.name}.", T.SEC["dock"])
        else:
            tx.say(f"{ship.name} fails to dock with {target.name}.", T.SEC["dock"])

    def _do_undock(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        key = R.pair(s.acting_ship.id, a.get("target"))
        s.docked = [p for p in s.docked if p != key]
        s.boarding = [b for b in s.boarding if R.pair(b.attacker, b.defender) != key]
        tx.say(f"{s.acting_ship.name} casts off from {s.ship(a.get('target')).name}.", T.SEC["dock"])

    def _do_ram(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        target = s.ship(a.get("target"))
        won = opposed(tx, ship, c, target, pilot_of(target), "pilot", "dex", f"{ship.name} rams {target.name}",
                      T.SEC["ram"], extra=_intel(ship, target.id) + _dm(a))
        if won:
            diff = ship.speed - target.speed
            s.hits = s.hits + [Hit(target.id, ship.id, f"{ship.name} rams {target.name}", "ram", dice=diff),
                               Hit(ship.id, ship.id, f"{ship.name} takes the ramming shock", "ram", dice=diff)]
            set_band(tx, ship.id, target.id, None, band="adjacent")
            tx.say(f"{ship.name} rams {target.name}: {diff}D6 to each, resolved at the end of the turn.", T.SEC["ram"])
        else:
            tx.say(f"{target.name} avoids {ship.name}'s ram.", T.SEC["ram"])

    def _do_avoid_collision(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        avoid_collision(tx, tx.ship(s.acting_ship.id), s.acting_crew, int(a.get("dm", 0)))

    def _do_orbit(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        roll, effect = R.roll_check(tx, ship, c, "pilot", "dex", "routine", f"{ship.name}: orbit insertion",
                                    T.SEC["planetary"], extra=_dm(a))
        sh = tx.ship(ship.id)
        sh.position = "orbit" if effect >= 0 else "decaying"
        tx.say(f"{ship.name} {'enters a stable orbit' if effect >= 0 else 'misses the insertion: its orbit decays'}.",
               T.SEC["planetary"])

    def _do_reentry(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        reentry(tx, tx.ship(ship.id), c, _dm(a), controlled=True)

    # --- navigator
    def _do_jump_plot(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        roll, effect = R.roll_check(tx, ship, c, "navigation", "edu", "easy", f"{ship.name}: hurried jump plot",
                                    T.SEC["jump_plot"], extra=[("hurried into one turn", -1)] + _dm(a))
        if effect >= 0:
            tx.ship(ship.id).jump_plotted = True
            tx.say(f"{c.name} has a jump plotted.", T.SEC["jump_plot"])
        else:
            tx.say(f"{c.name}'s jump plot fails.", T.SEC["jump_plot"])

    def _do_range_check(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        other = s.ship(a.get("target"))
        want = a.get("want")
        opp = _navigator_of(other)
        won = opposed(tx, ship, c, other, opp, "navigation", "edu", f"{ship.name} manoeuvres for range on {other.name}",
                      T.SEC["range_check"], extra=_intel(ship, other.id) + _dm(a))
        if won:
            set_band(tx, ship.id, other.id, want)
        else:
            tx.say(f"{other.name} wins the range check and chooses the range.", T.SEC["range_check"])
            s.pending = Pending("range", ship.id, other.id, chooser=other.id)
            s.phase = "range"

    # --- sensors
    def _do_sensor_target(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        target = s.ship(a.get("target"))
        extra = sensor_dm(ship) + [("target's sensor jamming", -target.electronics)] + _dm(a)
        roll, effect = R.roll_check(tx, ship, c, "comms", "edu", "average", f"{ship.name}: sensor lock on {target.name}",
                                    T.SEC["sensor_targeting"], extra=extra)
        if effect >= 0:
            bonus = 2 if effect >= T.EXCEPTIONAL else 1
            tx.ship(ship.id).targeting[target.id] = bonus
            tx.say(f"{ship.name}'s gunners get DM+{bonus} against {target.name} this turn.", T.SEC["sensor_targeting"])
        else:
            tx.say(f"{ship.name} gets no sensor lock on {target.name}.", T.SEC["sensor_targeting"])

    def _do_jam(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        target = s.ship(a.get("target"))
        op = _sensor_op(target)
        won = opposed(tx, ship, c, target, op, "comms", "int", f"{ship.name} jams {target.name}", T.SEC["ew"],
                      extra=sensor_dm(ship) + _intel(ship, target.id) + _dm(a), their_extra=sensor_dm(target))
        if won:
            t = tx.ship(target.id)
            t.jammed = ship.id
            t.targeting = {}
            tx.say(f"{target.name}'s comms and sensor locks are jammed.", T.SEC["ew"])
        else:
            tx.say(f"{target.name} burns through the jamming.", T.SEC["ew"])

    def _do_ew_missiles(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        attempt = 0
        while True:
            smart = [m for m in tx.s.missiles if m.target == ship.id and m.kind == "smart" and m.count > 0]
            if not smart:
                break
            extra = sensor_dm(ship) + [("earlier attempts", -attempt)] + _dm(a)
            roll, effect = R.roll_check(tx, ship, c, "comms", "int", "difficult",
                                        f"{ship.name}: electronic warfare against smart missiles (attempt {attempt + 1})",
                                        T.SEC["ew"], extra=extra)
            attempt += 1
            if effect < 0:
                tx.say("The jamming fails; the sensor operator stops.", T.SEC["ew"])
                break
            m = smart[0]
            _set_missile(tx, replace(m, count=m.count - 1))
            tx.say(f"A smart missile from {s.ship(m.source).name} is jammed and stops attacking.", T.SEC["ew"])

    def _do_intercept(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        target = s.ship(a.get("target"))
        extra = sensor_dm(ship) + ([("encryption", -2)] if s.options.encrypted else []) + _dm(a)
        roll, effect = R.roll_check(tx, ship, c, "comms", "int", "difficult", f"{ship.name} intercepts {target.name}'s traffic",
                                    T.SEC["intercept"], extra=extra)
        if effect >= 0:
            tx.ship(ship.id).intercepted = target.id
            tx.say(f"{ship.name} intercepts {target.name}'s communications; the Captain may exploit them.", T.SEC["intercept"])
        else:
            tx.say(f"{ship.name} intercepts nothing useful.", T.SEC["intercept"])

    def _do_maintain_comms(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        extra = sensor_dm(ship) + ([("considerable noise", -2)] if s.options.comms_noise else []) + _dm(a)
        if ship.jammed and s.find_ship(ship.jammed) and s.ship(ship.jammed).alive:
            jammer = s.ship(ship.jammed)
            won = opposed(tx, ship, c, jammer, _sensor_op(jammer), "comms", "int", f"{ship.name} restores comms through the jamming",
                          T.SEC["maintain_comms"], extra=[("Routine (+2)", 2)] + extra, their_extra=sensor_dm(jammer))
        else:
            roll, effect = R.roll_check(tx, ship, c, "comms", "int", "routine", f"{ship.name} maintains communications",
                                        T.SEC["maintain_comms"], extra=extra)
            won = effect >= 0
        sh = tx.ship(ship.id)
        if won:
            sh.jammed = ""
            tx.say(f"{ship.name} has reliable communications.", T.SEC["maintain_comms"])
        else:
            tx.say(f"{ship.name} cannot establish reliable communications.", T.SEC["maintain_comms"])

    # --- gunners
    def _do_attack(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        mount = ship.mount(a.get("mount"))
        target_id = a.get("target")
        personal = any(p.id == target_id for p in s.personal)
        band = _band_to(s, ship, target_id)
        usable = usable_weapons(s, ship, mount, band, personal)
        which = a.get("weapon", "all")
        if which == "all":
            chosen = [i for i in usable if mount.weapons[i].type != "sandcaster"] or usable
        else:
            chosen = [int(which)]
        sh = tx.ship(ship.id)
        sh.fired = sh.fired + [mount.id]
        dm = int(a.get("dm", 0))
        beams = []
        for i in chosen:
            kind = T.WEAPONS[mount.weapons[i].type]
            if kind.ammo:
                m = tx.mount(ship.id, mount.id)
                m.weapons[i].loaded -= 1
            if kind.missile:
                launch_missile(tx, ship, c, mount, i, target_id, dm)
            else:
                beams.append(i)
        if not beams:
            return
        if personal:
            fire_at_personal(tx, ship, c, mount, beams, target_id, dm)
            return
        pending = Pending("fire", ship.id, target_id, crew=c.id, mount=mount.id, weapons=beams, dm=dm)
        tname = s.ship(target_id).name
        tx.say(f"{ship.name} fires {mount.id} ({', '.join(T.WEAPONS[mount.weapons[i].type].label for i in beams)}) at {tname}.",
               T.SEC["attack"])
        if reaction_options(s, pending):
            s.pending = pending
            s.phase = "react"
        else:
            resolve_fire(tx, pending)

    # --- engineer
    def _do_jump(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        extra = [("J-drive damaged", -2)] if ship.hits.get("j_drive", 0) == 1 else []
        roll, effect = R.roll_check(tx, ship, c, "engineering", "edu", "average", f"{ship.name} jumps", T.SEC["jump_plot"],
                                    extra=extra + _dm(a))
        if effect >= 0:
            sh = tx.ship(ship.id)
            sh.fuel -= jump_fuel(sh)
            sh.status = "escaped"
            sh.pursuing = ""
            tx.say(f"{ship.name} jumps out of the fight.", T.SEC["jump_plot"])
            _drop_ship_links(tx, ship.id)
            over_check(tx)
        else:
            tx.say(f"{ship.name}'s jump fails to engage.", T.SEC["jump_plot"])

    # --- damage control
    def _do_repair(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        system = a.get("system")
        extra = [("Auto-Repair software", 1)] if c.automated == "repair" else []
        roll, effect = R.roll_check(tx, ship, c, "mechanic", "edu", "average",
                                    f"{c.name} repairs {R.system_label(ship, system)}", T.SEC["repair"],
                                    extra=extra + _dm(a))
        if effect >= 0:
            n, row = T.hits_repaired(effect)
            fixed = R.repair_system(tx, ship.id, system, n)
            tx.say(f"{c.name} repairs {fixed} hit(s) on {R.system_label(ship, system)} ({T.SEC_REPAIR}: {row}); "
                   f"a battlefield repair, undone after the battle.", T.SEC["repair"])
        else:
            tx.say(f"{c.name}'s repair fails.", T.SEC["repair"])

    def _do_overhaul(self, tx: Tx, a: Action):
        _significant(tx)
        ship, c = tx.s.acting_ship, tx.s.acting_crew
        system = a.get("system")
        roll, effect = R.roll_check(tx, ship, c, "mechanic", "edu", "difficult",
                                    f"{c.name} starts rebuilding {R.system_label(ship, system)}", T.SEC["extended"],
                                    extra=_dm(a))
        if effect >= 0:
            timing = tx.dice.roll(1, 6, purpose="timing: turns of work", rule=T.SEC["extended"])
            turns = max(1, timing.total - effect // 2)
            tx.crew(ship.id, c.id).task = R.Task("overhaul", system, turns)
            tx.say(f"{c.name} begins an extended repair of {R.system_label(ship, system)}: {turns} turn(s).", T.SEC["extended"])
        else:
            tx.say(f"{c.name} cannot find a way to rebuild {R.system_label(ship, system)}.", T.SEC["extended"])

    def _do_continue_task(self, tx: Tx, a: Action):
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        s.sig, s.minor = 0, 0
        m = tx.crew(ship.id, c.id)
        m.task = replace(m.task, done=m.task.done + 1)
        if m.task.done >= m.task.turns:
            system = m.task.system
            sh = tx.ship(ship.id)
            if system in R.SYSTEMS:
                sh.hits[system] = 1
                sh.repaired[system] = sh.repaired.get(system, 0) + 2
                if system == "power_plant" and sh.status == "disabled" and sh.hull > 0:
                    sh.status = "active"
            else:
                mm = tx.mount(ship.id, system)
                mm.hits, mm.repaired = 1, mm.repaired + 2
            m.task = None
            tx.say(f"{c.name} finishes the extended repair: {R.system_label(ship, system)} works again (one hit left).",
                   T.SEC["extended"])
        else:
            tx.say(f"{c.name} works on ({m.task.done}/{m.task.turns}).", T.SEC["extended"])

    def _do_abandon_task(self, tx: Tx, a: Action):
        s = tx.s
        ship, c = s.acting_ship, s.acting_crew
        tx.crew(ship.id, c.id).task = None
        tx.say(f"{c.name} abandons the extended task and returns to the initiative order.", T.SEC["extended"])

    # --- boarding
    def _do_board(self, tx: Tx, a: Action):
        _significant(tx)
        s = tx.s
        ship = s.acting_ship
        target = s.ship(a.get("target"))
        docked = R.pair(ship.id, target.id) in s.docked
        pending = Pending("board", ship.id, target.id, crew=s.acting_crew.id, dm=int(a.get("dm", 0)))
        tx.say(f"{ship.name} launches a boarding action against {target.name}{' through the airlocks' if docked else ' across open space'}.",
               T.SEC["boarding"])
        if reaction_options(s, pending):
            s.pending = pending
            s.phase = "react"
        else:
            resolve_boarding(tx, pending)

    # ------------------------------------------------------------ odds
    def odds(self, s: CombatState, a: Action) -> Odds | None:
        try:
            return action_odds(s, a)
        except (KeyError, StopIteration, ValueError, AttributeError, IndexError):
            return None

    # ------------------------------------------------------------ policy
    def policy(self, s: CombatState, rng: random.Random) -> Action:
        from .policy import choose

        return choose(self, s, rng)

    # ------------------------------------------------------------ view
    def view(self, s: CombatState, viewer: Viewer) -> dict:
        from .view import view

        return view(s, viewer)

    def secrets(self, s: CombatState, viewer: Viewer) -> list[str]:
        from .view import secrets

        return secrets(s, viewer)

    def describe(self, s: CombatState, a: Action) -> str:
        return describe(s, a)

    # ------------------------------------------------------------ library
    def example_setup(self, variant: int = 0) -> dict:
        from .library import example_setup

        return example_setup(variant)

    def templates(self) -> list[dict]:
        from .library import TEMPLATES

        return [dict(t) for t in TEMPLATES]

    def demo_fleets(self) -> list[dict]:
        from .library import demo_fleets

        return demo_fleets()

    def damage_of(self, s: CombatState, ship_id: str) -> dict:
        return damage_of(s, ship_id)

    def outcome(self, s: CombatState) -> BattleOutcome:
        def strength(side):
            ships = [sh for sh in s.ships if sh.side == side]
            total = sum(sh.hull_max + sh.structure_max for sh in ships) or 1
            return sum(sh.hull + sh.structure for sh in ships if sh.status != "destroyed") / total

        def lost(side):
            return sum(1 for sh in s.ships if sh.side == side and sh.status in ("destroyed", "boarded", "captured"))

        return BattleOutcome(s.winner, s.round, tuple(SideResult(side, strength(side), lost(side)) for side in s.sides))

    def sweeps(self):
        from rulesets.core.simulate import Sweep, SweepPoint

        return [
            Sweep("range", "Starting range band",
                  tuple(SweepPoint(T.BAND_LABEL[b], {"range": b}) for b in BANDS)),
            Sweep("hasty", "Hasty house rule", (SweepPoint("hasty allowed", {"hasty": True}),
                                                SweepPoint("no hasty", {"hasty": False}))),
            Sweep("awareness", "Awareness at the start (Checklist step 3)", (
                SweepPoint("no surprise", {"aware": []}),
                SweepPoint("first side aware", {"aware": ["@side0"]}),
                SweepPoint("second side aware", {"aware": ["@side1"]}))),
            Sweep("crew_skill", "First side's crew skill", tuple(
                SweepPoint(f"skills {d:+d}", {"skill_delta_side0": d}) for d in (-1, 0, 1, 2))),
        ]


# ================================================================ action helpers


def _dm(a: Action) -> list:
    dm = int(a.get("dm", 0) or 0)
    return [("GM circumstance DM", dm)] if dm else []


def _intel(ship: Ship, enemy_id: str) -> list:
    return [("intercepted intentions", 4)] if ship.intel and ship.intel == enemy_id else []


def _use_intel(tx: Tx, ship_id: str, enemy_id: str):
    sh = tx.s.ship(ship_id)
    if sh.intel == enemy_id:
        tx.ship(ship_id).intel = ""


def _minor(tx: Tx):
    s = tx.s
    if s.minor > 0:
        s.minor -= 1
    elif s.sig > 0:
        s.sig = 0
        s.minor = 1
    else:
        raise IllegalAction("No minor action left (Azioni minori).")


def _significant(tx: Tx):
    s = tx.s
    if s.sig <= 0:
        raise IllegalAction("No significant action left (Azioni significative).")
    crew, ship = s.acting_crew, s.acting_ship
    s.sig = s.sig - 1 if crew is not None and crew.automated == "repair" else 0
    # The turn passes on after the significant action unless a pilot's minor remains (decision).
    if crew is not None and not (crew.position == "pilot" and s.minor > 0 and bridge_ok(ship)):
        s.minor = 0


def _spend_reaction(tx: Tx, ship_id: str, tag: str, extra):
    sh = tx.ship(ship_id)
    sh.reactions = max(0, sh.reactions - 1)
    p = tx.s.pending
    tx.s.pending = replace(p, used=p.used + [tag])
    if any(src == "intercepted intentions" for src, _ in extra):
        _use_intel(tx, ship_id, p.attacker)


def _set_missile(tx: Tx, m: Missile):
    tx.s.missiles = [m if x.id == m.id else x for x in tx.s.missiles]


def _navigator_of(ship: Ship) -> Crew | None:
    for pos in ("navigator", "pilot"):
        for c in ship.crew:
            if c.position == pos and R.able(c) and role_active(ship, c):
                return c
    return None


def _sensor_op(ship: Ship) -> Crew | None:
    for c in ship.crew:
        if c.position == "sensors" and R.able(c):
            return c
    return None


def _drop_ship_links(tx: Tx, ship_id: str):
    s = tx.s
    s.docked = [p for p in s.docked if ship_id not in p.split("|")]
    s.boarding = [b for b in s.boarding if ship_id not in (b.attacker, b.defender)]
    for other in s.ships:
        if other.pursuing == ship_id:
            o = tx.ship(other.id)
            o.pursuing, o.pursuit_turns = "", 0


def jump_fuel(ship: Ship) -> int:
    """Decision: a jump-1 needs 10% of the hull's tonnage in fuel."""
    return max(1, ship.tonnage // 10)


def opposed(tx: Tx, ship: Ship, crew: Crew | None, other: Ship, their: Crew | None, skill: str, char: str,
            purpose: str, rule: str, extra=(), their_extra=()) -> bool:
    """RULES-NOTES: opposed checks: higher Effect wins; ties to the higher characteristic, then reroll."""
    while True:
        r1, e1 = R.roll_check(tx, ship, crew, skill, char, "", purpose, rule, extra=list(extra))
        r2, e2 = R.roll_check(tx, other, their, skill, char, "", f"{other.name} opposes", rule, extra=list(their_extra))
        if e1 != e2:
            won = e1 > e2
            break
        c1 = R.current_chars(crew).get(char, 7) if crew else 0
        c2 = R.current_chars(their).get(char, 7) if their else 0
        if c1 != c2:
            won = c1 > c2
            break
        tx.say("Tied Effect and characteristic: reroll.", T.SEC["notes"])
    if any(src == "intercepted intentions" for src, _ in extra):
        _use_intel(tx, ship.id, other.id)
    return won


def set_band(tx: Tx, a: str, b: str, want: str | None, band: str | None = None):
    s = tx.s
    key = R.pair(a, b)
    old = s.band(a, b)
    if band is None:
        i = band_index(old)
        i = i - 1 if want == "closer" else i + 1 if want == "farther" else i
        band = BANDS[max(0, min(len(BANDS) - 1, i))]
    s.ranges = {**s.ranges, key: band}
    if band != old:
        tx.say(f"Range between {s.ship(a).name} and {s.ship(b).name}: {T.BAND_LABEL[old]} → {T.BAND_LABEL[band]}.",
               T.SEC["range_check"])
    else:
        tx.say(f"Range between {s.ship(a).name} and {s.ship(b).name} stays {T.BAND_LABEL[band]}.", T.SEC["range_check"])
    if band != "adjacent" and key in s.docked:
        s.docked = [p for p in s.docked if p != key]
        s.boarding = [x for x in s.boarding if R.pair(x.attacker, x.defender) != key]
        tx.say("The ships are no longer docked.", T.SEC["dock"])
    if band_index(band) >= band_index("medium"):
        for x, y in ((a, b), (b, a)):
            if s.ship(x).pursuing == y:
                sh = tx.ship(x)
                sh.pursuing, sh.pursuit_turns = "", 0
                tx.say(f"The range opens to {T.BAND_LABEL[band]}: {sh.name}'s pursuit ends.", T.SEC["pursue"])


def _range_ok(s: CombatState, p: Pending, want: str) -> bool:
    i = band_index(s.band(p.attacker, p.target))
    return not ((want == "closer" and i == 0) or (want == "farther" and i == len(BANDS) - 1))


def avoid_collision(tx: Tx, sh: Ship, crew: Crew | None, dm: int):
    s = tx.s
    label, diff = T.COLLISION_SITUATIONS[s.options.hazard]
    extra = [("speed differs from the debris", T.COLLISION_SPEED_MISMATCH_DM)] if s.options.hazard_mismatch else []
    if dm:
        extra.append(("GM circumstance DM", dm))
    if crew is None:
        extra.append(("no pilot at the helm", T.UNSKILLED))
    roll, effect = R.roll_check(tx, sh, crew, "pilot", "dex", diff, f"{sh.name} avoids collision ({label})",
                                T.SEC_COLLISION, extra=extra, table=T.SEC_COLLISION, row=label)
    sh.avoided = True
    if effect >= 0:
        tx.say(f"{sh.name} threads the {label.lower()}.", T.SEC["avoid_collision"])
    elif sh.speed > 0:
        s.hits = s.hits + [Hit(sh.id, sh.id, f"{sh.name} collides", "collision", dice=sh.speed)]
        tx.say(f"{sh.name} collides: {sh.speed}D6 damage at the end of the turn.", T.SEC["avoid_collision"])


def reentry(tx: Tx, sh: Ship, crew: Crew | None, extra, controlled: bool):
    o = tx.s.options
    dms, auto = T.reentry_dms(o.world_size, o.world_atmosphere)
    if auto:
        tx.say(f"Thin atmosphere: {sh.name}'s re-entry succeeds automatically.", T.SEC_REENTRY)
        ok = True
    else:
        roll, effect = R.roll_check(tx, sh, crew, "pilot", "dex", "average",
                                    f"{sh.name}: {'re-entry' if controlled else 'uncontrolled re-entry'}", T.SEC_REENTRY,
                                    extra=dms + list(extra) + ([] if crew else [("no pilot", T.UNSKILLED)]),
                                    table=T.SEC_REENTRY, row=", ".join(s for s, _ in dms) or "no DM")
        ok = effect >= 0
    if ok:
        sh.position = "atmosphere"
        sh.status = "escaped"
        tx.say(f"{sh.name} drops into the atmosphere and leaves the space fight.", T.SEC["planetary"])
        _drop_ship_links(tx, sh.id)
        over_check(tx)
    else:
        sh.position = "decaying"
        tx.say(f"{sh.name}'s re-entry fails: its orbit decays.", T.SEC["planetary"])


def uncontrolled_reentry(tx: Tx, sh: Ship):
    """Manovre planetarie: a decaying orbit drags the ship into an uncontrolled re-entry (decision: each turn)."""
    reentry(tx, sh, pilot_of(sh), [("uncontrolled", -2)], controlled=False)


# ================================================================ attacks


def launch_missile(tx: Tx, ship: Ship, crew: Crew, mount: R.Mount, index: int, target_id: str, dm: int):
    s = tx.s
    w = mount.weapons[index]
    band = s.band(ship.id, target_id)
    turns = T.MISSILE_TURNS[band]
    count = 1
    kind = w.missile or "standard"
    if T.WEAPONS[w.type].key == "missile_bay":
        count = 1 + min(T.WEAPONS["missile_bay"].capacity - 1, max(0, _mount_weapon(tx, ship.id, mount.id, index).loaded))
        m = tx.mount(ship.id, mount.id)
        m.weapons[index].loaded = 0
    tname = s.ship(target_id).name
    if kind == "smart":
        to_hit = T.SMART_TO_HIT
        tx.say(f"{ship.name} launches {count} smart missile(s) at {tname} ({T.SEC_SMART}: always 8+); "
               f"impact in {turns} round(s).", T.SEC["missiles"])
    else:
        extra = attack_mods(s, ship, crew, mount, target_id, w.type, launch=True)
        extra = [e for e in extra if e[1]] + ([("GM circumstance DM", dm)] if dm else [])
        roll, effect = R.roll_check(tx, ship, crew, R.gunnery_skill(mount.kind), "dex", "average",
                                    f"{ship.name} launches from {mount.id} at {tname}", T.SEC["missiles"],
                                    extra=extra, table=T.SEC_MISSILE_TO_HIT)
        to_hit, row = T.missile_to_hit(effect)
        tx.say(f"Launch Effect {effect:+d}: the missile needs {to_hit}+ ({T.SEC_MISSILE_TO_HIT}: {row}); "
               f"impact in {turns} round(s).", T.SEC["missiles"])
        if any(src == "intercepted intentions" for src, _ in extra):
            _use_intel(tx, ship.id, target_id)
    mid = tx.next_id("m")
    s.missiles = s.missiles + [Missile(mid, kind, count, ship.id, target_id, to_hit, turns,
                                       fuel=s.options.smart_fuel if kind == "smart" else 0, launched=s.round)]


def _mount_weapon(tx: Tx, ship_id: str, mount_id: str, index: int) -> R.Weapon:
    return tx.s.ship(ship_id).mount(mount_id).weapons[index]


def resolve_fire(tx: Tx, p: Pending):
    s = tx.s
    ship = s.find_ship(p.attacker)
    target = s.find_ship(p.target)
    if ship is None or target is None or not target.alive:
        return
    crew = ship.member(p.crew)
    mount = ship.mount(p.mount)
    used_intel = False
    for i in p.weapons:
        w = mount.weapons[i]
        kind = T.WEAPONS[w.type]
        extra = attack_mods(s, ship, crew, mount, p.target, w.type, dodge=p.dodge)
        if used_intel:
            extra = [e for e in extra if e[0] != "intercepted intentions"]
        if p.dm:
            extra.append(("GM circumstance DM", p.dm))
        roll, effect = R.roll_check(tx, ship, crew, R.gunnery_skill(mount.kind), "dex", "",
                                    f"{ship.name}'s {kind.label} ({mount.id}) at {target.name}", T.SEC_ATTACK,
                                    extra=extra, table=T.SEC_ATTACK,
                                    row=f"{kind.row.replace('_', ' ')} at {T.BAND_LABEL[s.band(ship.id, target.id)]}")
        if any(e[0] == "intercepted intentions" for e in extra):
            used_intel = True
        if effect < 0:
            tx.say(f"The {kind.label} misses {target.name}.", T.SEC["attack"])
            continue
        tx.say(f"The {kind.label} hits {target.name} (Effect {effect:+d}); damage at the end of {ship.name}'s turn.",
               T.SEC["attack"])
        s.hits = s.hits + [weapon_hit(ship, target, w.type, p)]
    if used_intel:
        _use_intel(tx, ship.id, target.id)


def weapon_hit(ship: Ship, target: Ship, weapon: str, p: Pending) -> Hit:
    kind = T.WEAPONS[weapon]
    label = f"{ship.name}'s {kind.label}"
    h = Hit(target.id, ship.id, label, weapon, dice=kind.dice, flat=kind.flat)
    if kind.beam:
        h.sand = p.sand
    if weapon == "meson_bay":
        h.ignore_armour, h.internal, h.radiation = True, True, "plain"
        if p.screen_kind == "meson":
            h.screen = p.screen
    elif kind.radiation:
        h.radiation = "armour"
    if weapon in ("fusion_gun", "fusion_bay") and p.screen_kind == "damper":
        h.screen = p.screen
    return h


def resolve_missiles(tx: Tx, p: Pending):
    s = tx.s
    m = _missile(s, p.missiles[0])
    if m is None:
        return
    target = s.find_ship(m.target)
    src = s.find_ship(m.source)
    src_name = src.name if src else "?"
    kind = T.MISSILES[m.kind]
    misses = 0
    for n in range(m.count):
        mods = [("target dodges", p.dodge), ("target evasive", target.evasive)]
        roll = tx.dice.roll(2, 6, modifiers=mods, purpose=f"{kind['label']} from {src_name} at {target.name}",
                            rule=T.SEC_SMART if m.kind == "smart" else T.SEC["missiles"], target=m.to_hit,
                            table=T.SEC_MISSILE_TO_HIT, row=f"{m.to_hit}+", gm_only=False)
        if roll.total >= m.to_hit:
            h = Hit(target.id, m.source, f"{src_name}'s {kind['label']}", m.kind, dice=kind["dice"])
            if m.kind == "nuclear":
                h.radiation = "armour"
                if p.screen_kind == "damper":
                    h.screen, h.damper = p.screen, True
            s.hits = s.hits + [h]
            tx.say(f"A {kind['label']} hits {target.name}.", T.SEC["missiles"])
        else:
            misses += 1
            tx.say(f"A {kind['label']} misses {target.name}.", T.SEC["missiles"])
    if m.kind == "smart" and misses and m.fuel > 1:
        _set_missile(tx, replace(m, count=misses, turns=1, fuel=m.fuel - 1))
        tx.say(f"{misses} smart missile(s) come round for another attack next round ({T.SEC_SMART}).", T.SEC_SMART)
    else:
        s.missiles = [x for x in s.missiles if x.id != m.id]


def fire_at_personal(tx: Tx, ship: Ship, crew: Crew, mount: R.Mount, beams: list[int], target_id: str, dm: int):
    s = tx.s
    target = next(p for p in s.personal if p.id == target_id)
    for i in beams:
        w = mount.weapons[i]
        kind = T.WEAPONS[w.type]
        extra = attack_mods(s, ship, crew, mount, target_id, w.type, personal=True)
        if dm:
            extra.append(("GM circumstance DM", dm))
        roll, effect = R.roll_check(tx, ship, crew, R.gunnery_skill(mount.kind), "dex", "",
                                    f"{ship.name}'s {kind.label} at {target.name} (personal scale)", T.SEC["scaled"],
                                    extra=extra)
        if effect < 0:
            tx.say(f"The {kind.label} misses {target.name}.", T.SEC["scaled"])
            continue
        n, mult, rad = T.SCALED_DAMAGE[w.type if w.type in T.SCALED_DAMAGE else "beam_laser"]
        dmg = tx.dice.roll(n, 6, purpose=f"scaled damage to {target.name}", rule=T.SEC_SCALED, table=T.SEC_SCALED,
                           row=f"{kind.label}: {n}D6x{mult}" + (f" + {rad}D6x10 rad" if rad else ""))
        rads = tx.dice.roll(rad, 6, purpose="scaled radiation", rule=T.SEC_SCALED).total * 10 if rad else 0
        tx.s.personal = [replace(p, damage=p.damage + dmg.total * mult, rads=p.rads + rads) if p.id == target_id else p
                         for p in tx.s.personal]
        tx.say(f"{target.name} takes {dmg.total * mult} damage{f' and {rads} rad' if rads else ''} (personal scale).",
               T.SEC["scaled"])


def resolve_boarding(tx: Tx, p: Pending):
    s = tx.s
    att, dfn = s.ship(p.attacker), s.ship(p.target)
    rec = next((b for b in s.boarding if b.attacker == att.id and b.defender == dfn.id), None)
    if rec is None:
        rec = R.Boarding(att.id, dfn.id)
    a_lead = _boarding_leader(att)
    d_lead = _boarding_leader(dfn)
    a_extra = [("earlier boarding success", rec.attacker_dm)] + ([("GM circumstance DM", p.dm)] if p.dm else [])
    d_extra = [("earlier boarding success", rec.defender_dm), ("boarders hit crossing", p.defence)]
    rule = T.SEC["abstract_boarding"]
    while True:
        r1, e1 = R.roll_check(tx, att, a_lead, "tactics", "int", "", f"{att.name} boarding Tactics", rule, extra=a_extra)
        r2, e2 = R.roll_check(tx, dfn, d_lead, "tactics", "int", "", f"{dfn.name} defends", rule, extra=d_extra)
        if e1 != e2:
            break
        c1 = R.current_chars(a_lead).get("int", 7) if a_lead else 0
        c2 = R.current_chars(d_lead).get("int", 7) if d_lead else 0
        if c1 != c2:
            e1, e2 = (e1 + 0.5, e2) if c1 > c2 else (e1, e2 + 0.5)
            break
    winner = "attacker" if e1 > e2 else "defender"
    degree = "exceptional" if max(e1, e2) >= T.EXCEPTIONAL else "success"
    tx.say(f"Boarding: the {winner} wins ({degree}): {T.BOARDING_RESULTS[(winner, degree)]}",
           T.SEC_BOARDING)
    rec = replace(rec, rounds=rec.rounds + 1, attacker_dm=0, defender_dm=0)
    keep = True
    if winner == "attacker" and degree == "success":
        tx.ship(dfn.id).reactions = 0
        tx.ship(dfn.id).no_reactions = False
        rec.attacker_dm = 2
        s.hits = s.hits + [Hit(dfn.id, att.id, "Fighting aboard", "boarding", single=1)]
    elif winner == "defender" and degree == "success":
        rec.defender_dm = 2
        s.hits = s.hits + [Hit(dfn.id, att.id, "Fighting aboard", "boarding", single=1)]
    elif winner == "attacker":
        d = tx.ship(dfn.id)
        d.status = "boarded"  # "needs a turn to take control": captured at the start of the next round
        s.hits = s.hits + [Hit(dfn.id, att.id, "Boarders take the ship", "boarding", dice=2, ignore_armour=True,
                               internal=True)]
        keep = False
        _drop_ship_links(tx, dfn.id)
        s.docked = s.docked + [R.pair(att.id, dfn.id)] if s.band(att.id, dfn.id) == "adjacent" else s.docked
    else:
        keep = False
    s.boarding = [b for b in s.boarding if not (b.attacker == att.id and b.defender == dfn.id)] + ([rec] if keep else [])
    over_check(tx)


def _boarding_leader(ship: Ship) -> Crew | None:
    for pos in ("security", "captain"):
        for c in ship.crew:
            if c.position == pos and R.able(c):
                return c
    return None


# ================================================================ reactions


def reaction_options(s: CombatState, p: Pending) -> list[tuple[str, str, dict]]:
    """Reazioni: what the defender may still do against this incoming attack."""
    target = s.find_ship(p.target)
    if target is None or not target.can_act or target.reactions <= 0:
        return []
    out = []
    if p.kind in ("fire", "missiles") and "dodge" not in p.used and bridge_ok(target):
        pilot = pilot_of(target)
        if pilot is not None:
            out.append(("dodge", pilot.id, {}))
    attacker = s.find_ship(p.attacker)
    docked = R.pair(p.attacker, p.target) in s.docked
    beams = False
    heavy = ""
    if p.kind == "fire" and attacker is not None:
        mount = attacker.mount(p.mount)
        types = [mount.weapons[i].type for i in p.weapons]
        beams = any(T.WEAPONS[t].beam for t in types)
        if any(t in ("fusion_gun", "fusion_bay") for t in types):
            heavy = "damper"
        if "meson_bay" in types:
            heavy = "meson"
    if p.kind == "missiles":
        m = _missile(s, p.missiles[0])
        if m is not None and m.kind == "nuclear":
            heavy = "damper"
    for mount in target.mounts:
        if mount.kind != "turret" or mount.hits >= 2:
            continue
        gunner = manned(target, mount.id)
        if gunner is None:
            continue
        if (beams or (p.kind == "board" and not docked)) and f"sand:{mount.id}" not in p.used and any(
                w.type == "sandcaster" and w.loaded > 0 for w in mount.weapons):
            out.append(("sand", gunner.id, {"mount": mount.id}))
        if (p.kind == "missiles" or (p.kind == "board" and not docked)) and f"pd:{mount.id}" not in p.used and any(
                w.type in ("pulse_laser", "beam_laser") for w in mount.weapons):
            out.append(("point_defence", gunner.id, {"mount": mount.id}))
    if heavy and "screens" not in p.used and ((heavy == "damper" and target.nuclear_damper) or
                                              (heavy == "meson" and target.meson_screen)):
        ops = [c for c in target.crew if c.position in ("captain", *R.GUNNER_POSITIONS) and "screens" in c.skills
               and R.able(c) and not c.automated]
        if ops:
            op = max(ops, key=lambda c: c.skills["screens"])
            out.append(("screens", op.id, {"screen": heavy}))
    return out


def finish_reaction(tx: Tx):
    s = tx.s
    p = s.pending
    s.pending = None
    if p.kind == "missiles":
        resolve_missiles(tx, p)
        s.impacts = s.impacts[1:]
        s.phase = "missiles"
        next_impact(tx)
        return
    s.phase = "crew"
    if p.kind == "fire":
        resolve_fire(tx, p)
    elif p.kind == "board":
        resolve_boarding(tx, p)


# ================================================================ crew actions


def crew_actions(s: CombatState, ship: Ship, c: Crew, lean: bool = False) -> list[Action]:
    """What crew member ``c`` may do now.  ``lean`` leaves out the actions the bot never takes."""
    aid = c.id
    out: list[Action] = []
    if c.task is not None:
        return [Action.make("continue_task", aid), Action.make("abandon_task", aid), Action.make("end_turn", aid)]
    sig = s.sig > 0
    minor = s.minor > 0 or s.sig > 0
    pos = c.position
    fresh = s.pos == 0 and s.sig > 0 and not ship.hasty
    if pos == "captain" and fresh and s.minor >= 1:
        if s.options.hasty:
            out.append(Action.make("hasty", aid))
        out.append(Action.make("delay", aid))
    if pos == "captain" and ship.pool > 0:
        for o in ship.crew:
            if o.id != aid and R.able(o) and not o.automated:
                out.append(Action.make("assign", aid, crew=o.id))
    foes = [e for e in enemies(s, ship)]
    helm = bridge_ok(ship)
    if sig:
        if pos == "captain":
            out.append(Action.make("coordinate", aid))
            out.append(Action.make("increase_initiative", aid))
            if ship.intercepted and s.find_ship(ship.intercepted) and s.ship(ship.intercepted).alive and not ship.jammed:
                out.append(Action.make("exploit", aid))
        elif pos == "pilot" and helm:
            out.extend(pilot_actions(s, ship, c, foes))
        elif pos == "navigator":
            if ship.jump > 0 and not ship.jump_plotted:
                out.append(Action.make("jump_plot", aid))
            for f in foes:
                i = band_index(s.band(ship.id, f.id))
                for want in ("closer", "farther"):
                    if (want == "closer" and i > 0) or (want == "farther" and i < len(BANDS) - 1):
                        out.append(Action.make("range_check", aid, target=f.id, want=want))
        elif pos == "sensors" and helm and sensors_ok(ship):
            for f in foes:
                if not ship.jammed:
                    out.append(Action.make("sensor_target", aid, target=f.id))
                out.append(Action.make("jam", aid, target=f.id))
                if sum(1 for o in s.ships if o.side == f.side and o.alive) > 1:
                    out.append(Action.make("intercept", aid, target=f.id))
            if any(m.target == ship.id and m.kind == "smart" and m.count > 0 for m in s.missiles):
                out.append(Action.make("ew_missiles", aid))
            out.append(Action.make("maintain_comms", aid))
        elif pos in R.GUNNER_POSITIONS:
            out.extend(gunner_actions(s, ship, c, foes))
        elif pos == "engineer":
            if (ship.jump_plotted and ship.jump > 0 and ship.hits.get("j_drive", 0) < 2 and helm
                    and ship.fuel >= jump_fuel(ship) and not any(ship.id in p.split("|") for p in s.docked)):
                out.append(Action.make("jump", aid))
        elif pos == "damage_control":
            for system in R.repairable(ship):
                out.append(Action.make("repair", aid, system=system))
            if not c.automated:
                for system in R.destroyed_systems(ship):
                    out.append(Action.make("overhaul", aid, system=system))
        elif pos in ("security", "marine"):
            leader = pos == "security" or not any(o.position == "security" and R.able(o) for o in ship.crew)
            if leader:
                for f in foes:
                    if f.status in ("active", "disabled") and s.band(ship.id, f.id) == "adjacent":
                        out.append(Action.make("board", aid, target=f.id))
        if not c.automated and not lean:
            for m in ship.mounts:
                if m.hits >= 2:
                    continue
                for i, w in enumerate(m.weapons):
                    if T.WEAPONS[w.type].ammo and w.loaded == 0 and w.reserve > 0:
                        out.append(Action.make("reload", aid, mount=m.id, weapon=i))
            out.append(Action.make("misc", aid))
    if minor and not lean:
        if pos == "pilot" and helm:
            lo, hi = max(0, ship.speed - ship.thrust), min(30, ship.speed + ship.thrust)
            for v in range(lo, hi + 1):
                if v != ship.speed:
                    out.append(Action.make("adjust_speed", aid, speed=v))
            out.append(Action.make("maintain_course", aid))
        if not c.automated:
            out.extend(position_changes(s, ship, c))
            out.append(Action.make("personal", aid))
    out.append(Action.make("done", aid))
    out.append(Action.make("end_turn", aid))
    return out


def pilot_actions(s: CombatState, ship: Ship, c: Crew, foes: list[Ship]) -> list[Action]:
    aid = c.id
    sit = T.COLLISION_SITUATIONS[s.options.hazard]
    if sit[1] and not ship.avoided and ship.speed > 0:
        # Evitare Collisioni: in a hazard the pilot must make the check every turn (decision: it is the only one offered).
        return [Action.make("avoid_collision", aid)]
    out = [Action.make("evasive", aid), Action.make("line_up", aid)]
    for f in foes:
        band = s.band(ship.id, f.id)
        if ship.pursuing == f.id:
            out.append(Action.make("pursue", aid, target=f.id))
        elif band in ("adjacent", "close") and f.speed == ship.speed and f.alive:
            out.append(Action.make("pursue", aid, target=f.id))
        if f.pursuing == ship.id:
            out.append(Action.make("break_pursuit", aid, target=f.id))
        if band == "close" and ship.speed > f.speed:
            out.append(Action.make("ram", aid, target=f.id))
    for o in s.ships:
        if o.id == ship.id or not o.alive:
            continue
        if s.band(ship.id, o.id) == "adjacent":
            if R.pair(ship.id, o.id) in s.docked:
                out.append(Action.make("undock", aid, target=o.id))
            else:
                out.append(Action.make("dock", aid, target=o.id))
    if sit[1]:
        out.append(Action.make("avoid_collision", aid))
    if s.options.planet:
        if ship.position in ("space", "decaying"):
            out.append(Action.make("orbit", aid))
        if ship.position in ("orbit", "decaying"):
            out.append(Action.make("reentry", aid))
    return out


def gunner_actions(s: CombatState, ship: Ship, c: Crew, foes: list[Ship]) -> list[Action]:
    mount = ship.mount(c.station)
    if mount is None or mount.id in ship.fired or mount.hits >= 2:
        return []
    out = []
    targets = [(f.id, s.band(ship.id, f.id), False) for f in foes]
    targets += [(p.id, p.band, True) for p in s.personal if p.side != ship.side]
    for tid, band, personal in targets:
        if not sensors_ok(ship) and band != "adjacent":
            continue  # Sensori, second hit: no attacks beyond Adjacent
        usable = usable_weapons(s, ship, mount, band, personal)
        if not usable:
            continue
        if len(usable) > 1:
            out.append(Action.make("attack", c.id, mount=mount.id, target=tid, weapon="all"))
        for i in usable:
            out.append(Action.make("attack", c.id, mount=mount.id, target=tid, weapon=str(i)))
    return out


def position_changes(s: CombatState, ship: Ship, c: Crew) -> list[Action]:
    out = []
    has_pilot = any(o.position == "pilot" and R.able(o) and not o.automated for o in ship.crew if o.id != c.id)
    for key, _ in R.POSITIONS:
        if key in R.GUNNER_POSITIONS:
            continue
        if key == c.position or (key == "pilot" and has_pilot):
            continue
        out.append(Action.make("change_position", c.id, position=key))
    for m in ship.mounts:
        if m.id == c.station:
            continue
        holder = manned(ship, m.id)
        if holder is None or holder.automated:
            out.append(Action.make("change_position", c.id, position="bay_gunner" if m.kind == "bay" else "turret_gunner",
                                   station=m.id))
    return out


# ================================================================ GM override

_SHIP_INTS = ("hull", "structure", "armour", "fuel", "cargo", "speed", "initiative", "reactions", "evasive",
              "lined_up", "pool", "pursuit_turns", "boost_next", "thrust_max")
_SHIP_STRS = {"status": ("active", "disabled", "destroyed", "escaped", "boarded", "captured"),
              "position": ("space", "orbit", "decaying", "atmosphere"), "pursuing": None, "jammed": None,
              "intel": None}


def override(tx: Tx, path: str, value):
    """RULES-NOTES, the GM's escape hatch: set a stat, status or position by hand.

    Paths: ``<ship>.<field>`` (hull, structure, armour, speed, status, position...),
    ``<ship>.hits.<system>``, ``<ship>.<mount>.hits``, ``<ship>.<mount>.<weapon index>.loaded``,
    ``<ship>.crew.<crew id>.<damage|rads|position|station>``, ``range.<ship>.<ship>`` = band,
    ``round`` = number.
    """
    s = tx.s
    parts = path.split(".")
    try:
        if parts[0] == "range" and len(parts) == 3:
            if value not in BANDS:
                raise IllegalAction(f"'{value}' is not a range band.")
            set_band(tx, parts[1], parts[2], None, band=str(value))
        elif parts[0] == "round" and len(parts) == 1:
            s.round = int(value)
        else:
            ship = s.ship(parts[0])
            sh = tx.ship(ship.id)
            if len(parts) == 2 and parts[1] in _SHIP_INTS:
                setattr(sh, parts[1], max(0, int(value)) if parts[1] not in ("evasive", "initiative") else int(value))
            elif len(parts) == 2 and parts[1] in _SHIP_STRS:
                allowed = _SHIP_STRS[parts[1]]
                if allowed and value not in allowed:
                    raise IllegalAction(f"{parts[1]} must be one of {', '.join(allowed)}.")
                setattr(sh, parts[1], str(value))
            elif len(parts) == 2 and parts[1] == "jump_plotted":
                sh.jump_plotted = str(value).lower() in ("1", "true", "yes")
            elif len(parts) == 3 and parts[1] == "hits" and parts[2] in R.SYSTEMS:
                sh.hits[parts[2]] = max(0, min(3, int(value)))
            elif len(parts) == 3 and ship.mount(parts[1]) and parts[2] == "hits":
                tx.mount(ship.id, parts[1]).hits = max(0, min(3, int(value)))
            elif len(parts) == 4 and ship.mount(parts[1]) and parts[3] in ("loaded", "reserve"):
                w = tx.mount(ship.id, parts[1]).weapons[int(parts[2])]
                setattr(w, parts[3], max(0, int(value)))
            elif len(parts) == 4 and parts[1] == "crew":
                c = tx.crew(ship.id, parts[2])
                if parts[3] in ("damage", "rads"):
                    setattr(c, parts[3], max(0, int(value)))
                elif parts[3] == "position" and value in R.POSITION_LABEL:
                    c.position = str(value)
                elif parts[3] == "station":
                    c.station = str(value)
                else:
                    raise IllegalAction(f"Cannot set crew field '{parts[3]}' to {value!r}.")
            else:
                raise IllegalAction(f"Unknown override path '{path}'.")
    except (KeyError, IndexError, TypeError) as exc:
        raise IllegalAction(f"Unknown override path '{path}'.") from exc
    except ValueError as exc:
        if isinstance(exc, IllegalAction):
            raise
        raise IllegalAction(f"Bad value {value!r} for '{path}'.") from exc
    tx.say(f"GM override: {path} = {value}.", T.SEC["override"])


# ================================================================ damage carried back


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
    for k in R.SYSTEMS:
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
            kind = T.WEAPONS[w.type]
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


# ================================================================ describe


def describe(s: CombatState, a: Action) -> str:
    from .view import describe as _describe

    return _describe(s, a)


# ================================================================ odds


from .odds import action_odds  # noqa: E402  (the odds need the helpers above)

RULESET = CepheusRuleset()
