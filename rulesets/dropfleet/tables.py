"""Dropfleet Commander's tables as data, each with the section of the seed it comes from.

Seed: ``dropfleet-commander-damage.es.txt`` (the Spanish damage rules, steps 4 to 7),
completed by RULES-NOTES (section dropfleet).  Inventory numbers (DF-xx) are those of
RULES-INVENTORY.md, section 1.  Pure data: the rules modules read these tables and
nothing else states the numbers.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulesets.core.citation import cite

# --- the rules cited in the log: English headings, the seed's Spanish ones on hover
# (rulesets/core/citation.py); RULES-NOTES and this system's decisions (D1..) are rulings.
#: seed 4 (DF-01..DF-03): hits and their Damage
TOTAL_DAMAGE = cite("4. Total Hull damage", "4. Daño total infligido al casco")
#: seed 5 (DF-04..DF-08): armour saves, unsaved damage off the Hull
ARMOUR_SAVES = cite("5. Armour saves and Hull loss", "5. Lanzar tiradas de salvación por armadura y reducir puntos de casco")
#: seed 5 (DF-09..DF-13)
PASSIVE = cite("Passive countermeasures", "Contramedidas pasivas")
#: seed 5 (DF-16..DF-20)
POINT_DEFENCE = cite("Point Defence (PD)", "Defensa de Punto (PD)")
#: seed 6 (DF-21..DF-27)
CRIPPLING_DAMAGE = cite("6. Crippling damage roll", "6. Tirada de Daño incapacitante")
#: seed 6 (DF-28; RULES-NOTES DF-N12)
CRIPPLING_EXTRA = cite("Extra damage and armour saves", "Resultado de daño adicional y tiradas de salvación por armadura")
#: seed 6 tables (DF-29..DF-37, DF-38..DF-46)
CRIPPLING_TABLE = cite("Crippling damage table", "Tabla de Daño incapacitante")
DREADNOUGHT_CRIPPLING_TABLE = cite("Dreadnought crippling damage table", "Tabla de Daño incapacitante en Dreadnoughts")
#: seed 7 (DF-47..DF-53)
CATASTROPHIC_DAMAGE = cite("7. Catastrophic damage roll", "7. Tirada de daño catastrófico")
#: seed 7 tables (DF-54..DF-59, DF-60..DF-64)
CATASTROPHIC_TABLE = cite("Catastrophic damage table", "Tabla de Daño catastrófico")
DREADNOUGHT_CATASTROPHIC_TABLE = cite("Dreadnought catastrophic damage table", "Tabla de daño catastrófico de Dreadnoughts")
#: RULES-NOTES DF-N10, a house rule: the Dreadnought table has no 6
DREADNOUGHT_SIX = cite("A 6 on the Dreadnought catastrophic table", "Tabla de daño catastrófico de Dreadnoughts", house_rule=True)
#: seed "Control de daños" (DF-65..DF-68)
DAMAGE_CONTROL = cite("Damage control", "Control de daños")
#: seed "Caída Orbital" (DF-69..DF-71)
ORBITAL_DECAY = cite("Orbital decay", "Caída Orbital")
#: RULES-NOTES DF-N04 (with seed 4's DF-03): Lock, its clamp, critical hits
TO_HIT = cite("To hit: Lock and critical hits", ruling=True)
#: RULES-NOTES DF-N02, DF-N03 and seed 5's shields (DF-15)
ORDERS_AND_SPIKES = cite("Orders, spikes and shields", ruling=True)
#: RULES-NOTES DF-N01: range (Scan + Signature; Close Action: Scan alone) and the arc
RANGE_AND_ARCS = cite("Range and arcs", ruling=True)
#: decisions in docs/rulesets/dropfleet.md
ACTIVATIONS = cite("Activations", ruling=True)  # D1: orders, moves, fire, group by group
END_PHASE = cite("The End phase", ruling=True)  # D8
MOVEMENT = cite("Movement", ruling=True)  # D4
FIRE = cite("Declaring fire", ruling=True)  # D2
ROUND_LIMIT = cite("The round limit", ruling=True)  # D10
GM_OVERRIDE = cite("GM override")

# --- orbital layers (RULES-NOTES: "Orbital layers: High, Low, Atmosphere")
HIGH, LOW, ATMOSPHERE = "high", "low", "atmosphere"
LAYERS: tuple[str, ...] = (HIGH, LOW, ATMOSPHERE)  # top to bottom
LAYER_LABEL = {HIGH: "High orbit", LOW: "Low orbit", ATMOSPHERE: "Atmosphere"}
#: inches of Thrust a move up one layer costs (issue 11: "up costs 4\", down is free")
LAYER_UP_COST = 4

# --- tonnage classes (Calibre weapons name the class they are built against)
TONNAGE = {"L": "Light", "M": "Medium", "H": "Heavy", "S": "Super-heavy"}

# --- spikes (RULES-NOTES: a Minor adds 6", a Major 12"; one at a time; two Minors make a Major)
NO_SPIKE, MINOR, MAJOR = 0, 1, 2
SPIKE_INCHES = {NO_SPIKE: 0, MINOR: 6, MAJOR: 12}
SPIKE_LABEL = {NO_SPIKE: "none", MINOR: "Minor", MAJOR: "Major"}


@dataclass(frozen=True)
class Order:
    """A battle group's order: its spike (RULES-NOTES) and, from the game (decision D3),
    how far it moves, how far it may turn and how many weapon systems it fires."""

    key: str
    label: str
    #: "minor", "major", "clear_minor" or "silent" (RULES-NOTES orders)
    spike: str
    #: multiple of Thrust a ship may move (Station Keeping: a fixed 2")
    thrust_factor: int = 1
    fixed_move: int | None = None
    #: largest heading change in degrees in its move
    turn: int = 45
    #: weapon systems besides Close Action ones (None: every system)
    systems: int | None = 1
    close_action: bool = True
    special: bool = True  # a special order (Power leak forbids these)
    scan_factor: int = 1


ORDERS: dict[str, Order] = {o.key: o for o in (
    Order("standard", "Standard", "clear_minor", special=False),
    Order("weapons_free", "Weapons Free", "major", systems=None),
    Order("active_scan", "Active Scan", "major", scan_factor=2),
    Order("silent_running", "Silent Running", "silent", systems=0, close_action=False),
    Order("station_keeping", "Station Keeping", "minor", fixed_move=2, turn=180),
    Order("course_change", "Course Change", "minor", turn=90),
    Order("max_thrust", "Max Thrust", "minor", thrust_factor=2, turn=0, systems=0),
)}

# --- arcs: (centre bearing relative to the heading, half width) in degrees
ARCS: dict[str, tuple[tuple[int, int], ...]] = {
    "F": ((0, 45),),
    "NF": ((0, 15),),
    "S": ((90, 45), (-90, 45)),
    "R": ((180, 45),),
    "FS": ((0, 135),),
    "A": ((0, 180),),
}
ARC_LABEL = {"F": "front", "NF": "narrow front", "S": "sides", "R": "rear", "FS": "front and sides", "A": "all round"}

# --- hits (RULES-NOTES: to hit on D6 >= Lock, clamped 2+..6+; a critical on Lock + 2)
LOCK_MIN, LOCK_MAX = 2, 6
CRITICAL_MARGIN = 2
LAYER_LOCK_PENALTY = 1  # RULES-NOTES: Lock +1 when firing between orbital layers
PD_SUCCESS = 5  # seed "Defensa de Punto": each 5+ is a success
PD_PER_CRITICAL = 2  # seed: a critical point needs two successes


@dataclass(frozen=True)
class CripplingRow:
    """One row of a crippling sub-table (seed 6, "Tabla de Daño incapacitante")."""

    effect: str  # the effect's key
    name: str
    text: str
    extra: int  # extra Hull damage, never saved (DF-28)
    repairable: bool
    decay: bool  # orbital decay
    repairs: int = 1  # successful repairs needed ("Sí - 2 requeridos")
    rule: str = ""


SUBTABLES = {1: "Subsystems", 2: "Subsystems", 3: "Hull", 4: "Hull", 5: "Main systems", 6: "Main systems"}


def _band(face: int) -> int:
    """1-2 -> 0, 3-4 -> 1, 5-6 -> 2: the rows of the seed's tables."""
    return (face - 1) // 2


