"""The turn: 2.1.3 Der Spielzug (Rundenmodus)."""
from __future__ import annotations

import random

from rulesets.core.messages import english
from rulesets.core.engine import Action, Viewer
from rulesets.wing_commander import turn
from rulesets.wing_commander.engine import RULESET

from .helpers import GUNS, MISSILE, TORPEDO, TURRET, actions, fight, kinds, npc, ship, step, text, with_ship


def test_one_main_action_per_turn():
    """WC-08 (2.1.3: "darf er eine Aktion für diese Runde ausführen"): after its action the turn passes on;
    the next list offers only the next ship's actions."""
    state = fight(ship("a", "blue", mv=1), npc("b", shields=20))
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 2, 3)  # 2+3+1 = 6 misses TW 12
    assert actions(state) == ["end actor=a", "eject actor=a", "override"]  # no second main action
    state, _, _ = step(state, "end actor=a")
    assert state.acting.id == "b"
    assert all(a.endswith("actor=b") or " actor=b " in a or a == "override" for a in actions(state))


def test_attack_with_guns_or_a_missile_and_the_turret_joins_without_ship_mv():
    """WC-09 (2.1.3 Einen Angriff auf einen Gegner ausführen; 2.1.4: turrets ignore the ship's MV): guns
    or one missile, and a turret may fire in the same action: a second roll without the ship's MV."""
    state = fight(ship("a", "blue", mv=3, weapons=(GUNS, TURRET, MISSILE)), npc("b", tw=12, shields=20))
    offered = actions(state)
    assert "attack actor=a target=b weapon=w1" in offered
    assert "attack actor=a target=b turret=w2 weapon=w1" in offered
    assert "attack actor=a target=b weapon=w3" in offered
    # guns 4+5+3 = 12 hit (damage 2+2); turret 4+5 = 9 vs 12 misses
    state, log, rolls = step(state, "attack actor=a target=b weapon=w1 turret=w2", 4, 5, 2, 2, 4, 5)
    attack_rolls = [r for r in rolls if "attacks" in english(r.purpose)]
    assert [r.total for r in attack_rolls] == [12, 9]
    assert ("ship MV", 3) in attack_rolls[0].modifiers
    assert all(name != "ship MV" for name, _ in attack_rolls[1].modifiers)
    assert state.ship("b").shields == 16


def test_the_turret_joins_a_missile_attack_as_well():
    """WC-09 (2.1.3 Einen Angriff auf einen Gegner ausführen: "Besitzt das Schiff noch einen Geschützturm, kann
    dieser in der Aktion zusätzlich eingesetzt werden"): the turret joins the action whether it is a gun
    attack or a missile attack; the button says so and its odds name the turret's own roll."""
    state = fight(ship("a", "blue", mv=3, weapons=(GUNS, TURRET, MISSILE)), npc("b", tw=12, shields=20))
    action = "attack actor=a target=b turret=w2 weapon=w3"
    assert action in actions(state)
    assert RULESET.describe(state, Action.parse(action)) == "A fires Dart at B, with the Turret"
    found = RULESET.odds(state, Action.parse(action))
    assert "Turret joins: hit 45% (critical 3%), 1d6" in english(found.detail) and english(found.summary).startswith("hit ")
    # the missile 5+5 + 1 (its MV) = 11 misses TW 12 and is lost; the turret 6+6 = 12 hits for 4
    state, log, rolls = step(state, action, 5, 5, 6, 6, 4)
    attack_rolls = [r for r in rolls if "attacks" in english(r.purpose)]
    assert [(r.purpose, r.total) for r in attack_rolls] == [("A attacks B with Dart", 11), ("A attacks B with Turret", 12)]
    assert "The missile is lost" in text(log)
    assert state.ship("a").weapon("w3").stock == 1
    assert state.ship("b").shields == 16


