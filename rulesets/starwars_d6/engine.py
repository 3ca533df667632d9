"""The Star Wars D6 starship-combat engine: the protocol of rulesets/core/engine.py over rules.py.

Not registered yet (see docs/rulesets/starwars_d6.md, "Not yet implemented").
Actions:

* ``initiative`` -- every side rolls 2D (seed 4. "Fase d'iniciativa");
* ``move how=forward|turn|slide|hold side=#-1|#0|#1`` and ``drift`` (movement phase);
* ``fire weapon=<id> target=<ship>`` and ``done`` (firing phase, the firing ship);
* ``resolve`` -- all ships have fired: the summed damage is applied (simultaneous fire).

Pure Python: no Django import.
"""
from __future__ import annotations

import random

from rulesets.core.dice import Dice
from rulesets.core.engine import Action, IllegalAction, Odds, Outcome, Step, Viewer

from . import hexes as H
from . import odds as O
from . import rules as R

TEMPLATES = [
    {"name": "Kestrel interceptor", "notes": "Fast, light starfighter (original).",
     "stats": {"name": "Kestrel interceptor", "scale": "starfighter", "speed": 10, "maneuverability": "3D",
               "hull": "2D", "shields": "0D",
               "weapons": [{"id": "l", "type": "laser", "fire_control": "2D", "damage": "5D", "linked": 2}]}},
    {"name": "Talon heavy fighter", "notes": "Shielded starfighter with torpedoes (original).",
     "stats": {"name": "Talon heavy fighter", "scale": "starfighter", "speed": 8, "maneuverability": "3D",
               "hull": "4D", "shields": "1D", "hyperdrive": "x1",
               "weapons": [{"id": "l", "type": "laser", "fire_control": "3D", "damage": "6D", "linked": 4},
                           {"id": "t", "type": "proton_torpedo", "fire_control": "2D", "damage": "9D", "ammo": 3}]}},
    {"name": "Wasp bomber", "notes": "Slow missile carrier (original).",
     "stats": {"name": "Wasp bomber", "scale": "starfighter", "speed": 6, "maneuverability": "1D+1",
               "hull": "4D+1", "shields": "1D+1", "hyperdrive": "x2",
               "weapons": [{"id": "l", "type": "laser", "fire_control": "1D", "damage": "4D"},
                           {"id": "m", "type": "concussion_missile", "fire_control": "2D", "damage": "7D", "ammo": 6}]}},
    {"name": "Sparrow scout", "notes": "Nimble courier with a blaster (original).",
     "stats": {"name": "Sparrow scout", "scale": "starfighter", "speed": 9, "maneuverability": "2D+2",
               "hull": "3D", "shields": "1D", "hyperdrive": "x1",
               "weapons": [{"id": "b", "type": "blaster", "fire_control": "2D", "damage": "4D"}]}},
    {"name": "Mule freighter", "notes": "Armed light freighter (original).",
     "stats": {"name": "Mule freighter", "scale": "starfighter", "speed": 5, "maneuverability": "1D",
               "hull": "4D", "shields": "2D", "hyperdrive": "x2",
               "weapons": [{"id": "l", "type": "laser", "fire_control": "2D", "damage": "4D", "linked": 2}]}},
    {"name": "Warden corvette", "notes": "Small capital ship (original).",
     "stats": {"name": "Warden corvette", "scale": "capital", "speed": 4, "maneuverability": "1D",
               "hull": "4D", "shields": "2D", "hyperdrive": "x2",
               "weapons": [{"id": "tl", "type": "turbolaser", "fire_control": "3D", "damage": "4D"},
                           {"id": "ion", "type": "ion_cannon", "fire_control": "2D", "damage": "3D"}]}},
    {"name": "Bastion frigate", "notes": "Escort frigate (original).",
     "stats": {"name": "Bastion frigate", "scale": "capital", "speed": 3, "maneuverability": "1D",
               "hull": "5D", "shields": "3D", "hyperdrive": "x2",
               "weapons": [{"id": "tl", "type": "turbolaser", "fire_control": "2D", "damage": "5D", "shots": 4},
                           {"id": "l", "type": "laser", "fire_control": "2D", "damage": "3D"}]}},
    {"name": "Citadel battle station", "notes": "Moon-sized station (original).",
     "stats": {"name": "Citadel battle station", "scale": "death_star", "speed": 0, "maneuverability": "0D",
               "hull": "8D", "shields": "4D",
               "weapons": [{"id": "tl", "type": "turbolaser", "fire_control": "2D", "damage": "7D"}]}},
]
_BY_NAME = {t["name"]: t for t in TEMPLATES}
CREW = {"gunnery": "4D", "piloting": "4D", "shields": "3D"}