#: seed 6, "Tabla de Daño incapacitante": [sub-table][row]
CRIPPLING: tuple[tuple[CripplingRow, ...], ...] = (
    (CripplingRow("bright_flash", "Bright flash", "gains a Minor spike (under Silent Running its Signature returns to normal instead)", 0, False, False, rule=CRIPPLING_TABLE),
     CripplingRow("fire", "Fire", "1 extra Hull damage in each End phase, before damage control", 0, True, False, rule=CRIPPLING_TABLE),
     CripplingRow("power_leak", "Power leak", "cannot use special orders", 2, True, True, rule=CRIPPLING_TABLE)),
    (CripplingRow("scanner_disabled", "Scanner disabled", "Scan becomes 1\"", 0, True, False, rule=CRIPPLING_TABLE),
     CripplingRow("cracked_armour", "Cracked armour", "Armour +2 for the rest of the game", 2, False, False, rule=CRIPPLING_TABLE),
     CripplingRow("hull_breach", "Hull breach", "no further effect", 2, False, True, rule=CRIPPLING_TABLE)),
    (CripplingRow("engines_disabled", "Engines disabled", "Thrust halved (round up), cannot turn or change orbit", 2, True, True, rule=CRIPPLING_TABLE),
     CripplingRow("weapons_disabled", "Weapons disabled", "cannot fire or launch at its next activation", 3, False, False, rule=CRIPPLING_TABLE),
     CripplingRow("reactor_overload", "Reactor overload", "rolls again on the crippling table", 3, False, True, rule=CRIPPLING_TABLE)),
)

