"""Void d20 personal combat, rule by rule, with scripted dice (seed: void-d20-combat.ru.txt).

Each test names the seed section (or RULES-NOTES void_d20) and the inventory number.
"""
from __future__ import annotations

from rulesets.core.engine import Action, Log
from rulesets.void_d20 import checks, personal, tables, timers, turns
from rulesets.void_d20.engine import RULESET
from rulesets.void_d20.model import Item

from .helpers import BLADE, PISTOL, RIFLE, SUIT, aboard_state, char, dice, foe, medkit, person, shield, used_up


def _texts(log):
    return " ".join(entry.text for entry in log)


# --- Боевой раунд -----------------------------------------------------------------------------


def test_each_participant_takes_one_turn_a_round_then_the_next_round_begins():
    """Боевой раунд (VD-01): one turn per participant per round; then a new round and its initiative."""
    state = aboard_state(char(aboard="s2"), foe())
    state = RULESET.apply(state, Action.make("end", "ann"), dice()).state
    assert state.active == "Raider" and state.round == 1
    d = dice(15)  # round 2: Ann's initiative
    state = RULESET.apply(state, Action.make("end", "r1"), d).state
    assert state.round == 2 and state.active == "Ann" and used_up(d)


def test_a_turn_is_two_moves_or_two_actions_or_one_of_each():
    """Боевой раунд (VD-02): a move plus an action, a double move or a double action: two slots, then the turn passes."""
    state = aboard_state(char(aboard="s2"), foe())
    state = RULESET.apply(state, Action.make("cover", "ann", level="light"), dice()).state
    assert state.active == "Ann"
    state = RULESET.apply(state, Action.make("cover", "ann", level="medium"), dice()).state
    assert state.active == "Raider"
    # a double action: two attacks
    state = aboard_state(char(aboard="s2", technology=2), foe(hp=20, max_hp=20))
    state = RULESET.apply(state, Action.make("attack", "ann", target="r1"), dice(5)).state
    assert state.active == "Ann"
    state = RULESET.apply(state, Action.make("attack", "ann", target="r1"), dice(5)).state
    assert state.active == "Raider"


# --- Инициатива и порядок ходов ------------------------------------------------------------------


def test_characters_on_12_or_more_act_before_the_enemies_the_others_after():
    """Инициатива и порядок ходов (VD-03): 1d20 + Agility; 12+ before the enemies, the rest after."""
    state = aboard_state(char("ann", "Ann", aboard="s2", agility=2), char("bo", "Bo", aboard="s2", agility=2), foe())
    log = Log()
    d = dice(9, 10)  # Ann 11 (after), Bo 12 (before)
    state = turns.personal_initiative(state, log, d, ["s2"])
    assert state.order == ("bo", "r1", "ann")
    assert person(state, "ann").initiative == 11 and person(state, "bo").initiative == 12


def test_the_players_own_order_is_their_roll_highest_first():
    """Инициатива и порядок ходов (VD-04): the players settle their order; the app lists them by their
    roll, highest first (decision in docs/rulesets/void_d20.md)."""
    state = aboard_state(char("ann", "Ann", aboard="s2"), char("bo", "Bo", aboard="s2"), foe())
    state = turns.personal_initiative(state, Log(), dice(13, 18), ["s2"])
    assert state.order == ("bo", "ann", "r1")


# --- Броски атаки -----------------------------------------------------------------------------


def test_the_attack_ability_follows_the_weapon():
    """Броски атаки (VD-05): melee 1d20 + Body, ranged + Agility, tech weapons + Technology."""
    target = foe()
    for weapon, ability in ((BLADE, "Body"), (RIFLE, "Agility"), (PISTOL, "Technology")):
        ann = char(items=(weapon,), body=1, agility=2, technology=3)
        check = personal.attack_check(ann, target)
        assert check.named() == ((ability, {"Body": 1, "Agility": 2, "Technology": 3}[ability]),)


