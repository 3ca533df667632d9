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

Special cases (seed "3. CASOS ESPECIALS", considerable damage 2 and 5; decisions in
docs/rulesets/starwars_d6.md, "Special cases"): board features (:class:`Feature`) block
moves, fire and jumps; a drift into an occupied hex is an accidental collision
(:func:`drift`); declared before moving -- :func:`ram`, :func:`jump`, :func:`shutdown`;
:func:`evacuate`; tractor beams capture on a hit, :func:`break_free`.  The moving ship's
special actions: :func:`special_options`.

Pure Python: no Django import.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from rulesets.core.dice import Dice
from rulesets.core.engine import LogEntry

from . import hexes as H
from . import tables as T
from rulesets.core.citation import cite

from .dice import SEC_WILD, CodeError, CodeRoll, DiceCode, roll_code

SEC_PROCEDURE = cite("Combat: Procedure", "2. COMBAT: Procediment")
SEC_FIRE_TOGETHER = cite("Combat: Weapon Systems Fired Together", "2. COMBAT: sistemes d'armes disparats alhora")
SEC_MISSILE_SPEED = cite("Special cases: Missiles and Torpedoes", "3. CASOS ESPECIALS: Míssils i torpedes")
SEC_IONISED = cite("Determining Damage: Ionised Controls", "5. DETERMINANT ELS DANYS: Controls ionitzats")
SEC_SHIELDS_BLOWN = cite("Determining Damage: Shields Blown", "5. DETERMINANT ELS DANYS: Escuts anul·lats")
SEC_CUMULATIVE = cite("Determining Damage: All Damage Is Cumulative",
                      "5. DETERMINANT ELS DANYS: Tots els danys es consideren acumulatius")
SEC_SEVERE = cite("Severe Damage", "5. DETERMINANT ELS DANYS: Danys severs", ruling=True)
SEC_INITIATIVE = cite("Sequence of Play: Initiative Phase", "4. SEQÜENCIA DE JOC: Fase d'iniciativa")
SEC_MOVEMENT_PHASE = cite("Sequence of Play: Movement Phase", "4. SEQÜENCIA DE JOC: Fase de moviment")
SEC_FIRING_PHASE = cite("Sequence of Play: Firing Phase", "4. SEQÜENCIA DE JOC: Fase de foc")
SEC_SCALE_TO_HIT = cite("Scales: Scale in the To-Hit Roll", "6. ESCALES: Escala a la tirada per impactar")
SEC_SCALE_EVASION = cite("Scales: Scale in Evasive Manoeuvres", "6. ESCALES: Escala per maniobres evasives")
SEC_SCALE_DAMAGE = cite("Scales: Scale in Determining Damage", "6. ESCALES: Escala per determinar el dany")
SEC_COLLISION = T.SEC_COLLISION        # 3. CASOS ESPECIALS: Col·lisions accidentals
SEC_RAM = T.SEC_RAM                    # 3. CASOS ESPECIALS: Col·lisions premeditades
SEC_RETREAT = T.SEC_RETREAT            # 3. CASOS ESPECIALS: Retirar-se del combat
SEC_TRACTOR = T.SEC_TRACTOR            # 3. CASOS ESPECIALS: Raigs tractors
SEC_DECLARE = T.SEC_DECLARE            # 4. SEQÜENCIA DE JOC: Fase de moviment (declared jumps and rams)
SEC_OVERLOAD = T.SEC_OVERLOAD          # 5. considerable 2: Sobrecàrrega en el generador
SEC_STRUCTURAL = T.SEC_STRUCTURAL      # 5. considerable 5: Danys estructurals

#: "Controls destruïts" (ion table 21+): decision -- the controls are dead for the rest of the fight.
CONTROLS_DESTROYED = 10 ** 6

#: Weapon types whose special rules are not implemented yet (valid stats, no shots): none now --
#: tractor beams fire and capture ("Raigs tractors").
NOT_YET_FIRING: tuple[str, ...] = ()


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
    # ---- special cases (seed "3. CASOS ESPECIALS", considerable 2 and 5)
    escaped: bool = False            # jumped to hyperspace: out of the combat, not destroyed
    evacuated: bool = False          # the crew abandoned ship (structural damage): out, crew saved
    generator_shutdown: bool = False  # on auxiliary batteries: 1/4 speed, every other system off
    captured_by: str | None = None   # id of the ship whose tractor beam holds this one
    captured_weapon: str | None = None  # ... and the id of that tractor beam

    @property
    def pos(self) -> tuple[int, int]:
        return (self.col, self.row)

    @property
    def in_play(self) -> bool:
        return not (self.destroyed or self.off_board or self.escaped or self.evacuated)


@dataclass
class Feature:
    """A planet, moon or obstacle (asteroids, debris) the GM placed; it occupies its hex."""

    kind: str
    col: int
    row: int
    name: str = ""

    @property
    def pos(self) -> tuple[int, int]:
        return (self.col, self.row)

    @property
    def label(self) -> str:
        return self.name or T.FEATURE_LABEL.get(self.kind, self.kind)


@dataclass
class Progress:
    """The moving ship's movement so far (seed "1. MOVIMENT I MANIOBRA")."""

    ship: str
    speed_left: int
    free_turns_left: int
    after_forward: bool = False
    hexes: int = 0
    started: bool = False        # a move was made: jumps, rams, shutdowns are declared before


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
    tractor: bool = False        # a tractor-beam hit: captures the target, no damage


@dataclass
class BoardSize:
    width: int = 30
    height: int = 20


@dataclass
class CombatState:
    ships: list[Ship] = field(default_factory=list)
    board: BoardSize = field(default_factory=BoardSize)
    wild: bool = True
    complication: str = "remove"     # RULES-NOTES Wild Die: a first-roll 1 "remove"s it, or "add"s (a complication)
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
    features: list[Feature] = field(default_factory=list)      # planets, moons, obstacles

    def ship(self, ship_id: str) -> Ship:
        for sh in self.ships:
            if sh.id == ship_id:
                return sh
        raise KeyError(ship_id)

    @property
    def hboard(self) -> H.Board:
        return H.Board(self.board.width, self.board.height)


