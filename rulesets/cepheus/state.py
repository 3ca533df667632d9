"""The state of a Cepheus fight as plain data, and its copy-on-write transaction.

Pure Python (no Django).  States are dataclasses that round-trip through
:mod:`rulesets.core.serial`.  ``apply`` never changes the state it is given: a
:class:`Tx` copies the state shallowly, and a ship, crew member or mount the first
time a rule changes it (everything else is shared with the state before).  A simulated
battle (:meth:`Tx.owning`) copies its state once, at the start (:func:`own_copy`), and then
changes its ships, crew members and mounts in place.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from functools import lru_cache

from rulesets.core.engine import Log
from rulesets.core.messages import Message, msg
from rulesets.core.spec import remembered_place
from rulesets.core.state import clone

from .crew import POSITION_LABEL
from .tables import LOCATION_LABEL


#: where each ship and each crew member was last found in its list, by id.  Ids are unique in a fight
#: and the lists keep their order from step to step, so a look-up tries that place first and checks the
#: id there: a wrong guess (another fight, a list that changed) falls back to a search, never a wrong answer.
_SHIP_AT: dict[str, int] = {}
_MEMBER_AT: dict[str, int] = {}


@dataclass
class Weapon:
    type: str
    loaded: int = 0
    reserve: int = 0
    missile: str = ""
    full: int = 0  # the stats' full load of ammunition (to report what was used)


@dataclass
class Mount:
    id: str          # t1, t2 ... turrets; b1, b2 ... bays
    kind: str        # turret | bay
    weapons: list[Weapon] = field(default_factory=list)
    hits: int = 0
    repaired: int = 0  # battlefield repairs (undone after the battle)


@dataclass
class Task:
    """An extended action in progress (Azioni estese)."""

    kind: str
    system: str
    turns: int
    done: int = 0
    skill: str = "mechanic"


@dataclass
class Crew:
    id: str
    name: str
    position: str
    station: str = ""
    chars: dict[str, int] = field(default_factory=dict)
    skills: dict[str, int] = field(default_factory=dict)
    player: int | None = None
    automated: str = ""  # "", "gunner", "pilot", "engineer", "repair"
    damage: int = 0
    rads: int = 0
    task: Task | None = None


@dataclass
class Ship:
    id: str
    name: str
    side: str
    fleet: str = ""
    tonnage: int = 100
    small_craft: bool = False
    hull_max: int = 2
    structure_max: int = 2
    armour_max: int = 0
    thrust_max: int = 1
    jump: int = 0
    sensors: str = "standard"
    electronics: int = 0
    fire_control: int = 0
    auto_repair: bool = False
    intellect: bool = False
    expert_pilot: int = 0
    expert_engineer: int = 0
    repair_drones: bool = False
    nuclear_damper: bool = False
    meson_screen: bool = False
    fuel_max: int = 0
    cargo_max: int = 0
    hull: int = 2
    structure: int = 2
    armour: int = 0
    fuel: int = 0
    cargo: int = 0
    mounts: list[Mount] = field(default_factory=list)
    crew: list[Crew] = field(default_factory=list)
    hits: dict[str, int] = field(default_factory=dict)      # system -> hits taken
    repaired: dict[str, int] = field(default_factory=dict)  # system -> battlefield repairs
    status: str = "active"  # active | disabled | destroyed | escaped | boarded | captured
    speed: int = 0
    initiative: int = 0
    boost_next: int = 0
    boost: int = 0
    reactions: int = 1
    evasive: int = 0
    lined_up: int = 0
    targeting: dict[str, int] = field(default_factory=dict)
    pool: int = 0
    bonus: dict[str, int] = field(default_factory=dict)
    hasty: bool = False
    pursuing: str = ""
    pursuit_turns: int = 0
    pursuit_kept: bool = False
    jump_plotted: bool = False
    intercepted: str = ""
    intel: str = ""
    jammed: str = ""
    position: str = "space"  # space | orbit | decaying | atmosphere
    avoided: bool = False
    delaying: bool = False
    #: Ritardo: the ship has delayed this round (when it then acts, it acts: no second delay)
    delayed: bool = False
    fuel_leak: int = 0
    leak_acc: int = 0
    no_reactions: bool = False
    fired: list[str] = field(default_factory=list)  # mounts that fired this round

    @property
    def thrust(self) -> int:
        hits = self.hits.get("m_drive", 0)
        if hits <= 0:
            return self.thrust_max
        if hits == 1:
            return max(0, self.thrust_max - 1)
        if hits == 2:
            return max(0, min(self.thrust_max - 1, self.thrust_max // 2))
        return 0

    @property
    def alive(self) -> bool:
        return self.status in ("active", "disabled")

    @property
    def can_act(self) -> bool:
        return self.status == "active"

    def mount(self, mount_id: str) -> Mount | None:
        for m in self.mounts:
            if m.id == mount_id:
                return m
        return None

    def member(self, crew_id: str) -> Crew | None:
        crew = self.crew
        try:  # the remembered place (see remembered_place), tried first
            c = crew[_MEMBER_AT[crew_id]]
            if c.id == crew_id:
                return c
        except (KeyError, IndexError):  # never found yet, or a shorter list than the one it was found in
            pass
        i = remembered_place(crew, crew_id, _MEMBER_AT)
        return None if i is None else crew[i]


@dataclass
class Missile:
    id: str
    kind: str           # standard | smart | nuclear
    count: int
    source: str
    target: str
    to_hit: int
    turns: int          # rounds until impact
    fuel: int = 0       # smart: rounds of flight left
    launched: int = 0


@dataclass
class Boarding:
    attacker: str
    defender: str
    attacker_dm: int = 0
    defender_dm: int = 0
    rounds: int = 0


@dataclass
class PersonalTarget:
    """A personal-scale target (Danno in scala): a squad in vacuum suits, a vehicle."""

    id: str
    name: str
    side: str
    band: str = "close"
    damage: int = 0
    rads: int = 0


@dataclass
class Hit:
    """A successful attack waiting for damage resolution at the end of the ship's turn."""

    target: str
    source: str
    #: what hit, in words, as the state is saved (``words_to_json`` of a message: the words are
    #: rendered when the log is read; a state saved before messages holds the English string)
    label: Any
    weapon: str = ""
    dice: int = 0
    flat: int = 0
    ignore_armour: bool = False
    internal: bool = False
    radiation: str = ""      # "" | "armour" (DM- armour) | "plain"
    sand: int = 0            # 1D6 reductions from sand
    screen: int = 0          # damage removed by screens
    damper: bool = False     # nuclear damper removes the nuclear radiation hit
    single: int = 0          # direct single hits (boarding), no damage roll


