"""Original ship templates, enemy profiles, demo fleets and example setups for Void d20.

All invented for this app (the seed gives no ships): frames, speeds and weapon damage are
house data, editable on every ship.  Pure Python.
"""
from __future__ import annotations

MODULES = ["engines", "sensors", "life support", "docking clamp"]

TEMPLATES = [
    {"name": "Rustbucket hauler", "notes": "A slow cargo hauler: a thick frame, one turret, plenty of spares.",
     "stats": {"frame": 14, "speed": 8, "defence": 11, "spare_parts": 4, "modules": MODULES + ["cargo crane"],
               "weapons": [{"name": "Turret laser", "damage": "d8", "reach": "standard"}]}},
    {"name": "Needle courier", "notes": "Fast and fragile; hard to catch, hard to hit.",
     "stats": {"frame": 8, "speed": 15, "defence": 14, "spare_parts": 1, "modules": MODULES,
               "weapons": [{"name": "Pulse gun", "damage": "d6", "reach": "standard"}]}},
    {"name": "Salvage tug", "notes": "Built to grab wrecks: a grapple gun and a strong docking clamp.",
     "stats": {"frame": 14, "speed": 10, "defence": 12, "spare_parts": 3, "modules": MODULES + ["grapple arm"],
               "weapons": [{"name": "Rivet cannon", "damage": "d8", "reach": "close"},
                           {"name": "Cutting beam", "damage": "d6", "reach": "standard"}]}},
    {"name": "Scrap raider", "notes": "A pirate boat welded from wrecks, made for boarding.",
     "stats": {"frame": 12, "speed": 12, "defence": 12, "spare_parts": 2, "modules": MODULES + ["boarding tube"],
               "weapons": [{"name": "Autocannon", "damage": "d8", "reach": "standard"},
                           {"name": "Harpoon missile", "damage": "d6", "reach": "missile"}]}},
    {"name": "Corporate picket", "notes": "A security cutter: a heavy railgun that reaches Far.",
     "stats": {"frame": 16, "speed": 11, "defence": 13, "spare_parts": 2, "modules": MODULES + ["point defence"],
               "weapons": [{"name": "Railgun", "damage": "2d6", "reach": "heavy"},
                           {"name": "Flak gun", "damage": "d6", "reach": "standard"}]}},
    {"name": "Derelict station spur", "notes": "A dead station section: no engines to speak of, used for corridor fights.",
     "stats": {"frame": 20, "speed": 2, "defence": 8, "spare_parts": 0, "modules": ["life support", "docking clamp"],
               "weapons": []}},
]

#: enemy profiles (Враги в бою): HP, DR, attack modifier, damage, morale; squads of several
ENEMY_PROFILES: list[dict] = [
    {"name": "Scrapper", "characteristics": {"hp": 5, "dr": 11, "attack": 2, "morale": 7, "count": 3},
     "skills": {"profile": "enemy", "weapon": "Rivet gun, ranged, d6"}},
    {"name": "Raider boss", "characteristics": {"hp": 9, "dr": 12, "attack": 3, "morale": 9, "count": 1},
     "skills": {"profile": "enemy", "weapon": "Shock maul, melee, d8"}},
    {"name": "Security drone", "characteristics": {"hp": 4, "dr": 13, "attack": 2, "morale": 12, "count": 2},
     "skills": {"profile": "enemy", "weapon": "Stun laser, tech, d6"}},
    {"name": "Void cultist", "characteristics": {"hp": 6, "dr": 10, "attack": 1, "morale": 6, "count": 4},
     "skills": {"profile": "enemy", "weapon": "Ritual blade, melee, d6"}},
]


def character(name: str, position: str, body=0, agility=0, mind=0, technology=0, hp=8, dr=12, void=1,
              weapon="Laser pistol, tech, d8, 3", armour="Vacc suit, 1, 3", shield=0, medkit=0) -> dict:
    return {"name": name, "position": position,
            "characteristics": {"body": body, "agility": agility, "mind": mind, "technology": technology,
                                "hp": hp, "dr": dr, "void_points": void},
            "skills": {"profile": "character", "weapon": weapon, "armour": armour, "shield": shield, "medkit": medkit}}


def enemy(profile: str, position: str = "marine", **changes) -> dict:
    base = next(p for p in ENEMY_PROFILES if p["name"] == profile)
    numbers = {**base["characteristics"], **changes}
    return {"name": profile, "position": position, "characteristics": numbers, "skills": dict(base["skills"])}


CREW_OF_THE_KESTREL = [
    character("Mara Voss", "captain", body=1, agility=1, mind=2, technology=1, hp=9, medkit=2),
    character("Jun Okafor", "pilot", agility=3, technology=1, hp=7, weapon="Slug pistol, ranged, d6, 3"),
    character("Ilse Brandt", "gunner", body=2, technology=2, hp=10, weapon="Plasma carbine, tech, d10, 3", shield=2),
    character("Tomas Reyes", "engineer", body=2, technology=2, hp=9, weapon="Breaching axe, melee, d8, 3"),
]
CREW_OF_THE_GRINDER = [
    character("Skarn", "pilot", body=1, agility=2, technology=1, hp=8, weapon="Slug pistol, ranged, d6, 3", void=0),
    character("Vex", "gunner", agility=1, technology=2, hp=7, weapon="Scatter gun, ranged, d8, 3", void=0),
    enemy("Raider boss", "captain", hp=12, attack=4),
    enemy("Scrapper", "marine", count=3, morale=8),
]


def demo_fleets() -> list[dict]:
    return [
        {"name": "Kestrel crew", "side": "crew", "colour": "#2a7ab0",
         "ships": [{"template": "Salvage tug", "name": "Kestrel", "crew": CREW_OF_THE_KESTREL}]},
        {"name": "Grinder raiders", "side": "raiders", "colour": "#b0442a",
         "ships": [{"template": "Scrap raider", "name": "Grinder", "crew": CREW_OF_THE_GRINDER}]},
    ]


def _spec_ship(sid: str, name: str, side: str, template: str, crew: list[dict], prefix: str) -> dict:
    stats = next(t["stats"] for t in TEMPLATES if t["name"] == template)
    return {"id": sid, "name": name, "side": side, "stats": stats, "damage": {},
            "crew": [{"id": f"{prefix}{i}", "player": None, **c} for i, c in enumerate(crew, start=1)]}


def example_setup(variant: int = 0) -> dict:
    """0: the demo duel (Kestrel against Grinder) at Medium; 1: the corridors scene, already boarded.

    The duel has the default round limit (setup.DEFAULT_MAX_ROUNDS, 60): a crew that will not board
    a drifting wreck shoots at it until its reactor goes (the catastrophe table, 1 in 12 a hit)."""
    ships = [_spec_ship("s1", "Kestrel", "crew", "Salvage tug", CREW_OF_THE_KESTREL, "k"),
             _spec_ship("s2", "Grinder", "raiders", "Scrap raider", CREW_OF_THE_GRINDER, "g")]
    if variant % 2:
        return {"ships": ships, "options": {"scene": "corridors", "max_rounds": 30}}
    return {"ships": ships, "options": {"scene": "space", "start_band": "medium"}}
