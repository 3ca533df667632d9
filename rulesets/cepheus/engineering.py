"""Engineers and damage control: the jump, repairs, extended tasks (Azioni estese)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import msg
from rulesets.core.state import clone

from .checks import CHECKS, perform
from .damage import drop_ship_links, over_check, repair_system, system_label
from .economy import spend_significant
from .queries import jump_fuel
from .state import SYSTEMS, Task
from .tables import REPAIR_TABLE_NAME, SEC, SEC_REPAIR, hits_repaired
from .words import hits as hits_of, turns as turns_of

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Tx


def do_jump(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["jump"], ship, c, a, msg("cepheus.roll.jump", "{ship} jumps", ship=ship.name))
    if effect >= 0:
        sh = tx.ship(ship.id)
        sh.fuel -= jump_fuel(sh)
        sh.status = "escaped"
        sh.pursuing = ""
        tx.say(msg("cepheus.log.jumped", "{ship} jumps out of the fight.", ship=ship.name), SEC["jump_plot"])
        drop_ship_links(tx, ship.id)
        over_check(tx)
    else:
        tx.say(msg("cepheus.log.no_jump", "{ship}'s jump fails to engage.", ship=ship.name), SEC["jump_plot"])


def do_repair(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    system = a.get("system")
    label = system_label(ship, system)
    roll, effect = perform(tx, CHECKS["repair"], ship, c, a,
                           msg("cepheus.roll.repair", "{name} repairs {system}", name=c.name, system=label))
    if effect >= 0:
        n, row = hits_repaired(effect)
        fixed = repair_system(tx, ship.id, system, n)
        tx.inside(ship, msg("cepheus.log.repaired", "{name} repairs {hits} on {system} ({table}: {row}); a battlefield "
                            "repair, undone after the battle.", name=c.name, hits=hits_of(fixed), system=label,
                            table=REPAIR_TABLE_NAME, row=row), SEC["repair"])
    else:
        tx.inside(ship, msg("cepheus.log.repair_fails", "{name}'s repair fails.", name=c.name), SEC["repair"])


def do_overhaul(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    system = a.get("system")
    label = system_label(ship, system)
    roll, effect = perform(tx, CHECKS["overhaul"], ship, c, a,
                           msg("cepheus.roll.overhaul", "{name} starts rebuilding {system}", name=c.name, system=label))
    if effect >= 0:
        timing = tx.dice.roll(1, 6, purpose=msg("cepheus.roll.timing", "timing: turns of work"), rule=SEC["extended"])
        turns = max(1, timing.total - effect // 2)
        tx.crew(ship.id, c.id).task = Task("overhaul", system, turns)
        tx.inside(ship, msg("cepheus.log.overhaul", "{name} begins an extended repair of {system}: {turns}.",
                            name=c.name, system=label, turns=turns_of(turns)), SEC["extended"])
    else:
        tx.inside(ship, msg("cepheus.log.no_overhaul", "{name} cannot find a way to rebuild {system}.", name=c.name,
                            system=label), SEC["extended"])


def do_continue_task(tx: Tx, a: Action):
    s = tx.s
    ship, c = s.actor()
    assert ship is not None and c is not None  # a crew step: a crew member of the acting ship takes it
    s.sig, s.minor = 0, 0
    m = tx.crew(ship.id, c.id)
    assert m.task is not None  # legal only for a crew member with a task
    task = m.task = clone(m.task, done=m.task.done + 1)
    if task.done >= task.turns:
        system = task.system
        sh = tx.ship(ship.id)
        if system in SYSTEMS:
            sh.hits[system] = 1
            sh.repaired[system] = sh.repaired.get(system, 0) + 2
            if system == "power_plant" and sh.status == "disabled" and sh.hull > 0:
                sh.status = "active"
        else:
            mm = tx.mount(ship.id, system)
            mm.hits, mm.repaired = 1, mm.repaired + 2
        m.task = None
        tx.inside(ship, msg("cepheus.log.overhauled", "{name} finishes the extended repair: {system} works again "
                            "(one hit left).", name=c.name, system=system_label(ship, system)), SEC["extended"])
    else:
        tx.inside(ship, msg("cepheus.log.works_on", "{name} works on ({done}/{turns}).", name=c.name, done=task.done,
                            turns=task.turns), SEC["extended"])


def do_abandon_task(tx: Tx, a: Action):
    s = tx.s
    ship, c = s.actor()
    assert ship is not None and c is not None
    tx.crew(ship.id, c.id).task = None
    tx.inside(ship, msg("cepheus.log.abandon", "{name} abandons the extended task and returns to the initiative order.",
                        name=c.name), SEC["extended"])
