"""Damage: the damage table, hit locations, crew hits, repairs, and the end of a fight.

Danno (Damage) and its tables; a ship's hits wait in ``state.hits`` until the end of
its turn (Checklist 5.3), then :func:`flush_hits` resolves them.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core import check as core
from rulesets.core.check import Modifier
from rulesets.core.messages import Words, msg, msgn, words_from_json
from rulesets.core.state import clone

from .checks import TWO_D6, roll_check
from .crew import able, crew_state
from .state import SYSTEMS, SYSTEM_LABEL
from .words import listing, mount_of
from .tables import (
    COLUMN_LABEL, CREW_TABLE_NAME, DAMAGE_TABLE_NAME, EXCEPTIONAL, FURTHER_HITS, HIT_LOCATION, LOCATION_EFFECTS,
    LOCATION_LABEL, LOCATION_SECTION, LOCATION_TABLE_NAME, LOCATION_WORD, SEC, SEC_CREW_DAMAGE, SEC_DAMAGE,
    SEC_LOCATION, SEC_SPECIAL, WEAPONS, crew_damage_row, damage_effect,
)

if TYPE_CHECKING:
    from .state import Hit, Ship, Tx


#: modifier labels and roll purposes said the same every time
ARMOUR = msg("cepheus.mod.armour", "armour")
SAND = msg("cepheus.mod.sand", "sand")
SCREENS = msg("cepheus.mod.screens_less", "screens")
WHICH_CREW = msg("cepheus.roll.which_crew", "which crew member")
DAMAGE_TAKEN = msg("cepheus.mod.damage_taken", "damage taken")
NORMAL_COLUMN = msg("cepheus.table.normal_damage", "Normal Damage")
RADIATION_COLUMN = msg("cepheus.table.radiation_damage", "Radiation Damage")
SAND_ROLL = msg("cepheus.roll.sand_less", "sand: damage reduced by 1D6")


#: the Hit Location table's columns, as a roll names the table it is read on
LOCATION_TABLE = {column: msg("cepheus.table.column", "{table} — {column}", table=LOCATION_TABLE_NAME,
                              column=label)
                  for column, label in COLUMN_LABEL.items()}


def table_roll(tx: Tx, purpose: Words, rule: str, table: Words, row_of, mods=()) -> int:
    """2D6 + ``mods`` read on a table, recorded with the row its total selects (``row_of(total)``);
    returns the total."""
    check = core.Check(TWO_D6, None, tuple(Modifier(label, value) for label, value in mods) if mods else (), rule,
                       purpose)
    return core.roll(tx.dice, check, table=table, row=lambda result: row_of(result.total)).total


def dice_total(tx: Tx, count: int, purpose: Words, rule: str, sides: int = 6) -> int:
    """``count`` dice of ``sides`` (D6 unless said) summed, recorded as a roll."""
    return tx.dice.roll(count, sides, purpose=purpose, rule=rule).total


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
    label = words_from_json(hit.label)
    mods = []
    if hit.single:
        tx.say(msgn("cepheus.log.single_hits", "{hit}: {count} single internal hit on {ship}.",
                    "{hit}: {count} single internal hits on {ship}.", hit.single, hit=label, ship=target.name),
               SEC["abstract_boarding"])
        for _ in range(hit.single):
            apply_location_hits(tx, target.id, 1, internal=True)
        return 0
    if not hit.dice:
        raw = hit.flat
    else:
        raw = dice_total(tx, hit.dice, msg("cepheus.roll.damage", "{hit}: damage", hit=label), rule)
    if not hit.ignore_armour and armour:
        mods.append((ARMOUR, -armour))
    if hit.sand:
        for _ in range(hit.sand):
            mods.append((SAND, -dice_total(tx, 1, SAND_ROLL, SEC["sand"])))
    if hit.screen:
        mods.append((SCREENS, -hit.screen))
    net = raw
    for _, value in mods:
        net += value
    counts, row = damage_effect(net)
    if mods:
        said = msg("cepheus.log.damage_less", "{hit}: damage {raw} {less} = {net} ({table}: {row})", hit=label,
                   raw=raw, less=_less(mods), net=max(net, 0), table=DAMAGE_TABLE_NAME, row=row)
    else:
        said = msg("cepheus.log.damage", "{hit}: damage {raw} ({table}: {row})", hit=label, raw=raw,
                   table=DAMAGE_TABLE_NAME, row=row)
    tx.say(said, SEC_DAMAGE)
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
                 why=msg("cepheus.roll.radiation_hit", "{hit}: radiation crew hit ({rule})", hit=label,
                         rule=SEC_SPECIAL))
    elif hit.radiation and hit.damper:
        tx.say(msg("cepheus.log.damper_radiation", "{ship}'s nuclear damper removes the radiation hit.",
                   ship=target.name), SEC["screens"])
    return max(net, 0)


def _less(mods) -> Words:
    """The damage's reductions: "armour -3, sand -2"."""
    return listing(msg("cepheus.log.damage_mod", "{label} {value:+d}", label=label, value=value) for label, value in mods)