#: seed 6, "Tabla de Daño incapacitante en Dreadnoughts"
DREADNOUGHT_CRIPPLING: tuple[tuple[CripplingRow, ...], ...] = (
    (CripplingRow("bright_flash", "Bright flash", "gains a Minor spike (under Silent Running its Signature returns to normal instead)", 0, False, False, rule=DREADNOUGHT_CRIPPLING_TABLE),
     CripplingRow("containment_failure", "Atmospheric containment failure", "2 extra Hull damage in each End phase, before damage control; 2 repairs needed", 0, True, False, repairs=2, rule=DREADNOUGHT_CRIPPLING_TABLE),
     CripplingRow("power_fluctuation", "Power fluctuation", "D3 Hull damage when it takes a special order; cannot run silent", 0, True, False, rule=DREADNOUGHT_CRIPPLING_TABLE)),
    (CripplingRow("scanner_damage", "Scanner damage", "Scan reduced to 6\"", 0, True, False, rule=DREADNOUGHT_CRIPPLING_TABLE),
     CripplingRow("broken_bulkhead", "Broken bulkhead", "no further effect", 1, False, False, rule=DREADNOUGHT_CRIPPLING_TABLE),
     CripplingRow("auxiliary_damage", "Auxiliary systems damage", "no further effect", 2, False, True, rule=DREADNOUGHT_CRIPPLING_TABLE)),
    (CripplingRow("engines_destroyed", "Engines destroyed", "Thrust -2\"; D3 Hull damage when at Max Thrust or Course Change", 0, False, False, rule=DREADNOUGHT_CRIPPLING_TABLE),
     CripplingRow("weapon_destroyed", "Weapon destroyed", "a random weapon system is out for the rest of the game", 0, False, False, rule=DREADNOUGHT_CRIPPLING_TABLE),
     CripplingRow("reactor_leak", "Primary reactor leak", "3 extra Hull damage at the end of each End phase", 0, False, True, rule=DREADNOUGHT_CRIPPLING_TABLE)),
)

CRIPPLING_ROWS: dict[str, CripplingRow] = {row.effect: row for table in (CRIPPLING, DREADNOUGHT_CRIPPLING)
                                            for sub in table for row in sub}


def crippling_row(first: int, second: int, dreadnought: bool) -> CripplingRow:
    """The row two D6 give (DF-23: the first picks the sub-table, the second the row)."""
    table = DREADNOUGHT_CRIPPLING if dreadnought else CRIPPLING
    return table[_band(first)][_band(second)]


# --- crippling thresholds (seed 6; RULES-NOTES: once per threshold)
SMALL_SHIP_HULL = 3  # DF-25 / DF-49: Hull 3 or less never crippled, no catastrophic roll
DREADNOUGHT_THRESHOLDS = (18, 10)  # DF-22


