"""Playouts (issue 10): a simulation sets up one spec thousands of times and plays it with nothing
recorded, through the same rule code as the recorded steps a GM sees."""
import copy

from rulesets.cepheus.engine import RULESET
from rulesets.core.serial import to_json

from .helpers import AVG, crew, ship


def _spec():
    return {"ships": [ship("a", "blue", [crew("a1", "turret_gunner", "t1", gunnery=1)]),
                      ship("b", "red", [crew("b1", "pilot", pilot=2)])],
            "options": {"range": "short"}}


def test_the_setup_is_built_once_and_every_caller_gets_its_own_copy():
    """Checklist step 1 sets up the fight from the spec; the state is built once per spec and every
    call gets a copy that shares nothing it could change: changing one changes no other setup."""
    first = RULESET.setup(_spec())
    first.ships[0].hull = 0
    first.ships[0].crew[0].skills["gunnery"] = 9
    first.ships[0].crew[0].chars["dex"] = 2
    first.ships[0].mounts[0].weapons[0].loaded = 99
    first.ships[1].hits["bridge"] = 2
    first.ranges["a|b"] = "distant"
    first.options.aware.append("a")
    again = RULESET.setup(_spec())
    assert again.ships[0].hull == again.ships[0].hull_max
    assert again.ships[0].crew[0].skills == {"gunnery": 1} and again.ships[0].crew[0].chars == AVG
    assert again.ships[0].mounts[0].weapons[0].loaded == 0 and again.ships[1].hits == {}
    assert again.band("a", "b") == "short" and again.options.aware == []


def test_an_equal_spec_gives_an_equal_state_and_a_changed_spec_a_new_one():
    """The cache is keyed on the spec's value: an equal spec (another dict) gives the state a fresh
    build gives, and a spec changed in place after a setup is built again."""
    spec = _spec()
    assert to_json(RULESET.setup(copy.deepcopy(spec))) == to_json(RULESET.setup(spec))
    spec["options"]["range"] = "long"
    spec["ships"][0]["crew"][0]["skills"]["gunnery"] = 3
    state = RULESET.setup(spec)
    assert state.band("a", "b") == "long" and state.ships[0].crew[0].skills == {"gunnery": 3}
