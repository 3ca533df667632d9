"""The words of a Void d20 fight's view (the ship cards, the people aboard, the round's header):
messages (rulesets.core.messages), rendered by the page in the reader's language.  The state keeps
machine keys ("light" cover, "drifting"); here they become words.

Pure Python: no Django import.
"""
from __future__ import annotations

from typing import Final

from rulesets.core.messages import Message, msg, msgn

#: the round's phase, as the players' page heads it ("turn phase")
PHASE: Final = {"initiative": msg("void_d20.phase.initiative", "initiative"), "turn": msg("void_d20.phase.turn", "turn")}

#: a ship's state on its card
SHIP_STATUS: Final = {"destroyed": msg("void_d20.card.destroyed", "destroyed"),
                      "escaped": msg("void_d20.card.escaped", "gone (escaped)"),
                      "drifting": msg("void_d20.card.drifting", "drifting"),
                      "damaged": msg("void_d20.card.damaged", "damaged"),
                      "intact": msg("void_d20.card.intact", "intact")}

#: a person's state (Combatant.status)
PERSON_STATUS: Final = {"ok": msg("void_d20.person.ok", "standing"), "shock": msg("void_d20.person.shock", "in shock"),
                        "bleeding": msg("void_d20.person.bleeding", "bleeding out"),
                        "unconscious": msg("void_d20.person.unconscious", "unconscious"),
                        "dead": msg("void_d20.person.dead", "dead"),
                        "fled": msg("void_d20.person.fled", "fled or surrendered"),
                        "surrendered": msg("void_d20.person.surrendered", "surrendered")}

#: a person's cover, as "{cover} cover" reads it on the card ("light cover")
COVER: Final = {"none": msg("void_d20.card.cover.none", "none"), "light": msg("void_d20.card.cover.light", "light"),
                "medium": msg("void_d20.card.cover.medium", "medium"), "full": msg("void_d20.card.cover.full", "full")}

#: a range band's short name ("Close to Kestrel")
BAND: Final = {"far": msg("void_d20.card.band.far", "Far"), "medium": msg("void_d20.card.band.medium", "Medium"),
               "close": msg("void_d20.card.band.close", "Close"), "docked": msg("void_d20.card.band.docked", "Docked")}

#: a ship weapon's reach (model.ShipWeapon.reach)
REACH: Final = {"standard": msg("void_d20.card.reach.standard", "standard"), "heavy": msg("void_d20.card.reach.heavy", "heavy"),
                "missile": msg("void_d20.card.reach.missile", "missile"), "close": msg("void_d20.card.reach.close", "close")}

#: the station a ship's turn has reached (tables.STATIONS, in their order)
STATION: Final = (
    msg("void_d20.station.command", "Command: +1 to another station this round"),
    msg("void_d20.station.pilot", "Piloting (Agility): manoeuvre, evasion, pursuit"),
    msg("void_d20.station.sensors", "Sensors (Mind): scan the enemy, find a weakness"),
    msg("void_d20.station.gunner", "Gunnery (Technology): the gunner aims the guns"),
    msg("void_d20.station.engineer", "Repair (Technology + spare parts): restore Condition"),
)

#: the modules the templates give a ship (library.MODULES and the extras); a GM's own stays as typed
MODULE: Final = {"engines": msg("void_d20.module.engines", "engines"), "sensors": msg("void_d20.module.sensors", "sensors"),
                 "life support": msg("void_d20.module.life_support", "life support"),
                 "docking clamp": msg("void_d20.module.docking_clamp", "docking clamp"),
                 "cargo crane": msg("void_d20.module.cargo_crane", "cargo crane"),
                 "grapple arm": msg("void_d20.module.grapple_arm", "grapple arm"),
                 "boarding tube": msg("void_d20.module.boarding_tube", "boarding tube")}

#: the gear setup gives a person by kind (setup.py), not named by the GM
ITEM: Final = {"energy shield": msg("void_d20.item.energy_shield", "energy shield"),
               "medkit": msg("void_d20.item.medkit", "medkit")}

#: what a person carries over (personal.py's notes)
NOTE: Final = {"hampered tomorrow": msg("void_d20.note.hampered", "hampered tomorrow"),
               "omen from the GM": msg("void_d20.note.omen", "omen from the GM")}

#: a ship's facts as the other ships' cards name them (encounters/templatetags/words.facts)
FACT_LABELS: Final = {"range": msg("void_d20.fact.range", "Range"), "people": msg("void_d20.fact.people", "People"),
                      "frame": msg("void_d20.fact.frame", "Frame"), "speed": msg("void_d20.fact.speed", "Speed"),
                      "defence": msg("void_d20.fact.defence", "Defence"),
                      "spare_parts": msg("void_d20.fact.spare_parts", "Spare parts"),
                      "weapons": msg("void_d20.fact.weapons", "Weapons"), "modules": msg("void_d20.fact.modules", "Modules"),
                      "catastrophes": msg("void_d20.fact.catastrophes", "Catastrophes"),
                      "reactor": msg("void_d20.fact.reactor", "Reactor"), "reboot": msg("void_d20.fact.reboot", "Reboot"),
                      "evading": msg("void_d20.fact.evading", "Evading"),
                      "initiative": msg("void_d20.fact.initiative", "Initiative"),
                      "frame_text": msg("void_d20.fact.frame_text", "Frame text")}


def ship_status(s) -> Message:
    key = ("destroyed" if s.destroyed else "escaped" if s.escaped else "drifting" if s.drifting
           else "damaged" if s.frame < s.max_frame else "intact")
    return SHIP_STATUS[key]


def of(value, most) -> Message:
    """ "9 of 14": a frame or hit points left of the most."""
    return msg("void_d20.card.of", "{value} of {most}", value=value, most=most)


def band_to(band: str, ship: str) -> Message:
    return msg("void_d20.card.range", "{band} to {ship}", band=BAND.get(band, band), ship=ship)


def knocked_out(words, out: bool):
    return msg("void_d20.card.knocked_out", "{what} - knocked out", what=words) if out else words


def ship_weapon(w) -> Message:
    return knocked_out(msg("void_d20.card.weapon", "{name} ({damage}, {reach})", name=w.name, damage=w.damage,
                           reach=REACH.get(w.reach, w.reach)), w.out)


def module(m) -> Message | str:
    return knocked_out(MODULE.get(m.name, m.name), m.out)


def gear(i) -> Message:
    words = msg("void_d20.card.condition", "{item}: Condition {condition}", item=ITEM.get(i.name, i.name),
                condition=i.condition)
    if i.kind in ("shield", "medkit"):
        return msgn("void_d20.card.charges", "{item}, {count} charges", "{item}, {count} charges", i.charges, item=words)
    return words


def morale(value: int, chance: str) -> Message:
    return msg("void_d20.card.morale", "morale {morale}: {chance} to break", morale=value, chance=chance)
