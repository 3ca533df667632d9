"""Task checks: 2D6 + skill + characteristic DM + difficulty DM + DMs >= 8, each declared once.

Every roll of a task (the attack roll included) is a core :class:`rulesets.core.check.Check`
built by :func:`task_check` (issue 23, "One Check in core"): Throw(2, 6) against 8, its modifiers
the skill, the characteristic DM, the difficulty DM, "acting hastily", the Captain's coordination,
the situation's DMs and the GM's (one core modifier, labelled "GM").  Its Effect is
:attr:`rulesets.core.check.Result.effect`.  :func:`roll_check` rolls it; the odds add up its
:attr:`~rulesets.core.check.Check.bonus`.  Opposed checks stay Cepheus's own: two checks, the tie
rules and the reroll loop (:func:`opposed`).

RULES-NOTES (cepheus): Effect = total - 8; 6+ exceptional; opposed checks go to the
higher Effect, ties to the higher characteristic, then a reroll.

:data:`CHECKS` declares every check an action makes: its skill, characteristic,
difficulty, situational DMs, the opponent of an opposed check, and the section of
the text it comes from.  ``apply`` rolls it (:func:`perform`, :func:`contest`),
:mod:`.odds` computes its chances and :mod:`.view` names its skill from the same
declaration, so a rule changes in one place.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Final

from rulesets.core import check as core
from rulesets.core.check import Modifier, Throw
from rulesets.core.messages import Words, msg

from .crew import SKILL_LABEL, char_of, current_chars, is_npc, skill_of
from .queries import (
    DAMAGED_MOUNT, boarding_leader, fire_control, intel_dm, navigator_of, pilot_of, sensor_dm, sensor_operator,
    uses_intel,
)
from .tables import (
    COLLISION_SITUATIONS, COLLISION_SPEED_MISMATCH_DM, DIFFICULTY, DIFFICULTY_LABEL, EXCEPTIONAL, SEC, SEC_COLLISION,
    SEC_REENTRY, TARGET, reentry_dms,
)

if TYPE_CHECKING:
    from rulesets.core.engine import Action

    from .state import Crew, Ship, Tx

#: a task check's dice: 2D6 (summed)
TWO_D6: Final = Throw(2, 6)

#: the labels of a task check's own modifiers
CHAR_DM_LABEL: Final = {
    "str": msg("cepheus.mod.str", "Str DM"), "dex": msg("cepheus.mod.dex", "Dex DM"),
    "end": msg("cepheus.mod.end", "End DM"), "int": msg("cepheus.mod.int", "Int DM"),
    "edu": msg("cepheus.mod.edu", "Edu DM"), "soc": msg("cepheus.mod.soc", "Soc DM"),
}
HASTY_DM: Final = Modifier(msg("cepheus.mod.hasty", "acting hastily (house rule)"), -1)
COORDINATION: Final = msg("cepheus.mod.coordination", "Captain's coordination")
#: a difficulty's DM, by the difficulty's key
DIFFICULTY_DM: Final = {key: Modifier(DIFFICULTY_LABEL[key], dm) for key, dm in DIFFICULTY.items()}
#: the labels of the situation's modifiers
UNWILLING: Final = msg("cepheus.mod.unwilling", "docking with an unwilling ship")
NOISE: Final = msg("cepheus.mod.noise", "considerable noise")
SPEED_MISMATCH: Final = msg("cepheus.mod.speed_mismatch", "speed differs from the debris")
HURRIED: Final = msg("cepheus.mod.hurried", "hurried into one turn")
TARGET_JAMMING: Final = msg("cepheus.mod.target_jamming", "target's sensor jamming")
ENCRYPTION: Final = msg("cepheus.mod.encryption", "encryption")
J_DRIVE_DAMAGED: Final = msg("cepheus.mod.j_drive_damaged", "J-drive damaged")
AUTO_REPAIR: Final = msg("cepheus.mod.auto_repair", "Auto-Repair software")
TIE: Final = msg("cepheus.log.opposed_tie", "Tied Effect and characteristic: reroll.")


@dataclass(frozen=True)
class Task:
    """One task check an action makes, declared once: :meth:`build` gives the core
    :class:`~rulesets.core.check.Check` it rolls in a situation (the odds count that same value;
    :func:`perform` rolls it)."""

    skill: str
    char: str
    #: the difficulty's key in tables.DIFFICULTY; "" for an opposed check
    difficulty: str
    rule: str
    #: the odds' words for success ("to dodge (attack DM-2)")
    what: Words = "success"
    #: ``dms(s, ship, crew, action)``: the situational DMs, [(source, DM)] (the GM's DM is added after them)
    dms: Callable | None = None
    #: an opposed check: ``opponent(s, ship, action)`` gives (the other ship, its crew member or None)
    opponent: Callable | None = None
    #: the opposing roll's DMs: ``their_dms(s, other_ship)``
    their_dms: Callable | None = None
    #: the difficulty when the situation sets it: ``difficulty_of(s)`` (a collision hazard)
    difficulty_of: Callable | None = None
    #: a check made inside the ship (the Captain's, a sensor lock, a repair): its roll is read by the
    #: GM and the ship's side only (docs/rulesets/cepheus.md, "What the other side reads")
    inner: bool = False

    def level(self, s) -> str:
        return self.difficulty_of(s) if self.difficulty_of is not None else self.difficulty

    def modifiers(self, s, ship, crew, action) -> list:
        """The situational DMs and the GM's circumstance DM (skill, characteristic and difficulty come
        from :func:`check_mods`)."""
        own = list(self.dms(s, ship, crew, action)) if self.dms is not None else []
        if action is not None and action.params:  # no parameters, no GM DM
            own += core.circumstance(core.gm_dm(action))
        return own

    def build(self, s, ship: Ship, crew: Crew | None, action: Action | None, purpose: str = "",
              extra=()) -> core.Check:
        """The core Check this task makes for ``crew`` of ``ship`` doing ``action`` now: 2D6 + skill
        + characteristic DM + difficulty DM + hasty + coordination + situational and GM DMs >= 8;
        ``extra``: an attempt's DM (point defence's next missile)."""
        return task_check(ship, crew, self.skill, self.char, self.level(s),
                          self.modifiers(s, ship, crew, action) + list(extra), purpose, self.rule)

    def opposing(self, s, ship: Ship, action: Action) -> core.Check:
        """The opponent's core Check of an opposed task (no difficulty; its own DMs)."""
        assert self.opponent is not None  # an opposed check
        other, their = self.opponent(s, ship, action)
        their_extra = self.their_dms(s, other) if self.their_dms is not None else []
        return task_check(other, their, self.skill, self.char, "", their_extra, rule=self.rule)

    @property
    def skill_label(self) -> str:
        return SKILL_LABEL.get(self.skill, self.skill)


