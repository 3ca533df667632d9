"""Real Celery worker processes for tests, on the configured broker and the test database."""
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    """The URL of the database this test runs on, for other processes."""
    s = connection.settings_dict
    if s["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{s['NAME']}"
    auth = s["USER"] + (f":{s['PASSWORD']}" if s["PASSWORD"] else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def service_env(**extra) -> dict:
    return {**os.environ, "DATABASE_URL": database_url(), "STARSHIP_EXTRA_RULESETS": "tests.rulesets.core.toy",
            "DJANGO_SETTINGS_MODULE": "config.settings", **extra}


def start_worker(*, pool: str = "solo", concurrency: int = 1, **extra_env) -> subprocess.Popen:
    log = tempfile.NamedTemporaryFile("w+", prefix="worker-", suffix=".log", delete=False)
    proc = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", f"--pool={pool}", f"--concurrency={concurrency}",
         "--loglevel=info", "--without-mingle", "--without-gossip", "--without-heartbeat"],
        cwd=ROOT, env=service_env(**extra_env), stdout=log, stderr=subprocess.STDOUT, text=True)
    proc.log_path = log.name
    return proc


def worker_log(proc) -> str:
    return Path(proc.log_path).read_text()[-4000:]


def stop_worker(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def worker():
    """One worker (solo pool) for the length of the test."""
    proc = start_worker()
    yield proc
    stop_worker(proc)
