"""The tables of the Star Wars D6 starship-combat text, as data.

Every table names the section of the seed text (star-wars-d6-starship-combat.ca.txt)
it comes from, in English with its Catalan heading kept for the log's hover
(rulesets/core/citation.py).  Resolutions from ../shared/RULES-NOTES.md
(section "starwars_d6") are marked "notes:"; decisions of this ruleset are marked
"decision:" and listed in docs/rulesets/starwars_d6.md.  Pure Python: no Django import.

Bands are inclusive (low, high) ranges; ``None`` as high means "and more".
"""
from __future__ import annotations

from functools import lru_cache

from rulesets.core.citation import cite
from rulesets.core.messages import msg

# ---------------------------------------------------------------- scales

#: Seed "6. ESCALES": the three scales of the game.
SEC_SCALES = cite("Scales", "6. ESCALES")
STARFIGHTER, CAPITAL, DEATH_STAR = "starfighter", "capital", "death_star"
SCALES = (STARFIGHTER, CAPITAL, DEATH_STAR)
SCALE_WORDS = {
    STARFIGHTER: msg("starwars_d6.scale.starfighter", "Starfighter (Nau de caça)"),
    CAPITAL: msg("starwars_d6.scale.capital", "Capital ship (Nau capital)"),
    DEATH_STAR: msg("starwars_d6.scale.death_star", "Death Star (Estrella de la Mort)"),
}
SCALE_LABEL = {k: m.text for k, m in SCALE_WORDS.items()}  # the English words

# ---------------------------------------------------------------- movement

#: Seed "1. MOVIMENT I MANIOBRA": speed-point costs of each move.
SEC_MOVEMENT = cite("Movement and Manoeuvre", "1. MOVIMENT I MANIOBRA")
MOVE_COST = {
    "forward": 1,   # "Moure un hexàgon endavant" (then a free turn of one hexside)
    "turn": 1,      # "Girar un costat d'hexàgon ... sense haver-se mogut prèviament"
    "slide": 2,     # "Lliscar a un costat ... mantenint l'orientació"
    "hold": 0,      # "Mantenir la posició"
}

# ---------------------------------------------------------------- combat

#: Seed "2. COMBAT", "Distàncies": modifiers to the firing weapon's fire control, in pips.
SEC_RANGES = cite("Combat: Ranges", "2. COMBAT: Distàncies")
RANGE_MODIFIER = {"short": 3, "medium": 0, "long": -3}  # +1D / none / -1D
RANGE_MODIFIER_TEXT = {"short": "+1D", "medium": "+0", "long": "-1D"}
BANDS = ("short", "medium", "long")
RANGE_WORDS = {"short": msg("starwars_d6.range.short", "short"), "medium": msg("starwars_d6.range.medium", "medium"),
               "long": msg("starwars_d6.range.long", "long")}

#: Seed "2. COMBAT", "Distàncies" / "Míssils" / "Armes de les naus capitals":
#: range bands in hexes, (low, high) inclusive, per weapon type.
RANGES = {
    "laser": {"short": (1, 5), "medium": (6, 10), "long": (11, 15)},          # Distàncies pels làsers
    "ion_cannon": {"short": (1, 3), "medium": (4, 6), "long": (7, 8)},        # ... pels canons d'ions
    "blaster": {"short": (1, 4), "medium": (5, 8), "long": (9, 12)},          # ... pels blàsters
    "turbolaser": {"short": (1, 6), "medium": (7, 12), "long": (13, 20)},     # Armes de les naus capitals
    "tractor_beam": {"short": (1, 1), "medium": (2, 2), "long": (3, 3)},      # Armes de les naus capitals
}

#: Seed "2. COMBAT", "Míssils": ranges depend on the *target's* scale.
#: decision: proton torpedoes use the same ranges (the text gives torpedoes no ranges
#: of their own and treats "llançadors de míssils i torpedes" together).
MISSILE_RANGES = {
    STARFIGHTER: {"short": (1, 4), "medium": (5, 14), "long": (15, 25)},
    CAPITAL: {"short": (1, 10), "medium": (11, 30), "long": (31, 60)},
}
MISSILE_WEAPONS = ("concussion_missile", "proton_torpedo")

