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
from rulesets.core.messages import msg
from rulesets.core.state import plain_dicts

from . import tables, timers
from .checks import d20_check, roll_one, roll_sum
from .common import evolve, combatant, say, set_combatant
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


def attack_check(attacker: Combatant, target: Combatant, *, void: bool = False, dm: int = 0,
                 answer: bool = False, weapon: Item | None = None) -> Check:
    """1d20 + the weapon's ability (or an enemy's attack modifier) against the target's DR (VD-05, VD-06);
    a natural 20 hits, a natural 1 misses (VD-N06).
    ``weapon``: :func:`weapon_of` the attacker, when the caller has it already."""
    if weapon is None:
        weapon = weapon_of(attacker)
    if attacker.kind == "enemy":
        mods = [Modifier(msg("void_d20.modifier.enemy_attack", "attack"), attacker.attack, _ENEMY_RULE)]
    else:
        ability = tables.ATTACK_ABILITY[weapon.attack]
        mods = [Modifier(tables.ABILITY_LABEL[ability], getattr(attacker, ability), _ATTACK_RULE)]
    mods.extend(circumstance(dm))
    target_dr = defence_of(target)[0]
    names = {"attacker": attacker.name, "target": target.name, "weapon": weapon.name}
    purpose = (msg("void_d20.check.answer", "{attacker} answers {target} with {weapon}", **names) if answer else
               msg("void_d20.check.attack", "{attacker} attacks {target} with {weapon}", **names))
    return d20_check(purpose, mods, target_dr, _ATTACK_RULE, attack=True, void=void)


def damage_dice(attacker: Combatant, risky: bool, weapon: Item | None = None) -> tuple[int, int, int]:
    """(count, sides, plus) of the damage roll: a risky attack adds one die (VD-N03).
    ``weapon``: :func:`weapon_of` the attacker, when the caller has it already."""
    dd = parse_damage((weapon or weapon_of(attacker)).damage)
    return dd.count + (1 if risky else 0), dd.sides, dd.plus


