"""Auto-play: the ruleset's policy decides steps for the GM, each through the one write path.

Every step auto-play takes is an ordinary row appended by :func:`encounters.log.step`,
seeded from (encounter seed, sequence, "policy") so the same log always holds the same
choices.  The runner offers it for one step or for the NPCs to the end of the round.
"""
from __future__ import annotations

import random

from django.utils.translation import gettext, gettext_lazy

from rulesets.core.dice import DiceNeeded, derive_seed

from . import log as encounter_log
from .models import Encounter


class AutoPlayRefused(Exception):
    """Auto-play cannot decide this step (a player's decision, physical dice); the message says why."""


def npc_ships(encounter: Encounter) -> set[str]:
    """Ships no player has a character aboard: the ones auto-play may decide for."""
    return {spec["id"] for spec in encounter.setup["ships"]
            if not spec.get("player") and not any(c.get("player") for c in spec.get("crew", []))}


def policy_action(encounter: Encounter, now):
    """The policy's choice at ``now`` (a :class:`encounters.log.Current`), seeded by the step it makes."""
    rng = random.Random(derive_seed(encounter.seed, now.head + 1, "policy"))
    return encounter.engine.policy(now.state, rng)


#: what auto-play may be asked to play, in words for the refusal of an unknown mode
MODES = {"step": gettext_lazy("one step"), "ship": gettext_lazy("this ship's turn"),
         "decision": gettext_lazy("to the next player decision"),
         "round": gettext_lazy("the NPCs to the end of the round")}


def auto_play(encounter: Encounter, *, mode: str, expected_seq: int, user=None) -> int:
    """Play ``"step"`` (one step, whoever's it is), ``"ship"`` (the acting ship's turn: its steps,
    and the NPC ships' replies within it, such as a dodge, until another ship's turn; a player's
    ship's reply is theirs to decide, so it stops there), ``"decision"`` (NPC steps until a
    player's ship decides, across rounds) or ``"round"`` (NPC steps to the end of the round).
    Each step is its own row.

    Returns the number of steps taken.  Raises :class:`encounters.log.StaleStep` for a stale
    form, :class:`encounters.log.EncounterClosed`, and :class:`AutoPlayRefused` with a message.
    """
    if mode not in MODES:
        raise AutoPlayRefused(gettext("Auto-play plays %(modes)s; '%(mode)s' is none of them.") % {
            "modes": ", ".join(str(m) for m in MODES.values()), "mode": mode})
    engine = encounter.engine
    npcs = npc_ships(encounter)
    taken = 0
    links = None
    if encounter.players_act:
        from .players import links_of, waiting_for

        links = links_of(encounter)
    now = encounter_log.current(encounter)
    start_round = now.state.round
    start_ship = engine.actor_ship(now.state)
    start_turn = engine.turn_ship(now.state)
    try:
        while taken < engine.step_limit and not now.state.over:
            if mode == "step" and taken:
                break
            if links is not None and links.anyone:
                # Players act themselves: a step one of their characters may take is theirs to take.
                waiting = waiting_for(encounter, now.state, links)
                if waiting:
                    if not taken:
                        who = "; ".join(f"{w['player']} ({', '.join(w['characters'])})" for w in waiting)
                        raise AutoPlayRefused(gettext("Waiting for %(who)s: a player's character acts now. "
                                                      "Take the step yourself from the list if you must.")
                                              % {"who": who})
                    break
            if mode == "ship" and taken:
                if engine.turn_ship(now.state) != start_turn:
                    break  # the next ship's turn
                deciding = engine.actor_ship(now.state)
                if deciding not in (start_ship, start_turn) and deciding not in npcs:
                    break  # a player's ship replies: their decision
            if mode == "decision" and engine.actor_ship(now.state) not in npcs:
                if not taken:
                    raise AutoPlayRefused(gettext("It is a player's ship's step: decide it yourself."))
                break
            if mode == "round":
                if now.state.round != start_round:
                    break
                if engine.actor_ship(now.state) not in npcs:
                    if not taken:
                        raise AutoPlayRefused(gettext("It is a player's ship's step: decide it yourself."))
                    break
            encounter_log.step(encounter, policy_action(encounter, now).to_str(),
                               expected_seq=expected_seq if not taken else now.head, user=user)
            taken += 1
            now = encounter_log.current(encounter)
    except DiceNeeded:
        raise AutoPlayRefused(
            gettext("Auto-play rolls the app's dice; switch this encounter to app or mixed dice to use it.")) from None
    return taken
