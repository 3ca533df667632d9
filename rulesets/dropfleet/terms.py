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
SUBTABLE: dict[int, Message] = {
    1: msg("dropfleet.subtable.subsystems", "Subsystems"),
    2: msg("dropfleet.subtable.subsystems", "Subsystems"),
    3: msg("dropfleet.subtable.hull", "Hull"),
    4: msg("dropfleet.subtable.hull", "Hull"),
    5: msg("dropfleet.subtable.main_systems", "Main systems"),
    6: msg("dropfleet.subtable.main_systems", "Main systems"),
}

#: a crippling effect's name and what it does (seed 6 tables), by the effect's key
CRIPPLING_NAME: dict[str, Message] = {
    "bright_flash": msg("dropfleet.crippling.bright_flash", "Bright flash"),
    "fire": msg("dropfleet.crippling.fire", "Fire"),
    "power_leak": msg("dropfleet.crippling.power_leak", "Power leak"),
    "scanner_disabled": msg("dropfleet.crippling.scanner_disabled", "Scanner disabled"),
    "cracked_armour": msg("dropfleet.crippling.cracked_armour", "Cracked armour"),
    "hull_breach": msg("dropfleet.crippling.hull_breach", "Hull breach"),
    "engines_disabled": msg("dropfleet.crippling.engines_disabled", "Engines disabled"),
    "weapons_disabled": msg("dropfleet.crippling.weapons_disabled", "Weapons disabled"),
    "reactor_overload": msg("dropfleet.crippling.reactor_overload", "Reactor overload"),
    "containment_failure": msg("dropfleet.crippling.containment_failure", "Atmospheric containment failure"),
    "power_fluctuation": msg("dropfleet.crippling.power_fluctuation", "Power fluctuation"),
    "scanner_damage": msg("dropfleet.crippling.scanner_damage", "Scanner damage"),
    "broken_bulkhead": msg("dropfleet.crippling.broken_bulkhead", "Broken bulkhead"),
    "auxiliary_damage": msg("dropfleet.crippling.auxiliary_damage", "Auxiliary systems damage"),
    "engines_destroyed": msg("dropfleet.crippling.engines_destroyed", "Engines destroyed"),
    "weapon_destroyed": msg("dropfleet.crippling.weapon_destroyed", "Weapon destroyed"),
    "reactor_leak": msg("dropfleet.crippling.reactor_leak", "Primary reactor leak"),
}
CRIPPLING_TEXT: dict[str, Message] = {
    "bright_flash": msg("dropfleet.crippling.bright_flash.text", "gains a Minor spike (under Silent Running its Signature returns to normal instead)"),
    "fire": msg("dropfleet.crippling.fire.text", "1 extra Hull damage in each End phase, before damage control"),
    "power_leak": msg("dropfleet.crippling.power_leak.text", "cannot use special orders"),
    "scanner_disabled": msg("dropfleet.crippling.scanner_disabled.text", "Scan becomes 1\""),
    "cracked_armour": msg("dropfleet.crippling.cracked_armour.text", "Armour +2 for the rest of the game"),
    "hull_breach": msg("dropfleet.crippling.hull_breach.text", "no further effect"),
    "engines_disabled": msg("dropfleet.crippling.engines_disabled.text", "Thrust halved (round up), cannot turn or change orbit"),
    "weapons_disabled": msg("dropfleet.crippling.weapons_disabled.text", "cannot fire or launch at its next activation"),
    "reactor_overload": msg("dropfleet.crippling.reactor_overload.text", "rolls again on the crippling table"),
    "containment_failure": msg("dropfleet.crippling.containment_failure.text", "2 extra Hull damage in each End phase, before damage control; 2 repairs needed"),
    "power_fluctuation": msg("dropfleet.crippling.power_fluctuation.text", "D3 Hull damage when it takes a special order; cannot run silent"),
    "scanner_damage": msg("dropfleet.crippling.scanner_damage.text", "Scan reduced to 6\""),
    "broken_bulkhead": msg("dropfleet.crippling.broken_bulkhead.text", "no further effect"),
    "auxiliary_damage": msg("dropfleet.crippling.auxiliary_damage.text", "no further effect"),
    "engines_destroyed": msg("dropfleet.crippling.engines_destroyed.text", "Thrust -2\"; D3 Hull damage when at Max Thrust or Course Change"),
    "weapon_destroyed": msg("dropfleet.crippling.weapon_destroyed.text", "a random weapon system is out for the rest of the game"),
    "reactor_leak": msg("dropfleet.crippling.reactor_leak.text", "3 extra Hull damage at the end of each End phase"),
}

