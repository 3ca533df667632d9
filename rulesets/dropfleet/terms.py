"""The words of Dropfleet's tables as messages (rulesets.core.messages): orbital layers, orders,
tonnage classes, spikes, arcs, the crippling and catastrophic rows.  A log line, an action label or a
roll's purpose takes them as parameters, so a reader's language renders them too.

The tables (:mod:`.tables`) keep their English strings: the forms and the GM's overrides read
those.  Every message here is built once, at import; the identifiers are
``dropfleet.<table>.<key>``.  Written out one by one where the catalogue must find them
(``scripts/messages.py extract`` reads only literal ``msg("id", "text")`` calls); a test checks
each against its table's English.  Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.messages import Message, msg

from . import tables

#: "High orbit", "Low orbit", "Atmosphere" (RULES-NOTES orbital layers)
LAYER: dict[str, Message] = {
    tables.HIGH: msg("dropfleet.layer.high", "High orbit"),
    tables.LOW: msg("dropfleet.layer.low", "Low orbit"),
    tables.ATMOSPHERE: msg("dropfleet.layer.atmosphere", "Atmosphere"),
}

#: an order's name: "Weapons Free" (RULES-NOTES orders; decision D3)
ORDER: dict[str, Message] = {
    "standard": msg("dropfleet.order.standard", "Standard"),
    "weapons_free": msg("dropfleet.order.weapons_free", "Weapons Free"),
    "active_scan": msg("dropfleet.order.active_scan", "Active Scan"),
    "silent_running": msg("dropfleet.order.silent_running", "Silent Running"),
    "station_keeping": msg("dropfleet.order.station_keeping", "Station Keeping"),
    "course_change": msg("dropfleet.order.course_change", "Course Change"),
    "max_thrust": msg("dropfleet.order.max_thrust", "Max Thrust"),
}

#: a tonnage class: "Light" .. "Super-heavy"
TONNAGE: dict[str, Message] = {
    "L": msg("dropfleet.tonnage.L", "Light"),
    "M": msg("dropfleet.tonnage.M", "Medium"),
    "H": msg("dropfleet.tonnage.H", "Heavy"),
    "S": msg("dropfleet.tonnage.S", "Super-heavy"),
}

#: a spike's size: "Minor", "Major" (RULES-NOTES DF-N02)
SPIKE: dict[int, Message] = {
    tables.NO_SPIKE: msg("dropfleet.spike_size.none", "none"),
    tables.MINOR: msg("dropfleet.spike_size.minor", "Minor"),
    tables.MAJOR: msg("dropfleet.spike_size.major", "Major"),
}

#: a weapon's arc: "front", "all round" (seed 6: arcs)
ARC: dict[str, Message] = {
    "F": msg("dropfleet.arc.F", "front"),
    "NF": msg("dropfleet.arc.NF", "narrow front"),
    "S": msg("dropfleet.arc.S", "sides"),
    "R": msg("dropfleet.arc.R", "rear"),
    "FS": msg("dropfleet.arc.FS", "front and sides"),
    "A": msg("dropfleet.arc.A", "all round"),
}

#: the sub-table the first crippling die picks (DF-23)
SUBTABLE: dict[int, Message] = {face: msg(f"dropfleet.subtable.{label.lower().replace(' ', '_')}", label)
                                for face, label in tables.SUBTABLES.items()}

#: a crippling effect's name and what it does (seed 6 tables), by the effect's key
CRIPPLING_NAME: dict[str, Message] = {key: msg(f"dropfleet.crippling.{key}", row.name)
                                      for key, row in tables.CRIPPLING_ROWS.items()}
CRIPPLING_TEXT: dict[str, Message] = {key: msg(f"dropfleet.crippling.{key}.text", row.text)
                                      for key, row in tables.CRIPPLING_ROWS.items()}


def _catastrophic_rows():
    for table in (tables.CATASTROPHIC, tables.DREADNOUGHT_CATASTROPHIC):
        for row in table.values():
            yield row


#: a catastrophic row's name, its name inside a sentence ("Umbra's warp bubble"), what it does
CATASTROPHIC_NAME: dict[str, Message] = {row.key: msg(f"dropfleet.catastrophic.{row.key}", row.name)
                                         for row in _catastrophic_rows()}
CATASTROPHIC_NAME_IN_TEXT: dict[str, Message] = {row.key: msg(f"dropfleet.catastrophic.{row.key}.in_text", row.name.lower())
                                                 for row in _catastrophic_rows()}
CATASTROPHIC_TEXT: dict[str, Message] = {row.key: msg(f"dropfleet.catastrophic.{row.key}.text", row.text)
                                         for row in _catastrophic_rows()}
#: a house rule's note (RULES-NOTES DF-N10), by the row's key
HOUSE_RULE: dict[str, Message] = {row.key: msg(f"dropfleet.catastrophic.{row.key}.house_rule", row.house_rule)
                                  for row in _catastrophic_rows() if row.house_rule}


def layer(key: str) -> Message | str:
    """A layer's words; an unknown key as it is (a stale form's value)."""
    return LAYER.get(key, key)


#: a ship's spike in words (RULES-NOTES DF-N02, DF-N03): "Major spike", "no spike", "no spike, silent"
def _spike_words(level: int) -> Message:
    if level == tables.NO_SPIKE:
        return msg("dropfleet.spike.none", "no spike")  # never "none spike"
    return msg("dropfleet.spike.level", "{level} spike", level=SPIKE[level])


#: by (level, silent): "Major spike", "no spike", "no spike, silent"
SPIKE_WORDS: dict[tuple[int, bool], Message] = {
    (level, silent): (msg("dropfleet.spike.silent", "{spike}, silent", spike=_spike_words(level)) if silent
                      else _spike_words(level))
    for level in tables.SPIKE_LABEL for silent in (False, True)}
