"""Exact odds of codes (RULES-NOTES starwars_d6 Wild Die; seed "2. COMBAT" tie rules)."""
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from rulesets.core.dice import seeded
from rulesets.starwars_d6 import odds
from rulesets.starwars_d6.dice import DiceCode, roll_code


def test_no_wild_is_the_plain_sum():
    """RULES-NOTES: without the Wild Die a code is a plain sum of d6 plus pips."""
    d = odds.distribution("2D+1", wild=False)
    assert d[3] == Fraction(1, 36) and d[8] == Fraction(6, 36) and sum(d.values()) == 1


def test_1d_wild_distribution():
    """RULES-NOTES Wild Die: on 1D the 1 removes the die (total 0); a 6 explodes."""
    d = odds.distribution("1D")
    assert d[0] == Fraction(1, 6) and 1 not in d
    assert all(d[v] == Fraction(1, 6) for v in (2, 3, 4, 5))
    assert d[6 + 3] == Fraction(1, 36) and 6 not in d and 12 not in d
    assert sum(d.values()) == 1


def test_wild_one_removes_the_highest_die_exactly():
    """RULES-NOTES Wild Die: 2D, Wild Die 1 -> 0 (the other die is the highest and goes)."""
    d = odds.distribution("2D")
    # total 0 only when the Wild Die's first roll is 1: the other die is removed too.
    assert d[0] == Fraction(1, 6)


def test_complication_add_keeps_the_one():
    """RULES-NOTES Wild Die: "add normally, complication" -- a 1 just adds 1."""
    d = odds.distribution("1D", complication="add")
    assert d[1] == Fraction(1, 6) and 0 not in d


def test_capped_wild_still_explodes():
    """RULES-NOTES: a capped Wild Die still explodes on a natural 6 (cap 3: 6 -> 3 + reroll)."""
    d = odds.distribution("1D", cap=3)
    assert max(d) > 3 and d[3 + 2] == Fraction(1, 36)


def test_truncation_is_below_1e_12():
    """odds module doc: the explosion is truncated where the remaining mass < 1e-12."""
    assert Fraction(1, 6) ** (odds.EXPLODE_DEPTH + 1) < Fraction(1, 10**12)
    assert sum(odds.distribution("5D+2").values()) == 1
    exact_mean = odds.mean(odds.distribution("1D"))
    # E[wild value] = 2+3+4+5 over 6 plus (1/6)(6 + E[explosion]); E[explosion] = 21/5 untruncated.
    assert abs(float(exact_mean) - (14 / 6 + (6 + 21 / 5) / 6)) < 1e-11


@pytest.mark.parametrize("code,wild,cap,complication", [
    ("3D+1", True, None, "remove"), ("4D", True, 3, "remove"), ("2D+2", True, None, "add"), ("3D", False, 2, "remove"),
])
def test_distribution_matches_rolling(code, wild, cap, complication):
    """odds.distribution follows roll_code rule for rule (checked against 20,000 seeded rolls)."""
    d = odds.distribution(code, wild=wild, cap=cap, complication=complication)
    dice = seeded("odds-check")
    n = 20000
    counts = {}
    for _ in range(n):
        t = roll_code(dice, code, wild=wild, cap=cap, complication=complication).total
        counts[t] = counts.get(t, 0) + 1
        dice.rolls.clear(); dice.dice.clear()
    assert set(counts) <= set(d)
    for v, p in d.items():
        assert abs(counts.get(v, 0) / n - float(p)) < 0.015
    assert abs(sum(v * c for v, c in counts.items()) / n - float(odds.mean(d))) < 0.1


def test_to_hit_ties_go_to_the_attacker():
    """Seed 2. COMBAT step 3: a hit when the attacker's roll is greater than or equal."""
    a = {5: Fraction(1)}
    assert odds.p_at_least(a, {5: Fraction(1)}) == 1 and odds.p_greater(a, {5: Fraction(1)}) == 0
    # 1D vs 1D without Wild Die: P(A >= B) = 21/36
    assert odds.hit_chance("1D", "1D", wild=False) == Fraction(21, 36)


def test_shields_ties_go_to_the_defender():
    """Seed 2. COMBAT step 5: equal or greater shield roll -> no damage (attacker needs >)."""
    assert odds.opposed("1D", "1D", ties="defender", wild=False) == Fraction(15, 36)


def test_difference_distribution():
    """Seed 2. COMBAT step 5: damage through = damage - shields; exact distribution."""
    d = odds.difference(odds.distribution("1D", wild=False), odds.distribution("1D", wild=False))
    assert d[0] == Fraction(6, 36) and d[5] == Fraction(1, 36) and sum(d.values()) == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 5), st.integers(0, 2), st.integers(0, 5), st.integers(0, 2), st.booleans())
def test_win_lose_tie_sum_to_one(ad, ap, bd, bp, wild):
    """P(A > B) + P(A = B) + P(B > A) = 1 exactly, for any two codes."""
    a = odds.distribution(DiceCode(ad, ap), wild=wild)
    b = odds.distribution(DiceCode(bd, bp), wild=wild)
    tie = odds.p_at_least(a, b) - odds.p_greater(a, b)
    assert odds.p_greater(a, b) + tie + odds.p_greater(b, a) == 1
    assert 0 <= tie <= 1


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 6), st.integers(0, 2))
def test_more_dice_never_hurts(n, p):
    """A bigger attack code never lowers the chance to hit (sanity of the exact odds)."""
    c = DiceCode(n, p)
    assert odds.hit_chance(c + "+1D", "3D") >= odds.hit_chance(c, "3D")


