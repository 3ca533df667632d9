"""What a viewer sees of a dogfight: the order of play, the incoming attack and each ship's card,
in words that are messages (rulesets.core.messages), rendered by the page in the reader's language.

Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.messages import Message, msg, msgn, chain

from . import tables

#: a phase as the players' page heads it ("Round 2 · action phase")
PHASE_WORDS = {"act": msg("wing_commander.phase.act", "action"), "defend": msg("wing_commander.phase.defend", "defence"),
               "after": msg("wing_commander.phase.after", "after-attack")}
#: a weapon's kind on the card
KIND_WORDS = {"gun": msg("wing_commander.weapon_kind.gun", "guns"), "turret": msg("wing_commander.weapon_kind.turret", "turret"),
              "missile": msg("wing_commander.weapon_kind.missile", "missile"),
              "torpedo": msg("wing_commander.weapon_kind.torpedo", "torpedo")}
#: who flies the ship (the pilot's line)
FLOWN_BY_WORDS = {"character": msg("wing_commander.flown_by.character", "character"),
                  "npc": msg("wing_commander.flown_by.npc", "NPC (TW)"),
                  "npc_rolled": msg("wing_commander.flown_by.npc_rolled", "NPC, rolled by the GM")}
#: 2.1.1 step 1: the ship classes
CLASS_WORDS = {"light": msg("wing_commander.class.light", "Light fighter"),
               "medium": msg("wing_commander.class.medium", "Medium fighter"),
               "heavy": msg("wing_commander.class.heavy", "Heavy fighter"),
               "bomber": msg("wing_commander.class.bomber", "Bomber"),
               "capital": msg("wing_commander.class.capital", "Capital ship")}
#: 2.1.1 step 4: the Confederation's ranks
RANK_WORDS = {0: msg("wing_commander.rank.cadet", "Cadet"), 1: msg("wing_commander.rank.ensign", "Ensign"),
              2: msg("wing_commander.rank.second_lieutenant", "Second Lieutenant"),
              3: msg("wing_commander.rank.first_lieutenant", "First Lieutenant"),
              4: msg("wing_commander.rank.captain", "Captain"), 5: msg("wing_commander.rank.major", "Major"),
              6: msg("wing_commander.rank.lieutenant_colonel", "Lieutenant Colonel"),
              7: msg("wing_commander.rank.colonel", "Colonel")}
#: what a skill or advantage changes (state.MODIFIER_TARGETS), as the card names it
MODIFIER_ON = {"order": msg("wing_commander.modifier_on.order", "order"),
               "attack": msg("wing_commander.modifier_on.attack", "attack"),
               "guns": msg("wing_commander.modifier_on.guns", "guns"),
               "missiles": msg("wing_commander.modifier_on.missiles", "missiles"),
               "torpedoes": msg("wing_commander.modifier_on.torpedoes", "torpedoes"),
               "dodge": msg("wing_commander.modifier_on.dodge", "dodge"),
               "dodge_missiles": msg("wing_commander.modifier_on.dodge_missiles", "dodge_missiles"),
               "countermeasures": msg("wing_commander.modifier_on.countermeasures", "countermeasures")}
STATUS = {"in": "", "destroyed": msg("wing_commander.card.destroyed", "destroyed"),
          "ejected": msg("wing_commander.card.ejected", "pilot ejected")}
STANDING_ASIDE = msg("wing_commander.card.standing_aside", "standing aside (cannot be attacked)")
CLOAKED = msg("wing_commander.card.cloaked", "cloaked")
CLOAKING = msg("wing_commander.card.cloaking", "activating its cloak")
#: the first-damage table's lasting results (2.1.8), as the card lists them
SHIELD_GENERATOR = msg("wing_commander.card.shield_generator", "shield generator destroyed")
GUN_ALIGNMENT = msg("wing_commander.card.gun_alignment", "gun alignment failed (guns and turret -2)")
HARD_TARGET = msg("wing_commander.card.hard_target", "a hard target (phase shields)")
SOFT_TARGET = msg("wing_commander.card.soft_target", "a soft target")
OUT_UNTIL_REPLACED = msg("wing_commander.card.out_until_replaced", "out until replaced")
DAMAGE_HALVED = msg("wing_commander.card.damage_halved", "damage halved")

#: a ship's facts as the other ships' cards name them (encounters/templatetags/words.facts)
FACT_LABELS = {
    "class": msg("wing_commander.fact.class", "Class"),
    "acting": msg("wing_commander.fact.acting", "Acting"),
    "shields": msg("wing_commander.fact.shields", "Shields"),
    "hull": msg("wing_commander.fact.hull", "Hull"),
    "damage": msg("wing_commander.fact.damage", "Damage"),
    "situation": msg("wing_commander.fact.situation", "Situation"),
    "torpedoes": msg("wing_commander.fact.torpedoes", "Torpedoes"),
    "mv": msg("wing_commander.fact.mv", "Mv"),
    "weapons": msg("wing_commander.fact.weapons", "Weapons"),
    "countermeasures": msg("wing_commander.fact.countermeasures", "Countermeasures"),
    "pilot_line": msg("wing_commander.fact.pilot_line", "Pilot line"),
    "skills": msg("wing_commander.fact.skills", "Skills"),
}


def listed(words: list) -> Message | str:
    """Words one after the other, "a, b, c" (a message; "" for none)."""
    return chain(words, "wing_commander.words.list", "{first}, {then}")


def view(state, viewer) -> dict:
    ships = [ship_view(state, s, viewer.is_gm or s.id in viewer.ships) for s in state.ships]
    order = [state.ship(i).name for i in state.order if state.ship(i).in_fight]
    pending = None
    if state.phase == "defend" and state.pending and not state.over:
        p = state.pending[0]
        attacker, target = state.ship(p.attacker), state.ship(p.target)
        words = dict(attacker=attacker.name, weapon=attacker.weapon(p.weapon).name, target=target.name)
        pending = (msg("wing_commander.card.incoming_critical", "{attacker}'s {weapon} is coming at {target} (a critical "
                       "hit): countermeasure, dodge or eject.", **words) if p.critical else
                   msg("wing_commander.card.incoming", "{attacker}'s {weapon} is coming at {target}: countermeasure, "
                       "dodge or eject.", **words))
    acting = state.acting
    return {"round": state.round, "active": state.active, "acting": acting.name if acting else "",
            "phase": PHASE_WORDS[state.phase], "order": order, "pending": pending, "over": state.over, "winner": state.winner,
            "max_rounds": state.max_rounds, "ships": ships}


def ship_view(state, ship, full: bool) -> dict:
    """A ship in words: what anyone sees (class, shields, hull, damage, situation), and for its
    own side's players and the GM the pilot sheet, weapons and countermeasures."""
    situation = []
    if ship.standing_aside:
        situation.append(STANDING_ASIDE)
    if ship.cloak == "on":
        situation.append(CLOAKED)
    elif ship.cloak == "activating":
        situation.append(CLOAKING)
    if ship.lock_target and full:
        situation.append(msg("wing_commander.card.locked_on", "torpedo locked on {target}",
                             target=state.ship(ship.lock_target).name))
    damage = []
    if not ship.shield_generator:
        damage.append(SHIELD_GENERATOR)
    if ship.thrusters:
        damage.append(msg("wing_commander.card.thrusters", "thrusters damaged (MV -{mv})", mv=ship.thrusters))
    if ship.gun_alignment:
        damage.append(GUN_ALIGNMENT)
    out = {
        "id": ship.id, "name": ship.name, "side": ship.side, "class": CLASS_WORDS.get(ship.cls, tables.CLASS_NAMES[ship.cls]),
        "status": STATUS[ship.status],
        # its turn (the card says so); None, not False, on the others: a list of facts leaves it out
        # rather than read "Acting no" for every other ship
        "acting": True if state.acting is not None and state.acting.id == ship.id else None,
        "shields": f"{ship.shields}/{ship.max_shields}", "hull": f"{ship.hull}/{ship.max_hull}",
        "damage": damage, "situation": situation,
        "torpedoes": HARD_TARGET if ship.hard_target else SOFT_TARGET if ship.soft_target else "",
        "fact_labels": FACT_LABELS,
    }
    if full:
        weapons = []
        for w in ship.weapons:
            state_words = []
            if w.broken:
                state_words.append(OUT_UNTIL_REPLACED)
            if w.halved:
                state_words.append(DAMAGE_HALVED)
            if w.out_until >= state.round:
                state_words.append(msg("wing_commander.card.overheated", "overheated, back in round {round}",
                                       round=w.out_until + 1))
            if w.stock >= 0:
                state_words.append(msgn("wing_commander.card.stock", "{count} left", "{count} left", w.stock))
            weapons.append({"name": w.name, "kind": KIND_WORDS[w.kind], "damage": w.code,
                            "mv": w.mv if w.kind in ("missile", "torpedo") else None, "state": listed(state_words)})
        pilot = ship.pilot
        out.update({
            "mv": ship.current_mv, "weapons": weapons,
            "countermeasures": msg("wing_commander.card.countermeasures", "chaff {chaff} (MV {chaff_mv}), mines {mines} "
                                   "(MV {mines_mv})", chaff=ship.chaff, chaff_mv=f"{ship.chaff_mv:+d}",
                                   mines=ship.mines, mines_mv=f"{ship.mines_mv:+d}"),
            "pilot_line": pilot_line(ship),
            "skills": [msg("wing_commander.card.skill", "{name} ({on} {value})", name=m.name,
                           on=MODIFIER_ON.get(m.on, m.on), value=f"{m.value:+d}") for m in pilot.modifiers],
        })
    return out


def pilot_line(ship) -> Message:
    """ "Lt. Maya Okafor, First Lieutenant, character, Wild Card; TW 12" """
    pilot = ship.pilot
    rank = RANK_WORDS.get(pilot.rank) or msg("wing_commander.rank.other", "rank {rank}", rank=pilot.rank)
    words = dict(pilot=pilot.name, rank=rank, flown_by=FLOWN_BY_WORDS[pilot.flown_by], tw=ship.tw)
    if pilot.wild_card:
        return msg("wing_commander.card.pilot_wild_card", "{pilot}, {rank}, {flown_by}, Wild Card; TW {tw}", **words)
    return msg("wing_commander.card.pilot", "{pilot}, {rank}, {flown_by}; TW {tw}", **words)
