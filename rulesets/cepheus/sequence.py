"""The turn sequence: initiative, the round, each ship's turn, delay, and who decides next.

The turn is a sequence of steps, each a decision of one side:

* ``initiative``: each side rolls (the fleet commander's Tactics, 2D6 or an aware 12);
* the round opens with the missiles that arrive (the target may react);
* each ship in initiative order takes its turn: the Captain (who may declare the
  crew hasty or delay), then each crew member by position takes one minor and one
  significant action, or three minor actions; an attack gives the target a reaction
  step (dodge, sand, point defence, screens, or no reaction);
* the damage of a ship's attacks is resolved at the end of its turn (of the group of
  ships tied on initiative and Thrust, who act simultaneously).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import msg
from rulesets.core.state import clone

from .attacks import missile_at_personal, reaction_options, resolve_fire, resolve_missiles
from .boarding import resolve_boarding
from .checks import CHECKS, perform
from .crew import POSITION_ORDER, able, char_of, skill_of
from .damage import flush_hits, over_check
from .manoeuvre import avoid_collision, uncontrolled_reentry
from .queries import eff_init, find_missile, personal_target, role_active
from .state import Pending, Suspended
from .tables import COLLISION_SITUATIONS, SEC, reactions_for
from .words import listing

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import CombatState, Crew, Ship, Tx


HIGHER_THRUST = msg("cepheus.mod.higher_thrust", "higher Thrust")


def start_round(tx: Tx):
    s = tx.s
    s.round += 1
    if s.round > s.options.max_rounds:
        s.round = s.options.max_rounds
        s.over, s.phase, s.winner = True, "over", None
        tx.say(msg("cepheus.log.round_limit", "Round limit ({n}) reached: the fight ends as a draw.",
                   n=s.options.max_rounds), SEC["checklist"])
        return
    for sh in s.ships:
        if sh.status == "boarded":
            tx.ship(sh.id).status = "captured"
            tx.say(msg("cepheus.log.captured", "The boarders take control of {ship}: it is captured.", ship=sh.name),
                   SEC["abstract_boarding"])
        if not sh.alive:
            continue
        m = tx.ship(sh.id)
        m.boost, m.boost_next = m.boost_next, 0
        m.fired = []
        m.delayed = False
        m.reactions = 0 if m.no_reactions else reactions_for(eff_init(s, m))
        m.no_reactions = False
        if m.fuel_leak and m.fuel:
            m.leak_acc += m.fuel_leak * 1000
            lost, m.leak_acc = divmod(m.leak_acc, 3600)
            m.fuel = max(0, m.fuel - lost)
    live = [sh for sh in s.ships if sh.can_act]
    idx = {sh.id: i for i, sh in enumerate(s.ships)}
    live.sort(key=lambda sh: (-eff_init(s, sh), -sh.thrust, idx[sh.id]))
    s.order = [sh.id for sh in live]
    s.turn = 0
    s.waiting = []
    tx.say(msg("cepheus.log.round", "Round {round}. Order: {order}", round=s.round, order=_order(s, live)), SEC["turn"])
    # Missiles: the salvos that arrive this round strike before anyone acts (decision).
    arriving = []
    missiles = []
    for missile in s.missiles:
        missile = clone(missile, turns=missile.turns - 1)
        if missile.turns <= 0:
            arriving.append(missile.id)
        missiles.append(missile)
    s.missiles = missiles
    s.impacts = arriving
    next_impact(tx)


def _order(s: CombatState, ships: list):
    """The initiative order as the round's line lists it: "Corsair (9), Raider (7)"."""
    return listing(msg("cepheus.words.in_order", "{ship} ({n})", ship=sh.name, n=eff_init(s, sh)) for sh in ships)


def next_impact(tx: Tx):
    """The missiles arriving this round, target by target: every missile arriving at one ship together
    (from one launcher or several) is one incoming attack, and one reaction step (Difesa puntiforme)."""
    s = tx.s
    while s.impacts:
        mid = s.impacts[0]
        m = find_missile(s, mid)
        if m is not None and personal_target(s, m.target) is not None:
            s.impacts = s.impacts[1:]
            missile_at_personal(tx, m)  # a squad in vacuum suits does not react
            continue
        target = s.find_ship(m.target) if m else None
        if m is None or target is None or not target.alive:
            s.impacts = s.impacts[1:]
            if m is not None:
                s.missiles = [x for x in s.missiles if x.id != mid]
            continue
        together = [x for x in s.impacts if (other := find_missile(s, x)) is not None and other.target == m.target]
        pending = Pending("missiles", m.source, m.target, missiles=together)
        if reaction_options(s, pending, any_one=True):
            s.pending = pending
            s.phase = "react"
            return
        resolve_missiles(tx, pending)
        s.impacts = [x for x in s.impacts if x not in together]
    # all arrivals done: their damage now
    flush_hits(tx)
    over_check(tx)
    if not s.over:
        begin_turn(tx)


