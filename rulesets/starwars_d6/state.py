"""The Star Wars D6 combat state as plain data, and what the rules read off it.

Dataclasses (:class:`Ship`, :class:`Weapon`, :class:`Crew`, :class:`Feature`, :class:`Progress`,
:class:`Shot`, :class:`CombatState`) that round-trip through :mod:`rulesets.core.serial`; the
copy-on-write helpers every rule starts with (:func:`thaw`, :func:`own`); the values of the
moment (a ship's maneuverability less controls ionised, whether its controls are dead...);
who is where on the board; and the tractor-beam holds that end by themselves.

Seed: star-wars-d6-starship-combat.ca.txt; resolutions: RULES-NOTES "starwars_d6".
Pure Python: no Django import.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from rulesets.core.citation import cite
from rulesets.core.engine import Log
from rulesets.core.messages import Message, msg
from rulesets.core.state import clone

from . import hexes, tables
from .dice import DiceCode


SEC_PROCEDURE = cite("Combat: Procedure", "2. COMBAT: Procediment")
SEC_IONISED = cite("Determining Damage: Ionised Controls", "5. DETERMINANT ELS DANYS: Controls ionitzats")
SEC_SHIELDS_BLOWN = cite("Determining Damage: Shields Blown", "5. DETERMINANT ELS DANYS: Escuts anul·lats")
SEC_CUMULATIVE = cite("Determining Damage: All Damage Is Cumulative",
                      "5. DETERMINANT ELS DANYS: Tots els danys es consideren acumulatius")
SEC_SEVERE = cite("Severe Damage", "5. DETERMINANT ELS DANYS: Danys severs", ruling=True)
SEC_INITIATIVE = cite("Sequence of Play: Initiative Phase", "4. SEQÜENCIA DE JOC: Fase d'iniciativa")
SEC_FIRING_PHASE = cite("Sequence of Play: Firing Phase", "4. SEQÜENCIA DE JOC: Fase de foc")
SEC_SCALE_TO_HIT = cite("Scales: Scale in the To-Hit Roll", "6. ESCALES: Escala a la tirada per impactar")
SEC_SCALE_EVASION = cite("Scales: Scale in Evasive Manoeuvres", "6. ESCALES: Escala per maniobres evasives")
SEC_SCALE_DAMAGE = cite("Scales: Scale in Determining Damage", "6. ESCALES: Escala per determinar el dany")
SEC_COLLISION = tables.SEC_COLLISION        # 3. CASOS ESPECIALS: Col·lisions accidentals
SEC_RAM = tables.SEC_RAM                    # 3. CASOS ESPECIALS: Col·lisions premeditades
SEC_RETREAT = tables.SEC_RETREAT            # 3. CASOS ESPECIALS: Retirar-se del combat
SEC_TRACTOR = tables.SEC_TRACTOR            # 3. CASOS ESPECIALS: Raigs tractors
SEC_DECLARE = tables.SEC_DECLARE            # 4. SEQÜENCIA DE JOC: Fase de moviment (declared jumps and rams)
SEC_OVERLOAD = tables.SEC_OVERLOAD          # 5. considerable 2: Sobrecàrrega en el generador
SEC_STRUCTURAL = tables.SEC_STRUCTURAL      # 5. considerable 5: Danys estructurals


#: "Controls destruïts" (ion table 21+): decision -- the controls are dead for the rest of the fight.
CONTROLS_DESTROYED = 10 ** 6


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
    shots: int = 1               # guns of a battery, fired in broadsides (seed "Factors de Foc"); 1 = one gun


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
    scale: str = tables.STARFIGHTER
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
        return self.name or tables.FEATURE_LABEL.get(self.kind, self.kind)


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
    over: bool = False
    winner: str | None = None
    sides: list[str] = field(default_factory=list)
    initiative: dict[str, int] = field(default_factory=dict)  # side -> its (last) 2D roll
    order: list[str] = field(default_factory=list)             # sides, lowest first
    queue: list[str] = field(default_factory=list)             # ship ids still to move / fire
    moving: Progress | None = None
    fired: list[str] = field(default_factory=list)             # weapon ids ("ship:weapon") fired
    guns_fired: dict[str, int] = field(default_factory=dict)   # "ship:weapon" -> guns of a battery fired
    shots: list[Shot] = field(default_factory=list)
    features: list[Feature] = field(default_factory=list)      # planets, moons, obstacles

    def ship(self, ship_id: str) -> Ship:
        for sh in self.ships:
            if sh.id == ship_id:
                return sh
        raise KeyError(ship_id)

    @property
    def hboard(self) -> hexes.Board:
        return _hex_board(self.board.width, self.board.height)

    @property
    def active(self) -> Message:
        """Who acts now, in words (the whose-turn line, :func:`active_label`): read from the
        state when somebody reads it, so no rule keeps it up to date."""
        return active_label(self)


@lru_cache(maxsize=64)
def _hex_board(width: int, height: int) -> hexes.Board:
    return hexes.Board(width, height)      # frozen: one per size, shared


def _clone_ship(ship: Ship) -> Ship:
    new = clone(ship)
    new.weapons = [clone(w) for w in ship.weapons]
    new.ionised = list(ship.ionised)
    new.damage = list(ship.damage)
    return new


def thaw(state: CombatState, *, ships: bool = True, lists: bool = True) -> CombatState:
    """The copy of ``state`` a rule changes and returns (the argument is never changed).

    Copied: the state, its lists and dicts, the moving ship's progress and (``ships``) every
    ship with its weapons and its lists.  Shared, because no rule changes them in place (they
    are replaced): the crews, the board size, the features and the shots already fired.
    ``lists=False``: the state's lists and dicts (sides, order, queue, initiative, fired, guns
    fired, shots, features) stay shared too, for a rule that changes none of them.
    """
    s = clone(state)
    s.ships = [_clone_ship(sh) for sh in state.ships] if ships else list(state.ships)
    # which ships this copy has copied so far (None: all of them), each with whether its weapons
    # and lists were copied too; see :func:`own`
    s.__dict__["_copied_ships"] = None if ships else {}
    s.moving = clone(state.moving) if state.moving is not None else None
    if not lists:            # the rule changes none of them (a move within a ship's movement)
        return s
    s.sides, s.order, s.queue = list(state.sides), list(state.order), list(state.queue)
    s.initiative = dict(state.initiative)
    s.guns_fired = dict(state.guns_fired)
    s.fired, s.shots, s.features = list(state.fired), list(state.shots), list(state.features)
    return s


def copy_ship(ship: Ship) -> Ship:
    """A copy of ``ship`` that shares nothing that can change (its crew too)."""
    new = _clone_ship(ship)
    new.crew = clone(ship.crew)
    return new


def own(s: CombatState, ship_id: str, *, fields_only: bool = False) -> Ship:
    """The ship ``ship_id`` of a state a rule is changing, copied first if the state still shares
    it with the state the rule was given (``thaw(..., ships=False)``).

    ``fields_only``: the rule sets only the ship's own fields (where it is, which way it faces...),
    so its weapons and lists stay shared (a move); a later ``own`` of the same ship without it
    copies them too."""
    copied = s.__dict__.get("_copied_ships")
    if copied is None:
        return s.ship(ship_id)
    whole = copied.get(ship_id)
    if whole or (whole is not None and fields_only):
        return s.ship(ship_id)
    for index, sh in enumerate(s.ships):
        if sh.id == ship_id:
            new = s.ships[index] = clone(sh) if fields_only else _clone_ship(sh)
            copied[ship_id] = not fields_only
            return new
    raise KeyError(ship_id)


def copy_state(state: CombatState) -> CombatState:
    """A copy of ``state`` that shares nothing that can change (for a caller that may change it)."""
    s = thaw(state, ships=False)
    s.ships = [copy_ship(sh) for sh in state.ships]
    s.__dict__["_copied_ships"] = None           # every ship is this state's own (see own)
    s.board = clone(state.board)
    s.features = [clone(f) for f in state.features]
    s.shots = [clone(x) for x in state.shots]
    return s


#: RULES-NOTES Wild Die: the two choices for a 1 on its first roll (dice.roll_code).
COMPLICATIONS = ("remove", "add")


def complication_choice(s: CombatState) -> str:
    """The state's Wild-Die complication choice (states saved before it existed: "remove")."""
    return getattr(s, "complication", "remove") or "remove"


