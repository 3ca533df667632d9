"""The round: the order (RF), whose turn it is, the main actions and the defence.

Sections: 2.1.1 Die Initiative/Reihenfolge (RF), 2.1.3 Der Spielzug (Rundenmodus),
2.1.4 Der Angriffswurf, 2.1.5 Der Ausweichwurf, 2.1.9 (criticals, fumbles).  Every
function takes a state and returns a changed copy and its log lines; ``engine.py``
dispatches the actions to them.
"""
from __future__ import annotations

from rulesets.core.citation import cite
from rulesets.core.engine import Action, Log
from rulesets.core.messages import msg
from rulesets.core.state import clone

from . import checks, damage, tables
from .state import DogfightState, PendingAttack, Ship, Weapon, replace_by_id, with_ship

RULE_ORDER = cite("2.1.1 The order (RF)", "2.1.1 Die Initiative/Reihenfolge (RF)")
RULE_TURN = cite("2.1.3 The turn (round mode)", "2.1.3 Der Spielzug (Rundenmodus)")

#: the main actions of a turn (2.1.3)
TURN_KINDS = ("attack", "torpedo", "lock", "regenerate", "cloak", "eject", "pass")
#: what the pilot may still do in its turn once its attack is settled (2.1.3: ejecting "jederzeit")
AFTER_KINDS = ("end", "eject")


# --- 2.1.1 the order ----------------------------------------------------------------------

def order_key(state: DogfightState, ship: Ship, index: int) -> tuple:
    """Step 1 class, step 2 advantages and disadvantages, step 3 MV (higher first: a decision),
    step 4 rank, then time in rank; then the side the GM lets go first, then the squadron
    leader's call, which is the order the ships were set up in (decisions)."""
    order_bonus = sum(v for _, v in ship.pilot.bonus("order"))
    first = 0 if (not state.first_side or ship.side == state.first_side) else 1
    return (tables.CLASS_ORDER[ship.cls], -order_bonus, -ship.current_mv, -ship.pilot.rank, -ship.pilot.months,
            first, index)


def compute_order(state: DogfightState) -> tuple[str, ...]:
    ranked = sorted((order_key(state, s, i), s.id) for i, s in enumerate(state.ships) if s.in_fight)
    return tuple(ship_id for _, ship_id in ranked)


def start(state: DogfightState) -> DogfightState:
    state = clone(state, order=compute_order(state), turn=0)
    return check_over(state)


def check_over(state: DogfightState) -> DogfightState:
    sides = {s.side for s in state.ships if s.status == "in"}
    if len(sides) <= 1:
        return clone(state, over=True, winner=next(iter(sides)) if sides else None, phase="act", pending=())
    if state.round > state.max_rounds:
        return clone(state, over=True, winner=None, round=state.max_rounds, phase="act", pending=())
    return state


def end_turn(state: DogfightState) -> DogfightState:
    """The next ship in the order still in the fight; after the last, a new round with the order
    worked out again (2.1.1: it stays until damage or a pilot leaving changes it)."""
    state = check_over(state)
    if state.over:
        return state
    order = state.order
    index = state.turn + 1
    while index < len(order) and state.ship(order[index]).status != "in":
        index += 1
    if index < len(order):
        return begin_turn(clone(state, turn=index, phase="act", pending=()))
    ships = tuple(clone(s, evaded=()) if s.evaded else s for s in state.ships)
    state = check_over(clone(state, ships=ships, round=state.round + 1, phase="act", pending=()))
    if state.over:
        return state
    return begin_turn(clone(state, order=compute_order(state), turn=0))


def begin_turn(state: DogfightState) -> DogfightState:
    """A ship's turn begins: its round of standing aside is over; a cloak being activated is on."""
    ship = state.ship(state.order[state.turn])
    if not ship.standing_aside and ship.cloak != "activating":
        return state
    changes = {}
    if ship.standing_aside:
        changes["standing_aside"] = False
    if ship.cloak == "activating":
        changes["cloak"] = "on"
    if not changes:
        return state
    return with_ship(state, ship.id, **changes)


# --- who may be attacked with what --------------------------------------------------------

def targetable(ship: Ship) -> bool:
    """In the fight, not standing aside to regenerate (2.1.3), not cloaked (decision)."""
    return ship.in_fight and not ship.standing_aside and ship.cloak != "on"


def enemies(state: DogfightState, ship: Ship) -> list[Ship]:
    return [s for s in state.ships if s.side != ship.side and targetable(s)]


