"""The GM override (the runner's escape hatch, docs/running-encounters.md): a stat, a position
or a loss set by hand, recorded as a step; bad paths and values say what was wrong."""
import pytest

from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.engine import Action, IllegalAction
from rulesets.starwars_d6 import rules
from rulesets.starwars_d6.engine import RULESET


def _state():
    s = RULESET.setup(RULESET.example_setup(1))
    return RULESET.apply(s, Action.make("initiative", RULESET.actor_ship(s)),
                         Dice(ScriptedSource([1, 2, 5, 4]))).state   # Alliance 3, Empire 9


def _set(s, path, value):
    return RULESET.apply(s, Action.make("override", path=path, value=value), Dice(ScriptedSource([]))).state


def test_codes_speed_crew_and_weapons_are_set_by_ship_name_or_id():
    s = _state()
    after = _set(s, "Talon.hull", "3d+4")
    assert after.ship("f1").hull == "4D+1" and s.ship("f1").hull == "4D", "apply does not touch its input"
    after = _set(after, "kestrel 1.speed", "4")
    after = _set(after, "e2.piloting", "6D")
    after = _set(after, "Talon.t.ammo", "1")
    after = _set(after, "Warden.ion.disabled", "yes")
    assert after.ship("e1").speed == 4 and after.ship("e2").crew.piloting == "6D"
    assert next(w for w in after.ship("f1").weapons if w.id == "t").ammo == 1
    assert next(w for w in after.ship("c1").weapons if w.id == "ion").disabled


def test_position_and_facing_are_checked_against_the_board():
    s = _state()
    after = _set(_set(s, "Talon.pos", "3,4"), "Talon.facing", "se")
    assert after.ship("f1").pos == (3, 4) and after.ship("f1").facing == 2
    warden = s.ship("c1")
    with pytest.raises(IllegalAction, match="holds another ship"):
        _set(s, "Talon.pos", f"{warden.col},{warden.row}")
    with pytest.raises(IllegalAction, match="off the 24×18 board"):
        _set(s, "Talon.pos", "30,2")
    with pytest.raises(IllegalAction, match="a facing is one of"):
        _set(s, "Talon.facing", "up")


def test_bad_paths_and_values_say_what_was_wrong():
    s = _state()
    with pytest.raises(IllegalAction, match="'Talon.hull': '3X' is not a dice code|3X' is not a dice code"):
        _set(s, "Talon.hull", "3X")
    with pytest.raises(IllegalAction, match="does not start with a ship's name"):
        _set(s, "Falcon.hull", "3D")
    with pytest.raises(IllegalAction, match="has no weapon 'zz'"):
        _set(s, "Talon.zz.ammo", "1")
    with pytest.raises(IllegalAction, match="Talon.colour: Talon has no 'colour' to set. Fields: hull,"):
        _set(s, "Talon.colour", "red")
    with pytest.raises(IllegalAction, match="Talon.speed: Speed is a whole number from 0 to 40; 'fast' is not a whole number"):
        _set(s, "Talon.speed", "fast")


def test_a_ship_ruled_destroyed_leaves_the_queue_and_the_fight_can_end():
    s = _state()
    mover = s.moving.ship
    after = _set(s, f"{mover}.destroyed", "yes")
    assert after.ship(mover).destroyed and mover not in after.queue
    assert after.moving is not None and after.moving.ship != mover, "the next ship moves"
    for ship in [sh for sh in after.ships if sh.side == "Empire"]:
        after = _set(after, f"{ship.id}.destroyed", "yes")
    assert after.over and after.winner == "Alliance"
    assert RULESET.legal_actions(after) == []


def test_the_bare_override_changes_nothing_and_the_bot_never_picks_it():
    s = _state()
    step = RULESET.apply(s, Action.make("override"), Dice(ScriptedSource([])))
    assert step.log[0].text == "GM override with nothing to change."
    assert Action.make("override") in RULESET.legal_actions(s)
    assert all(a.kind != "override" for a in RULESET.step_actions(s))


def test_the_gm_places_and_removes_planets_moons_and_obstacles_mid_fight():
    """The board's features (docs "Special cases": they block moves, fire and jumps) can be placed
    by the GM during the fight, never onto a ship, and taken away again."""
    s = _state()
    after = _set(s, "board.add", "moon 2,2 Endor")
    assert [(f.kind, f.pos, f.name) for f in after.features] == [("moon", (2, 2), "Endor")]
    assert (2, 2) in rules.occupied(after)
    talon = s.ship("f1")
    with pytest.raises(IllegalAction, match="already holds a ship"):
        _set(s, "board.add", f"planet {talon.col},{talon.row}")
    with pytest.raises(IllegalAction, match="write 'planet 12,8 Yavin'"):
        _set(s, "board.add", "planet")
    with pytest.raises(IllegalAction):
        _set(s, "board.add", "star 3,3")
    assert _set(after, "board.remove", "2,2").features == []
    with pytest.raises(IllegalAction, match="no planet, moon or obstacle at 5,5"):
        _set(after, "board.remove", "5,5")