def test_a_torpedo_fires_at_a_soft_target_only():
    """WC-10 (2.1.3 Einen Torpedo auf ein weiches Ziel abfeuern): a capital ship without phase shields
    is a soft target and takes a torpedo straight away; fighters take none."""
    state = fight(ship("bomber", "blue", cls="bomber", weapons=(GUNS, TORPEDO)),
                  npc("destroyer", cls="capital", tw=6, shields=10, hull=50), npc("fighter"))
    state, _, _ = step(state, "pass actor=fighter")  # a medium fighter moves before a bomber
    offered = actions(state)
    assert "torpedo actor=bomber target=destroyer weapon=w2" in offered
    assert not any(a.startswith("torpedo") and "target=fighter" in a for a in offered)
    # 3+3 + 2 (torpedo MV) = 8 vs TW 6: hit for 5+5 = 10 on the shields
    state, log, _ = step(state, "torpedo actor=bomber target=destroyer weapon=w2", 3, 3, 5, 5)
    assert state.ship("destroyer").shields == 0
    assert state.ship("bomber").weapon("w2").stock == 1


def test_locking_a_torpedo_on_a_hard_target_takes_a_round():
    """WC-11 (2.1.3 Einen Torpedo auf ein hartes Ziel ansagen): the torpedo deciphers the phase shields;
    that takes the round, so it cannot fire before the next round."""
    state = fight(ship("bomber", "blue", cls="bomber", weapons=(GUNS, TORPEDO)),
                  npc("cruiser", cls="capital", tw=6, shields=10, hull=50, phase_shields=True))
    assert "torpedo" not in kinds(state)
    state, log, _ = step(state, "lock actor=bomber target=cruiser weapon=w2")
    assert "deciphers" in text(log)
    assert state.ship("bomber").lock_target == "cruiser"
    assert state.acting.id == "cruiser"
    state, _, _ = step(state, "pass actor=cruiser")
    assert state.round == 2
    assert "torpedo actor=bomber target=cruiser weapon=w2" in actions(state)


def test_a_deciphered_torpedo_fires_at_the_hard_target():
    """WC-12 (2.1.3 Einen dechiffrierten Torpedo auf ein hartes Ziel abfeuern)."""
    state = fight(ship("bomber", "blue", cls="bomber", weapons=(GUNS, TORPEDO)),
                  npc("cruiser", cls="capital", tw=6, shields=10, hull=50, phase_shields=True))
    state, _, _ = step(state, "lock actor=bomber target=cruiser weapon=w2")
    state, _, _ = step(state, "pass actor=cruiser")
    # 2+2 + 2 = 6 vs TW 6 hits: 6+9 = 15 damage, 10 shields and 5 hull; first damage 9+9 = 18: none
    state, log, _ = step(state, "torpedo actor=bomber target=cruiser weapon=w2", 2, 2, 6, 9, 9, 9)
    assert state.ship("cruiser").hull == 45
    assert state.ship("bomber").lock_target == ""


def test_standing_aside_regenerates_three_shield_points_and_cannot_be_attacked():
    """WC-13 (2.1.3 Aussetzen und Schildenergie regenerieren)."""
    state = fight(ship("a", "blue", shields=10), npc("b"))
    state = with_ship(state, "a", shields=5)
    state, log, _ = step(state, "regenerate actor=a")
    assert state.ship("a").shields == 8
    assert not any("target=a" in a for a in actions(state))
    state, _, _ = step(state, "pass actor=b")
    assert not state.ship("a").standing_aside  # its round of standing aside is over at its next turn


def test_standing_aside_is_offered_with_full_shields_or_a_destroyed_generator():
    """WC-13 (2.1.3 Aussetzen und Schildenergie regenerieren: "Der Charakter zieht sich für eine Runde aus dem
    Kampfgeschehen zurück und regeneriert 3 Schildpunkte. Während der Regeneration kann er nicht angegriffen
    werden"): withdrawing for a round is the action; full shields or a destroyed generator (2.1.8, 1-5) leave
    nothing to regenerate, and the pilot may still sit the round out (decision D17)."""
    state = fight(ship("a", "blue", shields=10), npc("b"))
    assert "regenerate actor=a" in actions(state)
    assert RULESET.describe(state, Action.parse("regenerate actor=a")) == \
        "A stands aside for a round (shields full: no regeneration)"
    after, log, _ = step(state, "regenerate actor=a")
    assert after.ship("a").shields == 10 and after.ship("a").standing_aside
    assert "stands aside with its shields full (10); it cannot be attacked until its next turn" in text(log)
    assert not any("target=a" in a for a in actions(after))
    # two short of full: it regains 2, not 3
    short = with_ship(state, "a", shields=8)
    assert RULESET.describe(short, Action.parse("regenerate actor=a")) == "A stands aside to regenerate 2 shield points"
    assert step(short, "regenerate actor=a")[0].ship("a").shields == 10
    # the generator destroyed: still offered, nothing regained, out of the fight for the round
    broken = with_ship(state, "a", shields=4, shield_generator=False)
    assert "regenerate actor=a" in actions(broken)
    after, _, _ = step(broken, "regenerate actor=a")
    assert after.ship("a").shields == 4 and not any("target=a" in a for a in actions(after))