# ---------------------------------------------------------------- copy on write
def _clone(obj):
    """A shallow copy of a dataclass instance (what ``copy.copy`` does, without its machinery)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _clone_ship(ship: Ship) -> Ship:
    new = _clone(ship)
    new.weapons = [_clone(w) for w in ship.weapons]
    new.ionised = list(ship.ionised)
    new.damage = list(ship.damage)
    return new


def _copy_ship(ship: Ship) -> Ship:
    """A copy of ``ship`` that shares nothing that can change (its crew too)."""
    new = _clone_ship(ship)
    new.crew = _clone(ship.crew)
    return new


def own(s: CombatState, ship_id: str) -> Ship:
    """The ship ``ship_id`` of a state a rule is changing, copied first if the state still shares
    it with the state the rule was given (``thaw(..., ships=False)``)."""
    copied = s.__dict__.get("_copied_ships")
    if copied is None or ship_id in copied:
        return s.ship(ship_id)
    for index, sh in enumerate(s.ships):
        if sh.id == ship_id:
            new = s.ships[index] = _clone_ship(sh)
            copied.add(ship_id)
            return new
    raise KeyError(ship_id)


def copy_state(state: CombatState) -> CombatState:
    """A copy of ``state`` that shares nothing that can change (for a caller that may change it)."""
    s = thaw(state)
    s.ships = [_copy_ship(sh) for sh in state.ships]
    s.board = _clone(state.board)
    s.features = [_clone(f) for f in state.features]
    s.shots = [_clone(x) for x in state.shots]
    return s


def thaw(state: CombatState, *, ships: bool = True) -> CombatState:
    """The copy of ``state`` a rule changes and returns (the argument is never changed).

    Copied: the state, its lists and dicts, the moving ship's progress and (``ships``) every
    ship with its weapons and its lists.  Shared, because no rule changes them in place (they
    are replaced): the crews, the board size, the features and the shots already fired.
    """
    s = _clone(state)
    s.ships = [_clone_ship(sh) for sh in state.ships] if ships else list(state.ships)
    # which ships this copy has copied so far (None: all of them); see :func:`own`
    s.__dict__["_copied_ships"] = None if ships else set()
    s.sides, s.order, s.queue = list(state.sides), list(state.order), list(state.queue)
    s.initiative = dict(state.initiative)
    s.fired, s.shots, s.features = list(state.fired), list(state.shots), list(state.features)
    s.moving = _clone(state.moving) if state.moving is not None else None
    return s


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


_FEATURE_LINE = re.compile(r"^(planet|moon|obstacle)\s+(\d+)\s*,\s*(\d+)(?:\s+(.+))?$", re.I)


def parse_feature_line(line: str) -> dict | None:
    """``"planet 12,8 Yavin"`` as a feature dict ({kind, col, row, name?}), or None if it is not one
    (the setup form's lines and the GM override's ``board.add``)."""
    m = _FEATURE_LINE.match(line.strip())
    if not m:
        return None
    feature = {"kind": m.group(1).lower(), "col": int(m.group(2)), "row": int(m.group(3))}
    if m.group(4):
        feature["name"] = m.group(4).strip()
    return feature


def validate_features(features, width: int | None = None, height: int | None = None) -> list[str]:
    """Problems with a list of board features ({kind, col, row, name?}); empty when fine."""
    errors: list[str] = []
    if not isinstance(features, (list, tuple)):
        return ["Board features must be a list."]
    for i, f in enumerate(features):
        label = f"Feature {i + 1}"
        if isinstance(f, Feature):
            f = {"kind": f.kind, "col": f.col, "row": f.row}
        if not isinstance(f, dict):
            errors.append(f"{label} must be a mapping.")
            continue
        if f.get("kind") not in T.FEATURE_KINDS:
            errors.append(f"{label}: kind must be one of {', '.join(T.FEATURE_KINDS)}.")
        col, row = f.get("col"), f.get("row")
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (col, row)):
            errors.append(f"{label}: col and row must be whole numbers.")
        elif width is not None and height is not None and not (0 <= col < width and 0 <= row < height):
            errors.append(f"{label}: ({col},{row}) is off the {width}x{height} board.")
    return errors


def build_features(features, width: int | None = None, height: int | None = None) -> list[Feature]:
    """:class:`Feature` objects from dicts that :func:`validate_features` accepts."""
    errors = validate_features(features or [], width, height)
    if errors:
        raise ValueError("; ".join(errors))
    out = []
    for f in features or []:
        if isinstance(f, Feature):
            out.append(_clone(f))
        else:
            out.append(Feature(f["kind"], int(f["col"]), int(f["row"]), str(f.get("name") or "")))
    return out


def new_combat(ships: list[Ship], width: int = 30, height: int = 20, *, wild: bool = True,
               max_rounds: int = 0, features=(), complication: str = "remove") -> CombatState:
    """``complication`` (RULES-NOTES Wild Die): what a 1 on the Wild Die's first roll does --
    "remove" it and the highest other die (default), or "add" normally and flag a complication."""
    if complication not in COMPLICATIONS:
        raise ValueError(f"complication must be 'remove' or 'add', not {complication!r}.")
    sides: list[str] = []
    for sh in ships:
        if sh.side not in sides:
            sides.append(sh.side)
    s = CombatState(ships=[_copy_ship(sh) for sh in ships], board=BoardSize(width, height), wild=wild,
                    complication=complication, max_rounds=max_rounds, sides=sides, features=build_features(list(features), width, height))
    s.active = "Initiative: every side rolls 2D"
    return s


#: RULES-NOTES Wild Die: the two choices for a 1 on its first roll (dice.roll_code).
COMPLICATIONS = ("remove", "add")
COMPLICATION_TEXT = "Wild Die 1: a complication (the GM decides what goes wrong)"


def _wild_note(r: CodeRoll, purpose: str, notes: list[LogEntry] | None) -> CodeRoll:
    """RULES-NOTES Wild Die, "add normally, complication": a roll the dice flagged (a first-roll
    1 that added normally) gets a log line, so the GM sees it."""
    if r.complication and notes is not None:
        notes.append(LogEntry(f"{COMPLICATION_TEXT} -- {purpose}.", SEC_WILD))
    return r


def _comp(s: CombatState) -> str:
    """The state's Wild-Die complication choice (states saved before it existed: "remove")."""
    return getattr(s, "complication", "remove") or "remove"


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
    s = thaw(state, ships=False)
    log: list[LogEntry] = []
    rolls: dict[str, int] = {}

    def order(group: list[str]) -> list[str]:
        if len(group) <= 1:
            return group
        got = {}
        for side in group:
            r = roll_code(dice, T.INITIATIVE_DICE, wild=s.wild, purpose=f"initiative of {side}", rule=SEC_INITIATIVE,
                          complication=_comp(s))
            got[side] = rolls[side] = r.total
            log.append(LogEntry(f"Initiative: {side} rolls {r.total}.", SEC_INITIATIVE))
            _wild_note(r, f"initiative of {side}", log)
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


