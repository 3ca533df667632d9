"""Messages: what a rule says, kept as an identifier, its English text and parameters, and
rendered in the reader's language only when somebody reads it (issue 23; issue 24 builds on it)."""
from __future__ import annotations

import json

import pytest

from rulesets.core import messages
from rulesets.core.dice import Roll
from rulesets.core.engine import Log, LogEntry
from rulesets.core.messages import Message, english, msg, msgn, render, translating


@pytest.fixture
def pig_latin():
    """A made-up language installed as the app installs Django's: every text looked up."""
    table = {"{ship} fires at {target}.": "{target} is fired at by {ship}!",
             "pulse laser": "laser-pulse", "{count} round": "{count} roundo", "{count} rounds": "{count} roundi"}
    with translating(lambda ctx, t: table.get(t, t),
                     lambda ctx, s, p, n: table.get(s if n == 1 else p, s if n == 1 else p)):
        yield


def test_a_message_renders_its_english_text_with_its_parameters():
    m = msg("x.fires", "{ship} fires at {target}.", ship="Corsair", target="Raider")
    assert m.render() == str(m) == "Corsair fires at Raider."
    assert m.get("ship") == "Corsair" and m.get("missing", 3) == 3


def test_a_message_equals_its_english_words_and_hashes_like_them():
    m = msg("x.fires", "{ship} fires at {target}.", ship="Corsair", target="Raider")
    assert m == "Corsair fires at Raider." and {m: 1}["Corsair fires at Raider."] == 1
    assert m != msg("x.fires", "{ship} fires at {target}.", ship="Corsair", target="Nightglass")


def test_a_parameter_may_be_a_message_rendered_in_the_same_language(pig_latin):
    m = msg("x.fires", "{ship} fires at {target}.", ship="Corsair", target=msg("x.w", "pulse laser"))
    assert m.render() == "laser-pulse is fired at by Corsair!"
    assert m.english() == "Corsair fires at pulse laser."


def test_plural_messages_choose_their_form_by_count(pig_latin):
    assert msgn("x.rounds", "{count} round", "{count} rounds", 1).render() == "1 roundo"
    assert msgn("x.rounds", "{count} round", "{count} rounds", 3).render() == "3 roundi"
    with translating(None, None):
        assert msgn("x.rounds", "{count} round", "{count} rounds", 3).render() == "3 rounds"


def test_a_stored_log_line_reads_in_a_language_installed_after_it_was_stored():
    with translating(None, None):
        entry = LogEntry(msg("x.fires", "{ship} fires at {target}.", ship="Corsair", target="Raider"), "rule 1")
        stored = json.loads(json.dumps(entry.to_json()))
    assert stored["text"] == "Corsair fires at Raider."  # the English words, for whatever reads text
    with translating(lambda ctx, t: {("x.fires", "{ship} fires at {target}."): "{target} is fired at by {ship}!"}
                     .get((ctx, t), t)):
        back = LogEntry.from_json(stored)
        assert back == entry and back.text == "Raider is fired at by Corsair!"


def test_a_log_stored_before_messages_still_reads():
    assert LogEntry.from_json({"text": "Old words.", "rule": "", "gm_only": False}).text == "Old words."


def test_a_rolls_words_are_stored_as_messages_and_as_english(pig_latin):
    roll = Roll("2D6", (3, 4), ((msg("x.w", "pulse laser"), 1), ("Gunnery", 2)), 10,
                purpose=msg("x.fires", "{ship} fires at {target}.", ship="A", target="B"),
                table=msg("x.w", "pulse laser"), row="hit")
    data = json.loads(json.dumps(roll.to_json()))
    assert data["purpose"] == "A fires at B." and data["modifiers"] == [["pulse laser", 1], ["Gunnery", 2]]
    back = Roll.from_json(data)
    assert back == roll
    assert render(back.purpose) == "B is fired at by A!" and render(back.modifiers[0][0]) == "laser-pulse"
    assert "laser-pulse" in back.describe()


def test_a_playouts_log_keeps_nothing_and_a_recorded_one_keeps_every_line():
    line = msg("x.fires", "{ship} fires at {target}.", ship="A", target="B")
    quiet, kept = Log(recording=False), Log()
    for log in (quiet, kept):
        log.say(line, "rule 1", side="red")
    assert quiet == [] and kept == [LogEntry(line, "rule 1", side="red")]


def test_english_and_render_read_plain_strings_and_none_too():
    assert english("plain") == render("plain") == "plain" and english(None) == render(None) == ""
    assert isinstance(msg("x", "y"), Message) and messages.words_from_json(messages.words_to_json("s")) == "s"
