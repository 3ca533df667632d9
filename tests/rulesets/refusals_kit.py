"""What every system's refusal tests share (issue 25): asking for a refusal, reading its
message, and checking along bot fights that the reasons agree with the action list.

A system's ``test_refusals.py`` states its own refusals (the situation, the words, the rule
of its seed); these helpers are the scaffolding around them, stated once.
"""
from __future__ import annotations

import random

import pytest

from rulesets.core.dice import Dice, RandomSource
from rulesets.core.engine import Action, IllegalAction, Refusal, check_legal
from rulesets.core.messages import translating


def refused(ruleset, state, text: str) -> IllegalAction:
    """``check_legal`` refuses the action ``text`` now, carrying the system's :class:`Refusal`."""
    with pytest.raises(IllegalAction) as caught:
        check_legal(ruleset, state, Action.parse(text))
    assert isinstance(caught.value.refusal, Refusal)
    return caught.value


def says(caught: IllegalAction, ident: str, words: str) -> Refusal:
    """The refusal's message id (``<system>.refused.<what>``), its English words, and str() =
    words (rule); the rule cited is the caller's to check (each system cites in its own way)."""
    r = caught.refusal
    assert r.reason.id == ident
    assert r.reason.render() == words
    assert str(caught) == f"{words} ({r.rule})"
    assert "{" in r.reason.text or not r.reason.params, "English text with placeholders, filled from params"
    return r


def bracketed(caught: IllegalAction) -> str:
    """The refusal in a made-up language that puts every message's words in ⟨ ⟩: a word a
    translator cannot reach (plain English inside the sentence) shows without brackets."""
    with translating(lambda context, text: f"⟨{text}⟩"):
        return caught.refusal.reason.render()


def reasons_agree(ruleset, reason, setups, *, steps: int, sample: int, fights: int = 1, more=None) -> None:
    """Along bot fights of each setup: ``reason(state, action)`` (the system's refusal) names no
    reason for a legal action, and names one for each action that was legal at another step of the
    fight and is not now (``sample`` of those at each step, and ``more(state, pool, rng)`` more)."""
    for index, spec in enumerate(setups):
        for fight in range(fights):
            rng = random.Random(f"refusals {index} {fight}" if fights > 1 else f"refusals {index}")
            state, pool = ruleset.setup(spec), []
            for _ in range(steps):
                if state.over:
                    break
                legal = [a for a in ruleset.legal_actions(state) if a.kind != "override"]
                assert all(reason(state, a) is None for a in legal)
                pool.extend(a for a in legal if a not in pool)
                tried = rng.sample(pool, min(sample, len(pool)))
                if more is not None:
                    tried += more(state, pool, rng)
                for action in tried:
                    if not ruleset.is_legal(state, action):
                        assert reason(state, action) is not None, f"no reason for {action} now"
                state = ruleset.apply(state, ruleset.policy(state, rng), Dice(RandomSource(rng))).state