def apply_location_hits(tx: Tx, ship_id: str, count: int, internal: bool = False):
    ship = tx.s.ship(ship_id)
    column = column_for(ship, internal)
    total = table_roll(tx, msg("cepheus.roll.location", "hit location on {ship}", ship=ship.name), SEC_LOCATION,
                       LOCATION_TABLE[column],
                       lambda total: msg("cepheus.table.location_row", "{total}: {location}", total=total,
                                         location=LOCATION_LABEL[HIT_LOCATION[column][total]]))
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
            if sh.hull_max <= 0:  # under 50 tons: no Hull points at all (Danno: 1 per 50 tons, rounded down)
                tx.say(msg("cepheus.log.no_hull", "{ship} has no Hull points (under 50 t): the hit goes to "
                           "{location} (Internal column, row {row}).", ship=sh.name,
                           location=LOCATION_LABEL[inner], row=row), sec)
            else:
                tx.say(msg("cepheus.log.hull_gone", "{ship}: Hull is gone, the hit goes to {location} (Internal column, "
                           "row {row}).", ship=sh.name, location=LOCATION_LABEL[inner], row=row), sec)
            hit_location(tx, ship_id, inner, row)
            return
        sh.hull -= 1
        tx.say(msg("cepheus.log.hull_hit", "{ship}: Hull hit, Hull {hull}/{most}.", ship=sh.name, hull=sh.hull,
                   most=sh.hull_max), sec)
        if sh.hull <= 0 and tx.s.options.hull_zero_disables and sh.status == "active":
            sh.status = "disabled"
            tx.say(msg("cepheus.log.hull_out", "{ship} has run out of Hull and is disabled.", ship=sh.name),
                   SEC["damage"])
        return
    if location == "structure":
        sh.structure = max(0, sh.structure - 1)
        tx.say(msg("cepheus.log.structure_hit", "{ship}: Structure hit, Structure {structure}/{most}.", ship=sh.name,
                   structure=sh.structure, most=sh.structure_max), sec)
        if sh.structure <= 0:
            destroy(tx, ship_id)
        return
    if location == "armour":
        if sh.armour <= 0:
            tx.say(msg("cepheus.log.no_armour", "{ship}: no armour left, counts as a Hull hit.", ship=sh.name), sec)
            hit_location(tx, ship_id, "hull", row)
            return
        sh.armour -= 1
        tx.say(msg("cepheus.log.armour_hit", "{ship}: Armour hit, Armour {armour}.", ship=sh.name, armour=sh.armour),
               sec)
        return
    if location == "crew":
        crew_hit(tx, ship_id, radiation=False, dm=0, why=msg("cepheus.roll.crew_hit", "{ship}: Crew hit", ship=sh.name))
        return
    if location in ("turret", "bay"):
        mounts = [m for m in sh.mounts if m.kind == location]
        if not mounts:
            instead = "hull" if location == "turret" else "structure"
            tx.say(msg("cepheus.log.no_mount_hit", "{ship} has no {location}: it counts as a {instead} hit.",
                       ship=sh.name, location=LOCATION_WORD[location], instead=LOCATION_WORD[instead]), SEC["no_mount_hit"])
            hit_location(tx, ship_id, instead, row)
            return
        if len(mounts) == 1:
            mount = mounts[0]
        else:
            pick = dice_total(tx, 1, msg("cepheus.roll.which_mount", "which {location} is hit", location=LOCATION_WORD[location]), sec,
                              len(mounts))
            mount = mounts[pick - 1]
        m = tx.mount(ship_id, mount.id)
        if m.hits >= 3:
            instead = FURTHER_HITS[location]
            tx.say(msg("cepheus.log.mount_gone", "{ship}: {mount} already destroyed, counts as a {instead} hit.",
                       ship=sh.name, mount=mount_of(sh, m.id), instead=LOCATION_WORD[instead]), sec)
            hit_location(tx, ship_id, instead, row)
            return
        m.hits += 1
        tx.say(msg("cepheus.log.mount_hit", "{ship}: {mount} hit ({nth} hit): {effect}.", ship=sh.name,
                   mount=mount_of(sh, m.id), nth=_ordinal(m.hits), effect=LOCATION_EFFECTS[location][m.hits - 1]), sec)
        return
    if location == "j_drive" and sh.jump <= 0:
        tx.say(msg("cepheus.log.no_j_drive", "{ship} has no J-drive: counts as a Structure hit (decision).",
                   ship=sh.name), sec)
        hit_location(tx, ship_id, "structure", row)
        return
    # the systems with first / second / third hits
    have = sh.hits.get(location, 0)
    if have >= 3:
        instead = FURTHER_HITS[location]
        tx.say(msg("cepheus.log.system_gone", "{ship}: {system} already destroyed, counts as a {instead} hit.",
                   ship=sh.name, system=LOCATION_LABEL[location], instead=LOCATION_WORD[instead]), sec)
        hit_location(tx, ship_id, instead, row)
        return
    sh.hits[location] = have + 1
    n = have + 1
    tx.say(msg("cepheus.log.system_hit", "{ship}: {system} hit ({nth} hit): {effect}.", ship=sh.name,
               system=LOCATION_LABEL[location], nth=_ordinal(n), effect=LOCATION_EFFECTS[location][n - 1]), sec)
    if location == "power_plant":
        if n == 2:
            crew_hit(tx, ship_id, radiation=True, dm=0,
                     why=msg("cepheus.roll.leak", "{ship}: power plant leak", ship=sh.name))
        elif n == 3:
            if sh.status == "active":
                sh.status = "disabled"
            tx.say(msg("cepheus.log.disabled", "{ship} is disabled.", ship=sh.name), sec)
    elif location == "bridge" and n == 1:
        crew_hit(tx, ship_id, radiation=False, dm=0, why=msg("cepheus.roll.bridge_hit", "{ship}: bridge hit", ship=sh.name))
    elif location == "fuel":
        if n == 1:
            leak = dice_total(tx, 1, msg("cepheus.roll.fuel_leak", "fuel leak, tons per hour"), sec)
            sh.fuel_leak += leak
            tx.say(msg("cepheus.log.fuel_leak", "{ship} leaks {leak} t of fuel per hour.", ship=sh.name, leak=leak), sec)
        elif n == 2:
            lost = dice_total(tx, 1, msg("cepheus.roll.fuel_lost", "fuel lost, x10%"), sec)
            gone = sh.fuel * lost * 10 // 100
            sh.fuel -= gone
            tx.say(msg("cepheus.log.fuel_lost", "{ship} loses {percent}% of its fuel ({gone} t), {left} t left.",
                       ship=sh.name, percent=lost * 10, gone=gone, left=sh.fuel), sec)
        else:
            sh.fuel = 0
            sh.fuel_leak = 0
    elif location == "hold":
        if n <= 2:
            lost = dice_total(tx, 1, msg("cepheus.roll.cargo_lost", "cargo destroyed, x10%"), sec)
            gone = sh.cargo * lost * 10 // 100
            sh.cargo -= gone
            tx.say(msg("cepheus.log.cargo_lost", "{ship} loses {percent}% of its cargo ({gone} t).", ship=sh.name,
                       percent=lost * 10, gone=gone), sec)
        else:
            sh.cargo = 0


