"""A check, declared once: the dice, the target, the named modifiers, what a natural face
decides, the rule cited and the words that describe it.

A rule builds a :class:`Check` (an attack, a piloting manoeuvre, a breach) and everything
else reads that one value: :func:`roll` rolls it and records the :class:`~rulesets.core.dice.Roll`,
:func:`chances` gives its exact odds, :func:`describe` says it in words.  So what the log
shows, what the odds page says and what ``apply`` does cannot drift apart.

The dice are a :class:`Throw` (n dice of s sides, summed, or the highest ``keep`` of them) or any
object with the same three members (``text``, ``draw``, ``naturals``): the hook for a system's
own dice (a pool counted against a lock, a D-code with a Wild Die).  Such dice may also name what
made their natural differ from the faces' sum (``adjustments(faces)``: a die over a cap counting
the cap, a Wild Die's 1 removing the highest die); the roll records those before the modifiers.

The GM's circumstance modifier is one core modifier under one label (:data:`GM_LABEL`), read
from the action's ``dm`` parameter by :func:`gm_dm` (the parameter every system lets the GM
add: :attr:`rulesets.core.contract.RulesetBase.free_params`).

Pure Python: no Django import.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any, Callable, NamedTuple, Protocol, Union

import icepool

from .dice import Dice, Roll, _roll
from .messages import Message, msg, render

#: the label of the GM's circumstance modifier, the same in every system
GM_LABEL = msg("core.check.gm", "GM")
#: the rule the GM's circumstance modifier comes from
GM_RULE = "GM circumstance modifier"

SUCCESS, FAILURE = "success", "failure"


def words(text: Message | str) -> str:
    """A message or plain words, rendered in the installed language."""
    return render(text)


# --- the dice ---------------------------------------------------------------------------


class SystemDice(Protocol):
    """What a system's own dice provide to be a check's ``throw`` (:class:`Throw` is one)."""

    text: str

    def draw(self, dice: Dice, purpose: str, rule: str) -> tuple[tuple[int, ...], int]: ...

    def naturals(self) -> dict[int, Fraction]: ...

    # optional: ``adjustments(faces) -> tuple[(label, value), ...]``, what the natural owes to the
    # dice's own rules (recorded before the check's modifiers; see :func:`roll`)


@dataclass(frozen=True)
class Throw:
    """``count`` dice of ``sides`` sides; the natural is the sum of all of them, or of the
    highest ``keep`` when ``keep`` is set (a Void Point: 2d20, keep the higher).

    ``text`` is the expression recorded in the roll; by default ``1d20``, ``2D6`` (a d6 is
    written with a capital D, as :meth:`rulesets.core.dice.Dice.roll` writes it) or ``2d20kh1``.
    """

    count: int
    sides: int
    keep: int = 0
    label: str = ""

    @property
    def text(self) -> str:
        if self.label:
            return self.label
        d = "D" if self.sides == 6 else "d"
        return f"{self.count}{d}{self.sides}" + (f"kh{self.keep}" if self.keep else "")

    def draw(self, dice: Dice, purpose: str, rule: str) -> tuple[tuple[int, ...], int]:
        """The faces rolled and the natural they make."""
        faces = tuple(dice.faces(self.count, self.sides, purpose, rule))
        keep = self.keep
        if keep:
            return faces, sum(sorted(faces, reverse=True)[:keep])
        return faces, sum(faces)

    def naturals(self) -> dict[int, Fraction]:
        """{natural: probability}, exact."""
        return _naturals(self.count, self.sides, self.keep)


@lru_cache(maxsize=64)
def _naturals(count: int, sides: int, keep: int) -> dict[int, Fraction]:
    """Keyed by value (the dice's numbers), so a cached answer is always the right one."""
    die = icepool.d(sides)
    pool = die.highest(count, keep) if keep else count @ die
    denominator = pool.denominator()
    return {int(v): Fraction(q, denominator) for v, q in pool.items()}


# --- the declaration ---------------------------------------------------------------------


class Modifier(NamedTuple):
    """One named modifier: its label (the words the log shows), its value, the rule it comes from."""

    label: Message | str
    value: int
    rule: str = ""


@dataclass(frozen=True)
class Natural:
    """A natural result that decides by itself, whatever the total: faces ``low``..``high`` of
    the natural make ``outcome`` (a success or not), recorded in the roll as ``table``: ``row``.

    Void d20's attacks: ``Natural(20, 20, "critical", True, "natural 20: critical", "hit")``.
    An empty ``table`` keeps the table the roll was given; ``{natural}`` in ``table`` or ``row``
    is the natural rolled (Wing Commander: ``"natural {natural}: critical, always succeeds"``).
    """

    low: int
    high: int
    outcome: str
    success: bool
    table: Message | str = ""
    row: Message | str = ""


class Check(NamedTuple):
    """One check: ``throw`` + the modifiers against ``target`` (a total at least the target
    succeeds), naturals that decide by themselves, the rule cited and the purpose in words.
    ``target`` None succeeds unless a natural decides: an opposed roll whose total another roll
    must reach, or a roll read on a table.

    ``Check``, ``Modifier`` and ``Result`` are named tuples (immutable records, built for every
    roll); the dice and the naturals, declared once each, are frozen dataclasses."""

    throw: Any                                  # a Throw, or a system's own SystemDice
    target: int | None
    modifiers: tuple[Modifier, ...] = ()
    rule: str = ""
    purpose: Message | str = ""
    naturals: tuple[Natural, ...] = ()

    @property
    def bonus(self) -> int:
        return sum(m.value for m in self.modifiers)

    def named(self) -> tuple[tuple[Message | str, int], ...]:
        """The modifiers as the log names them: (label, value) each, in order."""
        return tuple((m.label, m.value) for m in self.modifiers)

    def resolve(self, natural: int, faces: tuple[int, ...] = ()) -> "Result":
        """What a natural means for this check (the roll and the odds both ask this).

        Asked for every roll of every playout: the fields are read in one unpacking and the
        :class:`Result` is made as the tuple it is (what ``Result(...)`` does, one call fewer)."""
        _, target, modifiers, _, _, naturals = self
        bonus = 0
        for m in modifiers:
            bonus += m[1]
        total = natural + bonus
        for n in naturals:
            if n.low <= natural <= n.high:
                return _tuple_new(Result, (natural, total, n.success, n.outcome, faces, target, n))
        ok = target is None or total >= target
        return _tuple_new(Result, (natural, total, ok, SUCCESS if ok else FAILURE, faces, target, None))

    def with_throw(self, throw) -> "Check":
        return self._replace(throw=throw)


_tuple_new = tuple.__new__


class Result(NamedTuple):
    """A rolled (or enumerated) check: the natural, the total, success, and the outcome's name
    (``success``, ``failure``, or the outcome of the :class:`Natural` that decided)."""

    natural: int
    total: int
    success: bool
    outcome: str
    faces: tuple[int, ...] = ()
    target: int | None = 0
    decided_by: Natural | None = None

    @property
    def effect(self) -> int:
        """The margin: total - target (Cepheus's Effect); only for a check with a target."""
        return self.total - self.target

    @property
    def critical(self) -> bool:
        return self.outcome == "critical"

    @property
    def fumble(self) -> bool:
        return self.outcome == "fumble"


# --- the GM's circumstance modifier ------------------------------------------------------


def gm_dm(action) -> int:
    """The GM's circumstance modifier an action carries: its ``dm`` parameter (0 without one)."""
    return int(action.get("dm", 0) or 0)


def circumstance(dm: int) -> tuple[Modifier, ...]:
    """The GM's circumstance modifier as a check's modifier: none when it is 0."""
    return (Modifier(GM_LABEL, dm, GM_RULE),) if dm else ()


# --- rolling, odds, words ----------------------------------------------------------------


#: a roll's row: words, or what gives them from the result (the row of a table the natural is read on)
Row = Union[Message, str, Callable[["Result"], Union[Message, str]]]


def _natural(text: Message | str, natural: int) -> Message | str:
    """``text``, its ``{natural}`` filled with the natural rolled."""
    if isinstance(text, Message):
        return text.with_params(natural=natural)
    return text.format(natural=natural) if "{" in text else text


def roll(dice: Dice, check: Check, *, table: Message | str = "", row: Row = "",
         gm_only: bool = False, record_target: bool = True, side: str = "") -> Result:
    """Roll ``check`` through ``dice``; recorded (when ``dice.recording``) as one :class:`Roll`:
    the throw's text, its faces, the modifiers that are not 0, the total, purpose, rule and target,
    and the natural that decided it as the roll's table and row (else ``table`` and ``row``, e.g.
    the table a result is read on; ``table`` and ``row`` may be functions of the :class:`Result`,
    called only when recording); ``gm_only`` for a roll only the GM sees, ``side`` for one only
    the GM and that side read (:attr:`rulesets.core.dice.Roll.side`); ``record_target=False`` for a system
    whose table already says the target in words (then the roll shows no "vs N+").  Dice with
    ``adjustments`` (:class:`SystemDice`) have them recorded first, then the modifiers."""
    throw, _, _, rule, purpose, _ = check
    faces, natural = throw.draw(dice, purpose, rule)
    result = check.resolve(natural, faces)
    if dice.recording:
        decided = result.decided_by
        if callable(table):
            table = table(result)
        if decided is not None:
            table, row = _natural(decided.table or table, natural), _natural(decided.row, natural)
        elif callable(row):
            row = row(result)
        named = tuple(named for named in check.named() if named[1])
        adjustments = getattr(throw, "adjustments", None)
        if adjustments is not None:
            named = tuple(adjustments(faces)) + named
        dice.record(_roll(
            throw.text, faces, named,
            result.total, purpose, rule, target=check.target if record_target else None,
            table=table, row=row, gm_only=gm_only, side=side,
        ))
    return result


def chances(check: Check) -> dict[str, Fraction]:
    """{outcome: probability} of ``check``, exact, from the same :meth:`Check.resolve` the roll
    uses; ``success`` and ``failure`` are always there and count every natural outcome too (a
    critical is also a success)."""
    out = {SUCCESS: Fraction(0), FAILURE: Fraction(0)}
    for natural, p in check.throw.naturals().items():
        r = check.resolve(natural)
        out[SUCCESS if r.success else FAILURE] += p
        if r.outcome not in (SUCCESS, FAILURE):
            out[r.outcome] = out.get(r.outcome, Fraction(0)) + p
    return out


def describe(check: Check) -> Message:
    """The check in words: ``Ann attacks Raider with pistol: 1d20 + 2 (Agility) - 3 (GM) vs 12+``
    (without the target when it has none)."""
    mods = "".join(f" {'+' if m.value >= 0 else '-'} {abs(m.value)} ({words(m.label)})"
                   for m in check.modifiers if m.value)
    if check.target is None:
        return msg("core.check.describe_open", "{purpose}: {dice}{modifiers}",
                   purpose=words(check.purpose), dice=check.throw.text, modifiers=mods)
    return msg("core.check.describe", "{purpose}: {dice}{modifiers} vs {target}+",
               purpose=words(check.purpose), dice=check.throw.text, modifiers=mods, target=check.target)
