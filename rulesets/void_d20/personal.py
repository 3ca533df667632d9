"""Personal combat: attacks, cover and shields, criticals, Condition, death, healing, morale.

Seed sections: Броски атаки, Рискованные атаки, Критические попадания, Потеря состояния,
Укрытия и щиты, Враги в бою, Мораль, Смерть и исцеление (and RULES-NOTES void_d20).
Each function takes a state and returns a changed copy (and appends log lines).
Pure Python.
"""
from __future__ import annotations

from typing import Final

from rulesets.core import check as core_check
from rulesets.core.check import Check, Modifier, circumstance
from rulesets.core.dice import Dice
from rulesets.core.engine import Log
from rulesets.core.messages import Message, msg
from rulesets.core.state import plain_dicts

from . import tables, timers
from .checks import d20_check, roll_one, roll_sum
from .common import evolve, combatant, set_combatant
from .dice import parse_damage
from .model import OUT, STANDING, Combatant, Item, VoidState

# --- gear -----------------------------------------------------------------------------


#: bare fists, made once (a frozen value, shared; a plain attribute dict, as a setup's objects have)
_FISTS: Final = plain_dicts(Item("fists", tables.FISTS[0], "weapon", 0, 0, tables.FISTS[1], tables.FISTS[2]))


def weapon_of(c: Combatant) -> Item:
    """The weapon a combatant attacks with: the first weapon with Condition left, else fists."""
    for item in c.items:
        if item.kind == "weapon" and item.condition > 0:
            return item
    return _FISTS


def item_of(c: Combatant, kind: str) -> Item | None:
    for item in c.items:
        if item.kind == kind:
            return item
    return None


def _set_item(c: Combatant, item_id: str, **changes) -> tuple[Item, ...]:
    return tuple(evolve(i, **changes) if i.id == item_id else i for i in c.items)


def shield_up(c: Combatant) -> bool:
    shield = item_of(c, "shield")
    return shield is not None and shield.charges > 0 and shield.condition > 0


def defence_of(c: Combatant) -> tuple[int, tuple[tuple[str, int], ...]]:
    """The target's Defence Rating against an attack and its parts: base DR, armour, shield, cover
    (VD-13..VD-16): the target of an attack check."""
    parts = [("DR", c.dr)]
    armour = item_of(c, "armour")
    if armour is not None and armour.condition > 0 and armour.bonus:
        parts.append((armour.name, armour.bonus))
    if shield_up(c):
        parts.append(("energy shield", tables.SHIELD_DR))           # VD-16
    cover = tables.COVER[c.cover].dr_bonus
    if cover:
        parts.append((tables.COVER[c.cover].key + " cover", cover))  # VD-13, VD-14
    return sum(v for _, v in parts), tuple(parts)


def can_attack_from(attacker: Combatant) -> bool:
    """The attacker's part of :func:`can_attack`: in the fight, not in shock, not in full cover."""
    return attacker.status == "ok" and attacker.cover != "full"


def can_attack(attacker: Combatant, target: Combatant) -> bool:
    """Full cover: no attack possible, at or from it (VD-15 and house rule)."""
    return (can_attack_from(attacker) and target.status in STANDING and target.side != attacker.side
            and target.aboard == attacker.aboard and target.cover != "full")


# --- the attack -----------------------------------------------------------------------

_ATTACK_RULE: Final = tables.rule("attack", "VD-05")
_ENEMY_RULE: Final = tables.rule("enemies", "VD-17")
_DAMAGE_RULE: Final = tables.rule("attack", "VD-06")
_RISKY_RULE: Final = tables.rule("risky", "VD-N03")
_WEAR_RULE: Final = tables.rule("condition", "VD-11")
_DEATH_RULE: Final = tables.rule("death", "VD-21")
_WHICH_ITEM: Final = msg("void_d20.roll.which_item", "which item")
_ENEMY_ATTACK: Final = msg("void_d20.modifier.enemy_attack", "attack")