def _target(s, action):
    return s.ship(action.get("target"))


def _their_pilot(s, ship, action):
    other = _target(s, action)
    return other, pilot_of(other)


def _their_sensor_operator(s, ship, action):
    other = _target(s, action)
    return other, sensor_operator(other)


def _their_navigator(s, ship, action):
    other = _target(s, action)
    return other, navigator_of(other)


def _their_jammer(s, ship, action):
    jammer = s.ship(ship.jammed)
    return jammer, sensor_operator(jammer)


def _their_boarding_leader(s, ship, action):
    other = _target(s, action)
    return other, boarding_leader(other)


def _intel_on_target(s, ship, crew, action):
    return intel_dm(ship, action.get("target"))


def _mount_dms(s, ship, crew, action):
    mount = ship.mount(action.get("mount"))
    return [(fire_control(ship), ship.fire_control)] + (
        [(DAMAGED_MOUNT, -2)] if mount is not None and mount.hits == 1 else [])


def _own_sensors(s, ship, crew, action):
    return sensor_dm(ship)


def _their_sensors(s, other):
    return sensor_dm(other)


def _noise(s, ship, crew, action):
    return sensor_dm(ship) + ([(NOISE, -2)] if s.options.comms_noise else [])


def _hazard(s):
    return COLLISION_SITUATIONS[s.options.hazard][1]


def _collision_dms(s, ship, crew, action):
    out = [(SPEED_MISMATCH, COLLISION_SPEED_MISMATCH_DM)] if s.options.hazard_mismatch else []
    return out


