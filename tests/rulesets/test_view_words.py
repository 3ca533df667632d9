"""The words a system's view puts on the pages (ship cards, headers, the other ships' facts) are
messages, rendered where the page is drawn in the reader's language (issue 24), and read in English
exactly as before.  Dropfleet, Star Wars D6, Wing Commander and Void d20 (Cepheus: its own view)."""
from __future__ import annotations

import random

import pytest

from encounters.templatetags.words import NOT_FACTS, facts, label
from rulesets.core import registry
from rulesets.core.engine import Viewer
from rulesets.core.messages import Message, english, render, translating
from rulesets.core.replay import play_out
from rulesets.dropfleet import tables as df_tables
from rulesets.dropfleet import terms as df_terms

SYSTEMS = ["dropfleet", "starwars_d6", "wing_commander", "void_d20"]

#: per system, a ship's card words that are messages whenever the view gives them
CARD_WORDS = {
    "dropfleet": ("status", "tonnage", "layer_label", "spike", "order", "armour", "effects"),
    "starwars_d6": ("status", "scale", "damage"),
    "wing_commander": ("class", "status", "damage", "situation", "torpedoes", "countermeasures", "pilot_line", "skills"),
    "void_d20": ("status", "range", "frame", "modules", "catastrophes"),
}


def _pseudo(context: str, text: str) -> str:
    return f"«{text}»"


def _pseudo_n(context: str, singular: str, plural: str, n: int) -> str:
    return f"«{singular if n == 1 else plural}»"


def _views(key: str, seed: int = 1, steps: int = 120):
    """The GM's and each side's players' views along a bot battle of ``key``'s larger example."""
    ruleset = registry.get(key)
    rng = random.Random(f"view-words:{key}:{seed}")
    state = ruleset.setup(ruleset.example_setup(1))
    for _ in range(steps):
        if state.over:
            break
        gm = ruleset.view(state, Viewer.gm())
        yield gm
        for side in {s["side"] for s in gm["ships"]}:
            yield ruleset.view(state, Viewer.player([s["id"] for s in gm["ships"] if s["side"] == side]))
        state = play_out(ruleset, state, rng, max_steps=1).state


def _is_words(value) -> bool:
    """A message, or numbers and signs only ("3+", "4/6"): no word of a language."""
    if isinstance(value, list):
        return all(_is_words(v) for v in value)
    return isinstance(value, Message) or (isinstance(value, str) and not any(ch.isalpha() for ch in value))


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_phase_and_the_cards_words_are_messages(key):
    """The header's phase (the translators' "fase movement") and the cards' words are messages,
    whatever step of a bot battle the page shows."""
    seen = 0
    for view in _views(key):
        assert isinstance(view["phase"], Message), view["phase"]
        for ship in view["ships"]:
            for field in CARD_WORDS[key]:
                value = ship.get(field)
                if value not in (None, "", []):
                    assert _is_words(value), (key, field, value)
                    seen += 1
    assert seen > 0


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_other_ships_facts_are_named_in_the_readers_language_and_in_english_as_before(key):
    """The players' "other ships" cards (encounters/live.html#contact) name every fact the view
    gives by a message; in English each reads as it did from the key ("spare_parts": "Spare parts")."""
    for view in _views(key, steps=40):
        for ship in view["ships"]:
            labels = ship["fact_labels"]
            shown = [k for k, v in ship.items() if k not in NOT_FACTS and v not in (None, "", [], {})]
            assert [k for k in shown if k not in labels] == [], key
            assert all(english(labels[k]) == label(k) for k in shown)
            with translating(_pseudo, _pseudo_n):
                assert all(name.startswith("«") for name, _ in facts(ship))


def test_dropfleet_terms_read_as_the_tables_english():
    """The tables' words written out as messages (so the catalogue finds them) say what the tables say."""
    assert {k: english(m) for k, m in df_terms.LAYER.items()} == df_tables.LAYER_LABEL
    assert {k: english(m) for k, m in df_terms.ORDER.items()} == {k: o.label for k, o in df_tables.ORDERS.items()}
    assert {k: english(m) for k, m in df_terms.TONNAGE.items()} == df_tables.TONNAGE
    assert {k: english(m) for k, m in df_terms.SPIKE.items()} == df_tables.SPIKE_LABEL
    assert {k: english(m) for k, m in df_terms.ARC.items()} == df_tables.ARC_LABEL
    assert {k: english(m) for k, m in df_terms.SUBTABLE.items()} == df_tables.SUBTABLES
    rows = df_tables.CRIPPLING_ROWS
    assert {k: english(m) for k, m in df_terms.CRIPPLING_NAME.items()} == {k: r.name for k, r in rows.items()}
    assert {k: english(m) for k, m in df_terms.CRIPPLING_TEXT.items()} == {k: r.text for k, r in rows.items()}
    worst = {r.key: r for t in (df_tables.CATASTROPHIC, df_tables.DREADNOUGHT_CATASTROPHIC) for r in t.values()}
    assert {k: english(m) for k, m in df_terms.CATASTROPHIC_NAME.items()} == {k: r.name for k, r in worst.items()}
    assert {k: english(m) for k, m in df_terms.CATASTROPHIC_NAME_IN_TEXT.items()} == {k: r.name.lower() for k, r in worst.items()}
    assert {k: english(m) for k, m in df_terms.CATASTROPHIC_TEXT.items()} == {k: r.text for k, r in worst.items()}
    assert {k: english(m) for k, m in df_terms.HOUSE_RULE.items()} == {k: r.house_rule for k, r in worst.items() if r.house_rule}


def test_a_dropfleet_card_reads_as_before_in_english_and_translated_in_another_language():
    """Seed 6 (Dropfleet Commander): a ship's layer, spike and armour on its card."""
    ruleset = registry.get("dropfleet")
    view = ruleset.view(ruleset.setup(ruleset.example_setup(0)), Viewer.gm())
    ship = view["ships"][0]
    assert (render(ship["layer_label"]), render(ship["spike"]), render(view["phase"])) == ("High orbit", "none", "orders")
    assert all(render(w["arc"]) in df_tables.ARC_LABEL.values() for w in ship["weapons"])
    with translating(_pseudo, _pseudo_n):
        assert render(ship["layer_label"]) == "«High orbit»" and render(view["phase"]) == "«orders»"


def test_a_wing_commander_pilot_line_reads_as_before():
    """2.1.1: the pilot's name, rank and who flies the ship, then the ship's TW."""
    ruleset = registry.get("wing_commander")
    view = ruleset.view(ruleset.setup(ruleset.example_setup(0)), Viewer.gm())
    lines = [english(s["pilot_line"]) for s in view["ships"]]
    assert all(", " in line and "; TW " in line for line in lines)
    assert all(render(s["pilot_line"]) in ruleset.secrets(ruleset.setup(ruleset.example_setup(0)), Viewer.player([]))
               for s in view["ships"])
