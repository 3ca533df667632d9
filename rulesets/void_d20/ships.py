"""Ship combat: stations, range bands, escape, gunnery, frame damage, modules, catastrophes, boarding.

Seed sections: Космические столкновения, Раунды и порядок, Действия на корабле, Дистанции,
Бегство, Абордаж, Стрельба и повреждения рамы, Таблица катастроф корабля (d12), and
RULES-NOTES void_d20.  Pure Python; each function returns a changed copy of the state.
"""
from __future__ import annotations

from typing import Final

from rulesets.core import check as core_check
from rulesets.core.check import Check, Modifier, circumstance
from rulesets.core.dice import Dice
from rulesets.core.engine import Log
from rulesets.core.messages import Message, msg, msgn
from rulesets.core.state import set_key

from . import tables
from .checks import d20_check, roll_one, roll_plus, roll_sum
from .common import combatant, crew_aboard, evolve, set_combatant, set_ship, ship, standing
from .dice import parse_damage
from .model import Combatant, Ship, VoidState, pair_key



# --- who sits where -----------------------------------------------------------------------


def band(state: VoidState, a: str, b: str) -> str:
    return state.bands.get(pair_key(a, b), "medium")


def set_band(state: VoidState, a: str, b: str, key: str) -> VoidState:
    return evolve(state, bands=set_key(state.bands, pair_key(a, b), key))


def station_crews(state: VoidState, s: Ship) -> dict[str, str]:
    """Station key -> the id of who works it (:func:`.common.works`), for the stations of ``s`` somebody works:
    kept with who stands where (:class:`.common.Standing`)."""
    return standing(state).crews.get(s.id, {})


def station_crew(state: VoidState, s: Ship, station: str) -> Combatant | None:
    """Who works a station of ``s`` (:func:`.common.works`: the crew member at the station's position,
    else at the helm and the guns the best at it), None when nobody does."""
    who = standing(state).crews.get(s.id, {}).get(station)
    return None if who is None else combatant(state, who)


def power_penalty(s: Ship) -> int:
    return -1 if "fire" in s.catastrophes else 0                         # VD-53


def can_manoeuvre(s: Ship) -> bool:
    """No engines when drifting (VD-50), nor with the engines or navigation out (VD-57, VD-62)."""
    return (not s.drifting and not s.reboot and not s.module_out("engines")
            and "navigation" not in s.catastrophes and "engines" not in s.catastrophes)


def powered(s: Ship) -> bool:
    """Guns and sensors need power: none while drifting (house rule) or rebooting (VD-63)."""
    return not s.drifting and not s.reboot


#: the words and modifiers of a station check that are the same every time (made once)
_NOBODY: Final = msg("void_d20.modifier.nobody", "nobody at the station")
_COMMAND: Final = Modifier(msg("void_d20.modifier.command", "command"), tables.COMMAND_BONUS, tables.rule("stations", "VD-41"))
_FIRE: Final = msg("void_d20.modifier.fire", "fire in engineering")
_WEAKNESS: Final = Modifier(msg("void_d20.modifier.weakness", "weakness found"), tables.WEAKNESS_BONUS,
                            tables.rule("stations", "VD-39"))


def station_check(state: VoidState, s: Ship, station: str, purpose: Message, target: int, rule: str,
                  *, dm: int = 0, void: bool = False, attack: bool = False, extra=()) -> Check:
    """The check of a station: 1d20 + the crew member's ability (+ command, power, GM) against ``target``."""
    info = tables.STATION[station]
    who = station_crew(state, s, station)
    if who is not None:
        mods = [Modifier(msg("void_d20.modifier.crew_ability", "{name}'s {ability}", name=who.name,
                             ability=tables.ABILITY_WORDS[info.ability]), getattr(who, info.ability), rule)]
    else:
        mods = [Modifier(_NOBODY, 0, rule)]
    if s.command == station:
        mods.append(_COMMAND)
    penalty = power_penalty(s) if station in ("pilot", "gunner") else 0
    if penalty:
        mods.append(Modifier(_FIRE, penalty, tables.rule("catastrophe", "VD-53")))
    mods.extend(extra)
    mods.extend(circumstance(dm))
    return d20_check(purpose, mods, target, rule, attack=attack, void=void)