# ================================================================ the odds of a shot, as rolled
# Three independent checks of odds.shot: (1) exhaustive enumeration of every dice sequence the
# rules themselves ask for (Wild Die off, small codes: a finite tree), (2) exact Fractions
# built from odds.distribution (Wild Die on), (3) large seeded Monte-Carlo of rules.fire and
# rules.resolve_firing (Wild Die on).
from collections import defaultdict

from rulesets.core.dice import Dice, DiceSource
from rulesets.core.engine import Action
from rulesets.starwars_d6 import rules
from rulesets.starwars_d6 import tables
from rulesets.starwars_d6 import damage as damage_rules

FIGHTER = {"name": "Wing", "scale": "starfighter", "speed": 8, "maneuverability": "1D", "hull": "1D",
           "shields": "1D", "crew": {"gunnery": "1D", "piloting": "1D", "shields": "1D"},
           "weapons": [{"id": "l", "type": "laser", "fire_control": "1D", "damage": "1D"},
                       {"id": "ion", "type": "ion_cannon", "fire_control": "1D", "damage": "2D"},
                       {"id": "t", "type": "proton_torpedo", "fire_control": "2D", "damage": "3D", "ammo": 2},
                       {"id": "m", "type": "concussion_missile", "fire_control": "1D", "damage": "3D", "ammo": 2}]}
CAPITAL = {"name": "Cruiser", "scale": "capital", "speed": 4, "maneuverability": "3D", "hull": "2D",
           "shields": "1D", "crew": {"gunnery": "1D", "piloting": "1D", "shields": "1D"},
           "weapons": [{"id": "tl", "type": "turbolaser", "fire_control": "1D+1", "damage": "1D"},
                       {"id": "bs", "type": "turbolaser", "fire_control": "1D", "damage": "2D", "shots": 4},
                       {"id": "ion", "type": "ion_cannon", "fire_control": "1D", "damage": "3D"}]}
STATION = {"name": "Station", "scale": "death_star", "speed": 0, "maneuverability": "0D", "hull": "3D",
           "shields": "1D", "crew": {"gunnery": "1D", "piloting": "0D"},
           "weapons": [{"id": "sl", "type": "turbolaser", "fire_control": "2D", "damage": "2D"}]}


class _Tree(DiceSource):
    """Follows a prefix of faces, then 1s; records every face asked for (for enumeration)."""

    def __init__(self, prefix):
        self.prefix, self.path = prefix, []

    def faces(self, count, sides, purpose="", rule=""):
        out = []
        for _ in range(count):
            i = len(self.path)
            f = self.prefix[i] if i < len(self.prefix) else 1
            self.path.append((f, sides))
            out.append(f)
        return out


def enumerate_rules(run) -> dict:
    """{label: exact probability} of ``run(dice)`` over *every* sequence of faces it can ask
    for (an odometer over the tree of dice; finite when the Wild Die is off)."""
    out: dict = defaultdict(Fraction)
    prefix: list[int] = []
    while True:
        src = _Tree(prefix)
        label = run(Dice(src))
        p = Fraction(1)
        for _, sides in src.path:
            p /= sides
        out[label] += p
        faces = [f for f, _ in src.path]
        j = len(faces) - 1
        while j >= 0 and faces[j] == src.path[j][1]:
            j -= 1
        if j < 0:
            return dict(out)
        prefix = faces[:j] + [faces[j] + 1]


def combat(shooter, target, *, wild=False, distance=3, round_=1):
    a = rules.build_ship(shooter, id="a", side="A", col=5, row=5)
    b = rules.build_ship(target, id="b", side="B", col=5, row=5 + distance)
    s = rules.new_combat([a, b], 30, 70, wild=wild)
    s.phase, s.queue, s.round = "firing", ["a"], round_
    return s


def weapon(s, wid):
    return next(w for w in s.ship("a").weapons if w.id == wid)


def shot_of(s, wid):
    return odds.shot(s, s.ship("a"), weapon(s, wid), s.ship("b"))


def exact_skill_factor(skill, factor, cap, wild):
    """rules.roll_skill_and_factor as exact Fractions (odds.distribution + convolve)."""
    skill, factor = DiceCode.parse(skill), DiceCode.parse(factor)
    if cap is None:
        return odds.distribution(skill + factor, wild=wild)
    out = {0: Fraction(1)}
    if skill.total_pips:
        out = odds.convolve(out, odds.distribution(skill, wild=wild))
    if factor.total_pips:
        out = odds.convolve(out, odds.distribution(factor, wild=wild and skill.dice == 0, cap=cap))
    return out


def assert_close(exact: dict, got: dict, tol=1e-12):
    for k in set(exact) | set(got):
        assert abs(float(exact.get(k, 0)) - float(got.get(k, 0))) < tol, (k, exact.get(k), got.get(k))


# ---------------------------------------------------------------- the building blocks
def test_float_distributions_equal_the_exact_ones():
    """odds.roll_fd (floats, for speed) equals odds.distribution (exact) within 1e-14 for
    every code 0D..9D+2, with and without the Wild Die, capped at 1-4 or not (seed 6. ESCALES)."""
    for dice in range(10):
        for pips in range(3):
            for wild in (True, False):
                for cap in (None, 1, 2, 3, 4):
                    exact = odds.distribution(DiceCode(dice, pips), wild=wild, cap=cap)
                    assert_close(exact, odds.fd_dict(odds.roll_fd(dice, pips, wild, cap)), 1e-14)


