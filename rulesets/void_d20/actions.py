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
from rulesets.core.engine import Action, Log
from rulesets.core.messages import Message, msg

from . import personal, ships, tables, turns
from .common import combatant, ship
from .model import VoidState


def _flag(action: Action, key: str) -> bool:
    return bool(int(action.get(key) or 0))


def _void_words(action: Action, words: Message) -> Message:
    """An action's words, and that it spends a Void Point when it does."""
    if _flag(action, "void"):
        return msg("void_d20.action.void", "{action} (spending a Void Point: 2d20, the higher)", action=words)
    return words


@dataclass(frozen=True)
class Kind:
    """One action kind: its effect, its check (None: no d20 check), its words."""

    apply: Callable[[VoidState, Log, Dice, Action], VoidState]
    words: Callable[[VoidState, Action], Message]
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
    words = personal.attack_words(c, t, personal.weapon_of(c))
    if a.kind == "risky":
        words = msg("void_d20.action.risky", "Risky attack: {action}", action=words)
    return _void_words(a, words)


def _medkit_words(state, a):
    c, t = combatant(state, a.actor), combatant(state, a.get("target"))
    if c.id == t.id:
        return msg("void_d20.action.medkit_self", "{name} uses a medkit on themself", name=c.name)
    return msg("void_d20.action.medkit", "{name} uses a medkit on {target}", name=c.name, target=t.name)


def _cover_words(state, a):
    c = combatant(state, a.actor)
    return msg("void_d20.action.cover", "{name} moves: {cover}", name=c.name, cover=tables.COVER[a.get("level")].words)


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
        return msg("void_d20.action.board_open", "{ship}'s crew cross into {target} through the broken lock",
                   ship=s.name, target=t.name)
    if method == "breach":
        return msg("void_d20.action.breach", "{ship}'s crew force the lock of {target} ({ability})", ship=s.name,
                   target=t.name, ability=tables.ABILITY_WORDS["body"])
    return msg("void_d20.action.hack", "{ship}'s crew hack the lock of {target} ({ability})", ship=s.name, target=t.name,
               ability=tables.ABILITY_WORDS["technology"])


def _begin_words(st, a):
    return msg("void_d20.action.begin", "Begin round {round}: roll initiative", round=st.round + 1)


def _end_words(st, a):
    return msg("void_d20.action.end", "{name} ends their turn", name=combatant(st, a.actor).name)


def _command_words(st, a):
    return msg("void_d20.action.command", "{ship}'s captain gives the {station} +{bonus} this round", ship=ship(st, a.actor).name,
               station=tables.STATION_WORDS[a.get("station")], bonus=tables.COMMAND_BONUS)


def _close_words(st, a):
    return _void_words(a, ships.close_words(ship(st, a.actor), _target(st, a)))


def _break_words(st, a):
    return _void_words(a, ships.escape_words(ship(st, a.actor), _target(st, a)))


def _evade_words(st, a):
    return _void_words(a, ships.evade_words(ship(st, a.actor)))


def _scan_words(st, a):
    return _void_words(a, msg("void_d20.action.scan", "{ship} scans {target} for a weakness", ship=ship(st, a.actor).name,
                              target=_target(st, a).name))


def _fire_words(st, a):
    w = _weapon(st, a)
    return _void_words(a, msg("void_d20.action.fire", "{ship} fires {weapon} ({damage}) at {target}", ship=ship(st, a.actor).name,
                              weapon=w.name, damage=w.damage, target=_target(st, a).name))


def _repair_words(st, a):
    return _void_words(a, msg("void_d20.action.repair", "{ship} repairs its {what} (one spare part)", ship=ship(st, a.actor).name,
                              what=a.get("what")))


def _pass_words(st, a):
    station = a.get("station")
    if station == "pilot":
        return msg("void_d20.action.hold_course", "{ship}: the {station} holds course", ship=ship(st, a.actor).name,
                   station=tables.STATION_WORDS[station])
    return msg("void_d20.action.pass", "{ship}: the {station} does nothing", ship=ship(st, a.actor).name,
               station=tables.STATION_WORDS[station])


def _catastrophe_words(st, a):
    return msg("void_d20.action.catastrophe", "GM: roll on the catastrophe table for {target}", target=_target(st, a).name)


def _rest_words(st, a):
    return msg("void_d20.action.rest", "GM: {what}", what=tables.HEALING[a.get("what")].words)


def _board_check(state, a):
    if a.get("method") == "open":
        return None
    return ships.board_check(state, ship(state, a.actor), _target(state, a), a.get("method"), dm=gm_dm(a))


KINDS: Final[dict[str, Kind]] = {
    "begin": Kind(lambda st, log, d, a: turns.begin_round(st, log, d), _begin_words),
    "attack": Kind(_attack, _attack_words, _attack_check),
    "risky": Kind(_attack, _attack_words, _attack_check),
    "medkit": Kind(lambda st, log, d, a: personal.use_medkit(st, log, d, a.actor, a.get("target")), _medkit_words),
    "cover": Kind(lambda st, log, d, a: personal.take_cover(st, log, d, a.actor, a.get("level")), _cover_words),
    "end": Kind(lambda st, log, d, a: st, _end_words, end_turn=True),
    "command": Kind(lambda st, log, d, a: ships.command(st, log, d, a.actor, a.get("station")), _command_words),
    "close": Kind(_close, _close_words,
                  lambda st, a: ships.close_check(st, ship(st, a.actor), _target(st, a), dm=gm_dm(a), void=_flag(a, "void"))),
    "break": Kind(_break, _break_words,
                  lambda st, a: ships.escape_check(st, ship(st, a.actor), _target(st, a), dm=gm_dm(a), void=_flag(a, "void"))),
    "evade": Kind(_evade, _evade_words,
                  lambda st, a: ships.evade_check(st, ship(st, a.actor), dm=gm_dm(a), void=_flag(a, "void"))),
    "scan": Kind(_scan, _scan_words,
                 lambda st, a: ships.scan_check(st, ship(st, a.actor), _target(st, a), dm=gm_dm(a), void=_flag(a, "void"))),
    "fire": Kind(_fire, _fire_words,
                 lambda st, a: ships.gunnery_check(st, ship(st, a.actor), _weapon(st, a), _target(st, a), dm=gm_dm(a),
                                                   void=_flag(a, "void"))),
    "board": Kind(_board, _board_words, _board_check),
    "repair": Kind(_repair, _repair_words,
                   lambda st, a: ships.repair_check(st, ship(st, a.actor), a.get("what"), dm=gm_dm(a), void=_flag(a, "void"))),
    "pass": Kind(lambda st, log, d, a: st, _pass_words),
    # the GM's tools
    "catastrophe": Kind(lambda st, log, d, a: ships.catastrophe(st, log, d, a.get("target"), called=True), _catastrophe_words),
    "rest": Kind(lambda st, log, d, a: personal.rest(st, log, d, a.get("what")), _rest_words),
}

#: the kinds that are the acting ship's or person's own step (the rest are the GM's)
TURN_KINDS: Final = frozenset({"attack", "risky", "medkit", "cover", "end", "command", "close", "break", "evade", "scan", "fire",
                        "board", "repair", "pass"})


def check_of(state: VoidState, action: Action) -> Check | None:
    kind = KINDS.get(action.kind)
    return kind.check(state, action) if kind is not None and kind.check is not None else None
