"""Exact odds of every Cepheus check before it is rolled (icepool underneath).

Each check's modifier is the bonus of the same core Check the roll rolls
(:func:`.checks.task_check`), so the odds and the log cannot drift apart.

A check is 2D6 + DMs >= 8; its outcomes are given by Effect band (exceptional
failure, failure, success, exceptional success) and the summary names the chance
of success and the mean Effect.  Attacks give the distribution of damage hits.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from rulesets.core import odds as core_odds
from rulesets.core.check import circumstance
from rulesets.core.engine import Action, Odds, Outcome
from rulesets.core.messages import Words, english, msg

from .checks import CHECKS, declared, effect_band, task_check
from .crew import current_chars, gunnery_skill
from .queries import attack_mods, band_to, boarding_leader, find_missile, salvo, usable_weapons
from .tables import SMART_TO_HIT, TARGET, WEAPONS, hits_in, missile_to_hit, reentry_dms
from .words import hits as hits_of


_TWO_D6 = {t: Fraction(6 - abs(t - 7), 36) for t in range(2, 13)}


def p_at_least(modifier: int, target: int = TARGET) -> Fraction:
    return sum((p for t, p in _TWO_D6.items() if t + modifier >= target), Fraction(0))


@lru_cache(maxsize=None)
def effect_dist(modifier: int) -> dict[int, Fraction]:
    return {t + modifier - TARGET: p for t, p in _TWO_D6.items()}


def band_outcomes(modifier: int) -> tuple[Outcome, ...]:
    bands = {"exceptional failure": Fraction(0), "failure": Fraction(0), "success": Fraction(0),
             "exceptional success": Fraction(0)}
    for e, p in effect_dist(modifier).items():
        bands[effect_band(e)] += p
    return tuple(Outcome(k, float(v)) for k, v in bands.items())


#: what a check's odds are of, unless said
SUCCESS = msg("cepheus.odds.success", "success")


def check_odds(modifier: int, what: Words = SUCCESS) -> Odds:
    p = p_at_least(modifier)
    mean = sum(e * q for e, q in effect_dist(modifier).items())
    return Odds(band_outcomes(modifier), msg("cepheus.odds.check", "{percent} {what} (mean Effect {mean:+.1f})",
                                             percent=core_odds.percent(p), what=what, mean=float(mean)))


def p_opposed(m1: int, m2: int, c1: int = 0, c2: int = 0) -> Fraction:
    """RULES-NOTES: higher Effect wins; ties go to the higher characteristic, then a reroll."""
    win = lose = tie = Fraction(0)
    d1, d2 = effect_dist(m1), effect_dist(m2)
    for e1, p1 in d1.items():
        for e2, p2 in d2.items():
            if e1 > e2:
                win += p1 * p2
            elif e1 < e2:
                lose += p1 * p2
            else:
                tie += p1 * p2
    if c1 > c2:
        return win + tie
    if c1 < c2:
        return win
    return win / (win + lose) if win + lose else Fraction(1, 2)


def opposed_odds(m1, m2, c1=0, c2=0, what: Words = "to win") -> Odds:
    p = p_opposed(m1, m2, c1, c2)
    return Odds((Outcome("win", float(p)), Outcome("lose", float(1 - p))),
                msg("cepheus.odds.opposed", "{percent} {what}", percent=core_odds.percent(p), what=what))


@lru_cache(maxsize=None)
def hits_dist(dice: int, flat: int, armour: int) -> dict[int, Fraction]:
    """Damage-table hits (a double counts two) of NdD6 (or ``flat``) minus armour."""
    if dice:
        dist = core_odds.distribution(dice, 6, -armour)
    else:
        dist = {flat - armour: Fraction(1)}
    out: dict[int, Fraction] = {}
    for dmg, p in dist.items():
        h = hits_in(dmg)
        out[h] = out.get(h, Fraction(0)) + p
    return out


def action_odds(s, a: Action) -> Odds | None:
    """The odds of the check ``a`` makes, read from its declaration (:data:`.checks.CHECKS`)."""
    if s.phase == "react":
        return _reaction_odds(s, a)
    ship, c = s.actor()
    if ship is None or c is None:
        return None
    kind = a.kind
    if kind == "attack":
        return attack_odds(s, ship, c, a, int(a.get("dm", 0) or 0))
    if kind == "pursue" and ship.pursuing == a.get("target"):
        return None  # keeping up a pursuit rolls nothing
    if kind == "reentry" and reentry_dms(s.options.world_size, s.options.world_atmosphere)[1]:
        return Odds((Outcome("success", 1.0),), msg("cepheus.odds.thin_atmosphere", "automatic success (thin atmosphere)"))
    if kind == "board":
        return _board_odds(s, ship, a)
    check = declared(s, ship, a) if kind in CHECKS else None
    if check is None or kind == "initiative":
        return None
    mod = check.build(s, ship, c, a).bonus
    if kind == "ew_missiles":
        incoming = sum(m.count for m in s.missiles if m.target == ship.id and m.kind == "smart")
        return chain_odds(mod, incoming, check.what)
    if check.opponent is not None:
        other, their = check.opponent(s, ship, a)
        m2 = check.opposing(s, ship, a).bonus
        c1 = current_chars(c).get(check.char, 7)
        c2 = current_chars(their).get(check.char, 7) if their else 0
        return opposed_odds(mod, m2, c1, c2, check.what)
    return check_odds(mod, check.what)


def _board_odds(s, ship, a: Action) -> Odds:
    """Regole di abbordaggio astratte: the leaders' opposed Tactics (the Captain's if no security officer)."""
    check = CHECKS["board"]
    assert check.opponent is not None  # an opposed check
    lead = boarding_leader(ship)
    m1 = check.build(s, ship, lead, a).bonus
    m2 = check.opposing(s, ship, a).bonus
    return opposed_odds(m1, m2, what=check.what)


def chain_odds(modifier: int, available: int, what: Words) -> Odds:
    """Point defence / EW chains: keep rolling, DM-1 cumulative, until a miss."""
    dist = {0: Fraction(1)}
    result: dict[int, Fraction] = {}
    for k in range(available):
        p = p_at_least(modifier - k)
        new: dict[int, Fraction] = {}
        for n, q in dist.items():
            result[n] = result.get(n, Fraction(0)) + q * (1 - p)
            new[n + 1] = new.get(n + 1, Fraction(0)) + q * p
        dist = new
    for n, q in dist.items():
        result[n] = result.get(n, Fraction(0)) + q
    mean = sum(n * q for n, q in result.items())
    return Odds(tuple(Outcome(msg("cepheus.odds.stopped", "{n} stopped", n=n), float(q))
                      for n, q in sorted(result.items())),
                msg("cepheus.odds.chain", "{mean:.1f} {what} expected", mean=float(mean), what=what))


def _reaction_odds(s, a: Action) -> Odds | None:
    p = s.pending
    ship = s.ship(p.target)
    c = ship.member(a.actor)
    if c is None:
        return None
    if a.kind == "screens":
        level = max(0, int(c.skills.get("screens", 0)))
        dist = core_odds.distribution(2, 6, level + int(a.get("dm", 0) or 0))
        mean = sum(v * q for v, q in dist.items())
        return Odds(tuple(Outcome(msg("cepheus.odds.damage_off", "-{n} damage", n=v), float(q))
                          for v, q in sorted(dist.items())),
                    msg("cepheus.odds.screens", "screens take {mean:.1f} damage off on average", mean=float(mean)))
    check = CHECKS.get(a.kind)
    if check is None:
        return None
    mod = check.build(s, ship, c, a).bonus
    if a.kind == "point_defence":
        if p.kind == "board":
            return check_odds(mod, msg("cepheus.odds.boarders", "to hit the boarders"))
        incoming = sum(m.count for mid in p.missiles if (m := find_missile(s, mid)) is not None)
        return chain_odds(mod, incoming, check.what)
    return check_odds(mod, check.what)


def attack_odds(s, ship, c, a: Action, dm: int) -> Odds | None:
    mount = ship.mount(a.get("mount"))
    target_id = a.get("target")
    personal = any(p.id == target_id for p in s.personal)
    band = band_to(s, ship, target_id)
    usable = usable_weapons(s, ship, mount, band, personal)
    which = a.get("weapon", "all")
    chosen = salvo(mount, usable) if which == "all" else [int(which)]
    target = s.find_ship(target_id)
    skill = gunnery_skill(mount.kind)
    # joint distribution of (any hit, total hits) over the beams; missiles summarised
    dist = {(False, 0): Fraction(1)}
    notes = []
    p_any = []
    for i in chosen:
        w = mount.weapons[i]
        kind = WEAPONS[w.type]
        if kind.missile:
            notes.append(missile_note(s, ship, c, mount, w, target_id, dm))
            continue
        extra = attack_mods(s, ship, c, mount, target_id, w.type, personal=personal) + list(circumstance(dm))
        mod = task_check(ship, c, skill, "dex", "", extra).bonus
        p_hit = p_at_least(mod)
        p_any.append(p_hit)
        if personal:
            hd = {1: Fraction(1)}
        else:
            armour = 0 if w.type == "meson_bay" else target.armour
            hd = hits_dist(kind.dice, kind.flat, armour)
        step = {(False, 0): 1 - p_hit}
        for h, q in hd.items():
            key = (True, h)
            step[key] = step.get(key, Fraction(0)) + p_hit * q
        new: dict = {}
        for (a1, h1), q1 in dist.items():
            for (a2, h2), q2 in step.items():
                key = (a1 or a2, h1 + h2)
                new[key] = new.get(key, Fraction(0)) + q1 * q2
        dist = new
    if not p_any:
        return Odds((Outcome("launched", 1.0),), _notes(notes) or msg("cepheus.odds.launch", "launch"))
    outcomes: dict[str, Fraction] = {}
    for (hit, h), q in dist.items():
        label = "miss" if not hit else ("hit, no damage" if h == 0 else hits_of(h))
        if personal and hit:
            label = "hit (personal scale)"
        outcomes[label] = outcomes.get(label, Fraction(0)) + q
    expected = sum(h * q for (_, h), q in dist.items())
    p_one = 1 - dist.get((False, 0), Fraction(0))
    if len(p_any) == 1:
        summary = msg("cepheus.odds.to_hit", "{percent} to hit, {expected:.1f} hits expected",
                      percent=core_odds.percent(p_any[0]), expected=float(expected))
    else:
        summary = msg("cepheus.odds.one_hit", "{percent} at least one hit, {expected:.1f} hits expected",
                      percent=core_odds.percent(p_one), expected=float(expected))
    if notes:
        summary = msg("cepheus.odds.and_notes", "{summary}; {notes}", summary=summary, notes=_notes(notes))
    return Odds(tuple(Outcome(k, float(v)) for k, v in sorted(outcomes.items(), key=lambda kv: english(kv[0]))), summary)


def _notes(notes: list) -> Words:
    """The missiles' notes of an attack's odds: "missile: 42% to hit on arrival; ..." ("" for none)."""
    out: Words = ""
    for i, note in enumerate(notes):
        out = note if i == 0 else msg("cepheus.odds.notes", "{first}; {rest}", first=out, rest=note)
    return out


def missile_note(s, ship, c, mount, w, target_id, dm) -> Words:
    target = s.find_ship(target_id)
    evasive = target.evasive if target else 0
    if w.missile == "smart":
        return msg("cepheus.odds.smart", "smart missile: {percent} per attack on arrival",
                   percent=core_odds.percent(p_at_least(evasive, SMART_TO_HIT)))
    extra = attack_mods(s, ship, c, mount, target_id, w.type, launch=True) + list(circumstance(dm))
    mod = task_check(ship, c, gunnery_skill(mount.kind), "dex", "average", extra).bonus
    p = Fraction(0)
    for e, q in effect_dist(mod).items():
        need, _ = missile_to_hit(e)
        p += q * p_at_least(evasive, need)
    return msg("cepheus.odds.missile", "missile: {percent} to hit on arrival", percent=core_odds.percent(p))