@pytest.mark.parametrize("skill,factor,cap", [
    ("1D", "2D", 3), ("0D", "2D", 3), ("0D+2", "1D+1", 2), ("2D", "0D", 3), ("1D+1", "1D", None), ("0D", "0D", 1)])
def test_skill_and_factor_enumerated_through_the_rules(skill, factor, cap):
    """Seed 6. ESCALES (the cap on the factor's dice only) -- rules.roll_skill_and_factor run on
    every possible face sequence (Wild Die off) gives exactly odds.skill_factor_fd."""
    exact = enumerate_rules(lambda d: rules.roll_skill_and_factor(d, skill, factor, cap=cap, wild=False,
                                                              purpose="", rule=""))
    got = odds.fd_dict(odds.skill_factor_fd(odds._key(skill), odds._key(factor), cap, False))
    assert_close(exact, got)


@pytest.mark.parametrize("skill,factor,cap", [("2D", "3D", 3), ("0D", "3D", 3), ("0D+1", "2D", 2), ("3D+2", "2D+1", None)])
def test_skill_and_factor_with_the_wild_die(skill, factor, cap):
    """RULES-NOTES: the Wild Die stays with the (uncapped) skill; a 0D skill leaves it to the
    capped factor, where it still explodes on a natural 6 -- exact, and against 20,000 rolls."""
    exact = exact_skill_factor(skill, factor, cap, True)
    got = odds.fd_dict(odds.skill_factor_fd(odds._key(skill), odds._key(factor), cap, True))
    assert_close(exact, got)
    _seeded_rolls_land_on(got, f"sf:{skill}:{factor}:{cap}", skill, factor, cap)


def _seeded_rolls_land_on(dist, seed, skill, factor, cap, **kw):
    """20,000 seeded rules.roll_skill_and_factor rolls: their CDF within 0.015 of ``dist``'s."""
    dice = seeded(seed)
    counts: dict = defaultdict(int)
    n = 20000
    for _ in range(n):
        counts[rules.roll_skill_and_factor(dice, skill, factor, cap=cap, wild=True, purpose="", rule="", **kw)] += 1
        dice.rolls.clear(), dice.dice.clear()
    cdf_e = cdf_r = 0.0
    for v in sorted(set(counts) | set(dist)):
        cdf_e += dist.get(v, 0.0)
        cdf_r += counts.get(v, 0) / n
        assert abs(cdf_e - cdf_r) < 0.015, v


def test_broadside_hits_follow_the_fire_factor_table():
    """Seed "Factors de Foc per les Naus Capitals" + RULES-NOTES: 2 shots 1-3/4-6 = 1/2 hits,
    3 shots 1/2/3 on 1-2/3-4/5-6, 4 and 5 shots the die (5-6 / 6 rolled again), 6 shots the die;
    a larger volley one die per 6 shots plus the remainder; checked against rules.broadside_hits."""
    third, sixth = Fraction(1, 3), Fraction(1, 6)
    expected = {1: {1: 1}, 2: {1: Fraction(1, 2), 2: Fraction(1, 2)}, 3: {1: third, 2: third, 3: third},
                4: {h: Fraction(1, 4) for h in range(1, 5)}, 5: {h: Fraction(1, 5) for h in range(1, 6)},
                6: {h: sixth for h in range(1, 7)}, 7: {h + 1: sixth for h in range(1, 7)},
                12: odds.convolve({h: sixth for h in range(1, 7)}, {h: sixth for h in range(1, 7)})}
    for shots, dist in expected.items():
        assert dict(odds.broadside_hits_dist(shots)) == dist, shots
    dice = seeded("broadside")
    for shots in (4, 5, 9):
        n, counts = 12000, defaultdict(int)
        for _ in range(n):
            counts[rules.broadside_hits(dice, shots)] += 1
        for h, p in odds.broadside_hits_dist(shots):
            assert abs(counts[h] / n - float(p)) < 0.02, (shots, h)


# ---------------------------------------------------------------- to hit
def _enumerated_hit(s, wid):
    def run(d):
        t, _ = rules.fire(s, wid, "b", d)
        return t.shots[0].hit
    return enumerate_rules(run).get(True, Fraction(0))


def _no_damage(stats):
    """The same ship with 0D weapon damage (so rules.fire rolls no damage dice: a smaller tree)."""
    return dict(stats, weapons=[dict(w, damage="0D") for w in stats["weapons"]])


SMALL_CAPITAL = dict(CAPITAL, maneuverability="2D", crew={"gunnery": "1D", "piloting": "0D+2", "shields": "1D"})


@pytest.mark.parametrize("shooter,target,wid,distance,why", [
    (CAPITAL, FIGHTER, "tl", 8, "capital firing at a starfighter: fire-control dice over 3 count 3"),
    (FIGHTER, SMALL_CAPITAL, "l", 7, "capital evading a starfighter: maneuverability dice over 2 count 2"),
    (FIGHTER, FIGHTER, "l", 12, "long range: -1D to fire control"),
    (STATION, SMALL_CAPITAL, "sl", 14, "a Death Star firing at a capital ship: fire control over 3 count 3"),
])
def test_to_hit_enumerated_through_rules_fire(shooter, target, wid, distance, why):
    """Seed 2. COMBAT steps 1-3 (attack >= evasion) and 6. ESCALES: rules.fire run on every
    face sequence (Wild Die off) hits exactly as often as odds.shot says."""
    s = combat(_no_damage(shooter), target, distance=distance)
    assert float(_enumerated_hit(s, wid)) == pytest.approx(shot_of(s, wid).p_hit, abs=1e-12), why


