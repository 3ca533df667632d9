"""Why the rules refuse an action now: the reason in words and the rule that forbids it.

:meth:`engine.VoidD20Ruleset.refusal` (the core contract's ``refusal``) calls :func:`refusal` for
an action that ``is_legal`` refused.  Each reason asks the same predicates the action list asks
(:mod:`.options`, :mod:`.ships`, :mod:`.personal`), in the order a GM would look: is the round
under way, is it this actor's step, can they act, is it this station's step, then what the action
itself needs.  A reason is a message (an id, its English text with ``{placeholders}``, the
parameters: :mod:`rulesets.core.messages`) and the citation of the seed section (``tables.rule``).
None where no reason is found (the core then says the action is not one the rules allow).
Pure Python.
"""
from __future__ import annotations

from typing import Final

from rulesets.core.engine import Action, Refusal
from rulesets.core.messages import Message, msg, chain

from . import cards, tables, timers
from .common import combatant, ship
from .model import Combatant, Ship, VoidState
from .options import GM, _boarding_under_way, commandable, enemies_of, repairable, sensors_work
from .personal import can_attack_from, item_of
from .ships import band, boarders, can_manoeuvre, powered, station_crew

#: the kinds a person takes in a personal round, and the station each ship kind belongs to
PERSONAL_KINDS: Final = ("attack", "risky", "medkit", "cover", "end")
STATION_OF: Final = {"command": "command", "close": "pilot", "break": "pilot", "evade": "pilot", "scan": "sensors",
                     "fire": "gunner", "board": "gunner", "repair": "engineer"}
_GM_KINDS: Final = ("override", "catastrophe", "rest")


def _no(ident: str, text: str, section: str, **params) -> Refusal:
    return Refusal(msg(ident, text, **params), tables.rule(section))


def _flag(action: Action, key: str) -> bool:
    return bool(int(action.get(key) or 0))


def _band_word(key: str) -> Message | str:
    """A range band's name ("Far"), as the ship cards name it."""
    return cards.BAND.get(key, key)


#: a cover level as "{name} already has ..." says it: the table's row up to its details
COVER_WORDS: Final = {"none": msg("void_d20.refused.cover_level.none", "no cover"),
                      "light": msg("void_d20.refused.cover_level.light", "light cover"),
                      "medium": msg("void_d20.refused.cover_level.medium", "medium cover"),
                      "full": msg("void_d20.refused.cover_level.full", "full cover")}


def _reaches(reaches: tuple[str, ...]) -> Message | str:
    """Weapon reaches in words, one after the other ("heavy, missile"): each pair a message, so each
    language chooses its own separator."""
    return chain([cards.REACH.get(r, r) for r in reaches], "void_d20.refused.reach_and", "{first}, {then}")


def refusal(state: VoidState, action: Action) -> Refusal | None:
    if state.over:
        return None                                   # the core's "the fight is over"
    kind = action.kind
    if kind in _GM_KINDS or kind == "begin":
        return _gm_refusal(state, action)
    if state.phase != "turn":
        return _no("void_d20.refused.not_begun", "Round {round} has not begun: its initiative comes first.", "initiative",
                   round=state.round + 1)
    if state.scale == "ship":
        return _ship_round(state, action)
    return _personal_round(state, action)


def _gm_refusal(state: VoidState, action: Action) -> Refusal | None:
    if action.actor != GM:
        return _no("void_d20.refused.gm_only", "Only the GM does that.", "notes")
    if action.kind == "begin" and state.phase == "turn":
        return _no("void_d20.refused.round_under_way", "Round {round} is under way: the next one begins by itself when everyone "
                   "has acted.", "round", round=state.round)
    if action.kind == "catastrophe":
        t = ship(state, action.get("target"))
        if t.destroyed:
            return _no("void_d20.refused.catastrophe_destroyed", "{ship} is destroyed: there is nothing left to befall it.",
                       "catastrophe", ship=t.name)
    return None


# --- ship rounds ------------------------------------------------------------------------------


