"""Exact odds of every roll of a dogfight, read from the same declarations as ``apply``.

Before an attack the GM sees: the chance to hit, to hit critically and to fumble; the
countermeasure and dodge the target will get; and where the damage goes (shields,
hull, destroyed).  Sums over 2W10/1W20 by enumeration of their naturals (rulesets.core.check)
and damage dice through icepool (rulesets.core.odds).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulesets.core import odds as core_odds
from rulesets.core.engine import Odds, Outcome
from rulesets.core.messages import Message, msg, chain

from . import checks
from .state import DogfightState, PendingAttack, Ship, Weapon

LANDS_ONCE, LANDS_TWICE = "hit", "critical hit"
HEAVY = "hit, damage rolled twice (dodge fumble)"


def _probe(wild_card: bool, bonus: int, target: int | None) -> dict[str, Fraction]:
    """The chances of a check with this dice, total modifier and target (checks.declare, checks.chances)."""
    return checks.chances(checks.declare("", "", wild_card, (("", bonus),), target))


@lru_cache(maxsize=8192)
def _opposed(att_wild: bool, att_bonus: int, def_wild: bool, def_bonus: int) -> tuple:
    """An attack rolled against a dodge that must reach its total (or against nothing): the chances
    of fumble, miss, hit, a heavy hit from a dodge fumble, and a critical hit."""
    out = {"fumble": Fraction(0), "miss": Fraction(0), LANDS_ONCE: Fraction(0), HEAVY: Fraction(0), LANDS_TWICE: Fraction(0)}
    attack = checks.declare("", "", att_wild, (("", att_bonus),), None)
    for natural, p in attack.throw.naturals().items():
        result = attack.resolve(natural)
        if result.outcome == checks.FUMBLE:
            out["fumble"] += p
            continue
        if result.outcome == checks.CRITICAL:
            out[LANDS_TWICE] += p
            continue
        dodge = _probe(def_wild, def_bonus, result.total)
        out["miss"] += p * (dodge[checks.SUCCESS] + dodge[checks.CRITICAL])
        out[LANDS_ONCE] += p * dodge[checks.FAILURE]
        out[HEAVY] += p * dodge[checks.FUMBLE]
    return tuple(out.items())


def attack_side(attacker: Ship, weapon: Weapon, dm: int = 0) -> tuple[bool, int]:
    """(Wild Card?, total modifier) of the attack roll: checks.attack_modifiers, summed."""
    return checks.pilot_for(attacker, weapon).wild_card, sum(v for _, v in checks.attack_modifiers(attacker, weapon, dm))


def defence_side(target: Ship, attacker_id: str, weapon: Weapon) -> tuple[bool, int]:
    """(Wild Card?, total modifier) of the target's dodge: checks.dodge_modifiers_against, summed."""
    return target.wild_card, sum(v for _, v in checks.dodge_modifiers_against(target, attacker_id, weapon))


def combine(attacker: Ship, weapon: Weapon, target: Ship, attack: tuple, defence: tuple) -> tuple:
    """What the chances of an attack depend on, as a hashable key (who rolls: checks.attacker_rolls)."""
    if checks.attacker_rolls(attacker, target):
        if not target.rolls:
            return ("tw", attack[0], attack[1], target.tw)
        return ("opposed", attack[0], attack[1], defence[0], defence[1])
    return ("dodge", defence[0], defence[1], checks.tw_number(attacker, weapon))


def attack_key(state: DogfightState, attacker: Ship, weapon: Weapon, target: Ship, dm: int = 0) -> tuple:
    """The key of an attack's chances: the same modifiers as the checks ``apply`` rolls
    (checks.attack_check, checks.dodge_check), without building their words."""
    return combine(attacker, weapon, target, attack_side(attacker, weapon, dm), defence_side(target, attacker.id, weapon))


@lru_cache(maxsize=8192)
def chances_of(key: tuple) -> tuple[tuple[str, Fraction], ...]:
    zero = Fraction(0)
    if key[0] == "tw":
        c = _probe(key[1], key[2], key[3])
        return (("fumble", c[checks.FUMBLE]), ("miss", c[checks.FAILURE]), (LANDS_ONCE, c[checks.SUCCESS]),
                (HEAVY, zero), (LANDS_TWICE, c[checks.CRITICAL]))
    if key[0] == "dodge":
        c = _probe(key[1], key[2], key[3])
        return (("fumble", zero), ("miss", c[checks.SUCCESS] + c[checks.CRITICAL]), (LANDS_ONCE, c[checks.FAILURE]),
                (HEAVY, c[checks.FUMBLE]), (LANDS_TWICE, zero))
    return _opposed(*key[1:])


