"""No English left in the templates (issue 24): a pseudo-language finds every word a template
forgot to translate.

At test time a catalogue is written for an extra language, ``qps`` (no such language: a
"pseudo-locale"), in which every entry reads as its English words between markers: "Log in"
becomes "⟦Log in⟧", "Step %(number)s of %(count)s" becomes "⟦Step %(number)s of %(count)s⟧"
(placeholders kept, so the page fills them in).  Its entries are those of the project's
catalogues (templates, forms, views and the rule systems' messages, scripts/messages.py extract)
and of Django's own (the admin's buttons, the forms' errors).  The pages a GM, a player, an
admin and a visitor reach are rendered in that language, and what a reader sees (the text of
the page without its scripts and styles, and the attributes a reader meets: title, aria-label,
placeholder, a button's value, a confirmation) is checked: once every marked stretch is taken
out, only names from the campaign, numbers, units and the short list below may remain.  A word
a template prints in English, not through ``{% translate %}``, is left over and named in the
failure, with the page it was on.

What a template prints from a variable (``{{ ship.name }}``, a form, a sentence a view built, a
log line) is data here: while ``VARIABLES_ARE_DATA`` is on, each variable's output is put between
other markers, "⟪…⟫", and taken out like a translated stretch, so the test holds the templates
to account (every word written in a template goes through Django's translation) and not the
Python side of issue 24 (form labels, model choices, the views' sentences, the rule systems not
yet on messages), which is being translated separately.  Turned off, the same test checks
every word of the page; ``NOT_YET`` then lists what the Python side still prints in English.

The GM's runner (``encounters/run.html``) is rendered mid-fight in every system, with the
Cepheus ship's-turn panel and, with physical dice, the prompt that asks every die of the turn.
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from campaigns.models import Campaign, CrewMember, Fleet, Invite, Ship, ShipTemplate
from encounters import log, tasks
from encounters.models import Encounter, EncounterAnalysis, SimulationRun
from rulesets.core import registry
from tests.encounters.test_leaks import demo_campaign, play, start

ROOT = Path(__file__).resolve().parents[2]
PSEUDO = "qps"
OPEN, CLOSE = "⟦", "⟧"  # a translated entry
DATA_OPEN, DATA_CLOSE = "⟪", "⟫"  # what a variable printed

#: a variable's output is data (see above); False checks the Python side's words too
VARIABLES_ARE_DATA = True

#: words a reader may meet untranslated on any page: units, dice, abbreviations every language
#: of the app writes the same way, and the app's name
ALLOWED = {
    "Starship", "Table",  # the app's name
    "d6", "d10", "d20", "D6", "D20", "2D6", "1D6", "d", "t", "px", "cm",  # dice and units
    "GM", "NPC", "HP", "DR", "MV", "PD", "TL", "CSV", "JSON",  # abbreviations kept in every language
    "Cepheus", "Engine", "Star", "Wars", "Void", "Wing", "Commander", "Dropfleet",  # the rule systems' names
    # the names of the languages in the header's switcher, each in its own language
    "English", "Italiano", "Català", "Deutsch", "Español", "Русский", "QPS", "qps",
}

#: Django's own admin writes the search box's icon as alt="Search", untranslated
#: (django/contrib/admin/templates/admin/search_form.html): not the project's to fix
DJANGO_UNTRANSLATED = {"Search"}

#: what Python code prints untranslated yet (form labels and help, model choices, sentences the views
#: build), each the whole stretch a reader sees: issue 24's Python side takes them off this list,
#: which only shrinks
NOT_YET: set[str] = set()


# ---------------------------------------------------------------- the pseudo-language


def wrap(text: str) -> str:
    return f"{OPEN}{text}{CLOSE}" if text else text


def entries() -> dict[tuple[str | None, str], polib.POEntry]:
    """Every entry of the project's catalogues and of Django's own (their English catalogues)."""
    import django

    sources = sorted((ROOT / "locale").glob("*/LC_MESSAGES/django.po"))[:1]
    django_root = Path(django.__file__).parent
    sources += sorted(django_root.glob("conf/locale/en/LC_MESSAGES/django.po"))
    sources += sorted(django_root.glob("contrib/*/locale/en/LC_MESSAGES/django.po"))
    found: dict[tuple[str | None, str], polib.POEntry] = {}
    for source in sources:
        for entry in polib.pofile(str(source)):
            if not entry.obsolete and entry.msgid:
                found.setdefault((entry.msgctxt, entry.msgid), entry)
    return found


def write_pseudo_catalogue(root: Path) -> None:
    """``root/qps/LC_MESSAGES/django.mo``: every entry its English words between the markers."""
    catalogue = polib.POFile()
    catalogue.metadata = {"Content-Type": "text/plain; charset=UTF-8", "Language": PSEUDO,
                          "Plural-Forms": "nplurals=2; plural=(n != 1);"}
    for (context, msgid), entry in entries().items():
        out = polib.POEntry(msgctxt=context, msgid=msgid)
        if entry.msgid_plural:
            out.msgid_plural = entry.msgid_plural
            out.msgstr_plural = {0: wrap(msgid), 1: wrap(entry.msgid_plural)}
        else:
            out.msgstr = wrap(msgid)
        catalogue.append(out)
    folder = root / PSEUDO / "LC_MESSAGES"
    folder.mkdir(parents=True)
    catalogue.save_as_mofile(str(folder / "django.mo"))


@pytest.fixture
def pseudo(tmp_path, client, monkeypatch):
    """The pseudo-language installed and chosen on this browser (the language cookie).

    override_settings sends setting_changed, on which Django empties its translation caches
    (trans_real._translations, _default, _active, translation_catalog_exists, get_languages,
    _get_supported_language_variant: django/test/signals.py, trans_real.reset_cache), on
    entering and on leaving; the parts rendered once per content are kept per language
    (encounters/templatetags/runner_tags.render_once), so no English render is reused.
    """
    from django.template.base import VariableNode

    from encounters.templatetags import runner_tags

    write_pseudo_catalogue(tmp_path)
    languages = [*settings.LANGUAGES, (PSEUDO, "QPS")]
    printed = VariableNode.render
    if VARIABLES_ARE_DATA:
        monkeypatch.setattr(VariableNode, "render",
                            lambda node, context: f"{DATA_OPEN}{printed(node, context)}{DATA_CLOSE}")
    with runner_tags._rendered_lock:  # nothing rendered before the markers were on
        runner_tags._rendered.clear()
    with override_settings(LANGUAGES=languages, LOCALE_PATHS=[tmp_path, *settings.LOCALE_PATHS]):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = PSEUDO
        yield client
    with runner_tags._rendered_lock:
        runner_tags._rendered.clear()


# ---------------------------------------------------------------- what a reader sees

#: attributes a reader meets: a tooltip, a screen reader's label, a field's hint, a button's words,
#: a confirmation asked before a change, a message the page's script shows
READ_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "hx-confirm", "data-confirm", "data-bad-face"}


class Reader(HTMLParser):
    """The text of a page, without scripts and styles, and the attributes a reader meets.

    Each tag becomes a separator that is not a space: a message with a link inside
    ("⟦If it is yours, <a>log in</a> first.⟧") stays one marked stretch, while the words of
    two elements side by side do not run together.
    """

    SKIP = {"script", "style"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.attributes: list[tuple[str, str]] = []
        self.skipping = 0
        self.in_data = 0  # inside what a variable printed: its tags' attributes are data too

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skipping += 1
        self.parts.append("\x00")
        if self.in_data:
            return
        values = dict(attrs)
        for name, value in attrs:
            if value and (name in READ_ATTRIBUTES or (name == "value" and tag == "input"
                                                     and values.get("type") in {"submit", "button"})):
                self.attributes.append((f"{tag}[{name}]", value))

    def handle_endtag(self, tag):
        if tag in self.SKIP and self.skipping:
            self.skipping -= 1
        self.parts.append("\x00")

    def handle_data(self, data):
        self.in_data += data.count(DATA_OPEN) - data.count(DATA_CLOSE)
        if not self.skipping:
            self.parts.append(data)


MARKERS = OPEN + CLOSE + DATA_OPEN + DATA_CLOSE
MARKED = re.compile(f"[{OPEN}{DATA_OPEN}][^{MARKERS}]*[{CLOSE}{DATA_CLOSE}]")
WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def unmarked(text: str) -> str:
    """The text with every marked stretch taken out (innermost first: a message in a message)."""
    while True:
        shorter = MARKED.sub("\x00", text)
        if shorter == text:
            return text
        text = shorter


def english_left(page: str, names: set[str]) -> list[str]:
    """Each stretch of what a reader sees, outside the markers, that holds a word which is not a
    name, a number, a unit or allowed ("where: 'the stretch'")."""
    reader = Reader()
    reader.feed(page)
    texts = [("text", "".join(reader.parts))] + reader.attributes
    left = []
    for where, text in texts:
        for stretch in unmarked(html.unescape(text)).split("\x00"):
            stretch = " ".join(stretch.split())
            if not stretch or stretch in NOT_YET or stretch in names or stretch in DJANGO_UNTRANSLATED:
                continue
            words = [w for w in WORD.findall(stretch) if len(w) > 1 and w not in names and w not in ALLOWED]
            if words:
                left.append(f"{where}: {stretch!r}")
    return left


def names_in_data() -> set[str]:
    """Every name the campaigns hold (people, ships, fleets, sides, campaigns, the encounters and
    runs the test made) and the rule systems' names, whole and word by word: a name is not
    translated."""
    from django.contrib.auth import get_user_model

    texts = [u.username for u in get_user_model().objects.all()]
    texts += [t for c in Campaign.objects.all() for t in (c.name, c.description)]
    texts += [t for f in Fleet.objects.all() for t in (f.name, f.side)]
    texts += [s.name for s in Ship.objects.all()] + [t.name for t in ShipTemplate.objects.all()]
    texts += [t for c in CrewMember.objects.all() for t in (c.name, c.station)]
    texts += [e.name for e in Encounter.objects.all()] + [r.name for r in SimulationRun.objects.all()]
    texts += [label for _key, label in registry.choices()]
    return {t for t in texts if t} | {w for text in texts for w in WORD.findall(text or "")}


def read(client, url: str, status: int = 200) -> str:
    answer = client.get(url)
    assert answer.status_code == status, (url, answer.status_code)
    page = answer.content.decode()
    bare = page.replace(DATA_OPEN, "").replace(DATA_CLOSE, "")
    assert f'<html lang="{PSEUDO}"' in bare or "<html" not in bare, f"{url} is not in the pseudo-language"
    return page


def assert_no_english(pages: dict[str, str]) -> None:
    names = names_in_data()
    found = sorted({f"{where}: {left}" for where, page in pages.items() for left in english_left(page, names)})
    assert found == [], "English words outside the translation markers:\n" + "\n".join(found)


# ---------------------------------------------------------------- the pages

pytestmark = pytest.mark.django_db

#: every registered rule system (the toy of the tests aside: its words are not in the catalogues)
SYSTEMS = [module.split(".")[1] for module in registry.ENGINE_MODULES]


def test_the_pseudo_language_marks_a_template_word_and_a_rule_message(pseudo):
    """The check itself: a translated word is marked, a word printed as it is is found."""
    from django.utils import translation

    from rulesets.core.check import GM_LABEL

    with translation.override(PSEUDO):
        assert translation.gettext("Log in") == "⟦Log in⟧"
        assert str(GM_LABEL) == "⟦GM⟧"  # a rule system's message, its identifier the context
    page = '<p title="⟦Step 3⟧">⟦If it is yours, <a href="/">log in</a> first.⟧ Hull</p><script>var x = "Hidden";</script>'
    # the script's words are not read; the marked message with a link inside is one stretch
    assert english_left(page, set()) == ["text: 'Hull'"]
    assert english_left(page, {"Hull"}) == []


def test_a_visitor_reads_the_log_in_sign_up_and_error_pages_in_the_pseudo_language(pseudo, campaign):
    pages = {
        "log-in": read(pseudo, reverse("login")),
        "sign-up": read(pseudo, reverse("signup")),
        "password reset": read(pseudo, reverse("password_reset")),
        "password reset, link sent": read(pseudo, reverse("password_reset_done")),
        "password reset, done": read(pseudo, reverse("password_reset_complete")),
        "404": read(pseudo, "/no-such-page/", status=404),
    }
    invite = Invite.objects.create(campaign=campaign, created_by=campaign.memberships.get(role="gm").user)
    pages["join, not logged in"] = read(pseudo, invite.get_absolute_url())
    assert_no_english(pages)


@pytest.fixture
def cepheus(gm, player):
    """The Cepheus demo campaign, an encounter played a dozen steps into its first round."""
    campaign = demo_campaign("cepheus", gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 12)
    return campaign, encounter


def test_a_gm_reads_the_campaign_fleet_ship_crew_and_new_encounter_pages(pseudo, gm, cepheus):
    campaign, encounter = cepheus
    pseudo.force_login(gm)
    fleet = campaign.fleets.first()
    ship = Ship.objects.filter(campaign=campaign, crew__isnull=False).first()
    crew = ship.crew.first()
    Invite.objects.create(campaign=campaign, created_by=gm)
    pages = {
        "campaign list": read(pseudo, reverse("campaigns:list")),
        "campaign": read(pseudo, campaign.get_absolute_url()),
        "fleet form": read(pseudo, reverse("campaigns:fleet_edit", args=[campaign.pk, fleet.pk])),
        "ship": read(pseudo, reverse("campaigns:ship", args=[campaign.pk, ship.pk])),
        "crew": read(pseudo, reverse("campaigns:crew", args=[campaign.pk, crew.pk])),
        "new encounter": read(pseudo, reverse("encounters:new", args=[campaign.pk])),
        "new simulation": read(pseudo, reverse("encounters:simulation_new", args=[campaign.pk])),
        "replay": read(pseudo, reverse("encounters:replay", args=[encounter.pk]) + "?step=6"),
    }
    assert_no_english(pages)


def test_a_gm_reads_a_simulations_results_and_a_fights_analysis(pseudo, gm, cepheus):
    campaign, encounter = cepheus
    pseudo.force_login(gm)
    setup = {"ships": [s.setup_spec() for s in campaign.ships.all()], "options": {}}
    run = SimulationRun.objects.create(campaign=campaign, name="Who wins", ruleset="cepheus", setup=setup,
                                       sweep="none", points=[{"label": "as set up", "options": {}}],
                                       trials_per_point=4, chunk_size=4, seed="qps")
    tasks.run_in_process(run.pk)
    log.finish(encounter, carry_damage=False)
    analysis = EncounterAnalysis.objects.create(encounter=encounter, replays=6, per_roll=2, seed="qps")
    tasks.run_analysis(analysis.pk)
    pages = {
        "simulation": read(pseudo, run.get_absolute_url()),
        "analysis": read(pseudo, reverse("encounters:analysis", args=[encounter.pk, analysis.pk])),
        "replay of the finished fight": read(pseudo, reverse("encounters:replay", args=[encounter.pk]) + "?step=3"),
    }
    assert_no_english(pages)


def test_a_player_reads_the_campaign_their_ship_and_the_live_page(pseudo, player, cepheus):
    campaign, encounter = cepheus
    pseudo.force_login(player)
    own = Ship.objects.filter(campaign=campaign, crew__player=player).first()
    pages = {
        "campaign, as a player": read(pseudo, campaign.get_absolute_url()),
        "own ship, as a player": read(pseudo, reverse("campaigns:ship", args=[campaign.pk, own.pk])),
        "live page, as a player": read(pseudo, encounter.get_absolute_url() + "?log=all"),
        "403, a player editing a fleet": read(pseudo, reverse("campaigns:fleet_edit",
                                                              args=[campaign.pk, campaign.fleets.first().pk]),
                                              status=403),
    }
    assert_no_english(pages)


@pytest.mark.parametrize("key", SYSTEMS)
def test_each_systems_board_and_ship_cards_read_in_the_pseudo_language(client, pseudo, gm, player, key):
    """The players' page and the replay of every rule system: its board and its ship cards
    (rulesets/<key>/templates/<key>/encounter.html), the log, as the player and as the GM."""
    campaign = demo_campaign(key, gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 12)
    pseudo.force_login(player)
    pages = {f"{key} live page, as a player": read(pseudo, encounter.get_absolute_url() + "?log=all")}
    pseudo.force_login(gm)
    for step in (1, 12):
        pages[f"{key} replay at step {step}, as the GM"] = read(
            pseudo, reverse("encounters:replay", args=[encounter.pk]) + f"?step={step}")
    assert_no_english(pages)


def test_someone_invited_reads_the_join_page(pseudo, outsider, campaign):
    invite = Invite.objects.create(campaign=campaign, created_by=campaign.memberships.get(role="gm").user)
    pseudo.force_login(outsider)
    assert_no_english({"join": read(pseudo, invite.get_absolute_url())})


def test_an_admin_reads_the_template_library_and_its_import_page(pseudo, django_user_model, cepheus):
    admin = django_user_model.objects.create_superuser("admin", "admin@example.com", "admin-password-123")
    pseudo.force_login(admin)
    pages = {
        "template list": read(pseudo, reverse("admin:campaigns_shiptemplate_changelist")),
        "template import": read(pseudo, reverse("admin:campaigns_shiptemplate_import")),
    }
    assert_no_english(pages)


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_gm_reads_the_runner_mid_fight_in_each_system(pseudo, gm, player, key):
    """The GM's runner (encounters/run.html: the turn panel, the actions and their odds, the
    latest result, the overrides, the controls, the log) a dozen steps into the first round."""
    campaign = demo_campaign(key, gm, player)
    encounter = start(campaign, gm)
    play(encounter, gm, 12)
    pseudo.force_login(gm)
    assert_no_english({f"{key} runner, as the GM": read(pseudo, reverse("encounters:detail", args=[encounter.pk]))})


def _cepheus_crew_turn(gm, player) -> Encounter:
    """The Cepheus demo fight played up to the first ship's turn with crew seats (the panel)."""
    from encounters.turn import plan_of

    campaign = demo_campaign("cepheus", gm, player)
    encounter = start(campaign, gm)
    for _ in range(30):
        if plan_of(encounter, log.current(encounter)):
            return encounter
        play(encounter, gm, 1)
    pytest.fail("no crew turn began")


