"""The GM's escape hatch for Void d20: any stat, status or band set by hand, as a step.

One grammar for every system (:mod:`rulesets.core.override`): "ship, path, value", the
ship by name or id.  People are reached through their ship's crew by name or id
(``Talon.crew.Ann.hp = 4``), wherever they stand now.  Pure Python.

A value is read the same whichever way it arrives (issue 25): a number (a scenario file's
``value=4``, the Action form's ``value=#4``), text (the runner's form, ``value=4`` read by
``Action.parse``), or a quoted number (``value="4"``).  Every number has the range its rule
allows (issue 26; docs/rulesets/void_d20.md, "The GM override"), and a value outside it is
refused naming the field and the range.
"""
from __future__ import annotations

from rulesets.core.engine import IllegalAction
from rulesets.core.override import OverrideField, WholeRange, one_of, parse_override, yes_no
from rulesets.core.state import set_key

from . import setup, tables, timers
from .common import combatant, evolve, set_combatant, set_ship, ship
from .model import STANDING, DOWN, OUT, VoidState, pair_key

STATUSES = (*STANDING, *DOWN, *OUT)

#: the longest count a rule of the text starts: d6 rounds (unconscious, VD-24; the reactor, VD-54;
#: a reboot, VD-63)
LONGEST_COUNT = 6


def value_text(value: object) -> str:
    """An override's value as text, whichever way it arrived: a number (``4``, ``#4``), text
    (``"4"`` from a form), or text in quotes (``'"4"'``, a scenario's ``value="4"``)."""
    if value is None:
        return ""
    if isinstance(value, bool):                # not a parameter type, but never "True"
        return "yes" if value else "no"
    text = str(value).strip()
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text


def number(lo: int, hi: int, what: str, upto: str = "") -> WholeRange:
    """A whole number from ``lo`` to ``hi`` in the digits 0-9 (:class:`rulesets.core.override.WholeRange`);
    a ValueError naming ``what`` and the range otherwise (:func:`rulesets.core.override.parse_override`
    puts the path in front).  ``upto``: the top of the range in words, where it is the ship's or
    person's own (checked again by :func:`_within`)."""
    return WholeRange(lo, hi, what, upto)


def _ship_number(key: str) -> tuple[int, int]:
    lo, hi, _ = setup.SHIP_NUMBERS[key]
    return lo, hi


FRAME_MAX = setup.SHIP_NUMBERS["frame"][1]
HP_MAX = setup.CHARACTER_NUMBERS["hp"][1]

FIELDS = (
    OverrideField("frame", number(0, FRAME_MAX, "the frame's Condition", "the ship's full frame"),
                  "the frame's Condition: 0 (drifting) to the ship's full frame",
                  current=lambda s, parts: s.frame),
    OverrideField("speed", number(*_ship_number("speed"), "Speed"),
                  "Speed (what an escape from this ship rolls against): 1 to 30",
                  current=lambda s, parts: s.speed),
    OverrideField("defence", number(*_ship_number("defence"), "Defence"),
                  "Defence (what gunnery at this ship needs): 1 to 30",
                  current=lambda s, parts: s.defence),
    OverrideField("spare_parts", number(*_ship_number("spare_parts"), "spare parts"), "spare parts left: 0 to 20",
                  label="spare parts", current=lambda s, parts: s.spare_parts),
    OverrideField("reactor", number(0, LONGEST_COUNT, "the reactor countdown"),
                  "rounds until the reactor explodes: 1 to 6 (d6), 0: no countdown",
                  label="reactor countdown", current=lambda s, parts: s.reactor or 0),
    OverrideField("reboot", number(0, LONGEST_COUNT, "the reboot"),
                  "rounds the systems stay down: 1 to 6 (d6), 0: up", current=lambda s, parts: s.reboot),
    OverrideField("band.*", one_of(*tables.BAND_ORDER), "the range band to another ship: far, medium, close or docked",
                  label="range band"),
    OverrideField("module.*", yes_no, "whether a module is knocked out (yes/no)", label="knocked out"),
    OverrideField("weapon.*", yes_no, "whether a weapon is knocked out (yes/no)", label="knocked out"),
    OverrideField("crew.*.hp", number(0, HP_MAX, "HP", "the person's full HP"), "a person's HP: 0 to their full HP", label="HP"),
    OverrideField("crew.*.void", number(0, tables.MAX_VOID_POINTS, "Void Points"),
                  "a character's Void Points: 0 to 4 (enemies have none)", label="Void Points"),
    OverrideField("crew.*.cover", one_of(*tables.COVER_ORDER), "cover: none, light, medium or full"),
    OverrideField("crew.*.status", one_of(*STATUSES), "ok, shock, bleeding, unconscious, dead, fled or surrendered"),
    OverrideField("crew.*.timer", number(1, LONGEST_COUNT, "rounds left", "6 (in shock or bleeding out: 2)"),
                  "rounds left, as the card counts them: in shock 1 to 2, unconscious 1 to 6, bleeding out 1 to 2",
                  label="rounds left"),
    OverrideField("crew.*.aboard", str, "the ship (name or id) a person is in"),
)

