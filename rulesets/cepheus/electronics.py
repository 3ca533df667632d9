"""The sensor operator: sensor targeting, electronic warfare, intercepts, communications."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.state import clone

from .attacks import set_missile
from .checks import CHECKS, contest, declared, perform
from .economy import spend_significant
from .tables import EXCEPTIONAL, SEC

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Tx


def do_sensor_target(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    roll, effect = perform(tx, CHECKS["sensor_target"], ship, c, a, f"{ship.name}: sensor lock on {target.name}" if tx.recording else "")
    if effect >= 0:
        bonus = 2 if effect >= EXCEPTIONAL else 1
        tx.ship(ship.id).targeting[target.id] = bonus
        if tx.recording:
            tx.inside(ship, f"{ship.name}'s gunners get DM+{bonus} against {target.name} this turn.", SEC["sensor_targeting"])
    else:
        if tx.recording:
            tx.inside(ship, f"{ship.name} gets no sensor lock on {target.name}.", SEC["sensor_targeting"])


def do_jam(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    won = contest(tx, CHECKS["jam"], ship, c, a, f"{ship.name} jams {target.name}")
    if won:
        t = tx.ship(target.id)
        t.jammed = ship.id
        t.targeting = {}
        if tx.recording:
            tx.say(f"{target.name}'s comms and sensor locks are jammed.", SEC["ew"])
    else:
        if tx.recording:
            tx.say(f"{target.name} burns through the jamming.", SEC["ew"])


def do_ew_missiles(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    attempt = 0
    while True:
        smart = [m for m in tx.s.missiles if m.target == ship.id and m.kind == "smart" and m.count > 0]
        if not smart:
            break
        roll, effect = perform(tx, CHECKS["ew_missiles"], ship, c, a,
                               f"{ship.name}: electronic warfare against smart missiles (attempt {attempt + 1})",
                               extra=[("earlier attempts", -attempt)])
        attempt += 1
        if effect < 0:
            tx.say("The jamming fails; the sensor operator stops.", SEC["ew"])
            break
        m = smart[0]
        set_missile(tx, clone(m, count=m.count - 1))
        if tx.recording:
            tx.say(f"A smart missile from {s.ship(m.source).name} is jammed and stops attacking.", SEC["ew"])


def do_intercept(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    roll, effect = perform(tx, CHECKS["intercept"], ship, c, a, f"{ship.name} intercepts {target.name}'s traffic")
    if effect >= 0:
        tx.ship(ship.id).intercepted = target.id
        if tx.recording:
            tx.inside(ship, f"{ship.name} intercepts {target.name}'s communications; the Captain may exploit them.", SEC["intercept"])
    else:
        if tx.recording:
            tx.inside(ship, f"{ship.name} intercepts nothing useful.", SEC["intercept"])


def do_maintain_comms(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    check = declared(s, ship, a)
    assert check is not None  # maintaining comms always makes a check
    if check.opponent is not None:
        won = contest(tx, check, ship, c, a, f"{ship.name} restores comms through the jamming")
    else:
        roll, effect = perform(tx, check, ship, c, a, f"{ship.name} maintains communications")
        won = effect >= 0
    sh = tx.ship(ship.id)
    if won:
        sh.jammed = ""
        if tx.recording:
            tx.inside(ship, f"{ship.name} has reliable communications.", SEC["maintain_comms"])
    else:
        if tx.recording:
            tx.inside(ship, f"{ship.name} cannot establish reliable communications.", SEC["maintain_comms"])
