"""Issue 26, "Data that does not come back": a value the rules cannot mean is refused the same way
in the form, the GM override and the import, naming the field and the range.

Each field's range is stated once (``WholeRange``: Wing Commander's and Dropfleet's ``NUMBERS`` in
their override modules, Void d20's ``setup`` tables, Cepheus's ``STAT_LIMITS``) and a number is
read in the digits 0-9 only (``rulesets.core.override.read_whole``): "١٢" is not 12.
"""
import json

import pytest
from django.core.management import call_command

from campaigns import exchange
from campaigns.models import Campaign
from rulesets.core import registry
from rulesets.core.dice import scripted
from rulesets.core.engine import IllegalAction, apply_checked
from rulesets.core.lines import LineError, parse_lines
from rulesets.core.override import WholeRange, read_whole
from rulesets.dropfleet.forms import SetupOptionsForm as DropfleetOptions
from rulesets.void_d20.forms import CrewForm as VoidCrew
from rulesets.wing_commander.forms import CrewForm as WingCrew, ShipStatsForm as WingStats


def override(key: str, path: str, value: str):
    """The GM override of ``key``'s example fight (its own action, as the runner's form sends it)."""
    engine = registry.get(key)
    state = engine.setup(engine.example_setup(0))
    action = next(a for a in engine.legal_actions(state) if a.kind == "override")
    return apply_checked(engine, state, action.with_params(path=path, value=value), scripted()).state