def _spend_void_of(state: VoidState, s: Ship, station: str, void: bool) -> VoidState:
    if void:
        who = station_crew(state, s, station)
        if who is not None and who.void > 0:
            state = set_combatant(state, who.id, void=who.void - 1)
    return state


# --- initiative ---------------------------------------------------------------------------


_INITIATIVE_RULE: Final = tables.rule("ship_round", "VD-36")
_BEST_TECHNOLOGY: Final = msg("void_d20.modifier.best_technology", "best Technology aboard")
_MODULE_RULE: Final = tables.rule("frame", "VD-51")



def ship_initiative(state: VoidState, log: Log, dice: Dice, **changes) -> VoidState:
    """1d20 + the crew's best Technology for each ship, highest first, no 12 split (VD-36, VD-N07);
    the round's new orders: no captain's command and no evasion carried over from the round before.
    ``changes``: more fields of the state to set in the same copy (the round's scale and phase)."""
    rolls = []
    ships = []
    for index, s in enumerate(state.ships):
        crew = crew_aboard(state, s.id, s.side) if s.in_space else []
        if not crew:                                                     # nobody of its own aboard: no turn
            ships.append(evolve(s, initiative=None, command="", evading=False))
            continue
        total = roll_plus(dice, 20, _BEST_TECHNOLOGY, max(c.technology for c in crew),
                          msg("void_d20.roll.ship_initiative", "initiative of {ship}", ship=s.name), _INITIATIVE_RULE)
        rolls.append((-total, index, s.id))
        ships.append(evolve(s, initiative=total, command="", evading=False))
    rolls.sort()
    order = tuple(roll[2] for roll in rolls)
    # the initiatives, orders and evasion move nobody: who stands where is as before
    state = evolve(state, ships=tuple(ships), order=order, standing=state.standing, **changes)
    log.say(msg("void_d20.round.ship_order", "Ship round order: {ships}.",
                ships=", ".join([f"{s.name} ({s.initiative})" for sid in order for s in [ship(state, sid)]])),
            tables.rule("ship_round", "VD-N07"))
    return state


# --- the helm -------------------------------------------------------------------------------


def close_words(s: Ship, target: Ship) -> Message:
    """The pursuit in words: the check's purpose and the action's label."""
    return msg("void_d20.check.close", "{ship} closes on {target}", ship=s.name, target=target.name)


def escape_words(s: Ship, pursuer: Ship) -> Message:
    return msg("void_d20.check.escape", "{ship} breaks away from {pursuer}", ship=s.name, pursuer=pursuer.name)


def evade_words(s: Ship) -> Message:
    return msg("void_d20.check.evade", "{ship} evades", ship=s.name)


def close_check(state: VoidState, s: Ship, target: Ship, *, dm: int = 0, void: bool = False) -> Check:
    """Pursuit: a piloting check (12+) closes the range one band (VD-37, house rule for the target)."""
    return station_check(state, s, "pilot", close_words(s, target),
                         tables.CHECK_TARGET, tables.rule("stations", "VD-37"), dm=dm, void=void)


def escape_check(state: VoidState, s: Ship, pursuer: Ship, *, dm: int = 0, void: bool = False) -> Check:
    """Breaking away: Agility against the pursuer's Speed (VD-46, VD-N08)."""
    return station_check(state, s, "pilot", escape_words(s, pursuer),
                         pursuer.speed, tables.rule("escape", "VD-N08"), dm=dm, void=void)