def _reentry(s, ship, crew, action):
    return reentry_dms(s.options.world_size, s.options.world_atmosphere)[0]


#: every check an action makes, by the action's kind
CHECKS: dict[str, Task] = {
    "initiative": Task("tactics", "int", "average", SEC["initiative"], inner=True),
    # reactions (the ship is the target of the attack, the crew member the one reacting)
    "dodge": Task("pilot", "dex", "average", SEC["dodge"], msg("cepheus.odds.to_dodge", "to dodge (attack DM-2)"),
                   dms=lambda s, ship, crew, a: intel_dm(ship, s.pending.attacker)),
    "sand": Task("gunnery_turret", "dex", "average", SEC["sand"], msg("cepheus.odds.for_sand", "for sand (-1D6 per beam)"), dms=_mount_dms),
    "point_defence": Task("gunnery_turret", "dex", "average", SEC["point_defence"], msg("cepheus.odds.a_missile_destroyed", "a missile destroyed"),
                           dms=_mount_dms),
    # the Captain
    "coordinate": Task("leadership", "soc", "average", SEC["coordinate"], inner=True),
    "increase_initiative": Task("leadership", "soc", "average", SEC["increase_initiative"], inner=True),
    "exploit": Task("tactics", "int", "easy", SEC["intercept"], inner=True),
    # the pilot
    "evasive": Task("pilot", "dex", "average", SEC["evasive"]),
    "line_up": Task("pilot", "dex", "average", SEC["line_up"], inner=True),
    "pursue": Task("pilot", "dex", "", SEC["pursue"], msg("cepheus.odds.to_win", "to win"), dms=_intel_on_target, opponent=_their_pilot),
    "break_pursuit": Task("pilot", "dex", "", SEC["break_pursuit"], msg("cepheus.odds.to_win", "to win"), dms=_intel_on_target,
                           opponent=_their_pilot),
    "ram": Task("pilot", "dex", "", SEC["ram"], msg("cepheus.odds.to_ram", "to ram"), dms=_intel_on_target, opponent=_their_pilot),
    "dock": Task("pilot", "dex", "average", SEC["dock"], msg("cepheus.odds.to_dock", "to dock")),
    "avoid_collision": Task("pilot", "dex", "", SEC_COLLISION, msg("cepheus.odds.to_avoid_collision", "to avoid collision"), dms=_collision_dms,
                             difficulty_of=_hazard),
    "orbit": Task("pilot", "dex", "routine", SEC["planetary"]),
    "reentry": Task("pilot", "dex", "average", SEC_REENTRY, dms=_reentry),
    # the navigator
    "jump_plot": Task("navigation", "edu", "easy", SEC["jump_plot"],
                       dms=lambda s, ship, crew, a: [(HURRIED, -1)], inner=True),
    "range_check": Task("navigation", "edu", "", SEC["range_check"], msg("cepheus.odds.to_choose_the_range", "to choose the range"), dms=_intel_on_target,
                         opponent=_their_navigator),
    # the sensor operator
    "sensor_target": Task("comms", "edu", "average", SEC["sensor_targeting"], msg("cepheus.odds.to_get_a_sensor_lock", "to get a sensor lock"),
                           dms=lambda s, ship, crew, a: sensor_dm(ship) + [
                               (TARGET_JAMMING, -_target(s, a).electronics)], inner=True),
    "jam": Task("comms", "int", "", SEC["ew"], msg("cepheus.odds.to_jam", "to jam"),
                 dms=lambda s, ship, crew, a: sensor_dm(ship) + intel_dm(ship, a.get("target")),
                 opponent=_their_sensor_operator, their_dms=_their_sensors),
    "ew_missiles": Task("comms", "int", "difficult", SEC["ew"], msg("cepheus.odds.smart_missiles_jammed", "smart missiles jammed"), dms=_own_sensors),
    "intercept": Task("comms", "int", "difficult", SEC["intercept"], msg("cepheus.odds.to_intercept", "to intercept"),
                       dms=lambda s, ship, crew, a: sensor_dm(ship) + (
                           [(ENCRYPTION, -2)] if s.options.encrypted else []), inner=True),
    "maintain_comms": Task("comms", "int", "routine", SEC["maintain_comms"], msg("cepheus.odds.to_keep_comms", "to keep comms"), dms=_noise,
                            inner=True),
    # the engineer and damage control
    "jump": Task("engineering", "edu", "average", SEC["jump_plot"], msg("cepheus.odds.to_jump_away", "to jump away"),
                  dms=lambda s, ship, crew, a: [(J_DRIVE_DAMAGED, -2)] if ship.hits.get("j_drive", 0) == 1 else []),
    "repair": Task("mechanic", "edu", "average", SEC["repair"], msg("cepheus.odds.to_repair", "to repair"),
                    dms=lambda s, ship, crew, a: [(AUTO_REPAIR, 1)] if crew.automated == "repair" else [],
                    inner=True),
    "overhaul": Task("mechanic", "edu", "difficult", SEC["extended"], msg("cepheus.odds.to_start_the_rebuild", "to start the rebuild"), inner=True),
    # boarding: the leaders' opposed Tactics
    "board": Task("tactics", "int", "", SEC["abstract_boarding"], msg("cepheus.odds.to_win_the_boarding_round", "to win the boarding round"),
                   opponent=_their_boarding_leader),
}

