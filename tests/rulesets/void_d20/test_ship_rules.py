"""Void d20 ship combat and boarding, rule by rule, with scripted dice (seed: void-d20-combat.ru.txt)."""
from __future__ import annotations

import pytest

from rulesets.core.engine import Action, Log
from rulesets.void_d20 import checks, ships, tables, turns
from rulesets.void_d20.engine import RULESET
from rulesets.void_d20.model import Module, ShipWeapon, pair_key
from rulesets.void_d20.options import station_actions

from .helpers import boat, char, dice, person, space_state, used_up, vessel


def _texts(log):
    return " ".join(entry.text for entry in log)


def _crewed(band="medium", **kestrel):
    """Kestrel (pilot Jun, gunner Ilse, sensors Sam, engineer Tom, captain Mara) against Grinder (Skarn)."""
    k = vessel("s1", "Kestrel", "crew", **kestrel)
    g = vessel("s2", "Grinder", "raiders", defence=12, speed=12)
    people = (
        char("jun", "Jun", position="pilot", agility=3),
        char("ilse", "Ilse", position="gunner", technology=3),
        char("sam", "Sam", position="sensors", mind=2),
        char("tom", "Tom", position="engineer", technology=2, body=3),
        char("mara", "Mara", position="captain", technology=1),
        char("skarn", "Skarn", side="raiders", ship="s2", position="pilot", agility=2, technology=1),
    )
    return space_state(k, g, people=people, band=band)


def _band(state):
    return state.bands[pair_key("s1", "s2")]


# --- Космические столкновения, Раунды и порядок -------------------------------------------------


def test_without_a_boarding_fight_rounds_are_encounter_rounds_between_ships():
    """Космические столкновения (VD-34): ships fight in encounter rounds, with the same logic."""
    state = _crewed()
    log = Log()
    state = turns.begin_round(state, log, dice(10, 10))
    assert state.scale == "ship" and state.round == 2 and "encounter round" in _texts(log)


def test_each_ship_gets_a_manoeuvre_and_an_attack_each_round():
    """Раунды и порядок (VD-35): one manoeuvre and one attack for each ship, then the next ship."""
    state = _crewed()
    state = turns.advance(state, Log(), dice())
    seen = []
    while state.order[state.turn] == "s1":
        seen.append(tables.STATIONS[state.slot].key)
        state = RULESET.apply(state, Action.make("pass", "s1", station=seen[-1]), dice()).state
    assert "pilot" in seen and "gunner" in seen and seen.index("pilot") < seen.index("gunner")
    assert state.order[state.turn] == "s2"


def test_ship_initiative_is_1d20_plus_the_best_technology_aboard():
    """Раунды и порядок (VD-36): initiative for the whole crew: 1d20 + the best Technology."""
    state = ships.ship_initiative(_crewed(), Log(), dice(10, 10))
    assert boat(state, "s1").initiative == 13 and boat(state, "s2").initiative == 11


def test_ship_initiative_goes_highest_first_with_no_12_split():
    """RULES-NOTES void_d20 (VD-N07): highest first, no 12 split."""
    state = ships.ship_initiative(_crewed(), Log(), dice(2, 9))  # Kestrel 5, Grinder 10
    assert state.order == ("s2", "s1")


# --- Действия на корабле ------------------------------------------------------------------


def test_piloting_is_an_agility_check_closing_the_range():
    """Действия на корабле (VD-37): piloting is an Agility check: pursuit closes one band."""
    state = _crewed()
    check = ships.close_check(state, boat(state, "s1"), boat(state, "s2"))
    assert check.named() == (("Jun's Agility", 3),) and check.target == 12
    assert _band(ships.close_in(state, Log(), dice(9), "s1", "s2")) == "close"
    assert _band(ships.close_in(state, Log(), dice(8), "s1", "s2")) == "medium"


def test_evasion_is_a_piloting_check_that_raises_defence():
    """Действия на корабле (VD-37, evasion; the +2 is a house rule): success, +2 Defence this round."""
    state = ships.evade(_crewed(), Log(), dice(9), "s1")
    assert boat(state, "s1").evading and ships.ship_defence(boat(state, "s1")) == 14


def test_gunnery_is_a_technology_check_against_the_targets_defence():
    """Действия на корабле (VD-38): gunnery is a Technology roll; target (house rule): the ship's Defence, 12 by default."""
    state = _crewed()
    k = boat(state, "s1")
    check = ships.gunnery_check(state, k, k.weapons[0], boat(state, "s2"))
    assert check.named() == (("Ilse's Technology", 3),) and check.target == 12 and check.naturals == checks.ATTACK_NATURALS


