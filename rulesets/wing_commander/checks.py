"""Every roll of a dogfight declared once: who rolls, which dice, which modifiers, against what.

Each is a core :class:`rulesets.core.check.Check` (issue 23, "One Check in core") built by
:func:`declare`; the action list, ``apply`` (through :func:`roll`), the odds and the log line all
read that one value.  Sections: 2.1.4 Der Angriffswurf, 2.1.5 Der Ausweichwurf,
2.1.7 Der Erstschadenswurf, 2.1.9 Kritische Treffer...; RULES-NOTES wing_commander.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Final

from rulesets.core import check as core_check
from rulesets.core.check import GM_LABEL, Check, Modifier, Natural, Result, Throw
from rulesets.core.citation import cite
from rulesets.core.dice import Dice
from rulesets.core.messages import Message, Words, msg

from . import tables
from .state import DogfightState, PendingAttack, Pilot, Ship, Weapon

# The rules cited in the log: English headings, the German ones on hover (rulesets/core/citation.py).
RULE_ATTACK = cite("2.1.4 The attack roll", "2.1.4 Der Angriffswurf")
RULE_DODGE = cite("2.1.5 The dodge roll", "2.1.5 Der Ausweichwurf")
RULE_CM = cite("Countermeasures", "2.1.5 Der Ausweichwurf", ruling=True)
RULE_FIRST = cite("2.1.7 The first-damage roll", "2.1.7 Der Erstschadenswurf")
RULE_CRIT = cite("2.1.9 Critical hits", "2.1.9 Kritische Treffer")
RULE_FUMBLE = cite("2.1.9 Fumbles", "2.1.9 Der Patzer")

CRITICAL, SUCCESS, FAILURE, FUMBLE = "critical", core_check.SUCCESS, core_check.FAILURE, "fumble"

#: a check's dice: 2W10, or 1W20 for a Wild Card (recorded as 2d10 and 1d20)
TWO_W10: Final = Throw(2, 10)
ONE_W20: Final = Throw(1, 20)
#: the naturals that decide by themselves (RULES-NOTES wing_commander): 19-20 a critical, always a
#: success; 2-3 on 2W10 and 1-3 on 1W20 a fumble, always a failure
NATURALS: Final = (
    Natural(19, 20, CRITICAL, True,
            row=msg("wing_commander.roll.critical", "natural {natural}: critical, always succeeds")),
    Natural(1, 3, FUMBLE, False, row=msg("wing_commander.roll.fumble", "natural {natural}: fumble, always fails")),
)
#: a plain success or failure, as the roll's row
WORDS: Final = {SUCCESS: msg("wing_commander.roll.success", "success"),
                FAILURE: msg("wing_commander.roll.failure", "failure")}
#: what an opposed attack is rolled against, as the roll's table
OPPOSED: Final = msg("wing_commander.roll.opposed", "against the attack total")

#: the modifiers' labels (2.1.4, 2.1.5), each said once
SHIP_MV: Final = msg("wing_commander.modifier.ship_mv", "ship MV")
THRUSTERS: Final = msg("wing_commander.modifier.thrusters", "damaged thrusters")
GUN_ALIGNMENT: Final = msg("wing_commander.modifier.gun_alignment", "gun alignment failed")
EVADED: Final = msg("wing_commander.modifier.evaded", "critical dodge this round")
COUNTERMEASURE_MV: Final = {"chaff": msg("wing_commander.modifier.chaff_mv", "chaff MV"),
                            "mines": msg("wing_commander.modifier.mines_mv", "mines MV")}
#: a countermeasure kind in words, as stocked ("mines") and as one dropped ("the mine fails")
COUNTERMEASURES: Final = {"chaff": msg("wing_commander.countermeasure.chaff", "chaff"),
                          "mines": msg("wing_commander.countermeasure.mines", "mines")}
ONE_COUNTERMEASURE: Final = {"chaff": msg("wing_commander.countermeasure.one_chaff", "chaff"),
                             "mines": msg("wing_commander.countermeasure.one_mine", "mine")}


def declare(purpose: Words, rule: str, wild_card: bool = False, modifiers: tuple[tuple[Words, int], ...] = (),
          target: int | None = None, special: bool = True) -> Check:
    """One roll as a core :class:`Check`: 2W10 (1W20 for a Wild Card) plus named modifiers against a
    target value.  ``target`` None is an opposed attack (its total is what the defender must reach) or
    a table roll; ``special`` says whether the naturals decide (criticals 19-20, fumbles: RULES-NOTES)."""
    return Check(ONE_W20 if wild_card else TWO_W10, target, tuple(Modifier(*m) for m in modifiers), rule,
                 purpose, NATURALS if special else ())


def dice_words(check: Check) -> str:
    """The dice as the rules write them: 2W10 or 1W20."""
    return "1W20" if check.throw == ONE_W20 else "2W10"


def roll(dice: Dice, check: Check, table: tables.Table | None = None) -> Result:
    """Roll ``check`` through ``dice`` (:func:`rulesets.core.check.roll`); recorded with the table
    row the natural reads, or else with the target in words ("vs 12", "against the attack total")
    and the outcome in words."""
    if table is not None:
        return core_check.roll(dice, check, table=table.name, row=lambda r: _table_row(table, r.natural),
                               record_target=False)
    against = OPPOSED if check.target is None else msg("wing_commander.roll.vs", "vs {target}", target=check.target)
    return core_check.roll(dice, check, table=against, row=lambda r: WORDS[r.outcome], record_target=False)


def _table_row(table: tables.Table, natural: int) -> Message:
    row = table.lookup(natural)
    return msg("wing_commander.roll.table_row", "{band} {title}", band=row.band, title=row.title)


def chances(check: Check) -> dict[str, Fraction]:
    """{critical, success, failure, fumble: probability} of ``check``, each outcome once (a critical
    is not also counted a success here, nor a fumble a failure): from :func:`rulesets.core.check.chances`."""
    c = core_check.chances(check)
    critical, fumble = c.get(CRITICAL, Fraction(0)), c.get(FUMBLE, Fraction(0))
    return {CRITICAL: critical, SUCCESS: c[SUCCESS] - critical, FAILURE: c[FAILURE] - fumble, FUMBLE: fumble}


# --- the declarations ---------------------------------------------------------------------

def pilot_for(ship: Ship, weapon: Weapon) -> Pilot:
    """A turret is worked by its gunner when the ship has one, otherwise by the pilot."""
    if weapon.kind == "turret" and ship.gunner is not None:
        return ship.gunner
    return ship.pilot


WEAPON_MODIFIER = {"gun": "guns", "turret": "guns", "missile": "missiles", "torpedo": "torpedoes"}


def attack_modifiers(ship: Ship, weapon: Weapon, dm: int = 0) -> tuple[tuple[Words, int], ...]:
    """2.1.4 a)-e): ship MV (guns only), skills and advantages, the weapon's own MV, component damage.
    A failed gun alignment (2.1.8, 13-15: "Alle Geschützangriffe ... um 2 reduziert") costs the guns and
    the turret 2: a turret's fire is gun fire, as for the mines, the dodge and the fumble table (decision)."""
    mods: list[tuple[Words, int]] = []
    if weapon.kind == "gun":
        mods.append((SHIP_MV, ship.mv))
        if ship.thrusters:
            mods.append((THRUSTERS, -ship.thrusters))
    elif weapon.kind in ("missile", "torpedo"):
        mods.append((weapon_mv(weapon), weapon.mv))
    if ship.gun_alignment and weapon.kind in ("gun", "turret"):
        mods.append((GUN_ALIGNMENT, -2))
    mods.extend(pilot_for(ship, weapon).bonus("attack", WEAPON_MODIFIER[weapon.kind]))
    if dm:
        mods.append((GM_LABEL, dm))
    return tuple(mods)


