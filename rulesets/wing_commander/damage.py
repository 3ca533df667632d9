"""Damage: rolling it, shields then hull, the first-damage roll and the attack-fumble tables.

Sections: 2.1.6 Schilde und Panzerung, 2.1.7 Der Erstschadenswurf, 2.1.8 Die
Erstschadenstabelle, 2.1.9 (criticals roll damage twice); the fumble tables of RULES-NOTES.
Each function takes a state and the step's log (a core ``Log``: it keeps the lines, messages,
only when someone reads them), says what happens into the log and returns a changed copy.
"""
from __future__ import annotations

from rulesets.core.citation import cite
from rulesets.core.engine import Log
from rulesets.core.messages import Message, english, msg
from rulesets.core.state import clone

from . import checks, tables
from .state import DogfightState, Ship, Weapon, with_ship

RULE_SHIELDS = cite("2.1.6 Shields and armour", "2.1.6 Schilde und Panzerung")
DAMAGE_BONUS = msg("wing_commander.modifier.damage_bonus", "damage bonus")
#: the missile fumbles that blow up on the own ship (RULES-NOTES), as the damage's cause
PREMATURE_BLAST = {
    "heavy_blast": msg("wing_commander.cause.heavy_blast", "Premature blast (safety fails, heavy premature blast)"),
    "light_blast": msg("wing_commander.cause.light_blast", "Premature blast (light premature blast)"),
}


def roll_damage(dice, attacker: Ship, weapon: Weapon, target_name: str, times: int = 1) -> int:
    """The weapon's damage dice, rolled ``times`` times and added (2.1.9: a critical rolls twice).
    A power-supply fault halves the weapon's damage, rounded down (decision)."""
    total = 0
    for attempt in range(times):
        if times > 1:
            purpose = msg("wing_commander.roll.damage_of", "{weapon} damage to {target} (roll {n} of {times})",
                          weapon=weapon.name, target=target_name, n=attempt + 1, times=times)
        else:
            purpose = msg("wing_commander.roll.damage", "{weapon} damage to {target}", weapon=weapon.name,
                          target=target_name)
        rolled = dice.roll(weapon.count, weapon.sides, modifiers=((DAMAGE_BONUS, weapon.bonus),),
                           purpose=purpose, rule=RULE_SHIELDS)
        total += max(0, rolled.total)
    if weapon.halved:
        total //= 2
    return total


def apply_damage(state: DogfightState, ship_id: str, amount: int, dice, cause: Message, log: Log) -> DogfightState:
    """Shields first, then hull (2.1.6); hull 0 or less destroys the ship and ejects the pilot; the
    first hull damage of the encounter rolls on the first-damage table (2.1.7, RULES-NOTES)."""
    ship = state.ship(ship_id)
    on_shields = min(ship.shields, amount)
    on_hull = amount - on_shields
    hull = ship.hull - on_hull
    changes = {"shields": ship.shields - on_shields, "hull": hull}
    if hull <= 0:
        changes["status"] = "destroyed"
        changes["hull"] = 0
    state = with_ship(state, ship_id, **changes)
    params = dict(cause=cause, amount=amount, ship=ship.name, shields=on_shields, shields_left=ship.shields - on_shields,
                  hull=on_hull, hull_left=max(0, hull))
    if on_shields and on_hull:
        line = msg("wing_commander.log.damage_both", "{cause}: {amount} damage to {ship}: {shields} on the shields "
                   "({shields_left} left), {hull} on the hull ({hull_left} left).", **params)
    elif on_shields:
        line = msg("wing_commander.log.damage_shields", "{cause}: {amount} damage to {ship}: {shields} on the shields "
                   "({shields_left} left).", **params)
    elif on_hull:
        line = msg("wing_commander.log.damage_hull", "{cause}: {amount} damage to {ship}: {hull} on the hull "
                   "({hull_left} left).", **params)
    else:
        line = msg("wing_commander.log.damage_none", "{cause}: {amount} damage to {ship}.", **params)
    log.say(line, RULE_SHIELDS)
    if hull <= 0:
        log.say(msg("wing_commander.log.destroyed", "{ship} is destroyed; the escape pod throws {pilot} into space.",
                    ship=ship.name, pilot=ship.pilot.name), RULE_SHIELDS)
    if on_hull > 0 and hull > 0 and not ship.first_damage_done:
        state = first_damage(state, ship_id, dice, log)
    return state


