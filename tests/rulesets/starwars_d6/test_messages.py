"""Issue 23, "messages, not f-strings": what the Star Wars D6 engine says -- log lines, roll purposes,
action labels, the whose-turn line -- is a message (an id of this system, its English text and its
parameters), rendered in the reader's language when read; a playout says the same lines to a log that
keeps none, and records no roll."""
import random

import pytest

from rulesets.core import serial
from rulesets.core.dice import Dice, RandomSource, ScriptedSource, playout_dice
from rulesets.core.engine import Action, Viewer
from rulesets.core.messages import Message, english, msg, render, translating
from rulesets.core.spec import demo_setup
from rulesets.starwars_d6 import rules
from rulesets.starwars_d6.engine import RULESET
from rulesets.starwars_d6.sequence import initiative_purpose, is_initiative_of

OURS = ("starwars_d6.", "core.")


def _ours(words) -> bool:
    return isinstance(words, Message) and words.id.startswith(OURS)


def _setups():
    fighters = RULESET.example_setup(0)           # two starfighters: no scale caps
    no_wild = {**fighters, "options": {**fighters["options"], "wild": False}}
    corvette = RULESET.example_setup(1)
    complications = {**corvette, "options": {**corvette["options"], "complication": "add"}}
    return {"fighters": fighters, "fighters, no Wild Die": no_wild, "corvette": corvette,
            "corvette, Wild-Die 1 a complication": complications, "demo": demo_setup(RULESET)}


def _battle(spec, seed, *, recording=True, steps=400):
    """A bot battle step by step; yields (state before, action, dice, step)."""
    rng = random.Random(seed)
    state = RULESET.setup(spec)
    for _ in range(steps):
        if state.over:
            return
        action = RULESET.policy(state, rng)
        dice = Dice(RandomSource(rng), recording=recording)
        step = RULESET.apply(state, action, dice)
        yield state, action, dice, step
        state = step.state


@pytest.mark.parametrize("name", ["fighters", "fighters, no Wild Die", "corvette", "demo"])
def test_every_log_line_action_label_and_whose_turn_line_is_a_message_of_the_system(name):
    """Seed "4. SEQÜENCIA DE JOC" (initiative, movement, firing) through bot battles: every line the
    log keeps, every action's label and the whose-turn line are messages with ids of this system."""
    lines = 0
    for seed in range(3):
        for before, action, _dice, step in _battle(_setups()[name], f"msg:{name}:{seed}"):
            assert all(_ours(e.message) for e in step.log), [e for e in step.log if not _ours(e.message)]
            assert _ours(RULESET.describe(before, action)) and _ours(before.active)
            lines += len(step.log)
    assert lines > 100


@pytest.mark.parametrize("name", ["fighters", "fighters, no Wild Die"])
def test_every_roll_purpose_is_a_message_of_the_system(name):
    """Seed "2. COMBAT" (attack, evasion, damage, shields, hull) and "4. SEQÜENCIA DE JOC: Fase
    d'iniciativa": every roll's purpose is a message.  (Two starfighters: no scale cap splits a roll
    into a skill part and a capped part -- those parts are worded by checks.py.)"""
    rolls = 0
    for seed in range(3):
        for _before, _action, dice, _step in _battle(_setups()[name], f"rolls:{name}:{seed}"):
            assert all(_ours(r.purpose) for r in dice.rolls), [r.purpose for r in dice.rolls if not _ours(r.purpose)]
            rolls += len(dice.rolls)
    assert rolls > 30


@pytest.mark.parametrize("name", ["fighters", "corvette", "corvette, Wild-Die 1 a complication", "demo"])
def test_a_playout_keeps_no_line_and_records_no_roll(name):
    """A playout (Dice(recording=False)): the same battle, its log keeps nothing, its dice record
    nothing -- the rules never ask, the log and the dice answer (the complication lines of RULES-NOTES
    "Wild Die", "add normally", too)."""
    recorded, said = [], []
    for *_, step in _battle(_setups()[name], f"p:{name}"):
        recorded.append((step.state.round, serial.to_json(step.state)))
        said += [english(e.message) for e in step.log]
    if "complication" in name:     # the recorded battle has complication lines for the playout to drop
        assert any(line.startswith("Wild Die 1: a complication") for line in said)
    quiet = []
    for _before, _action, dice, step in _battle(_setups()[name], f"p:{name}", recording=False):
        assert step.log == [] and dice.rolls == [] and dice.dice == []
        quiet.append((step.state.round, serial.to_json(step.state)))
    assert quiet == recorded and len(quiet) > 10


