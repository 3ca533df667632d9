"""The bot (rulesets/starwars_d6/policy.py): legal, deterministic, sensible and fast.

Scripted situations built with rules.py; playouts seeded.  Each test names the seed section
or the decision (docs/rulesets/starwars_d6.md, "Odds and the bot") it checks.
"""
import random

import pytest

from rulesets.core.dice import Dice, RandomSource
from rulesets.core.engine import Action
from rulesets.core.replay import play_out
from rulesets.starwars_d6 import hexes
from rulesets.starwars_d6 import odds
from rulesets.starwars_d6 import policy
from rulesets.starwars_d6 import rules
from rulesets.starwars_d6.engine import RULESET, StarWarsRuleset, TEMPLATES

BY_NAME = {t["name"]: t["stats"] for t in TEMPLATES}
CREW = {"gunnery": "4D", "piloting": "4D", "shields": "3D"}


class Fast(StarWarsRuleset):
    """The engine without the board's click-a-hex courses (a breadth-first search the bot never
    uses), so long seeded loops stay quick; the bot's choices are the same."""

    def _course_targets(self, s):
        return {}


FAST = Fast()


def ship(template, id, side, col, row, facing=0, **extra):
    stats = dict(BY_NAME[template], crew=CREW)
    sh = rules.build_ship(stats, id=id, side=side, col=col, row=row, facing=facing)
    for k, v in extra.items():
        setattr(sh, k, v)
    return sh


def moving(ships, mover, width=30, height=30, round_=1):
    s = rules.new_combat(ships, width, height)
    s.round, s.phase, s.queue = round_, "movement", [mover]
    s.moving = rules.start_moving(s)
    return s


def firing(ships, shooter, width=30, height=30):
    s = rules.new_combat(ships, width, height)
    s.phase, s.queue = "firing", [shooter]
    return s


def run_movement(ruleset, s, rng=None):
    """Let the bot move the current ship to the end of its movement; the chosen actions."""
    rng = rng or random.Random(0)
    who, chosen = s.moving.ship, []
    while s.phase == "movement" and s.moving is not None and s.moving.ship == who:
        a = ruleset.policy(s, rng)
        assert a in ruleset.legal_actions(s)
        chosen.append(a)
        if a.kind != "move":
            break
        s = ruleset.apply(s, a, Dice(RandomSource(rng))).state
    return s, chosen


# ---------------------------------------------------------------- movement
def test_the_bot_closes_to_short_range_over_rounds_and_faces_its_target():
    """Seed 1. MOVIMENT I MANIOBRA and 2. COMBAT "Distàncies" (decision: close to the window
    where its weapons have the best expected damage -- lasers: short, 1-5 hexes -- and end
    facing the target; never in its hex)."""
    target = ship("Mule freighter", "t", "B", 25, 26, speed=0)
    me = ship("Sparrow scout", "m", "A", 3, 2, facing=3)
    s = moving([me, target], "m")
    dists = [hexes.distance(me.pos, target.pos)]
    for rnd in range(1, 6):
        s.round = rnd
        s.phase, s.queue = "movement", ["m"]
        s.moving = rules.start_moving(s)
        s, _ = run_movement(FAST, s)
        dists.append(hexes.distance(s.ship("m").pos, s.ship("t").pos))
        if dists[-1] <= 4:
            break
    assert all(b < a for a, b in zip(dists, dists[1:])), dists
    assert 1 <= dists[-1] <= 4          # blasters: short range 1-4
    m = s.ship("m")
    assert hexes.distance(hexes.neighbour(m.pos, m.facing), s.ship("t").pos) < dists[-1]   # facing the target
    assert s.board.width > m.col >= 0 and s.board.height > m.row >= 0


def test_the_bot_holds_in_its_window_and_turns_to_face():
    """Decision: already in the window, it does not wander: at most turns to face the target."""
    target = ship("Mule freighter", "t", "B", 10, 14, speed=0)
    me = ship("Kestrel interceptor", "m", "A", 10, 10, facing=1)   # 4 hexes, facing NE
    s, chosen = run_movement(FAST, moving([me, target], "m"))
    assert hexes.distance(s.ship("m").pos, target.pos) == 4
    assert {a.get("how") for a in chosen} <= {"turn", "hold"}
    m = s.ship("m")
    assert hexes.distance(hexes.neighbour(m.pos, m.facing), target.pos) == 3