_ORDINAL = {1: msg("cepheus.words.first", "first"), 2: msg("cepheus.words.second", "second"),
            3: msg("cepheus.words.third", "third")}


def _ordinal(n: int) -> Words:
    return _ORDINAL.get(n) or msg("cepheus.words.nth", "{n}th", n=n)


def destroy(tx: Tx, ship_id: str):
    sh = tx.ship(ship_id)
    if sh.status == "destroyed":
        return
    sh.status = "destroyed"
    sh.pursuing = ""
    tx.say(msg("cepheus.log.destroyed", "{ship} breaks up and is destroyed.", ship=sh.name), SEC["damage"])
    s = tx.s
    s.docked = [p for p in s.docked if ship_id not in p.split("|")]
    s.boarding = [b for b in s.boarding if ship_id not in (b.attacker, b.defender)]
    for other in s.ships:
        if other.pursuing == ship_id:
            tx.ship(other.id).pursuing = ""


def crew_hit(tx: Tx, ship_id: str, radiation: bool, dm: int, why: Words):
    """Tabella: Danni all'equipaggio — 2D6 on the Normal or Radiation column."""
    ship = tx.s.ship(ship_id)
    total = table_roll(tx, msg("cepheus.roll.crew_damage", "{why}: crew damage", why=why), SEC_CREW_DAMAGE,
                       msg("cepheus.table.column", "{table} — {column}", table=CREW_TABLE_NAME,
                           column=RADIATION_COLUMN if radiation else NORMAL_COLUMN),
                       lambda total: crew_damage_row(total)[2], mods=[(ARMOUR, dm)] if dm else [])
    who, dice_n, row = crew_damage_row(total)
    people = [c for c in ship.crew if not c.automated and crew_state(c) != "dead"]
    if who == "none" or not people:
        tx.say(msg("cepheus.log.lucky_escape", "{ship}: crew hit — lucky escape, no one hurt.", ship=ship.name),
               SEC_CREW_DAMAGE)
        return
    if who == "one":
        pick = people[0] if len(people) == 1 else people[
            dice_total(tx, 1, WHICH_CREW, SEC_CREW_DAMAGE, len(people)) - 1]
        victims = [pick]
    else:
        victims = people
    for v in victims:
        amount = dice_total(tx, dice_n, msg("cepheus.roll.crew_rads", "{name}: rads", name=v.name) if radiation else
                            msg("cepheus.roll.crew_hurt", "{name}: damage", name=v.name), SEC_CREW_DAMAGE)
        c = tx.crew(ship_id, v.id)
        if radiation:
            c.rads += amount * 10
            tx.say(msg("cepheus.log.crew_rads", "{ship}: {name} takes {rads} rad.", ship=ship.name, name=c.name,
                       rads=amount * 10), SEC_CREW_DAMAGE)
        else:
            c.damage += amount
            tx.say(msg("cepheus.log.crew_hurt", "{ship}: {name} takes {damage} damage ({state}).", ship=ship.name,
                       name=c.name, damage=amount, state=crew_state(c)), SEC_CREW_DAMAGE)


