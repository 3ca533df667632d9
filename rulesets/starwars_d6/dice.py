"""Star Wars D6 dice codes and the Wild Die.

A code such as ``4D+2`` is four six-sided dice plus 2 pips; 3 pips make 1D and
pips are kept in 0-2 (RULES-NOTES starwars_d6, general rules).  A code never goes
below 0D.  ``roll_code`` rolls a code through the core :class:`~rulesets.core.dice.Dice`
(raw faces, then one recorded :class:`~rulesets.core.dice.Roll`).

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
from functools import lru_cache
from typing import NamedTuple

from rulesets.core.citation import cite
from rulesets.core.dice import Dice, Roll

SEC_WILD = cite("The Wild Die", ruling=True)
PIPS_PER_DIE = 3

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
    """The result of rolling a code: the raw faces, what they counted, the total.  (A named
    tuple: a playout makes over a hundred a battle, and a frozen dataclass is slow to build.)"""

    code: DiceCode
    total: int
    normal: tuple[int, ...]     # raw faces of the normal dice
    wild: tuple[int, ...] = ()  # raw faces of the Wild Die: its first roll, then each reroll
    removed: tuple[int, ...] = ()  # raw faces removed by a first-roll 1 (the 1, the highest die)
    complication: bool = False
    cap: int | None = None
    roll: Roll | None = None

    @property
    def exploded(self) -> int:
        """How many times the Wild Die was rolled again."""
        return max(0, len(self.wild) - 1)


def capped(face: int, cap: int | None) -> int:
    return face if cap is None else min(face, cap)


def roll_code(
    dice: Dice,
    code: "DiceCode | str",
    *,
    wild: bool = True,
    purpose: str = "",
    rule: str = "",
    cap: int | None = None,
    complication: str = "remove",
) -> CodeRoll:
    """Roll a dice code (with the Wild Die unless ``wild=False``); record one Roll.

    The dice are asked for in one go, the Wild Die last, then one die per reroll of a Wild-Die 6
    (so physical dice are entered as they are thrown).

    ``cap``: dice over ``cap`` count as ``cap`` (scale rules); a natural 6 on the Wild
    Die still explodes.  ``complication``: "remove" (default) or "add" -- what a 1 on
    the Wild Die's first roll does.
    """
    c = DiceCode.parse(code)
    if complication not in ("remove", "add"):
        raise ValueError("complication must be 'remove' or 'add'")
    if cap is not None and cap < 0:
        raise ValueError("cap must be 0 or more")
    use_wild = wild and c.dice > 0
    n_normal = c.dice - (1 if use_wild else 0)
    # All the dice of the code at once (physical dice are thrown together), the Wild Die last;
    # then one more for each reroll of a Wild-Die 6.
    recording = dice.recording
    if not recording:
        return _roll_quietly(dice, c, use_wild, n_normal, cap, complication)
    if recording:
        label = (f"{purpose} ({'the Wild Die' if c.dice == 1 else 'the last die is the Wild Die'})"
                 if use_wild else purpose).strip()
    else:
        label = purpose          # a playout: nobody reads the dice's labels
    first = tuple(dice.faces(c.dice, 6, label, rule)) if c.dice else ()
    normal = first[:n_normal]
    wild_faces: list[int] = []
    if use_wild:
        face = first[-1]
        wild_faces.append(face)
        while face == 6:
            face = dice.faces(1, 6, f"{purpose} (Wild Die again)".strip() if recording else purpose, rule)[0]
            wild_faces.append(face)

    faces = normal + tuple(wild_faces)
    raw = sum(faces)
    counted = sum(capped(f, cap) for f in faces)
    mods: list[tuple[str, int]] = []
    if counted != raw:
        mods.append((f"dice over {cap} count {cap}", counted - raw))
    removed: tuple[int, ...] = ()
    flagged = False
    if use_wild and wild_faces[0] == 1:
        if complication == "remove":
            highest = max(normal) if normal else None
            removed = (1,) if highest is None else (1, highest)
            mods.append(("Wild Die 1: removed with the highest die",
                         -sum(capped(f, cap) for f in removed)))
        else:
            flagged = True
    if c.pips:
        mods.append(("pips", c.pips))
    total = raw + sum(v for _, v in mods)
    if not recording:
        return CodeRoll(c, total, normal, tuple(wild_faces), removed, flagged, cap, None)
    expr = str(c) + (" (Wild Die)" if use_wild else "")
    record = dice.record(Roll(
        expr, faces, tuple(mods), total, purpose, rule or (SEC_WILD if use_wild else ""),
        table="Wild Die" if flagged else "", row="complication" if flagged else "",
    ))
    return CodeRoll(c, total, normal, tuple(wild_faces), removed, flagged, cap, record)


def _roll_quietly(dice: Dice, c: DiceCode, use_wild: bool, n_normal: int, cap: int | None,
                  complication: str) -> CodeRoll:
    """:func:`roll_code` in a playout (nothing recorded): the same dice drawn in the same order,
    the same total and flags, without the words of its modifiers."""
    first = dice.faces(c.dice, 6) if c.dice else ()
    normal = tuple(first[:n_normal])
    wild: tuple[int, ...] = ()
    if use_wild:
        face = first[-1]
        wild_faces = [face]
        while face == 6:
            face = dice.faces(1, 6)[0]
            wild_faces.append(face)
        wild = tuple(wild_faces)
    faces = normal + wild
    total = sum(faces) if cap is None else sum(f if f < cap else cap for f in faces)
    removed: tuple[int, ...] = ()
    flagged = False
    if use_wild and wild[0] == 1:
        if complication == "remove":
            removed = (1, max(normal)) if normal else (1,)
            total -= sum(removed) if cap is None else sum(f if f < cap else cap for f in removed)
        else:
            flagged = True
    return CodeRoll(c, total + c.pips, normal, wild, removed, flagged, cap, None)
