"""Hex geometry and the movement rules of seed section "1. MOVIMENT I MANIOBRA"."""
import pytest
from hypothesis import given, settings, strategies as st

from rulesets.starwars_d6 import hexes, tables
from rulesets.starwars_d6.hexes import Board, MoveState, legal_moves

BOARD = Board(20, 15)


def by(moves, kind, side=0):
    found = [m for m in moves if m.kind == kind and m.side == side]
    assert len(found) <= 1
    return found[0] if found else None


# ---------------------------------------------------------------- geometry
def test_neighbours_of_even_and_odd_columns():
    """hexes doc: flat-topped odd-q offset coordinates, facings 0 N clockwise to 5 NW."""
    assert [hexes.neighbour((2, 2), f) for f in hexes.FACINGS] == [(2, 1), (3, 1), (3, 2), (2, 3), (1, 2), (1, 1)]
    assert [hexes.neighbour((3, 2), f) for f in hexes.FACINGS] == [(3, 1), (4, 2), (4, 3), (3, 3), (2, 3), (2, 2)]


@given(st.integers(-10, 30), st.integers(-10, 30))
def test_axial_round_trip_and_neighbours_at_distance_one(c, r):
    """hexes doc: offset <-> axial conversion is exact; each neighbour is 1 hex away."""
    h = (c, r)
    assert hexes.from_axial(hexes.to_axial(h)) == h
    assert all(hexes.distance(h, n) == 1 for n in hexes.neighbours(h))
    assert len(set(hexes.neighbours(h))) == 6
    assert all(hexes.direction_to(h, hexes.neighbour(h, f)) == f for f in hexes.FACINGS)


def test_distance():
    """Seed 2. COMBAT "Distàncies" are counted in hexes."""
    assert hexes.distance((0, 0), (0, 5)) == 5
    assert hexes.distance((0, 0), (5, 0)) == 5
    assert hexes.distance((0, 0), (4, 2)) == 4
    assert hexes.distance((3, 3), (3, 3)) == 0


def test_line_and_line_of_sight():
    """Seed "Retirar-se del combat": a hyperspace jump needs a line of sight free of obstacles."""
    ln = hexes.line((0, 0), (0, 4))
    assert ln == [(0, 0), (0, 1), (0, 2), (0, 3), (0, 4)]
    assert not hexes.line_of_sight((0, 0), (0, 4), {(0, 2)})
    assert hexes.line_of_sight((0, 0), (0, 4), {(0, 4), (0, 0), (5, 5)})  # the ends never block
    assert hexes.line_of_sight((0, 0), (6, 3), set())


@given(st.tuples(st.integers(0, 19), st.integers(0, 14)), st.tuples(st.integers(0, 19), st.integers(0, 14)))
def test_line_is_a_chain_of_adjacent_hexes(a, b):
    """hexes.line: distance+1 hexes, each adjacent to the next, from a to b."""
    ln = hexes.line(a, b)
    assert ln[0] == a and ln[-1] == b and len(ln) == hexes.distance(a, b) + 1
    assert all(hexes.distance(x, y) == 1 for x, y in zip(ln, ln[1:]))


def test_board_edges():
    """Issue: a hex map of a size the GM picks; edges are hexes with a neighbour off the board."""
    b = Board(5, 4)
    assert (0, 0) in b and (4, 3) in b and (5, 0) not in b and (0, -1) not in b
    assert b.is_edge((0, 2)) and b.is_edge((2, 0)) and not b.is_edge((2, 2))
    assert len(b.hexes()) == 20
    with pytest.raises(ValueError):
        Board(0, 3)


# ---------------------------------------------------------------- movement
def test_move_forward_costs_one_point():
    """Seed 1. "Moure un hexàgon endavant ... 1 punt de moviment"."""
    m = by(legal_moves((5, 5), 0, 4, 2, False, BOARD), "forward")
    assert m.to == (5, 4) and m.facing == 0 and m.cost == 1 and m.speed_left == 3


def test_after_forward_a_turn_is_free_and_uses_a_maneuverability_point():
    """Seed 1.: after moving forward the ship may turn for free; as many free turns as maneuverability points."""
    fwd = by(legal_moves((5, 5), 0, 4, 2, False, BOARD), "forward")
    t = by(hexes.moves(fwd.after, False, BOARD), "turn", hexes.RIGHT)
    assert t.cost == 0 and t.free_turn and t.facing == 1 and t.speed_left == 3 and t.free_turns_left == 1
    t2 = by(hexes.moves(t.after, False, BOARD), "turn", hexes.RIGHT)  # "per encarar ... cap qualsevol direcció"
    assert t2.cost == 0 and t2.facing == 2 and t2.free_turns_left == 0


