"""Dropfleet Commander on a table in inches with orbital layers: the ruleset object.

The contract (rulesets/core/contract.py) over the rules modules: ``damage`` (seed steps 4-7,
crippling, catastrophic damage, the End phase), ``sequence`` (activations, orders, moves,
fire), ``odds``, ``policy``, ``override``, ``fleets``.  Pure Python: no Django import.
"""
from __future__ import annotations

import copy

import random

from rulesets.core.contract import BattleOutcome, RulesetBase, SideResult
from rulesets.core.dice import Dice
from rulesets.core.engine import Action, IllegalAction, Log, Odds, Refusal, Step, Viewer
from rulesets.core.messages import Message, msg, msgn, render
from rulesets.core.spec import sides_in_order
from rulesets.core.state import clone

from . import damage as damage_rules
from . import fleets
from . import geometry
from . import odds as odds_rules
from . import override
from . import refusals
from . import policy as bot
from . import sequence
from . import ships as ship_rules
from . import tables, terms
from . import words as view_words
from .state import Declared, DropfleetState, Effect, Ship, profile_from_stats

KINDS = ("order", "move", "manoeuvre", "stay", "fire", "open_fire", "spend_pd", "end_round", "override")


class DropfleetRuleset(RulesetBase):
    key = "dropfleet"
    name = "Dropfleet Commander"
    source_language = "es"  # the seed: shared/seeds/*.es.txt
    state_class = DropfleetState
    step_limit = 3000
    strength_label = "Hull left"
    free_params = ()
    board_kinds = ("move",)
    wide_board = True
    override_help = override.HELP

    # --- setting up --------------------------------------------------------------------

    def setup(self, spec: dict) -> DropfleetState:
        options = spec.get("options") or {}
        width, height = int(options.get("width", 48)), int(options.get("height", 48))
        separation = int(options.get("separation", 24))
        layers = options.get("layers", "high")
        placements = options.get("placements") or {}
        sides = tuple(sides_in_order(spec["ships"]))
        ships = []
        per_side: dict[str, list] = {}
        for entry in spec["ships"]:
            per_side.setdefault(entry["side"], []).append(entry)
        for entry in spec["ships"]:
            profile = _profile(entry["stats"])
            side_index = sides.index(entry["side"])
            mates = per_side[entry["side"]]
            slot = mates.index(entry)
            x = width / 2 + (slot - (len(mates) - 1) / 2) * 6
            y = height / 2 + (separation / 2 if side_index % 2 == 0 else -separation / 2)
            heading = 0 if side_index % 2 == 0 else 180
            layer = {"high": tables.HIGH, "low": tables.LOW}.get(layers) or (tables.HIGH if side_index % 2 == 0 else tables.LOW)
            place = placements.get(entry["name"]) or placements.get(entry["id"]) or {}
            damage = entry.get("damage") or {}
            effects = tuple(Effect(e, tables.CRIPPLING_ROWS[e].repairs if tables.CRIPPLING_ROWS[e].repairable else 0)
                            for e in damage.get("effects", []) if e in tables.CRIPPLING_ROWS)
            hull = max(1, profile.hull - int(damage.get("hull_lost", 0)))
            ship = Ship(
                id=str(entry["id"]), name=entry["name"], side=entry["side"],
                group=str(place.get("group") or entry.get("group") or f"{entry['side']} {profile.name or entry['name']}"),
                profile=profile, x=float(place.get("x", round(x))), y=float(place.get("y", round(y))),
                heading=int(place.get("heading", heading)), layer=place.get("layer", layer), hull=hull,
                effects=effects, cripple_rolled=tuple(damage.get("cripple_rolled", ())))
            ships.append(ship)
        state = DropfleetState(ships=ships, width=width, height=height, sides=sides, first_side=sides[0],
                               max_rounds=int(options.get("max_rounds", 6)),
                               pd_policy=options.get("pd_policy", "min_expected"))
        return sequence.begin_activation(state, sequence.next_group(state, None))

    # --- actions -----------------------------------------------------------------------

    def legal_actions(self, state: DropfleetState) -> list[Action]:
        if state.over:
            return []
        out = self._phase_actions(state)
        out.append(Action.make("override"))
        return out

    def _phase_actions(self, state) -> list[Action]:
        if state.phase == "end":
            return [Action.make("end_round", "gm")]
        if state.phase == "orders":
            leader = sequence.lead(state, state.group)
            return [Action.make("order", leader.id, order=key, shields=shields) for key, shields in sequence.order_options(state)]
        if state.phase == "move":
            ship = sequence.mover(state)
            out = [Action.make("move", ship.id, x=x, y=y) for x, y in sequence.move_targets(state, ship)]
            out.append(Action.make("stay", ship.id))
            out += [Action.make("manoeuvre", ship.id, way=way) for way, _, _ in sequence.named_moves(state, ship)]  # D21
            out += [Action.make("move", ship.id, x=int(ship.x), y=int(ship.y), layer=layer) for layer in sequence.layer_choices(ship)]
            return out
        if state.phase == "fire":
            out = [Action.make("fire", a.id, weapon=w.id, target=t.id) for a, w, t in sequence.fire_options(state)]
            out.append(Action.make("open_fire", sequence.lead(state, state.group).id))
            return out
        if state.phase == "pd":
            p = state.pending
            return [Action.make("spend_pd", p.target, critical=c) for _, c in damage_rules.pd_options(p.normal, p.critical, p.successes)]
        return []

    def on_board(self, action: Action) -> bool:
        """A move to a spot is a place on the table; a layer change (in place) is a button."""
        return action.kind == "move" and not action.get("layer")

    def is_legal(self, state, action: Action) -> bool:
        try:
            self._check(state, action)
        except (IllegalAction, KeyError, ValueError, TypeError):
            return False
        return True

    def refusal(self, state: DropfleetState, action: Action) -> Refusal | None:
        """Why the rules refuse ``action`` now, and which rule (refusals.py)."""
        return refusals.refusal(state, action)

    def _check(self, state: DropfleetState, action: Action) -> None:
        """Raise IllegalAction in words unless ``action`` may be applied now."""
        kind = action.kind
        sequence.require(not state.over, ILLEGAL["over"])
        sequence.require(kind in KINDS, msg("dropfleet.illegal.not_an_action", "'{kind}' is not a Dropfleet action.", kind=kind))
        if kind == "override":
            sequence.require(not action.actor and set(dict(action.params)) <= {"path", "value"}, ILLEGAL["not_override"])
            return
        phase_of = {"order": "orders", "move": "move", "manoeuvre": "move", "stay": "move", "fire": "fire", "open_fire": "fire",
                    "spend_pd": "pd", "end_round": "end"}
        sequence.require(state.phase == phase_of[kind], msg("dropfleet.illegal.wrong_step", "It is the {phase} step, not a time to {what}.",
                                                                    phase=state.phase, what=kind.replace("_", " ")))
        if kind == "end_round":
            sequence.require(action.actor == "gm" and not action.params, ILLEGAL["end_is_gms"])
            return
        if kind == "order":
            sequence.require(action.actor == sequence.lead(state, state.group).id, ILLEGAL["orders_by_lead"])
            sequence.require((action.get("order"), action.get("shields")) in sequence.order_options(state), ILLEGAL["order_not_allowed"])
            sequence.require(set(dict(action.params)) <= {"order", "shields"}, ILLEGAL["order_params"])
            return
        if kind in ("move", "manoeuvre", "stay"):
            ship = sequence.mover(state)
            sequence.require(ship is not None and action.actor == ship.id, ILLEGAL["not_this_ships_move"])
            if kind == "stay":
                sequence.require(not action.params, ILLEGAL["stay_params"])
                return
            if kind == "manoeuvre":
                sequence.require(set(dict(action.params)) == {"way"}, ILLEGAL["way_needed"])
                sequence.require(sequence.named_move(state, ship, action.get("way")) is not None, ILLEGAL["move_not_offered"])
                return
            sequence.require(set(dict(action.params)) <= {"x", "y", "layer"}, ILLEGAL["move_params"])
            x, y = action.get("x"), action.get("y")
            sequence.require(isinstance(x, int) and isinstance(y, int), ILLEGAL["whole_inches"])
            problem = sequence.check_move(state, ship, x, y, action.get("layer"))
            sequence.require(problem is None, problem or "")
            return
        if kind == "fire":
            sequence.require(set(dict(action.params)) == {"weapon", "target"}, ILLEGAL["fire_params"])
            ships = {s.id: s for s in state.ships}
            ok = sequence.can_fire(state, ships[action.actor], action.get("weapon"), ships[action.get("target")])
            sequence.require(ok, ILLEGAL["cannot_fire"])
            return
        if kind == "open_fire":
            sequence.require(action.actor == sequence.lead(state, state.group).id and not action.params, ILLEGAL["open_fire_group"])
            return
        if kind == "spend_pd":
            p = state.pending
            sequence.require(action.actor == p.target, ILLEGAL["defender_spends"])
            sequence.require(any(c == action.get("critical") for _, c in damage_rules.pd_options(p.normal, p.critical, p.successes)),
                      ILLEGAL["not_a_pd_way"])

    def apply(self, state: DropfleetState, action: Action, dice: Dice) -> Step:
        if not bot.chosen_for(state, action):  # the bot's own choice was derived from the same rules
            try:
                self._check(state, action)
            except (KeyError, ValueError, TypeError) as exc:
                if isinstance(exc, IllegalAction):
                    raise
                raise IllegalAction(msg("dropfleet.illegal.malformed", "'{action}' is not a legal action now ({problem}).",
                                        action=action.to_str(), problem=str(exc))) from None
        kind = action.kind
        if kind == "fire":  # a declaration changes no ship: it is kept, said to the GM, resolved at open fire
            declared = Declared(action.actor, action.get("weapon"), action.get("target"))
            log = Log(dice.recording)
            log.say(msg("dropfleet.fire.declared", "{aims}.", aims=declared_words(state.ships, declared)), tables.FIRE,
                    gm_only=True)
            return Step(clone(state, declared=state.declared + (declared,)), log)
        w = ship_rules.Work(state, dice)
        if kind == "override":
            new = override.apply_override(state, w, action.get("path"), action.get("value"))
        elif kind == "order":
            w.explosions = ()  # the last activation's blasts stay drawn until the next orders
            sequence.give_order(w, state.group, action.get("order"), action.get("shields"))
            new = self._to_fire_if_moved(w, state, phase="move")
        elif kind in ("move", "manoeuvre", "stay"):
            ship = w.ship(action.actor)
            if kind == "stay":
                w.put(ship, moved=True)
                w.say(msg("dropfleet.move.holds", "{ship} holds its position.", ship=ship.name), tables.MOVEMENT)
            elif kind == "manoeuvre":
                x, y = sequence.named_move(state, ship, action.get("way"))
                sequence.do_move(w, ship, x, y, None)
            else:
                sequence.do_move(w, ship, action.get("x"), action.get("y"), action.get("layer"))
            new = self._to_fire_if_moved(w, state)
        elif kind == "open_fire":
            if not state.declared:
                w.say(msg("dropfleet.fire.holds", "{ship}'s group holds its fire.", ship=sequence.lead(state, state.group).name),
                      tables.FIRE)
            new = sequence.resolve(state, w)
        elif kind == "spend_pd":
            new = sequence.spend_pd(state, w, action.get("critical"))
        else:  # end_round
            new = sequence.end_round(state, w)
        return Step(new, w.log)

    @staticmethod
    def _to_fire_if_moved(w, state, **changes):
        """The state after the step (``sequence.finish`` with ``changes``), on to the fire step
        once every ship of the group has moved; a group its own orders destroyed (Power
        fluctuation, wrecked engines) ends its activation."""
        group, any_ship, waiting = state.group, False, False
        for s in w.ships:
            if s.group == group and not s.destroyed:
                any_ship = True
                if not s.moved:  # a ship still to move (``sequence.mover``)
                    waiting = True
                    break
        if any_ship and not waiting:
            changes["phase"] = "fire"
        new = sequence.finish(w, state, **changes)
        if new.over or any_ship:
            return new
        return sequence.end_activation(w, clone(new, phase="fire"))

    # --- odds and the bot --------------------------------------------------------------

    def odds(self, state, action: Action) -> Odds | None:
        if action.kind != "fire" or state.phase != "fire":
            return None
        ships = {s.id: s for s in state.ships}
        attacker, target = ships.get(action.actor), ships.get(action.get("target"))
        if attacker is None or target is None:
            return None
        return odds_rules.fire_odds(attacker, ship_rules.weapon(attacker, action.get("weapon")), target, state.pd_policy)

    def policy(self, state, rng: random.Random) -> Action:
        return bot.choose(state, rng)

    def actor_ship(self, state) -> str | None:
        if state.over:
            return None
        if state.phase == "pd":
            return state.pending.target
        if state.phase == "end":
            return next((s.id for s in state.ships if s.in_play), None)
        if state.phase == "move":
            return sequence.mover(state).id
        leader = sequence.lead(state, state.group)
        return leader.id if leader else None

    # --- words -------------------------------------------------------------------------

    def describe(self, state, action: Action) -> Message | str:
        ships = {s.id: s for s in state.ships}
        actor = ships.get(action.actor)
        name = actor.name if actor else GM
        kind = action.kind
        if kind == "order":
            order = terms.ORDER.get(action.get("order"), action.get("order"))
            if action.get("shields"):
                return msg("dropfleet.describe.order_shields", "{ship}'s group: {order} orders, shields {shields}",
                           ship=name, order=order, shields=SHIELDS.get(action.get("shields"), action.get("shields")))
            return msg("dropfleet.describe.order", "{ship}'s group: {order} orders", ship=name, order=order)
        if kind == "move":
            if action.get("layer"):
                return msg("dropfleet.describe.layer", "{ship} changes to {layer}", ship=name,
                           layer=terms.layer(action.get("layer")))
            dist = geometry.distance(actor.x, actor.y, action.get("x"), action.get("y")) if actor else 0
            return msg("dropfleet.describe.move", "{ship} moves {inches:.0f}\" to {x},{y}", ship=name, inches=dist,
                       x=action.get("x"), y=action.get("y"))
        if kind == "manoeuvre":
            return view_words.named_move(state, actor, action.get("way"))
        if kind == "stay":
            return msg("dropfleet.describe.stay", "{ship}: hold position", ship=name)
        if kind == "fire":
            target = ships.get(action.get("target"))
            weapon = ship_rules.weapon(actor, action.get("weapon")) if actor else None
            return msg("dropfleet.describe.fire", "{ship} fires {weapon} at {target}", ship=name,
                       weapon=weapon.name if weapon else "?", target=target.name if target else "?")
        if kind == "open_fire":
            return msgn("dropfleet.describe.open_fire", "{ship}'s group opens fire ({count} weapon system declared)",
                        "{ship}'s group opens fire ({count} weapon systems declared)", len(state.declared), ship=name)
        if kind == "spend_pd":
            p = state.pending
            c = action.get("critical")
            normal = min(p.normal, p.successes - 2 * c)
            return msg("dropfleet.describe.spend_pd", "{ship} spends point defence: block {normal} normal and {critical} critical",
                       ship=name, normal=normal, critical=c)
        if kind == "end_round":
            return msg("dropfleet.describe.end_round", "End phase of round {round}: fires, damage control, orbital decay",
                       round=state.round)
        if kind == "override":
            return OVERRIDE
        return kind

    def view(self, state: DropfleetState, viewer: Viewer) -> dict:
        from .view import view

        return view(self, state, viewer)

    def secrets(self, state, viewer: Viewer) -> list[str]:
        """An enemy's declared fire before it is resolved (its hidden choice)."""
        if viewer.is_gm:
            return []
        mine = {s.side for s in state.ships if s.id in viewer.ships}
        ships = {s.id: s for s in state.ships}
        return [render(declared_words(ships, d)) for d in state.declared if ships[d.ship].side not in mine]

    # --- data --------------------------------------------------------------------------

    def example_setup(self, variant: int = 0) -> dict:
        if variant == 0:
            names = [("a", "Steadfast", "Vess", "Vess Warden cruiser"), ("b", "Nightglass", "Sable", "Sable Shroud cruiser")]
            options = {"separation": 18, "max_rounds": 6}
        else:
            names = [("a", "Steadfast", "Vess", "Vess Warden cruiser"), ("a2", "Lancet 1", "Vess", "Vess Lancet frigate"),
                     ("b", "Nightglass", "Sable", "Sable Shroud cruiser"), ("b2", "Wisp 1", "Sable", "Sable Wisp frigate")]
            options = {"separation": 24, "max_rounds": 6, "layers": "mixed"}
        return {"ships": [{"id": i, "name": n, "side": side, "stats": fleets.template_stats(t), "crew": [], "damage": {}}
                          for i, n, side, t in names], "options": options}

    def templates(self) -> list[dict]:
        return [dict(t) for t in fleets.TEMPLATES]

    def demo_fleets(self) -> list[dict]:
        return [dict(f) for f in fleets.DEMO_FLEETS]

    def damage_of(self, state, ship_id: str) -> dict:
        """Hull lost, crippling effects and thresholds rolled, carried back to the campaign."""
        ship = next(s for s in state.ships if s.id == ship_id)
        out: dict = {}
        if ship.hull < ship.profile.hull:
            out["hull_lost"] = ship.profile.hull - ship.hull
        if ship.effects:
            out["effects"] = [e.key for e in ship.effects]
        if ship.cripple_rolled:
            out["cripple_rolled"] = list(ship.cripple_rolled)
        return out

    def outcome(self, state) -> BattleOutcome:
        return BattleOutcome(state.winner, state.round, tuple(
            SideResult(side, sequence.strength(state, side), sum(1 for s in state.ships if s.side == side and s.destroyed))
            for side in state.sides))

    def sweeps(self) -> list:
        from rulesets.core.simulate import Sweep, SweepPoint

        return [
            Sweep("separation", "Starting distance", tuple(SweepPoint(f'{d}"', {"separation": d}) for d in (12, 24, 36))),
            Sweep("layers", "Orbital layers", (SweepPoint("all in High orbit", {"layers": "high"}),
                                               SweepPoint("all in Low orbit", {"layers": "low"}),
                                               SweepPoint("first side High, second Low", {"layers": "mixed"}))),
        ]

    def override_fields(self, state) -> list:
        return override.fields()


