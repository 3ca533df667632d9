"""The tables of the Void d20 "Боевой раунд" text, as data, each with its seed section.

Pure Python.  Row keys are stable codes the state stores; labels are the words a GM
reads (the Russian term is kept in ``SECTION`` for the docs and the log's rule line).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Final

from rulesets.core.citation import cite
from rulesets.core.messages import Message, msg

#: A plain check: 1d20 + ability, 12 or more succeeds (RULES-NOTES void_d20, VD-N01).
CHECK_TARGET: Final = 12
#: Void Points a character may hold (RULES-NOTES, VD-N04).
MAX_VOID_POINTS: Final = 4
#: Initiative split for characters: 12 or more act before the enemies (Инициатива и порядок ходов).
INITIATIVE_SPLIT: Final = 12
#: Squad morale: 2d6 against the morale value, higher flees or surrenders (Мораль, VD-N02).
MORALE_DICE: Final = (2, 6)
#: Condition loss when wounded: 1d6, on a 1 a random item loses 1 Condition (Потеря состояния).
WEAR_DIE: Final = 6
#: A hit knocks out a random module on a 1 in d6 (Стрельба и повреждения рамы).
MODULE_DIE: Final = 6
#: Actions in a personal turn: move + action, two moves or two actions (Боевой раунд).
SLOTS_PER_TURN: Final = 2

SECTION: Final = {
    "round": "Боевой раунд",
    "initiative": "Инициатива и порядок ходов",
    "attack": "Броски атаки",
    "risky": "Рискованные атаки",
    "critical": "Критические попадания",
    "condition": "Потеря состояния",
    "cover": "Укрытия и щиты",
    "enemies": "Враги в бою",
    "morale": "Мораль",
    "death": "Таблица смерти в космосе (d20)",
    "healing": "Исцеление",
    "space": "Космические столкновения",
    "ship_round": "Раунды и порядок",
    "stations": "Действия на корабле",
    "ranges": "Дистанции",
    "escape": "Бегство",
    "boarding": "Абордаж",
    "frame": "Стрельба и повреждения рамы",
    "catastrophe": "Таблица катастроф корабля (d12)",
    "notes": "RULES-NOTES void_d20",
    "house": "house rule (docs/rulesets/void_d20.md)",
}


#: The English heading a GM reads in the log for each section (the Russian one on hover).
ENGLISH: Final = {
    "round": "The combat round",
    "initiative": "Initiative and turn order",
    "attack": "Attack rolls",
    "risky": "Risky attacks",
    "critical": "Critical hits",
    "condition": "Loss of Condition",
    "cover": "Cover and shields",
    "enemies": "Enemies in combat",
    "morale": "Morale",
    "death": "The death table in space (d20)",
    "healing": "Healing",
    "space": "Space encounters",
    "ship_round": "Ship rounds and their order",
    "stations": "Actions aboard a ship",
    "ranges": "Ranges",
    "escape": "Escape",
    "boarding": "Boarding",
    "frame": "Fire and frame damage",
    "catastrophe": "The ship catastrophe table (d12)",
    "notes": "Rules notes",
    "house": "Void d20 decisions (docs/rulesets/void_d20.md)",
}


@lru_cache(maxsize=None)
def rule(section: str, number: str = "") -> str:
    """The rule cited by a log entry or roll: the English heading, the seed's Russian one on
    hover, rulings and house rules marked (rulesets/core/citation.py).  ``number``, the
    inventory number, is for the reader of the code: docs/rulesets/void_d20.md maps it."""
    original = SECTION[section] if section not in ("notes", "house") else ""
    return cite(ENGLISH[section], original, house_rule=section == "house", ruling=section == "notes")


# --- Укрытия и щиты ----------------------------------------------------------------

@dataclass(frozen=True)
class Cover:
    key: str
    words: Message            # the label as a message (a log line's parameter)
    dr_bonus: int | None  # None: no attack possible

    @property
    def label(self) -> str:
        return self.words.english()


COVER: Final = {
    "none": Cover("none", msg("void_d20.cover.none", "no cover"), 0),
    "light": Cover("light", msg("void_d20.cover.light", "light cover (round a corner, in grass): +2 DR"), 2),      # VD-13
    "medium": Cover("medium", msg("void_d20.cover.medium", "medium cover (behind a wall, in rubble): +4 DR"), 4),  # VD-14
    "full": Cover("full", msg("void_d20.cover.full", "full cover (bunker, armour plate): no attack possible"),
        None),  # VD-15
}
COVER_ORDER: Final = ("none", "light", "medium", "full")
#: an energy shield with charges left: +2 DR, one charge lost per hit (VD-16)
SHIELD_DR: Final = 2


# --- Таблица смерти в космосе (d20) ---------------------------------------------------

@dataclass(frozen=True)
class DeathRow:
    low: int
    high: int
    key: str
    words: Message            # the row's words (the label a GM reads)
    number: str

    @property
    def faces(self) -> str:
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"

    @property
    def label(self) -> str:
        return self.words.english()


DEATH_TABLE: Final = (
    DeathRow(1, 1, "dead", msg("void_d20.death_row.dead", "Instant death: the body torn apart among the space debris"),
        "VD-22"),
    DeathRow(2, 3, "bleeding", msg("void_d20.death_row.bleeding", "Bleeding out: dead unless helped within a round"),
        "VD-23"),
    DeathRow(4, 6, "unconscious", msg("void_d20.death_row.unconscious", "Unconscious for d6 rounds; HP back to 1"), "VD-24"),
    DeathRow(7, 10, "wounded", msg("void_d20.death_row.wounded", "Severe wound: HP 1, disadvantage the next day"), "VD-25"),
    DeathRow(11, 14, "shock", msg("void_d20.death_row.shock", "Shock: sits down, no actions for 2 rounds; HP 1"), "VD-26"),
    DeathRow(15, 17, "scratched", msg("void_d20.death_row.scratched", "Scratched: HP d4, carries on"), "VD-27"),
    DeathRow(18, 19, "miracle", msg("void_d20.death_row.miracle", "Survived by a miracle: full HP, +1 Void Point"), "VD-28"),
    DeathRow(20, 20, "vision", msg("void_d20.death_row.vision", "Vision: full HP and an omen from the GM"), "VD-29"),
)


#: face -> its row of the death table
_DEATH_BY_FACE: Final = {face: row for row in DEATH_TABLE for face in range(row.low, row.high + 1)}


def death_row(face: int) -> DeathRow:
    row = _DEATH_BY_FACE.get(face)
    if row is None:
        raise ValueError(f"{face} is not a face of a d20.")
    return row


#: rounds a death-table state lasts (Таблица смерти: "за раунд", "2 раунда"): bleeding out, the rounds
#: after this one a friend has to help; shock, the character's turns lost (how they count: timers.py)
BLEED_ROUNDS: Final = 1
SHOCK_ROUNDS: Final = 2

# --- Исцеление ---------------------------------------------------------------------

@dataclass(frozen=True)
class Healing:
    key: str
    words: Message            # the label a GM reads
    dice: tuple[int, int, int] | None  # (count, sides, plus); None: all HP
    number: str

    @property
    def label(self) -> str:
        return self.words.english()


HEALING: Final = {
    "medkit": Healing("medkit", msg("void_d20.healing.medkit", "Medkit: d6+1 HP, one charge"), (1, 6, 1), "VD-30"),
    "hub": Healing("hub", msg("void_d20.healing.hub", "A night's rest at the hub: full HP"), None, "VD-31"),
    "medbay": Healing("medbay", msg("void_d20.healing.medbay", "Medbay: d8+2 HP in an hour"), (1, 8, 2), "VD-32"),
    "week": Healing("week", msg("void_d20.healing.week", "A long rest (a week): removes all long-term injuries"),
        None, "VD-33"),
}
#: what a long rest removes (VD-33); "hampered" is the 7-10 row's "disadvantage the next day"
LONG_TERM_NOTES: Final = ("hampered tomorrow",)

# --- Дистанции ------------------------------------------------------------------------

@dataclass(frozen=True)
class Band:
    key: str
    words: Message            # the label a GM reads
    reaches: tuple[str, ...]  # weapon reaches that work at this band
    boarding: str             # "" / "possible" / "active"
    number: str

    @property
    def label(self) -> str:
        return self.words.english()


BANDS: Final = {
    "far": Band("far", msg("void_d20.band.far", "Far: at the edge of the scanners; only heavy weapons and missiles"),
                ("heavy", "missile"), "", "VD-42"),
    "medium": Band("medium", msg("void_d20.band.medium", "Medium: most weapons work; standard combat"),
                   ("standard", "heavy", "missile"), "", "VD-43"),
    "close": Band("close", msg("void_d20.band.close", "Close: all weapons effective; boarding possible"),
                  ("standard", "heavy", "missile", "close"), "possible", "VD-44"),
    "docked": Band("docked",
                   msg("void_d20.band.docked", "Docked: the ships are joined; guns do not work, boarding under way"),
                   (), "active", "VD-45"),
}
BAND_ORDER: Final = ("docked", "close", "medium", "far")  # nearest first
#: weapon reaches a ship weapon may have: "close" works only at Close (point-blank guns)
REACHES: Final = ("standard", "heavy", "missile", "close")


def band_further(band: str) -> str | None:
    """One band further (None: beyond Far, the ship has got away)."""
    i = BAND_ORDER.index(band)
    return BAND_ORDER[i + 1] if i + 1 < len(BAND_ORDER) else None


def band_closer(band: str) -> str:
    i = BAND_ORDER.index(band)
    return BAND_ORDER[max(0, i - 1)]


# --- Действия на корабле --------------------------------------------------------------

@dataclass(frozen=True)
class Station:
    key: str
    label: str
    ability: str
    position: str
    number: str


#: in the order a ship's turn takes them: command first (its +1 is for this round),
#: the manoeuvre, sensors, the attack, repair last (house order, docs "Ship rounds")
STATIONS: Final = (
    Station("command", "Command: +1 to another station this round", "", "captain", "VD-41"),
    Station("pilot", "Piloting (Agility): manoeuvre, evasion, pursuit", "agility", "pilot", "VD-37"),
    Station("sensors", "Sensors (Mind): scan the enemy, find a weakness", "mind", "sensors", "VD-39"),
    Station("gunner", "Gunnery (Technology): the gunner aims the guns", "technology", "gunner", "VD-38"),
    Station("engineer", "Repair (Technology + spare parts): restore Condition", "technology", "engineer", "VD-40"),
)
STATION: Final = {s.key: s for s in STATIONS}
#: a station's short name as a message ("the gunner"): a log line's and an action's parameter
STATION_WORDS: Final = {"command": msg("void_d20.station_name.command", "command"),
                         "pilot": msg("void_d20.station_name.pilot", "pilot"),
                         "sensors": msg("void_d20.station_name.sensors", "sensors"),
                         "gunner": msg("void_d20.station_name.gunner", "gunner"),
                         "engineer": msg("void_d20.station_name.engineer", "engineer")}
#: a found weakness: + this to the next gunnery roll against that ship (house rule)
WEAKNESS_BONUS: Final = 2
#: a successful evasion: + this to the ship's Defence until its next turn (house rule)
EVADE_BONUS: Final = 2
#: the Command station's bonus (VD-41)
COMMAND_BONUS: Final = 1
#: gunnery's target when a ship has no Defence of its own: the plain check (house rule)
DEFAULT_SHIP_DEFENCE: Final = CHECK_TARGET

# --- Таблица катастроф корабля (d12) -----------------------------------------------------

@dataclass(frozen=True)
class Catastrophe:
    face: int
    key: str
    words: Message            # the row's words
    effect_words: Message     # what the app does, in words
    number: str

    @property
    def label(self) -> str:
        return self.words.english()

    @property
    def effect(self) -> str:
        return self.effect_words.english()


CATASTROPHES: Final = (
    Catastrophe(1, "breach", msg("void_d20.catastrophe.breach", "Hull breach: a compartment depressurised"),
                msg("void_d20.catastrophe_effect.breach", "noted for the GM"), "VD-52"),
    Catastrophe(2, "fire", msg("void_d20.catastrophe.fire", "Fire in engineering: -1 power"),
                msg("void_d20.catastrophe_effect.fire", "-1 to the ship's gunnery and piloting checks"), "VD-53"),
    Catastrophe(3, "reactor", msg("void_d20.catastrophe.reactor", "Reactor explodes in d6 rounds"),
                msg("void_d20.catastrophe_effect.reactor", "the ship and all aboard are lost when the count runs out"),
                "VD-54"),
    Catastrophe(4, "docking", msg("void_d20.catastrophe.docking", "Docking module jammed"),
                msg("void_d20.catastrophe_effect.docking", "the ship cannot dock, nor break away once docked"), "VD-55"),
    Catastrophe(5, "gravity", msg("void_d20.catastrophe.gravity", "Gravity off"),
                msg("void_d20.catastrophe_effect.gravity", "noted for the GM"), "VD-56"),
    Catastrophe(6, "navigation", msg("void_d20.catastrophe.navigation", "Navigation dead"),
                msg("void_d20.catastrophe_effect.navigation", "no manoeuvres"), "VD-57"),
    Catastrophe(7, "gun", msg("void_d20.catastrophe.gun", "A gun broken"),
                msg("void_d20.catastrophe_effect.gun", "a random weapon is out"), "VD-58"),
    Catastrophe(8, "oxygen", msg("void_d20.catastrophe.oxygen", "Oxygen leak: an hour until suffocation"),
                msg("void_d20.catastrophe_effect.oxygen", "noted for the GM (an hour is longer than the fight)"),
                "VD-59"),
    Catastrophe(9, "ai", msg("void_d20.catastrophe.ai", "The ship's AI goes mad"),
                msg("void_d20.catastrophe_effect.ai", "the GM decides what it does"), "VD-60"),
    Catastrophe(10, "cryo", msg("void_d20.catastrophe.cryo", "Cryo pods open by themselves"),
                msg("void_d20.catastrophe_effect.cryo", "noted for the GM"), "VD-61"),
    Catastrophe(11, "engines", msg("void_d20.catastrophe.engines", "Engines jammed: flying straight on"),
                msg("void_d20.catastrophe_effect.engines", "no manoeuvres"), "VD-62"),
    Catastrophe(12, "reboot", msg("void_d20.catastrophe.reboot", "All systems reboot for d6 rounds"),
                msg("void_d20.catastrophe_effect.reboot", "the ship does nothing for d6 rounds"), "VD-63"),
)
CATASTROPHE: Final = {c.key: c for c in CATASTROPHES}


def catastrophe_row(face: int) -> Catastrophe:
    return CATASTROPHES[face - 1]


# --- crew positions ------------------------------------------------------------------------

#: crew positions in words: each ship station's post (Действия на корабле), boarders, the rest.
#: A player reads enemy crew as "<ship>'s <position>" (the app's rule for enemy names).
POSITION_WORDS: Final = {
    "captain": "Captain", "pilot": "Pilot", "gunner": "Gunner", "sensors": "Sensors officer",
    "engineer": "Engineer", "marine": "Marine", "crew": "Crew",
}

# --- gear ------------------------------------------------------------------------------

#: personal weapon kinds and the ability each attacks with (Броски атаки, VD-05)
ATTACK_ABILITY: Final = {"melee": "body", "ranged": "agility", "tech": "technology"}
ABILITIES: Final = ("body", "agility", "mind", "technology")
ABILITY_LABEL: Final = {"body": "Body", "agility": "Agility", "mind": "Mind", "technology": "Technology"}
#: the abilities' names as messages (a modifier's label, a log line's parameter)
ABILITY_WORDS: Final = {"body": msg("void_d20.ability.body", "Body"), "agility": msg("void_d20.ability.agility", "Agility"),
                        "mind": msg("void_d20.ability.mind", "Mind"),
                        "technology": msg("void_d20.ability.technology", "Technology")}
#: a character whose weapon is broken (Condition 0) fights with fists (house rule)
FISTS: Final = ("fists", "melee", "d4")