def begin_turn(tx: Tx):
    """Start the turn of the ship at ``order[turn]`` (skipping ships that can no longer act)."""
    s = tx.s
    while True:
        if s.over:
            return
        if s.turn >= len(s.order):
            end_round(tx)
            return
        ship = s.find_ship(s.order[s.turn])
        resumed = suspended_turn(s, s.order[s.turn]) if s.suspended else None
        if resumed is not None:
            s.suspended = [r for r in s.suspended if r is not resumed]
            s.hits = s.hits + resumed.hits
            if ship is not None and ship.can_act:
                # Ritardo: the interrupted ship goes on where it stopped
                s.queue, s.pos, s.sig, s.minor = list(resumed.queue), resumed.pos, resumed.sig, resumed.minor
                s.phase = "crew"
                tx.say(msg("cepheus.log.resumes", "{ship} resumes its turn.", ship=ship.name), SEC["delay"])
                return
            flush_hits(tx)  # the damage of its attacks still comes at the end of its turn
            over_check(tx)
        if ship is None or not ship.can_act:
            s.turn += 1
            continue
        sh = tx.ship(ship.id)
        sh.lined_up = 0
        sh.targeting = {}
        sh.pool = 0
        sh.bonus = {}
        sh.hasty = False
        sh.evasive = 0
        sh.avoided = False
        sh.pursuit_kept = False
        # the crew who act, by where their position acts in the turn (the Captain first, passengers last);
        # crew members of one position keep their order
        rank = POSITION_ORDER.get
        order = sorted([(rank(c.position, 99), i, c) for i, c in enumerate(sh.crew)
                        if role_active(sh, c)])
        s.queue = [c.id for _, _, c in order]
        s.pos = 0
        s.phase = "crew"
        if not s.queue:
            end_turn(tx)
            continue
        start_crew(s, sh, order[0][2])
        return


def start_crew(s: CombatState, ship: Ship, c: Crew):
    """Il turno: one minor and one significant action (drones: one or two repair checks)."""
    s.sig = s.options.auto_repair_checks if c.automated == "repair" else 1
    s.minor = 2 if ship.hasty else 1


def next_crew(tx: Tx, ship: Ship | None = None):
    """The next crew member of the acting ship (``ship``, when the caller has just found it) who can act."""
    s = tx.s
    s.pos += 1
    if ship is None:
        ship = s.acting_ship
    queue = s.queue
    while s.pos < len(queue):
        c = ship.member(queue[s.pos]) if ship is not None else None
        if ship is not None and c is not None and role_active(ship, c):
            start_crew(s, ship, c)
            return
        s.pos += 1
    end_turn(tx)
    if not s.over and s.phase != "delay":
        begin_turn(tx)


def end_turn(tx: Tx):
    """After every crew member has acted: pursuit upkeep, hazards, then damage (Checklist 5.3)."""
    s = tx.s
    ship = s.find_ship(s.order[s.turn]) if s.turn < len(s.order) else None
    if ship is not None and ship.alive:
        sh = tx.ship(ship.id)
        if sh.pursuing and not sh.pursuit_kept:
            tx.say(msg("cepheus.log.pursuit_lapses", "{ship} did not keep up the pursuit: it ends.", ship=sh.name),
                   SEC["pursue"])
            sh.pursuing, sh.pursuit_turns = "", 0
        sit = COLLISION_SITUATIONS[s.options.hazard]
        if sit[1] and not sh.avoided and sh.speed > 0 and not ship.delaying:
            tx.say(msg("cepheus.log.hazard_unavoided", "No one at {ship}'s helm avoided the hazard this turn: an "
                       "unskilled check.", ship=sh.name), SEC["avoid_collision"])
            avoid_collision(tx, sh, None)
        if sh.position == "decaying":
            uncontrolled_reentry(tx, sh)
    s.queue, s.pos = [], 0
    nxt = s.find_ship(s.order[s.turn + 1]) if s.turn + 1 < len(s.order) else None
    # an interrupting ship's damage comes first
    simultaneous = (ship is not None and nxt is not None and nxt.can_act
                    and eff_init(s, nxt) == eff_init(s, ship) and nxt.thrust == ship.thrust
                    and (not s.suspended or suspended_turn(s, nxt.id) is None))
    if not simultaneous:
        flush_hits(tx)
    over_check(tx)
    s.turn += 1
    if not s.over and s.waiting and [w for w in s.waiting if can_act(s, w)]:
        s.phase = "delay"


