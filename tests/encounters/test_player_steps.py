"""Players take their own characters' steps from their live page (issue 22).

The toy duel: Alpha (blue) and Bravo (red) take turns; the ship is the character (the
default ``RulesetBase.acting``).  ``player`` commands Alpha, ``player2`` commands Bravo.
Everything a player may do is decided on the server: these tests post forms as a phone
would, and check what is applied (the log's rows) and what the page says.
"""
import threading

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership, Ship
from encounters import log
from encounters.models import Encounter, EncounterEvent
from encounters.viewers import viewer_for
from tests.encounters.conftest import ship_id


@pytest.fixture
def player2(django_user_model, campaign):
    user = django_user_model.objects.create_user("player2", "p2@example.com", "player2-password-123")
    Membership.objects.create(campaign=campaign, user=user, role=Membership.PLAYER)
    return user


@pytest.fixture
def table(campaign, gm, player, player2):
    """Alpha commanded by ``player``, Bravo by ``player2``; players act themselves."""
    Ship.objects.filter(campaign=campaign, name="Alpha").update(player=player)
    Ship.objects.filter(campaign=campaign, name="Bravo").update(player=player2)
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    return Encounter.objects.create(campaign=campaign, name="Skirmish", ruleset="toy", seed="fixed-seed",
                                    setup={"ships": ships, "options": {"max_rounds": 30}}, created_by=gm,
                                    players_act=True)


def _client(user):
    c = Client()
    c.force_login(user)
    return c


def _fire(enc, who="Alpha", at="Bravo"):
    return f"fire actor={ship_id(enc, who)} target={ship_id(enc, at)}"


def _play(client, enc, action, seq=0, **extra):
    return client.post(reverse("encounters:play", args=[enc.pk]),
                       {"action": action, "expected_seq": seq, **extra}, HTTP_HX_REQUEST="true")


def _rows(enc):
    return list(enc.events.values_list("seq", "kind", "action"))


@pytest.mark.django_db
def test_the_players_page_shows_their_turn_with_worded_odds_and_no_secret(table, player):
    page = _client(player).get(table.get_absolute_url()).content.decode()
    panel = page[page.index('id="your-turn"'):page.index("</section>", page.index('id="your-turn"'))]
    assert "Your turn: Alpha" in panel
    assert "Roll for me" in panel and "I roll my own dice" in panel
    # The toy's odds read Bravo's hidden numbers: the chance is worded, never a percentage.
    assert "%" not in panel
    assert any(w in panel for w in ("likely", "about even", "unlikely", "almost certain", "a long shot"))
    viewer = viewer_for(player, table, Membership.PLAYER)
    secrets = table.engine.secrets(log.current(table).state, viewer)
    assert secrets
    for secret in secrets:
        assert secret not in page


@pytest.mark.django_db
def test_a_player_takes_their_characters_step_through_the_single_writer(table, player):
    response = _play(_client(player), table, _fire(table), roll="app")
    assert response.status_code == 200
    row = table.events.get()
    assert (row.seq, row.kind, row.action, row.created_by) == (1, EncounterEvent.STEP, _fire(table), player)
    # Now it is Bravo's step: player2's, and the page says so no more to player.
    assert "Your turn" not in _client(player).get(table.get_absolute_url()).content.decode()


@pytest.mark.django_db
def test_refused_another_players_character_an_enemy_and_out_of_turn(table, player, player2):
    # player2 tries Alpha's step (another player's character, and not their turn).
    r = _play(_client(player2), table, _fire(table), roll="app")
    assert r.status_code == 400 and "not a step of your character" in r.content.decode()
    # player tries Bravo's step: an enemy, out of turn.
    r = _play(_client(player), table, _fire(table, "Bravo", "Alpha"), roll="app")
    assert r.status_code == 400 and "not a step of your character" in r.content.decode()
    assert _rows(table) == []
    # Out of turn: after Alpha's step, Alpha again.
    assert _play(_client(player), table, _fire(table), roll="app").status_code == 200
    r = _play(_client(player), table, _fire(table), seq=1, roll="app")
    assert r.status_code == 400 and len(_rows(table)) == 1


