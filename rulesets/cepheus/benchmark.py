"""Benchmark: full NPC-vs-NPC battles played by ``policy``.

    python -m rulesets.cepheus.benchmark [battles] [variant] [range]

Prints battles per second, mean steps and rounds, and the 95% (Wilson) interval of
the first side's win rate.  Pure Python, no Django.
"""
from __future__ import annotations

import sys
import time

from rulesets.core.simulate import run_trial, sides_of, wilson, with_options

from .engine import RULESET


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    n = int(argv[0]) if argv else 1000
    variant = int(argv[1]) if len(argv) > 1 else 0
    spec = RULESET.example_setup(variant)
    if len(argv) > 2:
        spec = with_options(spec, {"range": argv[2]})
    side = sides_of(spec)[0]
    RULESET.setup(spec)
    start = time.perf_counter()
    outcomes = [run_trial(RULESET, spec, f"bench:{variant}:{i}") for i in range(n)]
    elapsed = time.perf_counter() - start
    wins = sum(1 for o in outcomes if o["winner"] == side)
    draws = sum(1 for o in outcomes if o["winner"] is None)
    lo, hi = wilson(wins, n)
    print(f"{n} battles (variant {variant}, range {spec['options'].get('range')}) in {elapsed:.2f} s: "
          f"{n / elapsed:.0f} battles/s, {1000 * elapsed / n:.1f} ms each")
    print(f"mean steps {sum(o['steps'] for o in outcomes) / n:.0f}, mean rounds {sum(o['rounds'] for o in outcomes) / n:.1f}, "
          f"draws {draws}")
    print(f"{side} win rate {wins / n:.1%}, 95% interval {lo:.1%} - {hi:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