def test_turns_cost_a_speed_point_once_free_turns_are_spent():
    """Seed 1.: "Després d'haver gastat aquests punts, encara pot continuar girant però invertint 1 punt de velocitat"."""
    t = by(legal_moves((5, 5), 0, 3, 0, False, BOARD, after_forward=True), "turn", hexes.LEFT)
    assert t.cost == 1 and not t.free_turn and t.facing == 5 and t.speed_left == 2


def test_turn_without_moving_forward_first_costs_one_point():
    """Seed 1.: "Girar un costat d'hexàgon ... sense haver-se mogut prèviament un hexàgon endavant. 1 punt"."""
    t = by(legal_moves((5, 5), 0, 3, 2, False, BOARD), "turn", hexes.RIGHT)
    assert t.cost == 1 and t.free_turns_left == 2 and t.speed_left == 2 and t.to == (5, 5)


def test_slide_costs_two_and_keeps_facing():
    """Seed 1.: "Lliscar a un costat ... 1 hexàgon en diagonal i endavant ... mantenint l'orientació. 2 punts"."""
    ms = legal_moves((5, 5), 0, 2, 1, False, BOARD)
    left, right = by(ms, "slide", hexes.LEFT), by(ms, "slide", hexes.RIGHT)
    assert left.to == (4, 5) and right.to == (6, 5)  # odd column: NW/NE share its row
    assert left.facing == right.facing == 0 and left.cost == 2 and left.speed_left == 0
    assert by(legal_moves((5, 5), 0, 1, 1, False, BOARD), "slide", hexes.LEFT) is None  # not enough points
    assert not left.after.after_forward  # a slide is not a forward move: no free turn after it


def test_hold_costs_nothing_and_ends_the_movement():
    """Seed 1.: "Mantenir la posició. 0 punts"; "No fa falta que una nau gasti tots els seus punts"."""
    h = by(legal_moves((5, 5), 3, 4, 2, False, BOARD), "hold")
    assert h.cost == 0 and h.to == (5, 5) and h.speed_left == 4 and h.after.done
    assert hexes.moves(h.after, False, BOARD) == []


def test_no_backing_up():
    """Seed 1.: "No estan permesos fer retrocedir una nau sense haver-la encarat adequadament"."""
    pos, facing = (5, 5), 0
    rear = {hexes.neighbour(pos, f) for f in (2, 3, 4)}
    for m in legal_moves(pos, facing, 10, 3, False, BOARD):
        assert m.to not in rear
    assert {m.to for m in legal_moves(pos, facing, 10, 3, False, BOARD)} == {pos, (5, 4), (4, 5), (6, 5)}


def test_no_points_only_hold_or_free_turns():
    """Seed 1.: speed is the points a ship may spend; with none left only free turns and hold remain."""
    kinds = {(m.kind, m.cost) for m in legal_moves((5, 5), 0, 0, 1, False, BOARD, after_forward=True)}
    assert kinds == {("hold", 0), ("turn", 0)}
    assert {m.kind for m in legal_moves((5, 5), 0, 0, 1, False, BOARD)} == {"hold"}


def test_capital_ship_turns_only_with_maneuverability_each_costing_a_speed_point():
    """Seed 1.: capital ships turn "exclusivament" with maneuverability dice, losing 1 speed per point."""
    t = by(legal_moves((5, 5), 0, 3, 1, True, BOARD, after_forward=True), "turn", hexes.RIGHT)
    assert t.cost == 1 and t.free_turn and t.free_turns_left == 0 and t.speed_left == 2
    # no maneuverability left: no turn at all, whatever speed is left
    assert by(legal_moves((5, 5), 0, 5, 0, True, BOARD, after_forward=True), "turn", hexes.RIGHT) is None
    # maneuverability but no speed: no turn either
    assert by(legal_moves((5, 5), 0, 0, 2, True, BOARD), "turn", hexes.LEFT) is None


