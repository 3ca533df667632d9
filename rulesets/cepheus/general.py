"""Steps any crew member may take: reload a weapon, change position, a personal or a miscellaneous
action (Ricaricare; Cambiare posizione; Azione personale; Varie)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from .crew import POSITION_LABEL
from .economy import spend_minor, spend_significant
from .tables import SEC, WEAPONS

if TYPE_CHECKING:
    from rulesets.core.engine import Action

    from .state import Tx


def do_reload(tx: Tx, a: Action):
    spend_significant(tx)
    s = tx.s
    ship, crew = s.actor()
    assert ship is not None and crew is not None  # a crew step: a crew member of the acting ship takes it
    m = tx.mount(ship.id, a.get("mount"))
    w = m.weapons[int(a.get("weapon"))]
    cap = WEAPONS[w.type].capacity
    moved = min(cap - w.loaded, w.reserve)
    w.loaded += moved
    w.reserve -= moved
    tx.say(f"{crew.name} reloads the {WEAPONS[w.type].label} in {m.id} ({w.loaded} loaded, {w.reserve} in store).",
           SEC["reload"])


def do_personal(tx: Tx, a: Action):
    spend_minor(tx)
    c = tx.s.acting_crew
    assert c is not None
    if tx.recording:
        tx.say(f"{c.name} takes a personal action (GM adjudicates).", SEC["personal"])


def do_misc(tx: Tx, a: Action):
    spend_significant(tx)
    c = tx.s.acting_crew
    assert c is not None
    if tx.recording:
        tx.say(f"{c.name} takes a miscellaneous action (GM adjudicates; use the override for effects).", SEC["misc"])


def do_change_position(tx: Tx, a: Action):
    spend_minor(tx)
    s = tx.s
    ship, c = s.actor()
    assert ship is not None and c is not None
    m = tx.crew(ship.id, c.id)
    m.position = a.get("position")
    m.station = a.get("station", "")
    tx.say(f"{c.name} moves to {POSITION_LABEL[m.position]}{' at ' + m.station if m.station else ''}.",
           SEC["change_position"])
