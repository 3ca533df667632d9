"""The Star Wars D6 starship-combat engine: the protocol of rulesets/core/engine.py over rules.py.

Actions (the actor is the ship whose step it is):

* ``initiative`` -- every side rolls 2D (seed 4. "Fase d'iniciativa");
* movement phase: ``move how=forward|turn|slide|hold side=#-1|#0|#1``, ``course col=#c row=#r``
  (a click on the board: the cheapest moves to that hex, see board.py), ``drift`` (dead controls);
  declared before moving: ``ram target=<ship>``, ``jump``, ``shutdown``, ``break_free``;
  ``evacuate`` (structural damage);
* firing phase: ``fire weapon=<id> target=<ship> [guns=#k]`` (a battery -- shots > 1 -- fires
  broadsides of the guns it has left, every one of them without ``guns``;
  a tractor beam captures) and ``done``;
* ``resolve`` -- all ships have fired: the summed damage is applied (simultaneous fire).

Pure Python: no Django import.
"""
from __future__ import annotations

import json
import random
from dataclasses import asdict

from rulesets.core.contract import Actor, BattleOutcome, RulesetBase, SideResult
from rulesets.core.dice import Dice
from rulesets.core.engine import Action, IllegalAction, Log, Odds, Refusal, Step, Viewer
from rulesets.core.messages import msg, render
from rulesets.core.state import plain_dicts

from . import hexes, odds, override, refusals, rules, tables, words
from .board import course_targets
from .sequence import is_initiative_of
from .policy import built_by_bot, choose, picked_move
from .fleet_setup import carry_damage, crew_skills, _placements

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
    {"name": "Bastion frigate", "notes": "Escort frigate with a tractor beam (original).",
     "stats": {"name": "Bastion frigate", "scale": "capital", "speed": 3, "maneuverability": "1D",
               "hull": "5D", "shields": "3D", "hyperdrive": "x2",
               "weapons": [{"id": "tl", "type": "turbolaser", "fire_control": "2D", "damage": "5D", "shots": 4},
                           {"id": "l", "type": "laser", "fire_control": "2D", "damage": "3D"},
                           {"id": "tr", "type": "tractor_beam", "fire_control": "2D", "damage": "4D"}]}},
    {"name": "Citadel battle station", "notes": "Moon-sized station (original).",
     "stats": {"name": "Citadel battle station", "scale": "death_star", "speed": 0, "maneuverability": "0D",
               "hull": "8D", "shields": "4D",
               "weapons": [{"id": "tl", "type": "turbolaser", "fire_control": "2D", "damage": "7D"}]}},
]
_BY_NAME = {t["name"]: t for t in TEMPLATES}

