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

The odds of a whole shot as rules.py rolls it (to hit with the scale caps, then the damage
bands, ion results or a capture), of a ram and of breaking free are below the exact building
blocks: :func:`shot`, :func:`shot_odds`, :func:`action_odds` (the engine's ``odds``).

Pure Python: no Django import.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import icepool

from rulesets.core.engine import Odds, Outcome

from . import rules, tables
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


# ================================================================ the odds of a shot, as rolled
# Float distributions for speed (the runner asks for the odds of every legal action on every
# page render): ``(lowest total, (P(lowest), P(lowest + 1), ...))``, built from the exact
# distributions above (each probability within 1e-15 of the exact one after conversion).
# Every function below mirrors a function of rules.py step for step; they are cached on
# hashable keys -- a roll is ``(dice, pips, wild, cap, complication)`` (complication "remove" or
# "add", RULES-NOTES Wild Die; read from ``state.complication``, "remove" when a state has none).

FDist = tuple  # (lowest total, tuple of float probabilities)
ONE: FDist = (0, (1.0,))

#: The outcome bands of a damaging hit (seed "5. DETERMINANT ELS DANYS"), mildest first.
BANDS = ("none", "shields_blown", "light", "considerable", "severe", "destroyed")
BAND_LABEL = {"none": "hit, no damage", "shields_blown": "hit, shields blown",
              "controls_ionised": "hit, controls ionised", "light": "hit, light damage",
              "considerable": "hit, considerable damage", "severe": "hit, severe damage",
              "destroyed": "hit, destroyed"}
#: The ion-table results (seed "3. CASOS ESPECIALS: Canons d'ions"): 0 = no effect,
#: 1-4 controls ionised, 5 = controls destroyed.
ION_RESULTS = (0, 1, 2, 3, 4, 5)
ION_LABEL = {0: "hit, no effect", 1: "hit, 1 control ionised", 2: "hit, 2 controls ionised",
             3: "hit, 3 controls ionised", 4: "hit, 4 controls ionised", 5: "hit, controls destroyed"}
CAPTURED = "captured"
MISS = "miss"


def _key(code) -> tuple[int, int]:
    c = DiceCode.parse(code)
    return (c.dice, c.pips)


def complication_of(state) -> str:
    """The state's Wild-Die choice for a first-roll 1 (RULES-NOTES): "remove" or "add"."""
    c = getattr(state, "complication", "remove") or "remove"
    if c not in ("remove", "add"):
        raise ValueError("complication must be 'remove' or 'add'")
    return c


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


@lru_cache(maxsize=4096)
def damage_bands(damage: FDist, shields: FDist | None, hull: FDist, severe: bool) -> tuple[tuple[str, float], ...]:
    """{band: P(band)} of one damage total on a ship -- exactly rules.apply_damage: shields
    (when rolled) equal or more stop it, through = damage - shields; the band is read on
    (through - hull) >= 0; a severely damaged ship is destroyed by a light, considerable or
    severe result.  ``none``: the shields stop it or the hull holds."""
    probs = dict.fromkeys(BANDS, 0.0)
    if shields is not None:
        x = fd_conv(damage, fd_neg(shields))
        lo, ps = x
        through = {lo + i: p for i, p in enumerate(ps) if p and lo + i >= 1}
        probs["none"] += sum(p for i, p in enumerate(ps) if lo + i <= 0)
    else:
        through = fd_dict(damage)
    h_lo, h_cdf = _cdf(hull)
    n = len(h_cdf)
    # _cdf_at(hull's cdf, x) for every x the loop below asks, as one list (the same numbers:
    # 0.0 below the lowest total, 1.0 above the highest, min(1.0, F) between)
    if through:
        x_lo = min(through) - max(hi for _, hi, _ in tables.DAMAGE_BANDS if hi is not None) - 1
        x_hi = max(through) - min(lo for lo, _, _ in tables.DAMAGE_BANDS)
        x_lo, x_hi = min(x_lo, min(through)), max(x_hi, max(through))
        at = [0.0 if x < h_lo else (1.0 if x - h_lo >= n else min(1.0, h_cdf[x - h_lo])) for x in range(x_lo, x_hi + 1)]
    bounds = [(lo, hi, band) for lo, hi, band in tables.DAMAGE_BANDS]
    for t, p in through.items():
        # margin = t - h in [lo, hi]  <=>  t - hi <= h <= t - lo
        below = 1.0 - at[t - x_lo]              # h > t: the hull holds
        probs["none"] += p * below
        for lo, hi, band in bounds:
            upper = at[t - lo - x_lo]
            lower = at[t - hi - 1 - x_lo] if hi is not None else 0.0
            probs[band] += p * max(0.0, upper - lower)
    if severe:
        for band in ("light", "considerable", "severe"):
            probs["destroyed"] += probs[band]
            probs[band] = 0.0
    return tuple(probs.items())


@lru_cache(maxsize=4096)
def ion_results(ion: FDist, hull: FDist) -> tuple[tuple[int, float], ...]:
    """{ion result: P} of one ion hit -- exactly rules.apply_ion: hull greater, no effect (0);
    ion >= hull ("més gran o igual"): the table on (ion - hull) -- 1-4 controls ionised or
    5 = controls destroyed."""
    probs = dict.fromkeys(ION_RESULTS, 0.0)
    x = fd_conv(ion, fd_neg(hull))
    lo, ps = x
    for i, p in enumerate(ps):
        if not p:
            continue
        m = lo + i
        if m < 0:
            probs[0] += p
        else:
            n = tables.ion_result(m)
            probs[5 if n is None else n] += p
    return tuple(probs.items())


# ---------------------------------------------------------------- a shot in a state
@dataclass(frozen=True)
class ShotOdds:
    """The odds of one weapon firing at one ship, from a state (see :func:`shot`).

    ``kind``: "damage" (bands), "ion" (ion-table results), "tractor" (a hit captures),
    "no_damage" (a starfighter against a Death Star: "no danys significatius"), "none"
    (the shot cannot be made: out of range, torpedo against speed > 12, scale).
    ``given_hit``: (outcome label, P(outcome | hit)); they sum to 1.
    """

    band: str | None
    p_hit: float
    kind: str
    given_hit: tuple[tuple[str, float], ...] = ()
    value: float = 0.0          # E[value of the result | hit], for the bot (see VALUE)

    @property
    def expected(self) -> float:
        return self.p_hit * self.value

    def p_label(self, label: str) -> float:
        return sum(p for lab, p in self.given_hit if lab == label)

    def p_worse_than(self, mild: tuple[str, ...]) -> float:
        """P(hit and a result not in ``mild``)."""
        return self.p_hit * sum(p for lab, p in self.given_hit if lab not in mild)


#: decision (bot only): the worth of each result, as a fraction of a ship destroyed.
VALUE = {"none": 0.0, "shields_blown": 0.08, "light": 0.2, "considerable": 0.5, "severe": 0.8,
         "destroyed": 1.0, "ion": {0: 0.0, 1: 0.1, 2: 0.2, 3: 0.3, 4: 0.4, 5: 0.7}, "captured": 0.3}


def _roll_key(code, wild: bool, cap: int | None, complication: str = "remove") -> tuple:
    c = DiceCode.parse(code)
    return (c.dice, c.pips, bool(wild), cap, str(complication))


@lru_cache(maxsize=8192)
def _p_hit(attack: tuple, evasion: tuple) -> float:
    return fd_at_least(skill_factor_fd(*attack), skill_factor_fd(*evasion))


def shot(state, attacker, weapon, target, band: str | None = "auto", guns: int | None = None) -> ShotOdds:
    """The odds of ``attacker``'s ``weapon`` firing at ``target`` now (rules.fire, then
    rules.apply_damage / apply_ion of this shot *alone*: hits of other shots on the same
    target are summed later, when the damage is resolved -- RULES-NOTES).

    ``band``: "auto" -- the range band of the shot as it stands (rules.shot_band); or a band
    to ask "what if" (the bot's movement).  ``guns``: the guns of a battery in the broadside
    (seed "Factors de Foc", step 1); None: every gun it has left (all of them before it fired).
    """
    if band == "auto":
        band = rules.shot_band(state, attacker, weapon, target)
    if band is None or (attacker.scale, target.scale) in tables.CANNOT_FIRE:
        return ShotOdds(None, 0.0, "none")
    if weapon.type in tables.MISSILE_WEAPONS and tables.speed_modifier(weapon.type, target.speed) is None:
        return ShotOdds(band, 0.0, "none")     # "no pot ser encertat per un torpede"
    wild = bool(state.wild)
    comp = complication_of(state)
    hit_cap = tables.TO_HIT_CAP.get((attacker.scale, target.scale))
    evade_cap = tables.EVASION_CAP.get((target.scale, attacker.scale))
    fc = rules.fire_control_code(state, attacker, weapon, target, band)
    attack = (_key(attacker.crew.gunnery), _key(fc), hit_cap, wild, comp)
    evasion = (_key(target.crew.piloting), _key(rules.current_maneuverability(target, state.round)), evade_cap, wild,
               comp)
    if weapon.type == "tractor_beam":
        return _shot_given(band, attack, evasion, "tractor_beam")
    dmg_cap = tables.DAMAGE_CAP.get((attacker.scale, target.scale))
    if dmg_cap == 0:
        return _shot_given(band, attack, evasion, weapon.type, no_damage=True)
    damage = _roll_key(rules.current_damage(attacker, weapon, state.round), wild, dmg_cap, comp)
    cap = rules.defence_cap(target, [attacker.scale])
    hull = _roll_key(target.hull, wild, cap, comp)
    shields = None      # rules.damage_ship: a 0D shield, dead controls, a shut-down generator roll none
    has_shields = not rules.is_zero(target.shields)
    if (weapon.type != "ion_cannon" and has_shields and not rules.controls_dead(target, state.round)
            and not getattr(target, "generator_shutdown", False)):
        shields = (_key(target.crew.shields), _key(target.shields), cap, wild, comp)
    if guns is None:
        guns = (rules.guns_left(state, attacker, weapon) or weapon.shots) if weapon.shots > 1 else 1
    return _shot_given(band, attack, evasion, weapon.type, damage, max(1, int(guns)), hull, shields,
                       bool(target.severe), has_shields)


@lru_cache(maxsize=8192)
def _shot_given(band: str, attack: tuple, evasion: tuple, weapon_type: str, damage: tuple | None = None,
                shots: int = 1, hull: tuple | None = None, shields: tuple | None = None, severe: bool = False,
                has_shields: bool = False, no_damage: bool = False) -> ShotOdds:
    """:func:`shot` from its rolls' keys (cached: a fight asks for the same few shots thousands of times)."""
    p = _p_hit(attack, evasion)
    if weapon_type == "tractor_beam":
        return ShotOdds(band, p, "tractor", ((CAPTURED, 1.0),), VALUE["captured"])
    if no_damage:
        return ShotOdds(band, p, "no_damage", ((BAND_LABEL["none"], 1.0),), 0.0)
    dmg = damage_total_fd(damage, shots)
    hull_fd = roll_fd(*hull)
    if weapon_type == "ion_cannon":
        res = ion_results(dmg, hull_fd)
        return ShotOdds(band, p, "ion", tuple((ION_LABEL[n], q) for n, q in res),
                        sum(VALUE["ion"][n] * q for n, q in res))
    shields_fd = skill_factor_fd(*shields) if shields is not None else None
    bands = damage_bands(dmg, shields_fd, hull_fd, severe)
    blown = "shields_blown" if has_shields else "controls_ionised"
    labels = tuple((BAND_LABEL[blown if b == "shields_blown" else b], q) for b, q in bands)
    return ShotOdds(band, p, "damage", labels, sum(VALUE[b] * q for b, q in bands))


def _pct(p: float) -> str:
    if 0 < p < 0.005:
        return "<1%"
    if 0.995 < p < 1:
        return ">99%"
    return f"{p:.0%}"


MILD = (BAND_LABEL["none"], BAND_LABEL["shields_blown"], BAND_LABEL["controls_ionised"])


def shot_summary(so: ShotOdds) -> str:
    if so.kind == "none":
        return "cannot hit"
    head = f"{_pct(so.p_hit)} to hit ({so.band} range)"
    if so.kind == "tractor":
        return head + " · a hit captures (no damage)"
    if so.kind == "no_damage":
        return head + " · no significant damage (a starfighter against a Death Star)"
    if so.kind == "ion":
        return head + f" · {_pct(so.p_worse_than((ION_LABEL[0],)))} controls ionised or worse (this shot alone)"
    return head + f" · {_pct(so.p_worse_than(MILD))} light damage or worse (this shot alone)"


def _outcome_tuple(so: ShotOdds):

    p = min(1.0, max(0.0, so.p_hit))
    out = [Outcome(MISS, 1.0 - p)]
    out += [Outcome(label, min(1.0, p * q)) for label, q in so.given_hit if q > 0]
    return tuple(out)


def shot_odds(state, action):
    """Odds of a ``fire weapon= target=`` action: "miss", then each result of a hit with
    P(hit) * P(result | hit) (see :func:`shot`).  Summary: the chance to hit, the range band,
    the chance of light damage or worse of this shot alone."""

    try:
        me, target = state.ship(action.actor), state.ship(action.get("target"))
        w = next(w for w in me.weapons if w.id == action.get("weapon"))
    except (KeyError, StopIteration):
        return None
    so = shot(state, me, w, target, guns=action.get("guns"))
    return Odds(_outcome_tuple(so), shot_summary(so))


# ---------------------------------------------------------------- ramming, tractor beams
def _maneuver_key(state, ship, other) -> tuple:
    """piloting + maneuverability of ``ship`` in a roll against ``other`` (seed "6. ESCALES":
    the evasion cap applies to "totes les tirades de Maniobrabilitat")."""
    return (_key(ship.crew.piloting), _key(rules.current_maneuverability(ship, state.round)),
            tables.EVASION_CAP.get((ship.scale, other.scale)), bool(state.wild), complication_of(state))


def ram_chance(state, rammer, target) -> float:
    """Seed "Col·lisions premeditades": both roll piloting + maneuverability; the target avoids
    the collision only when it *exceeds* ("supera") the rammer: P(rammer >= target)."""
    return _p_hit(_maneuver_key(state, rammer, target), _maneuver_key(state, target, rammer))


def ram_odds(state, action):

    try:
        me, target = state.ship(action.actor), state.ship(action.get("target"))
    except KeyError:
        return None
    p = min(1.0, max(0.0, ram_chance(state, me, target)))
    return Odds((Outcome("rammed", p), Outcome("avoided", 1.0 - p)),
                f"{_pct(p)} to ram {target.name} (it avoids only by rolling higher)")


def _captor(state, ship):
    """(holder ship, its tractor beam) holding ``ship``, or None (rules.holder_of)."""
    return rules.holder_of(state, ship)


def break_free_chance(state, ship) -> float | None:
    """Seed "Raigs tractors": free only with a hull roll *greater* than the beam's strength
    (listed as its damage): P(hull > strength).  None when the holder cannot be found."""
    held = _captor(state, ship)
    if held is None:
        return None
    captor, beam = held
    wild = bool(state.wild)
    comp = complication_of(state)
    strength = roll_fd(*_roll_key(rules.current_damage(captor, beam, state.round), wild,
                                  tables.DAMAGE_CAP.get((captor.scale, ship.scale)), comp))
    hull = roll_fd(*_roll_key(ship.hull, wild, rules.defence_cap(ship, [captor.scale]), comp))
    return fd_greater(hull, strength)


def break_free_odds(state, action):

    try:
        ship = state.ship(action.actor)
    except KeyError:
        return None
    p = break_free_chance(state, ship)
    if p is None:
        return None
    p = min(1.0, max(0.0, p))
    return Odds((Outcome("free", p), Outcome("still held", 1.0 - p)),
                f"{_pct(p)} to break free (hull roll greater than the beam's strength)")


def action_odds(state, action):
    """The engine's ``odds``: a shot, a ram, breaking free; None for the other actions
    (move, drift, done, resolve, initiative, jump, shutdown, evacuate)."""
    kind = action.kind
    if kind == "fire":
        return shot_odds(state, action)
    if kind == "ram":
        return ram_odds(state, action)
    if kind == "break_free":
        return break_free_odds(state, action)
    return None
