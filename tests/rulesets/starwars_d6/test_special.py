"""The special cases (rules.py): board features, collisions, ramming, hyperspace jumps, tractor
beams, shutting down the generator, evacuation.  Scripted dice; each test names its seed section
(star-wars-d6-starship-combat.ca.txt) or the decision in docs/rulesets/starwars_d6.md."""
import pytest

from rulesets.core import serial
from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.engine import Action, IllegalAction
from rulesets.core.messages import english
from rulesets.starwars_d6 import hexes
from rulesets.starwars_d6 import rules
from rulesets.starwars_d6 import tables
from rulesets.starwars_d6.engine import RULESET

BASE = {"scale": "starfighter", "speed": 8, "maneuverability": "1D", "hull": "2D", "shields": "0D",
        "crew": {"gunnery": "1D", "piloting": "1D", "shields": "1D"},
        "weapons": [{"id": "l", "type": "laser", "fire_control": "1D", "damage": "2D"}]}
TRACTOR = {"id": "tb", "type": "tractor_beam", "fire_control": "1D", "damage": "3D"}


class Faces:
    """Scripted dice that can say whether every face was used."""

    def __init__(self, *faces):
        self.source = ScriptedSource(list(faces))
        self.dice = Dice(self.source)

    @property
    def used_up(self) -> bool:
        return self.source.remaining == 0


def dice(*faces):
    return Faces(*faces).dice


def ship(id, side, col, row, facing=0, **stats):
    return rules.build_ship({**BASE, "name": id.upper(), **stats}, id=id, side=side, col=col, row=row, facing=facing)


def combat(*ships, features=(), width=20, height=20):
    return rules.new_combat(list(ships), width, height, wild=False, features=list(features))


def movement(s):
    """Initiative: the first side rolls 2, the second 12 -- the first side moves first."""
    s, _ = rules.roll_initiative(s, dice(1, 1, 6, 6))
    assert s.phase == "movement"
    return s


def firing(s):
    """Initiative, then every ship holds."""
    s = movement(s)
    while s.phase == "movement":
        s, _ = rules.move(s, "hold")
    return s


def rules_of(log):
    return {e.rule for e in log}


def kinds(s):
    return [a.kind for a in RULESET.step_actions(s)]


# ---------------------------------------------------------------- board features
def test_features_are_read_from_the_options_and_validated():
    """Seed "Retirar-se del combat" names planets, moons and obstacles: the GM places them with
    options["features"]; each occupies one hex (decision); unknown kinds and hexes off the board
    are refused."""
    spec = {"ships": [{"id": "a", "side": "A", "template": "Talon heavy fighter", "position": [5, 10], "facing": 0},
                      {"id": "b", "side": "B", "template": "Kestrel interceptor", "position": [5, 2], "facing": 3}],
            "options": {"width": 20, "height": 20,
                        "features": [{"kind": "planet", "col": 15, "row": 4, "name": "Yavin"},
                                     {"kind": "moon", "col": 1, "row": 1}, {"kind": "obstacle", "col": 5, "row": 9}]}}
    s = RULESET.setup(spec)
    assert [(f.kind, f.pos, f.label) for f in s.features] == [
        ("planet", (15, 4), "Yavin"), ("moon", (1, 1), "Moon"), ("obstacle", (5, 9), "Obstacle")]
    back = serial.from_json(rules.CombatState, serial.to_json(s))
    assert back == s
    for bad in ({"kind": "nebula", "col": 1, "row": 1}, {"kind": "moon", "col": 25, "row": 1}):
        with pytest.raises(ValueError):
            RULESET.setup({**spec, "options": {"width": 20, "height": 20, "features": [bad]}})


def test_features_and_ships_block_moves():
    """Decision (seed 1. MOVIMENT I MANIOBRA with "Col·lisions"): a ship never chooses to enter the
    hex of a planet, a moon, an obstacle or another ship -- forward and slides into them are not
    legal moves (to hit a ship on purpose it declares a ram)."""
    left, right = hexes.neighbour((5, 10), 5), hexes.neighbour((5, 10), 1)
    s = movement(combat(ship("a", "A", 5, 10, 0), ship("b", "B", *left, 0), features=[rules.Feature("planet", 5, 9)]))
    opts = {(m.kind, m.side) for m in rules.move_options(s)}
    assert ("forward", 0) not in opts          # the planet ahead
    assert ("slide", -1) not in opts           # ship b in the forward-left hex
    assert ("slide", 1) in opts and ("turn", 1) in opts
    with pytest.raises(ValueError):
        rules.move(s, "forward")
    s2 = movement(combat(ship("a", "A", 5, 10, 0), ship("b", "B", 9, 9, 0), features=[rules.Feature("obstacle", *right)]))
    assert ("slide", 1) not in {(m.kind, m.side) for m in rules.move_options(s2)}   # the obstacle forward-right
    # the course search of the board page uses the same blocked hexes
    ms = hexes.MoveState((5, 10), 0, 8, 1)
    assert not any(m.to == (5, 9) for m in rules.moves_from(s, s.ship("a"), ms))


