"""Telling live pages that an encounter moved on.

With Redis configured, each committed step is published on the channel
``encounter:<id>`` (every web process subscribes for its own streams).  Without
Redis (the embedded default) nothing is published and live pages poll.
"""
from __future__ import annotations

import json
import logging
import time

from django.conf import settings

log = logging.getLogger(__name__)


def channel(encounter_id: int) -> str:
    return f"encounter:{encounter_id}"


_client = None


def redis_client():
    global _client
    if not settings.REDIS_URL:
        return None
    if _client is None:
        import redis

        # A dead or hung Redis costs a step at most this long, never the step itself.
        timeout = getattr(settings, "REDIS_TIMEOUT", 1)
        _client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=timeout, socket_timeout=timeout)
    return _client


def publish(encounter_id: int, seq: int) -> None:
    client = redis_client()
    if client is None:
        return
    try:
        # "t" (when it was published) lets the benchmark measure commit-to-page latency.
        client.publish(channel(encounter_id), json.dumps({"encounter": encounter_id, "seq": seq, "t": time.time()}))
    except Exception as exc:  # a lost push must not lose the step: pages catch up by sequence
        # (live rooms read the head every few seconds: encounters/stream.py)
        log.warning("Could not publish encounter %s step %s: %s", encounter_id, seq, exc)
