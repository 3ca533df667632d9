"""The live stream: server-sent events through real Redis pub/sub, with catch-up by sequence.

It uses the REDIS_URL of the environment, or the Redis on 127.0.0.1:6379.
"""
import asyncio
import os

import pytest
import threading

from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient
from django.urls import reverse

from encounters import log
from tests.encounters.conftest import ship_id

REDIS = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def run_async(scenario):
    """Run ``scenario()`` on its own event loop in its own thread.

    (The browser tests' Playwright keeps an event loop on the main thread, where
    async_to_sync refuses to run.)
    """
    errors, results = [], []

    async def closing():
        try:
            results.append(await scenario())
        finally:
            # The executor thread that ran the ORM calls keeps its connection otherwise.
            await sync_to_async(connections.close_all)()

    def target():
        try:
            asyncio.run(closing())
        except BaseException as exc:  # re-raised in the test's thread
            errors.append(exc)

    thread = threading.Thread(target=target)
    thread.start()
    thread.join(30)
    if errors:
        raise errors[0]
    assert not thread.is_alive(), "the stream scenario hung"
    return results[0]


@pytest.fixture
def redis_settings(settings):
    import encounters.live

    settings.REDIS_URL = REDIS
    encounters.live._client = None
    yield
    encounters.live._client = None


async def _next_event(stream, timeout=5.0):
    """The next real event of the stream (skipping the retry line and keep-alives)."""
    while True:
        chunk = await asyncio.wait_for(stream.__anext__(), timeout)
        text = chunk.decode() if isinstance(chunk, bytes) else chunk
        if text.startswith("id:"):
            return text


@pytest.mark.django_db(transaction=True)
def test_a_step_committed_elsewhere_arrives_on_the_stream(redis_settings, player, encounter):
    action = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"

    async def scenario():
        client = AsyncClient()
        await client.aforce_login(player)
        response = await client.get(reverse("encounters:stream", args=[encounter.pk]) + "?after=0")
        assert response["Content-Type"] == "text/event-stream"
        stream = response.streaming_content.__aiter__()
        first = await asyncio.wait_for(stream.__anext__(), 5)
        assert (first.decode() if isinstance(first, bytes) else first).startswith("retry:")
        await asyncio.sleep(0.2)  # subscribed
        await sync_to_async(log.step)(encounter, action, expected_seq=0)
        event = await _next_event(stream)
        assert event.startswith('id: 1\nevent: step\ndata: {"seq": 1, "t": ')
        # A player's event carries their page at that step: no fetch needed to show it.
        assert 'data-head=\\"1\\"' in event
        await stream.aclose()

    run_async(scenario)


@pytest.mark.django_db(transaction=True)
def test_a_reconnecting_page_catches_up_from_its_last_event_id(redis_settings, player, encounter):
    action = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"
    log.step(encounter, action, expected_seq=0)
    log.step(encounter, f"brace actor={ship_id(encounter, 'Bravo')}", expected_seq=1)

    async def scenario():
        client = AsyncClient()
        await client.aforce_login(player)
        response = await client.get(reverse("encounters:stream", args=[encounter.pk]), headers={"Last-Event-ID": "1"})
        stream = response.streaming_content.__aiter__()
        event = _data(await _next_event(stream))
        # One event with the page as it is now, not one per missed step.
        assert event["seq"] == 2 and 'data-head="2"' in event["html"]
        with pytest.raises(asyncio.TimeoutError):
            await _next_event(stream, timeout=1.5)
        await stream.aclose()

    run_async(scenario)


@pytest.mark.django_db(transaction=True)
def test_an_outsider_cannot_open_the_stream(redis_settings, outsider, encounter):
    async def scenario():
        client = AsyncClient()
        await client.aforce_login(outsider)
        response = await client.get(reverse("encounters:stream", args=[encounter.pk]))
        assert response.status_code == 404

    run_async(scenario)


@pytest.mark.django_db
def test_without_redis_there_is_no_stream_and_pages_poll(settings, as_player, encounter):
    settings.REDIS_URL = ""
    assert as_player.get(reverse("encounters:stream", args=[encounter.pk])).status_code == 404
    page = as_player.get(encounter.get_absolute_url()).content.decode()
    assert "data-stream" not in page and "data-poll" in page


