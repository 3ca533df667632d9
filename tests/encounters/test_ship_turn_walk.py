"""The order of a posted ship's turn (encounters/turn.py, Walk): the same decisions for the
writer and for the dice asked at once.  Plain objects, no database: a ship "s1" whose seats the
engine lists as the turn goes (Cepheus, Il turno: each crew member acts, then passes on)."""
from types import SimpleNamespace

from encounters.turn import Walk
from rulesets.core.contract import TurnSeat
from rulesets.core.engine import Action


class _Engine:
    def turn_ship(self, state):
        return "s1"

    def actor_ship(self, state):
        return state.actor_ship


STATE = SimpleNamespace(over=False, actor_ship="s1")


def _seat(actor, *kinds, member=None):
    member = member or actor
    choices = tuple(Action.make(k, member) for k in kinds) + (Action.make("done", member),)
    return TurnSeat(actor=actor, label=actor, choices=choices, default=choices[0], finish=Action.make("done", member))


def test_a_seat_the_form_played_whose_second_action_the_form_did_not_offer_gets_its_done():
    """The panel offered no second action for c1 (the bot's first left none), but the dice left
    one: nothing more was chosen for c1, so its "done" comes, and the turn goes on to c2."""
    walk = Walk(_Engine(), "s1", [("c1", "line_up actor=c1"), ("c2", "attack actor=c2")])
    assert walk.next(STATE, [_seat("c1", "line_up"), _seat("c2", "attack")]) == ("line_up actor=c1", "")
    then = _seat("c1+then", "adjust_speed", member="c1")
    assert walk.next(STATE, [then, _seat("c2", "attack")]) == ("done actor=c1", "")
    assert walk.next(STATE, [_seat("c2", "attack")]) == ("attack actor=c2", "")


def test_a_second_action_chosen_comes_after_the_first_then_the_turn_goes_on():
    walk = Walk(_Engine(), "s1", [("c1", "line_up actor=c1"), ("c1+then", "adjust_speed actor=c1"),
                                  ("c2", "attack actor=c2")])
    assert walk.next(STATE, [_seat("c1", "line_up"), _seat("c2", "attack")])[0] == "line_up actor=c1"
    then = _seat("c1+then", "adjust_speed", member="c1")
    assert walk.next(STATE, [then, _seat("c2", "attack")])[0] == "adjust_speed actor=c1"
    assert walk.next(STATE, [_seat("c2", "attack")])[0] == "attack actor=c2"


def test_a_seat_of_another_ship_stops_the_turn_where_the_rules_interrupt():
    walk = Walk(_Engine(), "s1", [("c2", "attack actor=c2")])
    assert walk.next(STATE, [_seat("c2", "attack")])[0] == "attack actor=c2"
    reacting = SimpleNamespace(over=False, actor_ship="s2")
    action, why = walk.next(reacting, [_seat("reaction", "dodge", member="c9"), _seat("c2", "attack")])
    assert action is None and "The rules interrupt the turn here" in why
