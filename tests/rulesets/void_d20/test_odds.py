"""The odds shown on each action agree with an independent enumeration of the faces."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rulesets.core.engine import Action
from rulesets.core.messages import english
from rulesets.void_d20 import odds as void_odds
from rulesets.void_d20.engine import RULESET

from .helpers import aboard_state, char, foe, shield, space_state, vessel


def _enumerate_attack(bonus: int, dr: int, void: bool):
    """(P(hit, not critical), P(critical)) by listing every face (every pair with a Void Point)."""
    hits = crits = 0
    rolls = list(product(range(1, 21), repeat=2 if void else 1))
    for faces in rolls:
        natural = max(faces)
        if natural == 20:
            crits += 1
        elif natural != 1 and natural + bonus >= dr:
            hits += 1
    return Fraction(hits, len(rolls)), Fraction(crits, len(rolls))


@pytest.mark.parametrize("technology,dr,cover,void", [(2, 12, "none", False), (3, 13, "light", True),
                                                      (0, 25, "medium", False), (6, 5, "none", True)])
def test_attack_odds_agree_with_every_face(technology, dr, cover, void):
    """Броски атаки, Критические попадания, Укрытия и щиты, VD-N04: hit, critical and miss chances."""
    state = aboard_state(char(aboard="s2", technology=technology, void=1), foe(dr=dr, cover=cover))
    action = Action.make("attack", "ann", target="r1", void=1 if void else None)
    odds = RULESET.odds(state, action)
    bonus = {"none": 0, "light": 2, "medium": 4}[cover]
    hit, crit = _enumerate_attack(technology, dr + bonus, void)
    assert odds.probability("hit") == pytest.approx(float(hit))
    assert odds.probability("critical hit") == pytest.approx(float(crit))
    assert odds.probability("miss") == pytest.approx(float(1 - hit - crit))


def test_a_shield_and_the_void_point_figure_are_in_the_summary():
    """Укрытия и щиты (VD-16) and VD-N04: the shield's +2 counts; the chance with a Void Point is shown."""
    state = aboard_state(char(aboard="s2", technology=2, void=1), foe(dr=11, items=(shield(2),) + foe().items))
    odds = RULESET.odds(state, Action.make("attack", "ann", target="r1"))
    hit, crit = _enumerate_attack(2, 13, False)
    assert odds.probability("hit") + odds.probability("critical hit") == pytest.approx(float(hit + crit))
    with_void = sum(_enumerate_attack(2, 13, True))
    assert f"{float(with_void) * 100:.0f}% with a Void Point" in english(odds.summary)


def test_the_damage_distribution_agrees_with_every_face():
    """Броски атаки (VD-06) and VD-N03: a d8, and a risky attack's 2d8, listed face by face."""
    for count in (1, 2):
        dist = void_odds.damage_distribution(count, 8)
        listed = {}
        for faces in product(range(1, 9), repeat=count):
            listed[sum(faces)] = listed.get(sum(faces), 0) + Fraction(1, 8 ** count)
        assert dist == listed
    doubled = void_odds.damage_distribution(1, 6, doubled=True)
    assert doubled == {2 * f: Fraction(1, 6) for f in range(1, 7)}
    odds = RULESET.odds(aboard_state(char(aboard="s2", technology=2), foe()),
                        Action.make("risky", "ann", target="r1"))
    assert "damage 2-16" in english(odds.summary)


def test_escape_odds_count_the_faces_against_the_pursuers_speed():
    """Бегство and VD-N08: breaking away needs Agility + d20 >= the pursuer's Speed."""
    k = vessel("s1", "Kestrel", "crew")
    g = vessel("s2", "Grinder", "raiders", speed=15)
    state = space_state(k, g, people=(char("jun", "Jun", position="pilot", agility=3),
                                      char("sk", "Skarn", side="raiders", ship="s2")))
    odds = RULESET.odds(state, Action.make("break", "s1", target="s2"))
    assert odds.probability("opens one band") == pytest.approx(sum(1 for f in range(1, 21) if f + 3 >= 15) / 20)


def test_morale_odds_count_every_pair_of_d6():
    """Мораль and VD-N02: P(2d6 > morale)."""
    for morale in (2, 7, 9, 12):
        listed = Fraction(sum(1 for a, b in product(range(1, 7), repeat=2) if a + b > morale), 36)
        assert void_odds.morale_break_chance(morale) == listed
