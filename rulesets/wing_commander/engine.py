"""The Wing Commander RPG dogfight as a rule system of the app (``RULESET``).

The rules live in model (the state), checks (every roll declared once), damage, turn
(the order, the actions, the defence), odds, policy and override; this class plugs them
into the contract of rulesets/core/contract.py and says things in words for the GM.
"""
from __future__ import annotations

import random

from rulesets.core.contract import Actor, BattleOutcome, RulesetBase, SideResult
from rulesets.core.engine import Action, IllegalAction, Odds, Refusal, Step, Viewer
from rulesets.core.messages import Message, msg, msgn, render
from rulesets.core.simulate import Sweep, SweepPoint
from rulesets.core.spec import sides_in_order
from rulesets.core.state import clone

from . import checks, library, odds, override, policy, refusals, turn
from . import view as views
from .state import HALVED_KEYS, OUT_KEYS, DogfightState, Ship, ship_from

#: ejecting in words: on one's own turn, instead of a dodge, after one's attack (2.1.3)
EJECT_WORDS = {
    "act": ("wing_commander.action.eject", "{pilot} ejects from {ship}"),
    "defend": ("wing_commander.action.eject_defending", "{pilot} ejects from {ship} instead of dodging"),
    "after": ("wing_commander.action.eject_after", "{pilot} ejects from {ship} after the attack"),
}


