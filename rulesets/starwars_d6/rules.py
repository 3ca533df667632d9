"""The Star Wars D6 starship-combat state and the round sequence, as pure functions.

Seed: star-wars-d6-starship-combat.ca.txt; resolutions: RULES-NOTES "starwars_d6".
Every public function takes a state and returns a *new* state (the argument is never
changed) and the log lines of what happened.  The state is plain data: dataclasses
that round-trip through :mod:`rulesets.core.serial`.

The round (seed "4. SEQÜENCIA DE JOC"):

* ``initiative``: each side rolls 2D; ties are rerolled (only the tied sides);
  the order is rising (lowest moves and fires first) -- :func:`roll_initiative`;
* ``movement``: sides in that order, each side's ships in list order; every ship
  spends its speed with :func:`rulesets.starwars_d6.hexes.legal_moves` --
  :func:`move_options`, :func:`move`;
* ``firing``: the same order; every shot rolls to hit and its damage at once, but
  the damage is applied only after every ship has fired (simultaneous fire) --
  :func:`fire_options`, :func:`fire`, :func:`end_fire`, then :func:`resolve_firing`
  sums the damage on each target, rolls shields and hull, applies the band, removes
  the destroyed ships and goes back to ``initiative`` of the next round.

Pure Python: no Django import.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field

from rulesets.core.dice import Dice
from rulesets.core.engine import LogEntry

from . import hexes as H
from . import tables as T
from .dice import CodeError, DiceCode, roll_code

SEC_PROCEDURE = "2. COMBAT: Procediment"
SEC_FIRE_TOGETHER = "2. COMBAT: sistemes d'armes disparats alhora"
SEC_MISSILE_SPEED = "3. CASOS ESPECIALS: Míssils i torpedes"
SEC_IONISED = "5. DETERMINANT ELS DANYS: Controls ionitzats"
SEC_SHIELDS_BLOWN = "5. DETERMINANT ELS DANYS: Escuts anul·lats"
SEC_CUMULATIVE = "5. DETERMINANT ELS DANYS: Tots els danys es consideren acumulatius"
SEC_SEVERE = "5. DETERMINANT ELS DANYS: Danys severs (RULES-NOTES)"
SEC_INITIATIVE = "4. SEQÜENCIA DE JOC: Fase d'iniciativa"
SEC_MOVEMENT_PHASE = "4. SEQÜENCIA DE JOC: Fase de moviment"
SEC_FIRING_PHASE = "4. SEQÜENCIA DE JOC: Fase de foc"
SEC_SCALE_TO_HIT = "6. ESCALES: Escala a la tirada per impactar"
SEC_SCALE_EVASION = "6. ESCALES: Escala per maniobres evasives"
SEC_SCALE_DAMAGE = "6. ESCALES: Escala per determinar el dany"

#: "Controls destruïts" (ion table 21+): decision -- the controls are dead for the rest of the fight.
CONTROLS_DESTROYED = 10 ** 6

#: Weapon types whose special rules (the tractor beam's capture) are not implemented yet;
#: they are valid stats but offer no shots.
NOT_YET_FIRING = ("tractor_beam",)


# ---------------------------------------------------------------- the plain data
@dataclass
class Weapon:
    """One weapon system.  ``linked``: fire-linked guns -- one to-hit roll, one damage roll
    (seed "2. COMBAT": "Les armes enllaçades aconsegueixen un sol impacte")."""

    id: str
    name: str
    type: str
    fire_control: str = "0D"
    damage: str = "0D"
    linked: int = 1
    ammo: int | None = None      # None: unlimited
    disabled: bool = False
    fc_reduced: bool = False     # fire control lost dice to damage (0D then = inoperative)
    shots: int = 1               # guns fired as one broadside (seed "Factors de Foc"); 1 = a single shot


@dataclass
class Crew:
    """Crew skills as dice codes: starship gunnery, piloting, starship shields."""

    gunnery: str = "3D"
    piloting: str = "3D"
    shields: str = "3D"


@dataclass
class Ship:
    id: str
    name: str
    side: str
    scale: str = T.STARFIGHTER
    speed: int = 5
    maneuverability: str = "1D"
    hull: str = "2D"
    shields: str = "0D"
    hyperdrive: str | None = None
    weapons: list[Weapon] = field(default_factory=list)
    crew: Crew = field(default_factory=Crew)
    col: int = 0
    row: int = 0
    facing: int = 0
    # ---- state of the fight
    destroyed: bool = False
    off_board: bool = False
    severe: bool = False             # severely damaged: the next damaging hit destroys it
    ionised: list[int] = field(default_factory=list)  # one entry per result: the last round it lasts
    controls_dead_until: int = 0     # fully ionised: drifts through this round
    last_moved: int = 0              # hexes entered in its last movement (for the drift)
    dead_in_space: bool = False
    hyperdrive_out: bool = False
    generator_overload_round: int | None = None   # explodes at the end of this round
    structural_round: int | None = None           # disintegrates at the end of this round
    damage: list[str] = field(default_factory=list)  # results suffered, in order

    @property
    def pos(self) -> tuple[int, int]:
        return (self.col, self.row)

    @property
    def in_play(self) -> bool:
        return not (self.destroyed or self.off_board)


@dataclass
class Progress:
    """The moving ship's movement so far (seed "1. MOVIMENT I MANIOBRA")."""

    ship: str
    speed_left: int
    free_turns_left: int
    after_forward: bool = False
    hexes: int = 0