HELP = ("Set anything by hand: pick the ship, then a field such as frame, spare_parts, band.<other ship> "
        "(far/medium/close/docked), module.<name> or weapon.<name> (yes/no: knocked out), or "
        "crew.<name>.hp / .void / .cover / .status / .timer / .aboard.")


def _ship_by_word(state: VoidState, word: str):
    low = word.strip().lower()
    for s in state.ships:
        if s.id.lower() == low or s.name.lower() == low:
            return s
    raise IllegalAction(f"No ship called '{word}'.")


def _person(state: VoidState, ship_id: str, word: str):
    low = word.strip().lower()
    for c in state.combatants:
        if c.ship == ship_id and (c.id.lower() == low or c.name.lower() == low):
            return c
    raise IllegalAction(f"No one called '{word}' in that crew.")


def _within(path: str, what: str, n: int, hi: int, whose: str, lo: int = 0) -> None:
    """Refuse ``n`` above this ship's or person's own limit ``hi`` (the field's range has the rest)."""
    if n > hi:
        raise IllegalAction(f"{path}: {what} is a whole number from {lo} to {hi} ({whose}); {n} is outside that range.")


#: the most rounds each timed status can have left, as the card counts them (timers.rounds_left), and why
TIMER_MOST = {
    "shock": (tables.SHOCK_ROUNDS, "in shock: no actions for 2 rounds"),
    "unconscious": (LONGEST_COUNT, "unconscious: d6 rounds"),
    "bleeding": (tables.BLEED_ROUNDS + 1, "bleeding out: this round and the next to help"),
}

#: the count a status set by hand starts with, as the card reads it: the rules' own (unconscious: 1, as
#: the d6 is not rolled); bleeding out gets the death table's timer itself (the rest of this round and the next)
STATUS_ROUNDS = {"shock": tables.SHOCK_ROUNDS, "unconscious": 1}


def _person_field(state: VoidState, path: str, person, key: str, v) -> VoidState:
    """A person's field: HP and Void Points within their own range; a status with the rules' count of
    rounds; a count of rounds only for a status that has one (timers.py)."""
    if key == "hp":
        _within(path, "HP", v, person.max_hp, f"{person.name}'s full HP")
    elif key == "void" and person.kind == "enemy":
        _within(path, "Void Points", v, 0, "enemies have none")
    elif key == "timer":
        if person.status not in TIMER_MOST:
            raise IllegalAction(f"{path}: {person.name} is not in shock, unconscious or bleeding out, the statuses "
                                f"that count rounds; set .status first.")
        most, why = TIMER_MOST[person.status]
        _within(path, "rounds left", v, most, why, lo=1)
        return set_combatant(state, person.id, timer=timers.stored(state, person, person.status, v))
    elif key == "status" and v != person.status:
        rounds = STATUS_ROUNDS.get(v)
        timer = (timers.stored(state, person, v, rounds) if rounds else tables.BLEED_ROUNDS if v == "bleeding"
                 else 0)
        return set_combatant(state, person.id, status=v, timer=timer)
    return set_combatant(state, person.id, **{key: v})


