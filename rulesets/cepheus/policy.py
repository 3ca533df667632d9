"""A sensible crew bot for NPC ships and simulations.

It attacks with the best expected hits, concentrates on the weakest enemy, dodges,
fires sand and point defence when something comes in, repairs what matters, closes
or opens the range towards its weapons' best band, and runs (jump plot, then jump)
when its ship is badly hurt.  It never takes the GM override.  Only ``rng.random()``
is used, to break ties.
"""
from __future__ import annotations

import random
from functools import lru_cache

from rulesets.core.engine import Action

from .crew import GUNNER_POSITIONS, able, char_of, gunnery_skill, skill_of
from .damage import repairable
from .actions import decisions
from .odds import hits_dist
from .queries import attack_mods, enemies, usable_weapons
from .tables import ATTACK_DIFFICULTY, BANDS, DIFFICULTY, MISSILES, MISSILE_TURNS, WEAPONS


_P2 = {}
for _m in range(-30, 31):
    _P2[_m] = sum(6 - abs(t - 7) for t in range(2, 13) if t + _m >= 8) / 36


def p_hit(mod: int) -> float:
    return _P2[max(-30, min(30, mod))]


@lru_cache(maxsize=None)
def expected_hits(dice: int, flat: int, armour: int) -> float:
    return float(sum(h * q for h, q in hits_dist(dice, flat, armour).items()))


def _health(ship) -> float:
    total = ship.hull_max + ship.structure_max
    return (ship.hull + ship.structure) / total if total else 0.0


def fleeing(s, ship) -> bool:
    return ship.jump > 0 and _health(ship) < 0.4 and ship.hits.get("j_drive", 0) < 2


def focus(s, ship):
    foes = [f for f in enemies(s, ship) if f.status == "active"] or enemies(s, ship)
    if not foes:
        return None
    return min(foes, key=lambda f: (_health(f), f.id))


@lru_cache(maxsize=None)
def _band_score(weapons: tuple) -> dict:
    scores = {}
    for band in BANDS:
        total = 0.0
        for w in weapons:
            kind = WEAPONS[w]
            if kind.missile:
                total += 0.0 if MISSILE_TURNS[band] else -6
            elif kind.key == "sandcaster":
                continue
            else:
                diff = ATTACK_DIFFICULTY[kind.row][band]
                total += DIFFICULTY[diff] if diff else -8
        scores[band] = total
    return scores


def preferred_band(ship) -> str:
    weapons = tuple(sorted(w.type for m in ship.mounts if m.hits < 2 for w in m.weapons))
    if not weapons:
        return "distant"
    scores = _band_score(weapons)
    best = max(scores.values())
    # the farthest of the best bands (safer), but never Adjacent by choice
    return [b for b in BANDS if scores[b] == best and b != "adjacent"][-1] if any(
        scores[b] == best and b != "adjacent" for b in BANDS) else "close"


def want_towards(current: str, goal: str) -> str:
    i, j = BANDS.index(current), BANDS.index(goal)
    return "closer" if j < i else "farther" if j > i else "hold"


def attack_value(s, ship, crew, a: Action, best=None) -> float:
    mount = ship.mount(a.get("mount"))
    target_id = a.get("target")
    if any(p.id == target_id for p in s.personal):
        return 0.05
    target = s.ship(target_id)
    band = s.band(ship.id, target_id)
    usable = usable_weapons(s, ship, mount, band)
    which = a.get("weapon", "all")
    chosen = ([i for i in usable if mount.weapons[i].type != "sandcaster"] or usable) if which == "all" else [int(which)]
    skill, _ = skill_of(crew, gunnery_skill(mount.kind))
    base = skill + char_of(crew, "dex") + (-1 if ship.hasty else 0) + ship.bonus.get(crew.id, 0)
    value = 0.0
    for i in chosen:
        w = mount.weapons[i]
        kind = WEAPONS[w.type]
        if kind.missile:
            dice = MISSILES[w.missile or "standard"]["dice"]
            value += 0.45 * expected_hits(dice, 0, target.armour) * (4 if w.type == "missile_bay" else 1)
            continue
        mods = sum(v for _, v in attack_mods(s, ship, crew, mount, target_id, w.type))
        armour = 0 if w.type == "meson_bay" else target.armour
        value += p_hit(base + mods) * (expected_hits(kind.dice, kind.flat, armour) + 0.05)
    if target.status != "active":
        value *= 0.2
    if best is not None and target.id == best:
        value *= 1.3
    return value


def choose(s, rng: random.Random) -> Action:
    acts = decisions(s, lean=True)
    if not acts:
        return Action.make("override", "gm")
    if len(acts) == 1:
        return acts[0]
    by_kind: dict[str, list[Action]] = {}
    for a in acts:
        by_kind.setdefault(a.kind, []).append(a)
    if s.phase == "react":
        return _react(s, by_kind)
    if s.phase == "range":
        p = s.pending
        chooser = s.ship(p.chooser)
        other = p.attacker
        goal = "distant" if fleeing(s, chooser) else preferred_band(chooser)
        want = want_towards(s.band(chooser.id, other), goal)
        for a in acts:
            if a.get("want") == want:
                return a
        return by_kind.get("choose_range", acts)[0]
    if s.phase == "delay":
        return by_kind.get("act_now", acts)[0]
    ship, crew = s.acting_ship, s.acting_crew
    choice = _crew_choice(s, ship, crew, by_kind, rng)
    if choice is not None:
        return choice
    if _rest_idle(s, ship):
        return by_kind["end_turn"][0]
    return by_kind["done"][0]


