#!/usr/bin/env python
"""Benchmark the runner on the real stack: step request latency, and step-to-page fan-out.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/starship_bench \
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/python scripts/bench_live.py [--events 520] [--pages 50 100]

It migrates the database, creates a GM, a player and an encounter (the ruleset's
example setup), starts uvicorn, then

1. plays one long fight to ``--events`` rows over HTTP as the GM's browser would (CSRF,
   session, htmx header; GM overrides restore the hulls now and then so the fight lasts)
   and prints the median and p95 request latency around events 10, 100 and 500;
2. opens ``--pages`` live pages (server-sent event streams as a player, 50 and 100 by
   default) and, for each further step, measures from the step's commit (the publish
   time the server stamps on the event) to its arrival on every page, and to the page's
   fragment in hand (a player's event carries it; a page that gets only the number
   fetches it as live.js does); failed fetches and the most PostgreSQL connections seen
   are printed too.

The server runs with the production settings (DEBUG off, a secret key, behind a TLS proxy:
this script sends the ``X-Forwarded-Proto`` header such a proxy adds), as docker-compose.yml
deploys it; ``--debug`` runs it with DEBUG=1 instead (every SQL query kept, the template
engine's debug information), which costs a step request several milliseconds.

``--your-turn`` measures instead what issue 22 asks: the demo campaign of the ruleset (its
demo player plays a character and its ship), an encounter with players acting, ``--pages``
live pages open as that player, and the GM stepping the fight (the bot's choices); for each
step after which it is the player's character's turn, the time from the step's commit to the
"your turn" panel in hand on every page (the event carries the player's page whole).

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


#: seq -> delays of the events whose page held the player's "your turn" panel (--your-turn)
YOUR_TURN: dict[int, list[float]] = {}

#: headers a TLS-terminating proxy adds (production settings: BEHIND_TLS_PROXY); empty with --debug
PROXY_HEADERS: dict[str, str] = {}


class _BehindProxy(http.cookiejar.DefaultCookiePolicy):
    """Send the Secure session and CSRF cookies on the plain hop from the proxy to uvicorn."""

    def return_ok_secure(self, cookie, request):
        return True


class Browser:
    """A cookie-keeping HTTP client that logs in and posts forms like the page does."""

    def __init__(self, base):
        self.base = base
        self.jar = http.cookiejar.CookieJar(_BehindProxy())
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.opener.addheaders = [*self.opener.addheaders, *PROXY_HEADERS.items()]
        #: what the browser's address bar says (https behind the proxy): the Referer of its posts
        self.origin = base.replace("http://", "https://") if PROXY_HEADERS else base

    def csrf(self):
        return next(c.value for c in self.jar if c.name == "csrftoken")

    def get(self, path):
        return self.opener.open(self.base + path, timeout=30).read()

    def post(self, path, data, htmx=True):
        body = urllib.parse.urlencode(data, doseq=True).encode()
        req = urllib.request.Request(self.base + path, data=body, headers={
            "X-CSRFToken": self.csrf(), "Referer": self.origin + path, **({"HX-Request": "true"} if htmx else {})})
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


def _proxy_lines() -> str:
    return "".join(f"{k}: {v}\r\n" for k, v in PROXY_HEADERS.items())


async def open_stream(port, pk, session, arrivals, ready, visible, failures):
    """One live page: the event stream, and on each step a fetch of the page's fragment."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write((f"GET /encounters/{pk}/stream/?after=-1 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Cookie: sessionid={session}\r\n{_proxy_lines()}Accept: text/event-stream\r\n\r\n").encode())
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
                delay = time.time() - data["t"]
                arrivals.setdefault(data["seq"], []).append(delay)
                if "html" in data:  # a player's page arrives whole: visible once swapped in
                    if 'id="runner"' in data["html"]:
                        visible.setdefault(data["seq"], []).append(delay)
                        if 'id="your-turn"' in data["html"]:  # --your-turn: the player's panel in hand
                            YOUR_TURN.setdefault(data["seq"], []).append(delay)
                    else:
                        failures.append("an event without the page")
                else:  # the number only (the GM's stream): the page fetches its fragment
                    asyncio.create_task(fetch_fragment(port, pk, session, data, visible, failures))
    except asyncio.CancelledError:
        writer.close()
        raise


