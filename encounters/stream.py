"""Server-sent events for live pages, through Redis pub/sub.

A live page opens ``/encounters/<id>/stream/`` with the last sequence it has
(``?after=N`` or the browser's ``Last-Event-ID`` on reconnect) and gets one ``step``
event per new head.  A player's event carries the page itself: the runner fragment that
the poll view would answer them (``views.player_fragment``: what their characters know,
through ``encounters/viewing.py``), so fifty pages show a step without fifty requests.
The GM's event carries only the number (the GM's fragment holds the GM's controls and
session), and the GM's page fetches it.

Within one web process, all the live pages of an encounter share a *room*: one Redis
subscription, and on each step one database round for all of them (who may still follow
the encounter, their viewers in one query) and one render per kind of viewer (the cache
shares it with other processes and with the poll view).  A page that reconnects gets the
current fragment once, not a render per step it missed.

A stream subscribes (through its room) before it reads the head, so a step committed in
between is not lost.  A player removed from the campaign gets nothing more: membership is
read again for every step and heartbeat.  The checks give their database connection back at
once: an open stream holds none.  Without Redis there is no stream (404) and pages poll.

Faults (issue 26).  A stream waits at most :data:`SUBSCRIBE_SECONDS` for its subscription
(Redis connections time out after ``REDIS_TIMEOUT``), then catches up from the database, so
a page reconnecting with ``Last-Event-ID`` sees the current step straight away.  A room also reads the head every :data:`HEAD_CHECK_SECONDS` when nothing was
published: a step whose push was lost (Redis restarting as it committed) still reaches every
page within seconds.  When Redis cannot be reached (or goes away under an open room), the
stream says so in an ``unavailable`` event, in words, and ends: the page shows the words,
polls, and opens the stream again a few seconds later; a stream that is subscribed says
``live``, and the page stops polling.
"""
from __future__ import annotations

import asyncio
import contextvars
import json
import logging

from asgiref.sync import sync_to_async
from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy
from django.http import Http404, HttpResponse, StreamingHttpResponse

from .live import channel

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15
MAX_STREAM_SECONDS = 600  # the browser reconnects (with Last-Event-ID) after this
#: a page that stops reading (a dead connection) is dropped once this many steps wait for it
BACKLOG = 50
#: a room reads the head this often when nothing was published (a push lost in a Redis restart)
HEAD_CHECK_SECONDS = 3.0
#: how long a new stream waits for its room's subscription before saying live updates are down
SUBSCRIBE_SECONDS = 5.0
#: what a page reads when live updates cannot work
UNAVAILABLE_TEXT = gettext_lazy("Live updates are unavailable just now (the message service cannot be reached): this page "
                                "checks for new steps every few seconds instead.")


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
def _still_allowed(user, pk) -> bool:
    """Whether ``user`` may still follow encounter ``pk`` (a player removed from the campaign may not)."""
    from .models import Encounter

    return Encounter.objects.for_user(user).filter(pk=pk).exists()


class _Page:
    """One open live page: who looks, and the steps waiting to be written to it."""

    __slots__ = ("request", "queue")

    def __init__(self, request):
        self.request = request
        self.queue: asyncio.Queue = asyncio.Queue()


#: what a page is told when it may no longer follow the encounter
GONE = object()
#: what a page is told when Redis went away under its room
UNAVAILABLE = object()


@_released
def _head_now(pk: int) -> int | None:
    from .log import head_seq
    from .models import Encounter

    encounter = Encounter.objects.filter(pk=pk).first()
    return None if encounter is None else head_seq(encounter)