def _active_ionised(ship: Ship, rnd: int) -> int:
    if not ship.ionised:                 # (most ships: asked at every shot and every bot step)
        return 0
    return sum(1 for last in ship.ionised if last >= rnd)


def controls_dead(ship: Ship, rnd: int) -> bool:
    """Seed 5. "Controls ionitzats": fully ionised controls (no turning, firing or shields)."""
    return ship.controls_dead_until >= rnd


def penalty(ship: Ship, rnd: int) -> int:
    """Pips lost to controls ionised (1D per result still lasting)."""
    if not ship.ionised:                 # (most ships)
        return 0
    return _active_ionised(ship, rnd) * tables.IONISED_PENALTY


def current_maneuverability(ship: Ship, rnd: int) -> DiceCode:
    return DiceCode.parse(ship.maneuverability) - penalty(ship, rnd)


def current_fire_control(ship: Ship, weapon: Weapon, rnd: int) -> DiceCode:
    return DiceCode.parse(weapon.fire_control) - penalty(ship, rnd)


def current_damage(ship: Ship, weapon: Weapon, rnd: int) -> DiceCode:
    return DiceCode.parse(weapon.damage) - penalty(ship, rnd)


def is_zero(code_text: str) -> bool:
    """decision: a factor is at 0D (inoperative) when it has no dice left (pips ignored)."""
    return DiceCode.parse(code_text).dice == 0


def weapon_operative(weapon: Weapon) -> bool:
    """Seed 5.: a disabled weapon, or one whose fire control damage reduced to 0D, is inoperative."""
    if weapon.disabled or (weapon.ammo is not None and weapon.ammo <= 0):
        return False
    return not (weapon.fc_reduced and is_zero(weapon.fire_control))


