"""The deployable stack: docker-compose has every service the app needs; production settings are safe."""
import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _compose():
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_runs_web_worker_postgres_and_redis_with_health_checks():
    services = _compose()["services"]
    assert set(services) == {"web", "worker", "postgres", "redis"}
    for name, service in services.items():
        assert "healthcheck" in service, name
    assert "python -m config.serve" in services["web"]["command"]  # uvicorn, believing only named proxies
    assert "migrate" in services["web"]["command"]
    assert services["worker"]["command"].startswith("celery -A config worker")
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")


def test_web_and_worker_get_the_database_redis_and_secret_they_need():
    services = _compose()["services"]
    for name in ("web", "worker"):
        env = services[name]["environment"]
        assert env["DATABASE_URL"].startswith("postgres://") and "@postgres:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert "SECRET_KEY" in env and env["DEBUG"] == "0"
        deps = services[name]["depends_on"]
        assert deps["postgres"]["condition"] == deps["redis"]["condition"] == "service_healthy"


def test_check_deploy_is_clean_with_a_production_environment():
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}  # set for the browser tests
    env = {**base, "DEBUG": "0", "SECRET_KEY": "x" * 20 + "-production-secret-key-for-checks-0123456789",
           "ALLOWED_HOSTS": "table.example.com", "DATABASE_URL": "postgres://u:p@127.0.0.1:5432/db",
           "REDIS_URL": "redis://127.0.0.1:6379/0"}
    result = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_without_environment_the_app_uses_sqlite_and_a_serverless_broker():
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "SECRET_KEY", "DEBUG")}
    code = ("from django.conf import settings as s; import django; django.setup(); "
            "print(s.DATABASES['default']['ENGINE'], s.CELERY_BROKER_URL, s.DEBUG)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings"})
    assert result.stdout.split() == ["django.db.backends.sqlite3", "filesystem://", "True"], result.stderr


def test_postgresql_connections_come_from_a_bounded_pool():
    """Issue 14: a pool per process, not a persistent connection per request thread."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "DEBUG")}
    code = ("from django.conf import settings as s; import django; django.setup(); d = s.DATABASES['default']; "
            "print(d['CONN_MAX_AGE'], d['OPTIONS']['pool']['max_size'])")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            env={**env, "DJANGO_SETTINGS_MODULE": "config.settings",
                                 "DATABASE_URL": "postgres://u:p@127.0.0.1:5432/db"})
    conn_max_age, max_size = result.stdout.split()
    assert conn_max_age == "0" and 0 < int(max_size) <= 20, result.stderr