def attack_weapons(ship: Ship, round_no: int) -> list[Weapon]:
    """Guns, turret and missiles ready to fire (torpedoes have their own actions)."""
    return [w for w in ship.weapons if w.kind in ("gun", "turret", "missile") and w.ready(round_no)]


def torpedo_fires(state: DogfightState, ship: Ship, target: Ship) -> bool:
    """2.1.3: a torpedo fires at a soft target, or at a hard one whose phase shields it deciphered in
    an earlier round (D7)."""
    return target.soft_target or (target.hard_target and ship.lock_target == target.id
                                  and ship.lock_round < state.round)


def torpedo_locks(ship: Ship, target: Ship) -> bool:
    """2.1.3: a torpedo is locked on a hard target not locked on yet."""
    return target.hard_target and ship.lock_target != target.id


#: the ship classes a cloaking device is built into (2.1.3: "in einem Jäger oder Bomber")
CLOAK_CLASSES = ("light", "medium", "heavy", "bomber")


def can_cloak(ship: Ship) -> bool:
    return ship.cloak_device and ship.cloak == "" and ship.cls in CLOAK_CLASSES


def turn_actions(state: DogfightState) -> list[Action]:
    """2.1.3: one main action per turn; ejecting is possible at any time of one's own turn."""
    ship = state.acting
    out: list[Action] = []
    ready = attack_weapons(ship, state.round)
    turrets = [w for w in ready if w.kind == "turret"]
    torpedoes = [w for w in ship.weapons if w.kind == "torpedo" and w.ready(state.round)]
    for target in enemies(state, ship):
        for weapon in ready:
            if weapon.kind == "turret":
                continue
            out.append(Action.make("attack", ship.id, target=target.id, weapon=weapon.id))
            for turret in turrets:  # "kann dieser in der Aktion zusätzlich eingesetzt werden": guns or missile
                out.append(Action.make("attack", ship.id, target=target.id, weapon=weapon.id, turret=turret.id))
        if not any(w.kind == "gun" for w in ready):  # the turret alone when the guns are out
            for turret in turrets:
                out.append(Action.make("attack", ship.id, target=target.id, weapon=turret.id))
        for torpedo in torpedoes:
            if torpedo_fires(state, ship, target):
                out.append(Action.make("torpedo", ship.id, target=target.id, weapon=torpedo.id))
            elif torpedo_locks(ship, target):
                out.append(Action.make("lock", ship.id, target=target.id, weapon=torpedo.id))
    out.append(Action.make("regenerate", ship.id))  # standing aside: whatever the shields (regains)
    if can_cloak(ship):
        out.append(Action.make("cloak", ship.id))
    out.append(Action.make("pass", ship.id))
    out.append(Action.make("eject", ship.id))
    return out


def after_actions(state: DogfightState) -> list[Action]:
    """2.1.3 "Aussteigen ist im eigenen Spielzug jederzeit ... möglich": once the turn's attack is
    settled (its dodges and damage), the pilot ends the turn or ejects."""
    ship = state.acting
    return [Action.make("end", ship.id), Action.make("eject", ship.id)]


def defence_actions(state: DogfightState) -> list[Action]:
    """2.1.5: first a countermeasure if the defender wants one and has one, then a dodge; ejecting
    instead of dodging (2.1.3)."""
    pending = state.pending[0]
    defender = state.ship(pending.target)
    out = []
    if can_counter(state, defender, pending):
        out.append(Action.make("countermeasure", defender.id))
    out.append(Action.make("dodge", defender.id))
    out.append(Action.make("eject", defender.id))
    return out


def can_counter(state: DogfightState, defender: Ship, pending: PendingAttack) -> bool:
    """A countermeasure of the right kind in stock, not tried yet against this attack, and the
    attack not a critical hit (a critical always succeeds, 2.1.9)."""
    if pending.countered or pending.critical:
        return False
    kind = checks.countermeasure_kind(state.ship(pending.attacker).weapon(pending.weapon))
    return (kind == "chaff" and defender.chaff > 0) or (kind == "mines" and defender.mines > 0)


# --- the main actions ---------------------------------------------------------------------

def _spend(state: DogfightState, ship_id: str, weapon: Weapon) -> DogfightState:
    if weapon.stock < 0:
        return state
    ship = state.ship(ship_id)
    weapons = replace_by_id(ship.weapons, weapon.id, stock=weapon.stock - 1)
    spent = dict(ship.spent)
    spent[weapon.name] = spent.get(weapon.name, 0) + 1
    return with_ship(state, ship_id, weapons=weapons, spent=spent)


