"""Il turno, Azioni minori/significative, Attacco, Reazioni, Schivare, difficulty by band."""
import pytest

from rulesets.cepheus import tables
from rulesets.core.engine import IllegalAction
from rulesets.core.messages import english

from .helpers import act, crew, duel, edit_ship, kinds, legal, setup, ship, start, text

GUNNER = crew("g", "turret_gunner", "turret-1", gunnery=1)


def test_attack_difficulty_table_by_weapon_and_band():
    """Tabella: Difficoltà di Attacco: every weapon's row; blank cells cannot fire (notes)."""
    row = lambda w: [tables.ATTACK_DIFFICULTY[w][b] for b in tables.BANDS]
    D, VD, A, R = "difficult", "very_difficult", "average", "routine"
    assert row("pulse_laser") == [D, D, A, D, D, VD, None]
    assert row("beam_laser") == [D, D, D, A, D, D, D]
    assert row("particle_beam") == [VD, D, D, D, A, D, D]
    assert row("fusion_gun") == [D, D, D, A, D, D, D]
    assert row("meson_gun") == [VD, VD, D, D, A, D, D]
    assert row("sandcaster") == [R, A, D, None, None, None, None]


def test_a_hit_rolls_2d6_plus_gunnery_and_range_difficulty_and_damage_comes_at_the_end_of_the_turn():
    """Attacco: Gunnery + difficulty by range; damage resolved after all the ship's attacks."""
    s = duel([GUNNER], [crew("t", "passenger")], range="medium")   # pulse laser at Medium: Difficult (-2)
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 4, 5, 3, 3, 2, 2, 3, 5)
    # 4+5+1-2 = 8 hits; damage 3+3 = 6: two single hits, locations 4 (M-drive) and 8 (Hull)
    roll = step.dice.rolls[0]
    assert roll.total == 8 and ("Difficult (-2) at Medium", -2) in roll.modifiers
    b = step.state.ship("b")
    assert b.hits["m_drive"] == 1 and b.hull == 3


def test_damage_waits_until_every_attack_of_the_ship_is_made():
    """Attacco: 'Il danno viene risolto dopo che tutti gli attacchi sono stati effettuati nel turno di una nave'."""
    two = [{"weapons": [{"type": "pulse_laser"}]}, {"weapons": [{"type": "pulse_laser"}]}]
    s = duel([GUNNER, crew("g2", "turret_gunner", "turret-2", gunnery=1)], [crew("t", "passenger")], a_stats={"turrets": two})
    s1 = act(s, "attack actor=g mount=t1 target=b weapon=0", 6, 6).state
    assert s1.ship("b").hull == 4 and len(s1.hits) == 1
    s2 = act(s1, "attack actor=g2 mount=t2 target=b weapon=0", 1, 1, 1, 1, 1, 1).state  # miss; then damage 2: one hit on row 2
    assert s2.hits == [] and s2.ship("b").hull == 3


def test_each_turret_fires_only_once_per_round():
    """Attacco: each turret or bay can fire only once per round."""
    s = duel([GUNNER, crew("g2", "turret_gunner")], [crew("t", "passenger")])
    s1 = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1).state
    assert s1.ship("a").fired == ["t1"]
    assert not legal(s1, "attack")


def test_a_crew_member_takes_one_significant_action_then_the_turn_moves_on():
    """Il turno: one minor and one significant action each; after the significant, the next crew member."""
    s = duel([crew("cap", "captain", leadership=0), GUNNER], [crew("t", "passenger")])
    assert english(s.active).endswith("CAP")
    s1 = act(s, "increase_initiative actor=cap", 1, 1).state
    assert english(s1.active).endswith("G")


def test_three_minor_actions_instead_of_the_significant_one():
    """Azioni minori: up to three minor actions, at the cost of the significant action."""
    s = duel([GUNNER, crew("x", "passenger")], [crew("t", "passenger")])
    s = act(s, "personal actor=g").state
    assert "attack" in kinds(s)           # one minor and the significant still there
    s = act(s, "personal actor=g").state
    assert "attack" not in kinds(s)       # the second minor costs the significant
    s = act(s, "personal actor=g").state
    assert english(s.active).endswith("X")         # three minors: the turn moves on


