"""The board on the runner page (board.py): courses to a clicked hex through the ordinary
movement rules, and the SVG geometry.  Seed "1. MOVIMENT I MANIOBRA" for every move made."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets.core.messages import english
from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.engine import Action, IllegalAction, Viewer
from rulesets.core.words import count
from rulesets.starwars_d6 import board as board_drawing
from rulesets.starwars_d6 import hexes
from rulesets.starwars_d6 import tables
from rulesets.starwars_d6.engine import RULESET


def _moving(features=(), variant=1):
    spec = RULESET.example_setup(variant)
    spec["options"]["features"] = list(features)
    s = RULESET.setup(spec)
    return RULESET.apply(s, Action.make("initiative", RULESET.actor_ship(s)),
                         Dice(ScriptedSource([1, 2, 5, 4]))).state


def _brute_best(start, moves, board):
    """Every state reachable by any sequence of moves (no pruning): the most points left per hex."""
    best, todo, seen = {}, [start], set()
    while todo:
        cur = todo.pop()
        for m in moves(cur):
            a = m.after
            if a.done or m.kind == "hold":
                continue
            key = (a.pos, a.facing, a.speed_left, a.free_turns_left, a.after_forward)
            if key in seen:
                continue
            seen.add(key)
            if a.pos != start.pos and board.contains(a.pos):
                best[a.pos] = max(best.get(a.pos, (-1, -1)), (a.speed_left, a.free_turns_left))
            todo.append(a)
    return best


@settings(max_examples=40, deadline=None)
@given(col=st.integers(0, 11), row=st.integers(0, 9), facing=st.integers(0, 5), speed=st.integers(0, 7),
       free=st.integers(0, 3), capital=st.booleans())
def test_a_course_reaches_every_reachable_hex_with_the_most_points_left(col, row, facing, speed, free, capital):
    """The pruned search finds exactly the hexes any sequence of legal moves reaches, with the best
    (speed points, free turns) left; its route, replayed move by move, never overspends."""
    board = hexes.Board(12, 10)
    blocked = frozenset({(5, 5), (6, 4)}) - {(col, row)}
    moves = lambda ms: hexes.moves(ms, capital, board, blocked)   # noqa: E731
    start = hexes.MoveState((col, row), facing, speed, free)
    found = board_drawing.course_targets(start, moves, board)
    assert {h: (a.speed_left, a.free_turns_left) for h, (a, _) in found.items()} == _brute_best(start, moves, board)
    for hex_, (after, route) in found.items():
        cur = start
        for m in route:
            assert m in moves(cur), "each step of a course is a legal move from where the ship is"
            assert m.to not in blocked
            cur = m.after
        assert cur == after and cur.pos == hex_ and 0 <= cur.speed_left <= speed


def test_a_clicked_course_is_one_step_of_ordinary_moves():
    """Clicking a lit hex: the ship arrives there with the points the board showed, each move logged;
    it may still turn or hold (a course never ends the movement)."""
    s = _moving()
    mover = s.ship(s.moving.ship)
    view = RULESET.view(s, Viewer.gm())
    reach = {(r["col"], r["row"]): r for r in view["board"]["reach"]}
    target = max(reach, key=lambda h: (hexes.distance(h, mover.pos), h))
    step = RULESET.apply(s, Action.make("course", mover.id, col=target[0], row=target[1]), Dice(ScriptedSource([])))
    after = step.state
    assert after.ship(mover.id).pos == target
    assert after.moving.ship == mover.id and after.moving.speed_left == reach[target]["left"]
    assert step.log[0].text.startswith(f"{mover.name} flies to {target[0]},{target[1]}")
    assert all(e.rule == tables.SEC_MOVEMENT for e in step.log)  # 1. MOVIMENT I MANIOBRA
    assert "hold" in {a.get("how") for a in RULESET.step_actions(after) if a.kind == "move"}


def test_courses_avoid_features_and_unreachable_hexes_are_refused():
    """A planet's hex is never lit nor reachable (decision: no ship chooses to enter it)."""
    s = _moving()
    mover = s.ship(s.moving.ship)
    ahead = hexes.neighbour(mover.pos, mover.facing)
    s2 = _moving(features=[{"kind": "planet", "col": ahead[0], "row": ahead[1]}])
    targets = RULESET._course_targets(s2)
    assert ahead not in targets and targets, "the planet's hex is not lit, others are"
    for _, route in targets.values():
        assert ahead not in [m.to for m in route]
    with pytest.raises(IllegalAction, match="cannot be reached"):
        RULESET.apply(s2, Action.make("course", mover.id, col=ahead[0], row=ahead[1]), Dice(ScriptedSource([])))
    with pytest.raises(IllegalAction):
        RULESET.apply(s2, Action.make("course", "someone-else", col=0, row=0), Dice(ScriptedSource([])))


