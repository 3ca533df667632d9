"""The simulation sweeps Cepheus offers: range band, hasty, awareness and crew skill."""
from rulesets.cepheus.engine import RULESET

from .helpers import act, crew, setup, ship


def test_the_sweeps_cover_every_range_band_awareness_and_crew_skill():
    sweeps = {s.key: s for s in RULESET.sweeps()}
    assert len(sweeps["range"].points) == 7
    assert [p.options for p in sweeps["awareness"].points] == [{"aware": []}, {"aware": ["@side0"]},
                                                               {"aware": ["@side1"]}]
    assert [p.options["skill_delta_side0"] for p in sweeps["crew_skill"].points] == [-1, 0, 1, 2]


def test_awareness_by_side_position_makes_that_sides_initiative_roll_count_as_12():
    """Checklist step 3: ships aware of unaware enemies count their initiative 2D6 as 12."""
    s = setup(ship("a", "blue", [crew("p", "pilot", pilot=1)]), ship("b", "red", [crew("q", "pilot")]),
              aware=["@side1"])
    assert s.options.aware == ["red"]
    s = act(s, "initiative actor=a", 1, 1).state      # blue rolls: 2
    s = act(s, "initiative actor=b", check_all_used=False).state  # red is aware: counts as 12
    assert s.ship("b").initiative >= 12 > s.ship("a").initiative


def test_the_crew_skill_sweep_shifts_the_first_sides_trained_skills_only():
    s = setup(ship("a", "blue", [crew("g", "turret_gunner", "turret-1", gunnery=1, pilot=0)]),
              ship("b", "red", [crew("h", "turret_gunner", "turret-1", gunnery=1)]), skill_delta_side0=2)
    assert s.ship("a").crew[0].skills == {"gunnery": 3, "pilot": 2}
    assert s.ship("b").crew[0].skills == {"gunnery": 1}
    low = setup(ship("a", "blue", [crew("g", "pilot", pilot=0)]), ship("b", "red"), skill_delta_side0=-1)
    assert low.ship("a").crew[0].skills == {"pilot": 0}