WEAPON_TYPES = ("laser", "blaster", "ion_cannon", "concussion_missile", "proton_torpedo",
                "turbolaser", "tractor_beam")
#: The weapons in English (the seed's Catalan terms: làser, blàster, canó d'ions, míssil d'impacte,
#: torpede de protons, turbolàser, raig tractor).
WEAPON_LABEL = {
    "laser": "Laser cannon", "blaster": "Blaster", "ion_cannon": "Ion cannon",
    "concussion_missile": "Concussion missile", "proton_torpedo": "Proton torpedo",
    "turbolaser": "Turbolaser", "tractor_beam": "Tractor beam",
}


def range_bands(weapon: str, target_scale: str = STARFIGHTER) -> dict:
    """The bands of a weapon type (missiles and torpedoes by the target's scale)."""
    if weapon in MISSILE_WEAPONS:
        return MISSILE_RANGES[STARFIGHTER if target_scale == STARFIGHTER else CAPITAL]
    return RANGES[weapon]


@lru_cache(maxsize=4096)
def range_band(weapon: str, distance: int, target_scale: str = STARFIGHTER) -> str | None:
    """"short" / "medium" / "long", or None when out of range (or distance 0).  Pure (the tables
    never change), so cached: a shot's band is asked at every firing step."""
    for band, (lo, hi) in range_bands(weapon, target_scale).items():
        if lo <= distance <= hi:
            return band
    return None


#: Seed "2. COMBAT": which weapon systems may fire together in one firing phase.
#: "Làsers i blàsters poden ser disparats conjuntament"; ion cannons, missiles and
#: torpedoes fire alone; missiles and torpedoes never together.
#: decision: turbolasers and tractor beams are not named; they fire with lasers
#: and blasters (their own group "energy"), not with ion cannons or launchers.
FIRE_GROUP = {
    "laser": "energy", "blaster": "energy", "turbolaser": "energy", "tractor_beam": "energy",
    "ion_cannon": "ion", "concussion_missile": "missile", "proton_torpedo": "torpedo",
}


@lru_cache(maxsize=256)
def farthest(weapon: str, target_scale: str = STARFIGHTER) -> int:
    """The longest range (hexes) of a weapon type at a target of ``target_scale``."""
    return max(hi for _, hi in range_bands(weapon, target_scale).values())


def may_fire_together(weapons) -> bool:
    """True when all the weapon types may be fired in the same phase (seed "2. COMBAT")."""
    return len({FIRE_GROUP[w] for w in weapons}) <= 1


#: Seed "3. CASOS ESPECIALS", "Míssils i torpedes": fire-control modifier (pips) by the
#: target's speed: rows of (low, high, pips); None pips = cannot be hit.
MISSILE_SPEED = {
    "concussion_missile": ((0, 4, 3), (5, 8, 0), (9, None, -3)),     # Pels míssils d'impacte
    "proton_torpedo": ((0, 4, 0), (5, 8, -3), (9, 12, -6), (13, None, None)),  # Pels torpedes de protons
}


#: (the section, for a shot it refuses: refusals.py)
SEC_MISSILES = cite("Special cases: Missiles and Torpedoes", "3. CASOS ESPECIALS: Míssils i torpedes")


def speed_modifier(weapon: str, target_speed: int) -> int | None:
    """Pips to the fire control against a target of this speed; None: cannot be hit."""
    for lo, hi, pips in MISSILE_SPEED[weapon]:
        if target_speed >= lo and (hi is None or target_speed <= hi):
            return pips
    raise ValueError(f"speed {target_speed} below the table")


#: Seed "3. CASOS ESPECIALS", "Factors de Foc per les Naus Capitals", with RULES-NOTES:
#: hits of a broadside that hit, by the shots in it (one d6 per 6 shots, remainder below).
#: Each entry maps the d6 face to hits; "reroll" lists faces rolled again.
SEC_FIRE_FACTORS = cite("Special cases: Fire Factors of Capital Ships",
                        "3. CASOS ESPECIALS: Factors de Foc per les Naus Capitals")
