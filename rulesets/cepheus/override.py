"""The GM's escape hatch (RULES-NOTES): set a stat, status, position or range by hand."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.engine import IllegalAction

from .crew import POSITION_LABEL
from .damage import over_check
from .manoeuvre import set_band
from .queries import BANDS
from .state import SYSTEMS
from .tables import SEC

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Tx


HELP = ("A path and a value: <ship>.hull, <ship>.structure, <ship>.status, <ship>.hits.<system>, "
        "<ship>.<mount>.hits, <ship>.crew.<crew>.damage, range.<ship>.<ship> = a band, round.")

_SHIP_INTS = ("hull", "structure", "armour", "fuel", "cargo", "speed", "initiative", "reactions", "evasive",
              "lined_up", "pool", "pursuit_turns", "boost_next", "thrust_max")


_SHIP_STRS = {"status": ("active", "disabled", "destroyed", "escaped", "boarded", "captured"),
              "position": ("space", "orbit", "decaying", "atmosphere"), "pursuing": None, "jammed": None,
              "intel": None}


def override(tx: Tx, path: str, value):
    """RULES-NOTES, the GM's escape hatch: set a stat, status or position by hand.

    Paths: ``<ship>.<field>`` (hull, structure, armour, speed, status, position...),
    ``<ship>.hits.<system>``, ``<ship>.<mount>.hits``, ``<ship>.<mount>.<weapon index>.loaded``,
    ``<ship>.crew.<crew id>.<damage|rads|position|station>``, ``range.<ship>.<ship>`` = band,
    ``round`` = number.
    """
    s = tx.s
    parts = path.split(".")
    try:
        if parts[0] == "range" and len(parts) == 3:
            if value not in BANDS:
                raise IllegalAction(f"'{value}' is not a range band.")
            set_band(tx, parts[1], parts[2], None, band=str(value))
        elif parts[0] == "round" and len(parts) == 1:
            s.round = int(value)
        else:
            ship = s.ship(parts[0])
            sh = tx.ship(ship.id)
            if len(parts) == 2 and parts[1] in _SHIP_INTS:
                setattr(sh, parts[1], max(0, int(value)) if parts[1] not in ("evasive", "initiative") else int(value))
            elif len(parts) == 2 and parts[1] in _SHIP_STRS:
                allowed = _SHIP_STRS[parts[1]]
                if allowed and value not in allowed:
                    raise IllegalAction(f"{parts[1]} must be one of {', '.join(allowed)}.")
                setattr(sh, parts[1], str(value))
            elif len(parts) == 2 and parts[1] == "jump_plotted":
                sh.jump_plotted = str(value).lower() in ("1", "true", "yes")
            elif len(parts) == 3 and parts[1] == "hits" and parts[2] in SYSTEMS:
                sh.hits[parts[2]] = max(0, min(3, int(value)))
            elif len(parts) == 3 and ship.mount(parts[1]) and parts[2] == "hits":
                tx.mount(ship.id, parts[1]).hits = max(0, min(3, int(value)))
            elif len(parts) == 4 and ship.mount(parts[1]) and parts[3] in ("loaded", "reserve"):
                w = tx.mount(ship.id, parts[1]).weapons[int(parts[2])]
                setattr(w, parts[3], max(0, int(value)))
            elif len(parts) == 4 and parts[1] == "crew":
                c = tx.crew(ship.id, parts[2])
                if parts[3] in ("damage", "rads"):
                    setattr(c, parts[3], max(0, int(value)))
                elif parts[3] == "position" and value in POSITION_LABEL:
                    c.position = str(value)
                elif parts[3] == "station":
                    c.station = str(value)
                else:
                    raise IllegalAction(f"Cannot set crew field '{parts[3]}' to {value!r}.")
            else:
                raise IllegalAction(f"Unknown override path '{path}'.")
    except (KeyError, IndexError, TypeError) as exc:
        raise IllegalAction(f"Unknown override path '{path}'.") from exc
    except ValueError as exc:
        if isinstance(exc, IllegalAction):
            raise
        raise IllegalAction(f"Bad value {value!r} for '{path}'.") from exc
    tx.say(f"GM override: {path} = {value}.", SEC["override"])


def do_override(tx: Tx, a: Action):
    path, value = a.get("path"), a.get("value")
    if not path:
        tx.say("GM override with nothing to change.", SEC["override"], gm_only=True)
        return
    override(tx, str(path), value)
    over_check(tx)
