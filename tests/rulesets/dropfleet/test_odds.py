"""Exact odds (odds.py) against an independent enumeration of every face the rules roll.

The enumeration runs the rules themselves (``open_fire``, then the bot's point-defence
choice when the defender is asked) on every sequence of faces, each weighted 1/sides per
die, and adds up the Hull lost: it shares no arithmetic with odds.py.
"""
from fractions import Fraction
from itertools import product

import pytest

from rulesets.core.dice import Dice, DiceSource
from rulesets.core.engine import Action
from rulesets.core.messages import english
from rulesets.dropfleet import damage as damage_rules
from rulesets.dropfleet import odds as odds_rules
from rulesets.dropfleet.engine import RULESET

from .helpers import attacker, get, ship, state, step, weapon


class _Need(Exception):
    def __init__(self, count, sides):
        self.count, self.sides = count, sides


class _Prefix(DiceSource):
    def __init__(self, faces):
        self._faces, self.pos = list(faces), 0

    def faces(self, count, sides, purpose="", rule=""):
        if self.pos + count > len(self._faces):
            raise _Need(count, sides)
        out = self._faces[self.pos:self.pos + count]
        self.pos += count
        return out


def enumerate_hull_lost(st, target_id="t"):
    """{Hull lost: probability} over every face sequence of the attack."""
    declared = st
    start_hull = get(st, target_id).hull
    out: dict[int, Fraction] = {}

    def run(prefix, weight):
        dice = Dice(_Prefix(prefix), recording=False)
        try:
            s = RULESET.apply(declared, Action.parse("open_fire actor=a"), dice).state
            while s.phase == "pd":
                s = RULESET.apply(s, RULESET.policy(s, None), dice).state
        except _Need as need:
            for faces in product(range(1, need.sides + 1), repeat=need.count):
                run(prefix + list(faces), weight / need.sides ** need.count)
            return
        lost = start_hull - get(s, target_id).hull
        out[lost] = out.get(lost, 0) + weight

    run([], Fraction(1))
    return out


def declared(att, tgt, weapon_id="g"):
    return step(state(att, tgt), f"fire actor=a weapon={weapon_id} target=t").state


CASES = {
    "variable damage, passive against criticals": (
        attacker(weapons=weapon(lock=4, attacks=1, damage="D3")), ship(armour=(5,), passive=4, start=30)),
    "close action against point defence, the defender's choice": (
        attacker(weapons=weapon(lock=3, attacks=2, close_action=True)), ship(armour=(4,), pd=2, start=30)),
    "particle, calibre H, across layers": (
        attacker(layer="low", weapons=weapon(lock=4, attacks=2, damage="2", particle=True, calibre="H")),
        ship(tonnage="H", armour=(3,), passive=3, start=30)),
    "launch assets, cracked armour, fixed damage 2": (
        attacker(weapons=weapon(lock=5, attacks=2, damage="2", launch=True)),
        ship(armour=(4,), pd=1, effects=["cracked_armour"], start=30)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_the_odds_agree_exactly_with_an_enumeration_of_faces(name):
    """Issue 11 (exact odds): the distribution of unsaved Hull damage, PD and saves included,
    equals the enumeration to the last digit (exact fractions)."""
    att, tgt = CASES[name]
    st = declared(att, tgt)
    expected = enumerate_hull_lost(st)
    s = damage_rules.shot(get(st, "a"), get(st, "a").profile.weapons[0], get(st, "t"))
    assert odds_rules.total_distribution(s) == expected
    assert sum(expected.values()) == 1


def test_the_chance_to_destroy_agrees_with_the_enumeration():
    """Issue 11: the chance to destroy shown on the fire button (a 3-Hull frigate: no crippling,
    no catastrophic roll) equals the enumerated one."""
    st = declared(attacker(weapons=weapon(lock=4, attacks=3)), ship(armour=(5,), start=3, hull=2))
    lost = enumerate_hull_lost(st)
    odds = odds_rules.fire_odds(get(st, "a"), get(st, "a").profile.weapons[0], get(st, "t"))
    p_destroy = sum(p for v, p in lost.items() if v >= 2)
    assert f"destroys {round(float(p_destroy) * 100):.0f}%" in english(odds.summary)
    assert abs(odds.total - 1) < 1e-12


def test_the_fire_button_shows_the_odds():
    """Issue 11: each fire action carries its odds: distribution, expected normal and critical, cripple and destroy."""
    spec = RULESET.example_setup(0)
    spec["options"]["separation"] = 12
    st = RULESET.setup(spec)
    st = step(st, "order actor=a order=weapons_free").state
    st = step(st, "move actor=a x=#24 y=#26").state
    fire_actions = [a for a in RULESET.legal_actions(st) if a.kind == "fire"]
    assert fire_actions
    odds = RULESET.odds(st, fire_actions[0])
    summary = english(odds.summary)
    assert "expected" in summary and "cripples" in summary and "destroys" in summary
    assert abs(odds.total - 1) < 1e-9


def test_chance_to_cripple_counts_from_the_next_threshold():
    """DF-21/DF-22 in the odds: the damage that makes a ship roll crippling next."""
    assert odds_rules.to_cripple(ship(start=10, hull=10)) == 5
    assert odds_rules.to_cripple(ship(start=10, hull=7)) == 2
    assert odds_rules.to_cripple(ship(start=3)) is None
    assert odds_rules.to_cripple(ship(start=24, hull=24, dreadnought=True)) == 6
