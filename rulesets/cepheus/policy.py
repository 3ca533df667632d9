"""A sensible crew bot for NPC ships and simulations.

It attacks with the best expected hits, concentrates on the weakest enemy, dodges,
fires sand and point defence when something comes in, repairs what matters, closes
or opens the range towards its weapons' best band, and runs (jump plot, then jump)
when its ship is badly hurt.  It never takes the GM override.  Only ``rng.random()``
is used, to break ties.
"""
from __future__ import annotations

import random
from typing import TYPE_CHECKING, Literal
from functools import lru_cache

from rulesets.core.engine import Action

from .actions import (
    actor_ship, attack_options, can_board, can_exploit, can_jump, can_plot_jump, can_pursue,
    helm_forced_to_avoid, leads_boarders, range_wants, sensors_work, smart_missiles_incoming,
)
from .attacks import reaction_options
from .crew import GUNNER_POSITIONS, able, char_of, gunnery_skill, skill_level
from .damage import repairable
from .odds import hits_dist
from .queries import GM, attack_difficulty, attack_situation, band_to, bridge_ok, enemies, range_ok, salvo
from .tables import (
    ATTACK_DIFFICULTY, BANDS, COLLISION_SITUATIONS, DIFFICULTY, MISSILES, MISSILE_TURNS, WEAPONS,
)

if TYPE_CHECKING:
    from .state import CombatState, Crew, Mount, Ship


_P2 = {}
for _m in range(-30, 31):
    _P2[_m] = sum(6 - abs(t - 7) for t in range(2, 13) if t + _m >= 8) / 36


#: the bot's actions, built once each (an action is an immutable value; a battle takes the same few
#: dozen again and again)
_action = lru_cache(maxsize=4096)(Action)


def p_hit(mod: int) -> float:
    return _P2[max(-30, min(30, mod))]


@lru_cache(maxsize=None)
def expected_hits(dice: int, flat: int, armour: int) -> float:
    return float(sum(h * q for h, q in hits_dist(dice, flat, armour).items()))


def _health(ship: Ship) -> float:
    total = ship.hull_max + ship.structure_max
    return (ship.hull + ship.structure) / total if total else 0.0


def fleeing(s: CombatState, ship: Ship) -> bool:
    return ship.jump > 0 and _health(ship) < 0.4 and ship.hits.get("j_drive", 0) < 2


def focus(s: CombatState, ship: Ship) -> Ship | None:
    """The enemy to concentrate on: the weakest active one (else the weakest still in the fight)."""
    side = ship.side
    best: Ship | None = None
    weakest: Ship | None = None
    best_key: tuple[float, str] | None = None  # set with ``best``
    weakest_key: tuple[float, str] | None = None  # set with ``weakest``
    for foe in s.ships:
        status = foe.status
        if foe.side == side or status not in ("active", "disabled"):
            continue
        key = (_health(foe), foe.id)  # the weakest, ties to the first id
        if status == "active" and (best_key is None or key < best_key):
            best, best_key = foe, key
        if weakest_key is None or key < weakest_key:
            weakest, weakest_key = foe, key
    return best if best is not None else weakest


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


def preferred_band(ship: Ship) -> str:
    weapons = tuple(sorted([w.type for m in ship.mounts if m.hits < 2 for w in m.weapons]))
    if not weapons:
        return "distant"
    return _preferred_of(weapons)


@lru_cache(maxsize=None)
def _preferred_of(weapons: tuple) -> str:
    """:func:`preferred_band` of a ship whose working weapons are ``weapons`` (sorted)."""
    scores = _band_score(weapons)
    best = max(scores.values())
    # the farthest of the best bands (safer), but never Adjacent by choice
    return [b for b in BANDS if scores[b] == best and b != "adjacent"][-1] if any(
        scores[b] == best and b != "adjacent" for b in BANDS) else "close"


def want_towards(current: str, goal: str) -> str:
    i, j = BANDS.index(current), BANDS.index(goal)
    return "closer" if j < i else "farther" if j > i else "hold"


def attack_value(s, ship, crew, mount, target_id: str, personal: bool, usable: list[int], which: str, best=None,
                 base: int | None = None) -> float:
    """The bot's worth of an attack: expected damage-table hits, the focus target preferred.

    ``base`` is the gunner's skill + Dex + hasty + coordination (:func:`_gunner_base`), computed once
    per choice by :func:`_gunner_choice`."""
    if personal:
        return 0.05
    if base is None:
        base = _gunner_base(ship, crew, mount)
    chosen = salvo(mount, usable) if which == "all" else [int(which)]
    return _salvo_value(s, ship, mount, s.ship(target_id), chosen, base, best)


