"""Simulations: many policy-played fights per sweep point, and their statistics.

Pure Python, run inside Celery workers (and in-process for tests and benchmarks).
Each trial is seeded from (run seed, sweep point, trial index) alone, so the numbers
do not depend on how trials are split into chunks or how many workers run them.
"""
from __future__ import annotations

import contextlib
import gc
import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .dice import derive_seed
from .replay import play_out


@dataclass(frozen=True)
class SweepPoint:
    """One value of a sweep: a label and the setup options it sets."""

    label: str
    options: dict = field(default_factory=dict)


@dataclass(frozen=True)
class Sweep:
    key: str
    label: str
    points: tuple[SweepPoint, ...]


def sweeps_of(ruleset) -> list[Sweep]:
    """The ruleset's sweeps, plus "none" (one point: the setup as it is)."""
    return [Sweep("none", "No sweep (the setup as it is)", (SweepPoint("as set up"),)), *ruleset.sweeps()]


def sweep_by_key(ruleset, key: str) -> Sweep:
    for sweep in sweeps_of(ruleset):
        if sweep.key == key:
            return sweep
    raise KeyError(f"The ruleset offers no sweep '{key}'.")


def trial_seed(run_seed: str, point: int, trial: int) -> str:
    return derive_seed(run_seed, "p", point, "t", trial)


def with_options(spec: dict, options: dict) -> dict:
    return {**spec, "options": {**spec.get("options", {}), **options}}


def run_trial(ruleset, spec: dict, seed: str) -> dict:
    """One fight played out by policy (recording nothing); its outcome as compact plain data."""
    rng = random.Random(seed)
    result = play_out(ruleset, ruleset.setup(spec), rng)
    outcome = ruleset.outcome(result.state).to_json()
    outcome["steps"] = result.steps
    return outcome


#: the cyclic garbage collector's thresholds while a batch of playouts runs (Python's: 700, 10, 10)
BATCH_GC_THRESHOLDS = (50_000, 50, 100)


@contextlib.contextmanager
def batch_gc():
    """Collect cyclic garbage less often while a batch of playouts runs.

    A playout makes and drops many small objects, almost none of them in reference cycles,
    while the rule systems' caches (odds, geometry, the bots' memos) hold tens of thousands
    of long-lived ones.  With Python's default thresholds the collector walks those caches
    over and over: 10-25% of a Star Wars D6 demo battle.  Reference counting still frees
    what a playout drops at once; only cycles wait longer.  The thresholds are put back after.
    """
    before = gc.get_threshold()
    gc.set_threshold(*BATCH_GC_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


def run_trials(ruleset, spec: dict, point: SweepPoint, run_seed: str, point_index: int,
               start: int, stop: int, should_stop=None) -> list[dict]:
    """Trials start..stop-1 of one sweep point.  ``should_stop()`` is asked between trials."""
    point_spec = with_options(spec, point.options)
    out = []
    with batch_gc():
        for trial in range(start, stop):
            if should_stop is not None and trial % 25 == 0 and trial != start and should_stop():
                break
            out.append(run_trial(ruleset, point_spec, trial_seed(run_seed, point_index, trial)))
    return out


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson score 95% interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def summarise(outcomes: list[dict], sides: list[str]) -> dict:
    """Win/loss/draw rates with 95% intervals (for the first side), rounds, strength left, losses.

    ``outcomes`` are :meth:`BattleOutcome.to_json` dicts (what chunks store).
    """
    n = len(outcomes)
    winners = Counter(o["winner"] for o in outcomes)
    first = sides[0] if sides else None
    wins = winners.get(first, 0)
    draws = winners.get(None, 0)
    losses = n - wins - draws
    rounds = Counter(o["rounds"] for o in outcomes)

    def mean(values):
        values = list(values)
        return sum(values) / len(values) if values else 0.0

    per_side = {
        side: {
            "win_rate": winners.get(side, 0) / n if n else 0.0,
            "win_interval": wilson(winners.get(side, 0), n),
            "strength_left": mean(o["strength"].get(side, 0.0) for o in outcomes),
            "ships_lost": mean(o["lost"].get(side, 0) for o in outcomes),
        }
        for side in sides
    }
    return {
        "trials": n,
        "side": first,
        "wins": wins, "losses": losses, "draws": draws,
        "win_rate": wins / n if n else 0.0, "win_interval": wilson(wins, n),
        "loss_rate": losses / n if n else 0.0, "loss_interval": wilson(losses, n),
        "draw_rate": draws / n if n else 0.0, "draw_interval": wilson(draws, n),
        "rounds": {str(k): v for k, v in sorted(rounds.items())},
        "mean_rounds": mean(o["rounds"] for o in outcomes),
        "sides": per_side,
    }


def sides_of(spec: dict) -> list[str]:
    seen: list[str] = []
    for ship in spec["ships"]:
        if ship["side"] not in seen:
            seen.append(ship["side"])
    return seen


#: a chunk's target CPU time: long enough that a chunk's fixed cost (a task, a row) is
#: small beside it, short enough that two workers finish within a chunk of each other
CHUNK_SECONDS = 1.0


def battle_costs(ruleset, spec: dict, points, run_seed: str, battles: int = 3) -> list[float]:
    """CPU seconds per battle at each sweep point, measured on a few trials.

    The trials measured are the run's own first trials (seeded as the run seeds them), so
    the figure is that of this setup at this point (a close-range fight is shorter).
    """
    costs = []
    for index, point in enumerate(points):
        start = time.process_time()
        run_trials(ruleset, spec, point, run_seed, index, 0, battles)
        costs.append(max(1e-5, (time.process_time() - start) / battles))
    return costs


def chunk_sizes(costs: list[float], trials_per_point: int, *, seconds: float = CHUNK_SECONDS,
                smallest: int = 10, largest: int = 5000) -> list[int]:
    """Trials per chunk at each point so that every chunk costs about ``seconds`` of CPU.

    Equal-cost chunks keep workers busy to the end: the last chunk a worker takes costs
    about as much as any other, so two workers finish within a chunk of each other.
    """
    out = []
    for cost in costs:
        size = int(round(seconds / cost))
        out.append(max(1, min(trials_per_point, largest, max(smallest, size))))
    return out
