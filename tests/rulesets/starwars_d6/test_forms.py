"""The Star Wars D6 stat forms: dice codes typed, weapon lines parsed with errors on their line,
the board options (features, placements) checked where they were typed.

Forms need no database; when pytest-django is off (``-p no:django``) Django is set up here.
"""
import os

import django
from django.apps import apps

if not apps.ready:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()

from rulesets.starwars_d6 import engine  # noqa: E402
from rulesets.starwars_d6 import rules  # noqa: E402
from rulesets.starwars_d6.forms import (POSITIONS, CrewForm, SetupOptionsForm, ShipStatsForm,  # noqa: E402
                                        parse_weapon_line)


def post(form_cls, initial, prefix=None):
    data = {k: ("on" if v is True else str(v)) for k, v in initial.items() if v is not False and v is not None}
    if prefix:
        data = {f"{prefix}-{k}": v for k, v in data.items()}
    return form_cls(data=data, prefix=prefix)


def _comparable(stats):
    return {**{k: v for k, v in stats.items() if k not in ("weapons", "notes", "crew")},
            "shields": stats.get("shields", "0D"), "hyperdrive": stats.get("hyperdrive"),
            "weapons": [{k: v for k, v in w.items() if k not in ("id", "name") and not (k in ("linked", "shots") and v == 1)}
                        for w in stats.get("weapons") or []]}


def test_every_template_round_trips_through_the_stats_form():
    for t in engine.RULESET.templates():
        form = post(ShipStatsForm, ShipStatsForm.initial_from(t["stats"]))
        assert form.is_valid(), (t["name"], form.errors)
        assert _comparable(form.stats()) == _comparable(t["stats"]), t["name"]
        assert rules.validate_stats(form.stats()) == []


def test_a_malformed_code_is_refused_on_its_field_and_codes_are_normalised():
    data = ShipStatsForm.initial_from(engine.TEMPLATES[0]["stats"])
    data.update(hull="4X", maneuverability="2D-1")
    form = post(ShipStatsForm, data)
    assert not form.is_valid()
    assert "'4X' is not a dice code like 4D+2." in form.errors["hull"]
    assert "maneuverability" not in form.errors
    data["hull"] = "3d+4"
    form = post(ShipStatsForm, data)
    assert form.is_valid(), form.errors
    assert form.stats()["hull"] == "4D+1" and form.stats()["maneuverability"] == "1D+2"


def test_a_bad_weapon_line_is_reported_on_its_line():
    data = ShipStatsForm.initial_from(engine.TEMPLATES[0]["stats"])
    data["weapons"] = "laser, 2D, 5D, linked 2\nphaser, 2D, 4D\nion cannon, 3D, lots\nblaster, 1D, 3D, ammo x"
    form = post(ShipStatsForm, data)
    assert not form.is_valid()
    errors = form.errors["weapons"]
    assert any(e.startswith("Line 2:") and "'phaser' is not a weapon type" in e for e in errors)
    assert any(e.startswith("Line 3:") and "damage 'lots'" in e for e in errors)
    assert any(e.startswith("Line 4:") and "'ammo x'" in e for e in errors)
    assert not any(e.startswith("Line 1:") for e in errors)


def test_weapon_lines_carry_every_weapon_stat():
    weapon, errors = parse_weapon_line("Turbolaser battery, 2D+1, 5D, shots 4")
    assert errors == [] and weapon == {"type": "turbolaser", "fire_control": "2D+1", "damage": "5D", "shots": 4}
    weapon, _ = parse_weapon_line("proton torpedoes, 2D, 9D, ammo 3, linked 2")
    assert weapon == {"type": "proton_torpedo", "fire_control": "2D", "damage": "9D", "ammo": 3, "linked": 2}
    _, errors = parse_weapon_line("laser, 2D")
    assert errors and "type, the fire control and the damage" in errors[0]


def test_crew_skills_are_dice_codes_and_positions_bring_their_skill():
    form = post(CrewForm, {"skill_gunnery": "5d+1", "skill_piloting": "", "skill_shields": "4D"})
    assert form.is_valid(), form.errors
    assert form.crew_data()["skills"] == {"gunnery": "5D+1", "shields": "4D"}
    bad = post(CrewForm, {"skill_piloting": "expert"})
    assert not bad.is_valid() and "skill_piloting" in bad.errors
    assert {"pilot", "gunner", "shields"} <= {k for k, _ in POSITIONS}
    # The pilot's piloting counts, the gunner's gunnery: the best at each position.
    crew = [{"position": "pilot", "skills": {"piloting": "5D", "gunnery": "6D"}},
            {"position": "gunner", "skills": {"gunnery": "4D+2"}},
            {"position": "passenger", "skills": {"shields": "3D+1"}}]
    assert engine.crew_skills({}, crew) == {"piloting": "5D", "gunnery": "4D+2", "shields": "3D+1"}


