"""Why the rules refuse an action now: the reason in words and the rule that forbids it.

:meth:`engine.WingCommanderRuleset.refusal` (the core contract's ``refusal``) calls
:func:`refusal` for an action that ``is_legal`` refused.  Each reason asks the same predicates
the action list asks (:mod:`.turn`: ``targetable``, ``Weapon.ready``, ``torpedo_fires``,
``torpedo_locks``, ``can_cloak``, ``can_counter``), in the order a GM would look: does an attack
wait for its target's answer, is it this pilot's turn, has the turn's action been taken, then
what the action itself needs (a weapon that works, a target that may be attacked).  A reason is
a message (``wing_commander.refused.<what>``, its English text with ``{placeholders}``, the
parameters: :mod:`rulesets.core.messages`) and the citation of the seed section, as the log
cites it.  None where no reason is found (the core then says the action is not one the rules
allow).  Pure Python.
"""
from __future__ import annotations

from typing import Final

from rulesets.core.citation import cite
from rulesets.core.engine import Action, Refusal
from rulesets.core.messages import msg

from . import checks, damage, tables, turn
from .state import DogfightState, Ship, Weapon

#: the project's readings where the text is open (docs/rulesets/wing_commander.md, decisions)
RULE_TURRET = cite("2.1.3 The turret joins the guns or a missile (D6)", "2.1.3 Der Spielzug (Rundenmodus)",
                   ruling=True)
RULE_CLOAK_LOCK = cite("2.1.3 Cloaks and torpedo locks (D7)", "2.1.3 Der Spielzug (Rundenmodus)", ruling=True)

#: the answers to an attack (2.1.5), the main actions of a turn (2.1.3)
DEFENCE_KINDS: Final = ("countermeasure", "dodge")
MAIN_KINDS: Final = ("attack", "torpedo", "lock", "regenerate", "cloak", "pass")
KNOWN_KINDS: Final = (*DEFENCE_KINDS, *MAIN_KINDS, "eject", "end")


def _no(ident: str, text: str, rule: str, **params) -> Refusal:
    return Refusal(msg(ident, text, **params), rule)


def refusal(state: DogfightState, action: Action) -> Refusal | None:
    if state.over or action.kind not in KNOWN_KINDS:
        return None                                   # the core's "the fight is over" / "not allowed"
    ship = state.ship(action.actor)
    if state.phase == "defend" and state.pending:
        return _defence_step(state, ship, action)
    if action.kind in DEFENCE_KINDS:
        return _no("wing_commander.refused.no_attack_waits", "No attack waits for an answer: a countermeasure or a dodge answers an "
                   "attack on one's own ship.", checks.RULE_DODGE)
    acting = state.acting
    if ship.id != acting.id:
        return _out_of_turn(state, ship, action)
    if state.phase == "after":
        if action.kind in MAIN_KINDS:
            return _no("wing_commander.refused.one_action", "{ship} has taken its action this turn: one action a turn. Its pilot may "
                       "still eject, or end the turn.", turn.RULE_TURN, ship=ship.name)
        return None
    if action.kind == "end":
        return _no("wing_commander.refused.end_before_action", "{ship} has not taken its action yet: to let the turn go without one, "
                   "hold fire.", turn.RULE_TURN, ship=ship.name)
    handler = _ACTIONS.get(action.kind)
    return handler(state, ship, action) if handler else None


# --- whose step it is -------------------------------------------------------------------------


