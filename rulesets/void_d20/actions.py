"""Each action kind declared once: what it checks, how it applies, how it reads to a GM.

The engine's ``apply``, ``odds`` and ``describe`` all go through :data:`KINDS`, so an
action's check (:func:`check_of`), its effect and its words never drift apart.
Pure Python.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Final

from rulesets.core.check import Check, gm_dm
from rulesets.core.dice import Dice
from rulesets.core.engine import Action

from . import personal, ships, tables, turns
from .common import combatant, ship
from .model import VoidState


def _flag(action: Action, key: str) -> bool:
    return bool(int(action.get(key) or 0))


def _void_words(action: Action) -> str:
    return " (spending a Void Point: 2d20, the higher)" if _flag(action, "void") else ""


@dataclass(frozen=True)
class Kind:
    """One action kind: its effect, its check (None: no d20 check), its words."""

    apply: Callable[[VoidState, list, Dice, Action], VoidState]
    words: Callable[[VoidState, Action], str]
    check: Callable[[VoidState, Action], Check | None] | None = None   # None from it: no check this time
    end_turn: bool = False   # personal: ends the person's turn


# --- personal -------------------------------------------------------------------------------


def _attack_check(state, a):
    return personal.attack_check(combatant(state, a.actor), combatant(state, a.get("target")),
                                 void=_flag(a, "void"), dm=gm_dm(a))


def _attack(state, log, dice, a):
    return personal.attack(state, log, dice, a.actor, a.get("target"), risky=a.kind == "risky", void=_flag(a, "void"), dm=gm_dm(a))


def _attack_words(state, a):
    c, t = combatant(state, a.actor), combatant(state, a.get("target"))
    risky = "Risky attack: " if a.kind == "risky" else ""
    return f"{risky}{c.name} attacks {t.name} with {personal.weapon_of(c).name}{_void_words(a)}"


def _medkit_words(state, a):
    c, t = combatant(state, a.actor), combatant(state, a.get("target"))
    return f"{c.name} uses a medkit on {'themself' if c.id == t.id else t.name}"


def _cover_words(state, a):
    c = combatant(state, a.actor)
    return f"{c.name} moves: {tables.COVER[a.get('level')].label}"


# --- ships -------------------------------------------------------------------------------


def _close(st, log, d, a):
    return ships.close_in(st, log, d, a.actor, a.get("target"), dm=gm_dm(a), void=_flag(a, "void"))


def _break(st, log, d, a):
    return ships.break_away(st, log, d, a.actor, a.get("target"), dm=gm_dm(a), void=_flag(a, "void"))


def _evade(st, log, d, a):
    return ships.evade(st, log, d, a.actor, dm=gm_dm(a), void=_flag(a, "void"))


def _scan(st, log, d, a):
    return ships.scan(st, log, d, a.actor, a.get("target"), dm=gm_dm(a), void=_flag(a, "void"))


def _fire(st, log, d, a):
    return ships.fire(st, log, d, a.actor, a.get("weapon"), a.get("target"), dm=gm_dm(a), void=_flag(a, "void"))


def _repair(st, log, d, a):
    return ships.repair(st, log, d, a.actor, a.get("what"), dm=gm_dm(a), void=_flag(a, "void"))


def _board(st, log, d, a):
    return ships.board(st, log, d, a.actor, a.get("target"), a.get("method"), dm=gm_dm(a))



def _target(state, a):
    return ship(state, a.get("target"))


def _weapon(state, a):
    s = ship(state, a.actor)
    return next(w for w in s.weapons if w.id == a.get("weapon"))


def _board_words(state, a):
    s, t, method = ship(state, a.actor), _target(state, a), a.get("method")
    if method == "open":
        return f"{s.name}'s crew cross into {t.name} through the broken lock"
    how = "force the lock of" if method == "breach" else "hack the lock of"
    return f"{s.name}'s crew {how} {t.name} ({'Body' if method == 'breach' else 'Technology'})"


def _board_check(state, a):
    if a.get("method") == "open":
        return None
    return ships.board_check(state, ship(state, a.actor), _target(state, a), a.get("method"), dm=gm_dm(a))


KINDS: Final[dict[str, Kind]] = {
    "begin": Kind(lambda st, log, d, a: turns.begin_round(st, log, d),
                  lambda st, a: f"Begin round {st.round + 1}: roll initiative"),
    "attack": Kind(_attack, _attack_words, _attack_check),
    "risky": Kind(_attack, _attack_words, _attack_check),
    "medkit": Kind(lambda st, log, d, a: personal.use_medkit(st, log, d, a.actor, a.get("target")), _medkit_words),
    "cover": Kind(lambda st, log, d, a: personal.take_cover(st, log, d, a.actor, a.get("level")), _cover_words),
    "end": Kind(lambda st, log, d, a: st, lambda st, a: f"{combatant(st, a.actor).name} ends their turn", end_turn=True),
    "command": Kind(lambda st, log, d, a: ships.command(st, log, d, a.actor, a.get("station")),
                    lambda st, a: f"{ship(st, a.actor).name}'s captain gives the "
                                  f"{a.get('station')} +1 this round"),
    "close": Kind(_close,
                  lambda st, a: f"{ship(st, a.actor).name} closes on {_target(st, a).name}{_void_words(a)}",
                  lambda st, a: ships.close_check(st, ship(st, a.actor), _target(st, a), dm=gm_dm(a), void=_flag(a, "void"))),
    "break": Kind(_break,
                  lambda st, a: f"{ship(st, a.actor).name} breaks away from {_target(st, a).name}{_void_words(a)}",
                  lambda st, a: ships.escape_check(st, ship(st, a.actor), _target(st, a), dm=gm_dm(a), void=_flag(a, "void"))),
    "evade": Kind(_evade,
                  lambda st, a: f"{ship(st, a.actor).name} evades{_void_words(a)}",
                  lambda st, a: ships.evade_check(st, ship(st, a.actor), dm=gm_dm(a), void=_flag(a, "void"))),
    "scan": Kind(_scan,
                 lambda st, a: f"{ship(st, a.actor).name} scans {_target(st, a).name} for a weakness{_void_words(a)}",
                 lambda st, a: ships.scan_check(st, ship(st, a.actor), _target(st, a), dm=gm_dm(a), void=_flag(a, "void"))),
    "fire": Kind(_fire,
                 lambda st, a: f"{ship(st, a.actor).name} fires {_weapon(st, a).name} ({_weapon(st, a).damage}) at "
                               f"{_target(st, a).name}{_void_words(a)}",
                 lambda st, a: ships.gunnery_check(st, ship(st, a.actor), _weapon(st, a), _target(st, a), dm=gm_dm(a),
                                                   void=_flag(a, "void"))),
    "board": Kind(_board, _board_words, _board_check),
    "repair": Kind(_repair,
                   lambda st, a: f"{ship(st, a.actor).name} repairs its {a.get('what')} (one spare part){_void_words(a)}",
                   lambda st, a: ships.repair_check(st, ship(st, a.actor), a.get("what"), dm=gm_dm(a), void=_flag(a, "void"))),
    "pass": Kind(lambda st, log, d, a: st,
                 lambda st, a: f"{ship(st, a.actor).name}: the {tables.STATION[a.get('station')].key} "
                               f"{'holds course' if a.get('station') == 'pilot' else 'does nothing'}"),
    # the GM's tools
    "catastrophe": Kind(lambda st, log, d, a: ships.catastrophe(st, log, d, a.get("target"), called=True),
                        lambda st, a: f"GM: roll on the catastrophe table for {_target(st, a).name}"),
    "rest": Kind(lambda st, log, d, a: personal.rest(st, log, d, a.get("what")),
                 lambda st, a: f"GM: {tables.HEALING[a.get('what')].label}"),
}

#: the kinds that are the acting ship's or person's own step (the rest are the GM's)
TURN_KINDS: Final = frozenset({"attack", "risky", "medkit", "cover", "end", "command", "close", "break", "evade", "scan", "fire",
                        "board", "repair", "pass"})


def check_of(state: VoidState, action: Action) -> Check | None:
    kind = KINDS.get(action.kind)
    return kind.check(state, action) if kind is not None and kind.check is not None else None