def test_the_attack_is_one_core_check_as_docs_adding_a_ruleset_shows_it():
    """Броски атаки (VD-05, VD-06) and Критические попадания (VD-07, VD-09), with RULES-NOTES VD-N04:
    the attack is the core Check that docs/adding-a-ruleset.md ("Checks: one declaration in core")
    sets beside the seed's sentences: 1d20 (2d20 keep the higher with a Void Point) + the weapon's
    ability + the GM's circumstance modifier against the target's DR; natural 20 hits, natural 1 misses."""
    from rulesets.core.check import GM_LABEL, GM_RULE, Check, Modifier, Throw

    ann = char(items=(RIFLE,), agility=2, void=1)
    check = personal.attack_check(ann, foe(dr=12), dm=-1)
    attack_rule = tables.rule("attack", "VD-05")
    assert check == Check(Throw(1, 20), 12, (Modifier("Agility", 2, attack_rule), Modifier(GM_LABEL, -1, GM_RULE)),
                          attack_rule, check.purpose, checks.ATTACK_NATURALS)
    assert check.purpose.render() == "Ann attacks Raider with " + RIFLE.name
    assert personal.attack_check(ann, foe(dr=12), void=True).throw == Throw(2, 20, keep=1)
    assert [(n.low, n.outcome, n.success) for n in checks.ATTACK_NATURALS] == [(20, "critical", True), (1, "fumble", False)]


def test_reaching_the_defence_rating_hits_and_damage_comes_off_hp():
    """Броски атаки (VD-06): a result equal to the target's DR hits; the weapon's damage comes off its HP."""
    state = aboard_state(char(aboard="s2", technology=2), foe(dr=12, hp=6))
    log = Log()
    d = dice(10, 5, 3, 3)  # 10 + 2 = 12 against DR 12: hit; d8 = 5 (then its morale holds: 6)
    state = personal.attack(state, log, d, "ann", "r1")
    assert person(state, "r1").hp == 1 and used_up(d)
    state = aboard_state(char(aboard="s2", technology=2), foe(dr=12, hp=6))
    state = personal.attack(state, Log(), dice(9), "ann", "r1")  # 11: a miss, no damage die
    assert person(state, "r1").hp == 6


# --- Критические попадания ----------------------------------------------------------------------


def test_a_natural_20_hits_whatever_the_dr_and_doubles_the_damage():
    """Критические попадания (VD-07, VD-N06): natural 20 hits, damage rolled once and doubled."""
    state = aboard_state(char(aboard="s2"), foe(dr=30, hp=20))
    state = personal.attack(state, Log(), dice(20, 3), "ann", "r1")
    assert person(state, "r1").hp == 14


def test_a_critical_hit_asks_the_gm_for_something_special():
    """Критические попадания (VD-08): the GM describes something special (a limb, a helmet, a jammed gun)."""
    log = Log()
    personal.attack(aboard_state(char(aboard="s2"), foe(hp=20)), log, dice(20, 3), "ann", "r1")
    assert "Critical hit" in _texts(log) and "GM describes something special" in _texts(log)


def test_a_natural_1_misses_and_the_weapon_loses_a_condition():
    """Критические попадания (VD-09, VD-N06): a natural 1 misses even when the total would reach the DR,
    and the weapon loses 1 Condition."""
    state = aboard_state(char(aboard="s2", technology=15), foe(dr=10))
    state = personal.attack(state, Log(), dice(1), "ann", "r1")
    assert person(state, "r1").hp == 6
    assert person(state, "ann").items[0].condition == 2


def test_a_natural_1_lets_the_gm_add_a_complication():
    """Критические попадания (VD-10): on a natural 1 the GM may introduce a complication."""
    log = Log()
    personal.attack(aboard_state(char(aboard="s2"), foe()), log, dice(1), "ann", "r1")
    assert "The GM may add a complication" in _texts(log)


# --- Потеря состояния -----------------------------------------------------------------------


def test_a_wounded_character_rolls_1d6_and_on_a_1_a_random_item_loses_condition():
    """Потеря состояния (VD-11): wounded, roll 1d6; on a 1 one random item loses 1 Condition."""
    ann = char(aboard="s2", items=(PISTOL, SUIT), dr=12)
    state = aboard_state(ann, foe(attack=2))
    d = dice(15, 2, 1, 2)  # 17 vs DR 13 hits; 2 damage; wear d6 = 1; d2 = 2: the suit
    state = personal.attack(state, Log(), d, "r1", "ann")
    assert [i.condition for i in person(state, "ann").items] == [3, 2] and used_up(d)
    d = dice(15, 2, 4)  # wear d6 = 4: nothing
    state = personal.attack(aboard_state(ann, foe(attack=2)), Log(), d, "r1", "ann")
    assert [i.condition for i in person(state, "ann").items] == [3, 3] and used_up(d)


