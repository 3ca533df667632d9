"""Cepheus Engine space combat: the engine object the app calls (``RULESET``).

Pure Python, no Django.  The rules live in modules named for what they do:

* :mod:`.state` the state as plain data and its copy-on-write transaction;
  :mod:`.setup` the state at the start; :mod:`.stats` a ship's stats schema;
* :mod:`.sequence` the turn sequence (initiative, rounds, turns, delay, reactions' end);
* :mod:`.refusals` why an action the rules forbid now is refused (the reason and the rule);
* :mod:`.actions` the legal actions; :mod:`.checks` every task check, declared once;
* the steps, by crew position: :mod:`.command` (Captain), :mod:`.manoeuvre` (pilot,
  navigator), :mod:`.electronics` (sensors), :mod:`.attacks` (gunners and reactions),
  :mod:`.engineering` (engineers, damage control), :mod:`.general` (anyone: reload, change
  position, personal and miscellaneous actions), :mod:`.boarding`;
* :mod:`.damage` damage and the end of a fight; :mod:`.override` the GM's escape hatch;
  :mod:`.carry_back` the damage carried back to the campaign;
* :mod:`.odds`, :mod:`.policy` (the bot), :mod:`.view` (what each viewer sees) read the
  same declarations; :mod:`.tables` holds every table of the text as data.
"""
from __future__ import annotations

import random

from rulesets.core.contract import Actor, BattleOutcome, RulesetBase, SideResult
from rulesets.core.dice import playout_dice
from rulesets.core.engine import Action, IllegalAction, Odds, Refusal, Step, Viewer
from rulesets.core.messages import english, render
from rulesets.core.simulate import Sweep, SweepPoint

from . import attacks, boarding, command, electronics, engineering, general, manoeuvre, override, refusals, sequence
from .actions import actor_ship, decisions, turn_ship
from .carry_back import damage_of, damage_words
from .library import TEMPLATES, demo_fleets, example_setup
from .odds import action_odds
from .policy import choose
from .queries import GM
from .setup import setup
from .state import CombatState, Tx, own_copy
from .tables import BAND_LABEL, BANDS
from .turn import turn_plan
from .view import describe, secrets, view

#: every step kind and the function that applies it (``do_<kind>`` in the step modules)
HANDLERS = {
    name[3:]: fn
    for module in (sequence, command, manoeuvre, electronics, attacks, engineering, general, boarding, override)
    for name, fn in vars(module).items() if name.startswith("do_") and callable(fn)
}


def _not_opposing(purpose) -> bool:
    """A roll that is the acting side's: not the other ship's half of an opposed check."""
    return not english(purpose).endswith(" opposes")


