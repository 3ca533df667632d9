#!/usr/bin/env python
"""Benchmark playouts: what one simulated battle costs, in 2D6 checks.

    .venv/bin/python scripts/bench_playout.py [--ruleset KEY] [--battles N] [--repeats R] [--setup demo] [--compare]

For each registered rule system (or the one named), plays ``--battles`` battles of its
``example_setup(0)`` (or, with ``--setup demo``, of its demo campaign's fleets) the way a
simulation's chunk does (``rulesets.core.simulate.run_trial``: setup, the policy playing both
sides, dice recording nothing, the outcome; the garbage collector's thresholds as
``batch_gc`` sets them for a chunk), and, in the same process, a tight loop of plain 2D6 checks
(``(int(r()*6)+1) + (int(r()*6)+1) >= 8``).  Both are timed in CPU seconds
(``time.process_time``), so other processes on the machine count less; the load
average is printed anyway.  Each measurement is repeated ``--repeats`` times and the
median is printed:

* battles per CPU-second,
* 2D6 checks per CPU-second,
* the 2D6-check equivalents of one battle (checks per second / battles per second):
  the figure issue 10 sets a target for (at most 4,000).

It runs the rules the app runs: the compiled build when it matches the sources, else the sources
(rulesets/core/compiled.py; the first line says which).  ``--compare`` measures each system twice
side by side, this process and then a child with ``STARSHIP_PURE_RULES=1`` (the rules from their
sources), and prints both with their ratio.

No Django.  Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def checks_per_cpu_second(n: int = 200_000) -> float:
    """Plain 2D6 checks (two faces from random(), a sum, a comparison) per CPU-second."""
    r = random.Random("2d6").random
    began = time.process_time()
    successes = sum((int(r() * 6) + 1) + (int(r() * 6) + 1) >= 8 for _ in range(n))
    elapsed = time.process_time() - began
    assert 0 < successes < n
    return n / elapsed


def spec_of(ruleset, setup: str) -> dict:
    """The fight to play: the system's ``example_setup(0)``, or its demo fleets (``demo``)."""
    if setup == "demo":
        from rulesets.core.spec import demo_setup

        return demo_setup(ruleset)
    return ruleset.example_setup(0)


def battles_per_cpu_second(ruleset, spec: dict, battles: int, repeat: int) -> tuple[float, float]:
    """(battles per CPU-second, mean steps a battle) over ``battles`` seeded trials."""
    from rulesets.core.simulate import batch_gc, run_trial, trial_seed

    steps = 0
    with batch_gc():  # as a simulation's chunk runs them (rulesets.core.simulate.run_trials)
        began = time.process_time()
        for i in range(battles):
            steps += run_trial(ruleset, spec, trial_seed(f"bench:{repeat}", 0, i))["steps"]
        elapsed = time.process_time() - began
    return battles / elapsed, steps / battles


def bench(ruleset, battles: int, repeats: int, setup: str = "example") -> dict:
    spec = spec_of(ruleset, setup)
    run = battles_per_cpu_second  # warm caches (odds tables, lru caches) before timing
    run(ruleset, spec, max(1, battles // 10), -1)
    per_battle, per_check, equivalents, steps = [], [], [], 0.0
    for repeat in range(repeats):
        checks = checks_per_cpu_second()
        rate, steps = run(ruleset, spec, battles, repeat)
        per_battle.append(rate)
        per_check.append(checks)
        equivalents.append(checks / rate)
    return {
        "battles_per_cpu_s": statistics.median(per_battle),
        "checks_per_cpu_s": statistics.median(per_check),
        "check_equivalents": statistics.median(equivalents),
        "steps": steps,
    }


def main(argv=None) -> int:
    from rulesets.core import compiled, registry

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ruleset", help="one system's key (default: every registered system)")
    parser.add_argument("--battles", type=int, default=200, help="battles per repeat (default 200)")
    parser.add_argument("--repeats", type=int, default=5, help="repeats; medians are printed (default 5)")
    parser.add_argument("--setup", choices=["example", "demo"], default="example",
                        help="example: example_setup(0), the figure issue 10's budget is for (default); "
                             "demo: the demo campaign's fleets")
    parser.add_argument("--compare", action="store_true",
                        help="also measure each system with the rules from their sources (STARSHIP_PURE_RULES=1), "
                             "side by side")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # one system's figures, for --compare
    args = parser.parse_args(argv)
    rulesets = [registry.get(args.ruleset)] if args.ruleset else registry.all_rulesets()
    if args.json:
        print(json.dumps(bench(rulesets[0], args.battles, args.repeats, args.setup)))
        return 0
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(compiled.describe())
    print(f"load average (1, 5, 15 min): {load}; {args.repeats} repeats of {args.battles} battles, medians; "
          f"{'the demo fleets' if args.setup == 'demo' else 'example_setup(0)'}")
    for ruleset in rulesets:
        r = bench(ruleset, args.battles, args.repeats, args.setup)
        print(f"{ruleset.key}: {r['battles_per_cpu_s']:.0f} battles per CPU-second "
              f"({r['steps']:.0f} steps a battle); {r['checks_per_cpu_s'] / 1e6:.2f} M 2D6 checks per CPU-second; "
              f"one battle = {r['check_equivalents']:,.0f} 2D6-check equivalents")
        if args.compare:
            pure = json.loads(subprocess.run(
                [sys.executable, __file__, "--json", "--ruleset", ruleset.key, "--battles", str(args.battles),
                 "--repeats", str(args.repeats), "--setup", args.setup],
                env={**os.environ, "STARSHIP_PURE_RULES": "1"}, capture_output=True, text=True, check=True).stdout)
            print(f"{ruleset.key}, from the sources: {pure['battles_per_cpu_s']:.0f} battles per CPU-second; "
                  f"{pure['checks_per_cpu_s'] / 1e6:.2f} M 2D6 checks per CPU-second; one battle = "
                  f"{pure['check_equivalents']:,.0f} 2D6-check equivalents "
                  f"({pure['check_equivalents'] / r['check_equivalents']:.2f}x the figure above)")
    print(f"load average after: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