@dataclass
class Shot:
    """A shot fired this firing phase; its damage waits for :func:`resolve_firing`."""

    attacker: str
    weapon: str
    target: str
    band: str
    attack: int
    evasion: int
    hit: bool
    damage: int = 0
    hits: int = 1                # broadside hits (fire factors); damage is their summed damage
    ion: bool = False            # an ion-cannon hit: resolved on the ion table, not as damage
    no_damage: bool = False      # scale: a starfighter cannot damage a Death Star


@dataclass
class BoardSize:
    width: int = 30
    height: int = 20


@dataclass
class CombatState:
    ships: list[Ship] = field(default_factory=list)
    board: BoardSize = field(default_factory=BoardSize)
    wild: bool = True
    max_rounds: int = 0              # 0: no limit (the GM ends the fight); else over after this round
    round: int = 1
    phase: str = "initiative"        # initiative | movement | firing
    active: str = ""                 # a human label of who acts now
    over: bool = False
    winner: str | None = None
    sides: list[str] = field(default_factory=list)
    initiative: dict[str, int] = field(default_factory=dict)  # side -> its (last) 2D roll
    order: list[str] = field(default_factory=list)             # sides, lowest first
    queue: list[str] = field(default_factory=list)             # ship ids still to move / fire
    moving: Progress | None = None
    fired: list[str] = field(default_factory=list)             # weapon ids ("ship:weapon") fired
    shots: list[Shot] = field(default_factory=list)

    def ship(self, ship_id: str) -> Ship:
        for sh in self.ships:
            if sh.id == ship_id:
                return sh
        raise KeyError(ship_id)

    @property
    def hboard(self) -> H.Board:
        return H.Board(self.board.width, self.board.height)


# ---------------------------------------------------------------- stats
def _is_code(value) -> bool:
    try:
        DiceCode.parse(value)
    except (CodeError, TypeError):
        return False
    return True


def validate_stats(stats: dict) -> list[str]:
    """Problems with a ship's stats (empty when they are fine)."""
    errors: list[str] = []
    if not isinstance(stats, dict):
        return ["Ship stats must be a mapping."]
    if not str(stats.get("name", "")).strip():
        errors.append("A ship needs a name.")
    if stats.get("scale", T.STARFIGHTER) not in T.SCALES:
        errors.append(f"Scale must be one of {', '.join(T.SCALES)}.")
    speed = stats.get("speed", 0)
    if not isinstance(speed, int) or isinstance(speed, bool) or speed < 0:
        errors.append("Speed must be a whole number, 0 or more.")
    for key in ("maneuverability", "hull", "shields"):
        if key in stats and not _is_code(stats[key]):
            errors.append(f"{key.capitalize()} must be a dice code like 2D+1.")
    if "hull" not in stats:
        errors.append("A ship needs a hull code.")
    if stats.get("hyperdrive") not in (None, "") and not isinstance(stats.get("hyperdrive"), str):
        errors.append("Hyperdrive must be text such as x1, or empty.")
    for key, value in (stats.get("crew") or {}).items():
        if key not in ("gunnery", "piloting", "shields"):
            errors.append(f"Unknown crew skill {key!r}.")
        elif not _is_code(value):
            errors.append(f"Crew {key} must be a dice code like 4D.")
    ids = set()
    for i, w in enumerate(stats.get("weapons") or []):
        label = f"Weapon {i + 1}"
        if not isinstance(w, dict):
            errors.append(f"{label} must be a mapping.")
            continue
        if w.get("type") not in T.WEAPON_TYPES:
            errors.append(f"{label}: type must be one of {', '.join(T.WEAPON_TYPES)}.")
        for key in ("fire_control", "damage"):
            if not _is_code(w.get(key, "0D")):
                errors.append(f"{label}: {key.replace('_', ' ')} must be a dice code.")
        linked = w.get("linked", 1)
        if not isinstance(linked, int) or isinstance(linked, bool) or linked < 1:
            errors.append(f"{label}: fire-linked count must be 1 or more.")
        shots = w.get("shots", 1)
        if not isinstance(shots, int) or isinstance(shots, bool) or shots < 1:
            errors.append(f"{label}: broadside shots must be 1 or more.")
        ammo = w.get("ammo")
        if ammo is not None and (not isinstance(ammo, int) or isinstance(ammo, bool) or ammo < 0):
            errors.append(f"{label}: ammunition must be a whole number, 0 or more, or empty.")
        wid = str(w.get("id", f"w{i + 1}"))
        if wid in ids:
            errors.append(f"{label}: the id {wid!r} is used twice.")
        ids.add(wid)
    return errors