@lru_cache(maxsize=8192)
def landing(key: tuple) -> tuple[float, float]:
    """(chance the hit lands once, chance it lands with damage rolled twice), as floats for the bot."""
    c = dict(chances_of(key))
    return float(c[LANDS_ONCE]), float(c[LANDS_TWICE] + c[HEAVY])


def attack_chances(state: DogfightState, attacker: Ship, weapon: Weapon, target: Ship, dm: int = 0) -> dict[str, Fraction]:
    """fumble, miss, hit, heavy hit, critical hit: the attack roll and, if the target dodges, its dodge
    (assuming no countermeasure: that chance is shown on its own)."""
    return dict(chances_of(attack_key(state, attacker, weapon, target, dm)))


@lru_cache(maxsize=4096)
def damage_distribution(count: int, sides: int, bonus: int, times: int, halved: bool) -> tuple[tuple[int, Fraction], ...]:
    """{damage: probability} of a weapon's dice rolled ``times`` times and added (each roll at least 0)."""
    once = {max(0, v): Fraction(0) for v in core_odds.distribution(count, sides, bonus)}
    for v, p in core_odds.distribution(count, sides, bonus).items():
        once[max(0, v)] += p
    total = {0: Fraction(1)}
    for _ in range(times):
        nxt: dict[int, Fraction] = {}
        for a, pa in total.items():
            for b, pb in once.items():
                nxt[a + b] = nxt.get(a + b, Fraction(0)) + pa * pb
        total = nxt
    if halved:
        halves: dict[int, Fraction] = {}
        for v, p in total.items():
            halves[v // 2] = halves.get(v // 2, Fraction(0)) + p
        total = halves
    return tuple(sorted(total.items()))


def through_shields(weapon: Weapon, times: int, target: Ship) -> dict[str, Fraction]:
    """Where a hit's damage goes: shields only, the hull, or the ship destroyed."""
    out = {"shields only": Fraction(0), "hull": Fraction(0), "destroyed": Fraction(0)}
    for amount, p in damage_distribution(weapon.count, weapon.sides, weapon.bonus, times, weapon.halved):
        if amount >= target.shields + target.hull:
            out["destroyed"] += p
        elif amount > target.shields:
            out["hull"] += p
        else:
            out["shields only"] += p
    return out


def _damage_words(weapon: Weapon, hull, destroyed) -> Message:
    return msg("wing_commander.odds.damage", "{weapon} ({dice}): through to the hull {hull}, destroyed {destroyed}",
               weapon=weapon.name, dice=weapon.code, hull=core_odds.percent(hull), destroyed=core_odds.percent(destroyed))


def joined(parts: list, ident: str = "wing_commander.odds.then", text: str = "{first}; {then}") -> Message:
    """Parts of the odds in words, one after the other ("critical 5%, fumble 2%; B dodges the
    total; ..."): each pair a message, so each language chooses its own separator."""
    return chain(parts, ident, text)


def _critical_words(critical, fumble) -> Message:
    return msg("wing_commander.odds.critical", "critical {critical}, fumble {fumble}",
               critical=core_odds.percent(critical), fumble=core_odds.percent(fumble))


def attack_odds(state: DogfightState, attacker: Ship, weapon: Weapon, target: Ship, dm: int = 0) -> Odds:
    """The chances of an attack in words: one short line, the chance to hit (what the runner shows
    beside the button); the rest on demand (``detail``): the critical and the fumble when the
    attacker rolls, the countermeasure and the dodge the target will get, where the damage goes."""
    c = attack_chances(state, attacker, weapon, target, dm)
    once = through_shields(weapon, 1, target)
    twice = through_shields(weapon, 2, target)
    lands1 = c[LANDS_ONCE]
    lands2 = c[LANDS_TWICE] + c[HEAVY]
    hull = lands1 * (once["hull"] + once["destroyed"]) + lands2 * (twice["hull"] + twice["destroyed"])
    destroyed = lands1 * once["destroyed"] + lands2 * twice["destroyed"]
    pct = core_odds.percent
    rolls = checks.attacker_rolls(attacker, target)
    parts = []
    if rolls:
        summary = msg("wing_commander.odds.hit", "hit {hit}", hit=pct(lands1 + lands2))
        parts.append(_critical_words(c[LANDS_TWICE], c["fumble"]))
    else:
        summary = msg("wing_commander.odds.hit_if_dodges", "hit {hit} if it only dodges", hit=pct(lands1 + lands2))
    parts.append(defence_words(state, attacker, weapon, target))
    parts.append(_damage_words(weapon, hull, destroyed))
    outcomes = tuple(Outcome(label, float(p)) for label, p in c.items())
    return Odds(outcomes, summary, joined(parts))


def with_turret(state: DogfightState, attacker: Ship, turret: Weapon, target: Ship, main: Odds) -> Odds:
    """The odds of the guns or the missile, and in words the turret joining the action (2.1.3): its
    own roll, its own defence (D6)."""
    c = attack_chances(state, attacker, turret, target)
    lands = c[LANDS_ONCE] + c[LANDS_TWICE] + c[HEAVY]
    joins = msg("wing_commander.odds.turret_joins", "{turret} joins: hit {hit} (critical {critical}), {dice}",
                turret=turret.name, hit=core_odds.percent(lands), critical=core_odds.percent(c[LANDS_TWICE]),
                dice=turret.code)
    return Odds(main.outcomes, main.summary, joined([main.detail, joins]) if main.detail else joins)


def defence_words(state: DogfightState, attacker: Ship, weapon: Weapon, target: Ship) -> Message:
    """The countermeasure and the dodge the target will get."""
    if not target.rolls:
        return msg("wing_commander.odds.vs_tw", "needs {tw} ({target}'s TW)", tw=target.tw, target=target.name)
    words = []
    kind = checks.countermeasure_kind(weapon)
    stock = target.chaff if kind == "chaff" else target.mines if kind == "mines" else 0
    if not attacker.rolls:
        value = checks.tw_value(attacker, weapon)[0]
        probe = PendingAttack(attacker.id, target.id, weapon.id, value)
        dodge = checks.chances(checks.dodge_check(state, target, probe))
        words.append(msg("wing_commander.odds.must_reach", "{target} must reach {value}: dodges {dodge}",
                         target=target.name, value=value,
                         dodge=core_odds.percent(dodge[checks.SUCCESS] + dodge[checks.CRITICAL])))
        if stock:
            cm = checks.chances(checks.countermeasure_check(state, target, probe))
            words.append(msg("wing_commander.odds.countermeasure_first", "{kind} ({stock} left) stop it first {p}",
                             kind=checks.COUNTERMEASURES[kind], stock=stock, p=core_odds.percent(cm[checks.SUCCESS])))
    else:
        words.append(msg("wing_commander.odds.dodges_total", "{target} dodges the total", target=target.name))
        if stock:
            words.append(msg("wing_commander.odds.may_drop", "may drop {kind} first ({stock} left)",
                             kind=checks.COUNTERMEASURES[kind], stock=stock))
    return joined(words, "wing_commander.odds.and", "{first}, {then}")


def defence_odds(state: DogfightState, kind: str, dm: int = 0) -> Odds:
    pending = state.pending[0]
    defender = state.ship(pending.target)
    if kind == "countermeasure":
        c = checks.chances(checks.countermeasure_check(state, defender, pending, dm))
        p = c[checks.SUCCESS]
        return core_odds.pass_fail(p, msg("wing_commander.odds.stop", "{p} to stop the attack (needs {value})",
                                          p=core_odds.percent(p), value=pending.value), "stopped", "failed")
    c = checks.chances(checks.dodge_check(state, defender, pending, dm))
    if pending.critical:
        outcomes = (Outcome("critical dodge (+1 this round), the hit stands", float(c[checks.CRITICAL])),
                    Outcome("hit, damage rolled twice", float(1 - c[checks.CRITICAL])))
        return Odds(outcomes, msg("wing_commander.odds.critical_stands", "a critical hit stands whatever the dodge"))
    outcomes = (Outcome("critical dodge", float(c[checks.CRITICAL])), Outcome("dodged", float(c[checks.SUCCESS])),
                Outcome("hit", float(c[checks.FAILURE])), Outcome(HEAVY, float(c[checks.FUMBLE])))
    escape = c[checks.CRITICAL] + c[checks.SUCCESS]
    return Odds(outcomes, msg("wing_commander.odds.dodge", "{p} to dodge (needs {value})", p=core_odds.percent(escape),
                              value=pending.value),
                _critical_words(c[checks.CRITICAL], c[checks.FUMBLE]))
