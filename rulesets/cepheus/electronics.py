"""The sensor operator: sensor targeting, electronic warfare, intercepts, communications."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import msg
from rulesets.core.state import clone

from .attacks import set_missile
from .checks import CHECKS, contest, declared, perform
from .economy import spend_significant
from .tables import EXCEPTIONAL, SEC

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Tx


EARLIER_ATTEMPTS = msg("cepheus.mod.earlier_attempts", "earlier attempts")


def do_sensor_target(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    roll, effect = perform(tx, CHECKS["sensor_target"], ship, c, a,
                           msg("cepheus.roll.sensor_lock", "{ship}: sensor lock on {target}", ship=ship.name,
                               target=target.name))
    if effect >= 0:
        bonus = 2 if effect >= EXCEPTIONAL else 1
        tx.ship(ship.id).targeting[target.id] = bonus
        tx.inside(ship, msg("cepheus.log.sensor_lock", "{ship}'s gunners get DM+{n} against {target} this turn.",
                            ship=ship.name, n=bonus, target=target.name), SEC["sensor_targeting"])
    else:
        tx.inside(ship, msg("cepheus.log.no_sensor_lock", "{ship} gets no sensor lock on {target}.", ship=ship.name,
                            target=target.name), SEC["sensor_targeting"])


def do_jam(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    won = contest(tx, CHECKS["jam"], ship, c, a, msg("cepheus.roll.jam", "{ship} jams {target}", ship=ship.name,
                                                     target=target.name))
    if won:
        t = tx.ship(target.id)
        t.jammed = ship.id
        t.targeting = {}
        tx.say(msg("cepheus.log.jammed", "{target}'s comms and sensor locks are jammed.", target=target.name), SEC["ew"])
    else:
        tx.say(msg("cepheus.log.not_jammed", "{target} burns through the jamming.", target=target.name), SEC["ew"])


def do_ew_missiles(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    attempt = 0
    while True:
        smart = [m for m in tx.s.missiles if m.target == ship.id and m.kind == "smart" and m.count > 0]
        if not smart:
            break
        roll, effect = perform(tx, CHECKS["ew_missiles"], ship, c, a,
                               msg("cepheus.roll.ew_missiles", "{ship}: electronic warfare against smart missiles "
                                   "(attempt {n})", ship=ship.name, n=attempt + 1),
                               extra=[(EARLIER_ATTEMPTS, -attempt)])
        attempt += 1
        if effect < 0:
            tx.say(msg("cepheus.log.ew_stops", "The jamming fails; the sensor operator stops."), SEC["ew"])
            break
        m = smart[0]
        set_missile(tx, clone(m, count=m.count - 1))
        tx.say(msg("cepheus.log.ew_jams", "A smart missile from {ship} is jammed and stops attacking.",
                   ship=s.ship(m.source).name), SEC["ew"])


def do_intercept(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    roll, effect = perform(tx, CHECKS["intercept"], ship, c, a,
                           msg("cepheus.roll.intercept", "{ship} intercepts {target}'s traffic", ship=ship.name,
                               target=target.name))
    if effect >= 0:
        tx.ship(ship.id).intercepted = target.id
        tx.inside(ship, msg("cepheus.log.intercepted", "{ship} intercepts {target}'s communications; the Captain may "
                            "exploit them.", ship=ship.name, target=target.name), SEC["intercept"])
    else:
        tx.inside(ship, msg("cepheus.log.not_intercepted", "{ship} intercepts nothing useful.", ship=ship.name),
                  SEC["intercept"])


def do_maintain_comms(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    check = declared(s, ship, a)
    assert check is not None  # maintaining comms always makes a check
    if check.opponent is not None:
        won = contest(tx, check, ship, c, a, msg("cepheus.roll.comms_jammed", "{ship} restores comms through the "
                                                 "jamming", ship=ship.name))
    else:
        roll, effect = perform(tx, check, ship, c, a, msg("cepheus.roll.comms", "{ship} maintains communications",
                                                          ship=ship.name))
        won = effect >= 0
    sh = tx.ship(ship.id)
    if won:
        sh.jammed = ""
        tx.inside(ship, msg("cepheus.log.comms", "{ship} has reliable communications.", ship=ship.name),
                  SEC["maintain_comms"])
    else:
        tx.inside(ship, msg("cepheus.log.no_comms", "{ship} cannot establish reliable communications.", ship=ship.name),
                  SEC["maintain_comms"])