def test_sensors_find_a_weakness_for_the_next_shot():
    """Действия на корабле (VD-39): sensors, a Mind check: scan the enemy, find a weakness (+2 next shot, house rule)."""
    state = ships.scan(_crewed(), Log(), dice(10), "s1", "s2")
    assert boat(state, "s1").weakness == ("s2",)
    k = boat(state, "s1")
    check = ships.gunnery_check(state, k, k.weapons[0], boat(state, "s2"))
    assert ("weakness found", 2) in check.named()
    state = ships.fire(state, Log(), dice(2), "s1", "w1", "s2")  # a miss still uses it up
    assert boat(state, "s1").weakness == ()


def test_repair_is_a_technology_check_spending_a_spare_part():
    """Действия на корабле (VD-40): repair: Technology + spare parts, restores Condition (d6, house rule)."""
    state = _crewed(frame=3, max_frame=10, spare_parts=2)
    d = dice(10, 4)
    state = ships.repair(state, Log(), d, "s1", "frame")
    assert boat(state, "s1").frame == 7 and boat(state, "s1").spare_parts == 1 and used_up(d)
    state = ships.repair(state, Log(), dice(9), "s1", "frame")  # 11: fails, the part is gone
    assert boat(state, "s1").frame == 7 and boat(state, "s1").spare_parts == 0
    assert not any(a.kind == "repair" for a in station_actions(state, boat(state, "s1"), "engineer"))


def test_command_gives_another_station_plus_1_this_round():
    """Действия на корабле (VD-41): command gives another character +1 for this round."""
    state = ships.command(_crewed(), Log(), dice(), "s1", "gunner")
    k = boat(state, "s1")
    assert ("command", 1) in ships.gunnery_check(state, k, k.weapons[0], boat(state, "s2")).named()
    state = ships.ship_initiative(state, Log(), dice(5, 5))
    assert boat(state, "s1").command == ""


# --- Дистанции ---------------------------------------------------------------------------


def _weapons_at(band):
    k = vessel("s1", "Kestrel", "crew", weapons=(
        ShipWeapon("w1", "Laser", "d6", "standard"), ShipWeapon("w2", "Railgun", "2d6", "heavy"),
        ShipWeapon("w3", "Missile", "d8", "missile"), ShipWeapon("w4", "Rivets", "d8", "close")))
    state = space_state(k, vessel("s2", "Grinder", "raiders"), people=(char(position="gunner"),), band=band)
    return sorted(a.get("weapon") for a in station_actions(state, boat(state, "s1"), "gunner") if a.kind == "fire")


def test_far_allows_only_heavy_weapons_and_missiles():
    """Дистанции (VD-42): far, at the edge of the scanners: only heavy weapons and missiles."""
    assert _weapons_at("far") == ["w2", "w3"]


def test_medium_allows_most_weapons():
    """Дистанции (VD-43): medium: most weapons work (all but point-blank ones)."""
    assert _weapons_at("medium") == ["w1", "w2", "w3"]


def test_close_allows_all_weapons_and_boarding_is_possible():
    """Дистанции (VD-44): close: all weapons effective; boarding possible (a pilot may close to docked)."""
    assert _weapons_at("close") == ["w1", "w2", "w3", "w4"]
    state = _crewed(band="close")
    assert Action.make("close", "s1", target="s2") in station_actions(state, boat(state, "s1"), "pilot")
    assert _band(ships.close_in(state, Log(), dice(15), "s1", "s2")) == "docked"


def test_docked_ships_cannot_fire_and_boarding_is_on():
    """Дистанции (VD-45): docked: the guns do not work, boarding is under way."""
    assert _weapons_at("docked") == []
    state = _crewed(band="docked")
    kinds = {a.kind for a in station_actions(state, boat(state, "s1"), "gunner")}
    assert kinds == {"board"}


# --- Бегство -----------------------------------------------------------------------------


def test_breaking_away_succeeds_one_band_further_and_fails_one_band_closer():
    """Бегство (VD-46): success opens the range one band, failure closes it."""
    state = _crewed(band="medium")
    assert _band(ships.break_away(state, Log(), dice(9), "s1", "s2")) == "far"     # 12 >= Grinder's speed 12
    assert _band(ships.break_away(state, Log(), dice(8), "s1", "s2")) == "close"   # 11 fails
    far = _crewed(band="far")
    assert boat(ships.break_away(far, Log(), dice(15), "s1", "s2"), "s1").escaped


def test_escape_rolls_agility_against_the_pursuers_speed():
    """RULES-NOTES void_d20 (VD-N08): escape is an Agility check against the pursuer's Speed (a ship stat)."""
    state = _crewed()
    check = ships.escape_check(state, boat(state, "s1"), boat(state, "s2"))
    assert check.target == 12 and check.named() == (("Jun's Agility", 3),)
    fast = ships.escape_check(state, boat(state, "s1"), vessel("s3", "Needle", "raiders", speed=15))
    assert fast.target == 15


# --- Абордаж -----------------------------------------------------------------------------


