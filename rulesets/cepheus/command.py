"""The Captain: coordinating the crew, initiative, exploiting intercepted intentions."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .checks import CHECKS, perform
from .economy import spend_significant
from .tables import SEC

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Tx


def do_coordinate(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["coordinate"], ship, c, a, f"{c.name} coordinates the crew" if tx.recording else "")
    if effect >= 0:
        tx.ship(ship.id).pool = max(1, effect)
        if tx.recording:
            tx.inside(ship, f"{c.name} has a pool of {max(1, effect)} DM+1 to hand out this turn.", SEC["coordinate"])
    else:
        if tx.recording:
            tx.inside(ship, f"{c.name} fails to coordinate the crew.", SEC["coordinate"])


def do_assign(tx: Tx, a: Action):
    ship = tx.s.acting_ship
    assert ship is not None  # the Captain's step: the acting ship's
    sh = tx.ship(ship.id)
    who = a.get("crew")
    sh.pool -= 1
    sh.bonus[who] = sh.bonus.get(who, 0) + 1
    if tx.recording:
        member = sh.member(who)
        assert member is not None
        tx.inside(sh, f"The Captain gives {member.name} DM+1 for their next check this turn.", SEC["coordinate"])


def do_increase_initiative(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["increase_initiative"], ship, c, a, f"{c.name} pushes for initiative")
    if effect > 0:
        tx.ship(ship.id).boost_next += effect
        if tx.recording:
            tx.inside(ship, f"{ship.name}'s initiative is {effect:+d} for the next round.", SEC["increase_initiative"])
    else:
        if tx.recording:
            tx.inside(ship, f"{ship.name}'s initiative does not change.", SEC["increase_initiative"])


def do_exploit(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    enemy = ship.intercepted
    roll, effect = perform(tx, CHECKS["exploit"], ship, c, a, f"{c.name} reads the intercepted traffic")
    sh = tx.ship(ship.id)
    sh.intercepted = ""
    if effect >= 0:
        sh.intel = enemy
        if tx.recording:
            tx.inside(ship, f"{c.name} knows {tx.s.ship(enemy).name}'s intentions: a one-time DM+4 against it.", SEC["intercept"])
    else:
        if tx.recording:
            tx.inside(ship, f"{c.name} cannot make sense of the intercepts.", SEC["intercept"])