def test_hasty_crew_gets_an_extra_minor_and_dm_minus_1_house_rule():
    """RULES-NOTES house rule: hasty crews take one extra minor action and DM-1 to every check."""
    s = duel([crew("cap", "captain"), GUNNER], [crew("t", "passenger")], hasty=True)
    s = act(s, "hasty actor=cap").state
    assert s.ship("a").hasty and s.minor == 2
    s = act(s, "misc actor=cap").state
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 3, 3)
    assert ("acting hastily (house rule)", -1) in step.dice.rolls[0].modifiers


def test_hasty_can_be_switched_off_as_an_encounter_option():
    s = duel([crew("cap", "captain")], [], hasty=False)
    assert "hasty" not in kinds(s)


def test_hasty_crews_are_off_unless_the_gm_turns_the_house_rule_on():
    """Issue 27: a by-the-book game starts by the book: the house rule is offered only when asked for."""
    assert "hasty" not in kinds(duel([crew("cap", "captain")], []))
    assert "hasty" in kinds(duel([crew("cap", "captain")], [], hasty=True))


def test_the_target_reacts_before_the_attack_roll_and_no_reaction_is_always_legal():
    """Reazioni: a beam attack lets the defending side react; 'no reaction' is always offered."""
    s = duel([GUNNER], [crew("p", "pilot", pilot=1)])
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    assert s.phase == "react" and s.active == "B — reactions"
    assert {"no_reaction", "dodge"} <= kinds(s)


def test_dodge_gives_the_attack_dm_minus_2():
    """Schivare il fuoco in arrivo: a Pilot check; success gives the attack DM-2."""
    s = duel([GUNNER], [crew("p", "pilot", pilot=1)])
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    s = act(s, "dodge actor=p", 4, 3).state         # 7 + 1 = 8: dodged
    assert s.pending.dodge == -2 and s.ship("b").reactions == 0
    step = act(s, "no_reaction actor=b", 4, 4)      # 8 + 1 - 2 = 7: miss
    assert "misses" in text(step)


def test_reactions_run_out():
    """Tabella: Reazioni per Iniziativa: a ship with initiative 2 reacts once a round."""
    two = [{"weapons": [{"type": "pulse_laser"}]}, {"weapons": [{"type": "pulse_laser"}]}]
    s = duel([GUNNER, crew("g2", "turret_gunner", "turret-2", gunnery=1)], [crew("p", "pilot", pilot=1)],
             a_stats={"turrets": two})
    s = act(s, "attack actor=g mount=t1 target=b weapon=0").state
    s = act(s, "dodge actor=p", 1, 1).state
    s = act(s, "no_reaction actor=b", 1, 1).state
    s = act(s, "attack actor=g2 mount=t2 target=b weapon=0", 1, 1, check_all_used=False).state
    assert s.phase != "react"


def test_pulse_laser_cannot_fire_at_distant():
    """RULES-NOTES: a blank cell means the weapon cannot fire at that band."""
    s = duel([GUNNER], [], range="distant")
    assert legal(s, "attack") == []


def test_sandcaster_as_a_weapon_reaches_close_and_does_one_point():
    """Regole per Armi Speciali: a sandcaster attack (Close range) deals 1 damage."""
    sand = [{"weapons": [{"type": "sandcaster", "ammo": 3}]}]
    s = duel([GUNNER], [crew("t", "passenger")], a_stats={"turrets": sand}, range="close")
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 6, 6, 1, 1)  # hit; 1 damage: one hit, row 2 hull
    assert step.state.ship("b").hull == 3
    assert step.state.ship("a").mount("t1").weapons[0].loaded == 2


def test_an_illegal_action_is_refused():
    s = duel([GUNNER], [])
    with pytest.raises(IllegalAction):
        act(s, "attack actor=g mount=t1 target=a weapon=0")


def test_a_damaged_turret_attacks_at_dm_minus_2():
    """Torretta, first hit: the turret can still fire, with DM-2."""
    s = duel([GUNNER], [crew("t", "passenger")])
    a = s.ship("a")
    from dataclasses import replace
    s = edit_ship(s, "a", mounts=[replace(a.mounts[0], hits=1)])
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1)
    assert ("damaged mount", -2) in step.dice.rolls[0].modifiers


def test_a_disabled_bridge_gives_attacks_dm_minus_2():
    """Ponte, second hit: any attack takes DM-2."""
    s = edit_ship(duel([GUNNER], [crew("t", "passenger")]), "a", hits={"bridge": 2})
    step = act(s, "attack actor=g mount=t1 target=b weapon=0", 1, 1)
    assert ("bridge disabled", -2) in step.dice.rolls[0].modifiers