def attack_check(attacker: Combatant, target: Combatant, *, void: bool = False, dm: int = 0,
                 answer: bool = False, weapon: Item | None = None) -> Check:
    """1d20 + the weapon's ability (or an enemy's attack modifier) against the target's DR (VD-05, VD-06);
    a natural 20 hits, a natural 1 misses (VD-N06).
    ``weapon``: :func:`weapon_of` the attacker, when the caller has it already."""
    if weapon is None:
        weapon = weapon_of(attacker)
    if attacker.kind == "enemy":
        mods = [Modifier(_ENEMY_ATTACK, attacker.attack, _ENEMY_RULE)]
    else:
        ability = tables.ATTACK_ABILITY[weapon.attack]
        mods = [Modifier(tables.ABILITY_WORDS[ability], getattr(attacker, ability), _ATTACK_RULE)]
    mods.extend(circumstance(dm))
    target_dr = defence_of(target)[0]
    if answer:
        purpose = msg("void_d20.check.answer", "{attacker} answers {target} with {weapon}", attacker=attacker.name,
                      target=target.name, weapon=weapon.name)
    else:
        purpose = attack_words(attacker, target, weapon)
    return d20_check(purpose, mods, target_dr, _ATTACK_RULE, attack=True, void=void)


def attack_words(attacker: Combatant, target: Combatant, weapon: Item) -> Message:
    """The attack in words: its check's purpose and the action's label."""
    return msg("void_d20.check.attack", "{attacker} attacks {target} with {weapon}", attacker=attacker.name,
               target=target.name, weapon=weapon.name)


def damage_dice(attacker: Combatant, risky: bool, weapon: Item | None = None) -> tuple[int, int, int]:
    """(count, sides, plus) of the damage roll: a risky attack adds one die (VD-N03).
    ``weapon``: :func:`weapon_of` the attacker, when the caller has it already."""
    dd = parse_damage((weapon or weapon_of(attacker)).damage)
    return dd.count + (1 if risky else 0), dd.sides, dd.plus


def attack(state: VoidState, log: Log, dice: Dice, attacker_id: str, target_id: str, *,
           risky: bool = False, void: bool = False, dm: int = 0, answer: bool = False) -> VoidState:
    """One attack, with everything it sets off: criticals, shield charges, wounds, the answer to a risky miss."""
    attacker = combatant(state, attacker_id)
    target = combatant(state, target_id)
    if void:
        state = spend_void(state, attacker_id)
    weapon = weapon_of(attacker)
    check = attack_check(attacker, target, void=void, dm=dm, answer=answer, weapon=weapon)
    result = core_check.roll(dice, check)
    if result.fumble:
        state = fumble(state, log, dice, attacker, weapon)
    if not result.success:
        log.say(msg("void_d20.log.miss", "{attacker} misses {target} ({total} against DR {dr}).", attacker=attacker.name,
                    target=target.name, total=result.total, dr=check.target), check.rule)
        if risky:
            state = answer_risky(state, log, dice, attacker_id, target_id)
        return state
    count, sides, plus = damage_dice(attacker, risky, weapon)
    damage = roll_sum(dice, count, sides, plus,
                      purpose=msg("void_d20.roll.risky_damage", "damage of {weapon} (risky: +1 die)", weapon=weapon.name)
                      if risky else msg("void_d20.roll.damage", "damage of {weapon}", weapon=weapon.name),
                      rule=_RISKY_RULE if risky else _DAMAGE_RULE)
    if result.critical:
        damage *= 2                                                   # VD-07: roll once, double
    damage = max(0, damage)
    if result.critical:
        log.say(msg("void_d20.log.critical", "Critical hit! {attacker} hits {target} for {damage} (doubled). The GM describes "
                    "something special.", attacker=attacker.name, target=target.name, damage=damage),
                tables.rule("critical", "VD-07"))
    else:
        log.say(msg("void_d20.log.hit", "{attacker} hits {target} for {damage}.", attacker=attacker.name, target=target.name,
                    damage=damage), tables.rule("attack", "VD-06"))
    if shield_up(target):
        state = drain_shield(state, log, dice, target_id)
    return wound(state, log, dice, target_id, damage)


