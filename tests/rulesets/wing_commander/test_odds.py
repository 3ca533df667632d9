"""Exact odds before each roll, checked against an independent enumeration of every face."""
from __future__ import annotations

from fractions import Fraction
from itertools import product

import pytest

from rulesets.core.engine import Action
from rulesets.core.odds import percent
from rulesets.wing_commander import odds

from .helpers import GUNS, MISSILE, RULESET, fight, npc, pilot, ship, step

D10 = range(1, 11)


def two_d10():
    return [(a + b, Fraction(1, 100)) for a, b in product(D10, D10)]


def one_d20():
    return [(n, Fraction(1, 20)) for n in range(1, 21)]


def enumerate_attack(attack_rolls, bonus, tw=None, dodge_rolls=None, dodge_bonus=0):
    """Classify every face combination the way the text says: 19-20 critical, natural fumble fails
    (2-3 on 2W10, 1-3 on 1W20), otherwise against the TW or against the dodge."""
    out = {"fumble": Fraction(0), "miss": Fraction(0), "hit": Fraction(0), odds.HEAVY: Fraction(0),
           "critical hit": Fraction(0)}
    for natural, p in attack_rolls:
        if natural >= 19:
            out["critical hit"] += p
        elif natural <= 3:
            out["fumble"] += p
        elif dodge_rolls is None:
            out["hit" if natural + bonus >= tw else "miss"] += p
        else:
            for dodge, q in dodge_rolls:
                if dodge >= 19 or (dodge > 3 and dodge + dodge_bonus >= natural + bonus):
                    out["miss"] += p * q
                elif dodge <= 3:
                    out[odds.HEAVY] += p * q
                else:
                    out["hit"] += p * q
    return out


def engine_outcomes(state, text):
    """The outcomes' probabilities and the odds in words: the short line beside the button, and
    the rest (shown on demand under it) after a " | "."""
    found = RULESET.odds(state, Action.parse(text))
    assert abs(found.total - 1) < 1e-12
    return {o.label: o.probability for o in found.outcomes}, f"{found.summary} | {found.detail}"


def close(engine, exact):
    assert engine.keys() == exact.keys()
    for label, p in exact.items():
        assert engine[label] == pytest.approx(float(p), abs=1e-12), label


@pytest.mark.parametrize("mv, tw", [(0, 12), (2, 15), (-1, 8), (3, 25)])
def test_attack_against_an_npcs_tw(mv, tw):
    state = fight(ship("a", mv=mv, crew=[pilot("G", skills={"Gunnery": ["attack", 1]})]), npc("b", tw=tw, shields=20))
    found, summary = engine_outcomes(state, "attack actor=a target=b weapon=w1")
    close(found, enumerate_attack(two_d10(), mv + 1, tw))
    short, rest = summary.split(" | ")
    hits = found["hit"] + found["critical hit"] + found[odds.HEAVY]
    assert short == f"hit {percent(hits)}"  # the chance to hit beside the button, one short line
    assert "critical" in rest and "fumble" in rest and f"needs {tw} (B's TW)" in rest


def test_a_wild_card_attack_against_a_dodging_character():
    state = fight(ship("a", mv=1, crew=[pilot("Wild", wild_card=True)]),
                  ship("b", "red", mv=2, crew=[pilot("D", skills={"Evasive": ["dodge", 1]})]))
    found, summary = engine_outcomes(state, "attack actor=a target=b weapon=w1")
    close(found, enumerate_attack(one_d20(), 1, dodge_rolls=two_d10(), dodge_bonus=3))
    assert "B dodges the total" in summary.split(" | ")[1]


def test_an_npc_missile_against_a_character_shows_the_chaff_and_the_dodge():
    state = fight(ship("a", "blue", cls="heavy", chaff=2, chaff_mv=1), npc("b", weapons=(GUNS, MISSILE)))
    found, summary = engine_outcomes(state, "attack actor=b target=a weapon=w2")
    exact = {"fumble": Fraction(0), "miss": Fraction(0), "hit": Fraction(0), odds.HEAVY: Fraction(0),
             "critical hit": Fraction(0)}
    for dodge, q in two_d10():  # against 11 + 1 (the missile's MV); no ship MV against a missile
        if dodge >= 19 or (dodge > 3 and dodge >= 12):
            exact["miss"] += q
        elif dodge <= 3:
            exact[odds.HEAVY] += q
        else:
            exact["hit"] += q
    close(found, exact)
    stops = sum(q for total, q in two_d10() if total + 1 >= 12)
    short, rest = summary.split(" | ")
    assert short == f"hit {percent(exact['hit'] + exact[odds.HEAVY])} if it only dodges"
    assert f"chaff (2 left) stop it first {round(float(stops) * 100)}%" in rest


def test_the_damage_through_shields_to_hull_agrees_with_every_face():
    target = fight(ship("a"), npc("b", shields=5, hull=6)).ship("b")
    weapon = fight(ship("a", weapons=({"name": "L", "kind": "gun", "damage": "2d6+1"},)), npc("b")).ship("a").weapon("w1")
    for times in (1, 2):
        exact = {"shields only": Fraction(0), "hull": Fraction(0), "destroyed": Fraction(0)}
        for faces in product(range(1, 7), repeat=2 * times):
            amount = sum(faces) + times
            key = "destroyed" if amount >= 11 else "hull" if amount > 5 else "shields only"
            exact[key] += Fraction(1, 6 ** (2 * times))
        assert odds.through_shields(weapon, times, target) == exact


def test_the_dodge_odds_when_an_attack_comes():
    state = fight(ship("a", "blue", cls="heavy", mv=1, shields=20), npc("b", tw=13))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")
    found, summary = engine_outcomes(state, "dodge actor=a")
    exact = {"critical dodge": Fraction(0), "dodged": Fraction(0), "hit": Fraction(0), odds.HEAVY: Fraction(0)}
    for natural, q in two_d10():
        label = ("critical dodge" if natural >= 19 else odds.HEAVY if natural <= 3
                 else "dodged" if natural + 1 >= 13 else "hit")
        exact[label] += q
    close(found, exact)
    short, rest = summary.split(" | ")
    assert short.endswith("to dodge (needs 13)") and rest.startswith("critical ")