def evade_check(state: VoidState, s: Ship, *, dm: int = 0, void: bool = False) -> Check:
    return station_check(state, s, "pilot", evade_words(s), tables.CHECK_TARGET,
                         tables.rule("stations", "VD-37"), dm=dm, void=void)


def close_in(state: VoidState, log: Log, dice: Dice, sid: str, tid: str, *, dm=0, void=False) -> VoidState:
    s, t = ship(state, sid), ship(state, tid)
    check = close_check(state, s, t, dm=dm, void=void)
    if void:
        state = _spend_void_of(state, s, "pilot", void)
    if not core_check.roll(dice, check).success:
        log.say(msg("void_d20.log.close_failed", "{ship} fails to close on {target}.", ship=s.name, target=t.name), check.rule)
        return state
    new = tables.band_closer(band(state, sid, tid))
    log.say(msg("void_d20.log.closed", "{ship} closes on {target}: {band}.", ship=s.name, target=t.name,
                band=tables.BANDS[new].words), tables.rule("ranges", tables.BANDS[new].number))
    return set_band(state, sid, tid, new)


def break_away(state: VoidState, log: Log, dice: Dice, sid: str, tid: str, *, dm=0, void=False) -> VoidState:
    """Success opens the range one band (beyond Far the ship is gone); failure closes it one band (VD-46)."""
    s, t = ship(state, sid), ship(state, tid)
    check = escape_check(state, s, t, dm=dm, void=void)
    if void:
        state = _spend_void_of(state, s, "pilot", void)
    current = band(state, sid, tid)
    if core_check.roll(dice, check).success:
        new = tables.band_further(current)
        if new is None:
            log.say(msg("void_d20.log.gone", "{ship} breaks away from {target} and is gone.", ship=s.name, target=t.name),
                    check.rule)
            return set_ship(state, sid, escaped=True)
        log.say(msg("void_d20.log.broke_away", "{ship} breaks away from {target}: {band}.", ship=s.name, target=t.name,
                    band=tables.BANDS[new].words), check.rule)
        return set_band(state, sid, tid, new)
    new = tables.band_closer(current)
    log.say(msg("void_d20.log.break_failed", "{ship} fails to break away; {target} closes: {band}.", ship=s.name,
                target=t.name, band=tables.BANDS[new].words), check.rule)
    return set_band(state, sid, tid, new)


def evade(state: VoidState, log: Log, dice: Dice, sid: str, *, dm=0, void=False) -> VoidState:
    """Evasion: a piloting check; on success + EVADE_BONUS Defence to the end of the round (house rule)."""
    s = ship(state, sid)
    check = evade_check(state, s, dm=dm, void=void)
    if void:
        state = _spend_void_of(state, s, "pilot", void)
    ok = core_check.roll(dice, check).success
    log.say(msg("void_d20.log.evaded", "{ship} jinks: +{bonus} Defence this round.", ship=s.name, bonus=tables.EVADE_BONUS)
            if ok else msg("void_d20.log.evade_failed", "{ship} fails to evade.", ship=s.name), check.rule)
    return set_ship(state, sid, evading=ok) if ok else state


# --- guns ---------------------------------------------------------------------------------


#: band key -> the weapon reaches that work at it
_REACHES: Final = {key: info.reaches for key, info in tables.BANDS.items()}


def can_fire(state: VoidState, s: Ship, weapon, t: Ship) -> bool:
    """A weapon works at a band its reach allows (VD-42..VD-45); never when docked."""
    if weapon.out or t.destroyed or t.escaped or t.side == s.side:
        return False
    return weapon.reach in _REACHES[band(state, s.id, t.id)]


def ship_defence(t: Ship) -> int:
    return t.defence + (tables.EVADE_BONUS if t.evading else 0)