async def _open_stream(player, encounter):
    """A player's live stream, open (its retry line read) and subscribed."""
    client = AsyncClient()
    await client.aforce_login(player)
    response = await client.get(reverse("encounters:stream", args=[encounter.pk]) + "?after=0")
    stream = response.streaming_content.__aiter__()
    await asyncio.wait_for(stream.__anext__(), 5)  # the retry line: the stream is open
    await asyncio.sleep(0.2)  # subscribed
    return stream


@pytest.mark.django_db(transaction=True)
def test_a_player_removed_from_the_campaign_stops_receiving_the_stream(redis_settings, player, encounter):
    """Issue 15: a player removed while their live page is open gets no further step numbers."""
    from campaigns.models import Membership

    action = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"

    async def scenario():
        stream = await _open_stream(player, encounter)
        await sync_to_async(Membership.objects.filter(campaign=encounter.campaign, user=player).delete)()
        await sync_to_async(log.step)(encounter, action, expected_seq=0)
        received = []
        with pytest.raises(StopAsyncIteration):
            while True:
                chunk = await asyncio.wait_for(stream.__anext__(), 5)
                received.append(chunk.decode() if isinstance(chunk, bytes) else chunk)
        assert not any(text.startswith("id:") for text in received), received

    run_async(scenario)


def _data(event: str) -> dict:
    import json

    head, _, data = event.partition("data: ")
    assert head.startswith("id: ") and head.endswith("\nevent: step\n"), event
    return json.loads(data)


@pytest.mark.django_db(transaction=True)
def test_a_gm_only_step_reaches_a_players_stream_as_their_own_page_only(redis_settings, client, player, encounter):
    """Issue 15: the stream is a payload a player reads; it carries exactly the fragment the
    poll view answers that player (what their characters know: tests/encounters/test_leaks.py)."""
    action = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"

    async def scenario():
        stream = await _open_stream(player, encounter)
        await sync_to_async(log.step)(encounter, action, expected_seq=0, gm_only=True)
        event = _data(await _next_event(stream))
        assert set(event) == {"seq", "t", "html"} and event["seq"] == 1
        await stream.aclose()
        return event["html"]

    pushed = run_async(scenario)
    client.force_login(player)
    polled = client.get(reverse("encounters:poll", args=[encounter.pk]) + "?seen=0", HTTP_HX_REQUEST="true")
    assert pushed == polled.content.decode()


@pytest.mark.django_db(transaction=True)
def test_the_gms_stream_carries_the_number_only(redis_settings, gm, encounter):
    """The GM's fragment holds the GM's controls and session: the GM's page fetches it itself."""
    action = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"

    async def scenario():
        stream = await _open_stream(gm, encounter)
        await sync_to_async(log.step)(encounter, action, expected_seq=0)
        assert set(_data(await _next_event(stream))) == {"seq", "t"}
        await stream.aclose()

    run_async(scenario)


@pytest.mark.django_db(transaction=True)
def test_many_pages_of_one_encounter_share_one_round_and_one_render_per_viewer_kind(
        redis_settings, monkeypatch, gm, player, encounter, django_user_model):
    """Issue 14: twenty players' pages and the GM's get a step from one database round, with
    one render for the players of a side, another for a player of the other side, none shared
    with the GM."""
    from campaigns.models import CrewMember, Membership
    from django.core.cache import cache
    from encounters import stream as live_stream
    from encounters import views

    cache.clear()
    rival = django_user_model.objects.create_user("rival", "rival@example.com", "rival-password-123")
    Membership.objects.create(campaign=encounter.campaign, user=rival, role=Membership.PLAYER)
    bob = CrewMember.objects.get(name="Bob")
    bob.player = rival
    bob.save()
    rounds, renders = [], []
    deliveries = live_stream._deliveries
    monkeypatch.setattr(live_stream, "_deliveries", lambda pk, pages: rounds.append(len(pages)) or deliveries(pk, pages))
    render = views.render_to_string
    monkeypatch.setattr(views, "render_to_string", lambda *a, **k: renders.append(a[0]) or render(*a, **k))
    action = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"

    async def scenario():
        streams = [await _open_stream(player, encounter) for _ in range(20)]
        streams.append(await _open_stream(rival, encounter))
        streams.append(await _open_stream(gm, encounter))
        rounds.clear()
        renders.clear()
        await sync_to_async(log.step)(encounter, action, expected_seq=0)
        events = [_data(await _next_event(s)) for s in streams]
        for s in streams:
            await s.aclose()
        return events

    events = run_async(scenario)
    assert rounds == [22]  # one round for every page of the room
    assert len(renders) == 2  # Alpha's side, Bravo's side; the GM's page fetches its own
    ours, theirs, gms = events[0]["html"], events[20]["html"], events[21]
    assert all(e["html"] == ours for e in events[:20])
    assert theirs != ours and "html" not in gms
    assert 'data-head="1"' in ours and 'data-head="1"' in theirs


