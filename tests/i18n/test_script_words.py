"""The words the page's scripts say (static/js) in the reader's language (issue 24): each is a
``gettext("…")`` call, catalogued in locale/<language>/LC_MESSAGES/djangojs.po, and served by
Django's JavaScript catalogue at /jsi18n/, a script from this site (the CSP's script-src 'self')."""
import re
from pathlib import Path

import polib
import pytest
from django.urls import reverse

from config.security import POLICY

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))
CALL = re.compile(r'gettext\("((?:[^"\\]|\\.)*)"\)')


def said_by_scripts() -> set[str]:
    return {m.replace('\\"', '"') for path in SCRIPTS for m in CALL.findall(path.read_text())}


def test_every_word_a_script_says_is_catalogued_in_each_language():
    said = said_by_scripts()
    assert "The server did not answer: check the connection and try again." in said
    for po_path in sorted((ROOT / "locale").glob("*/LC_MESSAGES/djangojs.po")):
        have = {e.msgid for e in polib.pofile(str(po_path)) if not e.obsolete}
        assert said - have == set(), po_path
    assert len(list((ROOT / "locale").glob("*/LC_MESSAGES/djangojs.mo"))) == 5


def test_no_english_sentence_is_left_in_a_script_outside_gettext():
    """A sentence in quotes (three words or more, a capital first) goes through gettext."""
    sentence = re.compile(r'(?<!gettext\()"([A-Z][a-z]+(?: [^"\s]+){2,})"')
    left = [(p.name, m) for p in SCRIPTS for m in sentence.findall(p.read_text())]
    assert left == []


@pytest.mark.django_db
def test_the_catalogue_is_a_script_from_this_site_in_the_readers_language(client, settings):
    """/jsi18n/ answers JavaScript defining gettext, with the chosen language's entries, and the
    CSP lets the page load it (script-src 'self')."""
    assert "script-src 'self'" in POLICY
    url = reverse("javascript-catalog")
    assert url.startswith("/")
    answer = client.get(url)
    assert answer.status_code == 200
    assert "javascript" in answer["Content-Type"]
    assert "django.gettext" in answer.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "ru"
    ru = client.get(url).content.decode()
    assert "pluralidx" in ru and "n%10" in ru.replace(" ", "")  # Russian's plural forms, from the header
