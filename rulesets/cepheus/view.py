"""What each viewer may see of a Cepheus fight, and the GM's action labels.

The GM sees everything.  A player sees their own ships in full (the "sheet"), and
each enemy only as the best sensors of the player's ships tell at the range band
between them (Tabella: Bande di Gittata del Combattimento Spaziale — sensor details).
Enemy crew skills and characteristics are never shown to players.
"""
from __future__ import annotations

from rulesets.core.engine import Action, Viewer
from rulesets.core.messages import Message, Words, msg, msgn, render

from .checks import CHECKS, HASTY_DM
from .crew import POSITION_LABEL, able, crew_state
from .damage import system_label
from .queries import band_to, personal_target, salvo, target_name, usable_weapons
from .state import SYSTEMS, SYSTEM_LABEL
from .tables import BANDS, BAND_LABEL, COLLISION_SITUATIONS, MISSILES, SENSOR_DETAILS, SENSOR_GRADES, WEAPONS
from .words import listing, mount_name, nth_weapon, mount_title, points, station_name, weapon_in, weapon_sheet


_GRADE = {g: i for i, g in enumerate(SENSOR_GRADES)}


def detected(s, viewer_ships: list, enemy) -> set[str]:
    """The sensor details the viewer's ships detect of ``enemy`` (the best of them)."""
    out: set[str] = set()
    for own in viewer_ships:
        if not own.alive:
            continue
        band = s.band(own.id, enemy.id)
        grade = _GRADE[own.sensors]
        if own.hits.get("sensors", 0) >= 2:
            # sensors disabled or destroyed: the eye alone, at Close or nearer (decision)
            if BANDS.index(band) > BANDS.index("close"):
                continue
            grade = 0
        for b in BANDS[BANDS.index(band):]:
            for key, _, need in SENSOR_DETAILS[b]:
                if grade >= _GRADE[need]:
                    out.add(key)
    return out


def _status(ship) -> str:
    return ship.status


def _ship_name(s, ship_id: str) -> str:
    other = s.find_ship(ship_id) if ship_id else None
    return other.name if other else str(ship_id)


#: a ship's position when a world is near (Manovre planetarie), in words
PLACE = {"space": msg("cepheus.place.space", "in open space"), "orbit": msg("cepheus.place.orbit", "in orbit"),
         "decaying": msg("cepheus.place.decaying", "in a decaying orbit"),
         "atmosphere": msg("cepheus.place.atmosphere", "in the atmosphere")}

#: what an enemy's card says of it, by what the viewer's sensors detect (Bande di Gittata: sensor details)
SENSED = {
    "detected": msg("cepheus.sensed.detected", "detected"),
    "beyond": msg("cepheus.sensed.beyond", "beyond sensor detail"),
    "dead": msg("cepheus.sensed.dead", "dead in space"), "active": msg("cepheus.sensed.active", "active"),
    "small_craft": msg("cepheus.sensed.small_craft", "small craft"),
    "thrusting": msg("cepheus.sensed.thrusting", "thrusting"), "coasting": msg("cepheus.sensed.coasting", "coasting"),
    "emitting": msg("cepheus.sensed.emitting", "sensors and comms active"), "quiet": msg("cepheus.sensed.quiet", "quiet"),
    "heavy": msg("cepheus.sensed.heavy", "heavy"), "light": msg("cepheus.sensed.light", "light"),
    "none": msg("cepheus.sensed.none", "none"), "yes": msg("cepheus.sensed.yes", "yes"),
}
SCREENS = (("nuclear_damper", msg("cepheus.screen.nuclear_damper", "nuclear damper")),
           ("meson_screen", msg("cepheus.screen.meson_screen", "meson screen")))