def _defence_step(state: DogfightState, ship: Ship, action: Action) -> Refusal | None:
    """An attack waits for its target's answer (2.1.5): a countermeasure, a dodge, or ejecting."""
    pending = state.pending[0]
    defender, attacker = state.ship(pending.target), state.ship(pending.attacker)
    weapon = attacker.weapon(pending.weapon).name
    params = dict(defender=defender.name, attacker=attacker.name, weapon=weapon)
    if action.kind not in (*DEFENCE_KINDS, "eject"):
        return _no("wing_commander.refused.attack_waits", "{attacker}'s attack with {weapon} waits for {defender}'s answer first: a "
                   "countermeasure, a dodge or ejecting.", checks.RULE_DODGE, **params)
    if ship.id != defender.id:
        if ship.id == attacker.id and action.kind == "eject":
            return _no("wing_commander.refused.eject_attack_waits", "{attacker}'s attack with {weapon} waits for {defender}'s answer: once "
                       "it is settled, {attacker}'s pilot may eject.", turn.RULE_TURN, **params)
        if action.kind == "eject":
            return _out_of_turn(state, ship, action)
        return _no("wing_commander.refused.not_the_target", "{attacker}'s attack with {weapon} is on {defender}: only {defender}'s pilot "
                   "answers it.", checks.RULE_DODGE, **params)
    if action.kind == "countermeasure":
        return _countermeasure(state, defender, attacker, pending)
    return None


def _countermeasure(state: DogfightState, defender: Ship, attacker: Ship, pending) -> Refusal | None:
    """2.1.5: chaff against missiles, mines against guns, one try an attack; none against a critical hit."""
    if turn.can_counter(state, defender, pending):
        return None
    weapon = attacker.weapon(pending.weapon)
    params = dict(defender=defender.name, attacker=attacker.name, weapon=weapon.name)
    if pending.critical:
        return _no("wing_commander.refused.counter_critical", "{attacker}'s attack with {weapon} is a critical hit: it always succeeds, "
                   "so no countermeasure stops it.", checks.RULE_CRIT, **params)
    if pending.countered:
        return _no("wing_commander.refused.counter_tried", "{defender} has tried a countermeasure against this attack: the dodge is "
                   "left.", checks.RULE_CM, **params)
    kind = checks.countermeasure_kind(weapon)
    if kind is None:
        return _no("wing_commander.refused.counter_none", "Nothing counters a torpedo: chaff answers missiles, mines answer guns and "
                   "turrets.", checks.RULE_DODGE, **params)
    return _no("wing_commander.refused.counter_empty", "{defender} has no {kind} left.", checks.RULE_DODGE,
               kind=checks.COUNTERMEASURES[kind], **params)


def _out_of_turn(state: DogfightState, ship: Ship, action: Action) -> Refusal:
    """2.1.1: the order decides who acts; 2.1.3: one action a turn, ejecting in one's own turn."""
    out = _out_of_fight(ship)
    if out is not None:
        return out
    active = state.acting.name
    if action.kind == "eject":
        return _no("wing_commander.refused.eject_not_now", "{ship}'s pilot ejects in {ship}'s own turn, or instead of a dodge when "
                   "attacked; it is {active}'s turn.", turn.RULE_TURN, ship=ship.name, active=active)
    order = state.order
    if ship.id in order and order.index(ship.id) < state.turn:
        return _no("wing_commander.refused.turn_taken", "{ship} has had its turn this round: one action a round. It is {active}'s turn.",
                   turn.RULE_TURN, ship=ship.name, active=active)
    return _no("wing_commander.refused.out_of_turn", "It is {active}'s turn; {ship} comes later in the order.", turn.RULE_ORDER,
               ship=ship.name, active=active)


def _out_of_fight(ship: Ship) -> Refusal | None:
    if ship.status == "destroyed":
        return _no("wing_commander.refused.destroyed", "{ship} is destroyed: it is out of the fight.", damage.RULE_SHIELDS, ship=ship.name)
    if ship.status == "ejected":
        return _no("wing_commander.refused.ejected", "{ship}'s pilot has ejected: it is out of the fight.", turn.RULE_TURN, ship=ship.name)
    return None


# --- what the action needs ---------------------------------------------------------------------


def _weapon(ship: Ship, weapon_id) -> tuple[Weapon | None, Refusal | None]:
    for weapon in ship.weapons:
        if weapon.id == weapon_id:
            return weapon, None
    return None, _no("wing_commander.refused.no_such_weapon", "{ship} has no weapon '{weapon}'.", turn.RULE_TURN, ship=ship.name,
                     weapon=str(weapon_id))