def build_ship(stats: dict, *, id: str, side: str, col: int = 0, row: int = 0, facing: int = 0) -> Ship:
    """A :class:`Ship` from stats that :func:`validate_stats` accepts (codes normalised)."""
    errors = validate_stats(stats)
    if errors:
        raise ValueError("; ".join(errors))
    crew = stats.get("crew") or {}
    weapons = [Weapon(id=str(w.get("id", f"w{i + 1}")), name=str(w.get("name", T.WEAPON_LABEL[w["type"]])),
                      type=w["type"], fire_control=str(DiceCode.parse(w.get("fire_control", "0D"))),
                      damage=str(DiceCode.parse(w.get("damage", "0D"))), linked=int(w.get("linked", 1)),
                      ammo=w.get("ammo"), shots=int(w.get("shots", 1)))
               for i, w in enumerate(stats.get("weapons") or [])]
    return Ship(id=id, name=str(stats["name"]), side=side, scale=stats.get("scale", T.STARFIGHTER),
                speed=int(stats.get("speed", 0)),
                maneuverability=str(DiceCode.parse(stats.get("maneuverability", "0D"))),
                hull=str(DiceCode.parse(stats["hull"])), shields=str(DiceCode.parse(stats.get("shields", "0D"))),
                hyperdrive=stats.get("hyperdrive") or None, weapons=weapons,
                crew=Crew(**{k: str(DiceCode.parse(v)) for k, v in crew.items()}),
                col=col, row=row, facing=facing % 6)


def new_combat(ships: list[Ship], width: int = 30, height: int = 20, *, wild: bool = True,
               max_rounds: int = 0) -> CombatState:
    sides: list[str] = []
    for sh in ships:
        if sh.side not in sides:
            sides.append(sh.side)
    s = CombatState(ships=copy.deepcopy(ships), board=BoardSize(width, height), wild=wild,
                    max_rounds=max_rounds, sides=sides)
    s.active = "Initiative: every side rolls 2D"
    return s


# ---------------------------------------------------------------- current values
def _active_ionised(ship: Ship, rnd: int) -> int:
    return sum(1 for last in ship.ionised if last >= rnd)


def controls_dead(ship: Ship, rnd: int) -> bool:
    """Seed 5. "Controls ionitzats": fully ionised controls (no turning, firing or shields)."""
    return ship.controls_dead_until >= rnd


def penalty(ship: Ship, rnd: int) -> int:
    """Pips lost to controls ionised (1D per result still lasting)."""
    return _active_ionised(ship, rnd) * T.IONISED_PENALTY


def current_maneuverability(ship: Ship, rnd: int) -> DiceCode:
    return DiceCode.parse(ship.maneuverability) - penalty(ship, rnd)


def current_fire_control(ship: Ship, weapon: Weapon, rnd: int) -> DiceCode:
    return DiceCode.parse(weapon.fire_control) - penalty(ship, rnd)


def current_damage(ship: Ship, weapon: Weapon, rnd: int) -> DiceCode:
    return DiceCode.parse(weapon.damage) - penalty(ship, rnd)


def _zero(code_text: str) -> bool:
    """decision: a factor is at 0D (inoperative) when it has no dice left (pips ignored)."""
    return DiceCode.parse(code_text).dice == 0


def weapon_operative(weapon: Weapon) -> bool:
    """Seed 5.: a disabled weapon, or one whose fire control damage reduced to 0D, is inoperative."""
    if weapon.disabled or (weapon.ammo is not None and weapon.ammo <= 0):
        return False
    return not (weapon.fc_reduced and _zero(weapon.fire_control))


# ---------------------------------------------------------------- sequence
def _label(s: CombatState) -> str:
    if s.over:
        return "Over" + (f": {s.winner} wins" if s.winner else ": no winner")
    if s.phase == "initiative":
        return f"Round {s.round}: initiative"
    if s.queue:
        sh = s.ship(s.queue[0])
        return f"Round {s.round}, {s.phase}: {sh.name} ({sh.side})"
    return f"Round {s.round}, {s.phase}: resolve damage"


def _in_play_sides(s: CombatState) -> list[str]:
    return [side for side in s.sides if any(sh.side == side and sh.in_play for sh in s.ships)]


def _queue(s: CombatState) -> list[str]:
    return [sh.id for side in s.order for sh in s.ships if sh.side == side and sh.in_play]


def roll_initiative(state: CombatState, dice: Dice) -> tuple[CombatState, list[LogEntry]]:
    """Seed 4. "Fase d'iniciativa": 2D per side; lowest moves first; ties rerolled.

    decision: only the tied sides roll again, and only to order themselves.
    """
    s = copy.deepcopy(state)
    log: list[LogEntry] = []
    rolls: dict[str, int] = {}

    def order(group: list[str]) -> list[str]:
        if len(group) <= 1:
            return group
        got = {}
        for side in group:
            r = roll_code(dice, T.INITIATIVE_DICE, wild=s.wild, purpose=f"initiative of {side}", rule=SEC_INITIATIVE)
            got[side] = rolls[side] = r.total
            log.append(LogEntry(f"Initiative: {side} rolls {r.total}.", SEC_INITIATIVE))
        out: list[str] = []
        for total in sorted(set(got.values())):
            tied = [side for side in group if got[side] == total]
            if len(tied) > 1:
                log.append(LogEntry(f"Tie on {total} ({', '.join(tied)}): rolled again.", SEC_INITIATIVE))
            out.extend(order(tied))
        return out

    s.order = order(_in_play_sides(s))
    s.initiative = rolls
    s.phase = "movement"
    s.queue = _queue(s)
    s.fired, s.shots = [], []
    log.append(LogEntry(f"Round {s.round}: {' then '.join(s.order)} (lowest first).", SEC_INITIATIVE))
    s.moving = _start_moving(s)
    s.active = _label(s)
    return s, log