def movement_speed(ship: Ship) -> int:
    """The speed points a ship has at the start of its movement: 0 dead in space (seed 5.
    considerable 1), ¼ of its speed rounded up on auxiliary batteries (considerable 2)."""
    if ship.dead_in_space:
        return 0
    if ship.generator_shutdown:
        return T.auxiliary_speed(ship.speed)
    return ship.speed


def _start_moving(s: CombatState) -> Progress | None:
    s.queue = [i for i in s.queue if s.ship(i).in_play]
    if not s.queue:
        return None
    sh = s.ship(s.queue[0])
    return Progress(sh.id, movement_speed(sh), H.maneuverability_points(current_maneuverability(sh, s.round)))


# ---------------------------------------------------------------- the board: features, occupied hexes
def feature_hexes(s: CombatState, kinds=T.FEATURE_KINDS) -> set[H.Hex]:
    return {f.pos for f in s.features if f.kind in kinds}


def feature_at(s: CombatState, h: H.Hex) -> Feature | None:
    return next((f for f in s.features if f.pos == tuple(h)), None)


def ship_at(s: CombatState, h: H.Hex, *, besides=()) -> Ship | None:
    """The ship in play in hex ``h`` (not one of ``besides``), or None."""
    return next((o for o in s.ships if o.in_play and o.pos == tuple(h) and o.id not in besides), None)


def occupied(s: CombatState, besides=()) -> frozenset:
    """Hexes of the other ships in play and of every feature (decision: a ship never chooses to
    enter one; see :func:`rulesets.starwars_d6.hexes.moves`)."""
    return frozenset({o.pos for o in s.ships if o.in_play and o.id not in besides} | feature_hexes(s))


def moves_from(state: CombatState, ship: Ship, ms: H.MoveState) -> list[H.Move]:
    """The legal next moves of ``ship`` from the movement state ``ms`` (occupied hexes blocked; a
    ship held by a tractor beam may only hold) -- for :func:`move_options` and course searches."""
    if ship.captured_by:
        return H.moves(H.MoveState(ms.pos, ms.facing, 0, 0), ship.scale != T.STARFIGHTER, state.hboard)
    return H.moves(ms, ship.scale != T.STARFIGHTER, state.hboard, occupied(state, besides=(ship.id,)))


def course_key(state: CombatState) -> tuple:
    """Everything besides the ship's own movement state that its moves depend on (a cache key)."""
    mover = state.ship(state.moving.ship) if state.moving else None
    return (tuple(sorted(occupied(state, besides=(mover.id,) if mover else ()))),
            bool(mover and mover.captured_by))


def move_options(state: CombatState) -> list[H.Move]:
    """The moving ship's legal next moves (seed "1. MOVIMENT I MANIOBRA", via hexes.legal_moves).

    A ship with fully ionised controls only drifts (see :func:`drift`): no options here.  Hexes
    of other ships and of planets, moons and obstacles cannot be entered (decision); a ship held
    by a tractor beam can only hold ("Raigs tractors", decision).
    """
    s = state
    if s.phase != "movement" or not s.moving:
        return []
    sh = s.ship(s.moving.ship)
    ms = H.MoveState(sh.pos, sh.facing, s.moving.speed_left, s.moving.free_turns_left, s.moving.after_forward)
    if sh.captured_by:
        return moves_from(s, sh, ms)
    if controls_dead(sh, s.round):
        return []
    return moves_from(s, sh, ms)


def _next_mover(s: CombatState, log: list[LogEntry]) -> None:
    if s.queue:
        s.queue.pop(0)
    _update_holds(s, log)
    if not any(sh.in_play for sh in s.ships):
        s.over, s.winner, s.moving, s.queue = True, None, None, []
        log.append(LogEntry("No ship is left in the combat: it is over, with no winner.", SEC_RETREAT))
        s.active = _label(s)
        return
    s.moving = _start_moving(s)
    if s.moving is None:
        s.phase = "firing"
        s.queue = _queue(s)
        log.append(LogEntry(f"Round {s.round}: firing phase, in the same order; all fire is simultaneous.",
                            SEC_FIRING_PHASE))
    s.active = _label(s)


def move(state: CombatState, kind: str, side: int = 0, *, record: bool = True) -> tuple[CombatState, list[LogEntry]]:
    """Make one of :func:`move_options` (``kind`` forward/turn/slide/hold, ``side`` -1/+1).
    ``record``: build the log lines (a playout reads none)."""
    m = next((m for m in move_options(state) if m.kind == kind and m.side == side), None)
    if m is None:
        raise ValueError(f"{kind} {side} is not a legal move now.")
    return make_move(state, m, record=record)


def make_move(state: CombatState, m: H.Move, *, record: bool = True) -> tuple[CombatState, list[LogEntry]]:
    """:func:`move` with the move already found among :func:`move_options` (the engine's check)."""
    s = thaw(state, ships=False)           # only the mover changes (and a ship a hold releases)
    sh = own(s, s.moving.ship)
    sh.col, sh.row = m.to
    sh.facing = m.facing
    p = s.moving
    p.speed_left, p.free_turns_left, p.after_forward = m.speed_left, m.free_turns_left, m.after.after_forward
    p.started = True
    if m.kind in ("forward", "slide"):
        p.hexes += 1
    log = [LogEntry(f"{sh.name}: {m.label}.", T.SEC_MOVEMENT)] if record else []
    if m.leaves_board:
        sh.off_board = True
        log.append(LogEntry(f"{sh.name} leaves the board and the combat.", SEC_RETREAT))
    _update_holds(s, log)
    if m.after.done:
        own(s, sh.id).last_moved = p.hexes
        _next_mover(s, log)
    s.active = _label(s)
    return s, log


def drift(state: CombatState, dice: Dice | None = None) -> tuple[CombatState, list[LogEntry]]:
    """Seed 5. "Controls ionitzats": dead controls -- the ship moves as many hexes as it last
    moved, straight on, even off the board.

    decision: a hex with another ship in play or a feature on the way is an accidental collision
    ("Col·lisions accidentals", :func:`collide`); the ship stops in the hex before it.
    ``dice`` is needed only for such a collision.
    """
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    if not controls_dead(sh, s.round):
        raise ValueError(f"{sh.name} has working controls: it moves normally.")
    entered, off, hit = 0, False, None
    for _ in range(sh.last_moved):
        nxt = H.neighbour(sh.pos, sh.facing)
        if not s.hboard.contains(nxt):
            sh.col, sh.row = nxt
            entered, off = entered + 1, True
            break
        hit = ship_at(s, nxt, besides=(sh.id,)) or feature_at(s, nxt)
        if hit is not None:
            break
        sh.col, sh.row = nxt
        entered += 1
    log = [LogEntry(f"{sh.name} drifts {entered} hex(es) with dead controls.", SEC_IONISED)]
    if off:
        sh.off_board = True
        log.append(LogEntry(f"{sh.name} drifts off the board and leaves the combat.", SEC_IONISED))
    if hit is not None:
        if dice is None:
            raise ValueError("A drift into an occupied hex is a collision: it needs dice.")
        what = hit.name if isinstance(hit, Ship) else hit.label
        log.append(LogEntry(f"{sh.name} drifts into {what} and stops in the hex before it.", SEC_COLLISION))
        _collide(s, sh, hit, sh.pos, dice, log, SEC_COLLISION)
    _next_mover(s, log)
    return s, log