class CepheusRuleset(RulesetBase):
    key = "cepheus"
    name = "Cepheus Engine"
    source_language = "it"  # the seed: shared/seeds/*.it.txt
    strength_label = "Hull and structure left"
    state_class = CombatState
    step_limit = 10000
    free_params = ("dm", "path", "value")
    #: kinds the runner lists under "More actions" rather than with the main choices
    secondary_kinds = ("change_position", "misc", "personal")
    override_help = override.HELP

    def setup(self, spec: dict) -> CombatState:
        return setup(spec)

    def acting(self, s: CombatState, action: Action) -> Actor | None:
        """Crew actions name their crew member; the ship's initiative and its "no reaction" are
        the pilot's (initiative adds the pilot's skill); fire control's turrets are the ship's."""
        if action.kind in ("initiative", "no_reaction") and action.actor:
            return Actor(ship=action.actor, position="pilot")
        return super().acting(s, action)

    def actor_ship(self, s: CombatState) -> str | None:
        return actor_ship(s)

    def turn_ship(self, s: CombatState) -> str | None:
        return turn_ship(s)

    def own_rolls(self, s: CombatState, action: Action):
        """An opposed check rolls the other ship's dice in the same step (checks.opposed: "<ship>
        opposes"): a player rolling their own dice types their side's, the app rolls those."""
        return _not_opposing

    def turn_plan(self, s: CombatState, rng: random.Random):
        """The ship's-turn panel: each crew member still to act, their choices and the bot's (turn.py)."""
        return turn_plan(s, rng)

    def legal_actions(self, s: CombatState) -> list[Action]:
        if s.over:
            return []
        out = decisions(s)
        out.append(Action.make("override", GM))
        return out

    def refusal(self, s: CombatState, action: Action) -> Refusal | None:
        """Why the rules refuse ``action`` now, and which rule (refusals.py)."""
        return refusals.refusal(s, action)

    def apply(self, state: CombatState, action: Action, dice) -> Step:
        handler = HANDLERS.get(action.kind)
        if handler is None:
            raise IllegalAction(f"Unknown action '{action.kind}'.")
        tx = Tx(state, dice)
        handler(tx, action)
        sequence.advance(tx)
        return Step(tx.s, tx.log)

    def playout(self, state: CombatState, rng: random.Random, limit: int) -> tuple[CombatState, int]:
        """The bot plays both sides with nothing recorded (simulations, re-roll analyses): the steps
        of :meth:`apply` (the same handler, then the turn sequence) with the bot's choice
        (:meth:`policy`), on a private copy of ``state`` that each step changes in place instead of
        copying it (``state`` itself is left as it was), and no :class:`Step` built."""
        s = own_copy(state)
        tx = Tx.owning(s, playout_dice(rng))
        handlers, advance = HANDLERS, sequence.advance
        steps = 0
        while not s.over and steps < limit:
            action = choose(s, rng)
            handler = handlers.get(action.kind)
            if handler is None:
                raise IllegalAction(f"Unknown action '{action.kind}'.")
            handler(tx, action)
            advance(tx)
            steps += 1
        return s, steps

    def override_fields(self, state) -> list:
        return [*override.SHIP_FIELDS, *override.ENCOUNTER_FIELDS]

    def odds(self, s: CombatState, a: Action) -> Odds | None:
        try:
            return action_odds(s, a)
        except (KeyError, StopIteration, ValueError, AttributeError, IndexError):
            return None

    def policy(self, s: CombatState, rng: random.Random) -> Action:
        return choose(s, rng)

    def view(self, s: CombatState, viewer: Viewer) -> dict:
        return view(s, viewer)

    def secrets(self, s: CombatState, viewer: Viewer) -> list[str]:
        return secrets(s, viewer)

    def describe(self, s: CombatState, a: Action) -> str:
        """The action's button (a message, :func:`.view.describe`) in the reader's words: the app keeps
        labels as text (a player's proposal stores it)."""
        return render(describe(s, a))

    def example_setup(self, variant: int = 0) -> dict:
        return example_setup(variant)

    def templates(self) -> list[dict]:
        return [dict(t) for t in TEMPLATES]

    def demo_fleets(self) -> list[dict]:
        return demo_fleets()

    def damage_of(self, s: CombatState, ship_id: str) -> dict:
        return damage_of(s, ship_id)

    def damage_problems(self, s: CombatState, ship_id: str, damage: dict) -> list[str]:
        return override.damage_problems(s, ship_id, damage)

    def damage_words(self, damage: dict, stats: dict, crew_names: dict) -> list[str]:
        return damage_words(damage, stats, crew_names)

    def outcome(self, s: CombatState) -> BattleOutcome:
        def strength(side):
            ships = [sh for sh in s.ships if sh.side == side]
            total = sum(sh.hull_max + sh.structure_max for sh in ships) or 1
            return sum(sh.hull + sh.structure for sh in ships if sh.status != "destroyed") / total

        def lost(side):
            return sum(1 for sh in s.ships if sh.side == side and sh.status in ("destroyed", "boarded", "captured"))

        return BattleOutcome(s.winner, s.round, tuple(SideResult(side, strength(side), lost(side)) for side in s.sides))

    def sweeps(self):
        return [
            Sweep("range", "Starting range band",
                  tuple(SweepPoint(english(BAND_LABEL[b]), {"range": b}) for b in BANDS)),
            Sweep("hasty", "Hasty house rule", (SweepPoint("hasty allowed", {"hasty": True}),
                                                SweepPoint("no hasty", {"hasty": False}))),
            Sweep("awareness", "Awareness at the start (Checklist step 3)", (
                SweepPoint("no surprise", {"aware": []}),
                SweepPoint("first side aware", {"aware": ["@side0"]}),
                SweepPoint("second side aware", {"aware": ["@side1"]}))),
            Sweep("crew_skill", "First side's crew skill", tuple(
                SweepPoint(f"skills {d:+d}", {"skill_delta_side0": d}) for d in (-1, 0, 1, 2))),
        ]


RULESET = CepheusRuleset()
