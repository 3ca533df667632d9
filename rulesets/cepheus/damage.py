"""Damage: the damage table, hit locations, crew hits, repairs, and the end of a fight.

Danno (Damage) and its tables; a ship's hits wait in ``state.hits`` until the end of
its turn (Checklist 5.3), then :func:`flush_hits` resolves them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.dice import Roll
from rulesets.core.messages import msg
from rulesets.core.state import clone
from rulesets.core.words import count as count_of

from .checks import roll_check
from .crew import able, crew_state
from .state import SYSTEMS, SYSTEM_LABEL
from .words import mount_of
from .tables import (
    COLUMN_LABEL, EXCEPTIONAL, FURTHER_HITS, HIT_LOCATION, LOCATION_EFFECTS, LOCATION_LABEL,
    LOCATION_SECTION, SEC, SEC_CREW_DAMAGE, SEC_DAMAGE, SEC_LOCATION, SEC_SPECIAL, WEAPONS, crew_damage_row,
    damage_effect,
)

if TYPE_CHECKING:
    from .state import Hit, Ship, Tx


def table_roll(tx: Tx, count: int, purpose: str, rule: str, table: str, row_of, mods=(), target=None,
               gm_only: bool = False):
    """Roll ``count``D6 + mods, record it with the table row its total selects; returns the total
    (in a playout nothing is recorded and no :class:`Roll` is built)."""
    faces = tuple(tx.dice.faces(count, 6, purpose, rule))
    total = sum(faces)
    for _, v in mods:
        total += v
    if tx.recording:
        mods = tuple((str(s), int(v)) for s, v in mods if v)
        tx.dice.record(Roll(f"{count}D6", faces, mods, total, purpose, rule, table, row_of(total), target, gm_only))
    return total


def dice_total(tx: Tx, count: int, purpose: str, rule: str, sides: int = 6) -> int:
    """``count`` dice of ``sides`` (D6 unless said) summed: recorded as a roll, or in a playout only the faces
    drawn (the same dice)."""
    if tx.recording:
        return tx.dice.roll(count, sides, purpose=purpose, rule=rule).total
    return sum(tx.dice.faces(count, sides))


def column_for(ship: Ship, internal: bool = False) -> str:
    """Danno: small craft use their column; ships use External until Hull is gone."""
    if internal:
        return "internal"
    if ship.small_craft:
        return "small_craft"
    return "internal" if ship.hull <= 0 else "external"


def resolve_hit(tx: Tx, hit: Hit) -> int:
    """Roll damage for one successful attack and apply it.  Returns the damage after armour."""
    target = tx.s.find_ship(hit.target)
    if target is None or target.status in ("destroyed", "escaped"):
        return 0
    rule = SEC["damage"]
    armour = target.armour  # the armour the hit meets: its damage and its radiation crew hit both read it
    mods = []
    if hit.single:
        if tx.recording:
            tx.say(f"{hit.label}: {count_of(hit.single, 'single internal hit')} on {target.name}.", SEC["abstract_boarding"])
        for _ in range(hit.single):
            apply_location_hits(tx, target.id, 1, internal=True)
        return 0
    if not hit.dice:
        raw = hit.flat
    else:
        raw = dice_total(tx, hit.dice, f"{hit.label}: damage" if tx.recording else "", rule)
    if not hit.ignore_armour and armour:
        mods.append(("armour", -armour))
    if hit.sand:
        for _ in range(hit.sand):
            mods.append(("sand", -dice_total(tx, 1, "sand: damage reduced by 1D6", SEC["sand"])))
    if hit.screen:
        mods.append(("screens", -hit.screen))
    net = raw
    for _, value in mods:
        net += value
    counts, row = damage_effect(net)
    if tx.recording:
        text = [f"{hit.label}: damage {raw}"]
        if mods:
            text.append(", ".join(f"{s} {v:+d}" for s, v in mods) + f" = {max(net, 0)}")
        text.append(f"({SEC_DAMAGE}: {row})")
        tx.say(" ".join(text), SEC_DAMAGE)
    if net > 0:
        interrupt_extended(tx, target.id, net)
    singles, doubles, triples = counts
    for size, n in ((3, triples), (2, doubles), (1, singles)):
        while n > 0:
            if tx.s.ship(target.id).status == "destroyed":
                break
            apply_location_hits(tx, target.id, size, internal=hit.internal)
            n -= 1
    if hit.radiation and tx.s.ship(target.id).status != "destroyed" and not (hit.damper and hit.weapon == "nuclear"):
        dm = -armour if hit.radiation == "armour" else 0
        crew_hit(tx, target.id, radiation=True, dm=dm,
                 why=f"{hit.label}: radiation crew hit ({SEC_SPECIAL})" if tx.recording else "")
    elif hit.radiation and hit.damper:
        if tx.recording:
            tx.say(f"{target.name}'s nuclear damper removes the radiation hit.", SEC["screens"])
    return max(net, 0)


def apply_location_hits(tx: Tx, ship_id: str, count: int, internal: bool = False):
    ship = tx.s.ship(ship_id)
    column = column_for(ship, internal)
    if tx.recording:
        total = table_roll(tx, 2, f"hit location on {ship.name}", SEC_LOCATION,
                           f"{SEC_LOCATION} — {COLUMN_LABEL[column]}",
                           lambda total: f"{total}: {LOCATION_LABEL[HIT_LOCATION[column][total]]}")
    else:
        faces = tx.dice.faces(2, 6)
        total = faces[0] + faces[1]
    location = HIT_LOCATION[column][total]
    for _ in range(count):
        if tx.s.ship(ship_id).status == "destroyed":
            return
        hit_location(tx, ship_id, location, total)


def hit_location(tx: Tx, ship_id: str, location: str, row: int):
    """Apply one hit to ``location`` (each location's section of the text)."""
    sh = tx.ship(ship_id)
    sec = LOCATION_SECTION.get(location, SEC["damage"])
    if location == "hull":
        if sh.hull <= 0:
            inner = HIT_LOCATION["internal"][row]
            if tx.recording:
                if sh.hull_max <= 0:  # under 50 tons: no Hull points at all (Danno: 1 per 50 tons, rounded down)
                    tx.say(str(msg("cepheus.log.no_hull", "{ship} has no Hull points (under 50 t): the hit goes to "
                                   "{location} (Internal column, row {row}).", ship=sh.name,
                                   location=LOCATION_LABEL[inner], row=row)), sec)
                else:
                    tx.say(f"{sh.name}: Hull is gone, the hit goes to {LOCATION_LABEL[inner]} (Internal column, row {row}).", sec)
            hit_location(tx, ship_id, inner, row)
            return
        sh.hull -= 1
        if tx.recording:
            tx.say(f"{sh.name}: Hull hit, Hull {sh.hull}/{sh.hull_max}.", sec)
        if sh.hull <= 0 and tx.s.options.hull_zero_disables and sh.status == "active":
            sh.status = "disabled"
            if tx.recording:
                tx.say(f"{sh.name} has run out of Hull and is disabled.", SEC["damage"])
        return
    if location == "structure":
        sh.structure = max(0, sh.structure - 1)
        if tx.recording:
            tx.say(f"{sh.name}: Structure hit, Structure {sh.structure}/{sh.structure_max}.", sec)
        if sh.structure <= 0:
            destroy(tx, ship_id)
        return
    if location == "armour":
        if sh.armour <= 0:
            if tx.recording:
                tx.say(f"{sh.name}: no armour left, counts as a Hull hit.", sec)
            hit_location(tx, ship_id, "hull", row)
            return
        sh.armour -= 1
        if tx.recording:
            tx.say(f"{sh.name}: Armour hit, Armour {sh.armour}.", sec)
        return
    if location == "crew":
        crew_hit(tx, ship_id, radiation=False, dm=0, why=f"{sh.name}: Crew hit")
        return
    if location in ("turret", "bay"):
        mounts = [m for m in sh.mounts if m.kind == location]
        if not mounts:
            instead = "hull" if location == "turret" else "structure"
            if tx.recording:
                tx.say(str(msg("cepheus.log.no_mount_hit", "{ship} has no {location}: it counts as a {instead} hit.",
                               ship=sh.name, location=location, instead=instead)), SEC["no_mount_hit"])
            hit_location(tx, ship_id, instead, row)
            return
        if len(mounts) == 1:
            mount = mounts[0]
        else:
            pick = dice_total(tx, 1, f"which {location} is hit" if tx.recording else "", sec, len(mounts))
            mount = mounts[pick - 1]
        m = tx.mount(ship_id, mount.id)
        if m.hits >= 3:
            instead = FURTHER_HITS[location]
            if tx.recording:
                tx.say(str(msg("cepheus.log.mount_gone", "{ship}: {mount} already destroyed, counts as a {instead} hit.",
                               ship=sh.name, mount=mount_of(sh, m.id), instead=instead)), sec)
            hit_location(tx, ship_id, instead, row)
            return
        m.hits += 1
        if tx.recording:
            tx.say(str(msg("cepheus.log.mount_hit", "{ship}: {mount} hit ({nth} hit): {effect}.", ship=sh.name,
                           mount=mount_of(sh, m.id), nth=_ordinal(m.hits), effect=LOCATION_EFFECTS[location][m.hits - 1])),
                   sec)
        return
    if location == "j_drive" and sh.jump <= 0:
        if tx.recording:
            tx.say(f"{sh.name} has no J-drive: counts as a Structure hit (decision).", sec)
        hit_location(tx, ship_id, "structure", row)
        return
    # the systems with first / second / third hits
    have = sh.hits.get(location, 0)
    if have >= 3:
        instead = FURTHER_HITS[location]
        if tx.recording:
            tx.say(f"{sh.name}: {LOCATION_LABEL[location]} already destroyed, counts as a {instead} hit.", sec)
        hit_location(tx, ship_id, instead, row)
        return
    sh.hits[location] = have + 1
    n = have + 1
    if tx.recording:
        tx.say(f"{sh.name}: {LOCATION_LABEL[location]} hit ({_ordinal(n)} hit): {LOCATION_EFFECTS[location][n - 1]}.", sec)
    if location == "power_plant":
        if n == 2:
            crew_hit(tx, ship_id, radiation=True, dm=0, why=f"{sh.name}: power plant leak")
        elif n == 3:
            if sh.status == "active":
                sh.status = "disabled"
            if tx.recording:
                tx.say(f"{sh.name} is disabled.", sec)
    elif location == "bridge" and n == 1:
        crew_hit(tx, ship_id, radiation=False, dm=0, why=f"{sh.name}: bridge hit")
    elif location == "fuel":
        if n == 1:
            leak = dice_total(tx, 1, "fuel leak, tons per hour", sec)
            sh.fuel_leak += leak
            if tx.recording:
                tx.say(f"{sh.name} leaks {leak} t of fuel per hour.", sec)
        elif n == 2:
            lost = dice_total(tx, 1, "fuel lost, x10%", sec)
            gone = sh.fuel * lost * 10 // 100
            sh.fuel -= gone
            if tx.recording:
                tx.say(f"{sh.name} loses {lost * 10}% of its fuel ({gone} t), {sh.fuel} t left.", sec)
        else:
            sh.fuel = 0
            sh.fuel_leak = 0
    elif location == "hold":
        if n <= 2:
            lost = dice_total(tx, 1, "cargo destroyed, x10%", sec)
            gone = sh.cargo * lost * 10 // 100
            sh.cargo -= gone
            if tx.recording:
                tx.say(f"{sh.name} loses {lost * 10}% of its cargo ({gone} t).", sec)
        else:
            sh.cargo = 0


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def destroy(tx: Tx, ship_id: str):
    sh = tx.ship(ship_id)
    if sh.status == "destroyed":
        return
    sh.status = "destroyed"
    sh.pursuing = ""
    if tx.recording:
        tx.say(f"{sh.name} breaks up and is destroyed.", SEC["damage"])
    s = tx.s
    s.docked = [p for p in s.docked if ship_id not in p.split("|")]
    s.boarding = [b for b in s.boarding if ship_id not in (b.attacker, b.defender)]
    for other in s.ships:
        if other.pursuing == ship_id:
            tx.ship(other.id).pursuing = ""


def crew_hit(tx: Tx, ship_id: str, radiation: bool, dm: int, why: str):
    """Tabella: Danni all'equipaggio — 2D6 on the Normal or Radiation column."""
    ship = tx.s.ship(ship_id)
    if tx.recording:
        column = "Radiation Damage" if radiation else "Normal Damage"
        total = table_roll(tx, 2, f"{why}: crew damage", SEC_CREW_DAMAGE, f"{SEC_CREW_DAMAGE} — {column}",
                           lambda total: crew_damage_row(total)[2], mods=[("armour", dm)] if dm else [])
    else:
        faces = tx.dice.faces(2, 6)
        total = faces[0] + faces[1] + dm
    who, dice_n, row = crew_damage_row(total)
    people = [c for c in ship.crew if not c.automated and crew_state(c) != "dead"]
    if who == "none" or not people:
        if tx.recording:
            tx.say(f"{ship.name}: crew hit — lucky escape, no one hurt.", SEC_CREW_DAMAGE)
        return
    if who == "one":
        pick = people[0] if len(people) == 1 else people[
            dice_total(tx, 1, "which crew member", SEC_CREW_DAMAGE, len(people)) - 1]
        victims = [pick]
    else:
        victims = people
    for v in victims:
        amount = dice_total(tx, dice_n, f"{v.name}: {'rads' if radiation else 'damage'}" if tx.recording else "",
                            SEC_CREW_DAMAGE)
        c = tx.crew(ship_id, v.id)
        if radiation:
            c.rads += amount * 10
            if tx.recording:
                tx.say(f"{ship.name}: {c.name} takes {amount * 10} rad.", SEC_CREW_DAMAGE)
        else:
            c.damage += amount
            state = crew_state(c)
            if tx.recording:
                tx.say(f"{ship.name}: {c.name} takes {amount} damage ({state}).", SEC_CREW_DAMAGE)


def interrupt_extended(tx: Tx, ship_id: str, damage: int):
    """Azioni estese: a crew member on an extended action rolls 8+ with DM- damage, or loses the turn."""
    ship = tx.s.ship(ship_id)
    for c in ship.crew:
        if c.task is None or not able(c):
            continue
        roll, effect = roll_check(tx, ship, c, c.task.skill, "edu", "", f"{c.name} keeps working under fire",
                                  SEC["extended"], extra=[("damage taken", -damage)])
        member = tx.crew(ship_id, c.id)
        task = member.task  # the step's copy of ``c``, which has a task
        assert task is not None
        if effect <= -EXCEPTIONAL:
            member.task = clone(task, done=0)
            if tx.recording:
                tx.say(f"{c.name}'s extended task is interrupted (exceptional failure): must start again.", SEC["extended"])
        elif effect < 0:
            member.task = clone(task, done=max(0, task.done - 1))
            if tx.recording:
                tx.say(f"{c.name}'s work this turn does not count.", SEC["extended"])


def repairable(ship: Ship, any_one: bool = False) -> list[str]:
    """Systems a damage-control check can work on: damaged but not destroyed (decision).  Armour is not a
    system (decision: not repaired in combat).

    ``any_one``: the caller asks only whether there is any (the bot, every turn): the list stops at the
    first."""
    out = []
    hits = ship.hits
    for k in SYSTEMS:
        if 0 < hits.get(k, 0) < 3:
            out.append(k)
            if any_one:
                return out
    for m in ship.mounts:
        if 0 < m.hits < 3:
            out.append(m.id)
            if any_one:
                return out
    return out


def destroyed_systems(ship: Ship) -> list[str]:
    out = [k for k in SYSTEMS if ship.hits.get(k, 0) >= 3]
    out += [m.id for m in ship.mounts if m.hits >= 3]
    return out


def repair_system(tx: Tx, ship_id: str, system: str, hits: int) -> int:
    """Remove up to ``hits`` hits from a system; returns the hits removed."""
    sh = tx.ship(ship_id)
    if system in SYSTEMS:
        have = sh.hits.get(system, 0)
        fixed = min(have, hits)
        sh.hits[system] = have - fixed
        sh.repaired[system] = sh.repaired.get(system, 0) + fixed
        if system == "fuel" and sh.hits[system] == 0:
            sh.fuel_leak = 0
        if system == "power_plant" and sh.status == "disabled" and sh.hits[system] < 3 and (sh.hull > 0 or not tx.s.options.hull_zero_disables):
            sh.status = "active"
        return fixed
    m = tx.mount(ship_id, system)
    fixed = min(m.hits, hits)
    m.hits -= fixed
    m.repaired += fixed
    return fixed


def system_label(ship: Ship, system: str) -> str:
    if system in SYSTEM_LABEL:
        return SYSTEM_LABEL[system]
    m = ship.mount(system)
    if m is None:
        return system
    kind = "Turret" if m.kind == "turret" else "Bay"
    return f"{kind} {m.id[1:]} ({', '.join(WEAPONS[w.type].label for w in m.weapons)})"


def flush_hits(tx: Tx):
    s = tx.s
    hits, s.hits = s.hits, []
    for h in hits:
        resolve_hit(tx, h)


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
        if tx.recording:
            tx.say(f"The fight is over: {s.winner + ' hold the field' if s.winner else 'no side remains'}.", SEC["checklist"])


def drop_ship_links(tx: Tx, ship_id: str):
    s = tx.s
    s.docked = [p for p in s.docked if ship_id not in p.split("|")]
    s.boarding = [b for b in s.boarding if ship_id not in (b.attacker, b.defender)]
    for other in s.ships:
        if other.pursuing == ship_id:
            o = tx.ship(other.id)
            o.pursuing, o.pursuit_turns = "", 0
