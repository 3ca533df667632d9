"""Original ship templates, demo fleets and example setups for Cepheus Engine space combat."""
from __future__ import annotations

import copy


def _stats(tonnage, armour, thrust, jump, turrets=(), bays=(), **kw):
    stats = {
        "tonnage": tonnage, "armour": armour, "thrust": thrust, "jump": jump,
        "sensors": kw.pop("sensors", "standard"), "electronics": kw.pop("electronics", 0),
        "fire_control": kw.pop("fire_control", 0),
        "auto_repair": kw.pop("auto_repair", False), "intellect": kw.pop("intellect", False),
        "expert_pilot": kw.pop("expert_pilot", 0), "expert_engineer": kw.pop("expert_engineer", 0),
        "repair_drones": kw.pop("repair_drones", False),
        "nuclear_damper": kw.pop("nuclear_damper", False), "meson_screen": kw.pop("meson_screen", False),
        "fuel": kw.pop("fuel", tonnage // 5), "cargo": kw.pop("cargo", 0),
        "turrets": [{"weapons": list(t)} for t in turrets],
        "bays": list(bays),
    }
    assert not kw, kw
    return stats


def _w(kind, ammo=None, missile=None):
    w = {"type": kind}
    if ammo is not None:
        w["ammo"] = ammo
    if missile:
        w["missile"] = missile
    return w


PL, BL, PB, FG = _w("pulse_laser"), _w("beam_laser"), _w("particle_beam"), _w("fusion_gun")


def SAND(n=12):
    return _w("sandcaster", n)


def RACK(n=9, kind="standard"):
    return _w("missile_rack", n, kind)


TEMPLATES = [
    {"name": "Kestrel-class scout", "notes": "100 t courier and survey ship: fast, lightly armed, good sensors.",
     "stats": _stats(100, 0, 2, 2, [(PL, SAND(6))], sensors="advanced", electronics=1, fire_control=1,
                     fuel=40, cargo=3)},
    {"name": "Halcyon free trader", "notes": "200 t tramp trader; a turret for show and a big hold.",
     "stats": _stats(200, 0, 1, 1, [(BL, SAND(9))], fuel=30, cargo=80)},
    {"name": "Meridian far trader", "notes": "200 t merchant with jump-2 and two defensive turrets.",
     "stats": _stats(200, 1, 1, 2, [(PL, SAND(9)), (RACK(6), BL)], fuel=50, cargo=60)},
    {"name": "Wasp light fighter", "notes": "10 t small craft; one pulse laser, very nimble. No jump drive.",
     "stats": _stats(10, 2, 6, 0, [(PL,)], fire_control=1, fuel=1)},
    {"name": "Gannet ship's boat", "notes": "30 t small craft for boarding parties and shuttling.",
     "stats": _stats(30, 1, 4, 0, [(BL,)], fuel=3, cargo=4)},
    {"name": "Sentinel patrol corvette", "notes": "400 t system patrol ship: armoured, four turrets, missiles.",
     "stats": _stats(400, 4, 4, 3, [(PL, PL, SAND(12)), (BL, BL), (RACK(12), RACK(12)), (PL, SAND(12))],
                     sensors="advanced", electronics=2, fire_control=2, repair_drones=True, auto_repair=True,
                     intellect=True, fuel=120, cargo=20)},
    {"name": "Bulwark system defence boat", "notes": "400 t jumpless monitor: heavy armour, a particle bay, a damper.",
     "stats": _stats(400, 8, 5, 0, [(PL, PL, SAND(12)), (RACK(12, "nuclear"), SAND(12))],
                     [_w("particle_bay")], sensors="very_advanced", electronics=2, fire_control=3,
                     nuclear_damper=True, repair_drones=True, auto_repair=True, fuel=40, cargo=5)},
    {"name": "Red Marrow corsair", "notes": "400 t raider built for boarding: thrust 4, lasers, a docking clamp.",
     "stats": _stats(400, 2, 4, 2, [(PL, PL, SAND(9)), (BL, BL), (RACK(9, "smart"), PL), (PL, SAND(9))],
                     sensors="standard", electronics=1, fire_control=1, fuel=100, cargo=60)},
    {"name": "Vigil-class escort", "notes": "1,000 t escort with a meson bay and screens against it.",
     "stats": _stats(1000, 6, 4, 3, [(PL, PL, SAND(12)), (BL, BL, BL), (RACK(12), RACK(12), SAND(12))],
                     [_w("meson_bay"), _w("missile_bay", 36)], sensors="very_advanced", electronics=3,
                     fire_control=3, nuclear_damper=True, meson_screen=True, repair_drones=True, auto_repair=True,
                     intellect=True, expert_pilot=1, fuel=300, cargo=20)},
]
TEMPLATE = {t["name"]: t for t in TEMPLATES}


def _c(name, position, chars=None, station="", **skills):
    return {"name": name, "position": position, "station": station,
            "characteristics": chars or {"str": 7, "dex": 8, "end": 7, "int": 8, "edu": 8, "soc": 7},
            "skills": skills}


def demo_fleets() -> list[dict]:
    return [
        {"name": "Meridian Company convoy", "side": "Meridian Company", "colour": "#3366cc", "ships": [
            {"template": "Meridian far trader", "name": "Lantern of Ashby", "crew": [
                _c("Ana Ferreira", "pilot", {"str": 6, "dex": 9, "end": 7, "int": 8, "edu": 9, "soc": 7}, pilot=2),
                _c("Bram Oduya", "captain", {"str": 7, "dex": 7, "end": 8, "int": 9, "edu": 8, "soc": 9},
                   tactics=1, leadership=1),
                _c("Chen Liu", "navigator", navigation=1, comms=1),
                _c("Dara Voss", "turret_gunner", station="turret-1", gunnery=1),
                _c("Eli Maro", "turret_gunner", station="turret-2", gunnery=1),
                _c("Fen Sato", "damage_control", mechanic=1, engineering=1),
            ]},
            {"template": "Sentinel patrol corvette", "name": "Steadfast", "crew": [
                _c("Gale Okonjo", "captain", tactics=2, leadership=1, screens=0),
                _c("Hiro Tan", "pilot", pilot=1),
                _c("Ines Kahl", "sensors", comms=2),
                _c("Jory Pell", "navigator", navigation=1),
                _c("Kai Brandt", "turret_gunner", station="turret-1", gunnery=2),
                _c("Lena Rusk", "turret_gunner", station="turret-3", gunnery=1),
            ]},
        ]},
        {"name": "Red Marrow raiders", "side": "Red Marrow", "colour": "#cc3333", "ships": [
            {"template": "Red Marrow corsair", "name": "Gutter Saint", "crew": [
                _c("Mags Orlo", "captain", tactics=1, leadership=2),
                _c("Nix Harrow", "pilot", pilot=2),
                _c("Oda Kresh", "sensors", comms=1),
                _c("Pike", "turret_gunner", station="turret-1", gunnery=1),
                _c("Quill", "turret_gunner", station="turret-3", gunnery=1),
                _c("Rook", "security", tactics=1),
                _c("Sable", "marine"),
            ]},
            {"template": "Wasp light fighter", "name": "Stinger One", "crew": [
                _c("Tam Veyl", "pilot", pilot=1, gunnery=1),
            ]},
        ]},
    ]


def _spec_from_fleets(fleets, options) -> dict:
    ships = []
    n = 0
    for fi, f in enumerate(fleets):
        for si, s in enumerate(f["ships"]):
            sid = f"s{fi + 1}{si + 1}"
            crew = []
            for c in s["crew"]:
                n += 1
                crew.append({**copy.deepcopy(c), "id": f"c{n}", "player": None})
            ships.append({"id": sid, "name": s["name"], "side": f["side"], "fleet": f["name"],
                          "stats": copy.deepcopy(TEMPLATE[s["template"]]["stats"]), "damage": {}, "crew": crew})
    return {"ships": ships, "options": options}


def example_setup(variant: int = 0) -> dict:
    fleets = demo_fleets()
    if variant % 2 == 0:
        return _spec_from_fleets(fleets, {"range": "short", "max_rounds": 20})
    # variant 1: the raiders surprise the convoy at Medium range; the fighter gets a gunner-pilot duel
    fleets[0]["ships"] = fleets[0]["ships"][:1] + [{"template": "Wasp light fighter", "name": "Escort Kite", "crew": [
        _c("Uma Reyes", "pilot", pilot=2, gunnery=1)]}]
    spec = _spec_from_fleets(fleets, {"range": "medium", "max_rounds": 20, "aware": ["s21", "s22"]})
    return spec
