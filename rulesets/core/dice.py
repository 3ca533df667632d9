"""Dice: the only source of chance in the engine.

Every roll goes through a :class:`Dice` and is recorded as a :class:`Roll`.
Faces come from one of three sources behind the same interface:

* :class:`SeededSource` -- a ``random.Random`` built from a string seed.  Faces are
  derived from ``random.random()`` only, the one call Python promises to keep
  reproducible across versions (``randint``/``choice`` are not).
* :class:`ScriptedSource` -- a list of faces, for tests and replays.
* :class:`ManualSource` -- the faces a GM read off physical dice.  When the engine
  needs a die the GM has not typed in yet it raises :class:`DiceNeeded`, naming
  exactly the dice it wants, so the page can ask for them.

No Django import here: this module runs in web requests and in workers alike.
"""
from __future__ import annotations

import abc
import random
from dataclasses import dataclass, field

from .messages import Message, english, render, words_from_json, words_to_json


class DiceError(Exception):
    """Base class for dice problems a user can be told about."""


class InvalidFace(DiceError):
    def __init__(self, index: int, face: int, sides: int):
        self.index, self.face, self.sides = index, face, sides
        super().__init__(f"Die {index + 1}: {face} is not a face of a d{sides} (1-{sides}).")


class DiceExhausted(DiceError):
    """A scripted source ran out of faces (a replay or a test asked for more dice)."""


class DiceNeeded(DiceError):
    """A manual source needs faces the GM has not entered yet."""

    def __init__(self, count: int, sides: int, purpose: "Message | str", rule: str = "", have: int = 0):
        self.count, self.sides, self.purpose, self.rule, self.have = count, sides, purpose, rule, have
        super().__init__(f"Roll {count}d{sides} for {purpose}")


@dataclass(frozen=True)
class Die:
    """One face request: a die of ``sides`` sides that showed ``face``."""

    sides: int
    face: int

    def __str__(self) -> str:
        return f"{self.face}/d{self.sides}"

    @classmethod
    def parse(cls, text: str) -> "Die":
        face, _, sides = text.partition("/d")
        return cls(int(sides), int(face))


@dataclass(frozen=True)
class Roll:
    """The record of one roll: what was rolled, why, and what came of it."""

    expression: str
    faces: tuple[int, ...]
    modifiers: tuple[tuple[Message | str, int], ...] = ()
    total: int = 0
    purpose: Message | str = ""
    rule: str = ""
    table: Message | str = ""
    row: Message | str = ""
    target: int | None = None
    gm_only: bool = False
    #: read by the GM and this side's players only: a check made inside one side's ship
    #: (rulesets.core.engine.LogEntry.side); "" for everyone
    side: str = ""

    @property
    def dice_total(self) -> int:
        return sum(self.faces)

    @property
    def succeeded(self) -> bool | None:
        return None if self.target is None else self.total >= self.target

    def describe(self) -> str:
        mods = "".join(f" {'+' if v >= 0 else '-'} {abs(v)} ({render(src)})" for src, v in self.modifiers)
        text = f"{render(self.purpose)}: {self.expression} [{', '.join(map(str, self.faces))}]{mods} = {self.total}"
        if self.target is not None:
            text += f" vs {self.target}+ ({'success' if self.succeeded else 'failure'})"
        if self.table:
            text += f"; {render(self.table)}: {render(self.row)}"
        return text

    def to_json(self) -> dict:
        # The words as English text (what stored logs and exports have always read), and the
        # messages behind them under "words", so a stored roll reads in a language chosen later.
        out = {
            "expression": self.expression,
            "faces": list(self.faces),
            "modifiers": [[english(src), v] for src, v in self.modifiers],
            "total": self.total,
            "purpose": english(self.purpose),
            "rule": self.rule,
            "table": english(self.table),
            "row": english(self.row),
            "target": self.target,
            "gm_only": self.gm_only,
            **({"side": self.side} if self.side else {}),  # only when set: a stored roll reads the same
        }
        words = {k: words_to_json(v) for k, v in (("purpose", self.purpose), ("table", self.table),
                                                    ("row", self.row)) if isinstance(v, Message)}
        labels = {str(i): words_to_json(src) for i, (src, _) in enumerate(self.modifiers) if isinstance(src, Message)}
        if labels:
            words["modifiers"] = labels
        if words:
            out["words"] = words
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Roll":
        words = data.get("words") or {}
        labels = words.get("modifiers") or {}
        return cls(
            expression=data["expression"],
            faces=tuple(data["faces"]),
            modifiers=tuple((words_from_json(labels[str(i)]) if str(i) in labels else str(s), int(v))
                            for i, (s, v) in enumerate(data.get("modifiers", []))),
            total=data.get("total", 0),
            purpose=words_from_json(words["purpose"]) if "purpose" in words else data.get("purpose", ""),
            rule=data.get("rule", ""),
            table=words_from_json(words["table"]) if "table" in words else data.get("table", ""),
            row=words_from_json(words["row"]) if "row" in words else data.get("row", ""),
            target=data.get("target"),
            gm_only=data.get("gm_only", False),
            side=data.get("side", "") or "",
        )