@dataclass
class Pending:
    """An incoming attack the defender may react to, or an opposed result to choose."""

    kind: str                # fire | missiles | board | range
    attacker: str
    target: str
    crew: str = ""
    mount: str = ""
    weapons: list[int] = field(default_factory=list)
    dm: int = 0
    missiles: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    dodge: int = 0
    sand: int = 0
    screen: int = 0
    screen_kind: str = ""
    defence: int = 0         # boarding: DM to the defender from point defence / sand
    chooser: str = ""        # range: ship id that chooses


@dataclass
class Suspended:
    """A ship's turn interrupted by a delaying ship (Ritardo): it resumes where it stopped."""

    ship: str
    queue: list[str] = field(default_factory=list)
    pos: int = 0
    sig: int = 1
    minor: int = 1
    hits: list[Hit] = field(default_factory=list)  # its attacks' damage, still to be resolved at its turn's end


@dataclass
class Options:
    range: str = "short"
    ranges: dict[str, str] = field(default_factory=dict)
    aware: list[str] = field(default_factory=list)
    skill_delta_side0: int = 0  # simulations: the first side's trained skills shifted by this
    max_rounds: int = 20
    hasty: bool = False
    hazard: str = "none"
    hazard_mismatch: bool = False
    planet: bool = False
    world_size: int = 7
    world_atmosphere: int = 6
    auto_repair_checks: int = 1
    smart_fuel: int = 10
    comms_noise: bool = False
    encrypted: bool = False
    hull_zero_disables: bool = True


