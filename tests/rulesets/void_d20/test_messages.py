"""Issue 23, "messages, not f-strings": what a Void d20 fight says is a message of the system (or of
the core), rendered when someone reads it; a playout keeps none of it.

Bot battles of both example setups and the demo fleets (docs/rulesets/void_d20.md), seeded dice:
every log line, every roll's purpose, table, row and modifier label, every action label and odds
line.  Ship rounds (Раунды и порядок, Действия на корабле, Стрельба и повреждения рамы, Таблица
катастроф корабля) and boarding fights (Абордаж, Боевой раунд, Броски атаки, Таблица смерти в
космосе) all speak in these battles.
"""
from __future__ import annotations

import random

from rulesets.core.dice import Dice, SeededSource
from rulesets.core.engine import Action
from rulesets.core.messages import Message, english
from rulesets.core.spec import demo_setup
from rulesets.void_d20.engine import RULESET
from tests.rulesets.messages_kit import bot_steps

OURS = ("void_d20.", "core.")


def _ours(words) -> bool:
    return isinstance(words, Message) and words.id.startswith(OURS)


def _spec(variant: int) -> dict:
    return demo_setup(RULESET) if variant == 2 else RULESET.example_setup(variant)


def _battle(variant: int, seed: int, recording: bool = True, limit: int = 400):
    """The steps of one bot battle: (state before, action, step, dice) each."""
    return bot_steps(RULESET, _spec(variant), random.Random(f"messages-{seed}"),
                     lambda n: Dice(SeededSource(f"{variant}-{seed}-{n}"), recording=recording), limit)


def test_every_line_roll_label_and_odds_line_of_a_recorded_battle_is_a_message_of_the_system():
    said, ids = 0, set()
    for variant in (0, 1, 2):
        for seed in range(4):
            for state, action, step, dice in _battle(variant, seed):
                for entry in step.log:
                    assert _ours(entry.message), entry
                    ids.add(entry.message.id)
                    said += 1
                for roll in dice.rolls:
                    assert _ours(roll.purpose), roll
                    assert all(_ours(w) for w in (roll.table, roll.row) if w), roll
                    assert all(_ours(label) for label, _ in roll.modifiers), roll
                for choice in RULESET.legal_actions(state):
                    if choice.kind == "override":   # the GM's form: its words are override.py's
                        continue
                    assert _ours(RULESET.describe(state, choice)), choice
                    odds = RULESET.odds(state, choice)
                    if odds is not None:
                        assert _ours(odds.summary), choice
                        assert all(_ours(o.label) for o in odds.outcomes), choice
    assert said > 1000
    # ship rounds, gunnery, boarding and the fight between people all spoke
    assert {"void_d20.round.ships", "void_d20.round.ship_order", "void_d20.log.ship_hit", "void_d20.round.boarding",
            "void_d20.round.order", "void_d20.log.hit", "void_d20.log.death_table"} <= ids


def test_a_playout_records_nothing_and_fights_the_same_battle():
    """The same dice give the same fight whether anybody reads it (rulesets/core/engine.py Log)."""
    recorded = _battle(1, 3)
    quiet = _battle(1, 3, recording=False)
    assert [a.to_str() for _, a, _, _ in quiet] == [a.to_str() for _, a, _, _ in recorded]
    assert quiet[-1][2].state == recorded[-1][2].state
    assert all(not step.log and not dice.rolls and not dice.dice for _, _, step, dice in quiet)
    assert any(step.log for _, _, step, _ in recorded)


def test_the_english_words_of_a_message_are_the_lines_the_log_always_read():
    """Раунды и порядок (VD-36, VD-N07): the first step of the example fight rolls the ships' initiative
    and says the order, word for word as before; each roll's purpose names its ship."""
    state = RULESET.setup(RULESET.example_setup(0))
    dice = Dice(SeededSource("words"))
    step = RULESET.apply(state, Action.make("begin", "gm"), dice)
    lines = {entry.message.id: entry for entry in step.log}
    order = lines["void_d20.round.ship_order"]
    new = step.state
    assert english(order.message) == order.text == "Ship round order: " + ", ".join(
        f"{s.name} ({s.initiative})" for sid in new.order for s in new.ships if s.id == sid) + "."
    assert english(lines["void_d20.round.ships"].message) == "Round 1: an encounter round between the ships."
    assert sorted(english(r.purpose) for r in dice.rolls) == sorted(f"initiative of {s.name}" for s in state.ships)
    assert all(english(r.modifiers[0][0]) == "best Technology aboard" for r in dice.rolls)
