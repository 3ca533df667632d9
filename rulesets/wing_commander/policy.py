"""The bot that flies NPC pilots (auto-play) and both sides of a simulation.

The policy, in words:
1. Defending: drop a countermeasure when one of the right kind is left and the attack is not
   a critical hit; otherwise dodge.  The bot never ejects (after its attack it ends its turn).
2. On its turn: a torpedo that can fire (at a soft target, or deciphered on a hard one) fires;
   a torpedo with a hard target in reach and no lock locks on.
3. With no shields left, hull at half or less and a working generator, it stands aside to
   regenerate (once the shields are up again it returns to the fight).
4. Otherwise it attacks: of every enemy it can target and every ready weapon (guns or a missile,
   the turret joining either), the attack with the most expected damage per point of the
   target's shields and hull left; a missile (with the turret) is fired only when it expects half
   again the damage of the guns (with the turret).  Ties go to the first in the list.
5. Nothing to attack: regenerate if it can, else hold.

It builds no list of every legal action; it scores the few candidates directly.
"""
from __future__ import annotations

import random

from rulesets.core.engine import Action

from . import odds, turn
from .state import DogfightState, Ship, Weapon


def _mean(weapon: Weapon) -> float:
    mean = weapon.count * (weapon.sides + 1) / 2 + weapon.bonus
    return mean / 2 if weapon.halved else mean


def expected_damage(state: DogfightState, attacker: Ship, weapon: Weapon, target: Ship, sides: dict | None = None) -> float:
    """Mean damage of an attack: the chance it lands (once, or twice for a critical or a dodge
    fumble) times the weapon's mean.  ``sides`` caches the attack and defence modifiers of one turn."""
    if sides is None:
        sides = {}
    attack = sides.get(weapon.id)
    if attack is None:
        attack = sides[weapon.id] = odds.attack_side(attacker, weapon)
    guns = weapon.kind in ("gun", "turret")
    defence = sides.get((target.id, guns))
    if defence is None:
        defence = sides[(target.id, guns)] = odds.defence_side(target, attacker.id, weapon)
    once, twice = odds.landing(odds.combine(attacker, weapon, target, attack, defence))
    return _mean(weapon) * (once + 2 * twice)


def choose_defence(state: DogfightState) -> Action:
    pending = state.pending[0]
    defender = state.ship(pending.target)
    if turn.can_counter(state, defender, pending):
        return Action.make("countermeasure", defender.id)
    return Action.make("dodge", defender.id)


def choose_turn(state: DogfightState) -> Action:
    ship = state.acting
    targets = turn.enemies(state, ship)
    for torpedo in ship.of_kind("torpedo"):
        if not torpedo.ready(state.round):
            continue
        for target in targets:
            if target.soft_target or (target.hard_target and ship.lock_target == target.id and ship.lock_round < state.round):
                return Action.make("torpedo", ship.id, target=target.id, weapon=torpedo.id)
        for target in targets:
            if target.hard_target and ship.lock_target != target.id:
                return Action.make("lock", ship.id, target=target.id, weapon=torpedo.id)
    can_regenerate = ship.shield_generator and ship.shields < ship.max_shields
    if can_regenerate and ship.shields == 0 and ship.hull * 2 <= ship.max_hull and ship.max_shields > 0:
        return Action.make("regenerate", ship.id)
    ready = turn.attack_weapons(ship, state.round)
    guns = [w for w in ready if w.kind == "gun"]
    turret = next((w for w in ready if w.kind == "turret"), None)
    missiles = [w for w in ready if w.kind == "missile"]
    best, best_score = None, 0.0
    sides: dict = {}
    for target in targets:
        left = max(1, target.shields + target.hull)
        gun, gun_value = None, 0.0
        for weapon in guns:
            value = expected_damage(state, ship, weapon, target, sides)
            if gun is None or value > gun_value:
                gun, gun_value = weapon, value
        turret_value = expected_damage(state, ship, turret, target, sides) if turret is not None else 0.0
        volley = gun_value + turret_value
        options = []
        if gun is not None:
            options.append((volley, gun.id, turret.id if turret is not None else None))
        elif turret is not None:
            options.append((turret_value, turret.id, None))
        for weapon in missiles:
            value = expected_damage(state, ship, weapon, target, sides) + turret_value
            if value > 1.5 * volley:
                options.append((value, weapon.id, turret.id if turret is not None else None))
        for value, weapon_id, turret_id in options:
            score = value / left
            if best is None or score > best_score:
                best, best_score = (target.id, weapon_id, turret_id), score
    if best is not None:
        target_id, weapon_id, turret_id = best
        return Action.make("attack", ship.id, target=target_id, weapon=weapon_id, turret=turret_id)
    if can_regenerate:
        return Action.make("regenerate", ship.id)
    return Action.make("pass", ship.id)


def choose(state: DogfightState, rng: random.Random) -> Action:
    """The bot's action (deterministic: it uses no chance, so ``rng`` is not drawn from)."""
    if state.phase == "defend":
        return choose_defence(state)
    if state.phase == "after":
        return Action.make("end", state.acting.id)  # the bot never ejects
    return choose_turn(state)