def test_missing_on_a_1_costs_the_weapon_a_condition():
    """Потеря состояния (VD-12): shooting and missing on a 1, the weapon loses 1 Condition."""
    state = aboard_state(char(aboard="s2", items=(RIFLE,)), foe(dr=25))
    state = personal.attack(state, Log(), dice(1), "ann", "r1")
    assert person(state, "ann").items[0].condition == 2
    state = aboard_state(char(aboard="s2", items=(RIFLE,)), foe(dr=25))
    state = personal.attack(state, Log(), dice(2), "ann", "r1")  # a plain miss costs nothing
    assert person(state, "ann").items[0].condition == 3


def test_a_weapon_at_condition_0_is_broken_and_its_owner_fights_with_fists():
    """House rule (open point: a weapon at Condition 0): broken; the character attacks with fists, 1d4 + Body."""
    broken = Item("weapon", "Laser pistol", "weapon", 0, 3, "tech", "d8")
    assert personal.weapon_of(char(items=(broken,))).name == "fists"
    assert personal.attack_check(char(items=(broken,), body=2), foe()).named() == (("Body", 2),)


# --- Укрытия и щиты ---------------------------------------------------------------------------


def test_light_cover_adds_2_to_the_dr():
    """Укрытия и щиты (VD-13): light cover (round a corner, in grass) +2 DR."""
    assert personal.defence_of(foe(dr=11, cover="light"))[0] == 13


def test_medium_cover_adds_4_to_the_dr():
    """Укрытия и щиты (VD-14): medium cover (behind a wall, in rubble) +4 DR."""
    assert personal.defence_of(foe(dr=11, cover="medium"))[0] == 15
    state = aboard_state(char(aboard="s2", technology=3), foe(dr=11, cover="medium"))
    state = personal.attack(state, Log(), dice(11), "ann", "r1")  # 14 against 15: a miss
    assert person(state, "r1").hp == 6


def test_full_cover_allows_no_attack():
    """Укрытия и щиты (VD-15): full cover (bunker, armour plate): no attack possible."""
    state = aboard_state(char(aboard="s2"), foe(cover="full"))
    assert not any(a.kind == "attack" for a in RULESET.legal_actions(state))
    state = aboard_state(char(aboard="s2"), foe(cover="light"))
    assert any(a.kind == "attack" for a in RULESET.legal_actions(state))


def test_an_energy_shield_adds_2_and_loses_a_charge_per_hit_until_it_switches_off():
    """Укрытия и щиты (VD-16): energy shields +2 DR, a charge lost per hit; out of charges, off."""
    raider = foe(dr=11, items=(shield(1),) + foe().items)
    assert personal.defence_of(raider)[0] == 13
    state = aboard_state(char(aboard="s2", technology=2), raider)
    state = personal.attack(state, Log(), dice(11, 1), "ann", "r1")  # 13 against 13: hit
    hit = person(state, "r1")
    assert hit.items[0].charges == 0 and not personal.shield_up(hit)
    assert personal.defence_of(hit)[0] == 11


# --- Враги в бою -------------------------------------------------------------------------


def test_enemies_have_the_simplified_stat_line_and_come_in_squads():
    """Враги в бою (VD-17): HP, DR, attack with modifier, damage, morale; a squad of several."""
    spec = RULESET.example_setup(0)
    state = RULESET.setup(spec)
    scrappers = [c for c in state.combatants if c.squad == "g4"]
    assert [c.name for c in scrappers] == ["Scrapper 1", "Scrapper 2", "Scrapper 3"]
    assert {(c.hp, c.dr, c.attack, c.morale, c.kind) for c in scrappers} == {(5, 11, 2, 8, "enemy")}
    assert personal.weapon_of(scrappers[0]).damage == "d6"


def test_the_gm_rolls_for_enemies_as_usual():
    """Враги в бою (VD-18): the GM rolls for them as usual: 1d20 + their attack modifier against the DR."""
    check = personal.attack_check(foe(attack=3), char(dr=12))
    assert check.named() == (("attack", 3),) and check.target == 12 and check.naturals == checks.ATTACK_NATURALS


# --- Мораль ------------------------------------------------------------------------------


