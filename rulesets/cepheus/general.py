"""Steps any crew member may take: reload a weapon, change position, a personal or a miscellaneous
action (Ricaricare; Cambiare posizione; Azione personale; Varie)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import msg

from .crew import POSITION_LABEL
from .economy import spend_minor, spend_significant
from .tables import SEC, WEAPONS
from .words import station_name, weapon_in

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
    tx.inside(ship, msg("cepheus.log.reload", "{name} reloads {weapon} ({loaded} loaded, {reserve} in store).",
                        name=crew.name, weapon=weapon_in(m, int(a.get("weapon"))), loaded=w.loaded, reserve=w.reserve),
              SEC["reload"])


def do_personal(tx: Tx, a: Action):
    spend_minor(tx)
    c = tx.s.acting_crew
    assert c is not None
    tx.inside(tx.s.acting_ship, msg("cepheus.log.personal", "{name} takes a personal action (GM adjudicates).",
                                    name=c.name), SEC["personal"])


def do_misc(tx: Tx, a: Action):
    spend_significant(tx)
    c = tx.s.acting_crew
    assert c is not None
    tx.inside(tx.s.acting_ship, msg("cepheus.log.misc", "{name} takes a miscellaneous action (GM adjudicates; use "
                                    "the override for effects).", name=c.name), SEC["misc"])


def do_change_position(tx: Tx, a: Action):
    spend_minor(tx)
    s = tx.s
    ship, c = s.actor()
    assert ship is not None and c is not None
    m = tx.crew(ship.id, c.id)
    m.position = a.get("position")
    m.station = a.get("station", "")
    if m.station:
        tx.inside(ship, msg("cepheus.log.move_to_station", "{name} moves to {position} at {station}.", name=c.name,
                            position=POSITION_LABEL[m.position], station=station_name(m.station)),
                  SEC["change_position"])
    else:
        tx.inside(ship, msg("cepheus.log.move_to", "{name} moves to {position}.", name=c.name,
                            position=POSITION_LABEL[m.position]), SEC["change_position"])
