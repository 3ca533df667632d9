"""Players see what their characters would, on every page and payload they read (issue 15).

A real fight (each demo campaign) is played with public steps, GM-only steps, rerolls of
both and a reveal; then every page a player reads is rendered -- the live page, its poll
fragment, the whole log (``?log=all``), the replay at several steps, the campaign page and
their ships' pages -- and none may hold a secret: any of the system's
``secrets(state, viewer)``, the names of enemy crew (a player reads "Corsair's gunner"),
the lines of a GM-only step never revealed, or the step itself.
"""
import html
import io
import random

import pytest
from django.core.management.base import OutputWrapper
from django.urls import reverse

from campaigns.management.commands.seed_demo import Command as SeedDemo
from campaigns.models import Campaign, Fleet, Membership, Ship
from encounters import log
from encounters.autoplay import auto_play
from encounters.models import Encounter
from encounters.viewers import viewer_for
from encounters.viewing import names_for, readable
from rulesets.core import registry

#: every registered rule system (rulesets.core.registry), as the other pages-and-words tests take them (issue 23)
SYSTEMS = [module.split(".")[1] for module in registry.ENGINE_MODULES]


def demo_campaign(key, gm, player) -> Campaign:
    seed = SeedDemo()
    seed.stdout = OutputWrapper(io.StringIO())
    engine = registry.get(key)
    seed._seed_templates(engine)
    seed._seed_campaign(engine, gm, player)
    return Campaign.objects.get(ruleset=key)


def start(campaign, gm) -> Encounter:
    ships = Ship.objects.filter(campaign=campaign).select_related("fleet").prefetch_related("crew")
    setup = {"ships": [s.setup_spec() for s in ships], "options": {}}
    return Encounter.objects.create(campaign=campaign, name="Leak check", ruleset=campaign.ruleset, setup=setup,
                                    dice_mode=Encounter.AUTO, created_by=gm, seed="leaks")


def play(encounter, gm, steps: int) -> None:
    for _ in range(steps):
        now = log.current(encounter)
        if now.state.over:
            return
        auto_play(encounter, mode="step", expected_seq=now.head, user=gm)


def hidden_step(encounter, gm) -> int:
    """One step of the policy's, GM-only; its sequence."""
    now = log.current(encounter)
    action = encounter.engine.policy(now.state, random.Random(now.head))
    return log.step(encounter, action.to_str(), expected_seq=now.head, user=gm, gm_only=True).seq


def played_fight(key, gm, player):
    """A fight with public steps, GM-only steps (one rerolled, one revealed) and a public reroll."""
    campaign = demo_campaign(key, gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 6)
    secret_seqs = []
    for _ in range(3):  # GM-only steps, each rerolled where it rolled dice
        seq = hidden_step(encounter, gm)
        secret_seqs.append(seq)
        if any(a.seq == seq and a.rolls for a in log.current(encounter).applied):
            log.reroll(encounter, seq, expected_seq=log.head_seq(encounter), user=gm)
        play(encounter, gm, 2)
    revealed = hidden_step(encounter, gm)
    log.reveal(encounter, revealed, expected_seq=log.head_seq(encounter), user=gm)
    public_with_rolls = next(a.seq for a in log.current(encounter).applied if a.rolls and not a.gm_only)
    log.reroll(encounter, public_with_rolls, expected_seq=log.head_seq(encounter), user=gm)
    play(encounter, gm, 6)
    return campaign, encounter, secret_seqs


def secrets_for(encounter, player) -> tuple[list[str], list[int]]:
    """The strings a player must never read, and the GM-only steps still hidden."""
    now = log.history(encounter)
    viewer = viewer_for(player, encounter, Membership.PLAYER)
    secrets = list(encounter.engine.secrets(now.state, viewer))
    secrets += names_for(encounter, viewer).hidden
    hidden = [a for a in now.applied if a.gm_only]
    public_text = {e.text for a in now.applied if not a.gm_only for e in a.log}
    secrets += [e.text for a in hidden for e in a.log if e.text not in public_text]
    return [s for s in secrets if s], [a.seq for a in hidden]