async def fetch_fragment(port, pk, session, data, visible, failures):
    """What live.js does on an event: fetch the fragment (the swap itself is the browser's)."""
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write((f"GET /encounters/{pk}/poll/?seen={data['seq'] - 1} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      f"Cookie: sessionid={session}\r\n{_proxy_lines()}HX-Request: true\r\nConnection: close\r\n\r\n").encode())
        await writer.drain()
        body = await reader.read()
        writer.close()
        status = int(body.split(b" ", 2)[1]) if body.startswith(b"HTTP/") else 0
        if status != 200 or b'id="runner"' not in body:
            failures.append(status)
            return
        visible.setdefault(data["seq"], []).append(time.time() - data["t"])
    except OSError as exc:
        failures.append(str(exc))


def pg_connections() -> int:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()")
        return cursor.fetchone()[0]


async def fan_out(port, encounter, browser, session, pages, steps):
    arrivals: dict[int, list[float]] = {}
    visible: dict[int, list[float]] = {}
    failures: list = []
    ready = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(open_stream(port, encounter.pk, session, arrivals, ready, visible, failures))
             for _ in range(pages)]
    for _ in range(pages):
        await ready.acquire()
    await asyncio.sleep(1.0)  # every stream subscribed
    posted, connections = [], 0
    for _ in range(steps):
        action, head = await asyncio.to_thread(next_action, encounter)
        if action is None:
            break
        await asyncio.to_thread(browser.post, f"/encounters/{encounter.pk}/step/",
                                {"action": action, "expected_seq": head})
        posted.append(head + 1)
        await asyncio.sleep(0.15)
        connections = max(connections, await asyncio.to_thread(pg_connections))
        await asyncio.sleep(0.35)
    await asyncio.sleep(1.5)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return posted, arrivals, visible, failures, connections


def setup_your_turn(ruleset_key: str):
    """The demo campaign of ``ruleset_key`` (seed_demo's: the demo player plays a character and
    its ship), with the bench GM and player as its GM and player, and an encounter of every
    fleet with players acting.  Returns the encounter."""
    from campaigns.management.commands.seed_demo import Command
    from campaigns.models import Campaign, Membership, Ship
    from django.contrib.auth import get_user_model
    from encounters.models import Encounter
    from rulesets.core import registry

    engine = registry.get(ruleset_key)
    User = get_user_model()
    gm, player = User.objects.get(username="bench-gm"), User.objects.get(username="bench-player")
    seeder = Command()
    seeder._seed_templates(engine)
    Campaign.objects.filter(name=f"Demo: {engine.name}", ruleset=ruleset_key,
                            memberships__user=gm).delete()
    seeder._seed_campaign(engine, gm, player)
    campaign = Campaign.objects.filter(name=f"Demo: {engine.name}", ruleset=ruleset_key,
                                       memberships__user=gm).latest("pk")
    ships = Ship.objects.filter(campaign=campaign).select_related("fleet").prefetch_related("crew")
    assert Membership.objects.filter(campaign=campaign, user=player).exists()
    return Encounter.objects.create(campaign=campaign, name="Your turn", ruleset=ruleset_key,
                                    setup={"ships": [s.setup_spec() for s in ships], "options": {}},
                                    seed="bench-your-turn", created_by=gm, players_act=True)


async def your_turn_fan_out(port, encounter, gm, session, pages, turns):
    """Steps by the GM until the player's character has had ``turns`` turns; the delay from
    each such step's commit to the "your turn" panel in hand on every page."""
    from encounters import log
    from encounters.players import links_of, turn_of

    player_id = next(iter((await asyncio.to_thread(links_of, encounter)).ship_player.values()))
    arrivals: dict[int, list[float]] = {}
    visible: dict[int, list[float]] = {}
    failures: list = []
    ready = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(open_stream(port, encounter.pk, session, arrivals, ready, visible, failures))
             for _ in range(pages)]
    for _ in range(pages):
        await ready.acquire()
    await asyncio.sleep(1.0)
    theirs, steps = [], 0
    while len(theirs) < turns and steps < 400:
        action, head = await asyncio.to_thread(next_action, encounter)
        if action is None:
            break
        await asyncio.to_thread(gm.post, f"/encounters/{encounter.pk}/step/", {"action": action, "expected_seq": head})
        steps += 1
        now = await asyncio.to_thread(log.current, encounter)
        if await asyncio.to_thread(lambda: turn_of(encounter, now.state).mine(player_id)):
            theirs.append(now.head)
            await asyncio.sleep(0.5)
    await asyncio.sleep(1.5)
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return theirs, visible, failures, steps


