"""The distribution of a Star Wars D6 roll, exact (icepool + Fractions) and in floats (for speed).

``distribution(code, ...)`` is the exact {total: probability} of rolling a code, following
:class:`rulesets.starwars_d6.dice.WildDice` (the dice of every check, :func:`~rulesets.starwars_d6.dice.roll_code`)
rule for rule: caps, the Wild Die's explosion and its first-roll 1.  It is also what a check's
dice give the core (:meth:`~rulesets.starwars_d6.dice.WildDice.naturals`), so
:func:`rulesets.core.check.chances` of a Star Wars check counts these same numbers.

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

The float distributions below the exact ones mirror the rolls step for step (a check's dice,
skill + factor under a cap, a broadside's damage); :mod:`.odds` builds the odds of an action on them.

Pure Python: no Django import.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

import icepool

from rulesets.core import odds as core_odds

from . import tables
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


convolve = core_odds.convolve


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
        one = shift(normal, 1 if cap is None else min(1, cap))   # the 1 counts (capped), no die goes
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


def exact_naturals(dice: int, wild: bool, cap: int | None, complication: str) -> Dist:
    """{natural: probability} of a check's :class:`~rulesets.starwars_d6.dice.WildDice` (the code
    without its pips, which the check adds as a modifier)."""
    return dict(_distribution(dice, 0, bool(wild), cap, complication))


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


# ================================================================ float distributions, as rolled
# For speed (the runner asks for the odds of every legal action on every page render):
# ``(lowest total, (P(lowest), P(lowest + 1), ...))``, built from the exact distributions above
# (each probability within 1e-15 of the exact one after conversion).  Cached on hashable keys --
# a roll is ``(dice, pips, wild, cap, complication)`` (complication "remove" or "add", RULES-NOTES
# Wild Die; read from ``state.complication``, "remove" when a state has none).

FDist = tuple  # (lowest total, tuple of float probabilities)
ONE: FDist = (0, (1.0,))


def code_key(code) -> tuple[int, int]:
    c = DiceCode.parse(code)
    return (c.dice, c.pips)



def roll_key(code, wild: bool, cap: int | None, complication: str = "remove") -> tuple:
    """The key of a code's roll for :func:`roll_fd`."""
    c = DiceCode.parse(code)
    return (c.dice, c.pips, bool(wild), cap, str(complication))


@lru_cache(maxsize=4096)
def roll_fd(dice: int, pips: int, wild: bool, cap: int | None, complication: str = "remove") -> FDist:
    """The float distribution of ``roll_code(code, wild=wild, cap=cap, complication=...)``
    (what the rules roll): the same construction as :func:`_distribution`, in floats (a
    dynamic programme over (sum, highest die) instead of icepool, for speed; the tests check
    it against the exact distribution).  ``complication`` "add": a first-roll 1 counts 1
    (capped), does not explode, and no die is removed."""
    if complication not in ("remove", "add"):
        raise ValueError("complication must be 'remove' or 'add'")
    if not wild or dice == 0:
        lo, ps = _plain_fd(dice, cap)
        return (lo + pips, ps)
    normal = _plain_fd(dice - 1, cap)
    out = fd_conv(normal, _wild_fd(cap))                 # first roll 2-6: weight 5/6
    if complication == "add":
        lo1, ps1 = normal                                # first roll 1: it adds, nothing goes
        one = (lo1 + _face(1, cap), ps1)
    else:
        one = _without_highest_fd(dice - 1, cap)         # first roll 1: it and the highest go
    acc = fd_dict(out)
    for v, p in fd_dict(one).items():
        acc[v] = acc.get(v, 0.0) + p / 6
    lo, hi = min(acc), max(acc)
    return (lo + pips, tuple(acc.get(v, 0.0) for v in range(lo, hi + 1)))


def _face(f: int, cap: int | None) -> int:
    return f if cap is None else min(f, cap)


@lru_cache(maxsize=256)
def _plain_fd(n: int, cap: int | None) -> FDist:
    """n plain dice (no Wild Die), each over ``cap`` counting ``cap``."""
    die: dict[int, float] = {}
    for f in range(1, 7):
        die[_face(f, cap)] = die.get(_face(f, cap), 0.0) + 1 / 6
    lo, hi = min(die), max(die)
    one = (lo, tuple(die.get(v, 0.0) for v in range(lo, hi + 1)))
    out = ONE
    for _ in range(max(0, n)):
        out = fd_conv(out, one)
    return out


@lru_cache(maxsize=256)
def _sum_and_highest(n: int, cap: int | None) -> tuple:
    """((sum, highest counted die), probability) of n plain dice (built from n - 1)."""
    if n <= 0:
        return (((0, 0), 1.0),)
    nxt: dict[tuple[int, int], float] = {}
    for (s, m), p in _sum_and_highest(n - 1, cap):
        for f in range(1, 7):
            v = _face(f, cap)
            k = (s + v, max(m, v))
            nxt[k] = nxt.get(k, 0.0) + p / 6
    return tuple(nxt.items())


@lru_cache(maxsize=256)
def _without_highest_fd(n: int, cap: int | None) -> FDist:
    """n plain dice with the highest (counted) removed."""
    if n <= 1:
        return ONE
    acc: dict[int, float] = {}
    for (s, m), p in _sum_and_highest(n, cap):
        acc[s - m] = acc.get(s - m, 0.0) + p
    lo, hi = min(acc), max(acc)
    return (lo, tuple(acc.get(v, 0.0) for v in range(lo, hi + 1)))