_new_object = object.__new__
_set_attribute = object.__setattr__


def _roll(expression: str, faces: tuple[int, ...], modifiers: tuple = (), total: int = 0,
          purpose: Message | str = "", rule: str = "", table: Message | str = "", row: Message | str = "",
          target: int | None = None, gm_only: bool = False, side: str = "") -> Roll:
    """``Roll(...)`` with every field given, made as :func:`rulesets.core.state.clone` makes a
    frozen dataclass (its ``__dict__`` filled at once): a frozen dataclass's own ``__init__``
    sets each of its eleven fields through ``object.__setattr__``, five times the cost of the
    dice it records, and a playout rolls thousands of times.  The same value, equal to it."""
    new = _new_object(Roll)
    _set_attribute(new, "__dict__", {
        "expression": expression, "faces": faces, "modifiers": modifiers, "total": total,
        "purpose": purpose, "rule": rule, "table": table, "row": row, "target": target,
        "gm_only": gm_only, "side": side,
    })
    return new


def face_from_random(value: float, sides: int) -> int:
    """Map a float in [0, 1) to a face 1..sides without bias beyond float precision."""
    face = int(value * sides) + 1
    return face if face <= sides else sides


class DiceSource(abc.ABC):
    """Where faces come from. ``faces`` returns ``count`` faces of a ``sides``-sided die."""

    @abc.abstractmethod
    def faces(self, count: int, sides: int, purpose: str = "", rule: str = "") -> list[int]:
        """Return ``count`` faces in 1..sides."""


def _random_faces(rnd, count: int, sides: int) -> list[int]:
    """``count`` faces from ``rnd()``, each :func:`face_from_random` (written out: this is every
    die of every playout, and one die is the most common roll)."""
    if count == 1:
        face = int(rnd() * sides) + 1
        return [face if face <= sides else sides]
    out = []
    for _ in range(count):
        face = int(rnd() * sides) + 1
        out.append(face if face <= sides else sides)
    return out


class SeededSource(DiceSource):
    def __init__(self, seed: str):
        # random.Random seeds a str through SHA-512 (version 2), stable across runs
        # and Python versions; never hash(), which is salted per process.
        self.seed = str(seed)
        self._rng = random.Random(self.seed)

    def faces(self, count, sides, purpose="", rule=""):
        return _random_faces(self._rng.random, count, sides)


class RandomSource(DiceSource):
    """Faces from an existing ``random.Random`` (simulations share one per trial)."""

    def __init__(self, rng: random.Random):
        self._rng = rng

    def faces(self, count, sides, purpose="", rule=""):
        rnd = self._rng.random
        # :func:`_random_faces`, its most common cases (one die; two, as Cepheus's 2D6) without the call
        if count == 1:
            face = int(rnd() * sides) + 1
            return [face if face <= sides else sides]
        if count == 2:
            face = int(rnd() * sides) + 1
            other = int(rnd() * sides) + 1
            return [face if face <= sides else sides, other if other <= sides else sides]
        return _random_faces(rnd, count, sides)

    draw = faces


class ScriptedSource(DiceSource):
    """Faces from a list; ``Die`` entries are checked against the sides asked for."""

    def __init__(self, faces):
        self._faces = list(faces)
        self._pos = 0

    @property
    def remaining(self) -> int:
        return len(self._faces) - self._pos

    def faces(self, count, sides, purpose="", rule=""):
        if self.remaining < count:
            raise DiceExhausted(
                f"Scripted dice ran out: {purpose or 'a roll'} needs {count}d{sides}, "
                f"{self.remaining} face(s) left."
            )
        out = []
        for i in range(count):
            raw = self._faces[self._pos]
            if isinstance(raw, Die):
                if raw.sides != sides:
                    raise DiceExhausted(
                        f"Scripted die {self._pos + 1} is a d{raw.sides}, but {purpose or 'the roll'} needs a d{sides}."
                    )
                raw = raw.face
            face = int(raw)
            if not 1 <= face <= sides:
                raise InvalidFace(self._pos, face, sides)
            out.append(face)
            self._pos += 1
        return out