def test_a_cloak_takes_a_full_round_to_activate():
    """WC-14 (2.1.3 Eine eingebaute Tarnvorrichtung aktivieren): a full round; once on, the ship cannot be
    attacked (decision) until it attacks, which drops the cloak."""
    state = fight(ship("a", "blue", cloak=True), npc("b", shields=20))
    state, _, _ = step(state, "cloak actor=a")
    assert state.ship("a").cloak == "activating"
    assert any("target=a" in a for a in actions(state))  # still visible during the round
    state, _, _ = step(state, "pass actor=b")
    assert state.ship("a").cloak == "on"
    state, _, _ = step(state, "pass actor=a")
    assert not any("target=a" in a for a in actions(state))
    state, _, _ = step(state, "pass actor=b")
    state, log, _ = step(state, "attack actor=a target=b weapon=w1", 2, 3)  # 5 misses TW 12
    assert state.ship("a").cloak == ""
    assert "drops its cloak" in text(log)


def test_minor_activities_take_no_action():
    """WC-15 (2.1.3 Nebentätigkeiten): scanning, radio, abilities and steering are not actions: the engine
    offers main actions only (the GM narrates the rest)."""
    state = fight(ship("a", "blue", weapons=(GUNS, MISSILE), cloak=True, shields=10), npc("b"))
    assert kinds(state) <= set(turn.TURN_KINDS) | {"override"}


def test_ejecting_in_ones_own_turn_or_instead_of_a_dodge():
    """WC-16 (2.1.3: "Aussteigen ist im eigenen Spielzug jederzeit, im Feindzug anstelle eines
    Ausweichswurfes, möglich")."""
    state = fight(ship("a", "blue"), npc("b"), ship("c", "blue"))
    state, log, _ = step(state, "eject actor=a")
    assert state.ship("a").status == "ejected" and "ejects" in text(log)
    # b (an NPC, TW 12) attacks c: c ejects instead of dodging; no dice
    state, _, _ = step(state, "attack actor=b target=c weapon=w1")
    assert "eject" in kinds(state)
    state, log, _ = step(state, "eject actor=c")
    assert state.ship("c").status == "ejected"
    assert state.over and state.winner == "red"


def test_ejecting_after_the_turns_attack():
    """WC-16 (2.1.3: "Aussteigen ist im eigenen Spielzug jederzeit ... möglich"): the turn does not end with the
    attack: once it is settled (the target's dodge, the damage) the pilot may still bail out, or end the turn;
    no second main action. The bot ends its turn."""
    state = fight(ship("a", "blue"), ship("b", "red", shields=20), ship("c", "blue"))
    # a's guns 6+6 = 12; b, a character, dodges 2+3 = 5 and fails: 3+3 on its shields
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 6, 6)
    assert state.phase == "defend"
    state, _, _ = step(state, "dodge actor=b", 2, 3, 3, 3)
    assert state.phase == "after" and state.acting.id == "a" and state.active == "A"
    assert actions(state) == ["end actor=a", "eject actor=a", "override"]
    assert RULESET.describe(state, Action.parse("eject actor=a")) == "a-pilot ejects from A after the attack"
    assert RULESET.describe(state, Action.parse("end actor=a")) == "A ends its turn"
    assert RULESET.policy(state, random.Random(0)).to_str() == "end actor=a"
    assert RULESET.view(state, Viewer.gm())["phase"] == "after-attack"
    state, log, _ = step(state, "eject actor=a")
    assert state.ship("a").status == "ejected" and "a-pilot ejects from A" in text(log)
    assert state.ship("b").shields == 14
    assert state.acting.id == "b" and state.phase == "act"
    # a kill that ends the fight leaves nothing to decide
    state = fight(ship("a", "blue"), npc("b", hull=2))
    state, _, _ = step(state, "attack actor=a target=b weapon=w1", 6, 6, 1, 1)
    assert state.over and state.winner == "blue"