def fumble(state: VoidState, log: Log, dice: Dice, attacker: Combatant, weapon: Item) -> VoidState:
    """A natural 1: the weapon loses 1 Condition and the GM may add a complication (VD-09, VD-10)."""
    if attacker.kind == "character" and weapon.id != "fists":
        left = max(0, weapon.condition - 1)
        state = set_combatant(state, attacker.id, items=_set_item(attacker, weapon.id, condition=left))
        log.say(msg("void_d20.log.fumble_broken", "Natural 1: {attacker}'s {weapon} loses 1 Condition ({left} left; it is "
                    "broken). The GM may add a complication.", attacker=attacker.name, weapon=weapon.name, left=left)
                if left == 0 else
                msg("void_d20.log.fumble_worn", "Natural 1: {attacker}'s {weapon} loses 1 Condition ({left} left). The GM may "
                    "add a complication.", attacker=attacker.name, weapon=weapon.name, left=left),
                tables.rule("critical", "VD-09"))
    else:
        log.say(msg("void_d20.log.fumble", "Natural 1: {attacker} fumbles. The GM may add a complication.",
                    attacker=attacker.name), tables.rule("critical", "VD-10"))
    return state


def answer_risky(state: VoidState, log: Log, dice: Dice, attacker_id: str, target_id: str) -> VoidState:
    """A risky attack that misses: the target answers at once with an attack of its own (VD-N03)."""
    attacker = combatant(state, attacker_id)
    target = combatant(state, target_id)
    if not can_attack(target, attacker):
        log.say(msg("void_d20.log.no_answer", "{target} cannot answer the risky attack.", target=target.name),
                tables.rule("risky", "VD-N03"))
        return state
    log.say(msg("void_d20.log.answer", "The risky attack missed: {target} answers at once.", target=target.name),
            tables.rule("risky", "VD-N03"))
    return attack(state, log, dice, target_id, attacker_id, answer=True)


def drain_shield(state: VoidState, log: Log, dice: Dice, cid: str) -> VoidState:
    """An energy shield loses a charge with every hit; out of charges it switches off (VD-16)."""
    c = combatant(state, cid)
    shield = item_of(c, "shield")
    assert shield is not None                  # only a shielded person's hits drain a shield
    left = shield.charges - 1
    log.say(msg("void_d20.log.shield_off", "{name}'s energy shield loses a charge ({left} left; it switches off).",
                name=c.name, left=left) if left == 0 else
            msg("void_d20.log.shield", "{name}'s energy shield loses a charge ({left} left).", name=c.name, left=left),
            tables.rule("cover", "VD-16"))
    return set_combatant(state, cid, items=_set_item(c, shield.id, charges=left))


def spend_void(state: VoidState, cid: str) -> VoidState:
    c = combatant(state, cid)
    return set_combatant(state, cid, void=c.void - 1)


# --- wounds, Condition, death ------------------------------------------------------------


def wound(state: VoidState, log: Log, dice: Dice, cid: str, damage: int) -> VoidState:
    """Take ``damage`` off HP; a character rolls for Condition loss and, at 0 HP, on the death table."""
    c = combatant(state, cid)
    hp = c.hp - damage
    if c.kind == "character":
        state = set_combatant(state, cid, hp=hp)
        if damage > 0:
            state = wear(state, log, dice, cid)
        if hp <= 0:
            state = death_roll(state, log, dice, cid)
    elif hp > 0:
        state = set_combatant(state, cid, hp=hp)
    else:
        state = set_combatant(state, cid, hp=0, status="dead")           # house rule: enemies die at 0
        log.say(msg("void_d20.log.down_for_good", "{name} goes down for good.", name=c.name), tables.rule("enemies", "VD-17"))
    if c.kind == "enemy" and c.squad:
        state = morale_trigger(state, log, dice, c.squad)
    return state


def wear(state: VoidState, log: Log, dice: Dice, cid: str) -> VoidState:
    """Wounded: 1d6, on a 1 a random item loses 1 Condition (VD-11)."""
    c = combatant(state, cid)
    face = roll_one(dice, tables.WEAR_DIE, msg("void_d20.roll.wear", "{name} is wounded: does gear take damage?", name=c.name),
                    _WEAR_RULE)
    if face != 1:
        return state
    worn = [i for i in c.items if i.condition > 0]
    if not worn:
        log.say(msg("void_d20.log.no_gear", "{name} has no gear left to damage.", name=c.name), tables.rule("condition", "VD-11"))
        return state
    pick = worn[roll_one(dice, len(worn), _WHICH_ITEM, tables.rule("condition", "VD-11")) - 1] if len(worn) > 1 else worn[0]
    left = pick.condition - 1
    log.say(msg("void_d20.log.worn", "{name}'s {item} loses 1 Condition ({left} left).", name=c.name, item=pick.name, left=left),
            tables.rule("condition", "VD-11"))
    return set_combatant(state, cid, items=_set_item(c, pick.id, condition=left))


