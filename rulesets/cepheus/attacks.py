"""Attacks and the target's reactions: beams, missiles, personal-scale targets, dodge, sand,
point defence and screens (Attacco; Missili; Reazioni; Danno in scala).
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from rulesets.core.check import circumstance, gm_dm
from rulesets.core.messages import Words, msg, msgn, words_to_json
from rulesets.core.state import clone

from .checks import CHECKS, perform, roll_check, use_intel
from .crew import GUNNER_POSITIONS, able, gunnery_skill, is_npc
from .economy import spend_reaction, spend_significant
from .queries import (
    INTEL, PERSONAL_SCALE, TARGET_DODGES, TARGET_EVASIVE, attack_mods, attack_situation, band_to, bridge_ok,
    find_missile, gunners_by_mount, personal_target, pilot_of, salvo, target_name, usable_weapons, uses_intel,
)
from .state import Hit, Missile, Pending, pair
from .tables import (
    BAND_LABEL, MISSILE_TABLE_NAME, MISSILES, WEAPON_NAME, MISSILE_TURNS, SCALED_DAMAGE, SCALED_TO_HIT_DM, SEC, SEC_ATTACK, SEC_MISSILE_TO_HIT,
    SEC_SCALED, SEC_SMART, SMART_TO_HIT, WEAPONS, missile_to_hit,
)
from .words import mount_name, rounds, smart_missiles, weapons_in

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import CombatState, Crew, Mount, Ship, Tx, Weapon


#: modifier labels and roll purposes said the same every time
PD_EARLIER = msg("cepheus.mod.pd_earlier", "point defence, earlier attempts")
SCREENS = msg("cepheus.mod.screens", "Screens")
SCALED_RADIATION = msg("cepheus.roll.scaled_radiation", "scaled radiation")


#: the row of the attack-difficulty table an attack is read on, by the weapon's row and the band
#: (the attack-difficulty table's rows name the weapon, a bay's as its turret's: "meson gun")
_ROW_WEAPON = {"meson_gun": msg("cepheus.weapon.meson_gun", "meson gun"), "": "",
               **{key: name for key, (name, _) in WEAPON_NAME.items()}}
ATTACK_ROW = {(kind.row, band): msg("cepheus.table.attack_row", "{weapon} at {band}", weapon=_ROW_WEAPON[kind.row],
                                    band=BAND_LABEL[band])
              for kind in WEAPONS.values() for band in BAND_LABEL}


def do_attack(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    params: dict[str, Any] = dict(a.params)
    mount = ship.mount(params.get("mount"))
    assert mount is not None  # a legal attack names a mount of the ship
    target_id = params["target"]  # a legal attack names its target
    personal = personal_target(s, target_id) is not None
    band = band_to(s, ship, target_id)
    usable = usable_weapons(s, ship, mount, band, personal)
    which = params.get("weapon", "all")
    chosen = salvo(mount, usable) if which == "all" else [int(which)]
    sh = tx.ship(ship.id)
    sh.fired = sh.fired + [mount.id]
    dm = int(params.get("dm", 0))
    beams = []
    weapons = mount.weapons
    for i in chosen:
        kind = WEAPONS[weapons[i].type]
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
    tx.say(msg("cepheus.log.fires", "{ship} fires {weapons} at {target}.", ship=ship.name,
               weapons=weapons_in(mount, beams), target=s.ship(target_id).name), SEC["attack"])
    if reaction_options(s, pending, any_one=True):
        s.pending = pending
        s.phase = "react"
    else:
        resolve_fire(tx, pending)


def launch_missile(tx: Tx, ship: Ship, crew: Crew, mount: Mount, index: int, target_id: str, dm: int):
    """Missili: a launch check sets the to-hit number (smart missiles: always 8+); at a personal-scale
    target the launch takes the scaled DM-4 (Danno in scala)."""
    s = tx.s
    w = mount.weapons[index]
    personal = personal_target(s, target_id) is not None
    turns = MISSILE_TURNS[band_to(s, ship, target_id)]
    assert turns is not None  # a missile is usable only at a band it can be launched at
    count = 1
    kind = w.missile or "standard"
    if WEAPONS[w.type].key == "missile_bay":
        count = 1 + min(WEAPONS["missile_bay"].capacity - 1, max(0, mount_weapon(tx, ship.id, mount.id, index).loaded))
        m = tx.mount(ship.id, mount.id)
        m.weapons[index].loaded = 0
    tname = target_name(s, target_id)
    if kind == "smart":
        to_hit = SMART_TO_HIT
        tx.say(msg("cepheus.log.launch_smart", "{ship} launches {missiles} at {target} ({rule}: always 8+); "
                   "impact in {rounds}.", ship=ship.name, missiles=smart_missiles(count), target=tname,
                   rule=SEC_SMART, rounds=rounds(turns)), SEC["missiles"])
    else:
        # the DMs that are not zero, and the GM's
        extra = attack_mods(s, ship, crew, mount, target_id, w.type, launch=True, personal=personal)
        extra += circumstance(dm)
        roll, effect = roll_check(tx, ship, crew, gunnery_skill(mount.kind), "dex", "average",
                                  msg("cepheus.roll.launch", "{ship} launches from {mount} at {target}", ship=ship.name,
                                      mount=mount_name(mount.id, mount.kind), target=tname),
                                  SEC["missiles"], extra=extra, table=SEC_MISSILE_TO_HIT)
        to_hit, row = missile_to_hit(effect)
        tx.say(msg("cepheus.log.launch", "Launch Effect {effect:+d}: the missile needs {to_hit}+ ({table}: {row}); "
                   "impact in {rounds}.", effect=effect, to_hit=to_hit, table=MISSILE_TABLE_NAME, row=row,
                   rounds=rounds(turns)), SEC["missiles"])
        if uses_intel(extra):
            use_intel(tx, ship.id, target_id)
    mid = tx.next_id("m")
    s.missiles = s.missiles + [Missile(mid, kind, count, ship.id, target_id, to_hit, turns,
                                       fuel=s.options.smart_fuel if kind == "smart" else 0, launched=s.round)]


def mount_weapon(tx: Tx, ship_id: str, mount_id: str, index: int) -> Weapon:
    mount = tx.s.ship(ship_id).mount(mount_id)
    assert mount is not None
    return mount.weapons[index]


def resolve_fire(tx: Tx, p: Pending):
    s = tx.s
    ship = s.find_ship(p.attacker)
    target = s.find_ship(p.target)
    if ship is None or target is None or not target.alive:
        return
    crew = ship.member(p.crew)
    mount = ship.mount(p.mount)
    assert crew is not None and mount is not None  # the attack's gunner and mount, named when it was made
    used_intel = False
    # the DMs of the situation, the same for every weapon of the salvo (nothing the salvo does changes them)
    situation = attack_situation(s, ship, mount, p.target, dodge=p.dodge)
    for i in p.weapons:
        w = mount.weapons[i]
        kind = WEAPONS[w.type]
        extra = attack_mods(s, ship, crew, mount, p.target, w.type, dodge=p.dodge, situation=situation)
        if used_intel:
            extra = [e for e in extra if e is not INTEL]
        extra += circumstance(p.dm)
        purpose = msg("cepheus.roll.attack", "{ship}'s {weapon} in {mount} at {target}", ship=ship.name,
                      weapon=kind.name, mount=mount_name(mount.id, mount.kind), target=target.name)
        row = ATTACK_ROW[kind.row, s.band(ship.id, target.id)]
        roll, effect = roll_check(tx, ship, crew, gunnery_skill(mount.kind), "dex", "", purpose, SEC_ATTACK,
                                  extra=extra, table=SEC_ATTACK, row=row)
        if uses_intel(extra):
            used_intel = True
        if effect < 0:
            tx.say(msg("cepheus.log.beam_misses", "The {weapon} misses {target}.", weapon=kind.name,
                       target=target.name), SEC["attack"])
            continue
        tx.say(msg("cepheus.log.beam_hits", "The {weapon} hits {target} (Effect {effect:+d}); damage at the end of "
                   "{ship}'s turn.", weapon=kind.name, target=target.name, effect=effect, ship=ship.name),
               SEC["attack"])
        s.hits = s.hits + [weapon_hit(ship, target, w.type, p)]
    if used_intel:
        use_intel(tx, ship.id, target.id)


def weapon_hit(ship: Ship, target: Ship, weapon: str, p: Pending) -> Hit:
    kind = WEAPONS[weapon]
    h = Hit(target.id, ship.id, hit_label(ship.name, kind.name), weapon, dice=kind.dice, flat=kind.flat)
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
    """The to-hit rolls of every missile of the reaction (all that arrived together at the target)."""
    for mid in p.missiles:
        resolve_salvo(tx, p, mid)


def resolve_salvo(tx: Tx, p: Pending, mid: str):
    s = tx.s
    m = find_missile(s, mid)
    if m is None:
        return
    if m.count <= 0:
        s.missiles = [x for x in s.missiles if x.id != m.id]
        return
    target = s.find_ship(m.target)
    assert target is not None  # the reaction step was for this target
    src = s.find_ship(m.source)
    src_name = src.name if src else "?"
    kind = MISSILES[m.kind]
    misses = 0
    mods = [(TARGET_DODGES, p.dodge), (TARGET_EVASIVE, target.evasive)]
    purpose = msg("cepheus.roll.missile", "{missile} from {ship} at {target}", missile=kind["label"], ship=src_name,
                  target=target.name)
    row = msg("cepheus.table.to_hit", "{to_hit}+", to_hit=m.to_hit)
    for n in range(m.count):
        total = tx.dice.roll(2, 6, modifiers=mods, purpose=purpose,
                             rule=SEC_SMART if m.kind == "smart" else SEC["missiles"], target=m.to_hit,
                             table=SEC_MISSILE_TO_HIT, row=row).total
        if total >= m.to_hit:
            h = Hit(target.id, m.source, hit_label(src_name, kind["label"]), m.kind, dice=kind["dice"])
            if m.kind == "nuclear":
                h.radiation = "armour"
                if p.screen_kind == "damper":
                    h.screen, h.damper = p.screen, True
            s.hits = s.hits + [h]
            tx.say(missile_hits(kind["label"], target.name), SEC["missiles"])
        else:
            misses += 1
            tx.say(missile_misses(kind["label"], target.name), SEC["missiles"])
    if m.kind == "smart" and misses and m.fuel > 1:
        set_missile(tx, clone(m, count=misses, turns=1, fuel=m.fuel - 1))
        tx.say(come_round(misses), SEC_SMART)
    else:
        s.missiles = [x for x in s.missiles if x.id != m.id]


@lru_cache(maxsize=256)
def hit_label(ship: str, weapon: Words) -> dict:
    """A hit waiting for its damage, as the state keeps it (a stored message): "Corsair's pulse laser"."""
    return words_to_json(msg("cepheus.words.ships_weapon", "{ship}'s {weapon}", ship=ship, weapon=weapon))


def missile_hits(missile: Words, target: str):
    return msg("cepheus.log.missile_hits", "A {missile} hits {target}.", missile=missile, target=target)


def missile_misses(missile: Words, target: str):
    return msg("cepheus.log.missile_misses", "A {missile} misses {target}.", missile=missile, target=target)


def come_round(misses: int):
    """Missili intelligenti: the smart missiles that missed attack again next round."""
    return msgn("cepheus.log.smart_again", "{count} smart missile comes round for another attack next round ({rule}).",
                "{count} smart missiles come round for another attack next round ({rule}).", misses, rule=SEC_SMART)


def missile_at_personal(tx: Tx, m: Missile):
    """Danno in scala: a missile arriving at a personal-scale target rolls its to-hit number (a smart
    missile, which has no launch roll, at DM-4 then: decision); a hit does the scaled damage."""
    s = tx.s
    target = personal_target(s, m.target)
    assert target is not None  # the caller found it
    src = s.find_ship(m.source)
    src_name = src.name if src else "?"
    kind = MISSILES[m.kind]
    mods = [(PERSONAL_SCALE, SCALED_TO_HIT_DM)] if m.kind == "smart" else []
    misses = 0
    purpose = msg("cepheus.roll.missile", "{missile} from {ship} at {target}", missile=kind["label"], ship=src_name,
                  target=target.name)
    row = msg("cepheus.table.to_hit", "{to_hit}+", to_hit=m.to_hit)
    for _ in range(m.count):
        roll = tx.dice.roll(2, 6, modifiers=mods, purpose=purpose, rule=SEC["scaled"], target=m.to_hit,
                            table=SEC_MISSILE_TO_HIT, row=row)
        if roll.total >= m.to_hit:
            tx.say(missile_hits(kind["label"], target.name), SEC["scaled"])
            scaled_damage(tx, target.id, m.kind, kind["label"])
        else:
            misses += 1
            tx.say(missile_misses(kind["label"], target.name), SEC["scaled"])
    if m.kind == "smart" and misses and m.fuel > 1:
        set_missile(tx, clone(m, count=misses, turns=1, fuel=m.fuel - 1))
        tx.say(come_round(misses), SEC_SMART)
    else:
        s.missiles = [x for x in s.missiles if x.id != m.id]


def scaled_damage(tx: Tx, target_id: str, weapon: str, label: Words):
    """Tabella: Danno in scala: the personal-scale damage (and radiation) of a ship weapon's hit."""
    target = personal_target(tx.s, target_id)
    assert target is not None
    n, mult, rad = SCALED_DAMAGE[weapon if weapon in SCALED_DAMAGE else "beam_laser"]
    row = (msg("cepheus.table.scaled_rad", "{weapon}: {n}D6x{mult} + {rad}D6x10 rad", weapon=label, n=n, mult=mult, rad=rad)
           if rad else msg("cepheus.table.scaled", "{weapon}: {n}D6x{mult}", weapon=label, n=n, mult=mult))
    dmg = tx.dice.roll(n, 6, purpose=msg("cepheus.roll.scaled", "scaled damage to {target}", target=target.name),
                       rule=SEC_SCALED, table=SEC_SCALED, row=row)
    rads = tx.dice.roll(rad, 6, purpose=SCALED_RADIATION, rule=SEC_SCALED).total * 10 if rad else 0
    tx.s.personal = [clone(p, damage=p.damage + dmg.total * mult, rads=p.rads + rads) if p.id == target_id else p
                     for p in tx.s.personal]
    if rads:
        tx.say(msg("cepheus.log.scaled_rad", "{target} takes {damage} damage and {rads} rad (personal scale).",
                   target=target.name, damage=dmg.total * mult, rads=rads), SEC["scaled"])
    else:
        tx.say(msg("cepheus.log.scaled", "{target} takes {damage} damage (personal scale).", target=target.name,
                   damage=dmg.total * mult), SEC["scaled"])