@pytest.mark.django_db
def test_refused_a_forged_and_a_replayed_form(table, player):
    c = _client(player)
    # Forged: a free parameter the GM's form takes (a DM), an unknown action, the GM's override.
    for forged in (_fire(table) + " dm=#5", "explode actor=" + ship_id(table, "Alpha"), "override actor=gm"):
        r = _play(c, table, forged, roll="app")
        assert r.status_code == 400, forged
        assert "not a step of your character" in r.content.decode()
    assert _rows(table) == []
    # Replayed: the same form twice; the second finds the encounter moved on.
    assert _play(c, table, _fire(table), roll="app").status_code == 200
    r = _play(c, table, _fire(table), roll="app")
    assert r.status_code == 409 and "moved on" in r.content.decode()
    assert len(_rows(table)) == 1


@pytest.mark.django_db
def test_refused_in_another_campaign_after_removal_and_for_the_gm(table, gm, player, outsider, campaign):
    assert _play(_client(outsider), table, _fire(table), roll="app").status_code == 404
    assert _play(_client(gm), table, _fire(table), roll="app").status_code == 403
    page = _client(player)
    membership = campaign.memberships.get(user=player)
    r = _client(gm).post(reverse("campaigns:member_remove", args=[campaign.pk, membership.pk]))
    assert r.status_code == 302
    assert not Ship.objects.filter(player=player).exists()
    assert _play(page, table, _fire(table), roll="app").status_code == 404
    assert page.get(reverse("encounters:poll", args=[table.pk]), HTTP_HX_REQUEST="true").status_code == 404
    assert _rows(table) == []


@pytest.mark.django_db
def test_refused_when_the_gm_runs_every_step(table, player):
    Encounter.objects.filter(pk=table.pk).update(players_act=False)
    table.refresh_from_db()
    r = _play(_client(player), table, _fire(table), roll="app")
    assert r.status_code == 400 and "The GM takes every step" in r.content.decode()
    assert "Your turn" not in _client(player).get(table.get_absolute_url()).content.decode()
    assert _rows(table) == []


@pytest.mark.django_db
def test_own_dice_a_face_out_of_range_is_refused_on_its_die_and_nothing_applied(table, player):
    c = _client(player)
    prompt = _play(c, table, _fire(table), roll="own")
    assert prompt.status_code == 200 and 'id="player-dice"' in prompt.content.decode()
    assert 'max="6"' in prompt.content.decode()
    r = _play(c, table, _fire(table), roll="own", face=["5", "9"])
    body = r.content.decode()
    assert r.status_code == 400 and "Die 2: 9 is not a face of a d6" in body
    assert 'value="5"' in body  # the good face is kept
    assert _rows(table) == []
    r = _play(c, table, _fire(table), roll="own", face=["6", "5", "3"])
    assert r.status_code == 200
    assert table.events.get().dice[:2] == ["6/d6", "5/d6"]


@pytest.mark.django_db
def test_the_gm_confirms_a_players_step_or_sends_it_back(table, gm, player):
    Encounter.objects.filter(pk=table.pk).update(gm_confirms=True)
    table.refresh_from_db()
    c = _client(player)
    assert _play(c, table, _fire(table), roll="app").status_code == 200
    assert _rows(table) == []
    assert "Waiting for the GM to confirm" in c.get(table.get_absolute_url()).content.decode()
    gm_page = _client(gm).get(table.get_absolute_url()).content.decode()
    assert 'id="proposal"' in gm_page and "player" in gm_page
    token = Encounter.objects.get(pk=table.pk).proposal["token"]
    url = reverse("encounters:proposal", args=[table.pk])
    # Sent back: nothing applied, the player chooses again.
    assert _client(gm).post(url, {"token": token, "decision": "back"}, HTTP_HX_REQUEST="true").status_code == 200
    assert Encounter.objects.get(pk=table.pk).proposal is None and _rows(table) == []
    assert "Roll for me" in c.get(table.get_absolute_url()).content.decode()
    # Confirmed: applied once, as the player's step; a second tap finds nothing waiting.
    _play(c, table, _fire(table), roll="app")
    token = Encounter.objects.get(pk=table.pk).proposal["token"]
    assert _client(gm).post(url, {"token": token, "decision": "confirm"}, HTTP_HX_REQUEST="true").status_code == 200
    assert table.events.get().created_by == player
    assert _client(gm).post(url, {"token": token, "decision": "confirm"}, HTTP_HX_REQUEST="true").status_code == 409
    assert len(_rows(table)) == 1