def test_losing_half_the_squad_calls_for_a_morale_roll():
    """Мораль (VD-19): when enemies lose half their HP or half the squad, the GM rolls 2d6 against morale."""
    a, b = foe("r1", "Raider 1", squad="sq", morale=7, hp=3), foe("r2", "Raider 2", squad="sq", morale=7, hp=3)
    state = aboard_state(char(aboard="s2", technology=5), a, b)
    d = dice(15, 4, 3, 3)  # hit, 4 damage: Raider 1 down -> half the squad -> morale 2d6 = 6: hold
    log = Log()
    state = personal.attack(state, log, d, "ann", "r1")
    assert used_up(d) and "hold (6 against morale 7)" in _texts(log)
    assert person(state, "r2").status == "ok" and state.morale_checked == ("sq",)


def test_half_the_hp_lost_also_calls_for_morale():
    """Мораль (VD-19): half the HP lost (one enemy alone) triggers the roll too."""
    state = aboard_state(char(aboard="s2", technology=5), foe(hp=8, morale=7))
    d = dice(15, 4, 6, 5)  # 4 damage of 8 -> morale 11 > 7: flees
    state = personal.attack(state, Log(), d, "ann", "r1")
    assert person(state, "r1").status == "fled" and used_up(d)


def test_a_morale_roll_below_morale_holds_the_seed_reading_is_reversed_by_the_notes():
    """Мораль (VD-20): the seed says they flee on a lower roll; RULES-NOTES (VD-N02) reverses it: lower holds."""
    state = aboard_state(char(aboard="s2", technology=5), foe(hp=8, morale=9))
    state = personal.attack(state, Log(), dice(15, 4, 2, 3), "ann", "r1")  # morale 5 < 9
    assert person(state, "r1").status == "ok"


def test_morale_breaks_on_a_roll_higher_than_morale():
    """RULES-NOTES void_d20 (VD-N02): enemies flee or surrender when 2d6 is higher than their morale."""
    for faces, status in (((4, 4), "fled"), ((3, 4), "ok")):  # 8 > 7 breaks; 7 = 7 holds
        state = aboard_state(char(aboard="s2", technology=5), foe(hp=8, morale=7))
        state = personal.attack(state, Log(), dice(15, 4, *faces), "ann", "r1")
        assert person(state, "r1").status == status


# --- Смерть и исцеление --------------------------------------------------------------------


def _dropped(death_face, *more):
    """Ann (2 HP) takes 5 from the raider and rolls ``death_face`` on the death table."""
    state = aboard_state(char(aboard="s2", hp=2, max_hp=8, void=1, items=(PISTOL,)), foe(attack=5))
    log = Log()
    d = dice(15, 5, 6, death_face, *more)  # hit, 5 damage, wear 6 (nothing), death d20
    state = personal.attack(state, log, d, "r1", "ann")
    assert used_up(d)
    return person(state, "ann"), _texts(log)


def test_at_0_hp_a_character_is_not_dead_but_rolls_on_the_death_table():
    """Смерть и исцеление (VD-21): at 0 HP or below, roll d20 on the death-in-space table."""
    ann, text = _dropped(8)
    assert ann.status == "ok" and "Death table, d20 = 8" in text


def test_death_table_1_is_instant_death():
    """Таблица смерти в космосе (VD-22): 1, instant death."""
    assert _dropped(1)[0].status == "dead"


def test_death_table_2_3_bleeds_out_unless_helped_within_a_round():
    """Таблица смерти в космосе (VD-23): 2-3, bleeding out; dead unless helped within a round."""
    ann, _ = _dropped(3)
    assert ann.status == "bleeding" and ann.timer == tables.BLEED_ROUNDS
    state = aboard_state(ann, foe())
    state = turns.tick_timers(state, Log(), dice())  # the next round: still bleeding
    assert person(state, "ann").status == "bleeding"
    state = turns.tick_timers(state, Log(), dice())  # nobody helped: dead
    assert person(state, "ann").status == "dead"
    helped = aboard_state(ann, char("bo", "Bo", aboard="s2", items=(medkit(),)), foe())
    helped = personal.use_medkit(helped, Log(), dice(3), "bo", "ann")
    assert person(helped, "ann").status == "ok" and person(helped, "ann").hp == 4


def test_death_table_4_6_is_unconscious_for_d6_rounds_with_1_hp():
    """Таблица смерти в космосе (VD-24): 4-6, unconscious for d6 rounds; HP back to 1."""
    ann, _ = _dropped(5, 2)
    assert (ann.status, ann.timer, ann.hp) == ("unconscious", 2, 1)
    state = aboard_state(ann, foe())
    for _ in range(2):
        state = turns.tick_timers(state, Log(), dice())
        assert person(state, "ann").status == "unconscious"
    state = turns.tick_timers(state, Log(), dice())
    assert person(state, "ann").status == "ok"


