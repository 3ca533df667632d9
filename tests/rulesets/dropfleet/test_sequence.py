"""Orders and spikes (RULES-NOTES DF-N02, DF-N03), movement and layers (issue 11; decision D4),
activations by battle group (decision D1), the round limit (D10)."""
import pytest

from rulesets.core.engine import Action, IllegalAction
from rulesets.core.messages import english
from rulesets.core.scenario import resolve_action
from rulesets.dropfleet import sequence
from rulesets.dropfleet import ships as ship_rules
from rulesets.dropfleet import tables
from rulesets.dropfleet.engine import RULESET

from .helpers import attacker, dice, get, ship, state, step


def order(spike=tables.NO_SPIKE, silent=False, key="standard", **kw):
    a = attacker(spike=spike, silent=silent, **kw)
    st = state(a, ship(), phase="orders")
    return get(step(st, f"order actor=a order={key}").state, "a")


def test_dfn02_spikes_add_six_and_twelve_inches_two_minors_make_a_major():
    """DF-N02, RULES-NOTES: a Minor spike adds 6" to Signature, a Major 12"; two Minors make a Major."""
    assert ship_rules.signature(attacker(signature=5, spike=tables.MINOR)) == 11
    assert ship_rules.signature(attacker(signature=5, spike=tables.MAJOR)) == 17
    assert order(spike=tables.MINOR, key="station_keeping").spike == tables.MAJOR


@pytest.mark.parametrize("key,before,after", [
    ("standard", tables.MINOR, tables.NO_SPIKE), ("standard", tables.MAJOR, tables.MAJOR),
    ("station_keeping", tables.NO_SPIKE, tables.MINOR), ("course_change", tables.NO_SPIKE, tables.MINOR),
    ("max_thrust", tables.NO_SPIKE, tables.MINOR), ("weapons_free", tables.NO_SPIKE, tables.MAJOR),
    ("active_scan", tables.MINOR, tables.MAJOR), ("silent_running", tables.MAJOR, tables.NO_SPIKE),
])
def test_dfn03_orders_and_their_spikes(key, before, after):
    """DF-N03, RULES-NOTES: Standard clears a Minor; Station Keeping, Course Change and Max Thrust add a
    Minor; Weapons Free and Active Scan add a Major; Silent Running sets Signature 0 and clears spikes."""
    ship_ = order(spike=before, key=key)
    assert ship_.spike == after
    if key == "silent_running":
        assert ship_rules.signature(ship_) == 0


def test_monitors_cannot_course_change_or_max_thrust():
    """Decision D3 (the game's Monitor rule): no Course Change or Max Thrust orders."""
    st = state(attacker(monitor=True), ship(), phase="orders")
    assert {k for k, _ in sequence.order_options(st)} == set(tables.ORDERS) - {"course_change", "max_thrust"}


def test_moves_are_checked_against_thrust_and_turn():
    """Decision D4: a move goes at most Thrust (x2 at Max Thrust, 2" Station Keeping) and turns at most the order's limit."""
    a = attacker(x=20, y=20, thrust=10, order="standard")
    st = state(a, ship(), phase="move")
    assert sequence.check_move(st, a, 20, 10, None) is None
    assert "can move 10" in english(sequence.check_move(st, a, 20, 9, None))
    assert "turn at most 45" in english(sequence.check_move(st, a, 25, 25, None))
    fast = attacker(x=20, y=30, thrust=10, order="max_thrust")
    assert sequence.check_move(state(fast, ship(), phase="move"), fast, 20, 10, None) is None


def test_layer_changes_up_cost_four_inches_down_free_atmosphere_only_for_atmospheric():
    """Issue 11: up one layer costs 4" of Thrust, down is free, only Atmospheric ships enter the Atmosphere."""
    a = attacker(x=20, y=20, layer="low", thrust=6, order="standard")
    st = state(a, ship(), phase="move")
    assert sequence.layer_choices(a) == ["high"]
    assert sequence.check_move(st, a, 20, 18, "high") is None
    assert "can move 2" in english(sequence.check_move(st, a, 20, 17, "high"))
    assert sequence.layer_choices(attacker(layer="low", atmospheric=True, order="standard")) == ["high", "atmosphere"]
    after = step(st, "move actor=a x=#20 y=#18 layer=high").state
    assert get(after, "a").layer == "high" and get(after, "a").y == 18


