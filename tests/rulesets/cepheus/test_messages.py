"""Issue 23, "messages, not f-strings": what the Cepheus rules say -- every log line, every roll's
purpose, an action's button and an odds summary -- is a message (an identifier of this system or of
core, its English text and its parameters), rendered in the reader's language when read; and a
playout, which nobody reads, runs the very same rules and keeps nothing."""
import json
import random
import re

import pytest

from rulesets.cepheus.crew import POSITION_LABEL
from rulesets.cepheus.engine import RULESET
from rulesets.cepheus.odds import check_odds
from rulesets.cepheus.attacks import weapon_hit
from rulesets.cepheus.state import Hit, Pending, Tx
from rulesets.cepheus.tables import (
    BAND_LABEL, DAMAGE_TABLE, DIFFICULTY_LABEL, LOCATION_EFFECTS, LOCATION_LABEL, MISSILES, WEAPONS,
)
from rulesets.cepheus.view import describe
from rulesets.core import serial
from rulesets.core.dice import Dice, RandomSource, ScriptedSource
from rulesets.core.engine import Action, Viewer
from rulesets.core.messages import Message, english, render, translating, words_from_json
from rulesets.core.spec import demo_setup

from .helpers import act, crew, duel

OURS = ("cepheus.", "core.")


def _ours(words) -> bool:
    return isinstance(words, Message) and words.id.startswith(OURS)


def _battle(spec: dict, seed: str, recording: bool, limit: int = 400):
    """A bot battle played step by step through ``apply``: each step's (action, log, dice)."""
    rng = random.Random(seed)
    state, steps = RULESET.setup(spec), []
    while not state.over and len(steps) < limit:
        action = RULESET.policy(state, rng)
        dice = Dice(RandomSource(rng), recording=recording)
        step = RULESET.apply(state, action, dice)
        steps.append((action, step.log, dice))
        state = step.state
    return steps


@pytest.mark.parametrize("spec", [RULESET.example_setup(0), RULESET.example_setup(1), demo_setup(RULESET)],
                         ids=["example0", "example1", "demo"])
def test_every_log_line_and_roll_purpose_of_a_recorded_battle_is_a_message_of_the_system(spec):
    """Every line the rules said and every roll's purpose, in bot battles of the example setups and the
    demo fleets (attacks, reactions, damage, initiative, the Captain, the sensors, repairs): a message
    whose identifier is Cepheus's (or core's), its English words the words the log shows."""
    lines = purposes = 0
    for seed in range(3):
        for action, log, dice in _battle(spec, f"messages:{seed}", recording=True):
            if action.kind == "override":
                continue  # the GM's override says its own words (override.py)
            for entry in log:
                assert _ours(entry.message), entry
                assert entry.text == english(entry.message) and entry.text.strip()
                lines += 1
            for roll in dice.rolls:
                assert _ours(roll.purpose), roll
                purposes += 1
    assert lines > 100 and purposes > 50


def test_a_playout_runs_the_same_rules_and_keeps_nothing():
    """Simulations (issue 10): with dice that record nothing, a step keeps no log line, no roll and no
    die, and plays the battle the recorded steps play (the same dice, the same states)."""
    spec = demo_setup(RULESET)
    recorded = _battle(spec, "playout", recording=True)
    quiet = _battle(spec, "playout", recording=False)
    assert [a for a, _, _ in quiet] == [a for a, _, _ in recorded]
    assert any(log for _, log, _ in recorded) and any(d.rolls for _, _, d in recorded)
    for _, log, dice in quiet:
        assert log == [] and dice.rolls == [] and dice.dice == []


def test_a_check_in_a_playout_draws_the_same_dice_as_the_recorded_one():
    """Prove di abilità: the dodge (2D6 + Pilot + Dex DM >= 8) of a playout rolls the core Check the
    recorded step rolls: the same two dice decide the same outcome, and only the record differs."""
    s = duel([crew("g", "turret_gunner", "t1", gunnery_turret=1)], [crew("p", "pilot", pilot=1)], range="short")
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    states = []
    for recording in (True, False):
        dice = Dice(ScriptedSource([4, 3, 6, 6]), recording=recording)
        step = RULESET.apply(s, Action.parse("dodge actor=p"), dice)
        states.append(step.state.pending.dodge if step.state.pending else None)
        assert (len(dice.rolls), len(step.log)) == ((1, 1) if recording else (0, 0))
    assert states[0] == states[1] == -2


def test_a_button_and_a_log_line_render_in_the_installed_language():
    """The words are rendered when read: a translation installed after the step was taken reads the
    same line in that language (issue 24 builds the catalogue on these messages)."""
    s = duel([crew("g", "turret_gunner", "t1", gunnery_turret=1)], [crew("p", "passenger")], range="short")
    attack = next(a for a in RULESET.legal_actions(s) if a.kind == "attack")
    button = describe(s, attack)
    assert _ours(button) and button == "Fire turret 1 (pulse laser) at B"
    tx = Tx(s, Dice(ScriptedSource([])))
    tx.say(Message("cepheus.log.dodges", "{ship} dodges: the attack takes DM-2.", {"ship": "B"}), "Dodge")
    with translating(lambda ctx, text: {"{ship} dodges: the attack takes DM-2.": "{ship} schivata!",
                                        "Fire": "Fuoco"}.get(text, text)):
        assert tx.log[0].text == "B schivata!"
        assert str(RULESET.describe(s, attack)).startswith("Fuoco turret 1")
    assert tx.log[0].text == "B dodges: the attack takes DM-2."