#: a catastrophic row's name, its name inside a sentence ("Umbra's warp bubble"), what it does
CATASTROPHIC_NAME: dict[str, Message] = {
    "incineration": msg("dropfleet.catastrophic.incineration", "Incineration"),
    "burning_wreck": msg("dropfleet.catastrophic.burning_wreck", "Burning wreck"),
    "crushed": msg("dropfleet.catastrophic.crushed", "Crushed"),
    "explosion": msg("dropfleet.catastrophic.explosion", "Explosion"),
    "radiation_burst": msg("dropfleet.catastrophic.radiation_burst", "Radiation burst"),
    "warp_bubble": msg("dropfleet.catastrophic.warp_bubble", "Warp bubble"),
    "violent_descent": msg("dropfleet.catastrophic.violent_descent", "Violent descent"),
    "immolation": msg("dropfleet.catastrophic.immolation", "Immolation"),
    "superstructure_failure": msg("dropfleet.catastrophic.superstructure_failure", "Superstructure failure"),
    "magazine_detonation": msg("dropfleet.catastrophic.magazine_detonation", "Magazine detonation"),
    "space_time_rupture": msg("dropfleet.catastrophic.space_time_rupture", "Space-time rupture"),
}
CATASTROPHIC_NAME_IN_TEXT: dict[str, Message] = {
    "incineration": msg("dropfleet.catastrophic.incineration.in_text", "incineration"),
    "burning_wreck": msg("dropfleet.catastrophic.burning_wreck.in_text", "burning wreck"),
    "crushed": msg("dropfleet.catastrophic.crushed.in_text", "crushed"),
    "explosion": msg("dropfleet.catastrophic.explosion.in_text", "explosion"),
    "radiation_burst": msg("dropfleet.catastrophic.radiation_burst.in_text", "radiation burst"),
    "warp_bubble": msg("dropfleet.catastrophic.warp_bubble.in_text", "warp bubble"),
    "violent_descent": msg("dropfleet.catastrophic.violent_descent.in_text", "violent descent"),
    "immolation": msg("dropfleet.catastrophic.immolation.in_text", "immolation"),
    "superstructure_failure": msg("dropfleet.catastrophic.superstructure_failure.in_text", "superstructure failure"),
    "magazine_detonation": msg("dropfleet.catastrophic.magazine_detonation.in_text", "magazine detonation"),
    "space_time_rupture": msg("dropfleet.catastrophic.space_time_rupture.in_text", "space-time rupture"),
}
CATASTROPHIC_TEXT: dict[str, Message] = {
    "incineration": msg("dropfleet.catastrophic.incineration.text", "no further effect"),
    "burning_wreck": msg("dropfleet.catastrophic.burning_wreck.text", "ships gain a Minor spike (Silent Running ends instead)"),
    "crushed": msg("dropfleet.catastrophic.crushed.text", "1 Hull damage, saves allowed"),
    "explosion": msg("dropfleet.catastrophic.explosion.text", "2 Hull damage, saves allowed"),
    "radiation_burst": msg("dropfleet.catastrophic.radiation_burst.text", "2 Hull damage, no saves"),
    "warp_bubble": msg("dropfleet.catastrophic.warp_bubble.text", "D6 Hull damage rolled per ship, no saves"),
    "violent_descent": msg("dropfleet.catastrophic.violent_descent.text", "sectors within 8\" take D6 damage (no sectors on this table: no effect)"),
    "immolation": msg("dropfleet.catastrophic.immolation.text", "ships within 8\" gain a Major spike and D3 Fires"),
    "superstructure_failure": msg("dropfleet.catastrophic.superstructure_failure.text", "ships within 12\" take 2D6 Hull damage on a 5+, saves allowed"),
    "magazine_detonation": msg("dropfleet.catastrophic.magazine_detonation.text", "ships within 12\" take 2 Hull damage, saves allowed"),
    "space_time_rupture": msg("dropfleet.catastrophic.space_time_rupture.text", "ships of Hull 6+ within 8\" take 3+D3 damage, saves allowed; ships of Hull 5 or less are removed"),
}
#: a house rule's note (RULES-NOTES DF-N10), by the row's key
HOUSE_RULE: dict[str, Message] = {
    "magazine_detonation": msg("dropfleet.catastrophic.magazine_detonation.house_rule", "House rule: the Dreadnought table has no 6; a 6 reads as 5 (RULES-NOTES)."),
}


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
