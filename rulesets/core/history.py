"""Folding an encounter's append-only log into its current state.

The log holds four kinds of entry:

* ``step``   an action and the dice faces it used;
* ``undo``   hides the last step still in effect (the row stays for the audit trail);
* ``reroll`` gives step ``target`` fresh faces; the steps after it are applied again
  with their own recorded actions and faces, fresh faces where they now need more
  dice (seeded from the encounter seed, so still deterministic), and are dropped if
  their action is no longer legal;
* ``reveal`` makes a GM-only step public.

The fold is pure: the same entries always give the same state.
"""
from __future__ import annotations

import json

from dataclasses import dataclass, field

from .dice import Dice, DiceSource, Die, InvalidFace, Roll, SeededSource, ScriptedSource, derive_seed
from .engine import Action, IllegalAction, LogEntry, check_legal


@dataclass(frozen=True)
class Entry:
    seq: int
    kind: str  # step | undo | reroll | reveal
    action: str = ""
    dice: tuple[Die, ...] = ()
    target: int | None = None
    gm_only: bool = False


@dataclass
class Applied:
    """A step in effect, as the fold applied it."""

    seq: int
    action: str
    dice: list[Die]
    rolls: list[Roll]
    log: list[LogEntry]
    gm_only: bool
    rerolled: list[list[Roll]] = field(default_factory=list)
    dropped: str = ""  # why a step no longer applies after a reroll
    #: its JSON and JSON text, written once: every snapshot stores the latest steps again
    #: (both cleared by any change)
    _json: dict | None = field(default=None, init=False, repr=False, compare=False)
    _text: str | None = field(default=None, init=False, repr=False, compare=False)

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name not in ("_json", "_text"):
            object.__setattr__(self, "_json", None)
            object.__setattr__(self, "_text", None)

    def to_json_text(self) -> str:
        """:meth:`to_json` as JSON text (what a snapshot stores), written once."""
        if self._text is None:
            self._text = json.dumps(self.to_json())
        return self._text

    def to_json(self) -> dict:
        if self._json is None:
            self._json = {
                "seq": self.seq, "action": self.action, "dice": [str(d) for d in self.dice],
                "rolls": [r.to_json() for r in self.rolls], "log": [e.to_json() for e in self.log],
                "gm_only": self.gm_only, "rerolled": [[r.to_json() for r in rs] for rs in self.rerolled],
                "dropped": self.dropped,
            }
        return self._json

    @classmethod
    def from_json(cls, d: dict) -> "Applied":
        return cls(
            d["seq"], d["action"], [Die.parse(x) for x in d["dice"]], [Roll.from_json(r) for r in d["rolls"]],
            [LogEntry.from_json(e) for e in d["log"]], d["gm_only"],
            [[Roll.from_json(r) for r in rs] for rs in d.get("rerolled", [])], d.get("dropped", ""),
        )


class _Lenient(DiceSource):
    """Recorded faces while they fit, then fresh seeded faces."""

    def __init__(self, recorded, seed: str):
        self._recorded = list(recorded)
        self._fresh = SeededSource(seed)

    def faces(self, count, sides, purpose="", rule=""):
        out = []
        for _ in range(count):
            if self._recorded and self._recorded[0].sides == sides:
                out.append(self._recorded.pop(0).face)
            else:
                self._recorded.clear()  # the rest no longer lines up
                out.extend(self._fresh.faces(1, sides, purpose, rule))
        return out


@dataclass
class _Pending:
    seq: int
    action: str
    dice: tuple[Die, ...]
    gm_only: bool
    rerolled_dice: list[tuple[Die, ...]] = field(default_factory=list)


def effective_steps(entries) -> list[_Pending]:
    steps: list[_Pending] = []
    for e in entries:
        if e.kind == "step":
            steps.append(_Pending(e.seq, e.action, tuple(e.dice), e.gm_only))
        elif e.kind == "undo":
            if steps:
                steps.pop()
        elif e.kind == "reroll":
            for s in steps:
                if s.seq == e.target:
                    s.rerolled_dice.append(s.dice)
                    s.dice = tuple(e.dice)
        elif e.kind == "reveal":
            for s in steps:
                if s.seq == e.target:
                    s.gm_only = False
        else:
            raise ValueError(f"Unknown log entry kind {e.kind!r} at {e.seq}.")
    return steps


def fold(ruleset, setup: dict, entries, seed: str, stop_before: int | None = None):
    """(state, [Applied]) for the log ``entries`` of an encounter with ``seed``.

    With ``stop_before``, the state just before the step of that sequence applied.
    """
    state = ruleset.setup(setup)
    applied: list[Applied] = []
    lenient = False  # once a step was rerolled, what follows may need other dice
    for p in effective_steps(entries):
        if p.seq == stop_before:
            break
        rerolled_rolls = []
        for old in p.rerolled_dice:
            # The rolls the step made before it was rerolled, for the log.
            try:
                rerolled_rolls.append(_apply(ruleset, state, p.action, ScriptedSource(old))[1].rolls)
            except (ValueError, InvalidFace):
                rerolled_rolls.append([])
        source = _Lenient(p.dice, derive_seed(seed, p.seq, "refit")) if (lenient and not p.rerolled_dice) else ScriptedSource(p.dice)
        try:
            step, dice = _apply(ruleset, state, p.action, source)
        except (IllegalAction, ValueError) as exc:
            if not lenient:
                raise
            applied.append(Applied(p.seq, p.action, [], [], [], p.gm_only, rerolled_rolls,
                                   dropped=f"No longer possible after a reroll: {exc}"))
            continue
        state = step.state
        applied.append(Applied(p.seq, p.action, list(dice.dice), list(dice.rolls), list(step.log),
                               p.gm_only, rerolled_rolls))
        if p.rerolled_dice:
            lenient = True
    return state, applied


def _apply(ruleset, state, action: str, source):
    dice = Dice(source)
    act = Action.parse(action)
    check_legal(ruleset, state, act)
    return ruleset.apply(state, act, dice), dice