def test_to_hit_with_the_wild_die_and_every_modifier():
    """Seed 2. COMBAT "Distàncies" (+1D short, -1D long), "Míssils i torpedes" (speed), 5.
    "Controls ionitzats" (-1D): the to-hit chance is P(attack >= evasion) of exactly the codes
    rules.attack_code and rules.evasion_code give, with the Wild Die."""
    for shooter, target, wid, distance in ((FIGHTER, FIGHTER, "l", 3), (FIGHTER, FIGHTER, "m", 8),
                                           (FIGHTER, FIGHTER, "t", 3), (FIGHTER, CAPITAL, "t", 12)):
        for ionised in (False, True):
            s = combat(shooter, target, wild=True, distance=distance)
            if ionised:
                s.ship("a").ionised.append(s.round + 1)
                s.ship("b").ionised.append(s.round + 1)
            a, w, b = s.ship("a"), weapon(s, wid), s.ship("b")
            band = rules.shot_band(s, a, w, b)
            cap_a, cap_e = tables.TO_HIT_CAP.get((a.scale, b.scale)), tables.EVASION_CAP.get((b.scale, a.scale))
            att = exact_skill_factor(a.crew.gunnery, rules.fire_control_code(s, a, w, b, band), cap_a, True)
            eva = exact_skill_factor(b.crew.piloting, rules.current_maneuverability(b, s.round), cap_e, True)
            assert float(odds.p_at_least(att, eva)) == pytest.approx(shot_of(s, wid).p_hit, abs=1e-12)


def test_missile_speed_modifiers_and_no_torpedo_against_speed_over_12():
    """Seed 3. "Míssils i torpedes": concussion missiles +1D against speed 0-4, -1D from 9;
    torpedoes -1D at 5-8, -2D at 9-12 and cannot hit a target faster than 12."""
    s = combat(FIGHTER, FIGHTER, distance=6)
    b = s.ship("b")
    by_speed = {}
    for speed in (3, 6, 10, 13):
        b.speed = speed
        by_speed[speed] = (shot_of(s, "m").p_hit, shot_of(s, "t").p_hit)
    assert by_speed[3][0] > by_speed[6][0] > by_speed[10][0]
    assert by_speed[3][1] > by_speed[6][1] > by_speed[10][1] > 0
    assert by_speed[13][1] == 0 and shot_of(s, "t").kind == "none"


# ---------------------------------------------------------------- damage bands
def _band_from_log(log) -> str:
    for e in log:
        if "this hit destroys it" in e.text:
            return "destroyed"
    for e in log:
        for band, label in tables.DAMAGE_LABEL.items():
            if e.text.endswith(f"-- {label}."):
                return band
    assert any(("stop" in e.text) or ("holds" in e.text) for e in log), [e.text for e in log]
    return "none"


def enumerated_bands(s, target_id, damage: dict, attacker_scale, monkeypatch) -> dict:
    """{band: P} of rules.apply_damage over every face of the shields and hull rolls, for each
    damage total (weighted by ``damage``); the light/considerable tables are not rolled."""
    monkeypatch.setattr(damage_rules, "_apply_light", lambda *a: None)
    monkeypatch.setattr(damage_rules, "_apply_considerable", lambda *a: None)
    out: dict = defaultdict(Fraction)
    for total, p in damage.items():
        got = enumerate_rules(lambda d: _band_from_log(
            rules.apply_damage(s, target_id, total, d, attacker_scales=[attacker_scale])[1]))
        for band, q in got.items():
            out[band] += p * q
    return dict(out)


def _given_hit(so) -> dict:
    """odds.shot's given-hit results keyed by band ("controls ionised" is the 0-3 band)."""
    back = {label: band for band, label in odds.BAND_LABEL.items()}
    out: dict = defaultdict(float)
    for label, p in so.given_hit:
        band = back[label]
        out["shields_blown" if band == "controls_ionised" else band] += p
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("case", ["plain", "defence_cap", "damage_cap", "no_shields", "dead_controls", "severe",
                                  "death_star_defence", "generator_shut_down"])
