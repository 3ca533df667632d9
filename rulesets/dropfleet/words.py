"""Words a person reads about Dropfleet's named moves, as messages (rulesets.core.messages);
the tables' words (layers, orders, spikes) are in :mod:`.terms`.

Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.messages import Message, msg

from . import geometry
from . import sequence

#: a named move's button, by its way (decision D21)
_WAYS = {
    "ahead": ("dropfleet.move.ahead", "{ship}: full ahead, {inches}\" to {x},{y}"),
    "half_ahead": ("dropfleet.move.half_ahead", "{ship}: half ahead, {inches}\" to {x},{y}"),
    "left": ("dropfleet.move.left", "{ship}: turn {degrees}° left, {inches}\" to {x},{y}"),
    "right": ("dropfleet.move.right", "{ship}: turn {degrees}° right, {inches}\" to {x},{y}"),
}


def named_move(state, ship, way: str) -> Message:
    """The button of a named move (decision D21): "Steadfast: full ahead, 10" to 24,20"."""
    if ship is None:
        return msg("dropfleet.move.unknown", "A named move ({way})", way=way)
    spot = sequence.named_move(state, ship, way)
    if spot is None:
        return msg("dropfleet.move.not_offered", "{ship}: {way} (not offered now)", ship=ship.name, way=way)
    x, y = spot
    inches = round(geometry.distance(ship.x, ship.y, x, y))
    share = next(share for w, _, share in sequence.WAYS if w == way)
    ident, text = _WAYS[way]
    words = msg(ident, text, ship=ship.name, inches=inches, x=x, y=y, degrees=sequence.named_turn(ship))
    if inches < sequence.allowance(ship) // share - 1:  # the table's edge cut it short
        words = msg("dropfleet.move.cut_short", "{move} (the table's edge)", move=words)
    return words
