"""Exact odds of Star Wars D6 actions in a state: a shot (to hit with the scale caps, then the
damage bands, ion results or a capture), a ram and breaking free -- the engine's ``odds``
(:func:`action_odds`).

The rolls are the ones the rules declare (:mod:`.checks`: the attack, the evasion, a piloting
roll against another ship), counted on the distributions of :mod:`.distributions` (exact and in
floats; the building blocks are re-exported here: ``odds.distribution``, ``odds.roll_fd``...).

Pure Python: no Django import.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from rulesets.core.engine import Odds, Outcome

from . import checks, rules, tables
from .distributions import (  # noqa: F401  (the building blocks, read as odds.X by the tests and the bot)
    EXPLODE_DEPTH, SIXTH, Dist, FDist, ONE, _cdf, _cdf_at, _nfold, _plain_fd, _sum_and_highest,
    _without_highest_fd, broadside_hits_dist, code_key, convolve, damage_total_fd, difference, distribution,
    fd_at_least, fd_conv, fd_dict, fd_greater, fd_neg, hit_chance, mean, opposed, p_at_least, p_greater,
    roll_fd, roll_key, shift, skill_factor_fd, wild_die,
)

_key = code_key
_roll_key = roll_key

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



def complication_of(state) -> str:
    """The state's Wild-Die choice for a first-roll 1 (RULES-NOTES): "remove" or "add"."""
    c = getattr(state, "complication", "remove") or "remove"
    if c not in ("remove", "add"):
        raise ValueError("complication must be 'remove' or 'add'")
    return c



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
    # the attack and the evasion as the rules declare and roll them (checks.attack, checks.evasion)
    attack = checks.attack(state, attacker, target, rules.fire_control_code(state, attacker, weapon, target, band)).key
    evasion = checks.evasion(state, target, attacker).key
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
    return checks.piloting(state, ship, other).key


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