def first_damage(state: DogfightState, ship_id: str, dice, log: Log) -> DogfightState:
    """2.1.7/2.1.8: roll 2W10 (1W20 Wild Card) on the first-damage table, once per encounter."""
    ship = state.ship(ship_id)
    check = checks.table_check(ship, tables.FIRST_DAMAGE, msg("wing_commander.roll.first_damage",
                                                              "First damage to {ship}", ship=ship.name))
    rolled = checks.roll(dice, check, tables.FIRST_DAMAGE)
    row = tables.FIRST_DAMAGE.lookup(rolled.natural)
    changes: dict = {"first_damage_done": True}
    if row.key == "shield_generator":
        changes["shield_generator"] = False
    elif row.key == "thrusters_heavy":
        changes["thrusters"] = ship.thrusters + 2
    elif row.key == "thrusters_light":
        changes["thrusters"] = ship.thrusters + 1
    elif row.key == "gun_alignment":
        changes["gun_alignment"] = True
    state = with_ship(state, ship_id, **changes)
    log.say(msg("wing_commander.log.first_damage", "{purpose}: {dice} = {natural}, {title} {effect}",
                purpose=check.purpose, dice=checks.dice_words(check), natural=rolled.natural, title=row.title,
                effect=row.effect), tables.FIRST_DAMAGE.section)
    return state


def _set_weapons(state: DogfightState, ship_id: str, kinds: tuple[str, ...], **changes) -> DogfightState:
    ship = state.ship(ship_id)
    weapons = tuple(clone(w, **changes) if w.kind in kinds else w for w in ship.weapons)
    return with_ship(state, ship_id, weapons=weapons)


def attack_fumble(state: DogfightState, ship_id: str, weapon: Weapon, dice, log: Log) -> DogfightState:
    """2.1.9 Der Patzer: an attack fumble rolls on the weapon's fumble table (RULES-NOTES)."""
    ship = state.ship(ship_id)
    table = tables.FUMBLE_TABLES[weapon.kind]
    purpose = msg("wing_commander.roll.fumble_table", "{ship}'s {weapon} fumble", ship=ship.name, weapon=weapon.name)
    check = checks.table_check(ship, table, purpose, checks.pilot_for(ship, weapon))
    rolled = checks.roll(dice, check, table)
    row = table.lookup(rolled.natural)
    rule = f"{checks.RULE_FUMBLE}; {english(table.name)} {row.band}"  # a citation: the English words
    log.say(msg("wing_commander.log.fumble_table", "Fumble! {table}: {dice} = {natural}, {title}: {effect}",
                table=table.name, dice=checks.dice_words(check), natural=rolled.natural, title=row.title,
                effect=row.effect), rule)
    if weapon.kind in ("gun", "turret"):
        kinds = (weapon.kind,)
        if row.key == "leads_burnt":
            state = _set_weapons(state, ship_id, kinds, broken=True)
        elif row.key == "power_fault":
            state = _set_weapons(state, ship_id, kinds, halved=True)
        elif row.key == "heavy_overheat":
            state = _set_weapons(state, ship_id, kinds, out_until=state.round + 2)
        else:
            state = _set_weapons(state, ship_id, kinds, out_until=state.round + 1)
    elif weapon.kind == "missile":
        if row.key == "launch_circuits":
            state = _set_weapons(state, ship_id, ("missile",), broken=True)
        elif row.key == "targeting":
            state = _stray_missile(state, ship, weapon, dice, log)
        else:
            full = roll_damage(dice, ship, weapon, ship.name)
            share = full // 2 if row.key == "heavy_blast" else full // 4
            state = apply_damage(state, ship_id, share, dice, PREMATURE_BLAST[row.key], log)
    elif weapon.kind == "torpedo" and row.key == "launch_circuits":
        state = _set_weapons(state, ship_id, ("torpedo",), broken=True)
    return state


STRAY_TARGET = msg("wing_commander.roll.stray_target", "the stray missile's new target")


def _stray_missile(state: DogfightState, firer: Ship, weapon: Weapon, dice, log: Log) -> DogfightState:
    """Missile fumble 7-10: the missile picks a random ship, friend or foe, and hits it.
    Decision: any other ship still in the fight, each as likely (one die of that many sides)."""
    others = [s for s in state.ships if s.in_fight and s.id != firer.id]
    if not others:
        return state
    pick = dice.faces(1, len(others), STRAY_TARGET, checks.RULE_FUMBLE)[0] if len(others) > 1 else 1
    victim = others[pick - 1]
    log.say(msg("wing_commander.log.stray_missile", "The missile turns on {ship} and hits it.", ship=victim.name),
            checks.RULE_FUMBLE)
    amount = roll_damage(dice, firer, weapon, victim.name)
    cause = msg("wing_commander.cause.stray_missile", "{ship}'s stray {weapon}", ship=firer.name, weapon=weapon.name)
    return apply_damage(state, victim.id, amount, dice, cause, log)
