"""What may be done now: the legal actions of each phase, position and crew member."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.engine import Action

from .attacks import reaction_options
from .crew import GUNNER_POSITIONS, POSITIONS, able
from .damage import destroyed_systems, repairable
from .queries import band_index, bridge_ok, enemies, jump_fuel, manned, range_ok, sensors_ok, usable_weapons
from .state import pair
from .tables import BANDS, COLLISION_SITUATIONS, WEAPONS

if TYPE_CHECKING:
    from .state import CombatState, Crew, Ship


def decisions(s: CombatState) -> list[Action]:
    if s.phase == "initiative":
        side_ship = actor_ship(s)  # the first ship of the side rolling
        assert side_ship is not None
        return [Action.make("initiative", side_ship)]
    if s.phase == "react":
        return reactions(s)
    if s.phase == "range":
        p = s.pending
        assert p is not None  # the range phase waits on a pending range choice
        return [Action.make("choose_range", p.chooser, want=w) for w in ("closer", "hold", "farther")
                if range_ok(s, p, w)]
    if s.phase == "delay":
        ship_id = s.waiting[s.asked]
        last = s.turn >= len(s.order)
        return [Action.make("act_now", ship_id), Action.make("act_first" if last else "keep_waiting", ship_id)]
    ship, crew = s.actor()
    if ship is None or crew is None:
        return []
    return crew_actions(s, ship, crew) + interruptions(s, ship)


def interruptions(s: CombatState, ship: Ship) -> list[Action]:
    """Ritardo: a delaying ship may act at any later moment of the turn, interrupting ``ship``'s."""
    return [Action.make("act_now", w) for w in s.waiting
            if w != ship.id and (other := s.find_ship(w)) is not None and other.can_act]


def reactions(s: CombatState) -> list[Action]:
    p = s.pending
    assert p is not None  # the react phase waits on a pending attack
    out = [Action.make("no_reaction", p.target)]
    for kind, actor, params in reaction_options(s, p):
        out.append(Action.make(kind, actor, **params))
    return out


# ---------------------------------------------------------------- what a position may do
# Each predicate below is the one statement of when an action is possible; the action
# list and the bot (policy.py) both read them.


def can_exploit(s: CombatState, ship: Ship) -> bool:
    """Intercettare: the Captain may exploit intercepted comms while the enemy is there and comms work."""
    return bool(ship.intercepted and s.find_ship(ship.intercepted) and s.ship(ship.intercepted).alive
                and not ship.jammed)


def helm_forced_to_avoid(s: CombatState, ship: Ship) -> bool:
    """Evitare Collisioni: in a hazard the pilot must make the check every turn (decision: the only one offered)."""
    return bool(COLLISION_SITUATIONS[s.options.hazard][1]) and not ship.avoided and ship.speed > 0


def can_pursue(s: CombatState, ship: Ship, foe: Ship) -> bool:
    """Inseguimento: keep up a pursuit, or start one at Adjacent or Close at the same speed."""
    if ship.pursuing == foe.id:
        return True
    return s.band(ship.id, foe.id) in ("adjacent", "close") and foe.speed == ship.speed and foe.alive


def range_wants(s: CombatState, ship: Ship, foe: Ship) -> list[str]:
    """Verifica gittata: one band closer or farther, where there is one."""
    i = band_index(s.band(ship.id, foe.id))
    return [w for w in ("closer", "farther") if (w == "closer" and i > 0) or (w == "farther" and i < len(BANDS) - 1)]


def can_plot_jump(ship: Ship) -> bool:
    return ship.jump > 0 and not ship.jump_plotted


def can_jump(s: CombatState, ship: Ship) -> bool:
    """Motore-B: a plot, a working J-drive and bridge, the fuel, and not docked."""
    return (ship.jump_plotted and ship.jump > 0 and ship.hits.get("j_drive", 0) < 2 and bridge_ok(ship)
            and ship.fuel >= jump_fuel(ship) and not any(ship.id in p.split("|") for p in s.docked))


def sensors_work(ship: Ship) -> bool:
    """The sensor operator needs the bridge and the sensors."""
    return bridge_ok(ship) and sensors_ok(ship)


def smart_missiles_incoming(s: CombatState, ship: Ship) -> bool:
    return any(m.target == ship.id and m.kind == "smart" and m.count > 0 for m in s.missiles)


def leads_boarders(ship: Ship, c: Crew) -> bool:
    """The chief security officer leads the boarders; marines only when there is none."""
    return c.position == "security" or not any(o.position == "security" and able(o) for o in ship.crew)


def can_board(s: CombatState, ship: Ship, foe: Ship) -> bool:
    """Abbordaggio: an active or disabled enemy at Adjacent."""
    return foe.status in ("active", "disabled") and s.band(ship.id, foe.id) == "adjacent"


def attack_options(s: CombatState, ship: Ship, mount) -> list[tuple[str, bool, list[int]]]:
    """(target id, personal scale, usable weapons) for each target ``mount`` can fire at now."""
    if mount is None or mount.id in ship.fired or mount.hits >= 2:
        return []
    out = []
    blind = not sensors_ok(ship)  # Sensori, second hit: no attacks beyond Adjacent
    usable_at: dict[str, list[int]] = {}  # the weapons that reach a band, worked out once a band
    for foe in enemies(s, ship):
        band = s.band(ship.id, foe.id)
        if blind and band != "adjacent":
            continue
        usable = usable_at.get(band)
        if usable is None:
            usable = usable_at[band] = usable_weapons(s, ship, mount, band)
        if usable:
            out.append((foe.id, False, usable))
    for p in s.personal:
        if p.side != ship.side and not (blind and p.band != "adjacent"):
            usable = usable_weapons(s, ship, mount, p.band, True)
            if usable:
                out.append((p.id, True, usable))
    return out


