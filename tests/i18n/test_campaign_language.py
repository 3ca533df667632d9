"""A campaign may set a default language for its players (issue 24, "Who reads which language"):
on a page inside the campaign, a member who has chosen no language themselves (none on their
account, no language cookie) reads it in the campaign's language rather than their browser's;
a person who chose reads their own; an outsider learns nothing of the campaign."""
from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.urls import resolve, reverse

from accounts.language import SESSION_KEY, AccountLanguageMiddleware
from accounts.models import Profile
from campaigns import exchange
from campaigns.exchange import ImportRefused
from campaigns.models import Campaign
from encounters.models import Encounter

pytestmark = pytest.mark.django_db

GERMAN_BROWSER = {"HTTP_ACCEPT_LANGUAGE": "de-DE,de;q=0.9"}


@pytest.fixture
def italian(campaign):
    campaign.language = "it"
    campaign.save(update_fields=["language"])
    return campaign


@pytest.fixture
def encounter(italian, gm):
    ships = [s.setup_spec() for s in italian.ships.select_related("fleet").prefetch_related("crew")]
    return Encounter.objects.create(campaign=italian, name="Skirmish", ruleset="toy", seed="fixed-seed",
                                    setup={"ships": ships, "options": {"max_rounds": 30}}, created_by=gm)


def lang(page) -> str:
    html = page.content.decode()
    return html.split('<html lang="', 1)[1].split('"', 1)[0]


def test_a_player_who_chose_nothing_reads_the_campaign_in_its_language(as_player, italian, encounter):
    assert lang(as_player.get(reverse("campaigns:detail", args=[italian.pk]), **GERMAN_BROWSER)) == "it"
    assert lang(as_player.get(reverse("encounters:detail", args=[encounter.pk]), **GERMAN_BROWSER)) == "it"
    # outside the campaign, their browser's language
    assert lang(as_player.get(reverse("campaigns:list"), **GERMAN_BROWSER)) == "de"


def test_a_campaign_without_a_language_reads_in_the_browsers(as_player, campaign):
    assert lang(as_player.get(reverse("campaigns:detail", args=[campaign.pk]), **GERMAN_BROWSER)) == "de"


def test_a_player_who_chose_on_their_account_reads_their_own(client, player, italian, encounter):
    Profile.objects.update_or_create(user=player, defaults={"language": "ru"})
    client.force_login(player)
    assert lang(client.get(reverse("campaigns:detail", args=[italian.pk]), **GERMAN_BROWSER)) == "ru"
    assert lang(client.get(reverse("encounters:detail", args=[encounter.pk]), **GERMAN_BROWSER)) == "ru"


def test_a_choice_on_this_browser_wins_over_the_campaigns(as_player, player, italian):
    as_player.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"  # chosen before logging in
    assert not Profile.objects.filter(user=player).exclude(language="").exists()
    assert lang(as_player.get(reverse("campaigns:detail", args=[italian.pk]), **GERMAN_BROWSER)) == "es"


def test_an_outsider_gets_404_in_their_own_language(as_outsider, italian, encounter):
    for url in (reverse("campaigns:detail", args=[italian.pk]), reverse("encounters:detail", args=[encounter.pk]),
                reverse("encounters:new", args=[italian.pk])):
        page = as_outsider.get(url, **GERMAN_BROWSER)
        assert page.status_code == 404 and lang(page) == "de", url


def test_the_gm_sets_it_on_the_campaigns_form(as_gm, campaign):
    page = as_gm.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert 'name="language"' in page.content.decode()
    answer = as_gm.post(reverse("campaigns:edit", args=[campaign.pk]),
                        {"name": campaign.name, "description": campaign.description, "language": "ca"})
    assert answer.status_code == 302
    assert Campaign.objects.get(pk=campaign.pk).language == "ca"
    as_gm.post(reverse("campaigns:edit", args=[campaign.pk]), {"name": campaign.name, "language": ""})
    assert Campaign.objects.get(pk=campaign.pk).language == ""


def test_a_language_not_offered_is_refused_on_the_form(as_gm, campaign):
    answer = as_gm.post(reverse("campaigns:edit", args=[campaign.pk]), {"name": campaign.name, "language": "xx"})
    assert answer.status_code == 400 and Campaign.objects.get(pk=campaign.pk).language == ""


def test_the_language_goes_out_and_comes_back_with_the_campaign(italian, gm):
    exported = exchange.export_campaign(italian)
    assert exported["campaign"]["language"] == "it"
    copy = exchange.import_campaign(json.dumps(exported), gm)
    assert copy.language == "it" and exchange.export_campaign(copy) == exported


def test_an_export_made_before_campaigns_had_a_language_imports_with_none(italian, gm):
    exported = exchange.export_campaign(italian)
    del exported["campaign"]["language"]
    assert exchange.import_campaign(json.dumps(exported), gm).language == ""


def test_an_unknown_language_in_a_file_is_refused(italian, gm):
    exported = exchange.export_campaign(italian)
    exported["campaign"]["language"] = "klingon"
    with pytest.raises(ImportRefused, match="campaign.language"):
        exchange.import_campaign(json.dumps(exported), gm)
    assert Campaign.objects.count() == 1


def _through_middleware(rf, url, user, session):
    request = rf.get(url, HTTP_ACCEPT_LANGUAGE="de")
    request.user, request.session = user, session
    request.resolver_match = match = resolve(url)
    AccountLanguageMiddleware(lambda r: None).process_view(request, match.func, match.args, match.kwargs)
    return request


def test_the_live_stream_renders_in_the_campaigns_language_with_one_query(rf, player, encounter,
                                                                          django_assert_num_queries):
    """encounters/stream.py renders each open page in ``page.request.LANGUAGE_CODE``."""
    url = reverse("encounters:stream", args=[encounter.pk])
    with django_assert_num_queries(1):
        request = _through_middleware(rf, url, player, {SESSION_KEY: ""})
    assert request.LANGUAGE_CODE == "it"


def test_no_query_for_a_visitor_or_a_person_who_chose(rf, player, encounter, django_assert_num_queries):
    url = reverse("encounters:stream", args=[encounter.pk])
    with django_assert_num_queries(0):
        visitor = _through_middleware(rf, url, AnonymousUser(), {})
        chooser = _through_middleware(rf, url, player, {SESSION_KEY: "ru"})
    assert not hasattr(visitor, "LANGUAGE_CODE") and not hasattr(chooser, "LANGUAGE_CODE")