def test_boarding_needs_the_ships_docked():
    """Абордаж (VD-47): at docked the crew can break in through an airlock or a breach; not before."""
    state = _crewed(band="close")
    assert not any(a.kind == "board" for a in station_actions(state, boat(state, "s1"), "gunner"))
    state = _crewed(band="docked")
    assert Action.make("board", "s1", target="s2", method="breach") in station_actions(state, boat(state, "s1"), "gunner")


def test_breaching_is_body_hacking_is_technology_and_inside_is_corridor_combat():
    """Абордаж (VD-48): Body to force a door, Technology to hack; inside, ordinary corridor combat."""
    state = _crewed(band="docked")
    k, g = boat(state, "s1"), boat(state, "s2")
    assert ships.board_check(state, k, g, "breach").named() == (("Tom's Body", 3),)
    assert ships.board_check(state, k, g, "hack").named() == (("Ilse's Technology", 3),)
    state = ships.board(state, Log(), dice(9), "s1", "s2", "breach")  # 12: in
    assert person(state, "tom").aboard == "s2" and person(state, "jun").aboard == "s1"  # the pilot stays
    state = turns.begin_round(state, Log(), dice(*[10] * 5))
    assert state.scale == "personal" and "skarn" in state.order


# --- Стрельба и повреждения рамы ------------------------------------------------------------


def test_ship_weapons_damage_the_frame():
    """Стрельба и повреждения рамы (VD-49): ship weapons take the frame's Condition."""
    d = dice(12, 5, 4)  # hit, d8 = 5, module d6 = 4
    state = ships.fire(_crewed(), Log(), d, "s1", "w1", "s2")
    assert boat(state, "s2").frame == 5 and used_up(d)


def test_at_frame_0_the_ship_drifts_without_engines():
    """Стрельба и повреждения рамы (VD-50): Condition 0: drifting, no engines, no life support."""
    state = _crewed()
    log = Log()
    state = ships.frame_hit(state, log, dice(3, 5), "s2", 10)  # module d6 3; catastrophe d12 5
    g = boat(state, "s2")
    assert g.drifting and not ships.can_manoeuvre(g) and "suffocate" in _texts(log)
    skarn_state = space_state(g, boat(state, "s1"), people=state.combatants, order=("s2",))
    assert station_actions(skarn_state, g, "pilot") == []


def test_each_hit_knocks_out_a_random_module_on_a_1_in_d6():
    """Стрельба и повреждения рамы (VD-51): each hit has a 1 in d6 chance to knock out a random module."""
    d = dice(1, 2)  # d6 = 1; d3 (engines, sensors, the autocannon) = 2: sensors
    state = ships.frame_hit(_crewed(), Log(), d, "s2", 2)
    assert boat(state, "s2").module_out("sensors") and used_up(d)
    state = ships.frame_hit(_crewed(), Log(), dice(2), "s2", 2)
    assert not any(m.out for m in boat(state, "s2").modules)


# --- Таблица катастроф корабля (d12) -------------------------------------------------------------


def _catastrophe(face, *more):
    state = _crewed()
    d = dice(face, *more)
    log = Log()
    state = ships.catastrophe(state, log, d, "s2")
    assert used_up(d)
    return state, boat(state, "s2"), _texts(log)


@pytest.mark.parametrize("face,key,number", [(1, "breach", "VD-52"), (5, "gravity", "VD-56"), (8, "oxygen", "VD-59"),
                                             (10, "cryo", "VD-61")])
def test_catastrophes_noted_for_the_gm(face, key, number):
    """Таблица катастроф корабля (VD-52 hull breach, VD-56 gravity off, VD-59 oxygen leak, VD-61 cryo pods):
    recorded on the ship and told to the GM."""
    _, g, text = _catastrophe(face)
    assert key in g.catastrophes and tables.CATASTROPHE[key].number == number
    assert tables.CATASTROPHE[key].label.split(":")[0] in text


def test_catastrophe_2_fire_in_engineering_costs_power():
    """Таблица катастроф корабля (VD-53): fire in engineering, -1 power: -1 to gunnery and piloting (house rule)."""
    state, g, _ = _catastrophe(2)
    assert ("fire in engineering", -1) in ships.gunnery_check(state, g, g.weapons[0], boat(state, "s1")).named()


def test_catastrophe_3_the_reactor_explodes_in_d6_rounds():
    """Таблица катастроф корабля (VD-54): the reactor explodes in d6 rounds: the ship is lost with all aboard."""
    state, g, _ = _catastrophe(3, 2)
    assert g.reactor == 2
    state = turns.tick_timers(state, Log(), dice())
    assert boat(state, "s2").reactor == 1
    state = turns.tick_timers(state, Log(), dice())
    assert boat(state, "s2").destroyed and person(state, "skarn").status == "dead"