def weapon_mv(weapon: Weapon) -> Message:
    """A missile's or torpedo's own MV, as a modifier's label and in the value a dodge must reach."""
    return msg("wing_commander.modifier.weapon_mv", "{weapon} MV", weapon=weapon.name)


def attacks(attacker: Ship, target: Ship, weapon: Weapon) -> Message:
    """"Blue 1 attacks Claw 1 with Laser cannons": the attack roll's purpose, and how the log's
    attack lines begin."""
    return msg("wing_commander.roll.attack", "{ship} attacks {target} with {weapon}", ship=attacker.name,
               target=target.name, weapon=weapon.name)


def attacker_rolls(attacker: Ship, target: Ship) -> bool:
    """Who rolls the attack: a character (or an NPC the GM rolls for) always; an NPC represented
    by its TW only against a target that does not roll either (decision: the GM rolls for it)."""
    return attacker.rolls or not target.rolls


def attack_check(attacker: Ship, weapon: Weapon, target: Ship, dm: int = 0) -> Check | None:
    """The attack roll, or None when the NPC attacker is represented by its TW (2.1.5)."""
    if not attacker_rolls(attacker, target):
        return None
    purpose = attacks(attacker, target, weapon)
    # Against a target that dodges, the attack total is what the dodge must reach (opposed).
    against = None if target.rolls else target.tw
    return declare(purpose, RULE_ATTACK, pilot_for(attacker, weapon).wild_card,
                 attack_modifiers(attacker, weapon, dm), against)


