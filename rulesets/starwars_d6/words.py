"""What the engine says in words besides the log: an action's label (``describe``), a ship's
state on its card, its crew in a line, a shot on the board and the course a click on the board
flies -- each a message (:mod:`rulesets.core.messages`), rendered when somebody reads it.
Pure Python: no Django import.
"""
from __future__ import annotations

from rulesets.core.engine import Action
from rulesets.core.messages import Message, msg, msgn

from . import hexes, rules, tables
from .state import PHASE_WORDS


def crew_summary(sh: rules.Ship) -> Message:
    return msg("starwars_d6.card.crew", "{ship} crew: gunnery {gunnery}, piloting {piloting}, shields {shields}",
               ship=sh.name, gunnery=sh.crew.gunnery, piloting=sh.crew.piloting, shields=sh.crew.shields)


def ship_status(sh: rules.Ship, rnd: int) -> Message:
    """The ship's state in a few words, for its card."""
    if sh.destroyed:
        return msg("starwars_d6.status.destroyed", "destroyed")
    if sh.escaped:
        return msg("starwars_d6.status.jumped", "jumped to hyperspace")
    if sh.evacuated:
        return msg("starwars_d6.status.abandoned", "abandoned")
    if sh.off_board:
        return msg("starwars_d6.status.off_board", "left the board")
    if rules.controls_dead(sh, rnd):
        return msg("starwars_d6.status.controls_dead", "controls dead")
    if sh.captured_by:
        return msg("starwars_d6.status.held", "held by a tractor beam")
    if sh.dead_in_space:
        return msg("starwars_d6.status.dead_in_space", "dead in space")
    if sh.generator_shutdown:
        return msg("starwars_d6.status.shutdown", "generator shut down")
    if sh.generator_overload_round is not None:
        return msg("starwars_d6.status.overload", "generator overload (explodes end of round {round})",
                   round=sh.generator_overload_round)
    if sh.structural_round is not None:
        return msg("starwars_d6.status.breaking_up", "breaking up (end of round {round})", round=sh.structural_round)
    if sh.severe:
        return msg("starwars_d6.status.severe", "severely damaged")
    return msg("starwars_d6.status.in_play", "in play")


#: a phase as a header names it ("Round 2 · movement phase")
PHASE = {"initiative": msg("starwars_d6.phase.initiative", "initiative"), **PHASE_WORDS}

#: a ship's scale on its card's tag ("starfighter")
SCALE = {tables.STARFIGHTER: msg("starwars_d6.card.scale.starfighter", "starfighter"),
         tables.CAPITAL: msg("starwars_d6.card.scale.capital", "capital"),
         tables.DEATH_STAR: msg("starwars_d6.card.scale.death_star", "death_star")}

#: a planet, moon or obstacle on the board (its title)
FEATURE = {"planet": msg("starwars_d6.board.feature.planet", "planet"),
           "moon": msg("starwars_d6.board.feature.moon", "moon"),
           "obstacle": msg("starwars_d6.board.feature.obstacle", "obstacle")}

#: the damage a ship carries, on its card: the damage bands, the tables' results and the ion cannon's
DAMAGE = {**tables.DAMAGE_WORDS, **tables.RESULT_WORDS,
          "shields_blown": msg("starwars_d6.card.damage.shields_blown", "Shields blown"),
          "controls_ionised": msg("starwars_d6.card.damage.controls_ionised", "Controls ionised"),
          "controls_destroyed": msg("starwars_d6.card.damage.controls_destroyed", "Controls destroyed")}

#: a ship's facts as the other ships' cards name them (encounters/templatetags/words.facts)
FACT_LABELS = {
    "scale": msg("starwars_d6.fact.scale", "Scale"),
    "facing": msg("starwars_d6.fact.facing", "Facing"),
    "speed": msg("starwars_d6.fact.speed", "Speed"),
    "maneuverability": msg("starwars_d6.fact.maneuverability", "Maneuverability"),
    "hull": msg("starwars_d6.fact.hull", "Hull"),
    "shields": msg("starwars_d6.fact.shields", "Shields"),
    "hyperdrive": msg("starwars_d6.fact.hyperdrive", "Hyperdrive"),
    "in_play": msg("starwars_d6.fact.in_play", "In play"),
    "destroyed": msg("starwars_d6.fact.destroyed", "Destroyed"),
    "damage": msg("starwars_d6.fact.damage", "Damage"),
    "weapons": msg("starwars_d6.fact.weapons", "Weapons"),
    "crew": msg("starwars_d6.fact.crew", "Crew"),
}