@lru_cache(maxsize=64)
def _wild_fd(cap: int | None) -> FDist:
    d = {v: float(p) for v, p in wild_die(cap).items()}
    lo, hi = min(d), max(d)
    return (lo, tuple(d.get(v, 0.0) for v in range(lo, hi + 1)))


def fd_conv(a: FDist, b: FDist) -> FDist:
    """The distribution of A + B (independent)."""
    (a0, ap), (b0, bp) = a, b
    if len(ap) < len(bp):
        (a0, ap), (b0, bp) = (b0, bp), (a0, ap)
    m = len(bp)
    out = [0.0] * (len(ap) + m - 1)
    for j, q in enumerate(bp):
        if q:
            out[j:j + len(ap)] = [o + q * p for o, p in zip(out[j:j + len(ap)], ap)]
    return (a0 + b0, tuple(out))


def fd_neg(a: FDist) -> FDist:
    lo, ps = a
    return (-(lo + len(ps) - 1), tuple(reversed(ps)))


def fd_dict(a: FDist) -> dict[int, float]:
    lo, ps = a
    return {lo + i: p for i, p in enumerate(ps) if p}


def _cdf(a: FDist) -> tuple[int, list[float]]:
    """(lowest, F) with F[i] = P(A <= lowest + i)."""
    lo, ps = a
    out, run = [], 0.0
    for p in ps:
        run += p
        out.append(run)
    return lo, out


def _cdf_at(cdf, x: int) -> float:
    lo, f = cdf
    if x < lo:
        return 0.0
    i = x - lo
    return 1.0 if i >= len(f) else min(1.0, f[i])


def fd_at_least(a: FDist, b: FDist) -> float:
    """P(A >= B)."""
    cdf = _cdf(b)
    lo, ps = a
    return min(1.0, sum(p * _cdf_at(cdf, lo + i) for i, p in enumerate(ps) if p))


def fd_greater(a: FDist, b: FDist) -> float:
    """P(A > B)."""
    cdf = _cdf(b)
    lo, ps = a
    return min(1.0, sum(p * _cdf_at(cdf, lo + i - 1) for i, p in enumerate(ps) if p))


@lru_cache(maxsize=4096)
def skill_factor_fd(skill: tuple[int, int], factor: tuple[int, int], cap: int | None, wild: bool,
                    complication: str = "remove") -> FDist:
    """Exactly :func:`rulesets.starwars_d6.rules.roll_skill_and_factor`: no cap -- one roll of
    skill + factor; a cap -- the skill with the Wild Die (uncapped) plus the factor capped,
    the Wild Die going to the factor only when the skill has no dice."""
    sd, sp = skill
    fd_, fp = factor
    if cap is None:
        total = DiceCode(sd, sp) + DiceCode(fd_, fp)
        return roll_fd(total.dice, total.pips, wild, None, complication)
    out = ONE
    if sd * 3 + sp:
        out = roll_fd(sd, sp, wild, None, complication)
    if fd_ * 3 + fp:
        out = fd_conv(out, roll_fd(fd_, fp, wild and sd == 0, cap, complication))
    return out


@lru_cache(maxsize=64)
def broadside_hits_dist(shots: int) -> tuple[tuple[int, Fraction], ...]:
    """Exactly :func:`rulesets.starwars_d6.rules.broadside_hits`: {hits: probability} of a
    broadside of ``shots`` guns that hit (seed "Factors de Foc" + RULES-NOTES)."""
    if shots < 1:
        raise ValueError("a broadside has at least one shot")
    groups = [6] * (shots // 6) + ([shots % 6] if shots % 6 else [])
    out: Dist = {0: Fraction(1)}
    for n in groups:
        table = tables.FIRE_FACTORS[n]
        if n == 1:
            g = {1: Fraction(1)}
        else:
            faces = [f for f in range(1, 7) if f not in table["reroll"]]
            g: Dist = {}
            for f in faces:
                h = table["hits"][f]
                g[h] = g.get(h, 0) + Fraction(1, len(faces))
        out = convolve(out, g)
    return tuple(sorted(out.items()))


@lru_cache(maxsize=1024)
def _nfold(roll: tuple, n: int) -> FDist:
    if n <= 0:
        return ONE
    if n == 1:
        return roll_fd(*roll)
    return fd_conv(_nfold(roll, n - 1), roll_fd(*roll))


@lru_cache(maxsize=1024)
def damage_total_fd(roll: tuple, shots: int) -> FDist:
    """The damage of a hit: ``shots`` = 1 one roll; a broadside -- the fire factor's hits, each
    hit's damage rolled and summed (rules.fire)."""
    if shots <= 1:
        return roll_fd(*roll)
    acc: dict[int, float] = {}
    for h, p in broadside_hits_dist(shots):
        for v, q in fd_dict(_nfold(roll, h)).items():
            acc[v] = acc.get(v, 0.0) + float(p) * q
    lo, hi = min(acc), max(acc)
    return (lo, tuple(acc.get(v, 0.0) for v in range(lo, hi + 1)))