def test_capital_ship_can_still_move_forward_and_slide():
    """Seed 1.: the capital-ship restriction is on turning only."""
    ms = legal_moves((5, 5), 2, 3, 0, True, BOARD)
    assert {m.kind for m in ms} == {"hold", "forward", "slide"}


def test_moving_off_the_board_leaves_the_combat():
    """Seed "Retirar-se del combat": "Quan surt del taulell de joc"."""
    b = Board(6, 6)
    fwd = by(legal_moves((0, 0), 0, 3, 1, False, b), "forward")
    assert fwd.leaves_board and fwd.after.done and fwd.to == (0, -1)
    slide = by(legal_moves((0, 2), 5, 3, 1, False, b), "slide", hexes.LEFT)
    assert slide.leaves_board
    inside = by(legal_moves((0, 2), 0, 3, 1, False, b), "forward")
    assert not inside.leaves_board and not inside.after.done


def test_edge_ship_facing_along_the_edge_stays_on():
    """Board edges: a ship on the edge facing along it moves along it."""
    b = Board(6, 6)
    m = by(legal_moves((0, 3), 0, 1, 0, False, b), "forward")
    assert m.to == (0, 2) and not m.leaves_board


def test_maneuverability_points_are_the_dice():
    """RULES-NOTES: maneuverability points = the number of dice of the code (pips ignored)."""
    assert hexes.maneuverability_points("2D+2") == 2 and hexes.maneuverability_points("0D+1") == 0
    s = hexes.start((1, 1), 2, 5, "3D+1")
    assert s.free_turns_left == 3 and s.speed_left == 5 and not s.after_forward


def test_drift_with_dead_controls():
    """Seed 5. "Controls ionitzats": same hexes, same direction, even off the board."""
    path, off = hexes.drift((2, 2), 3, 3, Board(6, 6))
    assert path == [(2, 3), (2, 4), (2, 5)] and not off
    path, off = hexes.drift((2, 2), 0, 4, Board(6, 6))
    assert off and path[-1] == (2, -1) and len(path) == 3


def test_reachable_shows_the_remaining_points():
    """Issue: the legal moves and their remaining cost shown to the GM."""
    r = hexes.reachable(hexes.start((5, 5), 0, 2, "1D"), False, BOARD)
    assert r[((5, 3), 0)].speed_left == 0
    assert r[((5, 4), 1)].speed_left == 1 and r[((5, 4), 1)].free_turns_left == 0
    assert ((5, 6), 0) not in r and ((5, 6), 3) not in r  # never behind in 2 points


@settings(max_examples=300, deadline=None)
@given(
    speed=st.integers(0, 12), man=st.integers(0, 4), capital=st.booleans(),
    col=st.integers(0, 9), row=st.integers(0, 9), facing=st.integers(0, 5),
    choices=st.lists(st.integers(0, 1000), max_size=30),
)
def test_no_sequence_of_legal_moves_overspends(speed, man, capital, col, row, facing, choices):
    """Issue checks: no sequence of legal moves ever spends more points than the ship has."""
    board = Board(10, 10)
    state = MoveState((col, row), facing, speed, man)
    spent = turns_free = 0
    for c in choices:
        options = hexes.moves(state, capital, board)
        if not options:
            break
        m = options[c % len(options)]
        assert m.cost == tables.MOVE_COST[m.kind] or (m.kind == "turn" and m.cost == 0)
        assert state.speed_left - m.cost == m.speed_left >= 0
        spent += m.cost
        turns_free += m.free_turn
        state = m.after
    assert spent <= speed and spent == speed - state.speed_left
    assert turns_free <= man and state.free_turns_left >= 0
    if not capital:
        assert state.free_turns_left == man - turns_free


@settings(max_examples=200, deadline=None)
@given(speed=st.integers(0, 8), man=st.integers(0, 3), facing=st.integers(0, 5),
       choices=st.lists(st.integers(0, 1000), max_size=20))
def test_capital_ship_turns_never_exceed_maneuverability(speed, man, facing, choices):
    """Seed 1.: a capital ship's turns each spend a maneuverability point and a speed point."""
    state = MoveState((5, 5), facing, speed, man)
    turns = 0
    for c in choices:
        options = hexes.moves(state, True, BOARD)
        if not options:
            break
        m = options[c % len(options)]
        if m.kind == "turn":
            turns += 1
            assert m.cost == 1 and m.free_turn
        state = m.after
    assert turns <= min(man, speed)
