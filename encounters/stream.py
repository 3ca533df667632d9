"""Server-sent events for live pages, through Redis pub/sub.

A live page opens ``/encounters/<id>/stream/`` with the last sequence it has
(``?after=N`` or the browser's ``Last-Event-ID`` on reconnect).  The stream sends
one ``step`` event per new sequence -- only the number, never content: the page
then fetches its own fragment through the permission-checked poll view, so what a
viewer sees always comes from ``view(state, viewer)``.

It subscribes before it reads the head, so a step committed in between is not
lost, and works with any number of web processes (each subscribes for its own
streams).  Membership is checked again before every event and heartbeat, so a player
removed from the campaign stops receiving anything on a stream they already had open.
Each check gives its database connection back at once: an open stream holds none.
Without Redis there is no stream (404) and pages poll.
"""
from __future__ import annotations

import asyncio
import json

from asgiref.sync import sync_to_async
from django.conf import settings
from django.http import Http404, HttpResponse, StreamingHttpResponse

from .live import channel

HEARTBEAT_SECONDS = 15
MAX_STREAM_SECONDS = 600  # the browser reconnects (with Last-Event-ID) after this


def _released(fn):
    """Run ``fn`` and give its database connection back at once.

    A stream lives for minutes; Django returns a request's connection (to the pool, on
    PostgreSQL) only when the request ends.  Without this, every open live page would hold
    a connection for as long as it is open, and fifty pages would exhaust the pool.
    """
    def run(*args):
        from django.db import connection

        try:
            return fn(*args)
        finally:
            connection.close()
    return run


@_released
def _authorise(request, pk):
    from .log import head_seq
    from .models import Encounter

    user = request.user
    if not user.is_authenticated:
        return None
    encounter = Encounter.objects.for_user(user).filter(pk=pk).first()
    if encounter is None:
        return None
    return head_seq(encounter)


@_released
def _still_allowed(user, pk) -> bool:
    """Whether ``user`` may still follow encounter ``pk`` (a player removed from the campaign may not)."""
    from .models import Encounter

    return Encounter.objects.for_user(user).filter(pk=pk).exists()


def _event(seq: int, published: float | None = None) -> str:
    data = {"seq": seq} if published is None else {"seq": seq, "t": published}
    return f"id: {seq}\nevent: step\ndata: {json.dumps(data)}\n\n"


async def encounter_stream(request, pk):
    if not settings.REDIS_URL:
        raise Http404("Live streaming needs Redis; this page polls instead.")
    head = await sync_to_async(_authorise)(request, pk)
    if head is None:
        raise Http404
    try:
        after = int(request.headers.get("Last-Event-ID") or request.GET.get("after", "0"))
    except ValueError:
        return HttpResponse("after must be a sequence number.", status=400)

    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(settings.REDIS_URL)
    pubsub = client.pubsub()
    await pubsub.subscribe(channel(pk))
    # Read the head after subscribing: nothing committed in between is missed.
    head = await sync_to_async(_authorise)(request, pk)

    async def events():
        last = after
        try:
            yield "retry: 1000\n\n"
            if head is not None and head != last:
                last = head
                yield _event(head)
            loop = asyncio.get_running_loop()
            started = idle = loop.time()
            while loop.time() - started < MAX_STREAM_SECONDS:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if message and message.get("type") == "message":
                    # Every publish is news (a status change re-sends the head).  Whoever left the
                    # campaign since the stream opened (a removed player) gets nothing more.
                    if not await sync_to_async(_still_allowed)(request.user, pk):
                        return
                    payload = json.loads(message["data"])
                    last = payload["seq"]
                    yield _event(last, payload.get("t"))
                    idle = loop.time()
                elif loop.time() - idle > HEARTBEAT_SECONDS:
                    idle = loop.time()
                    if not await sync_to_async(_still_allowed)(request.user, pk):
                        return
                    yield ": keep-alive\n\n"
        finally:
            await pubsub.unsubscribe(channel(pk))
            await pubsub.aclose()
            await client.aclose()

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