def _options(**changes):
    initial = {"width": 30, "height": 20, "separation": 12, "wild": True, "complication": "remove",
               "max_rounds": 20, "features": "", "placements": ""}
    initial.update(changes)
    return post(SetupOptionsForm, initial, prefix="opt")


def test_setup_options_parse_features_and_placements():
    form = _options(features="planet 12,8 Yavin\nmoon 4,3", placements="Talon: 4,2 s")
    assert form.is_valid(), form.errors
    options = form.options()
    assert options["features"] == [{"kind": "planet", "col": 12, "row": 8, "name": "Yavin"},
                                   {"kind": "moon", "col": 4, "row": 3}]
    assert options["placements"] == {"Talon": {"col": 4, "row": 2, "facing": "S"}}
    spec = {"ships": [{"id": "a", "name": "Talon", "side": "A", "template": "Talon heavy fighter"},
                      {"id": "b", "name": "Kestrel", "side": "B", "template": "Kestrel interceptor"}],
            "options": options}
    state = engine.RULESET.setup(spec)
    talon, kestrel = state.ship("a"), state.ship("b")
    assert (talon.col, talon.row, talon.facing) == (4, 2, 3)
    assert kestrel.facing == 0 and kestrel.row == 15   # the lines are centred: rows 3 and 15, 12 apart


def test_setup_option_mistakes_are_reported_where_they_were_typed():
    form = _options(features="planet 12,8\nstar 1,1", placements="Talon 4,2")
    assert not form.is_valid()
    assert any("Line 2" in e and "star 1,1" in e for e in form.errors["features"])
    assert any("Line 1" in e for e in form.errors["placements"])
    form = _options(features="moon 30,3", separation=19)
    assert not form.is_valid()
    assert "Off the 30×20 board" in form.errors["features"][0] and "30,3" in form.errors["features"][0]
    assert "at most 18 hexes" in form.errors["separation"][0]


def test_the_sides_start_the_chosen_distance_apart_facing_each_other():
    for distance in engine.SWEEP_DISTANCES:
        spec = engine.RULESET.example_setup(1)
        spec["options"]["separation"] = distance
        state = engine.RULESET.setup(spec)
        a = [sh for sh in state.ships if sh.side == "Alliance"]
        b = [sh for sh in state.ships if sh.side == "Empire"]
        assert {sh.facing for sh in a} == {3} and {sh.facing for sh in b} == {0}
        assert min(abs(x.row - y.row) for x in a for y in b) == distance
        assert len({sh.pos for sh in state.ships}) == len(state.ships)
        assert all(state.hboard.contains(sh.pos) for sh in state.ships)
    state = engine.RULESET.setup({**engine.RULESET.example_setup(0), "options": {"height": 10, "separation": 15}})
    assert state.board.height == 17   # a sweep's distance always fits: the board grows


def test_damage_carries_over_to_the_next_encounter():
    state = engine.RULESET.setup(engine.RULESET.example_setup(0))
    sh = state.ship("a")
    sh.hull, sh.maneuverability, sh.damage = "3D", "2D", ["light: -1D hull"]
    sh.weapons[1].ammo, sh.weapons[0].disabled, sh.hyperdrive_out = 1, True, True
    carried = engine.RULESET.damage_of(state, "a")
    spec = engine.RULESET.example_setup(0)
    spec["ships"][0]["damage"] = carried
    again = engine.RULESET.setup(spec).ship("a")
    assert (again.hull, again.maneuverability, again.hyperdrive_out) == ("3D", "2D", True)
    assert again.weapons[0].disabled and again.weapons[1].ammo == 1 and again.damage == ["light: -1D hull"]


def test_the_distance_sweep_lines_placed_ships_up_afresh():
    """Simulations (docs: "Start positions"): a sweep point sets the starting distance even when
    the GM placed the ships by hand for the encounter."""
    from rulesets.core.simulate import sweep_by_key, with_options

    spec = engine.RULESET.example_setup(0)
    spec["options"]["placements"] = {"Talon": {"col": 1, "row": 1, "facing": "S"}}
    for point in sweep_by_key(engine.RULESET, "distance").points:
        state = engine.RULESET.setup(with_options(spec, point.options))
        assert abs(state.ship("a").row - state.ship("b").row) == point.options["separation"]