def _ship_round(state: VoidState, action: Action) -> Refusal | None:
    kind = action.kind
    if kind in PERSONAL_KINDS:
        return _no("void_d20.refused.ship_round", "This is an encounter round between the ships: people fight in the corridors "
                   "only while a boarding fight is under way.", "space")
    s = ship(state, action.actor)
    current = state.order[state.turn]
    if s.id != current:
        place = state.order.index(s.id) if s.id in state.order else None
        if place is not None and place < state.turn:
            return _no("void_d20.refused.ship_turn_taken", "{ship} has had its turn this round: one manoeuvre and one attack for "
                       "each ship a round.", "ship_round", ship=s.name)
        if not s.in_space:
            return _no("void_d20.refused.ship_gone", "{ship} is out of the fight.", "ship_round", ship=s.name)
        return _no("void_d20.refused.out_of_turn", "It is {active}'s turn.", "ship_round", active=state.active)
    station = action.get("station") if kind == "pass" else STATION_OF.get(kind)
    if station not in tables.STATION:
        return None
    now = tables.STATIONS[state.slot].key
    if station != now:
        if [info.key for info in tables.STATIONS].index(station) < state.slot:
            if station == "pilot":
                return _no("void_d20.refused.manoeuvre_taken", "{ship} has made its manoeuvre this round: one manoeuvre and one "
                           "attack for each ship a round.", "ship_round", ship=s.name)
            if station == "gunner":
                return _no("void_d20.refused.attack_taken", "{ship} has made its attack this round: one manoeuvre and one attack "
                           "for each ship a round.", "ship_round", ship=s.name)
            return _no("void_d20.refused.station_acted", "{ship}'s {station} station has acted this round.", "house",
                       ship=s.name, station=tables.STATION_WORDS[station])
        return _no("void_d20.refused.station_later", "It is {ship}'s {now} step; the {station} station comes later (command, pilot, "
                   "sensors, gunner, engineer).", "house", ship=s.name, now=tables.STATION_WORDS[now],
                   station=tables.STATION_WORDS[station])
    if kind == "pass":
        return None
    if station != "command" and station_crew(state, s, station) is None:
        return _no("void_d20.refused.unmanned", "Nobody aboard {ship} can work the {station} station.", "stations",
                   ship=s.name, station=tables.STATION_WORDS[station])
    if _flag(action, "void") and not _has_void(station_crew(state, s, station)):
        return _no_void(station_crew(state, s, station))
    return _SHIP_KINDS[kind](state, s, action)


def _has_void(who: Combatant | None) -> bool:
    return who is not None and who.kind == "character" and who.void > 0


def _no_void(who: Combatant | None) -> Refusal:
    if who is not None and who.kind == "enemy":
        return _no("void_d20.refused.no_void_enemy", "{name} is an enemy: enemies have no Void Points.", "notes", name=who.name)
    return _no("void_d20.refused.no_void", "{name} has no Void Points left to spend.", "notes",
               name=who.name if who else msg("void_d20.refused.nobody", "nobody"))


def _no_power(s: Ship) -> Refusal | None:
    """Guns, sensors and command need power (house rule VD-50 while drifting; VD-63 while rebooting)."""
    if s.drifting:
        return _no("void_d20.refused.no_power_drifting", "{ship} has no power: its frame is at 0 and it drifts.", "frame", ship=s.name)
    if s.reboot:
        return _no("void_d20.refused.no_power_reboot", "{ship} has no power: all its systems are rebooting ({rounds} rounds left).",
                   "catastrophe", ship=s.name, rounds=s.reboot)
    return None


def _enemy_ship(state: VoidState, s: Ship, action: Action) -> tuple[Ship | None, Refusal | None]:
    t = ship(state, action.get("target"))
    if t in enemies_of(state, s):
        return t, None
    if t.side == s.side:
        return None, _no("void_d20.refused.not_an_enemy", "{target} is on {ship}'s side.", "space", target=t.name, ship=s.name)
    return None, _no("void_d20.refused.target_gone", "{target} is out of the fight.", "space", target=t.name)