def gunnery_check(state: VoidState, s: Ship, weapon, t: Ship, *, dm=0, void=False) -> Check:
    """Gunnery: Technology against the target's Defence (house rule: the seed gives no target; 12 by default)."""
    extra = (_WEAKNESS,) if t.id in s.weakness else ()
    return station_check(state, s, "gunner", msg("void_d20.check.fire", "{ship} fires {weapon} at {target}", ship=s.name,
                                                 weapon=weapon.name, target=t.name),
                         ship_defence(t), tables.rule("stations", "VD-38"), dm=dm, void=void, attack=True, extra=extra)


def fire(state: VoidState, log: Log, dice: Dice, sid: str, weapon_id: str, tid: str, *, dm=0, void=False) -> VoidState:
    s, t = ship(state, sid), ship(state, tid)
    for weapon in s.weapons:            # the weapon with that id
        if weapon.id == weapon_id:
            break
    else:
        raise StopIteration(f"{s.name} has no weapon '{weapon_id}'.")
    check = gunnery_check(state, s, weapon, t, dm=dm, void=void)
    if void:
        state = _spend_void_of(state, s, "gunner", void)
    if t.id in s.weakness:
        state = set_ship(state, sid, weakness=tuple(w for w in s.weakness if w != t.id))
    result = core_check.roll(dice, check)
    if not result.success:
        log.say(msg("void_d20.log.ship_miss", "{ship}'s {weapon} misses {target}.", ship=s.name, weapon=weapon.name,
                    target=t.name), check.rule)
        return state
    dd = parse_damage(weapon.damage)
    damage = roll_sum(dice, dd.count, dd.sides, dd.plus,
                      purpose=msg("void_d20.roll.frame_damage", "frame damage of {weapon}", weapon=weapon.name),
                      rule=tables.rule("frame", "VD-49"))
    if result.critical:
        damage *= 2
    damage = max(0, damage)
    names = {"ship": s.name, "weapon": weapon.name, "target": t.name, "damage": damage}
    log.say(msg("void_d20.log.ship_critical", "Critical hit! {ship}'s {weapon} hits {target} for {damage} Condition (doubled).",
                **names) if result.critical else
            msg("void_d20.log.ship_hit", "{ship}'s {weapon} hits {target} for {damage} Condition.", **names),
            tables.rule("frame", "VD-49"))
    return frame_hit(state, log, dice, tid, damage)


def frame_hit(state: VoidState, log: Log, dice: Dice, tid: str, damage: int) -> VoidState:
    """Frame damage (VD-49); 0 Condition: drifting (VD-50); a module out on 1 in d6 (VD-51);
    the catastrophe table when the frame reaches 0 and on each hit while it stays there (VD-N09)."""
    t = ship(state, tid)
    was_zero = t.drifting
    frame = max(0, t.frame - damage)
    state = set_ship(state, tid, frame=frame)
    if frame == 0 and not was_zero:
        log.say(msg("void_d20.log.drifting", "{ship}'s frame is at 0: it drifts, no engines, no life support; everyone "
                    "aboard starts to suffocate.", ship=t.name), tables.rule("frame", "VD-50"))
    state = module_roll(state, log, dice, tid)
    if frame == 0:
        state = catastrophe(state, log, dice, tid)
    return state


def module_roll(state: VoidState, log: Log, dice: Dice, tid: str) -> VoidState:
    t = ship(state, tid)
    face = roll_one(dice, tables.MODULE_DIE, msg("void_d20.roll.module_hit", "does the hit knock out a module of {ship}?",
                                                 ship=t.name), _MODULE_RULE)
    if face != 1:
        return state
    working = [("module", m.name) for m in t.modules if not m.out] + [("weapon", w.id) for w in t.weapons if not w.out]
    if not working:
        return state
    kind, key = working[roll_one(dice, len(working), _WHICH_MODULE, tables.rule("frame", "VD-51")) - 1] \
        if len(working) > 1 else working[0]
    return knock_out(state, log, dice, tid, kind, key, tables.rule("frame", "VD-51"))


_WHICH_MODULE: Final = msg("void_d20.roll.which_module", "which module")
_WHICH_GUN: Final = msg("void_d20.roll.which_gun", "which gun")


