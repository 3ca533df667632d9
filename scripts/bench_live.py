#!/usr/bin/env python
"""Benchmark the runner on the real stack: step request latency, and step-to-page fan-out.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/starship_bench \
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python scripts/bench_live.py [--steps 100] [--pages 50]

It migrates the database, creates a GM, a player and an encounter (the ruleset's
example setup), starts uvicorn, then

1. posts ``--steps`` steps over HTTP as the GM's browser would (CSRF, session,
   htmx header) and prints the median and p95 request latency;
2. opens ``--pages`` live pages (server-sent event streams as the player) and, for
   each further step, measures the time from the step's commit (the publish time the
   server stamps on the event) to its arrival on every page: median, p95 and max.

Prints figures only; it asserts nothing.  Everything runs on this machine.
"""
from __future__ import annotations

import argparse
import asyncio
import http.cookiejar
import json
import os
import random
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")


def percentile(values, p):
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * p / 100
    lo, hi = int(k), min(len(values) - 1, int(k) + 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def setup_data(ruleset_key: str):
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from campaigns.models import Campaign, Membership
    from encounters.models import Encounter
    from rulesets.core import registry

    call_command("migrate", verbosity=0)
    User = get_user_model()
    gm, _ = User.objects.get_or_create(username="bench-gm")
    gm.set_password("bench-password-1")
    gm.save()
    player, _ = User.objects.get_or_create(username="bench-player")
    player.set_password("bench-password-1")
    player.save()
    engine = registry.get(ruleset_key)
    campaign = Campaign.create_for(gm, name=f"Bench {time.time():.0f}", ruleset=ruleset_key)
    Membership.objects.create(campaign=campaign, user=player, role=Membership.PLAYER)
    encounter = Encounter.objects.create(campaign=campaign, name="Bench", ruleset=ruleset_key,
                                         setup=engine.example_setup(0), seed="bench", created_by=gm)
    return encounter


class Browser:
    """A cookie-keeping HTTP client that logs in and posts forms like the page does."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def csrf(self):
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def get(self, path):
        return self.opener.open(self.base + path, timeout=30).read()

    def post(self, path, data, htmx=True):
        body = urllib.parse.urlencode(data, doseq=True).encode()
        req = urllib.request.Request(self.base + path, data=body, headers={
            "X-CSRFToken": self.csrf(), "Referer": self.base + path, **({"HX-Request": "true"} if htmx else {})})
        return self.opener.open(req, timeout=30)

    def login(self, username, password):
        self.get("/accounts/login/")
        self.post("/accounts/login/", {"username": username, "password": password,
                                       "csrfmiddlewaretoken": self.csrf()}, htmx=False)

    def session(self):
        return next(c.value for c in self.jar if c.name == "sessionid")


def next_action(encounter):
    from encounters import log
    from rulesets.core.dice import derive_seed

    now = log.current(encounter)
    if now.state.over:
        return None, now.head
    rng = random.Random(derive_seed("bench", now.head))
    return encounter.engine.policy(now.state, rng).to_str(), now.head


async def open_stream(port, pk, session, arrivals, ready):
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET /encounters/{pk}/stream/?after=-1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Cookie: sessionid={session}\r\nAccept: text/event-stream\r\n\r\n").encode())
    await writer.drain()
    ready.release()
    try:
        while True:
            line = await reader.readline()
            if not line:
                return
            text = line.decode(errors="replace").strip()
            if text.startswith("data: {") and '"t"' in text:
                data = json.loads(text[len("data: "):])
                arrivals.setdefault(data["seq"], []).append(time.time() - data["t"])
    except asyncio.CancelledError:
        writer.close()
        raise


async def fan_out(port, encounter, browser, session, pages, steps):
    arrivals: dict[int, list[float]] = {}
    ready = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(open_stream(port, encounter.pk, session, arrivals, ready)) for _ in range(pages)]
    for _ in range(pages):
        await ready.acquire()
    await asyncio.sleep(1.0)  # every stream subscribed
    posted = []
    for _ in range(steps):
        action, head = await asyncio.to_thread(next_action, encounter)
        if action is None:
            break
        await asyncio.to_thread(browser.post, f"/encounters/{encounter.pk}/step/",
                                {"action": action, "expected_seq": head})
        posted.append(head + 1)
        await asyncio.sleep(0.3)
    await asyncio.sleep(1.0)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return posted, arrivals


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="cepheus")
    parser.add_argument("--steps", type=int, default=100)
    parser.add_argument("--pages", type=int, default=50)
    parser.add_argument("--fanout-steps", type=int, default=20)
    parser.add_argument("--web-workers", type=int, default=2)
    args = parser.parse_args()
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures the real stack.")

    encounter = setup_data(args.ruleset)
    port = 8765
    env = {**os.environ, "DEBUG": "1"}
    server = subprocess.Popen([sys.executable, "-m", "uvicorn", "config.asgi:application", "--host", "127.0.0.1",
                               "--port", str(port), "--workers", str(args.web_workers), "--log-level", "warning"],
                              cwd=ROOT, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(base + "/accounts/login/", timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        gm = Browser(base)
        gm.login("bench-gm", "bench-password-1")
        gm.get(f"/encounters/{encounter.pk}/")

        latencies = []
        for _ in range(args.steps):
            action, head = next_action(encounter)
            if action is None:
                from encounters.models import Encounter

                encounter = Encounter.objects.create(campaign=encounter.campaign, name="Bench", ruleset=args.ruleset,
                                                     setup=encounter.setup, seed=f"bench{len(latencies)}")
                continue
            t0 = time.perf_counter()
            gm.post(f"/encounters/{encounter.pk}/step/", {"action": action, "expected_seq": head}).read()
            latencies.append(time.perf_counter() - t0)
        print(f"ruleset {args.ruleset}, uvicorn with {args.web_workers} worker process(es), "
              f"database {os.environ['DATABASE_URL'].split('@')[-1]}")
        print(f"step request latency over {len(latencies)} steps: median {statistics.median(latencies) * 1000:.1f} ms, "
              f"p95 {percentile(latencies, 95) * 1000:.1f} ms, max {max(latencies) * 1000:.1f} ms")

        from encounters.models import Encounter

        fresh = Encounter.objects.create(campaign=encounter.campaign, name="Fan-out", ruleset=args.ruleset,
                                         setup=encounter.setup, seed="fanout")
        player = Browser(base)
        player.login("bench-player", "bench-password-1")
        posted, arrivals = asyncio.run(fan_out(port, fresh, gm, player.session(), args.pages, args.fanout_steps))
        delays = [d for seq in posted for d in arrivals.get(seq, [])]
        expected = len(posted) * args.pages
        print(f"commit to arrival on {args.pages} live pages over {len(posted)} steps "
              f"({len(delays)}/{expected} deliveries): median {statistics.median(delays) * 1000:.1f} ms, "
              f"p95 {percentile(delays, 95) * 1000:.1f} ms, max {max(delays) * 1000:.1f} ms")
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
