"""Every roll of a dogfight declared once: who rolls, which dice, which modifiers, against what.

The action list, ``apply`` (through :func:`roll`), the odds and the log line all read the
same :class:`Check`.  Sections: 2.1.4 Der Angriffswurf, 2.1.5 Der Ausweichwurf,
2.1.7 Der Erstschadenswurf, 2.1.9 Kritische Treffer...; RULES-NOTES wing_commander.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rulesets.core.citation import cite
from rulesets.core.dice import Roll

from . import tables
from .model import DogfightState, PendingAttack, Pilot, Ship, Weapon

# The rules cited in the log: English headings, the German ones on hover (rulesets/core/citation.py).
RULE_ATTACK = cite("2.1.4 The attack roll", "2.1.4 Der Angriffswurf")
RULE_DODGE = cite("2.1.5 The dodge roll", "2.1.5 Der Ausweichwurf")
RULE_CM = cite("Countermeasures", "2.1.5 Der Ausweichwurf", ruling=True)
RULE_FIRST = cite("2.1.7 The first-damage roll", "2.1.7 Der Erstschadenswurf")
RULE_CRIT = cite("2.1.9 Critical hits", "2.1.9 Kritische Treffer")
RULE_FUMBLE = cite("2.1.9 Fumbles", "2.1.9 Der Patzer")

CRITICAL, SUCCESS, FAILURE, FUMBLE = "critical", "success", "failure", "fumble"
WORDS = {CRITICAL: "critical", SUCCESS: "success", FAILURE: "failure", FUMBLE: "fumble"}


@dataclass(frozen=True)
class Check:
    """One roll: 2W10 (1W20 for a Wild Card) plus named modifiers against a target value.

    ``target`` None is an opposed attack: its total is what the defender must reach.
    ``special`` says whether natural results count (criticals 19-20, fumbles: RULES-NOTES).
    """

    purpose: str
    rule: str
    wild_card: bool = False
    modifiers: tuple[tuple[str, int], ...] = ()
    target: int | None = None
    special: bool = True

    @property
    def dice(self) -> tuple[int, int]:
        return (1, 20) if self.wild_card else (2, 10)

    @property
    def dice_text(self) -> str:
        return "1W20" if self.wild_card else "2W10"

    @property
    def bonus(self) -> int:
        return sum(v for _, v in self.modifiers)

    def result(self, natural: int) -> str:
        """The outcome of a natural result (RULES-NOTES: fumble 2-3 on 2W10, 1-3 on 1W20; critical 19-20)."""
        if self.special and natural >= 19:
            return CRITICAL
        if self.special and natural <= 3:
            return FUMBLE
        if self.target is None or natural + self.bonus >= self.target:
            return SUCCESS
        return FAILURE


@dataclass(frozen=True)
class Rolled:
    natural: int
    total: int
    result: str

    @property
    def succeeded(self) -> bool:
        return self.result in (CRITICAL, SUCCESS)


def roll(dice, check: Check, table: tables.Table | None = None) -> Rolled:
    """Roll ``check`` through ``dice``; record the roll (with its outcome, or the table row, in words)
    when recording."""
    count, sides = check.dice
    faces = dice.faces(count, sides, check.purpose, check.rule)
    natural = sum(faces)
    total = natural + check.bonus
    outcome = check.result(natural)
    if dice.recording:
        mods = tuple((name, value) for name, value in check.modifiers if value)
        if table is not None:
            row = table.lookup(natural)
            against, words = table.name, f"{row.band} {row.title}"
        else:
            against = "against the attack total" if check.target is None else f"vs {check.target}"
            words = outcome_words(outcome, natural)
        dice.record(Roll(f"{count}d{sides}", tuple(faces), mods, total, check.purpose, check.rule,
                         table=against, row=words))
    return Rolled(natural, total, outcome)


def outcome_words(outcome: str, natural: int) -> str:
    if outcome == CRITICAL:
        return f"natural {natural}: critical, always succeeds"
    if outcome == FUMBLE:
        return f"natural {natural}: fumble, always fails"
    return WORDS[outcome]


# --- exact chances of a check (the same declaration) ---------------------------------------

@lru_cache(maxsize=None)
def naturals(wild_card: bool) -> tuple[tuple[int, Fraction], ...]:
    """(natural result, probability) of 2W10 or 1W20, by enumerating the faces."""
    if wild_card:
        return tuple((n, Fraction(1, 20)) for n in range(1, 21))
    counts: dict[int, int] = {}
    for a in range(1, 11):
        for b in range(1, 11):
            counts[a + b] = counts.get(a + b, 0) + 1
    return tuple((n, Fraction(c, 100)) for n, c in sorted(counts.items()))


@lru_cache(maxsize=4096)
def chance_table(wild_card: bool, bonus: int, target: int | None, special: bool) -> tuple[tuple[str, Fraction], ...]:
    probe = Check("", "", wild_card, (("", bonus),), target, special)
    out = {CRITICAL: Fraction(0), SUCCESS: Fraction(0), FAILURE: Fraction(0), FUMBLE: Fraction(0)}
    for natural, p in naturals(wild_card):
        out[probe.result(natural)] += p
    return tuple(out.items())


def chances(check: Check) -> dict[str, Fraction]:
    """{critical, success, failure, fumble: probability} of ``check``."""
    return dict(chance_table(check.wild_card, check.bonus, check.target, check.special))


# --- the declarations ---------------------------------------------------------------------

def pilot_for(ship: Ship, weapon: Weapon) -> Pilot:
    """A turret is worked by its gunner when the ship has one, otherwise by the pilot."""
    if weapon.kind == "turret" and ship.gunner is not None:
        return ship.gunner
    return ship.pilot


WEAPON_MODIFIER = {"gun": "guns", "turret": "guns", "missile": "missiles", "torpedo": "torpedoes"}


def attack_modifiers(ship: Ship, weapon: Weapon, dm: int = 0) -> tuple[tuple[str, int], ...]:
    """2.1.4 a)-e): ship MV (guns only), skills and advantages, the weapon's own MV, component damage.
    A failed gun alignment (2.1.8, 13-15: "Alle Geschützangriffe ... um 2 reduziert") costs the guns and
    the turret 2: a turret's fire is gun fire, as for the mines, the dodge and the fumble table (decision)."""
    mods: list[tuple[str, int]] = []
    if weapon.kind == "gun":
        mods.append(("ship MV", ship.mv))
        if ship.thrusters:
            mods.append(("damaged thrusters", -ship.thrusters))
    elif weapon.kind in ("missile", "torpedo"):
        mods.append((f"{weapon.name} MV", weapon.mv))
    if ship.gun_alignment and weapon.kind in ("gun", "turret"):
        mods.append(("gun alignment failed", -2))
    mods.extend(pilot_for(ship, weapon).bonus("attack", WEAPON_MODIFIER[weapon.kind]))
    if dm:
        mods.append(("GM", dm))
    return tuple(mods)


