"""Password-reset throttling: a few mails per address and per client an hour.

Counted in Django's cache (Redis when REDIS_URL is set, so every web process shares
the count).  The count is by the address typed, whether or not an account has it,
so the refusal tells nobody which addresses have accounts.

While the cache (Redis) is down nothing can be counted, so no mail is sent: the request is
refused in words (:data:`UNAVAILABLE`), and works again by itself when Redis returns.
"""
from __future__ import annotations

import hashlib

from django.conf import settings
from django.core.cache import cache
from django.utils.translation import gettext, gettext_lazy

from config.outage import CacheDown, cache_call

WINDOW = 3600  # seconds
UNAVAILABLE = gettext_lazy("Password reset is unavailable for a moment (the service that counts reset requests cannot be "
                           "reached); nothing was sent. Try again in a few minutes.")


class Unavailable(Exception):
    """The counts cannot be read: no mail may go."""


def _key(kind: str, value: str) -> str:
    return f"reset-throttle:{kind}:{hashlib.sha256(value.encode('utf-8', 'replace')).hexdigest()}"


def _over(key: str, limit: int) -> bool:
    try:
        cache_call(cache.add, key, 0, WINDOW)
        try:
            count = cache_call(cache.incr, key)
        except ValueError:  # expired between add and incr
            cache_call(cache.set, key, 1, WINDOW)
            count = 1
    except CacheDown:
        raise Unavailable() from None
    return count > limit


def reset_refused(email: str, client_ip: str) -> str:
    """An explanation when this reset request is over a limit, else "".  Raises :class:`Unavailable`."""
    if _over(_key("ip", client_ip or "unknown"), settings.PASSWORD_RESET_LIMIT_PER_IP):
        return gettext("Too many password-reset requests from your network; try again in an hour.")
    if _over(_key("email", email.strip().lower()), settings.PASSWORD_RESET_LIMIT_PER_EMAIL):
        return gettext("Too many password-reset mails were sent to this address; try again in an hour.")
    return ""


def forget(email: str = "", client_ip: str = "") -> None:
    """Drop the counts (tests)."""
    cache.delete_many([_key("ip", client_ip or "unknown"), _key("email", email.strip().lower())])