def test_features_block_the_line_of_fire_but_ships_do_not():
    """Decision (seed "Retirar-se del combat": "línia de visió sense cap mena d'obstacle"): planets,
    moons and obstacles strictly between two ships block fire, as they block a jump; other ships do not."""
    a, b = ship("a", "A", 5, 10, 0), ship("b", "B", 5, 6, 3)
    s = firing(combat(a, b, features=[rules.Feature("obstacle", 5, 8)]))
    assert rules.fire_options(s) == []
    s = firing(combat(ship("a", "A", 5, 10, 0), ship("b", "B", 5, 6, 3), ship("c", "A", 5, 8, 0)))
    assert ("l", "b") in rules.fire_options(s)       # a fires past its own ship c
    s = firing(combat(ship("a", "A", 5, 10, 0), ship("b", "B", 5, 6, 3), features=[rules.Feature("moon", 9, 8)]))
    assert ("l", "b") in rules.fire_options(s)       # a feature off the line does not block
    assert hexes.clear_line((5, 10), (5, 6), {(5, 8)}) is False
    assert hexes.clear_line((5, 10), (5, 6), {(5, 10), (5, 6)}) is True   # the end hexes never block


# ---------------------------------------------------------------- accidental collisions
@pytest.mark.parametrize("mover_facing,other_facing,side_hit,kind", [
    (0, 3, 0, "head_on"),          # nose to nose: frontal
    (0, 3, 1, "front_diagonal"),   # opposite courses, hit on a front diagonal (after a slide)
    (0, 0, 3, "rear"),             # same course, into its tail
    (0, 0, 2, "rear_diagonal"),    # same course, on a rear diagonal (a slide)
    (0, 1, 2, "t_bone"),           # courses 60 degrees apart: crossing
    (0, 2, 1, "t_bone"),           # 120 degrees apart: crossing
    (0, None, None, "t_bone"),     # an obstacle has no course
])
def test_collision_kind_from_the_facings_and_the_hexside_hit(mover_facing, other_facing, side_hit, kind):
    """Seed "Col·lisions accidentals": frontal or diagonally from the front +3D; from behind or
    diagonally from behind -3D; T no modifier.  Decision: one kind per collision, from the two
    facings (opposite: front family, equal: rear family, crossing: T) and the hexside hit."""
    assert hexes.collision_kind(mover_facing, other_facing, side_hit) == kind
    assert str(rules.collision_code(kind)) == {9: "8D", -9: "2D", 0: "5D"}[tables.COLLISION_MODIFIER[kind]]


def test_collision_kind_on_the_board_geometry():
    """Seed "Col·lisions accidentals" on the hex map: the hexside of the struck ship the mover comes
    in by (hexes.relative_side) with both facings gives the kind."""
    other = ship("b", "B", 10, 10, 3)
    assert rules.collision_kind_of(ship("a", "A", 10, 11, 0), other, (10, 11)) == "head_on"
    came = hexes.neighbour((10, 10), 4)                        # from b's front-right (b faces S)
    assert hexes.relative_side((10, 10), 3, came) == 1
    assert rules.collision_kind_of(ship("a", "A", *came, 0), other, came) == "front_diagonal"
    behind = ship("c", "B", 10, 10, 0)
    assert rules.collision_kind_of(ship("a", "A", 10, 11, 0), behind, (10, 11)) == "rear"
    assert rules.collision_kind_of(ship("a", "A", *came, 0), behind, came) == "rear_diagonal"
    assert rules.collision_kind_of(ship("a", "A", 10, 11, 0), ship("d", "B", 10, 10, 2), (10, 11)) == "t_bone"