def test_the_bot_evades_when_severely_damaged_and_stays_on_the_board():
    """Decision: badly hurt (severely damaged, seed 5. "Danys severs" + RULES-NOTES) and unable to
    jump (no hyperdrive), it moves away from the enemies -- never off the board ("Retirar-se del
    combat" is not the bot's choice)."""
    enemy = ship("Talon heavy fighter", "e", "B", 10, 10, facing=3)
    me = ship("Kestrel interceptor", "m", "A", 10, 14, facing=3, severe=True)
    s, chosen = run_movement(FAST, moving([me, enemy], "m", width=20, height=20))
    assert all(a.kind == "move" for a in chosen)
    assert hexes.distance(s.ship("m").pos, enemy.pos) > 4 + 3
    assert s.ship("m").in_play and not s.ship("m").off_board
    # against the edge, facing out: it still does not leave
    me = ship("Kestrel interceptor", "m", "A", 10, 19, facing=3, severe=True)
    s, chosen = run_movement(FAST, moving([me, enemy], "m", width=20, height=20))
    assert not s.ship("m").off_board and s.ship("m").in_play


def test_hull_dice_lost_also_means_evading():
    """Decision: a ship that lost hull dice (light damage 6) is badly hurt too."""
    enemy = ship("Talon heavy fighter", "e", "B", 10, 10, facing=3)
    me = ship("Kestrel interceptor", "m", "A", 10, 14, facing=3, damage=["hull_-1D"])
    s, _ = run_movement(FAST, moving([me, enemy], "m", width=20, height=20))
    assert hexes.distance(s.ship("m").pos, enemy.pos) > 4


def test_an_outgunned_ship_evades():
    """Decision: a ship none of whose weapons can hurt any enemy evades: its weapons all out
    (seed 5. considerable 4), it runs from the enemy's guns; against a Death Star, which its
    lasers cannot damage (6. ESCALES "no pot causar danys significatius") and which cannot fire
    at starfighters, it does not close in."""
    enemy = ship("Talon heavy fighter", "e", "B", 15, 15)
    me = ship("Kestrel interceptor", "m", "A", 15, 11, facing=3)
    for w in me.weapons:
        w.disabled = True
    s = moving([me, enemy], "m")
    assert not policy._useful(s, me)
    s, _ = run_movement(FAST, s)
    assert hexes.distance(s.ship("m").pos, enemy.pos) > 4 + 4
    station = ship("Citadel battle station", "d", "B", 15, 15)
    me = ship("Kestrel interceptor", "m", "A", 15, 9, facing=3)
    s = moving([me, station], "m")
    assert not policy._useful(s, me)
    s, _ = run_movement(FAST, s)
    assert hexes.distance(s.ship("m").pos, station.pos) >= 6


def test_the_bot_never_ends_in_another_ships_hex():
    """Decision: it never ends its movement in a hex another ship holds."""
    for seed in range(6):
        rng = random.Random(seed)
        target = ship("Mule freighter", "t", "B", rng.randrange(8, 20), rng.randrange(8, 20), speed=0)
        me = ship("Kestrel interceptor", "m", "A", rng.randrange(8, 20), rng.randrange(8, 20),
                  facing=rng.randrange(6))
        if me.pos == target.pos:
            continue
        s, _ = run_movement(FAST, moving([me, target], "m"))
        assert s.ship("m").pos != target.pos


# ---------------------------------------------------------------- emergencies and special actions
def kinds(s):
    return {a.kind for a in FAST.legal_actions(s)}


def test_the_bot_jumps_when_severely_damaged_and_only_then():
    """Seed 3. "Retirar-se del combat" (a hyperspace jump, declared before moving): legal and
    severely damaged -> jump; healthy -> it fights on."""
    enemy = ship("Kestrel interceptor", "e", "B", 10, 10)
    hurt = moving([ship("Talon heavy fighter", "m", "A", 10, 16, facing=3, severe=True), enemy], "m")
    assert "jump" in kinds(hurt)
    assert FAST.policy(hurt, random.Random(1)).kind == "jump"
    fine = moving([ship("Talon heavy fighter", "m", "A", 10, 16, facing=3), enemy], "m")
    assert "jump" in kinds(fine) and FAST.policy(fine, random.Random(1)).kind == "move"


