"""Countermeasures and the dodge: 2.1.5 Der Ausweichwurf."""
from __future__ import annotations

from rulesets.core.messages import english
from rulesets.wing_commander import checks

from .helpers import GUNS, MISSILE, RULESET, TORPEDO, fight, kinds, npc, pilot, ship, step, text


def defender(**kw):
    kw.setdefault("shields", 20)
    return ship("a", "blue", cls="heavy", **kw)  # heavy: the medium NPC moves first


def test_a_countermeasure_first_chaff_against_missiles_success_cancels():
    """WC-26 (2.1.5: "zuerst eine Abwehrmaßnahme (Düppel gegen Raketen, Minen gegen Geschützangriffe)")."""
    state = fight(defender(chaff=2, chaff_mv=1), npc("b", weapons=(GUNS, MISSILE)))
    state, _, _ = step(state, "attack actor=b target=a weapon=w2")  # the NPC's missile: 11 + 1 = 12
    assert "countermeasure" in kinds(state)
    state, log, rolls = step(state, "countermeasure actor=a", 5, 6)  # 5+6+1 = 12
    assert "The chaff works" in text(log)
    assert state.ship("a").chaff == 1 and state.ship("a").shields == 20
    assert state.acting.id == "b" and state.phase == "after"  # b's turn, its attack settled (2.1.3)
    state, _, _ = step(state, "end actor=b")
    assert state.acting.id == "a" and state.phase == "act"


def test_mines_against_guns_nothing_against_torpedoes():
    """WC-26 (2.1.5): mines against gun attacks; a torpedo meets no countermeasure."""
    state = fight(defender(mines=1, chaff=1), npc("b", weapons=(GUNS, TORPEDO)))
    guns, _, _ = step(state, "attack actor=b target=a weapon=w1")
    assert "countermeasure" in kinds(guns)
    counter = next(a for a in RULESET.legal_actions(guns) if a.kind == "countermeasure")
    assert "drops mines" in english(RULESET.describe(guns, counter))
    assert checks.countermeasure_kind(state.ship("b").weapon("w2")) is None  # the torpedo
    _, log, _ = step(guns, "countermeasure actor=a", 1, 1)  # 2: a mine fails (one is spent whatever)
    assert "The mine fails (2 vs 12); A may still dodge." in text(log)  # one mine: not "the mines fails"


def test_after_a_failed_countermeasure_or_with_none_left_the_dodge_remains():
    """WC-27 (2.1.5: "Hat der Charakter keine Abwehrmittel mehr, schlägt der Abwehrversuch fehl ...,
    hat er immer noch die Möglichkeit, diesem Angriff auszuweichen")."""
    state = fight(defender(chaff=1), npc("b", weapons=(GUNS, MISSILE)))
    state, _, _ = step(state, "attack actor=b target=a weapon=w2")
    state, log, _ = step(state, "countermeasure actor=a", 1, 2)
    assert "may still dodge" in text(log)
    assert kinds(state) == {"dodge", "eject", "override"}
    empty = fight(defender(chaff=0), npc("b", weapons=(GUNS, MISSILE)))
    empty, _, _ = step(empty, "attack actor=b target=a weapon=w2")
    assert "countermeasure" not in kinds(empty)


def test_the_dodge_is_against_the_attackers_tw_or_the_gms_roll():
    """WC-28 (2.1.5: "Der Angriff des Gegners wird ... durch den jeweiligen TW des Angreifers repräsentiert,
    der Spielleiter kann jedoch alternativ auch würfeln"): an NPC the GM rolls for makes an attack roll,
    and the dodge must reach its total."""
    state = fight(defender(), npc("b", tw=12))
    tw_mode, log, rolls = step(state, "attack actor=b target=a weapon=w1")
    assert rolls == [] and tw_mode.pending[0].value == 12
    rolled = fight(defender(), ship("b", "red", tw=12, crew=[pilot("GM's ace", "npc_rolled")]))
    rolled, _, rolls = step(rolled, "attack actor=b target=a weapon=w1", 7, 8)
    assert rolled.pending[0].value == 15
    rolled, log, _ = step(rolled, "dodge actor=a", 6, 7, 2, 2)  # 13 < 15: hit for 4
    assert rolled.ship("a").shields == 16


def test_the_dodge_takes_ship_mv_skills_and_component_damage():
    """WC-29 (2.1.5 a-e): ship MV against gun attacks, skills, advantages, component damage."""
    state = fight(defender(mv=2, damage={"thrusters_damaged": 1}, crew=[pilot("D", skills={"Evasive": ["dodge", 1]})]), npc("b"))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")
    state, log, rolls = step(state, "dodge actor=a", 5, 5)
    assert set(rolls[0].modifiers) == {("ship MV", 2), ("damaged thrusters", -1), ("Evasive", 1)}
    assert rolls[0].total == 12 and "dodges" in text(log)


def test_against_a_missile_the_tw_is_11_plus_its_mv_and_missile_man_counts():
    """WC-30 (2.1.5 d: "Beim Ausweichen gegen Raketen wird als Gegner-TW 11 +/- MV der Rakete angesetzt.
    Zusätzliche Fähigkeiten (z.B. Missile Man) kann der SL zusätzlich hinzufügen")."""
    state = fight(defender(mv=3, crew=[pilot("D", skills={"Missile Man": ["dodge_missiles", 2]})]),
                  npc("b", tw=16, weapons=(GUNS, MISSILE)))
    state, _, _ = step(state, "attack actor=b target=a weapon=w2")
    assert state.pending[0].value == 12
    _, _, rolls = step(state, "dodge actor=a", 5, 5)
    assert rolls[0].modifiers == (("Missile Man", 2),)  # no ship MV against a missile


def test_a_dodge_that_reaches_the_value_escapes_otherwise_damage_is_rolled():
    """WC-31 (2.1.5: "Erreicht oder übertrifft der Ausweichwurf den TW des Angreifers, ist der Angriff
    fehlgeschlagen, andernfalls folgt der Schadenswurf")."""
    state = fight(defender(), npc("b", tw=12))
    state, _, _ = step(state, "attack actor=b target=a weapon=w1")
    escaped, log, rolls = step(state, "dodge actor=a", 6, 6)
    assert escaped.ship("a").shields == 20 and len(rolls) == 1
    hit, log, rolls = step(state, "dodge actor=a", 5, 6, 3, 3)
    assert hit.ship("a").shields == 14 and "11 does not reach 12" in text(log)
