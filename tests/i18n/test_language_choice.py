"""Each person reads the app in their own language (issue 24): their account's choice, else
this browser's, else their browser's languages, else English; the switcher in the header of
every page, the log-in page included."""
from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from accounts.models import Profile
from rulesets.core.check import GM_LABEL

pytestmark = pytest.mark.django_db


def test_the_log_in_page_has_the_switcher_and_reads_in_the_browsers_language(client):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    html = page.content.decode()
    assert '<html lang="de">' in html and "Registrieren" in html
    for code, name in [("en-gb", "English"), ("it", "Italiano"), ("ca", "Català"), ("ru", "Русский"),
                       ("de", "Deutsch"), ("es", "Español")]:
        assert f'value="{code}" lang="{code}"' in html and name in html


def test_a_visitor_who_chooses_reads_that_language_on_the_next_page(client):
    answer = client.post(reverse("language"), {"language": "it", "next": reverse("login")})
    assert answer.status_code == 302 and answer["Location"] == reverse("login")
    html = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="it">' in html and "Registrati" in html


def test_a_choice_is_kept_on_the_account_and_follows_the_person_to_another_browser(client, gm):
    client.force_login(gm)
    client.post(reverse("language"), {"language": "ru", "next": "/"})
    assert Profile.objects.get(user=gm).language == "ru"
    other = type(client)()  # another device: no cookie, a browser asking for Spanish
    other.force_login(gm)
    html = other.get(reverse("campaigns:list"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert '<html lang="ru">' in html and "Кампании" in html and "Выйти" in html


def test_a_language_not_offered_changes_nothing_and_next_must_be_this_site(client):
    answer = client.post(reverse("language"), {"language": "xx", "next": "https://evil.example/"})
    assert answer["Location"] == "/" and "starship_language" not in answer.cookies
    assert client.get(reverse("login")).content.decode().count('<html lang="en-gb">') == 1


def test_the_rule_systems_messages_render_in_the_readers_language():
    """The app installs Django's translation as the messages' translator: the GM's modifier
    label of the core Check reads "SL" (Spielleiter) in German, "GM" in English."""
    with translation.override("de"):
        assert str(GM_LABEL) == "SL"
    with translation.override("en"):
        assert str(GM_LABEL) == "GM"
    assert GM_LABEL.english() == "GM"