class WingCommanderRuleset(RulesetBase):
    key = "wing_commander"
    name = "Wing Commander RPG dogfight"
    source_language = "de"  # the seed: shared/seeds/*.de.txt
    state_class = DogfightState
    step_limit = 3000
    strength_label = "Hull left"
    free_params = ("dm", "path", "value")
    secondary_kinds = ("pass", "eject", "cloak")
    override_help = override.HELP

    def override_fields(self, state) -> list:
        return list(override.FIELDS)

    # --- setup ----------------------------------------------------------------------------
    def setup(self, spec: dict) -> DogfightState:
        options = spec.get("options") or {}
        ships = [ship_from(s) for s in spec["ships"]]
        size = int(options.get("flight_size", 0) or 0)
        if size:
            kept, count = [], {}
            for ship in ships:
                count[ship.side] = count.get(ship.side, 0) + 1
                if count[ship.side] <= size:
                    kept.append(ship)
            ships = kept
        npc_tw = int(options.get("npc_tw", 0) or 0)
        wild = options.get("wild_cards", "as_set") or "as_set"
        out = []
        for ship in ships:
            if npc_tw and not ship.rolls:
                ship = clone(ship, tw=npc_tw)
            if wild != "as_set" and ship.pilot.flown_by == "character":
                ship = clone(ship, pilot=clone(ship.pilot, wild_card=(wild == "all")))
            out.append(ship)
        sides = tuple(sides_in_order(out))
        if len(sides) < 2:
            raise ValueError("A dogfight needs ships on at least two sides.")
        first = str(options.get("first_side", "") or "").strip()
        if first and first not in sides:
            raise ValueError(f"the side that moves first on a tie, '{first}', is none of the sides here "
                             f"({', '.join(sides)}).")
        state = DogfightState(ships=tuple(out), max_rounds=int(options.get("max_rounds", 20) or 20),
                              first_side=first, sides=sides)
        return turn.start(state)

    # --- actions --------------------------------------------------------------------------
    def legal_actions(self, state: DogfightState) -> list[Action]:
        if state.over:
            return []
        if state.phase == "defend":
            listed = turn.defence_actions(state)
        elif state.phase == "after":
            listed = turn.after_actions(state)
        else:
            listed = turn.turn_actions(state)
        return [*listed, Action.make("override")]

    def is_legal(self, state: DogfightState, action: Action) -> bool:
        if state.over:
            return False
        if action.kind == "override":
            return not action.actor and set(dict(action.params)) <= {"path", "value"}
        return super().is_legal(state, action)

    def refusal(self, state: DogfightState, action: Action) -> Refusal | None:
        """Why the rules refuse ``action`` now, and which rule (refusals.py)."""
        return refusals.refusal(state, action)

    def apply(self, state: DogfightState, action: Action, dice) -> Step:
        kind = action.kind
        if kind == "override":
            state, log = override.apply_override(state, action.get("path", ""), action.get("value", ""))
            return Step(state, log)
        if state.over:
            raise IllegalAction("The fight is over.")
        if state.phase == "defend":
            handlers = {"countermeasure": turn.countermeasure, "dodge": turn.dodge, "eject": turn.eject}
        elif state.phase == "after":
            handlers = {"end": turn.end, "eject": turn.eject}
        else:
            handlers = {"attack": turn.attack, "torpedo": turn.attack, "lock": turn.lock, "regenerate": turn.regenerate,
                        "cloak": turn.cloak, "pass": turn.pass_turn, "eject": turn.eject}
        if kind not in handlers:
            raise IllegalAction(f"'{action}' is not possible now.")
        state, log = handlers[kind](state, action, dice)
        return Step(state, log)

    def odds(self, state: DogfightState, action: Action) -> Odds | None:
        dm = int(action.get("dm", 0) or 0)
        if action.kind in ("countermeasure", "dodge") and state.phase == "defend":
            return odds.defence_odds(state, action.kind, dm)
        if action.kind in ("attack", "torpedo"):
            ship = state.ship(action.actor)
            target = state.ship(action.get("target"))
            result = odds.attack_odds(state, ship, ship.weapon(action.get("weapon")), target, dm)
            if action.get("turret"):
                return odds.with_turret(state, ship, ship.weapon(action.get("turret")), target, result)
            return result
        return None

    def policy(self, state: DogfightState, rng: random.Random) -> Action:
        return policy.choose(state, rng)

    def acting(self, state: DogfightState, action: Action) -> Actor | None:
        """A fighter's every step (its attacks, a dodge, a countermeasure, ejecting) is its pilot's."""
        if not action.actor or action.kind == "override":
            return None
        return Actor(ship=action.actor, position="pilot")

    def actor_ship(self, state: DogfightState) -> str | None:
        ship = state.deciding
        return ship.id if ship else None

    def turn_ship(self, state: DogfightState) -> str | None:
        """The acting fighter, while its target answers an attack (countermeasure, dodge, eject)."""
        ship = state.acting
        return ship.id if ship else None

    def describe(self, state: DogfightState, action: Action) -> Message | str:
        """The action in words, as its button says it (a message; the bare kind for an action
        the system does not word)."""
        kind = action.kind
        if kind == "override":
            return msg("wing_commander.action.override", "GM override")
        ship = state.ship(action.actor) if action.actor else None
        if ship is None:
            return kind
        name = ship.name
        if kind in ("attack", "torpedo"):
            target = state.ship(action.get("target"))
            weapon = ship.weapon(action.get("weapon"))
            if action.get("turret"):
                return msg("wing_commander.action.attack_turret", "{ship} fires {weapon} at {target}, with the {turret}",
                           ship=name, weapon=weapon.name, target=target.name,
                           turret=ship.weapon(action.get("turret")).name)
            return msg("wing_commander.action.attack", "{ship} fires {weapon} at {target}", ship=name,
                       weapon=weapon.name, target=target.name)
        if kind == "lock":
            return msg("wing_commander.action.lock", "{ship} locks a torpedo on {target} (deciphering takes the round)",
                       ship=name, target=state.ship(action.get("target")).name)
        if kind == "regenerate":
            gained = turn.regains(ship)
            if gained:
                return msgn("wing_commander.action.regenerate", "{ship} stands aside to regenerate {count} shield point",
                            "{ship} stands aside to regenerate {count} shield points", gained, ship=name)
            if ship.shield_generator:
                return msg("wing_commander.action.aside_full", "{ship} stands aside for a round (shields full: no "
                           "regeneration)", ship=name)
            return msg("wing_commander.action.aside_no_generator", "{ship} stands aside for a round (shield generator "
                       "destroyed: no regeneration)", ship=name)
        if kind == "cloak":
            return msg("wing_commander.action.cloak", "{ship} activates its cloaking device", ship=name)
        if kind == "pass":
            return msg("wing_commander.action.pass", "{ship} holds its fire", ship=name)
        if kind == "end":
            return msg("wing_commander.action.end", "{ship} ends its turn", ship=name)
        if kind == "eject":
            return msg(*EJECT_WORDS.get(state.phase, EJECT_WORDS["act"]), pilot=ship.pilot.name, ship=name)
        if kind in ("countermeasure", "dodge") and state.pending:
            pending = state.pending[0]
            attacker = state.ship(pending.attacker)
            weapon = attacker.weapon(pending.weapon)
            if kind == "countermeasure":
                return msg("wing_commander.action.countermeasure", "{ship} drops {kind} against {attacker}'s {weapon}",
                           ship=name, kind=checks.COUNTERMEASURES.get(checks.countermeasure_kind(weapon), ""),
                           attacker=attacker.name, weapon=weapon.name)
            return msg("wing_commander.action.dodge", "{dodge} (needs {value})",
                       dodge=checks.dodges(ship, attacker, weapon), value=pending.value)
        return kind

    # --- what people see ------------------------------------------------------------------
    def view(self, state: DogfightState, viewer: Viewer) -> dict:
        """The order of play, the incoming attack and every ship's card (view.py)."""
        return views.view(state, viewer)

    @staticmethod
    def pilot_line(ship: Ship):
        return views.pilot_line(ship)

    def secrets(self, state: DogfightState, viewer: Viewer) -> list[str]:
        """An enemy's TW and pilot sheet are the GM's (the TW is the GM's measure of the enemy)."""
        if viewer.is_gm:
            return []
        return [render(views.pilot_line(s)) for s in state.ships if s.id not in viewer.ships]

    # --- data -------------------------------------------------------------------------------
    def example_setup(self, variant: int = 0) -> dict:
        templates = {t["name"]: t["stats"] for t in library.TEMPLATES}

        def ship(sid, name, side, template, pilot, flown_by="character", **chars):
            crew = [{"id": f"{sid}p", "name": pilot, "position": "pilot",
                     "characteristics": {"rank": 2, "months": 6, "flown_by": flown_by, **chars}, "skills": {}}]
            return {"id": sid, "name": name, "side": side, "stats": templates[template], "crew": crew, "damage": {}}

        if variant % 2 == 0:
            ships = [
                ship("s1", "Blue 1", "Confederation", "Kestrel medium fighter", "Okafor", wild_card=True),
                ship("s2", "Blue 2", "Confederation", "Merlin light fighter", "Pell"),
                ship("s3", "Claw 1", "Kilrathi", "Shraketh medium fighter", "Ragark", "npc"),
                ship("s4", "Claw 2", "Kilrathi", "Vrakhar light fighter", "Khar'ja", "npc"),
            ]
        else:
            ships = [
                ship("s1", "Blue 1", "Confederation", "Mattock bomber", "Okafor"),
                ship("s2", "Blue 2", "Confederation", "Warden heavy fighter", "Vane", wild_card=True),
                ship("s3", "Ra'thak", "Kilrathi", "Ra'thak-class cruiser", "Captain", "npc"),
                ship("s4", "Claw 1", "Kilrathi", "Kharrak stealth bomber", "Kharsh", "npc_rolled"),
                ship("s5", "Claw 2", "Kilrathi", "Ghorrak heavy fighter", "Hrrak", "npc"),
            ]
        return {"ships": ships, "options": {"max_rounds": 20}}

    def templates(self) -> list[dict]:
        return [dict(t) for t in library.TEMPLATES]

    def demo_fleets(self) -> list[dict]:
        return [dict(f) for f in library.DEMO_FLEETS]

    def damage_of(self, state: DogfightState, ship_id: str) -> dict:
        """What outlives the encounter: hull lost, component damage "until replaced" or "for the whole
        mission", weapons out, stocks spent.  Shields are full again at the next nav point (2.1.6)."""
        ship = state.ship(ship_id)
        out: dict = {}
        if ship.hull < ship.max_hull:
            out["hull"] = ship.max_hull - ship.hull
        if not ship.shield_generator:
            out["shield_generator_destroyed"] = True
        if ship.thrusters:
            out["thrusters_damaged"] = ship.thrusters
        if ship.gun_alignment:
            out["gun_alignment_failed"] = True
        for kind in ("gun", "turret", "missile", "torpedo"):
            weapons = ship.of_kind(kind)
            if any(w.broken for w in weapons):
                out[OUT_KEYS[kind]] = True
            if any(w.halved for w in weapons):
                out[HALVED_KEYS[kind]] = True
        if ship.spent:
            out["ammo"] = dict(ship.spent)
        return out

    def outcome(self, state: DogfightState) -> BattleOutcome:
        sides = []
        for side in state.sides:
            mine = [s for s in state.ships if s.side == side]
            left = sum(s.hull for s in mine if s.in_fight) / max(1, sum(s.max_hull for s in mine))
            sides.append(SideResult(side, left, sum(1 for s in mine if not s.in_fight)))
        return BattleOutcome(state.winner, state.round, tuple(sides))

    def sweeps(self) -> list[Sweep]:
        return [
            Sweep("npc_tw", "TW of the NPC enemies", tuple(SweepPoint(f"TW {tw}", {"npc_tw": tw}) for tw in (8, 10, 12, 14, 16))),
            Sweep("wild_cards", "Wild Card characters", (
                SweepPoint("as set up", {"wild_cards": "as_set"}), SweepPoint("every character a Wild Card", {"wild_cards": "all"}),
                SweepPoint("no Wild Cards", {"wild_cards": "none"}))),
            Sweep("flight_size", "Flight size (ships per side)", tuple(
                SweepPoint(f"{n} v {n}", {"flight_size": n}) for n in (1, 2, 3, 4))),
        ]


RULESET = WingCommanderRuleset()