def _start_moving(s: CombatState) -> Progress | None:
    if not s.queue:
        return None
    sh = s.ship(s.queue[0])
    return Progress(sh.id, 0 if sh.dead_in_space else sh.speed,
                    H.maneuverability_points(current_maneuverability(sh, s.round)))


def move_options(state: CombatState) -> list[H.Move]:
    """The moving ship's legal next moves (seed "1. MOVIMENT I MANIOBRA", via hexes.legal_moves).

    A ship with fully ionised controls only drifts (see :func:`drift`): no options here.
    """
    s = state
    if s.phase != "movement" or not s.moving:
        return []
    sh = s.ship(s.moving.ship)
    if controls_dead(sh, s.round):
        return []
    return H.legal_moves(sh.pos, sh.facing, s.moving.speed_left, s.moving.free_turns_left,
                         sh.scale != T.STARFIGHTER, s.hboard, after_forward=s.moving.after_forward)


def _next_mover(s: CombatState, log: list[LogEntry]) -> None:
    s.queue.pop(0)
    s.moving = _start_moving(s)
    if s.moving is None:
        s.phase = "firing"
        s.queue = _queue(s)
        log.append(LogEntry(f"Round {s.round}: firing phase, in the same order; all fire is simultaneous.",
                            SEC_FIRING_PHASE))
    s.active = _label(s)


def move(state: CombatState, kind: str, side: int = 0) -> tuple[CombatState, list[LogEntry]]:
    """Make one of :func:`move_options` (``kind`` forward/turn/slide/hold, ``side`` -1/+1)."""
    options = {(m.kind, m.side): m for m in move_options(state)}
    if (kind, side) not in options:
        raise ValueError(f"{kind} {side} is not a legal move now.")
    m = options[(kind, side)]
    s = copy.deepcopy(state)
    sh = s.ship(s.moving.ship)
    sh.col, sh.row = m.to
    sh.facing = m.facing
    p = s.moving
    p.speed_left, p.free_turns_left, p.after_forward = m.speed_left, m.free_turns_left, m.after.after_forward
    if kind in ("forward", "slide"):
        p.hexes += 1
    log = [LogEntry(f"{sh.name}: {m.label}.", T.SEC_MOVEMENT)]
    if m.leaves_board:
        sh.off_board = True
        log.append(LogEntry(f"{sh.name} leaves the board and the combat.",
                            "3. CASOS ESPECIALS: Retirar-se del combat"))
    if m.after.done:
        sh.last_moved = p.hexes
        _next_mover(s, log)
    s.active = _label(s)
    return s, log


def drift(state: CombatState) -> tuple[CombatState, list[LogEntry]]:
    """Seed 5. "Controls ionitzats": dead controls -- the ship moves as many hexes as it last
    moved, straight on, even off the board."""
    s = copy.deepcopy(state)
    sh = s.ship(s.moving.ship)
    if not controls_dead(sh, s.round):
        raise ValueError(f"{sh.name} has working controls: it moves normally.")
    path, off = H.drift(sh.pos, sh.facing, sh.last_moved, s.hboard)
    if path:
        sh.col, sh.row = path[-1]
    log = [LogEntry(f"{sh.name} drifts {len(path)} hex(es) with dead controls.", SEC_IONISED)]
    if off:
        sh.off_board = True
        log.append(LogEntry(f"{sh.name} drifts off the board and leaves the combat.", SEC_IONISED))
    _next_mover(s, log)
    return s, log


# ---------------------------------------------------------------- firing
def _weapon_key(ship: Ship, weapon: Weapon) -> str:
    return f"{ship.id}:{weapon.id}"


def shot_band(state: CombatState, attacker: Ship, weapon: Weapon, target: Ship) -> str | None:
    """The range band of a shot, or None when it cannot be made (range, scale, speed)."""
    if (attacker.scale, target.scale) in T.CANNOT_FIRE:
        return None
    if weapon.type == "proton_torpedo" and T.speed_modifier("proton_torpedo", target.speed) is None:
        return None
    return T.range_band(weapon.type, H.distance(attacker.pos, target.pos), target.scale)


def fire_options(state: CombatState) -> list[tuple[str, str]]:
    """(weapon id, target id) the firing ship may still shoot this phase.

    Seed "2. COMBAT": each weapon system fires once; only systems that may fire together
    (tables.may_fire_together); a target of another side, in the weapon's range band.
    """
    s = state
    if s.phase != "firing" or not s.queue:
        return []
    sh = s.ship(s.queue[0])
    if controls_dead(sh, s.round):
        return []
    fired_types = [w.type for w in sh.weapons if _weapon_key(sh, w) in s.fired]
    out = []
    for w in sh.weapons:
        if w.type in NOT_YET_FIRING or _weapon_key(sh, w) in s.fired or not weapon_operative(w):
            continue
        if not T.may_fire_together(fired_types + [w.type]):
            continue
        for t in s.ships:
            if t.side != sh.side and t.in_play and shot_band(s, sh, w, t):
                out.append((w.id, t.id))
    return out


