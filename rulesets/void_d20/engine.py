"""Void d20 combat round: the engine object the app calls (rulesets.core.contract).

Personal combat, ship combat and boarding in one encounter; the rules live in
personal.py, ships.py and turns.py, the action kinds in actions.py, the odds in odds.py,
the bot in policy.py, the data in tables.py and library.py.  Pure Python.
"""
from __future__ import annotations

import random

from rulesets.core.contract import Actor, BattleOutcome, RulesetBase, SideResult
from rulesets.core.dice import Dice, playout_dice
from rulesets.core.engine import Action, IllegalAction, Log, Odds, Refusal, Step, Viewer
from rulesets.core.messages import Message, msg

from . import cards, library, policy, refusals, tables, timers, turns
from . import odds as void_odds
from .actions import KINDS, TURN_KINDS, check_of
from .common import combatant, ship, with_standing
from .model import VoidState, pair_key
from .names import hidden_names, shown_names
from .options import actor_actions, gm_actions
from .override import FIELDS, HELP, apply_override, damage_problems, value_text
from .personal import damage_dice, defence_of, weapon_of
from .setup import build_state
from .ships import station_crew

class VoidD20Ruleset(RulesetBase):
    key = "void_d20"
    name = "Void d20 combat round (personal, ship and boarding)"
    source_language = "ru"  # the seed: shared/seeds/*.ru.txt
    state_class = VoidState
    step_limit = 3000
    strength_label = "HP left"
    free_params = ("dm", "path", "value")
    secondary_kinds = ("risky", "catastrophe", "rest", "cover", "end", "pass")
    override_help = HELP

    # --- the fight -----------------------------------------------------------------------

    def setup(self, spec: dict) -> VoidState:
        return build_state(spec)

    def legal_actions(self, state: VoidState) -> list[Action]:
        return actor_actions(state) + gm_actions(state)

    def is_legal(self, state: VoidState, action: Action) -> bool:
        if action.kind == "override":
            return not state.over and action.actor == "gm"
        return super().is_legal(state, action)

    def refusal(self, state: VoidState, action: Action) -> Refusal | None:
        """Why the rules refuse ``action`` now, and which rule (refusals.py)."""
        return refusals.refusal(state, action)

    def apply(self, state: VoidState, action: Action, dice: Dice) -> Step:
        log = Log(dice.recording)
        state = with_standing(state)         # who stands where, worked out once for the step (common.Standing)
        if action.kind == "override":
            new, sentence = apply_override(state, action.get("path", ""), action.get("value", ""))
            log.say(sentence, "GM override")
            return Step(turns.advance(new, log, dice) if new.phase == "turn" else turns.finish_if_over(new, log, dice), log)
        kind = KINDS.get(action.kind)
        if kind is None:
            raise IllegalAction(f"'{action}' is not an action of {self.name}.")
        new = kind.apply(state, log, dice, action)
        if action.kind in TURN_KINDS:
            new = turns.next_step(new, log, dice, end_turn=kind.end_turn)
        elif action.kind != "begin" and new.phase == "turn":
            new = turns.advance(new, log, dice)
        return Step(new, log)

    def odds(self, state: VoidState, action: Action) -> Odds | None:
        check = check_of(state, action)
        if check is None:
            return None
        if action.kind in ("attack", "risky"):
            c = combatant(state, action.actor)
            return void_odds.attack_odds(check, damage_dice(c, action.kind == "risky"),
                                         void_available=c.kind == "character" and c.void > 0)
        if action.kind == "fire":
            s = ship(state, action.actor)
            from .dice import parse_damage

            dd = parse_damage(next(w.damage for w in s.weapons if w.id == action.get("weapon")))
            return void_odds.attack_odds(check, (dd.count, dd.sides, dd.plus), void_available=False)
        success, failure = void_odds.CHECK_OUTCOMES[action.kind]
        return void_odds.check_odds(check, success, failure, void_available=False)

    def policy(self, state: VoidState, rng: random.Random) -> Action:
        return policy.choose(state, rng)

    def playout(self, state: VoidState, rng: random.Random, limit: int) -> tuple[VoidState, int]:
        """The bot's fight with nothing recorded (simulations, re-roll analyses): each step is the
        bot's choice and the same rule functions ``apply`` calls, without what nobody reads here
        (no Step, no log line).  The same battle step for step as :meth:`policy` + :meth:`apply`
        (docs/rulesets/void_d20.md, "Playout speed"; tests/rulesets/void_d20/test_playouts.py)."""
        dice = playout_dice(rng)
        log = Log(recording=False)           # the rules say every line; this log keeps none
        steps = 0
        while not state.over and steps < limit:
            if state.phase == "initiative":  # the bot's "begin" (apply: the round begins, no advance)
                state = turns.begin_round(state, log, dice)
            else:
                action = policy.choose(state, rng)
                kind = KINDS[action.kind]
                state = turns.next_step(kind.apply(state, log, dice, action), log, dice, kind.end_turn)
            steps += 1
        return state, steps

    def acting(self, state: VoidState, action: Action) -> Actor | None:
        """A person acts for themselves (a squad member for their squad's crew entry); a ship's
        station step is the person who works the station now (VD-37..41), else the ship's."""
        if not action.actor or action.actor == "gm" or action.kind == "override":
            return None
        if state.phase == "turn" and state.scale == "ship" and any(s.id == action.actor for s in state.ships):
            station = tables.STATIONS[state.slot]
            who = station_crew(state, ship(state, action.actor), station.key)
            return Actor(ship=action.actor, character=(who.squad or who.id) if who else "",
                         position=station.position)
        if any(s.id == action.actor for s in state.ships):
            return Actor(ship=action.actor)
        person = next((c for c in state.combatants if c.id == action.actor), None)
        if person is None:
            return super().acting(state, action)
        return Actor(ship=person.ship, character=person.squad or person.id)

    def actor_ship(self, state: VoidState) -> str | None:
        if state.over:
            return None
        if state.phase != "turn":
            return next((s.id for s in state.ships if s.in_space), state.ships[0].id)
        actor = state.order[state.turn]
        return actor if state.scale == "ship" else combatant(state, actor).ship

    def describe(self, state: VoidState, action: Action) -> Message | str:
        if action.kind == "override":
            path, value = action.get("path"), value_text(action.get("value"))
            if path:
                return msg("void_d20.action.override", "GM override: set {path} to {value}", path=path, value=value)
            return msg("void_d20.action.override_form", "GM override: set a value by hand")
        kind = KINDS.get(action.kind)
        text = kind.words(state, action) if kind else action.kind
        dm = int(action.get("dm", 0) or 0)
        return msg("void_d20.action.gm_dm", "{action} (GM {dm:+d})", action=text, dm=dm) if dm else text

    # --- what people see ------------------------------------------------------------------

    def view(self, state: VoidState, viewer: Viewer) -> dict:
        names = shown_names(state, viewer)
        ships = []
        for s in state.ships:
            own = viewer.is_gm or s.id in viewer.ships
            card: dict = {"id": s.id, "name": s.name, "side": s.side, "status": cards.ship_status(s),
                    "range": [cards.band_to(state.bands[k], t.name)
                              for t in state.ships if t.side != s.side
                              for k in [pair_key(s.id, t.id)] if k in state.bands],
                    "people": [self._person(state, c, viewer, names) for c in state.combatants if c.aboard == s.id],
                    "fact_labels": cards.FACT_LABELS}
            if own:
                card.update({
                    "frame": cards.of(s.frame, s.max_frame), "speed": s.speed, "defence": s.defence,
                    "spare_parts": s.spare_parts,
                    "weapons": [cards.ship_weapon(w) for w in s.weapons],
                    "modules": [cards.module(m) for m in s.modules],
                    "catastrophes": [tables.CATASTROPHE[k].words for k in s.catastrophes],
                    "reactor": s.reactor, "reboot": s.reboot, "evading": s.evading,
                    "initiative": s.initiative,
                })
                if viewer.is_gm:
                    card["frame_text"] = f"{s.name}: frame {s.frame}/{s.max_frame}"
            ships.append(card)
        turns = [ship(state, a).name if state.scale == "ship" else names[a] for a in state.order]
        active = ""
        if state.active:
            actor = state.order[state.turn]
            active = state.active if state.scale == "ship" else names[actor]
        # "order" (ships only) is what the app's players' page lists; "turns" names everyone who acts
        return {"round": state.round, "scale": state.scale, "phase": cards.PHASE.get(state.phase, state.phase), "active": active,
                # the players' page says who acts in a fight between people (encounters/viewing.py)
                "acting_person": active if state.scale != "ship" and not state.over else "",
                "turns": turns, "order": turns if state.scale == "ship" else [],
                "station": cards.STATION[state.slot] if state.scale == "ship" and state.phase == "turn"
                and not state.over else "", "over": state.over, "winner": state.winner,
                "ships": ships}

    def _person(self, state: VoidState, c, viewer: Viewer, names: dict) -> dict:
        own = viewer.is_gm or c.ship in viewer.ships
        out = {"id": c.id, "name": names[c.id], "side": c.side, "status": cards.PERSON_STATUS[c.status], "cover": cards.COVER.get(c.cover, c.cover),
               "kind": "enemy" if c.kind == "enemy" else "character", "own": own}
        if own:
            weapon = weapon_of(c)
            out.update({
                "hp": cards.of(max(0, c.hp), c.max_hp), "dr": defence_of(c)[0], "position": c.position,
                "void": c.void if c.kind == "character" else None,
                "weapon": f"{weapon.name} ({weapon.damage})",
                "gear": [cards.gear(i) for i in c.items if i.kind != "weapon"],
                # the count as a GM reads it: turns still lost (shock, unconscious), rounds left to help
                # (bleeding out), this round counted while it still counts (timers.py)
                "timer": timers.rounds_left(state, c) if c.status in timers.TIMED else None,
                "timer_text": count if (count := timers.words(state, c)) is not None else "",
                "notes": [cards.NOTE.get(n, n) for n in c.notes], "initiative": c.initiative,
            })
            if c.kind == "enemy":
                out["morale"] = cards.morale(c.morale, void_odds.core_odds.percent(void_odds.morale_break_chance(c.morale)))
            if viewer.is_gm:
                out["hp_text"] = f"{c.name}: {c.hp}/{c.max_hp} HP"
        return out

    def secrets(self, state: VoidState, viewer: Viewer) -> list[str]:
        if viewer.is_gm:
            return []
        out = [f"{s.name}: frame {s.frame}/{s.max_frame}" for s in state.ships]
        out += [f"{c.name}: {c.hp}/{c.max_hp} HP" for c in state.combatants]
        out += [f"morale {c.morale}: " for c in state.combatants if c.kind == "enemy" and c.ship not in viewer.ships]
        return out + hidden_names(state, viewer)

    # --- the app's other calls -----------------------------------------------------------

    def example_setup(self, variant: int = 0) -> dict:
        return library.example_setup(variant)

    def templates(self) -> list[dict]:
        return [dict(t) for t in library.TEMPLATES]

    def demo_fleets(self) -> list[dict]:
        return library.demo_fleets()

    def override_fields(self, state) -> list:
        return list(FIELDS)

    def damage_problems(self, state: VoidState, ship_id: str, damage: dict) -> list[str]:
        return damage_problems(state, ship_id, damage)

    def damage_of(self, state: VoidState, ship_id: str) -> dict:
        s = ship(state, ship_id)
        out: dict = {}
        if s.frame < s.max_frame:
            out["frame_lost"] = s.max_frame - s.frame
        if any(m.out for m in s.modules):
            out["modules_out"] = [m.name for m in s.modules if m.out]
        if any(w.out for w in s.weapons):
            out["weapons_out"] = [w.name for w in s.weapons if w.out]
        crew: dict = {}
        for c in state.combatants:
            if c.ship != ship_id:
                continue
            if c.kind == "enemy":
                key = c.squad
                if not c.alive:
                    crew.setdefault(key, {"lost": 0})["lost"] += 1
                continue
            entry: dict = {}
            if c.hp < c.max_hp:
                entry["hp_lost"] = c.max_hp - max(0, c.hp)
            if c.status == "dead":
                entry["status"] = "dead"
            if c.notes:
                entry["notes"] = list(c.notes)
            entry["void"] = c.void
            items = {i.id: {"condition": i.condition, "charges": i.charges} for i in c.items}
            if items:
                entry["items"] = items
            crew[c.id] = entry
        if crew:
            out["crew"] = crew
        return out

    def outcome(self, state: VoidState) -> BattleOutcome:
        results = []
        for side in turns.sides(state):
            people = [c for c in state.combatants if c.side == side]
            total = sum(c.max_hp for c in people) or 1
            left = sum(max(0, c.hp) for c in people if c.alive)
            lost = sum(1 for s in state.ships if s.side == side and (s.destroyed or s.drifting))
            results.append(SideResult(side, min(1.0, left / total), lost))
        return BattleOutcome(state.winner, state.round, tuple(results))

    def sweeps(self) -> list:
        from rulesets.core.simulate import Sweep, SweepPoint

        return [
            Sweep("start_band", "Range band at the start",
                  tuple(SweepPoint(tables.BANDS[b].label.split(":")[0], {"start_band": b})
                        for b in ("far", "medium", "close", "docked"))),
            Sweep("squad_bonus", "Enemy squad size", tuple(SweepPoint(f"+{n} per squad", {"squad_bonus": n}) for n in (0, 1, 2))),
            Sweep("void_points", "Void Points at the start", tuple(SweepPoint(f"{n} each", {"void_points": n})
                                                                  for n in (0, 1, 2, 4))),
        ]


RULESET = VoidD20Ruleset()