def can_act(s: CombatState, ship_id: str) -> bool:
    """Whether the ship ``ship_id`` is in the fight and can act."""
    ship = s.find_ship(ship_id)
    return ship is not None and ship.can_act


def end_round(tx: Tx):
    s = tx.s
    waiting = [w for w in s.waiting if can_act(s, w)] if s.waiting else []
    if waiting:
        s.waiting = waiting
        s.phase = "delay"
        return
    flush_hits(tx)
    over_check(tx)
    if not s.over:
        start_round(tx)


def advance(tx: Tx):
    """After a decision: continue to the next decision point."""
    s = tx.s
    if s.over or s.phase != "crew":
        return
    ship = s.acting_ship
    if ship is None or ship.status != "active":  # the ship can no longer act
        end_turn(tx)
        if not s.over and s.phase != "delay":
            begin_turn(tx)
        return
    if s.pos >= len(s.queue):
        next_crew(tx, ship)
        return
    crew = ship.member(s.queue[s.pos])
    if (crew is None or (s.sig <= 0 and s.minor <= 0 and not (ship.pool and crew.position == "captain"))
            or not role_active(ship, crew)):  # spent, or no longer acting
        next_crew(tx, ship)


def finish_reaction(tx: Tx):
    s = tx.s
    p = s.pending
    assert p is not None  # a reaction step ends a pending attack
    s.pending = None
    if p.kind == "missiles":
        resolve_missiles(tx, p)
        s.impacts = [x for x in s.impacts if x not in p.missiles]
        s.phase = "missiles"
        next_impact(tx)
        return
    s.phase = "crew"
    if p.kind == "fire":
        resolve_fire(tx, p)
    elif p.kind == "board":
        resolve_boarding(tx, p)


def do_initiative(tx: Tx, a: Action):
    s = tx.s
    side = s.order[s.turn]
    ships = [sh for sh in s.ships if sh.side == side]
    names = set(s.options.aware)
    aware = {sh.id for sh in s.ships if sh.id in names or sh.name in names or sh.side in names}
    some_aware = bool(aware) and len(aware) < len(s.ships)
    captains = [(sh, c) for sh in ships for c in sh.crew if c.position == "captain" and able(c)]
    effect = 0
    if captains:
        sh, cap = max(captains, key=lambda sc: skill_of(sc[1], "tactics")[0] + char_of(sc[1], "int"))
        fleet = len(ships) > 1
        purpose = (msg("cepheus.roll.fleet_tactics", "{side}: fleet commander {name}'s Tactics for initiative",
                       side=side, name=cap.name) if fleet else
                   msg("cepheus.roll.tactics", "{side}: Captain {name}'s Tactics for initiative", side=side,
                       name=cap.name))
        roll, effect = perform(tx, CHECKS["initiative"], sh, cap, a, purpose)
        if fleet:
            tx.inside(sh, msg("cepheus.log.fleet_tactics", "{side}: {name}'s Tactics Effect {effect:+d} goes to the "
                              "initiative of every ship of the fleet.", side=side, name=cap.name, effect=effect),
                      SEC["initiative"])
        else:
            tx.inside(sh, msg("cepheus.log.tactics", "{side}: {name}'s Tactics Effect {effect:+d} goes to the initiative "
                              "of {ship}.", side=side, name=cap.name, effect=effect, ship=sh.name), SEC["initiative"])
    s.tactics = {**s.tactics, side: effect}
    for sh in ships:
        if not sh.alive:
            continue
        others = [o.thrust for o in s.ships if o.side != side]
        thrust_dm = 1 if others and sh.thrust > max(others) else 0
        m = tx.ship(sh.id)
        if some_aware and sh.id in aware:
            m.initiative = 12 + thrust_dm
            if thrust_dm:
                tx.say(msg("cepheus.log.aware_thrust", "{ship} is aware of its enemies: initiative 12 + 1 (higher "
                           "Thrust).", ship=sh.name), SEC["checklist"])
            else:
                tx.say(msg("cepheus.log.aware", "{ship} is aware of its enemies: initiative 12.", ship=sh.name),
                       SEC["checklist"])
        else:
            roll = tx.dice.roll(2, 6, modifiers=[(HIGHER_THRUST, thrust_dm)],
                                purpose=msg("cepheus.roll.initiative", "{ship}: initiative", ship=sh.name),
                                rule=SEC["initiative"])
            m.initiative = roll.total
        tx.say(msg("cepheus.log.initiative", "{ship}: initiative {n}.", ship=sh.name, n=eff_init(s, m)),
               SEC["initiative"])
    s.turn += 1
    if s.turn >= len(s.order):
        start_round(tx)