@dataclass
class CombatState:
    ships: list[Ship] = field(default_factory=list)
    ranges: dict[str, str] = field(default_factory=dict)
    docked: list[str] = field(default_factory=list)
    missiles: list[Missile] = field(default_factory=list)
    boarding: list[Boarding] = field(default_factory=list)
    personal: list[PersonalTarget] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    pending: Pending | None = None
    options: Options = field(default_factory=Options)
    sides: list[str] = field(default_factory=list)
    tactics: dict[str, int] = field(default_factory=dict)
    round: int = 0
    phase: str = "initiative"
    order: list[str] = field(default_factory=list)
    turn: int = 0
    queue: list[str] = field(default_factory=list)
    pos: int = 0
    sig: int = 1
    minor: int = 1
    impacts: list[str] = field(default_factory=list)
    waiting: list[str] = field(default_factory=list)
    asked: int = 0
    suspended: list[Suspended] = field(default_factory=list)
    over: bool = False
    winner: str | None = None
    serial: int = 0

    # ---- lookups
    def ship(self, ship_id: str) -> Ship:
        sh = self.find_ship(ship_id)
        if sh is None:
            raise KeyError(ship_id)
        return sh

    def find_ship(self, ship_id: str) -> Ship | None:
        ships = self.ships
        try:  # the remembered place (see remembered_place), tried here first: a few hundred look-ups a battle
            sh = ships[_SHIP_AT[ship_id]]
            if sh.id == ship_id:
                return sh
        except (KeyError, IndexError):
            pass
        i = remembered_place(ships, ship_id, _SHIP_AT)
        return None if i is None else ships[i]

    def crew_ship(self, crew_id: str | None) -> Ship | None:
        for s in self.ships:
            for c in s.crew:
                if c.id == crew_id:
                    return s
        return None

    def band(self, a: str, b: str) -> str:
        return self.ranges.get(pair(a, b), self.options.range)

    @property
    def acting_ship(self) -> Ship | None:
        if self.phase == "crew" and self.turn >= 0:
            try:
                ship_id = self.order[self.turn]  # a turn past the order: nobody acts
            except IndexError:
                return None
            return self.find_ship(ship_id)
        return None

    @property
    def acting_crew(self) -> Crew | None:
        return self.actor()[1]

    def actor(self) -> tuple[Ship | None, Crew | None]:
        """The acting ship and crew member, found with one look-up (rules ask for both every step)."""
        ship = self.acting_ship
        if ship is None or self.pos >= len(self.queue):
            return ship, None
        return ship, ship.member(self.queue[self.pos])

    @property
    def active(self) -> Message | str:
        """Whose decision it is, in words: "Corsair — Pilot Ann", "Raider — reactions"."""
        if self.over:
            return msg("cepheus.whose.over", "Fight over")
        if self.phase == "initiative":
            if self.turn < len(self.order):
                return msg("cepheus.whose.initiative_of", "{side} — initiative", side=self.order[self.turn])
            return msg("cepheus.whose.initiative", "initiative")
        if self.phase == "react" and self.pending is not None:
            target = self.find_ship(self.pending.target)
            return msg("cepheus.whose.reactions", "{ship} — reactions", ship=target.name if target else "?")
        if self.phase == "range" and self.pending is not None:
            chooser = self.find_ship(self.pending.chooser)
            return msg("cepheus.whose.range", "{ship} — range choice", ship=chooser.name if chooser else "?")
        if self.phase == "delay" and self.waiting:
            ship = self.find_ship(self.waiting[min(self.asked, len(self.waiting) - 1)])
            return msg("cepheus.whose.delaying", "{ship} — delaying", ship=ship.name if ship else "?")
        ship, crew = self.acting_ship, self.acting_crew
        if ship and crew:
            return msg("cepheus.whose.crew", "{ship} — {position} {name}", ship=ship.name,
                       position=POSITION_LABEL.get(crew.position, crew.position), name=crew.name)
        return self.phase


@lru_cache(maxsize=4096)
def pair(a: str, b: str) -> str:
    """The key of two ships' range band (either order)."""
    return f"{a}|{b}" if a <= b else f"{b}|{a}"


SYSTEMS = ("sensors", "m_drive", "j_drive", "power_plant", "bridge", "fuel", "hold")


SYSTEM_LABEL = {k: LOCATION_LABEL[k] for k in SYSTEMS}


def play_copy(state: CombatState) -> CombatState:
    """The state an ``apply`` step builds (:class:`Tx`): a shallow copy with its own list of ships.
    That is enough to leave ``state`` as it was: the rules change a ship, crew member or mount only
    through the transaction, which copies it first, and everything else of a state they replace
    rather than change (the conformance suite checks that ``apply`` never changes the state it is
    given)."""
    new = clone(state)
    new.ships = state.ships.copy()
    return new


def _copy_crew(c: Crew) -> Crew:
    """A crew member a rule may change: its task copied too (its characteristics and skills are
    replaced, never changed, by the rules)."""
    c = clone(c)
    if c.task is not None:
        c.task = clone(c.task)
    return c


def _copy_mount(m: Mount) -> Mount:
    """A mount a rule may change: its weapons copied too (a shot changes a weapon's load)."""
    m = clone(m)
    m.weapons = [clone(w) for w in m.weapons]
    return m


def copy_ship(old: Ship, *, parts: bool) -> Ship:
    """A ship a rule may change: its dicts of hits, repairs, sensor locks and coordination points
    copied; with ``parts``, its crew members (:func:`_copy_crew`) and mounts (:func:`_copy_mount`) too.
    Without ``parts`` the transaction copies those on a first change (:meth:`Tx._own`)."""
    sh = clone(old)
    sh.hits, sh.repaired = old.hits.copy(), old.repaired.copy()
    sh.targeting, sh.bonus = old.targeting.copy(), old.bonus.copy()
    if parts:
        sh.crew = [_copy_crew(c) for c in old.crew]
        sh.mounts = [_copy_mount(m) for m in old.mounts]
    return sh