def fire_at_personal(tx: Tx, ship: Ship, crew: Crew, mount: Mount, beams: list[int], target_id: str, dm: int):
    s = tx.s
    target = personal_target(s, target_id)
    assert target is not None
    for i in beams:
        w = mount.weapons[i]
        kind = WEAPONS[w.type]
        extra = attack_mods(s, ship, crew, mount, target_id, w.type, personal=True) + list(circumstance(dm))
        roll, effect = roll_check(tx, ship, crew, gunnery_skill(mount.kind), "dex", "",
                                  msg("cepheus.roll.attack_personal", "{ship}'s {weapon} at {target} (personal scale)",
                                      ship=ship.name, weapon=kind.name, target=target.name), SEC["scaled"],
                                  extra=extra)
        if effect < 0:
            tx.say(msg("cepheus.log.beam_misses", "The {weapon} misses {target}.", weapon=kind.name,
                       target=target.name), SEC["scaled"])
            continue
        scaled_damage(tx, target_id, w.type, kind.name)


def set_missile(tx: Tx, m: Missile):
    tx.s.missiles = [m if x.id == m.id else x for x in tx.s.missiles]


#: the weapons whose fire sand scatters (Sabbia), and those that can shoot down missiles (Difesa puntiforme)
BEAM_WEAPONS = frozenset(key for key, kind in WEAPONS.items() if kind.beam)
POINT_DEFENCE_WEAPONS = frozenset(("pulse_laser", "beam_laser"))