def _not_ready(state: DogfightState, ship: Ship, weapon: Weapon) -> Refusal | None:
    """Why ``weapon.ready`` says no: burnt out or failed until replaced, overheated, none left."""
    if weapon.ready(state.round):
        return None
    params = dict(ship=ship.name, weapon=weapon.name)
    if weapon.broken:
        if weapon.kind == "gun":
            return _no("wing_commander.refused.guns_out", "{ship}'s {weapon} are out until replaced: their leads burnt out.",
                       tables.FUMBLE_SECTION, **params)
        if weapon.kind == "turret":
            return _no("wing_commander.refused.turret_out", "{ship}'s {weapon} is out for the rest of the mission: its leads burnt out.",
                       tables.FUMBLE_SECTION, **params)
        return _no("wing_commander.refused.launch_circuits", "{ship}'s launch circuits for {weapon} have failed: none fires until they "
                   "are replaced.", tables.FUMBLE_SECTION, **params)
    if weapon.out_until >= state.round:
        return _no("wing_commander.refused.overheated", "{ship}'s {weapon}: overheated, back in round {back}.", tables.FUMBLE_SECTION,
                   back=weapon.out_until + 1, **params)
    return _no("wing_commander.refused.none_left", "{ship} has no {weapon} left: a missile or torpedo fired is spent, hit or miss.",
               checks.RULE_ATTACK, **params)


def _target(state: DogfightState, ship: Ship, action: Action) -> tuple[Ship | None, Refusal | None]:
    """2.1.3 "auf einen Gegner": an enemy in the fight, not standing aside, not cloaked (D7)."""
    target_id = action.get("target")
    if not any(s.id == target_id for s in state.ships):
        return None, _no("wing_commander.refused.no_such_ship", "There is no ship '{target}'.", turn.RULE_TURN, target=str(target_id))
    target = state.ship(target_id)
    if target.side == ship.side:
        return None, _no("wing_commander.refused.same_side", "{target} is on {ship}'s side: an attack is on an enemy.", turn.RULE_TURN,
                         target=target.name, ship=ship.name)
    if turn.targetable(target):
        return target, None
    out = _out_of_fight(target)
    if out is not None:
        return None, out
    if target.standing_aside:
        return None, _no("wing_commander.refused.standing_aside", "{target} stands aside this round: it cannot be attacked until its "
                         "next turn.", turn.RULE_TURN, target=target.name)
    return None, _no("wing_commander.refused.cloaked", "{target} is cloaked: it cannot be attacked until it attacks and drops its cloak.",
                     RULE_CLOAK_LOCK, target=target.name)


def _attack(state: DogfightState, ship: Ship, action: Action) -> Refusal | None:
    """2.1.3 Einen Angriff ausführen: guns or a missile, the turret joining (or alone, the guns out: D6)."""
    weapon, no = _weapon(ship, action.get("weapon"))
    if no is not None:
        return no
    if weapon.kind == "torpedo":
        return _no("wing_commander.refused.torpedo_action", "A torpedo has actions of its own: fire it at a soft target, or lock it on a "
                   "hard one first.", turn.RULE_TURN)
    no = _not_ready(state, ship, weapon)
    if no is None and action.get("turret"):
        turret, no = _weapon(ship, action.get("turret"))
        if no is None and (turret.kind != "turret" or weapon.kind == "turret"):
            return _no("wing_commander.refused.not_a_turret", "{weapon} does not join the action as a turret: a turret joins the guns "
                       "or a missile.", RULE_TURRET, weapon=turret.name)
        no = no or _not_ready(state, ship, turret)
    if no is None and weapon.kind == "turret" and any(w.kind == "gun" for w in turn.attack_weapons(ship, state.round)):
        return _no("wing_commander.refused.turret_alone", "{weapon} joins the guns or a missile in the action; it fires alone only while "
                   "the guns are out.", RULE_TURRET, weapon=weapon.name)
    return no or _target(state, ship, action)[1]