def refused_override(key: str, path: str, value: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        override(key, path, value)
    return str(refused.value)


def form_errors(form_cls, **data) -> dict:
    form = form_cls(data=data)
    assert not form.is_valid()
    return form.errors


def wing_stats(**changes) -> dict:
    data = {"ship_class": "bomber", "mv": "-2", "tw": "9", "shields": "16", "hull": "20", "weapons": "",
            "chaff": "0", "chaff_mv": "0", "mines": "0", "mines_mv": "0"}
    return {**data, **changes}


# --- the shared reader --------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["١٢", "١2", "12.0", "1_2", "1e1", "", "+", "twelve"])
def test_only_the_digits_0_to_9_make_a_whole_number(text):
    with pytest.raises(ValueError):
        read_whole(text)


def test_a_range_names_the_field_and_the_range():
    mv = WholeRange(-10, 10, "MV")
    assert mv.read(" -10 ") == -10 and mv.read("+10") == 10
    with pytest.raises(ValueError, match=r"^MV is a whole number from -10 to 10; -11 is outside that range\.$"):
        mv.read("-11")
    with pytest.raises(ValueError, match=r"^MV is a whole number from -10 to 10; '١٢' is not a whole number "
                                         r"written in the digits 0-9\.$"):
        mv.read("١٢")


def test_a_carried_count_beyond_its_range_or_its_own_top_is_worded_once_in_core():
    """Issue 26: the carried-damage problems of every system (Cepheus and Void d20 import) are
    worded by WholeRange.problem: the range's own bounds, then the ship's or person's own top."""
    lost = WholeRange(0, None, "Hull lost", "the ship's full Hull")
    assert lost.problem("hull", 12, 20, "the ship's full Hull") is None
    assert lost.problem("hull", 20, 20, "the ship's full Hull") is None
    assert lost.problem("hull", 21, 20, "the ship's full Hull") == (
        "hull: Hull lost is a whole number from 0 to 20 (the ship's full Hull); 21 is outside that range.")
    assert lost.problem("hull", -1) == (
        "hull: Hull lost is a whole number from 0 to the ship's full Hull; -1 is outside that range.")
    assert lost.problem("hull", "x") is None and lost.problem("hull", True) is None, "the import's checks say so"


def test_a_line_with_digits_of_another_script_is_refused_by_its_number():
    with pytest.raises(LineError) as refused:
        parse_lines("Laser, 2\nRailgun, ٣", lambda line: line)
    assert refused.value.messages == ["Line 2: '٣' is a digit of another script: write numbers in the digits 0-9."]


# --- Wing Commander: the MV, and the MV lost to thrusters ---------------------------------------

def test_wing_commander_mv_beyond_its_range_is_refused_in_the_form_and_the_override():
    """2.1.4 a): the MV is a bonus or a malus (a bomber's -2 is taken), from -10 to +10."""
    assert WingStats(data=wing_stats()).is_valid()
    assert form_errors(WingStats, **wing_stats(mv="-11"))["mv"] == [
        "MV is a whole number from -10 to 10; -11 is outside that range."]
    assert refused_override("wing_commander", "Blue 1.mv", "-11") == (
        "Blue 1.mv: MV is a whole number from -10 to 10; -11 is outside that range.")
    assert override("wing_commander", "Blue 1.mv", "-2").ship("s1").mv == -2


def test_wing_commander_a_negative_mv_lost_to_thrusters_is_refused_in_the_override():
    """2.1.8: damaged thrusters lower the MV ("sinkt um 2", "um 1"): the MV lost is never negative."""
    assert refused_override("wing_commander", "Blue 1.thrusters", "-3") == (
        "Blue 1.thrusters: MV lost to damaged thrusters is a whole number from 0 to 10; -3 is outside that range.")


@pytest.mark.parametrize("field, value, words", [
    ("mv", "١٢", "MV is a whole number from -10 to 10; '١٢' is not a whole number written in the digits 0-9."),
    ("tw", "٩", "TW is a whole number from 1 to 40; '٩' is not a whole number written in the digits 0-9."),
    ("hull", "0", "Hull points is a whole number from 1 to 999; 0 is outside that range."),
])
def test_wing_commander_stats_form_names_the_field_and_the_range(field, value, words):
    assert form_errors(WingStats, **wing_stats(**{field: value}))[field] == [words]


def test_wing_commander_a_missile_line_keeps_its_mv_and_stock_in_range():
    errors = form_errors(WingStats, **wing_stats(weapons="Dart, missile, 3d6, MV +11, stock 2\n"
                                                         "Dart, missile, 3d6, MV +1, stock -1"))["weapons"]
    assert errors == ["Line 1: A missile's MV is a whole number from -10 to 10; 11 is outside that range.",
                      "Line 2: Stock is a whole number from 0 to 99; -1 is outside that range."]


def test_wing_commander_pilot_sheet_refuses_digits_of_another_script():
    errors = form_errors(WingCrew, flown_by="character", rank="1", months="٦", skills="")
    assert errors["months"] == ["Months in rank is a whole number from 0 to 600; '٦' is not a whole number "
                                "written in the digits 0-9."]


# --- Void d20: a crew member's HP ---------------------------------------------------------------

def test_void_negative_hp_is_refused_in_the_sheet_and_the_override():
    """Смерть и исцеление: HP from 0 (down) to the person's own; a sheet's HP is 1 to 40."""
    errors = form_errors(VoidCrew, profile="character", body="0", agility="0", mind="0", technology="0",
                         hp="-3", dr="12", void_points="0", attack="2", morale="7", count="1", shield="0", medkit="0")
    assert errors["hp"] == ["HP is a whole number from 1 to 40; -3 is outside that range."]
    assert refused_override("void_d20", "Kestrel.crew.Jun Okafor.hp", "-3").startswith(
        "Kestrel.crew.Jun Okafor.hp: HP is a whole number from 0 to the person's full HP; -3 is outside that range.")
    assert refused_override("void_d20", "Kestrel.crew.Jun Okafor.hp", "٣").startswith(
        "Kestrel.crew.Jun Okafor.hp: HP is a whole number from 0 to the person's full HP; '٣' is not a whole "
        "number written in the digits 0-9.")


def test_void_a_personal_weapon_or_armour_with_digits_of_another_script_is_refused():
    form = VoidCrew(data={"profile": "character", "body": "0", "agility": "0", "mind": "0", "technology": "0",
                          "hp": "8", "dr": "12", "void_points": "0", "attack": "2", "morale": "7", "count": "1",
                          "shield": "0", "medkit": "0", "weapon": "Laser pistol, tech, d8, ٣", "armour": "Vacc suit, ١, 3"})
    assert not form.is_valid()
    assert form.errors["weapon"] == ["'٣' is a digit of another script: write numbers in the digits 0-9."]
    assert form.errors["armour"] == ["'١' is a digit of another script: write numbers in the digits 0-9."]


# --- Dropfleet: a position on the table ---------------------------------------------------------

@pytest.mark.parametrize("value", ["999999999,999999999", "-3,-3", "49,10"])
def test_dropfleet_a_position_off_the_table_is_refused_in_the_override(value):
    """DF (the table the GM sets up, 48 by 48 inches by default): a ship stands on it."""
    assert refused_override("dropfleet", "Steadfast.pos", value) == (
        f"Steadfast.pos: the position is on the 48×48 table, x from 0 to 48 and y from 0 to 48 inches; "
        f"{value} is off the table.")


@pytest.mark.parametrize("value", ["١٢,٣", "1e9,1e9", "nan,nan", "inf,3"])
def test_dropfleet_a_position_not_in_the_digits_0_to_9_is_refused_in_the_override(value):
    assert refused_override("dropfleet", "Steadfast.pos", value).startswith(
        f"Steadfast.pos: '{value}' is not a position such as 20,14 (inches, x,y in the digits 0-9)")


def test_dropfleet_edges_of_the_table_are_taken():
    state = override("dropfleet", "Steadfast.pos", "48,0")
    ship = next(s for s in state.ships if s.name == "Steadfast")
    assert (ship.x, ship.y) == (48, 0)


def test_dropfleet_a_placement_off_the_table_is_refused_in_the_setup_form():
    options = {"width": "48", "height": "48", "separation": "24", "layers": "high", "max_rounds": "6",
               "pd_policy": "min_expected"}
    errors = form_errors(DropfleetOptions, **options, placements="Steadfast: 999999999,999999999\nNightglass: 10,10")
    assert errors["placements"] == ["Steadfast: the position is on the 48×48 table, x from 0 to 48 and y from 0 "
                                    "to 48 inches; 999999999,999999999 is off the table."]
    errors = form_errors(DropfleetOptions, **options, placements="Steadfast: ١٢,٣")
    assert errors["placements"] == ["Line 1: '١٢٣' are digits of another script: write numbers in the digits 0-9."]
    assert DropfleetOptions(data={**options, "placements": "Steadfast: 48,0 90"}).is_valid()


# --- the import: the same ranges, through the same forms ----------------------------------------


def _demo(key: str) -> dict:
    call_command("seed_demo", verbosity=0)
    return exchange.export_campaign(Campaign.objects.get(ruleset=key))


def _first(data: dict, with_crew: bool = False) -> dict:
    return next(s for f in data["campaign"]["fleets"] for s in f["ships"] if s["crew"] or not with_crew)


def _refused(data: dict, gm) -> str:
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_campaign(json.dumps(data), gm)
    return str(refused.value)


@pytest.mark.django_db
def test_the_import_refuses_a_wing_commander_mv_as_the_form_does(admin_user):
    data = _demo("wing_commander")
    _first(data)["stats"]["mv"] = -11
    assert _refused(data, admin_user).endswith(
        ": stats.mv: MV is a whole number from -10 to 10; -11 is outside that range.")
    _first(data)["stats"]["mv"] = "١٢"
    assert _refused(data, admin_user).endswith(
        ": stats.mv: MV is a whole number from -10 to 10; '١٢' is not a whole number written in the digits 0-9.")
    _first(data)["stats"]["mv"] = -2            # a bomber's malus comes in
    assert exchange.import_campaign(json.dumps(data), admin_user).ships.filter(stats__mv=-2).exists()


@pytest.mark.django_db
def test_the_import_refuses_a_negative_mv_lost_to_thrusters(admin_user):
    data = _demo("wing_commander")
    _first(data)["damage"] = {"thrusters_damaged": -3}
    assert _refused(data, admin_user).endswith(
        ".damage.thrusters_damaged: damage is what was lost or spent, a number of 0 or more; -3 is outside that range.")


@pytest.mark.django_db
def test_the_import_refuses_negative_hp_of_a_void_crew_member(admin_user):
    data = _demo("void_d20")
    ship = _first(data, with_crew=True)
    ship["crew"][0]["characteristics"]["hp"] = -3
    assert _refused(data, admin_user).endswith(
        ": characteristics.hp: HP is a whole number from 1 to 40; -3 is outside that range.")
    ship["crew"][0]["characteristics"]["hp"] = 8
    ship["damage"] = {"crew": {"crew[0]": {"hp_lost": -3}}}
    assert _refused(data, admin_user).endswith(
        ".damage.crew.crew[0].hp_lost: damage is what was lost or spent, a number of 0 or more; -3 is outside that range.")


@pytest.mark.django_db
def test_the_import_refuses_digits_of_another_script_in_stats_sheets_and_damage(admin_user):
    data = _demo("cepheus")
    ship = _first(data, with_crew=True)
    tonnage = ship["stats"]["tonnage"]
    arabic = str(tonnage).translate(str.maketrans("0123456789", "٠١٢٣٤٥٦٧٨٩"))
    ship["stats"]["tonnage"] = arabic
    assert _refused(data, admin_user).endswith(f": stats.tonnage: '{arabic}' is not a number written in the digits 0-9.")
    ship["stats"]["tonnage"] = tonnage
    ship["crew"][0]["skills"]["gunnery"] = "١"
    assert _refused(data, admin_user).endswith(": skills.gunnery: '١' is not a number written in the digits 0-9.")


@pytest.mark.parametrize("parse, text", [
    ("rulesets.starwars_d6.dice:DiceCode.parse", "٣D+١"),
    ("rulesets.dropfleet.state:parse_damage", "D6+١"),
    ("rulesets.wing_commander.state:parse_damage", "٢d6"),
    ("rulesets.void_d20.dice:parse_damage", "٢d6"),
])
def test_the_rules_own_readers_take_only_the_digits_0_to_9(parse, text):
    """Issue 26: digits of other scripts are no numbers, also where a rule module reads a code
    itself (a scenario file, a saved sheet): "٣D+١" is not 3D+1."""
    import importlib

    module, _, name = parse.partition(":")
    reader = importlib.import_module(module)
    for part in name.split("."):
        reader = getattr(reader, part)
    with pytest.raises(ValueError):
        reader(text)


# --- Cepheus: each counter up to what the ship, the weapon or the person has ---------------------

CEPHEUS = "Lantern of Ashby"


@pytest.mark.parametrize("path, value, words", [
    ("hull", "5", "Hull is a whole number from 0 to 4 (Lantern of Ashby's full Hull); 5 is outside that range."),
    ("hull", "-1", "Hull is a whole number from 0 to the ship's full Hull; -1 is outside that range."),
    ("fuel", "51", "fuel is a whole number from 0 to 50 (Lantern of Ashby's full tanks); 51 is outside that range."),
    ("hits.m_drive", "4", "hits on a system is a whole number from 0 to 3; 4 is outside that range."),
    ("t1.hits", "4", "hits on a mount is a whole number from 0 to 3; 4 is outside that range."),
    ("reactions", "5", "reactions is a whole number from 0 to 4; 5 is outside that range."),
    ("thrust_max", "11", "Thrust is a whole number from 0 to 10; 11 is outside that range."),
    ("t2.0.loaded", "4", "ammunition loaded is a whole number from 0 to 3 (the missile rack's magazine); "
                         "4 is outside that range."),
    ("t2.0.reserve", "7", "ammunition in store is a whole number from 0 to 6 (the missile rack's full load); "
                          "7 is outside that range."),
    ("crew.Ana Ferreira.damage", "23", "damage is a whole number from 0 to 22 (Ana Ferreira's Str + Dex + End); "
                                       "23 is outside that range."),
])
def test_cepheus_an_override_beyond_what_the_ship_or_person_has_is_refused(path, value, words):
    """Danno: Hull and Structure are lost down to 0 (the ship's own points), a system or a mount takes
    at most three hits; Reazioni: at most 4 reactions; a missile rack holds 3 missiles; a crew member's
    wounds come off End, Str and Dex (all three at 0 is dead)."""
    assert refused_override("cepheus", f"{CEPHEUS}.{path}", value) == f"{CEPHEUS}.{path}: {words}"


def test_cepheus_the_tops_themselves_are_taken():
    state = override("cepheus", f"{CEPHEUS}.crew.Ana Ferreira.damage", "22")
    assert next(c for c in state.ships[0].crew if c.name == "Ana Ferreira").damage == 22
    state = override("cepheus", f"{CEPHEUS}.t2.0.loaded", "3")
    assert state.ships[0].mount("t2").weapons[0].loaded == 3
    assert override("cepheus", f"{CEPHEUS}.hull", "4").ships[0].hull == 4


@pytest.mark.django_db
@pytest.mark.parametrize("carried, words", [
    ({"void": 9}, "crew[0].void: Void Points is a whole number from 0 to 4; 9 is outside that range."),
    ({"void": 2, "hp_lost": 41}, "crew[0].hp_lost: HP lost is a whole number from 0 to the person's full HP; "
                                 "41 is outside that range."),
])
def test_the_import_refuses_void_points_or_hp_lost_beyond_the_rules(admin_user, carried, words):
    """Очки Пустоты (RULES-NOTES): a character has at most 4 Void Points; HP lost is at most the person's own."""
    data = _demo("void_d20")
    ship = _first(data, with_crew=True)
    ship["damage"] = {"crew": {"crew[0]": carried}}
    assert _refused(data, admin_user).endswith(f".damage.crew.{words}")


@pytest.mark.django_db
def test_the_import_takes_void_points_and_hp_lost_at_their_tops(admin_user):
    data = _demo("void_d20")
    ship = _first(data, with_crew=True)
    hp = int(ship["crew"][0]["characteristics"].get("hp", 8))
    ship["damage"] = {"crew": {"crew[0]": {"void": 4, "hp_lost": hp}}}
    campaign = exchange.import_campaign(json.dumps(data), admin_user)
    copy = campaign.ships.get(name=ship["name"])
    crew_id = copy.crew.all()[0].setup_spec()["id"]
    assert copy.damage["crew"][crew_id] == {"void": 4, "hp_lost": hp}


@pytest.mark.django_db
def test_the_import_refuses_more_frame_lost_than_the_ship_has(admin_user):
    data = _demo("void_d20")
    ship = _first(data)
    frame = int(ship["stats"]["frame"])
    ship["damage"] = {"frame_lost": frame + 1}
    assert _refused(data, admin_user).endswith(
        f".damage.frame_lost: the frame's Condition lost is a whole number from 0 to {frame} (the ship's "
        f"full frame); {frame + 1} is outside that range.")


@pytest.mark.django_db
@pytest.mark.parametrize("carried, words", [
    ({"hull": 5}, "hull: Hull lost is a whole number from 0 to 4 (the ship's full Hull); 5 is outside that range."),
    ({"systems": {"m_drive": 4}}, "systems.m_drive: hits on a system is a whole number from 0 to 3; "
                                  "4 is outside that range."),
    ({"mounts": {"t1": 4}}, "mounts.t1: hits on a mount is a whole number from 0 to 3; 4 is outside that range."),
    ({"ammo": {"t2.0": 7}}, "ammo.t2.0: ammunition spent is a whole number from 0 to 6 (the missile rack's full "
                            "load); 7 is outside that range."),
    ({"crew": {"ANA": {"damage": 23}}}, "crew.ANA.damage: damage is a whole number from 0 to 22 "
                                            "(Ana Ferreira's Str + Dex + End); 23 is outside that range."),
])
def test_the_import_refuses_cepheus_damage_beyond_what_the_ship_or_person_has(admin_user, carried, words):
    """Danno (points lost down to 0, three hits destroy a system or mount), the missile rack's load,
    a crew member's wounds (all of Str, Dex and End): the override's ranges, read by the import."""
    data = _demo("cepheus")
    ship = next(s for f in data["campaign"]["fleets"] for s in f["ships"] if s["name"] == CEPHEUS)
    ana = f"crew[{[c['name'] for c in ship['crew']].index('Ana Ferreira')}]"
    ship["damage"] = json.loads(json.dumps(carried).replace("ANA", ana))
    assert _refused(data, admin_user).endswith(f".damage.{words.replace('ANA', ana)}")
    ship["damage"] = {"hull": 4, "ammo": {"t2.0": 6}, "crew": {ana: {"damage": 22, "rads": 40}}}
    assert exchange.import_campaign(json.dumps(data), admin_user).ships.get(name=CEPHEUS).damage["hull"] == 4
