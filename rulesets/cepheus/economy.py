"""A crew member's turn budget (Azioni minori, Azioni significative) and reactions spent."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.engine import IllegalAction
from rulesets.core.state import clone

from .checks import use_intel
from .queries import bridge_ok, uses_intel

if TYPE_CHECKING:
    from .state import Tx


def spend_minor(tx: Tx):
    s = tx.s
    if s.minor > 0:
        s.minor -= 1
    elif s.sig > 0:
        s.sig = 0
        s.minor = 1
    else:
        raise IllegalAction("No minor action left (Azioni minori).")


def spend_significant(tx: Tx):
    """Spend the acting crew member's significant action; returns (the acting ship, the crew member)."""
    s = tx.s
    if s.sig <= 0:
        raise IllegalAction("No significant action left (Azioni significative).")
    ship, crew = s.actor()
    s.sig = s.sig - 1 if crew is not None and crew.automated == "repair" else 0
    # The turn passes on after the significant action unless a pilot's minor remains (decision).
    # (a crew member is found only on a ship: ``ship is not None`` holds whenever ``crew`` is not None)
    if crew is not None and not (crew.position == "pilot" and s.minor > 0 and ship is not None and bridge_ok(ship)):
        s.minor = 0
    return ship, crew


def spend_reaction(tx: Tx, ship_id: str, tag: str, extra):
    sh = tx.ship(ship_id)
    sh.reactions = max(0, sh.reactions - 1)
    p = tx.s.pending
    assert p is not None  # a reaction answers a pending attack
    tx.s.pending = clone(p, used=p.used + [tag])
    if uses_intel(extra):
        use_intel(tx, ship_id, p.attacker)
