"""Engineers and damage control: the jump, repairs, extended tasks (Azioni estese)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.state import clone
from rulesets.core.words import count

from .checks import CHECKS, perform
from .damage import drop_ship_links, over_check, repair_system, system_label
from .economy import spend_significant
from .queries import jump_fuel
from .state import SYSTEMS, Task
from .tables import SEC, SEC_REPAIR, hits_repaired

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Tx


def do_jump(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["jump"], ship, c, a, f"{ship.name} jumps")
    if effect >= 0:
        sh = tx.ship(ship.id)
        sh.fuel -= jump_fuel(sh)
        sh.status = "escaped"
        sh.pursuing = ""
        if tx.recording:
            tx.say(f"{ship.name} jumps out of the fight.", SEC["jump_plot"])
        drop_ship_links(tx, ship.id)
        over_check(tx)
    else:
        if tx.recording:
            tx.say(f"{ship.name}'s jump fails to engage.", SEC["jump_plot"])


def do_repair(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    system = a.get("system")
    roll, effect = perform(tx, CHECKS["repair"], ship, c, a,
                           f"{c.name} repairs {system_label(ship, system)}" if tx.recording else "")
    if effect >= 0:
        n, row = hits_repaired(effect)
        fixed = repair_system(tx, ship.id, system, n)
        if tx.recording:
            tx.inside(ship, f"{c.name} repairs {count(fixed, 'hit')} on {system_label(ship, system)} ({SEC_REPAIR}: {row}); "
                   f"a battlefield repair, undone after the battle.", SEC["repair"])
    else:
        if tx.recording:
            tx.inside(ship, f"{c.name}'s repair fails.", SEC["repair"])


def do_overhaul(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    system = a.get("system")
    roll, effect = perform(tx, CHECKS["overhaul"], ship, c, a, f"{c.name} starts rebuilding {system_label(ship, system)}")
    if effect >= 0:
        timing = tx.dice.roll(1, 6, purpose="timing: turns of work", rule=SEC["extended"])
        turns = max(1, timing.total - effect // 2)
        tx.crew(ship.id, c.id).task = Task("overhaul", system, turns)
        if tx.recording:
            tx.inside(ship, f"{c.name} begins an extended repair of {system_label(ship, system)}: {count(turns, 'turn')}.", SEC["extended"])
    else:
        if tx.recording:
            tx.inside(ship, f"{c.name} cannot find a way to rebuild {system_label(ship, system)}.", SEC["extended"])


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
        tx.inside(ship, f"{c.name} finishes the extended repair: {system_label(ship, system)} works again (one hit left).",
               SEC["extended"])
    else:
        if tx.recording:
            tx.inside(ship, f"{c.name} works on ({task.done}/{task.turns}).", SEC["extended"])


def do_abandon_task(tx: Tx, a: Action):
    s = tx.s
    ship, c = s.actor()
    assert ship is not None and c is not None
    tx.crew(ship.id, c.id).task = None
    if tx.recording:
        tx.inside(ship, f"{c.name} abandons the extended task and returns to the initiative order.", SEC["extended"])