def drifting(other_facing=None, feature=None):
    a = ship("a", "A", 5, 10, 0)
    a.controls_dead_until, a.last_moved = 5, 2
    others = [] if other_facing is None else [ship("b", "B", 5, 8, other_facing)]
    extra = [ship("z", "B", 15, 15, 0)] if other_facing is None else []
    return movement(combat(a, *others, *extra, features=[feature] if feature else []))


@pytest.mark.parametrize("other_facing,code,n", [(3, "8D", 8), (0, "2D", 2), (1, "5D", 5)])
def test_a_drift_into_a_ship_is_an_accidental_collision(other_facing, code, n):
    """Seed "Col·lisions accidentals" (5D; frontal +3D, from behind -3D, T none) and "Controls
    ionitzats" (the drift).  Decision: a drift into another ship's hex is an accidental collision:
    both ships take the damage (the struck ship first), shields, hull and the table as for a hit;
    the drifting ship stops in the hex before it."""
    s = drifting(other_facing)
    assert kinds(s) == ["drift"]
    f = Faces(*[1] * n, 6, 6, *[1] * n, 6, 6)     # b: damage n, hull 12 holds; then a the same
    s2 = RULESET.apply(s, Action.make("drift", "a"), f.dice)
    s, log = s2.state, s2.log
    assert f.used_up
    assert s.ship("a").pos == (5, 9) and s.ship("b").pos == (5, 8)
    assert sum(f"takes {code} collision damage" in e.text for e in log) == 2
    assert rules.SEC_COLLISION in rules_of(log) and sum("holds" in e.text for e in log) == 2
    assert s.ship("a").in_play and s.ship("b").in_play and s.moving.ship == "b"


def test_a_drift_into_an_obstacle_is_a_t_collision_and_both_ships_destroyed_ends_the_fight():
    """Seed "Col·lisions accidentals": an obstacle (decision: no course -> T, 5D; it takes nothing);
    seed 3. "Retirar-se del combat": with no ship left in play the combat ends at once (decision)."""
    s = drifting(feature=rules.Feature("obstacle", 5, 8))
    f = Faces(1, 1, 1, 1, 1, 6, 6)
    s, log = rules.drift(s, f.dice)
    assert f.used_up and s.ship("a").pos == (5, 9)
    assert any("T-collision" in e.text for e in log) and any("takes 5D collision damage from Obstacle" in e.text
                                                              for e in log)
    # a head-on drift collision that destroys both ships
    s = drifting(3)
    f = Faces(*[6] * 8, 1, 1, *[6] * 8, 1, 1)
    s, log = rules.drift(s, f.dice)
    assert s.ship("a").destroyed and s.ship("b").destroyed and s.over and s.winner is None
    assert RULESET.legal_actions(s) == []


# ---------------------------------------------------------------- deliberate ramming
def ram_setup(target_facing=3, target_pos=(5, 7), features=(), extra=(), rammer_pos=(5, 10)):
    a = ship("a", "A", *rammer_pos, 0)
    b = ship("b", "B", *target_pos, target_facing)
    return movement(combat(a, b, *extra, features=features))


def test_ram_is_declared_before_moving_against_a_reachable_enemy():
    """Seed 4. "Fase de moviment" (rams declared before moving) and "Col·lisions premeditades".
    Decision: a ship of another side, 1 to speed-points hexes away, no feature on the line."""
    s = ram_setup(extra=[ship("c", "A", 6, 9, 0), ship("d", "B", 5, 0, 3)])
    assert rules.ram_targets(s) == ["b"]                     # c is a friend; d is 10 hexes away (speed 8)
    assert Action.make("ram", "a", target="b") in RULESET.legal_actions(s)
    s2, _ = rules.move(s, "turn", 1)
    assert rules.ram_targets(s2) == [] and "ram" not in kinds(s2)    # it has spent a point
    blocked = ram_setup(features=[rules.Feature("obstacle", 5, 8)])
    assert rules.ram_targets(blocked) == []
    with pytest.raises(IllegalAction):
        RULESET.apply(blocked, Action.make("ram", "a", target="b"), dice())


