"""Issue 26, "Faults": Redis down and back, on the real server (``python -m config.serve``).

A Redis of the test's own (``redis-server`` on a spare port) is stopped and started again
under a running server: the machine's shared Redis is never touched.  While it is down every
page a signed-in user opens still answers (sessions are in the database), the GM reads and
steps, a live page's stream says in words that live updates are unavailable, a password
reset says it cannot be sent; when it returns, the open live page catches up with the step
made meanwhile and receives the next ones live, with nobody reloading anything.
"""
import json
import queue
import shutil
import socket
import subprocess
import threading
import time
import urllib.request

import pytest
from django.urls import reverse

from encounters.models import Encounter, SimulationRun
from tests.servers import Session, free_port, real_password, server_log, start_server, stop_server

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: how long the test waits for something that should happen within seconds (a bound, not a measure)
PATIENCE = 30


class OwnRedis:
    """``redis-server`` on a spare port, with nothing saved: stop it and start it again at will."""

    def __init__(self):
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc = None

    def start(self):
        self.proc = subprocess.Popen([shutil.which("redis-server"), "--port", str(self.port), "--bind", "127.0.0.1",
                                      "--save", "", "--appendonly", "no"],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return
            except OSError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.1)

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture
def own_redis():
    redis = OwnRedis()
    redis.start()
    yield redis
    redis.stop()


class SilentProxy(threading.Thread):
    """A TCP relay in front of Redis whose open connections can go silent: bytes sent on them
    vanish and nothing comes back, yet they stay open (a restarted container, a lost NAT entry).
    New connections are relayed as usual."""

    def __init__(self, target_port: int):
        super().__init__(daemon=True)
        self.target_port = target_port
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.pairs: list[dict] = []
        self.sockets: list[socket.socket] = [self.listener]

    def run(self):
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(("127.0.0.1", self.target_port))
            except OSError:
                client.close()
                continue
            pair = {"silent": False}
            self.pairs.append(pair)
            self.sockets += [client, upstream]
            for src, dst in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(src, dst, pair), daemon=True).start()

    @staticmethod
    def _pump(src, dst, pair):
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b""
            if pair["silent"]:
                if not data:
                    return  # the other side went away: keep ours open, and say nothing
                continue
            if not data:
                for sock in (src, dst):
                    try:
                        sock.shutdown(socket.SHUT_RDWR)
                    except OSError:
                        pass
                return
            try:
                dst.sendall(data)
            except OSError:
                return

    def silence(self):
        for pair in self.pairs:
            pair["silent"] = True

    def close(self):
        for sock in self.sockets:
            try:
                sock.close()
            except OSError:
                pass


class Follower(threading.Thread):
    """A live page's EventSource: reads the stream, reconnects with Last-Event-ID as a browser does
    (at once after an end, five seconds after "unavailable", as static/js/live.js does)."""

    def __init__(self, session: Session, path: str):
        super().__init__(daemon=True)
        self.session, self.path = session, path
        self.events: queue.Queue = queue.Queue()
        self.last_id = ""
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            pause = 1.0
            headers = {"Accept": "text/event-stream", **({"Last-Event-ID": self.last_id} if self.last_id else {})}
            try:
                request = urllib.request.Request(self.session.base + self.path, headers=headers)
                with self.session.opener.open(request, timeout=PATIENCE) as response:
                    name, data = "message", ""
                    for raw in response:
                        line = raw.decode().rstrip("\n")
                        if self.stopping.is_set():
                            return
                        if line.startswith("id: "):
                            self.last_id = line[4:]
                        elif line.startswith("event: "):
                            name = line[7:]
                        elif line.startswith("data: "):
                            data = line[6:]
                        elif line == "":
                            if data:
                                self.events.put((name, json.loads(data)))
                                if name == "unavailable":
                                    pause = 5.0
                            name, data = "message", ""
            except OSError:
                pass
            self.stopping.wait(pause)

    def wait_for(self, what, label: str):
        deadline = time.monotonic() + PATIENCE
        seen = []
        while time.monotonic() < deadline:
            try:
                name, data = self.events.get(timeout=0.5)
            except queue.Empty:
                continue
            seen.append(name)
            if what(name, data):
                return name, data
        raise AssertionError(f"the live page never got {label} (it got {seen})")


def _step(gm_browser, encounter, head):
    from encounters import log

    state = log.current(Encounter.objects.get(pk=encounter.pk)).state
    action = next(a for a in encounter.engine.legal_actions(state) if a.kind != "override").to_str()
    return gm_browser.request(reverse("encounters:step", args=[encounter.pk]),
                              {"action": action, "expected_seq": str(head)})


def _head(encounter) -> int:
    return encounter.events.order_by("-seq").values_list("seq", flat=True).first() or 0