def _command(state: VoidState, s: Ship, action: Action) -> Refusal | None:
    if "command" not in _manned(state, s):
        return _no("void_d20.refused.no_captain", "Nobody aboard {ship} holds the command station.", "stations", ship=s.name)
    no_power = _no_power(s)
    if no_power is not None:
        return no_power
    if action.get("station") not in commandable(state, s):
        return _no("void_d20.refused.not_urged", "The captain urges another manned station: pilot, sensors, gunner or engineer.",
                   "stations")
    return None


def _manned(state: VoidState, s: Ship) -> list[str]:
    return [info.key for info in tables.STATIONS if station_crew(state, s, info.key) is not None]


def _no_manoeuvre(s: Ship) -> Refusal | None:
    if can_manoeuvre(s):
        return None
    if s.drifting:
        return _no("void_d20.refused.drifting", "{ship} drifts: at frame 0 it has no engines.", "frame", ship=s.name)
    if s.reboot:
        return _no("void_d20.refused.rebooting", "{ship}'s systems are rebooting ({rounds} rounds left): it cannot manoeuvre.",
                   "catastrophe", ship=s.name, rounds=s.reboot)
    if s.module_out("engines"):
        return _no("void_d20.refused.engines_out", "{ship}'s engines are knocked out: it cannot manoeuvre.", "frame", ship=s.name)
    if "navigation" in s.catastrophes:
        return _no("void_d20.refused.navigation_dead", "{ship}'s navigation is dead: it cannot manoeuvre.", "catastrophe", ship=s.name)
    return _no("void_d20.refused.engines_jammed", "{ship}'s engines are jammed: it flies straight on.", "catastrophe", ship=s.name)


def _helm(state: VoidState, s: Ship, action: Action) -> Refusal | None:
    cannot = _no_manoeuvre(s)
    if cannot is not None or action.kind == "evade":
        return cannot
    t, why = _enemy_ship(state, s, action)
    if t is None:
        return why
    b = band(state, s.id, t.id)
    jammed = "docking" in s.catastrophes or "docking" in t.catastrophes
    if action.kind == "close":
        if b == "docked":
            return _no("void_d20.refused.already_docked", "{ship} and {target} are docked already.", "ranges", ship=s.name, target=t.name)
        if b == "close" and jammed:
            return _no("void_d20.refused.docking_jammed", "A docking module is jammed: {ship} and {target} cannot dock.",
                       "catastrophe", ship=s.name, target=t.name)
        return None
    if b == "docked" and jammed:
        return _no("void_d20.refused.docking_jammed_break", "A docking module is jammed: {ship} cannot break away from {target}.",
                   "catastrophe", ship=s.name, target=t.name)
    if b == "docked" and _boarding_under_way(state, s, t):
        return _no("void_d20.refused.boarders_across", "Nobody breaks away while people of {ship} or {target} are aboard the other.",
                   "house", ship=s.name, target=t.name)
    return None


def _scan(state: VoidState, s: Ship, action: Action) -> Refusal | None:
    no_power = _no_power(s)
    if no_power is not None:
        return no_power
    if not sensors_work(s):
        return _no("void_d20.refused.sensors_out", "{ship}'s sensors are knocked out.", "frame", ship=s.name)
    t, why = _enemy_ship(state, s, action)
    if t is None:
        return why
    if t.id in s.weakness:
        return _no("void_d20.refused.weakness_found", "{ship} has found {target}'s weakness already: it holds until the next shot.",
                   "house", ship=s.name, target=t.name)
    return None