def test_damage_bands_enumerated_through_apply_damage(case, monkeypatch):
    """Seed 2. COMBAT steps 4-6 and 5. DETERMINANT ELS DANYS (RULES-NOTES: band on through -
    hull >= 0): shields equal or more stop it; a 0D shield and dead controls roll no shields;
    6. ESCALES: a starfighter hit by a capital ship caps its shields and hull at 3, a capital
    hit by a Death Star at 1 per die, a starfighter's damage to a capital at 3; a shut-down
    generator (considerable 2: "tots els altres sistemes queden inoperants") rolls no shields; a severely
    damaged ship is destroyed by any light, considerable or severe result.  odds.shot equals
    rules.apply_damage enumerated on every face, times the damage distribution."""
    big = dict(FIGHTER, weapons=[dict(FIGHTER["weapons"][0], damage="4D")])
    shooter, target, wid, dist = {
        "plain": (big, FIGHTER, "l", 3), "defence_cap": (dict(CAPITAL, weapons=[dict(CAPITAL["weapons"][0], damage="3D")]),
                                                        dict(FIGHTER, hull="1D+2"), "tl", 3),
        "damage_cap": (dict(FIGHTER, weapons=[dict(FIGHTER["weapons"][0], damage="4D")]), CAPITAL, "l", 3),
        "no_shields": (big, dict(FIGHTER, shields="0D+2"), "l", 3), "dead_controls": (big, FIGHTER, "l", 3),
        "severe": (big, FIGHTER, "l", 3), "death_star_defence": (STATION, dict(CAPITAL, hull="1D+1"), "sl", 3),
        "generator_shut_down": (big, FIGHTER, "l", 3),
    }[case]
    s = combat(shooter, target, distance=dist)
    a, w, b = s.ship("a"), weapon(s, wid), s.ship("b")
    if case == "dead_controls":
        b.controls_dead_until = s.round + 1
    if case == "severe":
        b.severe = True
    if case == "generator_shut_down":
        b.generator_shutdown = True     # considerable 2: every other system off -- no shields
    damage = odds.distribution(rules.current_damage(a, w, s.round), wild=False, cap=tables.DAMAGE_CAP.get((a.scale, b.scale)))
    exact = enumerated_bands(s, "b", damage, a.scale, monkeypatch)
    got = _given_hit(shot_of(s, wid))
    assert_close({k: v for k, v in exact.items() if v}, got)
    assert len(got) >= 3, got          # the case reaches several bands
    labels = [label for label, _ in shot_of(s, wid).given_hit]
    assert ("hit, controls ionised" in labels) == (case == "no_shields")
    if case == "severe":
        assert got.get("light", 0) == got.get("considerable", 0) == got.get("severe", 0) == 0


def test_damage_bands_with_the_wild_die_are_exact():
    """The same bands with the Wild Die, against an exact Fraction computation (damage -
    shields, then - hull; seed 2. COMBAT steps 5-6)."""
    s = combat(dict(FIGHTER, weapons=[dict(FIGHTER["weapons"][0], damage="4D")]),
               dict(FIGHTER, hull="2D+1", shields="1D+1"), wild=True)
    w, b = weapon(s, "l"), s.ship("b")
    d = odds.distribution(w.damage)
    sh = odds.distribution(DiceCode.parse(b.crew.shields) + b.shields)
    x = odds.difference(d, sh)
    exact: dict = defaultdict(Fraction)
    exact["none"] += sum(p for v, p in x.items() if v <= 0)
    margin = odds.difference({v: p for v, p in x.items() if v > 0}, odds.distribution(b.hull))
    for m, p in margin.items():
        exact[tables.damage_band(m) or "none"] += p
    assert_close(dict(exact), _given_hit(shot_of(s, "l")), 1e-12)


def test_damage_cap_and_the_death_star():
    """Seed 6. ESCALES "Escala per determinar el dany": a starfighter's damage dice to a capital
    ship over 3 count 3; capital damage to a Death Star 1 point per die; a starfighter cannot
    cause significant damage to a Death Star (odds: hit, no damage -- and rules.fire agrees)."""
    s = combat(dict(FIGHTER, weapons=[dict(FIGHTER["weapons"][0], damage="5D")]), CAPITAL, wild=True)
    roll = odds._roll_key("5D", True, 3)
    assert_close(odds.distribution("5D", cap=3), odds.fd_dict(odds.damage_total_fd(roll, 1)), 1e-14)
    s = combat(CAPITAL, STATION, wild=True)
    assert tables.DAMAGE_CAP[("capital", "death_star")] == 1
    assert shot_of(s, "tl").kind == "damage"
    s = combat(FIGHTER, STATION, wild=True)
    so = shot_of(s, "l")
    assert so.kind == "no_damage" and so.given_hit == (("hit, no damage", 1.0),) and so.value == 0
    t, log = rules.fire(s, "l", "b", seeded("ds"))
    assert not t.shots[0].hit or t.shots[0].no_damage


def test_broadside_damage_sums_each_hit():
    """Seed "Factors de Foc": a broadside that hits rolls the fire factor, then each hit's
    damage, summed -- odds.damage_total_fd is that mixture exactly; rules.fire agrees on 8,000 shots."""
    roll = odds._roll_key("2D", True, None)
    exact: dict = defaultdict(Fraction)
    for h, p in odds.broadside_hits_dist(4):
        dist = {0: Fraction(1)}
        for _ in range(h):
            dist = odds.convolve(dist, odds.distribution("2D"))
        for v, q in dist.items():
            exact[v] += p * q
    got = odds.fd_dict(odds.damage_total_fd(roll, 4))
    assert_close(dict(exact), got, 1e-12)
    s = combat(CAPITAL, dict(CAPITAL, maneuverability="0D", crew={"piloting": "0D"}), wild=True)
    dice, n, counts = seeded("bs-damage"), 8000, defaultdict(int)
    for _ in range(n):
        t, _ = rules.fire(s, "bs", "b", dice)
        x = t.shots[0]
        counts[x.damage if x.hit else None] += 1
        dice.rolls.clear(), dice.dice.clear()
    p_hit = shot_of(s, "bs").p_hit
    assert abs(1 - counts.pop(None, 0) / n - p_hit) < 0.02
    hits = sum(counts.values())
    run_e = run_r = 0.0
    for v in sorted(set(got) | set(counts)):
        run_e += got.get(v, 0.0)
        run_r += counts.get(v, 0) / hits
        assert abs(run_e - run_r) < 0.025, v


