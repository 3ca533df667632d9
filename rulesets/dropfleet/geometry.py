"""The table in inches: distances centre to centre, bearings, arcs, reach (RULES-NOTES dropfleet).

Headings and bearings are degrees clockwise from "up the table" (towards y = 0), as the
SVG board draws them.
"""
from __future__ import annotations

import math

from . import tables


def distance(ax: float, ay: float, bx: float, by: float) -> float:
    """Centre-to-centre distance in inches (DF-N08)."""
    return math.hypot(bx - ax, by - ay)


def bearing(ax: float, ay: float, bx: float, by: float) -> float:
    """The direction from a to b, degrees clockwise from up the table."""
    return math.degrees(math.atan2(bx - ax, ay - by)) % 360


def angle_between(a: float, b: float) -> float:
    """The smaller angle between two directions, 0..180."""
    d = abs(a - b) % 360
    return 360 - d if d > 180 else d


def within(ax: float, ay: float, bx: float, by: float, radius: float) -> bool:
    """"Wholly within R" read as centre distance <= R (DF-N08)."""
    return distance(ax, ay, bx, by) <= radius + 1e-9


#: each arc's wedges as (centre 0..360, half-width with the rounding slack)
_WEDGES = {arc: tuple((centre % 360, half + 1e-9) for centre, half in wedges) for arc, wedges in tables.ARCS.items()}
#: arcs that cover every direction (a wedge of half-width 180)
_ALL_ROUND = frozenset(arc for arc, wedges in tables.ARCS.items() if any(half >= 180 for _, half in wedges))


def relative_bearing(heading: float, ax: float, ay: float, bx: float, by: float) -> float:
    """The direction from a to b, degrees clockwise from a's facing ``heading``."""
    return (bearing(ax, ay, bx, by) - heading) % 360


def in_arc(heading: float, ax: float, ay: float, bx: float, by: float, arc: str) -> bool:
    """Whether b lies in the arc of a ship at a facing ``heading`` (DF-N01: the target must be in the arc)."""
    if ax == bx and ay == by:
        return True
    return arc_covers(arc, relative_bearing(heading, ax, ay, bx, by))


def sight(ax: float, ay: float, heading: float, bx: float, by: float) -> tuple[float, float | None]:
    """(distance, direction of b clockwise from a's facing; None when both stand on the same
    spot): what :func:`within` and :func:`in_arc` read, worked out once for all of a ship's weapons."""
    if ax == bx and ay == by:
        return 0.0, None
    return distance(ax, ay, bx, by), relative_bearing(heading, ax, ay, bx, by)


def seen_within(seen: tuple[float, float | None], arc: str, radius: float) -> bool:
    """:func:`within` ``radius`` and :func:`in_arc` ``arc``, read from a :func:`sight`."""
    return seen[0] <= radius + 1e-9 and (seen[1] is None or arc_covers(arc, seen[1]))


def arc_covers(arc: str, relative: float) -> bool:
    """Whether a direction ``relative`` degrees clockwise from a ship's facing lies in ``arc``
    (the second half of :func:`in_arc`, for a caller that checks several arcs at once)."""
    if arc in _ALL_ROUND:
        return True
    for centre, half in _WEDGES[arc]:
        d = abs(relative - centre) % 360
        if (360 - d if d > 180 else d) <= half:
            return True
    return False


def arc_wedges(arc: str, heading: float):
    """(start, end) absolute bearings of each wedge of an arc, for drawing."""
    return [((heading + centre - half) % 360, (heading + centre + half) % 360) for centre, half in tables.ARCS[arc]]


def point_at(x: float, y: float, direction: float, length: float) -> tuple[float, float]:
    rad = math.radians(direction)
    return x + math.sin(rad) * length, y - math.cos(rad) * length


def layer_index(layer: str) -> int:
    return tables.LAYERS.index(layer)
