"""Dropfleet's words are messages (issue 23): every log line, roll purpose, table and row word,
Lock modifier, action label and odds summary is an identifier ``dropfleet.<area>.<what>`` (or a
core one) with its English text, rendered in the reader's language; a playout keeps nothing.
Issue 27's words: the runner's "Now:" names ships, and no spike is "no spike" (RULES-NOTES DF-N03)."""
from __future__ import annotations

import random

import pytest

from rulesets.core.dice import Dice, RandomSource
from rulesets.core.engine import Action
from rulesets.core.messages import Message, english, render, translating
from rulesets.core.spec import demo_setup
from rulesets.dropfleet import tables
from rulesets.dropfleet.engine import RULESET

from .helpers import attacker, dice, ship, state, step, weapon

OURS = ("dropfleet.", "core.")


def _ours(words) -> bool:
    return isinstance(words, Message) and words.id.startswith(OURS)


def _battles():
    """Bot battles of the example setups and the demo fleets, recorded step by step: (state before,
    action, dice, step)."""
    for n, spec in enumerate((RULESET.example_setup(0), RULESET.example_setup(1), demo_setup(RULESET))):
        for seed in range(4):
            rng = random.Random(f"messages-{n}-{seed}")
            st = RULESET.setup(spec)
            while not st.over:
                action = RULESET.policy(st, rng)
                d = Dice(RandomSource(rng))
                result = RULESET.apply(st, action, d)
                yield st, action, d, result
                st = result.state


def test_a_recorded_battle_says_every_line_and_names_every_roll_in_messages():
    """Every log line and roll of a recorded step is a message of Dropfleet's (or the core's):
    lines and purposes always, table, row and modifier labels where the roll has them."""
    lines = rolls = 0
    ids = set()
    for _, action, d, result in _battles():
        for entry in result.log:
            assert _ours(entry.message), (action.to_str(), entry)
            ids.add(entry.message.id)
            lines += 1
        for roll in d.rolls:
            assert _ours(roll.purpose), (action.to_str(), roll)
            for words in (roll.table, roll.row, *(label for label, _ in roll.modifiers)):
                assert words == "" or _ours(words), (action.to_str(), roll)
            rolls += 1
    assert lines > 1000 and rolls > 500
    # the attack's steps 4 and 5 and the End phase all spoke (seed 4, 5; decision D8)
    assert {"dropfleet.fire.to_hit", "dropfleet.hull.damaged", "dropfleet.end.round"} <= ids


def test_a_playout_records_nothing_and_plays_the_same_battle():
    """Dice(recording=False): no line, no roll, no die kept; the faces drawn and the battle are
    the recorded one's (the rules say every line either way)."""
    spec = RULESET.example_setup(1)
    ends = []
    for recording in (True, False):
        rng = random.Random("playout")
        st = RULESET.setup(spec)
        while not st.over:
            d = Dice(RandomSource(rng), recording=recording)
            result = RULESET.apply(st, RULESET.policy(st, rng), d)
            if not recording:
                assert result.log == [] and d.rolls == [] and d.dice == []
            st = result.state
        ends.append(RULESET.outcome(st).to_json())
    assert ends[0] == ends[1]


def test_action_labels_and_odds_are_messages():
    """describe() labels every listed action with a Dropfleet message; a fire button's odds
    summary and outcomes too (issue 11's odds line, in words)."""
    checked = 0
    for st, _, _, _ in _battles():
        for action in RULESET.legal_actions(st):
            assert _ours(RULESET.describe(st, action)), action.to_str()
            odds = RULESET.odds(st, action)
            if odds is not None:
                assert _ours(odds.summary) and all(_ours(o.label) for o in odds.outcomes)
                checked += 1
        if checked > 50:
            break
    assert checked > 50


@pytest.fixture
def reversed_words():
    """A made-up language: every text looked up is reversed, each placeholder kept whole."""
    def turn(text: str) -> str:
        return "|".join(reversed(text.split(" ")))
    with translating(lambda ctx, text: turn(text), lambda ctx, s, p, n: turn(s if n == 1 else p)):
        yield


def test_a_line_renders_in_the_readers_language_with_its_table_words_translated(reversed_words):
    """A log line, its parameters (a spike's size, an order's name) and a roll's purpose are
    looked up in the installed language; the English stays what the fingerprints compare.
    RULES-NOTES DF-N03: Standard clears a Minor spike."""
    log = step(state(attacker(spike=tables.MINOR), ship(), phase="orders"), "order actor=a order=standard").log
    assert english(log[0].message) == "Attacker takes Standard orders: signature 6\" (no spike)."
    assert log[0].text == "(spike|no).|6\"|signature|orders:|Standard|takes|Attacker"  # "no spike" looked up too
    st = step(state(attacker(weapons=weapon(attacks=2)), ship(armour=(7,))), "fire actor=a weapon=g target=t").state
    d = dice(5, 6)  # two hits, one critical (Lock 4+, critical on 6+); no save (7+)
    RULESET.apply(st, Action.parse("open_fire actor=a"), d)
    assert render(d.rolls[0].purpose) == "4+)|(Lock|Target|at|Railgun|Attacker's"
    assert english(d.rolls[0].purpose) == "Attacker's Railgun at Target (Lock 4+)"


def test_the_log_never_says_none_spike_and_now_names_ships():
    """Issue 27: no line of a recorded battle says "none spike" (RULES-NOTES DF-N03: "no spike"),
    and the runner's "Now:" (state.active) names ships of the fight, never a battle group or class."""
    names = {s["name"] for s in RULESET.example_setup(1)["ships"]} | {s["name"] for s in demo_setup(RULESET)["ships"]}
    names |= {s["name"] for s in RULESET.example_setup(0)["ships"]}
    spoke = 0
    for st, _, _, result in _battles():
        if st.active:
            assert set(st.active.split(", ")) <= names, st.active
        for entry in result.log:
            assert "none spike" not in english(entry.message)
            spoke += "spike" in english(entry.message)
    assert spoke


def test_a_declared_weapon_system_is_one_sentence_in_the_log_the_board_and_the_secrets():
    """Decision D2: a declaration is said once (dropfleet.fire.aims): the GM's log line, the board's
    list of the side's declarations and what the other side's player must not read."""
    from rulesets.core.engine import Viewer

    result = step(state(attacker(), ship()), "fire actor=a weapon=g target=t")
    (line,) = result.log
    assert line.gm_only and line.message.get("aims").id == "dropfleet.fire.aims"
    assert line.text == "Attacker aims Railgun at Target."
    assert RULESET.view(result.state, Viewer.gm())["declared"][0]["text"] == "Attacker aims Railgun at Target"
    assert RULESET.secrets(result.state, Viewer.player(["t"])) == ["Attacker aims Railgun at Target"]
