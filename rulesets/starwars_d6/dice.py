"""Star Wars D6 dice codes and the Wild Die.

A code such as ``4D+2`` is four six-sided dice plus 2 pips; 3 pips make 1D and
pips are kept in 0-2 (RULES-NOTES starwars_d6, general rules).  A code never goes
below 0D.

Every roll of a code is a core :class:`rulesets.core.check.Check` (issue 23, "One Check in
core") built by :func:`code_check`: its dice are :class:`WildDice` (the core's ``SystemDice``:
the code's dice, the Wild Die, a cap, the complication choice), its one modifier the code's
pips, and it has no target (Star Wars rolls are opposed: the other roll's total is the target;
and no GM modifier, the system has none).  :func:`roll_code` rolls it through
:func:`rulesets.core.check.roll` (raw faces, then one recorded :class:`~rulesets.core.dice.Roll`
whose modifiers are the cap, the Wild Die's 1 and the pips) and the exact odds are
:meth:`WildDice.naturals` (:mod:`.distributions`).

The Wild Die (RULES-NOTES starwars_d6, an encounter option, on by default): one die
of the code is the Wild Die.  A 6 on it adds and it is rolled again, repeatedly.
A 1 on its *first* roll removes it and the highest other die; with
``complication="add"`` (the GM's alternative) the 1 adds normally and the roll is
flagged as a complication.

Caps (the scale rules, seed section "6. ESCALES"): with ``cap=N`` every die showing
more than N counts as N.  RULES-NOTES: a capped Wild Die still explodes on a
*natural* 6 (it counts N and is rolled again).

Order the faces are asked for (matters for scripted and manual dice): the normal
dice first, then the Wild Die, then each reroll of the Wild Die.

Pure Python: no Django import.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from rulesets.core import check as core
from rulesets.core.check import Check, Modifier, Result
from rulesets.core.citation import cite
from rulesets.core.dice import Dice, Roll
from rulesets.core.messages import Message, msg

SEC_WILD = cite("The Wild Die", ruling=True)
SEC_CODES = cite("Dice codes and pips", ruling=True)
PIPS_PER_DIE = 3
COMPLICATIONS = ("remove", "add")

#: the words of a roll's modifiers and of a complication (the log and the roll show them)
PIPS = msg("starwars_d6.roll.pips", "pips")
WILD_ONE = msg("starwars_d6.roll.wild_one", "Wild Die 1: removed with the highest die")
WILD_TABLE = msg("starwars_d6.roll.wild_table", "Wild Die")
COMPLICATION_ROW = msg("starwars_d6.roll.complication", "complication")

_CODE = re.compile(r"^\s*(\d+)\s*[dD]\s*(?:([+-])\s*(\d+))?\s*$", re.ASCII)
_MOD = re.compile(r"^\s*([+-])\s*(?:(\d+)\s*[dD])?\s*(?:([+-]?)\s*(\d+))?\s*$", re.ASCII)


class CodeError(ValueError):
    """Text that is not a dice code or a dice-code modifier."""


@dataclass(frozen=True)
class DiceCode:
    """``dice``D+``pips``, normalised: pips in 0-2, never below 0D."""

    dice: int = 0
    pips: int = 0

    def __post_init__(self):
        total = max(0, int(self.dice) * PIPS_PER_DIE + int(self.pips))
        d, p = divmod(total, PIPS_PER_DIE)
        object.__setattr__(self, "dice", d)
        object.__setattr__(self, "pips", p)

    # ---- text
    @classmethod
    def parse(cls, text: "str | DiceCode") -> "DiceCode":
        """``"4D+2"``, ``"3D"``, ``"2D-1"`` (= 1D+2); case and spaces do not matter."""
        if isinstance(text, DiceCode):
            return text
        if isinstance(text, str):
            return _parse_text(text)    # a fight parses the same few codes thousands of times
        return _parse_text(str(text))

    def __str__(self) -> str:
        return f"{self.dice}D" + (f"+{self.pips}" if self.pips else "")

    # ---- arithmetic (in pips)
    @property
    def total_pips(self) -> int:
        return self.dice * PIPS_PER_DIE + self.pips

    @classmethod
    def from_pips(cls, pips: int) -> "DiceCode":
        return _from_pips(pips)

    def __add__(self, other) -> "DiceCode":
        return DiceCode.from_pips(self.total_pips + as_pips(other))

    def __sub__(self, other) -> "DiceCode":
        return DiceCode.from_pips(self.total_pips - as_pips(other))

    __radd__ = __add__

    def minimum(self) -> int:
        """The lowest total without the Wild Die (every die a 1)."""
        return self.dice + self.pips

    def maximum(self) -> int:
        """The highest total without the Wild Die."""
        return self.dice * 6 + self.pips


@lru_cache(maxsize=1024)
def _parse_text(text: str) -> DiceCode:
    """:meth:`DiceCode.parse` of a text (codes are immutable, so the parsed code is shared)."""
    m = _CODE.match(text)
    if not m:
        raise CodeError(f"{text!r} is not a dice code (like 4D+2).")
    dice, sign, pips = m.groups()
    p = int(pips or 0)
    return DiceCode(int(dice), -p if sign == "-" else p)


@lru_cache(maxsize=1024)
def _from_pips(pips: int) -> DiceCode:
    return DiceCode(0, pips)


def parse_modifier(text: str) -> int:
    """A signed modifier in pips: ``"+1D"`` = 3, ``"-1D"`` = -3, ``"+2"`` = 2, ``"-1D+1"`` = -4."""
    m = _MOD.match(str(text))
    if not m or (m.group(2) is None and m.group(4) is None):
        raise CodeError(f"{text!r} is not a dice-code modifier (like +1D or -2).")
    sign, dice, psign, pips = m.groups()
    if dice is None and psign:
        raise CodeError(f"{text!r} is not a dice-code modifier (like +1D or -2).")
    value = int(dice or 0) * PIPS_PER_DIE + (-1 if psign == "-" else 1) * int(pips or 0)
    return -value if sign == "-" else value


def as_pips(value) -> int:
    """Pips of a DiceCode, an int (pips) or a text modifier/code."""
    if type(value) is int:           # (the most frequent: a modifier in pips; a bool is not an int here)
        return value
    if isinstance(value, DiceCode):
        return value.total_pips
    if isinstance(value, bool):
        raise TypeError("a bool is not a dice-code amount")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text[:1] in "+-":
            return parse_modifier(text)
        return DiceCode.parse(text).total_pips
    raise TypeError(f"cannot add {value!r} to a dice code")


def code(value) -> DiceCode:
    return DiceCode.parse(value)


class CodeRoll(NamedTuple):
    """The result of rolling a code: the dice, the total, the raw faces (the normal dice, then the
    Wild Die's first roll and each reroll), whether a complication was flagged, the Roll recorded.
    (A named tuple: a playout makes over a hundred a battle; what the faces were is read from
    them only when asked.)"""

    dice: "WildDice"
    total: int
    faces: tuple[int, ...]
    complication: bool = False
    roll: Roll | None = None

    @property
    def code(self) -> DiceCode:
        return DiceCode.from_pips(self.dice.dice * PIPS_PER_DIE + self.dice.pips)

    @property
    def cap(self) -> int | None:
        return self.dice.cap

    @property
    def normal(self) -> tuple[int, ...]:
        """Raw faces of the normal dice."""
        return self.dice.split(self.faces)[0]

    @property
    def wild(self) -> tuple[int, ...]:
        """Raw faces of the Wild Die: its first roll, then each reroll."""
        return self.dice.split(self.faces)[1]

    @property
    def removed(self) -> tuple[int, ...]:
        """Raw faces removed by a first-roll 1 (the 1, the highest die)."""
        return self.dice.split(self.faces)[2]

    @property
    def exploded(self) -> int:
        """How many times the Wild Die was rolled again."""
        return max(0, len(self.wild) - 1)


def capped(face: int, cap: int | None) -> int:
    return face if cap is None else min(face, cap)


@dataclass(frozen=True)
class WildDice:
    """The dice of a code as a core check's throw (the core's ``SystemDice``): ``dice`` D6, the
    last the Wild Die when ``wild`` (never for 0D), every die over ``cap`` counting ``cap``, a
    first-roll 1 on the Wild Die removing it and the highest die (``complication`` "remove") or
    adding normally and flagging a complication ("add").  The natural is what the dice count,
    without the pips (the check's modifier); ``pips`` is only for :attr:`text` (``4D+2 (Wild Die)``).
    Built by :func:`wild_dice` (shared: a fight rolls the same few codes thousands of times)."""

    dice: int
    pips: int = 0
    wild: bool = True
    cap: int | None = None
    complication: str = "remove"
    text: str = ""
    #: a first-roll 1 may flag a complication (the Wild Die rolled, complication "add")
    flags: bool = False

    def draw(self, dice: Dice, purpose, rule: str) -> tuple[tuple[int, ...], int]:
        """The faces and the natural: all the dice at once, the Wild Die last, then one die per
        reroll of a Wild-Die 6 (so physical dice are entered as they are thrown)."""
        n = self.dice
        if not n:
            return (), 0
        if not self.wild:
            faces = tuple(dice.faces(n, 6, purpose, rule))
        else:
            got = dice.faces(n, 6, msg("starwars_d6.dice.wild_one", "{purpose} (the Wild Die)", purpose=purpose)
                             if n == 1 else msg("starwars_d6.dice.wild_last", "{purpose} (the last die is the Wild Die)",
                                                purpose=purpose), rule)
            face = got[-1]
            if face == 6:
                got = list(got)
                while face == 6:
                    face = dice.faces(1, 6, msg("starwars_d6.dice.wild_again", "{purpose} (Wild Die again)",
                                                purpose=purpose), rule)[0]
                    got.append(face)
            faces = tuple(got)
        cap = self.cap
        total = sum(faces) if cap is None else sum(f if f < cap else cap for f in faces)
        if faces[n - 1] == 1 and self.wild and self.complication == "remove":
            total -= sum(capped(f, cap) for f in self._removed(faces))
        return faces, total

    def _removed(self, faces: tuple[int, ...]) -> tuple[int, ...]:
        """The raw faces a first-roll 1 on the Wild Die removes: the 1 and the highest other die."""
        n = self.dice
        return (1, max(faces[:n - 1])) if n > 1 else (1,)

    def split(self, faces: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bool]:
        """(normal faces, Wild Die faces, removed faces, complication flagged) of a roll's faces."""
        n_normal = self.dice - 1 if self.wild else self.dice
        wild = faces[n_normal:]
        one = bool(wild) and wild[0] == 1
        removed = self._removed(faces) if one and self.complication == "remove" else ()
        return faces[:n_normal], wild, removed, one and self.complication == "add"

    def adjustments(self, faces: tuple[int, ...]) -> tuple[tuple[Message, int], ...]:
        """What the natural owes to the rules of the dice, named for the roll: dice over the cap
        counting the cap (seed "6. ESCALES"), the Wild Die's 1 removing the highest die."""
        cap = self.cap
        out: list[tuple[Message, int]] = []
        if cap is not None:
            over = sum(cap - f for f in faces if f > cap)
            if over:
                out.append((msg("starwars_d6.roll.over_cap", "dice over {cap} count {cap}", cap=cap), over))
        if self.wild and faces and faces[self.dice - 1] == 1 and self.complication == "remove":
            out.append((WILD_ONE, -sum(capped(f, cap) for f in self._removed(faces))))
        return tuple(out)

    def flagged(self, faces: tuple[int, ...]) -> bool:
        """A complication: the Wild Die's first roll a 1 that added normally ("add")."""
        return self.wild and self.complication == "add" and faces[self.dice - 1] == 1

    def table(self, result: Result):
        """The recorded table: "Wild Die" for a complication."""
        return WILD_TABLE if self.flagged(result.faces) else ""

    def row(self, result: Result):
        """The recorded row: "complication" for a complication."""
        return COMPLICATION_ROW if self.flagged(result.faces) else ""

    def naturals(self) -> dict[int, Fraction]:
        """{natural: probability}, exact (the Wild Die truncated as :mod:`.distributions` says)."""
        from .distributions import exact_naturals   # (distributions reads DiceCode from here)

        return exact_naturals(self.dice, self.wild, self.cap, self.complication)


@lru_cache(maxsize=1024)
def wild_dice(dice: int, pips: int = 0, wild: bool = True, cap: int | None = None,
              complication: str = "remove") -> WildDice:
    """The :class:`WildDice` of a code (validated: a cap of 0 or more, "remove" or "add")."""
    if complication not in COMPLICATIONS:
        raise ValueError("complication must be 'remove' or 'add'")
    if cap is not None and cap < 0:
        raise ValueError("cap must be 0 or more")
    use_wild = bool(wild) and dice > 0
    text = str(DiceCode(dice, pips)) + (" (Wild Die)" if use_wild else "")
    return WildDice(dice, pips, use_wild, cap, complication, text, use_wild and complication == "add")


@lru_cache(maxsize=8)
def _pips(pips: int) -> tuple[Modifier, ...]:
    return (Modifier(PIPS, pips, SEC_CODES),) if pips else ()


def code_check(code: "DiceCode | str", *, wild: bool = True, cap: int | None = None, complication: str = "remove",
               purpose: Message | str = "", rule: str = "") -> Check:
    """The core :class:`~rulesets.core.check.Check` of rolling ``code``: its :class:`WildDice`, its
    pips as the one modifier, no target; the rule cited is ``rule``, else the Wild Die's."""
    c = code if type(code) is DiceCode else DiceCode.parse(code)
    check = _code_check(c.dice, c.pips, bool(wild), cap, complication, rule)
    return Check(check.throw, None, check.modifiers, check.rule, purpose) if purpose else check


@lru_cache(maxsize=2048)
def _code_check(dice: int, pips: int, wild: bool, cap: int | None, complication: str, rule: str) -> Check:
    throw = wild_dice(dice, pips, wild, cap, complication)
    return Check(throw, None, _pips(pips), rule or (SEC_WILD if throw.wild else ""))


def roll_check(dice: Dice, check: Check) -> CodeRoll:
    """Roll a code's check (:func:`rulesets.core.check.roll`): recorded with its modifiers, and a
    complication as table "Wild Die", row "complication"."""
    throw = check.throw
    if throw.flags:
        result = core.roll(dice, check, table=throw.table, row=throw.row)
        return CodeRoll(throw, result.total, result.faces, throw.flagged(result.faces),
                        dice.rolls[-1] if dice.recording else None)
    result = core.roll(dice, check)
    return CodeRoll(throw, result.total, result.faces, False, dice.rolls[-1] if dice.recording else None)


def roll_code(
    dice: Dice,
    code: "DiceCode | str",
    *,
    wild: bool = True,
    purpose: Message | str = "",
    rule: str = "",
    cap: int | None = None,
    complication: str = "remove",
) -> CodeRoll:
    """Roll a dice code (with the Wild Die unless ``wild=False``); record one Roll.

    ``cap``: dice over ``cap`` count as ``cap`` (scale rules); a natural 6 on the Wild
    Die still explodes.  ``complication``: "remove" (default) or "add" -- what a 1 on
    the Wild Die's first roll does.
    """
    return roll_check(dice, code_check(code, wild=wild, cap=cap, complication=complication, purpose=purpose,
                                       rule=rule))
