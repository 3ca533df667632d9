"""The app's own words (forms, messages, the log's view, admin labels) read in the reader's
language (issue 24), and a log line's colour does not depend on the language it is read in.

The catalogues are not translated yet (translators come later): each test gives German a few
words of its own for as long as it runs (:func:`german`)."""
from __future__ import annotations

from contextlib import contextmanager

import pytest
from django.apps import apps
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.translation import override, trans_real

from accounts.models import Profile
from encounters.viewing import Names, step_view, tone_of
from rulesets.core.engine import LogEntry
from rulesets.core.history import Applied
from rulesets.core.messages import msg


@contextmanager
def german(words: dict[str, str]):
    """German reads ``words`` (English -> German; "context\\x04English" for a message) while it runs."""
    catalogue = trans_real.translation("de")._catalog._catalogs[0]
    before = {k: catalogue[k] for k in words if k in catalogue}
    catalogue.update(words)
    try:
        yield
    finally:
        for k in words:
            catalogue.pop(k, None)
        catalogue.update(before)


@pytest.mark.django_db
def test_a_campaign_page_message_reads_in_the_gms_language(client, gm, campaign):
    Profile.objects.create(user=gm, language="de")
    client.force_login(gm)
    with german({"Campaign saved.": "Kampagne gespeichert."}):
        page = client.post(reverse("campaigns:edit", args=[campaign.pk]),
                           {"name": "The Reach", "description": "Pirates."}, follow=True)
    assert "Kampagne gespeichert." in page.content.decode()


def test_a_whole_number_refusal_names_the_field_and_the_range_in_the_readers_language():
    from rulesets.cepheus.forms import SetupOptionsForm

    words = {"Round limit": "Rundenlimit", "from %(lo)s to %(hi)s": "von %(lo)s bis %(hi)s",
             "%(what)s is a whole number %(range)s; %(value)s is outside that range.":
                 "%(what)s ist eine ganze Zahl %(range)s; %(value)s liegt außerhalb."}
    with override("de"), german(words):
        form = SetupOptionsForm({"opt-max_rounds": "0"}, prefix="opt")
        assert form.fields["max_rounds"].label == "Rundenlimit"
        assert form.errors["max_rounds"] == ["Rundenlimit ist eine ganze Zahl von 1 bis 200; 0 liegt außerhalb."]
    # the English words are those the rules' own range check says (the override, the import)
    with override("en-gb"):
        form = SetupOptionsForm({"opt-max_rounds": "0"}, prefix="opt")
        assert form.errors["max_rounds"] == ["Round limit is a whole number from 1 to 200; 0 is outside that range."]


def test_a_log_lines_tone_comes_from_the_message_not_from_the_words_the_reader_sees():
    """In German "Alpha trifft Bravo." has no English "hits" in it; the line is still a hit.
    A message that says its tone (``tone=``) has it whatever its words."""
    hit = msg("toy.log.hits", "{ship} hits {target}.", ship="Alpha", target="Bravo")
    swept = msg("toy.log.swept", "{ship} hits nothing: the sand scatters the beam.", ship="Alpha", tone="bad")
    step = Applied(seq=1, action="fire", dice=[], rolls=[], gm_only=False,
                   log=[LogEntry(hit), LogEntry(swept), LogEntry("Bravo misses.")])
    with override("de"), german({"toy.log.hits\x04{ship} hits {target}.": "{ship} trifft {target}."}):
        view = step_view(step, 1, is_gm=True, names=Names.everyone())
    assert (view.headline.text, view.headline.tone) == ("Alpha trifft Bravo.", "good")
    assert [(line.text, line.tone) for line in view.lines] == [
        ("Alpha hits nothing: the sand scatters the beam.", "bad"), ("Bravo misses.", "bad")]
    assert tone_of(msg("toy.log.scan", "{ship} scans.", ship="Alpha", tone="")) == ""
    assert tone_of(msg("toy.log.odd", "{ship} hits.", ship="Alpha", tone="loud")) == ""  # not a tone: none


def test_enemy_crew_are_named_in_the_readers_language():
    setup = {"ships": [{"id": "s1", "name": "Alpha", "side": "blue", "crew": [{"name": "Ann", "position": "gunner"}]},
                       {"id": "s2", "name": "Bravo", "side": "red", "crew": [{"name": "Bob", "position": "gunner"}]}]}

    class Player:
        is_gm, ships = False, {"s1"}

    with override("de"), german({"%(ship)s's %(position)s": "%(position)s der %(ship)s"}):
        names = Names.for_viewer(setup, Player(), {"gunner": "Schütze"})
    assert names("Bob fires.") == "Schütze der Bravo fires."  # a German noun keeps its capital
    with override("en-gb"):
        assert Names.for_viewer(setup, Player(), {"gunner": "Gunner"})("Bob fires.") == "Bravo's gunner fires."


@pytest.mark.parametrize("app", ["campaigns", "encounters"])
def test_every_admin_label_of_the_projects_models_is_translatable(app):
    for model in apps.get_app_config(app).get_models():
        assert isinstance(model._meta.verbose_name, Promise), model
        assert isinstance(model._meta.verbose_name_plural, Promise), model
        for f in model._meta.get_fields():
            if f.concrete and not f.auto_created:
                assert isinstance(f.verbose_name, Promise), f"{model.__name__}.{f.name}"
                assert not f.help_text or isinstance(f.help_text, Promise), f"{model.__name__}.{f.name}"
