"""Settings, all from the environment.  With nothing set: SQLite and a serverless broker.

DATABASE_URL   postgres://user:pass@host:5432/name (default: SQLite in var/db.sqlite3)
REDIS_URL      redis://host:6379/0 (default: none -> kombu filesystem broker in var/broker,
               live pages poll instead of streaming)
SECRET_KEY     required when DEBUG is off
DEBUG          "1"/"true" to turn on (default on only when no SECRET_KEY is given)
ALLOWED_HOSTS  comma-separated (default "localhost,127.0.0.1" in debug)
BEHIND_TLS_PROXY  the proxies in front of the app (addresses or networks, comma-separated; "1": one on
               this host): only they may set X-Forwarded-For and X-Forwarded-Proto (config/proxies.py)
"""
from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url

from config.proxies import trusted_proxies
from rulesets.core.registry import ENGINE_MODULES

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))


def env(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in env(name, default).split(",") if item.strip()]


def env_int(name: str, default: int) -> int:
    return int(env(name, str(default)))


SECRET_KEY = env("SECRET_KEY")
DEBUG = env_bool("DEBUG", default=not SECRET_KEY)
if not SECRET_KEY:
    if not DEBUG:
        raise RuntimeError("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
# `seed_demo` makes the demo accounts (published passwords) only in development: when
# DEBUG is on as the settings load.  Elsewhere it needs its --demo-accounts flag.
DEMO_ACCOUNTS = DEBUG

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver" if DEBUG else "")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "template_partials",
    "axes",
    "accounts",
    "campaigns",
    "encounters",
    # One Django app per rule system, from the engine registry (rulesets/<key>/).
    *sorted({m.rsplit(".", 1)[0] for m in ENGINE_MODULES}),
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "accounts.language.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "config.security.ContentSecurityPolicyMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords for one
# username from one address, that pair is locked out for AXES_COOLOFF_MINUTES.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = env_int("AXES_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("AXES_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # lockouts are rows in the admin (Axes: access attempts), not log noise
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# Guessing one username from many addresses (accounts/guard.py): once this many wrong
# passwords for a username are counted within AXES_COOLOFF_MINUTES, sign-ins to it from
# addresses it has not signed in from in LOGIN_KNOWN_ADDRESS_DAYS are refused.
LOGIN_FAILURE_LIMIT_PER_USERNAME = env_int("LOGIN_FAILURE_LIMIT_PER_USERNAME", 20)
LOGIN_KNOWN_ADDRESS_DAYS = env_int("LOGIN_KNOWN_ADDRESS_DAYS", 90)
# Password-reset mails: at most this many per address, and per client address, an hour.
PASSWORD_RESET_LIMIT_PER_EMAIL = env_int("PASSWORD_RESET_LIMIT_PER_EMAIL", 3)
PASSWORD_RESET_LIMIT_PER_IP = env_int("PASSWORD_RESET_LIMIT_PER_IP", 10)

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.language.languages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

DATABASE_URL = env("DATABASE_URL")
if DATABASE_URL:
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # A pool per process (psycopg_pool), instead of one persistent connection per request
        # thread: under ASGI those piled up until PostgreSQL ran out of connections.  Each
        # request borrows a connection and gives it back; web + workers stay well under
        # PostgreSQL's default 100 (docs/decisions.md).
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": env_int("DB_POOL_MIN", 2),
            "max_size": env_int("DB_POOL_MAX", 16),
            "timeout": env_int("DB_POOL_TIMEOUT", 10),
        }
    elif DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
        # A SQLite file named by URL (a test's server process) behaves as the default one: writers
        # wait for each other instead of failing "database is locked" when two requests write.
        DATABASES["default"].setdefault("OPTIONS", {}).update({"timeout": 20, "transaction_mode": "IMMEDIATE"})
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
            "OPTIONS": {"timeout": 20, "transaction_mode": "IMMEDIATE"},
            # A file, not memory, so a test's Celery worker process sees the same database
            # (one per test run, so two runs on one machine do not collide).
            "TEST": {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")},
        }
    }

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "campaigns:list"
LOGOUT_REDIRECT_URL = "login"

