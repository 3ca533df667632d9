"""Issue 23, "messages, not f-strings": what a dogfight says is a message of the system (or of the
core), rendered when someone reads it; a playout keeps none of it.

Bot battles of both example setups (docs/rulesets/wing_commander.md), seeded dice: every log line,
every roll's purpose, table, row and modifier label, every action label and odds line.  The rules
(2.1.3 the turn, 2.1.4 the attack roll, 2.1.5 the dodge, 2.1.7/2.1.8 first damage, 2.1.9 criticals
and fumbles) all speak in these battles.
"""
from __future__ import annotations

import random

from rulesets.core.dice import Dice, SeededSource
from rulesets.core.messages import Message, english
from tests.rulesets.messages_kit import bot_steps

from .helpers import RULESET

OURS = ("wing_commander.", "core.")


def _ours(words) -> bool:
    return isinstance(words, Message) and words.id.startswith(OURS)


def _battle(variant: int, seed: int, recording: bool = True, limit: int = 300):
    """The steps of one bot battle: (state before, action, step, dice) each."""
    return bot_steps(RULESET, RULESET.example_setup(variant), random.Random(f"messages-{seed}"),
                     lambda n: Dice(SeededSource(f"{variant}-{seed}-{n}"), recording=recording), limit)


def _skill_names(state) -> set[str]:
    """The pilots' own skills and advantages: the GM's words for them, not the system's."""
    return {m.name for s in state.ships for p in (s.pilot, s.gunner) if p is not None for m in p.modifiers}


def test_every_line_roll_label_and_odds_line_of_a_recorded_battle_is_a_message_of_the_system():
    said, ids = 0, set()
    for variant in (0, 1):
        for seed in range(6):
            for state, action, step, dice in _battle(variant, seed):
                skills = _skill_names(state)
                for entry in step.log:
                    assert _ours(entry.message), entry
                    ids.add(entry.message.id)
                    said += 1
                for roll in dice.rolls:
                    assert _ours(roll.purpose), roll
                    assert all(_ours(w) for w in (roll.table, roll.row) if w), roll
                    assert all(_ours(label) or label in skills for label, _ in roll.modifiers), roll
                for choice in RULESET.legal_actions(state):
                    assert _ours(RULESET.describe(state, choice)), choice
                    odds = RULESET.odds(state, choice)
                    if odds is not None:
                        assert _ours(odds.summary) and (not odds.detail or _ours(odds.detail)), choice
    # the battles say a good part of what the rules say: attacks, dodges, damage, the turn's actions
    assert said > 500
    assert {"wing_commander.log.hit", "wing_commander.log.fails_dodge", "wing_commander.log.damage_shields",
            "wing_commander.log.first_damage", "wing_commander.log.destroyed"} <= ids


def test_a_playout_records_nothing_and_fights_the_same_battle():
    """The same dice give the same fight whether anybody reads it (rulesets/core/engine.py Log)."""
    recorded = _battle(1, 3)
    quiet = _battle(1, 3, recording=False)
    assert [a.to_str() for _, a, _, _ in quiet] == [a.to_str() for _, a, _, _ in recorded]
    assert quiet[-1][2].state == recorded[-1][2].state
    assert all(not step.log and not dice.rolls for _, _, step, dice in quiet)
    assert any(step.log for _, _, step, _ in recorded)


def test_the_english_words_of_a_message_are_the_lines_the_log_always_read():
    """2.1.3 Aussetzen: standing aside with the shields full, said as before, word for word."""
    state = RULESET.setup(RULESET.example_setup(0))
    ship = state.acting
    step = RULESET.apply(state, next(a for a in RULESET.legal_actions(state) if a.kind == "regenerate"),
                         Dice(SeededSource("aside")))
    (line,) = step.log
    assert line.message.id == "wing_commander.log.aside_full"
    assert english(line.message) == line.text == (f"{ship.name} stands aside with its shields full ({ship.shields}); "
                                                  "it cannot be attacked until its next turn.")
