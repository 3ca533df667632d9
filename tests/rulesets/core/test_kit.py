"""The ruleset kit's shared scaffolding: line parsing, look-ups, copy-on-write, the override grammar."""
from dataclasses import FrozenInstanceError, dataclass

import pytest

from rulesets.core.engine import IllegalAction
from rulesets.core.lines import LineError, parse_lines, split_fields
from rulesets.core.override import OverrideField, one_of, parse_override, whole_number, yes_no
from rulesets.core import spec
from rulesets.core.spec import by_id, index_of, remembered_place, sides_in_order
from rulesets.core.state import clone, evolve, plain_dicts, replace_item, set_key, update_by_id


def _weapon(line):
    name, attacks = split_fields(line)
    return {"name": name, "attacks": whole_number(1)(attacks)}


def test_every_bad_line_is_named_with_its_number_and_blank_lines_are_skipped():
    with pytest.raises(LineError) as err:
        parse_lines("Laser, 2\n\nRailgun, x\nTorpedo, 0", _weapon)
    assert err.value.messages == ["Line 3: 'x' is not a whole number; it must be 1 or more.",
                                  "Line 4: must be 1 or more; 0 is outside that range."]


def test_good_lines_parse_in_order():
    assert parse_lines(" Laser, 2 \nRailgun, 3\n", _weapon) == [{"name": "Laser", "attacks": 2},
                                                                {"name": "Railgun", "attacks": 3}]


def test_a_line_the_parser_returns_none_for_is_not_understood():
    with pytest.raises(LineError, match="Line 1: 'what' is not understood."):
        parse_lines("what", lambda line: None)


@dataclass(frozen=True)
class Ship:
    id: str
    name: str
    side: str
    hull: int = 5


@dataclass(frozen=True)
class State:
    ships: tuple
    flags: dict


def test_sides_come_in_the_order_of_their_first_ship_for_dicts_and_objects():
    ships = [{"id": "a", "side": "red"}, {"id": "b", "side": "blue"}, {"id": "c", "side": "red"}]
    assert sides_in_order(ships) == ["red", "blue"]
    assert sides_in_order([Ship("x", "X", "green"), Ship("y", "Y", "grey")]) == ["green", "grey"]
    assert by_id(ships, "b")["side"] == "blue" and index_of(ships, "c") == 2
    with pytest.raises(KeyError):
        by_id(ships, "zz")


def test_copy_on_write_copies_the_path_and_shares_the_rest():
    a, b = Ship("a", "Alpha", "red"), Ship("b", "Bravo", "blue")
    state = State((a, b), {"x": 1})
    new = evolve(state, ships=update_by_id(state.ships, "b", hull=2))
    assert new.ships[1].hull == 2 and state.ships[1].hull == 5
    assert new.ships[0] is a and new.flags is state.flags
    assert replace_item([1, 2, 3], 1, 9) == [1, 9, 3] and replace_item((1, 2), 0, 7) == (7, 2)
    flags = set_key(state.flags, "y", 2)
    assert flags == {"x": 1, "y": 2} and state.flags == {"x": 1}
    assert update_by_id(state.ships, "a", lambda s: evolve(s, name="A"))[0].name == "A"


def test_clone_is_evolve_without_init_for_frozen_and_plain_dataclasses():
    a, b = Ship("a", "Alpha", "red"), Ship("b", "Bravo", "blue")
    state = State((a, b), {"x": 1})
    hit = clone(b, hull=2)
    assert hit == evolve(b, hull=2) and type(hit) is Ship and b.hull == 5
    copy = clone(state)
    assert copy == state and copy is not state and copy.ships is state.ships  # shallow: the rest shared
    with pytest.raises(FrozenInstanceError):
        hit.hull = 3  # still frozen
    # the changes may come as one dict too (a caller holding them passes it on), and both ways at once
    assert clone(b, {"hull": 2}) == evolve(b, hull=2) and clone(b, {"hull": 2}, name="B") == evolve(b, hull=2, name="B")