def apply_override(state: VoidState, path: object, value: object) -> tuple[VoidState, str]:
    """``path = value`` applied (the value a number or text: :func:`value_text`)."""
    path = str(path or "").strip()
    if not path:  # the bare action (as a random playout may pick it): nothing to change
        return state, "GM override with nothing to change."
    request = parse_override(path, value_text(value), [(s.id, s.name) for s in state.ships], FIELDS)
    sid, parts, v = request.ship_id, request.parts, request.value
    assert sid is not None                     # Void d20 has no encounter fields: every path names a ship
    name = request.field.name
    s = ship(state, sid)
    if name == "frame":
        _within(request.path, "the frame's Condition", v, s.max_frame, f"{s.name}'s full frame")
        state = set_ship(state, sid, frame=v)
    elif name in ("speed", "defence", "spare_parts", "reboot"):
        state = set_ship(state, sid, **{name: v})
    elif name == "reactor":
        state = set_ship(state, sid, reactor=v or None)
    elif name == "band.*":
        other = _ship_by_word(state, parts[1])
        if other.id == sid:
            raise IllegalAction(f"{request.path}: a ship has no range band to itself.")
        state = evolve(state, bands=set_key(state.bands, pair_key(sid, other.id), v))
    elif name == "module.*":
        if not any(m.name.lower() == parts[1].lower() for m in s.modules):
            raise IllegalAction(f"{request.path}: {s.name} has no module '{parts[1]}'.")
        state = set_ship(state, sid, modules=tuple(evolve(m, out=v) if m.name.lower() == parts[1].lower() else m
                                                   for m in s.modules))
    elif name == "weapon.*":
        if not any(w.name.lower() == parts[1].lower() or w.id == parts[1] for w in s.weapons):
            raise IllegalAction(f"{request.path}: {s.name} has no weapon '{parts[1]}'.")
        state = set_ship(state, sid, weapons=tuple(evolve(w, out=v) if parts[1].lower() in (w.name.lower(), w.id) else w
                                                   for w in s.weapons))
    else:
        person = _person(state, sid, parts[1])
        key = parts[2].lower()
        if key == "aboard":
            state = set_combatant(state, person.id, aboard=_ship_by_word(state, v).id)
        else:
            state = _person_field(state, request.path, person, key, v)
            if key in ("status", "timer"):
                count = timers.words(state, combatant(state, person.id))
                if count is not None:
                    return state, f"{request.sentence()} ({count})"
    return state, request.sentence()


def damage_problems(state: VoidState, ship_id: str, damage: dict) -> list[str]:
    """What of a ship's carried damage (``engine.damage_of``'s record) the rules cannot mean, as
    ``"path: why"`` (issue 26), read with the override's own ranges: a character's Void Points 0 to 4
    (at most 4, Очки Пустоты), HP lost up to the person's full HP, the frame's Condition lost up to
    the full frame, spare parts used up to those the ship has, a squad's dead up to its size."""
    s = ship(state, ship_id)
    out = []

    def check(path: str, rng: WholeRange, value, top: int | None = None, whose: str = "") -> None:
        problem = rng.problem(path, value, top, whose)   # not a number: the import's own checks say so
        if problem:
            out.append(problem)

    check("frame_lost", LOST_FRAME, damage.get("frame_lost", 0), s.max_frame, "the ship's full frame")
    check("spare_parts_used", USED_PARTS, damage.get("spare_parts_used", 0), setup.SHIP_NUMBERS["spare_parts"][1],
          "the most spare parts a ship carries")
    crew = damage.get("crew") or {}
    for key, entry in (crew.items() if isinstance(crew, dict) else ()):
        if not isinstance(entry, dict):
            continue
        people = [c for c in state.combatants if c.ship == ship_id and (c.id == key or c.squad == key)]
        if not people:
            continue
        first = people[0]
        if first.kind == "enemy":
            check(f"crew.{key}.lost", SQUAD_LOST, entry.get("lost", 0), len(people), f"{first.name}'s squad")
            continue
        check(f"crew.{key}.void", VOID_POINTS, entry.get("void", 0))
        check(f"crew.{key}.hp_lost", HP_LOST, entry.get("hp_lost", 0), first.max_hp, f"{first.name}'s full HP")
    return out


#: the ranges of carried damage (the override's fields' own, where the field is the same number)
VOID_POINTS = next(f.parse for f in FIELDS if f.name == "crew.*.void")
HP_LOST = number(0, HP_MAX, "HP lost", "the person's full HP")
LOST_FRAME = number(0, FRAME_MAX, "the frame's Condition lost", "the ship's full frame")
USED_PARTS = number(0, setup.SHIP_NUMBERS["spare_parts"][1], "spare parts used")
SQUAD_LOST = number(0, setup.ENEMY_NUMBERS["count"][1], "the squad's dead", "the squad's size")