# ---------------------------------------------------------------- ion cannons
def _ion_from_log(log) -> int:
    text = log[-1].text if log else ""
    if "no effect" in text:
        return 0
    for e in log:
        if "controls destroyed." in e.text:
            return 5
        if "controls ionised." in e.text and "margin" in e.text:
            return int(e.text.split("-- ")[1].split(" ")[0])
    raise AssertionError([e.text for e in log])


@pytest.mark.parametrize("shooter,target", [(FIGHTER, FIGHTER), (CAPITAL, dict(FIGHTER, hull="2D"))])
def test_ion_results_enumerated_through_apply_ion(shooter, target):
    """Seed 3. "Canons d'ions": no shields; hull greater -- nothing; ion damage greater or
    equal ("més gran o igual") -- 0-5/6-10/11-15/16-20 = 1-4 controls ionised, 21+ destroyed;
    a starfighter's hull against a capital ship's ions is capped at 3 (6. ESCALES)."""
    s = combat(shooter, target, distance=2)
    a, w, b = s.ship("a"), weapon(s, "ion"), s.ship("b")
    dmg = odds.distribution(rules.current_damage(a, w, s.round), wild=False)
    exact: dict = defaultdict(Fraction)
    for total, p in dmg.items():
        got = enumerate_rules(lambda d: _ion_from_log(rules.apply_ion(s, "b", total, d, attacker_scales=[a.scale])[1]))
        for k, q in got.items():
            exact[k] += p * q
    so = shot_of(s, "ion")
    assert so.kind == "ion"
    by = {n: q for n, q in odds.ion_results(odds.damage_total_fd(odds._roll_key(rules.current_damage(a, w, s.round), False, None), 1),
                                          odds.roll_fd(*odds._roll_key(b.hull, False, rules.defence_cap(b, [a.scale]))))}
    assert_close(dict(exact), {k: v for k, v in by.items() if v})
    assert [label for label, _ in so.given_hit] == [odds.ION_LABEL[n] for n in odds.ION_RESULTS]


def test_ion_equal_to_hull_ionises():
    """Seed 3. "Canons d'ions": "més gran o igual" -- ion 5 against hull 5 is 1 control ionised."""
    one = (5, (1.0,))
    assert dict(odds.ion_results(one, one)) [1] == 1.0
    assert dict(odds.ion_results((4, (1.0,)), one))[0] == 1.0
    assert dict(odds.ion_results((26, (1.0,)), one))[5] == 1.0


# ---------------------------------------------------------------- a whole shot, Monte-Carlo
@pytest.mark.parametrize("case", ["fighters", "capital_on_fighter", "ion"])
def test_a_whole_shot_against_seeded_fire_and_resolve(case):
    """Seed 2. COMBAT steps 1-6 end to end with the Wild Die: rules.fire then
    rules.resolve_firing, 3,000 seeded shots, land on odds.shot's miss and band chances."""
    shooter, target, wid = {"fighters": (dict(FIGHTER, weapons=[dict(FIGHTER["weapons"][0], damage="3D")]),
                                          dict(FIGHTER, hull="2D"), "l"),
                            "capital_on_fighter": (CAPITAL, FIGHTER, "tl"),
                            "ion": (FIGHTER, FIGHTER, "ion")}[case]
    _seeded_shots_land_on_the_odds(combat(shooter, target, wild=True, distance=2), wid, f"whole:{case}",
                                   ion=case == "ion")


def _seeded_shots_land_on_the_odds(s, wid, seed, *, ion=False, n=3000):
    """Fire ``n`` seeded shots through rules.fire + rules.resolve_firing and compare how often
    each result happened with odds.shot_odds (within 0.03)."""
    shot_odds = odds.shot_odds(s, Action.make("fire", "a", weapon=wid, target="b"))
    dice, counts = seeded(seed), defaultdict(int)
    for _ in range(n):
        t, _ = rules.fire(s, wid, "b", dice)
        if not t.shots[0].hit:
            counts["miss"] += 1
        else:
            t, _ = rules.end_fire(t)
            t.queue = []
            t, log = rules.resolve_firing(t, dice)
            if ion:
                counts[odds.ION_LABEL[_ion_from_log([e for e in log if "ion" in e.text.lower() or "hull" in e.text])]] += 1
            else:
                band = _band_from_log(log)
                counts[odds.BAND_LABEL[band if band != "shields_blown" else
                                    ("shields_blown" if not rules.is_zero(s.ship("b").shields) else "controls_ionised")]] += 1
        dice.rolls.clear(), dice.dice.clear()
    for o in shot_odds.outcomes:
        assert abs(counts.get(o.label, 0) / n - o.probability) < 0.03, (o.label, counts.get(o.label, 0) / n, o.probability)
    assert set(counts) <= {o.label for o in shot_odds.outcomes}