def test_a_remembered_place_is_checked_before_it_is_used_and_the_places_kept_are_bounded(monkeypatch):
    ships = [Ship("a", "Alpha", "red"), Ship("b", "Bravo", "blue"), Ship("c", "Charlie", "red")]
    places: dict = {}
    assert remembered_place(ships, "c", places) == 2 and places == {"c": 2}
    # another list (another fight, or the list changed): the wrong guess costs a search, not a wrong answer
    assert remembered_place(ships[1:], "c", places) == 1 and places["c"] == 1
    assert remembered_place(ships[:1], "c", places) is None
    monkeypatch.setattr(spec, "PLACES_KEPT", 2)
    for ship_id, where in (("a", 0), ("b", 1), ("c", 2), ("a", 0)):
        assert remembered_place(ships, ship_id, places) == where and len(places) <= 2


def test_plain_dicts_keeps_every_value_and_reaches_nested_dataclasses():
    a, b = Ship("a", "Alpha", "red"), Ship("b", "Bravo", "blue")
    state = State((a, b), {"x": [a]})
    before = repr(state)
    assert plain_dicts(state) is state and repr(state) == before
    assert state.ships[0] is a and clone(a, hull=1).hull == 1 and a.hull == 5


SHIPS = [("s1", "Talon"), ("s2", "Talon Two"), ("s3", "Warden")]
FIELDS = [
    OverrideField("hull", whole_number(0, 40), "hull points left"),
    OverrideField("destroyed", yes_no),
    OverrideField("weapons.*.ammo", whole_number(0), label="ammunition"),
    OverrideField("layer", one_of("High", "Low", "Atmosphere")),
]
BOARD = [OverrideField("board.add", str, "a feature", label="add")]


def test_the_ship_is_named_by_name_or_id_and_the_longest_name_wins():
    req = parse_override("Talon Two.hull", "7", SHIPS, FIELDS)
    assert (req.ship_id, req.value, req.path) == ("s2", 7, "Talon Two.hull")
    assert parse_override("s3.hull", "0", SHIPS, FIELDS).ship_name == "Warden"
    assert parse_override("talon.layer", "low", SHIPS, FIELDS).value == "Low"


def test_the_log_line_is_words_not_a_path():
    assert parse_override("Talon.hull", "3", SHIPS, FIELDS).sentence() == "GM sets Talon's hull to 3"
    req = parse_override("Warden.weapons.laser.ammo", "2", SHIPS, FIELDS)
    assert req.parts == ("weapons", "laser", "ammo") and req.sentence() == "GM sets Warden's laser ammunition to 2"
    assert parse_override("board.add", "planet 3,4", SHIPS, FIELDS, BOARD).sentence() == \
        "GM ruling: add planet 3,4"


@pytest.mark.parametrize("path, value, message", [
    ("Talon.hull", "x", "Talon.hull: 'x' is not a whole number; it must be from 0 to 40."),
    ("Talon.hull", "41", "Talon.hull: must be from 0 to 40; 41 is outside that range."),
    ("Talon.hull", "١٢", "Talon.hull: '١٢' is not a whole number written in the digits 0-9; it must be from 0 to 40."),
    ("Talon.hull", "1_0", "Talon.hull: '1_0' is not a whole number; it must be from 0 to 40."),
    ("Talon.shields", "2", "Talon.shields: Talon has no 'shields' to set."),
    ("Nobody.hull", "2", "does not start with a ship's name or id"),
    ("Talon.hull", "", "Talon.hull: give a value."),
    ("Talon.hull", "1" * 300, "at most 200 characters"),
    ("Talon.hull", "2\x00", "control character"),
    ("Talon.destroyed", "maybe", "'maybe' is not yes or no."),
])
def test_errors_name_the_path(path, value, message):
    with pytest.raises(IllegalAction) as err:
        parse_override(path, value, SHIPS, FIELDS)
    assert message in str(err.value)


def test_chunks_are_sized_so_each_costs_about_the_same():
    """Issue 14: a cheap point gets large chunks, a costly one small chunks."""
    from rulesets.core.simulate import chunk_sizes

    assert chunk_sizes([0.001, 0.004, 0.5], 10_000, seconds=1.0) == [1000, 250, 10]
    assert chunk_sizes([0.0001], 300, seconds=1.0) == [300]  # never more than the point's trials


def test_battle_costs_are_measured_per_point():
    from rulesets.core.simulate import SweepPoint, battle_costs
    from tests.rulesets.core.toy import RULESET as TOY

    costs = battle_costs(TOY, TOY.example_setup(0), [SweepPoint("a"), SweepPoint("b", {"max_rounds": 1})], "seed", 2)
    assert len(costs) == 2 and all(c > 0 for c in costs)
