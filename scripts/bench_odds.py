#!/usr/bin/env python
"""Benchmark the exact odds shown with each action: cold, and after the start-up warm-up.

    .venv/bin/python scripts/bench_odds.py [--ruleset KEY] [--steps 30] [--seeds 3]

The runner shows every legal action with its odds, computed exactly (icepool) and kept in
caches.  The web server warms those caches at start-up (``RulesetBase.warm_up``, in a
background thread) so that the GM's first page does not build the distributions.  For
each system (or the one named) this plays, in a fresh Python process each time so the
caches start empty, ``--seeds`` bot-played fights of the demo fleets (not the setups the
warm-up plays) for ``--steps`` steps, and times ``odds()`` of every action the runner
offers at each step:

* cold: nothing warmed, as the first request after start-up would be without the warm-up;
* warm: after ``warm_up()``, as the server runs.

It prints, per system and mode, the median, the 95th percentile and the worst time of one
action's odds, and per page (a step's actions, as the runner's first render of that step
computes them) the time per action, median and worst: what issue 14 asks to stay under
5 ms per action.  Wall-clock time
(``time.perf_counter``): the load average is printed.  Pure Python, no Django; prints
figures and asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def measure(key: str, warm: bool, steps: int, seed: int) -> dict:
    """In this process: (optionally warm up, then) time the odds along one fight."""
    import random
    import time

    sys.path.insert(0, str(ROOT))
    from rulesets.core import registry
    from rulesets.core.dice import Dice, RandomSource
    from rulesets.core.spec import demo_setup

    ruleset = registry.get(key)
    if warm:
        ruleset.warm_up()
    rng = random.Random(f"bench-odds:{seed}")
    state = ruleset.setup(demo_setup(ruleset))
    times, pages = [], []
    for step in range(steps):
        if state.over:
            break
        page = []
        for action in ruleset.step_actions(state):
            began = time.perf_counter()
            ruleset.odds(state, action)
            page.append(time.perf_counter() - began)
        if page:
            pages.append(sum(page) / len(page))
        times.extend(page)
        state = ruleset.apply(state, ruleset.policy(state, rng), Dice(RandomSource(rng), recording=False)).state
    return {"times": times, "pages": pages}


def run_fresh(key: str, warm: bool, steps: int, seed: int) -> dict:
    code = (f"import json, sys; sys.path.insert(0, {str(ROOT / 'scripts')!r}); import bench_odds; "
            f"print(json.dumps(bench_odds.measure({key!r}, {warm!r}, {steps}, {seed})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    sys.path.insert(0, str(ROOT))
    from rulesets.core import registry

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", help="one system's key (default: every registered system)")
    parser.add_argument("--steps", type=int, default=30, help="steps of each fight (default 30)")
    parser.add_argument("--seeds", type=int, default=3, help="fights, each in a fresh process (default 3)")
    args = parser.parse_args(argv)
    keys = [args.ruleset] if args.ruleset else [r.key for r in registry.all_rulesets()]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load}; {args.seeds} fights of {args.steps} steps a system and mode, "
          f"each in a fresh process")
    for key in keys:
        for warm in (False, True):
            runs = [run_fresh(key, warm, args.steps, seed) for seed in range(args.seeds)]
            times = [t * 1000 for r in runs for t in r["times"]]
            pages = [p * 1000 for r in runs for p in r["pages"]]
            print(f"{key} {'warm' if warm else 'cold'}: {len(times)} odds, one action's odds median "
                  f"{statistics.median(times):.3f} ms, p95 {statistics.quantiles(times, n=20, method='inclusive')[-1]:.3f} ms, worst {max(times):.1f} ms; "
                  f"a page's odds per action: median {statistics.median(pages):.3f} ms, worst {max(pages):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
