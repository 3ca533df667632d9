"""The engine protocol every rule system implements, and the values it trades in.

Modelled on game-engine APIs such as OpenSpiel's ``State``: a ruleset lists the
legal actions of a state, applies one with a :class:`~rulesets.core.dice.Dice`,
and returns the next state with what happened.  States are plain dataclasses that
round-trip through JSON (see :mod:`rulesets.core.serial`); the history of actions
and dice faces is the truth, and a state is what replaying it gives.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote

from .dice import Dice, Roll
from .messages import Message, english, msg, render

Param = str | int


@dataclass(frozen=True)
class Action:
    """One thing an actor may do: a kind, who does it, and its parameters.

    Its string form round-trips: ``attack actor=s1.c2 target=s2 weapon=t1``.
    Parameters are kept sorted so equal actions have equal strings.
    """

    kind: str
    actor: str = ""
    params: tuple[tuple[str, Param], ...] = ()

    @classmethod
    def make(cls, kind: str, actor: str = "", **params: Param) -> "Action":
        return cls(kind, actor, tuple(sorted((k, v) for k, v in params.items() if v is not None)))

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        return default

    def with_params(self, **params: Param) -> "Action":
        merged = dict(self.params)
        merged.update({k: v for k, v in params.items() if v is not None})
        return Action.make(self.kind, self.actor, **merged)

    def without(self, *keys: str) -> "Action":
        return Action(self.kind, self.actor, tuple(p for p in self.params if p[0] not in keys))

    def to_str(self) -> str:
        parts = [self.kind]
        if self.actor:
            parts.append(f"actor={quote(self.actor, safe='.-_:')}")
        for k, v in self.params:
            tag = "#" if isinstance(v, int) and not isinstance(v, bool) else ""
            parts.append(f"{k}={tag}{quote(str(v), safe='.-_:')}")
        return " ".join(parts)

    def __str__(self) -> str:
        return self.to_str()

    @classmethod
    def parse(cls, text: str) -> "Action":
        words = text.split()
        if not words:
            raise ValueError("An action needs a kind.")
        kind, actor = words[0], ""
        params: dict[str, Param] = {}
        for word in words[1:]:
            key, sep, raw = word.partition("=")
            if not sep or not key:
                raise ValueError(f"'{word}' is not key=value.")
            if key == "actor":
                actor = unquote(raw)
            elif raw.startswith("#"):
                params[key] = int(raw[1:])
            else:
                params[key] = unquote(raw)
        return cls.make(kind, actor, **params)


class LogEntry:
    """A line of the encounter log: what happened, which rule said so, who may see it.

    ``message``: the words, a :class:`~rulesets.core.messages.Message` (a plain string in logs
    stored before messages); ``text`` renders them in the reader's language.
    ``gm_only``: only the GM reads it.  ``side``: only the GM and the players of that side read
    it -- what happens inside one side's ship (its Captain's orders, the DMs handed to its crew,
    its internal checks), which the other side's sensors and eyes do not show.  A line with
    neither is read by everyone at the table."""

    __slots__ = ("message", "rule", "gm_only", "side")

    def __init__(self, text: Message | str, rule: str = "", gm_only: bool = False, side: str = ""):
        self.message = text
        self.rule = rule
        self.gm_only = gm_only
        self.side = side

    @property
    def text(self) -> str:
        """The words in the installed language (English outside the app)."""
        return render(self.message)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, LogEntry) and self.message == other.message and self.rule == other.rule
                and self.gm_only == other.gm_only and self.side == other.side)

    def __hash__(self) -> int:
        return hash((english(self.message), self.rule, self.gm_only, self.side))

    def __repr__(self) -> str:
        return f"LogEntry({english(self.message)!r}, rule={self.rule!r}, gm_only={self.gm_only}, side={self.side!r})"

    def to_json(self) -> dict:
        # "text": the English words, read by anything that stores or compares logs as text;
        # "msg": the message itself, so a stored log reads in a language chosen later.
        out = {"text": english(self.message), "rule": self.rule, "gm_only": self.gm_only}
        if self.side:
            out["side"] = self.side  # written only when set: a log stored before reads the same
        if isinstance(self.message, Message):
            out["msg"] = self.message.to_json()
        return out

    @classmethod
    def from_json(cls, data: dict) -> "LogEntry":
        text = Message.from_json(data["msg"]) if "msg" in data else data["text"]
        return cls(text, data.get("rule", ""), data.get("gm_only", False), data.get("side", "") or "")


class Log(list):
    """A step's log lines.  Rules say every line; in a playout (``recording`` False: a
    simulation, a re-roll analysis) the log keeps none, so whether anybody reads the words is
    answered here, once, and never in a rule."""

    __slots__ = ("recording",)

    def __init__(self, recording: bool = True):
        # a new list is empty already: no ``list.__init__`` to call (a Log is made every step)
        self.recording = recording

    def say(self, text: Message | str, rule: str = "", gm_only: bool = False, side: str = "") -> None:
        if self.recording:
            self.append(LogEntry(text, rule, gm_only, side))


@dataclass
class Step:
    """What :meth:`Ruleset.apply` returns: the next state and what happened."""

    state: Any
    log: list[LogEntry] = field(default_factory=list)


@dataclass(frozen=True)
class Outcome:
    label: str
    probability: float


@dataclass(frozen=True)
class Odds:
    """Exact probabilities of an action's outcomes, and a one-line summary.

    ``summary`` is the short line beside the action's button (the chance to hit); ``detail``,
    when a system has more to say (criticals, the defence, where the damage goes), is shown on
    demand under it."""

    outcomes: tuple[Outcome, ...]
    summary: str = ""
    detail: str = ""

    @property
    def total(self) -> float:
        return sum(o.probability for o in self.outcomes)

    def probability(self, label: str) -> float:
        return sum(o.probability for o in self.outcomes if o.label == label)


@dataclass(frozen=True)
class Viewer:
    """Who is looking: the GM sees everything; a player sees through their ships."""

    role: str = "public"  # "gm", "player" or "public"
    ships: frozenset[str] = frozenset()
    user_id: int | None = None

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @classmethod
    def gm(cls) -> "Viewer":
        return cls("gm")

    @classmethod
    def player(cls, ships, user_id=None) -> "Viewer":
        return cls("player", frozenset(ships), user_id)


#: the contract a rule system implements lives in :mod:`rulesets.core.contract`
Ruleset = Any


@dataclass(frozen=True)
class Refusal:
    """Why the rules forbid an action now: the reason in words (a message) and the rule that
    forbids it (a citation's text, :mod:`rulesets.core.citation`; "" where no one rule does)."""

    reason: Message
    rule: str = ""

    def render(self) -> str:
        text = self.reason.render()
        return f"{text} ({self.rule})" if self.rule else text


#: what a refusal says when the system names no reason of its own
NOT_ALLOWED = msg("core.refused.not_allowed", "That is not one of the actions the rules allow at this step.")
FIGHT_OVER = msg("core.refused.over", "The fight is over: nobody acts any more.")


class IllegalAction(ValueError):
    """The action is not one of the state's legal actions (a stale form, a typo, a rule that
    forbids it).  ``refusal`` says why in words and which rule, where the system knows it."""

    def __init__(self, message: "str | Refusal" = "", refusal: "Refusal | None" = None):
        if isinstance(message, Refusal):
            refusal, message = message, message.render()
        self.refusal = refusal
        super().__init__(message or (refusal.render() if refusal else NOT_ALLOWED.render()))


@dataclass(frozen=True)
class RecordedStep:
    """An action and the dice faces it consumed: enough to apply it again exactly."""

    action: str
    dice: tuple  # of Die

    def to_json(self) -> dict:
        return {"action": self.action, "dice": [str(d) for d in self.dice]}


def is_legal(ruleset: Ruleset, state, action: Action) -> bool:
    """Whether ``action`` may be applied now (:meth:`RulesetBase.is_legal`)."""
    return bool(ruleset.is_legal(state, action))


def system_refusal(ruleset: Ruleset, state, action: Action) -> Refusal | None:
    """The system's own reason for refusing ``action`` (:meth:`RulesetBase.refusal`), or None."""
    try:
        return ruleset.refusal(state, action)
    except (KeyError, ValueError, TypeError, AttributeError, IndexError):
        return None  # an action too malformed for the system to say more of it


def refusal_of(ruleset: Ruleset, state, action: Action) -> Refusal:
    """Why ``action`` may not be applied now: the system's own reason and rule
    (:meth:`RulesetBase.refusal`), else that the fight is over, else that the rules do not
    allow it at this step."""
    refusal = system_refusal(ruleset, state, action)
    if refusal is not None:
        return refusal
    return Refusal(FIGHT_OVER if getattr(state, "over", False) else NOT_ALLOWED)


def check_legal(ruleset: Ruleset, state, action: Action) -> None:
    """Raise :class:`IllegalAction`, saying why and which rule, unless ``action`` is legal now."""
    if not is_legal(ruleset, state, action):
        raise IllegalAction(refusal_of(ruleset, state, action))


def apply_checked(ruleset: Ruleset, state, action: Action, dice: Dice) -> Step:
    check_legal(ruleset, state, action)
    return ruleset.apply(state, action, dice)


def rolls_of(dice: Dice) -> list[Roll]:
    return list(dice.rolls)
