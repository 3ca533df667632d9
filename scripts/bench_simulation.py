#!/usr/bin/env python
"""Benchmark simulations: battles per second, a 10,000-battle sweep on 1 and 2 workers, chunk overhead.

    .venv/bin/python scripts/bench_simulation.py [--ruleset cepheus] [--battles 10000] [--chunk N] [--setup demo]

1. Battles per second in one process (the engine alone, no Django): the ruleset's
   standard example fight (two ships a side) played out by its policy.
2. The wall time of a sweep of ``--battles`` battles over the ruleset's first sweep
   with seven or more points (the Cepheus range bands), of the demo campaign's fleets
   (``--setup example``: the example setup), run by real Celery workers, with 1 and with
   2 worker processes, and the speed-up.  Chunks are sized by a measured battle unless
   ``--chunk`` fixes them.
3. The overhead per chunk: wall time x workers minus the chunks' own compute time,
   divided by the number of chunks.

Uses DATABASE_URL and REDIS_URL when set (the real stack), otherwise SQLite in
var/bench.sqlite3 and the filesystem broker.  Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def battles_per_second(ruleset, seconds: float = 5.0) -> tuple[float, float]:
    from rulesets.core.simulate import run_trial, trial_seed

    spec = ruleset.example_setup(0)
    n, steps, began = 0, 0, time.perf_counter()
    while time.perf_counter() - began < seconds:
        steps += run_trial(ruleset, spec, trial_seed("bench", 0, n))["steps"]
        n += 1
    elapsed = time.perf_counter() - began
    return n / elapsed, steps / n


def sweep_run(engine, setup: dict, battles: int, chunk: int, workers: int, seed: str):
    from django.db.models import Sum

    from campaigns.models import Campaign
    from django.contrib.auth import get_user_model
    from encounters.models import SimulationRun
    from encounters.simulations import wait_for
    from encounters.tasks import start_simulation
    from rulesets.core.simulate import sweeps_of

    sweep = next((s for s in sweeps_of(engine) if len(s.points) >= 7), None) or max(sweeps_of(engine), key=lambda s: len(s.points))
    per_point = max(1, battles // len(sweep.points))
    gm, _ = get_user_model().objects.get_or_create(username="bench-gm")
    campaign = Campaign.objects.filter(name="Simulation bench").first() or Campaign.create_for(
        gm, name="Simulation bench", ruleset=engine.key)
    run = SimulationRun.objects.create(
        campaign=campaign, name=f"bench {workers}w", ruleset=engine.key, setup=setup,
        sweep=sweep.key, points=[{"label": p.label, "options": p.options} for p in sweep.points],
        trials_per_point=per_point, chunk_size=chunk, seed=seed)
    (ROOT / "var").mkdir(exist_ok=True)  # a fresh checkout has no var/ yet
    log = open(ROOT / "var" / f"bench-workers-{workers}.log", "w")
    procs = [subprocess.Popen([sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
                               "--loglevel=warning", "--without-mingle", "--without-gossip", "--without-heartbeat",
                               "-n", f"bench{i}@%h"], cwd=ROOT, env=os.environ.copy(),
                              stdout=log, stderr=subprocess.STDOUT) for i in range(workers)]
    try:
        time.sleep(4)  # workers up and connected
        began = time.perf_counter()
        start_simulation.delay(run.pk)
        done = wait_for(run.pk, timeout=3600)
        wall = time.perf_counter() - began
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            p.wait(timeout=30)
    compute = done.chunks.aggregate(s=Sum("seconds"))["s"] or 0.0
    chunks = done.chunks.count()
    return sweep, done, wall, compute, chunks


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="cepheus")
    parser.add_argument("--battles", type=int, default=10_000)
    parser.add_argument("--chunk", type=int, default=0, help="battles per chunk (default: measured, about 1 s each)")
    parser.add_argument("--setup", choices=("demo", "example"), default="demo",
                        help="the demo campaign's fleets (default) or the ruleset's example setup")
    parser.add_argument("--skip-workers", action="store_true", help="only the in-process figure")
    args = parser.parse_args()

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if not os.environ.get("DATABASE_URL"):
        os.environ["DATABASE_URL"] = f"sqlite:///{ROOT / 'var' / 'bench.sqlite3'}"
    from rulesets.core import registry
    from rulesets.core.spec import demo_setup

    engine = registry.get(args.ruleset)
    rate, steps = battles_per_second(engine)
    print(f"{engine.name}: {rate:.1f} battles/s in one process ({steps:.1f} steps per battle)")
    if args.skip_workers:
        return

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    broker = "Redis" if os.environ.get("REDIS_URL") else "filesystem broker"
    walls = {}
    for workers in (1, 2):
        setup = demo_setup(engine) if args.setup == "demo" else engine.example_setup(0)
        sweep, run, wall, compute, chunks = sweep_run(engine, setup, args.battles, args.chunk, workers,
                                                      seed=f"bench-{random.random()}")
        walls[workers] = wall
        overhead = (wall * workers - compute) / chunks
        print(f"{run.total_trials} battles over {len(sweep.points)} points of '{sweep.label}' on {workers} worker(s) "
              f"({broker}, {args.setup} fleets, chunks of {args.chunk or 'measured size'}): {wall:.1f} s wall, {run.total_trials / wall:.0f} battles/s; "
              f"overhead {overhead * 1000:.1f} ms per chunk ({chunks} chunks)")
    load = os.getloadavg()
    print(f"load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print(f"speed-up with 2 workers: {walls[1] / walls[2]:.2f}x (this machine has {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