def test_death_table_7_10_is_a_severe_wound_hp_1_and_hampered_tomorrow():
    """Таблица смерти в космосе (VD-25): 7-10, HP 1 and disadvantage the next day (a note carried back)."""
    ann, _ = _dropped(9)
    assert ann.hp == 1 and ann.status == "ok" and "hampered tomorrow" in ann.notes


def test_death_table_11_14_is_shock_no_actions_for_2_rounds():
    """Таблица смерти в космосе (VD-26): 11-14, shock: no actions for 2 rounds, HP 1."""
    ann, _ = _dropped(12)
    assert (ann.status, ann.timer, ann.hp) == ("shock", 2, 1)
    state = aboard_state(ann, foe())
    assert turns.advance(state, Log(), dice()).active == "Raider"  # in shock: skipped
    for _ in range(2):
        state = turns.tick_timers(state, Log(), dice())
    assert person(state, "ann").status == "shock"
    assert person(turns.tick_timers(state, Log(), dice()), "ann").status == "ok"


def _end(state, cid, *faces):
    """``cid`` ends their turn; ``faces``: the next round's initiative, when it begins in this step."""
    assert state.order[state.turn] == cid, f"{cid} to act, not {state.order[state.turn]}"
    d = dice(*faces)
    state = RULESET.apply(state, Action.make("end", cid), d).state
    assert used_up(d)
    return state


def _shock_words(state, cid):
    return timers.words(state, person(state, cid)).render()


def test_shock_before_the_characters_turn_costs_this_turn_and_the_next_two_rounds_in_all():
    """Таблица смерти в космосе (VD-26, decision "Timers"): "ноль действий 2 раунда" is the character's
    next two turns. Shocked by the raider acting first in round 1, Ann loses her turns of rounds 1 and
    2 and acts in round 3 (the old count cost her rounds 1, 2 and 3)."""
    state = aboard_state(foe(attack=5), char(aboard="s2", hp=2, max_hp=8))      # the raider acts first
    d = dice(15, 5, 6, 12)  # hit, 5 damage, wear 6, death table 12: shock
    state = RULESET.apply(state, Action.make("attack", "r1", target="ann"), d).state
    assert used_up(d) and person(state, "ann").status == "shock"
    assert timers.rounds_left(state, person(state, "ann")) == 2 and _shock_words(state, "ann") == "no actions: 2 rounds left"
    state = _end(state, "r1", 5)           # Ann's turn of round 1 is lost; round 2: Ann's initiative 5 (after the raider)
    assert state.round == 2 and _shock_words(state, "ann") == "no actions: 1 round left"
    state = _end(state, "r1", 5)           # her turn of round 2 is lost; round 3: back on her feet
    assert state.round == 3 and person(state, "ann").status == "ok"
    state = _end(state, "r1")
    assert state.active == "Ann" and state.round == 3


def test_shock_after_the_characters_turn_costs_the_next_two_rounds():
    """Таблица смерти в космосе (VD-26, decision "Timers"): shocked after her own turn of round 1, Ann
    loses her turns of rounds 2 and 3 and acts in round 4."""
    state = aboard_state(char(aboard="s2", hp=2, max_hp=8), foe(attack=5))      # Ann acts first
    state = _end(state, "ann")
    d = dice(15, 5, 6, 12)
    state = RULESET.apply(state, Action.make("attack", "r1", target="ann"), d).state
    assert used_up(d) and _shock_words(state, "ann") == "no actions: 2 rounds left"
    state = _end(state, "r1", 5)           # round 2: Ann's initiative 5, after the raider
    assert state.round == 2 and _shock_words(state, "ann") == "no actions: 2 rounds left"
    state = _end(state, "r1", 5)           # her turn of round 2 is lost
    assert state.round == 3 and _shock_words(state, "ann") == "no actions: 1 round left"
    state = _end(state, "r1", 5)           # and of round 3
    assert state.round == 4 and person(state, "ann").status == "ok"
    assert _end(state, "r1").active == "Ann"