def death_roll(state: VoidState, log: Log, dice: Dice, cid: str) -> VoidState:
    """0 HP or below: not dead at once; roll d20 on the death-in-space table (VD-21..VD-29)."""
    c = combatant(state, cid)
    face = roll_one(dice, 20, msg("void_d20.roll.death", "{name} at {hp} HP: the death table", name=c.name, hp=c.hp), _DEATH_RULE)
    row = tables.death_row(face)
    log.say(msg("void_d20.log.death_table", "Death table, d20 = {face}: {row}.", face=face, row=row.words),
            tables.rule("death", row.number))
    return apply_death_row(state, log, dice, cid, row.key)


def apply_death_row(state: VoidState, log: Log, dice: Dice, cid: str, key: str) -> VoidState:
    c = combatant(state, cid)
    if key == "dead":                                                      # VD-22
        return set_combatant(state, cid, hp=0, status="dead", timer=0)
    if key == "bleeding":                                                  # VD-23
        return set_combatant(state, cid, hp=0, status="bleeding", timer=tables.BLEED_ROUNDS)
    if key == "unconscious":                                               # VD-24
        rounds = roll_sum(dice, 1, 6, purpose=msg("void_d20.roll.unconscious", "{name} is unconscious for d6 rounds", name=c.name),
                          rule=tables.rule("death", "VD-24"))
        # the next d6 turns lost, this round's among them when it is still to come (timers.py)
        return set_combatant(state, cid, hp=1, status="unconscious", timer=timers.stored(state, c, "unconscious", rounds))
    if key == "wounded":                                                   # VD-25
        return set_combatant(state, cid, hp=1, notes=_noted(c, "hampered tomorrow"))
    if key == "shock":                                                     # VD-26
        # the next 2 turns lost, this round's among them when it is still to come (timers.py)
        return set_combatant(state, cid, hp=1, status="shock", timer=timers.stored(state, c, "shock", tables.SHOCK_ROUNDS))
    if key == "scratched":                                                 # VD-27
        hp = roll_sum(dice, 1, 4, purpose=msg("void_d20.roll.scratched", "{name}'s HP", name=c.name), rule=tables.rule("death", "VD-27"))
        return set_combatant(state, cid, hp=hp)
    if key == "miracle":                                                   # VD-28, VD-N05
        return set_combatant(state, cid, hp=c.max_hp, void=min(tables.MAX_VOID_POINTS, c.void + 1))
    # "vision", VD-29: full HP and an omen from the GM
    log.say(msg("void_d20.log.omen", "The GM gives {name} an omen.", name=c.name), tables.rule("death", "VD-29"), gm_only=True)
    return set_combatant(state, cid, hp=c.max_hp, notes=_noted(c, "omen from the GM"))


def _noted(c: Combatant, note: str) -> tuple[str, ...]:
    return c.notes if note in c.notes else c.notes + (note,)


# --- healing --------------------------------------------------------------------------


def use_medkit(state: VoidState, log: Log, dice: Dice, user_id: str, target_id: str) -> VoidState:
    """A medkit restores d6+1 HP and spends one charge (VD-30); it stops a bleeding-out (VD-23)."""
    user = combatant(state, user_id)
    kit = item_of(user, "medkit")
    assert kit is not None                     # only a person with a medkit uses one (can_use_medkit)
    state = set_combatant(state, user_id, items=_set_item(user, kit.id, charges=kit.charges - 1))
    target = combatant(state, target_id)
    healed = roll_sum(dice, 1, 6, 1, purpose=msg("void_d20.roll.medkit", "{user}'s medkit on {target}", user=user.name,
                                                 target=target.name), rule=tables.rule("healing", "VD-30"))
    hp = min(target.max_hp, max(0, target.hp) + healed)
    changes: dict[str, object] = {"hp": hp}
    said = {"user": user.name, "target": target.name, "healed": healed, "hp": hp, "max_hp": target.max_hp}
    if target.status == "bleeding":
        changes.update(status="ok", timer=0)
        line = msg("void_d20.log.medkit_bleeding", "{user} uses a medkit on {target}: +{healed} HP ({hp} of {max_hp}), "
                   "the bleeding stops.", **said)
    else:
        line = msg("void_d20.log.medkit", "{user} uses a medkit on {target}: +{healed} HP ({hp} of {max_hp}).", **said)
    log.say(line, tables.rule("healing", "VD-30"))
    return set_combatant(state, target_id, **changes)


