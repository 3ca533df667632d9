"""The board as the runner draws it, and courses: several moves to one clicked hex.

Pure Python (no Django import).  Geometry follows :mod:`.hexes`: flat-topped hexes in
odd-q offset coordinates, facing 0 north and clockwise.

* :func:`plan_course` finds the moves that take a ship to a hex with the most speed
  points left (then the most free turns): the GM clicks a hex, the engine makes those
  moves one by one through the ordinary movement rules.
* :func:`layout` turns the engine's board view into pixel coordinates for the SVG.
"""
from __future__ import annotations

import math
from functools import lru_cache
from collections.abc import Callable

from . import hexes
SIZE = 16                      # hex radius in SVG units
ROOT3 = math.sqrt(3)


def course_targets(start: hexes.MoveState, moves: Callable[[hexes.MoveState], list[hexes.Move]],
                   board: hexes.Board) -> dict[hexes.Hex, tuple[hexes.MoveState, list[hexes.Move]]]:
    """Every hex on the board the ship can move into this phase (not its own), with the best
    state it can arrive in and the moves that get it there.

    Best = most speed points left, then most free turns left, then fewest moves.  Holding
    and leaving the board end a movement, so they are never part of a course.  A state no
    better than one already seen at the same hex, facing and after-forward flag (no more
    speed and no more free turns left) can lead nowhere new, so it is not explored again.
    """
    best: dict[hexes.Hex, tuple[tuple, hexes.MoveState, list[hexes.Move]]] = {}
    seen: dict[tuple, list[tuple[int, int]]] = {}
    frontier: list[tuple[hexes.MoveState, list[hexes.Move]]] = [(start, [])]
    while frontier:  # breadth first: the first path found to a state is a shortest one
        nxt = []
        for cur, path in frontier:
            for m in moves(cur):
                if m.after.done or m.kind == "hold":
                    continue
                a = m.after
                points = seen.setdefault((a.pos, a.facing, a.after_forward), [])
                if any(sp >= a.speed_left and fr >= a.free_turns_left for sp, fr in points):
                    continue
                points.append((a.speed_left, a.free_turns_left))
                route = [*path, m]
                if a.pos != start.pos and board.contains(a.pos):
                    rank = (a.speed_left, a.free_turns_left, -len(route))
                    old = best.get(a.pos)
                    if old is None or rank > old[0]:
                        best[a.pos] = (rank, a, route)
                nxt.append((a, route))
        frontier = nxt
    return {hex_: (after, route) for hex_, (_, after, route) in best.items()}


def plan_course(start: hexes.MoveState, moves: Callable[[hexes.MoveState], list[hexes.Move]], board: hexes.Board,
                target: hexes.Hex) -> list[hexes.Move] | None:
    """The moves to ``target`` leaving the most points, or None if it cannot be reached."""
    found = course_targets(start, moves, board).get(tuple(target))
    return found[1] if found else None


# ---------------------------------------------------------------- drawing
def centre(col: int, row: int, size: float = SIZE) -> tuple[float, float]:
    """Pixel centre of a hex (odd columns are half a hex lower)."""
    return (size * (1 + 1.5 * col), size * ROOT3 * (row + 0.5 + 0.5 * (col & 1)))


def corners(x: float, y: float, size: float = SIZE) -> list[tuple[float, float]]:
    h = size * ROOT3 / 2
    return [(x + size, y), (x + size / 2, y + h), (x - size / 2, y + h), (x - size, y),
            (x - size / 2, y - h), (x + size / 2, y - h)]


def polygon(col: int, row: int, size: float = SIZE) -> str:
    return " ".join(f"{px:.1f},{py:.1f}" for px, py in corners(*centre(col, row, size), size))


@lru_cache(maxsize=32)
def grid_path(width: int, height: int, size: float = SIZE) -> str:
    """One SVG path drawing every hex outline of the board."""
    parts = []
    for col in range(width):
        for row in range(height):
            pts = corners(*centre(col, row, size), size)
            parts.append("M" + "L".join(f"{px:.1f} {py:.1f}" for px, py in pts) + "Z")
    return "".join(parts)


def pixel_size(width: int, height: int, size: float = SIZE) -> tuple[float, float]:
    return (size * (1.5 * width + 0.5), size * ROOT3 * (height + 0.5))


def layout(board: dict, ships: list[dict], targets: dict[tuple[int, int], dict] | None = None,
           size: float = SIZE) -> dict:
    """Pixel positions for the board view: ships (with a nose pointing along the facing),
    features, and the GM's clickable targets ({(col, row): {"action", "label", "left"}})."""
    w, h = int(board["width"]), int(board["height"])
    px, py = pixel_size(w, h, size)
    out = {"width": round(px, 1), "height": round(py, 1), "grid": grid_path(w, h, size), "ships": [],
           "features": [], "targets": [], "reach": []}
    for f in board.get("features") or []:
        x, y = centre(f["col"], f["row"], size)
        out["features"].append({**f, "x": round(x, 1), "y": round(y, 1), "points": polygon(f["col"], f["row"], size),
                                "r": round(size * {"planet": 0.9, "moon": 0.55}.get(f["kind"], 0.7), 1)})
    for s in ships:
        if not s.get("in_play", True):
            continue
        col, row = s["pos"]
        x, y = centre(col, row, size)
        angle = 60 * hexes.FACING_NAME.index(s["facing"])
        out["ships"].append({**s, "x": round(x, 1), "y": round(y, 1), "angle": angle,
                             "points": polygon(col, row, size)})
    for (col, row), t in sorted((targets or {}).items()):
        x, y = centre(col, row, size)
        out["targets"].append({**t, "col": col, "row": row, "x": round(x, 1), "y": round(y, 1),
                               "points": polygon(col, row, size)})
    out["shots"] = []
    for shot in board.get("shots") or []:
        (x1, y1), (x2, y2) = centre(*shot["from"], size), centre(*shot["to"], size)
        out["shots"].append({**shot, "x1": round(x1, 1), "y1": round(y1, 1), "x2": round(x2, 1), "y2": round(y2, 1)})
    for r in board.get("reach") or []:
        if (r["col"], r["row"]) in (targets or {}):
            continue
        x, y = centre(r["col"], r["row"], size)
        out["reach"].append({**r, "x": round(x, 1), "y": round(y, 1), "points": polygon(r["col"], r["row"], size)})
    return out
