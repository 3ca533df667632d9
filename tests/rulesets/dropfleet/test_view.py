"""The board's chosen weapon (issue 11: "weapon arcs and the reach (Scan + Signature, spikes
included) of the chosen weapon"; decision D20 in docs/rulesets/dropfleet.md)."""
from rulesets.core.engine import Viewer
from rulesets.core.messages import english
from rulesets.dropfleet.engine import RULESET

from .helpers import attacker, ship, state, step, weapon

GUNS = (weapon(id="g", arc="F"), weapon(id="h", name="Flak", arc="A", close_action=True))


def test_each_fire_button_has_its_weapons_arc_and_reach_scan_plus_the_targets_signature():
    """RULES-NOTES DF-N01 (reach: Scan + the target's Signature with spikes; Close Action: Scan
    alone): one chosen-weapon drawing per fire button, keyed by the button's action."""
    st = state(attacker(y=10, scan=12, weapons=GUNS, order="weapons_free"), ship(spike=2, signature=6))
    view = RULESET.view(st, Viewer.gm())
    actions = {a.to_str() for a in RULESET.legal_actions(st) if a.kind == "fire"}
    chosen = {c["action"]: c for c in view["chosen"]}
    assert set(chosen) == actions == {"fire actor=a target=t weapon=g", "fire actor=a target=t weapon=h"}
    assert chosen["fire actor=a target=t weapon=g"]["reach"] == 12 + 6 + 12  # a Major spike adds 12"
    assert chosen["fire actor=a target=t weapon=h"]["reach"] == 12  # Close Action: Scan alone
    assert chosen["fire actor=a target=t weapon=g"]["path"].startswith("M 0.0 100.0 L")  # drawn from the attacker
    assert not any(c["default"] for c in view["chosen"])  # nothing declared: no weapon shown by default


def test_the_weapon_about_to_fire_is_shown_by_default_and_hidden_from_the_other_side():
    """The last declared weapon system is the one shown without pointing at a button; a
    declaration is the other side's hidden choice, so their players see no chosen weapon."""
    st = state(attacker(weapons=GUNS, order="weapons_free"), ship())
    st = step(st, "fire actor=a weapon=g target=t").state
    default = RULESET.view(st, Viewer.gm())["chosen_default"]
    assert (default["ship"], default["weapon"], default["target"]) == ("a", "g", "t")
    assert "front arc" in english(default["text"])
    assert RULESET.view(st, Viewer.player({"a"}))["chosen_default"]["weapon"] == "g"
    enemy = RULESET.view(st, Viewer.player({"t"}))
    assert enemy["chosen"] == [] and enemy["chosen_default"] is None


def test_a_reach_that_runs_off_the_table_is_labelled_on_the_table():
    """The label naming the weapon and its reach sits at the far end of the arc; a reach past the
    table's edge (a Major spike: 30") keeps its label inside the table, where a GM can read it."""
    st = state(attacker(y=10, scan=12, weapons=GUNS, order="weapons_free"), ship(spike=2, signature=6))
    view = RULESET.view(st, Viewer.gm())
    for chosen in view["chosen"]:
        assert 0 < chosen["lx"] < view["px_width"] and 0 < chosen["ly"] < view["px_height"], chosen
