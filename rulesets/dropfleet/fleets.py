"""Original ship templates and demo fleets (not TTCombat's ships: invented for this table).

Two opposing fleets, frigates to Dreadnoughts, between them every weapon kind the rules
know: fixed and variable damage, Close Action, launch assets, Particle, Calibre, always-on
and switchable passive countermeasures with their drawbacks, Atmospheric and Monitor hulls.
"""
from __future__ import annotations


def _w(name, lock, attacks, damage, arc, **special):
    return {"name": name, "lock": lock, "attacks": attacks, "damage": damage, "arc": arc,
            "close_action": special.get("close_action", False), "launch": special.get("launch", False),
            "particle": special.get("particle", False), "calibre": special.get("calibre", "")}


def _ship(name, tonnage, scan, signature, thrust, hull, armour, pd, weapons, **extra):
    stats = {"name": name, "tonnage": tonnage, "scan": scan, "signature": signature, "thrust": thrust,
             "hull": hull, "armour": armour, "passive": extra.get("passive"),
             "passive_switchable": extra.get("passive_switchable", False),
             "shield_signature": extra.get("shield_signature", 0), "shields_block_pd": extra.get("shields_block_pd", False),
             "pd": pd, "dreadnought": extra.get("dreadnought", False), "atmospheric": extra.get("atmospheric", False),
             "monitor": extra.get("monitor", False),
             "weapons": [dict(w, id=f"w{i}") for i, w in enumerate(weapons, start=1)]}
    return stats


TEMPLATES = [
    {"name": "Vess Lancet frigate", "notes": "Concord of Vess. A fast picket with a light railgun and flak.",
     "stats": _ship("Lancet", "L", 6, 4, 12, 4, [5], 2, [
         _w("Light railgun", 4, 3, "1", "F"),
         _w("Flak battery", 5, 2, "1", "A", close_action=True)], atmospheric=True)},
    {"name": "Vess Warden cruiser", "notes": "Concord of Vess. The line cruiser: mass driver, broadside lasers, a bomber bay.",
     "stats": _ship("Warden", "M", 6, 6, 10, 10, [3], 3, [
         _w("Mass driver", 4, 4, "1", "F"),
         _w("Broadside lasers", 4, 2, "1", "S"),
         _w("Bomber bay", 4, 3, "1", "A", launch=True)])},
    {"name": "Vess Bastion heavy cruiser", "notes": "Concord of Vess. A siege cannon built to crack heavy hulls (Calibre H).",
     "stats": _ship("Bastion", "H", 8, 8, 8, 14, [3], 4, [
         _w("Siege cannon", 3, 2, "D3", "NF", calibre="H"),
         _w("Missile racks", 4, 6, "1", "FS", close_action=True)])},
    {"name": "Vess Colossus dreadnought", "notes": "Concord of Vess. Dreadnought: crippled at 18 and at 10 Hull.",
     "stats": _ship("Colossus", "S", 12, 10, 6, 26, [3], 6, [
         _w("Spinal driver", 3, 3, "D6+1", "NF", calibre="HS"),
         _w("Broadside batteries", 3, 8, "1", "S"),
         _w("Torpedo tubes", 4, 4, "2", "F", launch=True)], dreadnought=True)},
    {"name": "Sable Wisp frigate", "notes": "Sable Hegemony. Always-on ablative cloud (passive 5+); a particle lance.",
     "stats": _ship("Wisp", "L", 6, 3, 14, 4, [6], 1, [
         _w("Particle lance", 5, 2, "2", "NF", particle=True),
         _w("Point lasers", 5, 2, "1", "A", close_action=True)], passive=5, atmospheric=True)},
    {"name": "Sable Shroud cruiser", "notes": "Sable Hegemony. Shields (passive 4+) raise its Signature by 4\" and shut its point defence.",
     "stats": _ship("Shroud", "M", 8, 5, 10, 10, [5], 3, [
         _w("Particle array", 5, 2, "1", "F", particle=True),
         _w("Pulse turrets", 4, 5, "1", "A", close_action=True),
         _w("Scatter guns", 4, 3, "1", "S")],
         passive=4, passive_switchable=True, shield_signature=4, shields_block_pd=True)},
    {"name": "Sable Veil heavy cruiser", "notes": "Sable Hegemony. A Monitor: no Course Change or Max Thrust, no Lock penalty between Low and High orbit.",
     "stats": _ship("Veil", "H", 8, 6, 8, 13, [5], 3, [
         _w("Heavy particle beam", 4, 1, "D6", "F", particle=True, calibre="H"),
         _w("Strike craft bay", 4, 4, "1", "A", launch=True)],
         passive=4, passive_switchable=True, shield_signature=6, monitor=True)},
    {"name": "Sable Throne dreadnought", "notes": "Sable Hegemony. Dreadnought with strong shields (passive 3+).",
     "stats": _ship("Throne", "S", 10, 9, 6, 24, [5], 5, [
         _w("Particle spinal mount", 3, 3, "D6", "NF", particle=True),
         _w("Beam batteries", 4, 6, "1", "S"),
         _w("Defence lattice", 5, 6, "1", "A", close_action=True)],
         passive=3, passive_switchable=True, shield_signature=6, dreadnought=True)},
]

DEMO_FLEETS = [
    {"name": "Concord of Vess picket", "side": "Vess", "colour": "#3a6fd8", "ships": [
        {"template": "Vess Warden cruiser", "name": "Steadfast", "crew": [{"name": "Capt. Orla Venn", "position": "captain"}]},
        {"template": "Vess Lancet frigate", "name": "Lancet 1", "crew": []},
        {"template": "Vess Lancet frigate", "name": "Lancet 2", "crew": []},
        {"template": "Vess Bastion heavy cruiser", "name": "Bulwark", "crew": [{"name": "Cdr. Ivo Rask", "position": "captain"}]},
    ]},
    {"name": "Sable Hegemony raiders", "side": "Sable", "colour": "#c0392b", "ships": [
        {"template": "Sable Shroud cruiser", "name": "Nightglass", "crew": [{"name": "Sable-Prime Ketha", "position": "captain"}]},
        {"template": "Sable Wisp frigate", "name": "Wisp 1", "crew": []},
        {"template": "Sable Wisp frigate", "name": "Wisp 2", "crew": []},
        {"template": "Sable Veil heavy cruiser", "name": "Umbra", "crew": [{"name": "Sable-Second Orr", "position": "captain"}]},
    ]},
]


def template_stats(name: str) -> dict:
    for t in TEMPLATES:
        if t["name"] == name:
            return t["stats"]
    raise KeyError(name)


def demo_spec(options: dict | None = None) -> dict:
    """A setup spec of the two demo fleets against each other (the balance measurement)."""
    ships = []
    for fleet in DEMO_FLEETS:
        for i, entry in enumerate(fleet["ships"], start=1):
            ships.append({"id": f"{fleet['side'][0].lower()}{i}", "name": entry["name"], "side": fleet["side"],
                          "stats": template_stats(entry["template"]), "crew": [], "damage": {}})
    return {"ships": ships, "options": dict(options or {})}