def test_move_buttons_show_their_cost_and_what_is_left():
    s = _moving()
    labels = [RULESET.describe(s, a) for a in RULESET.step_actions(s) if a.kind == "move"]
    assert any(": forward: 1 point," in english(lbl) for lbl in labels)
    assert any(": hold: 0 points," in english(lbl) for lbl in labels)


def test_the_svg_geometry_follows_odd_q_columns():
    """Flat-topped hexes: odd columns sit half a hex lower; neighbouring centres are one hex apart."""
    x0, y0 = board_drawing.centre(0, 0)
    x1, y1 = board_drawing.centre(1, 0)
    assert (round(x1 - x0, 3), round(y1 - y0, 3)) == (24.0, round(board_drawing.SIZE * board_drawing.ROOT3 / 2, 3))
    for h in [(3, 3), (4, 3), (0, 0)]:
        cx, cy = board_drawing.centre(*h)
        for f in range(6):
            nx, ny = board_drawing.centre(*hexes.neighbour(h, f))
            assert abs(((nx - cx) ** 2 + (ny - cy) ** 2) ** 0.5 - board_drawing.SIZE * board_drawing.ROOT3) < 1e-9
    north = board_drawing.centre(*hexes.neighbour((3, 3), 0))
    assert north[0] == board_drawing.centre(3, 3)[0] and north[1] < board_drawing.centre(3, 3)[1], "facing 0 is up the page"
    layout = board_drawing.layout({"width": 4, "height": 3, "features": [{"kind": "moon", "col": 1, "row": 1}]},
                      [{"id": "a", "pos": [2, 1], "facing": "SE", "in_play": True}],
                      {(3, 2): {"action": "course actor=a col=#3 row=#2", "label": "x", "left": 2}})
    assert layout["grid"].count("M") == 12 and layout["ships"][0]["angle"] == 120
    assert layout["targets"][0]["left"] == 2 and layout["features"][0]["r"] < board_drawing.SIZE
    shot = board_drawing.layout({"width": 4, "height": 3, "shots": [{"from": [0, 0], "to": [1, 0], "hit": True}]}, [])["shots"][0]
    assert (shot["x1"], shot["y1"], shot["x2"], shot["y2"]) == tuple(round(v, 1) for v in (*board_drawing.centre(0, 0), *board_drawing.centre(1, 0)))


def test_players_see_who_fired_at_whom_but_not_whether_it_hit():
    """A shot on the board (seed "4. Fase de foc": fire is simultaneous, damage waits): the GM's view
    says hit or miss; a player's says only who fired at whom (a GM-only roll stays hidden)."""
    s = _moving()
    s.phase, s.queue, s.moving = "firing", [sh.id for sh in s.ships], None
    shot = next(a for a in RULESET.step_actions(s) if a.kind == "fire")
    s = RULESET.apply(s, shot, Dice(ScriptedSource([6] * 6 + [1] * 30))).state
    gm = RULESET.view(s, Viewer.gm())["board"]["shots"]
    player = RULESET.view(s, Viewer("player", frozenset({"f1"})))["board"]["shots"]
    assert gm[0]["hit"] in (True, False) and english(gm[0]["label"]).endswith(("hit", "miss"))
    assert player[0]["hit"] is None and not english(player[0]["label"]).endswith(("hit", "miss"))
    assert gm[0]["from"] == player[0]["from"] and gm[0]["to"] == player[0]["to"]


