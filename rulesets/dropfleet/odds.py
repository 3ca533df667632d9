"""Exact odds of a weapon system fired at a target: the distribution of unsaved Hull damage.

Reads the same :class:`~.damage.Shot` the rules roll: one D6 per Attack (miss / hit /
critical, as its dice, a :class:`~.checks.LockPool`, count them), variable damage per hit, point defence (each 5+ a success, spent as the bot
would: :func:`.damage.best_pd_option`), then a save per normal point against the best
save and per critical point against the passive save.  Probabilities are exact fractions.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulesets.core import odds as core_odds
from rulesets.core.engine import Odds, Outcome
from rulesets.core.messages import msg

from . import damage as damage_rules
from . import ships as ship_rules

SIXTH = Fraction(1, 6)


_convolve = core_odds.convolve


@lru_cache(maxsize=512)
def damage_of_hits(hits: int, damage: str) -> tuple[tuple[int, Fraction], ...]:
    """Distribution of the Hull damage of ``hits`` hits (DF-01, DF-02)."""
    sides, fixed = damage_rules._damage_parts(damage)
    if not sides:
        return ((hits * fixed, Fraction(1)),)
    dist = {v + hits * fixed: p for v, p in core_odds.distribution(hits, sides).items()}
    return tuple(sorted(dist.items()))


@lru_cache(maxsize=512)
def binomial(n: int, p: Fraction) -> tuple[Fraction, ...]:
    """P(k successes) for k = 0..n."""
    from math import comb

    return tuple(comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(n + 1))


def _pass(save: int) -> Fraction:
    return Fraction(0) if save > 6 else Fraction(7 - save, 6)


@lru_cache(maxsize=1024)
def unsaved(s: damage_rules.Shot, policy: str = "min_expected") -> dict[tuple[int, int], Fraction]:
    """{(unsaved normal, unsaved critical): probability} for one weapon system's attack."""
    # (normal hits, critical hits) from the attack dice: the shot's own dice count them
    hits = s.hits.splits()
    # damage points
    points: dict[tuple[int, int], Fraction] = {}
    for (n, c), p in hits.items():
        for dn, pn in damage_of_hits(n, s.damage):
            for dc, pc in damage_of_hits(c, s.damage):
                points[(dn, dc)] = points.get((dn, dc), 0) + p * pn * pc
    # point defence, spent as the bot spends it
    after_pd: dict[tuple[int, int], Fraction] = {}
    pd = binomial(s.point_defence, Fraction(1, 3)) if s.point_defence else (Fraction(1),)
    for (n, c), p in points.items():
        if n + c == 0 or not s.point_defence:
            after_pd[(n, c)] = after_pd.get((n, c), 0) + p
            continue
        for successes, q in enumerate(pd):
            options = damage_rules.pd_options(n, c, successes) if successes else [(0, 0)]
            bn, bc = damage_rules.best_pd_option(options, s, policy) if len(options) > 1 and n and c else max(options)
            key = (n - bn, c - bc)
            after_pd[key] = after_pd.get(key, 0) + p * q
    # saves
    out: dict[tuple[int, int], Fraction] = {}
    fn, fc = 1 - _pass(s.normal_save), 1 - _pass(s.critical_save)
    for (n, c), p in after_pd.items():
        bn, bc = binomial(n, fn), binomial(c, fc)
        for un, pn in enumerate(bn):
            for uc, pc in enumerate(bc):
                if pn and pc:
                    out[(un, uc)] = out.get((un, uc), 0) + p * pn * pc
    return out


def total_distribution(s: damage_rules.Shot, policy: str = "min_expected") -> dict[int, Fraction]:
    out: dict[int, Fraction] = {}
    for (n, c), p in unsaved(s, policy).items():
        out[n + c] = out.get(n + c, 0) + p
    return out


def to_cripple(target) -> int | None:
    """Hull damage that makes the target roll crippling damage next (None: never)."""
    due = ship_rules.thresholds_due(target)
    if due or target.profile.hull <= 3:
        return None if not due else 0
    if target.profile.dreadnought:
        for t in (18, 10):
            if str(t) not in target.cripple_rolled:
                return max(0, target.hull - t)
        return None
    if "half" in target.cripple_rolled:
        return None
    need_lost = -(-target.profile.hull // 2)
    return max(0, need_lost - (target.profile.hull - target.hull))


def fire_odds(attacker, weapon, target, policy: str = "min_expected") -> Odds:
    """The odds shown on a fire button: unsaved Hull damage 0..n, the chance to cripple and to destroy."""
    s = damage_rules.shot(attacker, weapon, target)
    joint = unsaved(s, policy)
    dist = total_distribution(s, policy)
    expected_n = sum(n * p for (n, _), p in joint.items())
    expected_c = sum(c * p for (_, c), p in joint.items())
    destroy = sum(p for v, p in dist.items() if v >= target.hull)
    cripple_at = to_cripple(target)
    cripple = (sum(p for v, p in dist.items() if cripple_at <= v < target.hull and v > 0)
               if cripple_at is not None else Fraction(0))
    outcomes = tuple(Outcome(msg("dropfleet.odds.outcome", "{amount} Hull damage", amount=v), float(p))
                     for v, p in sorted(dist.items()))
    summary = msg("dropfleet.odds.summary", "Lock {lock}+: expected {expected:.1f} Hull ({normal:.1f} normal, "
                  "{critical:.1f} critical); cripples {cripples}, destroys {destroys}", lock=s.lock,
                  expected=float(expected_n + expected_c), normal=float(expected_n), critical=float(expected_c),
                  cripples=core_odds.percent(cripple), destroys=core_odds.percent(destroy))
    return Odds(outcomes, summary)


def expected_unsaved(s: damage_rules.Shot) -> float:
    """A fast float estimate for the bot (no point-defence allocation): mean unsaved damage."""
    sides, fixed = damage_rules._damage_parts(s.damage)
    mean = fixed + (sides + 1) / 2 if sides else fixed
    p_hit = (7 - s.lock) / 6
    p_crit = p_hit if s.particle else max(0, 7 - s.critical_on) / 6
    p_norm = p_hit - p_crit
    fn = damage_rules.fail_chance(s.normal_save)
    fc = damage_rules.fail_chance(s.critical_save)
    value = s.attacks * mean * (p_norm * fn + p_crit * fc)
    if s.point_defence:
        value = max(0.0, value - s.point_defence / 3 * min(fn, 1.0))
    return value