def _knocked_out(t: Ship, part: str) -> Message:
    return msg("void_d20.log.knocked_out", "{ship}'s {part} is knocked out.", ship=t.name, part=part)


def knock_out(state: VoidState, log: Log, dice: Dice, tid: str, kind: str, key: str, rule: str) -> VoidState:
    t = ship(state, tid)
    if kind == "module":
        log.say(_knocked_out(t, key), rule)
        return set_ship(state, tid, modules=tuple(evolve(m, out=True) if m.name == key else m for m in t.modules))
    name = next(w.name for w in t.weapons if w.id == key)
    log.say(_knocked_out(t, name), rule)
    return set_ship(state, tid, weapons=tuple(evolve(w, out=True) if w.id == key else w for w in t.weapons))


def catastrophe(state: VoidState, log: Log, dice: Dice, tid: str, *, called: bool = False) -> VoidState:
    """Roll d12 on the catastrophe table and apply its row (VD-52..VD-63, VD-N09)."""
    t = ship(state, tid)
    purpose = (msg("void_d20.roll.catastrophe_called", "catastrophe aboard {ship} (the GM calls for it)", ship=t.name)
               if called else msg("void_d20.roll.catastrophe", "catastrophe aboard {ship}", ship=t.name))
    face = roll_one(dice, 12, purpose, tables.rule("catastrophe", "VD-N09"))
    row = tables.catastrophe_row(face)
    log.say(msg("void_d20.log.catastrophe", "Catastrophe, d12 = {face}: {row} ({effect}).", face=face, row=row.words,
                effect=row.effect_words), tables.rule("catastrophe", row.number))
    return apply_catastrophe(state, log, dice, tid, row.key)


def apply_catastrophe(state: VoidState, log: Log, dice: Dice, tid: str, key: str) -> VoidState:
    t = ship(state, tid)
    if key == "reactor" and t.reactor is None:                            # VD-54
        rounds = roll_sum(dice, 1, 6, purpose=msg("void_d20.roll.reactor", "rounds until {ship}'s reactor explodes", ship=t.name),
                          rule=tables.rule("catastrophe", "VD-54"))
        state = set_ship(state, tid, reactor=rounds)
    elif key == "reboot":                                                 # VD-63
        rounds = roll_sum(dice, 1, 6, purpose=msg("void_d20.roll.reboot", "rounds {ship}'s systems stay down", ship=t.name),
                          rule=tables.rule("catastrophe", "VD-63"))
        state = set_ship(state, tid, reboot=max(t.reboot, rounds))
    elif key == "gun":                                                    # VD-58
        guns = [w for w in t.weapons if not w.out]
        if guns:
            gun = guns[roll_one(dice, len(guns), _WHICH_GUN, tables.rule("catastrophe", "VD-58")) - 1] if len(guns) > 1 else guns[0]
            state = knock_out(state, log, dice, tid, "weapon", gun.id, tables.rule("catastrophe", "VD-58"))
    t = ship(state, tid)
    if key not in t.catastrophes:
        state = set_ship(state, tid, catastrophes=t.catastrophes + (key,))
    return state


def explode(state: VoidState, log: Log, dice: Dice, tid: str) -> VoidState:
    """The reactor goes (VD-54, house rule): the ship is lost with everyone aboard; docked ships come loose."""
    t = ship(state, tid)
    log.say(msg("void_d20.log.reactor_explodes", "{ship}'s reactor explodes: the ship is lost with everyone aboard.", ship=t.name),
            tables.rule("catastrophe", "VD-54"))
    state = set_ship(state, tid, destroyed=True, frame=0, reactor=None)
    for c in state.combatants:
        if c.aboard == tid and c.alive:
            state = set_combatant(state, c.id, status="dead", hp=min(0, c.hp))
    for key, value in list(state.bands.items()):
        if value == "docked" and tid in key.split("|"):
            state = evolve(state, bands=set_key(state.bands, key, "close"))
    return state