def test_a_playout_from_the_simulations_dice_says_nothing_either():
    """core playout_dice (what simulations use): an initiative step, a whole round, no line kept."""
    state = RULESET.setup(RULESET.example_setup(1))
    rng = random.Random("playout")
    for _ in range(30):
        step = RULESET.apply(state, RULESET.policy(state, rng), playout_dice(rng))
        assert step.log == []
        state = step.state


def test_the_initiative_roll_of_a_side_is_matched_by_its_message_not_its_words():
    """Seed 4. "Fase d'iniciativa" ("Cada jugador ... llença 2D"): a player rolling their own dice
    types their side's 2D only.  Their side's rolls are known by the message's id and side -- the
    message itself, a message saying more of it, or the words the dice wrote around it in English
    or in the reader's language -- never by another side's name that starts the same."""
    mine, theirs = initiative_purpose("Rebels"), initiative_purpose("Rebels II")
    assert mine.id == "starwars_d6.roll.initiative" and english(mine) == "initiative of Rebels"
    assert is_initiative_of("Rebels", mine) and not is_initiative_of("Rebels", theirs)
    again = msg("starwars_d6.test.again", "{purpose} (Wild Die again)", purpose=mine)
    assert is_initiative_of("Rebels", again) and not is_initiative_of("Empire", again)
    assert is_initiative_of("Rebels", "initiative of Rebels (the last die is the Wild Die)")
    assert not is_initiative_of("Rebels", "initiative of Rebels II (the last die is the Wild Die)")
    with translating(lambda ctx, text: {"initiative of {side}": "iniciativa de {side}"}.get(text, text)):
        assert render(mine) == "iniciativa de Rebels"
        assert is_initiative_of("Rebels", "iniciativa de Rebels (the last die is the Wild Die)")
        assert not is_initiative_of("Empire", "iniciativa de Rebels")
    # the engine's own initiative step, scripted (Rebels 6+5, Empire 1+2): the pilot's dice are Rebels'
    s = RULESET.setup(RULESET.example_setup(0))
    action = Action.make("initiative", RULESET.actor_ship(s))
    own = RULESET.own_rolls(s, action)
    d = Dice(ScriptedSource([6, 5, 1, 2]))
    RULESET.apply(s, action, d)
    assert [own(r.purpose) for r in d.rolls] == [s.ship(action.actor).side == side for side in s.sides]


def test_a_log_line_reads_in_the_readers_language_and_stays_english_underneath():
    """Seed "5. DETERMINANT ELS DANYS": "Ship destroyed" -- the words of a line and of the table it
    names are looked up when read; the English (what fingerprints and stored logs read) is unchanged."""
    from tests.rulesets.starwars_d6.test_rules import dice, fight

    _s, log = rules.apply_damage(fight(), "b", 30, dice(1, 1))   # no shields; hull 2D rolls 2: margin 28
    line = next(e for e in log if english(e.message) == "Eye is destroyed.")
    assert line.message.id == "starwars_d6.log.destroyed" and line.message.get("ship") == "Eye"
    with translating(lambda ctx, text: {"{ship} is destroyed.": "{ship} és destruïda."}.get(text, text)):
        assert line.text == "Eye és destruïda." and english(line.message) == "Eye is destroyed."


def test_the_whose_turn_line_is_read_from_the_state_and_the_view_gives_words():
    """Seed 4. "SEQÜENCIA DE JOC": who acts follows from the phase and the order; no rule keeps a
    label of it, and a stored state (JSON) has none to go stale."""
    s = RULESET.setup(RULESET.example_setup(0))
    assert s.active == "Initiative: every side rolls 2D" and "active" not in serial.to_json(s)
    step = RULESET.apply(s, Action.make("initiative", RULESET.actor_ship(s)), Dice(ScriptedSource([6, 5, 1, 2])))
    first = step.state.ship(step.state.queue[0])
    assert step.state.active.id == "starwars_d6.turn.ship"
    assert english(step.state.active) == f"Round 1, movement: {first.name} ({first.side})"
    view = RULESET.view(step.state, Viewer.gm())
    # the view hands the message on: the page renders it in the reader's language
    assert view["active"] == english(step.state.active) and isinstance(view["active"], Message)
    back = serial.from_json(type(step.state), serial.to_json(step.state))
    assert back.active == step.state.active