def test_shock_in_the_characters_own_turn_costs_the_rest_of_it_and_the_next_two_rounds():
    """Таблица смерти в космосе (VD-26) and RULES-NOTES (VD-N03): Ann's risky attack misses, the answer
    sends her into shock: the rest of her turn is lost, and her next two turns (rounds 2 and 3)."""
    state = aboard_state(char(aboard="s2", hp=2, max_hp=8, technology=0), foe(attack=5))
    d = dice(5, 15, 5, 6, 12)  # Ann misses; the raider answers: hit, 5 damage, wear 6, death table 12
    state = RULESET.apply(state, Action.make("risky", "ann", target="r1"), d).state
    assert used_up(d) and state.active == "Raider" and _shock_words(state, "ann") == "no actions: 2 rounds left"
    state = _end(_end(state, "r1", 5), "r1", 5)       # rounds 2 and 3: her turns lost
    assert state.round == 3 and _shock_words(state, "ann") == "no actions: 1 round left"
    state = _end(state, "r1", 5)
    assert state.round == 4 and _end(state, "r1").active == "Ann"


def test_unconscious_for_d6_rounds_is_the_next_d6_turns():
    """Таблица смерти в космосе (VD-24, decision "Timers"): "без сознания на d6 раундов" counts as shock
    does: knocked out before her turn of round 1 for d6 = 2, Ann misses rounds 1 and 2 and acts in round 3."""
    state = aboard_state(foe(attack=5), char(aboard="s2", hp=2, max_hp=8), char("bo", "Bo", aboard="s2"))
    d = dice(15, 5, 6, 5, 2)  # hit, 5 damage, wear 6, death table 5: unconscious for d6 = 2
    state = RULESET.apply(state, Action.make("attack", "r1", target="ann"), d).state
    assert used_up(d) and _shock_words(state, "ann") == "no actions: 2 rounds left"
    state = _end(_end(state, "r1"), "bo", 5)          # round 2: only Bo rolls (Ann is down), after the raider
    assert state.round == 2 and state.order == ("r1", "bo") and _shock_words(state, "ann") == "no actions: 1 round left"
    state = _end(_end(state, "r1"), "bo", 5, 5)       # round 3: Ann is back and rolls too
    assert state.round == 3 and person(state, "ann").status == "ok"
    assert _end(state, "r1").active == "Ann"


def test_bleeding_out_still_gives_friends_the_rest_of_the_round_and_the_next():
    """Таблица смерти в космосе (VD-23, decision "Timers"): "если не помогут за раунд" is the others'
    deadline, not turns Ann loses: dropped in round 1, she dies when round 3 begins unless helped."""
    state = aboard_state(foe(attack=5), char(aboard="s2", hp=2, max_hp=8), char("bo", "Bo", aboard="s2"))
    d = dice(15, 5, 6, 3)  # death table 3: bleeding out
    state = RULESET.apply(state, Action.make("attack", "r1", target="ann"), d).state
    assert used_up(d) and _shock_words(state, "ann") == "dies unless helped: 2 rounds left"
    state = _end(_end(state, "r1"), "bo", 5)
    assert state.round == 2 and _shock_words(state, "ann") == "dies unless helped: 1 round left"
    state = _end(_end(state, "r1"), "bo", 5)
    assert state.round == 3 and person(state, "ann").status == "dead"


def test_death_table_15_17_is_scratched_hp_d4():
    """Таблица смерти в космосе (VD-27): 15-17, HP d4, carries on."""
    ann, _ = _dropped(16, 3)
    assert ann.hp == 3 and ann.status == "ok"


def test_death_table_18_19_is_a_miracle_full_hp_and_a_void_point():
    """Таблица смерти в космосе (VD-28): 18-19, full HP and +1 Void Point."""
    ann, _ = _dropped(18)
    assert ann.hp == 8 and ann.void == 2


def test_death_table_20_is_a_vision_full_hp_and_an_omen():
    """Таблица смерти в космосе (VD-29): 20, full HP and an omen from the GM."""
    ann, text = _dropped(20)
    assert ann.hp == 8 and "omen from the GM" in ann.notes and "omen" in text


# --- Исцеление ---------------------------------------------------------------------------


def test_a_medkit_restores_d6_plus_1_and_spends_a_charge():
    """Исцеление (VD-30): a medkit restores d6+1 HP; one charge."""
    state = aboard_state(char(aboard="s2", hp=2, max_hp=8, items=(PISTOL, medkit(2))), foe())
    state = personal.use_medkit(state, Log(), dice(4), "ann", "ann")
    ann = person(state, "ann")
    assert ann.hp == 7 and ann.items[1].charges == 1