def test_the_fight_ends_as_a_draw_after_max_rounds():
    """Option max_rounds: after the limit the fight is a draw."""
    s = duel([crew("p", "pilot")], [crew("q", "pilot")], max_rounds=1)
    s = act(s, "end_turn actor=p").state
    s = act(s, "end_turn actor=q").state
    assert s.over and s.winner is None


def test_destroying_the_last_enemy_ends_the_fight_with_a_winner():
    s = duel([GUNNER], [crew("t", "passenger")], d_stats={"tonnage": 50})
    # 12 damage: a Double Hit on row 2: Hull 1 -> 0, then the Internal row 2: Structure 1 -> 0
    s = act(s, "attack actor=g mount=t1 target=b weapon=0", 6, 6, 6, 6, 1, 1).state
    assert s.over and s.winner == "blue"


def test_the_attack_roll_is_one_core_check_and_the_gms_dm_is_the_core_gm_modifier():
    """Attacco: 2D6 + Gunnery + the difficulty at the band + DMs against 8, rolled as the core
    Check (issue 23): the GM's circumstance DM is one core modifier, labelled "GM"."""
    s = duel([GUNNER], [crew("t", "passenger")], range="medium")   # pulse laser at Medium: Difficult (-2)
    step = act(s, "attack actor=g mount=t1 target=b weapon=0 dm=-1", 5, 5, 3, 3, 2, 2, 3, 5)
    roll = step.dice.rolls[0]
    assert roll.expression == "2D6" and roll.target == 8
    # 5+5 +1 (Gunnery) -2 (Difficult at Medium) -1 (GM) = 8: a hit, Effect 0
    assert roll.modifiers == (("Gunnery", 1), ("Difficult (-2) at Medium", -2), ("GM", -1))
    assert roll.total == 8 and step.state.ship("b").hits["m_drive"] == 1


def test_a_task_checks_odds_are_the_core_checks_chances():
    """Prove di abilità: the odds count the same core Check the roll rolls (2D6 + DMs >= 8)."""
    from rulesets.cepheus import odds
    from rulesets.cepheus.checks import task_check
    from rulesets.core import check as core

    s = duel([GUNNER], [crew("t", "passenger")], range="medium")
    a = s.ship("a")
    gunner = a.member("g")
    check = task_check(a, gunner, "gunnery_turret", "dex", "average", [("target dodges", -2)] + list(core.circumstance(1)))
    assert check.throw == core.Throw(2, 6) and check.target == 8
    assert ("GM", 1) in check.named() and ("target dodges", -2) in check.named()
    assert core.chances(check)[core.SUCCESS] == odds.p_at_least(check.bonus)


@pytest.mark.parametrize("hasty, point, extra", [
    (False, 0, []),
    (True, 2, [("target dodges", -2)]),
    (False, 1, [("lined up", 1), ("GM", -3)]),
])
def test_a_playout_check_draws_the_same_dice_and_makes_the_same_effect_as_the_recorded_one(hasty, point, extra):
    """Prove di abilità (RULES-NOTES: 2D6 + skill + characteristic DM + difficulty DM >= 8): a playout
    (nothing recorded) runs the same core Check as a recorded step: the same two dice, the same Effect,
    the Captain's coordination point spent (Coordinare Equipaggio); only the record differs."""
    from rulesets.cepheus.checks import roll_check
    from rulesets.cepheus.state import Tx
    from rulesets.core.dice import Dice, ScriptedSource

    s = duel([GUNNER], [crew("t", "passenger")], range="medium")
    a = s.ship("a")
    a.hasty = hasty
    a.bonus = {"g": point} if point else {}
    effects = []
    for recording in (True, False):
        dice = Dice(ScriptedSource([5, 3]), recording=recording)
        tx = Tx(s, dice)
        result, effect = roll_check(tx, tx.s.ship("a"), a.member("g"), "gunnery_turret", "dex", "difficult",
                                    "fire", tables.SEC_ATTACK, extra=extra)
        assert "g" not in tx.s.ship("a").bonus
        assert result.faces == (5, 3) and result.effect == effect
        assert len(dice.rolls) == len(dice.dice) // 2 == int(recording)
        effects.append(effect)
    assert effects[0] == effects[1] == 5 + 3 + 1 - 2 - hasty + point + sum(v for _, v in extra) - 8