def restore_hulls(encounter, gm, start_state):
    """A GM override per ship setting its hull back: keeps one fight going for hundreds of steps."""
    from encounters import log

    for ship in start_state.ships:
        now = log.current(encounter)
        if now.state.over:
            return
        gm.post(f"/encounters/{encounter.pk}/step/", {"action": "override actor=gm", "p.path": f"{ship.name}.hull",
                                                       "p.value": str(ship.hull), "expected_seq": now.head}).read()


def long_fight_latencies(encounter, gm, events: int) -> dict[int, float]:
    """Post steps of one fight until ``events`` rows; the request time of each, by its sequence."""
    from encounters import log

    start = log.current(encounter).state
    by_seq = {}
    while True:
        now = log.current(encounter)
        if now.head >= events:
            return by_seq
        if now.state.over:
            gm.post(f"/encounters/{encounter.pk}/undo/", {"expected_seq": now.head}).read()
            continue
        if now.head and now.head % 15 == 0 and hasattr(start, "ships") and encounter.ruleset == "cepheus":
            restore_hulls(encounter, gm, start)
            continue
        action, head = next_action(encounter)
        t0 = time.perf_counter()
        gm.post(f"/encounters/{encounter.pk}/step/", {"action": action, "expected_seq": head}).read()
        by_seq[head + 1] = time.perf_counter() - t0


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ruleset", default="cepheus")
    parser.add_argument("--events", type=int, default=520, help="the length of the long fight")
    parser.add_argument("--pages", type=int, nargs="+", default=[50, 100])
    parser.add_argument("--fanout-steps", type=int, default=20)
    parser.add_argument("--web-workers", type=int, default=1)
    parser.add_argument("--your-turn", action="store_true",
                        help="measure the 'your turn' event to the player's pages (issue 22) instead")
    parser.add_argument("--turns", type=int, default=10, help="with --your-turn: the player's turns to measure")
    parser.add_argument("--debug", action="store_true",
                        help="run the server with DEBUG=1 (development settings) instead of the production settings")
    args = parser.parse_args()
    if not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")):
        sys.exit("Set DATABASE_URL (PostgreSQL) and REDIS_URL: this measures the real stack.")

    encounter = setup_data(args.ruleset)
    import socket

    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    if args.debug:
        env = {**os.environ, "DEBUG": "1"}
    else:  # as deployed (docker-compose.yml): DEBUG off, behind a TLS proxy that this script stands in for
        env = {**os.environ, "DEBUG": "0", "SECRET_KEY": "bench-only-secret-key-" + "x" * 40,
               "BEHIND_TLS_PROXY": "1", "ALLOWED_HOSTS": "127.0.0.1,localhost", "LOG_LEVEL": "WARNING"}
        PROXY_HEADERS["X-Forwarded-Proto"] = "https"
        env["STATIC_ROOT"] = str(ROOT / "var" / "bench-static")  # the static files, collected as a deployment does
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "--verbosity", "0"],
                       cwd=ROOT, env=env, check=True)
    server = subprocess.Popen([sys.executable, "-m", "config.serve", "--host", "127.0.0.1",
                               "--port", str(port), "--workers", str(args.web_workers), "--log-level", "warning"],
                              cwd=ROOT, env=env)
    try:
        base = f"http://127.0.0.1:{port}"
        for _ in range(100):
            try:
                urllib.request.urlopen(urllib.request.Request(base + "/accounts/login/", headers=PROXY_HEADERS), timeout=1)
                break
            except OSError:
                time.sleep(0.2)
        gm = Browser(base)
        gm.login("bench-gm", "bench-password-1")
        gm.get(f"/encounters/{encounter.pk}/")
        load = os.getloadavg()
        print(f"ruleset {args.ruleset}, uvicorn with {args.web_workers} worker process(es), "
              f"{'DEBUG=1 (development settings)' if args.debug else 'production settings (DEBUG off)'}, "
              f"database {os.environ['DATABASE_URL'].split('@')[-1]}; load average {load[0]:.2f} {load[1]:.2f}")

        if args.your_turn:
            player = Browser(base)
            player.login("bench-player", "bench-password-1")
            for pages in args.pages:
                fresh = setup_your_turn(args.ruleset)
                theirs, visible, failures, steps = asyncio.run(
                    your_turn_fan_out(port, fresh, gm, player.session(), pages, args.turns))
                shown = [d for seq in theirs for d in YOUR_TURN.get(seq, [])]
                expected = len(theirs) * pages
                print(f"{pages} live pages of the player, {len(theirs)} of their turns in {steps} steps: commit to "
                      f"'your turn' in hand ({len(shown)}/{expected}) median {statistics.median(shown) * 1000:.1f} ms, "
                      f"p95 {percentile(shown, 95) * 1000:.1f} ms, max {max(shown) * 1000:.1f} ms; "
                      f"failed {len(failures)}; load average {os.getloadavg()[0]:.2f}")
            return
        by_seq = long_fight_latencies(encounter, gm, args.events)
        for around in (10, 100, 500):
            window = [v for seq, v in by_seq.items() if abs(seq - around) <= 10]
            if window:
                print(f"step latency around event {around} ({len(window)} steps): "
                      f"median {statistics.median(window) * 1000:.1f} ms, p95 {percentile(window, 95) * 1000:.1f} ms")

        from encounters.models import Encounter

        player = Browser(base)
        player.login("bench-player", "bench-password-1")
        for pages in args.pages:
            fresh = Encounter.objects.create(campaign=encounter.campaign, name=f"Fan-out {pages}",
                                             ruleset=args.ruleset, setup=encounter.setup, seed=f"fanout{pages}")
            posted, arrivals, visible, failures, connections = asyncio.run(
                fan_out(port, fresh, gm, player.session(), pages, args.fanout_steps))
            delays = [d for seq in posted for d in arrivals.get(seq, [])]
            shown = [d for seq in posted for d in visible.get(seq, [])]
            expected = len(posted) * pages
            print(f"{pages} live pages over {len(posted)} steps: commit to arrival ({len(delays)}/{expected}) "
                  f"median {statistics.median(delays) * 1000:.1f} ms, p95 {percentile(delays, 95) * 1000:.1f} ms; "
                  f"commit to page in hand ({len(shown)}/{expected}) median {statistics.median(shown) * 1000:.1f} ms, "
                  f"p95 {percentile(shown, 95) * 1000:.1f} ms, max {max(shown) * 1000:.1f} ms; "
                  f"failed fetches {len(failures)}; PostgreSQL connections at most {connections}")
    finally:
        server.terminate()
        server.wait(timeout=20)


if __name__ == "__main__":
    main()