def reaction_options(s: CombatState, p: Pending, any_one: bool = False) -> list[tuple[str, str, dict]]:
    """Reazioni: what the defender may still do against this incoming attack.

    ``any_one``: the caller asks only whether there is any (the attack then waits for the defender): the
    list may stop at the first option (a dodge)."""
    target = s.find_ship(p.target)
    if target is None or not target.can_act or target.reactions <= 0:
        return []
    out: list[tuple[str, str, dict]] = []
    kind, used = p.kind, p.used
    if kind in ("fire", "missiles") and "dodge" not in used and bridge_ok(target):
        pilot = pilot_of(target)
        if pilot is not None:
            out.append(("dodge", pilot.id, {}))
            if any_one:
                return out
    beams = False
    heavy = ""
    if kind == "fire":
        attacker = s.find_ship(p.attacker)
        fired_from = attacker.mount(p.mount) if attacker is not None else None
        if fired_from is not None:
            weapons = fired_from.weapons
            fusion = meson = False
            for i in p.weapons:  # the salvo's weapons
                kind_of = weapons[i].type
                if kind_of in BEAM_WEAPONS:
                    beams = True
                if kind_of == "fusion_gun" or kind_of == "fusion_bay":
                    fusion = True
                elif kind_of == "meson_bay":
                    meson = True
            heavy = "meson" if meson else "damper" if fusion else ""  # a meson screen first
    elif kind == "missiles":
        for mid in p.missiles:
            m = find_missile(s, mid)
            if m is not None and m.kind == "nuclear":
                heavy = "damper"
                break
    boarders = kind == "board" and pair(p.attacker, p.target) not in s.docked  # crossing open space
    sand, point_defence = beams or boarders, kind == "missiles" or boarders
    if sand or point_defence:
        gunners = None
        for mount in target.mounts:
            if mount.kind != "turret" or mount.hits >= 2:
                continue
            if gunners is None:
                gunners = gunners_by_mount(target)
            gunner = gunners.get(mount.id)
            if gunner is None:
                continue
            loaded_sand = shoots_missiles = False  # a loaded sandcaster; a weapon for point defence
            for w in mount.weapons:
                if w.type == "sandcaster":
                    if w.loaded > 0:
                        loaded_sand = True
                elif w.type in POINT_DEFENCE_WEAPONS:
                    shoots_missiles = True
            if sand and loaded_sand and not (used and f"sand:{mount.id}" in used):
                out.append(("sand", gunner.id, {"mount": mount.id}))
            if point_defence and shoots_missiles and not (used and f"pd:{mount.id}" in used):
                out.append(("point_defence", gunner.id, {"mount": mount.id}))
    if heavy and "screens" not in used and ((heavy == "damper" and target.nuclear_damper) or
                                            (heavy == "meson" and target.meson_screen)):
        ops = [c for c in target.crew if (c.position == "captain" or c.position in GUNNER_POSITIONS) and "screens" in c.skills
               and able(c) and not c.automated]
        if ops:
            op = max(ops, key=lambda c: c.skills["screens"])
            out.append(("screens", op.id, {"screen": heavy}))
    return out


