"""Original ship templates and demo flights, Confederation and Kilrathi in style.

The seed leaves weapon damage, missile MV, shields and hull to the game's data chapter
(2.4, not part of the text): every number here is this project's own, for the GM to edit,
and each template's notes say so.  No stat block is copied from any published game.
"""
from __future__ import annotations

EDITABLE = "Values are this app's own (the rules leave ship data to the game's data chapter): edit them to your table's."


def _w(name, kind, damage, mv=0, stock=None):
    out = {"name": name, "kind": kind, "damage": damage, "mv": mv}
    if kind in ("missile", "torpedo"):
        out["stock"] = stock if stock is not None else 1
    return out


def _ship(cls, mv, tw, shields, hull, weapons, chaff=0, chaff_mv=0, mines=0, mines_mv=0, cloak=False, phase_shields=False):
    return {"class": cls, "mv": mv, "tw": tw, "shields": shields, "hull": hull, "weapons": weapons,
            "chaff": chaff, "chaff_mv": chaff_mv, "mines": mines, "mines_mv": mines_mv,
            "cloak": cloak, "phase_shields": phase_shields}


TEMPLATES = [
    {"name": "Merlin light fighter", "notes": "Confederation-style scout: quick, thin-skinned. " + EDITABLE,
     "stats": _ship("light", 3, 14, 6, 8, [_w("Laser cannons", "gun", "2d6"), _w("Dart missile", "missile", "3d6", 1, 2)],
                    chaff=2, chaff_mv=1)},
    {"name": "Kestrel medium fighter", "notes": "Confederation-style line fighter. " + EDITABLE,
     "stats": _ship("medium", 1, 12, 10, 12, [_w("Ion cannons", "gun", "2d6+2"), _w("Heat-seeker missile", "missile", "3d6+2", 2, 2)],
                    chaff=2, chaff_mv=1, mines=1, mines_mv=0)},
    {"name": "Warden heavy fighter", "notes": "Confederation-style heavy fighter with a rear turret. " + EDITABLE,
     "stats": _ship("heavy", 0, 11, 14, 16, [_w("Mass drivers", "gun", "3d6"), _w("Tail turret", "turret", "1d6+1"),
                                             _w("Image-recognition missile", "missile", "4d6", 2, 2)],
                    chaff=2, chaff_mv=1, mines=2, mines_mv=1)},
    {"name": "Mattock bomber", "notes": "Confederation-style torpedo bomber. " + EDITABLE,
     "stats": _ship("bomber", -2, 9, 16, 20, [_w("Laser cannons", "gun", "2d6"), _w("Dorsal turret", "turret", "2d6"),
                                              _w("Capital torpedo", "torpedo", "6d10", 2, 2)],
                    chaff=3, chaff_mv=1, mines=2, mines_mv=0)},
    {"name": "Tarragon-class destroyer", "notes": "Confederation-style escort: a soft torpedo target. " + EDITABLE,
     "stats": _ship("capital", -4, 6, 40, 80, [_w("Flak turrets", "turret", "3d6")])},
    {"name": "Vrakhar light fighter", "notes": "Kilrathi-style interceptor. " + EDITABLE,
     "stats": _ship("light", 3, 14, 5, 9, [_w("Neutron guns", "gun", "2d6+1"), _w("Dart missile", "missile", "3d6", 1, 1)],
                    chaff=1, chaff_mv=1)},
    {"name": "Shraketh medium fighter", "notes": "Kilrathi-style line fighter. " + EDITABLE,
     "stats": _ship("medium", 1, 13, 9, 13, [_w("Meson guns", "gun", "2d6+2"), _w("Heat-seeker missile", "missile", "3d6+2", 2, 2)],
                    chaff=2, chaff_mv=1, mines=1, mines_mv=0)},
    {"name": "Ghorrak heavy fighter", "notes": "Kilrathi-style heavy fighter with a turret. " + EDITABLE,
     "stats": _ship("heavy", 0, 11, 13, 20, [_w("Plasma guns", "gun", "3d6"), _w("Rear turret", "turret", "1d6+1"),
                                             _w("Friend-or-foe missile", "missile", "4d6", 1, 2)],
                    chaff=2, chaff_mv=1, mines=2, mines_mv=1)},
    {"name": "Kharrak stealth bomber", "notes": "Kilrathi-style bomber with a cloaking device. " + EDITABLE,
     "stats": _ship("bomber", -2, 9, 15, 20, [_w("Mass drivers", "gun", "2d6"), _w("Capital torpedo", "torpedo", "6d10", 2, 2)],
                    chaff=2, chaff_mv=1, mines=2, mines_mv=0, cloak=True)},
    {"name": "Ra'thak-class cruiser", "notes": "Kilrathi-style cruiser with phase shields: a hard torpedo target. " + EDITABLE,
     "stats": _ship("capital", -4, 6, 60, 120, [_w("Anti-fighter turrets", "turret", "3d6")], phase_shields=True)},
]


def _pilot(name, rank, months, flown_by="character", wild_card=False, leader=False, skills=None):
    return {"name": name, "position": "pilot",
            "characteristics": {"rank": rank, "months": months, "wild_card": wild_card, "flown_by": flown_by,
                                "leader": leader},
            "skills": skills or {}}


DEMO_FLEETS = [
    {"name": "Blue Flight", "side": "Confederation", "colour": "#3366cc", "ships": [
        {"template": "Kestrel medium fighter", "name": "Blue 1",
         "crew": [_pilot("Lt. Maya Okafor", 3, 8, leader=True, wild_card=True, skills={"Gunnery": ["attack", 1]})]},
        {"template": "Kestrel medium fighter", "name": "Blue 2",
         "crew": [_pilot("Lt. Arjun Pell", 2, 14, skills={"Evasive flying": ["dodge", 1]})]},
        {"template": "Merlin light fighter", "name": "Blue 3", "crew": [_pilot("Ens. Tova Lind", 1, 3)]},
        {"template": "Warden heavy fighter", "name": "Blue 4", "crew": [_pilot("Capt. Idris Vane", 4, 20)]},
    ]},
    {"name": "Red Claw", "side": "Kilrathi", "colour": "#cc3333", "ships": [
        {"template": "Shraketh medium fighter", "name": "Claw 1", "crew": [_pilot("Ragark", 4, 30, "npc", leader=True)]},
        {"template": "Shraketh medium fighter", "name": "Claw 2", "crew": [_pilot("Hrrak the Younger", 3, 10, "npc")]},
        {"template": "Vrakhar light fighter", "name": "Claw 3", "crew": [_pilot("Khar'ja", 2, 6, "npc")]},
        {"template": "Ghorrak heavy fighter", "name": "Claw 4", "crew": [_pilot("Old Kharsh", 4, 40, "npc")]},
    ]},
]