# ---------------------------------------------------------------- collisions
def collision_code(kind: str) -> DiceCode:
    """Seed "Col·lisions accidentals": 5D, +3D head-on or diagonally from the front, -3D from
    behind or diagonally from behind, T-collision unmodified."""
    return DiceCode.parse(T.COLLISION_DAMAGE) + T.COLLISION_MODIFIER[kind]


def collision_kind_of(mover: Ship, other, came_from: H.Hex) -> str:
    """The kind of the collision of ``mover`` (coming from the adjacent hex ``came_from``) with
    ``other`` (a ship, or a feature: no course, T-collision) -- :func:`hexes.collision_kind`."""
    if not isinstance(other, Ship):
        return H.collision_kind(mover.facing, None)
    return H.collision_kind(mover.facing, other.facing, H.relative_side(other.pos, other.facing, came_from))


def _collision_damage(s: CombatState, victim: Ship, cause, kind: str, dice: Dice, log: list[LogEntry],
                      rule: str) -> None:
    """One ship's collision damage: the kind's code (with the scale cap of the ship it hit, decision),
    then shields, hull and the damage table as for a hit (:func:`apply_damage`)."""
    if not victim.in_play:
        return
    scales = [cause.scale] if isinstance(cause, Ship) else []
    cap = T.DAMAGE_CAP.get((cause.scale, victim.scale)) if isinstance(cause, Ship) else None
    what = cause.name if isinstance(cause, Ship) else cause.label
    if cap == 0:
        log.append(LogEntry(f"{what} cannot cause {victim.name} significant damage.", SEC_SCALE_DAMAGE))
        return
    code = collision_code(kind)
    r = roll_code(dice, code, wild=s.wild, cap=cap, purpose=f"{victim.name} collision damage",
                  rule=SEC_SCALE_DAMAGE if cap is not None else rule, complication=_comp(s))
    total = r.total
    capped = f" (dice over {cap} count {cap})" if cap is not None else ""
    log.append(LogEntry(f"{victim.name} takes {code} collision damage from {what}: {total}{capped}.", SEC_COLLISION))
    _wild_note(r, f"{victim.name} collision damage", log)
    _damage(s, victim, total, dice, scales, log)


def _collide(s: CombatState, mover: Ship, other, came_from: H.Hex, dice: Dice, log: list[LogEntry],
             rule: str, kind: str | None = None) -> str:
    """Seed "Col·lisions accidentals": both ships take 5D modified by the kind of the collision
    (decision: one kind for the collision); the ship that was hit rolls first.  A feature takes
    nothing.  Changes ``s`` in place; returns the kind."""
    kind = kind or collision_kind_of(mover, other, came_from)
    what = other.name if isinstance(other, Ship) else other.label
    log.append(LogEntry(f"Collision of {mover.name} with {what}: {T.COLLISION_LABEL[kind]}.", rule))
    if isinstance(other, Ship):
        _collision_damage(s, other, mover, kind, dice, log, rule)
    _collision_damage(s, mover, other, kind, dice, log, rule)
    return kind


# ---------------------------------------------------------------- declared before moving
def _mover(s: CombatState) -> Ship | None:
    if s.phase != "movement" or not s.moving or s.over:
        return None
    return s.ship(s.moving.ship)


def ram_targets(state: CombatState) -> list[str]:
    """Seed "Col·lisions premeditades" and 4. "Fase de moviment": the ships the moving ship may
    declare a ram against, before it spends any point.

    decision: a ship of another side in play, 1 to (the speed points it has this phase) hexes away,
    with no planet, moon or obstacle on the line between them; not with dead controls, nor while
    held by a tractor beam.
    """
    s = state
    sh = _mover(s)
    if sh is None or s.moving.started or sh.captured_by or controls_dead(sh, s.round):
        return []
    blocked = feature_hexes(s)
    out = []
    for t in s.ships:
        if t.side == sh.side or not t.in_play:
            continue
        d = H.distance(sh.pos, t.pos)
        if 1 <= d <= s.moving.speed_left and H.clear_line(sh.pos, t.pos, blocked):
            out.append(t.id)
    return out


def approach_hex(start: H.Hex, target: H.Hex) -> H.Hex:
    """The hex next to ``target`` on the line from ``start`` (``start`` itself when adjacent)."""
    return H.line(start, target)[-2]


