"""Password-reset throttling: a few mails per address and per client an hour.

Counted in Django's cache (Redis when REDIS_URL is set, so every web process shares
the count).  The count is by the address typed, whether or not an account has it,
so the refusal tells nobody which addresses have accounts.
"""
from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache

WINDOW = 3600  # seconds


def _key(kind: str, value: str) -> str:
    return f"reset-throttle:{kind}:{hashlib.sha256(value.encode('utf-8', 'replace')).hexdigest()}"


def _over(key: str, limit: int) -> bool:
    cache.add(key, 0, WINDOW)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr
        cache.set(key, 1, WINDOW)
        count = 1
    return count > limit


def reset_refused(email: str, client_ip: str) -> str:
    """An explanation when this reset request is over a limit, else ""."""
    if _over(_key("ip", client_ip or "unknown"), settings.PASSWORD_RESET_LIMIT_PER_IP):
        return "Too many password-reset requests from your network; try again in an hour."
    if _over(_key("email", email.strip().lower()), settings.PASSWORD_RESET_LIMIT_PER_EMAIL):
        return "Too many password-reset mails were sent to this address; try again in an hour."
    return ""


def forget(email: str = "", client_ip: str = "") -> None:
    """Drop the counts (tests)."""
    cache.delete_many([_key("ip", client_ip or "unknown"), _key("email", email.strip().lower())])