@dataclass(frozen=True)
class CatastrophicRow:
    """One row of a catastrophic table (seed 7)."""

    key: str
    name: str
    text: str
    damage: str = ""  # "1", "2", "D6", "2D6", "3+D3" Hull damage
    saves: bool = False
    spike: int = 0  # MINOR or MAJOR gained
    fires: str = ""  # "D3" fires gained (Immolation)
    needs: int = 0  # a D6 of at least this per ship before the damage (Superstructure failure)
    reach: int | None = None  # fixed reach in inches (Dreadnought table); None: the D3"/D6" radius
    removes_small: int = 0  # ships of this starting Hull or less are removed (Space-time rupture)
    big_from: int = 0  # the damage applies to ships of this starting Hull or more only
    rule: str = ""
    house_rule: str = ""


CATASTROPHIC: dict[int, CatastrophicRow] = {
    1: CatastrophicRow("incineration", "Incineration", "no further effect", rule=CATASTROPHIC_TABLE),
    2: CatastrophicRow("incineration", "Incineration", "no further effect", rule=CATASTROPHIC_TABLE),
    3: CatastrophicRow("burning_wreck", "Burning wreck", "ships gain a Minor spike (Silent Running ends instead)", spike=MINOR, rule=CATASTROPHIC_TABLE),
    4: CatastrophicRow("crushed", "Crushed", "1 Hull damage, saves allowed", "1", True, rule=CATASTROPHIC_TABLE),
    5: CatastrophicRow("explosion", "Explosion", "2 Hull damage, saves allowed", "2", True, rule=CATASTROPHIC_TABLE),
    6: CatastrophicRow("radiation_burst", "Radiation burst", "2 Hull damage, no saves", "2", False, rule=CATASTROPHIC_TABLE),
    7: CatastrophicRow("warp_bubble", "Warp bubble", "D6 Hull damage rolled per ship, no saves", "D6", False, rule=CATASTROPHIC_TABLE),
}

DREADNOUGHT_CATASTROPHIC: dict[int, CatastrophicRow] = {
    2: CatastrophicRow("violent_descent", "Violent descent", "sectors within 8\" take D6 damage (no sectors on this table: no effect)", reach=8, rule=DREADNOUGHT_CATASTROPHIC_TABLE),
    3: CatastrophicRow("immolation", "Immolation", "ships within 8\" gain a Major spike and D3 Fires", spike=MAJOR, fires="D3", reach=8, rule=DREADNOUGHT_CATASTROPHIC_TABLE),
    4: CatastrophicRow("superstructure_failure", "Superstructure failure", "ships within 12\" take 2D6 Hull damage on a 5+, saves allowed", "2D6", True, needs=5, reach=12, rule=DREADNOUGHT_CATASTROPHIC_TABLE),
    5: CatastrophicRow("magazine_detonation", "Magazine detonation", "ships within 12\" take 2 Hull damage, saves allowed", "2", True, reach=12, rule=DREADNOUGHT_CATASTROPHIC_TABLE),
    6: CatastrophicRow("magazine_detonation", "Magazine detonation", "ships within 12\" take 2 Hull damage, saves allowed", "2", True, reach=12, rule=DREADNOUGHT_SIX,
                       house_rule="House rule: the Dreadnought table has no 6; a 6 reads as 5 (RULES-NOTES)."),
    7: CatastrophicRow("space_time_rupture", "Space-time rupture", "ships of Hull 6+ within 8\" take 3+D3 damage, saves allowed; ships of Hull 5 or less are removed", "3+D3", True, reach=8, removes_small=5, big_from=6, rule=DREADNOUGHT_CATASTROPHIC_TABLE),
}

CATASTROPHIC_BIG_HULL = 10  # DF-51: a starting Hull of 10+ adds 1
EXPLOSION_RADIUS = ((7, 6), (4, 3))  # DF-52: starting Hull 7+ -> D6", 4-6 -> D3"


def catastrophic_row(total: int, dreadnought: bool) -> CatastrophicRow:
    if dreadnought:
        return DREADNOUGHT_CATASTROPHIC[min(7, max(2, total))]
    return CATASTROPHIC[min(7, max(1, total))]


def explosion_die(start_hull: int) -> int:
    """The sides of the explosion radius die (DF-52)."""
    for least, sides in EXPLOSION_RADIUS:
        if start_hull >= least:
            return sides
    return 0


# --- damage control (seed "Control de daños")
def damage_control(face: int) -> tuple[bool, int]:
    """(repaired, unsavable Hull damage) for a damage-control D6 (DF-68)."""
    if face == 1:
        return False, 1
    if face <= 3:
        return False, 0
    return True, 0