FIRE_FACTORS = {
    1: {"hits": {f: 1 for f in range(1, 7)}, "reroll": ()},  # decision: a single shot is one hit
    2: {"hits": {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 2}, "reroll": ()},
    3: {"hits": {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}, "reroll": ()},
    4: {"hits": {1: 1, 2: 2, 3: 3, 4: 4}, "reroll": (5, 6)},  # notes: 5 and 6 rolled again
    5: {"hits": {1: 1, 2: 2, 3: 3, 4: 4, 5: 5}, "reroll": (6,)},  # notes: the die, 6 rolled again
    6: {"hits": {f: f for f in range(1, 7)}, "reroll": ()},
}

# ---------------------------------------------------------------- special cases

#: Seed "3. CASOS ESPECIALS", "Col·lisions accidentals": 5D damage, modified (pips) by the kind.
SEC_COLLISION = cite("Special cases: Accidental Collisions", "3. CASOS ESPECIALS: Col·lisions accidentals")
COLLISION_DAMAGE = "5D"
COLLISION_MODIFIER = {
    "head_on": 9,          # "Col·lisió frontal o en diagonal per davant": +3D
    "front_diagonal": 9,
    "rear": -9,            # "Col·lisió des de darrera o en diagonal per darrera": -3D
    "rear_diagonal": -9,
    "t_bone": 0,           # "Col·lisió en T": no modifier
}

COLLISION_WORDS = {
    "head_on": msg("starwars_d6.collision.head_on", "head-on (frontal, +3D)"),
    "front_diagonal": msg("starwars_d6.collision.front_diagonal", "diagonally from the front (+3D)"),
    "rear": msg("starwars_d6.collision.rear", "from behind (-3D)"),
    "rear_diagonal": msg("starwars_d6.collision.rear_diagonal", "diagonally from behind (-3D)"),
    "t_bone": msg("starwars_d6.collision.t_bone", "T-collision (no modifier)"),
}
COLLISION_LABEL = {k: m.text for k, m in COLLISION_WORDS.items()}  # the English words

#: Seed "3. CASOS ESPECIALS", "Col·lisions premeditades": piloting + maneuverability each;
#: the target avoids only if it *exceeds* ("supera") the rammer.
SEC_RAM = cite("Special cases: Deliberate Collisions", "3. CASOS ESPECIALS: Col·lisions premeditades")

#: Seed "3. CASOS ESPECIALS", "Retirar-se del combat": a hyperspace jump needs a clear
#: line of sight and these distances in hexes (decision: "a 10 hexàgons" read as at least).
SEC_RETREAT = cite("Special cases: Withdrawing from Combat", "3. CASOS ESPECIALS: Retirar-se del combat")
HYPERSPACE_MIN_DISTANCE = {"planet": 10, "moon": 4}

#: Board features the GM places (planets, moons: "Retirar-se del combat"; obstacles: "sense cap
#: mena d'obstacle" -- asteroids, debris).  decision: each occupies one hex.
FEATURE_KINDS = ("planet", "moon", "obstacle")
FEATURE_LABEL = {"planet": "Planet", "moon": "Moon", "obstacle": "Obstacle"}
#: a feature's kind in words, for a feature the GM left unnamed (the labels above as messages)
FEATURE_WORDS = {"planet": msg("starwars_d6.feature.planet", "Planet"), "moon": msg("starwars_d6.feature.moon", "Moon"),
                 "obstacle": msg("starwars_d6.feature.obstacle", "Obstacle")}

#: Seed "3. CASOS ESPECIALS", "Raigs tractors": a hit captures without damage; the captured
#: ship breaks free only with a hull roll *greater* than the beam's strength (its damage code).
SEC_TRACTOR = cite("Special cases: Tractor Beams", "3. CASOS ESPECIALS: Raigs tractors")

#: Seed "4. SEQÜENCIA DE JOC", "Fase de moviment": the lowest initiative moves first, the others in
#: rising order (the section, for a move out of turn it refuses: refusals.py).
SEC_MOVEMENT_PHASE = cite("Sequence of Play: Movement Phase", "4. SEQÜENCIA DE JOC: Fase de moviment")

#: decision (docs "Special cases"): planets, moons and obstacles between two ships block their fire.
SEC_LINE_OF_FIRE = cite("Line of fire: planets, moons and obstacles block it", ruling=True)

#: Seed "4. SEQÜENCIA DE JOC", "Fase de moviment": jumps and rams are declared before moving.
SEC_DECLARE = cite("Sequence of Play: Movement Phase (hyperspace jumps and rams, declared before moving)",
                   "4. SEQÜENCIA DE JOC: Fase de moviment (salts a l'hiperespai i col·lisions deliberades, "
                   "declarats abans de moure)")