def suspended_turn(s: CombatState, ship_id: str) -> Suspended | None:
    for record in s.suspended:
        if record.ship == ship_id:
            return record
    return None


def do_act_now(tx: Tx, a: Action):
    """Ritardo: a delaying ship acts now, between two ships' turns or interrupting a ship's turn."""
    s = tx.s
    if s.phase == "crew":
        interrupt(tx, a.actor)
        return
    ship_id = s.waiting[s.asked]
    s.waiting = [w for w in s.waiting if w != ship_id]
    s.asked = 0
    prev = s.find_ship(s.order[s.turn - 1]) if 0 < s.turn <= len(s.order) else None
    sh = tx.ship(ship_id)
    sh.delaying = False
    if prev is not None:
        sh.initiative = eff_init(s, prev) - (eff_init(s, sh) - sh.initiative)
    tx.say(msg("cepheus.log.acts_now", "{ship} stops delaying and acts now (initiative {n}).", ship=sh.name,
               n=eff_init(s, sh)), SEC["delay"])
    s.order = s.order[:s.turn] + [ship_id] + s.order[s.turn:]
    begin_turn(tx)


def interrupt(tx: Tx, ship_id: str):
    """Ritardo: the delaying Captain acts "at any later moment of the turn, even interrupting the actions
    of another"; its initiative becomes the count it acts at (the interrupted ship's)."""
    s = tx.s
    current = s.acting_ship
    assert current is not None  # interrupting the acting ship's turn
    s.suspended = s.suspended + [Suspended(current.id, list(s.queue), s.pos, s.sig, s.minor, list(s.hits))]
    s.hits = []
    s.waiting = [w for w in s.waiting if w != ship_id]
    s.asked = 0
    sh = tx.ship(ship_id)
    sh.delaying = False
    sh.initiative = eff_init(s, current) - (eff_init(s, sh) - sh.initiative)
    tx.say(msg("cepheus.log.interrupts", "{ship} stops delaying and interrupts {other}'s turn (initiative {n}).",
               ship=sh.name, other=current.name, n=eff_init(s, sh)), SEC["delay"])
    s.order = s.order[:s.turn] + [ship_id] + s.order[s.turn:]
    begin_turn(tx)


def do_keep_waiting(tx: Tx, a: Action):
    s = tx.s
    s.asked += 1
    if s.asked >= len(s.waiting):
        # everyone who waits has been asked: go on with the next ship
        s.asked = 0
        s.phase = "crew"
        begin_turn(tx)


def do_act_first(tx: Tx, a: Action):
    s = tx.s
    ship_id = s.waiting[s.asked]
    s.waiting = [w for w in s.waiting if w != ship_id]
    s.asked = 0
    others = [eff_init(s, sh) for sh in s.ships if sh.can_act and sh.id != ship_id and sh.id not in s.waiting]
    top = max(others) if others else 0
    sh = tx.ship(ship_id)
    sh.delaying = False
    sh.initiative = top + 1 - (eff_init(s, sh) - sh.initiative)
    tx.say(msg("cepheus.log.act_first", "{ship} gives up this round's actions to act first next round (initiative "
               "{n}).", ship=sh.name, n=eff_init(s, sh)), SEC["delay"])
    if not s.waiting:
        s.phase = "crew"
        end_round(tx)


def do_delay(tx: Tx, a: Action):
    s = tx.s
    ship = s.acting_ship
    assert ship is not None  # the Captain's step: the acting ship's
    sh = tx.ship(ship.id)
    sh.delaying = True
    sh.delayed = True
    tx.inside(sh, msg("cepheus.log.delays", "{ship} delays its action.", ship=sh.name), SEC["delay"])
    s.waiting = s.waiting + [sh.id]
    s.order = s.order[:s.turn] + s.order[s.turn + 1:]
    s.queue, s.pos = [], 0
    s.phase = "crew"
    begin_turn(tx)


def do_hasty(tx: Tx, a: Action):
    s = tx.s
    ship = s.acting_ship
    assert ship is not None  # the Captain's step: the acting ship's
    sh = tx.ship(ship.id)
    sh.hasty = True
    s.minor += 1
    tx.inside(sh, msg("cepheus.log.hasty", "{ship}'s Captain declares the crew acts hastily: one extra minor action "
                      "each, DM-1 to every check this turn (house rule).", ship=sh.name), SEC["hasty"])


def do_done(tx: Tx, a: Action):
    next_crew(tx)


def do_end_turn(tx: Tx, a: Action):
    s = tx.s
    s.pos = len(s.queue)
    end_turn(tx)
    if not s.over and s.phase != "delay":
        begin_turn(tx)


def do_no_reaction(tx: Tx, a: Action):
    finish_reaction(tx)