class ManualSource(ScriptedSource):
    """Faces typed in by the GM.  Running short raises :class:`DiceNeeded`."""

    def faces(self, count, sides, purpose="", rule=""):
        if self.remaining < count:
            raise DiceNeeded(count, sides, purpose, rule, have=self.remaining)
        return super().faces(count, sides, purpose, rule)


class MixedSource(DiceSource):
    """Manual faces where the GM typed them, seeded faces for the rest."""

    def __init__(self, manual: list[int], fallback: DiceSource):
        self._manual = ScriptedSource(manual)
        self._fallback = fallback

    def faces(self, count, sides, purpose="", rule=""):
        if self._manual.remaining >= count:
            return self._manual.faces(count, sides, purpose, rule)
        return self._fallback.faces(count, sides, purpose, rule)


class OwnDiceSource(DiceSource):
    """One person's dice for the rolls that are theirs (``mine(purpose)``), ``others`` for the
    rest: a player typing their own dice in a step that also rolls for another side (the
    other side's dice are not theirs to type; see ``RulesetBase.own_rolls``)."""

    def __init__(self, own: DiceSource, others: DiceSource, mine):
        self._own, self._others, self._mine = own, others, mine

    def faces(self, count, sides, purpose="", rule=""):
        source = self._own if self._mine(purpose) else self._others
        return source.faces(count, sides, purpose, rule)


@dataclass
class Dice:
    """Rolls dice from a source and keeps the record of every roll and every die.

    With ``recording=False`` (playout mode: simulations and re-roll analyses) nothing is
    kept: no :class:`Die` or :class:`Roll` is stored, and rules read ``dice.recording``
    to skip building log text nobody will read.  The faces drawn, and so the fight,
    are the same either way.
    """

    source: DiceSource
    rolls: list[Roll] = field(default_factory=list)
    dice: list[Die] = field(default_factory=list)
    recording: bool = True

    def faces(self, count: int, sides: int, purpose: str = "", rule: str = "") -> list[int]:
        """Raw faces, for mechanics that are not a plain sum (pools, exploding dice).

        The caller records the roll itself with :meth:`record`.
        """
        got = self.source.faces(count, sides, purpose, rule)
        if self.recording:
            self.dice.extend(Die(sides, f) for f in got)
        return got

    def record(self, roll: Roll) -> Roll:
        if self.recording:
            self.rolls.append(roll)
        return roll

    def roll(
        self,
        count: int,
        sides: int,
        *,
        modifiers=(),
        purpose: str = "",
        rule: str = "",
        target: int | None = None,
        table: str = "",
        row: str = "",
        gm_only: bool = False,
        side: str = "",
    ) -> Roll:
        """Roll ``count``d``sides``, add the named modifiers, record and return the roll."""
        faces = tuple(self.faces(count, sides, purpose, rule))
        if not self.recording:
            # Playout mode: only what the rules read (faces, total, target).
            bonus = 0
            for _, v in modifiers:
                bonus += v
            return _roll("", faces, (), sum(faces) + bonus, "", "", "", "", target, False, "")
        mods = tuple((src if isinstance(src, Message) else str(src), int(v)) for src, v in modifiers if v)
        total = sum(faces) + sum(v for _, v in mods)
        expr = f"{count}D{sides}" if sides == 6 else f"{count}d{sides}"
        return self.record(
            _roll(expr, faces, mods, total, purpose, rule, table, row, target, gm_only, side)
        )

    @property
    def faces_used(self) -> list[int]:
        return [d.face for d in self.dice]


def playout_dice(rng: random.Random) -> Dice:
    """Dice for a playout: faces from ``rng``, nothing recorded.

    With nothing recorded :meth:`Dice.faces` only hands on the source's faces, so here it *is*
    the source's (``faces`` set on the instance): the same faces, one call fewer on each of the
    thousands of draws of a simulated battle.
    """
    source = RandomSource(rng)
    dice = Dice(source, recording=False)
    dice.faces = source.draw  # type: ignore[method-assign]  # the same signature, bound to the source's draw
    return dice


def seeded(seed: str) -> Dice:
    return Dice(SeededSource(seed))


def scripted(*faces: int) -> Dice:
    return Dice(ScriptedSource(faces))


def derive_seed(*parts) -> str:
    """A seed string from parts, e.g. (encounter seed, sequence, attempt)."""
    return ":".join(str(p) for p in parts)
