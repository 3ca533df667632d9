"""The tables of "Der Dogfight", as data, each with the section it comes from.

The first-damage table is the seed's own (2.1.8 Die Erstschadenstabelle); the three
attack-fumble tables are in RULES-NOTES (section wing_commander), taken from the same
game.  A row is (lowest, highest, key, title, effect); ``highest`` None means "and up".
Every table is rolled with 2W10 (1W20 for a Wild Card), so a result can be 1-20.
A table's name and its rows' titles and effects are messages (``wing_commander.<table>.<row>``,
rulesets/core/messages.py): the log says them in the reader's language.
"""
from __future__ import annotations

from dataclasses import dataclass

from rulesets.core.citation import cite
from rulesets.core.messages import Message, msg


@dataclass(frozen=True)
class Row:
    low: int
    high: int | None
    key: str
    title: Message
    effect: Message

    def covers(self, result: int) -> bool:
        return result >= self.low and (self.high is None or result <= self.high)

    @property
    def band(self) -> str:
        return f"{self.low}+" if self.high is None else f"{self.low}-{self.high}"


@dataclass(frozen=True)
class Table:
    name: Message
    section: str
    rows: tuple[Row, ...]

    def lookup(self, result: int) -> Row:
        for row in self.rows:
            if row.covers(result):
                return row
        return self.rows[0] if result < self.rows[0].low else self.rows[-1]


def table(key: str, name: str, section: str, rows: tuple) -> Table:
    """A table whose name and rows are messages: ``rows`` are (low, high, row key, title, effect)
    in English, each said as ``wing_commander.<key>.<row key>`` (its title) and ``...effect``."""
    return Table(msg(f"wing_commander.{key}.name", name), section, tuple(
        Row(low, high, rkey, msg(f"wing_commander.{key}.{rkey}", title), msg(f"wing_commander.{key}.{rkey}.effect", effect))
        for low, high, rkey, title, effect in rows))


FIRST_DAMAGE = table("first_damage", "First-damage table",
                     cite("2.1.8 The first-damage table", "2.1.8 Die Erstschadenstabelle"), (
    (1, 5, "shield_generator", "Shield generator destroyed!",
        "No shield regeneration until the shield generator is replaced."),
    (6, 8, "thrusters_heavy", "Thrusters badly damaged!",
        "The ship's MV drops by 2 until the thrusters are replaced."),
    (9, 12, "thrusters_light", "Thrusters lightly damaged!",
        "The ship's MV drops by 1 until the thrusters are replaced."),
    (13, 15, "gun_alignment", "Gun alignment failed!",
        "All gun attacks are reduced by 2 for the whole mission."),
    (16, None, "none", "No component damage!", "Lucky."),
))

FUMBLE_SECTION = cite("Fumble tables", "RULES-NOTES wing_commander (fumble tables)", ruling=True)

GUN_FUMBLE = table("gun_fumble", "Gun and turret fumble table", FUMBLE_SECTION, (
    (1, 6, "leads_burnt", "Gun leads burn out",
        "The guns are out until replaced; a turret is out for the rest of the mission."),
    (7, 10, "power_fault", "Power supply fault", "The weapon's damage is halved until replaced."),
    (11, 13, "heavy_overheat", "Heavy overheating", "The weapon is out for two rounds."),
    (14, None, "light_overheat", "Light overheating", "The weapon is out for one round."),
))

MISSILE_FUMBLE = table("missile_fumble", "Missile fumble table", FUMBLE_SECTION, (
    (1, 6, "launch_circuits", "Launch circuits fail", "No more missiles until replaced."),
    (7, 10, "targeting", "Targeting fails",
        "The missile picks a random ship, friend or foe, and hits it."),
    (11, 13, "heavy_blast", "Safety fails, heavy premature blast",
        "The own ship takes half the missile's damage."),
    (14, None, "light_blast", "Light premature blast", "The own ship takes a quarter of the missile's damage."),
))

TORPEDO_FUMBLE = table("torpedo_fumble", "Torpedo fumble table", FUMBLE_SECTION, (
    (1, 6, "launch_circuits", "Launch circuits fail", "No more torpedoes until replaced."),
    (7, None, "lost", "Torpedo lost",
        "The torpedo is lost (house rule: the rest of the table is not available)."),
))

#: the fumble table of each weapon kind (2.1.9 Der Patzer: "die entsprechende Patzertabelle")
FUMBLE_TABLES = {"gun": GUN_FUMBLE, "turret": GUN_FUMBLE, "missile": MISSILE_FUMBLE, "torpedo": TORPEDO_FUMBLE}

#: 2.1.1 Die Initiative/Reihenfolge, step 1: light fighters first, then medium, heavy, bombers
#: last.  Capital ships are not in the text's list; they move after the bombers (a decision).
SHIP_CLASSES = (
    ("light", "Light fighter"),
    ("medium", "Medium fighter"),
    ("heavy", "Heavy fighter"),
    ("bomber", "Bomber"),
    ("capital", "Capital ship"),
)
CLASS_ORDER = {key: index for index, (key, _) in enumerate(SHIP_CLASSES)}
CLASS_NAMES = dict(SHIP_CLASSES)

#: Confederation ranks, lowest first (2.1.1 step 4: rank, then time in the current rank)
RANKS = (
    (0, "Cadet"), (1, "Ensign"), (2, "Second Lieutenant"), (3, "First Lieutenant"),
    (4, "Captain"), (5, "Major"), (6, "Lieutenant Colonel"), (7, "Colonel"),
)
RANK_NAMES = dict(RANKS)

#: the value a missile dodge must reach when the attacker is represented by its TW (2.1.5 d)
MISSILE_DODGE_BASE = 11
#: shield points the "stand aside" action regenerates (2.1.3)
REGENERATION = 3