def test_a_tied_ram_succeeds_both_take_collision_damage_and_the_target_is_knocked_away():
    """Seed "Col·lisions premeditades" 1-5: piloting + maneuverability each; the target avoids only
    if it *exceeds* the rammer (a tie rams); both take collision damage (decision; here head-on,
    +3D); the rammer ends in the target's hex with its facing; the target ends in the adjacent hex
    of 1D6 (hexside, 1 = N), facing 1D6."""
    s = ram_setup()
    f = Faces(3, 3, 3, 3, *[1] * 8, 6, 6, *[1] * 8, 6, 6, 2, 5)
    step = RULESET.apply(s, Action.make("ram", "a", target="b"), f.dice)
    s, log = step.state, step.log
    assert f.used_up
    a, b = s.ship("a"), s.ship("b")
    assert a.pos == (5, 7) and a.facing == 0
    assert b.pos == hexes.neighbour((5, 7), 1) and b.facing == 4
    assert any("6 against B 6 -- rammed" in e.text for e in log)
    assert sum("takes 8D collision damage" in e.text for e in log) == 2
    assert {tables.SEC_RAM, tables.SEC_DECLARE} <= rules_of(log)
    assert s.phase == "movement" and s.moving.ship == "b" and a.last_moved == 3
    assert "rams" in english(RULESET.describe(ram_setup(), Action.make("ram", "a", target="b")))


def test_a_ram_the_target_exceeds_fails_and_the_target_moves_one_hex_forward():
    """Seed "Col·lisions premeditades" 3-5: the target rolls higher -- no collision; it moves one hex
    forward; the rammer still ends in the hex the target occupied, facing as it did."""
    s = ram_setup(target_facing=0)
    f = Faces(1, 1, 6, 5)
    s, log = rules.ram(s, "b", f.dice)
    assert f.used_up
    assert s.ship("b").pos == (5, 6) and s.ship("b").facing == 0 and s.ship("a").pos == (5, 7)
    assert not any("collision damage" in e.text for e in log) and "avoids" in log[1].text


def test_ram_at_the_board_edge_and_into_occupied_hexes():
    """Seed "Retirar-se del combat" ("Quan surt del taulell") with "Col·lisions premeditades" 5.
    Decisions: a target dodging off the board, or knocked off it, leaves the combat; one that cannot
    dodge (the hex ahead occupied) stays and the rammer stops next to it; a knock onto an occupied
    hex is rolled again."""
    s = ram_setup(target_facing=0, target_pos=(5, 0), rammer_pos=(5, 3))
    s, _ = rules.ram(s, "b", dice(1, 1, 6, 6))
    assert s.ship("b").off_board and not s.ship("b").in_play and s.ship("a").pos == (5, 0)
    # knocked off the board: hexside 1 (N) from (5, 0); no facing roll
    s = ram_setup(target_facing=3, target_pos=(5, 0), rammer_pos=(5, 3))
    f = Faces(3, 3, 3, 3, *[1] * 8, 6, 6, *[1] * 8, 6, 6, 1)
    s, log = rules.ram(s, "b", f.dice)
    assert f.used_up and s.ship("b").off_board and s.ship("a").pos == (5, 0)
    # cannot dodge: an obstacle ahead of the target
    s = ram_setup(target_facing=0, features=[rules.Feature("obstacle", 5, 6)])
    s, log = rules.ram(s, "b", dice(1, 1, 6, 6))
    assert s.ship("b").pos == (5, 7) and s.ship("a").pos == (5, 8)
    # knocked towards ship c (hexside 2 = NE): rolled again, 4 = S
    c_hex = hexes.neighbour((5, 7), 1)
    s = ram_setup(extra=[ship("c", "A", *c_hex, 0)])
    f = Faces(3, 3, 3, 3, *[1] * 8, 6, 6, *[1] * 8, 6, 6, 2, 4, 1)
    s, log = rules.ram(s, "b", f.dice)
    assert f.used_up and s.ship("b").pos == hexes.neighbour((5, 7), 3) and s.ship("b").facing == 0
    assert any("rolled again" in e.text for e in log)


def test_ram_rolls_use_the_scale_caps_of_maneuverability():
    """Seed 6. ESCALES "Escala per maniobres evasives": a capital ship's maneuverability dice over 2
    count 2 against a starfighter -- in its ram roll too (decision)."""
    cap = ship("a", "A", 5, 10, 0, scale="capital", maneuverability="1D", speed=4)
    s = movement(combat(cap, ship("b", "B", 5, 8, 3)))
    # capital: piloting 1D (6) then maneuverability 1D capped (6 -> 2) = 8; b: 1D + 1D = 4 + 4 = 8 -> tie rams
    f = Faces(6, 6, 4, 4, *[1] * 8, 6, 6, *[1] * 8, 6, 6, 3, 1)
    s, log = rules.ram(s, "b", f.dice)
    assert f.used_up and any("8 against B 8 -- rammed" in e.text for e in log)


