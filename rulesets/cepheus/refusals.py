"""Why the rules refuse an action now: the reason in words and the rule that forbids it.

:meth:`engine.CepheusRuleset.refusal` (the core contract's ``refusal``) calls :func:`refusal` for an
action that ``is_legal`` refused.  Each reason asks the same predicates the action list asks
(:mod:`.actions`, :mod:`.queries`, :mod:`.attacks`' reactions), in the order a GM would look: which
step of the fight this is (initiative, a reaction, a range choice, a delay), whose ship's turn, can
this crew member act, is it their step, is it their position's action, have they an action of that
kind left, then what the action itself needs (the helm, the sensors, the turret, the range band, the
ammunition...).  A reason is a message (an id ``cepheus.refused.<what>``, its English text with
``{placeholders}``, the parameters: :mod:`rulesets.core.messages`) and the citation of the seed
section (:data:`.tables.SEC` and the other ``SEC_*`` citations).  None where no reason is found (the
core then says the action is not one the rules allow at this step).  Pure Python.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Final

from rulesets.core.engine import Action, Refusal
from rulesets.core.messages import Words, msg

from .actions import (
    can_exploit, can_plot_jump, can_pursue, helm_forced_to_avoid, leads_boarders, range_wants,
    smart_missiles_incoming,
)
from .crew import GUNNER_POSITIONS, POSITION_LABEL, able, crew_state
from .damage import destroyed_systems, repairable, system_label
from .queries import (
    GM, band_to, bridge_ok, eff_init, gunners_by_mount, jump_fuel, manned, personal_target,
    pilot_of, range_ok, role_active, sensors_ok, target_name, usable_weapons,
)
from .state import pair
from .words import either, listing
from .tables import (
    ATTACK_DIFFICULTY, BAND_LABEL, BANDS, COLLISION_SITUATIONS, LOCATION_SECTION, MISSILE_TURNS, SEC, SEC_ATTACK,
    SEC_CREW_DAMAGE, SEC_MISSILE_RANGE, SEC_REACTIONS, WEAPONS, reactions_for,
)

if TYPE_CHECKING:
    from .state import CombatState, Crew, Mount, Ship

#: the reactions (Reazioni) and what the summary table calls each
REACTIONS: Final = ("dodge", "sand", "point_defence", "screens", "no_reaction")

#: who takes each crew action (Tabella: Riepilogo delle azioni di combattimento spaziale; the Navigator:
#: RULES-NOTES); ``None``: anyone aboard but an automated position
WHO: Final[dict[str, tuple[str, ...] | None]] = {
    **{k: ("captain",) for k in ("coordinate", "increase_initiative", "exploit", "hasty", "delay", "assign")},
    **{k: ("pilot",) for k in ("evasive", "line_up", "pursue", "break_pursuit", "ram", "dock", "undock",
                               "avoid_collision", "orbit", "reentry", "adjust_speed", "maintain_course")},
    **{k: ("navigator",) for k in ("jump_plot", "range_check")},
    **{k: ("sensors",) for k in ("sensor_target", "jam", "intercept", "ew_missiles", "maintain_comms")},
    "attack": GUNNER_POSITIONS,
    "jump": ("engineer",),
    "repair": ("damage_control",), "overhaul": ("damage_control",),
    "board": ("security", "marine"),
    **{k: None for k in ("reload", "misc", "change_position", "personal")},
}

#: the actions that spend the significant action (Azioni significative) and the minor ones (Azioni minori)
SIGNIFICANT: Final = frozenset(k for k in WHO if k not in (
    "hasty", "delay", "assign", "adjust_speed", "maintain_course", "change_position", "personal"))
MINOR: Final = frozenset(("adjust_speed", "maintain_course", "change_position", "personal"))

#: the actions of a pilot that need a working bridge (Ponte, second hit)
HELM: Final = frozenset(k for k, who in WHO.items() if who == ("pilot",))
#: the sensor operator's actions, which need the bridge and the sensors (Ponte, Sensori)
SENSORS: Final = frozenset(k for k, who in WHO.items() if who == ("sensors",))

#: an action in words, for "that is the pilot's action"
ACTION_WORDS: Final = {
    "coordinate": msg("cepheus.refused.action.coordinate", "Coordinate crew"),
    "increase_initiative": msg("cepheus.refused.action.increase_initiative", "Increase initiative"),
    "exploit": msg("cepheus.refused.action.exploit", "Exploiting intercepts"),
    "hasty": msg("cepheus.refused.action.hasty", "Acting hastily"),
    "delay": msg("cepheus.refused.action.delay", "Delaying"),
    "assign": msg("cepheus.refused.action.assign", "Handing out coordination"),
    "evasive": msg("cepheus.refused.action.evasive", "Evasive manoeuvres"),
    "line_up": msg("cepheus.refused.action.line_up", "Lining up the shot"),
    "pursue": msg("cepheus.refused.action.pursue", "Pursuit"),
    "break_pursuit": msg("cepheus.refused.action.break_pursuit", "Breaking a pursuit"),
    "ram": msg("cepheus.refused.action.ram", "Ramming"),
    "dock": msg("cepheus.refused.action.dock", "Docking"),
    "undock": msg("cepheus.refused.action.undock", "Undocking"),
    "avoid_collision": msg("cepheus.refused.action.avoid_collision", "Avoiding collision"),
    "orbit": msg("cepheus.refused.action.orbit", "Orbit insertion"),
    "reentry": msg("cepheus.refused.action.reentry", "Re-entry"),
    "adjust_speed": msg("cepheus.refused.action.adjust_speed", "Adjusting speed"),
    "maintain_course": msg("cepheus.refused.action.maintain_course", "Maintaining course"),
    "jump_plot": msg("cepheus.refused.action.jump_plot", "A jump plot"),
    "range_check": msg("cepheus.refused.action.range_check", "A range check"),
    "sensor_target": msg("cepheus.refused.action.sensor_target", "Sensor targeting"),
    "jam": msg("cepheus.refused.action.jam", "Electronic warfare"),
    "intercept": msg("cepheus.refused.action.intercept", "Intercepting comms"),
    "ew_missiles": msg("cepheus.refused.action.ew_missiles", "Electronic warfare against missiles"),
    "maintain_comms": msg("cepheus.refused.action.maintain_comms", "Maintaining comms"),
    "attack": msg("cepheus.refused.action.attack", "An attack"),
    "jump": msg("cepheus.refused.action.jump", "The jump"),
    "repair": msg("cepheus.refused.action.repair", "A repair"),
    "overhaul": msg("cepheus.refused.action.overhaul", "An extended repair"),
    "board": msg("cepheus.refused.action.board", "Leading a boarding action"),
}

#: the screen an attack calls for (Schermi): a nuclear damper against fusion guns and nuclear missiles
SCREEN_WORDS: Final = {"damper": msg("cepheus.refused.screen.damper", "nuclear damper"),
                       "meson": msg("cepheus.refused.screen.meson", "meson screen")}

#: a jump drive out of action (Motore di salto: the second hit disables it, the third destroys it)
J_DRIVE_STATE: Final = {"disabled": msg("cepheus.refused.j_drive.disabled", "disabled"),
                        "destroyed": msg("cepheus.refused.j_drive.destroyed", "destroyed")}

#: the way a range check asks the band to go, in words ("there is no band closer")
RANGE_WANT: Final = {"closer": msg("cepheus.refused.want.closer", "closer"),
                     "farther": msg("cepheus.refused.want.farther", "farther")}

#: the status of a ship that takes no more actions, in words, and the rule that put it there
SHIP_OUT: Final = {
    "disabled": ("cepheus.refused.ship_disabled", "{ship} is disabled: it takes no more actions.", SEC["damage"]),
    "destroyed": ("cepheus.refused.ship_destroyed", "{ship} is destroyed.", SEC["damage"]),
    "escaped": ("cepheus.refused.ship_escaped", "{ship} has left the fight.", SEC["checklist"]),
    "boarded": ("cepheus.refused.ship_boarded", "{ship} has been boarded: the boarders take control of it.", SEC["abstract_boarding"]),
    "captured": ("cepheus.refused.ship_captured", "{ship} has been captured.", SEC["abstract_boarding"]),
}

#: a crew member who cannot act (characteristics at 0: RULES-NOTES and the crew damage table)
CREW_OUT: Final = {
    "unconscious": ("cepheus.refused.crew_unconscious", "{name} is unconscious: they take no actions."),
    "dead": ("cepheus.refused.crew_dead", "{name} is dead."),
}


def _no(ident: str, text: str, rule: str, **params) -> Refusal:
    return Refusal(msg(ident, text, **params), rule)


def _position(key: str) -> Words:
    return POSITION_LABEL.get(key, key)


def _band(key: str) -> Words:
    return BAND_LABEL.get(key, key)


def refusal(s: CombatState, action: Action) -> Refusal | None:
    if s.over:
        return None                                   # the core's "the fight is over"
    if action.kind == "override":
        return None if action.actor == GM else _no("cepheus.refused.gm_only", "Only the GM does that.", SEC["override"])
    phase = _PHASES.get(s.phase)
    return phase(s, action) if phase is not None else None


# --- the steps between the crews' actions --------------------------------------------------------------


def _initiative(s: CombatState, action: Action) -> Refusal | None:
    side = s.order[s.turn]
    roller = next(sh for sh in s.ships if sh.side == side)
    if action.kind == "initiative" and action.actor == roller.id:
        return None
    if action.kind != "initiative":
        return _no("cepheus.refused.not_begun", "Round {round} has not begun: each side rolls initiative first ({side} now).",
                   SEC["initiative"], round=s.round + 1, side=side)
    return _no("cepheus.refused.initiative_of", "It is {side}'s initiative roll: {ship} rolls it for its side.", SEC["initiative"],
               side=side, ship=roller.name)


def _delay(s: CombatState, action: Action) -> Refusal | None:
    ship = s.ship(s.waiting[s.asked])
    last = s.turn >= len(s.order)
    if action.kind not in ("act_now", "keep_waiting", "act_first") or action.actor != ship.id:
        return _no("cepheus.refused.delay_asked", "{ship} is delaying and is asked first: does it act now or keep waiting?",
                   SEC["delay"], ship=ship.name)
    if action.kind == "act_first":
        return _no("cepheus.refused.act_first_at_the_end", "{ship} may give up this round to act first next round only when the "
                   "round ends with it still delaying.", SEC["delay"], ship=ship.name)
    if action.kind == "keep_waiting" and last:
        return _no("cepheus.refused.round_ends", "The round is at its end: {ship} acts now, or acts first next round giving up "
                   "this round's actions.", SEC["delay"], ship=ship.name)
    return None


def _range(s: CombatState, action: Action) -> Refusal | None:
    p = s.pending
    assert p is not None  # the range phase waits on a pending range choice
    chooser = s.ship(p.chooser)
    if action.kind != "choose_range" or action.actor != chooser.id:
        return _no("cepheus.refused.range_choice", "{ship} won the range check: it chooses the range first.", SEC["range_check"],
                   ship=chooser.name)
    want = action.get("want")
    if want in ("closer", "farther") and not range_ok(s, p, want):
        return _no("cepheus.refused.range_end", "{ship} and {other} are at {band} already: there is no band {want}.",
                   SEC["range_check"], ship=s.ship(p.attacker).name, other=s.ship(p.target).name,
                   band=_band(s.band(p.attacker, p.target)), want=RANGE_WANT[want])
    return None


# --- reactions -------------------------------------------------------------------------------------------


def _react(s: CombatState, action: Action) -> Refusal | None:
    p = s.pending
    assert p is not None  # the react phase waits on a pending attack
    target = s.ship(p.target)
    kind = action.kind
    if kind not in REACTIONS:
        return _no("cepheus.refused.reaction_first", "{ship} answers the incoming attack first: a reaction, or no reaction.",
                   SEC["reactions"], ship=target.name)
    ship = target if action.actor == target.id else s.crew_ship(action.actor)
    if ship is None or ship.id != target.id or (kind == "no_reaction") != (action.actor == target.id):
        return _no("cepheus.refused.not_attacked", "Only {ship}, the ship attacked, answers this attack (no_reaction is said by "
                   "the ship, a reaction by the crew member who makes it).", SEC["reactions"], ship=target.name)
    if kind == "no_reaction":
        return None
    if target.reactions <= 0:
        init = eff_init(s, target)
        return _no("cepheus.refused.no_reactions", "{ship} has no reactions left this round (initiative {initiative}: {count} a "
                   "round).", SEC_REACTIONS, ship=target.name, initiative=init, count=reactions_for(init))
    c = target.member(action.actor)
    assert c is not None  # crew_ship found the ship by this member
    return _REACTION_KINDS[kind](s, p, target, c, action)


def _dodge(s: CombatState, p, target: Ship, c: Crew, action: Action) -> Refusal | None:
    if p.kind not in ("fire", "missiles"):
        return _no("cepheus.refused.dodge_boarders", "Boarders are not dodged: sand and point defence meet them.", SEC["reactions"])
    if "dodge" in p.used:
        return _no("cepheus.refused.dodged_already", "{ship} has dodged this attack already.", SEC["dodge"], ship=target.name)
    if not bridge_ok(target):
        return _bridge_out(target)
    pilot = pilot_of(target)
    if pilot is None:
        return _no("cepheus.refused.no_pilot", "Nobody is at {ship}'s helm to dodge.", SEC["dodge"], ship=target.name)
    if pilot.id != c.id:
        return _no("cepheus.refused.pilot_dodges", "The pilot dodges: {pilot} is {ship}'s pilot.", SEC["summary"],
                   pilot=pilot.name, ship=target.name)
    return None


def _turret_reaction(s: CombatState, p, target: Ship, c: Crew, action: Action) -> Refusal | None:
    kind = action.kind
    rule = SEC["sand"] if kind == "sand" else SEC["point_defence"]
    boarders = p.kind == "board" and pair(p.attacker, p.target) not in s.docked
    if kind == "sand":
        attacker = s.find_ship(p.attacker)
        fired_from = attacker.mount(p.mount) if attacker is not None and p.kind == "fire" else None
        beams = fired_from is not None and any(WEAPONS[fired_from.weapons[i].type].beam for i in p.weapons)
        if not (beams or boarders):
            return _no("cepheus.refused.sand_what", "Sand scatters only incoming beams (lasers) and boarders crossing open space.",
                       rule)
    elif not (p.kind == "missiles" or boarders):
        return _no("cepheus.refused.point_defence_what", "Point defence shoots only incoming missiles and boarders crossing open "
                   "space.", rule)
    mount = target.mount(action.get("mount"))
    if mount is None or mount.kind != "turret":
        return _no("cepheus.refused.turret_only", "Only a turret of {ship} does that.", rule, ship=target.name)
    out = _mount_out(target, mount)
    if out is not None:
        return out
    gunner = gunners_by_mount(target).get(mount.id)
    if gunner is None:
        return _no("cepheus.refused.unmanned", "Nobody mans {ship}'s {mount}.", SEC["positions"], ship=target.name,
                   mount=system_label(target, mount.id))
    if gunner.id != c.id:
        return _no("cepheus.refused.gunner_of", "{gunner} mans {mount}: each turret has its own gunner.", SEC["positions"],
                   gunner=gunner.name, mount=system_label(target, mount.id))
    if kind == "sand":
        casters = [w for w in mount.weapons if w.type == "sandcaster"]
        if not casters:
            return _no("cepheus.refused.no_sandcaster", "{mount} has no sandcaster.", rule, mount=system_label(target, mount.id))
        if not any(w.loaded > 0 for w in casters):
            return _no("cepheus.refused.no_sand", "The sandcaster in {mount} is empty: each burst costs a canister (reload it).", rule,
                       mount=system_label(target, mount.id))
    elif not any(w.type in ("pulse_laser", "beam_laser") for w in mount.weapons):
        return _no("cepheus.refused.no_laser", "{mount} has no laser: point defence is the turret lasers'.", rule,
                   mount=system_label(target, mount.id))
    if f"{'sand' if kind == 'sand' else 'pd'}:{mount.id}" in p.used:
        return _no("cepheus.refused.turret_reacted", "{mount} has answered this attack already.", rule,
                   mount=system_label(target, mount.id))
    return None


def _screens(s: CombatState, p, target: Ship, c: Crew, action: Action) -> Refusal | None:
    if "screens" in p.used:
        return _no("cepheus.refused.screens_up", "{ship}'s screens are up against this attack already.", SEC["screens"],
                   ship=target.name)
    heavy = ""
    attacker = s.find_ship(p.attacker)
    if p.kind == "fire" and attacker is not None and attacker.mount(p.mount) is not None:
        types = {attacker.mount(p.mount).weapons[i].type for i in p.weapons}
        heavy = "meson" if "meson_bay" in types else "damper" if types & {"fusion_gun", "fusion_bay"} else ""
    elif p.kind == "missiles":
        heavy = "damper" if any(m.kind == "nuclear" for m in s.missiles if m.id in p.missiles) else ""
    if not heavy:
        return _no("cepheus.refused.screens_what", "Screens stop only fusion guns and nuclear missiles (a nuclear damper) and meson "
                   "guns (a meson screen).", SEC["screens"])
    if not (target.nuclear_damper if heavy == "damper" else target.meson_screen):
        return _no("cepheus.refused.no_screen", "{ship} has no {screen}.", SEC["screens"], ship=target.name,
                   screen=SCREEN_WORDS[heavy])
    ops = [o for o in target.crew if (o.position == "captain" or o.position in GUNNER_POSITIONS)
           and "screens" in o.skills and able(o) and not o.automated]
    if not ops:
        return _no("cepheus.refused.no_screens_skill", "Nobody aboard {ship} can work the screens (a Captain or gunner with Screens).",
                   SEC["screens"], ship=target.name)
    op = max(ops, key=lambda o: o.skills["screens"])
    if op.id != c.id or action.get("screen") != heavy:
        return _no("cepheus.refused.screens_by", "{name} works {ship}'s screens (the best Screens skill aboard).", SEC["screens"],
                   name=op.name, ship=target.name)
    return None


_REACTION_KINDS: Final[dict[str, Callable]] = {"dodge": _dodge, "sand": _turret_reaction,
                                               "point_defence": _turret_reaction, "screens": _screens}


# --- a ship's turn: whose step ---------------------------------------------------------------------------


def _crew(s: CombatState, action: Action) -> Refusal | None:
    kind = action.kind
    now, current = s.actor()
    if now is None or current is None:
        return None
    if kind == "initiative":
        return _no("cepheus.refused.round_under_way", "Round {round} is under way: initiative is rolled at the start of a round.",
                   SEC["initiative"], round=s.round)
    if kind in REACTIONS:
        return _no("cepheus.refused.no_attack", "No attack waits for a reaction now: reactions answer an incoming attack.",
                   SEC["reactions"])
    if kind == "choose_range":
        return _no("cepheus.refused.no_range_choice", "No range check waits for a choice now.", SEC["range_check"])
    if kind in ("act_now", "keep_waiting", "act_first"):
        return _interruption(s, now, action)
    ship = s.crew_ship(action.actor)
    if ship is None:
        return None
    c = ship.member(action.actor)
    assert c is not None
    if ship.id != now.id:
        return _not_its_turn(s, ship, now)
    if not able(c):
        ident, text = CREW_OUT[crew_state(c)]
        return _no(ident, text, SEC_CREW_DAMAGE, name=c.name)
    if not role_active(ship, c):
        return _no("cepheus.refused.automated_stands_in", "{name} stands in only where no crew member holds the position.",
                   SEC["automated"], name=c.name)
    if c.id != current.id:
        return _not_their_step(s, ship, c, current)
    return _their_action(s, ship, c, action)


def _interruption(s: CombatState, now: Ship, action: Action) -> Refusal | None:
    ship = s.find_ship(action.actor)
    if action.kind != "act_now":
        return _no("cepheus.refused.not_asked", "Nobody is being asked about a delay now: a delaying ship is asked between two "
                   "ships' turns.", SEC["delay"])
    if ship is None:
        return None
    if ship.id not in s.waiting:
        return _no("cepheus.refused.not_delaying", "{ship} is not delaying: only a ship whose Captain delayed acts when it "
                   "chooses.", SEC["delay"], ship=ship.name)
    if ship.id == now.id or not ship.can_act:
        return _ship_out(ship) if not ship.can_act else None
    return None


def _ship_out(ship: Ship) -> Refusal | None:
    out = SHIP_OUT.get(ship.status)
    if out is None:
        return None
    ident, text, rule = out
    return _no(ident, text, rule, ship=ship.name)


def _not_its_turn(s: CombatState, ship: Ship, now: Ship) -> Refusal:
    if not ship.can_act:
        out = _ship_out(ship)
        if out is not None:
            return out
    if ship.id in s.waiting:
        return _no("cepheus.refused.delaying", "{ship} is delaying: it acts when its Captain says so (act now), then its crew act.",
                   SEC["delay"], ship=ship.name)
    place = s.order.index(ship.id) if ship.id in s.order else None
    if place is not None and place < s.turn:
        return _no("cepheus.refused.ship_acted", "{ship} has had its turn this round; it is {active}'s turn now.", SEC["turn"],
                   ship=ship.name, active=now.name)
    return _no("cepheus.refused.ship_later", "It is {active}'s turn; {ship} acts later in the initiative order.", SEC["turn"],
               ship=ship.name, active=now.name)


def _not_their_step(s: CombatState, ship: Ship, c: Crew, current: Crew) -> Refusal:
    place = s.queue.index(c.id) if c.id in s.queue else None
    params = dict(ship=ship.name, active=current.name, active_position=_position(current.position), name=c.name,
                  position=_position(c.position))
    if place is not None and place < s.pos:
        return _no("cepheus.refused.crew_acted", "It is {active}'s step ({active_position}) aboard {ship}; {name} ({position}) has "
                   "acted this turn.", SEC["turn"], **params)
    return _no("cepheus.refused.crew_later", "It is {active}'s step ({active_position}) aboard {ship}; {name} ({position}) acts "
               "later in the turn (the Captain first, then sensors, pilot, navigator, gunners, engineers, damage "
               "control, security, marines).", SEC["turn"], **params)


# --- the acting crew member: their position, their actions left, what the action needs ------------------


def _their_action(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    kind = action.kind
    if c.task is not None:
        if kind in ("continue_task", "abandon_task", "end_turn"):
            return None
        return _no("cepheus.refused.busy", "{name} is at work on an extended repair of {system} ({done}/{turns} turns): go on with "
                   "it or abandon it.", SEC["extended"], name=c.name, system=system_label(ship, c.task.system),
                   done=c.task.done, turns=c.task.turns)
    if kind in ("continue_task", "abandon_task"):
        return _no("cepheus.refused.no_task", "{name} has no extended task under way.", SEC["extended"], name=c.name)
    if kind in ("done", "end_turn") or kind not in WHO:
        return None
    who = WHO[kind]
    if who is not None and c.position not in who:
        return _no("cepheus.refused.not_their_position", "{action} is the {who}'s action; {name} is the {position}.", SEC["summary"],
                   action=ACTION_WORDS[kind], who=either(_position(w) for w in who), name=c.name,
                   position=_position(c.position))
    if who is None and c.automated:
        return _no("cepheus.refused.automated", "{name} is an automated position: it does only its position's work.",
                   SEC["automated"], name=c.name)
    if kind in SIGNIFICANT and s.sig <= 0:
        return _no("cepheus.refused.no_significant", "{name} has used their significant action this turn (or three minor actions in "
                   "its place).", SEC["significant"], name=c.name)
    if kind in MINOR and s.minor <= 0 and s.sig <= 0:
        return _no("cepheus.refused.no_minor", "{name} has no minor action left this turn.", SEC["minor"], name=c.name)
    if kind in HELM and not bridge_ok(ship):
        return _bridge_out(ship)
    if kind in SENSORS:
        blind = _sensors_out(ship)
        if blind is not None:
            return blind
    check = _CREW_KINDS.get(kind)
    return check(s, ship, c, action) if check is not None else None


def _bridge_out(ship: Ship) -> Refusal:
    return _no("cepheus.refused.bridge_out", "{ship}'s bridge is disabled: no pilot or sensor actions and no jump until it is "
               "repaired.", LOCATION_SECTION["bridge"], ship=ship.name)


def _sensors_out(ship: Ship) -> Refusal | None:
    if not bridge_ok(ship):
        return _bridge_out(ship)
    if not sensors_ok(ship):
        return _no("cepheus.refused.sensors_out", "{ship}'s sensors are disabled: no Comms checks to use them.",
                   LOCATION_SECTION["sensors"], ship=ship.name)
    return None


def _mount_out(ship: Ship, mount: Mount) -> Refusal | None:
    if mount.hits >= 3:
        return _no("cepheus.refused.mount_destroyed", "{ship}'s {mount} is destroyed, with every weapon in it.",
                   LOCATION_SECTION[mount.kind], ship=ship.name, mount=system_label(ship, mount.id))
    if mount.hits >= 2:
        return _no("cepheus.refused.mount_disabled", "{ship}'s {mount} is disabled, with every weapon in it, until it is repaired.",
                   LOCATION_SECTION[mount.kind], ship=ship.name, mount=system_label(ship, mount.id))
    return None


def _no_mount(ship: Ship, action: Action) -> Refusal:
    return _no("cepheus.refused.no_mount", "{ship} has no turret or bay {mount}.", SEC["positions"], ship=ship.name,
               mount=str(action.get("mount")))


def _enemy(s: CombatState, ship: Ship, action: Action, rule: str) -> tuple[Ship | None, Refusal | None]:
    """The enemy ship the action names, or why it is not one (None, None: no such ship)."""
    target = s.find_ship(action.get("target"))
    if target is None:
        return None, None
    if target.id == ship.id:
        return None, _no("cepheus.refused.itself", "That is {ship} itself: name an enemy ship.", rule, ship=ship.name)
    if target.side == ship.side:
        return None, _no("cepheus.refused.not_an_enemy", "{target} is on {ship}'s side.", rule, target=target.name, ship=ship.name)
    if not target.alive:
        return None, _ship_out(target) or _no("cepheus.refused.target_gone", "{target} is out of the fight.", rule,
                                              target=target.name)
    return target, None


# the Captain


def _fresh(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    kind = action.kind
    rule = SEC["hasty"] if kind == "hasty" else SEC["delay"]
    if kind == "hasty" and not s.options.hasty:
        return _no("cepheus.refused.hasty_off", "Acting hastily is switched off for this encounter.", rule)
    if kind == "hasty" and ship.hasty:
        return _no("cepheus.refused.hasty_already", "{ship}'s crew acts hastily already this turn.", rule, ship=ship.name)
    if kind == "delay" and ship.delayed:
        return _no("cepheus.refused.delayed_already", "{ship} has delayed once this round: now that it acts, it acts.", rule,
                   ship=ship.name)
    if not (s.pos == 0 and s.sig > 0 and s.minor >= 1 and not ship.hasty):
        return _no("cepheus.refused.declare_first", "The Captain declares this at the start of {ship}'s turn, before acting.", rule,
                   ship=ship.name)
    return None


def _assign(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    if ship.pool <= 0:
        return _no("cepheus.refused.no_pool", "{name} has no coordination points to hand out (coordinate the crew first).",
                   SEC["coordinate"], name=c.name)
    other = ship.member(action.get("crew"))
    if other is None:
        return _no("cepheus.refused.not_aboard", "Coordination goes to a crew member aboard {ship}.", SEC["coordinate"],
                   ship=ship.name)
    if other.id == c.id or other.automated or not able(other):
        return _no("cepheus.refused.assign_to", "Coordination goes to another crew member who can act: not {name}.",
                   SEC["coordinate"], name=other.name)
    return None


def _exploit(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    if can_exploit(s, ship):
        return None
    if ship.jammed:
        return _no("cepheus.refused.comms_jammed", "{ship}'s comms are jammed: restore them first (maintain comms).", SEC["ew"],
                   ship=ship.name)
    return _no("cepheus.refused.nothing_intercepted", "{ship} has no intercepted enemy traffic to exploit (the sensor operator "
               "intercepts it first).", SEC["intercept"], ship=ship.name)


# the pilot


def _helm(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    kind = action.kind
    hazard = COLLISION_SITUATIONS[s.options.hazard]
    if kind == "avoid_collision":
        if not hazard[1]:
            return _no("cepheus.refused.no_hazard", "There is no hazard to avoid here.", SEC["avoid_collision"])
        return None
    if helm_forced_to_avoid(s, ship):
        return _no("cepheus.refused.must_avoid", "{ship} is in {hazard} at speed {speed}: its pilot avoids collision this turn first.",
                   SEC["avoid_collision"], ship=ship.name, hazard=hazard[0], speed=ship.speed)
    if kind in ("evasive", "line_up"):
        return None
    if kind in ("orbit", "reentry"):
        return _planet(s, ship, kind)
    if kind in ("dock", "undock"):
        return _dock(s, ship, action)
    target, why = _enemy(s, ship, action, SEC[kind])
    if target is None:
        return why
    band = s.band(ship.id, target.id)
    if kind == "pursue" and not can_pursue(s, ship, target):
        return _no("cepheus.refused.pursue_how", "A pursuit starts at Adjacent or Close at the same speed: {target} is at {band}, "
                   "speed {their_speed} against {speed}.", SEC["pursue"], target=target.name, band=_band(band),
                   their_speed=target.speed, speed=ship.speed)
    if kind == "break_pursuit" and target.pursuing != ship.id:
        return _no("cepheus.refused.not_pursued", "{target} is not pursuing {ship}.", SEC["break_pursuit"], target=target.name,
                   ship=ship.name)
    if kind == "ram" and not (band == "close" and ship.speed > target.speed):
        return _no("cepheus.refused.ram_how", "A ram needs Close range and more speed than the target: {target} is at {band}, speed "
                   "{their_speed} against {speed}.", SEC["ram"], target=target.name, band=_band(band),
                   their_speed=target.speed, speed=ship.speed)
    return None


def _planet(s: CombatState, ship: Ship, kind: str) -> Refusal | None:
    if not s.options.planet:
        return _no("cepheus.refused.no_planet", "There is no world near this fight.", SEC["planetary"])
    if kind == "orbit" and ship.position not in ("space", "decaying"):
        return _no("cepheus.refused.in_orbit", "{ship} is in a stable orbit already.", SEC["planetary"], ship=ship.name)
    if kind == "reentry" and ship.position not in ("orbit", "decaying"):
        return _no("cepheus.refused.orbit_first", "{ship} enters orbit before a re-entry.", SEC["planetary"], ship=ship.name)
    return None


def _dock(s: CombatState, ship: Ship, action: Action) -> Refusal | None:
    other = s.find_ship(action.get("target"))
    if other is None or other.id == ship.id:
        return None
    if not other.alive:
        return _ship_out(other)
    band = s.band(ship.id, other.id)
    if band != "adjacent":
        return _no("cepheus.refused.dock_adjacent", "Docking needs Adjacent range: {target} is at {band}.", SEC["dock"],
                   target=other.name, band=_band(band))
    docked = pair(ship.id, other.id) in s.docked
    if action.kind == "dock" and docked:
        return _no("cepheus.refused.docked_already", "{ship} and {target} are docked already.", SEC["dock"], ship=ship.name,
                   target=other.name)
    if action.kind == "undock" and not docked:
        return _no("cepheus.refused.not_docked", "{ship} and {target} are not docked.", SEC["dock"], ship=ship.name, target=other.name)
    return None


def _adjust_speed(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    speed = int(action.get("speed"))
    lo, hi = max(0, ship.speed - ship.thrust), min(30, ship.speed + ship.thrust)
    if speed == ship.speed:
        return _no("cepheus.refused.same_speed", "{ship} flies at speed {speed} already (that is maintaining course).",
                   SEC["adjust_speed"], ship=ship.name, speed=speed)
    if not lo <= speed <= hi:
        return _no("cepheus.refused.beyond_thrust", "{ship}'s Thrust is {thrust}: from speed {speed} it changes to {low}-{high} at "
                   "most this turn.", SEC["adjust_speed"], ship=ship.name, thrust=ship.thrust, speed=ship.speed,
                   low=lo, high=hi)
    return None


# the navigator


def _jump_plot(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    if can_plot_jump(ship):
        return None
    if ship.jump <= 0:
        return _no("cepheus.refused.no_jump_drive", "{ship} has no jump drive.", SEC["jump_plot"], ship=ship.name)
    return _no("cepheus.refused.plotted_already", "{ship} has a jump plotted already: its engineer jumps.", SEC["jump_plot"],
               ship=ship.name)


def _range_check(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    target, why = _enemy(s, ship, action, SEC["range_check"])
    if target is None:
        return why
    want = action.get("want")
    if want in ("closer", "farther") and want not in range_wants(s, ship, target):
        return _no("cepheus.refused.range_end_check", "{ship} and {target} are at {band} already: there is no band {want}.",
                   SEC["range_check"], ship=ship.name, target=target.name, band=_band(s.band(ship.id, target.id)),
                   want=RANGE_WANT[want])
    return None


# the sensor operator


def _sensors(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    kind = action.kind
    if kind == "maintain_comms":
        return None
    if kind == "ew_missiles":
        if smart_missiles_incoming(s, ship):
            return None
        return _no("cepheus.refused.no_smart_missiles", "No smart missile is coming at {ship}.", SEC["ew"], ship=ship.name)
    rule = {"sensor_target": SEC["sensor_targeting"], "jam": SEC["ew"], "intercept": SEC["intercept"]}[kind]
    target, why = _enemy(s, ship, action, rule)
    if target is None:
        return why
    if kind == "sensor_target" and ship.jammed:
        return _no("cepheus.refused.sensors_jammed", "{ship}'s comms and sensor locks are jammed: restore them first (maintain "
                   "comms).", SEC["ew"], ship=ship.name)
    if kind == "intercept" and sum(1 for o in s.ships if o.side == target.side and o.alive) <= 1:
        return _no("cepheus.refused.no_traffic", "{target} flies alone: there is no fleet traffic to intercept.", SEC["intercept"],
                   target=target.name)
    return None


# the gunners


def _attack(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    mount = ship.mount(action.get("mount"))
    if mount is None:
        return _no_mount(ship, action)
    if mount.id != c.station:
        station = ship.mount(c.station)
        return _no("cepheus.refused.not_their_mount", "{name} mans {station}: each turret and each bay has its own gunner.",
                   SEC["positions"], name=c.name,
                   station=system_label(ship, station.id) if station is not None
                   else msg("cepheus.refused.no_station", "no turret or bay"))
    out = _mount_out(ship, mount)
    if out is not None:
        return out
    if mount.id in ship.fired:
        return _no("cepheus.refused.fired_already", "{mount} has fired this round: each turret or bay fires only once per round.",
                   SEC["attack"], mount=system_label(ship, mount.id))
    target_id = action.get("target")
    person = personal_target(s, target_id)
    if person is not None:
        if person.side == ship.side:
            return _no("cepheus.refused.not_an_enemy", "{target} is on {ship}'s side.", SEC["attack"], target=person.name,
                       ship=ship.name)
    else:
        target, why = _enemy(s, ship, action, SEC["attack"])
        if target is None:
            return why
    band = band_to(s, ship, target_id)
    if not sensors_ok(ship) and band != "adjacent":
        return _no("cepheus.refused.blind", "{ship}'s sensors are disabled: no attacks beyond Adjacent ({target} is at {band}).",
                   LOCATION_SECTION["sensors"], ship=ship.name, target=target_name(s, target_id), band=_band(band))
    usable = usable_weapons(s, ship, mount, band, person is not None)
    which = action.get("weapon", "all")
    if which == "all":
        if len(usable) > 1:
            return None
        if len(usable) == 1:
            return _no("cepheus.refused.one_weapon", "Only the {weapon} of {mount} can fire at {target}: name it (weapon={index}).",
                       SEC["attack"], weapon=WEAPONS[mount.weapons[usable[0]].type].name,
                       mount=system_label(ship, mount.id), target=target_name(s, target_id), index=usable[0])
        return _weapon_cannot(s, ship, mount, 0, band)
    i = int(which)
    if not 0 <= i < len(mount.weapons):
        return _no("cepheus.refused.no_weapon", "{mount} has no weapon {index} (its weapons are 0 to {last}).", SEC["attack"],
                   mount=system_label(ship, mount.id), index=i, last=len(mount.weapons) - 1)
    return None if i in usable else _weapon_cannot(s, ship, mount, i, band)


def _weapon_cannot(s: CombatState, ship: Ship, mount: Mount, i: int, band: str) -> Refusal | None:
    """Why weapon ``i`` of ``mount`` cannot fire at ``band`` (:func:`.queries.usable_weapons`)."""
    w = mount.weapons[i]
    kind = WEAPONS[w.type]
    if kind.ammo and w.loaded <= 0:
        where = dict(weapon=kind.name, mount=system_label(ship, mount.id), reserve=w.reserve)
        if kind.missile:
            return _no("cepheus.refused.no_missiles", "The {weapon} in {mount} has no missiles left loaded ({reserve} in "
                       "store: reload it).", SEC["missiles"], **where)
        return _no("cepheus.refused.no_sand", "The {weapon} in {mount} has no sand left loaded ({reserve} in store: "
                   "reload it).", SEC["sand"], **where)
    if kind.missile:
        if MISSILE_TURNS[band] is None:
            return _no("cepheus.refused.missile_range", "Missiles cannot be launched at Adjacent or Close range: the target is at "
                       "{band}.", SEC_MISSILE_RANGE, band=_band(band))
        return None
    if ATTACK_DIFFICULTY[kind.row][band] is None:
        reach = [b for b in BANDS if ATTACK_DIFFICULTY[kind.row][b] is not None]
        return _no("cepheus.refused.out_of_reach", "The {weapon} cannot fire at {band}: it reaches {reach} only.", SEC_ATTACK,
                   weapon=kind.name, band=_band(band), reach=listing(_band(b) for b in reach))
    return None


# the engineers and damage control


def _jump(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    if ship.jump <= 0:
        return _no("cepheus.refused.no_jump_drive", "{ship} has no jump drive.", SEC["jump_plot"], ship=ship.name)
    if not ship.jump_plotted:
        return _no("cepheus.refused.no_plot", "{ship} has no jump plotted: the navigator plots it first.", SEC["jump_plot"],
                   ship=ship.name)
    if ship.hits.get("j_drive", 0) >= 2:
        return _no("cepheus.refused.j_drive_out", "{ship}'s jump drive is {state}.", LOCATION_SECTION["j_drive"], ship=ship.name,
                   state=J_DRIVE_STATE["destroyed" if ship.hits.get("j_drive", 0) >= 3 else "disabled"])
    if not bridge_ok(ship):
        return _bridge_out(ship)
    if ship.fuel < jump_fuel(ship):
        return _no("cepheus.refused.no_fuel", "{ship} has {fuel} tons of fuel: a jump-1 needs {need}.", SEC["jump_plot"],
                   ship=ship.name, fuel=ship.fuel, need=jump_fuel(ship))
    if any(ship.id in p.split("|") for p in s.docked):
        return _no("cepheus.refused.jump_docked", "{ship} is docked: it casts off before it jumps.", SEC["dock"], ship=ship.name)
    return None


def _repair(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    system = action.get("system")
    label = system_label(ship, system)
    if action.kind == "repair":
        if system in repairable(ship):
            return None
        if system in destroyed_systems(ship):
            return _no("cepheus.refused.destroyed_system", "{system} is destroyed: only an extended repair (overhaul) rebuilds it.",
                       SEC["extended"], system=label)
        return _no("cepheus.refused.not_damaged", "{system} is not damaged.", SEC["repair"], system=label)
    if c.automated:
        return _no("cepheus.refused.drones_no_overhaul", "Repair drones make repair checks only, not an extended repair.",
                   SEC["automated"])
    if system in destroyed_systems(ship):
        return None
    return _no("cepheus.refused.not_destroyed", "{system} is not destroyed: an extended repair rebuilds only a destroyed system.",
               SEC["extended"], system=label)


# security and marines


def _board(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    if not leads_boarders(ship, c):
        chief = next(o for o in ship.crew if o.position == "security" and able(o))
        return _no("cepheus.refused.security_leads", "{chief}, the chief security officer, leads the boarders.", SEC["positions"],
                   chief=chief.name)
    target, why = _enemy(s, ship, action, SEC["boarding"])
    if target is None:
        return why
    band = s.band(ship.id, target.id)
    if band != "adjacent":
        return _no("cepheus.refused.board_adjacent", "Boarding needs Adjacent range: {target} is at {band}.", SEC["boarding"],
                   target=target.name, band=_band(band))
    return None


# anyone


def _reload(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    mount = ship.mount(action.get("mount"))
    if mount is None:
        return _no_mount(ship, action)
    out = _mount_out(ship, mount)
    if out is not None:
        return out
    i = int(action.get("weapon"))
    if not 0 <= i < len(mount.weapons):
        return None
    w = mount.weapons[i]
    kind = WEAPONS[w.type]
    label = system_label(ship, mount.id)
    if not kind.ammo:
        return _no("cepheus.refused.no_ammo_weapon", "The {weapon} in {mount} takes no ammunition.", SEC["reload"], weapon=kind.name,
                   mount=label)
    if w.loaded > 0:
        return _no("cepheus.refused.not_exhausted", "The {weapon} in {mount} still has {loaded} loaded: a reload fills an exhausted "
                   "one.", SEC["reload"], weapon=kind.name, mount=label, loaded=w.loaded)
    if w.reserve <= 0:
        return _no("cepheus.refused.no_reserve", "There is nothing left in store to reload the {weapon} in {mount}.", SEC["reload"],
                   weapon=kind.name, mount=label)
    return None


def _change_position(s: CombatState, ship: Ship, c: Crew, action: Action) -> Refusal | None:
    key = action.get("position")
    if key not in POSITION_LABEL:
        return None
    if key in GUNNER_POSITIONS:
        mount = ship.mount(action.get("station"))
        if mount is None:
            return _no("cepheus.refused.gunner_station", "A gunner takes up a turret or a bay: name it (station=t1, b1...).",
                       SEC["positions"])
        label = system_label(ship, mount.id)
        if mount.id == c.station:
            return _no("cepheus.refused.same_station", "{name} mans {mount} already.", SEC["change_position"], name=c.name,
                       mount=label)
        holder = manned(ship, mount.id)
        if holder is not None and not holder.automated:
            return _no("cepheus.refused.station_manned", "{holder} mans {mount}: each turret and each bay has its own gunner.",
                       SEC["positions"], holder=holder.name, mount=label)
        want = "bay_gunner" if mount.kind == "bay" else "turret_gunner"
        if key != want:
            return _no("cepheus.refused.gunner_kind", "{mount} is taken up as a {position}.", SEC["positions"], mount=label,
                       position=_position(want))
        return None
    if key == c.position:
        return _no("cepheus.refused.same_position", "{name} is the {position} already.", SEC["change_position"], name=c.name,
                   position=_position(key))
    pilot = next((o for o in ship.crew if o.position == "pilot" and able(o) and not o.automated and o.id != c.id),
                 None)
    if key == "pilot" and pilot is not None:
        return _no("cepheus.refused.one_pilot", "{ship} has a pilot already ({pilot}): there can be only one.", SEC["positions"],
                   ship=ship.name, pilot=pilot.name)
    return None


_CREW_KINDS: Final[dict[str, Callable]] = {
    "hasty": _fresh, "delay": _fresh, "assign": _assign, "exploit": _exploit,
    **{k: _helm for k in ("pursue", "break_pursuit", "ram", "dock", "undock", "avoid_collision", "orbit", "reentry",
                          "evasive", "line_up")},
    "adjust_speed": _adjust_speed, "jump_plot": _jump_plot, "range_check": _range_check,
    **{k: _sensors for k in SENSORS},
    "attack": _attack, "jump": _jump, "repair": _repair, "overhaul": _repair, "board": _board,
    "reload": _reload, "change_position": _change_position,
}

_PHASES: Final[dict[str, Callable]] = {"initiative": _initiative, "delay": _delay, "range": _range, "react": _react,
                                       "crew": _crew}
