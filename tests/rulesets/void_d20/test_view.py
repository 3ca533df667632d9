"""What the GM and the players read of a Void d20 fight: words, no reprs, no secrets for players."""
from __future__ import annotations

import json
import re

from django.template.loader import render_to_string

from rulesets.core.engine import Viewer
from rulesets.core.messages import render
from rulesets.void_d20.engine import RULESET


def _card(ship, view):
    return render_to_string("void_d20/encounter.html#ship-card", {"ship": ship, "view": view})


def test_the_ship_card_reads_in_words_for_the_gm():
    state = RULESET.setup(RULESET.example_setup(1))
    view = RULESET.view(state, Viewer.gm())
    html = _card(view["ships"][1], view)
    assert "Mara Voss" in html and "HP 9 of 9" in html and "Plasma carbine (d10)" in html
    assert not re.search(r"\[\'|\{\'|actor=|\bs[12]\b(?!\")", html.replace('id="card-s2"', ""))
    board = render_to_string("void_d20/encounter.html#board", {"view": view})
    assert "Before the first round" in board and "Round 0" not in board


def test_a_player_sees_own_crew_in_full_and_the_enemy_by_ship_and_position_only():
    state = RULESET.setup(RULESET.example_setup(0))
    viewer = Viewer.player({"s1"})
    text = json.dumps(RULESET.view(state, viewer), default=render)
    assert all(secret not in text for secret in RULESET.secrets(state, viewer))
    grinder = RULESET.view(state, viewer)["ships"][1]
    assert "frame" not in grinder and all("hp" not in p for p in grinder["people"])
    assert [p["name"] for p in grinder["people"]] == ["Grinder's pilot", "Grinder's gunner", "Grinder's captain",
                                                      "Grinder's marine 1", "Grinder's marine 2", "Grinder's marine 3"]
    assert {"Skarn", "Vex", "Raider boss", "Scrapper 2"} <= set(RULESET.secrets(state, viewer))
    assert "Jun Okafor" in text


def test_the_card_counts_the_rounds_of_shock_for_the_gm_and_the_players():
    """Таблица смерти в космосе (VD-26, decision "Timers"): a character in shock reads "no actions:
    2 rounds left" on the GM's card and on the card their players see."""
    from rulesets.core.dice import scripted
    from rulesets.core.engine import Action

    from .helpers import aboard_state, char, foe

    state = aboard_state(foe(attack=5), char(aboard="s2", hp=2, max_hp=8))
    state = RULESET.apply(state, Action.make("attack", "r1", target="ann"), scripted(15, 5, 6, 12)).state
    for viewer in (Viewer.gm(), Viewer.player({"s1"})):
        view = RULESET.view(state, viewer)
        [ann] = [p for s in view["ships"] for p in s["people"] if p["id"] == "ann"]
        assert (ann["status"], ann["timer"], ann["timer_text"]) == ("in shock", 2, "no actions: 2 rounds left")
        assert "in shock (no actions: 2 rounds left)" in " ".join(_card(view["ships"][1], view).split())