def effects(s, ship) -> list[str]:
    """What is in effect on a ship now, each in words ("evasive manoeuvres: attacks on it DM-1")."""
    out = []
    if ship.evasive:
        out.append(str(msg("cepheus.effect.evasive", "evasive manoeuvres: attacks on it DM-{n}", n=ship.evasive)))
    if ship.lined_up:
        out.append(str(msg("cepheus.effect.lined_up", "shot lined up: its gunners DM+{n}", n=ship.lined_up)))
    for target, dm in ship.targeting.items():
        out.append(str(msg("cepheus.effect.sensor_lock", "sensor lock on {target}: DM+{n}", target=_ship_name(s, target), n=dm)))
    if ship.pursuing:
        out.append(str(msg("cepheus.effect.pursuing", "pursuing {target}: DM+{n}", target=_ship_name(s, ship.pursuing),
                           n=min(4, ship.pursuit_turns))))
    if ship.hasty:
        out.append(render(HASTY_DM.label))
    if ship.jammed:
        out.append(str(msg("cepheus.effect.jammed", "comms jammed by {ship}", ship=_ship_name(s, ship.jammed))))
    if ship.intercepted:
        out.append(str(msg("cepheus.effect.intercepted", "{ship}'s comms intercepted", ship=_ship_name(s, ship.intercepted))))
    if ship.intel:
        out.append(str(msg("cepheus.effect.intel", "the Captain reads {ship}'s intentions: DM+4 once",
                           ship=_ship_name(s, ship.intel))))
    if s.options.planet:
        out.append(render(PLACE.get(ship.position, ship.position)))
    if ship.delaying:
        out.append(str(msg("cepheus.effect.delaying", "delaying its action")))
    if ship.pool:
        out.append(str(msg("cepheus.effect.pool", "{points} of coordination to hand out",
                           points=msgn("cepheus.effect.pool_points", "{count} DM+1 point",
                                       "{count} DM+1 points", ship.pool))))
    return out


def task_words(ship, task) -> str:
    """An extended task in words: "extended repair of the M-Drive, 1 of 3 turns done"."""
    if task is None:
        return ""
    what = render(system_label(ship, task.system))
    if task.kind == "overhaul":
        return str(msg("cepheus.task.overhaul", "extended repair of the {system}, {done} of {turns} turns done",
                       system=what, done=task.done, turns=task.turns))
    return str(msg("cepheus.task.other", "{kind} of the {system}, {done} of {turns} turns done",
                   kind=task.kind.replace("_", " "), system=what, done=task.done, turns=task.turns))


def sheet(s, ship) -> dict:
    """Everything about a ship (the GM, and the players of that ship)."""
    return {
        "sheet": ship.id,
        "tonnage": ship.tonnage, "small_craft": ship.small_craft,
        "hull": render(points(ship.hull, ship.hull_max)),
        "structure": render(points(ship.structure, ship.structure_max)),
        "armour": f"{ship.armour}/{ship.armour_max}", "thrust": f"{ship.thrust}/{ship.thrust_max}",
        "speed": ship.speed, "jump": ship.jump, "jump_plotted": ship.jump_plotted,
        "sensors": ship.sensors, "electronics": ship.electronics, "fire_control": ship.fire_control,
        "fuel": f"{ship.fuel}/{ship.fuel_max}", "cargo": f"{ship.cargo}/{ship.cargo_max}",
        "initiative": ship.initiative + s.tactics.get(ship.side, 0) + ship.boost,
        "reactions": ship.reactions,
        "systems": {render(SYSTEM_LABEL[k]): ship.hits.get(k, 0) for k in SYSTEMS if ship.hits.get(k, 0)},
        "mounts": [{"id": m.id, "kind": m.kind, "name": mount_title(m.id), "hits": m.hits,
                    "weapons": [render(weapon_sheet(w)) for w in m.weapons]} for m in ship.mounts],
        "screens": [render(words) for key, words in SCREENS if getattr(ship, key)],
        "crew": [{"crew_id": c.id, "name": c.name, "position": render(POSITION_LABEL.get(c.position, c.position)),
                  "station": render(station_name(c.station)), "state": crew_state(c), "damage": c.damage, "rads": c.rads,
                  "skills": dict(c.skills), "characteristics": dict(c.chars),
                  "task": task_words(ship, c.task)}
                 for c in ship.crew],
        "effects": effects(s, ship),
    }