# ---------------------------------------------------------------- hyperspace
def jumper(*features, facing=0, pos=(5, 10), **stats):
    a = ship("a", "A", *pos, facing, hyperdrive="x1", **stats)
    return movement(combat(a, ship("z", "B", 19, 19, 0), features=list(features)))


def test_a_jump_to_hyperspace_leaves_the_combat():
    """Seed "Retirar-se del combat": "Quan salta a l'hiperespai" -- declared before moving (4. "Fase
    de moviment"); the ship escapes: out of the combat, not destroyed."""
    s = jumper()
    assert "jump" in kinds(s) and rules.jump_problems(s) == []
    step = RULESET.apply(s, Action.make("jump", "a"), dice())
    a = step.state.ship("a")
    assert a.escaped and not a.in_play and not a.destroyed
    assert {tables.SEC_RETREAT, tables.SEC_DECLARE} <= rules_of(step.log)
    assert step.state.moving.ship == "z"
    assert "hyperspace" in english(RULESET.describe(s, Action.make("jump", "a")))


@pytest.mark.parametrize("feature,legal", [
    (rules.Feature("planet", 15, 10), True),     # exactly 10 hexes: "a 10 hexàgons" read as at least
    (rules.Feature("planet", 14, 10), False),    # 9
    (rules.Feature("moon", 9, 10), True),        # 4
    (rules.Feature("moon", 8, 10), False),       # 3
    (rules.Feature("obstacle", 5, 3), False),    # on the line of sight ahead
    (rules.Feature("obstacle", 7, 3), True),     # off it
])
def test_jump_distances_and_line_of_sight(feature, legal):
    """Seed "Retirar-se del combat": a line of sight "sense cap mena d'obstacle", at least 10 hexes
    from the nearest planet and 4 from any moon.  Decision: the line of sight is the ray of hexes
    straight ahead to the board edge."""
    s = jumper(feature)
    assert (not rules.jump_problems(s)) is legal
    assert ("jump" in kinds(s)) is legal


def test_jump_needs_an_operative_hyperdrive_a_clear_ray_and_no_move_first():
    """Seed "Retirar-se del combat" and 5. considerable 3 ("Motor d'hiperespai inoperant").
    Decisions: no hyperdrive, a broken one, a ship on the ray ahead, a move already made, a shut-down
    generator, a tractor beam holding it: no jump.  At the board edge facing out, the ray is empty."""
    assert rules.jump_problems(movement(combat(ship("a", "A", 5, 10, 0), ship("z", "B", 19, 19, 0))))
    s = jumper()
    s.ship("a").hyperdrive_out = True
    assert "hyperdrive is out" in " ".join(map(english, rules.jump_problems(s)))
    s = movement(combat(ship("a", "A", 5, 10, 0, hyperdrive="x1"), ship("z", "B", 5, 2, 3)))
    assert "line of sight" in " ".join(map(english, rules.jump_problems(s)))
    s, _ = rules.move(jumper(), "turn", 1)
    assert "jump" not in kinds(s)
    s = jumper()
    s.ship("a").generator_shutdown = True
    assert rules.jump_problems(s)
    s = jumper()
    s.ship("a").captured_by, s.ship("a").captured_weapon = "z", "tb"
    assert rules.jump_problems(s)
    s = jumper(pos=(5, 0))
    assert hexes.ray((5, 0), 0, s.hboard) == [] and not rules.jump_problems(s)


# ---------------------------------------------------------------- tractor beams
def tractor_fight(distance=2):
    h = ship("h", "A", 5, 10, 0, weapons=[TRACTOR, {**TRACTOR, "id": "tb2"}])
    b = ship("b", "B", 5, 10 - distance, 3)
    return combat(h, b)


def captured():
    s = firing(tractor_fight())
    assert ("tb", "b") in rules.fire_options(s)        # tractor beams fire now: ranges 1/2/3
    s, log = rules.fire(s, "tb", "b", dice(6, 6, 1, 1))  # 2D = 12 against 2D = 2: hit, no damage roll
    assert s.shots[0].hit and s.shots[0].tractor and s.shots[0].damage == 0
    s, _ = rules.end_fire(s)
    s, _ = rules.end_fire(s)
    s, log = rules.resolve_firing(s, dice())           # no dice: no damage is rolled
    assert s.ship("b").captured_by == "h" and s.ship("b").captured_weapon == "tb"
    assert rules.SEC_TRACTOR in rules_of(log) and s.ship("b").damage == []
    return s