@pytest.mark.django_db
def test_auto_play_waits_for_the_player_and_the_gm_page_says_for_whom(table, gm, player):
    g = _client(gm)
    page = g.get(table.get_absolute_url()).content.decode()
    assert "Waiting for <strong>player</strong> (Alpha)" in page
    r = g.post(reverse("encounters:auto", args=[table.pk]), {"mode": "round", "expected_seq": 0},
               HTTP_HX_REQUEST="true")
    assert r.status_code == 400 and "Waiting for player (Alpha)" in r.content.decode()
    assert _rows(table) == []
    # The GM may still take the step for them, and undo a player's step.
    g.post(reverse("encounters:step", args=[table.pk]), {"action": _fire(table), "expected_seq": 0},
           HTTP_HX_REQUEST="true")
    assert len(_rows(table)) == 1
    _play(_client(Membership.objects.get(campaign=table.campaign, user__username="player2").user), table,
          _fire(table, "Bravo", "Alpha"), seq=1, roll="app")
    assert len(_rows(table)) == 2
    g.post(reverse("encounters:undo", args=[table.pk]), {"expected_seq": 2}, HTTP_HX_REQUEST="true")
    assert log.current(table).count == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("posters", [2, 20])
def test_the_gm_and_players_posting_the_same_step_at_once_apply_exactly_one(table, gm, player, posters):
    clients = [_client(gm)] + [_client(player) for _ in range(posters - 1)]
    outcomes, barrier = [], threading.Barrier(posters)

    def attempt(i, c):
        try:
            barrier.wait()
            if i == 0:
                r = c.post(reverse("encounters:step", args=[table.pk]), {"action": _fire(table), "expected_seq": 0},
                           HTTP_HX_REQUEST="true")
            else:
                r = _play(c, table, _fire(table), roll="app")
            body = r.content.decode()
            outcomes.append("applied" if r.status_code == 200 else
                            "moved on" if r.status_code == 409 and ("moved on" in body) else
                            f"{i}:{r.status_code}:{body[body.find('role=' + chr(34) + 'alert'):][:300]}")
        except Exception as exc:  # a database that cannot serialise the writers fails the test
            outcomes.append(repr(exc))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(i, c)) for i, c in enumerate(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert outcomes.count("applied") == 1, [o for o in outcomes if o != "moved on"]
    assert outcomes.count("moved on") == posters - 1, [o for o in outcomes if o != "moved on"]
    assert list(table.events.values_list("seq", flat=True)) == [1]


@pytest.mark.parametrize("key", [r.key for r in __import__("rulesets.core.registry", fromlist=["x"]).all_rulesets()
                                 if r.key != "toy"])
@pytest.mark.parametrize("variant", [0, 1])
def test_no_system_leaks_a_secret_into_a_players_actions(key, variant):
    """Every system: along a bot-played example fight, each character's actions as their
    player's page words them (encounters/play.py: the description and the outcomes, through the
    player's names) hold none of the system's secrets for that player, and no exact percentage."""
    import random

    from encounters.play import worded_actions
    from encounters.viewing import Names, positions_of
    from rulesets.core import registry
    from rulesets.core.engine import Viewer
    from rulesets.core.replay import play_out

    engine = registry.get(key)
    spec = engine.example_setup(variant)
    side_of = {s["id"]: s["side"] for s in spec["ships"]}
    ship_of_crew = {c["id"]: s["id"] for s in spec["ships"] for c in s.get("crew", []) if c.get("id")}
    state, rng, checked = engine.setup(spec), random.Random(f"leak:{key}"), 0
    for _ in range(120):
        if state.over:
            break
        for action in engine.legal_actions(state):
            actor = engine.acting(state, action)
            if actor is None:
                continue
            side = side_of[actor.ship or ship_of_crew[actor.character]]
            viewer = Viewer.player([s for s, sd in side_of.items() if sd == side])
            (shown,) = worded_actions(engine, state, [action], Names.for_viewer(spec, viewer, positions_of(key)))
            text = " ".join([shown["label"], *(c["label"] for c in shown["chances"])])
            for secret in engine.secrets(state, viewer):
                assert secret not in text, (action.to_str(), secret)
            assert "%" not in " ".join(c["band"] for c in shown["chances"])
            checked += 1
        state = play_out(engine, state, rng, max_steps=1).state
    assert checked


@pytest.mark.django_db
def test_the_gms_controls_for_players_steps_are_the_gms(table, gm, player, outsider):
    urls = [reverse("encounters:proposal", args=[table.pk]), reverse("encounters:players_setting", args=[table.pk])]
    for url in urls:
        assert _client(player).post(url, {"token": "x", "decision": "confirm", "players_act": ""}).status_code == 403
        assert _client(outsider).post(url, {"token": "x", "decision": "confirm"}).status_code == 404
    assert Encounter.objects.get(pk=table.pk).players_act
    # The GM turns the confirmation on, then players acting off (a waiting choice is dropped).
    g = _client(gm)
    g.post(urls[1], {"players_act": "on", "gm_confirms": "on"})
    assert Encounter.objects.filter(pk=table.pk, players_act=True, gm_confirms=True).exists()
    _play(_client(player), table, _fire(table), roll="app")
    assert Encounter.objects.get(pk=table.pk).proposal
    g.post(urls[1], {})
    table.refresh_from_db()
    assert (table.players_act, table.gm_confirms, table.proposal) == (False, False, None)
    assert _rows(table) == []


@pytest.mark.django_db
def test_a_proposal_a_send_back_and_a_confirm_are_published_and_the_pages_polls_see_them(
        table, gm, player, monkeypatch, django_capture_on_commit_callbacks):
    """Issue 22: with the GM confirming players' steps, a proposal, a send-back and a confirm
    each publish a live update (pages follow them over the stream, as for any step), and the
    page's fragment changes with them: the GM's poll (what its page fetches on a stream event,
    naming the proposal it shows) and the proposer's shared fragment key."""
    import encounters.live
    from encounters.play import my_turn_key

    published = []
    monkeypatch.setattr(encounters.live, "publish", lambda pk, seq: published.append((pk, seq)))
    Encounter.objects.filter(pk=table.pk).update(gm_confirms=True)
    table.refresh_from_db()
    c, g = _client(player), _client(gm)
    poll = reverse("encounters:poll", args=[table.pk])

    class Req:  # what my_turn_key reads of a request
        class user:
            pk = player.pk

    before = my_turn_key(Req, table, log.current(table))
    with django_capture_on_commit_callbacks(execute=True):
        assert _play(c, table, _fire(table), roll="app").status_code == 200
    assert published == [(table.pk, 0)]
    token = Encounter.objects.get(pk=table.pk).proposal["token"]
    proposed = Encounter.objects.get(pk=table.pk)
    assert my_turn_key(Req, proposed, log.current(proposed)) not in ("", before)
    # The GM's page, which showed no proposal at this head, is given one; the same one is no news.
    shown = g.get(poll + "?seen=0&status=active&proposal=", HTTP_HX_REQUEST="true")
    assert shown.status_code == 200 and 'id="proposal"' in shown.content.decode()
    assert f'data-proposal="{token}"' in shown.content.decode()
    assert g.get(poll + f"?seen=0&status=active&proposal={token}", HTTP_HX_REQUEST="true").status_code == 204
    waiting = c.get(poll + "?seen=0&status=active&proposal=", HTTP_HX_REQUEST="true").content.decode()
    assert "Waiting for the GM to confirm" in waiting and f'data-proposal="{token}"' in waiting
    # Sent back: published at the same head; the player's page, naming the proposal, gets its turn again.
    with django_capture_on_commit_callbacks(execute=True):
        g.post(reverse("encounters:proposal", args=[table.pk]), {"token": token, "decision": "back"},
               HTTP_HX_REQUEST="true")
    assert published[-1] == (table.pk, 0)
    again = c.get(poll + f"?seen=0&status=active&proposal={token}", HTTP_HX_REQUEST="true")
    assert again.status_code == 200 and "Roll for me" in again.content.decode()
    assert 'data-proposal=""' in again.content.decode()
    # Confirmed: published as the new head.
    with django_capture_on_commit_callbacks(execute=True):
        _play(c, table, _fire(table), roll="app")
    token = Encounter.objects.get(pk=table.pk).proposal["token"]
    with django_capture_on_commit_callbacks(execute=True):
        g.post(reverse("encounters:proposal", args=[table.pk]), {"token": token, "decision": "confirm"},
               HTTP_HX_REQUEST="true")
    assert published[-1] == (table.pk, 1) and len(published) == 4


def _starwars_demo_encounter(gm, *, seed, **fields):
    """The Star Wars D6 demo campaign's fight (the demo player plays Ace, Talon's pilot: the
    first ship, whose pilot decides the initiative step)."""
    from django.core.management import call_command

    from campaigns.models import Campaign
    from campaigns.rulesets import forms_for

    call_command("seed_demo", "--demo-accounts", verbosity=0)
    campaign = Campaign.objects.get(ruleset="starwars_d6")
    blank = forms_for("starwars_d6").SetupOptionsForm(prefix="opt")
    options = forms_for("starwars_d6").SetupOptionsForm(
        {f"opt-{k}": v for k, f in blank.fields.items() if (v := f.initial) is not None}, prefix="opt")
    assert options.is_valid(), options.errors
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    return Encounter.objects.create(campaign=campaign, name="Initiative", ruleset="starwars_d6", seed=seed,
                                    setup={"ships": ships, "options": options.options()},
                                    created_by=campaign.memberships.get(role=Membership.GM).user,
                                    players_act=True, **fields)


@pytest.mark.django_db
@pytest.mark.parametrize("confirms", [False, True])
def test_star_wars_initiative_a_player_types_only_their_sides_dice(gm, confirms):
    """Star Wars D6, seed 4. "Fase d'iniciativa" ("Cada jugador ... llença 2D"): the initiative
    step rolls every side's 2D and is Talon's pilot's.  Rolling their own dice, the player is
    asked for Alliance's 2D only, never the Empire's; the app rolls the Empire's (the encounter's
    dice for that step, as "Roll for me" would), also when the GM confirms the step."""
    from rulesets.core.dice import SeededSource, derive_seed

    enc = _starwars_demo_encounter(gm, seed="own-initiative", gm_confirms=confirms)
    player = enc.campaign.memberships.get(role=Membership.PLAYER).user
    c = _client(player)
    (action,) = [a.to_str() for a in enc.engine.legal_actions(log.current(enc).state) if a.kind == "initiative"]
    prompt = _play(c, enc, action, roll="own").content.decode()
    form = prompt[prompt.index('id="player-dice"'):prompt.index("</form>", prompt.index('id="player-dice"'))]
    assert form.count('name="face"') == 2  # Alliance's 2D (its last die the Wild Die), nothing more
    assert "initiative of Alliance" in form and "Empire" not in form
    # Their 2D: 3 and 2 (5).  The app's Empire dice of this step (seeded: 2 and 3) tie: the player
    # is asked for Alliance's 2D again, still never for the Empire's.
    app = SeededSource(derive_seed(enc.seed, 1, 0)).faces(2, 6)
    assert sum(app) == 5
    tie = _play(c, enc, action, roll="own", face=["3", "2"]).content.decode()
    form = tie[tie.index('id="player-dice"'):tie.index("</form>", tie.index('id="player-dice"'))]
    assert form.count('name="face"') == 4 and "Empire" not in form and enc.events.count() == 0
    response = _play(c, enc, action, roll="own", face=["3", "2", "4", "4"])
    assert response.status_code == 200 and 'id="player-dice"' not in response.content.decode()
    if confirms:
        token = Encounter.objects.get(pk=enc.pk).proposal["token"]
        _client(enc.created_by).post(reverse("encounters:proposal", args=[enc.pk]),
                                     {"token": token, "decision": "confirm"}, HTTP_HX_REQUEST="true")
    row = enc.events.get()
    rolls = [(r["purpose"].split(" (")[0], list(r["faces"])) for r in row.rolls]
    assert [f for p, f in rolls if p == "initiative of Alliance"] == [[3, 2], [4, 4]]
    assert [f for p, f in rolls if p == "initiative of Empire"][0][:2] == app
    assert row.created_by == player


@pytest.mark.django_db
def test_a_fragment_asked_at_an_older_head_is_rendered_at_the_newer_one_with_the_players_turn(table, player,
                                                                                            player2, rf):
    """A step lands between a live page's read of the head and its render: the player's fragment is the
    newer head's, with the turn of whoever's step it now is (keyed at the older head without the panel,
    it reached the page as the newer head's, and the page, at that head already, waited for ever)."""
    from encounters.views import player_fragment

    log.step(table, _fire(table), expected_seq=0, user=player)   # now Bravo's step: player2's
    request = rf.get(table.get_absolute_url(), HTTP_HX_REQUEST="true")
    request.user, request.htmx = player2, True
    stale = Encounter.objects.get(pk=table.pk)
    html = player_fragment(request, stale, Membership.PLAYER, 0, viewer_for(player2, stale, Membership.PLAYER))
    assert 'id="your-turn"' in html and "Your turn: Bravo" in html
    assert 'data-head="1"' in html
