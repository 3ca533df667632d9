"""What the systems' message tests share: a bot battle played step by step, each step kept."""
from __future__ import annotations


def bot_steps(ruleset, spec: dict, rng, dice_of, limit: int) -> list:
    """The steps of one bot battle of ``spec``: (state before, action, step, dice) each;
    ``dice_of(n)`` gives the dice of the n-th step."""
    state = ruleset.setup(spec)
    out = []
    while not state.over and len(out) < limit:
        action = ruleset.policy(state, rng)
        dice = dice_of(len(out))
        step = ruleset.apply(state, action, dice)
        out.append((state, action, step, dice))
        state = step.state
    return out