def _react(s, by_kind) -> Action:
    p = s.pending
    target = s.ship(p.target)
    for kind in ("point_defence", "screens", "dodge", "sand"):
        if kind in by_kind:
            if kind == "sand" and target.reactions <= 1 and "dodge" in by_kind:
                continue
            return by_kind[kind][0]
    return by_kind["no_reaction"][0]


def _rest_idle(s, ship) -> bool:
    for cid in s.queue[s.pos + 1:]:
        c = ship.member(cid)
        if c is None or not able(c):
            continue
        if c.position in ("captain", "pilot", "sensors", "navigator", *GUNNER_POSITIONS):
            return False
        if c.position == "damage_control" and repairable(ship):
            return False
        if c.position == "engineer" and ship.jump_plotted:
            return False
        if c.task is not None:
            return False
    return True


_REPAIR_PRIORITY = ("power_plant", "m_drive", "bridge", "sensors", "j_drive", "fuel", "hold")


def _crew_choice(s, ship, crew, by_kind, rng) -> Action | None:
    pos = crew.position
    run = fleeing(s, ship)
    target = focus(s, ship)
    if "continue_task" in by_kind:
        return by_kind["continue_task"][0]
    if "assign" in by_kind:
        later = set(s.queue[s.pos + 1:])
        for fresh in (True, False):
            for a in by_kind["assign"]:
                who = ship.member(a.get("crew"))
                if who.id in later and who.position in GUNNER_POSITIONS and (not fresh or not ship.bonus.get(who.id)):
                    return a
        for a in by_kind["assign"]:
            if a.get("crew") in later:
                return a
    if s.sig <= 0:
        return None  # only minors left: the pilot has already manoeuvred
    if pos == "captain":
        if "exploit" in by_kind:
            return by_kind["exploit"][0]
        gunners = sum(1 for c in ship.crew if c.position in GUNNER_POSITIONS and able(c))
        if gunners >= 2 and "coordinate" in by_kind:
            return by_kind["coordinate"][0]
        return by_kind.get("increase_initiative", [None])[0]
    if pos == "sensors":
        if "ew_missiles" in by_kind:
            return by_kind["ew_missiles"][0]
        if ship.jammed and "maintain_comms" in by_kind:
            return by_kind["maintain_comms"][0]
        for a in by_kind.get("sensor_target", []):
            if target is not None and a.get("target") == target.id:
                return a
        return None
    if pos == "pilot":
        if "avoid_collision" in by_kind:
            return by_kind["avoid_collision"][0]
        if "break_pursuit" in by_kind:
            return by_kind["break_pursuit"][0]
        if run:
            return by_kind.get("evasive", [None])[0]
        for a in by_kind.get("pursue", []):
            if ship.pursuing == a.get("target"):
                return a
        if target is not None:
            for a in by_kind.get("pursue", []):
                if a.get("target") == target.id and rng.random() < 0.5:
                    return a
        gunners = any(c.position in GUNNER_POSITIONS and able(c) for c in ship.crew)
        if gunners and "line_up" in by_kind and not _threatened(s, ship):
            return by_kind["line_up"][0]
        return by_kind.get("evasive", [None])[0]
    if pos == "navigator":
        if run and "jump_plot" in by_kind:
            return by_kind["jump_plot"][0]
        if target is None:
            return None
        goal = "distant" if run else preferred_band(ship)
        want = want_towards(s.band(ship.id, target.id), goal)
        for a in by_kind.get("range_check", []):
            if a.get("target") == target.id and a.get("want") == want:
                return a
        return None
    if pos in GUNNER_POSITIONS:
        attacks = by_kind.get("attack", [])
        if not attacks:
            return None
        salvo = [a for a in attacks if a.get("weapon") == "all"]
        singles = {a.get("target") for a in salvo}
        attacks = salvo + [a for a in attacks if a.get("target") not in singles]  # "all" beats any one weapon
        best_id = target.id if target is not None else None
        scored = [(attack_value(s, ship, crew, a, best_id), -i, a) for i, a in enumerate(attacks)]
        best = max(scored, key=lambda t: (t[0], t[1]))
        return best[2] if best[0] > 0 else None
    if pos == "engineer":
        if run and "jump" in by_kind:
            return by_kind["jump"][0]
        return None
    if pos == "damage_control":
        repairs = by_kind.get("repair", [])
        if repairs:
            def rank(a):
                sysname = a.get("system")
                return _REPAIR_PRIORITY.index(sysname) if sysname in _REPAIR_PRIORITY else 2.5
            return min(repairs, key=rank)
        return None
    if pos in ("security", "marine"):
        for a in by_kind.get("board", []):
            return a
        return None
    return None


def _threatened(s, ship) -> bool:
    """Enemies that could fire on this ship with good odds: prefer evasion to lining up."""
    return _health(ship) < 0.5