def ram(state: CombatState, target_id: str, dice: Dice) -> tuple[CombatState, list[LogEntry]]:
    """Seed "3. CASOS ESPECIALS: Col·lisions premeditades", declared before moving (4. "Fase de
    moviment").

    1-2. Both pilots roll piloting + maneuverability (the evasion caps of "6. ESCALES" apply to
    both); 3. the target avoids only if it *exceeds* the rammer (ties ram);
    4. the rammer ends its movement in the target's hex, with its facing;
    5. avoided: the target moves one hex forward (off the board: it leaves the combat; decision:
    into an occupied hex, it cannot, stays, and the rammer stops in the hex before it);
    rammed: both ships take collision damage (:func:`_collide`, the kind from the facings and
    the hexside the rammer comes in by), then the target is knocked into the adjacent hex on the
    hexside of 1D6 (1 = N, clockwise; decision: rolled again on an occupied hex; off the board, it
    leaves the combat), facing 1D6 (1 = N, clockwise).
    """
    if target_id not in ram_targets(state):
        raise ValueError(f"{target_id} cannot be rammed now.")
    s = thaw(state)
    sh, t = s.ship(s.moving.ship), s.ship(target_id)
    start, target_hex = sh.pos, t.pos
    came_from = approach_hex(start, target_hex)
    log = [LogEntry(f"{sh.name} declares a ram against {t.name} ({H.distance(start, target_hex)} hexes).",
                    SEC_DECLARE)]
    rolls = {}
    notes: list[LogEntry] = []
    for who, other in ((sh, t), (t, sh)):
        cap = T.EVASION_CAP.get((who.scale, other.scale))
        rolls[who.id] = roll_skill_and_factor(dice, who.crew.piloting, current_maneuverability(who, s.round),
                                              cap=cap, wild=s.wild, purpose=f"{who.name} piloting (ram)",
                                              rule=SEC_SCALE_EVASION if cap is not None else SEC_RAM,
                                              complication=_comp(s), notes=notes)
    a, e = rolls[sh.id], rolls[t.id]
    rammed = not e > a
    log.append(LogEntry(f"Ram: {sh.name} {a} against {t.name} {e} -- "
                        + ("rammed (the target must roll higher to avoid it)." if rammed
                           else f"{t.name} avoids the collision."), SEC_RAM))
    log.extend(notes)
    dest = target_hex

    def free(h) -> bool:
        return ship_at(s, h, besides=(sh.id, t.id)) is None and feature_at(s, h) is None

    if not rammed:
        ahead = H.neighbour(target_hex, t.facing)
        if not s.hboard.contains(ahead):
            t.col, t.row = ahead
            t.off_board = True
            log.append(LogEntry(f"{t.name} moves one hex forward, off the board, and leaves the combat.", SEC_RAM))
        elif free(ahead):
            t.col, t.row = ahead
            log.append(LogEntry(f"{t.name} moves one hex forward.", SEC_RAM))
        else:
            dest = came_from if free(came_from) or came_from == start else start
            log.append(LogEntry(f"{t.name} cannot move forward (the hex is occupied): it stays, and "
                                f"{sh.name} stops next to it.", SEC_RAM))
    else:
        _collide(s, sh, t, came_from, dice, log, SEC_RAM)
        if t.in_play:
            sides = [f for f in H.FACINGS if not s.hboard.contains(H.neighbour(target_hex, f))
                     or free(H.neighbour(target_hex, f))]
            if not sides:
                dest = came_from if free(came_from) or came_from == start else start
                log.append(LogEntry(f"No free hex around {t.name}: it stays, and {sh.name} stops next to it.",
                                    SEC_RAM))
            else:
                while True:
                    face = dice.faces(1, 6, f"{t.name} knocked to (hexside, 1 = N)", SEC_RAM)[0]
                    if face - 1 in sides:
                        break
                    log.append(LogEntry(f"Hexside {face}: occupied, rolled again.", SEC_RAM))
                to = H.neighbour(target_hex, face - 1)
                t.col, t.row = to
                if not s.hboard.contains(to):
                    t.off_board = True
                    log.append(LogEntry(f"{t.name} is knocked off the board and leaves the combat.", SEC_RAM))
                else:
                    t.facing = dice.faces(1, 6, f"{t.name} new facing (1 = N)", SEC_RAM)[0] - 1
                    log.append(LogEntry(f"{t.name} is knocked to {to[0]},{to[1]}, facing "
                                        f"{H.FACING_NAME[t.facing]}.", SEC_RAM))
    sh.col, sh.row = dest
    sh.last_moved = H.distance(start, dest)
    log.append(LogEntry(f"{sh.name} ends its movement in {dest[0]},{dest[1]}, facing "
                        f"{H.FACING_NAME[sh.facing]}.", SEC_RAM))
    _next_mover(s, log)
    return s, log


def jump_problems(state: CombatState, ship: Ship | None = None) -> list[str]:
    """Why the ship cannot jump to hyperspace now (empty: it can).  Seed "Retirar-se del combat":
    a line of sight "sense cap mena d'obstacle", at least 10 hexes from the nearest planet and
    4 from any moon; declared before moving (4. "Fase de moviment").

    decisions: an operative hyperdrive (has one, not "Motor d'hiperespai inoperant", generator
    not shut down); working controls; not held by a tractor beam; the line of sight is the ray of
    hexes straight ahead to the board edge: no feature and no other ship in play on it.
    """
    s = state
    sh = ship or _mover(s)
    if sh is None:
        return ["Only the moving ship can jump, in the movement phase."]
    out = []
    if s.moving and s.moving.ship == sh.id and s.moving.started:
        out.append("A jump is declared before moving.")
    if not sh.hyperdrive:
        out.append(f"{sh.name} has no hyperdrive.")
    elif sh.hyperdrive_out:
        out.append(f"{sh.name}'s hyperdrive is out.")
    if sh.generator_shutdown:
        out.append(f"{sh.name}'s generator is shut down.")
    if controls_dead(sh, s.round):
        out.append(f"{sh.name}'s controls are dead.")
    if sh.captured_by:
        out.append(f"{sh.name} is held by a tractor beam.")
    blockers = feature_hexes(s) | {o.pos for o in s.ships if o.in_play and o.id != sh.id}
    if any(h in blockers for h in H.ray(sh.pos, sh.facing, s.hboard)):
        out.append("The line of sight ahead is not clear.")
    for f in s.features:
        need = T.HYPERSPACE_MIN_DISTANCE.get(f.kind)
        if need is not None and H.distance(sh.pos, f.pos) < need:
            out.append(f"{f.label} is {H.distance(sh.pos, f.pos)} hexes away ({need} needed).")
    return out


def can_jump(state: CombatState) -> bool:
    """``not jump_problems(state)``, the cheap reasons first (most ships have no hyperdrive)."""
    sh = _mover(state)
    if (sh is None or state.moving.started or not sh.hyperdrive or sh.hyperdrive_out or sh.generator_shutdown
            or sh.captured_by or controls_dead(sh, state.round)):
        return False
    return not jump_problems(state)


def jump(state: CombatState) -> tuple[CombatState, list[LogEntry]]:
    """Seed "Retirar-se del combat": the ship jumps to hyperspace and leaves the combat (escaped)."""
    problems = jump_problems(state)
    if problems:
        raise ValueError(" ".join(problems))
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    sh.escaped = True
    log = [LogEntry(f"{sh.name} declares a hyperspace jump.", SEC_DECLARE),
           LogEntry(f"{sh.name} jumps to hyperspace and leaves the combat.", SEC_RETREAT)]
    _next_mover(s, log)
    return s, log


def can_shutdown(state: CombatState) -> bool:
    sh = _mover(state)
    return bool(sh and not state.moving.started and sh.generator_overload_round is not None
                and not sh.generator_shutdown)


