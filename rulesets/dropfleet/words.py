"""Words a person reads about Dropfleet moves and spikes, as messages (rulesets.core.messages).

Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.messages import msg

from . import geometry
from . import sequence
from . import tables


def named_move(state, ship, way: str) -> str:
    """The button of a named move (decision D21): "Steadfast: full ahead, 10" to 24,20"."""
    if ship is None:
        return str(msg("dropfleet.move.unknown", "A named move ({way})", way=way))
    spot = sequence.named_move(state, ship, way)
    if spot is None:
        return str(msg("dropfleet.move.not_offered", "{ship}: {way} (not offered now)", ship=ship.name, way=way))
    x, y = spot
    inches = round(geometry.distance(ship.x, ship.y, x, y))
    share = next(share for w, _, share in sequence.WAYS if w == way)
    params = {"ship": ship.name, "inches": inches, "x": x, "y": y, "degrees": sequence.named_turn(ship)}
    texts = {
        "ahead": ("dropfleet.move.ahead", "{ship}: full ahead, {inches}\" to {x},{y}"),
        "half_ahead": ("dropfleet.move.half_ahead", "{ship}: half ahead, {inches}\" to {x},{y}"),
        "left": ("dropfleet.move.left", "{ship}: turn {degrees}° left, {inches}\" to {x},{y}"),
        "right": ("dropfleet.move.right", "{ship}: turn {degrees}° right, {inches}\" to {x},{y}"),
    }
    ident, text = texts[way]
    words = str(msg(ident, text, **params))
    if inches < sequence.allowance(ship) // share - 1:  # the table's edge cut it short
        words += str(msg("dropfleet.move.cut_short", " (the table's edge)"))
    return words


def spike(level: int, silent: bool) -> str:
    """A ship's spike in words: "Major spike", "no spike", "no spike, silent"."""
    if level == tables.NO_SPIKE:
        text = str(msg("dropfleet.spike.none", "no spike"))
    else:
        text = str(msg("dropfleet.spike.level", "{level} spike", level=tables.SPIKE_LABEL[level]))
    if silent:
        text += str(msg("dropfleet.spike.silent", ", silent"))
    return text