def rest(state: VoidState, log: Log, dice: Dice, kind: str) -> VoidState:
    """Healing outside the fight, for every living character: the hub, the medbay, a week (VD-31..VD-33)."""
    heal = tables.HEALING[kind]
    for c in state.combatants:
        if c.kind != "character" or not c.alive:
            continue
        if kind == "hub":
            state = set_combatant(state, c.id, hp=c.max_hp)
        elif kind == "medbay":
            assert heal.dice is not None               # the medbay rolls its dice (tables.HEALING)
            got = roll_sum(dice, *heal.dice, purpose=msg("void_d20.roll.medbay", "medbay for {name}", name=c.name),
                           rule=tables.rule("healing", heal.number))
            state = set_combatant(state, c.id, hp=min(c.max_hp, max(0, c.hp) + got))
        elif kind == "week":
            state = set_combatant(state, c.id, notes=tuple(n for n in c.notes if n not in tables.LONG_TERM_NOTES))
    log.say(msg("void_d20.log.rest", "{what}.", what=heal.words), tables.rule("healing", heal.number))
    return state


# --- moves ----------------------------------------------------------------------------


def take_cover(state: VoidState, log: Log, dice: Dice, cid: str, level: str) -> VoidState:
    """A move into (or out of) cover the GM says is there (VD-13..VD-15)."""
    c = combatant(state, cid)
    log.say(msg("void_d20.log.cover", "{name} moves: {cover}.", name=c.name, cover=tables.COVER[level].words), tables.rule("cover"))
    return set_combatant(state, cid, cover=level)


# --- morale ---------------------------------------------------------------------------


def squad_members(state: VoidState, squad: str) -> list[Combatant]:
    return [c for c in state.combatants if c.squad == squad and c.kind == "enemy"]


def morale_due(members: list[Combatant]) -> bool:
    """Half the squad's HP or half its members lost (VD-19)."""
    total = sum(m.max_hp for m in members)
    left = sum(max(0, m.hp) for m in members if m.alive)
    down = sum(1 for m in members if not m.standing)
    return left * 2 <= total or down * 2 >= len(members)


def morale_trigger(state: VoidState, log: Log, dice: Dice, squad: str) -> VoidState:
    if squad in state.morale_checked:
        return state
    # squad_members, whether any of them stands, and morale_due, in one pass over the people
    count = total = left = down = 0
    for m in state.combatants:
        if m.squad == squad and m.kind == "enemy":
            count += 1
            total += m.max_hp
            status = m.status
            if status not in OUT and m.hp > 0:                          # alive: max(0, hp)
                left += m.hp
            if status not in STANDING:
                down += 1
    if down == count or not (left * 2 <= total or down * 2 >= count):
        return state

    state = evolve(state, morale_checked=state.morale_checked + (squad,))
    return morale_roll(state, log, dice, squad)


def morale_roll(state: VoidState, log: Log, dice: Dice, squad: str) -> VoidState:
    members = [m for m in squad_members(state, squad) if m.standing]
    morale = members[0].morale
    name = members[0].name.rsplit(" ", 1)[0] if len(members) > 1 or members[0].id != squad else members[0].name
    total = roll_sum(dice, 2, 6, purpose=msg("void_d20.roll.morale", "morale of {name} (morale {morale})", name=name,
                                            morale=morale), rule=tables.rule("morale", "VD-N02"))
    if total > morale:
        for m in members:
            state = set_combatant(state, m.id, status="fled")
        log.say(msg("void_d20.log.morale_breaks", "Morale breaks: {name} flee or surrender, as the GM tells it ({total} against "
                    "morale {morale}).", name=name, total=total, morale=morale), tables.rule("morale", "VD-N02"))
    else:
        log.say(msg("void_d20.log.morale_holds", "{name} hold ({total} against morale {morale}).", name=name, total=total,
                    morale=morale), tables.rule("morale", "VD-N02"))
    return state

