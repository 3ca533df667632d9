"""Re-roll analysis of a finished fight: how lucky was it?

The recorded decisions are replayed with fresh dice many times.  Where a recorded
action is no longer legal (the target is already gone, the reaction never came)
the policy decides instead.

Two kinds of finished fight are compared differently:

- **Played to the end** (the rules ended it: a side won, or a draw): once the record runs
  out the policy plays each replay on to the end, and the replays' winners are counted.
- **Stopped** (the GM ended the encounter while the fight was still going, in round N):
  nobody won, so counting winners of replays played to the end would compare a stopped
  fight with finished ones.  Each replay stops where the real one did: at the end of
  the record, or as soon as it passes round N, whichever comes first (a replay in which a
  side was wiped out earlier stops there).  What is compared is the state then: each
  side's strength left (hull left, ships in play...) and which side was ahead.

The number the turning points follow is the chance of what really happened: the real
winner winning, a draw, or (stopped fight) the side that was ahead being ahead at the
stop, or the sides standing even.  A rolled step's swing is that chance with history
fixed up to just after its dice minus the chance with history fixed up to just before
them.  Only rolls that moved it by at least a whole percentage point (as the page shows
it) are turning points.  Pure Python, run by a worker.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from .dice import Dice, Die, ScriptedSource, derive_seed, playout_dice
from .engine import Action, is_legal
from .replay import play_out
from .simulate import batch_gc

#: strengths closer than this are the same (floating-point sums of hull fractions)
TIE = 1e-9
#: a roll "moved the odds" when its swing, in whole percentage points, is at least this
MIN_SWING_POINTS = 1
#: at most this many turning points are listed (the largest swings first)
TURNING_POINTS = 5


@dataclass(frozen=True)
class Recorded:
    seq: int
    action: str
    dice: tuple[Die, ...]
    rolls: int  # how many rolls the step made (0: a decision without dice)


def _past(ruleset, state, stop_round: int | None) -> bool:
    return stop_round is not None and ruleset.outcome(state).rounds > stop_round


def _play(ruleset, setup: dict, record: list[Recorded], rng: random.Random, keep: int,
          stop_round: int | None = None) -> dict:
    """Replay ``record``: its first ``keep`` steps exactly, the rest with fresh dice.

    ``stop_round`` None: play on to the end once the record runs out.  A round number:
    the real fight was stopped in that round, so stop at the end of the record or once
    the replay passes that round, and report the state there.
    """
    state = ruleset.setup(setup)
    fresh = playout_dice(rng)  # nobody reads a replay's rolls: the same faces, nothing kept
    steps = 0
    for i, step in enumerate(record):
        if state.over or _past(ruleset, state, stop_round):
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
    if stop_round is None and not state.over and steps < ruleset.step_limit:
        # the policy plays on, as a simulation's battle
        state = play_out(ruleset, state, rng, max_steps=ruleset.step_limit - steps).state
    return ruleset.outcome(state).to_json()


def replays(ruleset, setup, record, seed: str, count: int, keep: int = 0, tag: str = "all",
            stop_round: int | None = None) -> list[dict]:
    with batch_gc():
        return [_play(ruleset, setup, record, random.Random(derive_seed(seed, tag, keep, i)), keep, stop_round)
                for i in range(count)]


def leader(outcome: dict) -> str | None:
    """The side with strictly the most strength left, or None when the best are level."""
    strength = outcome["strength"]
    if not strength:
        return None
    best = max(strength.values())
    top = [side for side, v in strength.items() if v >= best - TIE]
    return top[0] if len(top) == 1 else None


def analyse(ruleset, setup: dict, record: list[Recorded], real, seed: str, *,
            count: int = 400, per_roll: int = 40, progress=None, stopped: bool = False) -> dict:
    """Where the real outcome sits among ``count`` replays, and which rolls swung it most.

    ``stopped``: the real fight did not end by the rules but was stopped in round
    ``real["rounds"]``; the replays stop there too (see the module's docstring).
    """
    real = real.to_json() if hasattr(real, "to_json") else real
    stop_round = int(real["rounds"]) if stopped else None
    outs = replays(ruleset, setup, record, seed, count, stop_round=stop_round)
    sides = sorted(real["strength"])
    if stopped:
        ahead = leader(real)

        def happened(o):
            return leader(o) == ahead
    else:
        winner = real["winner"]

        def happened(o):
            return o["winner"] == winner

    n = len(outs)
    strength = {}
    for side in sides:
        mine = real["strength"][side]
        values = [o["strength"].get(side, 0) for o in outs]
        less = sum(1 for v in values if v < mine - TIE)
        more = sum(1 for v in values if v > mine + TIE)
        strength[side] = {"real": mine, "mean": sum(values) / n, "less": less / n, "more": more / n,
                          "same": (n - less - more) / n}
    if progress:
        progress(0.5)

    # The chance of what happened with history fixed up to each rolled step, before and after its dice.
    rolled = [i for i, s in enumerate(record) if s.rolls]
    swings = []
    before = None
    for k, i in enumerate(rolled):
        if before is None:
            before = _share(replays(ruleset, setup, record, seed, per_roll, keep=i, tag="swing",
                                    stop_round=stop_round), happened)
        after = _share(replays(ruleset, setup, record, seed, per_roll, keep=i + 1, tag="swing",
                               stop_round=stop_round), happened)
        swings.append({"seq": record[i].seq, "action": record[i].action, "before": before, "after": after,
                       "swing": after - before})
        before = after
        if progress:
            progress(0.5 + 0.5 * (k + 1) / len(rolled))
    moved = [s for s in swings if moved_the_odds(s)]
    top = sorted(moved, key=lambda s: abs(s["swing"]), reverse=True)[:TURNING_POINTS]
    results = {
        "replays": n,
        "real": real,
        "stopped": stopped,
        "winner_share": sum(1 for o in outs if o["winner"] == real["winner"]) / n,
        "draw_share": sum(1 for o in outs if o["winner"] is None) / n,
        "happened_share": sum(1 for o in outs if happened(o)) / n,
        "strength": strength,
        "mean_strength": {side: strength[side]["mean"] for side in sides},
        "swings": swings,
        "turning_points": top,
    }
    if stopped:
        results.update({"stop_round": stop_round, "leader": ahead,
                        "won_share": sum(1 for o in outs if o["winner"] is not None) / n})
    return results


def moved_the_odds(swing: dict) -> bool:
    """Whether a roll changed the chance by a whole percentage point or more, as the page rounds it."""
    return abs(round(swing["after"] * 100) - round(swing["before"] * 100)) >= MIN_SWING_POINTS


def _share(outcomes, happened) -> float:
    return sum(1 for o in outcomes if happened(o)) / len(outcomes) if outcomes else 0.0