def shutdown(state: CombatState) -> tuple[CombatState, list[LogEntry]]:
    """Seed 5. considerable 2 "Sobrecàrrega en el generador": the overloaded generator is shut down
    (before the ship moves, decision); it does not explode; on auxiliary batteries the ship moves
    at ¼ of its speed rounded up, and every other system is inoperative -- no firing, no shields,
    no hyperdrive, its tractor beams let go (decision: piloting still evades)."""
    if not can_shutdown(state):
        raise ValueError("No overloaded generator to shut down now.")
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    sh.generator_shutdown, sh.generator_overload_round = True, None
    s.moving.speed_left = movement_speed(sh)
    log = [LogEntry(f"{sh.name} shuts down its generator: no explosion; auxiliary batteries, speed "
                    f"{s.moving.speed_left}, every other system inoperative.", SEC_OVERLOAD)]
    _update_holds(s, log)
    s.active = _label(s)
    return s, log


def can_evacuate(state: CombatState) -> bool:
    sh = _mover(state)
    return bool(sh and sh.structural_round is not None)


def evacuate(state: CombatState) -> tuple[CombatState, list[LogEntry]]:
    """Seed 5. considerable 5 "Danys estructurals": the crew abandons ship within its 1D rounds.
    decision: on the ship's movement step; the ship leaves the combat (not destroyed), the crew
    is saved."""
    if not can_evacuate(state):
        raise ValueError("Only a ship with structural damage is evacuated, on its movement step.")
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    sh.evacuated = True
    log = [LogEntry(f"{sh.name}'s crew abandons ship and is saved; the ship leaves the combat.", SEC_STRUCTURAL)]
    _next_mover(s, log)
    return s, log


# ---------------------------------------------------------------- tractor beams
TRACTOR_REACH = T.RANGES["tractor_beam"]["long"][1]


def holder_of(state: CombatState, ship: Ship) -> tuple[Ship, Weapon] | None:
    """The ship and the tractor beam holding ``ship`` (None when it is free)."""
    if not ship.captured_by:
        return None
    try:
        holder = state.ship(ship.captured_by)
    except KeyError:
        return None
    beam = next((w for w in holder.weapons if w.id == ship.captured_weapon), None)
    return (holder, beam) if beam is not None else None


def _release(sh: Ship) -> None:
    sh.captured_by = sh.captured_weapon = None


def _update_holds(s: CombatState, log: list[LogEntry]) -> None:
    """Seed "Raigs tractors", decisions: a hold ends when the held ship or its holder leaves the
    combat (destroyed, off the board, jumped, abandoned), when the holder's generator is shut down
    or its beam is inoperative, or when the holder moves out of the beam's reach (3 hexes: no pulling)."""
    for sh in s.ships:
        if not sh.captured_by:
            continue
        held = holder_of(s, sh)
        why = None
        if held is None:
            why = "its holder is gone"
        else:
            holder, beam = held
            if not sh.in_play:
                why = f"{sh.name} has left the combat"
            elif not holder.in_play:
                why = f"{holder.name} has left the combat"
            elif holder.generator_shutdown:
                why = f"{holder.name}'s generator is shut down"
            elif not weapon_operative(beam):
                why = f"{holder.name}'s {beam.name} is inoperative"
            elif H.distance(holder.pos, sh.pos) > TRACTOR_REACH:
                why = f"{holder.name} is out of the beam's reach"
        if why:
            _release(own(s, sh.id))
            log.append(LogEntry(f"{sh.name} is released from the tractor beam: {why}.", SEC_TRACTOR))


def can_break_free(state: CombatState) -> bool:
    sh = _mover(state)
    return bool(sh and sh.captured_by and not state.moving.started)


def break_free(state: CombatState, dice: Dice) -> tuple[CombatState, list[LogEntry]]:
    """Seed "Raigs tractors": the held ship rolls its hull; free only if it is *greater* than the
    beam's strength (its damage code, rolled; ties hold).  decisions: on its movement step, before
    moving; free, it moves normally this phase; still held, its movement ends.  The scale caps of
    damage apply to the strength and of hull to the hull roll, as for a hit."""
    if not can_break_free(state):
        raise ValueError("Only a ship held by a tractor beam breaks free, before it moves.")
    s = thaw(state)
    sh = s.ship(s.moving.ship)
    held = holder_of(s, sh)
    log: list[LogEntry] = []
    if held is None:
        _release(sh)
        log.append(LogEntry(f"{sh.name} is no longer held.", SEC_TRACTOR))
        return s, log
    holder, beam = held
    notes: list[LogEntry] = []
    hull = _wild_note(roll_code(dice, sh.hull, wild=s.wild, cap=defence_cap(sh, [holder.scale]),
                                purpose=f"{sh.name} hull (break free)", rule=SEC_TRACTOR, complication=_comp(s)),
                      f"{sh.name} hull (break free)", notes).total
    strength = _wild_note(roll_code(dice, current_damage(holder, beam, s.round), wild=s.wild,
                                    cap=T.DAMAGE_CAP.get((holder.scale, sh.scale)),
                                    purpose=f"{holder.name} {beam.name} strength", rule=SEC_TRACTOR,
                                    complication=_comp(s)),
                          f"{holder.name} {beam.name} strength", notes).total
    if hull > strength:
        _release(sh)
        log.append(LogEntry(f"{sh.name} breaks free: hull {hull} against strength {strength}.", SEC_TRACTOR))
        log.extend(notes)
        s.active = _label(s)
        return s, log
    log.append(LogEntry(f"{sh.name} is still held: hull {hull} against strength {strength} "
                        "(it must be greater).", SEC_TRACTOR))
    log.extend(notes)
    sh.last_moved = 0
    _next_mover(s, log)
    return s, log


def special_options(state: CombatState) -> list[tuple[str, dict]]:
    """The moving ship's special actions besides its moves: (kind, params) for
    ``break_free``, ``ram target=``, ``jump``, ``shutdown``, ``evacuate``."""
    if _mover(state) is None:
        return []
    out: list[tuple[str, dict]] = []
    if can_break_free(state):
        out.append(("break_free", {}))
    out += [("ram", {"target": t}) for t in ram_targets(state)]
    if can_jump(state):
        out.append(("jump", {}))
    if can_shutdown(state):
        out.append(("shutdown", {}))
    if can_evacuate(state):
        out.append(("evacuate", {}))
    return out


# ---------------------------------------------------------------- firing
def _weapon_key(ship: Ship, weapon: Weapon) -> str:
    return f"{ship.id}:{weapon.id}"


def line_of_fire(state: CombatState, a: H.Hex, b: H.Hex) -> bool:
    """decision (docs "Special cases"): planets, moons and obstacles block fire, as they block a
    hyperspace jump's line of sight; ships do not (:func:`hexes.clear_line`)."""
    return H.clear_line(a, b, feature_hexes(state)) if state.features else True


