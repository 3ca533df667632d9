"""Issue 26, "Access and abuse": every view of the log a player can reach hides the same things.

The runner's default page hid a GM-only line that the whole log (``?log=all``) was said to
show.  Every view of the log reads one filter (``encounters.viewing.readable``, through
``log_for``); this plays a fight of every registered system (public steps, GM-only steps,
rerolls of both, a reveal) and reads, as a player, each view: the live page, the whole log,
the poll fragment and the poll fragment of the whole log, the live stream's payload (asked
with ``?log=all`` too), and after the end of the fight the same pages and the replay at
every step.  On each, every step shown must be one the player may read, nothing may carry
the GM-only tag, and no secret of the system (``secrets``), no enemy crew name and no line
of a hidden step may appear (tests/encounters/test_leaks.py).
"""
import html
import json
import re

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.urls import reverse

from campaigns.models import Membership
from encounters import log
from encounters.viewers import viewer_for
from encounters.views import LOG_LIMIT, player_fragment
from rulesets.core import registry
from tests.encounters.test_leaks import assert_clean, played_fight, secrets_for

SYSTEMS = [module.split(".")[1] for module in registry.ENGINE_MODULES]


def player_views(client, encounter, player):
    """(where, page) for every view of the log a player can reach now, each rendered afresh."""
    url = encounter.get_absolute_url()
    poll = reverse("encounters:poll", args=[encounter.pk])
    for where, address in [("the live page", url), ("the whole log", url + "?log=all"),
                           ("the poll fragment", poll + "?seen=-1"),
                           ("the poll fragment of the whole log", poll + "?seen=-1&log=all")]:
        cache.clear()  # no render shared from another view
        response = client.get(address, HTTP_HX_REQUEST="true") if address.startswith(poll) else client.get(address)
        assert response.status_code == 200, where
        yield where, response.content.decode()
    for query in ("after=0", "after=0&log=all"):
        cache.clear()
        request = RequestFactory().get(reverse("encounters:stream", args=[encounter.pk]) + "?" + query)
        request.user = player
        viewer = viewer_for(player, encounter, Membership.PLAYER)
        payload = player_fragment(request, encounter, Membership.PLAYER, log.head_seq(encounter), viewer)
        yield f"the live stream's payload ({query})", payload
        if "log=all" in query:
            # A render shared by every page of its kind: never the whole log because one page asked.
            assert len(re.findall(r'<li class="step', payload)) <= LOG_LIMIT + 1


def add_gm_only_parts(encounter) -> list[str]:
    """A GM-only line and a GM-only roll in the newest public step with both (not every system
    writes such parts in a short fight); the texts a player must never read.

    Written into the snapshot, which every view reads (the fight is shorter than its window).
    """
    assert log.current(encounter).complete, "the snapshot's window holds the whole fight"
    snap = encounter.snapshots.order_by("-seq").first()
    applied = json.loads(snap.applied)
    step = next(a for a in reversed(applied) if not a["gm_only"] and a["log"] and a["rolls"])
    line = f"A note for the GM alone on step {step['seq']}."
    roll = f"A roll behind the GM's screen on step {step['seq']}"
    step["log"].append({"text": line, "rule": "", "gm_only": True})
    # a copy of the step's first roll with other words: not its stored messages ("words"), which read first
    words = {k: v for k, v in step["rolls"][0].items() if k != "words"}
    step["rolls"].append({**words, "purpose": roll, "gm_only": True})
    snap.applied = json.dumps(applied)
    snap.save(update_fields=["applied"])
    log._recent.clear()  # this process's folds: read the snapshot again
    return [line, roll]


def assert_only_readable(page: str, readable_seqs: set[int], where: str) -> None:
    for seq in re.findall(r'data-seq="(\d+)"', page):
        assert int(seq) in readable_seqs, f"{where} shows step {seq}, which the player may not read"
    assert ">GM only<" not in page, f"{where} shows something marked GM only"


@pytest.mark.django_db
@pytest.mark.parametrize("key", SYSTEMS)
def test_every_view_of_the_log_a_player_reaches_hides_the_same_things(client, gm, player, key):
    campaign, encounter, _ = played_fight(key, gm, player)
    secrets, hidden = secrets_for(encounter, player)
    assert hidden, "the fight has GM-only steps still hidden"
    secrets += add_gm_only_parts(encounter)
    readable_seqs = {a.seq for a in log.history(encounter).applied if not a.gm_only}
    client.force_login(player)
    for where, page in player_views(client, encounter, player):
        assert_only_readable(page, readable_seqs, where)
        assert_clean(page, secrets, hidden, where)

    log.finish(encounter, carry_damage=False)
    for where, page in player_views(client, encounter, player):
        assert_only_readable(page, readable_seqs, f"{where} (finished)")
        assert_clean(page, secrets, hidden, f"{where} (finished)")
    replay = reverse("encounters:replay", args=[encounter.pk])
    total = client.get(replay).context["total"]
    for index in range(total + 1):
        page = client.get(f"{replay}?step={index}").content.decode()
        assert_only_readable(page, readable_seqs, f"the replay at step {index}")
        assert_clean(page, secrets, hidden, f"the replay at step {index}")


@pytest.mark.django_db
def test_the_gm_reads_what_the_player_may_not(client, gm, player):
    """The checks above can fail: the GM's whole log shows the GM-only steps and their tag."""
    campaign, encounter, _ = played_fight("cepheus", gm, player)
    _, hidden = secrets_for(encounter, player)
    parts = add_gm_only_parts(encounter)
    client.force_login(gm)
    page = client.get(encounter.get_absolute_url() + "?log=all").content.decode()
    assert ">GM only<" in page
    assert all(f'data-seq="{seq}"' in page for seq in hidden)
    assert all(part in html.unescape(page) for part in parts)