@_released
def _deliveries(pk: int, pages: list[_Page]) -> tuple[int | None, dict[_Page, str | None]]:
    """The head now, and for each page what its event carries (GONE for who left the campaign).

    One round for every page of the room: the encounter, the roles and the viewers are
    read once; each kind of viewer is rendered once.
    """
    from campaigns.models import Membership

    from .log import head_seq
    from .models import Encounter
    from .viewers import viewers_for
    from .views import player_fragment

    encounter = Encounter.objects.select_related("campaign").filter(pk=pk).first()
    if encounter is None:
        return None, {page: GONE for page in pages}
    users = {page.request.user.pk for page in pages}
    roles = dict(Membership.objects.filter(campaign=encounter.campaign_id, user__in=users)
                 .values_list("user_id", "role"))
    viewers = viewers_for(encounter, {user: role for user, role in roles.items()})
    head = head_seq(encounter)
    out: dict[_Page, str | None] = {}
    for page in pages:
        user = page.request.user.pk
        role = roles.get(user)
        if role is None:
            out[page] = GONE
        elif role == Membership.GM:
            out[page] = ""  # the number only: the GM's page fetches its own controls
        else:
            # in the page's own language (each reader chooses theirs; the render is shared per language)
            with translation.override(getattr(page.request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE):
                out[page] = player_fragment(page.request, encounter, role, head, viewers[user])
    return head, out


class _Room:
    """The live pages of one encounter in this process: one subscription, one round a step."""

    def __init__(self, pk: int):
        self.pk = pk
        self.key = (asyncio.get_running_loop(), pk)
        self.pages: set[_Page] = set()
        self.closing = False
        self.live = False  # subscribed, and Redis has not failed since
        self.head: int | None = None  # the head the pages were last given
        self.subscribed = asyncio.Event()
        # A context of its own: the room outlives the request of the page that opened it, and
        # must not run its database rounds in that request's (closed) thread.
        self.task = asyncio.get_running_loop().create_task(self._run(), context=contextvars.Context())

    async def _run(self):
        import redis.asyncio as aioredis

        timeout = getattr(settings, "REDIS_TIMEOUT", 1)
        # A dead server is noticed at once (a refused connection) or by the health check's ping
        # (a connection that silently went away), never waited on for long.
        client = aioredis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=timeout, health_check_interval=5)
        pubsub = client.pubsub()
        loop = asyncio.get_running_loop()
        try:
            await pubsub.subscribe(channel(self.pk))
            self.live = True
            self.subscribed.set()
            checked = loop.time()
            while True:
                message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                if not self.pages:
                    self.closing = True  # no await between the check and the flag: no page joins in between
                    return
                if not (message and message.get("type") == "message"):
                    if loop.time() - checked >= HEAD_CHECK_SECONDS:
                        checked = loop.time()
                        head = await sync_to_async(_head_now)(self.pk)
                        if head is not None and self.head is not None and head != self.head:
                            await self._deliver(None)  # a step whose push never came
                    continue
                published = json.loads(message["data"]).get("t")
                # Steps that came while the last round ran are one round: pages want the latest.
                while (more := await pubsub.get_message(ignore_subscribe_messages=True, timeout=0)) is not None:
                    if more.get("type") == "message":
                        published = json.loads(more["data"]).get("t")
                await self._deliver(published)
                checked = loop.time()
        except Exception as exc:  # Redis gone: the pages say so, poll, and open their stream again
            log.warning("Live room of encounter %s stopped: %s", self.pk, exc)
            self.closing = True
            self.live = False
            for page in list(self.pages):
                page.queue.put_nowait(UNAVAILABLE)
        finally:
            self.closing = True
            self.live = False
            self.subscribed.set()
            if _rooms.get(self.key) is self:
                del _rooms[self.key]
            try:
                await pubsub.unsubscribe(channel(self.pk))
                await pubsub.aclose()
                await client.aclose()
            except Exception:
                pass

    async def _deliver(self, published: float | None):
        pages = list(self.pages)
        head, carried = await sync_to_async(_deliveries)(self.pk, pages)
        self.head = head
        for page in pages:
            if page.queue.qsize() > BACKLOG:
                self.pages.discard(page)
                continue
            what = carried.get(page, GONE)
            page.queue.put_nowait(GONE if what is GONE else (head, published, what))

    async def catch_up(self, page: _Page):
        """What a page that joins behind the head reads first: the current step, once."""
        head, carried = await sync_to_async(_deliveries)(self.pk, [page])
        if self.head is None:
            self.head = head
        what = carried.get(page, GONE)
        return GONE if what is GONE else (head, None, what)


_rooms: dict[tuple, _Room] = {}


async def _join(pk: int, page: _Page) -> _Room:
    key = (asyncio.get_running_loop(), pk)
    room = _rooms.get(key)
    if room is None or room.closing:
        room = _rooms[key] = _Room(pk)
    room.pages.add(page)
    try:
        await asyncio.wait_for(room.subscribed.wait(), SUBSCRIBE_SECONDS)
    except asyncio.TimeoutError:
        pass  # Redis does not answer: room.live is False
    return room


def _event(seq: int, published: float | None = None, html: str = "") -> str:
    data = {"seq": seq}
    if published is not None:
        data["t"] = published
    if html:
        data["html"] = html
    return f"id: {seq}\nevent: step\ndata: {json.dumps(data)}\n\n"


def _unavailable(words: str) -> str:
    return f"event: unavailable\ndata: {json.dumps({'message': words})}\n\n"


async def encounter_stream(request, pk):
    if not settings.REDIS_URL:
        raise Http404("Live streaming needs Redis; this page polls instead.")
    if not await sync_to_async(_still_allowed)(request.user, pk):
        raise Http404  # not signed in, or not in the encounter's campaign
    try:
        after = int(request.headers.get("Last-Event-ID") or request.GET.get("after", "0"))
    except ValueError:
        return HttpResponse(gettext("after must be a sequence number."), status=400)
    # in the reader's language, read now (the events are written after the request's own context)
    with translation.override(getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE):
        unavailable = _unavailable(str(UNAVAILABLE_TEXT))

    page = _Page(request)
    # Subscribe (waiting SUBSCRIBE_SECONDS at most), then read the head: nothing committed in
    # between is missed, and a page that reconnects gets the current step at once.
    room = await _join(pk, page)
    if room.live:
        first = await room.catch_up(page)
    else:  # Redis cannot be reached: the current step from the database, and the words
        head, carried = await sync_to_async(_deliveries)(pk, [page])
        what = carried.get(page, GONE)
        first = GONE if what is GONE else (head, None, what)

    async def events():
        try:
            yield "retry: 1000\n\n"
            if first is GONE:
                return
            if first[0] is not None and first[0] != after:
                yield _event(*first)
            if not room.live:
                yield unavailable
                return
            yield "event: live\ndata: {}\n\n"
            loop = asyncio.get_running_loop()
            started = idle = loop.time()
            while loop.time() - started < MAX_STREAM_SECONDS:
                try:
                    news = await asyncio.wait_for(page.queue.get(), timeout=1.0)
                except asyncio.TimeoutError:
                    if page not in room.pages:
                        return  # dropped (fell behind): the browser reconnects and catches up
                    if room.closing and not room.live:
                        yield unavailable
                        return
                    if loop.time() - idle > HEARTBEAT_SECONDS:
                        idle = loop.time()
                        if not await sync_to_async(_still_allowed)(request.user, pk):
                            return
                        yield ": keep-alive\n\n"
                    continue
                if news is GONE:
                    return  # no longer in the campaign (or the encounter is gone): nothing more
                if news is UNAVAILABLE:
                    yield unavailable
                    return
                head, published, html = news
                # Every publish is news (a status change re-sends the head).
                yield _event(head, published, html)
                idle = loop.time()
        finally:
            room.pages.discard(page)

    response = StreamingHttpResponse(events(), content_type="text/event-stream")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"
    return response