def shot_band(state: CombatState, attacker: Ship, weapon: Weapon, target: Ship) -> str | None:
    """The range band of a shot, or None when it cannot be made (range, scale, speed, line of fire)."""
    if (attacker.scale, target.scale) in T.CANNOT_FIRE:
        return None
    if weapon.type == "proton_torpedo" and T.speed_modifier("proton_torpedo", target.speed) is None:
        return None
    band = T.range_band(weapon.type, H.distance(attacker.pos, target.pos), target.scale)
    if band is None or not line_of_fire(state, attacker.pos, target.pos):
        return None
    return band


def holding(state: CombatState, ship: Ship, weapon: Weapon) -> Ship | None:
    """The ship this tractor beam holds now, or None."""
    return next((t for t in state.ships if t.captured_by == ship.id and t.captured_weapon == weapon.id), None)


def fire_options(state: CombatState) -> list[tuple[str, str]]:
    """(weapon id, target id) the firing ship may still shoot this phase.

    Seed "2. COMBAT": each weapon system fires once; only systems that may fire together
    (tables.may_fire_together); a target of another side, in the weapon's range band.
    """
    s = state
    if s.phase != "firing" or not s.queue:
        return []
    sh = s.ship(s.queue[0])
    if controls_dead(sh, s.round) or sh.generator_shutdown:
        return []
    fired_types = [w.type for w in sh.weapons if _weapon_key(sh, w) in s.fired]
    out = []
    for w in sh.weapons:
        if w.type in NOT_YET_FIRING or _weapon_key(sh, w) in s.fired or not weapon_operative(w):
            continue
        if not T.may_fire_together(fired_types + [w.type]):
            continue
        tractor = w.type == "tractor_beam"
        if tractor and holding(s, sh, w):
            continue          # decision: a beam holding a ship is busy
        for t in s.ships:
            if tractor and t.captured_by:
                continue      # decision: one holder at a time
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
                          rule: str, complication: str = "remove", notes: list[LogEntry] | None = None) -> int:
    """Roll a crew skill + a ship factor where a scale cap applies to the factor's dice only
    (seed "6. ESCALES": "totes les tirades de Control de Foc / Maniobrabilitat / Escuts").

    No cap: one roll of skill + factor.  With a cap: the skill is rolled with the Wild Die,
    uncapped; then the factor, every die over the cap counting the cap.  decision: the Wild Die
    stays with the skill; only a 0D skill leaves it to the capped factor (where, per the notes,
    it still explodes on a natural 6).

    ``complication``: the Wild Die's first-roll 1 (RULES-NOTES; dice.roll_code); a roll flagged
    as a complication adds a log line to ``notes`` when it is given.
    """
    skill, factor = DiceCode.parse(skill), DiceCode.parse(factor)
    if cap is None:
        return _wild_note(roll_code(dice, skill + factor, wild=wild, purpose=purpose, rule=rule,
                                    complication=complication), purpose, notes).total
    total = 0
    if skill.total_pips:
        total += _wild_note(roll_code(dice, skill, wild=wild, purpose=f"{purpose} (skill)", rule=rule,
                                      complication=complication), purpose, notes).total
    if factor.total_pips:
        total += _wild_note(roll_code(dice, factor, wild=wild and skill.dice == 0,
                                      purpose=f"{purpose} (capped at {cap})", rule=rule, cap=cap,
                                      complication=complication), purpose, notes).total
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


def fire(state: CombatState, weapon_id: str, target_id: str, dice: Dice, *,
         checked: bool = False) -> tuple[CombatState, list[LogEntry]]:
    """One weapon system of the firing ship shoots (seed "2. COMBAT", steps 1-4).

    Hit when attack >= evasion (the defender rolls against each shot).  A hit rolls the
    weapon's damage now; it is applied in :func:`resolve_firing`.  ``checked``: the caller
    found the shot among :func:`fire_options` already.
    """
    if not checked and (weapon_id, target_id) not in fire_options(state):
        raise ValueError(f"{weapon_id} at {target_id} is not a legal shot now.")
    s = thaw(state)
    sh = s.ship(s.queue[0])
    w = next(w for w in sh.weapons if w.id == weapon_id)
    t = s.ship(target_id)
    band = shot_band(s, sh, w, t)
    hit_cap = T.TO_HIT_CAP.get((sh.scale, t.scale))
    evade_cap = T.EVASION_CAP.get((t.scale, sh.scale))
    dmg_cap = T.DAMAGE_CAP.get((sh.scale, t.scale))
    notes: list[LogEntry] = []
    a = roll_skill_and_factor(dice, sh.crew.gunnery, fire_control_code(s, sh, w, t, band), cap=hit_cap,
                              wild=s.wild, purpose=f"{sh.name} {w.name} to hit",
                              rule=SEC_SCALE_TO_HIT if hit_cap is not None else SEC_PROCEDURE,
                              complication=_comp(s), notes=notes)
    e = roll_skill_and_factor(dice, t.crew.piloting, current_maneuverability(t, s.round), cap=evade_cap,
                              wild=s.wild, purpose=f"{t.name} evades",
                              rule=SEC_SCALE_EVASION if evade_cap is not None else SEC_PROCEDURE,
                              complication=_comp(s), notes=notes)
    hit = a >= e
    shot = Shot(sh.id, w.id, t.id, band, a, e, hit, ion=w.type == "ion_cannon", tractor=w.type == "tractor_beam")
    s.fired.append(_weapon_key(sh, w))
    if w.ammo is not None:
        w.ammo -= 1
    what = f"{w.name} ({w.shots}-gun broadside)" if w.shots > 1 else w.name
    log = [LogEntry(f"{sh.name} fires {what} at {t.name} ({band} range): {a} against {e} -- "
                    + ("hit." if hit else "miss."), SEC_PROCEDURE)] + notes
    if hit and shot.tractor:
        log.append(LogEntry(f"{t.name} is caught by the tractor beam, without damage (held after all fire).",
                            SEC_TRACTOR))
    elif hit:
        if w.shots > 1:
            shot.hits = broadside_hits(dice, w.shots, f"{sh.name} {w.name} fire factor")
            log.append(LogEntry(f"Fire factor: {shot.hits} of {w.shots} shots hit.", T.SEC_FIRE_FACTORS))
        if dmg_cap == 0:
            shot.no_damage = True
            log.append(LogEntry(f"A {T.SCALE_LABEL[sh.scale]} cannot cause significant damage to "
                                f"{t.name}.", SEC_SCALE_DAMAGE))
        else:
            rule = SEC_SCALE_DAMAGE if dmg_cap is not None else SEC_PROCEDURE
            what = f"{w.name} {'ion damage' if shot.ion else 'damage'}"
            notes = []
            rolls = [_wild_note(roll_code(dice, current_damage(sh, w, s.round), wild=s.wild, cap=dmg_cap,
                                          purpose=what, rule=rule, complication=_comp(s)), what, notes).total
                     for _ in range(shot.hits)]
            shot.damage = sum(rolls)
            capped_note = f" (dice over {dmg_cap} count {dmg_cap})" if dmg_cap is not None else ""
            if shot.ion:
                log.append(LogEntry(f"Ion damage {shot.damage}{capped_note} (applied after all fire).", T.SEC_ION))
            else:
                log.append(LogEntry(f"Damage {shot.damage}{capped_note} (applied after all fire).", SEC_FIRING_PHASE))
            log.extend(notes)
    s.shots.append(shot)
    s.active = _label(s)
    return s, log


