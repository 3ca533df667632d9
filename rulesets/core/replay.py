"""Folding a log of recorded steps into a state, and playing a fight out by policy."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable

from .dice import Dice, DiceExhausted, Die, RandomSource, ScriptedSource, playout_dice
from .engine import Action, LogEntry, RecordedStep, Ruleset, Step, apply_checked


class ReplayError(ValueError):
    """A recorded step no longer applies: its action is illegal or its dice do not fit."""

    def __init__(self, index: int, message: str):
        self.index = index
        super().__init__(f"Step {index + 1}: {message}")


def _as_recorded(item) -> RecordedStep:
    if isinstance(item, RecordedStep):
        return item
    dice = tuple(d if isinstance(d, Die) else Die.parse(d) for d in item.get("dice", []))
    return RecordedStep(item["action"], dice)


def apply_recorded(ruleset: Ruleset, state, step: RecordedStep) -> tuple[Step, Dice]:
    """Apply one recorded step with exactly its recorded faces."""
    source = ScriptedSource(step.dice)
    dice = Dice(source)
    result = apply_checked(ruleset, state, Action.parse(step.action), dice)
    if source.remaining:
        raise DiceExhausted(f"{source.remaining} recorded face(s) were not used.")
    return result, dice


def replay(ruleset: Ruleset, setup: dict, events: Iterable, state=None):
    """The state that ``setup`` followed by ``events`` gives; ``state`` resumes from a snapshot."""
    if state is None:
        state = ruleset.setup(setup)
    for index, item in enumerate(events):
        try:
            state = apply_recorded(ruleset, state, _as_recorded(item))[0].state
        except (ValueError, DiceExhausted) as exc:
            raise ReplayError(index, str(exc)) from exc
    return state


@dataclass
class Playout:
    state: object
    steps: int
    log: list[LogEntry] = field(default_factory=list)
    recorded: list[RecordedStep] = field(default_factory=list)


def policy_loop(ruleset: Ruleset, state, rng: random.Random, limit: int) -> tuple[object, int]:
    """The plain playout: the policy chooses, ``apply`` plays it with dice recording nothing,
    until the fight is over or ``limit`` steps.  Returns (the last state, steps played)."""
    steps = 0
    dice = playout_dice(rng)  # keeps nothing, so one serves every step
    policy, apply = ruleset.policy, ruleset.apply
    while not state.over and steps < limit:
        state = apply(state, policy(state, rng), dice).state
        steps += 1
    return state, steps


def play_out(ruleset: Ruleset, state, rng: random.Random, *, max_steps: int | None = None,
             keep_log: bool = False) -> Playout:
    """Both sides played by ``policy`` until the fight is over (or ``max_steps``).

    With nothing kept (simulations, re-roll analyses) the ruleset's own
    :meth:`~rulesets.core.contract.RulesetBase.playout` plays it, when it has one (a system
    may play its bot's steps faster than one ``apply`` each, with the same rule code and the
    same battle: the conformance suite compares 1,000 seeds with the recorded loop below).
    ``state`` itself is never changed.
    """
    limit = max_steps if max_steps is not None else ruleset.step_limit
    if not keep_log:
        playout = getattr(type(ruleset), "playout", None)  # test doubles that wrap a ruleset have none
        if playout is None:
            state, steps = policy_loop(ruleset, state, rng, limit)
        else:
            state, steps = playout(ruleset, state, rng, limit)
        return Playout(state, steps)
    steps = 0
    log: list[LogEntry] = []
    recorded: list[RecordedStep] = []
    source = RandomSource(rng)
    while not state.over and steps < limit:
        action = ruleset.policy(state, rng)
        dice = Dice(source)
        result = ruleset.apply(state, action, dice)
        state = result.state
        steps += 1
        log.extend(result.log)
        recorded.append(RecordedStep(action.to_str(), tuple(dice.dice)))
    return Playout(state, steps, log, recorded)
