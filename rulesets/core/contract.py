"""The contract between the app and a rule system: everything the app calls, in one place.

A rule system is an engine object (``RULESET`` in ``rulesets/<key>/engine.py``) whose
class subclasses :class:`RulesetBase`, plus a Django app around it (forms, partials).
:class:`RulesetContract` lists what the system must write, with what each piece means;
:class:`RulesetBase` gives the optional parts their defaults.  The conformance suite
(``tests/rulesets/test_conformance.py``) calls :func:`missing` and fails, naming each
missing piece, for a system that lacks any of it.  docs/adding-a-ruleset.md walks
through the contract on the toy system.

Pure Python: no Django import.  States are plain data (dataclasses) that round-trip
through JSON (:mod:`rulesets.core.serial`), and must have ``round``, ``phase``,
``active``, ``over`` and ``winner``.
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from .dice import Dice, RandomSource
from .engine import Action, Odds, Refusal, Step, Viewer
from .replay import policy_loop


@dataclass(frozen=True)
class SideResult:
    """One side at the end of a simulated battle."""

    side: str
    #: what is left of the side's fighting strength, 0..1, measured as the system's
    #: ``strength_label`` says (hull left, ships in play, hit points left...)
    strength_left: float
    ships_lost: int


@dataclass(frozen=True)
class BattleOutcome:
    """How a battle ended: what simulations count and re-roll analyses compare."""

    winner: str | None
    rounds: int
    sides: tuple[SideResult, ...]

    def side(self, key: str) -> SideResult:
        for result in self.sides:
            if result.side == key:
                return result
        return SideResult(key, 0.0, 0)

    def to_json(self) -> dict:
        return {
            "winner": self.winner,
            "rounds": self.rounds,
            "strength": {s.side: s.strength_left for s in self.sides},
            "lost": {s.side: s.ships_lost for s in self.sides},
        }

    @classmethod
    def from_json(cls, data: dict) -> "BattleOutcome":
        strength = data.get("strength", data.get("hull", {}))  # "hull": runs stored before 2026-12
        lost = data.get("lost", {})
        return cls(data.get("winner"), int(data.get("rounds", 0)),
                   tuple(SideResult(side, float(v), int(lost.get(side, 0))) for side, v in strength.items()))


@dataclass(frozen=True)
class TurnSeat:
    """One seat of a ship's turn (:meth:`RulesetBase.turn_plan`): ``actor`` (the setup id the
    seat's actions name), ``label`` (who, in words), ``choices`` (legal actions, with
    ``default`` among them) and ``finish``: the action that ends this seat's part of the turn
    when its choice leaves it more to do (Cepheus: "done"), or None."""

    actor: str
    label: str
    choices: tuple[Action, ...]
    default: Action
    finish: Action | None = None


@dataclass(frozen=True)
class Actor:
    """Who decides an action, named so the app can find the campaign's character and its player.

    ``character`` is a crew member's setup id where the state knows which person acts (a
    Cepheus crew member, a Void d20 person); otherwise ``position`` names the crew position
    (a key of the forms module's ``POSITIONS``) aboard ``ship`` whose holder decides it (a Star
    Wars D6 gunner, a Wing Commander pilot), with the ``station`` (a weapon's name) where a
    ship has several; with neither, the ship itself is the character (a Dropfleet ship).  The
    app (encounters/players.py) maps this to the linked player; nothing here knows players.
    """

    ship: str = ""
    character: str = ""
    position: str = ""
    station: str = ""


@runtime_checkable
class RulesetContract(Protocol):
    """What a rule system must write.  Everything here is required."""

    #: short identifier, also the Django app's label and the templates folder name
    key: str
    #: the system's name as a GM knows it
    name: str
    #: the dataclass of the system's state (serialised with rulesets.core.serial)
    state_class: type
    #: a playout that takes more steps than this is a bug in the ruleset
    step_limit: int
    #: the honest name of a side's ``strength_left`` in simulation results ("Hull left")
    strength_label: str

    def setup(self, spec: dict) -> Any:
        """The state at the start of a fight.

        ``spec`` is ``{"ships": [{"id", "name", "side", "stats", "crew": [...], "damage"}],
        "options": {...}}``: the ships as the campaign holds them (stats validated by the
        system's stat form, damage as :meth:`damage_of` gave it) and the setup form's options.
        """

    def legal_actions(self, state) -> list[Action]:
        """Every action the rules allow now (empty when the fight is over)."""

    def apply(self, state, action: Action, dice: Dice) -> Step:
        """The next state and its log lines.  Never mutates ``state``; every die through ``dice``.

        Build log text only ``if dice.recording`` (a playout records nothing), and draw
        the same dice either way.
        """

    def odds(self, state, action: Action) -> Odds | None:
        """Exact probabilities of the action's outcomes, or None where it rolls nothing."""

    def policy(self, state, rng: random.Random) -> Action:
        """A sensible bot's choice (simulations, auto-play).  Only ``rng.random()`` for chance."""

    def view(self, state, viewer: Viewer) -> dict:
        """What ``viewer`` may see of the state (plain data for the templates)."""

    def actor_ship(self, state) -> str | None:
        """The id of the ship whose side decides the current step (None when over)."""

    def describe(self, state, action: Action) -> str:
        """The action in words for a GM ("Talon fires its laser at Raider 2")."""

    def secrets(self, state, viewer: Viewer) -> list[str]:
        """Strings that must not appear anywhere ``viewer`` looks (the leak tests use them)."""

    def example_setup(self, variant: int = 0) -> dict:
        """A complete setup spec for tests, benchmarks and the conformance suite."""

    def templates(self) -> list[dict]:
        """Original ship templates for the library: ``{"name", "stats", "notes"}``."""

    def demo_fleets(self) -> list[dict]:
        """Demo fleets built from :meth:`templates`: ``{"name", "side", "colour", "ships": [...]}``."""

    def damage_of(self, state, ship_id: str) -> dict:
        """The damage a ship carries back to the campaign when an encounter ends (``{}``: none)."""

    def outcome(self, state) -> BattleOutcome:
        """How the fight ended, for simulations and re-roll analyses."""

    def sweeps(self) -> list:
        """The simulation sweeps the system offers (:class:`rulesets.core.simulate.Sweep`)."""


class RulesetBase:
    """Base class of every rule system: the optional parts of the contract, with defaults.

    A subclass writes everything in :class:`RulesetContract` and overrides what it needs
    of the attributes below.
    """

    #: the language of the system's source text ("it", "ca", ...; "" for none): a reader of that
    #: language reads the rules cited in the source's own headings (docs/translations.md)
    source_language: str = ""
    #: action parameters the GM may add on top of a legal action (a circumstance DM)
    free_params: tuple[str, ...] = ("dm",)
    #: action kinds the runner lists under "More actions" rather than as main buttons
    secondary_kinds: tuple[str, ...] = ()
    #: action kinds the system's ``board`` partial draws (clickable hexes) instead of buttons
    board_kinds: tuple[str, ...] = ()
    #: draw the ``board`` partial across the page, above the ship cards
    wide_board: bool = False
    #: help shown beside the GM override form
    override_help: str = ""

    if TYPE_CHECKING:  # what the defaults below call: a subclass writes them (RulesetContract)
        key: str

        def setup(self, spec: dict) -> Any: ...
        def legal_actions(self, state: Any) -> list[Action]: ...
        def apply(self, state: Any, action: Action, dice: Dice) -> Step: ...
        def odds(self, state: Any, action: Action) -> Odds | None: ...
        def policy(self, state: Any, rng: random.Random) -> Action: ...
        def actor_ship(self, state: Any) -> str | None: ...
        def example_setup(self, variant: int = 0) -> dict: ...

    @property
    def forms_module(self) -> str:
        """The module with the system's forms (positions, stat form, crew form, setup form)."""
        return f"rulesets.{self.key}.forms"

    def is_legal(self, state, action: Action) -> bool:
        """Whether ``action`` may be applied now.

        The default looks for it among :meth:`legal_actions`, up to :attr:`free_params`.
        Override it where checking is cheaper than listing (Star Wars D6 courses).
        """
        legal = self.legal_actions(state)
        if action in legal:
            return True
        stripped = action.without(*self.free_params)
        return any(a.without(*self.free_params) == stripped
                   for a in legal if a.kind == action.kind and a.actor == action.actor)

    def refusal(self, state, action: Action) -> Refusal | None:
        """Why the rules forbid ``action`` now (it is not legal): the reason as a message and
        the rule that forbids it ("Sandcaster reaches only Adjacent, Close and Short range",
        cited to its seed section), or None where the system has nothing more specific to
        say than "not one of the actions the rules allow at this step".  Called only for an
        action that :meth:`is_legal` refused; the runner, scenario files and the dice entry
        show what it returns (:func:`rulesets.core.engine.refusal_of`).
        """
        return None

    def playout(self, state, rng: random.Random, limit: int) -> tuple[Any, int]:
        """The fight played by :meth:`policy` with nothing recorded, until it is over or
        ``limit`` steps: (the last state, steps played).  Simulations and re-roll analyses
        call it through :func:`rulesets.core.replay.play_out`.

        The default is one :meth:`apply` a step.  A system may override it to play faster
        (say, on a private copy of ``state`` changed in place), but with the same rule code
        and the same battle: for the same ``rng`` the same winner, rounds, per-ship results
        and step count as the recorded path (the conformance suite checks 1,000 seeds), and
        ``state`` itself left as it was.
        """
        return policy_loop(self, state, rng, limit)

    def on_board(self, action: Action) -> bool:
        """Whether the board partial draws ``action`` (a place to click) instead of a button.
        Default: its kind is one of :attr:`board_kinds`."""
        return action.kind in self.board_kinds

    def turn_ship(self, state) -> str | None:
        """The id of the ship whose turn it is, while another ship may decide a step of it
        (a dodge, a point-defence shot, a countermeasure against its attack).  The runner's
        "Play this ship's turn" plays until this changes.  Default: :meth:`actor_ship`, for a
        system where whoever decides a step is the ship whose turn it is.
        """
        return self.actor_ship(state)

    def acting(self, state, action: Action) -> Actor | None:
        """Who decides ``action`` (one of the legal actions of ``state``): the :class:`Actor`
        whose player may take it from their phone, or None for the GM's own tools (the
        override, a rules bookkeeping step).

        The default reads the action's ``actor`` field: "" and "gm" are the GM's; the part
        before a "." (a turret's fire control "s12.fc-t4", a squad member "g4.3") names a ship
        of ``state.ships`` (the ship is the character) or else a crew member's setup id.
        A system whose actor is a ship while a crew member decides overrides it (the
        conformance suite checks every listed action of the example fights maps to a ship,
        a crew member or a crew position of the setup).
        """
        head = action.actor.split(".", 1)[0]
        if not head or head == "gm":
            return None
        if any(getattr(s, "id", None) == head for s in getattr(state, "ships", None) or ()):
            return Actor(ship=head)
        return Actor(character=head)

    def own_rolls(self, state, action: Action):
        """Which rolls of ``action`` are the dice of whoever decides it (:meth:`acting`), when the
        step also rolls for others: a predicate over a roll's purpose, or None when every roll of
        the step is theirs (the default).

        A player who rolls their own dice types only the faces of these rolls; the app rolls the
        others (encounters: ``dice_source`` with the "own" mode), so nobody types an enemy's dice.
        Star Wars D6's initiative, one step rolling every side's 2D, answers its own side's rolls.
        """
        return None

    def turn_plan(self, state, rng: random.Random) -> list[TurnSeat] | None:
        """The ship's-turn panel: for the ship whose turn it is, each seat (crew member, position)
        still to act this turn, in the order the rules let them act, with its legal choices and a
        default; None where the system has no such turn (the default), and the runner offers
        only its step-by-step buttons.  The first seat's choices are the legal actions of
        ``state``; a later seat's are what it may do when its turn comes, as far as it is known
        now (the runner checks each again before applying it).  ``rng``: the bot's tie-breaks for
        the defaults.
        """
        return None

    def step_actions(self, state) -> list[Action]:
        """The actions the runner offers as buttons (default: every legal action)."""
        return self.legal_actions(state)

    def damage_words(self, damage: dict, stats: dict, crew_names: dict) -> list[str] | None:
        """The damage a campaign's ship carries (what :meth:`damage_of` wrote), as the lines its
        page shows, named as the system names them ("1 missile spent from the missile rack in
        turret 2"), or None where the app's general wording serves (``damage_lines``).
        ``crew_names``: a crew member's id in ``damage`` to their name."""
        return None

    def damage_problems(self, state, ship_id: str, damage: dict) -> list[str]:
        """What of ``damage`` (a ship's carried damage, as :meth:`damage_of` writes it) the rules
        cannot mean, each as ``"path: why"`` with the path inside ``damage`` (``"crew.crew[0].void:
        Void Points is a whole number from 0 to 4; 9 is outside that range."``); ``state`` is the
        ship set up with it.  The import refuses the first (issue 26).  Default: none."""
        return []

    def override_fields(self, state) -> list:
        """The fields the GM override form offers (:class:`rulesets.core.override.OverrideField`)."""
        return []

    def warm_up(self, steps: int = 40) -> int:
        """Fill the caches the odds use before a GM's first page: the odds of every action
        along a short bot-played fight of each example setup.  The web server calls it at
        start-up (in the background); returns how many odds it computed.
        """
        rng = random.Random(f"warm-up:{self.key}")
        computed = 0
        for variant in (0, 1):
            state = self.setup(self.example_setup(variant))
            for _ in range(steps):
                if state.over:
                    break
                for action in self.step_actions(state):
                    self.odds(state, action)
                    computed += 1
                state = self.apply(state, self.policy(state, rng), Dice(RandomSource(rng), recording=False)).state
        return computed


#: every required name of the contract, in the order the guide explains them
REQUIRED: tuple[str, ...] = (
    "key", "name", "state_class", "step_limit", "strength_label",
    "setup", "legal_actions", "apply", "odds", "policy", "view", "actor_ship", "describe",
    "secrets", "example_setup", "templates", "demo_fleets", "damage_of", "outcome", "sweeps",
)


def missing(ruleset) -> list[str]:
    """What ``ruleset`` lacks of the contract, in words (empty when it has everything)."""
    out = []
    if not isinstance(ruleset, RulesetBase):
        out.append(f"{type(ruleset).__name__} does not subclass rulesets.core.contract.RulesetBase")
    for name in REQUIRED:
        value = getattr(ruleset, name, None)
        if value is None:
            out.append(f"no '{name}'")
        elif name in RulesetContract.__dict__ and callable(RulesetContract.__dict__[name]) and not callable(value):
            out.append(f"'{name}' is not a method")
    return out


#: What the system's forms module (:attr:`RulesetBase.forms_module`, a Django module) holds:
#: each name with the methods the app calls on it.  The same stat form serves the GM's ship
#: editor, the admin's template editor and the import checks.
FORMS_CONTRACT: dict[str, tuple[str, ...]] = {
    # crew positions: [(value, label)], e.g. [("pilot", "Pilot"), ("gunner", "Gunner")]
    "POSITIONS": (),
    # a ship's stats: initial_from(stats) -> field values; stats() -> the normalised stats dict
    "ShipStatsForm": ("initial_from", "stats"),
    # a crew member's numbers: initial_from(crew) -> field values; crew_data() -> {"characteristics", "skills"}
    "CrewForm": ("initial_from", "crew_data"),
    # the encounter setup's options: options() -> the "options" of the setup spec
    "SetupOptionsForm": ("options",),
}


def forms_missing(module) -> list[str]:
    """What a forms module lacks of :data:`FORMS_CONTRACT`, in words."""
    out = []
    for name, methods in FORMS_CONTRACT.items():
        value = getattr(module, name, None)
        if value is None:
            out.append(f"{module.__name__} has no '{name}'")
            continue
        out.extend(f"{module.__name__}.{name} has no '{m}'" for m in methods if not callable(getattr(value, m, None)))
    return out