def attack(state: VoidState, log: list, dice: Dice, attacker_id: str, target_id: str, *,
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
        if dice.recording:
            say(log, dice, lambda: f"{attacker.name} misses {target.name} ({result.total} against DR {check.target}).",
                check.rule)
        if risky:
            state = answer_risky(state, log, dice, attacker_id, target_id)
        return state
    count, sides, plus = damage_dice(attacker, risky, weapon)
    if dice.recording:
        damage = roll_sum(dice, count, sides, plus,
                          purpose=lambda: f"damage of {weapon.name}" + (" (risky: +1 die)" if risky else ""),
                          rule=_RISKY_RULE if risky else _DAMAGE_RULE)
    else:
        damage = roll_sum(dice, count, sides, plus)
    if result.critical:
        damage *= 2                                                   # VD-07: roll once, double
    damage = max(0, damage)
    if dice.recording:
        say(log, dice, lambda: (f"Critical hit! {attacker.name} hits {target.name} for {damage} (doubled). "
                                "The GM describes something special." if result.critical
                                else f"{attacker.name} hits {target.name} for {damage}."),
            tables.rule("critical", "VD-07") if result.critical else tables.rule("attack", "VD-06"))
    if shield_up(target):
        state = drain_shield(state, log, dice, target_id)
    return wound(state, log, dice, target_id, damage)


def fumble(state: VoidState, log: list, dice: Dice, attacker: Combatant, weapon: Item) -> VoidState:
    """A natural 1: the weapon loses 1 Condition and the GM may add a complication (VD-09, VD-10)."""
    if attacker.kind == "character" and weapon.id != "fists":
        left = max(0, weapon.condition - 1)
        state = set_combatant(state, attacker.id, items=_set_item(attacker, weapon.id, condition=left))
        if dice.recording:
            say(log, dice, lambda: f"Natural 1: {attacker.name}'s {weapon.name} loses 1 Condition ({left} left"
                                   + ("; it is broken" if left == 0 else "") + "). The GM may add a complication.",
                tables.rule("critical", "VD-09"))
    else:
        if dice.recording:
            say(log, dice, f"Natural 1: {attacker.name} fumbles. The GM may add a complication.",
                tables.rule("critical", "VD-10"))
    return state


def answer_risky(state: VoidState, log: list, dice: Dice, attacker_id: str, target_id: str) -> VoidState:
    """A risky attack that misses: the target answers at once with an attack of its own (VD-N03)."""
    attacker = combatant(state, attacker_id)
    target = combatant(state, target_id)
    if not can_attack(target, attacker):
        if dice.recording:
            say(log, dice, f"{target.name} cannot answer the risky attack.", tables.rule("risky", "VD-N03"))
        return state
    if dice.recording:
        say(log, dice, f"The risky attack missed: {target.name} answers at once.", tables.rule("risky", "VD-N03"))
    return attack(state, log, dice, target_id, attacker_id, answer=True)


def drain_shield(state: VoidState, log: list, dice: Dice, cid: str) -> VoidState:
    """An energy shield loses a charge with every hit; out of charges it switches off (VD-16)."""
    c = combatant(state, cid)
    shield = item_of(c, "shield")
    assert shield is not None                  # only a shielded person's hits drain a shield
    left = shield.charges - 1
    if dice.recording:
        say(log, dice, lambda: f"{c.name}'s energy shield loses a charge ({left} left"
                               + ("; it switches off" if left == 0 else "") + ").", tables.rule("cover", "VD-16"))
    return set_combatant(state, cid, items=_set_item(c, shield.id, charges=left))


def spend_void(state: VoidState, cid: str) -> VoidState:
    c = combatant(state, cid)
    return set_combatant(state, cid, void=c.void - 1)


# --- wounds, Condition, death ------------------------------------------------------------


def wound(state: VoidState, log: list, dice: Dice, cid: str, damage: int) -> VoidState:
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
        if dice.recording:
            say(log, dice, f"{c.name} goes down for good.", tables.rule("enemies", "VD-17"))
    if c.kind == "enemy" and c.squad:
        state = morale_trigger(state, log, dice, c.squad)
    return state


def wear(state: VoidState, log: list, dice: Dice, cid: str) -> VoidState:
    """Wounded: 1d6, on a 1 a random item loses 1 Condition (VD-11)."""
    c = combatant(state, cid)
    face = roll_one(dice, tables.WEAR_DIE, (lambda: f"{c.name} is wounded: does gear take damage?") if dice.recording else "",
                    _WEAR_RULE)
    if face != 1:
        return state
    worn = [i for i in c.items if i.condition > 0]
    if not worn:
        if dice.recording:
            say(log, dice, f"{c.name} has no gear left to damage.", tables.rule("condition", "VD-11"))
        return state
    pick = worn[roll_one(dice, len(worn), "which item", tables.rule("condition", "VD-11")) - 1] if len(worn) > 1 else worn[0]
    left = pick.condition - 1
    if dice.recording:
        say(log, dice, lambda: f"{c.name}'s {pick.name} loses 1 Condition ({left} left).", tables.rule("condition", "VD-11"))
    return set_combatant(state, cid, items=_set_item(c, pick.id, condition=left))


def death_roll(state: VoidState, log: list, dice: Dice, cid: str) -> VoidState:
    """0 HP or below: not dead at once; roll d20 on the death-in-space table (VD-21..VD-29)."""
    c = combatant(state, cid)
    face = roll_one(dice, 20, (lambda: f"{c.name} at {c.hp} HP: the death table") if dice.recording else "", _DEATH_RULE)
    row = tables.death_row(face)
    if dice.recording:
        say(log, dice, lambda: f"Death table, d20 = {face}: {row.label}.", tables.rule("death", row.number))
    return apply_death_row(state, log, dice, cid, row.key)


def apply_death_row(state: VoidState, log: list, dice: Dice, cid: str, key: str) -> VoidState:
    c = combatant(state, cid)
    if key == "dead":                                                      # VD-22
        return set_combatant(state, cid, hp=0, status="dead", timer=0)
    if key == "bleeding":                                                  # VD-23
        return set_combatant(state, cid, hp=0, status="bleeding", timer=tables.BLEED_ROUNDS)
    if key == "unconscious":                                               # VD-24
        rounds = roll_sum(dice, 1, 6, purpose=lambda: f"{c.name} is unconscious for d6 rounds", rule=tables.rule("death", "VD-24"))
        # the next d6 turns lost, this round's among them when it is still to come (timers.py)
        return set_combatant(state, cid, hp=1, status="unconscious", timer=timers.stored(state, c, "unconscious", rounds))
    if key == "wounded":                                                   # VD-25
        return set_combatant(state, cid, hp=1, notes=_noted(c, "hampered tomorrow"))
    if key == "shock":                                                     # VD-26
        # the next 2 turns lost, this round's among them when it is still to come (timers.py)
        return set_combatant(state, cid, hp=1, status="shock", timer=timers.stored(state, c, "shock", tables.SHOCK_ROUNDS))
    if key == "scratched":                                                 # VD-27
        hp = roll_sum(dice, 1, 4, purpose=lambda: f"{c.name}'s HP", rule=tables.rule("death", "VD-27"))
        return set_combatant(state, cid, hp=hp)
    if key == "miracle":                                                   # VD-28, VD-N05
        return set_combatant(state, cid, hp=c.max_hp, void=min(tables.MAX_VOID_POINTS, c.void + 1))
    # "vision", VD-29: full HP and an omen from the GM
    if dice.recording:
        say(log, dice, f"The GM gives {c.name} an omen.", tables.rule("death", "VD-29"), gm_only=True)
    return set_combatant(state, cid, hp=c.max_hp, notes=_noted(c, "omen from the GM"))


def _noted(c: Combatant, note: str) -> tuple[str, ...]:
    return c.notes if note in c.notes else c.notes + (note,)


# --- healing --------------------------------------------------------------------------


def use_medkit(state: VoidState, log: list, dice: Dice, user_id: str, target_id: str) -> VoidState:
    """A medkit restores d6+1 HP and spends one charge (VD-30); it stops a bleeding-out (VD-23)."""
    user = combatant(state, user_id)
    kit = item_of(user, "medkit")
    assert kit is not None                     # only a person with a medkit uses one (can_use_medkit)
    state = set_combatant(state, user_id, items=_set_item(user, kit.id, charges=kit.charges - 1))
    target = combatant(state, target_id)
    healed = roll_sum(dice, 1, 6, 1, purpose=lambda: f"{user.name}'s medkit on {target.name}", rule=tables.rule("healing", "VD-30"))
    hp = min(target.max_hp, max(0, target.hp) + healed)
    changes: dict[str, object] = {"hp": hp}
    if target.status == "bleeding":
        changes.update(status="ok", timer=0)
    if dice.recording:
        say(log, dice, lambda: f"{user.name} uses a medkit on {target.name}: +{healed} HP ({hp} of {target.max_hp})"
                               + (", the bleeding stops" if target.status == "bleeding" else "") + ".",
            tables.rule("healing", "VD-30"))
    return set_combatant(state, target_id, **changes)


def rest(state: VoidState, log: list, dice: Dice, kind: str) -> VoidState:
    """Healing outside the fight, for every living character: the hub, the medbay, a week (VD-31..VD-33)."""
    heal = tables.HEALING[kind]
    for c in state.combatants:
        if c.kind != "character" or not c.alive:
            continue
        if kind == "hub":
            state = set_combatant(state, c.id, hp=c.max_hp)
        elif kind == "medbay":
            assert heal.dice is not None               # the medbay rolls its dice (tables.HEALING)
            got = roll_sum(dice, *heal.dice, purpose=lambda: f"medbay for {c.name}", rule=tables.rule("healing", heal.number))
            state = set_combatant(state, c.id, hp=min(c.max_hp, max(0, c.hp) + got))
        elif kind == "week":
            state = set_combatant(state, c.id, notes=tuple(n for n in c.notes if n not in tables.LONG_TERM_NOTES))
    if dice.recording:
        say(log, dice, f"{heal.label}.", tables.rule("healing", heal.number))
    return state


# --- moves ----------------------------------------------------------------------------


def take_cover(state: VoidState, log: list, dice: Dice, cid: str, level: str) -> VoidState:
    """A move into (or out of) cover the GM says is there (VD-13..VD-15)."""
    c = combatant(state, cid)
    if dice.recording:
        say(log, dice, f"{c.name} moves: {tables.COVER[level].label}.", tables.rule("cover"))
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


def morale_trigger(state: VoidState, log: list, dice: Dice, squad: str) -> VoidState:
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


def morale_roll(state: VoidState, log: list, dice: Dice, squad: str) -> VoidState:
    members = [m for m in squad_members(state, squad) if m.standing]
    morale = members[0].morale
    name = members[0].name.rsplit(" ", 1)[0] if len(members) > 1 or members[0].id != squad else members[0].name
    total = roll_sum(dice, 2, 6, purpose=lambda: f"morale of {name} (morale {morale})", rule=tables.rule("morale", "VD-N02"))
    if total > morale:
        for m in members:
            state = set_combatant(state, m.id, status="fled")
        if dice.recording:
            say(log, dice, f"Morale breaks: {name} flee or surrender, as the GM tells it "
                           f"({total} against morale {morale}).", tables.rule("morale", "VD-N02"))
    else:
        if dice.recording:
            say(log, dice, f"{name} hold ({total} against morale {morale}).", tables.rule("morale", "VD-N02"))
    return state

