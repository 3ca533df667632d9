"""What "N rounds" counts: the death table's timers (Таблица смерти в космосе).

**Decision** (issue 25; docs/rulesets/void_d20.md, "Timers"): "ноль действий 2 раунда" (shock,
VD-26) and "без сознания на d6 раундов" (unconscious, VD-24) cost the character their **next N
turns**: their turn in this round when it is still to come, else the next round's, and the ones
after it; they act again at the turn after those.  "Если не помогут за раунд" (bleeding out,
VD-23) is a deadline for the others, not turns the character loses: whoever comes to help has the
rest of this round and the whole next one (every friend gets a turn), as before.

The state's ``timer`` is what the round-start tick (:func:`turns.tick_timers`) counts down: the
rounds *after this one* still lost (the status ends at the start of a round when it is 0).  The
count a GM reads, :func:`rounds_left`, adds this round when it is still to count: the character's
turn in it is still to come (shock, unconscious), or the round is under way (bleeding out).
:func:`stored` is the other way round: the timer that makes a count read so now.
Pure Python.
"""
from __future__ import annotations

from typing import Final

from rulesets.core.messages import Message, msg

from .common import evolve
from .model import Combatant, VoidState

#: the statuses whose rounds are turns the character loses
LOST_TURNS: Final = ("shock", "unconscious")
#: the statuses a timer counts (turns.tick_timers)
TIMED: Final = ("bleeding", "unconscious", "shock")


def turn_to_come(state: VoidState, c: Combatant) -> bool:
    """Whether ``c`` still has this round's turn to lose: the round is under way and the turn order
    has not reached their place (in a ship round, their ship's), or they have none in it (down when
    it was rolled: the round goes by without them).  The current actor's turn has come: what is left
    of it is lost, and not counted."""
    if state.over or state.phase != "turn":
        return False                    # between rounds: the next round's start counts
    key = c.id if state.scale == "personal" else c.aboard
    order = state.order
    for place in range(min(state.turn + 1, len(order))):
        if order[place] == key:
            return False
    return True


def _this_round(state: VoidState, c: Combatant) -> int:
    """1 when this round still counts in ``c``'s count, else 0."""
    if c.status in LOST_TURNS:
        return 1 if turn_to_come(state, c) else 0
    return 1 if not state.over and state.phase == "turn" else 0


def rounds_left(state: VoidState, c: Combatant) -> int:
    """The rounds of ``c``'s status still to go, as a GM reads them (0 for a status without rounds):
    shock and unconscious, the turns still to be lost; bleeding out, the rounds left to help."""
    if c.status not in TIMED:
        return 0
    return c.timer + _this_round(state, c)


def stored(state: VoidState, c: Combatant, status: str, rounds: int) -> int:
    """The ``timer`` that makes ``c``, in ``status``, read ``rounds`` rounds left now (:func:`rounds_left`)."""
    return max(0, rounds - _this_round(state, _as_status(c, status)))


def _as_status(c: Combatant, status: str) -> Combatant:
    return c if c.status == status else evolve(c, status=status)


def words(state: VoidState, c: Combatant) -> Message | None:
    """The count in words ("no actions: 2 rounds left"), or None for a status without rounds."""
    if c.status not in TIMED:
        return None
    n = rounds_left(state, c)
    if c.status == "bleeding":
        if n == 0:
            return msg("void_d20.timer.bleeding_done", "dies when the next round begins unless helped")
        if n == 1:
            return msg("void_d20.timer.bleeding_one", "dies unless helped: 1 round left")
        return msg("void_d20.timer.bleeding", "dies unless helped: {rounds} rounds left", rounds=n)
    if n == 0:
        return msg("void_d20.timer.no_actions_done", "no actions until the next round")
    if n == 1:
        return msg("void_d20.timer.no_actions_one", "no actions: 1 round left")
    return msg("void_d20.timer.no_actions", "no actions: {rounds} rounds left", rounds=n)
