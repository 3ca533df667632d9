"""The tables of the Cepheus Engine space-combat chapter, as data.

Every table names the section of the seed text it comes from: its English name, with
the Italian heading kept for the log's hover (rulesets/core/citation.py).  Pure Python:
no Django import.  Resolutions from
../shared/RULES-NOTES.md (section "cepheus") are applied and marked "notes:".
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from functools import lru_cache

from rulesets.core.citation import cite
from rulesets.core.messages import Message, msg

# ---------------------------------------------------------------- general task rules

#: RULES-NOTES (cepheus): difficulty DMs of a task check (2D6 + skill + DM >= 8).
DIFFICULTY = {
    "simple": 6, "easy": 4, "routine": 2, "average": 0,
    "difficult": -2, "very_difficult": -4, "formidable": -6,
}
DIFFICULTY_LABEL = {
    "simple": msg("cepheus.difficulty.simple", "Simple (+6)"),
    "easy": msg("cepheus.difficulty.easy", "Easy (+4)"),
    "routine": msg("cepheus.difficulty.routine", "Routine (+2)"),
    "average": msg("cepheus.difficulty.average", "Average (+0)"),
    "difficult": msg("cepheus.difficulty.difficult", "Difficult (-2)"),
    "very_difficult": msg("cepheus.difficulty.very_difficult", "Very Difficult (-4)"),
    "formidable": msg("cepheus.difficulty.formidable", "Formidable (-6)"),
}
TARGET = 8
UNSKILLED = -3
EXCEPTIONAL = 6  # Effect 6+ exceptional success, -6 or less exceptional failure

# ---------------------------------------------------------------- range bands

SEC_RANGE = cite("Space Combat Range Bands table", "Tabella: Bande di Gittata del Combattimento Spaziale")

#: notes: Adjacent, Close, Short, Medium, Long, Very Long, Distant ("Extreme" = Distant).
BANDS = ("adjacent", "close", "short", "medium", "long", "very_long", "distant")
BAND_LABEL = {
    "adjacent": msg("cepheus.band.adjacent", "Adjacent"), "close": msg("cepheus.band.close", "Close"),
    "short": msg("cepheus.band.short", "Short"), "medium": msg("cepheus.band.medium", "Medium"),
    "long": msg("cepheus.band.long", "Long"), "very_long": msg("cepheus.band.very_long", "Very Long"),
    "distant": msg("cepheus.band.distant", "Distant"),
}
BAND_DISTANCE = {
    "adjacent": "< 1 km", "close": "1-10 km", "short": "10-1,250 km", "medium": "1,250-10,000 km",
    "long": "10,000-25,000 km", "very_long": "25,000-50,000 km", "distant": "50,000 km+",
}

#: Sensor details detected at each band: (detail key, label, sensors grade needed).
#: A band also shows every detail of the bands beyond it (closer sees more).
SENSOR_GRADES = ("standard", "advanced", "very_advanced")
SENSOR_DETAILS = {
    "distant": (),
    "very_long": (("presence", msg("cepheus.sensors.presence", "Ship presence and activity level"), "standard"),
                  ("silhouette", msg("cepheus.sensors.silhouette", "Basic object silhouette"), "standard")),
    "long": (("configuration", msg("cepheus.sensors.configuration", "Ship configuration and shape"), "standard"),
             ("thermal", msg("cepheus.sensors.thermal", "Thermal activity"), "standard"),
             ("external", msg("cepheus.sensors.external", "External structure"), "advanced")),
    "medium": (("emissions", msg("cepheus.sensors.emissions", "Source of EM emissions"), "standard"),
               ("external", msg("cepheus.sensors.external", "External structure"), "advanced")),
    "short": (("visual", msg("cepheus.sensors.visual", "Fine visual details"), "standard"),
              ("heat_sources", msg("cepheus.sensors.heat_sources", "Individual heat sources"), "standard"),
              ("internal", msg("cepheus.sensors.internal", "Internal structure"), "advanced"),
              ("neural_presence", msg("cepheus.sensors.neural_presence", "Presence of neural activity"), "very_advanced")),
    "close": (("systems", msg("cepheus.sensors.systems", "Individual ship systems"), "standard"),
              ("neural_level", msg("cepheus.sensors.neural_level", "Level of neural activity"), "very_advanced")),
    "adjacent": (("neural_sources", msg("cepheus.sensors.neural_sources", "Individual sources of neural activity"), "very_advanced"),),
}

# ---------------------------------------------------------------- attack difficulty

SEC_ATTACK = cite("Space Combat Attack Difficulty by Weapon Type table",
                  "Tabella: Difficoltà di Attacco nel Combattimento Spaziale per Tipo di Arma")

_D, _VD, _A, _R = "difficult", "very_difficult", "average", "routine"
#: weapon -> band -> difficulty; None = cannot fire at that band (notes: blank cells).
ATTACK_DIFFICULTY: dict[str, dict[str, str | None]] = {
    "pulse_laser": dict(zip(BANDS, (_D, _D, _A, _D, _D, _VD, None))),
    "beam_laser": dict(zip(BANDS, (_D, _D, _D, _A, _D, _D, _D))),
    "particle_beam": dict(zip(BANDS, (_VD, _D, _D, _D, _A, _D, _D))),
    "fusion_gun": dict(zip(BANDS, (_D, _D, _D, _A, _D, _D, _D))),
    "meson_gun": dict(zip(BANDS, (_VD, _VD, _D, _D, _A, _D, _D))),
    # notes: Sandcaster only at Adjacent (Routine), Close (Average), Short (Difficult).
    "sandcaster": dict(zip(BANDS, (_R, _A, _D, None, None, None, None))),
}

# ---------------------------------------------------------------- weapons

SEC_SCALED = cite("Scaled Damage table", "Tabella: Danno in scala")
SEC_SPECIAL = cite("Special Weapon Rules", "Regole per Armi Speciali")


@dataclass(frozen=True)
class WeaponKind:
    key: str
    label: str
    mount: str          # turret | bay
    row: str            # row of the attack-difficulty table ("" for missiles)
    dice: int           # ship-scale damage dice (D6); 0 with ``flat``
    flat: int = 0       # fixed damage (sandcaster: 1)
    beam: bool = False  # a laser: sand reduces its damage (decision, see docs)
    missile: bool = False
    ammo: bool = False
    capacity: int = 0   # rounds loaded at once (decision, see docs)
    radiation: bool = False  # bonus radiation crew hit (fusion, particle)

    @property
    def name(self) -> Message:
        """The weapon in words, for a person (``label`` is its English name, as a ship's stats write it)."""
        return WEAPON_NAME[self.key][0]

    @property
    def names(self) -> Message:
        """Two or more of them: "pulse lasers"."""
        return WEAPON_NAME[self.key][1]


#: Ship-scale damage is the personal-scale damage of the Scaled Damage table divided
#: by 50 (e.g. Pulse Laser 2D6x50 -> 2D6); decision recorded in docs/rulesets/cepheus.md.
WEAPONS = {
    "pulse_laser": WeaponKind("pulse_laser", "pulse laser", "turret", "pulse_laser", 2, beam=True),
    "beam_laser": WeaponKind("beam_laser", "beam laser", "turret", "beam_laser", 1, beam=True),
    "particle_beam": WeaponKind("particle_beam", "particle beam", "turret", "particle_beam", 3, radiation=True),
    # Not in the Scaled Damage table: half the bay's dice, rounded up (decision).
    "fusion_gun": WeaponKind("fusion_gun", "fusion gun", "turret", "fusion_gun", 3, radiation=True),
    "missile_rack": WeaponKind("missile_rack", "missile rack", "turret", "", 0, missile=True, ammo=True, capacity=3),
    "sandcaster": WeaponKind("sandcaster", "sandcaster", "turret", "sandcaster", 0, flat=1, ammo=True, capacity=3),
    "particle_bay": WeaponKind("particle_bay", "particle beam bay", "bay", "particle_beam", 6, radiation=True),
    "fusion_bay": WeaponKind("fusion_bay", "fusion gun bay", "bay", "fusion_gun", 5, radiation=True),
    "meson_bay": WeaponKind("meson_bay", "meson gun bay", "bay", "meson_gun", 5),
    "missile_bay": WeaponKind("missile_bay", "missile bay", "bay", "", 0, missile=True, ammo=True, capacity=12),
}
#: kind -> (its name, its plural) in words
WEAPON_NAME = {
    "pulse_laser": (msg("cepheus.weapon.pulse_laser", "pulse laser"), msg("cepheus.weapon.pulse_lasers", "pulse lasers")),
    "beam_laser": (msg("cepheus.weapon.beam_laser", "beam laser"), msg("cepheus.weapon.beam_lasers", "beam lasers")),
    "particle_beam": (msg("cepheus.weapon.particle_beam", "particle beam"),
                      msg("cepheus.weapon.particle_beams", "particle beams")),
    "fusion_gun": (msg("cepheus.weapon.fusion_gun", "fusion gun"), msg("cepheus.weapon.fusion_guns", "fusion guns")),
    "missile_rack": (msg("cepheus.weapon.missile_rack", "missile rack"),
                     msg("cepheus.weapon.missile_racks", "missile racks")),
    "sandcaster": (msg("cepheus.weapon.sandcaster", "sandcaster"), msg("cepheus.weapon.sandcasters", "sandcasters")),
    "particle_bay": (msg("cepheus.weapon.particle_bay", "particle beam bay"),
                     msg("cepheus.weapon.particle_bays", "particle beam bays")),
    "fusion_bay": (msg("cepheus.weapon.fusion_bay", "fusion gun bay"), msg("cepheus.weapon.fusion_bays", "fusion gun bays")),
    "meson_bay": (msg("cepheus.weapon.meson_bay", "meson gun bay"), msg("cepheus.weapon.meson_bays", "meson gun bays")),
    "missile_bay": (msg("cepheus.weapon.missile_bay", "missile bay"), msg("cepheus.weapon.missile_bays", "missile bays")),
}
TURRET_CAPACITY = 3  # a triple turret holds at most three weapons

#: kind -> (ship damage dice, to-hit rule); Scaled Damage table / 50.
MISSILES: dict[str, dict[str, Any]] = {
    "standard": {"label": msg("cepheus.missile.standard", "standard missile"), "dice": 1,
                 "many": msg("cepheus.missile.standard_many", "standard missiles")},
    "smart": {"label": msg("cepheus.missile.smart", "smart missile"), "dice": 1,
              "many": msg("cepheus.missile.smart_many", "smart missiles")},
    "nuclear": {"label": msg("cepheus.missile.nuclear", "nuclear missile"), "dice": 2,
                "many": msg("cepheus.missile.nuclear_many", "nuclear missiles")},
}

#: Scaled Damage table: weapon -> (dice, multiplier, radiation dice x10 or 0).
SCALED_DAMAGE = {
    "beam_laser": (1, 50, 0),
    "fusion_bay": (5, 50, 0),
    "meson_bay": (5, 50, 4),
    "nuclear": (2, 50, 4),
    "particle_bay": (6, 50, 4),
    "particle_beam": (3, 50, 4),
    "pulse_laser": (2, 50, 0),
    "sandcaster": (8, 1, 0),
    "smart": (1, 50, 0),
    "standard": (1, 50, 0),
    # decision: the turret fusion gun like its own ship dice (3D6x50)
    "fusion_gun": (3, 50, 0),
}
SCALED_TO_HIT_DM = -4

# ---------------------------------------------------------------- missiles

SEC_MISSILE_RANGE = cite("Missile Launch Range table", "Tabella: Gittata di Lancio dei Missili")
SEC_MISSILE_TO_HIT = cite("Missile To-Hit by Effect table", "Tabella: Tiro per colpire rispetto all'Effetto di Prova Abilità")
MISSILE_TABLE_NAME = msg("cepheus.table.missile_name", "Missile To-Hit by Effect table")
SEC_SMART = cite("Smart Missiles", "Missili intelligenti")

#: band -> turns to impact; None = cannot launch.
MISSILE_TURNS: dict[str, int | None] = dict(zip(BANDS, (None, None, 1, 1, 1, 2, 2)))


_MISSILE_ROWS = (
    (11, msg("cepheus.table.missile_11", "Failure, Effect -6 or less: 11+")),
    (10, msg("cepheus.table.missile_10", "Failure, Effect -1 to -5: 10+")),
    (8, msg("cepheus.table.missile_8", "Success, Effect 0: 8+")),
    (7, msg("cepheus.table.missile_7", "Success, Effect 1-5: 7+")),
    (6, msg("cepheus.table.missile_6", "Success, Effect 6+: 6+")),
)


def missile_to_hit(effect: int) -> tuple[int, Message]:
    """(to-hit number, table row) from the launch check's Effect."""
    if effect <= -6:
        return _MISSILE_ROWS[0]
    if effect <= -1:
        return _MISSILE_ROWS[1]
    if effect == 0:
        return _MISSILE_ROWS[2]
    if effect <= 5:
        return _MISSILE_ROWS[3]
    return _MISSILE_ROWS[4]


SMART_TO_HIT = 8

# ---------------------------------------------------------------- reactions

SEC_REACTIONS = cite("Reactions by Initiative table", "Tabella: Reazioni per Iniziativa")


def reactions_for(initiative: int) -> int:
    if initiative <= 4:
        return 1
    if initiative <= 8:
        return 2
    if initiative <= 12:
        return 3
    return 4


# ---------------------------------------------------------------- damage

SEC_DAMAGE = cite("Space Combat Damage table", "Tabella: Danni da Combattimento Spaziale")
DAMAGE_TABLE_NAME = msg("cepheus.table.damage_name", "Space Combat Damage table")

#: notes: contiguous bands; (low, high, label, (single, double, triple) counts).
DAMAGE_TABLE = (
    (1, 4, msg("cepheus.table.damage_1", "1-4: Single Hit"), (1, 0, 0)),
    (5, 8, msg("cepheus.table.damage_5", "5-8: Two Single Hits"), (2, 0, 0)),
    (9, 12, msg("cepheus.table.damage_9", "9-12: Double Hit"), (0, 1, 0)),
    (13, 16, msg("cepheus.table.damage_13", "13-16: Three Single Hits"), (3, 0, 0)),
    (17, 20, msg("cepheus.table.damage_17", "17-20: Two Single Hits, Double Hit"), (2, 1, 0)),
    (21, 24, msg("cepheus.table.damage_21", "21-24: Two Double Hits"), (0, 2, 0)),
    (25, 28, msg("cepheus.table.damage_25", "25-28: Triple Hit"), (0, 0, 1)),
    (29, 32, msg("cepheus.table.damage_29", "29-32: Triple Hit, Single Hit"), (1, 0, 1)),
    (33, 36, msg("cepheus.table.damage_33", "33-36: Triple Hit, Double Hit"), (0, 1, 1)),
    (37, 40, msg("cepheus.table.damage_37", "37-40: Triple Hit, Double Hit, Single Hit"), (1, 1, 1)),
    (41, 44, msg("cepheus.table.damage_41", "41-44: Two Triple Hits"), (0, 0, 2)),
)


NO_DAMAGE = msg("cepheus.table.damage_0", "0 or less: No damage")


@lru_cache(maxsize=256)
def damage_effect(damage: int) -> tuple[tuple[int, int, int], Message]:
    """((singles, doubles, triples), row label) for damage after armour."""
    if damage <= 0:
        return (0, 0, 0), NO_DAMAGE
    for low, high, label, counts in DAMAGE_TABLE:
        if low <= damage <= high:
            return counts, label
    # notes: above 44, extra = damage - 44: +floor(extra/6) Double Hits, +1 Single if extra % 6 >= 3
    extra = damage - 44
    doubles, rest = divmod(extra, 6)
    singles = 1 if rest >= 3 else 0
    return (singles, doubles, 2), msg("cepheus.table.damage_45", "45+: Two Triple Hits, +{doubles} Double, "
                                      "+{singles} Single (extra {extra})", doubles=doubles, singles=singles, extra=extra)


def hits_in(damage: int) -> int:
    """Total number of hits (a double counts two) the damage table gives."""
    (s, d, t), _ = damage_effect(damage)
    return s + 2 * d + 3 * t


SEC_LOCATION = cite("Space Combat Hit Location table", "Tabella: Posizione dei colpi nel combattimento spaziale")
LOCATION_TABLE_NAME = msg("cepheus.table.location_name", "Space Combat Hit Location table")

#: 2D6 -> location, per column.
HIT_LOCATION = {
    "external": {2: "hull", 3: "sensors", 4: "m_drive", 5: "turret", 6: "hull", 7: "armour",
                 8: "hull", 9: "fuel", 10: "m_drive", 11: "sensors", 12: "hull"},
    "internal": {2: "structure", 3: "power_plant", 4: "j_drive", 5: "bay", 6: "structure", 7: "crew",
                 8: "structure", 9: "hold", 10: "j_drive", 11: "power_plant", 12: "bridge"},
    "small_craft": {2: "hull", 3: "power_plant", 4: "hold", 5: "fuel", 6: "hull", 7: "armour",
                    8: "hull", 9: "turret", 10: "m_drive", 11: "crew", 12: "bridge"},
}
COLUMN_LABEL = {"external": msg("cepheus.table.external", "External Hit (Vessel)"),
                "internal": msg("cepheus.table.internal", "Internal Hit (Vessel)"),
                "small_craft": msg("cepheus.table.small_craft", "Small Craft")}
LOCATION_LABEL = {
    "hull": msg("cepheus.location.hull", "Hull"), "structure": msg("cepheus.location.structure", "Structure"),
    "armour": msg("cepheus.location.armour", "Armour"), "turret": msg("cepheus.location.turret", "Turret"),
    "bay": msg("cepheus.location.bay", "Bay"), "j_drive": msg("cepheus.location.j_drive", "J-Drive"),
    "m_drive": msg("cepheus.location.m_drive", "M-Drive"),
    "power_plant": msg("cepheus.location.power_plant", "Power Plant"),
    "sensors": msg("cepheus.location.sensors", "Sensors"), "bridge": msg("cepheus.location.bridge", "Bridge"),
    "fuel": msg("cepheus.location.fuel", "Fuel"), "hold": msg("cepheus.location.hold", "Hold"),
    "crew": msg("cepheus.location.crew", "Crew"),
}
#: a location as the log names it inside a sentence ("has no turret", "counts as a hull hit")
LOCATION_WORD = {
    "hull": msg("cepheus.location.hull_word", "hull"), "structure": msg("cepheus.location.structure_word", "structure"),
    "turret": msg("cepheus.location.turret_word", "turret"), "bay": msg("cepheus.location.bay_word", "bay"),
}
#: Section heading of each location's effects in the seed.
LOCATION_SECTION = {
    "hull": cite("Hull", "Scafo"), "structure": cite("Structure", "Struttura"), "armour": cite("Armour", "Corazza"),
    "turret": cite("Turret", "Torretta"), "bay": cite("Bay", "Batteria"), "j_drive": cite("J-Drive", "Motore-B"),
    "m_drive": cite("M-Drive", "Motore-M"), "power_plant": cite("Power Plant", "Generatore"), "sensors": cite("Sensors", "Sensori"),
    "bridge": cite("Bridge", "Ponte"), "fuel": cite("Fuel", "Carburante"), "hold": cite("Hold", "Stiva"), "crew": cite("Crew", "Equipaggio"),
}
#: What a hit beyond the third counts as ("Colpi successivi").
FURTHER_HITS = {
    "turret": "hull", "bay": "structure", "j_drive": "structure", "m_drive": "hull",
    "power_plant": "structure", "sensors": "hull", "bridge": "structure", "fuel": "structure",
    "hold": "structure",
}
#: The effect text of the first, second and third hit, for the log.
LOCATION_EFFECTS = {
    "turret": (msg("cepheus.effect.turret_1", "tracking damaged: attacks DM-2"),
               msg("cepheus.effect.turret_2", "turret and its weapons disabled"),
               msg("cepheus.effect.turret_3", "turret and its weapons destroyed")),
    "bay": (msg("cepheus.effect.bay_1", "targeting damaged: attacks DM-2"),
            msg("cepheus.effect.bay_2", "bay disabled"),
            msg("cepheus.effect.bay_3", "bay destroyed")),
    "j_drive": (msg("cepheus.effect.j_drive_1", "jump attempts DM-2 to Engineering"),
                msg("cepheus.effect.j_drive_2", "J-drive disabled"),
                msg("cepheus.effect.j_drive_3", "J-drive destroyed")),
    "m_drive": (msg("cepheus.effect.m_drive_1", "Thrust -1"),
                msg("cepheus.effect.m_drive_2", "Thrust -50%"),
                msg("cepheus.effect.m_drive_3", "M-drive disabled")),
    "power_plant": (msg("cepheus.effect.power_plant_1", "damaged"),
                    msg("cepheus.effect.power_plant_2", "crew hit (radiation column)"),
                    msg("cepheus.effect.power_plant_3", "power plant destroyed: ship disabled")),
    "sensors": (msg("cepheus.effect.sensors_1", "DM-2 to Comms checks using sensors"),
                msg("cepheus.effect.sensors_2", "sensors disabled"),
                msg("cepheus.effect.sensors_3", "sensors destroyed")),
    "bridge": (msg("cepheus.effect.bridge_1", "crew hit (normal column)"),
               msg("cepheus.effect.bridge_2", "bridge disabled"),
               msg("cepheus.effect.bridge_3", "bridge destroyed")),
    "fuel": (msg("cepheus.effect.fuel_1", "leak of 1D6 tons per hour"),
             msg("cepheus.effect.fuel_2", "1D6x10% of the fuel lost"),
             msg("cepheus.effect.fuel_3", "fuel tank destroyed")),
    "hold": (msg("cepheus.effect.hold_1", "1D6x10% of the cargo destroyed"),
             msg("cepheus.effect.hold_2", "1D6x10% of the cargo destroyed"),
             msg("cepheus.effect.hold_3", "hold and its contents destroyed")),
}

SEC_CREW_DAMAGE = cite("Crew Damage table", "Tabella: Danni all'equipaggio")
CREW_TABLE_NAME = msg("cepheus.table.crew_name", "Crew Damage table")


_CREW_ROWS = (
    ("none", 0, msg("cepheus.table.crew_4", "4 or less: lucky escape, no damage")),
    ("one", 2, msg("cepheus.table.crew_8", "5-8: one random crew member 2D6")),
    ("one", 4, msg("cepheus.table.crew_10", "9-10: one random crew member 4D6")),
    ("all", 2, msg("cepheus.table.crew_11", "11: all crew 2D6")),
    ("all", 4, msg("cepheus.table.crew_12", "12: all crew 4D6")),
)


def crew_damage_row(total: int) -> tuple[str, int, Message]:
    """(who: none|one|all, dice (2 or 4), row label) for a Crew Damage roll."""
    if total <= 4:
        return _CREW_ROWS[0]
    if total <= 8:
        return _CREW_ROWS[1]
    if total <= 10:
        return _CREW_ROWS[2]
    if total == 11:
        return _CREW_ROWS[3]
    return _CREW_ROWS[4]

# ---------------------------------------------------------------- other tables

SEC_REPAIR = cite("Damage Repair Result table", "Tabella: Risultato Riparazione Danni")
REPAIR_TABLE_NAME = msg("cepheus.table.repair_name", "Damage Repair Result table")


_REPAIR_ROWS = (
    (3, msg("cepheus.table.repair_6", "Effect 6+: 3 hits")),
    (2, msg("cepheus.table.repair_1", "Effect 1-5: 2 hits")),
    (1, msg("cepheus.table.repair_0", "Effect 0: 1 hit")),
)


def hits_repaired(effect: int) -> tuple[int, Message]:
    if effect >= 6:
        return _REPAIR_ROWS[0]
    if effect >= 1:
        return _REPAIR_ROWS[1]
    return _REPAIR_ROWS[2]


SEC_COLLISION = cite("Avoid Collision table", "Tabella: Evitare Collisioni")
#: situation -> (label, difficulty)
COLLISION_SITUATIONS: dict[str, tuple[Message, str | None]] = {
    "none": (msg("cepheus.hazard.none", "No hazard"), None),
    "traffic": (msg("cepheus.hazard.traffic", "Traffic (5 or more vessels at Short range), debris"), "average"),
    "asteroids_low": (msg("cepheus.hazard.asteroids_low", "Asteroid field, low density"), "difficult"),
    "asteroids_medium": (msg("cepheus.hazard.asteroids_medium", "Asteroid field, medium density"), "very_difficult"),
    "asteroids_high": (msg("cepheus.hazard.asteroids_high", "Asteroid field, high density"), "formidable"),
}
#: a hazard inside a sentence ("threads the asteroid field, low density")
HAZARD_WORD = {
    "traffic": msg("cepheus.hazard.traffic_word", "traffic (5 or more vessels at short range), debris"),
    "asteroids_low": msg("cepheus.hazard.asteroids_low_word", "asteroid field, low density"),
    "asteroids_medium": msg("cepheus.hazard.asteroids_medium_word", "asteroid field, medium density"),
    "asteroids_high": msg("cepheus.hazard.asteroids_high_word", "asteroid field, high density"),
}
COLLISION_SPEED_MISMATCH_DM = -2

SEC_REENTRY = cite("Atmospheric Re-entry table", "Tabella: Rientro in Atmosfera")


WORLD_LARGE = msg("cepheus.mod.world_large", "world size 9+")
WORLD_SMALL = msg("cepheus.mod.world_small", "world size 4 or less")
THIN_AIR = msg("cepheus.mod.thin_air", "atmosphere 2-5, E")
DENSE_AIR = msg("cepheus.mod.dense_air", "atmosphere 8-9, D")
NO_DM = msg("cepheus.table.no_dm", "no DM")


def reentry_dms(size: int, atmosphere: int) -> tuple[list[tuple[Message, int]], bool]:
    """(DMs, automatic success) from the world's size and atmosphere codes."""
    dms = []
    if size >= 9:
        dms.append((WORLD_LARGE, -2))
    elif size <= 4:
        dms.append((WORLD_SMALL, 2))
    if atmosphere <= 1:
        return dms, True
    if 2 <= atmosphere <= 5 or atmosphere == 14:
        dms.append((THIN_AIR, 2))
    elif atmosphere in (8, 9, 13):
        dms.append((DENSE_AIR, -2))
    return dms, False


SEC_BOARDING = cite("Abstract Boarding Resolution table", "Tabella: Risoluzione dell'abbordaggio astratto")
BOARDING_RESULTS = {
    ("attacker", "success"): msg("cepheus.table.boarding_attacker", "Defender loses its reactions this round; attacker DM+2 to the next boarding Tactics check; the ship takes a single internal hit."),
    ("defender", "success"): msg("cepheus.table.boarding_defender", "Defender DM+2 to the next boarding Tactics check; the ship takes a single internal hit."),
    ("attacker", "exceptional"): msg("cepheus.table.boarding_taken", "The attacker boards successfully and takes the ship; the ship takes 2D6 internal damage."),
    ("defender", "exceptional"): msg("cepheus.table.boarding_repelled", "The attacker is repelled; the defender may board back next turn if still docked."),
}

# ---------------------------------------------------------------- sections (for rule= fields)

SEC = {
    "checklist": cite("Space Combat Checklist", "Checklist del Combattimento Spaziale"),
    "positions": cite("Crew Positions table", "Tabella: Posizioni dell'equipaggio"),
    "automated": cite("Automated Positions", "Posizioni Automatizzate"),
    "initiative": cite("Initiative", "Iniziativa"),
    "turn": cite("The Space Combat Turn", "Il turno di combattimento spaziale"),
    "summary": cite("Space Combat Actions Summary table", "Tabella: Riepilogo delle azioni di combattimento spaziale"),
    "minor": cite("Minor Actions", "Azioni minori"),
    "significant": cite("Significant Actions", "Azioni significative"),
    "adjust_speed": cite("Adjust Speed", "Calibrare la velocità"),
    "change_position": cite("Change Position", "Cambiare posizione"),
    "maintain_course": cite("Maintain Course", "Mantenere la rotta"),
    "personal": cite("Personal Action", "Azione personale"),
    "misc": cite("Miscellaneous", "Varie"),
    "attack": cite("Attack", "Attacco"),
    "avoid_collision": cite("Avoid Collision", "Evitare Collisioni"),
    "boarding": cite("Boarding", "Abbordaggio"),
    "break_pursuit": cite("Break Pursuit", "Rompere l'inseguimento"),
    "jump_plot": cite("Jump Plot", "Calcolare Rotta di Balzo"),
    "dock": cite("Dock", "Agganciare un altro vascello"),
    "coordinate": cite("Coordinate Crew", "Coordinare Equipaggio"),
    "ew": cite("Electronic Warfare", "Guerra Elettronica"),
    "evasive": cite("Evasive Manoeuvres", "Manovre Evasive"),
    "increase_initiative": cite("Increase Initiative", "Aumentare l'iniziativa"),
    "intercept": cite("Intercept Enemy Communications", "Intercettare le comunicazioni nemiche"),
    "line_up": cite("Line Up the Shot", "Allineare il tiro"),
    "maintain_comms": cite("Maintain Communications", "Mantieni le comunicazioni"),
    "pursue": cite("Pursue", "Inseguimento"),
    "ram": cite("Ram", "Speronamento"),
    "range_check": cite("Range Check", "Verifica gittata"),
    "reload": cite("Reload Weapon System", "Ricaricare il sistema delle armi"),
    "repair": cite("Repair Damaged System", "Riparare il sistema danneggiato"),
    "sensor_targeting": cite("Sensor Targeting", "Targeting del sensore"),
    "reactions": cite("Reactions", "Reazioni"),
    "dodge": cite("Dodge Incoming Fire", "Schivare il fuoco in arrivo"),
    "sand": cite("Fire Sand", "Sparare Raffiche"),
    "point_defence": cite("Point Defence", "Difesa puntiforme"),
    "screens": cite("Activate Screens", "Attivare Schermi"),
    "free": cite("Free Actions", "Azioni gratuite"),
    "extended": cite("Extended Actions", "Azioni estese"),
    "delay": cite("Delay", "Ritardo"),
    "abstract_boarding": cite("Abstract Boarding Rules", "Regole di abbordaggio astratte"),
    "missiles": cite("Missiles", "Missili"),
    "smart": SEC_SMART,
    "planetary": cite("Planetary Manoeuvres", "Manovre planetarie"),
    "special": SEC_SPECIAL,
    "damage": cite("Damage", "Danno"),
    "scaled": cite("Scaled Damage", "Danno in scala"),
    "range": cite("Space Combat Range", "Gittata nel combattimento spaziale"),
    # RULES-NOTES' readings where the text is silent (cited by what they settle, not as "notes")
    "no_mount_hit": cite("A Turret or Bay hit on a ship without one", ruling=True),
    "opposed_tie": cite("Opposed checks: a tie", ruling=True),
    "hasty": "RULES-NOTES (cepheus): acting hastily, house rule",
    "override": "RULES-NOTES: the GM's escape hatch",
}
