"""Where a moving ship goes: the bot's goal (a point, a distance window, a facing) and the move
it picks toward it, by hex geometry alone (no odds per candidate move).  Part of the Star Wars D6
bot (:mod:`.policy`, which sets the goal from the odds: docs/rulesets/starwars_d6.md, "Odds and
the bot"); what it weighs is cached on what it depends on ("Playouts").

Pure Python: no Django import.
"""
from __future__ import annotations

from . import hexes

# A goal's distances, directions, reach and facing, and its moves chosen, by what they depend on.
# Its memos hold plain tuples of numbers only (no MoveState or Move, no list or frozenset): such
# tuples are left alone by the garbage collector, which otherwise walks every object these long-
# lived memos hold at each full collection (most of a playout's collector time).
_GEOMETRY: dict = {}
_CHOICES: dict = {}     # the moves chosen (plain tuples), by the whole goal


def _rot(a: int, b: int) -> int:
    """Hexsides between two facings (0-3)."""
    d = (a - b) % 6
    return min(d, 6 - d)


class Goal:
    """What the moving ship wants: a point, a distance window, and which way it faces."""

    def __init__(self, board, capital: bool, occupied, foes: list, evade: bool, target, lo: int, hi: int):
        self.board, self.capital, self.occupied, self.foes = board, capital, occupied, foes
        self.evade, self.target, self.lo, self.hi = evade, target, lo, hi
        # The geometry below depends on nothing else: shared by every goal alike (a ship's
        # steps through its movement, and the next battles).  Its distances, directions, reach
        # and facing depend on the target's hex alone when attacking (on every enemy's when
        # evading), with the board and the scale; the move chosen from a movement state (see
        # :func:`choose_move`) on the whole goal.
        geometry = (target, capital, board) if target is not None else (None, tuple(foes), capital, board)
        memo = _GEOMETRY.get(geometry)
        if memo is None:
            if len(_GEOMETRY) > 2048:
                _GEOMETRY.clear()
            memo = _GEOMETRY[geometry] = ({}, {}, {}, {})
        self._distances, self._directions, self._reaches, self._facings = memo
        signature = (target, tuple(foes), lo, hi, evade, capital, board)
        choices = _CHOICES.get(signature)
        if choices is None:
            if len(_CHOICES) > 2048:
                _CHOICES.clear()
            choices = _CHOICES[signature] = {}
        self.choices = choices

    def distance(self, p) -> int:
        found = self._distances.get(p)
        if found is None:
            if not self.foes:
                found = 0
            elif self.target is not None:
                found = hexes.distance(p, self.target)
            else:
                found = min(hexes.distance(p, f) for f in self.foes)
            self._distances[p] = found
        return found

    def gap(self, d: int) -> int:
        return self.lo - d if d < self.lo else (d - self.hi if d > self.hi else 0)

    def _dirs(self, p, away: bool) -> tuple[int, ...]:
        """Facings whose next hex brings the ship nearer (or farther, ``away``), on the board."""
        found = self._directions.get((p, away))
        if found is not None:
            return found
        d = self.distance(p)
        out = []
        for f in hexes.FACINGS:
            n = hexes.neighbour(p, f)
            if not self.board.contains(n):
                continue
            nd = self.distance(n)
            if (nd > d) if away else (nd < d):
                out.append(f)
        out = self._directions[(p, away)] = tuple(out)
        return out

    def _turn_cost(self, k: int, ms: hexes.MoveState) -> int | None:
        ft = ms.free_turns_left
        if self.capital:
            return k if k <= ft else None
        if ms.after_forward:
            return max(0, k - ft)
        return min(k, 2 + max(0, k - ft))

    def _reach(self, ms: hexes.MoveState, away: bool) -> int:
        """How far (roughly) the rest of the speed can move the ship the wanted way."""
        key = ms + (away,)          # (a plain tuple: see _GEOMETRY)
        found = self._reaches.get(key)
        if found is None:
            found = self._reaches[key] = self._compute_reach(ms, away)
        return found

    def _compute_reach(self, ms: hexes.MoveState, away: bool) -> int:
        dirs = self._dirs(ms.pos, away)
        if not dirs or ms.speed_left <= 0:
            return 0
        best = 0
        for f in dirs:
            cost = self._turn_cost(_rot(ms.facing, f), ms)
            if cost is None:            # a capital ship that cannot turn that far
                r = max(0, ms.speed_left - ms.free_turns_left) // 2
            else:
                r = max(0, ms.speed_left - cost)
            if away:                   # the board edge stops an evading ship
                run, h = 0, ms.pos
                while run < r:
                    h = hexes.neighbour(h, f)
                    if not self.board.contains(h):
                        break
                    run += 1
                r = run
            best = max(best, r)
        return best

    def facing_turns(self, p, facing: int) -> int:
        """Hexsides to turn to face the target (attack) or away from the enemies (evade);
        facing off the board counts as badly as facing the wrong way."""
        found = self._facings.get((p, facing))
        if found is None:
            found = self._facings[(p, facing)] = self._compute_facing_turns(p, facing)
        return found

    def _compute_facing_turns(self, p, facing: int) -> int:
        if not self.foes:
            return 0
        if not self.board.contains(hexes.neighbour(p, facing)):
            return 4
        dirs = self._dirs(p, away=self.evade)
        if not dirs:
            return 0
        return min(_rot(facing, f) for f in dirs)


def move_key(goal: Goal, m: hexes.Move) -> tuple:
    """Smaller is better: (ends in another ship's hex, the gap to the window that the rest of
    the speed could still leave, the gap now, turns to face the right way, not holding)."""
    ms = m.after
    d = goal.distance(ms.pos)
    gap = goal.gap(d)
    if ms.done or gap == 0:
        left = gap
    else:
        left = max(0, gap - goal._reach(ms, away=d < goal.lo))
    bad_end = 1 if ms.done and ms.pos in goal.occupied else 0
    return (bad_end, left, gap, goal.facing_turns(ms.pos, ms.facing), m.kind != "hold")


def choose_move(goal: Goal, options: list[hexes.Move]) -> hexes.Move:
    """The move with the smallest :func:`move_key` (the first on ties), never off the board."""
    best, best_key = None, None
    for m in options:
        if m.leaves_board:                      # never leave the board voluntarily
            continue
        key = move_key(goal, m)
        if best_key is None or key < best_key:
            best, best_key = m, key
    if best is not None:
        return best
    return next((m for m in options if m.kind == "hold"), options[0])