def sensed(s, ship, details: set[str]) -> dict:
    """An enemy as the viewer's sensors see it."""
    d: dict = {"contact": render(SENSED["detected" if details else "beyond"])}
    if "presence" in details:
        d["activity"] = render(SENSED["dead" if ship.status != "active" else "active"])
    if "silhouette" in details:
        d["size"] = render(SENSED["small_craft"] if ship.small_craft else
                           msg("cepheus.sensed.tons", "about {tons} t", tons=round(ship.tonnage, -2) or ship.tonnage))
    if "configuration" in details:
        d["mounts"] = render(msg("cepheus.sensed.mounts", "{turrets}, {bays}",
                                 turrets=msgn("cepheus.sensed.turrets", "{count} turret", "{count} turrets",
                                              sum(1 for m in ship.mounts if m.kind == "turret")),
                                 bays=msgn("cepheus.sensed.bays", "{count} bay", "{count} bays",
                                           sum(1 for m in ship.mounts if m.kind == "bay"))))
    if "thermal" in details:
        d["drive"] = render(SENSED["thrusting" if ship.speed else "coasting"])
    if "emissions" in details:
        d["emissions"] = render(SENSED["emitting" if ship.hits.get("sensors", 0) < 2 else "quiet"])
    if "external" in details:
        d["hull"] = render(points(ship.hull, ship.hull_max))
        d["armour"] = ship.armour
    if "visual" in details:
        d["weapons"] = sorted({render(WEAPONS[w.type].name) for m in ship.mounts for w in m.weapons})
        d["visible damage"] = render(SENSED[
            "heavy" if ship.hull < ship.hull_max / 2 or ship.structure < ship.structure_max / 2
            else "light" if ship.hull < ship.hull_max or ship.structure < ship.structure_max else "none"])
    if "internal" in details:
        d["structure"] = render(points(ship.structure, ship.structure_max))
    if "systems" in details:
        d["damaged systems"] = sorted(render(SYSTEM_LABEL[k]) for k in SYSTEMS if ship.hits.get(k, 0))
        d["damaged mounts"] = [mount_title(m.id) for m in ship.mounts if m.hits]
    if "neural_presence" in details:
        d["life signs"] = render(SENSED["yes" if any(crew_state(c) != "dead" for c in ship.crew if not c.automated)
                                         else "none"])
    if "neural_level" in details:
        d["crew aboard"] = sum(1 for c in ship.crew if not c.automated and crew_state(c) != "dead")
    if "neural_sources" in details:
        d["crew conscious"] = sum(1 for c in ship.crew if not c.automated and able(c))
    return d


def view(s, viewer: Viewer) -> dict:
    mine = [sh for sh in s.ships if sh.id in viewer.ships]
    ships = []
    for sh in s.ships:
        entry = {"id": sh.id, "name": sh.name, "side": sh.side}
        full = viewer.is_gm or sh.id in viewer.ships
        if full:
            entry["status"] = sh.status
            entry.update(sheet(s, sh))
            entry["ranges"] = {o.name: render(BAND_LABEL[s.band(sh.id, o.id)]) for o in s.ships if o.id != sh.id and o.alive}
        elif sh.side in {m.side for m in mine}:
            entry["status"] = sh.status  # an ally: its status is on the fleet net
        else:
            details = detected(s, mine, sh)
            if sh.status in ("destroyed", "escaped", "boarded", "captured"):
                entry["status"] = sh.status  # obvious to everyone
            if not details and sh.status not in ("destroyed", "escaped", "boarded", "captured"):
                entry["name"] = "Unknown contact"
            elif "configuration" not in details and sh.status not in ("destroyed", "escaped", "boarded", "captured"):
                entry["name"] = "Unidentified contact"
            entry.update(sensed(s, sh, details))
            if mine:
                near = min(mine, key=lambda m: BANDS.index(s.band(m.id, sh.id)))
                entry["range"] = render(BAND_LABEL[s.band(near.id, sh.id)])
        ships.append(entry)
    out = {
        "round": s.round, "phase": s.phase, "over": s.over, "winner": s.winner,
        "ships": ships,
        "options": {"max rounds": s.options.max_rounds, "hazard": render(COLLISION_SITUATIONS[s.options.hazard][0]),
                    "hasty house rule": s.options.hasty},
    }
    sides_seen = {m.side for m in mine}
    missiles = []
    for m in s.missiles:
        target = s.find_ship(m.target)
        src = s.find_ship(m.source)
        if viewer.is_gm or (src and src.side in sides_seen):
            missiles.append({"missile": m.id, "kind": m.kind, "count": m.count, "from": src.name if src else "?",
                             "what": render(msgn("cepheus.words.missiles_of", "{count} {missile}", "{count} {missiles}",
                                                 m.count, missile=MISSILES[m.kind]["label"],
                                                 missiles=MISSILES[m.kind]["many"])),
                             "target": target_name(s, m.target), "to_hit": m.to_hit, "rounds": m.turns})
        elif target and target.side in sides_seen:
            missiles.append({"incoming": m.count, "target": target.name, "rounds": m.turns,
                             "what": render(msgn("cepheus.words.missiles", "{count} missile", "{count} missiles",
                                                 m.count))})
    if missiles:
        out["missiles"] = missiles
    if s.personal:
        out["personal targets"] = [{"name": p.name, "side": p.side, "range": render(BAND_LABEL[p.band]),
                                    "damage": p.damage, "rads": p.rads} for p in s.personal]
    if s.docked:
        out["docked"] = [" + ".join(s.ship(x).name for x in p.split("|")) for p in s.docked]
    if viewer.is_gm:
        out["active"] = render(s.active)
        out["order"] = [s.ship(x).name for x in s.order if s.find_ship(x)] if s.phase != "initiative" else []
    return out