def _salvo_value(s: CombatState, ship: Ship, mount: Mount, target: Ship, chosen: list[int], base: int,
                 best: str | None) -> float:
    """:func:`attack_value` of the weapons ``chosen`` at a ship: the sum of each weapon's expected
    damage-table hits (missiles: of the launch), each kind of weapon valued once; the attack's DMs
    that are not the weapon's difficulty (:func:`queries.attack_situation`) added up once."""
    value = 0.0
    dm: int | None = None  # the attack's DMs but the difficulty, and the band: worked out at the first beam
    band = ""
    armour = target.armour
    weapons = mount.weapons
    for i in chosen:
        w = weapons[i]
        if WEAPONS[w.type].missile:
            value += _missile_worth(w.type, w.missile, armour)
        else:
            if dm is None:
                band = band_to(s, ship, target.id)
                dm = base
                for m in attack_situation(s, ship, mount, target.id):
                    dm += m.value
            value += _beam_worth(w.type, band, armour, dm)
    if target.status != "active":
        value *= 0.2
    if best is not None and target.id == best:
        value *= 1.3
    return value


@lru_cache(maxsize=4096)
def _beam_worth(weapon: str, band: str, armour: int, dm: int) -> float:
    """Expected damage-table hits of one shot of a (non-missile) weapon at ``band``, with the attack's
    DMs but the difficulty summed in ``dm``, at a target with ``armour`` (a meson bay ignores it)."""
    kind = WEAPONS[weapon]
    return p_hit(dm + attack_difficulty(weapon, band)) * (
        expected_hits(kind.dice, kind.flat, 0 if weapon == "meson_bay" else armour) + 0.05)


@lru_cache(maxsize=1024)
def _missile_worth(weapon: str, missile: str, armour: int) -> float:
    """Expected damage-table hits of a launch (a missile bay launches four) at a target with ``armour``."""
    dice = MISSILES[missile or "standard"]["dice"]
    return 0.45 * expected_hits(dice, 0, armour) * (4 if weapon == "missile_bay" else 1)


def _gunner_base(ship: Ship, crew: Crew, mount: Mount) -> int:
    """The attack roll's DMs that do not depend on the target or weapon (Attacco)."""
    return skill_level(crew, gunnery_skill(mount.kind)) + char_of(crew, "dex") + (-1 if ship.hasty else 0) + ship.bonus.get(crew.id, 0)


def choose(s: CombatState, rng: random.Random) -> Action:
    """The bot's step.  It builds only the action it takes, reading the same conditions as the
    action list (:mod:`.actions`), so it never picks an action the rules do not allow."""
    phase = s.phase
    if s.over:
        return _action("override", GM)
    if phase != "crew":  # the crew's steps, most of a fight, ask nothing of the phases below
        if phase == "initiative":
            return _action("initiative", actor_ship(s))
        if phase == "react":
            return _react(s)
        if phase == "range":
            p = s.pending
            assert p is not None  # the range phase waits on a pending range choice
            chooser = s.ship(p.chooser)
            goal = "distant" if fleeing(s, chooser) else preferred_band(chooser)
            want = want_towards(s.band(chooser.id, p.attacker), goal)
            allowed = [w for w in ("closer", "hold", "farther") if range_ok(s, p, w)]
            return Action.make("choose_range", p.chooser, want=want if want in allowed else allowed[0])
        if phase == "delay":
            return _action("act_now", s.waiting[s.asked])
    ship, crew = s.actor()
    if ship is None or crew is None:  # (no ship, no crew member)
        return _action("override", GM)
    if crew.task is not None:
        return _action("continue_task", crew.id)
    choice = _crew_choice(s, ship, crew, rng)
    if choice is not None:
        return choice
    return _action("end_turn" if _rest_idle(s, ship) else "done", crew.id)


def _react(s: CombatState) -> Action:
    p = s.pending
    assert p is not None  # the react phase waits on a pending attack
    target = s.ship(p.target)
    options = reaction_options(s, p)
    if not options:
        return _action("no_reaction", p.target)
    first = {}  # the first option of each kind
    for option in options:
        if option[0] not in first:
            first[option[0]] = option
    for wanted in ("point_defence", "screens", "dodge", "sand"):
        chosen = first.get(wanted)
        if chosen is None:
            continue
        if wanted == "sand" and target.reactions <= 1 and "dodge" in first:
            continue
        kind, actor, params = chosen
        return _action(kind, actor, tuple(sorted(params.items())) if params else ())
    return _action("no_reaction", p.target)


#: positions the bot always has something for while their significant action is unspent
_BUSY_POSITIONS = ("captain", "pilot", "sensors", "navigator", *GUNNER_POSITIONS)


