"""Steps 4 to 7 of an attack, crippling, catastrophic damage and the End phase's damage.

Seed ``dropfleet-commander-damage.es.txt``: "4. Daño total infligido al casco", "5. Lanzar
tiradas de salvación…", "Contramedidas pasivas", "Defensa de Punto (PD)", "6. Tirada de
Daño incapacitante", "7. Tirada de daño catastrófico", "Control de daños", "Caída Orbital";
RULES-NOTES (dropfleet) for to-hit, criticals, layers and the gaps.  Each function works
on a :class:`~.ships.Work` (the step's copy-on-write ships) and draws every die through it.
"""
from __future__ import annotations

from typing import NamedTuple

from rulesets.core.check import Check
from rulesets.core.messages import Message, msg, msgn

from . import checks, geometry
from . import ships as ship_rules
from . import tables, terms
from .state import Effect, Ship, Weapon


# --- to hit (RULES-NOTES: Lock, clamp, critical on Lock + 2, layers) ------------------

class Shot(NamedTuple):
    """Everything about one weapon system firing at one target (a named tuple: built for every
    choice the bot weighs, so it must be cheap).  Its to-hit dice are :attr:`hits`, a
    :class:`~.checks.LockPool` (one D6 per Attack against the Lock, what changed the Lock inside
    it), rolled as the core check :func:`hit_check` declares; the rest is what happens to the hits.

    The action list, ``apply``, the odds and the log line all read this.
    """

    hits: checks.LockPool  # the Lock after modifiers, clamped 2..6; critical from (7: none)
    particle: bool  # every hit is critical; no passive save (decision D2)
    damage: str
    point_defence: int  # PD dice the target rolls (0: none)
    normal_save: int  # save against normal points (7+: none)
    critical_save: int  # save against critical points (7+: none)

    @property
    def lock(self) -> int:
        return self.hits.lock

    @property
    def critical_on(self) -> int:
        """A face at least this is a critical hit (7: none possible)."""
        return self.hits.critical_from

    @property
    def attacks(self) -> int:
        return self.hits.count

    @property
    def modifiers(self) -> tuple[tuple[Message | str, int], ...]:
        return self.hits.modifiers

    @property
    def p_hit(self) -> float:
        return (7 - self.hits.lock) / 6


#: the Lock's modifier for a shot between orbital layers (DF-N05)
ACROSS_LAYERS = msg("dropfleet.fire.across_layers", "across orbital layers")


def shot(attacker: Ship, weapon: Weapon, target: Ship) -> Shot:
    """The numbers of ``weapon`` fired by ``attacker`` at ``target`` (DF-03, DF-N04, DF-N05)."""
    mods = []
    if attacker.layer != target.layer:
        crossing = {attacker.layer, target.layer}
        if not (attacker.profile.monitor and crossing == {tables.HIGH, tables.LOW}):
            mods.append((ACROSS_LAYERS, tables.LAYER_LOCK_PENALTY))  # DF-N05
    if weapon.calibre and target.profile.tonnage in weapon.calibre:
        mods.append((msg("dropfleet.fire.calibre", "calibre {calibre} against {tonnage}", calibre=weapon.calibre,
                         tonnage=terms.TONNAGE.get(target.profile.tonnage, "?")), -1))
    lock = max(tables.LOCK_MIN, min(tables.LOCK_MAX, weapon.lock + sum(v for _, v in mods)))
    margin = 1 if set(weapon.calibre) & {"H", "S"} else tables.CRITICAL_MARGIN
    # every hit of a particle weapon is critical, else the weapon's critical value or better
    critical_from = lock if weapon.particle else min(7, lock + margin)
    passive = ship_rules.passive_save(target)
    critical_save = 7 if (passive is None or weapon.particle) else passive
    armour = ship_rules.armour_save(target)
    return Shot(checks.LockPool(weapon.attacks, lock, critical_from, tuple(mods)), weapon.particle, weapon.damage,
                ship_rules.point_defence(target) if weapon.point_defence_applies else 0,
                armour if passive is None else min(armour, passive), critical_save)