# ---- issue 24: the tables' words reach a page as messages, so a translated page has no English left

def _shouted(ctx, text):
    """A made-up language: every message's words in capitals (its {placeholders} kept as they are)."""
    return re.sub(r"[^{}]+(?=\{|$)|(?<=\})[^{}]+", lambda m: m.group(0).upper(), text)


#: words of the tables (Tabella: Posizione dei colpi, Danni, Bande di Gittata; Scaled Damage table's
#: weapons; Crew Positions): in the made-up language none of them may be read as written in English
TABLE_WORDS = sorted({english(w) for w in (
    *LOCATION_LABEL.values(), *BAND_LABEL.values(), *(w for effects in LOCATION_EFFECTS.values() for w in effects),
    *(k.name for k in WEAPONS.values()), *(k.names for k in WEAPONS.values()),
    *(m["label"] for m in MISSILES.values()), *POSITION_LABEL.values(), *DIFFICULTY_LABEL.values(),
    *(row for _, _, row, _ in DAMAGE_TABLE))} | {"first", "second", "third", "hull", "structure", "turret"},
    key=len, reverse=True)


@pytest.mark.parametrize("spec", [RULESET.example_setup(0), demo_setup(RULESET)], ids=["example0", "demo"])
def test_no_table_word_reaches_a_translated_log_line_in_english(spec):
    """Tabella: Danni da Combattimento Spaziale and Posizione dei colpi: a hit's line ("Corsair's pulse
    laser: damage 9 (Space Combat Damage table: 9-12: Double Hit)", "M-Drive hit (first hit): Thrust -1")
    and every other line of bot battles, read in another language, says its locations, effects, rows,
    weapons, bands and positions in that language: none is a plain English string."""
    hits = 0
    with translating(_shouted, lambda ctx, one, many, n: _shouted(ctx, one if n == 1 else many)):
        for seed in range(3):
            for action, log, dice in _battle(spec, f"words:{seed}", recording=True):
                if action.kind == "override":
                    continue
                for entry in log:
                    said = entry.message.render()
                    left = [w for w in TABLE_WORDS if re.search(rf"\b{re.escape(w)}\b", said)]
                    assert not left, (said, left)
                    hits += " hit (" in english(entry.message)
                for roll in dice.rolls:
                    for words in (roll.purpose, roll.table, roll.row):
                        said = render(words)
                        assert not [w for w in TABLE_WORDS if re.search(rf"\b{re.escape(w)}\b", said)], said
    assert hits > 3  # the battles did reach the hit locations


def test_a_waiting_hit_keeps_its_words_as_a_message_through_a_saved_state():
    """Danno (Checklist 5.3: damage at the end of the turn): the hit waiting in the state is saved as a
    message, so its damage line reads in the language of whoever reads the log; a hit saved as English
    words before messages still reads as it was."""
    s = duel([crew("g", "turret_gunner", "t1", gunnery_turret=1)], [crew("p", "passenger")], range="short")
    s.hits = [weapon_hit(s.ship("a"), s.ship("b"), "pulse_laser", Pending("fire", "a", "b"))]
    saved = serial.from_json(type(s), json.loads(json.dumps(serial.to_json(s))))
    label = words_from_json(saved.hits[0].label)
    assert isinstance(label, Message) and label.id == "cepheus.words.ships_weapon"
    assert english(label) == "A's pulse laser"
    with translating(lambda ctx, text: {"{ship}'s {weapon}": "{weapon} di {ship}",
                                        "pulse laser": "laser a impulsi"}.get(text, text)):
        assert render(label) == "laser a impulsi di A"
    old = Hit("b", "a", "A's pulse laser", "pulse_laser", dice=2)
    assert words_from_json(old.label) == "A's pulse laser"


def test_a_ship_card_and_the_odds_speak_the_installed_language():
    """Tabella: Bande di Gittata: the range a card shows and a check's odds ("success") are words of
    the reader's language, read when the page is drawn."""
    s = duel([crew("g", "turret_gunner", "t1", gunnery_turret=1)], [crew("p", "pilot", pilot=1)], range="short")
    with translating(lambda ctx, text: {"Short": "Corta", "Turret gunner": "Artigliere di torretta",
                                        "success": "successo", "pulse laser": "laser a impulsi"}.get(text, text)):
        card = RULESET.view(s, Viewer.gm())["ships"][0]
        assert card["ranges"] == {"B": "Corta"}
        assert card["crew"][0]["position"] == "Artigliere di torretta"
        assert card["mounts"][0]["weapons"] == ["laser a impulsi"]
        assert "successo" in render(check_odds(0).summary)
    assert render(check_odds(0).summary) == "42% success (mean Effect -1.0)"  # 2D6 >= 8: 15 in 36
