"""The Captain: coordinating the crew, initiative, exploiting intercepted intentions."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import msg

from .checks import CHECKS, perform
from .economy import spend_significant
from .tables import SEC

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Tx


def do_coordinate(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["coordinate"], ship, c, a,
                           msg("cepheus.roll.coordinate", "{name} coordinates the crew", name=c.name))
    if effect >= 0:
        tx.ship(ship.id).pool = max(1, effect)
        tx.inside(ship, msg("cepheus.log.pool", "{name} has a pool of {n} DM+1 to hand out this turn.", name=c.name,
                            n=max(1, effect)), SEC["coordinate"])
    else:
        tx.inside(ship, msg("cepheus.log.no_pool", "{name} fails to coordinate the crew.", name=c.name),
                  SEC["coordinate"])


def do_assign(tx: Tx, a: Action):
    ship = tx.s.acting_ship
    assert ship is not None  # the Captain's step: the acting ship's
    sh = tx.ship(ship.id)
    who = a.get("crew")
    sh.pool -= 1
    sh.bonus[who] = sh.bonus.get(who, 0) + 1
    member = sh.member(who)
    assert member is not None
    tx.inside(sh, msg("cepheus.log.assign", "The Captain gives {name} DM+1 for their next check this turn.",
                      name=member.name), SEC["coordinate"])


def do_increase_initiative(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["increase_initiative"], ship, c, a,
                           msg("cepheus.roll.push_initiative", "{name} pushes for initiative", name=c.name))
    if effect > 0:
        tx.ship(ship.id).boost_next += effect
        tx.inside(ship, msg("cepheus.log.initiative_up", "{ship}'s initiative is {effect:+d} for the next round.",
                            ship=ship.name, effect=effect), SEC["increase_initiative"])
    else:
        tx.inside(ship, msg("cepheus.log.initiative_same", "{ship}'s initiative does not change.", ship=ship.name),
                  SEC["increase_initiative"])


def do_exploit(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    enemy = ship.intercepted
    roll, effect = perform(tx, CHECKS["exploit"], ship, c, a,
                           msg("cepheus.roll.exploit", "{name} reads the intercepted traffic", name=c.name))
    sh = tx.ship(ship.id)
    sh.intercepted = ""
    if effect >= 0:
        sh.intel = enemy
        tx.inside(ship, msg("cepheus.log.intel", "{name} knows {enemy}'s intentions: a one-time DM+4 against it.",
                            name=c.name, enemy=tx.s.ship(enemy).name), SEC["intercept"])
    else:
        tx.inside(ship, msg("cepheus.log.no_intel", "{name} cannot make sense of the intercepts.", name=c.name),
                  SEC["intercept"])