@pytest.mark.django_db(transaction=True)
def test_a_pause_and_a_resume_reach_an_open_players_stream(redis_settings, gm, player, encounter):
    """Issue 27: the GM pauses; the player's open page says "paused by the GM" without a
    reload, and the resume takes it away again (the same head, a new status)."""
    from django.test import Client

    def set_status(status):
        client = Client()
        client.force_login(gm)
        assert client.post(reverse("encounters:status", args=[encounter.pk]), {"status": status}).status_code == 302

    async def scenario():
        stream = await _open_stream(player, encounter)
        await sync_to_async(set_status)("paused")
        paused = _data(await _next_event(stream))
        await sync_to_async(set_status)("active")
        resumed = _data(await _next_event(stream))
        await stream.aclose()
        return paused, resumed

    paused, resumed = run_async(scenario)
    assert paused["seq"] == 0 and "paused by the GM" in paused["html"] and 'data-status="paused"' in paused["html"]
    assert resumed["seq"] == 0 and "paused by the GM" not in resumed["html"]
    assert 'data-status="active"' in resumed["html"]


@pytest.mark.django_db
def test_a_polling_page_is_given_the_pause_at_the_same_head(settings, client, gm, player, encounter):
    """Issue 27, without Redis: the page polls with its head and status; a pause is news."""
    settings.REDIS_URL = ""
    client.force_login(gm)
    client.post(reverse("encounters:status", args=[encounter.pk]), {"status": "paused"})
    client.force_login(player)
    poll = reverse("encounters:poll", args=[encounter.pk])
    changed = client.get(poll + "?seen=0&status=active", HTTP_HX_REQUEST="true")
    assert changed.status_code == 200 and "paused by the GM" in changed.content.decode()
    assert client.get(poll + "?seen=0&status=paused", HTTP_HX_REQUEST="true").status_code == 204
    client.force_login(gm)  # the GM's other tab too
    gm_page = client.get(poll + "?seen=0&status=active", HTTP_HX_REQUEST="true").content.decode()
    assert "Paused: resume to play on." in gm_page


@pytest.mark.django_db(transaction=True)
def test_a_players_step_waiting_for_the_gm_and_its_send_back_reach_both_open_streams(
        redis_settings, gm, player, encounter):
    """Issue 22, the GM confirming players' steps: the proposal reaches the GM's open stream (an
    event at the same head: the GM's page fetches it, tests/encounters/test_player_steps.py) and the
    player's page says it waits; the send-back gives the player their turn again, without polling."""
    from django.test import Client

    from campaigns.models import Ship
    from encounters.models import Encounter

    Ship.objects.filter(campaign=encounter.campaign, name="Alpha").update(player=player)
    Encounter.objects.filter(pk=encounter.pk).update(players_act=True, gm_confirms=True)
    action = f"fire actor={ship_id(encounter, 'Alpha')} target={ship_id(encounter, 'Bravo')}"

    def propose():
        client = Client()
        client.force_login(player)
        assert client.post(reverse("encounters:play", args=[encounter.pk]),
                           {"action": action, "expected_seq": 0, "roll": "app"}, HTTP_HX_REQUEST="true").status_code == 200

    def send_back():
        client = Client()
        client.force_login(gm)
        token = Encounter.objects.get(pk=encounter.pk).proposal["token"]
        assert client.post(reverse("encounters:proposal", args=[encounter.pk]),
                           {"token": token, "decision": "back"}, HTTP_HX_REQUEST="true").status_code == 200

    async def scenario():
        theirs = await _open_stream(player, encounter)
        ours = await _open_stream(gm, encounter)
        await sync_to_async(propose)()
        waiting, told = _data(await _next_event(theirs)), _data(await _next_event(ours))
        await sync_to_async(send_back)()
        back = _data(await _next_event(theirs))
        await theirs.aclose()
        await ours.aclose()
        return waiting, told, back

    waiting, told, back = run_async(scenario)
    assert waiting["seq"] == 0 and "Waiting for the GM to confirm" in waiting["html"]
    assert told["seq"] == 0 and "html" not in told
    assert back["seq"] == 0 and "Waiting for the GM" not in back["html"] and "Roll for me" in back["html"]