def fire_control_code(state: CombatState, attacker: Ship, weapon: Weapon, target: Ship, band: str) -> DiceCode:
    """The fire control of a shot: the range band's +1D/-1D, missiles and torpedoes against the
    target's speed, controls ionised."""
    fc = current_fire_control(attacker, weapon, state.round) + T.RANGE_MODIFIER[band]
    if weapon.type in T.MISSILE_WEAPONS:
        fc = fc + T.speed_modifier(weapon.type, target.speed)
    return fc


def attack_code(state: CombatState, attacker: Ship, weapon: Weapon, target: Ship, band: str) -> DiceCode:
    """Seed "2. COMBAT" step 1: gunnery + fire control (see :func:`fire_control_code`)."""
    return DiceCode.parse(attacker.crew.gunnery) + fire_control_code(state, attacker, weapon, target, band)


def evasion_code(state: CombatState, target: Ship) -> DiceCode:
    """Seed "2. COMBAT" step 2: piloting + maneuverability (less controls ionised)."""
    return DiceCode.parse(target.crew.piloting) + current_maneuverability(target, state.round)


def roll_skill_and_factor(dice: Dice, skill, factor, *, cap: int | None, wild: bool, purpose: str,
                          rule: str) -> int:
    """Roll a crew skill + a ship factor where a scale cap applies to the factor's dice only
    (seed "6. ESCALES": "totes les tirades de Control de Foc / Maniobrabilitat / Escuts").

    No cap: one roll of skill + factor.  With a cap: the skill is rolled with the Wild Die,
    uncapped; then the factor, every die over the cap counting the cap.  decision: the Wild Die
    stays with the skill; only a 0D skill leaves it to the capped factor (where, per the notes,
    it still explodes on a natural 6).
    """
    skill, factor = DiceCode.parse(skill), DiceCode.parse(factor)
    if cap is None:
        return roll_code(dice, skill + factor, wild=wild, purpose=purpose, rule=rule).total
    total = 0
    if skill.total_pips:
        total += roll_code(dice, skill, wild=wild, purpose=f"{purpose} (skill)", rule=rule).total
    if factor.total_pips:
        total += roll_code(dice, factor, wild=wild and skill.dice == 0, purpose=f"{purpose} (capped at {cap})",
                           rule=rule, cap=cap).total
    return total