def test_a_tractor_beam_hit_captures_without_damage():
    """Seed "Raigs tractors": "queda capturat sense sofrir danys"; ranges 1/2/3 ("Armes de les naus
    capitals"), the normal to-hit roll; the capture holds after all fire (simultaneous fire)."""
    s = captured()
    assert serial.from_json(rules.CombatState, serial.to_json(s)) == s
    far = firing(tractor_fight(4))
    assert rules.fire_options(far) == []              # 4 hexes: beyond long range (3)


def test_a_held_ship_cannot_move_and_breaks_free_only_with_a_greater_hull_roll():
    """Seed "Raigs tractors": free only with a hull roll *greater* than the beam's strength (its
    listed damage, rolled): a tie holds.  Decisions: held, a ship only holds or tries to break free
    (before moving); failing ends its movement; freed, it moves normally; it may still fire."""
    s = movement(captured())
    s, _ = rules.move(s, "hold")                         # h holds
    assert kinds(s) == ["move", "break_free"]         # hold only, no forward or turn
    f = Faces(3, 3, 2, 2, 2)                          # hull 2D 6 against strength 3D 6: tie, held
    step = RULESET.apply(s, Action.make("break_free", "b"), f.dice)
    s = step.state
    assert f.used_up and s.ship("b").captured_by == "h" and s.phase == "firing"
    assert "must be greater" in step.log[-2].text
    s, _ = rules.end_fire(s)
    assert ("l", "h") in rules.fire_options(s)            # the held ship fires
    s, _ = rules.end_fire(s)
    s, _ = rules.resolve_firing(s, dice())
    s = movement(s)
    s, _ = rules.move(s, "hold")
    s, log = rules.break_free(s, dice(6, 6, 1, 1, 1))     # 12 > 3: free
    assert s.ship("b").captured_by is None and s.moving.ship == "b"
    assert ("forward", 0) in {(m.kind, m.side) for m in rules.move_options(s)}


def test_a_beam_that_holds_is_busy_and_a_held_ship_is_not_caught_twice():
    """Seed "Raigs tractors".  Decisions: a tractor beam holding a ship does not fire; a ship already
    held is not a target of another beam."""
    s = firing(captured())
    assert s.queue[0] == "h" and rules.fire_options(s) == []   # tb holds b; tb2 may not take b too


def test_the_hold_ends_when_the_holder_is_destroyed_moves_away_or_shuts_down():
    """Seed "Raigs tractors".  Decisions: released when the holder leaves the combat (destroyed
    here), moves more than 3 hexes away (no pulling), or shuts its generator down."""
    s = captured()
    s2, log = rules.apply_damage(s, "h", 40, dice(1, 1))
    assert s2.ship("h").destroyed and s2.ship("b").captured_by is None
    assert any("released" in e.text for e in log)
    s = movement(captured())
    for _ in range(3):
        s, _ = rules.move(s, "turn", 1)                  # h turns to face S, away from b at (5, 8)
    s, log = rules.move(s, "forward")                    # (5, 11): 3 hexes, still held
    assert s.ship("b").captured_by == "h"
    s, log = rules.move(s, "forward")                    # (5, 12): 4 hexes -- no pulling, released
    assert s.ship("b").captured_by is None and any(tables.SEC_TRACTOR == e.rule for e in log)
    s = captured()
    s.ship("h").generator_overload_round = 3
    s = movement(s)
    s, log = rules.shutdown(s)
    assert s.ship("b").captured_by is None


# ---------------------------------------------------------------- generator overload
def overloaded(speed=9):
    a = ship("a", "A", 5, 10, 0, speed=speed, shields="1D")
    a.generator_overload_round = 3
    return movement(combat(a, ship("b", "B", 10, 2, 3)))


@pytest.mark.parametrize("speed,aux", [(9, 3), (8, 2), (1, 1), (5, 2), (0, 0)])
def test_shutting_down_the_generator_gives_a_quarter_speed_rounded_up(speed, aux):
    """Seed 5. considerable 2 "Sobrecàrrega en el generador": a ship that shuts its generator down
    runs on auxiliary batteries -- movement at 1/4 of its speed, rounded up."""
    s = overloaded(speed)
    assert "shutdown" in kinds(s)
    s = RULESET.apply(s, Action.make("shutdown", "a"), dice()).state
    assert s.moving.speed_left == aux and tables.auxiliary_speed(speed) == aux
    assert s.ship("a").generator_shutdown and s.ship("a").generator_overload_round is None
    assert "shutdown" not in kinds(s)