def _turn_form(encounter) -> dict:
    """The ship's-turn panel's form as shown, every seat at its default."""
    from encounters.turn import panel
    from rulesets.core.engine import Viewer

    now = log.current(encounter)
    shown = panel(encounter, now, encounter.engine.view(now.state, Viewer(role="gm")).get("ships", []))
    data = {"expected_seq": str(now.head), "ship": shown["ship"], "seat": [s["actor"] for s in shown["seats"]]}
    data.update({f"choice.{s['actor']}": s["default"] for s in shown["seats"]})
    return data


def test_a_gm_reads_the_ships_turn_panel_and_its_physical_dice_prompt(pseudo, gm, player):
    """Cepheus: the ship's-turn panel (every seat's choice, one submit); with physical dice, the
    prompt asking every die of the turn at once, then with a face out of range refused."""
    encounter = _cepheus_crew_turn(gm, player)
    pseudo.force_login(gm)
    url = reverse("encounters:detail", args=[encounter.pk])
    pages = {"Cepheus ship's-turn panel": read(pseudo, url)}
    assert 'id="ship-turn"' in pages["Cepheus ship's-turn panel"]
    Encounter.objects.filter(pk=encounter.pk).update(dice_mode=Encounter.MANUAL)
    encounter.refresh_from_db()
    pages["Cepheus ship's-turn panel, physical dice"] = read(pseudo, url)
    data = _turn_form(encounter)
    answer = pseudo.post(reverse("encounters:turn", args=[encounter.pk]), data, HTTP_HX_REQUEST="true")
    assert answer.status_code == 200
    assert 'id="dice-entry"' in answer.content.decode()
    pages["Cepheus whole turn's dice prompt"] = read(pseudo, url)
    assert 'id="dice-entry"' in pages["Cepheus whole turn's dice prompt"]
    keys = re.findall(r'name="die" value="([^"]*)"', pages["Cepheus whole turn's dice prompt"])
    bad = {**data, "die": [html.unescape(k) for k in keys], "face": ["99"] + ["1"] * (len(keys) - 1)}
    refused = pseudo.post(reverse("encounters:turn", args=[encounter.pk]), bad, HTTP_HX_REQUEST="true")
    pages["Cepheus whole turn's dice prompt, a face refused"] = refused.content.decode()
    assert_no_english(pages)


