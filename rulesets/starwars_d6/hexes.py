"""The hex board and the movement rules of seed section "1. MOVIMENT I MANIOBRA".

Coordinates (decision): flat-topped hexes in "odd-q" offset coordinates
``(col, row)``: columns 0..width-1 left to right, rows 0..height-1 top to bottom,
odd columns pushed half a hex down.  This is what the GM sees on a rectangular
board; distance and lines are computed in axial/cube coordinates internally.

Facings (clockwise, a ship faces a hexside): 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW.

Movement (decisions in docs/rulesets/starwars_d6.md, section "Movement"):

* forward: 1 speed point, to the hex the ship faces;
* after a forward move the ship may turn for free ("gira gratuïtament"), one
  hexside per free turn; free turns = the maneuverability dice (RULES-NOTES:
  pips ignored).  A turn with no free turn left, or without having moved forward
  first, costs 1 speed point;
* slide: 2 speed points, to the forward-left or forward-right hex, facing kept;
* hold: 0 points, ends the ship's movement;
* no backing up: no move ever enters the rear hexes;
* capital ships turn only with maneuverability dice, each turn spending one free
  turn *and* one speed point (in place or after moving); none left, no turn;
* moving off the board is legal and takes the ship out of the combat (seed
  "Retirar-se del combat": "Quan surt del taulell de joc");
* no move enters a ``blocked`` hex (planets, moons, obstacles, other ships: decision,
  docs "Special cases").

Special cases (seed "3. CASOS ESPECIALS"): :func:`ray` (a jump's line of sight),
:func:`clear_line` (the line of fire), :func:`relative_side` and :func:`collision_kind`.

Pure Python: no Django import.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from rulesets.core.messages import Message, msg, msgn

from . import tables
from .dice import DiceCode

Hex = tuple[int, int]

FACINGS = (0, 1, 2, 3, 4, 5)
FACING_NAME = ("N", "NE", "SE", "S", "SW", "NW")
#: axial (q, r) steps for each facing (flat-topped hexes).
AXIAL_DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
LEFT, RIGHT = -1, 1


# ---------------------------------------------------------------- geometry
def to_axial(h: Hex) -> tuple[int, int]:
    col, row = h
    return col, row - (col - (col & 1)) // 2


def from_axial(a: tuple[int, int]) -> Hex:
    q, r = a
    return q, r + (q - (q & 1)) // 2


def neighbour(h: Hex, facing: int) -> Hex:
    col, row = h                                    # to_axial, step, from_axial (inlined: the bot's hot path)
    dq, dr = AXIAL_DIRECTIONS[facing % 6]
    q, r = col + dq, row - (col - (col & 1)) // 2 + dr
    return q, r + (q - (q & 1)) // 2


def neighbours(h: Hex) -> list[Hex]:
    return [neighbour(h, f) for f in FACINGS]


def turned(facing: int, side: int) -> int:
    """The facing one hexside to the left (-1) or right (+1)."""
    return (facing + side) % 6


def distance(a: Hex, b: Hex) -> int:
    a_col, a_row = a                                # to_axial of both (inlined: the bot's hot path)
    b_col, b_row = b
    dq = a_col - b_col
    dr = (a_row - (a_col - (a_col & 1)) // 2) - (b_row - (b_col - (b_col & 1)) // 2)
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def direction_to(a: Hex, b: Hex) -> int | None:
    """The facing from ``a`` to the adjacent hex ``b`` (None if not adjacent)."""
    for f in FACINGS:
        if neighbour(a, f) == b:
            return f
    return None


def _cube_round(x: float, z: float) -> tuple[int, int]:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy <= dz:
        rz = -rx - ry
    return rx, rz


def line(a: Hex, b: Hex) -> list[Hex]:
    """The hexes from ``a`` to ``b`` inclusive (cube interpolation).

    decision: where the line runs exactly along a hexside, a fixed small nudge
    picks one side, so a line and its reverse may differ on such ties.
    """
    n = distance(a, b)
    if n == 0:
        return [a]
    aq, ar = to_axial(a)
    bq, br = to_axial(b)
    eps_q, eps_r = 1e-6, 2e-6
    out = []
    for i in range(n + 1):
        t = i / n
        q = aq + eps_q + (bq - aq) * t
        r = ar + eps_r + (br - ar) * t
        out.append(from_axial(_cube_round(q, r)))
    return out


def line_of_sight(a: Hex, b: Hex, blocked) -> bool:
    """True when no blocked hex lies strictly between ``a`` and ``b``.

    Seed "Retirar-se del combat": a hyperspace jump needs "una línia de visió sense cap
    mena d'obstacle".  ``blocked``: hexes of planets, moons and obstacles.
    """
    blocked = set(blocked)
    return not any(h in blocked for h in line(a, b)[1:-1])


def clear_line(a: Hex, b: Hex, blocked) -> bool:
    """Line of fire (decision, docs "Special cases"): clear when the line from ``a`` to ``b``
    *or* the line back is clear -- a line grazing a blocked hex along a hexside is not blocked,
    and the answer does not depend on who looks (line ties are broken by a fixed nudge)."""
    blocked = set(blocked)
    return line_of_sight(a, b, blocked) or line_of_sight(b, a, blocked)


def ray(h: Hex, facing: int, board: "Board") -> list[Hex]:
    """The hexes straight ahead of ``h`` along ``facing`` up to the board edge (``h`` itself
    not included; empty when the hex ahead is off the board).

    decision: the line of sight of a hyperspace jump (seed "Retirar-se del combat": "una línia
    de visió sense cap mena d'obstacle") is this ray -- the ship jumps the way it faces.
    """
    out = []
    h = neighbour(h, facing)
    while board.contains(h):
        out.append(h)
        h = neighbour(h, facing)
    return out


def relative_side(h: Hex, facing: int, other: Hex) -> int | None:
    """Which hexside of a ship in ``h`` facing ``facing`` the adjacent hex ``other`` touches:
    0 front, 1 front right, 2 rear right, 3 rear, 4 rear left, 5 front left (None: not adjacent)."""
    d = direction_to(h, other)
    return None if d is None else (d - facing) % 6


def collision_kind(facing_a: int, facing_b: int | None, side_b: int | None = None) -> str:
    """Seed "3. CASOS ESPECIALS: Col·lisions accidentals": the kind of a collision of ship A
    with ship B (one kind for the collision: both ships take the same modifier).

    decision (docs "Special cases"): hexes have no side hexside square to a ship, so the kind
    comes from the two courses (facings) and, for parallel courses, from the hexside of B that
    is hit (``side_b``, see :func:`relative_side`; it is the same for A on opposite courses):

    * opposite facings (head to head): ``head_on`` when B is hit on its front or rear hexside,
      ``front_diagonal`` on a diagonal one -- "Col·lisió frontal o en diagonal per davant";
    * the same facing (one catches the other up): ``rear`` on the front/rear hexside,
      ``rear_diagonal`` on a diagonal -- "des de darrera o en diagonal per darrera";
    * crossing courses (facings 60 or 120 degrees apart): ``t_bone`` -- "Col·lisió en T";
    * B without a course (``facing_b`` None: a planet, moon or obstacle): ``t_bone``.
    """
    if facing_b is None:
        return "t_bone"
    apart = (facing_b - facing_a) % 6
    straight = side_b is None or side_b % 6 in (0, 3)
    if apart == 3:
        return "head_on" if straight else "front_diagonal"
    if apart == 0:
        return "rear" if straight else "rear_diagonal"
    return "t_bone"


@dataclass(frozen=True)
class Board:
    """A rectangular board of ``width`` x ``height`` hexes (the GM picks the size)."""

    width: int
    height: int

    def __post_init__(self):
        if self.width < 1 or self.height < 1:
            raise ValueError("a board needs at least one hex")

    def contains(self, h: Hex) -> bool:
        col, row = h
        return 0 <= col < self.width and 0 <= row < self.height

    __contains__ = contains

    def hexes(self) -> list[Hex]:
        return [(c, r) for c in range(self.width) for r in range(self.height)]

    def is_edge(self, h: Hex) -> bool:
        return self.contains(h) and any(not self.contains(n) for n in neighbours(h))


def drift(h: Hex, facing: int, hexes: int, board: Board) -> tuple[list[Hex], bool]:
    """Seed 5. "Controls ionitzats": a ship with dead controls moves ``hexes`` straight on.

    Returns the hexes entered and whether it left the board ("fins i tot si surt del taulell").
    """
    path = []
    for _ in range(hexes):
        h = neighbour(h, facing)
        path.append(h)
        if not board.contains(h):
            return path, True
    return path, False


# ---------------------------------------------------------------- movement
def maneuverability_points(code) -> int:
    """RULES-NOTES: maneuverability points = the number of dice of the code (pips ignored)."""
    return DiceCode.parse(code).dice


class MoveState(NamedTuple):
    """Where a ship is during its movement and what it has left to spend.

    (A named tuple, as :class:`Move`: built, hashed and compared as a tuple, in C -- the moves
    cache and the bot's memos key on them; the bot's long-lived memos turn them into plain tuples,
    which Python's garbage collector leaves alone, see ``navigation._GEOMETRY``.)"""

    pos: Hex
    facing: int
    speed_left: int
    free_turns_left: int
    after_forward: bool = False  # the last move was forward (or a free turn after it)
    done: bool = False           # held, or left the board
    off_board: bool = False


class Move(NamedTuple):
    """One legal next move and the state it leaves the ship in."""

    kind: str          # forward | turn | slide | hold
    side: int          # -1 left, +1 right, 0 for forward/hold
    cost: int          # speed points spent
    free_turn: bool    # a free turn (maneuverability point) was spent
    after: MoveState

    @property
    def to(self) -> Hex:
        return self.after.pos

    @property
    def facing(self) -> int:
        return self.after.facing

    @property
    def speed_left(self) -> int:
        return self.after.speed_left

    @property
    def free_turns_left(self) -> int:
        return self.after.free_turns_left

    @property
    def leaves_board(self) -> bool:
        return self.after.off_board

    @property
    def label(self) -> Message:
        """The move in words, with its cost and what is left; a turn says what it spent and why
        (seed "1. MOVIMENT I MANIOBRA": a turn right after a forward move is free and uses a
        maneuverability point; one without a forward move first, or with no free turn left,
        costs a speed point and leaves the free turns as they were)."""
        name, left = move_name(self.kind, self.side), self.speed_left
        if self.kind != "turn":
            if self.leaves_board:
                return msgn("starwars_d6.move.off_board", "{move} (leaves the board): {count} point, {left} left",
                            "{move} (leaves the board): {count} points, {left} left", self.cost, move=name, left=left)
            return msgn("starwars_d6.move.step", "{move}: {count} point, {left} left", "{move}: {count} points, {left} left",
                        self.cost, move=name, left=left)
        free = self.free_turns_left
        if self.free_turn and self.cost:  # a capital ship: a maneuverability die and a speed point
            return msgn("starwars_d6.move.capital_turn", "{move}: 1 point and a free turn, {left} points and {count} free "
                        "turn left", "{move}: 1 point and a free turn, {left} points and {count} free turns left", free,
                        move=name, left=left)
        if self.free_turn:
            return msgn("starwars_d6.move.free_turn", "{move}: a free turn after a forward move, {left} points and "
                        "{count} free turn left", "{move}: a free turn after a forward move, {left} points and {count} "
                        "free turns left", free, move=name, left=left)
        if not free:
            return msgn("starwars_d6.move.paid_turn_none_left", "{move}: {count} point (no free turn left), {left} left",
                        "{move}: {count} points (no free turn left), {left} left", self.cost, move=name, left=left)
        return msgn("starwars_d6.move.paid_turn", "{move}: {count} point (not right after a forward move), {left} left",
                    "{move}: {count} points (not right after a forward move), {left} left", self.cost, move=name,
                    left=left)


#: the moves in words: (kind, side) -> "turn left" ...
MOVE_NAMES = {
    ("forward", 0): msg("starwars_d6.move.forward", "forward"),
    ("hold", 0): msg("starwars_d6.move.hold", "hold"),
    ("turn", LEFT): msg("starwars_d6.move.turn_left", "turn left"),
    ("turn", RIGHT): msg("starwars_d6.move.turn_right", "turn right"),
    ("slide", LEFT): msg("starwars_d6.move.slide_left", "slide left"),
    ("slide", RIGHT): msg("starwars_d6.move.slide_right", "slide right"),
}


def move_name(kind: str, side: int | None) -> Message | str:
    """A move's name in words ("turn left"); a kind the table lacks, as it is written."""
    return MOVE_NAMES.get((kind, side or 0), kind)


def free_turns(n: int) -> Message:
    """"1 free turn", "3 free turns"."""
    return msgn("starwars_d6.words.free_turns", "{count} free turn", "{count} free turns", n)


def moves(state: MoveState, is_capital: bool, board: Board, blocked=frozenset()) -> list[Move]:
    """Every legal next move from ``state`` (seed 1. MOVIMENT I MANIOBRA).

    ``blocked``: hexes a ship may not choose to enter -- other ships, planets, moons and
    obstacles (decision, docs "Special cases": a ship never flies into an occupied hex on
    purpose; to hit a ship it declares a ram, "Col·lisions premeditades").
    """
    if not isinstance(blocked, frozenset):
        blocked = frozenset(blocked)
    return list(_moves(state, is_capital, board, blocked))


@lru_cache(maxsize=1024)
def _moves(state: MoveState, is_capital: bool, board: Board, blocked: frozenset) -> tuple[Move, ...]:
    """:func:`moves`, cached (the bot and the rules ask for the same moves in a step; the values
    are frozen, so the cached moves are shared safely).  A small cache: a large one kept tens of
    thousands of moves alive, which the garbage collector walks at every full collection, for
    little gain (in the demo fleets' battles 44% of the asks hit with 1,024 entries, 49% with 8,192)."""
    if state.done:
        return ()
    # (MoveState built directly, not with dataclasses.replace: course searches call this a lot)
    p, f, s, free, af = state.pos, state.facing, state.speed_left, state.free_turns_left, state.after_forward
    out = [Move("hold", 0, tables.MOVE_COST["hold"], False, MoveState(p, f, s, free, af, True, False))]
    if s >= tables.MOVE_COST["forward"]:
        to = neighbour(state.pos, state.facing)
        off = not board.contains(to)
        if to not in blocked:
            out.append(Move("forward", 0, 1, False, MoveState(to, f, s - 1, free, True, off, off)))
    for side in (LEFT, RIGHT):
        facing = turned(state.facing, side)
        if is_capital:
            # "només poden girar usant exclusivament els seus daus de maniobrabilitat i
            # sempre perdent un punt de velocitat per cada punt de maniobrabilitat"
            if state.free_turns_left >= 1 and s >= 1:
                out.append(Move("turn", side, 1, True, MoveState(p, facing, s - 1, free - 1, af)))
        elif state.after_forward and state.free_turns_left >= 1:
            out.append(Move("turn", side, 0, True, MoveState(p, facing, s, free - 1, af)))
        elif s >= tables.MOVE_COST["turn"]:
            out.append(Move("turn", side, 1, False, MoveState(p, facing, s - 1, free, af)))
    if s >= tables.MOVE_COST["slide"]:
        for side in (LEFT, RIGHT):
            to = neighbour(state.pos, turned(state.facing, side))
            off = not board.contains(to)
            if to in blocked:
                continue
            out.append(Move("slide", side, 2, False, MoveState(to, f, s - 2, free, False, off, off)))
    return tuple(out)


def legal_moves(ship_position: Hex, facing: int, speed_left: int, free_turns_left: int,
                is_capital: bool, board: Board, *, after_forward: bool = False,
                blocked=frozenset()) -> list[Move]:
    """Each reachable next move with its cost and what is left (see :func:`moves`).

    ``after_forward``: the ship's last move was a forward move (or a free turn after
    one), so a starfighter's turn may use a free turn.  ``blocked``: hexes it may not enter.
    """
    return moves(MoveState(ship_position, facing % 6, speed_left, free_turns_left, after_forward),
                 is_capital, board, frozenset(blocked))


def start(pos: Hex, facing: int, speed: int, maneuverability, ) -> MoveState:
    """The state at the start of a ship's movement: full speed, one free turn per maneuverability die."""
    return MoveState(pos, facing % 6, speed, maneuverability_points(maneuverability))


def reachable(state: MoveState, is_capital: bool, board: Board,
              blocked=frozenset()) -> dict[tuple[Hex, int], MoveState]:
    """Every (hex, facing) on the board the ship can end in, with the best state left there.

    Best = most speed left, then most free turns (for showing the GM what is left).
    """
    blocked = frozenset(blocked)
    best: dict[tuple[Hex, int], MoveState] = {}
    seen = set()
    todo = [state]
    while todo:
        cur = todo.pop()
        key = (cur.pos, cur.facing, cur.speed_left, cur.free_turns_left, cur.after_forward)
        if key in seen:
            continue
        seen.add(key)
        here = (cur.pos, cur.facing)
        if board.contains(cur.pos):
            old = best.get(here)
            if old is None or (cur.speed_left, cur.free_turns_left) > (old.speed_left, old.free_turns_left):
                best[here] = cur._replace(done=False)
        for m in moves(cur, is_capital, board, blocked):
            if not m.after.done:
                todo.append(m.after)
    return best
