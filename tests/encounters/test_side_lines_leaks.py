"""Issue 27, "The player page keeps the enemy's secrets": a line marked for one side never reaches the other.

A log line about what happens inside one side's ship (``LogEntry.side``: its Captain's orders,
the DMs handed to its crew, its internal checks) is read by the GM and that side's players
only.  For every registered system a bot fight is played (tests/encounters/test_leaks.py's
``played_fight``); the lines the system itself marked for the other side, and a line written
into the log for the other side and one for the player's own, are then looked for on every
view of the log a player reaches (the live page, the whole log, both poll fragments, the live
stream's payload) and, after the end, the same pages and the replay at every step.
"""
import html
import json

import pytest
from django.urls import reverse

from campaigns.models import Membership
from encounters import log
from encounters.viewers import viewer_for
from encounters.viewing import names_for
from rulesets.core.messages import render
from tests.encounters.test_leaks import played_fight
from tests.encounters.test_log_views_leaks import SYSTEMS, player_views


def add_side_lines(encounter, own: str, other: str) -> tuple[str, str]:
    """A line for the player's side and one for the other side in the newest public step; their texts."""
    assert log.current(encounter).complete, "the snapshot's window holds the whole fight"
    snap = encounter.snapshots.order_by("-seq").first()
    applied = json.loads(snap.applied)
    step = next(a for a in reversed(applied) if not a["gm_only"] and a["log"])
    mine = f"Inside a ship of {own}: an order on step {step['seq']}."
    theirs = f"Inside a ship of {other}: an order on step {step['seq']}."
    step["log"] += [{"text": mine, "rule": "", "gm_only": False, "side": own},
                    {"text": theirs, "rule": "", "gm_only": False, "side": other}]
    snap.applied = json.dumps(applied)
    snap.save(update_fields=["applied"])
    log._recent.clear()  # this process's folds: read the snapshot again
    return mine, theirs


def other_sides_lines(encounter, names) -> list[str]:
    """The texts of lines and rolls the fight marked for a side the player is not on (and never
    readable by them otherwise), as the GM reads them and as the player would ("Gutter Saint's captain")."""
    applied = log.history(encounter).applied
    parts = [p for a in applied for p in [*a.log, *a.rolls]]
    text = {id(p): getattr(p, "text", None) or render(getattr(p, "purpose", "")) for p in parts}
    readable_text = {text[id(p)] for a in applied if not a.gm_only for p in [*a.log, *a.rolls]
                     if not p.gm_only and (not p.side or p.side in names.sides)}
    secrets = {text[id(p)] for p in parts if p.side and p.side not in names.sides} - readable_text
    return sorted({form for s in secrets if s for form in (s, names(s))})


def assert_unread(page: str, secrets: list[str], where: str) -> None:
    text = html.unescape(page)
    for secret in secrets:
        assert secret not in text, f"{where} shows the other side's line {secret!r} to a player"


@pytest.mark.django_db
@pytest.mark.parametrize("key", SYSTEMS)
def test_no_view_a_player_reaches_shows_the_other_sides_lines(client, gm, player, key):
    campaign, encounter, _ = played_fight(key, gm, player)
    viewer = viewer_for(player, encounter, Membership.PLAYER)
    names = names_for(encounter, viewer)
    sides = names.sides
    assert sides, "the player plays a side"
    others = sorted({s["side"] for s in encounter.setup["ships"]} - set(sides))
    assert others, "the fight has another side"
    mine, theirs = add_side_lines(encounter, sorted(sides)[0], others[0])
    secrets = other_sides_lines(encounter, names)
    assert theirs in secrets
    client.force_login(player)
    for where, page in player_views(client, encounter, player):
        assert_unread(page, secrets, where)
        if where == "the whole log":
            assert mine in html.unescape(page), "a player reads their own side's lines"

    log.finish(encounter, carry_damage=False)
    for where, page in player_views(client, encounter, player):
        assert_unread(page, secrets, f"{where} (finished)")
    replay = reverse("encounters:replay", args=[encounter.pk])
    total = client.get(replay).context["total"]
    for index in range(total + 1):
        assert_unread(client.get(f"{replay}?step={index}").content.decode(), secrets, f"the replay at step {index}")


@pytest.mark.django_db
def test_the_gm_reads_every_sides_lines_and_is_told_whose_they_are(client, gm, player):
    """The check above can fail: the GM's whole log shows the other side's line, tagged with its side."""
    campaign, encounter, _ = played_fight("cepheus", gm, player)
    sides = names_for(encounter, viewer_for(player, encounter, Membership.PLAYER)).sides
    other = sorted({s["side"] for s in encounter.setup["ships"]} - set(sides))[0]
    _, theirs = add_side_lines(encounter, sorted(sides)[0], other)
    client.force_login(gm)
    page = html.unescape(client.get(encounter.get_absolute_url() + "?log=all").content.decode())
    assert theirs in page
    assert f"{other} only<" in page