def secrets(s, viewer: Viewer) -> list[str]:
    """Markers of GM-only data: an enemy's full sheet, its crew entries, its missiles' to-hit numbers."""
    if viewer.is_gm:
        return []
    sides = {sh.side for sh in s.ships if sh.id in viewer.ships}
    out = []
    for sh in s.ships:
        if sh.id in viewer.ships:
            continue
        out.append(f'"sheet": "{sh.id}"')
        for c in sh.crew:
            out.append(f'"crew_id": "{c.id}"')
    for m in s.missiles:
        src = s.find_ship(m.source)
        if not src or src.side not in sides:
            out.append(f'"missile": "{m.id}"')
    return out


def describe(s, a: Action) -> Words:
    """A label for the GM's action button (a message)."""
    def name(ship_id):
        sh = s.find_ship(ship_id) if ship_id else None
        if sh:
            return sh.name
        for p in s.personal:
            if p.id == ship_id:
                return p.name
        return ship_id or "?"

    ship = s.crew_ship(a.actor) if a.actor else None
    crew = ship.member(a.actor) if ship else None
    who = crew.name if crew else name(a.actor)
    tgt = name(a.get("target")) if a.get("target") else ""
    k = a.kind
    if k == "attack":
        assert ship is not None  # an attack's actor is a gunner of a ship
        return _attack_label(s, ship, a, tgt)
    # each label is worked out only for the kind asked (the others may not apply to this action)
    label = _LABELS.get(k)
    if label is not None:
        return label(s, a, ship, who, tgt, name)
    return a.to_str()


def _attack_label(s, ship, a: Action, tgt: str) -> Message:
    mount = ship.mount(a.get("mount"))
    which = a.get("weapon", "all")
    labels_ = [WEAPONS[w.type].name for w in mount.weapons]
    kept: list[Message] = []
    fired = [int(which)] if which != "all" else []
    if which == "all":
        # what the salvo fires (queries.salvo): every usable weapon but the sandcasters, kept for sand
        usable = usable_weapons(s, ship, mount, band_to(s, ship, a.get("target")),
                                personal_target(s, a.get("target")) is not None)
        fired = salvo(mount, usable) or usable
        weapons = [labels_[i] for i in fired]
        kept = [labels_[i] for i in usable if i not in fired]
    else:
        i = int(which)
        # Two weapons of one kind in a turret: say which one ("missile rack 2").
        twins = labels_.count(labels_[i]) > 1
        weapons = [nth_weapon(labels_[i], labels_[:i + 1].count(labels_[i])) if twins else labels_[i]]
    launch = bool(fired) and all(WEAPONS[mount.weapons[i].type].missile for i in fired)
    verb = LAUNCH if launch else FIRE
    if which != "all":
        return msg("cepheus.button.fire_one", "{verb} {mount} ({weapons}) at {target}", verb=verb,
                   mount=mount_name(mount.id, mount.kind), weapons=weapons[0], target=tgt)
    # "2 × pulse laser": a salvo's weapons counted by kind, on a button that must stay short
    counted = listing(label if n == 1 else msg("cepheus.button.times", "{count} × {weapon}", count=n, weapon=label)
                      for label, n in {w: weapons.count(w) for w in weapons}.items())
    if kept:
        return msg("cepheus.button.salvo_kept", "{verb} {mount} (all: {weapons}; {kept} kept) at {target}",
                   verb=verb, mount=mount_name(mount.id, mount.kind), weapons=counted,
                   kept=listing(dict.fromkeys(kept)), target=tgt)
    return msg("cepheus.button.salvo", "{verb} {mount} (all: {weapons}) at {target}", verb=verb,
               mount=mount_name(mount.id, mount.kind), weapons=counted, target=tgt)


FIRE = msg("cepheus.button.fire", "Fire")
LAUNCH = msg("cepheus.button.launch", "Launch")


def _who(id: str, text: str):
    """A crew member's button: "{who}: ..." with the action's own words."""
    return lambda s, a, ship, who, tgt, name: msg(id, text, who=who)