def roll_purpose(id: str, text: str, **params) -> Message:
    """The purpose of a roll of a dice code: a message (:func:`rulesets.core.messages.msg`'s arguments)."""
    return Message(id, text, params)


#: the phases in words (the whose-turn line)
PHASE_WORDS = {"movement": msg("starwars_d6.phase.movement", "movement"),
               "firing": msg("starwars_d6.phase.firing", "firing")}


def active_label(s: CombatState) -> Message:
    """Who acts now: the whose-turn line (``CombatState.active``)."""
    if s.over:
        if s.winner:
            return msg("starwars_d6.turn.over_won", "Over: {side} wins", side=s.winner)
        return msg("starwars_d6.turn.over_draw", "Over: no winner")
    if s.phase == "initiative":
        if not s.initiative:    # the fight's first step: nobody has rolled yet
            return msg("starwars_d6.turn.first_initiative", "Initiative: every side rolls 2D")
        return msg("starwars_d6.turn.initiative", "Round {round}: initiative", round=s.round)
    phase = PHASE_WORDS.get(s.phase, s.phase)
    if s.queue:
        sh = s.ship(s.queue[0])
        return msg("starwars_d6.turn.ship", "Round {round}, {phase}: {ship} ({side})", round=s.round, phase=phase,
                   ship=sh.name, side=sh.side)
    return msg("starwars_d6.turn.resolve", "Round {round}, {phase}: resolve damage", round=s.round, phase=phase)


def sides_in_play(s: CombatState) -> list[str]:
    present = {sh.side for sh in s.ships if sh.in_play}
    return [side for side in s.sides if side in present]


def ships_in_order(s: CombatState) -> list[str]:
    return [sh.id for side in s.order for sh in s.ships if sh.side == side and sh.in_play]


def movement_speed(ship: Ship) -> int:
    """The speed points a ship has at the start of its movement: 0 dead in space (seed 5.
    considerable 1), ¼ of its speed rounded up on auxiliary batteries (considerable 2)."""
    if ship.dead_in_space:
        return 0
    if ship.generator_shutdown:
        return tables.auxiliary_speed(ship.speed)
    return ship.speed


def feature_hexes(s: CombatState, kinds=tables.FEATURE_KINDS) -> set[hexes.Hex]:
    return {f.pos for f in s.features if f.kind in kinds}


def feature_at(s: CombatState, h: hexes.Hex) -> Feature | None:
    return next((f for f in s.features if f.pos == tuple(h)), None)


def ship_at(s: CombatState, h: hexes.Hex, *, besides=()) -> Ship | None:
    """The ship in play in hex ``h`` (not one of ``besides``), or None."""
    return next((o for o in s.ships if o.in_play and o.pos == tuple(h) and o.id not in besides), None)


def occupied(s: CombatState, besides=()) -> frozenset:
    """Hexes of the other ships in play and of every feature (decision: a ship never chooses to
    enter one; see :func:`rulesets.starwars_d6.hexes.moves`)."""
    return frozenset({o.pos for o in s.ships if o.in_play and o.id not in besides} | feature_hexes(s))
TRACTOR_REACH = tables.RANGES["tractor_beam"]["long"][1]


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


def release(sh: Ship) -> None:
    sh.captured_by = sh.captured_weapon = None


def say_all(log: Log, lines) -> None:
    """Say ``lines`` -- log entries written by a function that appends them to a list
    (``checks.note_complication``) -- through the step's log, which keeps them or, in a playout, not."""
    for e in lines:
        log.say(e.message, e.rule, e.gm_only, e.side)


def update_holds(s: CombatState, log: Log) -> None:
    """Seed "Raigs tractors", decisions: a hold ends when the held ship or its holder leaves the
    combat (destroyed, off the board, jumped, abandoned), when the holder's generator is shut down
    or its beam is inoperative, or when the holder moves out of the beam's reach (3 hexes: no pulling)."""
    for sh in s.ships:
        if not sh.captured_by:
            continue
        held = holder_of(s, sh)
        why = None
        if held is None:
            why = msg("starwars_d6.release.gone", "its holder is gone")
        else:
            holder, beam = held
            if not sh.in_play:
                why = msg("starwars_d6.release.left", "{ship} has left the combat", ship=sh.name)
            elif not holder.in_play:
                why = msg("starwars_d6.release.left", "{ship} has left the combat", ship=holder.name)
            elif holder.generator_shutdown:
                why = msg("starwars_d6.release.shutdown", "{ship}'s generator is shut down", ship=holder.name)
            elif not weapon_operative(beam):
                why = msg("starwars_d6.release.beam_out", "{ship}'s {weapon} is inoperative", ship=holder.name,
                          weapon=beam.name)
            elif hexes.distance(holder.pos, sh.pos) > TRACTOR_REACH:
                why = msg("starwars_d6.release.reach", "{ship} is out of the beam's reach", ship=holder.name)
        if why:
            release(own(s, sh.id, fields_only=True))
            log.say(msg("starwars_d6.log.released", "{ship} is released from the tractor beam: {why}.",
                        ship=sh.name, why=why), SEC_TRACTOR)
