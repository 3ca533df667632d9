""""Play this ship's turn" plays the NPC ships' replies within the turn (a countermeasure, a
dodge) and stops at the next ship's turn, or where a player's ship must reply."""
import pytest

from encounters import log as encounter_log
from encounters.autoplay import auto_play
from encounters.models import Encounter
from rulesets.core import registry
from rulesets.core.engine import Action

pytestmark = pytest.mark.django_db

WC = registry.get("wing_commander")


def _dogfight(campaign, gm, players: set[str] = frozenset()) -> Encounter:
    setup = WC.example_setup(0)
    for ship in setup["ships"]:
        if ship["id"] in players:
            ship["crew"][0]["player"] = gm.pk  # a player's character aboard: not an NPC
    return Encounter.objects.create(campaign=campaign, name="Dogfight", ruleset="wing_commander", seed="turns",
                                    setup=setup, created_by=gm)


def _play_turns_until_a_reply(encounter, limit=60):
    """Play "this ship's turn" again and again until a turn holds a step decided by another ship
    (the defender's answer to an attack): (whose turn, its steps, the state after)."""
    for _ in range(limit):
        now = encounter_log.current(encounter)
        assert not now.state.over, "the fight ended before any defender answered"
        turn = WC.turn_ship(now.state)
        taken = auto_play(encounter, mode="ship", expected_seq=now.head)
        after = encounter_log.current(encounter)
        steps = [Action.parse(a.action) for a in after.applied[-taken:]]
        if any(a.actor != turn for a in steps):
            return turn, steps, after
    pytest.fail("no turn held a step by another ship")


def test_an_npc_defenders_answer_is_played_within_the_attackers_turn(campaign, gm):
    encounter = _dogfight(campaign, gm)
    turn, steps, after = _play_turns_until_a_reply(encounter)
    assert steps[0].actor == turn
    assert {a.kind for a in steps if a.actor != turn} <= {"countermeasure", "dodge", "eject"}
    # It played on to the end of the turn: now it is another ship's turn (or the fight is over).
    assert after.state.over or WC.turn_ship(after.state) != turn


def test_it_stops_where_a_players_ship_must_answer(campaign, gm):
    ships = [s["id"] for s in WC.example_setup(0)["ships"]]
    encounter = _dogfight(campaign, gm, players=set(ships))  # every ship a player's
    for _ in range(60):
        now = encounter_log.current(encounter)
        assert not now.state.over, "the fight ended before any defender had to answer"
        turn = WC.turn_ship(now.state)
        auto_play(encounter, mode="ship", expected_seq=now.head)
        after = encounter_log.current(encounter).state
        if not after.over and WC.actor_ship(after) != WC.turn_ship(after):
            # An attack waits for its target, a player's ship: auto-play left the answer to them.
            assert WC.turn_ship(after) == turn and after.phase == "defend"
            return
    pytest.fail("no attack ever waited for a player's answer")


CEPHEUS = registry.get("cepheus")


def test_a_cepheus_ships_turn_plays_through_the_targets_reaction(campaign, gm):
    """Cepheus: an attack gives the target a reaction step (dodge, sand, point defence); for an NPC
    target "Play this ship's turn" decides it and plays on to the end of the attacker's turn."""
    encounter = Encounter.objects.create(campaign=campaign, name="Convoy", ruleset="cepheus", seed="turns",
                                         setup=CEPHEUS.example_setup(0), created_by=gm)
    for _ in range(60):
        now = encounter_log.current(encounter)
        assert not now.state.over, "the fight ended before a turn held a reaction"
        turn = CEPHEUS.turn_ship(now.state)
        taken = auto_play(encounter, mode="ship", expected_seq=now.head)
        after = encounter_log.current(encounter)
        reactions = [a for a in after.applied[-taken:] if Action.parse(a.action).kind in
                     ("dodge", "sand", "point_defence", "no_reaction", "screen")]
        if reactions and now.state.phase != "initiative":
            assert after.state.over or CEPHEUS.turn_ship(after.state) != turn, "stopped inside the turn"
            assert after.state.phase != "react", "stopped at a reaction"
            return
    pytest.fail("no turn held a reaction")