#: profiles read from stats dicts: (the dict, a copy of its values, the profile) by the dict's
#: identity, used only while the dict still equals the copy (a simulation sets up the same
#: fleets thousands of times; a shared profile also lets ``damage.shot`` reuse its shots)
_PROFILES: dict = {}


def _profile(stats: dict):
    entry = _PROFILES.get(id(stats))
    if entry is not None and entry[0] is stats and entry[1] == stats:
        return entry[2]
    profile = profile_from_stats(stats)
    if len(_PROFILES) > 256:
        _PROFILES.clear()
    _PROFILES[id(stats)] = (stats, copy.deepcopy(stats), profile)
    return profile


#: why ``apply`` refuses an action it was handed (the refusal a GM reads is refusals.py's)
ILLEGAL = {
    "over": msg("dropfleet.illegal.over", "The fight is over."),
    "not_override": msg("dropfleet.illegal.not_override", "Not a GM override."),
    "end_is_gms": msg("dropfleet.illegal.end_is_gms", "The End phase is the GM's step."),
    "orders_by_lead": msg("dropfleet.illegal.orders_by_lead", "Orders are given by the active group's lead ship."),
    "order_not_allowed": msg("dropfleet.illegal.order_not_allowed", "That order is not allowed now."),
    "order_params": msg("dropfleet.illegal.order_params", "Unknown order parameters."),
    "not_this_ships_move": msg("dropfleet.illegal.not_this_ships_move", "It is not that ship's move."),
    "stay_params": msg("dropfleet.illegal.stay_params", "Stay takes no parameters."),
    "way_needed": msg("dropfleet.illegal.way_needed", "A named move names its way."),
    "move_not_offered": msg("dropfleet.illegal.move_not_offered", "That move is not offered now."),
    "move_params": msg("dropfleet.illegal.move_params", "Unknown move parameters."),
    "whole_inches": msg("dropfleet.illegal.whole_inches", "A move needs whole-inch x and y."),
    "fire_params": msg("dropfleet.illegal.fire_params", "Fire names a weapon and a target."),
    "cannot_fire": msg("dropfleet.illegal.cannot_fire", "That weapon system cannot fire at that target now."),
    "open_fire_group": msg("dropfleet.illegal.open_fire_group", "Open fire is the group's step."),
    "defender_spends": msg("dropfleet.illegal.defender_spends", "The defender spends point defence."),
    "not_a_pd_way": msg("dropfleet.illegal.not_a_pd_way", "Not a way to spend those successes."),
}

#: the words of actions (describe) that take no parameters
GM = msg("dropfleet.describe.gm", "GM")
OVERRIDE = msg("dropfleet.describe.override", "GM sets a value by hand")
SHIELDS = {"up": msg("dropfleet.describe.shields_up", "up"), "down": msg("dropfleet.describe.shields_down", "down")}


def declared_words(ships, d: Declared) -> Message:
    """A declared weapon system (decision D2), "Steadfast aims Broadside lasers at Nightglass":
    the GM's log line (as a sentence), the board's list of the side's declarations, and what a
    player of the other side does not see before it is resolved (:meth:`DropfleetRuleset.secrets`).
    ``ships``: the state's ships, a list or a dict by id."""
    ship, target = (ships[d.ship], ships[d.target]) if isinstance(ships, dict) else (_ship(ships, d.ship), _ship(ships, d.target))
    return msg("dropfleet.fire.aims", "{ship} aims {weapon} at {target}", ship=ship.name,
               weapon=ship_rules.weapon(ship, d.weapon).name, target=target.name)


def _ship(ships, ship_id: str):
    for s in ships:
        if s.id == ship_id:
            return s
    raise KeyError(ship_id)


RULESET = DropfleetRuleset()