def test_free_turns_come_right_after_a_forward_move_and_the_words_say_why_a_turn_costs_a_point():
    """Seed "1. MOVIMENT I MANIOBRA": "Moure un hexàgon endavant. Després d'aquest moviment, la nau
    pot girar gratuïtament"; "Girar un costat d'hexàgon ... sense haver-se mogut prèviament un
    hexàgon endavant. 1 punt de moviment"; "tants girs gratuïts com punts de manobrabilitat".

    Issue 27: with 10 speed points and 3 free turns, two turns left at the start were charged a
    point each and the free turns stayed 3.  That is the rule (no forward move yet), so the charge
    and the count stand; the words now say why, and a turn after a forward move is free."""
    s = RULESET.setup(RULESET.example_setup(0))
    s = RULESET.apply(s, Action.make("initiative", RULESET.actor_ship(s)), Dice(ScriptedSource([1, 2, 5, 4]))).state
    who = s.ship(s.moving.ship)
    speed, free = s.moving.speed_left, s.moving.free_turns_left
    assert speed >= 4 and free >= 1 and who.scale == tables.STARFIGHTER
    view = RULESET.view(s, Viewer.gm())
    assert view["moving"]["free_after_forward"] is True
    turn_left = Action.make("move", who.id, how="turn", side=hexes.LEFT)
    assert RULESET.describe(s, turn_left) == f"{who.name}: turn left: 1 point (not right after a forward move), {speed - 1} left"
    log = []
    for _ in range(2):
        step = RULESET.apply(s, turn_left, Dice(ScriptedSource([])))
        s, log = step.state, log + [e.text for e in step.log]
    assert (s.moving.speed_left, s.moving.free_turns_left) == (speed - 2, free)
    assert log == [f"{who.name}: turn left: 1 point (not right after a forward move), {speed - 1} left.",
                   f"{who.name}: turn left: 1 point (not right after a forward move), {speed - 2} left."]
    s = RULESET.apply(s, Action.make("move", who.id, how="forward", side=0), Dice(ScriptedSource([]))).state
    assert RULESET.view(s, Viewer.gm())["moving"]["free_after_forward"] is False
    step = RULESET.apply(s, turn_left, Dice(ScriptedSource([])))
    assert (step.state.moving.speed_left, step.state.moving.free_turns_left) == (speed - 3, free - 1)
    assert step.log[0].text == (f"{who.name}: turn left: a free turn after a forward move, {speed - 3} points and "
                                f"{count(free - 1, 'free turn')} left.")


def test_ship_names_are_legible_and_cover_no_lit_hexs_number():
    """Issue 27: names on the board were 9 units (about 7 px at 1024x768) and written over the
    lit hexes' numbers.  A name is 13 units; each number moves within its hex to where no name
    (nor ship) is, and a name goes over its ship when under it would cross another ship."""
    assert board_drawing.NAME_FONT >= 13
    for variant in (0, 1):
        s = _moving(variant=variant)
        view = RULESET.view(s, Viewer.gm())
        targets = {(r["col"], r["row"]): {"action": "", "label": "", "left": r["left"]} for r in view["board"]["reach"]}
        out = board_drawing.layout(view["board"], view["ships"], targets)
        assert out["targets"] and len(out["ships"]) == len(view["ships"])
        names = [board_drawing._name_box(sh["name_x"], sh["name_y"], sh["label"]) for sh in out["ships"]]
        for t in out["targets"]:
            number = board_drawing._number_box(t["nx"], t["ny"], str(t["left"]))
            assert not any(board_drawing._overlap(number, n) for n in names), (t, out["ships"])
    # two ships one above the other: the upper one's name goes over it, not across the lower ship
    board = {"width": 10, "height": 10}
    ships = [{"id": "a", "name": "Upper", "pos": [4, 4], "facing": "N", "side_index": 0},
             {"id": "b", "name": "Lower", "pos": [4, 5], "facing": "N", "side_index": 1}]
    out = board_drawing.layout(board, ships)
    upper, lower = out["ships"]
    assert upper["name_y"] < upper["y"] and lower["name_y"] > lower["y"]
    assert board_drawing.short_name("Interceptor Kestrel") == "Interceptor…"