def interrupt_extended(tx: Tx, ship_id: str, damage: int):
    """Azioni estese: a crew member on an extended action rolls 8+ with DM- damage, or loses the turn."""
    ship = tx.s.ship(ship_id)
    for c in ship.crew:
        if c.task is None or not able(c):
            continue
        roll, effect = roll_check(tx, ship, c, c.task.skill, "edu", "",
                                  msg("cepheus.roll.under_fire", "{name} keeps working under fire", name=c.name),
                                  SEC["extended"], extra=[(DAMAGE_TAKEN, -damage)])
        member = tx.crew(ship_id, c.id)
        task = member.task  # the step's copy of ``c``, which has a task
        assert task is not None
        if effect <= -EXCEPTIONAL:
            member.task = clone(task, done=0)
            tx.say(msg("cepheus.log.task_interrupted", "{name}'s extended task is interrupted (exceptional failure): "
                       "must start again.", name=c.name), SEC["extended"])
        elif effect < 0:
            member.task = clone(task, done=max(0, task.done - 1))
            tx.say(msg("cepheus.log.task_lost_turn", "{name}'s work this turn does not count.", name=c.name),
                   SEC["extended"])


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


def system_label(ship: Ship, system: str) -> Words:
    """A system or a mount in words: "M-Drive", "Turret 1 (pulse laser, sandcaster)"."""
    if system in SYSTEM_LABEL:
        return SYSTEM_LABEL[system]
    m = ship.mount(system)
    if m is None:
        return system
    weapons = listing(WEAPONS[w.type].name for w in m.weapons)
    if m.kind == "turret":
        return msg("cepheus.words.turret_with", "Turret {n} ({weapons})", n=m.id[1:], weapons=weapons)
    return msg("cepheus.words.bay_with", "Bay {n} ({weapons})", n=m.id[1:], weapons=weapons)


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
        if s.winner:
            tx.say(msg("cepheus.log.over_won", "The fight is over: {side} hold the field.", side=s.winner),
                   SEC["checklist"])
        else:
            tx.say(msg("cepheus.log.over_none", "The fight is over: no side remains."), SEC["checklist"])


def drop_ship_links(tx: Tx, ship_id: str):
    s = tx.s
    s.docked = [p for p in s.docked if ship_id not in p.split("|")]
    s.boarding = [b for b in s.boarding if ship_id not in (b.attacker, b.defender)]
    for other in s.ships:
        if other.pursuing == ship_id:
            o = tx.ship(other.id)
            o.pursuing, o.pursuit_turns = "", 0