#: docking with an unwilling ship: opposed by its pilot, at DM-2 (Agganciare un altro vascello)
DOCK_UNWILLING = Task("pilot", "dex", "", SEC["dock"], msg("cepheus.odds.to_dock", "to dock"),
                       dms=lambda s, ship, crew, a: [(UNWILLING, -2)] + intel_dm(
                           ship, a.get("target")),
                       opponent=_their_pilot)
#: restoring comms through the jamming: Routine, opposed by the jammer (Mantieni le comunicazioni)
COMMS_THROUGH_JAMMING = Task("comms", "int", "", SEC["maintain_comms"], msg("cepheus.odds.to_keep_comms", "to keep comms"),
                              dms=lambda s, ship, crew, a: [(DIFFICULTY_DM["routine"])] + _noise(s, ship, crew, a),
                              opponent=_their_jammer, their_dms=_their_sensors)


def unwilling(s, ship, target) -> bool:
    """Agganciare: an enemy that can act and has a pilot resists docking."""
    return target.side != ship.side and target.can_act and pilot_of(target) is not None


def jammed_by(s, ship):
    """The ship jamming ``ship``'s comms, while it is still in the fight (None otherwise)."""
    if ship.jammed and s.find_ship(ship.jammed) and s.ship(ship.jammed).alive:
        return s.ship(ship.jammed)
    return None


def declared(s, ship, action) -> Task | None:
    """The check ``action`` makes in this situation (the variants of docking and comms included)."""
    kind = action.kind
    if kind == "dock" and unwilling(s, ship, s.ship(action.get("target"))):
        return DOCK_UNWILLING
    if kind == "maintain_comms" and jammed_by(s, ship) is not None:
        return COMMS_THROUGH_JAMMING
    return CHECKS.get(kind)


def perform(tx: Tx, check: Task, ship: Ship, crew: Crew | None, action: Action | None, purpose: Words, extra=(),
            table: Words = "", row: Words = ""):
    """Roll a declared check: its DMs, then ``extra`` (an attempt's DM); returns (roll, effect)."""
    s = tx.s
    mods = check.modifiers(s, ship, crew, action)  # a new list
    if extra:
        mods.extend(extra)
    return roll_check(tx, ship, crew, check.skill, check.char, check.level(s), purpose, check.rule, mods, TARGET, table, row,
                      side=ship.side if check.inner else "")


def contest(tx: Tx, check: Task, ship: Ship, crew: Crew | None, action: Action, purpose: Words) -> bool:
    """Roll a declared opposed check against its opponent; True when ``ship`` wins."""
    assert check.opponent is not None  # an opposed check
    other, their = check.opponent(tx.s, ship, action)
    their_extra = check.their_dms(tx.s, other) if check.their_dms is not None else []
    return opposed(tx, ship, crew, other, their, check.skill, check.char, purpose, check.rule,
                   extra=check.modifiers(tx.s, ship, crew, action), their_extra=their_extra)