def do_dodge(tx: Tx, a: Action):
    s, p = tx.s, tx.s.pending
    assert p is not None  # reactions are legal only while an attack is pending
    sh = s.ship(p.target)
    pilot = sh.member(a.actor)
    assert pilot is not None
    check = CHECKS["dodge"]
    roll, effect = perform(tx, check, sh, pilot, a, msg("cepheus.roll.dodge", "{ship} dodges", ship=sh.name))
    spend_reaction(tx, sh.id, "dodge", check.modifiers(s, sh, pilot, a))
    if effect >= 0:
        tx.s.pending = clone(tx.s.pending, dodge=-2)
        tx.say(msg("cepheus.log.dodges", "{ship} dodges: the attack takes DM-2.", ship=sh.name), SEC["dodge"])
    else:
        tx.say(msg("cepheus.log.no_dodge", "{ship} fails to dodge.", ship=sh.name), SEC["dodge"])


def do_sand(tx: Tx, a: Action):
    s, p = tx.s, tx.s.pending
    assert p is not None
    sh = s.ship(p.target)
    mount_id = a.get("mount")
    gunner = sh.member(a.actor)
    mount = sh.mount(mount_id)
    assert gunner is not None and mount is not None
    idx = next(i for i, w in enumerate(mount.weapons) if w.type == "sandcaster" and w.loaded > 0)
    m = tx.mount(sh.id, mount_id)
    m.weapons[idx].loaded -= 1
    roll, effect = perform(tx, CHECKS["sand"], sh, gunner, a, msg("cepheus.roll.sand", "{ship} fires sand from {mount}",
                                                                  ship=sh.name, mount=mount_name(mount_id)))
    spend_reaction(tx, sh.id, f"sand:{mount_id}", [])
    p = tx.s.pending  # the pending attack as the reaction left it (spend_reaction notes the reaction used)
    assert p is not None
    if effect >= 0:
        if p.kind == "board":
            tx.s.pending = clone(p, defence=p.defence + 2)
            tx.say(msg("cepheus.log.sand_boarders", "Sand scours the boarders crossing to {ship} (8D6 each): defender "
                       "DM+2 (decision).", ship=sh.name), SEC["sand"])
        else:
            tx.s.pending = clone(p, sand=p.sand + 1)
            tx.say(msg("cepheus.log.sand_hits", "Sand from {mount}: every incoming beam loses 1D6 damage.",
                       mount=mount_name(mount_id)), SEC["sand"])
    else:
        tx.say(msg("cepheus.log.sand_misses", "The sand from {mount} misses the beam.", mount=mount_name(mount_id)),
               SEC["sand"])