def test_pages_work_while_redis_is_down_and_live_pages_catch_up_when_it_returns(own_redis, gm, player, encounter):
    real_password(gm, "gm-password-123")
    real_password(player, "player-password-123")
    server = start_server(REDIS_URL=own_redis.url)
    follower = None
    try:
        gm_browser, player_browser = Session(server.url), Session(server.url)
        assert gm_browser.login("gm", "gm-password-123")[0] == 302
        assert player_browser.login("player", "player-password-123")[0] == 302
        follower = Follower(player_browser, reverse("encounters:stream", args=[encounter.pk]) + "?after=0")
        follower.start()
        follower.wait_for(lambda name, data: name == "live", "the stream going live")
        assert _step(gm_browser, encounter, 0)[0] == 302
        follower.wait_for(lambda name, data: name == "step" and data["seq"] == 1, "step 1")

        own_redis.stop()
        # Signed-in users keep their sessions and every page answers.
        pages = [reverse("campaigns:list"), encounter.campaign.get_absolute_url(), encounter.get_absolute_url(),
                 reverse("encounters:poll", args=[encounter.pk])]
        for path in pages:
            assert gm_browser.request(path)[0] == 200, path
            assert player_browser.request(path)[0] == 200, path
        assert player_browser.request(reverse("encounters:poll", args=[encounter.pk]) + "?seen=-1",
                                      headers={"HX-Request": "true"})[0] == 200
        # The GM steps; the step is kept.
        assert _step(gm_browser, encounter, 1)[0] == 302
        assert _head(encounter) == 2
        # Signing in works too.
        assert Session(server.url).login("gm", "gm-password-123")[0] == 302
        # The live page is told, in words, that live updates are unavailable.
        _, words = follower.wait_for(lambda name, data: name == "unavailable", "the words that Redis is down")
        assert "Live updates are unavailable just now" in words["message"]
        # A password reset cannot be counted, so it is not sent, and says so.
        status, page = Session(server.url).request(reverse("password_reset"), {"email": "gm@example.com"})
        assert status == 503 and "Password reset is unavailable for a moment" in page
        # Background work is refused in words, and nothing is kept (the README's promise).
        campaign = encounter.campaign
        status, page = gm_browser.request(reverse("encounters:simulation_new", args=[campaign.pk]), {
            "name": "Sweep", "fleets": [f.pk for f in campaign.fleets.all()], "sweep": "max_rounds",
            "trials_per_point": "10", "chunk_size": "10", "seed": "", "opt-max_rounds": "30"})
        assert status == 400 and "queue cannot be reached just now, so nothing was started" in page.replace("&#x27;", "'")
        assert not SimulationRun.objects.exists()

        own_redis.start()
        # The open page catches up with the step made while Redis was down, then follows live.
        follower.wait_for(lambda name, data: name == "step" and data["seq"] == 2, "the step made during the outage")
        follower.wait_for(lambda name, data: name == "live", "the stream going live again")
        assert _step(gm_browser, encounter, 2)[0] == 302
        follower.wait_for(lambda name, data: name == "step" and data["seq"] == 3, "step 3, live")
        assert "Traceback" not in server_log(server), server_log(server)
    finally:
        if follower is not None:
            follower.stopping.set()
        stop_server(server)


def test_a_stream_open_across_a_redis_restart_catches_up_without_a_reload(own_redis, gm, player, encounter):
    """Redis restarts between two steps: the push of the step made meanwhile is lost, yet it arrives."""
    real_password(gm, "gm-password-123")
    real_password(player, "player-password-123")
    server = start_server(REDIS_URL=own_redis.url)
    follower = None
    try:
        gm_browser, player_browser = Session(server.url), Session(server.url)
        gm_browser.login("gm", "gm-password-123")
        player_browser.login("player", "player-password-123")
        follower = Follower(player_browser, reverse("encounters:stream", args=[encounter.pk]) + "?after=0")
        follower.start()
        follower.wait_for(lambda name, data: name == "live", "the stream going live")
        own_redis.stop()
        own_redis.start()
        assert _step(gm_browser, encounter, 0)[0] == 302
        follower.wait_for(lambda name, data: name == "step" and data["seq"] == 1, "the step after the restart")
        assert Encounter.objects.get(pk=encounter.pk).status == Encounter.ACTIVE
    finally:
        if follower is not None:
            follower.stopping.set()
        stop_server(server)


def test_a_stream_whose_redis_connection_went_silent_still_gets_the_next_steps(own_redis, gm, player, encounter):
    """Redis restarts behind connections that stay open and say nothing: the room's subscription
    hears nothing more and the step's push is lost, yet the live page gets the step."""
    real_password(gm, "gm-password-123")
    real_password(player, "player-password-123")
    proxy = SilentProxy(own_redis.port)
    proxy.start()
    server = start_server(REDIS_URL=proxy.url)
    follower = None
    try:
        gm_browser, player_browser = Session(server.url), Session(server.url)
        gm_browser.login("gm", "gm-password-123")
        player_browser.login("player", "player-password-123")
        assert _step(gm_browser, encounter, 0)[0] == 302
        follower = Follower(player_browser, reverse("encounters:stream", args=[encounter.pk]) + "?after=0")
        follower.start()
        follower.wait_for(lambda name, data: name == "step" and data["seq"] == 1, "step 1, on opening")
        time.sleep(1)  # subscribed (the page got its first event after subscribing)
        assert _step(gm_browser, encounter, 1)[0] == 302
        follower.wait_for(lambda name, data: name == "step" and data["seq"] == 2, "step 2, live")
        proxy.silence()
        own_redis.stop()
        own_redis.start()
        assert _step(gm_browser, encounter, 2)[0] == 302  # its push is lost in the silence
        follower.wait_for(lambda name, data: name == "step" and data["seq"] == 3, "the step made after the restart")
    finally:
        if follower is not None:
            follower.stopping.set()
        stop_server(server)
        proxy.close()
