"""Exact odds of Star Wars D6 rolls, with and without the Wild Die (icepool + Fractions).

``distribution(code, ...)`` is the exact {total: probability} of rolling a code,
following :func:`rulesets.starwars_d6.dice.roll_code` rule for rule (caps, the
Wild Die's explosion and its first-roll 1).

Truncation: the Wild Die explodes without limit.  Here it is rolled again at most
``EXPLODE_DEPTH`` (15) times; on the last reroll a 6 counts as 6 (capped) and is
not rolled again.  The probabilities still sum to exactly 1, and the truncated
case (a first 6 followed by 15 more sixes) has probability 6**-16 < 3.6e-13, so no
probability here is off by as much as 1e-12.

Opposed rolls and their tie rules, as the seed text words them:

* to hit (seed "2. COMBAT", step 3): hit when attack >= evasion -> :func:`p_at_least`;
* shields (step 5): damage gets through only when damage > shields -> :func:`p_greater`;
* hull (section "5. DETERMINANT ELS DANYS", RULES-NOTES): a band when through >= hull
  -> :func:`p_at_least`;
* ion cannons ("Canons d'ions"): effect when damage >= hull -> :func:`p_at_least`;
* ramming ("Col·lisions premeditades", step 3): the target avoids only when it
  *exceeds* the rammer, so the ram succeeds on rammer >= target -> :func:`p_at_least`;
* tractor beams ("Raigs tractors"): free only when hull > strength -> :func:`p_greater`.

Pure Python: no Django import.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import icepool

from .dice import DiceCode

EXPLODE_DEPTH = 15  # rerolls of the Wild Die; 6**-(EXPLODE_DEPTH + 1) < 1e-12
SIXTH = Fraction(1, 6)

Dist = dict[int, Fraction]


def _die(cap: int | None) -> icepool.Die:
    d6 = icepool.d6
    return d6 if cap is None else d6.map(lambda x: min(x, cap))


def _to_dist(die: icepool.Die) -> Dist:
    denom = die.denominator()
    return {int(v): Fraction(q, denom) for v, q in die.items()}


@lru_cache(maxsize=512)
def _sum(n: int, cap: int | None) -> tuple:
    if n <= 0:
        return ((0, Fraction(1)),)
    return tuple(sorted(_to_dist(n @ _die(cap)).items()))


@lru_cache(maxsize=512)
def _sum_without_highest(n: int, cap: int | None) -> tuple:
    """n dice with the highest removed (a Wild Die 1 removes it)."""
    if n <= 1:
        return ((0, Fraction(1)),)
    return tuple(sorted(_to_dist(_die(cap).pool(n).lowest(n - 1).sum()).items()))


def convolve(a: Dist, b: Dist) -> Dist:
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, 0) + p * q
    return out


def shift(a: Dist, k: int) -> Dist:
    return {x + k: p for x, p in a.items()}


@lru_cache(maxsize=64)
def _explosion(cap: int | None, depth: int) -> tuple:
    """The Wild Die rolled again after a natural 6: a 6 counts (capped) and rolls again."""
    six = 6 if cap is None else min(6, cap)
    if depth <= 0:
        return tuple(sorted(_to_dist(_die(cap)).items()))
    rest = dict(_explosion(cap, depth - 1))
    out: Dist = {}
    for face in range(1, 6):
        v = face if cap is None else min(face, cap)
        out[v] = out.get(v, 0) + SIXTH
    for v, p in rest.items():
        out[v + six] = out.get(v + six, 0) + SIXTH * p
    return tuple(sorted(out.items()))


def wild_die(cap: int | None = None, depth: int = EXPLODE_DEPTH) -> Dist:
    """The Wild Die's own value when its first roll is not a 1 (weights sum to 5/6)."""
    six = 6 if cap is None else min(6, cap)
    out: Dist = {}
    for face in range(2, 6):
        v = face if cap is None else min(face, cap)
        out[v] = out.get(v, 0) + SIXTH
    for v, p in _explosion(cap, depth - 1):
        out[v + six] = out.get(v + six, 0) + SIXTH * p
    return out


@lru_cache(maxsize=1024)
def _distribution(dice: int, pips: int, wild: bool, cap: int | None, complication: str) -> tuple:
    if not wild or dice == 0:
        return tuple(sorted(shift(dict(_sum(dice, cap)), pips).items()))
    normal = dict(_sum(dice - 1, cap))
    out = convolve(normal, wild_die(cap))  # first roll 2-6: weight 5/6
    if complication == "add":
        one = shift(normal, 1)
    else:
        one = dict(_sum_without_highest(dice - 1, cap))
    for v, p in one.items():
        out[v] = out.get(v, 0) + SIXTH * p
    return tuple(sorted(shift(out, pips).items()))


def distribution(code, *, wild: bool = True, cap: int | None = None, complication: str = "remove") -> Dist:
    """{total: probability} of rolling ``code`` (see the module doc for the truncation)."""
    c = DiceCode.parse(code)
    if complication not in ("remove", "add"):
        raise ValueError("complication must be 'remove' or 'add'")
    return dict(_distribution(c.dice, c.pips, bool(wild), cap, complication))


def mean(dist: Dist) -> Fraction:
    return sum(v * p for v, p in dist.items())


def _compare(a: Dist, b: Dist, strict: bool) -> Fraction:
    bs = sorted(b.items())
    total = Fraction(0)
    for x, p in a.items():
        q = sum(pb for y, pb in bs if (y < x if strict else y <= x))
        total += p * q
    return total


def p_at_least(a: Dist, b: Dist) -> Fraction:
    """P(A >= B): ties go to A (to hit, hull bands, ion cannons, ramming)."""
    return _compare(a, b, strict=False)


def p_greater(a: Dist, b: Dist) -> Fraction:
    """P(A > B): ties go to B (damage through shields, breaking a tractor beam)."""
    return _compare(a, b, strict=True)


def difference(a: Dist, b: Dist) -> Dist:
    """{A - B: probability} of two independent rolls (damage through shields, hull margin)."""
    out: Dist = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x - y] = out.get(x - y, 0) + p * q
    return out


def opposed(attack, defence, *, ties: str = "attacker", wild: bool = True,
            attack_cap: int | None = None, defence_cap: int | None = None,
            complication: str = "remove") -> Fraction:
    """P(the attacker wins) for two codes; ``ties``: "attacker" (>=) or "defender" (>)."""
    a = distribution(attack, wild=wild, cap=attack_cap, complication=complication)
    d = distribution(defence, wild=wild, cap=defence_cap, complication=complication)
    if ties == "attacker":
        return p_at_least(a, d)
    if ties == "defender":
        return p_greater(a, d)
    raise ValueError("ties must be 'attacker' or 'defender'")


def hit_chance(gunnery_plus_fire_control, piloting_plus_maneuverability, **kw) -> Fraction:
    """Seed "2. COMBAT" step 3: a hit when the attack roll >= the evasion roll."""
    return opposed(gunnery_plus_fire_control, piloting_plus_maneuverability, ties="attacker", **kw)
