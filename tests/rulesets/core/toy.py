"""A toy rule system for testing the core without a real game: two ships trade shots.

On its step a ship fires (2D6 + gunnery >= 8 hits for 1D6 damage) or braces (its
next incoming shot takes DM-2).  The enemy's gunnery is secret to players.

The smallest system the conformance suite passes (docs/adding-a-ruleset.md): its one check is
declared once (:func:`fire_check`), and ``apply``, ``odds`` and the roll in the log read it; every
word it says is a message.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

from rulesets.core import check as core_check
from rulesets.core import odds as odds_mod
from rulesets.core.check import Check, Modifier, Throw, circumstance, gm_dm
from rulesets.core.contract import BattleOutcome, RulesetBase, SideResult
from rulesets.core.engine import Action, Log, Odds, Step, Viewer
from rulesets.core.messages import msg


@dataclass
class ToyShip:
    id: str
    name: str
    side: str
    hull: int
    gunnery: int
    braced: bool = False
    max_hull: int = 10


@dataclass
class ToyState:
    ships: list[ToyShip] = field(default_factory=list)
    round: int = 1
    turn: int = 0
    phase: str = "fire"
    over: bool = False
    winner: str | None = None
    max_rounds: int = 30

    @property
    def active(self) -> str:
        return self.ships[self.turn].name


def fire_check(me: ToyShip, target: ToyShip, dm: int = 0) -> Check:
    """Toy rule 1: 2D6 + gunnery, 8 or more hits; a braced target takes DM-2 (rule 3); the GM may
    add a circumstance DM."""
    return Check(Throw(2, 6), 8,
                 (Modifier("gunnery", me.gunnery, "toy 1"),
                  Modifier("braced target", -2 if target.braced else 0, "toy 3"), *circumstance(dm)),
                 rule="toy 1", purpose=msg("toy.roll.fire", "{ship} fires at {target}", ship=me.name, target=target.name))


class ToyRuleset(RulesetBase):
    key = "toy"
    name = "Toy duel"
    strength_label = "Hull left"
    state_class = ToyState
    step_limit = 200
    free_params = ("dm",)
    forms_module = "tests.rulesets.core.toy_forms"

    def setup(self, spec: dict) -> ToyState:
        ships = [
            ToyShip(s["id"], s["name"], s["side"], int(s["stats"]["hull"]) - int((s.get("damage") or {}).get("hull_lost", 0)),
                    int(s["crew"][0]["skills"].get("gunnery", 0)) if s.get("crew") else 0, max_hull=int(s["stats"]["hull"]))
            for s in spec["ships"]
        ]
        return ToyState(ships=ships, max_rounds=int(spec.get("options", {}).get("max_rounds", 30)))

    def legal_actions(self, state):
        if state.over:
            return []
        me = state.ships[state.turn]
        foes = [s for s in state.ships if s.side != me.side and s.hull > 0]
        return [Action.make("fire", me.id, target=f.id) for f in foes] + [Action.make("brace", me.id)]

    def apply(self, state, action, dice):
        ships = [replace(s) for s in state.ships]
        me = ships[state.turn]
        log = Log(dice.recording)
        if action.kind == "fire":
            target = next(s for s in ships if s.id == action.get("target"))
            hit = core_check.roll(dice, fire_check(me, target, gm_dm(action))).success
            target.braced = False
            if hit:
                dmg = dice.roll(1, 6, purpose=msg("toy.roll.damage", "damage"), rule="toy 2")
                target.hull = max(0, target.hull - dmg.total)
                log.say(msg("toy.log.hits", "{ship} hits {target} for {damage}.",
                            ship=me.name, target=target.name, damage=dmg.total), "toy 2")
            else:
                log.say(msg("toy.log.misses", "{ship} misses {target}.", ship=me.name, target=target.name), "toy 1")
        else:
            me.braced = True
            log.say(msg("toy.log.braces", "{ship} braces.", ship=me.name), "toy 3")
        turn = (state.turn + 1) % len(ships)
        rnd = state.round + (1 if turn == 0 else 0)
        while ships[turn].hull <= 0:
            turn = (turn + 1) % len(ships)
        alive_sides = {s.side for s in ships if s.hull > 0}
        over = len(alive_sides) <= 1 or rnd > state.max_rounds
        winner = next(iter(alive_sides)) if len(alive_sides) == 1 else None
        return Step(ToyState(ships, rnd, turn, "fire", over, winner, state.max_rounds), log)

    def odds(self, state, action):
        if action.kind != "fire":
            return None
        me = state.ships[state.turn]
        target = next(s for s in state.ships if s.id == action.get("target"))
        p = core_check.chances(fire_check(me, target, gm_dm(action)))[core_check.SUCCESS]
        return odds_mod.pass_fail(p, msg("toy.odds.hit", "{chance} to hit", chance=odds_mod.percent(p)), "hit", "miss")

    def actor_ship(self, state):
        return state.ships[state.turn].id

    def policy(self, state, rng: random.Random):
        actions = [a for a in self.legal_actions(state) if a.kind == "fire"]
        return actions[int(rng.random() * len(actions))]

    def view(self, state, viewer: Viewer):
        ships = []
        for s in state.ships:
            own = viewer.is_gm or s.id in viewer.ships
            d = {"id": s.id, "name": s.name, "side": s.side, "hull": s.hull}
            if own:
                d["gunnery"] = s.gunnery
            ships.append(d)
        return {"round": state.round, "ships": ships, "over": state.over, "winner": state.winner,
                "active": state.active}

    def secrets(self, state, viewer):
        if viewer.is_gm:
            return []
        return [f'"gunnery": {s.gunnery}' for s in state.ships if s.id not in viewer.ships]

    def describe(self, state, action):
        me = next(s for s in state.ships if s.id == action.actor)
        if action.kind == "fire":
            target = next(s for s in state.ships if s.id == action.get("target"))
            return msg("toy.action.fire", "{ship} fires at {target}", ship=me.name, target=target.name)
        return msg("toy.action.brace", "{ship} braces", ship=me.name)

    def example_setup(self, variant: int = 0) -> dict:
        return {
            "ships": [
                {"id": "a", "name": "Alpha", "side": "blue", "stats": {"hull": 10}, "crew": [{"id": "a1", "name": "Ann", "skills": {"gunnery": 1}}]},
                {"id": "b", "name": "Bravo", "side": "red", "stats": {"hull": 10}, "crew": [{"id": "b1", "name": "Bob", "skills": {"gunnery": 2 + variant}}]},
            ],
            "options": {"max_rounds": 30},
        }


    def templates(self):
        return [{"name": "Toy frigate", "stats": {"hull": 10}, "notes": "A test ship."},
                {"name": "Toy cutter", "stats": {"hull": 6}, "notes": ""}]

    def demo_fleets(self):
        return [
            {"name": "Blue squadron", "side": "blue", "colour": "#3366cc",
             "ships": [{"template": "Toy frigate", "name": "Alpha", "crew": [{"name": "Ann", "position": "gunner", "skills": {"gunnery": 1}}]}]},
            {"name": "Red squadron", "side": "red", "colour": "#cc3333",
             "ships": [{"template": "Toy cutter", "name": "Bravo", "crew": [{"name": "Bob", "position": "gunner", "skills": {"gunnery": 2}}]}]},
        ]

    def damage_of(self, state, ship_id):
        ship = next(s for s in state.ships if s.id == ship_id)
        return {"hull_lost": ship.max_hull - ship.hull} if ship.hull < ship.max_hull else {}

    def outcome(self, state):
        def strength(side):
            return (sum(s.hull for s in state.ships if s.side == side)
                    / sum(s.max_hull for s in state.ships if s.side == side))

        def lost(side):
            return sum(1 for s in state.ships if s.side == side and s.hull <= 0)

        return BattleOutcome(state.winner, min(state.round, state.max_rounds),
                             tuple(SideResult(side, strength(side), lost(side))
                                   for side in sorted({s.side for s in state.ships})))

    def sweeps(self):
        from rulesets.core.simulate import Sweep, SweepPoint

        return [Sweep("max_rounds", "Round limit", tuple(SweepPoint(f"{n} rounds", {"max_rounds": n}) for n in (1, 3, 10)))]


RULESET = ToyRuleset()