#: Seed "3. CASOS ESPECIALS", "Canons d'ions": (ion damage - hull roll) when >= 0:
#: rows (low, high, controls ionised); None = controls destroyed.
SEC_ION = cite("Special cases: Ion Cannons", "3. CASOS ESPECIALS: Canons d'ions")
ION_TABLE = ((0, 5, 1), (6, 10, 2), (11, 15, 3), (16, 20, 4), (21, None, None))


def ion_result(margin: int):
    """Controls ionised for an ion margin (>= 0), or None for "controls destroyed"."""
    for lo, hi, n in ION_TABLE:
        if margin >= lo and (hi is None or margin <= hi):
            return n
    raise ValueError("an ion margin below 0 has no effect")


# ---------------------------------------------------------------- sequence

#: Seed "4. SEQÜENCIA DE JOC", "Fase d'iniciativa": 2D each, lowest moves first, ties rerolled.
SEC_SEQUENCE = cite("Sequence of Play", "4. SEQÜENCIA DE JOC")
INITIATIVE_DICE = "2D"
PHASES = ("initiative", "movement", "firing")

# ---------------------------------------------------------------- damage

#: Seed "5. DETERMINANT ELS DANYS", "Magnitud dels danys", with RULES-NOTES: the band is
#: read on (damage through shields - hull roll) when that is 0 or more.
SEC_DAMAGE = cite("Determining Damage", "5. DETERMINANT ELS DANYS")
DAMAGE_BANDS = (
    (0, 3, "shields_blown"),     # Escuts anul·lats / Controls ionitzats
    (4, 8, "light"),             # Danys lleugers
    (9, 12, "considerable"),     # Danys considerables
    (13, 15, "severe"),          # Danys severs
    (16, None, "destroyed"),     # Nau destruïda
)
DAMAGE_WORDS = {
    "shields_blown": msg("starwars_d6.band.shields_blown", "Shields blown / controls ionised"),
    "light": msg("starwars_d6.band.light", "Light damage"),
    "considerable": msg("starwars_d6.band.considerable", "Considerable damage"),
    "severe": msg("starwars_d6.band.severe", "Severe damage"),
    "destroyed": msg("starwars_d6.band.destroyed", "Ship destroyed"),
}
DAMAGE_LABEL = {k: m.text for k, m in DAMAGE_WORDS.items()}  # the English words


def damage_band(margin: int) -> str | None:
    """The damage band of a hull margin; None below 0 (no damage)."""
    if margin < 0:
        return None
    for lo, hi, band in DAMAGE_BANDS:
        if margin >= lo and (hi is None or margin <= hi):
            return band
    raise AssertionError("unreachable")


#: Seed "5.", "Controls ionitzats": -1D maneuverability, fire control and damage of every
#: weapon for the rest of this round and all of the next (notes).  With maneuverability
#: at 0D the controls are dead for the rest of this round and the next two: the ship
#: drifts (same hexes, same direction, even off the board), cannot turn, fire or roll shields.
IONISED_PENALTY = 3          # pips (1D)
IONISED_ROUNDS_AFTER = 1     # the rest of this round + 1 more
FULLY_IONISED_ROUNDS_AFTER = 2

#: Seed "5.", "Taula de danys lleugers (tirar amb 1D6)".
SEC_LIGHT = cite("Determining Damage: Light Damage table", "5. DETERMINANT ELS DANYS: Taula de danys lleugers")
LIGHT_DAMAGE = {
    1: "maneuverability_-1D", 2: "maneuverability_-1D",   # 1-2: la nau perd 1D de Maniobrabilitat
    3: "weapon_disabled",        # un sistema d'armes (a l'atzar) queda inutilitzat
    4: "weapon_fire_control_-1D",  # un sistema d'armes (a l'atzar) perd 1D de control de foc
    5: "shields_-1D",            # la nau perd 1D d'Escuts
    6: "hull_-1D",               # la nau perd 1D de Casc
}

#: Seed "5.", "Taula de danys considerables (tirar amb 1D6)".  notes: severe damage rolls
#: twice on this table (both apply) and marks the ship severely damaged.
SEC_CONSIDERABLE = cite("Determining Damage: Considerable Damage table",
                        "5. DETERMINANT ELS DANYS: Taula de danys considerables")