def attack(state: DogfightState, action: Action, dice) -> tuple[DogfightState, Log]:
    """2.1.3 an attack with guns or a missile (and the turret) or a torpedo; 2.1.4 the attack roll."""
    ship = state.acting
    target_id = action.get("target")
    dm = int(action.get("dm", 0) or 0)
    log = Log(dice.recording)
    if ship.cloak == "on":
        state = with_ship(state, ship.id, cloak="")
        log.say(msg("wing_commander.log.drops_cloak", "{ship} drops its cloak to attack.", ship=ship.name), RULE_TURN)
    if action.kind == "torpedo" and ship.lock_target == target_id:
        state = with_ship(state, ship.id, lock_target="", lock_round=0)
    weapons = [ship.weapon(action.get("weapon"))]
    if action.get("turret"):
        weapons.append(ship.weapon(action.get("turret")))
    pending: list[PendingAttack] = []
    for weapon in weapons:
        target = state.ship(target_id)
        attacker = state.ship(ship.id)
        if not target.in_fight or not attacker.in_fight:
            break
        state = _spend(state, ship.id, weapon)
        check = checks.attack_check(attacker, weapon, target, dm)
        params = dict(ship=ship.name, target=target.name, weapon=weapon.name)
        if check is None:
            value, words = checks.tw_value(attacker, weapon)
            pending.append(PendingAttack(ship.id, target_id, weapon.id, value))
            log.say(msg("wing_commander.log.attack_tw", "{attack}; {target} must reach {value} ({words}) to escape.",
                        attack=checks.attacks(attacker, target, weapon), target=target.name, value=value, words=words),
                    checks.RULE_DODGE)
            continue
        rolled = checks.roll(dice, check)
        if rolled.outcome == checks.FUMBLE:
            log.say(msg("wing_commander.log.attack_fumble", "{ship} fumbles the attack with {weapon} (natural {natural}).",
                        natural=rolled.natural, **params), checks.RULE_FUMBLE)
            state = damage.attack_fumble(state, ship.id, weapon, dice, log)
            continue
        critical = rolled.outcome == checks.CRITICAL
        if target.rolls:
            pending.append(PendingAttack(ship.id, target_id, weapon.id, rolled.total, critical))
            if critical:
                line = msg("wing_commander.log.attack_critical", "{attack}: {total}. A critical hit: it stands whatever "
                           "the dodge.", attack=check.purpose, total=rolled.total)
            else:
                line = msg("wing_commander.log.attack_opposed", "{attack}: {total}. {target} must reach {total} to "
                           "escape.", attack=check.purpose, total=rolled.total, target=target.name)
            log.say(line, checks.RULE_CRIT if critical else checks.RULE_ATTACK)
            continue
        if rolled.success:
            if critical:
                line = msg("wing_commander.log.critical_hit", "{ship} scores a critical hit on {target} with {weapon} "
                           "({total} vs TW {tw}).", total=rolled.total, tw=target.tw, **params)
            else:
                line = msg("wing_commander.log.hit", "{ship} hits {target} with {weapon} ({total} vs TW {tw}).",
                           total=rolled.total, tw=target.tw, **params)
            log.say(line, checks.RULE_CRIT if critical else checks.RULE_ATTACK)
            state = hit(state, ship.id, weapon.id, target_id, 2 if critical else 1, dice, log)
        else:
            log.say(msg(*MISSES.get(weapon.kind, MISSES["gun"]), total=rolled.total, tw=target.tw, **params),
                    checks.RULE_ATTACK)
    pending = [p for p in pending if state.ship(p.target).in_fight]
    if pending:
        return clone(state, phase="defend", pending=tuple(pending)), log
    return after_attack(state), log


#: a miss in words: a missile or a torpedo that misses is lost (2.1.3)
MISSES = {
    "gun": ("wing_commander.log.miss", "{ship} misses {target} with {weapon} ({total} vs TW {tw})."),
    "missile": ("wing_commander.log.miss_missile",
                "{ship} misses {target} with {weapon} ({total} vs TW {tw}). The missile is lost."),
    "torpedo": ("wing_commander.log.miss_torpedo",
                "{ship} misses {target} with {weapon} ({total} vs TW {tw}). The torpedo is lost."),
}