def hit_check(s: Shot, purpose: Message | str = "") -> Check:
    """The to-hit check of a shot: one D6 per Attack against the Lock, no target, no modifiers
    (they changed the Lock), the natural the number of hits (DF-03, DF-N04)."""
    return checks.pool_check(s.hits, tables.TO_HIT, purpose)


def classify(face: int, s: Shot) -> int:
    """0 miss, 1 hit, 2 critical hit (DF-03, DF-N04)."""
    if face < s.lock:
        return 0
    return 2 if face >= critical_from(s) else 1


def critical_from(s: Shot) -> int:
    """The lowest face that is a critical hit: every hit of a particle weapon, else the
    weapon's critical value or better (DF-03, DF-N04)."""
    return s.hits.critical_from


def pd_options(normal: int, critical: int, successes: int) -> list[tuple[int, int]]:
    """(normal blocked, critical blocked) for every way to spend PD successes (DF-17, DF-19, DF-20).

    Each success blocks a normal point; two block a critical point.  Options that block
    the same points are merged; spending never leaves a blockable normal point unblocked.
    """
    out = []
    for crit in range(0, min(critical, successes // tables.PD_PER_CRITICAL) + 1):
        blocked = (min(normal, successes - tables.PD_PER_CRITICAL * crit), crit)
        if blocked not in out:
            out.append(blocked)
    return out


def fail_chance(save: int) -> float:
    return 1.0 if save > 6 else (save - 1) / 6


def best_pd_option(options, s: Shot, policy: str = "min_expected") -> tuple[int, int]:
    """The bot's way to spend PD (decision D5): ``min_expected`` blocks what would most likely
    get through (a critical point is worth its chance to beat the passive save, a normal point
    its chance to beat the best save); ``crit_first`` and ``normal_first`` are fixed orders."""
    if policy == "crit_first":
        return max(options, key=lambda o: (o[1], o[0]))
    if policy == "normal_first":
        return max(options, key=lambda o: (o[0], -o[1]))
    qn, qc = fail_chance(s.normal_save), fail_chance(s.critical_save)
    return max(options, key=lambda o: (round(o[0] * qn + o[1] * qc, 12), o[1]))


# --- one attack -----------------------------------------------------------------------

def roll_hits(w: ship_rules.Work, attacker: Ship, weapon: Weapon, target: Ship, s: Shot) -> tuple[int, int]:
    """(normal hits, critical hits): one D6 per Attack against the Lock (DF-03, DF-N04)."""
    purpose = msg("dropfleet.fire.to_hit_roll", "{ship}'s {weapon} at {target} (Lock {lock}+)",
                  ship=attacker.name, weapon=weapon.name, target=target.name, lock=s.lock)
    result = checks.roll_pool(w.dice, hit_check(s, purpose))
    # a face of Lock or more hits, of critical_from or more is critical (as :func:`classify` reads a face)
    normal, critical = s.hits.split(result.faces)
    w.say(msgn("dropfleet.fire.to_hit", "{ship} fires {weapon} at {target}: Lock {lock}+{modifiers}, {criticals}; "
               "rolled {faces}: {count} hit, {critical} critical.", "{ship} fires {weapon} at {target}: Lock {lock}+"
               "{modifiers}, {criticals}; rolled {faces}: {count} hits, {critical} critical.", normal, ship=attacker.name,
               weapon=weapon.name, target=target.name, lock=s.hits.lock,
               modifiers=_lock_modifiers(s.hits.modifiers) if s.hits.modifiers else "",
               criticals=EVERY_HIT_CRITICAL if s.particle else CRITICAL_ON.get(s.hits.critical_from, NO_CRITICAL),
               faces=faces(result.faces), critical=critical), tables.TO_HIT)
    return normal, critical


#: what a shot's critical hits are, in words (DF-N04; decision D2 particle weapons)
EVERY_HIT_CRITICAL = msg("dropfleet.fire.every_hit_critical", "every hit critical (particle)")
NO_CRITICAL = msg("dropfleet.fire.no_critical", "no critical possible")
CRITICAL_ON = {face: msg("dropfleet.fire.critical_on", "critical on {face}+", face=face)
               for face in range(tables.LOCK_MIN, 7)}



def _lock_modifiers(modifiers) -> Message | str:
    """What changed the Lock, as the to-hit line names it: ", across orbital layers +1" each ("" for none)."""
    out: Message | str = ""
    for why, value in modifiers:
        out = msg("dropfleet.fire.lock_modifier", "{before}, {why} {value:+d}", before=out, why=why, value=value)
    return out


def faces(rolled) -> str:
    """The faces of a roll in a log line: "3, 5, 6" (numbers, the same in every language)."""
    return ", ".join(map(str, rolled))


def roll_damage(w: ship_rules.Work, hits: int, damage: str, weapon: str, critical: bool = False) -> int:
    """Hull damage of ``hits`` (critical) hits of the weapon system named ``weapon``: the Damage
    value each, variable damage rolled per hit before any save (DF-01, DF-02)."""
    if hits <= 0:
        return 0
    parts = _PARTS.get(damage)
    if parts is None:
        parts = _PARTS[damage] = _damage_parts(damage)
    sides, fixed = parts
    if not sides:
        return hits * fixed
    purpose = (msg("dropfleet.damage.critical_roll", "{weapon} critical damage: {damage} per hit", weapon=weapon, damage=damage)
               if critical else msg("dropfleet.damage.roll", "{weapon} damage: {damage} per hit", weapon=weapon, damage=damage))
    roll = w.roll(hits, sides, purpose, tables.TOTAL_DAMAGE)
    return roll.total + hits * fixed


#: :func:`_damage_parts` of each Damage value met
_PARTS: dict = {}


def _damage_parts(damage: str) -> tuple[int, int]:
    if damage[0] == "D":
        sides, _, plus = damage[1:].partition("+")
        return int(sides), int(plus or 0)
    return 0, int(damage)


def roll_point_defence(w: ship_rules.Work, target: Ship, s: Shot, normal: int, critical: int) -> int:
    """PD successes: one D6 per PD point, each 5+ a success (DF-17)."""
    if not s.point_defence or normal + critical == 0:
        return 0
    successes = w.successes(s.point_defence, tables.PD_SUCCESS,
                            msg("dropfleet.pd.roll", "{ship}'s point defence", ship=target.name), tables.POINT_DEFENCE)
    w.say(msgn("dropfleet.pd.rolled", "{ship}'s point defence rolls {faces}: {count} success.",
               "{ship}'s point defence rolls {faces}: {count} successes.", successes, ship=target.name,
               faces=faces(w.faces)), tables.POINT_DEFENCE)
    return successes


def roll_saves(w: ship_rules.Work, target: Ship, normal: int, critical: int, s: Shot) -> int:
    """Unsaved Hull damage: a D6 per normal point against the best save, a D6 per critical
    point against the passive save only (DF-05, DF-06, DF-10, DF-12, DF-13).  A save that
    cannot be made (7+) rolls no dice (decision D6)."""
    unsaved = 0
    if normal > 0:
        unsaved += _unsaved(w, target, normal, s.normal_save, NORMAL, tables.ARMOUR_SAVES)
    if critical > 0:
        unsaved += _unsaved(w, target, critical, s.critical_save, CRITICAL, tables.PASSIVE)
    return unsaved


#: the kinds of Hull damage a save is rolled against (DF-05, DF-10)
NORMAL = msg("dropfleet.save.normal", "normal")
CRITICAL = msg("dropfleet.save.critical", "critical")


def _unsaved(w: ship_rules.Work, target: Ship, points: int, need: int, what: Message, rule: str) -> int:
    """The points of one kind (``what``: :data:`NORMAL` or :data:`CRITICAL`) that get through: a
    D6 each on ``need``+ (none when 7+)."""
    if need > 6:
        w.say(msgn("dropfleet.save.none", "{ship} has no save against {count} {kind} point.",
                   "{ship} has no save against {count} {kind} points.", points, ship=target.name, kind=what), rule)
        return points
    saved = w.successes(points, need, msg("dropfleet.save.roll", "{ship}'s saves against {kind} damage ({need}+)",
                                          ship=target.name, kind=what, need=need), rule)
    w.say(msg("dropfleet.save.rolled", "{ship} saves {kind} damage on {need}+: rolled {faces}, {saved} of {points} saved.",
              ship=target.name, kind=what, need=need, faces=faces(w.faces), saved=saved, points=points), rule)
    return points - saved


def finish_attack(w: ship_rules.Work, attacker_name: str, target_id: str, normal: int, critical: int, s: Shot,
                  blocked: tuple[int, int] = (0, 0)) -> None:
    """Point defence spent, then saves, then the Hull (DF-18, DF-07)."""
    target = w.ship(target_id)
    if blocked != (0, 0):
        w.say(msgn("dropfleet.pd.blocks", "Point defence blocks {normal} normal and {count} critical point.",
                   "Point defence blocks {normal} normal and {count} critical points.", blocked[1], normal=blocked[0]),
              tables.POINT_DEFENCE)
    normal, critical = normal - blocked[0], critical - blocked[1]
    unsaved = roll_saves(w, target, normal, critical, s)
    hurt(w, target_id, unsaved, msg("dropfleet.cause.attack", "{ship}'s attack", ship=attacker_name))


# --- Hull, destruction, crippling -------------------------------------------------------

def hurt(w: ship_rules.Work, ship_id: str, amount: int, cause: Message | str, rule: str = tables.ARMOUR_SAVES) -> None:
    """Take ``amount`` Hull damage.  A ship at 0 is destroyed (DF-08, DF-47); crippling from an
    attack waits for the end of the activation (DF-26), any other is rolled now."""
    ship = w.ship(ship_id)
    if amount <= 0 or ship.destroyed:
        if amount <= 0 and cause:
            w.say(msg("dropfleet.hull.unharmed", "{ship} takes no Hull damage from {cause}.", ship=ship.name, cause=cause), rule)
        return
    hull = max(0, ship.hull - amount)
    ship = w.put(ship, hull=hull)
    w.say(msg("dropfleet.hull.damaged", "{ship} takes {amount} Hull damage from {cause}: {hull} of {start} left.",
              ship=ship.name, amount=amount, cause=cause, hull=hull, start=ship.profile.hull), rule)
    if hull == 0:
        destroy(w, ship_id, cause)
    elif w.in_attack:
        if ship_id not in w.attacked:
            w.attacked += (ship_id,)
    else:
        settle_crippling(w, ship_id)


#: a ship's fate as the log says it (the ship's ``fate`` keeps the English key)
FATES = {"destroyed": msg("dropfleet.fate.destroyed", "destroyed"), "removed": msg("dropfleet.fate.removed", "removed"),
         "burnt up in the Atmosphere": msg("dropfleet.fate.burnt_up", "burnt up in the Atmosphere")}


def destroy(w: ship_rules.Work, ship_id: str, cause: Message | str, catastrophic: bool = True,
            fate: str = "destroyed") -> None:
    ship = w.ship(ship_id)
    if ship.destroyed:
        return
    ship = w.put(ship, destroyed=True, hull=0, fate=fate, shields_up=False)
    w.say(msg("dropfleet.hull.lost", "{ship} is {fate} ({cause}).", ship=ship.name, fate=FATES.get(fate, fate), cause=cause),
          tables.CATASTROPHIC_DAMAGE)
    if catastrophic:
        catastrophic_damage(w, ship)


def settle_crippling(w: ship_rules.Work, ship_id: str) -> None:
    """Roll every crippling threshold crossed and not rolled yet, once each (DF-21, DF-22, DF-27, DF-N09)."""
    while True:
        ship = w.ship(ship_id)
        due = ship_rules.thresholds_due(ship)
        if not due:
            return
        ship = w.put(ship, cripple_rolled=ship.cripple_rolled + (due[0],))
        threshold = (msg("dropfleet.crippled.half", "{ship} is crippled (50% of its Hull lost).", ship=ship.name)
                     if due[0] == "half" else
                     msg("dropfleet.crippled.at", "{ship} is crippled ({hull} Hull or less).", ship=ship.name, hull=due[0]))
        w.say(threshold, tables.CRIPPLING_DAMAGE)
        roll_crippling(w, ship_id)


#: the crippling tables' names and a row's notes, in the log (seed 6)
CRIPPLING_TABLE = msg("dropfleet.crippling.table", "Crippling damage")
DREADNOUGHT_CRIPPLING_TABLE = msg("dropfleet.crippling.dreadnought_table", "Dreadnought crippling damage")
REPAIRABLE = msg("dropfleet.crippling.repairable", "; repairable")
DECAY = msg("dropfleet.crippling.decay", "; orbital decay")


def roll_crippling(w: ship_rules.Work, ship_id: str) -> None:
    """Two D6 on the crippling table (DF-23, DF-24); extra Hull damage never saved (DF-28)."""
    ship = w.ship(ship_id)
    dread = ship.profile.dreadnought
    table = DREADNOUGHT_CRIPPLING_TABLE if dread else CRIPPLING_TABLE
    roll = w.roll(2, 6, msg("dropfleet.crippling.roll", "{ship}: {table}", ship=ship.name, table=table), tables.CRIPPLING_DAMAGE)
    first, second = roll.faces
    row = tables.crippling_row(first, second, dread)
    w.say(msg("dropfleet.crippling.rolled", "{ship} rolls {first} ({subtable}) and {second} on the {table} table: "
              "{effect}: {does}{extra}{repairable}{decay}.", ship=ship.name, first=first, subtable=terms.SUBTABLE[first],
              second=second, table=table, effect=terms.CRIPPLING_NAME[row.effect], does=terms.CRIPPLING_TEXT[row.effect],
              extra=msg("dropfleet.crippling.extra", "; {amount} extra Hull damage, no saves", amount=row.extra) if row.extra else "",
              repairable=REPAIRABLE if row.repairable else "", decay=DECAY if row.decay else ""), row.rule)
    apply_effect(w, ship_id, row)
    if row.extra:
        hurt(w, ship_id, row.extra, terms.CRIPPLING_NAME[row.effect], tables.CRIPPLING_EXTRA)
    if row.effect == "reactor_overload" and not w.ship(ship_id).destroyed:
        roll_crippling(w, ship_id)  # DF-37: roll again


def apply_effect(w: ship_rules.Work, ship_id: str, row: tables.CripplingRow) -> None:
    ship = w.ship(ship_id)
    key = row.effect
    if key == "bright_flash":
        gain_spike(w, ship_id, tables.MINOR, row.rule)
        return
    if key == "weapons_disabled":
        own = ship.group == w.state.group and w.state.phase in ("orders", "move", "fire")
        w.put(ship, weapons_offline=True, offline_pending=own)
        return
    extra = {}
    weapon_id = ""
    if key == "weapon_destroyed":
        weapons = ship.profile.weapons
        if weapons:
            face = w.roll(1, len(weapons), msg("dropfleet.crippling.which_weapon", "{ship}: which weapon system is destroyed",
                                               ship=ship.name), row.rule).total
            weapon_id = weapons[face - 1].id
            w.say(msg("dropfleet.crippling.weapon_lost", "{ship}'s {weapon} is destroyed.", ship=ship.name,
                      weapon=weapons[face - 1].name), row.rule)
    if key == "power_fluctuation" and ship.silent:
        extra["silent"] = False  # DF-40: Silent Running ends
    effect = Effect(key, row.repairs if row.repairable else 0, weapon_id)
    w.put(ship, effects=ship.effects + (effect,), **extra)


def gain_spike(w: ship_rules.Work, ship_id: str, size: int, rule: str) -> None:
    """A spike; under Silent Running a Minor returns the Signature to normal instead (DF-29, DF-55);
    two Minors make a Major (DF-N02)."""
    ship = w.ship(ship_id)
    if ship.silent and size == tables.MINOR:
        w.put(ship, silent=False)
        w.say(msg("dropfleet.spike.silence_ends", "{ship}'s Silent Running ends: its Signature returns to normal.",
                  ship=ship.name), rule)
        return
    spike = tables.MAJOR if size == tables.MAJOR else min(tables.MAJOR, ship.spike + 1)
    w.put(ship, spike=spike, silent=False)
    w.say(msg("dropfleet.spike.gained", "{ship} now has a {size} spike.", ship=ship.name, size=terms.SPIKE[spike]), rule)


# --- catastrophic damage (seed 7) -----------------------------------------------------

#: the catastrophic roll's modifier (DF-51) and the blast that reaches nobody
BIG_HULL = msg("dropfleet.catastrophic.big_hull", "starting Hull 10+")
NOBODY_CAUGHT = msg("dropfleet.catastrophic.nobody_caught", "No ship is caught in it.")


def catastrophic_damage(w: ship_rules.Work, ship: Ship) -> None:
    """DF-48..DF-64: roll for ships of starting Hull 4+, not in the Atmosphere."""
    start = ship.profile.hull
    if start <= tables.SMALL_SHIP_HULL:
        w.say(msg("dropfleet.catastrophic.small", "{ship} (starting Hull {start}) is removed without a catastrophic roll.",
                  ship=ship.name, start=start), tables.CATASTROPHIC_DAMAGE)
        return
    if ship.layer == tables.ATMOSPHERE:
        w.say(msg("dropfleet.catastrophic.in_atmosphere", "{ship} was in the Atmosphere: removed without a catastrophic roll.",
                  ship=ship.name), tables.CATASTROPHIC_DAMAGE)
        return
    dread = ship.profile.dreadnought
    bonus = 1 if start >= tables.CATASTROPHIC_BIG_HULL else 0
    roll = w.roll(1, 6, msg("dropfleet.catastrophic.roll", "{ship}: catastrophic damage", ship=ship.name),
                  tables.CATASTROPHIC_DAMAGE, modifiers=[(BIG_HULL, bonus)] if bonus else ())
    row = tables.catastrophic_row(roll.total, dread)
    rolled = (msg("dropfleet.catastrophic.rolled_big", "{face} + 1 (starting Hull 10+) = {total}", face=roll.faces[0],
                  total=roll.total) if bonus else roll.faces[0])
    w.say(msg("dropfleet.catastrophic.rolled", "Catastrophic damage for {ship}: rolled {rolled}: {result}: {does}.{house_rule}",
              ship=ship.name, rolled=rolled, result=terms.CATASTROPHIC_NAME[row.key], does=terms.CATASTROPHIC_TEXT[row.key],
              house_rule=msg("dropfleet.catastrophic.house_rule_note", " {note}", note=terms.HOUSE_RULE[row.key])
              if row.house_rule else ""), row.rule)
    if row.key in ("incineration", "violent_descent"):
        return
    if row.reach is not None:
        radius = row.reach
    else:
        sides = tables.explosion_die(start)
        radius = w.roll(1, sides, msg("dropfleet.catastrophic.radius_roll", "{ship}: explosion radius (D{sides}\")",
                                      ship=ship.name, sides=sides), tables.CATASTROPHIC_DAMAGE).total
        w.say(msg("dropfleet.catastrophic.radius", "The explosion reaches {radius}\" in {layer}.", radius=radius,
                  layer=terms.LAYER[ship.layer]), tables.CATASTROPHIC_DAMAGE)
    w.explosions += ((ship.x, ship.y, float(radius), ship.layer),)
    caught = [s.id for s in w.ships if s.in_play and s.id != ship.id and s.layer == ship.layer
              and geometry.within(ship.x, ship.y, s.x, s.y, radius)]
    if not caught:
        w.say(NOBODY_CAUGHT, tables.CATASTROPHIC_DAMAGE)
    for other in caught:
        blast(w, other, row, ship.name)


def blast(w: ship_rules.Work, ship_id: str, row: tables.CatastrophicRow, source: str) -> None:
    """Every part of a catastrophic row on one ship it reaches."""
    ship = w.ship(ship_id)
    if ship.destroyed:
        return
    cause = msg("dropfleet.cause.blast", "{ship}'s {blast}", ship=source, blast=terms.CATASTROPHIC_NAME_IN_TEXT[row.key])
    if row.removes_small and ship.profile.hull <= row.removes_small:
        destroy(w, ship_id, cause, catastrophic=False, fate="removed")
        return
    if row.spike:
        gain_spike(w, ship_id, row.spike, row.rule)
    if row.fires:
        fires = w.roll(1, 3, msg("dropfleet.blast.fires_roll", "{ship}: fires from {cause}", ship=ship.name, cause=cause),
                       row.rule).total
        ship = w.ship(ship_id)
        w.put(ship, effects=ship.effects + tuple(Effect("fire", 1) for _ in range(fires)))
        w.say(msgn("dropfleet.blast.fires", "{ship} catches {count} fire.", "{ship} catches {count} fires.", fires,
                   ship=ship.name), row.rule)
    if not row.damage or (row.big_from and ship.profile.hull < row.big_from):
        return
    if row.needs:
        face = w.roll(1, 6, msg("dropfleet.blast.caught_roll", "{ship}: caught by {cause} ({need}+)", ship=ship.name,
                                cause=cause, need=row.needs), row.rule).total
        if face < row.needs:
            w.say(msg("dropfleet.blast.escapes", "{ship} escapes {cause} (rolled {face}).", ship=ship.name, cause=cause,
                      face=face), row.rule)
            return
    amount = explosion_amount(w, row.damage, msg("dropfleet.blast.damage_roll", "{ship}: damage from {cause}",
                                                 ship=ship.name, cause=cause), row.rule)
    if row.saves:
        target = w.ship(ship_id)
        need = ship_rules.normal_save(target)
        s = Shot(checks.LockPool(0, 2), False, "1", 0, need, 7)
        amount = roll_saves(w, target, amount, 0, s)
    hurt(w, ship_id, amount, cause, row.rule)


def explosion_amount(w: ship_rules.Work, code: str, purpose: Message | str, rule: str) -> int:
    """'2' -> 2; 'D6' -> 1D6; '2D6'; '3+D3'."""
    fixed, _, dice_part = code.partition("+") if "+" in code else ("", "", code)
    if not dice_part.count("D"):
        return int(code)
    count, _, sides = dice_part.partition("D")
    total = w.roll(int(count or 1), int(sides), purpose, rule).total
    return total + int(fixed or 0)


# --- the End phase ----------------------------------------------------------------------

#: causes of Hull damage in the End phase, as the log names them (decision D8)
CONTAINMENT_FAILURE = msg("dropfleet.cause.containment_failure", "atmospheric containment failure")
REACTOR_LEAK = msg("dropfleet.cause.reactor_leak", "its primary reactor leak")
DAMAGE_CONTROL = msg("dropfleet.cause.damage_control", "damage control")


def end_phase(w: ship_rules.Work) -> None:
    """Fires, damage control, orbital decay, reactor leaks, in that order (decision D8)."""
    for ship in w.ships:
        if ship.effects:
            break
    else:  # every part of it starts from a crippling effect: with none in play nothing happens
        return
    for ship in list(w.ships):
        ship = w.ship(ship.id)
        if ship.destroyed:
            continue
        fires = sum(1 for e in ship.effects if e.key == "fire")
        if fires:
            hurt(w, ship.id, fires, msgn("dropfleet.cause.fires", "{count} fire", "{count} fires", fires),
                 tables.CRIPPLING_ROWS["fire"].rule)
        if ship.has("containment_failure") and not w.ship(ship.id).destroyed:
            count = sum(2 for e in ship.effects if e.key == "containment_failure")
            hurt(w, ship.id, count, CONTAINMENT_FAILURE, tables.CRIPPLING_ROWS["containment_failure"].rule)
    for ship in list(w.ships):
        damage_control(w, ship.id)
    for ship in list(w.ships):
        orbital_decay(w, ship.id)
    for ship in list(w.ships):
        ship = w.ship(ship.id)
        leaks = sum(1 for e in ship.effects if e.key == "reactor_leak")
        if leaks and not ship.destroyed:
            hurt(w, ship.id, 3 * leaks, REACTOR_LEAK, tables.CRIPPLING_ROWS["reactor_leak"].rule)


def damage_control(w: ship_rules.Work, ship_id: str) -> None:
    """One D6 per repairable effect (DF-65, DF-66, DF-68); damage from it is never saved (DF-67)."""
    ship = w.ship(ship_id)
    if ship.destroyed:
        return
    repairable = [i for i, e in enumerate(ship.effects) if e.repairs_left > 0]
    if not repairable:
        return
    rolled = w.roll(len(repairable), 6, msg("dropfleet.repair.roll", "{ship}: damage control", ship=ship.name),
                    tables.DAMAGE_CONTROL).faces
    effects = list(ship.effects)
    hull_damage = 0
    words: Message | str = ""
    for index, face in zip(repairable, rolled):
        repaired, damage = tables.damage_control(face)
        effect = effects[index]
        name = terms.CRIPPLING_NAME[effect.key]
        hull_damage += damage
        if repaired:
            left = effect.repairs_left - 1
            effects[index] = Effect(effect.key, left, effect.weapon) if left else None
            said = (msg("dropfleet.repair.repaired", "{face}: {effect} repaired", face=face, effect=name) if not left else
                    msg("dropfleet.repair.one_done", "{face}: {effect} one repair done, {left} to go", face=face,
                        effect=name, left=left))
        elif damage:
            said = msg("dropfleet.repair.failed_hurt", "{face}: {effect} not repaired and 1 Hull damage", face=face, effect=name)
        else:
            said = msg("dropfleet.repair.failed", "{face}: {effect} not repaired", face=face, effect=name)
        words = said if not words else msg("dropfleet.repair.and", "{before}; {next}", before=words, next=said)
    w.put(ship, effects=tuple(e for e in effects if e is not None))
    w.say(msg("dropfleet.repair.rolled", "{ship}'s damage control: {results}.", ship=ship.name, results=words),
          tables.DAMAGE_CONTROL)
    if hull_damage:
        hurt(w, ship_id, hull_damage, DAMAGE_CONTROL, tables.DAMAGE_CONTROL)


def decaying(ship: Ship) -> bool:
    return any(tables.CRIPPLING_ROWS[e.key].decay for e in ship.effects if e.key in tables.CRIPPLING_ROWS)


def orbital_decay(w: ship_rules.Work, ship_id: str) -> None:
    """A decaying ship drops one layer (DF-69, DF-70); a non-Atmospheric ship reaching the
    Atmosphere is removed without a catastrophic roll (DF-71)."""
    ship = w.ship(ship_id)
    if ship.destroyed or not decaying(ship) or ship.layer == tables.ATMOSPHERE:
        return
    layer = tables.LAYERS[geometry.layer_index(ship.layer) + 1]
    ship = w.put(ship, layer=layer)
    w.say(msg("dropfleet.decay.drops", "{ship} decays to {layer}.", ship=ship.name, layer=terms.LAYER[layer]),
          tables.ORBITAL_DECAY)
    if layer == tables.ATMOSPHERE and not ship.profile.atmospheric:
        destroy(w, ship_id, DECAY_INTO_ATMOSPHERE, catastrophic=False, fate="burnt up in the Atmosphere")


DECAY_INTO_ATMOSPHERE = msg("dropfleet.cause.decay_into_atmosphere", "orbital decay into the Atmosphere")