# The languages of the five rule texts, and English (docs/translations.md).  Each person reads
# the app in their own: their account's choice, else this browser's, else their browser's
# languages (accounts/language.py).
LANGUAGE_CODE = "en-gb"
LANGUAGES = [
    ("en-gb", "English"),
    ("it", "Italiano"),
    ("ca", "Català"),
    ("ru", "Русский"),
    ("de", "Deutsch"),
    ("es", "Español"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
LANGUAGE_COOKIE_NAME = "starship_language"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(env("STATIC_ROOT", str(BASE_DIR / "staticfiles")))
WHITENOISE_USE_FINDERS = DEBUG  # in development, serve straight from static/
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

EMAIL_BACKEND = env(
    "EMAIL_BACKEND",
    "django.core.mail.backends.console.EmailBackend" if DEBUG else "django.core.mail.backends.smtp.EmailBackend",
)
EMAIL_HOST = env("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25)
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", "starship-table@localhost")

# Redis: Celery broker and results, pub/sub for live pages, and the cache that shares
# renders between processes and counts password-reset requests.  Nothing a page needs:
# sessions live in the database (Django's default), so while Redis is down everyone stays
# signed in and the GM can read and step (config/outage.py).  A cache in front of the
# sessions would serve a session as it was before an outage once Redis returned (a log-out
# during the outage undone), so there is none.
REDIS_URL = env("REDIS_URL")
#: seconds to wait for Redis before treating it as down (a page must not hang on it)
REDIS_TIMEOUT = float(env("REDIS_TIMEOUT", "1"))
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "starship-table",
                          "OPTIONS": {"socket_connect_timeout": REDIS_TIMEOUT, "socket_timeout": REDIS_TIMEOUT}}}
    CELERY_BROKER_URL = REDIS_URL
    CELERY_RESULT_BACKEND = REDIS_URL
else:
    _broker = VAR_DIR / "broker"
    for sub in ("out", "processed", "control"):
        (_broker / sub).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(_broker / "out"),
        "data_folder_out": str(_broker / "out"),
        "processed_folder": str(_broker / "processed"),
        "control_folder": str(_broker / "control"),  # not a stray control/ at the repo root
        "store_processed": False,
    }
    CELERY_RESULT_BACKEND = None
# The queue's name: deployments (or test runs) that share one Redis each name their own, so no
# worker takes another's tasks.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 1800)
# A late-acked message left unacked this many seconds (its worker was killed outright)
# goes to another worker.  Running tasks renew their hold every TASK_LEASE_RENEW
# seconds (encounters.tasks.Lease), so a long task is not handed out twice.
TASK_VISIBILITY_TIMEOUT = env_int("CELERY_VISIBILITY_TIMEOUT", 20)
TASK_LEASE_RENEW = max(1, TASK_VISIBILITY_TIMEOUT // 4)
# A starting worker sends again a run that made no progress for this long (a lost message).
TASK_STALLED_MINUTES = env_int("TASK_STALLED_MINUTES", 10)
if REDIS_URL:
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": TASK_VISIBILITY_TIMEOUT,
        # Every worker looks for such messages every two seconds (kombu's default: ~100 s),
        # and a worker killed while looking holds the look-up lock 5 s, not kombu's 300 s.
        "unacked_restore_interval": 2, "unacked_restore_throttle": 1, "unacked_mutex_expire": 5,
    }
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)

# Simulations
SIMULATION_MAX_TRIALS = env_int("SIMULATION_MAX_TRIALS", 100_000)

# The proxies in front of the app (BEHIND_TLS_PROXY): the server (config/serve.py) takes the
# client's address and scheme from X-Forwarded-For/-Proto only on their connections.
TRUSTED_PROXIES = trusted_proxies()

# Production hardening: on whenever DEBUG is off.
if not DEBUG:
    # X-Forwarded-Proto is trusted only behind a proxy that sets it (and drops a client's own):
    # otherwise any client could claim https.
    if TRUSTED_PROXIES:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", "INFO")},
}
