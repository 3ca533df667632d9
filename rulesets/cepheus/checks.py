"""Task checks: 2D6 + skill + characteristic DM + difficulty DM + DMs >= 8.

RULES-NOTES (cepheus): Effect = total - 8; 6+ exceptional; opposed checks go to the
higher Effect, ties to the higher characteristic, then a reroll.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .crew import char_of, current_chars, is_npc, skill_of
from .tables import DIFFICULTY, DIFFICULTY_LABEL, EXCEPTIONAL, SEC, TARGET

if TYPE_CHECKING:
    from .state import Crew, Ship, Tx


def roll_check(tx: Tx, ship: Ship, crew: Crew | None, skill: str, char: str, difficulty: str,
               purpose: str, rule: str, extra=(), target: int = TARGET, table: str = "", row: str = ""):
    """2D6 + skill + characteristic DM + difficulty DM + extras >= 8; returns (roll, effect)."""
    mods = check_mods(ship, crew, skill, char, difficulty, extra)
    roll = tx.dice.roll(2, 6, modifiers=mods, purpose=purpose, rule=rule, target=target,
                        table=table, row=row, gm_only=is_npc(ship))
    if crew is not None and ship.bonus.get(crew.id):
        sh = tx.ship(ship.id)
        sh.bonus.pop(crew.id, None)
    return roll, roll.total - target


def check_mods(ship: Ship, crew: Crew | None, skill: str, char: str, difficulty: str, extra=()) -> list:
    mods = []
    if crew is not None and skill:
        level, label = skill_of(crew, skill)
        mods.append((label, level))
        if char:
            mods.append((f"{char.capitalize()} DM", char_of(crew, char)))
    if difficulty:
        mods.append((DIFFICULTY_LABEL[difficulty], DIFFICULTY[difficulty]))
    if ship.hasty:
        mods.append(("acting hastily (house rule)", -1))
    if crew is not None and ship.bonus.get(crew.id):
        mods.append(("Captain's coordination", ship.bonus[crew.id]))
    mods.extend(extra)
    return [(s, v) for s, v in mods if v]


def effect_band(effect: int) -> str:
    if effect >= EXCEPTIONAL:
        return "exceptional success"
    if effect >= 0:
        return "success"
    if effect <= -EXCEPTIONAL:
        return "exceptional failure"
    return "failure"


def opposed(tx: Tx, ship: Ship, crew: Crew | None, other: Ship, their: Crew | None, skill: str, char: str,
            purpose: str, rule: str, extra=(), their_extra=()) -> bool:
    """RULES-NOTES: opposed checks: higher Effect wins; ties to the higher characteristic, then reroll."""
    while True:
        r1, e1 = roll_check(tx, ship, crew, skill, char, "", purpose, rule, extra=list(extra))
        r2, e2 = roll_check(tx, other, their, skill, char, "", f"{other.name} opposes", rule, extra=list(their_extra))
        if e1 != e2:
            won = e1 > e2
            break
        c1 = current_chars(crew).get(char, 7) if crew else 0
        c2 = current_chars(their).get(char, 7) if their else 0
        if c1 != c2:
            won = c1 > c2
            break
        tx.say("Tied Effect and characteristic: reroll.", SEC["notes"])
    if any(src == "intercepted intentions" for src, _ in extra):
        use_intel(tx, ship.id, other.id)
    return won


def use_intel(tx: Tx, ship_id: str, enemy_id: str):
    sh = tx.s.ship(ship_id)
    if sh.intel == enemy_id:
        tx.ship(ship_id).intel = ""
