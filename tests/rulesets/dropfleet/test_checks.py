"""Dropfleet's pools as core checks (issue 23, "One Check in core"; rulesets/dropfleet/checks.py):
a shot's to-hit dice, a save and point defence are one :class:`~rulesets.dropfleet.checks.LockPool`
each, rolled and recorded by the core ``roll``, counted for the odds from the same dice.

Cites seed ``dropfleet-commander-damage.es.txt`` ("4. Daño total infligido al casco", "5. Lanzar
tiradas de salvación…") and RULES-NOTES (dropfleet) DF-N04, DF-N05.  Scripted dice throughout.
"""
from fractions import Fraction
from itertools import product

from rulesets.core import check as core
from rulesets.core.dice import Roll
from rulesets.core.engine import Action
from rulesets.dropfleet import checks
from rulesets.dropfleet import damage as damage_rules
from rulesets.dropfleet import odds as df_odds
from rulesets.dropfleet import tables
from rulesets.dropfleet.engine import RULESET

from .helpers import attacker, dice, ship, state, step, weapon


def test_df03_the_seed_example_is_one_d6_per_attack_against_the_lock_recorded_as_the_hits():
    """DF-03, seed 4: "Puntería de 4+, 3 Ataques ... se lanzan 3 dados que causan un impacto al 4, 5
    o 6": the shot's check is 3D6 against Lock 4+, no target, no modifiers; the core roll records
    the hits as its total and "2 of 3 at 4+" as its row, as before."""
    st = state(attacker(weapons=weapon(lock=4, attacks=3)), ship(armour=(7,)))
    st = step(st, "fire actor=a weapon=g target=t").state
    d = dice(3, 4, 5)
    RULESET.apply(st, Action.parse("open_fire actor=a"), d)
    to_hit = [r for r in d.rolls if r.rule == tables.TO_HIT]
    assert to_hit == [Roll("3D6", (3, 4, 5), (), 2, "Attacker's Railgun at Target (Lock 4+)", tables.TO_HIT,
                           row="2 of 3 at 4+", target=None)]
    s = damage_rules.shot(attacker(), weapon(lock=4, attacks=3), ship())
    check = damage_rules.hit_check(s)
    assert (check.throw, check.target, check.modifiers, check.rule) == (s.hits, None, (), tables.TO_HIT)
    assert check.throw.text == "3D6"


def test_dfn04_dfn05_what_changes_the_lock_is_inside_the_dice_not_a_modifier_of_the_total():
    """DF-N05 (Lock +1 across orbital layers), decision D2 (calibre: Lock -1), DF-N04 (clamped
    2+..6+, critical on Lock + 2): the Lock's modifiers live in the dice; the check adds nothing."""
    s = damage_rules.shot(attacker(layer="low"), weapon(lock=6, calibre="M"), ship(layer="high", tonnage="M"))
    assert s.hits.modifiers == (("across orbital layers", 1), ("calibre M against Medium", -1))
    assert (s.lock, s.critical_on) == (6, 7)
    assert damage_rules.hit_check(s).modifiers == () and damage_rules.hit_check(s).bonus == 0
    high = damage_rules.shot(attacker(layer="low"), weapon(lock=6), ship(layer="high"))
    assert high.hits == checks.LockPool(3, 6, 7, (("across orbital layers", 1),))  # 7 clamped to 6+


def test_dfn04_the_critical_hits_are_read_from_the_faces_of_the_same_roll():
    """DF-N04: a face of Lock or more hits, of Lock + 2 or more is critical; a particle weapon's
    every hit is critical (decision D2).  ``split`` reads them from the faces the core roll drew."""
    s = damage_rules.shot(attacker(), weapon(lock=3, attacks=6), ship())
    d = dice(1, 2, 3, 4, 5, 6)
    result = checks.roll_pool(d, damage_rules.hit_check(s, "to hit"))
    assert result.natural == 4 and s.hits.split(result.faces) == (2, 2)
    p = damage_rules.shot(attacker(), weapon(lock=4, particle=True, attacks=3), ship())
    assert p.hits.split((3, 4, 6)) == (0, 2)


def test_a_pool_s_odds_are_its_faces_counted_over_every_roll():
    """The odds read the same dice: ``naturals`` (hits) and ``splits`` (normal, critical) are
    what ``draw`` and ``split`` give over every face combination, exactly."""
    for pool in (checks.LockPool(3, 4, 6), checks.LockPool(2, 2, 2), checks.LockPool(3, 6, 7), checks.LockPool(0, 2)):
        naturals, splits = {}, {}
        rolls = list(product(range(1, 7), repeat=pool.count))
        for faces in rolls:
            hits = sum(1 for f in faces if f >= pool.lock)
            naturals[hits] = naturals.get(hits, 0) + Fraction(1, len(rolls))
            key = pool.split(faces)
            splits[key] = splits.get(key, 0) + Fraction(1, len(rolls))
        assert {k: v for k, v in pool.naturals().items() if v} == naturals
        assert pool.splits() == splits
    s = damage_rules.shot(attacker(), weapon(lock=4, attacks=2), ship(armour=(7,)))
    assert sum(df_odds.unsaved(s).values()) == 1
    assert df_odds.unsaved(s)[(0, 0)] == Fraction(1, 4)  # both dice miss (1-3): 1/2 * 1/2


def test_df05_a_save_is_the_same_pool_check_in_a_playout_and_a_recorded_step():
    """DF-05, seed 5: "Lanza un D6 por cada punto de daño ... iguale o supere el valor de Salvación":
    ``Work.successes`` rolls a pool check; recorded with its successes and "k of n at L+"."""
    from .helpers import work

    w = work(state(attacker(), ship()), 4, 3, 6)
    assert w.successes(3, 4, "Target's saves", tables.ARMOUR_SAVES) == 2 and w.faces == (4, 3, 6)
    assert w.dice.rolls == [Roll("3D6", (4, 3, 6), (), 2, "Target's saves", tables.ARMOUR_SAVES, row="2 of 3 at 4+")]
    assert core.describe(checks.pool_check(checks.LockPool(3, 4), tables.ARMOUR_SAVES, "saves")).render() == "saves: 3D6"