def broadside_hits(dice: Dice, shots: int, purpose: str = "fire factor") -> int:
    """Seed "Factors de Foc per les Naus Capitals" with RULES-NOTES: the hits of a broadside that hit.

    One d6 per full 6 shots (the die is the hits), and the small-volley table for the remainder
    (2: 1-3/4-6 = 1/2; 3: 1-2/3-4/5-6 = 1/2/3; 4: the die, 5-6 rolled again; 5: the die, 6 rolled
    again).  decision: a remainder of 1 shot is one hit, no die.
    """
    if shots < 1:
        raise ValueError("a broadside has at least one shot")
    groups = [6] * (shots // 6) + ([shots % 6] if shots % 6 else [])
    hits = 0
    for n in groups:
        table = T.FIRE_FACTORS[n]
        if n == 1:
            hits += 1
            continue
        while True:
            face = dice.faces(1, 6, f"{purpose} ({n} shots)", T.SEC_FIRE_FACTORS)[0]
            if face not in table["reroll"]:
                break
        hits += table["hits"][face]
    return hits


def fire(state: CombatState, weapon_id: str, target_id: str, dice: Dice) -> tuple[CombatState, list[LogEntry]]:
    """One weapon system of the firing ship shoots (seed "2. COMBAT", steps 1-4).

    Hit when attack >= evasion (the defender rolls against each shot).  A hit rolls the
    weapon's damage now; it is applied in :func:`resolve_firing`.
    """
    if (weapon_id, target_id) not in fire_options(state):
        raise ValueError(f"{weapon_id} at {target_id} is not a legal shot now.")
    s = copy.deepcopy(state)
    sh = s.ship(s.queue[0])
    w = next(w for w in sh.weapons if w.id == weapon_id)
    t = s.ship(target_id)
    band = shot_band(s, sh, w, t)
    hit_cap = T.TO_HIT_CAP.get((sh.scale, t.scale))
    evade_cap = T.EVASION_CAP.get((t.scale, sh.scale))
    dmg_cap = T.DAMAGE_CAP.get((sh.scale, t.scale))
    a = roll_skill_and_factor(dice, sh.crew.gunnery, fire_control_code(s, sh, w, t, band), cap=hit_cap,
                              wild=s.wild, purpose=f"{sh.name} {w.name} to hit",
                              rule=SEC_SCALE_TO_HIT if hit_cap is not None else SEC_PROCEDURE)
    e = roll_skill_and_factor(dice, t.crew.piloting, current_maneuverability(t, s.round), cap=evade_cap,
                              wild=s.wild, purpose=f"{t.name} evades",
                              rule=SEC_SCALE_EVASION if evade_cap is not None else SEC_PROCEDURE)
    hit = a >= e
    shot = Shot(sh.id, w.id, t.id, band, a, e, hit, ion=w.type == "ion_cannon")
    s.fired.append(_weapon_key(sh, w))
    if w.ammo is not None:
        w.ammo -= 1
    what = f"{w.name} ({w.shots}-gun broadside)" if w.shots > 1 else w.name
    log = [LogEntry(f"{sh.name} fires {what} at {t.name} ({band} range): {a} against {e} -- "
                    + ("hit." if hit else "miss."), SEC_PROCEDURE)]
    if hit:
        if w.shots > 1:
            shot.hits = broadside_hits(dice, w.shots, f"{sh.name} {w.name} fire factor")
            log.append(LogEntry(f"Fire factor: {shot.hits} of {w.shots} shots hit.", T.SEC_FIRE_FACTORS))
        if dmg_cap == 0:
            shot.no_damage = True
            log.append(LogEntry(f"A {T.SCALE_LABEL[sh.scale]} cannot cause significant damage to "
                                f"{t.name}.", SEC_SCALE_DAMAGE))
        else:
            rule = SEC_SCALE_DAMAGE if dmg_cap is not None else SEC_PROCEDURE
            rolls = [roll_code(dice, current_damage(sh, w, s.round), wild=s.wild, cap=dmg_cap,
                               purpose=f"{w.name} {'ion damage' if shot.ion else 'damage'}", rule=rule).total
                     for _ in range(shot.hits)]
            shot.damage = sum(rolls)
            capped_note = f" (dice over {dmg_cap} count {dmg_cap})" if dmg_cap is not None else ""
            if shot.ion:
                log.append(LogEntry(f"Ion damage {shot.damage}{capped_note} (applied after all fire).", T.SEC_ION))
            else:
                log.append(LogEntry(f"Damage {shot.damage}{capped_note} (applied after all fire).", SEC_FIRING_PHASE))
    s.shots.append(shot)
    s.active = _label(s)
    return s, log


def end_fire(state: CombatState) -> tuple[CombatState, list[LogEntry]]:
    """The firing ship is done; the next in order fires (none left: resolve the damage)."""
    s = copy.deepcopy(state)
    if s.phase != "firing" or not s.queue:
        raise ValueError("No ship is firing now.")
    s.queue.pop(0)
    s.active = _label(s)
    return s, []


# ---------------------------------------------------------------- damage
def _ionise(s: CombatState, sh: Ship, log: list[LogEntry]) -> None:
    """Seed 5. "Controls ionitzats": -1D maneuverability, fire control, damage this round and
    the next; maneuverability gone -> dead controls this round and the next two."""
    sh.ionised.append(s.round + T.IONISED_ROUNDS_AFTER)
    sh.damage.append("controls_ionised")
    log.append(LogEntry(f"{sh.name}: controls ionised (-1D until the end of round {s.round + 1}).", SEC_IONISED))
    # "perd totalment el seu factor": only a ship that had maneuverability dice can lose them all
    if not _zero(sh.maneuverability) and current_maneuverability(sh, s.round).dice == 0:
        sh.controls_dead_until = s.round + T.FULLY_IONISED_ROUNDS_AFTER
        log.append(LogEntry(f"{sh.name}: controls fully ionised -- it drifts, cannot turn, fire or roll "
                            f"shields until the end of round {sh.controls_dead_until}.", SEC_IONISED))


def _lose_die(text: str) -> str:
    return str(DiceCode.parse(text) - 3)


def _pick(dice: Dice, items: list, purpose: str, rule: str):
    """decision: "escollit a l'atzar" -- one die with as many sides as candidates."""
    if len(items) == 1:
        return items[0]
    return items[dice.faces(1, len(items), purpose, rule)[0] - 1]


def _light_applies(sh: Ship, face: int) -> bool:
    result = T.LIGHT_DAMAGE[face]
    live = [w for w in sh.weapons if weapon_operative(w)]
    return {"maneuverability_-1D": not _zero(sh.maneuverability), "weapon_disabled": bool(live),
            "weapon_fire_control_-1D": bool(live), "shields_-1D": not _zero(sh.shields),
            "hull_-1D": not _zero(sh.hull)}[result]


def _considerable_applies(sh: Ship, face: int) -> bool:
    result = T.CONSIDERABLE_DAMAGE[face]
    return {"dead_in_space": not sh.dead_in_space, "generator_overload": sh.generator_overload_round is None,
            "hyperdrive_out": bool(sh.hyperdrive) and not sh.hyperdrive_out,
            "weapons_out": any(not w.disabled for w in sh.weapons),
            "structural_damage": sh.structural_round is None, "destroyed": True}[result]


def _roll_table(s, sh, dice, table, applies, rule, log) -> str | None:
    """Roll 1D6 on a table, rolling again while the result hits a system already inoperative
    (seed 5. "es torna a repetir la tirada").  decision: with no result able to apply, nothing."""
    if not any(applies(sh, f) for f in table):
        log.append(LogEntry(f"{sh.name}: every system on the table is already inoperative -- no effect.",
                            SEC_CUMULATIVE))
        return None
    while True:
        face = dice.faces(1, 6, f"{sh.name} damage table", rule)[0]
        if applies(sh, face):
            return table[face]
        log.append(LogEntry(f"{sh.name}: {face} -- {T.RESULT_LABEL[table[face]]} already inoperative, "
                            "rolled again.", SEC_CUMULATIVE))


def _apply_light(s, sh, dice, log) -> None:
    result = _roll_table(s, sh, dice, T.LIGHT_DAMAGE, _light_applies, T.SEC_LIGHT, log)
    if result is None:
        return
    sh.damage.append(result)
    text = T.RESULT_LABEL[result]
    if result == "maneuverability_-1D":
        sh.maneuverability = _lose_die(sh.maneuverability)
    elif result == "shields_-1D":
        sh.shields = _lose_die(sh.shields)
    elif result == "hull_-1D":
        sh.hull = _lose_die(sh.hull)
    else:
        w = _pick(dice, [w for w in sh.weapons if weapon_operative(w)], f"{sh.name} weapon hit", T.SEC_LIGHT)
        if result == "weapon_disabled":
            w.disabled = True
        else:
            w.fire_control, w.fc_reduced = _lose_die(w.fire_control), True
        text += f" ({w.name})"
    log.append(LogEntry(f"{sh.name}: light damage -- {text}.", T.SEC_LIGHT))


def _apply_considerable(s, sh, dice, log) -> None:
    result = _roll_table(s, sh, dice, T.CONSIDERABLE_DAMAGE, _considerable_applies, T.SEC_CONSIDERABLE, log)
    if result is None:
        return
    sh.damage.append(result)
    extra = ""
    if result == "dead_in_space":
        sh.dead_in_space = True
    elif result == "generator_overload":
        sh.generator_overload_round = s.round + T.GENERATOR_OVERLOAD_ROUNDS
        extra = f" (explodes at the end of round {sh.generator_overload_round})"
    elif result == "hyperdrive_out":
        sh.hyperdrive_out = True
    elif result == "weapons_out":
        for w in sh.weapons:
            w.disabled = True
    elif result == "structural_damage":
        n = dice.faces(1, 6, f"{sh.name} rounds to evacuate", T.SEC_CONSIDERABLE)[0]
        sh.structural_round = s.round + n
        extra = f" ({n} round(s) to evacuate: it breaks up at the end of round {sh.structural_round})"
    elif result == "destroyed":
        sh.destroyed = True
    log.append(LogEntry(f"{sh.name}: considerable damage -- {T.RESULT_LABEL[result]}{extra}.", T.SEC_CONSIDERABLE))


def defence_cap(target: Ship, attacker_scales) -> int | None:
    """Seed "6. ESCALES": the cap on the target's shield and hull dice against these attackers.
    decision: with hits of several scales summed, the strictest cap of any of them applies."""
    caps = [T.DEFENCE_CAP[(target.scale, a)] for a in attacker_scales if (target.scale, a) in T.DEFENCE_CAP]
    return min(caps) if caps else None


def apply_ion(state: CombatState, target_id: str, ion_damage: int, dice: Dice, *,
              attacker_scales=()) -> tuple[CombatState, list[LogEntry]]:
    """Seed "3. CASOS ESPECIALS: Canons d'ions": no shields; the hull roll against the ion damage.
    Hull greater: nothing; ion damage >= hull: the table on (ion - hull) -- 1-4 controls ionised
    (each as seed 5. "Controls ionitzats") or 21+ controls destroyed."""
    s = copy.deepcopy(state)
    sh = s.ship(target_id)
    cap = defence_cap(sh, attacker_scales)
    hull = roll_code(dice, sh.hull, wild=s.wild, cap=cap, purpose=f"{sh.name} hull against ions",
                     rule=T.SEC_ION)
    margin = ion_damage - hull.total
    if margin < 0:
        return s, [LogEntry(f"{sh.name}'s hull ({hull.total}) is greater than the ion damage {ion_damage}: "
                            "no effect.", T.SEC_ION)]
    n = T.ion_result(margin)
    log = [LogEntry(f"{sh.name}: ion {ion_damage} against hull {hull.total}, margin {margin} -- "
                    + (f"{n} controls ionised." if n else "controls destroyed."), T.SEC_ION)]
    if n is None:
        sh.controls_dead_until = CONTROLS_DESTROYED
        sh.damage.append("controls_destroyed")
        log.append(LogEntry(f"{sh.name}'s controls are destroyed: it drifts, cannot turn, fire or roll "
                            "shields for the rest of the fight.", T.SEC_ION))
    else:
        for _ in range(n):
            _ionise(s, sh, log)
    return s, log


def apply_damage(state: CombatState, target_id: str, total: int, dice: Dice, *,
                 attacker_scales=()) -> tuple[CombatState, list[LogEntry]]:
    """Seed "2. COMBAT" steps 5-6 and "5. DETERMINANT ELS DANYS": one (summed) damage total on a ship.

    Shields: the defender rolls shields skill + shields; equal or more stops it (a 0D shield
    is inoperative and not rolled).  Through = damage - shields.  Hull roll; the band is read
    on (through - hull) when 0 or more (RULES-NOTES).
    """
    s = copy.deepcopy(state)
    sh = s.ship(target_id)
    log: list[LogEntry] = []
    cap = defence_cap(sh, attacker_scales)
    rule = SEC_SCALE_DAMAGE if cap is not None else SEC_PROCEDURE
    through = total
    if not _zero(sh.shields) and not controls_dead(sh, s.round):
        r = roll_skill_and_factor(dice, sh.crew.shields, sh.shields, cap=cap, wild=s.wild,
                                  purpose=f"{sh.name} shields", rule=rule)
        if r >= total:
            log.append(LogEntry(f"{sh.name}'s shields ({r}) stop {total} damage.", SEC_PROCEDURE))
            return s, log
        through = total - r
        log.append(LogEntry(f"{sh.name}'s shields roll {r}: {through} of {total} gets through.", SEC_PROCEDURE))
    hull = roll_code(dice, sh.hull, wild=s.wild, cap=cap, purpose=f"{sh.name} hull", rule=rule)
    margin = through - hull.total
    band = T.damage_band(margin)
    if band is None:
        log.append(LogEntry(f"{sh.name}'s hull ({hull.total}) holds against {through}.", T.SEC_DAMAGE))
        return s, log
    log.append(LogEntry(f"{sh.name}: {through} against hull {hull.total}, margin {margin} -- "
                        f"{T.DAMAGE_LABEL[band]}.", T.SEC_DAMAGE))
    if sh.severe and band in ("light", "considerable", "severe"):
        band = "destroyed"
        log.append(LogEntry(f"{sh.name} was severely damaged: this hit destroys it.", SEC_SEVERE))
    if band == "shields_blown":
        if _zero(sh.shields):
            _ionise(s, sh, log)
        else:
            sh.shields = _lose_die(sh.shields)
            sh.damage.append("shields_blown")
            log.append(LogEntry(f"{sh.name}: shields blown, -1D (now {sh.shields}).", SEC_SHIELDS_BLOWN))
    elif band == "light":
        _apply_light(s, sh, dice, log)
    elif band == "considerable":
        _apply_considerable(s, sh, dice, log)
    elif band == "severe":
        sh.severe = True
        sh.damage.append("severe")
        for _ in range(T.SEVERE_ROLLS):
            if not sh.destroyed:
                _apply_considerable(s, sh, dice, log)
    else:
        sh.destroyed = True
        sh.damage.append("destroyed")
    if sh.destroyed:
        log.append(LogEntry(f"{sh.name} is destroyed.", T.SEC_DAMAGE))
    return s, log


def resolve_firing(state: CombatState, dice: Dice) -> tuple[CombatState, list[LogEntry]]:
    """After every ship fired: sum the damage of the hits on each target (seed step 4, RULES-NOTES),
    apply it, remove the destroyed ships, check the end, and go to the next round's initiative."""
    if state.phase != "firing" or state.queue:
        raise ValueError("Damage is resolved when every ship has fired.")
    s = copy.deepcopy(state)
    log: list[LogEntry] = []
    before = {sh.id for sh in s.ships if sh.in_play}
    totals: dict[str, int] = {}
    scales: dict[str, list[str]] = {}
    damaging = [x for x in s.shots if x.hit and not x.ion and not x.no_damage]
    for shot in damaging:
        totals[shot.target] = totals.get(shot.target, 0) + shot.damage
        scales.setdefault(shot.target, []).append(s.ship(shot.attacker).scale)
    for sh in s.ships:   # in list order
        if sh.id in totals:
            n = sum(x.hits for x in damaging if x.target == sh.id)
            if n > 1:
                log.append(LogEntry(f"{n} hits on {sh.name}: damage summed to {totals[sh.id]}.", SEC_PROCEDURE))
            s, more = apply_damage(s, sh.id, totals[sh.id], dice, attacker_scales=scales[sh.id])
            log.extend(more)
    # decision: ion hits after the summed damage, one hull roll per ion hit, in the order fired
    for shot in s.shots:
        if shot.hit and shot.ion and not shot.no_damage and s.ship(shot.target).in_play:
            s, more = apply_ion(s, shot.target, shot.damage, dice,
                                attacker_scales=[s.ship(shot.attacker).scale])
            log.extend(more)
    for sh in s.ships:
        if sh.in_play and sh.generator_overload_round is not None and sh.generator_overload_round <= s.round:
            sh.destroyed = True
            log.append(LogEntry(f"{sh.name}'s generator explodes.", T.SEC_CONSIDERABLE))
        if sh.in_play and sh.structural_round is not None and sh.structural_round <= s.round:
            sh.destroyed = True
            log.append(LogEntry(f"{sh.name} breaks up.", T.SEC_CONSIDERABLE))
    removed = [sh.name for sh in s.ships if sh.id in before and sh.destroyed]
    if removed:
        log.append(LogEntry(f"Removed after firing: {', '.join(removed)}.", SEC_FIRING_PHASE))
    s.shots, s.fired = [], []
    left = _in_play_sides(s)
    if len(left) > 1 and s.max_rounds and s.round >= s.max_rounds:
        s.over, s.winner = True, None
        log.append(LogEntry(f"Round limit ({s.max_rounds}) reached: the combat ends undecided.", "encounter option"))
    elif len(left) <= 1:
        s.over = True
        s.winner = left[0] if left else None
        log.append(LogEntry(f"The combat is over: {s.winner or 'no side'} is left.", SEC_FIRING_PHASE))
    else:
        s.round += 1
        s.phase = "initiative"
        log.append(LogEntry(f"Round {s.round}: initiative is rolled again.", SEC_FIRING_PHASE))
    s.active = _label(s)
    return s, log