def test_the_move_sets_the_heading_and_a_refused_move_names_why():
    """Decision D4: the ship points the way it moved; an illegal move is refused in words."""
    a = attacker(x=20, y=20, order="standard")
    st = state(a, ship(), phase="move")
    after = step(st, "move actor=a x=#24 y=#12").state
    assert get(after, "a").heading == 27 and after.phase == "fire"
    with pytest.raises(IllegalAction, match="turn at most"):
        RULESET.apply(st, Action.parse("move actor=a x=#28 y=#20"), dice())


def test_groups_alternate_between_sides():
    """Decision D1: battle groups activate in turn, alternating sides; a side with none left waits."""
    ships = [attacker(group="A1"), ship("a2", "blue", group="A2", x=2, y=10), ship("t", "red", group="R1")]
    st = state(*ships, phase="orders", group="A1")
    st = st.__class__(**{**st.__dict__, "sides": ("blue", "red"), "first_side": "blue"})
    assert sequence.next_group(st, "blue") == "R1"
    st = st.__class__(**{**st.__dict__, "activated": ("A1", "R1")})
    assert sequence.next_group(st, "red") == "A2"


def test_a_full_activation_order_move_fire():
    """The activation: orders, each ship moves, fire declared then resolved, then the next group."""
    st = RULESET.setup(RULESET.example_setup(0))
    assert st.phase == "orders" and st.group == "Vess Warden"
    st = step(st, "order actor=a order=standard").state
    assert st.phase == "move"
    st = step(st, "stay actor=a").state
    assert st.phase == "fire"
    st = step(st, "open_fire actor=a").state
    assert st.group == "Sable Shroud" and st.phase == "orders"


def test_round_limit_decides_on_hull_left():
    """Decision D10: after the last round the side with the larger share of its Hull left wins."""
    st = state(attacker(), ship(hull=5), phase="end", max_rounds=1)
    after = step(st, "end_round actor=gm").state
    assert after.over and after.winner == "blue"


def _ways(st):
    return [a.get("way") for a in RULESET.legal_actions(st) if a.kind == "manoeuvre"]


def test_d21_named_moves_are_legal_actions_hold_ahead_half_and_the_orders_turns():
    """Decision D21 (with D4 and D3's turn limits): besides a spot on the table, the moving ship is
    offered hold position, full ahead, half ahead and a turn each way as far as its order allows;
    each is a legal action the runner lists as a button (not a place on the board)."""
    a = attacker(x=20, y=30, heading=0, thrust=10, order="standard")
    st = state(a, ship(x=20, y=0), phase="move")
    assert sequence.named_moves(st, a) == [("ahead", 20, 20), ("half_ahead", 20, 25), ("left", 13, 23), ("right", 27, 23)]
    actions = RULESET.legal_actions(st)
    named = [a for a in actions if a.kind in ("stay", "manoeuvre")]
    assert [n.to_str() for n in named] == ["stay actor=a", "manoeuvre actor=a way=ahead", "manoeuvre actor=a way=half_ahead",
                                           "manoeuvre actor=a way=left", "manoeuvre actor=a way=right"]
    assert not any(RULESET.on_board(n) for n in named) and "stay" not in RULESET.secondary_kinds
    assert [RULESET.describe(st, n) for n in named] == [
        "Attacker: hold position", 'Attacker: full ahead, 10" to 20,20', 'Attacker: half ahead, 5" to 20,25',
        'Attacker: turn 45° left, 10" to 13,23', 'Attacker: turn 45° right, 10" to 27,23']
    after = step(st, "manoeuvre actor=a way=right")
    moved = get(after.state, "a")
    assert (moved.x, moved.y, moved.heading) == (27, 23, 45) and after.state.phase == "fire"
    assert "moves 9.9\" to 27,23, heading 45°" in after.log[0].text
    # the same spot clicked on the board is the same move; a scenario file names it in words
    assert step(st, "move actor=a x=#27 y=#23").state == after.state
    assert resolve_action(RULESET, st, "manoeuvre way=right") == Action.parse("manoeuvre actor=a way=right")
    assert step(st, "stay actor=a").log[0].text == "Attacker holds its position."


