"""Re-roll analysis of a finished fight: how lucky was it?

The recorded decisions are replayed with fresh dice many times.  Where a recorded
action is no longer legal (the target is already gone, the reaction never came)
the policy decides instead, and once the record runs out the policy plays on to the
end.  Pure Python, run by a worker.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .dice import Dice, Die, ScriptedSource, derive_seed, playout_dice
from .engine import Action, is_legal
from .replay import play_out
from .simulate import batch_gc


@dataclass(frozen=True)
class Recorded:
    seq: int
    action: str
    dice: tuple[Die, ...]
    rolls: int  # how many rolls the step made (0: a decision without dice)


def _play(ruleset, setup: dict, record: list[Recorded], rng: random.Random, keep: int) -> dict:
    """Replay ``record``: its first ``keep`` steps exactly, the rest with fresh dice."""
    state = ruleset.setup(setup)
    fresh = playout_dice(rng)  # nobody reads a replay's rolls: the same faces, nothing kept
    steps = 0
    for i, step in enumerate(record):
        if state.over:
            break
        action = Action.parse(step.action)
        if i < keep:
            result = ruleset.apply(state, action, Dice(ScriptedSource(step.dice), recording=False))
        else:
            if not is_legal(ruleset, state, action):
                action = ruleset.policy(state, rng)
            result = ruleset.apply(state, action, fresh)
        state = result.state
        steps += 1
    if not state.over and steps < ruleset.step_limit:  # the policy plays on, as a simulation's battle
        state = play_out(ruleset, state, rng, max_steps=ruleset.step_limit - steps).state
    return ruleset.outcome(state).to_json()


def replays(ruleset, setup, record, seed: str, count: int, keep: int = 0, tag: str = "all") -> list[dict]:
    with batch_gc():
        return [_play(ruleset, setup, record, random.Random(derive_seed(seed, tag, keep, i)), keep)
                for i in range(count)]


def analyse(ruleset, setup: dict, record: list[Recorded], real: dict, seed: str, *,
            count: int = 400, per_roll: int = 40, progress=None) -> dict:
    """Where the real outcome sits among ``count`` replays, and which rolls swung it most."""
    outs = replays(ruleset, setup, record, seed, count)
    real = real.to_json() if hasattr(real, "to_json") else real
    winner = real["winner"]
    same = sum(1 for o in outs if o["winner"] == winner)
    sides = sorted(real["strength"])
    percentiles = {
        side: sum(1 for o in outs if o["strength"].get(side, 0) <= real["strength"][side]) / len(outs)
        for side in sides
    }
    if progress:
        progress(0.5)

    # Win chance of the real winner with history fixed up to each rolled step, before and after its dice.
    rolled = [i for i, s in enumerate(record) if s.rolls]
    swings = []
    before = None
    for n, i in enumerate(rolled):
        if before is None:
            before = _share(replays(ruleset, setup, record, seed, per_roll, keep=i, tag="swing"), winner)
        after = _share(replays(ruleset, setup, record, seed, per_roll, keep=i + 1, tag="swing"), winner)
        swings.append({"seq": record[i].seq, "action": record[i].action, "before": before, "after": after,
                       "swing": after - before})
        before = after
        if progress:
            progress(0.5 + 0.5 * (n + 1) / len(rolled))
    top = sorted(swings, key=lambda s: abs(s["swing"]), reverse=True)[:5]
    return {
        "replays": len(outs),
        "real": real,
        "winner_share": same / len(outs),
        "draw_share": sum(1 for o in outs if o["winner"] is None) / len(outs),
        "strength_percentile": percentiles,
        "mean_strength": {side: sum(o["strength"].get(side, 0) for o in outs) / len(outs) for side in sides},
        "swings": swings,
        "turning_points": top,
    }


def _share(outcomes, winner) -> float:
    return sum(1 for o in outcomes if o["winner"] == winner) / len(outcomes) if outcomes else 0.0