# --- sensors, repair, command --------------------------------------------------------------


def scan_check(state: VoidState, s: Ship, t: Ship, *, dm=0, void=False) -> Check:
    return station_check(state, s, "sensors", msg("void_d20.check.scan", "{ship} scans {target}", ship=s.name, target=t.name),
                         tables.CHECK_TARGET, tables.rule("stations", "VD-39"), dm=dm, void=void)


def scan(state: VoidState, log: Log, dice: Dice, sid: str, tid: str, *, dm=0, void=False) -> VoidState:
    """Sensors: a Mind check finds a weakness: + WEAKNESS_BONUS to the next gunnery roll at it (VD-39)."""
    s, t = ship(state, sid), ship(state, tid)
    check = scan_check(state, s, t, dm=dm, void=void)
    if void:
        state = _spend_void_of(state, s, "sensors", void)
    if not core_check.roll(dice, check).success:
        log.say(msg("void_d20.log.scan_failed", "{ship}'s sensors find nothing on {target}.", ship=s.name, target=t.name),
                check.rule, side=s.side)
        return state
    log.say(msg("void_d20.log.weakness", "{ship}'s sensors find a weakness in {target}: +{bonus} to the next shot at it.",
                ship=s.name, target=t.name, bonus=tables.WEAKNESS_BONUS), check.rule, side=s.side)
    return set_ship(state, sid, weakness=s.weakness + (tid,)) if tid not in s.weakness else state


def repair_check(state: VoidState, s: Ship, what: str, *, dm=0, void=False) -> Check:
    return station_check(state, s, "engineer", msg("void_d20.check.repair", "{ship} repairs its {what}", ship=s.name, what=what),
                         tables.CHECK_TARGET, tables.rule("stations", "VD-40"), dm=dm, void=void)


def repair(state: VoidState, log: Log, dice: Dice, sid: str, what: str, *, dm=0, void=False) -> VoidState:
    """Repair: a Technology check spending one spare part; the frame gets d6 Condition back, or a
    module comes back on line (VD-40; the amount is a house rule)."""
    s = ship(state, sid)
    check = repair_check(state, s, what, dm=dm, void=void)
    if void:
        state = _spend_void_of(state, s, "engineer", void)
    state = set_ship(state, sid, spare_parts=s.spare_parts - 1)
    if not core_check.roll(dice, check).success:
        log.say(msg("void_d20.log.repair_failed", "{ship}'s repair of its {what} fails; a spare part is spent.", ship=s.name,
                    what=what), check.rule, side=s.side)
        return state
    s = ship(state, sid)
    if what == "frame":
        got = roll_sum(dice, 1, 6, purpose=msg("void_d20.roll.repair_frame", "Condition {ship}'s frame gets back", ship=s.name),
                       rule=check.rule)
        frame = min(s.max_frame, s.frame + got)
        log.say(msg("void_d20.log.frame_repaired", "{ship}'s frame gets {got} Condition back ({frame} of {max_frame}).",
                    ship=s.name, got=frame - s.frame, frame=frame, max_frame=s.max_frame), check.rule, side=s.side)
        return set_ship(state, sid, frame=frame)
    weapons = tuple(evolve(w, out=False) if w.name == what else w for w in s.weapons)
    modules = tuple(evolve(m, out=False) if m.name == what else m for m in s.modules)
    log.say(msg("void_d20.log.repaired", "{ship}'s {what} is back on line.", ship=s.name, what=what), check.rule, side=s.side)
    return set_ship(state, sid, weapons=weapons, modules=modules)


def command(state: VoidState, log: Log, dice: Dice, sid: str, station: str) -> VoidState:
    """Command: +1 to another station this round (VD-41)."""
    s = ship(state, sid)
    log.say(msg("void_d20.log.command", "{ship}'s captain urges the {station}: +{bonus} this round.", ship=s.name,
                station=tables.STATION_WORDS[station], bonus=tables.COMMAND_BONUS), tables.rule("stations", "VD-41"), side=s.side)
    return set_ship(state, sid, command=station)