def test_a_night_at_the_hub_restores_all_hp():
    """Исцеление (VD-31): a night's rest at the hub restores all HP (a GM step between scenes)."""
    state = aboard_state(char(aboard="s2", hp=2, max_hp=8), foe())
    state = RULESET.apply(state, Action.make("rest", "gm", what="hub"), dice()).state
    assert person(state, "ann").hp == 8


def test_the_medbay_restores_d8_plus_2():
    """Исцеление (VD-32): the medbay restores d8+2 HP in an hour."""
    state = aboard_state(char(aboard="s2", hp=1, max_hp=12), foe())
    state = personal.rest(state, Log(), dice(5), "medbay")
    assert person(state, "ann").hp == 8


def test_a_week_of_rest_removes_long_term_injuries():
    """Исцеление (VD-33): a long rest (a week) removes all long-term injuries."""
    state = aboard_state(char(aboard="s2", notes=("hampered tomorrow", "omen from the GM")), foe())
    state = personal.rest(state, Log(), dice(), "week")
    assert person(state, "ann").notes == ("omen from the GM",)


# --- RULES-NOTES void_d20 -------------------------------------------------------------------


def test_a_plain_check_is_1d20_plus_ability_against_12():
    """RULES-NOTES void_d20 (VD-N01): a plain check is 1d20 + ability, succeeding on 12+."""
    from rulesets.core.check import Modifier
    from rulesets.void_d20.checks import d20_check

    check = d20_check("a check", (Modifier("Mind", 2),), tables.CHECK_TARGET, "")
    assert (check.throw.count, check.throw.sides, check.naturals) == (1, 20, ())
    assert not check.resolve(9).success and check.resolve(10).success


def test_a_risky_attack_adds_a_damage_die():
    """RULES-NOTES void_d20 (VD-N03): a risky attack adds one damage die."""
    state = aboard_state(char(aboard="s2", technology=5), foe(hp=20))
    d = dice(15, 3, 4)
    state = personal.attack(state, Log(), d, "ann", "r1", risky=True)
    assert person(state, "r1").hp == 13 and used_up(d)


def test_a_risky_attack_that_misses_gets_an_answer_at_once():
    """RULES-NOTES void_d20 (VD-N03): if the risky attack misses, the target answers with an attack of its own."""
    state = aboard_state(char(aboard="s2", technology=0, dr=12), foe(attack=2))
    d = dice(5, 15, 4, 6)  # Ann misses; the raider answers: 17 hits, 4 damage, Ann's wear roll 6
    log = Log()
    state = personal.attack(state, log, d, "ann", "r1", risky=True)
    assert person(state, "ann").hp == 4 and used_up(d) and "answers at once" in _texts(log)


def test_a_void_point_rolls_2d20_and_keeps_the_higher_and_is_spent():
    """RULES-NOTES void_d20 (VD-N04): one Void Point before a check: 2d20, keep the higher; at most 4."""
    state = aboard_state(char(aboard="s2", technology=2, void=2), foe(dr=12, hp=20))
    d = dice(3, 11, 5)  # 3 and 11: keeps 11, 13 hits; d8 = 5
    state = personal.attack(state, Log(), d, "ann", "r1", void=True)
    assert person(state, "r1").hp == 15 and person(state, "ann").void == 1 and used_up(d)
    assert tables.MAX_VOID_POINTS == 4


def test_the_miracle_row_grants_a_void_point_up_to_four():
    """RULES-NOTES void_d20 (VD-N05): the death table's 18-19 grants one Void Point (never above 4)."""
    state = aboard_state(char(aboard="s2", void=4, hp=0), foe())
    state = personal.apply_death_row(state, Log(), dice(), "ann", "miracle")
    assert person(state, "ann").void == 4


def test_natural_20_and_natural_1_as_the_notes_settle_them():
    """RULES-NOTES void_d20 (VD-N06): a natural 20 hits and doubles; a natural 1 costs the weapon one Condition."""
    state = aboard_state(char(aboard="s2", technology=-3), foe(dr=30, hp=40))
    state = personal.attack(state, Log(), dice(20, 8), "ann", "r1")
    assert person(state, "r1").hp == 24
    state = personal.attack(state, Log(), dice(1), "ann", "r1")
    assert person(state, "ann").items[0].condition == 2