def roll_check(tx: Tx, ship: Ship, crew: Crew | None, skill: str, char: str, difficulty: str,
               purpose: Words, rule: str, extra=(), target: int = TARGET, table: Words = "", row: Words = "",
               side: str = ""):
    """Build the check (:func:`task_check`), roll it (:func:`rulesets.core.check.roll`), then spend
    the Captain's coordination point it used; returns (:class:`~rulesets.core.check.Result`, Effect).

    The roll is read by the GM only for an NPC ship, and by the GM and ``side`` only when ``side``
    is set (a check made inside the ship).

    A Captain's coordination point is read from the ship as the step has it now, not from ``ship``
    (which may be the ship from before the step changed it): the point is spent by this check, so
    the next check of the same step (a salvo's next weapon) no longer has it, whichever way the
    salvo resolves (at once, or after the defender's reaction).
    """
    if crew is not None and ship.bonus.get(crew.id):
        ship = tx.s.find_ship(ship.id) or ship
    check = task_check(ship, crew, skill, char, difficulty, extra, purpose, rule, target)
    result = core.roll(tx.dice, check, table=table, row=row, gm_only=is_npc(ship), side=side)
    if crew is not None and ship.bonus.get(crew.id):
        tx.ship(ship.id).bonus.pop(crew.id, None)
    return result, result.effect


def task_check(ship: Ship, crew: Crew | None, skill: str, char: str, difficulty: str, extra=(),
               purpose: Words = "", rule: str = "", target: int = TARGET) -> core.Check:
    """A task check as a core :class:`~rulesets.core.check.Check`: 2D6 + :func:`check_mods` against
    ``target`` (8)."""
    return core.Check(TWO_D6, target, check_mods(ship, crew, skill, char, difficulty, extra), rule, purpose)


def check_mods(ship: Ship, crew: Crew | None, skill: str, char: str, difficulty: str, extra=()) -> tuple:
    """The named modifiers of a task check that are not 0: skill, characteristic DM, difficulty DM,
    acting hastily, the Captain's coordination, then ``extra`` (the situation's and the GM's)."""
    mods = []
    if crew is not None:
        if skill:
            level, label = skill_of(crew, skill)
            if level:
                mods.append(Modifier(label, level))
            if char:
                dm = char_of(crew, char)
                if dm:
                    mods.append(Modifier(CHAR_DM_LABEL[char], dm))
    if difficulty and DIFFICULTY[difficulty]:
        mods.append(DIFFICULTY_DM[difficulty])
    if ship.hasty:
        mods.append(HASTY_DM)
    if crew is not None and ship.bonus:
        point = ship.bonus.get(crew.id)
        if point:
            mods.append(Modifier(COORDINATION, point))
    for m in extra:
        if m[1]:
            mods.append(m if type(m) is Modifier else Modifier(*m))
    return tuple(mods)


def effect_band(effect: int) -> str:
    if effect >= EXCEPTIONAL:
        return "exceptional success"
    if effect >= 0:
        return "success"
    if effect <= -EXCEPTIONAL:
        return "exceptional failure"
    return "failure"


def opposed(tx: Tx, ship: Ship, crew: Crew | None, other: Ship, their: Crew | None, skill: str, char: str,
            purpose: Words, rule: str, extra=(), their_extra=()) -> bool:
    """RULES-NOTES: opposed checks: higher Effect wins; ties to the higher characteristic, then reroll."""
    while True:
        r1, e1 = roll_check(tx, ship, crew, skill, char, "", purpose, rule, extra=list(extra))
        r2, e2 = roll_check(tx, other, their, skill, char, "", msg("cepheus.roll.opposes", "{ship} opposes", ship=other.name),
                            rule, extra=list(their_extra))
        if e1 != e2:
            won = e1 > e2
            break
        c1 = current_chars(crew).get(char, 7) if crew else 0
        c2 = current_chars(their).get(char, 7) if their else 0
        if c1 != c2:
            won = c1 > c2
            break
        tx.say(TIE, SEC["opposed_tie"])
    if uses_intel(extra):
        use_intel(tx, ship.id, other.id)
    return won


def use_intel(tx: Tx, ship_id: str, enemy_id: str):
    sh = tx.s.ship(ship_id)
    if sh.intel == enemy_id:
        tx.ship(ship_id).intel = ""