def crew_actions(s: CombatState, ship: Ship, c: Crew) -> list[Action]:
    """What crew member ``c`` may do now."""
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
        if not ship.delayed:  # Ritardo: a ship that delayed and then acts, acts
            out.append(Action.make("delay", aid))
    if pos == "captain" and ship.pool > 0:
        for o in ship.crew:
            if o.id != aid and able(o) and not o.automated:
                out.append(Action.make("assign", aid, crew=o.id))
    foes = enemies(s, ship)
    helm = bridge_ok(ship)
    if sig:
        if pos == "captain":
            out.append(Action.make("coordinate", aid))
            out.append(Action.make("increase_initiative", aid))
            if can_exploit(s, ship):
                out.append(Action.make("exploit", aid))
        elif pos == "pilot" and helm:
            out.extend(pilot_actions(s, ship, c, foes))
        elif pos == "navigator":
            if can_plot_jump(ship):
                out.append(Action.make("jump_plot", aid))
            for f in foes:
                for want in range_wants(s, ship, f):
                    out.append(Action.make("range_check", aid, target=f.id, want=want))
        elif pos == "sensors" and sensors_work(ship):
            for f in foes:
                if not ship.jammed:
                    out.append(Action.make("sensor_target", aid, target=f.id))
                out.append(Action.make("jam", aid, target=f.id))
                if sum(1 for o in s.ships if o.side == f.side and o.alive) > 1:
                    out.append(Action.make("intercept", aid, target=f.id))
            if smart_missiles_incoming(s, ship):
                out.append(Action.make("ew_missiles", aid))
            out.append(Action.make("maintain_comms", aid))
        elif pos in GUNNER_POSITIONS:
            out.extend(gunner_actions(s, ship, c))
        elif pos == "engineer":
            if can_jump(s, ship):
                out.append(Action.make("jump", aid))
        elif pos == "damage_control":
            for system in repairable(ship):
                out.append(Action.make("repair", aid, system=system))
            if not c.automated:
                for system in destroyed_systems(ship):
                    out.append(Action.make("overhaul", aid, system=system))
        elif pos in ("security", "marine"):
            if leads_boarders(ship, c):
                for f in foes:
                    if can_board(s, ship, f):
                        out.append(Action.make("board", aid, target=f.id))
        if not c.automated:
            for m in ship.mounts:
                if m.hits >= 2:
                    continue
                for i, w in enumerate(m.weapons):
                    if WEAPONS[w.type].ammo and w.loaded == 0 and w.reserve > 0:
                        out.append(Action.make("reload", aid, mount=m.id, weapon=i))
            out.append(Action.make("misc", aid))
    if minor:
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
    if helm_forced_to_avoid(s, ship):
        return [Action.make("avoid_collision", aid)]
    out = [Action.make("evasive", aid), Action.make("line_up", aid)]
    for f in foes:
        band = s.band(ship.id, f.id)
        if can_pursue(s, ship, f):
            out.append(Action.make("pursue", aid, target=f.id))
        if f.pursuing == ship.id:
            out.append(Action.make("break_pursuit", aid, target=f.id))
        if band == "close" and ship.speed > f.speed:
            out.append(Action.make("ram", aid, target=f.id))
    for o in s.ships:
        if o.id == ship.id or not o.alive:
            continue
        if s.band(ship.id, o.id) == "adjacent":
            if pair(ship.id, o.id) in s.docked:
                out.append(Action.make("undock", aid, target=o.id))
            else:
                out.append(Action.make("dock", aid, target=o.id))
    if COLLISION_SITUATIONS[s.options.hazard][1]:
        out.append(Action.make("avoid_collision", aid))
    if s.options.planet:
        if ship.position in ("space", "decaying"):
            out.append(Action.make("orbit", aid))
        if ship.position in ("orbit", "decaying"):
            out.append(Action.make("reentry", aid))
    return out


def gunner_actions(s: CombatState, ship: Ship, c: Crew) -> list[Action]:
    mount = ship.mount(c.station)
    if mount is None:  # no mount at the gunner's station: nothing to fire (attack_options gives none)
        return []
    out = []
    for tid, personal, usable in attack_options(s, ship, mount):
        if len(usable) > 1:
            out.append(Action.make("attack", c.id, mount=mount.id, target=tid, weapon="all"))
        for i in usable:
            out.append(Action.make("attack", c.id, mount=mount.id, target=tid, weapon=str(i)))
    return out


def position_changes(s: CombatState, ship: Ship, c: Crew) -> list[Action]:
    out = []
    has_pilot = any(o.position == "pilot" and able(o) and not o.automated for o in ship.crew if o.id != c.id)
    for key, _ in POSITIONS:
        if key in GUNNER_POSITIONS:
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


def turn_ship(s: CombatState) -> str | None:
    """The ship whose turn it is: while its attack waits for the target's reaction or the range
    choice, the attacker (the runner's "Play this ship's turn" plays on through the reaction);
    otherwise the ship that decides (:func:`actor_ship`)."""
    if not s.over and s.phase in ("react", "range") and s.pending is not None:
        attacker = s.find_ship(s.pending.attacker)
        if attacker is not None:
            return attacker.id
    return actor_ship(s)


def actor_ship(s: CombatState) -> str | None:
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