# --- boarding -------------------------------------------------------------------------------


def boarders(state: VoidState, s: Ship) -> list[Combatant]:
    """Who goes across: the ship's standing crew aboard it, but the pilot stays at the helm
    when anyone else can go, and nobody while enemies are aboard (house rules)."""
    aboard = crew_aboard(state, s.id)
    side = s.side
    for c in aboard:
        if c.side != side:
            return []  # nobody leaves a ship that is being boarded: they fight for it (house rule)
    crew, going = [], []                # the standing crew, and those of them who go
    for c in aboard:
        if c.status == "ok":
            crew.append(c)
            if c.position != "pilot":
                going.append(c)
    return going or crew


def _names(people) -> Message | str:
    """"Ann", "Ann and Bo", "Ann, Bo and Cy"."""
    names = [c.name for c in people]
    if len(names) == 1:
        return names[0]
    return msg("void_d20.words.and", "{some} and {last}", some=", ".join(names[:-1]), last=names[-1])


def board_check(state: VoidState, s: Ship, t: Ship, method: str, *, dm=0, void=False) -> Check:
    """Breaching a door is a Body check, hacking the lock a Technology check (VD-48), by the best boarder."""
    ability = "body" if method == "breach" else "technology"
    party = boarders(state, s)
    best = max(party, key=lambda c: getattr(c, ability))
    rule = tables.rule("boarding", "VD-48")
    mods = [Modifier(msg("void_d20.modifier.crew_ability", "{name}'s {ability}", name=best.name,
                         ability=tables.ABILITY_WORDS[ability]), getattr(best, ability), rule), *circumstance(dm)]
    purpose = (msg("void_d20.check.breach", "{name} forces the lock of {target}", name=best.name, target=t.name)
               if method == "breach" else
               msg("void_d20.check.hack", "{name} hacks the lock of {target}", name=best.name, target=t.name))
    return d20_check(purpose, mods, tables.CHECK_TARGET, rule, void=void)


def board(state: VoidState, log: Log, dice: Dice, sid: str, tid: str, method: str, *, dm=0, void=False) -> VoidState:
    """At Docked the crew breaks in (VD-47, VD-48); inside it is ordinary corridor combat.
    A lock once broken stays open: crossing again needs no check (``method="open"``, house rule)."""
    s, t = ship(state, sid), ship(state, tid)
    if method == "open":
        party = boarders(state, s)
        for c in party:
            state = set_combatant(state, c.id, aboard=tid, cover="none")
        log.say(msgn("void_d20.log.cross", "{names} crosses into {target} through the broken lock.",
                     "{names} cross into {target} through the broken lock.", len(party), names=_names(party), target=t.name),
                tables.rule("boarding", "VD-47"))
        return state
    check = board_check(state, s, t, method, dm=dm, void=void)
    if void:
        ability = "body" if method == "breach" else "technology"
        best = max(boarders(state, s), key=lambda c: getattr(c, ability))
        if best.void > 0:
            state = set_combatant(state, best.id, void=best.void - 1)
    if not core_check.roll(dice, check).success:
        log.say(msg("void_d20.log.lock_holds", "The lock of {target} holds.", target=t.name), check.rule)
        return state
    party = boarders(state, s)
    for c in party:
        state = set_combatant(state, c.id, aboard=tid, cover="none")
    if tid not in ship(state, sid).breached:
        state = set_ship(state, sid, breached=ship(state, sid).breached + (tid,))
    log.say(msgn("void_d20.log.break_in", "{names} breaks into {target}: the fight moves to the corridors.",
                 "{names} break into {target}: the fight moves to the corridors.", len(party), names=_names(party),
                 target=t.name), tables.rule("boarding", "VD-47"))
    return state