class StarWarsRuleset:
    key = "starwars_d6"
    name = "Star Wars D6 starship combat"
    state_class = R.CombatState
    step_limit = 5000
    free_params = ()

    # ------------------------------------------------------------ setup
    def setup(self, spec: dict) -> R.CombatState:
        opts = spec.get("options") or {}
        width, height = int(opts.get("width", 30)), int(opts.get("height", 20))
        ships = []
        for i, raw in enumerate(spec.get("ships") or []):
            stats = dict(raw.get("stats") or _BY_NAME[raw["template"]]["stats"])
            stats.setdefault("name", raw.get("name", f"Ship {i + 1}"))
            crew = dict(CREW)
            crew.update(stats.get("crew") or {})
            for c in raw.get("crew") or []:
                crew.update({k: v for k, v in (c.get("skills") or {}).items() if k in CREW})
            stats["crew"] = crew
            col, row = raw.get("position") or (2 + 3 * (i // 2), 2 if i % 2 == 0 else height - 3)
            facing = raw.get("facing", 3 if (i % 2 == 0) else 0)
            ship = R.build_ship(stats, id=str(raw.get("id", f"s{i + 1}")), side=str(raw.get("side", f"side{i}")),
                                col=int(col), row=int(row), facing=int(facing))
            ship.name = str(raw.get("name", ship.name))
            ships.append(ship)
        return R.new_combat(ships, width, height, wild=bool(opts.get("wild", True)),
                            max_rounds=int(opts.get("max_rounds", 20)))

    # ------------------------------------------------------------ whose step
    def actor_ship(self, s: R.CombatState) -> str | None:
        if s.over:
            return None
        if s.queue and s.phase != "initiative":
            return s.queue[0]
        return next(sh.id for sh in s.ships if sh.in_play)

    def legal_actions(self, s: R.CombatState) -> list[Action]:
        if s.over:
            return []
        who = self.actor_ship(s)
        if s.phase == "initiative":
            return [Action.make("initiative", who)]
        if s.phase == "movement":
            if R.controls_dead(s.ship(who), s.round):
                return [Action.make("drift", who)]
            return [Action.make("move", who, how=m.kind, side=m.side) for m in R.move_options(s)]
        if not s.queue:
            return [Action.make("resolve", who)]
        return [Action.make("fire", who, weapon=w, target=t) for w, t in R.fire_options(s)] + [Action.make("done", who)]

    def apply(self, s: R.CombatState, action: Action, dice: Dice) -> Step:
        if action not in self.legal_actions(s):
            raise IllegalAction(f"'{action}' is not a legal action now.")
        k = action.kind
        if k == "initiative":
            state, log = R.roll_initiative(s, dice)
        elif k == "move":
            state, log = R.move(s, action.get("how"), int(action.get("side", 0)))
        elif k == "drift":
            state, log = R.drift(s)
        elif k == "fire":
            state, log = R.fire(s, action.get("weapon"), action.get("target"), dice)
        elif k == "done":
            state, log = R.end_fire(s)
        else:
            state, log = R.resolve_firing(s, dice)
        return Step(state, log)

    # ------------------------------------------------------------ odds and the bot
    def odds(self, s: R.CombatState, action: Action) -> Odds | None:
        if action.kind != "fire":
            return None
        me, target = s.ship(action.actor), s.ship(action.get("target"))
        w = next(w for w in me.weapons if w.id == action.get("weapon"))
        band = R.shot_band(s, me, w, target)
        p = float(O.hit_chance(R.attack_code(s, me, w, target, band), R.evasion_code(s, target), wild=s.wild))
        return Odds((Outcome("hit", p), Outcome("miss", 1.0 - p)), f"{p:.0%} to hit ({band} range)")

    def policy(self, s: R.CombatState, rng: random.Random) -> Action:
        """Closes on the nearest enemy, then holds; fires the shot with the best odds."""
        actions = self.legal_actions(s)
        if s.phase == "movement" and actions[0].kind == "move":
            me = s.ship(actions[0].actor)
            foes = [f for f in s.ships if f.side != me.side and f.in_play]
            if not foes:
                return next(a for a in actions if a.get("how") == "hold")
            opts = {(m.kind, m.side): m for m in R.move_options(s)}

            def score(a):
                m = opts[(a.get("how"), a.get("side"))]
                if m.leaves_board:
                    return (99, 0, 0)
                d = min(H.distance(m.to, f.pos) for f in foes)
                ahead = min(H.distance(H.neighbour(m.to, m.facing), f.pos) for f in foes)
                return (max(d, 3), ahead - d, m.kind == "hold")

            return min(actions, key=score)
        fires = [a for a in actions if a.kind == "fire"]
        if fires:
            return max(fires, key=lambda a: (self.odds(s, a).probability("hit"), rng.random()))
        return actions[0]

    # ------------------------------------------------------------ views
    def view(self, s: R.CombatState, viewer: Viewer) -> dict:
        ships = []
        for sh in s.ships:
            d = {"id": sh.id, "name": sh.name, "side": sh.side, "scale": sh.scale, "pos": [sh.col, sh.row],
                 "facing": H.FACING_NAME[sh.facing], "speed": sh.speed, "maneuverability": sh.maneuverability,
                 "hull": sh.hull, "shields": sh.shields, "in_play": sh.in_play, "destroyed": sh.destroyed,
                 "damage": list(sh.damage),
                 "weapons": [{"id": w.id, "name": w.name, "type": w.type, "fire_control": w.fire_control,
                              "damage": w.damage, "linked": w.linked, "shots": w.shots, "ammo": w.ammo,
                              "operative": R.weapon_operative(w)} for w in sh.weapons]}
            if viewer.is_gm or sh.id in viewer.ships:
                d["crew"] = {"gunnery": sh.crew.gunnery, "piloting": sh.crew.piloting, "shields": sh.crew.shields}
            ships.append(d)
        return {"round": s.round, "phase": s.phase, "active": s.active, "over": s.over, "winner": s.winner,
                "board": {"width": s.board.width, "height": s.board.height}, "order": list(s.order),
                "ships": ships}

    def secrets(self, s: R.CombatState, viewer: Viewer) -> list[str]:
        """Nothing on the board is hidden; crew skills are shown to their own players only
        (the view leaves them out, so no string is listed)."""
        return []

    def describe(self, s: R.CombatState, action: Action) -> str:
        who = s.ship(action.actor).name if action.actor else "GM"
        if action.kind == "move":
            side = {-1: " left", 1: " right"}.get(action.get("side"), "")
            return f"{who}: {action.get('how')}{side}"
        if action.kind == "fire":
            w = next(w for w in s.ship(action.actor).weapons if w.id == action.get("weapon"))
            return f"{who} fires {w.name} at {s.ship(action.get('target')).name}"
        return {"initiative": "Roll initiative", "drift": f"{who} drifts", "done": f"{who} stops firing",
                "resolve": "Apply the damage of the firing phase"}.get(action.kind, action.to_str())

    # ------------------------------------------------------------ encounters and simulation
    def example_setup(self, variant: int = 0) -> dict:
        if variant % 2:
            return {"ships": [
                {"id": "c1", "name": "Warden", "side": "Alliance", "template": "Warden corvette",
                 "position": [10, 3], "facing": 3},
                {"id": "f1", "name": "Talon", "side": "Alliance", "template": "Talon heavy fighter",
                 "position": [12, 3], "facing": 3},
                {"id": "e1", "name": "Kestrel 1", "side": "Empire", "template": "Kestrel interceptor",
                 "position": [10, 14], "facing": 0},
                {"id": "e2", "name": "Kestrel 2", "side": "Empire", "template": "Kestrel interceptor",
                 "position": [12, 14], "facing": 0}],
                "options": {"width": 24, "height": 18, "max_rounds": 20}}
        return {"ships": [
            {"id": "a", "name": "Talon", "side": "Alliance", "template": "Talon heavy fighter",
             "position": [6, 2], "facing": 3, "crew": [{"name": "Ace", "skills": {"gunnery": "5D"}}]},
            {"id": "b", "name": "Kestrel", "side": "Empire", "template": "Kestrel interceptor",
             "position": [6, 13], "facing": 0}],
            "options": {"width": 14, "height": 16, "max_rounds": 20}}

    def templates(self) -> list[dict]:
        return [dict(t) for t in TEMPLATES]

    def demo_fleets(self) -> list[dict]:
        return [
            {"name": "Alliance patrol", "side": "Alliance", "colour": "#cc6633",
             "ships": [{"template": "Warden corvette", "name": "Warden"},
                       {"template": "Talon heavy fighter", "name": "Talon",
                        "crew": [{"name": "Ace", "position": "pilot", "skills": {"gunnery": "5D", "piloting": "5D"}}]}]},
            {"name": "Interceptor wing", "side": "Empire", "colour": "#666699",
             "ships": [{"template": "Kestrel interceptor", "name": "Kestrel 1"},
                       {"template": "Kestrel interceptor", "name": "Kestrel 2"}]},
        ]

    def damage_of(self, s: R.CombatState, ship_id: str) -> dict:
        sh = s.ship(ship_id)
        out: dict = {}
        if sh.damage:
            out["results"] = list(sh.damage)
        if sh.destroyed:
            out["destroyed"] = True
        return out

    def outcome(self, s: R.CombatState) -> dict:
        return {"winner": s.winner, "rounds": s.round,
                "hull": {side: sum(1 for sh in s.ships if sh.side == side and sh.in_play)
                         / max(1, sum(1 for sh in s.ships if sh.side == side)) for side in s.sides},
                "lost": {side: sum(1 for sh in s.ships if sh.side == side and sh.destroyed) for side in s.sides}}

    def sweeps(self):
        from rulesets.core.simulate import Sweep, SweepPoint

        return [Sweep("wild", "Wild Die (RULES-NOTES)", (SweepPoint("Wild Die on", {"wild": True}),
                                                         SweepPoint("Wild Die off", {"wild": False})))]


RULESET = StarWarsRuleset()
