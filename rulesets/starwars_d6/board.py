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
#: a ship's name on the board, in SVG units: about 11 px where the board is drawn 620 px wide
#: (a 1024-pixel screen beside the turn panel), more on a wider screen or a phone (which scrolls)
NAME_FONT = 13
NAME_CHARS = 12                # longer names are cut with an ellipsis (the full name is the ship's title)
#: the points left written in a lit hex, in SVG units
NUMBER_FONT = 10


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
    _place_words(out, size)
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


# ---------------------------------------------------------------- words on the board
def short_name(name: str) -> str:
    return name if len(name) <= NAME_CHARS else name[:NAME_CHARS - 1] + "…"


#: a font's line box around its baseline, in ems (what a browser's text box covers: DejaVu Sans)
ASCENT, DESCENT = 0.93, 0.24
LETTER = 0.62                  # a letter's width, in ems, a little generous


def _name_box(x: float, baseline: float, text: str) -> tuple[float, float, float, float]:
    """The box a centred name covers."""
    half = LETTER / 2 * NAME_FONT * len(text)
    return (x - half, baseline - ASCENT * NAME_FONT, x + half, baseline + DESCENT * NAME_FONT)


def _number_box(x: float, baseline: float, text: str) -> tuple[float, float, float, float]:
    """The box a centred number covers."""
    half = LETTER / 2 * NUMBER_FONT * max(1, len(text))
    return (x - half, baseline - ASCENT * NUMBER_FONT, x + half, baseline + DESCENT * NUMBER_FONT)


def _overlap(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _place_words(out: dict, size: float) -> None:
    """Where each ship's name and each lit hex's number go, so that no name covers a number.

    A name sits in the band between its ship's row and the next one down (its top on the line
    where the hexes below begin: ``name_y`` is its baseline), or the band above when that
    crosses another ship or a name already placed, or leaves the board; it is kept inside the
    board.  A lit hex's number goes in the middle of its hex or, when a name or a ship covers
    the middle, as near it as it can within the hex: a name's band covers the upper or the lower
    part of the hexes it crosses, so the number has the other (``ny``: its baseline)."""
    h = size * ROOT3 / 2
    ships = [(s["x"] - 9, s["y"] - 13, s["x"] + 9, s["y"] + 10) for s in out["ships"]]
    names: list[tuple] = []
    for s, glyph in zip(out["ships"], ships):
        text = short_name(str(s.get("name", "")))
        half = LETTER / 2 * NAME_FONT * len(text)
        x = min(max(s["x"], half - 2), out["width"] + 2 - half)
        best = None
        for baseline in (s["y"] + h - 1 + ASCENT * NAME_FONT, s["y"] - h + 1 - DESCENT * NAME_FONT):
            box = _name_box(x, baseline, text)
            near = (box[0] - 3, box[1], box[2] + 3, box[3])  # two names side by side keep a gap
            clashes = 3 * sum(_overlap(box, g) for g in ships if g is not glyph)
            clashes += 3 * sum(_overlap(near, n) for n in names)
            clashes += 5 * (box[1] < -2 or box[3] > out["height"] + 2)
            if best is None or clashes < best[0]:
                best = (clashes, baseline, box)
        s["label"], s["name_x"], s["name_y"] = text, round(x, 1), round(best[1], 1)
        names.append(best[2])
    covers = [(n[0] - 1, n[1] - 1.5, n[2] + 1, n[3] + 1.5) for n in names] + ships  # a margin for the font's own metrics
    half_number = (ASCENT + DESCENT) / 2 * NUMBER_FONT
    for t in out["targets"]:
        text = "" if t.get("left") is None else str(t["left"])
        centred = t["y"] + (ASCENT - DESCENT) / 2 * NUMBER_FONT  # the baseline of a number in the middle
        room = int(h - half_number)
        best = None  # (overlap, distance from the middle, dx, dy): no overlap if there is room for it
        for dy in range(-room, room + 1):
            for dx in ((0, -5, 5) if abs(dy) <= room - 4 else (0,)):  # sideways where the hex is wide
                box = _number_box(t["x"] + dx, centred + dy, text)
                hidden = sum(_area(box, c) for c in covers)
                key = (hidden, abs(dy) + abs(dx))
                if best is None or key < best[0]:
                    best = (key, dx, dy)
        t["nx"], t["ny"] = round(t["x"] + best[1], 1), round(centred + best[2], 1)


def _area(a, b) -> float:
    """The area two boxes share."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
