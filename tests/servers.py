"""A real web server for tests: ``python -m config.serve`` (uvicorn, as deployed) on the test database.

``start_server`` returns the process with its ``url``; ``Session`` is a small HTTP client
with cookies and the CSRF token, that does not follow redirects (tests read the 302s).
"""
from __future__ import annotations

import http.cookiejar
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from tests.workers import ROOT, service_env


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(*args: str, wait_path: str = "/accounts/login/", port: int | None = None,
                 **env) -> subprocess.Popen:
    """The server with ``args`` (uvicorn options) and ``env`` on top of the test's environment."""
    port = port or free_port()
    log = tempfile.NamedTemporaryFile("w+", prefix="server-", suffix=".log", delete=False)
    full_env = service_env(STARSHIP_WARM_UP="0", **env)
    full_env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    proc = subprocess.Popen([sys.executable, "-m", "config.serve", "--host", "127.0.0.1", "--port", str(port),
                             "--log-level", "warning", *args],
                            cwd=ROOT, env=full_env, stdout=log, stderr=subprocess.STDOUT, text=True)
    proc.url = f"http://127.0.0.1:{port}"
    proc.log_path = log.name
    if wait_path:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(proc.url + wait_path, timeout=5)
                break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    stop_server(proc)
                    raise RuntimeError("the server did not start:\n" + server_log(proc))
                time.sleep(0.2)
    return proc


def server_log(proc) -> str:
    return Path(proc.log_path).read_text()[-6000:]


def stop_server(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Session:
    """One browser's cookies against ``base``."""

    def __init__(self, base: str):
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect)

    def request(self, path: str, data: dict | None = None, headers: dict | None = None, timeout: float = 30):
        """(status, body) of a GET, or of a POST of ``data`` with the CSRF token."""
        body = None
        headers = dict(headers or {})
        if data is not None:
            token = self.csrf()
            body = urllib.parse.urlencode({"csrfmiddlewaretoken": token, **data}, doseq=True).encode()
            headers.setdefault("Referer", self.base + path)
        req = urllib.request.Request(self.base + path, data=body, headers=headers)
        try:
            with self.opener.open(req, timeout=timeout) as response:
                return response.status, response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def csrf(self) -> str:
        token = next((c.value for c in self.jar if c.name == "csrftoken"), None)
        if token is None:
            status, page = self.request("/accounts/login/")
            token = next((c.value for c in self.jar if c.name == "csrftoken"), None)
            assert token, f"no CSRF cookie ({status})"
        return token

    def login(self, username: str, password: str, headers: dict | None = None):
        return self.request("/accounts/login/", {"username": username, "password": password}, headers=headers)


def real_password(user, password: str) -> None:
    """Hash as the server process does (the tests' fast hasher is not there)."""
    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(password, hasher.salt())
    user.save(update_fields=["password"])


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
    return found.group(1) if found else ""
