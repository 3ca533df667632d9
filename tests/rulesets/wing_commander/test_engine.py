"""The engine around the rules: the GM's override, what players see, what is carried back, the outcome."""
from __future__ import annotations

import json

import pytest

from rulesets.core.messages import english, render
from rulesets.core.engine import IllegalAction, Viewer

from .helpers import MISSILE, GUNS, RULESET, fight, npc, ship, step, text


def test_the_gm_sets_any_value_by_ship_name_and_it_is_logged():
    """RULES-NOTES (every system): the GM's escape hatch, recorded as a step."""
    state = fight(ship("a", "blue", weapons=(GUNS, MISSILE)), npc("b", shields=20))
    state, log, _ = step(state, "override path=B.tw value=15")
    assert state.ship("b").tw == 15 and "GM sets B's TW to 15" in text(log)
    state, _, _ = step(state, "override path=A.weapons.Dart.stock value=0")
    assert state.ship("a").weapon("w2").stock == 0
    state, _, _ = step(state, "override path=b.flown_by value=npc_rolled")
    assert state.ship("b").rolls


def test_a_bad_override_names_the_path():
    state = fight(ship("a"), npc("b"))
    with pytest.raises(IllegalAction, match="A.hull: Hull points is a whole number from 0 to 999; 'lots' is not a whole number"):
        step(state, "override path=A.hull value=lots")
    with pytest.raises(IllegalAction, match="A has no weapon 'Railgun'"):
        step(state, "override path=A.weapons.Railgun.stock value=1")


def test_setting_hull_to_zero_by_hand_ends_the_fight():
    state, _, _ = step(fight(ship("a"), npc("b")), "override path=B.hull value=0")
    assert state.over and state.winner == "blue"


def test_a_target_put_out_by_hand_mid_defence_settles_the_attack():
    """2.1.3 (ejecting "im eigenen Spielzug jederzeit"): the GM destroys the attacked ship while its dodge
    waits; the attack is settled and the attacker ends its turn or ejects."""
    state = fight(npc("b", "red", mv=3), ship("a", "blue"), ship("c", "blue"))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")
    state, _, _ = step(state, "override path=A.hull value=0")
    assert state.phase == "after" and state.acting.id == "b" and not state.pending
    assert {a.kind for a in RULESET.legal_actions(state)} == {"end", "eject", "override"}


def test_players_see_their_own_sheet_but_not_an_enemys_tw_or_pilot():
    state = fight(ship("a", "blue"), npc("b", tw=17))
    view = RULESET.view(state, Viewer.player(["a"]))
    mine, theirs = view["ships"]
    assert "TW 12" in english(mine["pilot_line"]) and "pilot_line" not in theirs and "weapons" not in theirs
    assert all(secret not in json.dumps(view, default=render) for secret in RULESET.secrets(state, Viewer.player(["a"])))
    assert view["order"] == ["A", "B"]


def test_the_view_and_descriptions_are_words():
    state = fight(ship("a", "blue", weapons=(GUNS, MISSILE)), npc("b"))
    words = [english(RULESET.describe(state, a)) for a in RULESET.legal_actions(state)]
    assert "A fires Dart at B" in words and "A holds its fire" in words
    assert not any("actor=" in w or "w1" in w for w in words)


def test_only_the_ship_to_act_says_so_among_what_a_player_reads_of_the_others():
    """Issue 27: the other ships' facts on the players' page read "Acting yes" for the ship to act and
    nothing for the rest (not "Acting no" on every one)."""
    state = fight(ship("a", "blue", weapons=(GUNS, MISSILE)), npc("b"))
    ships = {s["id"]: s for s in RULESET.view(state, Viewer.player(["a"]))["ships"]}
    assert ships[state.acting.id]["acting"] is True
    assert all(s["acting"] is None for sid, s in ships.items() if sid != state.acting.id)


def test_the_outcome_counts_hull_left_and_ships_lost():
    state, _, _ = step(fight(ship("a", hull=10), npc("b", hull=10)), "override path=B.status value=ejected")
    outcome = RULESET.outcome(state)
    assert outcome.winner == "blue" and outcome.side("red").ships_lost == 1 and outcome.side("blue").strength_left == 1.0


def test_a_destroyed_ship_carried_back_starts_the_next_fight_out_of_it():
    spec_b = npc("b", hull=10)
    state, _, _ = step(fight(ship("a"), ship("c"), spec_b), "override path=B.hull value=0")
    carried = RULESET.damage_of(state, "b")
    again = fight(ship("a"), ship("c", "red"), {**spec_b, "damage": carried})
    assert again.ship("b").status == "destroyed" and again.order == ("a", "c")


def test_physical_dice_are_asked_for_exactly_as_rolled():
    """The GM's physical dice: the engine asks for the dice it needs, naming the roll (2W10 here)."""
    from rulesets.core.dice import Dice, DiceNeeded, ManualSource
    from rulesets.core.engine import Action

    state = fight(ship("a"), npc("b", shields=20))
    with pytest.raises(DiceNeeded) as asked:
        RULESET.apply(state, Action.parse("attack actor=a target=b weapon=w1"), Dice(ManualSource([])))
    assert (asked.value.count, asked.value.sides) == (2, 10) and asked.value.purpose == "A attacks B with Lasers"
    step_ = RULESET.apply(state, Action.parse("attack actor=a target=b weapon=w1"), Dice(ManualSource([6, 6, 2, 3])))
    assert step_.state.ship("b").shields == 15