def _fire(state: VoidState, s: Ship, action: Action) -> Refusal | None:
    weapon = next((w for w in s.weapons if w.id == action.get("weapon")), None)
    if weapon is None:
        return _no("void_d20.refused.no_such_weapon", "{ship} has no weapon {weapon} (its weapons are w1, w2... in the stats' order).",
                   "stations", ship=s.name, weapon=str(action.get("weapon")))
    no_power = _no_power(s)
    if no_power is not None:
        return no_power
    if weapon.out:
        return _no("void_d20.refused.weapon_out", "{ship}'s {weapon} is knocked out.", "frame", ship=s.name, weapon=weapon.name)
    t, why = _enemy_ship(state, s, action)
    if t is None:
        return why
    b = band(state, s.id, t.id)
    reaches = tables.BANDS[b].reaches
    if not reaches:
        return _no("void_d20.refused.docked_no_guns", "{ship} and {target} are docked: guns do not work.", "ranges",
                   ship=s.name, target=t.name)
    if weapon.reach not in reaches:
        return _no("void_d20.refused.out_of_range", "{target} is at {band}: {weapon} ({reach}) does not reach it; only {reaches} "
                   "weapons do.", "ranges", target=t.name, band=_band_word(b), weapon=weapon.name,
                   reach=cards.REACH.get(weapon.reach, weapon.reach), reaches=_reaches(reaches))
    return None


def _board(state: VoidState, s: Ship, action: Action) -> Refusal | None:
    t, why = _enemy_ship(state, s, action)
    if t is None:
        return why
    b = band(state, s.id, t.id)
    if b != "docked":
        return _no("void_d20.refused.not_docked", "Boarding needs the ships docked: {target} is at {band}.", "boarding",
                   target=t.name, band=_band_word(b))
    if not boarders(state, s):
        return _no("void_d20.refused.no_boarders", "Nobody aboard {ship} can go across (nobody leaves a ship being boarded).",
                   "boarding", ship=s.name)
    if action.get("method") == "open" and t.id not in s.breached:
        return _no("void_d20.refused.lock_shut", "{target}'s lock is not broken yet: force it (breach) or hack it first.",
                   "boarding", target=t.name)
    if action.get("method") in ("breach", "hack") and t.id in s.breached:
        return _no("void_d20.refused.lock_open", "{target}'s lock is broken already: go through it (open).", "boarding", target=t.name)
    return None


def _repair(state: VoidState, s: Ship, action: Action) -> Refusal | None:
    if s.reboot:
        return _no("void_d20.refused.repair_rebooting", "{ship}'s systems are rebooting ({rounds} rounds left): no repairs.",
                   "catastrophe", ship=s.name, rounds=s.reboot)
    if s.spare_parts <= 0:
        return _no("void_d20.refused.no_spare_parts", "{ship} has no spare parts left: a repair spends one.", "stations", ship=s.name)
    if action.get("what") not in repairable(s):
        return _no("void_d20.refused.nothing_to_repair", "{ship}'s {what} needs no repair.", "stations", ship=s.name,
                   what=_repair_words(str(action.get("what"))))
    return None


def _repair_words(what: str) -> Message | str:
    """What a repair names, in words: the frame, a module ("life support"); a weapon by its name."""
    if what == "frame":
        return msg("void_d20.refused.frame", "frame")
    return cards.MODULE.get(what, what)


_SHIP_KINDS: Final = {"command": _command, "close": _helm, "break": _helm, "evade": _helm, "scan": _scan,
                      "fire": _fire, "board": _board, "repair": _repair}


# --- personal rounds --------------------------------------------------------------------------


_CANNOT_ACT: Final = {
    "shock": ("void_d20.refused.cannot_act.shock", "{name} is in shock ({count}).", "death"),
    "unconscious": ("void_d20.refused.cannot_act.unconscious", "{name} is unconscious ({count}).", "death"),
    "bleeding": ("void_d20.refused.cannot_act.bleeding", "{name} is bleeding out ({count}).", "death"),
    "dead": ("void_d20.refused.cannot_act.dead", "{name} is dead.", "death"),
    "fled": ("void_d20.refused.cannot_act.fled", "{name} has fled or surrendered.", "morale"),
    "surrendered": ("void_d20.refused.cannot_act.surrendered", "{name} has surrendered.", "morale"),
}


def _cannot_act(state: VoidState, c: Combatant) -> Refusal:
    ident, text, section = _CANNOT_ACT[c.status]
    count = timers.words(state, c)
    if count is None:
        return _no(ident, text, section, name=c.name)
    return _no(ident, text, section, name=c.name, count=count)