def _rest_idle(s: CombatState, ship: Ship) -> bool:
    for cid in s.queue[s.pos + 1:]:
        c = ship.member(cid)
        if c is None or not able(c):
            continue
        if c.position in _BUSY_POSITIONS:
            return False
        if c.position == "damage_control" and repairable(ship, any_one=True):
            return False
        if c.position == "engineer" and ship.jump_plotted:
            return False
        if c.task is not None:
            return False
    return True


_REPAIR_PRIORITY = ("power_plant", "m_drive", "bridge", "sensors", "j_drive", "fuel", "hold")


def _assign(s: CombatState, ship: Ship, crew: Crew) -> Action | None:
    """The Captain hands a coordination point to a gunner still to act (one without a bonus first)."""
    later = s.queue[s.pos + 1:]
    gunner: Crew | None = None  # the first gunner with a bonus already
    other: Crew | None = None  # the first other crew member
    for who in ship.crew:
        if who.id == crew.id or who.automated or who.id not in later or not able(who):
            continue
        if who.position in GUNNER_POSITIONS:
            if not ship.bonus.get(who.id):
                return _action("assign", crew.id, (("crew", who.id),))
            gunner = gunner or who
        else:
            other = other or who
    given = gunner or other
    return _action("assign", crew.id, (("crew", given.id),)) if given is not None else None


#: positions whose choice needs the enemy the bot concentrates on
_AIMING_POSITIONS = ("sensors", "pilot", "navigator", *GUNNER_POSITIONS)
#: positions the bot never gives an action to
_IDLE_POSITIONS = ("passenger",)


def _crew_choice(s: CombatState, ship: Ship, crew: Crew, rng: random.Random) -> Action | None:
    pos = crew.position
    aid = crew.id
    if pos in _IDLE_POSITIONS:
        return None
    if pos == "captain" and ship.pool > 0:
        choice = _assign(s, ship, crew)
        if choice is not None:
            return choice
    if s.sig <= 0:
        return None  # only minors left: the pilot has already manoeuvred
    target = focus(s, ship) if pos in _AIMING_POSITIONS else None
    if pos in GUNNER_POSITIONS:  # the most frequent question first (the positions exclude each other)
        return _gunner_choice(s, ship, crew, target)
    if pos == "captain":
        if can_exploit(s, ship):
            return _action("exploit", aid)
        gunners = 0  # the gunners able to act (a loop, not a generator: asked every turn)
        for c in ship.crew:
            if c.position in GUNNER_POSITIONS and able(c):
                gunners += 1
        return _action("coordinate" if gunners >= 2 else "increase_initiative", aid)
    if pos == "sensors":
        if not sensors_work(ship):
            return None
        if smart_missiles_incoming(s, ship):
            return _action("ew_missiles", aid)
        if ship.jammed:
            return _action("maintain_comms", aid)
        if target is not None:
            return _action("sensor_target", aid, (("target", target.id),))
        return None
    if pos == "pilot":
        return _pilot_choice(s, ship, crew, target, fleeing(s, ship), rng)
    if pos == "navigator":
        run = fleeing(s, ship)
        if run and can_plot_jump(ship):
            return _action("jump_plot", aid)
        if target is None:
            return None
        goal = "distant" if run else preferred_band(ship)
        want = want_towards(s.band(ship.id, target.id), goal)
        return _action("range_check", aid, (("target", target.id), ("want", want))) if want in range_wants(
            s, ship, target) else None
    if pos == "engineer":
        return _action("jump", aid) if fleeing(s, ship) and can_jump(s, ship) else None
    if pos == "damage_control":
        systems = repairable(ship)
        if systems:
            def rank(system):
                return _REPAIR_PRIORITY.index(system) if system in _REPAIR_PRIORITY else 2.5
            return _action("repair", aid, (("system", min(systems, key=rank)),))
        return None
    if pos in ("security", "marine") and leads_boarders(ship, crew):
        for f in enemies(s, ship):
            if can_board(s, ship, f):
                return Action.make("board", aid, target=f.id)
    return None


def _pilot_choice(s: CombatState, ship: Ship, crew: Crew, target: Ship | None, run: bool,
                  rng: random.Random) -> Action | None:
    aid = crew.id
    if not bridge_ok(ship):
        return None
    if helm_forced_to_avoid(s, ship) or COLLISION_SITUATIONS[s.options.hazard][1]:
        return _action("avoid_collision", aid)
    foes = enemies(s, ship)
    for f in foes:
        if f.pursuing == ship.id:
            return _action("break_pursuit", aid, (("target", f.id),))
    if run:
        return _action("evasive", aid)
    if ship.pursuing:
        for f in foes:
            if ship.pursuing == f.id:
                return _action("pursue", aid, (("target", f.id),))
    if target is not None and can_pursue(s, ship, target) and rng.random() < 0.5:
        return _action("pursue", aid, (("target", target.id),))
    gunners = False  # any gunner able to act
    for c in ship.crew:
        if c.position in GUNNER_POSITIONS and able(c):
            gunners = True
            break
    if gunners and not _threatened(s, ship):
        return _action("line_up", aid)
    return _action("evasive", aid)