# ---------------------------------------------------------------- the engine's odds
def test_engine_odds_of_every_action():
    """rulesets/core/engine.py: fire odds are "miss" then each result of a hit, summing to 1;
    the summary names the chance to hit, the range band and light damage or worse (of this
    shot alone: hits on one target are summed only when the damage is resolved).  Moves,
    done, resolve and initiative have no odds."""
    from rulesets.starwars_d6.engine import RULESET

    s = RULESET.setup(RULESET.example_setup(1))
    assert RULESET.odds(s, RULESET.legal_actions(s)[0]) is None   # initiative
    s.phase, s.queue = "firing", [sh.id for sh in s.ships]
    for sh, pos in zip(s.ships, ((10, 5), (12, 6), (10, 9), (13, 12))):
        sh.col, sh.row = pos
    seen = 0
    for a in RULESET.legal_actions(s):
        o = RULESET.odds(s, a)
        if a.kind != "fire":
            assert o is None
            continue
        seen += 1
        assert abs(o.total - 1) < 1e-9 and o.outcomes[0].label == "miss"
        assert all(0 <= x.probability <= 1 for x in o.outcomes)
        assert "to hit (" in o.summary and "range)" in o.summary
        assert "light damage or worse" in o.summary or "controls ionised or worse" in o.summary
    assert seen
    for kind in ("move", "drift", "done", "resolve", "initiative", "jump", "shutdown", "evacuate"):
        assert odds.action_odds(s, Action.make(kind, "c1")) is None


def test_odds_of_every_fire_action_are_the_same_from_cold_and_warm_caches():
    """The odds of every fire action of a 4-ship state, from cold caches and again from warm ones,
    are the same odds (their speed is measured by scripts/bench_odds.py, not by a test)."""
    from rulesets.starwars_d6.engine import RULESET

    for fn in (odds.roll_fd, odds.skill_factor_fd, odds._p_hit, odds.damage_total_fd, odds.damage_bands, odds.ion_results,
               odds._nfold, odds._plain_fd, odds._without_highest_fd, odds._sum_and_highest):
        fn.cache_clear()
    s = RULESET.setup(RULESET.example_setup(1))
    s.phase = "firing"
    for sh, pos in zip(s.ships, ((10, 5), (12, 6), (10, 9), (13, 12))):
        sh.col, sh.row = pos

    def every():
        out = []
        for sid in [sh.id for sh in s.ships]:
            s.queue = [sid]
            out.extend(o for a in RULESET.legal_actions(s) if (o := RULESET.odds(s, a)) is not None)
        return out

    cold = every()
    assert len(cold) >= 8
    assert every() == cold


# ---------------------------------------------------------------- ramming and tractor beams
def test_ram_odds_ties_go_to_the_rammer():
    """Seed 3. "Col·lisions premeditades": both roll piloting + maneuverability; the target
    avoids only if it exceeds ("supera") the rammer -- P(rammer >= target)."""
    s = combat(FIGHTER, CAPITAL, wild=True, distance=1)
    s.phase = "movement"
    o = odds.action_odds(s, Action.make("ram", "a", target="b"))
    exact = odds.p_at_least(exact_skill_factor("1D", "1D", None, True), exact_skill_factor("1D", "3D", 2, True))
    assert [x.label for x in o.outcomes] == ["rammed", "avoided"]
    assert o.outcomes[0].probability == pytest.approx(float(exact), abs=1e-12) and abs(o.total - 1) < 1e-12


def test_break_free_needs_a_hull_roll_greater_than_the_beam():
    """Seed 3. "Raigs tractors": free only with a hull roll *greater* than the beam's strength
    (listed as damage) -- P(hull > strength); no holder, no odds."""
    beam = {"id": "tb", "type": "tractor_beam", "fire_control": "2D", "damage": "2D"}
    s = combat(dict(CAPITAL, weapons=[beam]), dict(FIGHTER, hull="3D"), wild=True, distance=1)
    assert odds.action_odds(s, Action.make("break_free", "b")) is None
    s.ship("b").captured_by, s.ship("b").captured_weapon = "a", "tb"
    o = odds.action_odds(s, Action.make("break_free", "b"))
    exact = odds.p_greater(odds.distribution("3D", cap=3), odds.distribution("2D"))
    assert o.outcomes[0].label == "free" and o.outcomes[0].probability == pytest.approx(float(exact), abs=1e-12)
    tb = odds.shot(s, s.ship("a"), s.ship("a").weapons[0], s.ship("b"))
    assert tb.kind == "tractor" and tb.given_hit == ((odds.CAPTURED, 1.0),)


# ---------------------------------------------------------------- the Wild Die's first-roll 1: "add" (complication)
def exact_skill_factor_c(skill, factor, cap, wild, complication):
    """exact_skill_factor with the Wild Die's complication choice (rules.roll_skill_and_factor)."""
    skill, factor = DiceCode.parse(skill), DiceCode.parse(factor)
    if cap is None:
        return odds.distribution(skill + factor, wild=wild, complication=complication)
    out = {0: Fraction(1)}
    if skill.total_pips:
        out = odds.convolve(out, odds.distribution(skill, wild=wild, complication=complication))
    if factor.total_pips:
        out = odds.convolve(out, odds.distribution(factor, wild=wild and skill.dice == 0, cap=cap,
                                             complication=complication))
    return out


def combat_c(shooter, target, complication, **kw):
    s = combat(shooter, target, **kw)
    s.complication = complication
    return s


def test_float_distributions_with_complication_add_equal_the_exact_ones():
    """RULES-NOTES starwars_d6, the Wild Die ("add normally, complication"): odds.roll_fd with
    "add" -- the first-roll 1 counts 1 (capped), does not explode, no die is removed -- equals
    odds.distribution(..., complication="add") within 1e-14 for every code 0D..9D+2, capped or not."""
    for dice in range(10):
        for pips in range(3):
            for cap in (None, 1, 2, 3, 4):
                exact = odds.distribution(DiceCode(dice, pips), cap=cap, complication="add")
                assert_close(exact, odds.fd_dict(odds.roll_fd(dice, pips, True, cap, "add")), 1e-14)
    assert odds.fd_dict(odds.roll_fd(1, 0, True, None, "add"))[1] == pytest.approx(1 / 6)
    assert 1 not in odds.fd_dict(odds.roll_fd(1, 0, True, None))         # "remove": 1D's 1 gives 0
    with pytest.raises(ValueError):
        odds.roll_fd(2, 0, True, None, "sometimes")