def _personal_round(state: VoidState, action: Action) -> Refusal | None:
    kind = action.kind
    if kind not in PERSONAL_KINDS:
        where = ", ".join(s.name for s in state.ships if s.id in _contested(state))
        return _no("void_d20.refused.ships_wait", "The ships wait while a boarding fight goes on aboard {ships}.", "boarding",
                   ships=where)
    c = combatant(state, action.actor)
    if c.status != "ok":
        return _cannot_act(state, c)
    current = state.order[state.turn]
    if c.id != current:
        place = state.order.index(c.id) if c.id in state.order else None
        if place is not None and place < state.turn:
            return _no("void_d20.refused.third_action", "{name} has taken their turn this round: two actions a round (a move and an "
                       "action, two moves or two actions).", "round", name=c.name)
        if c.aboard not in _contested(state):
            return _no("void_d20.refused.no_fight_here", "{name} is in {ship}, where no fight is going on.", "boarding",
                       name=c.name, ship=ship(state, c.aboard).name)
        return _no("void_d20.refused.out_of_turn", "It is {active}'s turn.", "initiative", active=state.active)
    return _PERSON_KINDS[kind](state, c, action)


def _contested(state: VoidState) -> list[str]:
    from .turns import contested_ships      # turns imports options, which this module imports

    return contested_ships(state)


def _attack(state: VoidState, c: Combatant, action: Action) -> Refusal | None:
    if action.kind == "risky" and c.kind == "enemy":
        return _no("void_d20.refused.no_risky_enemy", "Enemies make no risky attacks.", "notes")
    if _flag(action, "void") and not _has_void(c):
        return _no_void(c)
    if not can_attack_from(c):
        return _no("void_d20.refused.from_full_cover", "{name} is in full cover: no attack from it (move out first).", "cover",
                   name=c.name)
    t = combatant(state, action.get("target"))
    if t.side == c.side:
        return _no("void_d20.refused.target_friend", "{target} is on {name}'s side.", "attack", target=t.name, name=c.name)
    if t.aboard != c.aboard:
        return _no("void_d20.refused.target_elsewhere", "{target} is not aboard {ship}.", "attack", target=t.name,
                   ship=ship(state, c.aboard).name)
    if not t.standing:
        return _no("void_d20.refused.target_down", "{target} is down already: not a target.", "death", target=t.name)
    if t.cover == "full":
        return _no("void_d20.refused.target_full_cover", "{target} is in full cover: no attack possible.", "cover", target=t.name)
    return None


def _medkit(state: VoidState, c: Combatant, action: Action) -> Refusal | None:
    kit = item_of(c, "medkit")
    if kit is None or kit.charges <= 0:
        return _no("void_d20.refused.no_medkit", "{name} has no medkit charge left.", "healing", name=c.name)
    t = combatant(state, action.get("target"))
    if t.side != c.side or t.aboard != c.aboard or t.kind != "character":
        return _no("void_d20.refused.medkit_out_of_reach", "{target} is not a friend aboard {ship} with {name}.", "healing",
                   target=t.name, ship=ship(state, c.aboard).name, name=c.name)
    if not t.alive:
        return _no("void_d20.refused.medkit_too_late", "{target} is beyond a medkit's help.", "healing", target=t.name)
    if t.hp >= t.max_hp and t.status != "bleeding":
        return _no("void_d20.refused.medkit_not_needed", "{target} has all their HP.", "healing", target=t.name)
    return None


def _cover(state: VoidState, c: Combatant, action: Action) -> Refusal | None:
    if action.get("level") == c.cover:
        return _no("void_d20.refused.cover_same", "{name} already has {cover}.", "cover", name=c.name,
                   cover=COVER_WORDS[c.cover])
    return None


_PERSON_KINDS: Final = {"attack": _attack, "risky": _attack, "medkit": _medkit, "cover": _cover,
                        "end": lambda state, c, action: None}
