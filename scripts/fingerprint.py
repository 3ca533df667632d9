#!/usr/bin/env python
"""Fingerprints of the battles each rule system plays: the check that a change of code
that was not meant to change a rule changed no battle.

    .venv/bin/python scripts/fingerprint.py                       # print the fingerprints
    .venv/bin/python scripts/fingerprint.py --save var/fp.json    # keep them
    .venv/bin/python scripts/fingerprint.py --compare var/fp.json # same battles? (exit 1 if not)
    .venv/bin/python scripts/fingerprint.py --ruleset cepheus --seeds 200 --recorded 20

For every registered system and every setup (example setups 0 and 1, and the demo fleets):

- ``outcomes``: the outcome (winner, rounds, what is left of each side, ships lost, steps)
  of ``--seeds`` battles played out by the bot with nothing recorded (what simulations run);
- ``recorded``: ``--recorded`` battles played step by step through ``apply`` with the log
  kept: each step's action, every die's face, every roll's purpose and rule, and every log
  line's words, rule and visibility (what the runner shows a GM).

Each is one SHA-256 over its battles; ``--compare`` names the system and setup that differ.
Uses both cores (one process per system).  Pure Python: no Django.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _setups(ruleset) -> dict[str, dict]:
    from rulesets.core.spec import demo_setup

    return {"example0": ruleset.example_setup(0), "example1": ruleset.example_setup(1), "demo": demo_setup(ruleset)}


def _recorded_battle(ruleset, spec: dict, seed: str) -> list:
    from rulesets.core.dice import Dice, RandomSource
    from rulesets.core.messages import english

    rng = random.Random(seed)
    state = ruleset.setup(spec)
    steps = []
    while not state.over and len(steps) < ruleset.step_limit:
        action = ruleset.policy(state, rng)
        dice = Dice(RandomSource(rng))
        result = ruleset.apply(state, action, dice)
        steps.append([
            action.to_str(),
            [str(d) for d in dice.dice],
            [[english(r.purpose), r.rule, r.total] for r in dice.rolls],
            # a line read by one side only (issue 27) hashes its side; a line for everyone hashes as before
            [[english(e.message), e.rule, e.gm_only] + ([e.side] if e.side else []) for e in result.log],
        ])
        state = result.state
    return [steps, ruleset.outcome(state).to_json()]


def fingerprint(key: str, seeds: int, recorded: int) -> dict:
    from rulesets.core.registry import get
    from rulesets.core.simulate import run_trial

    ruleset = get(key)
    out = {}
    for name, spec in _setups(ruleset).items():
        outcomes = [run_trial(ruleset, spec, f"fp:{key}:{name}:{i}") for i in range(seeds)]
        battles = [_recorded_battle(ruleset, spec, f"fp-rec:{key}:{name}:{i}") for i in range(recorded)]
        out[name] = {
            "outcomes": _sha(outcomes),
            "recorded": _sha(battles),
            "wins": _wins(outcomes),
        }
    return out


def _sha(data) -> str:
    return hashlib.sha256(json.dumps(data, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _wins(outcomes: list[dict]) -> dict:
    wins: dict[str, int] = {}
    for o in outcomes:
        wins[o.get("winner") or "none"] = wins.get(o.get("winner") or "none", 0) + 1
    return dict(sorted(wins.items()))


def main() -> int:
    from rulesets.core.registry import ENGINE_MODULES

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ruleset", action="append", help="only this system (repeatable)")
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--recorded", type=int, default=30)
    parser.add_argument("--save")
    parser.add_argument("--compare")
    args = parser.parse_args()
    keys = args.ruleset or [m.split(".")[1] for m in ENGINE_MODULES]
    with ProcessPoolExecutor(max_workers=2) as pool:
        results = dict(zip(keys, pool.map(fingerprint, keys, [args.seeds] * len(keys), [args.recorded] * len(keys))))
    result = {"seeds": args.seeds, "recorded": args.recorded, "systems": results}
    print(json.dumps(result, indent=1, sort_keys=True))
    if args.save:
        Path(args.save).parent.mkdir(parents=True, exist_ok=True)
        Path(args.save).write_text(json.dumps(result, indent=1, sort_keys=True))
    if args.compare:
        before = json.loads(Path(args.compare).read_text())
        differ = []
        for key, setups in results.items():
            for name, got in setups.items():
                was = before.get("systems", {}).get(key, {}).get(name)
                for what in ("outcomes", "recorded"):
                    if was is None or was[what] != got[what]:
                        differ.append(f"{key} {name} {what}: {was and was[what]} -> {got[what]}"
                                      f" (wins {was and was['wins']} -> {got['wins']})")
        if before.get("seeds") != args.seeds or before.get("recorded") != args.recorded:
            differ.append(f"different sizes: {before.get('seeds')}/{before.get('recorded')} seeds/recorded before")
        print("\n".join(differ) if differ else "same battles: every fingerprint identical", file=sys.stderr)
        return 1 if differ else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