#: the gunner's choice by situation (:func:`_gunner_situation`): a simulation plays one setup thousands of
#: times and its gunners meet the same situations again and again
_GUNNER_CHOICE: dict[tuple, tuple[str, str] | Literal[False]] = {}
#: forgotten past this many situations (a long-running process meets many setups): about 400 bytes each,
#: and a 10,000-battle sweep of the demo fleets over the seven bands meets some 35,000 (5,000 a band)
_GUNNER_KEEP = 40000


def _gunner_situation(s: CombatState, ship: Ship, mount: Mount, best_id: str | None, base: int) -> tuple:
    """Everything :func:`_gunner_pick` reads, as one value: the mount (its weapons, loaded or not, its
    damage, whether it has fired), the ship's fire control, sensors, bridge, lining up, pursuit and
    intercepted intentions, the gunner's DMs (``base``), the focus target, and each enemy ship (in the
    fight's order: its band, armour, evasion, whether active, the sensor lock on it) and personal target.
    Two situations that are equal give the same choice, whichever gunner and turret (the choice names a
    target and a weapon by its place in the mount: the action adds the gunner and the mount)."""
    side, sid = ship.side, ship.id
    targeting, hits, weapons = ship.targeting, ship.hits, mount.weapons
    # the fixed part first (with the number of weapons and personal targets, so the parts that follow are
    # read one way only), then each weapon, each enemy ship, each personal target
    key = [mount.kind, mount.hits, mount.id in ship.fired, hits.get("sensors", 0) < 2,
           hits.get("bridge", 0) < 2, ship.fire_control, ship.lined_up, ship.pursuing, ship.pursuit_turns,
           ship.intel, base, best_id, len(weapons), len(s.personal)]
    for w in weapons:
        key += (w.type, w.missile, w.loaded > 0)
    for foe in enemies(s, ship):
        fid = foe.id
        key += (fid, foe.status == "active", s.band(sid, fid), foe.armour, foe.evasive, targeting.get(fid, 0))
    for p in s.personal:
        key += (p.id, p.side != side, p.band)
    return tuple(key)


def _gunner_choice(s: CombatState, ship: Ship, crew: Crew, target: Ship | None) -> Action | None:
    mount = ship.mount(crew.station)
    if mount is None:
        return None
    best_id = target.id if target is not None else None
    base = _gunner_base(ship, crew, mount)
    key = _gunner_situation(s, ship, mount, best_id, base)
    best = _GUNNER_CHOICE.get(key)
    if best is None:
        best = _gunner_pick(s, ship, mount, best_id, base)
        if len(_GUNNER_CHOICE) >= _GUNNER_KEEP:
            _GUNNER_CHOICE.clear()
        _GUNNER_CHOICE[key] = best
    if not best:
        return None
    return _action("attack", crew.id, (("mount", mount.id), ("target", best[0]), ("weapon", best[1])))


def _gunner_pick(s: CombatState, ship: Ship, mount: Mount, best_id: str | None, base: int) -> tuple[str, str] | Literal[False]:
    """The gunner's attack: (target id, weapon) of the best value, False when there is none worth it."""
    options = attack_options(s, ship, mount)
    if not options:
        return False
    # "all" beats any one weapon: a salvo for every target with two or more weapons, single
    # weapons only where the target can be reached by one
    best: tuple[str, str] | None = None
    best_value: float | None = None
    for whole in (True, False):
        for tid, personal, usable in options:
            if (len(usable) > 1) != whole:
                continue
            if whole:
                which, chosen = "all", salvo(mount, usable)
            else:
                which, chosen = str(usable[0]), usable[:1]
            value = 0.05 if personal else _salvo_value(s, ship, mount, s.ship(tid), chosen, base, best_id)
            if best_value is None or value > best_value:
                best, best_value = (tid, which), value
    assert best is not None and best_value is not None  # every option has a usable weapon: one was valued
    if best_value <= 0:
        return False
    return best


def _threatened(s: CombatState, ship: Ship) -> bool:
    """Enemies that could fire on this ship with good odds: prefer evasion to lining up."""
    return _health(ship) < 0.5