def _torpedo_at(state: DogfightState, ship: Ship, action: Action) -> tuple[Ship | None, Refusal | None]:
    """What firing a torpedo and locking one on both need (2.1.3): the weapon named is one of the
    ship's torpedoes and ready, the target an enemy that may be attacked.  The target, or why not."""
    weapon, no = _weapon(ship, action.get("weapon"))
    if no is not None:
        return None, no
    if weapon.kind != "torpedo":
        return None, _no("wing_commander.refused.not_a_torpedo", "{weapon} is not a torpedo.", turn.RULE_TURN, weapon=weapon.name)
    no = _not_ready(state, ship, weapon)
    if no is not None:
        return None, no
    return _target(state, ship, action)


def _torpedo(state: DogfightState, ship: Ship, action: Action) -> Refusal | None:
    """2.1.3: a torpedo at a soft target, or deciphered at a hard one (locked in an earlier round: D7)."""
    target, no = _torpedo_at(state, ship, action)
    if no is not None:
        return no
    if turn.torpedo_fires(state, ship, target):
        return None
    if target.cls != "capital":
        return _not_capital(target)
    if ship.lock_target == target.id:
        return _no("wing_commander.refused.deciphering", "{ship}'s torpedo deciphers {target}'s phase shields this round: it fires from "
                   "round {next}.", RULE_CLOAK_LOCK, ship=ship.name, target=target.name, next=ship.lock_round + 1)
    return _no("wing_commander.refused.not_deciphered", "{target} has phase shields: lock the torpedo on it first (deciphering takes the "
               "round).", turn.RULE_TURN, target=target.name)


def _not_capital(target: Ship) -> Refusal:
    return _no("wing_commander.refused.not_capital", "{target} is not a capital ship: torpedoes fire at capital ships.", turn.RULE_TURN,
               target=target.name)


def _lock(state: DogfightState, ship: Ship, action: Action) -> Refusal | None:
    """2.1.3 Einen Torpedo auf ein hartes Ziel ansagen: a hard target, not locked on yet."""
    target, no = _torpedo_at(state, ship, action)
    if no is not None:
        return no
    if turn.torpedo_locks(ship, target):
        return None
    if target.cls != "capital":
        return _not_capital(target)
    if target.soft_target:
        return _no("wing_commander.refused.soft_target", "{target} has no phase shields: a soft target takes the torpedo straight away.",
                   turn.RULE_TURN, target=target.name)
    return _no("wing_commander.refused.locked_already", "{ship}'s torpedo is locked on {target} already.", turn.RULE_TURN,
               ship=ship.name, target=target.name)


def _cloak(state: DogfightState, ship: Ship, action: Action) -> Refusal | None:
    """2.1.3 Eine eingebaute Tarnvorrichtung aktivieren: built into a fighter or bomber, a full round."""
    if turn.can_cloak(ship):
        return None
    if not ship.cloak_device:
        return _no("wing_commander.refused.no_cloak", "{ship} has no cloaking device.", turn.RULE_TURN, ship=ship.name)
    if ship.cls not in turn.CLOAK_CLASSES:
        return _no("wing_commander.refused.cloak_class", "{ship} is a capital ship: cloaking devices are built into fighters and bombers.",
                   turn.RULE_TURN, ship=ship.name)
    if ship.cloak == "activating":
        return _no("wing_commander.refused.cloak_activating", "{ship}'s cloak is being activated: it is on from {ship}'s next turn.",
                   RULE_CLOAK_LOCK, ship=ship.name)
    return _no("wing_commander.refused.cloaked_already", "{ship} is cloaked already.", RULE_CLOAK_LOCK, ship=ship.name)


_ACTIONS: Final = {"attack": _attack, "torpedo": _torpedo, "lock": _lock, "cloak": _cloak}