def after_attack(state: DogfightState) -> DogfightState:
    """The attack is settled: the turn stays the attacker's, who may still eject (2.1.3: "im eigenen
    Spielzug jederzeit") or end it; a fight over, or an attacker out of it, moves on."""
    state = check_over(state)
    if state.over:
        return state
    if not state.acting.in_fight:
        return end_turn(state)
    return clone(state, phase="after", pending=())


def end(state: DogfightState, action: Action, dice):
    """The pilot ends the turn after its attack (2.1.3)."""
    return end_turn(state), []


def hit(state: DogfightState, attacker_id: str, weapon_id: str, target_id: str, times: int, dice, log: Log) -> DogfightState:
    """A hit lands: its damage rolled ``times`` times (2.1.9), on the shields then the hull (2.1.6)."""
    attacker = state.ship(attacker_id)
    weapon = attacker.weapon(weapon_id)
    target = state.ship(target_id)
    amount = damage.roll_damage(dice, attacker, weapon, target.name, times)
    cause = msg("wing_commander.cause.weapon", "{ship}'s {weapon}", ship=attacker.name, weapon=weapon.name)
    return damage.apply_damage(state, target_id, amount, dice, cause, log)


def lock(state: DogfightState, action: Action, dice):
    """2.1.3: a torpedo locks on a hard target and deciphers its phase shields; that takes the round."""
    ship = state.acting
    target = state.ship(action.get("target"))
    state = with_ship(state, ship.id, lock_target=target.id, lock_round=state.round)
    log = Log(dice.recording)
    log.say(msg("wing_commander.log.lock", "{ship} locks a torpedo on {target}; it deciphers the phase shields this "
                "round.", ship=ship.name, target=target.name), RULE_TURN)
    return end_turn(state), log


def regains(ship: Ship) -> int:
    """The shield points standing aside gives back: 3, up to full (2.1.3), none once the shield
    generator is destroyed (2.1.6, 2.1.8 1-5)."""
    if not ship.shield_generator:
        return 0
    return max(0, min(ship.max_shields, ship.shields + tables.REGENERATION) - ship.shields)


def regenerate(state: DogfightState, action: Action, dice):
    """2.1.3 Aussetzen und Schildenergie regenerieren: stand aside for a round (untargetable until
    the ship's next turn) and regenerate 3 shield points.  Standing aside is the action; the
    regeneration is what it gives where the generator works and the shields are not full, so a
    pilot with full shields or a destroyed generator may still sit a round out (decision D17)."""
    ship = state.acting
    gained = regains(ship)
    shields = ship.shields + gained
    state = with_ship(state, ship.id, shields=shields, standing_aside=True)
    log = Log(dice.recording)
    if gained:
        line = msg("wing_commander.log.regenerates", "{ship} stands aside and regenerates its shields to {shields}; "
                   "it cannot be attacked until its next turn.", ship=ship.name, shields=shields)
    elif not ship.shield_generator:
        line = msg("wing_commander.log.aside_no_generator", "{ship} stands aside; its shield generator is destroyed, "
                   "so its shields stay at {shields}; it cannot be attacked until its next turn.", ship=ship.name,
                   shields=shields)
    else:
        line = msg("wing_commander.log.aside_full", "{ship} stands aside with its shields full ({shields}); it cannot "
                   "be attacked until its next turn.", ship=ship.name, shields=shields)
    log.say(line, RULE_TURN)
    return end_turn(state), log


def cloak(state: DogfightState, action: Action, dice):
    """2.1.3: activating a cloaking device takes a full round (it is on from the ship's next turn)."""
    ship = state.acting
    state = with_ship(state, ship.id, cloak="activating")
    log = Log(dice.recording)
    log.say(msg("wing_commander.log.cloak", "{ship} activates its cloaking device; it is cloaked from its next turn.",
                ship=ship.name), RULE_TURN)
    return end_turn(state), log


def pass_turn(state: DogfightState, action: Action, dice):
    ship = state.acting
    log = Log(dice.recording)
    log.say(msg("wing_commander.log.pass", "{ship} holds its fire this turn.", ship=ship.name), RULE_TURN)
    return end_turn(state), log


def eject(state: DogfightState, action: Action, dice):
    """2.1.3: ejecting is possible at any time of one's own turn, and in an enemy's turn instead of a dodge."""
    ship = state.ship(action.actor)
    state = with_ship(state, ship.id, status="ejected")
    log = Log(dice.recording)
    log.say(msg("wing_commander.log.eject", "{pilot} ejects from {ship}; the ship is out of the fight.",
                pilot=ship.pilot.name, ship=ship.name), RULE_TURN)
    if state.phase == "defend":
        return _next_pending(state, log)
    return end_turn(state), log  # on its own turn, before or after the main action