def shot_label(s: rules.CombatState, shot: rules.Shot, *, with_result: bool) -> Message:
    """A shot of this firing phase on the board: who at whom (and, for the GM, whether it hit)."""
    words = dict(ship=s.ship(shot.attacker).name, target=s.ship(shot.target).name)
    if not with_result:
        return msg("starwars_d6.board.shot", "{ship} → {target}", **words)
    if shot.hit:
        return msg("starwars_d6.board.shot_hit", "{ship} → {target}: hit", **words)
    return msg("starwars_d6.board.shot_miss", "{ship} → {target}: miss", **words)


def course_line(who: str, col: int, row: int, moves: int, after: hexes.MoveState) -> Message:
    """The log line of a course (a click on the board): where to, in how many moves, what is left."""
    return msg("starwars_d6.log.course", "{ship} flies to {col},{row}: {moves}, {speed} and {free} left.", ship=who,
               col=col, row=row, moves=msgn("starwars_d6.words.moves", "{count} move", "{count} moves", moves),
               speed=msgn("starwars_d6.words.speed_points", "{count} speed point", "{count} speed points",
                          after.speed_left),
               free=hexes.free_turns(after.free_turns_left))


#: the actions that name only the ship that takes them
_PLAIN = {
    "drift": msg("starwars_d6.action.drift", "{ship} drifts"),
    "done": msg("starwars_d6.action.done", "{ship} stops firing"),
    "jump": msg("starwars_d6.action.jump", "{ship} jumps to hyperspace"),
    "shutdown": msg("starwars_d6.action.shutdown", "{ship} shuts down its generator (auxiliary batteries)"),
    "evacuate": msg("starwars_d6.action.evacuate", "{ship}: the crew abandons ship"),
    "break_free": msg("starwars_d6.action.break_free", "{ship} tries to break free of the tractor beam"),
}


def describe(s: rules.CombatState, action: Action) -> Message | str:
    """An action's label (its button): what it does, with its cost where it has one."""
    kind = action.kind
    if kind == "initiative":
        return msg("starwars_d6.action.initiative", "Roll initiative")
    if kind == "resolve":
        return msg("starwars_d6.action.resolve", "Apply the damage of the firing phase")
    if kind == "override":
        return msg("starwars_d6.action.override", "GM override")
    who = s.ship(action.actor).name if action.actor else msg("starwars_d6.words.gm", "GM")
    if kind == "course":
        return msg("starwars_d6.action.course", "{ship}: move to {col},{row}", ship=who, col=action.get("col"),
                   row=action.get("row"))
    if kind == "move":   # with its cost and what is left, e.g. "Talon: slide left: 2 points, 5 left"
        how, side = action.get("how"), action.get("side")
        m = next((m for m in rules.move_options(s) if (m.kind, m.side) == (how, side)), None)
        return msg("starwars_d6.action.move", "{ship}: {move}", ship=who,
                   move=m.label if m is not None else hexes.move_name(how, side))
    if kind == "fire":
        shooter = s.ship(action.actor)
        w = next(w for w in shooter.weapons if w.id == action.get("weapon"))
        words = dict(ship=who, weapon=w.name, target=s.ship(action.get("target")).name)
        if w.shots <= 1:
            return msg("starwars_d6.action.fire", "{ship} fires {weapon} at {target}", **words)
        left = rules.guns_left(s, shooter, w)
        guns = action.get("guns") or left
        if left == 1:
            return msg("starwars_d6.action.fire_last_gun", "{ship} fires {weapon} at {target}: its last gun", **words)
        if guns == left:
            return msg("starwars_d6.action.broadside_all", "{ship} fires {weapon} at {target}: a broadside of all its "
                       "{left} guns left", left=left, **words)
        return msg("starwars_d6.action.broadside", "{ship} fires {weapon} at {target}: a broadside of {guns} of its "
                   "{left} guns left", guns=guns, left=left, **words)
    if kind == "ram":
        return msg("starwars_d6.action.ram", "{ship} rams {target}", ship=who, target=s.ship(action.get("target")).name)
    if kind in _PLAIN:
        return _PLAIN[kind].with_params(ship=who)
    return action.to_str()