def do_point_defence(tx: Tx, a: Action):
    s, p = tx.s, tx.s.pending
    assert p is not None
    sh = s.ship(p.target)
    mount_id = a.get("mount")
    gunner = sh.member(a.actor)
    assert gunner is not None
    spend_reaction(tx, sh.id, f"pd:{mount_id}", [])
    check = CHECKS["point_defence"]
    if p.kind == "board":
        roll, effect = perform(tx, check, sh, gunner, a, msg("cepheus.roll.pd_boarders",
                                                             "{ship}: point defence from {mount} at the boarders",
                                                             ship=sh.name, mount=mount_name(mount_id)))
        if effect >= 0:
            p = tx.s.pending  # as spend_reaction left it
            assert p is not None
            tx.s.pending = clone(p, defence=p.defence + 2)
            tx.say(msg("cepheus.log.pd_boarders", "Point defence rakes the boarders: defender DM+2 (decision)."),
                   SEC["point_defence"])
        return
    # Difesa puntiforme: the gunner keeps rolling until an attempt fails, each at a cumulative DM-1, and
    # may aim each attempt at any of the missiles arriving together (from one launcher or several).
    attempt = 0
    while True:
        p = tx.s.pending
        assert p is not None
        salvo = next_missile_to_shoot(tx.s, p.missiles)
        if salvo is None:
            break
        roll, effect = perform(tx, check, sh, gunner, a,
                               msg("cepheus.roll.pd", "{ship}: point defence from {mount} (attempt {n})", ship=sh.name,
                                   mount=mount_name(mount_id), n=attempt + 1),
                               extra=[(PD_EARLIER, -attempt)])
        attempt += 1
        if effect < 0:
            tx.say(msg("cepheus.log.pd_misses", "Point defence from {mount} misses; it stops.",
                       mount=mount_name(mount_id)), SEC["point_defence"])
            break
        set_missile(tx, clone(salvo, count=salvo.count - 1))
        tx.say(msg("cepheus.log.pd_hits", "Point defence from {mount} destroys a {missile}.",
                   mount=mount_name(mount_id), missile=MISSILES[salvo.kind]["label"]), SEC["point_defence"])