def test_the_players_phase_line_is_one_sentence_decided_on_the_english_name(pseudo):
    """The players' header: "movement phase" is the sentence "%(phase)s phase" with the phase in
    it; a phase whose English name ends in "phase" ("End phase") is printed alone, whatever the
    reader's language calls it (Dropfleet: the turn's phases)."""
    from django.utils import translation

    from encounters.templatetags.words import phase_line
    from rulesets.dropfleet.view import PHASES

    assert phase_line(PHASES["move"]) == "movement phase"
    assert phase_line(PHASES["end"]) == "end phase"
    with translation.override(PSEUDO):
        assert phase_line(PHASES["move"]) == "⟦⟦movement⟧ phase⟧"
        assert phase_line(PHASES["end"]) == "⟦end phase⟧"  # not "⟦⟦end phase⟧ phase⟧"


def test_a_player_reads_their_own_turn_box_its_seats_and_their_dice_prompt(pseudo, gm, player):
    """The players' page's own-turn box (live.html, your-turn): the player's seats of the Cepheus
    ship's turn, then, rolling their own dice, every die of their part of the turn asked at once."""
    from encounters.autoplay import auto_play
    from encounters.turn import plan_of, seat_owner

    campaign = demo_campaign("cepheus", gm, player)
    encounter = start(campaign, gm)
    for _ in range(200):
        now = log.current(encounter)
        plan = plan_of(encounter, now)
        if plan and seat_owner(encounter, now)(plan[0]) == player.pk:
            break
        auto_play(encounter, mode="step", expected_seq=now.head)
    else:
        pytest.fail("no seat of the player's acted")
    Encounter.objects.filter(pk=encounter.pk).update(players_act=True)
    pseudo.force_login(player)
    pages = {"own turn, the player's seats": read(pseudo, encounter.get_absolute_url())}
    page = pages["own turn, the player's seats"].replace(DATA_OPEN, "").replace(DATA_CLOSE, "")
    form = page[page.index('id="play-turn"'):]
    form = form[:form.index("</form>")]
    data = {"expected_seq": re.search(r'name="expected_seq" value="(\d+)"', form).group(1),
            "ship": re.search(r'name="ship" value="([^"]+)"', form).group(1),
            "seat": re.findall(r'name="seat" value="([^"]+)"', form), "roll": "own"}
    for actor in data["seat"]:
        select = re.search(rf'name="choice\.{re.escape(actor)}">(.*?)</select>', form, re.S).group(1)
        data[f"choice.{actor}"] = html.unescape(re.search(r'<option value="([^"]+)" selected', select).group(1))
    answer = pseudo.post(reverse("encounters:play_turn", args=[encounter.pk]), data, HTTP_HX_REQUEST="true")
    assert 'id="dice-entry"' in answer.content.decode()
    pages["own turn, the player's dice prompt"] = answer.content.decode()
    assert_no_english(pages)