def attacker_rolls(attacker: Ship, target: Ship) -> bool:
    """Who rolls the attack: a character (or an NPC the GM rolls for) always; an NPC represented
    by its TW only against a target that does not roll either (decision: the GM rolls for it)."""
    return attacker.rolls or not target.rolls


def attack_check(attacker: Ship, weapon: Weapon, target: Ship, dm: int = 0) -> Check | None:
    """The attack roll, or None when the NPC attacker is represented by its TW (2.1.5)."""
    if not attacker_rolls(attacker, target):
        return None
    purpose = f"{attacker.name} attacks {target.name} with {weapon.name}"
    # Against a target that dodges, the attack total is what the dodge must reach (opposed).
    against = None if target.rolls else target.tw
    return Check(purpose, RULE_ATTACK, pilot_for(attacker, weapon).wild_card,
                 attack_modifiers(attacker, weapon, dm), against)


def tw_number(attacker: Ship, weapon: Weapon) -> int:
    """What an NPC attack represented by its TW sets the defence: its TW, or 11 +/- MV of a missile
    or torpedo (2.1.5 d, RULES-NOTES)."""
    if weapon.kind in ("missile", "torpedo"):
        return tables.MISSILE_DODGE_BASE + weapon.mv
    return attacker.tw


def tw_value(attacker: Ship, weapon: Weapon) -> tuple[int, str]:
    """:func:`tw_number` and where it comes from, in words."""
    if weapon.kind in ("missile", "torpedo"):
        return tw_number(attacker, weapon), f"11 {'+' if weapon.mv >= 0 else '-'} {abs(weapon.mv)} ({weapon.name} MV)"
    return tw_number(attacker, weapon), f"{attacker.name}'s TW"


def dodge_modifiers(state: DogfightState, defender: Ship, pending: PendingAttack, dm: int = 0):
    """2.1.5 a)-e): the ship's MV against gun attacks, skills and advantages, component damage,
    and a critical dodge's +1 against that enemy this round (2.1.9)."""
    return dodge_modifiers_against(defender, pending.attacker, state.ship(pending.attacker).weapon(pending.weapon), dm)


def dodge_modifiers_against(defender: Ship, attacker_id: str, weapon: Weapon, dm: int = 0):
    mods: list[tuple[str, int]] = []
    if weapon.kind in ("gun", "turret"):
        mods.append(("ship MV", defender.mv))
        if defender.thrusters:
            mods.append(("damaged thrusters", -defender.thrusters))
    targets = ("dodge", "dodge_missiles") if weapon.kind in ("missile", "torpedo") else ("dodge",)
    mods.extend(defender.pilot.bonus(*targets))
    if attacker_id in defender.evaded:
        mods.append(("critical dodge this round", 1))
    if dm:
        mods.append(("GM", dm))
    return tuple(mods)


def dodge_check(state: DogfightState, defender: Ship, pending: PendingAttack, dm: int = 0) -> Check:
    attacker = state.ship(pending.attacker)
    weapon = attacker.weapon(pending.weapon)
    return Check(f"{defender.name} dodges {attacker.name}'s {weapon.name}", RULE_DODGE, defender.wild_card,
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
    mods = [(f"{kind} MV", mv), *defender.pilot.bonus("countermeasures")]
    if dm:
        mods.append(("GM", dm))
    return Check(f"{defender.name} drops {kind} against {weapon.name}", RULE_CM, False, tuple(mods),
                 pending.value, special=False)


def table_check(ship: Ship, table: tables.Table, purpose: str, pilot: Pilot | None = None) -> Check:
    """A table roll: 2W10, or 1W20 for a Wild Card (2.1.7, 2.1.9); no modifiers, no target."""
    who = pilot or ship.pilot
    return Check(purpose, table.section, who.wild_card, (), None, special=False)