class Tx:
    """The state being built by one ``apply``: copied shallowly, parts copied on first write."""

    __slots__ = ("s", "dice", "log", "_ships", "_owned")

    def __init__(self, state: CombatState, dice):
        self.s = play_copy(state)  # the state and its list of ships; the rest copied on first write
        self.dice = dice
        #: the step's log lines (a core :class:`~rulesets.core.engine.Log`: in a playout, with the dice
        #: recording nothing, it keeps none)
        self.log = Log(dice.recording)
        #: the ships this step has copied, by id
        self._ships: dict[str, Ship] = {}
        #: (ship id, list name) of the crew and mount lists this step copied, (ship id, list name, item id)
        #: of their items
        self._owned: set[tuple] | None = None

    @classmethod
    def owning(cls, state: CombatState, dice) -> "OwnTx":
        """A transaction for a whole playout that owns its state: ``state`` is a private copy made
        with :func:`own_copy` (every ship, crew member and mount copied once, at the start), so
        every step changes ships, crew members and mounts in place, with no copy and no
        bookkeeping."""
        return OwnTx(state, dice)

    def ship(self, ship_id: str) -> Ship:
        own = self._ships.get(ship_id)
        if own is not None:
            return own
        ships = self.s.ships
        i = remembered_place(ships, ship_id, _SHIP_AT)
        if i is None:
            raise KeyError(ship_id)
        sh = ships[i] = copy_ship(ships[i], parts=False)
        self._ships[ship_id] = sh
        return sh

    def crew(self, ship_id: str, crew_id: str) -> Crew:
        return self._own(ship_id, "crew", crew_id, _copy_crew)

    def mount(self, ship_id: str, mount_id: str) -> Mount:
        return self._own(ship_id, "mounts", mount_id, _copy_mount)

    def _own(self, ship_id: str, attr: str, item_id: str, copy):
        """The step's own copy of item ``item_id`` of the ship's list ``attr`` (crew, mounts):
        the list is copied the first time this step touches it, the item the first time it is asked for."""
        sh = self.ship(ship_id)
        owned = self._owned
        if owned is None:
            owned = self._owned = set()
        if (ship_id, attr) not in owned:
            setattr(sh, attr, list(getattr(sh, attr)))
            owned.add((ship_id, attr))
        items = getattr(sh, attr)
        key = (ship_id, attr, item_id)
        for i, item in enumerate(items):
            if item.id == item_id:
                if key not in owned:
                    item = copy(item)
                    items[i] = item
                    owned.add(key)
                return item
        raise KeyError(item_id)

    def say(self, text: Message | str, rule: str = "", gm_only: bool = False, side: str = ""):
        """A log line: every rule says it; the log keeps it or, in a playout, drops it."""
        self.log.say(text, rule, gm_only, side)

    def inside(self, ship, text: Message | str, rule: str = ""):
        """A line about what happens inside ``ship`` (its Captain's orders, the DMs handed to its
        crew, its internal checks): read by the GM and the players of its side, not by the other
        side, whose sensors and eyes do not show it (docs/rulesets/cepheus.md, "What the other
        side reads")."""
        self.say(text, rule, side=ship.side)

    def next_id(self, prefix: str) -> str:
        self.s.serial += 1
        return f"{prefix}{self.s.serial}"


class OwnTx(Tx):
    """:class:`Tx` over a state it owns (:meth:`Tx.owning`): the rules' ships, crew members and
    mounts are the state's own, changed in place."""

    __slots__ = ()

    def __init__(self, state: CombatState, dice):
        """``state`` is the transaction's own (not copied)."""
        self.s = state
        self.dice = dice
        self.log = Log(dice.recording)
        self._ships = {}
        self._owned = None

    def ship(self, ship_id: str) -> Ship:
        sh = self.s.find_ship(ship_id)
        if sh is None:
            raise KeyError(ship_id)
        return sh

    def crew(self, ship_id: str, crew_id: str) -> Crew:
        c = self.s.ship(ship_id).member(crew_id)
        if c is None:
            raise KeyError(crew_id)
        return c

    def mount(self, ship_id: str, mount_id: str) -> Mount:
        m = self.s.ship(ship_id).mount(mount_id)
        if m is None:
            raise KeyError(mount_id)
        return m


def own_copy(state: CombatState) -> CombatState:
    """The private state an owning playout (:meth:`Tx.owning`) changes in place: :func:`play_copy`
    with every ship copied as :meth:`Tx.ship` and :meth:`Tx._own` copy a ship, crew member and
    mount on a first change, so nothing of ``state`` is changed."""
    new = clone(state)
    new.ships = [copy_ship(sh, parts=True) for sh in state.ships]
    return new