def assert_clean(page: str, secrets: list[str], hidden_seqs: list[int], where: str) -> None:
    text = html.unescape(page)
    for secret in secrets:
        assert secret not in text, f"{where} shows {secret!r} to a player"
    for seq in hidden_seqs:
        assert f'data-seq="{seq}"' not in text, f"{where} shows the GM-only step {seq}"


def player_pages(client, campaign, encounter):
    url = encounter.get_absolute_url()
    yield "the live page", client.get(url)
    yield "the whole log", client.get(url + "?log=all")
    yield "the poll fragment", client.get(reverse("encounters:poll", args=[encounter.pk]) + "?seen=-1",
                                          HTTP_HX_REQUEST="true")
    yield "the campaign page", client.get(campaign.get_absolute_url())
    for ship in Ship.objects.filter(campaign=campaign, fleet__in=campaign.visible_fleets(player_of(client), "player")):
        yield f"the ship page of {ship.name}", client.get(reverse("campaigns:ship", args=[campaign.pk, ship.pk]))


def player_of(client):
    from django.contrib.auth import get_user_model

    return get_user_model().objects.get(pk=client.session["_auth_user_id"])


@pytest.mark.django_db
@pytest.mark.parametrize("key", SYSTEMS)
def test_no_page_a_player_reads_holds_a_secret(client, gm, player, key):
    campaign, encounter, _ = played_fight(key, gm, player)
    secrets, hidden = secrets_for(encounter, player)
    assert hidden, "the fight has GM-only steps still hidden"
    client.force_login(player)
    for where, response in player_pages(client, campaign, encounter):
        assert response.status_code == 200, where
        assert_clean(response.content.decode(), secrets, hidden, where)
    log.finish(encounter, carry_damage=False)
    replay = reverse("encounters:replay", args=[encounter.pk])
    total = client.get(replay).context["total"]
    for index in sorted({0, 1, total // 2, total - 1, total}):
        response = client.get(f"{replay}?step={index}")
        assert response.status_code == 200
        assert_clean(response.content.decode(), secrets, hidden, f"the replay at step {index}")


@pytest.mark.django_db
def test_enemy_crew_are_named_by_ship_and_position_in_public_lines(client, gm, player):
    """An enemy crew member named in a line the player reads reads "Gutter Saint's captain", never a name.

    The enemy's inner lines (its Captain's coordination) no longer reach the player (issue 27), so
    the public line naming each enemy crew member is written into the newest public step."""
    import json

    campaign, encounter, _ = played_fight("cepheus", gm, player)
    viewer = viewer_for(player, encounter, Membership.PLAYER)
    names = names_for(encounter, viewer)
    assert names.hidden, "the demo's enemy ships have named crew"
    snap = encounter.snapshots.order_by("-seq").first()
    applied = json.loads(snap.applied)
    step = next(a for a in reversed(applied) if not a["gm_only"] and a["log"])
    step["log"] += [{"text": f"{name} waves at the viewport.", "rule": "", "gm_only": False} for name in names.hidden]
    snap.applied = json.dumps(applied)
    snap.save(update_fields=["applied"])
    log._recent.clear()
    client.force_login(player)
    page = html.unescape(client.get(encounter.get_absolute_url() + "?log=all").content.decode())
    public_text = " ".join(e.text for a in log.history(encounter).applied if not a.gm_only for e in a.log
                           if readable(e, is_gm=False, sides=names.sides))
    named = [n for n in names.hidden if n in public_text]
    assert named, "some public log line names an enemy crew member (for the GM)"
    for name in named:
        assert name not in page
        assert names.aliases[name] in page  # e.g. "Gutter Saint's captain"


@pytest.mark.django_db
def test_a_players_ship_page_lists_only_their_sides_fleets(client, gm, player):
    campaign = demo_campaign("cepheus", gm, player)
    own = Ship.objects.filter(campaign=campaign, crew__player=player).first()
    enemy_fleets = Fleet.objects.filter(campaign=campaign).exclude(side=own.fleet.side)
    assert enemy_fleets.exists()
    client.force_login(player)
    page = client.get(reverse("campaigns:ship", args=[campaign.pk, own.pk])).content.decode()
    assert f">{html.escape(own.fleet.name)}</option>" in page
    for fleet in enemy_fleets:
        assert html.escape(fleet.name) not in page, f"the enemy fleet {fleet.name} is listed"