@pytest.mark.parametrize("skill,factor,cap", [("2D", "3D", 3), ("0D", "3D", 3), ("3D+2", "2D+1", None)])
def test_skill_and_factor_with_complication_add(skill, factor, cap):
    """RULES-NOTES Wild Die "add" and seed 6. ESCALES: odds.skill_factor_fd(..., "add") is exact,
    and 20,000 seeded rules.roll_skill_and_factor(..., complication="add") rolls land on it."""
    got = odds.fd_dict(odds.skill_factor_fd(odds._key(skill), odds._key(factor), cap, True, "add"))
    assert_close(exact_skill_factor_c(skill, factor, cap, True, "add"), got)
    _seeded_rolls_land_on(got, f"sf-add:{skill}:{factor}:{cap}", skill, factor, cap, complication="add")


def test_shot_odds_with_complication_add_are_exact():
    """RULES-NOTES Wild Die "add": odds.shot reads state.complication -- P(hit) and the damage
    bands are those of odds.distribution(..., complication="add") (seed 2. COMBAT steps 3-6),
    and differ from "remove"; a state without the attribute counts as "remove"."""
    shooter = dict(FIGHTER, weapons=[dict(FIGHTER["weapons"][0], damage="4D")])
    target = dict(FIGHTER, hull="2D+1", shields="1D+1")
    s = combat_c(shooter, target, "add", wild=True)
    a, w, b = s.ship("a"), weapon(s, "l"), s.ship("b")
    band = rules.shot_band(s, a, w, b)
    att = exact_skill_factor_c(a.crew.gunnery, rules.fire_control_code(s, a, w, b, band), None, True, "add")
    eva = exact_skill_factor_c(b.crew.piloting, rules.current_maneuverability(b, s.round), None, True, "add")
    so = shot_of(s, "l")
    assert so.p_hit == pytest.approx(float(odds.p_at_least(att, eva)), abs=1e-12)
    d = odds.distribution(w.damage, complication="add")
    sh = odds.distribution(DiceCode.parse(b.crew.shields) + b.shields, complication="add")
    x = odds.difference(d, sh)
    exact: dict = defaultdict(Fraction)
    exact["none"] += sum(p for v, p in x.items() if v <= 0)
    margin = odds.difference({v: p for v, p in x.items() if v > 0}, odds.distribution(b.hull, complication="add"))
    for m, p in margin.items():
        exact[tables.damage_band(m) or "none"] += p
    assert_close(dict(exact), _given_hit(so), 1e-12)
    removed = shot_of(combat_c(shooter, target, "remove", wild=True), "l")
    assert abs(removed.p_hit - so.p_hit) > 1e-3
    assert shot_of(combat(shooter, target, wild=True), "l") == removed     # the default is "remove"
    assert odds.complication_of(object()) == "remove"        # no attribute at all (getattr default)


@pytest.mark.parametrize("case", ["fighters", "capital_on_fighter"])
def test_a_whole_shot_with_complication_add_against_seeded_fire_and_resolve(case):
    """RULES-NOTES Wild Die "add", seed 2. COMBAT steps 1-6 end to end: 3,000 seeded
    rules.fire + rules.resolve_firing shots on a state with complication "add" land on
    odds.shot_odds's miss and band chances (within 0.03)."""
    shooter, target, wid = {"fighters": (dict(FIGHTER, weapons=[dict(FIGHTER["weapons"][0], damage="3D")]),
                                          dict(FIGHTER, hull="2D"), "l"),
                            "capital_on_fighter": (CAPITAL, FIGHTER, "tl")}[case]
    _seeded_shots_land_on_the_odds(combat_c(shooter, target, "add", wild=True, distance=2), wid, f"whole-add:{case}")


def test_ram_and_break_free_odds_with_complication_add():
    """RULES-NOTES Wild Die "add" in seed 3. "Col·lisions premeditades" (rammer >= target, the
    evasion caps) and "Raigs tractors" (hull > strength): exact against odds.distribution(..., "add")."""
    s = combat_c(FIGHTER, CAPITAL, "add", wild=True, distance=1)
    s.phase = "movement"
    o = odds.action_odds(s, Action.make("ram", "a", target="b"))
    exact = odds.p_at_least(exact_skill_factor_c("1D", "1D", None, True, "add"),
                         exact_skill_factor_c("1D", "3D", 2, True, "add"))
    assert o.outcomes[0].probability == pytest.approx(float(exact), abs=1e-12)
    beam = {"id": "tb", "type": "tractor_beam", "fire_control": "2D", "damage": "2D"}
    s = combat_c(dict(CAPITAL, weapons=[beam]), dict(FIGHTER, hull="3D"), "add", wild=True, distance=1)
    s.ship("b").captured_by, s.ship("b").captured_weapon = "a", "tb"
    o = odds.action_odds(s, Action.make("break_free", "b"))
    exact = odds.p_greater(odds.distribution("3D", cap=3, complication="add"), odds.distribution("2D", complication="add"))
    assert o.outcomes[0].probability == pytest.approx(float(exact), abs=1e-12)
