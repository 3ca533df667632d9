"""Live pages: what one kind of viewer sees at a given head is rendered once and shared.

When a step commits, every open live page fetches its fragment at the same moment.
Fifty players on one side see exactly the same thing, so the first request renders it
and the others take that render from the cache (Redis with the real stack, this
process's memory otherwise), each kind of viewer under its own key:

* the GM's fragment carries the GM's controls (forms with the GM's CSRF token), so it
  is shared only between that GM's own tabs;
* a player's fragment depends only on the ships they see through (their side), so it is
  shared by every player who sees through the same ships, and never with the GM.

While the cache (Redis) is down, each request renders its own fragment (config/outage.py).

The key holds the head sequence and the encounter's status, so a new step, a pause or
the end of the fight is a new key, never a stale render.  Within a process, requests
for a key being rendered wait for that render instead of rendering it again.
"""
from __future__ import annotations

import hashlib
import threading
from typing import Callable

from django.core.cache import cache
from django.utils import translation

from config.outage import CacheDown, cache_call
from rulesets.core.engine import Viewer

#: how long a render is kept (the next step makes a new key long before)
FRAGMENT_SECONDS = 600

_locks: dict[str, threading.Lock] = {}
_guard = threading.Lock()


def viewer_kind(viewer: Viewer, user_id: int | None) -> str:
    """The kind of viewer a render may be shared with."""
    if viewer.is_gm:
        return f"gm:{user_id}"
    return f"{viewer.role}:" + ",".join(sorted(viewer.ships))


def fragment_key(encounter_pk: int, head: int, status: str, kind: str, template: str) -> str:
    """The key of a render shared by the pages of one kind of viewer reading one language."""
    raw = f"{encounter_pk}|{head}|{status}|{kind}|{template}|{translation.get_language()}"
    return "fragment:" + hashlib.sha1(raw.encode()).hexdigest()


def shared_render(key: str, render: Callable[[], str]) -> str:
    """The render under ``key``: from the cache, or made once by ``render()`` and stored."""
    try:
        html = cache_call(cache.get, key)
    except CacheDown:
        return render()  # nothing shared while Redis is down; the page still shows
    if html is not None:
        return html
    with _guard:
        lock = _locks.setdefault(key, threading.Lock())
    try:
        with lock:
            try:
                html = cache_call(cache.get, key)
            except CacheDown:
                html = None
            if html is None:
                html = render()
                try:
                    cache_call(cache.set, key, html, FRAGMENT_SECONDS)
                except CacheDown:
                    pass
    finally:
        with _guard:
            if _locks.get(key) is lock and not lock.locked():
                del _locks[key]
    return html
