"""Every message a rule system says is in the catalogues, so every one can be translated
(issue 24): the extractor (scripts/messages.py extract) reads literal calls, identifiers written
beside their text and the tables the rule modules hold, and this walks real fights to find any
message it missed."""
from __future__ import annotations

import random
from pathlib import Path

import polib
import pytest

from rulesets.core import registry
from rulesets.core.dice import Dice, RandomSource
from rulesets.core.messages import Message

CATALOGUE = Path(__file__).resolve().parents[2] / "locale" / "de" / "LC_MESSAGES" / "django.po"


@pytest.fixture(scope="module")
def catalogued() -> set[tuple[str, str]]:
    return {(e.msgctxt, e.msgid) for e in polib.pofile(str(CATALOGUE))}


def _messages(value, out: set) -> None:
    if isinstance(value, Message):
        out.add((value.id, value.text))
        for v in value.params.values():
            _messages(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _messages(v, out)


def _said_in_fights(ruleset, battles: int = 3) -> set[tuple[str, str]]:
    said: set = set()
    for n in range(battles):
        rng = random.Random(f"catalogue:{n}")
        state = ruleset.setup(ruleset.example_setup(n % 2))
        for _ in range(ruleset.step_limit):
            if state.over:
                break
            for action in ruleset.legal_actions(state)[:12]:
                _messages(ruleset.describe(state, action), said)
                odds = ruleset.odds(state, action)
                if odds is not None:
                    _messages([odds.summary, getattr(odds, "detail", None)], said)
            dice = Dice(RandomSource(rng))
            step = ruleset.apply(state, ruleset.policy(state, rng), dice)
            _messages([e.message for e in step.log], said)
            for roll in dice.rolls:
                _messages([roll.purpose, roll.table, roll.row, [label for label, _ in roll.modifiers]], said)
            state = step.state
    return said


@pytest.mark.parametrize("key", [m.split(".")[1] for m in registry.ENGINE_MODULES])
def test_every_message_said_in_a_fight_is_in_the_catalogue(key, catalogued):
    missing = sorted(m for m in _said_in_fights(registry.get(key)) if m not in catalogued)
    assert missing == [], f"{len(missing)} messages of {key} not in the catalogue (run scripts/messages.py extract): {missing[:10]}"