def test_the_bot_shuts_down_an_overloaded_generator():
    """Seed 5. "Sobrecàrrega en el generador": shut it down (decision: at once, no gamble on the
    three rounds)."""
    enemy = ship("Kestrel interceptor", "e", "B", 10, 10)
    s = moving([ship("Talon heavy fighter", "m", "A", 10, 16, generator_overload_round=4), enemy], "m")
    assert "shutdown" in kinds(s) and FAST.policy(s, random.Random(1)).kind == "shutdown"
    s = FAST.apply(s, Action.make("shutdown", "m"), Dice(RandomSource(random.Random(1)))).state
    assert s.ship("m").generator_shutdown and FAST.policy(s, random.Random(1)).kind == "move"


def test_the_bot_jumps_or_evacuates_with_structural_damage():
    """Seed 5. "Danys estructurals" (1D rounds to evacuate): jump if it can, else evacuate."""
    enemy = ship("Kestrel interceptor", "e", "B", 10, 10)
    s = moving([ship("Talon heavy fighter", "m", "A", 10, 16, facing=3, structural_round=3), enemy], "m")
    assert FAST.policy(s, random.Random(1)).kind == "jump"
    s = moving([ship("Kestrel interceptor", "m", "A", 10, 16, facing=3, structural_round=3), enemy], "m")
    assert "jump" not in kinds(s) and FAST.policy(s, random.Random(1)).kind == "evacuate"


def test_a_captured_ship_tries_to_break_free():
    """Seed 3. "Raigs tractors": a ship held by a tractor beam tries to break free (hull roll
    greater than the beam's strength), with the odds offered for it."""
    holder = rules.build_ship({"name": "Tug", "scale": "capital", "speed": 3, "maneuverability": "1D", "hull": "4D",
                           "weapons": [{"id": "tb", "type": "tractor_beam", "fire_control": "2D", "damage": "3D"}]},
                          id="e", side="B", col=10, row=13)
    me = ship("Kestrel interceptor", "m", "A", 10, 15, captured_by="e", captured_weapon="tb")
    s = moving([me, holder], "m")
    a = FAST.policy(s, random.Random(1))
    assert a.kind == "break_free"
    offered_odds = FAST.odds(s, a)
    assert offered_odds is not None and abs(offered_odds.total - 1) < 1e-12 and 0 < offered_odds.outcomes[0].probability < 1


def test_the_bot_never_rams():
    """Decision: the bot never rams (seed "Col·lisions premeditades" is left to the players),
    though ram targets are offered."""
    offered = 0
    for seed in range(4):
        checked = _Checked(FAST)
        result = play_out(checked, FAST.setup(FAST.example_setup(seed)), random.Random(f"ram:{seed}"))
        assert result.state.over
        offered += checked.rams_offered
    assert offered > 0


class _Checked:
    """Wraps a ruleset: asserts every policy choice is legal and never a ram or an exit."""

    def __init__(self, rs):
        self.rs = rs
        self.step_limit = rs.step_limit
        self.rams_offered = 0

    def policy(self, s, rng):
        a = self.rs.policy(s, rng)
        legal = self.rs.legal_actions(s)
        assert a in legal, a
        self.rams_offered += sum(x.kind == "ram" for x in legal)
        assert a.kind != "ram"
        if a.kind == "move":
            m = {(m.kind, m.side): m for m in rules.move_options(s)}[(a.get("how"), a.get("side"))]
            assert not m.leaves_board, "left the board voluntarily"
        return a

    def apply(self, s, a, dice):
        return self.rs.apply(s, a, dice)