def test_d21_named_turns_follow_the_order_and_max_thrust_goes_only_straight():
    """D21 with D3: Course Change turns 90°, Station Keeping (any turn, 2") a quarter each way,
    Max Thrust (no turn) only straight ahead, twice Thrust; Engines disabled (DF-35) cannot turn."""
    def ways(order, **kw):
        a = attacker(x=24, y=24, heading=0, thrust=10, order=order, **kw)
        return sequence.named_moves(state(a, ship(x=0, y=0), phase="move"), a)
    assert ways("course_change") == [("ahead", 24, 14), ("half_ahead", 24, 19), ("left", 14, 24), ("right", 34, 24)]
    assert ways("station_keeping") == [("ahead", 24, 22), ("half_ahead", 24, 23), ("left", 22, 24), ("right", 26, 24)]
    assert ways("max_thrust") == [("ahead", 24, 4), ("half_ahead", 24, 14)]
    assert [w for w, _, _ in ways("standard", effects=("engines_disabled",))] == ["ahead", "half_ahead"]


def test_d21_the_tables_edge_cuts_a_named_move_short_and_a_move_not_offered_is_refused():
    """D21 with D4 (a move ends on the table): full ahead from 4" off the edge stops at the edge and
    says so; a move that would end where another does, or cannot move at all, is not offered, and
    naming it is refused in words."""
    a = attacker(x=20, y=4, heading=0, thrust=10, order="standard")
    st = state(a, ship(x=20, y=40), phase="move")
    # half ahead would end where full ahead does: not offered twice
    assert sequence.named_moves(st, a) == [("ahead", 20, 0), ("left", 15, 0), ("right", 25, 0)]
    label = RULESET.describe(st, Action.parse("manoeuvre actor=a way=ahead"))
    assert label == 'Attacker: full ahead, 4" to 20,0 (the table\'s edge)'
    edge = attacker(x=20, y=0, heading=0, thrust=10, order="max_thrust")
    st = state(edge, ship(x=20, y=40), phase="move")
    assert _ways(st) == []
    with pytest.raises(IllegalAction, match="not offered"):
        RULESET.apply(st, Action.parse("manoeuvre actor=a way=ahead"), dice())


def test_now_names_the_ship_that_acts_not_its_battle_group():
    """The runner's "Now:" (state.active) names ships, as the board does: the group's ships at its
    orders and fire, the ship to move, the defender spending point defence (DF-20)."""
    a = attacker(x=20, y=30, order="standard", group="Vess Warden")
    b = ship("b", "blue", x=26, y=30, order="standard", group="Vess Warden")
    st = state(a, b, ship(x=20, y=0), phase="orders")
    assert st.group == "Vess Warden" and st.active == "Attacker, B"
    st = step(st, "order actor=a order=standard").state
    assert st.phase == "move" and st.active == "Attacker"
    st = step(st, "stay actor=a").state
    assert st.active == "B"


def test_an_order_with_no_spike_says_no_spike():
    """DF-N03 words: Standard clears a Minor spike: the log says "no spike", never "none spike"."""
    a = attacker(spike=tables.MINOR)
    log = step(state(a, ship(), phase="orders"), "order actor=a order=standard").log
    assert "(no spike)" in log[0].text and "none spike" not in log[0].text
    log = step(state(attacker(), ship(), phase="orders"), "order actor=a order=silent_running").log
    assert "(no spike, silent)" in log[0].text