def _initiative(s, a, ship, who, tgt, name):
    side = s.order[s.turn] if s.phase == "initiative" and s.turn < len(s.order) else ""
    return msg("cepheus.button.initiative", "Roll initiative for {side}", side=side)


def _reload(s, a, ship, who, tgt, name):
    return msg("cepheus.button.reload", "{who}: reload {weapon}", who=who, weapon=_reload_what(ship, a))


def _change_position(s, a, ship, who, tgt, name):
    position = POSITION_LABEL.get(a.get("position"), a.get("position"))
    if a.get("station"):
        return msg("cepheus.button.move_to_station", "{who}: move to {position} at {station}", who=who,
                   position=position, station=station_name(a.get("station")))
    return msg("cepheus.button.move_to", "{who}: move to {position}", who=who, position=position)


def _choose_range(s, a, ship, who, tgt, name):
    want = a.get("want")
    if want == "closer":
        return msg("cepheus.button.range_closer", "{ship}: close the range", ship=name(a.actor))
    if want == "farther":
        return msg("cepheus.button.range_farther", "{ship}: open the range", ship=name(a.actor))
    return msg("cepheus.button.range_hold", "{ship}: hold the range", ship=name(a.actor))


#: the button of each kind but an attack: ``label(s, action, ship, who, target, name)``
_LABELS = {
    "initiative": _initiative,
    "override": lambda s, a, ship, who, tgt, name: msg("cepheus.button.override",
                                                       "GM override (set a stat, status or range)"),
    "done": _who("cepheus.button.done", "{who}: done"),
    "end_turn": lambda s, a, ship, who, tgt, name: msg(
        "cepheus.button.end_turn", "End {ship}'s turn (the rest of the crew stand by)", ship=ship.name if ship else ""),
    "no_reaction": lambda s, a, ship, who, tgt, name: msg("cepheus.button.no_reaction",
                                                          "No (more) reactions: resolve the attack"),
    "dodge": _who("cepheus.button.dodge", "{who}: dodge"),
    "sand": lambda s, a, ship, who, tgt, name: msg("cepheus.button.sand", "{who}: fire sand from turret {n}", who=who,
                                                   n=str(a.get("mount", ""))[1:]),
    "point_defence": lambda s, a, ship, who, tgt, name: msg(
        "cepheus.button.point_defence", "{who}: point defence from turret {n}", who=who, n=str(a.get("mount", ""))[1:]),
    "screens": lambda s, a, ship, who, tgt, name: (
        msg("cepheus.button.damper", "{who}: activate the nuclear damper", who=who) if a.get("screen") == "damper"
        else msg("cepheus.button.meson_screen", "{who}: activate the meson screen", who=who)),
    "hasty": _who("cepheus.button.hasty", "{who}: declare the crew acts hastily (house rule)"),
    "delay": _who("cepheus.button.delay", "{who}: delay this ship's action"),
    "assign": lambda s, a, ship, who, tgt, name: msg("cepheus.button.assign", "{who}: give DM+1 to {crew}", who=who,
                                                     crew=name_of_crew(s, a.get("crew"))),
    "coordinate": lambda s, a, ship, who, tgt, name: msg("cepheus.button.coordinate", "{who}: coordinate the crew "
                                                         "({skill})", who=who, skill=CHECKS["coordinate"].skill_label),
    "increase_initiative": lambda s, a, ship, who, tgt, name: msg(
        "cepheus.button.increase_initiative", "{who}: increase initiative ({skill})", who=who,
        skill=CHECKS["increase_initiative"].skill_label),
    "exploit": lambda s, a, ship, who, tgt, name: msg("cepheus.button.exploit", "{who}: exploit intercepted comms "
                                                      "({skill})", who=who, skill=CHECKS["exploit"].skill_label),
    "evasive": _who("cepheus.button.evasive", "{who}: evasive manoeuvres"),
    "line_up": _who("cepheus.button.line_up", "{who}: line up the shot"),
    "pursue": lambda s, a, ship, who, tgt, name: (
        msg("cepheus.button.keep_pursuing", "{who}: keep up the pursuit of {target}", who=who, target=tgt)
        if ship and ship.pursuing == a.get("target") else
        msg("cepheus.button.pursue", "{who}: pursue {target}", who=who, target=tgt)),
    "break_pursuit": lambda s, a, ship, who, tgt, name: msg("cepheus.button.break_pursuit", "{who}: break {target}'s "
                                                            "pursuit", who=who, target=tgt),
    "dock": lambda s, a, ship, who, tgt, name: msg("cepheus.button.dock", "{who}: dock with {target}", who=who,
                                                   target=tgt),
    "undock": lambda s, a, ship, who, tgt, name: msg("cepheus.button.undock", "{who}: undock from {target}", who=who,
                                                     target=tgt),
    "ram": lambda s, a, ship, who, tgt, name: msg("cepheus.button.ram", "{who}: ram {target}", who=who, target=tgt),
    "avoid_collision": _who("cepheus.button.avoid_collision", "{who}: avoid collision"),
    "orbit": _who("cepheus.button.orbit", "{who}: orbit insertion"),
    "reentry": _who("cepheus.button.reentry", "{who}: atmospheric re-entry"),
    "adjust_speed": lambda s, a, ship, who, tgt, name: msg("cepheus.button.adjust_speed", "{who}: adjust speed to "
                                                           "{speed}", who=who, speed=a.get("speed")),
    "maintain_course": _who("cepheus.button.maintain_course", "{who}: maintain course"),
    "jump_plot": _who("cepheus.button.jump_plot", "{who}: plot a jump (hurried)"),
    "range_check": lambda s, a, ship, who, tgt, name: (
        msg("cepheus.button.range_check_closer", "{who}: range check against {target} (close in)", who=who, target=tgt)
        if a.get("want") == "closer" else
        msg("cepheus.button.range_check_farther", "{who}: range check against {target} (open the range)", who=who,
            target=tgt)),
    "sensor_target": lambda s, a, ship, who, tgt, name: msg("cepheus.button.sensor_target", "{who}: sensor targeting "
                                                            "on {target}", who=who, target=tgt),
    "jam": lambda s, a, ship, who, tgt, name: msg("cepheus.button.jam", "{who}: electronic warfare: jam {target}",
                                                  who=who, target=tgt),
    "ew_missiles": _who("cepheus.button.ew_missiles", "{who}: electronic warfare against incoming smart missiles"),
    "intercept": lambda s, a, ship, who, tgt, name: msg("cepheus.button.intercept", "{who}: intercept {target}'s "
                                                        "communications", who=who, target=tgt),
    "maintain_comms": _who("cepheus.button.maintain_comms", "{who}: maintain communications"),
    "jump": _who("cepheus.button.jump", "{who}: jump out"),
    "repair": lambda s, a, ship, who, tgt, name: msg("cepheus.button.repair", "{who}: repair {system}", who=who,
                                                     system=system_label(ship, a.get("system")) if ship else ""),
    "overhaul": lambda s, a, ship, who, tgt, name: msg("cepheus.button.overhaul", "{who}: extended repair of destroyed "
                                                       "{system}", who=who,
                                                       system=system_label(ship, a.get("system")) if ship else ""),
    "continue_task": _who("cepheus.button.continue_task", "{who}: keep working on the extended task"),
    "abandon_task": _who("cepheus.button.abandon_task", "{who}: abandon the extended task"),
    "board": lambda s, a, ship, who, tgt, name: msg("cepheus.button.board", "{who}: board {target}", who=who,
                                                    target=tgt),
    "reload": _reload,
    "misc": _who("cepheus.button.misc", "{who}: miscellaneous action"),
    "personal": _who("cepheus.button.personal", "{who}: personal action"),
    "change_position": _change_position,
    "choose_range": _choose_range,
    "act_now": lambda s, a, ship, who, tgt, name: msg("cepheus.button.act_now", "{ship}: stop delaying and act now",
                                                      ship=name(a.actor)),
    "keep_waiting": lambda s, a, ship, who, tgt, name: msg("cepheus.button.keep_waiting", "{ship}: keep delaying",
                                                           ship=name(a.actor)),
    "act_first": lambda s, a, ship, who, tgt, name: msg("cepheus.button.act_first", "{ship}: act first next round "
                                                        "instead", ship=name(a.actor)),
}


def _reload_what(ship, a: Action) -> Words:
    """"the missile rack in turret 3" (the mount's id when the ship does not have it)."""
    mount = ship.mount(a.get("mount")) if ship else None
    if mount is None:
        return mount_name(str(a.get("mount")))
    return weapon_in(mount, int(a.get("weapon", 0)))


def name_of_crew(s, crew_id) -> str:
    ship = s.crew_ship(crew_id)
    return ship.member(crew_id).name if ship else str(crew_id)
