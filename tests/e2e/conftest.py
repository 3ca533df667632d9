"""Browser tests: Playwright driving Debian's Chromium against a live server.

Screenshots go to test-artifacts/ (looked at by a person; kept by CI as artefacts).
"""
import os
from pathlib import Path

import pytest

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")  # Playwright's sync API runs an event loop

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run", "--disable-quic"]


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def context_for(browser_on, live_server):
    """A fresh browser context on the in-process live server, logged in as ``user`` when given."""

    def make(user=None, password=None):
        return browser_on(live_server.url, user, password)

    return make


def head(page) -> int:
    """The sequence number of the last step the runner page shows."""
    return int(page.locator("#runner").get_attribute("data-head"))


def open_setup_with_every_fleet(page, campaign, players_act: bool = False) -> None:
    """From the campaign page to the encounter setup form, every fleet ticked; players acting
    themselves only when asked (on by default in the form: these tests have the GM run alone)."""
    page.goto(campaign.get_absolute_url())
    page.click("text=Start an encounter")
    for box in page.locator("input[name=fleets]").all():
        box.check()
    page.locator("input[name=players_act]").set_checked(players_act)


def screenshot(page, name: str, full_page: bool = True) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=full_page)
    return path


@pytest.fixture
def asgi_server(transactional_db):
    """The app under uvicorn (ASGI, started as in production: config/serve.py) on the test database,
    and a Celery worker."""
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    from tests.workers import ROOT, service_env, start_worker, stop_worker

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = open(ARTIFACTS.parent / "var" / f"uvicorn-{port}.log", "w") if (ARTIFACTS.parent / "var").exists() else subprocess.DEVNULL
    env = service_env()
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    proc = subprocess.Popen([sys.executable, "-m", "config.serve", "--host", "127.0.0.1",
                             "--port", str(port), "--log-level", "warning"],
                            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    worker = start_worker()
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            urllib.request.urlopen(url + "/accounts/login/", timeout=2)
            break
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                stop_worker(worker)
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.2)
    yield url
    proc.terminate()
    proc.wait(timeout=20)
    stop_worker(worker)


@pytest.fixture
def browser_on(browser):
    """Contexts on a given server URL, logged in as a user."""
    contexts = []

    def make(base_url, user=None, password=None):
        from django.contrib.auth.hashers import PBKDF2PasswordHasher

        context = browser.new_context(base_url=base_url, viewport={"width": 1280, "height": 900})
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        if user is not None:
            # The server process hashes as production does (the tests' fast hasher is not there).
            hasher = PBKDF2PasswordHasher()
            user.password = hasher.encode(password, hasher.salt())
            user.save(update_fields=["password"])
            page.goto("/accounts/login/")
            page.fill("input[name=username]", user.username)
            page.fill("input[name=password]", password)
            page.click("button[type=submit]")
            page.wait_for_url("**/campaigns/")
        return page

    yield make
    for c in contexts:
        c.close()