def end_fire(state: CombatState) -> tuple[CombatState, list[LogEntry]]:
    """The firing ship is done; the next in order fires (none left: resolve the damage)."""
    if state.phase != "firing" or not state.queue:
        raise ValueError("No ship is firing now.")
    s = thaw(state, ships=False)
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
    return {"dead_in_space": not sh.dead_in_space,
            "generator_overload": sh.generator_overload_round is None and not sh.generator_shutdown,
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
    s = thaw(state)
    sh = s.ship(target_id)
    cap = defence_cap(sh, attacker_scales)
    hull = roll_code(dice, sh.hull, wild=s.wild, cap=cap, purpose=f"{sh.name} hull against ions",
                     rule=T.SEC_ION, complication=_comp(s))
    notes: list[LogEntry] = []
    _wild_note(hull, f"{sh.name} hull against ions", notes)
    margin = ion_damage - hull.total
    if margin < 0:
        return s, [LogEntry(f"{sh.name}'s hull ({hull.total}) is greater than the ion damage {ion_damage}: "
                            "no effect.", T.SEC_ION)] + notes
    n = T.ion_result(margin)
    log = [LogEntry(f"{sh.name}: ion {ion_damage} against hull {hull.total}, margin {margin} -- "
                    + (f"{n} controls ionised." if n else "controls destroyed."), T.SEC_ION)] + notes
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
    s = thaw(state)
    log: list[LogEntry] = []
    _damage(s, s.ship(target_id), total, dice, attacker_scales, log)
    return s, log


def _damage(s: CombatState, sh: Ship, total: int, dice: Dice, attacker_scales, log: list[LogEntry]) -> None:
    """:func:`apply_damage` on ``s`` in place (collisions use it within a movement)."""
    cap = defence_cap(sh, attacker_scales)
    rule = SEC_SCALE_DAMAGE if cap is not None else SEC_PROCEDURE
    through = total
    if not _zero(sh.shields) and not controls_dead(sh, s.round) and not sh.generator_shutdown:
        notes: list[LogEntry] = []
        r = roll_skill_and_factor(dice, sh.crew.shields, sh.shields, cap=cap, wild=s.wild,
                                  purpose=f"{sh.name} shields", rule=rule, complication=_comp(s), notes=notes)
        if r >= total:
            log.append(LogEntry(f"{sh.name}'s shields ({r}) stop {total} damage.", SEC_PROCEDURE))
            log.extend(notes)
            return
        through = total - r
        log.append(LogEntry(f"{sh.name}'s shields roll {r}: {through} of {total} gets through.", SEC_PROCEDURE))
        log.extend(notes)
    elif not _zero(sh.shields) and sh.generator_shutdown:
        log.append(LogEntry(f"{sh.name}'s shields are off (generator shut down).", SEC_OVERLOAD))
    hull = roll_code(dice, sh.hull, wild=s.wild, cap=cap, purpose=f"{sh.name} hull", rule=rule,
                     complication=_comp(s))
    margin = through - hull.total
    band = T.damage_band(margin)
    if band is None:
        log.append(LogEntry(f"{sh.name}'s hull ({hull.total}) holds against {through}.", T.SEC_DAMAGE))
        _wild_note(hull, f"{sh.name} hull", log)
        return
    log.append(LogEntry(f"{sh.name}: {through} against hull {hull.total}, margin {margin} -- "
                        f"{T.DAMAGE_LABEL[band]}.", T.SEC_DAMAGE))
    _wild_note(hull, f"{sh.name} hull", log)
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
    _update_holds(s, log)


def resolve_firing(state: CombatState, dice: Dice) -> tuple[CombatState, list[LogEntry]]:
    """After every ship fired: sum the damage of the hits on each target (seed step 4, RULES-NOTES),
    apply it, remove the destroyed ships, check the end, and go to the next round's initiative."""
    if state.phase != "firing" or state.queue:
        raise ValueError("Damage is resolved when every ship has fired.")
    s = thaw(state)
    log: list[LogEntry] = []
    before = {sh.id for sh in s.ships if sh.in_play}
    totals: dict[str, int] = {}
    scales: dict[str, list[str]] = {}
    damaging = [x for x in s.shots if x.hit and not x.ion and not x.no_damage and not x.tractor]
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
    # "Raigs tractors": a hit captures, after the damage (decision: not by a holder destroyed now)
    for shot in s.shots:
        if not (shot.hit and shot.tractor):
            continue
        holder, t = s.ship(shot.attacker), s.ship(shot.target)
        beam = next(w for w in holder.weapons if w.id == shot.weapon)
        if not (holder.in_play and t.in_play) or t.captured_by or not weapon_operative(beam):
            log.append(LogEntry(f"{holder.name}'s tractor beam cannot hold {t.name}.", SEC_TRACTOR))
            continue
        t.captured_by, t.captured_weapon = holder.id, beam.id
        log.append(LogEntry(f"{t.name} is held by {holder.name}'s {beam.name}: it cannot move until it "
                            "breaks free.", SEC_TRACTOR))
    for sh in s.ships:
        if sh.in_play and sh.generator_overload_round is not None and sh.generator_overload_round <= s.round:
            sh.destroyed = True
            log.append(LogEntry(f"{sh.name}'s generator explodes.", T.SEC_CONSIDERABLE))
        if sh.in_play and sh.structural_round is not None and sh.structural_round <= s.round:
            sh.destroyed = True
            log.append(LogEntry(f"{sh.name} breaks up.", T.SEC_CONSIDERABLE))
    _update_holds(s, log)
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