# ---------------------------------------------------------------- firing
def test_the_bot_fires_its_best_shot_then_done():
    """Seed 2. COMBAT (systems that fire together): it fires the group with the best summed
    expected damage, each weapon at its best target (odds.shot), then stops."""
    me = ship("Warden corvette", "m", "A", 10, 10)
    healthy = ship("Kestrel interceptor", "h", "B", 10, 13)
    hurt = ship("Kestrel interceptor", "x", "B", 12, 13, severe=True)   # any damage destroys it
    s = firing([me, healthy, hurt], "m")
    legal = FAST.legal_actions(s)
    fires = [a for a in legal if a.kind == "fire"]
    assert {a.get("weapon") for a in fires} == {"tl", "ion"}
    a = FAST.policy(s, random.Random(0))
    best = max(fires, key=lambda x: policy.shot_value(s, x))
    assert a == best and a.get("target") == "x"
    s = FAST.apply(s, a, Dice(RandomSource(random.Random(0)))).state
    # the ion cannon fires alone: once the turbolaser fired, only done is left
    assert FAST.policy(s, random.Random(0)).kind == "done"


def test_the_bot_holds_ammunition_for_a_better_shot():
    """Decision: a weapon with ammunition is not fired below 25% to hit."""
    me = ship("Talon heavy fighter", "m", "A", 10, 2)
    fast = ship("Kestrel interceptor", "e", "B", 10, 20)     # speed 10: torpedoes -2D, long range
    s = firing([me, fast], "m", width=30, height=40)
    torp = [a for a in FAST.legal_actions(s) if a.kind == "fire" and a.get("weapon") == "t"]
    assert torp and odds.shot(s, me, me.weapons[1], fast).p_hit < policy.AMMO_MIN_HIT
    assert policy.shot_value(s, torp[0])[0] == 0
    assert FAST.policy(s, random.Random(0)).kind == "done"


# ---------------------------------------------------------------- whole battles
MIXED = {"ships": [
    {"id": "a1", "side": "Alliance", "template": "Bastion frigate", "position": [4, 4], "facing": 2},
    {"id": "a2", "side": "Alliance", "template": "Wasp bomber", "position": [6, 3], "facing": 3},
    {"id": "a3", "side": "Alliance", "template": "Sparrow scout", "position": [2, 8], "facing": 2},
    {"id": "e1", "side": "Empire", "template": "Warden corvette", "position": [18, 14], "facing": 5},
    {"id": "e2", "side": "Empire", "template": "Talon heavy fighter", "position": [16, 15], "facing": 0},
    {"id": "e3", "side": "Empire", "template": "Citadel battle station", "position": [20, 8], "facing": 0}],
    "options": {"width": 22, "height": 18, "max_rounds": 12}}


@pytest.mark.parametrize("spec", ["example0", "example1", "mixed"])
def test_seeded_playouts_are_legal_and_never_leave_the_board(spec):
    """Decision: every choice is one of legal_actions; no ship ever moves off the board of its
    own accord; the fights end (conformance: within the step limit)."""
    setup = {"example0": FAST.example_setup(0), "example1": FAST.example_setup(1), "mixed": MIXED}[spec]
    for seed in range(4):
        result = play_out(_Checked(FAST), FAST.setup(setup), random.Random(f"{spec}:{seed}"))
        assert result.state.over
        assert not any(sh.off_board for sh in result.state.ships if sh.controls_dead_until == 0)


def test_the_real_engine_playout_is_legal():
    """The same through the real engine (with its click-a-hex courses offered, never chosen)."""
    result = play_out(_Checked(RULESET), RULESET.setup(RULESET.example_setup(0)), random.Random("real"))
    assert result.state.over


def test_the_bot_is_deterministic_given_its_rng():
    """The same seed, the same fight."""
    a = play_out(FAST, FAST.setup(MIXED), random.Random("same"), keep_log=True)
    b = play_out(FAST, FAST.setup(MIXED), random.Random("same"), keep_log=True)
    assert [r.action for r in a.recorded] == [r.action for r in b.recorded]


def test_a_2v2_battle_plays_out_to_its_end_within_the_step_limit():
    """Simulations run thousands of fights: the bot brings every 2v2 battle to an end (its speed is
    measured by scripts/bench_simulation.py, not by a test)."""
    for seed in range(5):
        result = play_out(FAST, FAST.setup(FAST.example_setup(1)), random.Random(f"speed:{seed}"))
        assert result.state.over and result.steps < FAST.step_limit