class StarWarsRuleset(RulesetBase):
    key = "starwars_d6"
    name = "Star Wars D6 starship combat"
    source_language = "ca"  # the seed: shared/seeds/*.ca.txt
    strength_label = "Ships still in play"
    state_class = rules.CombatState
    step_limit = 5000
    #: the GM override's inputs (the runner's override form); no circumstance DM: the text has none
    free_params = ("path", "value")
    override_help = override.HELP
    #: drawn on the board (click a hex), not listed as buttons: see encounters/views.py
    board_kinds = ("course",)
    #: the runner draws the board across the page, above the ship cards and actions
    wide_board = True

    # ------------------------------------------------------------ setup
    def setup(self, spec: dict) -> rules.CombatState:
        """The state at the start of the fight (a simulation sets the same spec up thousands of
        times: the state is built once per spec and copied)."""
        last = _LAST_SETUP[0]      # (one tuple, replaced whole: read once, it is consistent)
        if last is not None and spec is last[0] and spec == last[1]:     # the same spec as last time, unchanged
            return rules.copy_state(last[2])
        try:
            key = json.dumps(spec, sort_keys=True)
        except (TypeError, ValueError):      # not plain data: build it every time
            return self._setup(spec)
        built = _SETUPS.get(key)
        if built is None:
            if len(_SETUPS) > 64:
                _SETUPS.clear()
            built = _SETUPS[key] = plain_dicts(self._setup(spec))  # shared by every copy: fast reads
        _LAST_SETUP[0] = (spec, json.loads(key), built)   # (a copy of the spec: the caller may change its own)
        return rules.copy_state(built)

    def _setup(self, spec: dict) -> rules.CombatState:
        opts = spec.get("options") or {}
        width, height = int(opts.get("width", 30)), int(opts.get("height", 20))
        if "separation" in opts:  # a sweep's distance always fits: the board grows to hold it
            height = max(height, int(opts["separation"]) + 2)
        features = rules.build_features(opts.get("features") or [], width, height)
        places = _placements(spec.get("ships") or [], opts, width, height, {f.pos for f in features})
        ships = []
        for i, raw in enumerate(spec.get("ships") or []):
            stats = dict(raw.get("stats") or _BY_NAME[raw["template"]]["stats"])
            stats.setdefault("name", raw.get("name", f"Ship {i + 1}"))
            stats["crew"] = crew_skills(stats.get("crew") or {}, raw.get("crew") or [])
            col, row, facing = places[i]
            ship = rules.build_ship(stats, id=str(raw.get("id", f"s{i + 1}")), side=str(raw.get("side", f"side{i}")),
                                col=col, row=row, facing=facing)
            ship.name = str(raw.get("name", ship.name))
            carry_damage(ship, raw.get("damage") or {})
            ships.append(ship)
        complication = str(opts.get("complication", "remove"))
        if complication not in ("remove", "add"):   # RULES-NOTES Wild Die: remove, or add normally
            raise ValueError(f"The Wild-Die complication option must be 'remove' or 'add', not {complication!r}.")
        return rules.new_combat(ships, width, height, wild=bool(opts.get("wild", True)),
                            max_rounds=int(opts.get("max_rounds", 20)),
                            features=features, complication=complication)

    # ------------------------------------------------------------ whose step
    def acting(self, s: rules.CombatState, action: Action) -> Actor | None:
        """The ship's crew by position (SKILL_OF_POSITION): a gunner fires (at the weapon's
        station), the shields operator resolves the damage, the pilot does the rest."""
        if not action.actor or action.kind == "override":
            return None
        if action.kind in ("fire", "done"):
            sh = s.ship(action.actor)
            weapon = next((w.name for w in sh.weapons if w.id == action.get("weapon")), "") if sh else ""
            return Actor(ship=action.actor, position="gunner", station=weapon)
        if action.kind == "resolve":
            return Actor(ship=action.actor, position="shields")
        return Actor(ship=action.actor, position="pilot")

    def own_rolls(self, s: rules.CombatState, action: Action):
        """Initiative rolls every side's 2D in one step, entered in the first ship's name (its
        pilot decides it): that pilot's dice are their own side's rolls only; the app rolls the
        other sides' (docs/rulesets/starwars_d6.md, "Players' own steps").

        Resolving the firing phase's damage is one step too, entered in the first ship's name (its
        shields operator decides it).  The weapons' damage is the attacker's roll, made when the
        shot hit (seed 2. COMBAT step 4: "es tira el Dany de les armes"; step 5 "la tirada de
        l'atacant"): none is rolled here.  What is rolled here is each hit ship's defence: "el
        defensor" rolls its shields operator's skill + the ship's shields (step 5) and its Hull
        (step 6; an ion hit's Hull likewise, "Canons d'ions").  So that shields operator's dice are
        their own ship's rolls only (its shields, hull, hull against ions, and the damage table and
        rounds to evacuate of what befalls it); the app rolls every other ship's, an enemy's above all."""
        sh = s.ship(action.actor) if action.kind in ("initiative", "resolve") else None
        if sh is None:
            return None
        if action.kind == "initiative":
            side = sh.side
            return lambda purpose: is_initiative_of(side, purpose)
        from rulesets.core.messages import english   # a roll's purpose may be a message
        bases = tuple(f"{sh.name} {what}" for what in ("shields", "hull", "hull against ions", "damage table",
                                                       "rounds to evacuate"))

        def mine(purpose) -> bool:
            words = english(purpose)     # its dice again are "<purpose> (...)": the Wild Die, skill, cap
            return any(words == base or words.startswith(base + " (") for base in bases)
        return mine

    def actor_ship(self, s: rules.CombatState) -> str | None:
        if s.over:
            return None
        if s.queue and s.phase != "initiative":
            return s.queue[0]
        return next(sh.id for sh in s.ships if sh.in_play)

    def legal_actions(self, s: rules.CombatState) -> list[Action]:
        """Every legal action: :meth:`step_actions` plus a ``course`` to each hex the moving
        ship can reach (the board's click targets)."""
        if s.over:
            return []
        return self.step_actions(s) + [Action.make("course", s.moving.ship, col=c, row=r)
                                       for c, r in sorted(self._course_targets(s))] + [Action.make("override")]

    def step_actions(self, s: rules.CombatState) -> list[Action]:
        """The legal actions but the courses: one move at a time (a course is only a shortcut
        through these moves)."""
        if s.over:
            return []
        if s.phase == "movement":
            # the moves (or drift), then seed 3. CASOS ESPECIALS / 4. "Fase de moviment": break_free,
            # ram target=, jump, shutdown, evacuate (rules.special_options)
            return self._actions_of(s, "move") + self._actions_of(s, "special")
        if s.phase == "initiative":
            return self._actions_of(s, "initiative")
        if not s.queue:
            return self._actions_of(s, "resolve")
        return self._actions_of(s, "fire") + self._actions_of(s, "done")

    def _actions_of(self, s: rules.CombatState, kind: str) -> list[Action]:
        """The legal actions of one kind (``special``: the movement's special actions), in the
        order :meth:`step_actions` lists them."""
        who = self.actor_ship(s)
        if kind == "initiative":
            return [Action.make("initiative", who)] if s.phase == "initiative" else []
        if s.phase == "movement":
            if kind in ("move", "drift"):
                sh = s.ship(who)
                if rules.controls_dead(sh, s.round) and not sh.captured_by:
                    return [Action.make("drift", who)]
                # a ship held by a tractor beam only holds (rules.move_options)
                return [Action.make("move", who, how=m.kind, side=m.side) for m in rules.move_options(s)]
            if kind in ("special", "ram", "jump", "shutdown", "evacuate", "break_free"):
                return [Action.make(k, who, **params) for k, params in rules.special_options(s)
                        if kind in ("special", k)]
            return []
        if s.phase == "firing":
            if not s.queue:
                return [Action.make("resolve", who)] if kind == "resolve" else []
            if kind == "fire":
                return self._fire_actions(s, who)
            return [Action.make("done", who)] if kind == "done" else []
        return []

    def _fire_actions(self, s: rules.CombatState, who: str) -> list[Action]:
        """One ``fire weapon= target=`` per shot of :func:`rules.fire_options`; for a battery that is
        the broadside of every gun it has left, followed by the smaller broadsides ``guns=#k``
        (seed "Factors de Foc", step 1: the gunner decides how many guns fire at one target)."""
        shooter = s.ship(who)
        weapons = {w.id: w for w in shooter.weapons}
        out = []
        for wid, target in rules.fire_options(s):
            out.append(Action.make("fire", who, weapon=wid, target=target))
            if weapons[wid].shots > 1:
                left = rules.guns_left(s, shooter, weapons[wid])
                out.extend(Action.make("fire", who, weapon=wid, target=target, guns=k) for k in range(left - 1, 0, -1))
        return out

    def is_legal(self, s: rules.CombatState, action: Action) -> bool:
        """As ``action in legal_actions(s)``, listing only the actions of its kind (a course is
        legal when it names a hex the moving ship can reach: one search, cached)."""
        if s.over:
            return False
        if action.kind == "override":
            return not action.actor and set(dict(action.params)) <= {"path", "value"}
        if action.kind == "course":
            return (bool(s.moving) and action.actor == s.moving.ship and set(dict(action.params)) == {"col", "row"}
                    and (action.get("col"), action.get("row")) in self._course_targets(s))
        if action.kind == "move":
            return self._move_of(s, action) is not None
        if action.kind == "fire":
            return self._fire_legal(s, action)
        return action in self._actions_of(s, action.kind)

    def refusal(self, s: rules.CombatState, action: Action) -> Refusal | None:
        """Why the rules refuse ``action`` now, and which rule (refusals.py)."""
        return refusals.refusal(s, action)

    def _move_of(self, s: rules.CombatState, action: Action):
        """The :class:`hexes.Move` a legal ``move`` action names (None when it is not legal)."""
        if s.over or s.phase != "movement" or not s.moving or action.actor != self.actor_ship(s):
            return None
        sh = s.ship(action.actor)
        if rules.controls_dead(sh, s.round) and not sh.captured_by:
            return None
        params = action.params             # exactly (("how", kind), ("side", side)), as listed
        if len(params) != 2 or params[0][0] != "how" or params[1][0] != "side":
            return None
        how, side = params[0][1], params[1][1]
        return next((m for m in rules.move_options(s) if m.kind == how and m.side == side), None)

    def _fire_legal(self, s: rules.CombatState, action: Action) -> bool:
        """``action in`` :meth:`_fire_actions`, without listing them: a shot of
        :func:`rules.fire_options`, and for a battery ``guns`` below the guns it has left."""
        if s.over or s.phase != "firing" or not s.queue or action.actor != s.queue[0]:
            return False
        params = dict(action.params)
        if len(params) != len(action.params) or not {"weapon", "target"} <= set(params) <= {"weapon", "target", "guns"}:
            return False
        weapon_id, target = params["weapon"], params["target"]
        if not (isinstance(weapon_id, str) and isinstance(target, str)) or (weapon_id, target) not in rules.fire_options(s):
            return False
        if "guns" not in params:
            return True
        shooter = s.ship(action.actor)
        weapon = next(w for w in shooter.weapons if w.id == weapon_id)
        return weapon.shots > 1 and params["guns"] in range(1, rules.guns_left(s, shooter, weapon))

    def apply(self, s: rules.CombatState, action: Action, dice: Dice) -> Step:
        if action.kind == "move":       # the most frequent step: its legality check finds the move
            # (the bot's own move for this very state was found among the rules' moves already;
            # any other action -- the runner's, a scenario's -- is looked for in full)
            found = picked_move(s, action) or self._move_of(s, action)
            if found is None:
                raise IllegalAction(_not_legal(action))
            return Step(*rules.make_move(s, found, log=Log(dice.recording)))
        if not built_by_bot(s, action) and not self.is_legal(s, action):
            if action.kind == "course" and s.moving and action.actor == s.moving.ship:
                raise IllegalAction(Refusal(msg("starwars_d6.refused.unreachable", "({col},{row}) cannot be reached now.",
                                                col=action.get("col"), row=action.get("row"))))
            raise IllegalAction(_not_legal(action))
        k = action.kind
        if k == "course":
            return self._course(s, action, dice)
        if k == "override":
            state, log = override.override(s, action.get("path", ""), action.get("value", ""),
                                           log=Log(dice.recording))
            return Step(state, log)
        if k == "initiative":
            state, log = rules.roll_initiative(s, dice)
        elif k == "drift":
            state, log = rules.drift(s, dice)
        elif k == "ram":
            state, log = rules.ram(s, action.get("target"), dice)
        elif k == "jump":
            state, log = rules.jump(s, log=Log(dice.recording))
        elif k == "shutdown":
            state, log = rules.shutdown(s, log=Log(dice.recording))
        elif k == "evacuate":
            state, log = rules.evacuate(s, log=Log(dice.recording))
        elif k == "break_free":
            state, log = rules.break_free(s, dice)
        elif k == "fire":
            state, log = rules.fire(s, action.get("weapon"), action.get("target"), dice, guns=action.get("guns"),
                                    checked=True)
        elif k == "done":
            state, log = rules.end_fire(s, log=Log(dice.recording))
        else:
            state, log = rules.resolve_firing(s, dice)
        return Step(state, log)

    def override_fields(self, s: rules.CombatState) -> list:
        """The fields of the GM override form (override.SHIP_FIELDS, the shared grammar)."""
        return list(override.SHIP_FIELDS)

    # ------------------------------------------------------------ odds and the bot
    def odds(self, s: rules.CombatState, action: Action) -> Odds | None:
        """Exact odds of a shot (miss + each damage band / ion result / capture), a ram or
        breaking free; None for the other actions (odds.action_odds)."""
        return odds.action_odds(s, action)

    def policy(self, s: rules.CombatState, rng: random.Random) -> Action:
        """The bot (policy.choose): emergencies, then geometric movement to the best range
        window, then the shots with the best expected damage; never rams or leaves the board."""
        return choose(self, s, rng)

    # ------------------------------------------------------------ courses (click a hex)
    def _course_targets(self, s: rules.CombatState) -> dict:
        """The hexes the moving ship can reach this phase: {(col, row): (state left, moves)}."""
        if s.phase != "movement" or not s.moving or s.over:
            return {}
        sh = s.ship(s.moving.ship)
        if rules.controls_dead(sh, s.round):
            return {}
        m = s.moving
        start = hexes.MoveState(sh.pos, sh.facing, m.speed_left, m.free_turns_left, m.after_forward)
        key = (start, sh.scale, s.board.width, s.board.height, rules.course_key(s))
        found = _COURSES.get(key)
        if found is None:
            if sh.captured_by:   # held by a tractor beam: it goes nowhere (rules.moves_from)
                return {}
            capital, board = sh.scale != "starfighter", s.hboard
            blocked = rules.occupied(s, besides=(sh.id,))   # computed once for the whole search
            found = course_targets(start, lambda ms: hexes.moves(ms, capital, board, blocked), board)
            if len(_COURSES) > 256:
                _COURSES.clear()
            _COURSES[key] = found
        return found

    def _course(self, s: rules.CombatState, action: Action, dice: Dice) -> Step:
        """A legal course (see :meth:`is_legal`): its moves, made one by one."""
        col, row = action.get("col"), action.get("row")
        after, moves = self._course_targets(s)[(col, row)]
        log = Log(dice.recording)
        log.say(words.course_line(s.ship(s.moving.ship).name, col, row, len(moves), after), tables.SEC_MOVEMENT)
        state = s
        for mv in moves:
            state, _ = rules.move(state, mv.kind, mv.side, log=log)
        return Step(state, log)

    # ------------------------------------------------------------ views
    def view(self, s: rules.CombatState, viewer: Viewer) -> dict:
        """The board and every ship on it (nothing on a hex map is hidden); a ship's crew
        skills only to the GM and to players with a character aboard.  The GM also gets the
        hexes the moving ship can reach with the points it would have left."""
        ships = []
        for sh in s.ships:
            d = {"id": sh.id, "name": sh.name, "side": sh.side, "side_index": s.sides.index(sh.side) % 4,
                 "scale": words.SCALE.get(sh.scale, sh.scale), "pos": [sh.col, sh.row],
                 "facing": hexes.FACING_NAME[sh.facing], "speed": sh.speed, "maneuverability": sh.maneuverability,
                 "hull": sh.hull, "shields": sh.shields, "hyperdrive": sh.hyperdrive, "in_play": sh.in_play,
                 "destroyed": sh.destroyed, "status": words.ship_status(sh, s.round),
                 "damage": [words.DAMAGE.get(d, d) for d in sh.damage], "moving": bool(s.moving and s.moving.ship == sh.id),
                 "weapons": [{"id": w.id, "name": w.name, "type": w.type, "fire_control": w.fire_control,
                              "damage": w.damage, "linked": w.linked, "shots": w.shots, "ammo": w.ammo,
                              "operative": rules.weapon_operative(w)} for w in sh.weapons],
                 "fact_labels": words.FACT_LABELS}
            if viewer.is_gm or sh.id in viewer.ships:
                d["crew"] = {"gunnery": sh.crew.gunnery, "piloting": sh.crew.piloting, "shields": sh.crew.shields,
                             "summary": words.crew_summary(sh)}
            ships.append(d)
        board = {"width": s.board.width, "height": s.board.height,
                 "features": [{**asdict(f), "kind_label": words.FEATURE.get(f.kind, f.kind)} for f in s.features]}
        # This firing phase's shots so far (fire is simultaneous: their damage waits for "resolve").
        # Players see who fired at whom, not whether it hit: a GM-only shot's roll stays hidden.
        board["shots"] = [{"from": list(s.ship(sh.attacker).pos), "to": list(s.ship(sh.target).pos),
                           "hit": sh.hit if viewer.is_gm else None,
                           "label": words.shot_label(s, sh, with_result=viewer.is_gm)} for sh in s.shots]
        moving = None
        if s.phase == "movement" and s.moving and not s.over:
            mover = s.ship(s.moving.ship)
            # seed 1.: a starfighter's free turn comes right after a forward move; until then a turn costs a point
            moving = {"ship": s.moving.ship, "speed_left": s.moving.speed_left,
                      "free_turns_left": s.moving.free_turns_left,
                      "free_after_forward": bool(s.moving.free_turns_left and not s.moving.after_forward
                                                 and mover.scale == tables.STARFIGHTER)}
            if viewer.is_gm:
                board["reach"] = [{"col": c, "row": r, "left": after.speed_left, "free": after.free_turns_left}
                                  for (c, r), (after, _) in sorted(self._course_targets(s).items())]
        return {"round": s.round, "phase": words.PHASE.get(s.phase, s.phase), "active": s.active, "over": s.over, "winner": s.winner,
                "board": board, "order": list(s.order), "moving": moving,
                "initiative": [{"side": side, "roll": s.initiative.get(side)} for side in s.order],
                "sides": [{"name": side, "index": i % 4} for i, side in enumerate(s.sides)],
                "ships": ships}

    def secrets(self, s: rules.CombatState, viewer: Viewer) -> list[str]:
        """What a player's characters would not know: the crew skills of ships they are not
        aboard (the only hidden thing: the board, the ships and their damage are in plain sight)."""
        if viewer.is_gm:
            return []
        return [render(words.crew_summary(sh)) for sh in s.ships if sh.id not in viewer.ships]

    def describe(self, s: rules.CombatState, action: Action):
        """The action's label, a message (words.describe)."""
        return words.describe(s, action)

    # ------------------------------------------------------------ encounters and simulation
    def example_setup(self, variant: int = 0) -> dict:
        """Variant 0: a fighter duel; 1: a corvette and a fighter against two interceptors.
        The sides start ``separation`` hexes apart, facing each other (see ``_placements``)."""
        if variant % 2:
            return {"ships": [
                {"id": "c1", "name": "Warden", "side": "Alliance", "template": "Warden corvette"},
                {"id": "f1", "name": "Talon", "side": "Alliance", "template": "Talon heavy fighter"},
                {"id": "e1", "name": "Kestrel 1", "side": "Empire", "template": "Kestrel interceptor"},
                {"id": "e2", "name": "Kestrel 2", "side": "Empire", "template": "Kestrel interceptor"}],
                "options": {"width": 24, "height": 18, "separation": 11, "max_rounds": 20}}
        return {"ships": [
            {"id": "a", "name": "Talon", "side": "Alliance", "template": "Talon heavy fighter", "crew": [{"name": "Ace", "skills": {"gunnery": "5D"}}]},
            {"id": "b", "name": "Kestrel", "side": "Empire", "template": "Kestrel interceptor"}],
            "options": {"width": 14, "height": 16, "separation": 11, "max_rounds": 20}}

    def templates(self) -> list[dict]:
        return [dict(t) for t in TEMPLATES]

    def demo_fleets(self) -> list[dict]:
        return [
            {"name": "Alliance patrol", "side": "Alliance", "colour": "#cc6633",
             "ships": [{"template": "Warden corvette", "name": "Warden"},
                       {"template": "Talon heavy fighter", "name": "Talon",
                        "crew": [{"name": "Ace", "position": "pilot", "skills": {"gunnery": "5D", "piloting": "5D"}}]}]},
            # Measured with the bot (60 battles, 6 and 12 hexes apart): about even, the
            # Alliance better at long range, the interceptors up close (docs/rulesets/starwars_d6.md).
            {"name": "Interceptor wing", "side": "Empire", "colour": "#666699",
             "ships": [{"template": "Kestrel interceptor", "name": "Kestrel 1"},
                       {"template": "Kestrel interceptor", "name": "Kestrel 2"},
                       {"template": "Kestrel interceptor", "name": "Kestrel 3"},
                       {"template": "Wasp bomber", "name": "Wasp"}]},
        ]

    def damage_of(self, s: rules.CombatState, ship_id: str) -> dict:
        """What the ship carries out of the fight (applied by ``setup`` next time): the codes
        it lost dice from, its lost systems and spent ammunition (seed 5.: damage is cumulative)."""
        sh = s.ship(ship_id)
        out: dict = {}
        if sh.damage:
            out["results"] = list(sh.damage)
            out["codes"] = {"maneuverability": sh.maneuverability, "hull": sh.hull, "shields": sh.shields,
                            "speed": sh.speed}
        weapons = {}
        for w in sh.weapons:
            lost = {}
            if w.fc_reduced:
                lost["fire_control"] = w.fire_control
            if w.disabled:
                lost["disabled"] = True
            if w.ammo is not None:
                lost["ammo"] = w.ammo
            if lost:
                weapons[w.id] = lost
        if weapons:
            out["weapons"] = weapons
        for flag in ("hyperdrive_out", "dead_in_space", "severe", "destroyed"):
            if getattr(sh, flag):
                out[flag] = True
        return out

    def outcome(self, s: rules.CombatState) -> BattleOutcome:
        def in_play(side):
            ships = [sh for sh in s.ships if sh.side == side]
            return sum(1 for sh in ships if sh.in_play) / max(1, len(ships))

        def lost(side):
            return sum(1 for sh in s.ships if sh.side == side and sh.destroyed)

        return BattleOutcome(s.winner, s.round, tuple(SideResult(side, in_play(side), lost(side)) for side in s.sides))

    def sweeps(self):
        from rulesets.core.simulate import Sweep, SweepPoint

        return [
            Sweep("distance", "Starting distance in hexes (who wins at which range)",
                  tuple(SweepPoint(f"{d} hexes apart", {"separation": d, "placements": {}}) for d in SWEEP_DISTANCES)),
            Sweep("wild", "Wild Die (RULES-NOTES)", (SweepPoint("Wild Die on", {"wild": True}),
                                                     SweepPoint("Wild Die off", {"wild": False}))),
        ]


#: The starting distances of the range sweep: laser short/medium/long, ion and blaster bands.
SWEEP_DISTANCES = (2, 4, 6, 8, 10, 12, 15)

_COURSES: dict = {}  # course searches, keyed by everything they depend on
_SETUPS: dict = {}   # setup states by their spec (as JSON); copied for every caller
_LAST_SETUP: list = [None]   # (the last spec asked -- the very object --, a copy of it, its setup state)

def _not_legal(action: Action) -> Refusal:
    return Refusal(msg("starwars_d6.refused.not_legal", "'{action}' is not a legal action now.", action=action.to_str()))


RULESET = StarWarsRuleset()
