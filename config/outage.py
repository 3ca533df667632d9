"""Redis may be down: the cache calls that must not take a page down with it.

Pages, sessions and steps live in the database; Redis only shares renders between
processes, counts password-reset requests, carries live pushes and queues background work.
:func:`cache_call` runs one cache operation and turns a Redis failure into
:class:`CacheDown`, for the caller to carry on without it (render instead of sharing) or
to say in words what is unavailable.  After a failure the cache is left alone for
:data:`PAUSE` seconds (a page does not wait on a dead server for every call), then tried
again: everything comes back by itself when Redis does.
"""
from __future__ import annotations

import logging
import time

log = logging.getLogger(__name__)

#: seconds the cache is not tried after a failure
PAUSE = 3.0

_down_until = 0.0


class CacheDown(Exception):
    """The cache (Redis) cannot be reached just now."""


def _errors() -> tuple[type[BaseException], ...]:
    try:
        from redis.exceptions import RedisError
    except ImportError:  # pragma: no cover - redis is a dependency
        return (OSError,)
    return (RedisError, OSError)


def cache_call(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` (a cache method), or :class:`CacheDown` when Redis fails."""
    global _down_until
    if time.monotonic() < _down_until:
        raise CacheDown()
    try:
        return fn(*args, **kwargs)
    except _errors() as exc:
        _down_until = time.monotonic() + PAUSE
        log.warning("The cache (Redis) cannot be reached: %s", exc)
        raise CacheDown() from exc


def reset() -> None:
    """Forget a recent failure (tests)."""
    global _down_until
    _down_until = 0.0