def next_missile_to_shoot(s: CombatState, missile_ids: list[str]) -> Missile | None:
    """The incoming missile point defence aims at next (decision): the most dangerous one left, nuclear
    first, then the lowest to-hit number, then the order of arrival."""
    left = [m for mid in missile_ids if (m := find_missile(s, mid)) is not None and m.count > 0]
    if not left:
        return None
    return min(left, key=lambda m: (m.kind != "nuclear", m.to_hit, missile_ids.index(m.id)))


def do_screens(tx: Tx, a: Action):
    s, p = tx.s, tx.s.pending
    assert p is not None
    sh = s.ship(p.target)
    op = sh.member(a.actor)
    assert op is not None
    level = max(0, int(op.skills.get("screens", 0)))
    roll = tx.dice.roll(2, 6, modifiers=[(SCREENS, level)] + [(m.label, m.value) for m in circumstance(gm_dm(a))],
                        purpose=msg("cepheus.roll.screens", "{ship}: screens", ship=sh.name),
                        rule=SEC["screens"], gm_only=is_npc(sh))
    spend_reaction(tx, sh.id, "screens", [])
    kind = a.get("screen")
    p = tx.s.pending  # as spend_reaction left it
    assert p is not None
    tx.s.pending = clone(p, screen=roll.total, screen_kind=kind)
    if kind == "damper":
        tx.say(msg("cepheus.log.damper", "{ship}'s nuclear damper takes {n} off the damage.", ship=sh.name,
                   n=roll.total), SEC["screens"])
    else:
        tx.say(msg("cepheus.log.meson_screen", "{ship}'s meson screen takes {n} off the damage.", ship=sh.name,
                   n=roll.total), SEC["screens"])