# --- the defence (2.1.5) ------------------------------------------------------------------

def _next_pending(state: DogfightState, log):
    rest = tuple(p for p in state.pending[1:] if state.ship(p.target).in_fight)
    if rest and not state.over:
        return clone(state, pending=rest), log
    return after_attack(state), log


def countermeasure(state: DogfightState, action: Action, dice):
    """2.1.5 / RULES-NOTES: chaff or a mine, 2W10 + its MV against the attacker's value; one is spent
    whatever comes of it; success cancels the attack, failure leaves the dodge."""
    pending = state.pending[0]
    defender = state.ship(pending.target)
    check = checks.countermeasure_check(state, defender, pending, int(action.get("dm", 0) or 0))
    kind = checks.countermeasure_kind(state.ship(pending.attacker).weapon(pending.weapon))
    spent = dict(defender.spent)
    spent[kind] = spent.get(kind, 0) + 1
    state = with_ship(state, defender.id, spent=spent,
                                             **{kind: getattr(defender, kind) - 1})
    rolled = checks.roll(dice, check)
    log = Log(dice.recording)
    what = checks.ONE_COUNTERMEASURE[kind]  # "the mine fails", not "the mines fails"
    if rolled.success:
        log.say(msg("wing_commander.log.countermeasure_works", "The {what} works: the attack on {ship} comes to nothing.",
                    what=what, ship=defender.name), checks.RULE_CM)
        return _next_pending(state, log)
    log.say(msg("wing_commander.log.countermeasure_fails", "The {what} fails ({total} vs {value}); {ship} may still "
                "dodge.", what=what, total=rolled.total, value=pending.value, ship=defender.name), checks.RULE_CM)
    return clone(state, pending=(clone(pending, countered=True), *state.pending[1:])), log


def dodge(state: DogfightState, action: Action, dice):
    """2.1.5: the dodge against the attacker's value; 2.1.9: a critical dodge always succeeds and gives
    +1 against that enemy this round, a critical hit stands against it (RULES-NOTES); a dodge fumble
    takes the hit with damage rolled twice (twice, not four times, against a critical: a decision)."""
    pending = state.pending[0]
    defender = state.ship(pending.target)
    attacker = state.ship(pending.attacker)
    check = checks.dodge_check(state, defender, pending, int(action.get("dm", 0) or 0))
    rolled = checks.roll(dice, check)
    log = Log(dice.recording)
    if rolled.outcome == checks.CRITICAL and pending.attacker not in defender.evaded:
        state = with_ship(state, defender.id, evaded=(*defender.evaded, pending.attacker))
    escaped = rolled.success and not pending.critical
    params = dict(ship=defender.name, attacker=attacker.name)
    if escaped:
        if rolled.outcome == checks.CRITICAL:
            line = msg("wing_commander.log.dodges_critical", "{ship} dodges {attacker}'s attack (critical: +1 against "
                       "{attacker} for the rest of the round).", **params)
        else:
            line = msg("wing_commander.log.dodges", "{ship} dodges {attacker}'s attack.", **params)
        log.say(line, checks.RULE_DODGE)
        return _next_pending(state, log)
    times = 2 if (pending.critical or rolled.outcome == checks.FUMBLE) else 1
    if pending.critical and rolled.outcome == checks.CRITICAL:
        line = msg("wing_commander.log.fails_dodge_critical_stands", "{ship} fails to dodge {attacker}: a critical "
                   "dodge, but the critical hit stands.", **params)
    elif pending.critical:
        line = msg("wing_commander.log.fails_dodge_critical", "{ship} fails to dodge {attacker}: the critical hit "
                   "stands.", **params)
    elif rolled.outcome == checks.FUMBLE:
        line = msg("wing_commander.log.fails_dodge_fumble", "{ship} fails to dodge {attacker}: a dodge fumble: an "
                   "especially heavy hit, damage rolled twice.", **params)
    else:
        line = msg("wing_commander.log.fails_dodge", "{ship} fails to dodge {attacker}: {total} does not reach "
                   "{value}.", total=rolled.total, value=pending.value, **params)
    log.say(line, checks.RULE_FUMBLE if rolled.outcome == checks.FUMBLE else checks.RULE_DODGE)
    state = hit(state, pending.attacker, pending.weapon, defender.id, times, dice, log)
    return _next_pending(state, log)