def test_catastrophe_4_the_docking_module_jams():
    """Таблица катастроф корабля (VD-55): docking module jammed: no docking (nor breaking away once docked)."""
    state, _, _ = _catastrophe(4)
    state = ships.set_band(state, "s1", "s2", "close")
    assert not any(a.kind == "close" for a in station_actions(state, boat(state, "s1"), "pilot"))


def test_catastrophe_6_navigation_dead_no_manoeuvres():
    """Таблица катастроф корабля (VD-57): navigation dead: no manoeuvres."""
    _, g, _ = _catastrophe(6)
    assert not ships.can_manoeuvre(g)


def test_catastrophe_7_a_gun_is_broken():
    """Таблица катастроф корабля (VD-58): a gun broken."""
    _, g, _ = _catastrophe(7)
    assert g.weapons[0].out


def test_catastrophe_9_the_ai_goes_mad_for_the_gm_to_play():
    """Таблица катастроф корабля (VD-60): the ship's AI goes mad; the GM decides what it does."""
    _, g, text = _catastrophe(9)
    assert "ai" in g.catastrophes and "the GM decides" in text


def test_catastrophe_11_engines_jammed_no_manoeuvres():
    """Таблица катастроф корабля (VD-62): engines jammed, flying straight on: no manoeuvres."""
    _, g, _ = _catastrophe(11)
    assert not ships.can_manoeuvre(g)


def test_catastrophe_12_all_systems_reboot_for_d6_rounds():
    """Таблица катастроф корабля (VD-63): all systems reboot for d6 rounds: no manoeuvres, guns or sensors."""
    state, g, _ = _catastrophe(12, 2)
    assert g.reboot == 2 and not ships.powered(g) and not ships.can_manoeuvre(g)
    state = turns.tick_timers(turns.tick_timers(state, Log(), dice()), Log(), dice())
    assert ships.powered(boat(state, "s2"))


def test_the_catastrophe_table_is_rolled_when_the_frame_reaches_0_and_on_each_hit_there():
    """RULES-NOTES void_d20 (VD-N09): roll d12 when the frame reaches 0, again for each hit at 0, and when the GM calls."""
    state = _crewed()
    d = dice(4, 5)  # module d6 4, catastrophe 5 (gravity)
    state = ships.frame_hit(state, Log(), d, "s2", 12)
    assert used_up(d) and boat(state, "s2").catastrophes == ("gravity",)
    d = dice(4, 10)  # another hit at 0: again
    state = ships.frame_hit(state, Log(), d, "s2", 1)
    assert used_up(d) and boat(state, "s2").catastrophes == ("gravity", "cryo")
    d = dice(4)  # a hit that leaves the frame above 0: no table
    ships.frame_hit(_crewed(), Log(), d, "s2", 3)
    assert used_up(d)
    called = RULESET.apply(_crewed(), Action.make("catastrophe", "gm", target="s1"), dice(1)).state
    assert boat(called, "s1").catastrophes == ("breach",)


def test_a_drifting_ship_can_still_be_repaired():
    """Стрельба и повреждения рамы with Действия на корабле (VD-40, VD-50): repairs bring a drifting frame back."""
    state = _crewed(frame=0, max_frame=10, spare_parts=1)
    state = ships.repair(state, Log(), dice(12, 3), "s1", "frame")
    assert boat(state, "s1").frame == 3 and ships.can_manoeuvre(boat(state, "s1"))


def test_modules_knocked_out_have_effects():
    """Стрельба и повреждения рамы (VD-51, house rule): engines out, no manoeuvres; sensors out, no scans."""
    state = _crewed(modules=(Module("engines", True), Module("sensors", True)))
    k = boat(state, "s1")
    assert not ships.can_manoeuvre(k) and station_actions(state, k, "sensors") == []


def test_what_happens_inside_a_ship_is_read_by_its_side_only():
    """Issue 27 (docs/rulesets/void_d20.md, "What the other side reads"): the sensors' findings (VD-39),
    a repair (VD-40) and the captain's command (VD-41) are lines of the crew's side; a shot is public."""
    from encounters.viewing import readable

    for act in (lambda log: ships.scan(_crewed(), log, dice(10), "s1", "s2"),
                lambda log: ships.repair(_crewed(frame=3, max_frame=10, spare_parts=2), log, dice(10, 4), "s1", "frame"),
                lambda log: ships.command(_crewed(), log, dice(), "s1", "gunner")):
        log = Log()
        act(log)
        assert log and all(entry.side == "crew" for entry in log), _texts(log)
        assert not any(readable(entry, is_gm=False, sides={"raiders"}) for entry in log)
        assert all(readable(entry, is_gm=False, sides={"crew"}) for entry in log)
    log = Log()
    ships.fire(_crewed(), log, dice(2), "s1", "w1", "s2")
    assert log and not any(entry.side for entry in log)
