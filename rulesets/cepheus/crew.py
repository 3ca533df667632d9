"""Crew positions, skills and characteristics: what a crew member brings to a check.

RULES-NOTES (cepheus): characteristic DM = floor(score / 3) - 2; unskilled -3.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import Message, msg

from .tables import UNSKILLED

if TYPE_CHECKING:
    from .state import Crew, Ship


POSITIONS = [
    ("captain", "Captain"),
    ("pilot", "Pilot"),
    ("navigator", "Navigator"),
    ("sensors", "Sensor operator"),
    ("turret_gunner", "Turret gunner"),
    ("bay_gunner", "Bay gunner"),
    ("gunner", "Gunner (turret or bay, by station)"),
    ("engineer", "Engineer"),
    ("damage_control", "Damage control"),
    ("security", "Chief security officer"),
    ("marine", "Marine"),
    ("passenger", "Passenger"),
]


#: a position in words, for the log, the buttons and the ship cards (POSITIONS above: the forms' choices)
POSITION_LABEL = {
    "captain": msg("cepheus.position.captain", "Captain"),
    "pilot": msg("cepheus.position.pilot", "Pilot"),
    "navigator": msg("cepheus.position.navigator", "Navigator"),
    "sensors": msg("cepheus.position.sensors", "Sensor operator"),
    "turret_gunner": msg("cepheus.position.turret_gunner", "Turret gunner"),
    "bay_gunner": msg("cepheus.position.bay_gunner", "Bay gunner"),
    "gunner": msg("cepheus.position.gunner", "Gunner (turret or bay, by station)"),
    "engineer": msg("cepheus.position.engineer", "Engineer"),
    "damage_control": msg("cepheus.position.damage_control", "Damage control"),
    "security": msg("cepheus.position.security", "Chief security officer"),
    "marine": msg("cepheus.position.marine", "Marine"),
    "passenger": msg("cepheus.position.passenger", "Passenger"),
}


POSITION_ORDER = {key: i for i, key in enumerate(
    ("captain", "sensors", "pilot", "navigator", "turret_gunner", "gunner", "bay_gunner",
     "engineer", "damage_control", "security", "marine", "passenger"))}


GUNNER_POSITIONS = ("gunner", "turret_gunner", "bay_gunner")


CHARACTERISTICS = ("str", "dex", "end", "int", "edu", "soc")


SKILLS = ("pilot", "gunnery", "gunnery_turret", "gunnery_bay", "tactics", "leadership", "comms",
          "mechanic", "engineering", "navigation", "screens", "gun_combat", "vacc_suit", "melee")


SKILL_LABEL = {
    "pilot": "Pilot", "gunnery": "Gunnery", "gunnery_turret": "Gunnery (Turret)",
    "gunnery_bay": "Gunnery (Bay)", "tactics": "Tactics", "leadership": "Leadership", "comms": "Comms",
    "mechanic": "Mechanic", "engineering": "Engineering", "navigation": "Navigation", "screens": "Screens",
    "gun_combat": "Gun Combat", "vacc_suit": "Vacc Suit", "melee": "Melee",
}


def char_dm(score: int) -> int:
    """RULES-NOTES: characteristic DM = floor(score / 3) - 2."""
    return score // 3 - 2


def current_chars(c: Crew) -> dict[str, int]:
    """Characteristics after wounds: damage comes off End, then Str, then Dex (decision)."""
    chars = dict(c.chars)
    dmg = c.damage
    for key in ("end", "str", "dex"):
        if dmg <= 0:
            break
        have = chars.get(key, 7)
        take = min(have, dmg)
        chars[key] = have - take
        dmg -= take
    return chars


def crew_state(c: Crew) -> str:
    if c.automated or c.damage <= 0:
        return "ok"
    ch = current_chars(c)
    zero = sum(1 for k in ("str", "dex", "end") if ch.get(k, 7) <= 0)
    return "dead" if zero >= 3 else "unconscious" if zero >= 2 else "wounded"


def able(c: Crew) -> bool:
    if c.automated or c.damage <= 0:
        return True  # crew_state's "ok": unhurt, or software
    return crew_state(c) in ("ok", "wounded")


#: the specialities that fall back to a crew member's general skill: Gunnery (Turret), Gunnery (Bay)
SKILL_FALLBACK = {"gunnery_turret": "gunnery", "gunnery_bay": "gunnery"}


def skill_level(c: Crew, skill: str) -> int:
    """The level of :func:`skill_of` alone (the bot's estimate of a gunner)."""
    s = c.skills
    if skill in s:
        return int(s[skill])
    general = SKILL_FALLBACK.get(skill)
    if general is not None and general in s:
        return int(s[general])
    return UNSKILLED


def skill_of(c: Crew, skill: str) -> tuple[int, Message | str]:
    """(level, label) of a skill; unskilled is -3.  Gunnery specialities fall back to Gunnery."""
    s = c.skills
    if skill in s:
        return int(s[skill]), SKILL_LABEL.get(skill, skill)
    general = SKILL_FALLBACK.get(skill)
    if general is not None and general in s:
        return int(s[general]), SKILL_LABEL[general]
    return UNSKILLED, msg("cepheus.mod.unskilled", "unskilled {skill}", skill=SKILL_LABEL.get(skill, skill))


def char_of(c: Crew, key: str) -> int:
    if c.automated or not key:
        return 0
    if c.damage <= 0:  # unhurt: current_chars would copy them unchanged
        return char_dm(c.chars.get(key, 7))
    return char_dm(current_chars(c).get(key, 7))


def gunnery_skill(mount_kind: str) -> str:
    return "gunnery_bay" if mount_kind == "bay" else "gunnery_turret"


def is_npc(ship: Ship) -> bool:
    """No player plays a crew member of ``ship``: its rolls are the GM's to read."""
    for c in ship.crew:
        if c.player is not None:
            return False
    return True