def test_a_shut_down_generator_does_not_explode_and_every_other_system_is_off():
    """Seed 5. considerable 2: shut down, the generator does not explode; "Tots els altres sistemes
    queden inoperants": no firing, no shields (decision: shutdown before moving; piloting evades)."""
    s, log = rules.shutdown(overloaded())
    assert tables.SEC_OVERLOAD in rules_of(log)
    for _ in range(3):
        s, _ = rules.move(s, "forward")
    assert not any(m.kind == "forward" for m in rules.move_options(s))   # 3 points only
    s, _ = rules.move(s, "hold")
    s, _ = rules.move(s, "hold")
    assert s.phase == "firing" and s.queue[0] == "a" and rules.fire_options(s) == []
    f = Faces(1, 1)                               # shields 1D not rolled: only the hull 2D
    s2, log = rules.apply_damage(s, "a", 1, f.dice)
    assert f.used_up and any("shields are off" in e.text for e in log)
    assert not rules.considerable_applies(s.ship("a"), 2)       # no second overload
    for rnd in (1, 2, 3):
        s, _ = rules.end_fire(s)
        s, _ = rules.end_fire(s)
        s, log = rules.resolve_firing(s, dice())
        assert not s.ship("a").destroyed and not any("explodes" in e.text for e in log)
        s = movement(s)
        assert s.moving.speed_left == 3
        s, _ = rules.move(s, "hold")
        s, _ = rules.move(s, "hold")


def test_shutdown_only_before_moving_and_only_when_overloaded():
    """Seed 5. considerable 2 with 4. "Fase de moviment".  Decision: the shutdown is declared at the
    start of the ship's movement; without an overload there is nothing to shut down."""
    s, _ = rules.move(overloaded(), "turn", 1)
    assert "shutdown" not in kinds(s)
    s = movement(combat(ship("a", "A", 5, 10, 0), ship("b", "B", 5, 6, 3)))
    assert "shutdown" not in kinds(s)
    with pytest.raises(ValueError):
        rules.shutdown(s)


# ---------------------------------------------------------------- evacuation
def test_the_crew_evacuates_a_ship_with_structural_damage():
    """Seed 5. considerable 5 "Danys estructurals": "La tripulació té 1D rondes per evacuar la nau".
    Decision: ``evacuate`` on the ship's movement step (even with dead controls): the ship leaves
    the combat, not destroyed; the crew is saved; it does not break up."""
    a = ship("a", "A", 5, 10, 0)
    a.structural_round = 2
    a.controls_dead_until = 2
    s = movement(combat(a, ship("b", "B", 5, 6, 3)))
    assert kinds(s) == ["drift", "evacuate"]
    step = RULESET.apply(s, Action.make("evacuate", "a"), dice())
    s = step.state
    assert s.ship("a").evacuated and not s.ship("a").in_play and not s.ship("a").destroyed
    assert tables.SEC_STRUCTURAL in rules_of(step.log) and s.moving.ship == "b"
    s, _ = rules.move(s, "hold")
    s, _ = rules.end_fire(s)
    s, log = rules.resolve_firing(s, dice())
    assert not any("breaks up" in e.text for e in log) and s.over and s.winner == "B"
    assert "evacuate" not in kinds(movement(combat(ship("a", "A", 5, 10, 0), ship("b", "B", 5, 6, 3))))


def test_special_states_round_trip_and_apply_is_pure():
    """Plain data (rulesets.core.serial): the new fields round-trip; apply never changes its input."""
    s = ram_setup()
    before = serial.to_json(s)
    RULESET.apply(s, Action.make("ram", "a", target="b"), dice(3, 3, 3, 3, *[1] * 8, 6, 6, *[1] * 8, 6, 6, 2, 5))
    assert serial.to_json(s) == before
    old = serial.to_json(s)
    old.pop("features")
    old["moving"].pop("started")
    for sh in old["ships"]:
        for key in ("escaped", "evacuated", "generator_shutdown", "captured_by", "captured_weapon"):
            sh.pop(key)
    assert serial.from_json(rules.CombatState, old).features == []     # old states still load