CONSIDERABLE_DAMAGE = {
    1: "dead_in_space",          # Nau morta a l'espai: stopped, same facing; weapons still work
    2: "generator_overload",     # Sobrecàrrega en el generador: shut down within 3 rounds or explode
    3: "hyperdrive_out",         # Motor d'hiperespai inoperant (reroll if none)
    4: "weapons_out",            # Tots els sistemes d'armament inoperants
    5: "structural_damage",      # Danys estructurals: 1D rounds to evacuate
    6: "destroyed",              # Nau destruïda
}
GENERATOR_OVERLOAD_ROUNDS = 3
AUXILIARY_SPEED_FRACTION = (1, 4)   # ¼ of speed, rounded up
SEC_OVERLOAD = cite("Considerable Damage table, 2: Generator Overload",
                    "5. DETERMINANT ELS DANYS: Taula de danys considerables, 2: Sobrecàrrega en el generador")
SEC_STRUCTURAL = cite("Considerable Damage table, 5: Structural Damage",
                      "5. DETERMINANT ELS DANYS: Taula de danys considerables, 5: Danys estructurals")


def auxiliary_speed(speed: int) -> int:
    """Seed 5. considerable 2: on auxiliary batteries a ship moves at ¼ of its speed, rounded up."""
    num, den = AUXILIARY_SPEED_FRACTION
    return -(-speed * num // den)
SEVERE_ROLLS = 2                    # notes: two rolls on the considerable table

RESULT_WORDS = {
    "maneuverability_-1D": msg("starwars_d6.result.maneuverability_-1D", "Maneuverability -1D"),
    "weapon_disabled": msg("starwars_d6.result.weapon_disabled", "A weapon system is disabled"),
    "weapon_fire_control_-1D": msg("starwars_d6.result.weapon_fire_control_-1D", "A weapon system's fire control -1D"),
    "shields_-1D": msg("starwars_d6.result.shields_-1D", "Shields -1D"),
    "hull_-1D": msg("starwars_d6.result.hull_-1D", "Hull -1D"),
    "dead_in_space": msg("starwars_d6.result.dead_in_space", "Dead in space"),
    "generator_overload": msg("starwars_d6.result.generator_overload", "Generator overload"),
    "hyperdrive_out": msg("starwars_d6.result.hyperdrive_out", "Hyperdrive out"),
    "weapons_out": msg("starwars_d6.result.weapons_out", "All weapons out"),
    "structural_damage": msg("starwars_d6.result.structural_damage", "Structural damage"),
    "destroyed": DAMAGE_WORDS["destroyed"],   # the same words as the band's ("Nau destruïda")
}
RESULT_LABEL = {k: m.text for k, m in RESULT_WORDS.items()}  # the English words

# ---------------------------------------------------------------- scale caps

#: Seed "6. ESCALES".  Keys (acting scale, other scale).  A cap N: dice over N count N
#: (notes: a capped Wild Die still explodes on a natural 6).  0 = no damage at all.
#: "Escala a la tirada per impactar": the attacker's fire-control dice.
TO_HIT_CAP = {(CAPITAL, STARFIGHTER): 3, (DEATH_STAR, CAPITAL): 3}
#: "Els objectes d'escala Estrella de la Mort no poden disparar contra objectius
#: d'escala més petita que una Nau capital."
CANNOT_FIRE = {(DEATH_STAR, STARFIGHTER)}
#: "Escala per maniobres evasives": (evading scale, attacker scale) -> cap on maneuverability dice.
EVASION_CAP = {(CAPITAL, STARFIGHTER): 2, (CAPITAL, DEATH_STAR): 4}
#: "Escala per determinar el dany": (attacker scale, target scale) -> cap on damage dice.
DAMAGE_CAP = {(STARFIGHTER, CAPITAL): 3, (STARFIGHTER, DEATH_STAR): 0, (CAPITAL, DEATH_STAR): 1}
#: ... and (defender scale, attacker scale) -> cap on the defender's shield and hull dice.
DEFENCE_CAP = {(CAPITAL, DEATH_STAR): 1, (STARFIGHTER, CAPITAL): 3}