def tw_number(attacker: Ship, weapon: Weapon) -> int:
    """What an NPC attack represented by its TW sets the defence: its TW, or 11 +/- MV of a missile
    or torpedo (2.1.5 d, RULES-NOTES)."""
    if weapon.kind in ("missile", "torpedo"):
        return tables.MISSILE_DODGE_BASE + weapon.mv
    return attacker.tw


def tw_value(attacker: Ship, weapon: Weapon) -> tuple[int, Message]:
    """:func:`tw_number` and where it comes from, in words."""
    if weapon.kind in ("missile", "torpedo"):
        return tw_number(attacker, weapon), msg("wing_commander.dodge.missile_value", "{base} {sign} {mv} ({label})",
                                                base=tables.MISSILE_DODGE_BASE, sign="+" if weapon.mv >= 0 else "-",
                                                mv=abs(weapon.mv), label=weapon_mv(weapon))
    return tw_number(attacker, weapon), msg("wing_commander.dodge.tw_value", "{ship}'s TW", ship=attacker.name)


def dodge_modifiers(state: DogfightState, defender: Ship, pending: PendingAttack, dm: int = 0):
    """2.1.5 a)-e): the ship's MV against gun attacks, skills and advantages, component damage,
    and a critical dodge's +1 against that enemy this round (2.1.9)."""
    return dodge_modifiers_against(defender, pending.attacker, state.ship(pending.attacker).weapon(pending.weapon), dm)


def dodge_modifiers_against(defender: Ship, attacker_id: str, weapon: Weapon, dm: int = 0):
    mods: list[tuple[Words, int]] = []
    if weapon.kind in ("gun", "turret"):
        mods.append((SHIP_MV, defender.mv))
        if defender.thrusters:
            mods.append((THRUSTERS, -defender.thrusters))
    targets = ("dodge", "dodge_missiles") if weapon.kind in ("missile", "torpedo") else ("dodge",)
    mods.extend(defender.pilot.bonus(*targets))
    if attacker_id in defender.evaded:
        mods.append((EVADED, 1))
    if dm:
        mods.append((GM_LABEL, dm))
    return tuple(mods)


def dodges(defender: Ship, attacker: Ship, weapon: Weapon) -> Message:
    """"Claw 1 dodges Blue 1's Laser cannons": the dodge roll's purpose, and the dodge's label."""
    return msg("wing_commander.roll.dodge", "{ship} dodges {attacker}'s {weapon}", ship=defender.name,
               attacker=attacker.name, weapon=weapon.name)


def dodge_check(state: DogfightState, defender: Ship, pending: PendingAttack, dm: int = 0) -> Check:
    attacker = state.ship(pending.attacker)
    weapon = attacker.weapon(pending.weapon)
    return declare(dodges(defender, attacker, weapon), RULE_DODGE, defender.wild_card,
                 dodge_modifiers(state, defender, pending, dm), pending.value)


def countermeasure_kind(weapon: Weapon) -> str | None:
    """Chaff against missiles, mines against gun attacks (2.1.5); nothing against a torpedo."""
    return {"missile": "chaff", "gun": "mines", "turret": "mines"}.get(weapon.kind)


def countermeasure_check(state: DogfightState, defender: Ship, pending: PendingAttack, dm: int = 0) -> Check:
    """RULES-NOTES: 2W10 + the countermeasure's own MV against the attacker's TW, like a dodge.
    Decision: a countermeasure is a device, so no Wild Card die and no criticals or fumbles."""
    weapon = state.ship(pending.attacker).weapon(pending.weapon)
    kind = countermeasure_kind(weapon)
    mv = defender.chaff_mv if kind == "chaff" else defender.mines_mv
    mods = [(COUNTERMEASURE_MV[kind], mv), *defender.pilot.bonus("countermeasures")]
    if dm:
        mods.append((GM_LABEL, dm))
    purpose = msg("wing_commander.roll.countermeasure", "{ship} drops {kind} against {weapon}", ship=defender.name,
                  kind=COUNTERMEASURES[kind], weapon=weapon.name)
    return declare(purpose, RULE_CM, False, tuple(mods), pending.value, special=False)


def table_check(ship: Ship, table: tables.Table, purpose: Message, pilot: Pilot | None = None) -> Check:
    """A table roll: 2W10, or 1W20 for a Wild Card (2.1.7, 2.1.9); no modifiers, no target."""
    who = pilot or ship.pilot
    return declare(purpose, table.section, who.wild_card, (), None, special=False)
