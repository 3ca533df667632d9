"""What the GM's runner page needs beyond the log: keys, the dice prompt, the override choices, undo back.

The views stay thin: they check who may do what and call the one write path
(:mod:`encounters.log`); this module works out what the runner shows.

* :func:`action_keys` -- a keyboard key for every action, past nine too.
* :func:`dice_prompt` -- every die a step will ask for, asked at once (physical dice).
* :func:`override_choices` -- the fields a GM may set on each ship, by name, with the current value.
* :func:`undo_back_to` -- undo several steps in one request, each undo its own row.
* ``remember_pending`` / ``pending_of`` / ``forget_pending`` -- a dice prompt survives a reload, kept
  with the encounter (another device of the GM sees it).
"""
from __future__ import annotations

from django.utils.translation import gettext as _

from rulesets.core.dice import Dice, DiceError, DiceNeeded, DiceSource, InvalidFace, OwnDiceSource
from rulesets.core.messages import english, render
from rulesets.core.engine import Action, IllegalAction

from . import log as encounter_log

#: the keys of the listed actions, in order ("u" undoes and "n" auto-plays one step)
KEYS = "1234567890abcdefghijklmopqrstvwxyz"


def parse_dm(text: str) -> int:
    """The GM's circumstance DM as typed ("-2", "+1"); ValueError in words otherwise."""
    try:
        value = int(str(text).strip())
    except ValueError:
        raise ValueError(_("The DM must be a whole number such as -2 or 3, not '%(text)s'.") % {"text": text}) from None
    if abs(value) > 99:
        raise ValueError(_("A DM between -99 and 99, please."))
    return value


def action_keys(actions: list[dict]) -> list[dict]:
    """Give each action dict a ``key`` (1-9, 0, then letters; none past the last letter)."""
    for i, a in enumerate(actions):
        a["key"] = KEYS[i] if i < len(KEYS) else ""
    return actions


# ---------------------------------------------------------------- physical dice, asked at once


class _Probe(DiceSource):
    """Answers every face request, noting each die: the typed faces first, then a typical face.

    Applying a step with this source (and throwing the result away) tells the runner which
    dice the step asks for, so the GM types them all at once.  After the first die not typed
    yet, what the step asks for may depend on that die (a miss rolls no damage), so those
    dice are marked "if needed" -- unless the step asks for them in the same place whatever
    those dice show (probed again with the lowest and a middling face: each side's initiative).
    """

    LIMIT = 60

    def __init__(self, typed: list[int], fill=None):
        self.typed = list(typed)
        self.fill = fill or self._typical
        self.asked: list[dict] = []
        self.requests = 0  # each face request is a group: its dice are asked for together
        self.seen: set = set()

    def faces(self, count, sides, purpose="", rule=""):
        out = []
        group = (count, sides, purpose)
        if group in self.seen and len(self.asked) > len(self.typed):
            raise _Enough  # the same roll again past the next one needed (a tie rerolled): ask when it comes
        self.seen.add(group)
        self.requests += 1
        for nth in range(1, count + 1):
            index = len(self.asked)
            if index >= self.LIMIT:
                raise _Enough
            face = self.typed[index] if index < len(self.typed) else None
            self.asked.append({"sides": sides, "purpose": render(purpose) or _("the roll"), "nth": nth, "of": count,
                               "face": face, "group": self.requests})
            # A typed face out of range is reported by the real step; the probe reads it as a typical one.
            out.append(face if face is not None and 1 <= face <= sides else self.fill(sides))
        return out


    @staticmethod
    def _typical(sides: int) -> int:
        """A good roll, short of the top face (which may explode): it follows the branch that
        asks for the most dice (a hit rolls damage), and the GM leaves what is not needed empty."""
        return sides - 1 if sides > 2 else sides


class _Enough(Exception):
    pass


#: the other ways the probe fills a die not typed yet: the lowest face, a middling one
_OTHER_FILLS = (lambda sides: 1, lambda sides: (sides + 1) // 2)


def _probe(engine, state, action, typed, fill=None, split=None) -> _Probe:
    """The probe after applying ``action`` (thrown away) with ``typed`` then ``fill`` faces.

    ``split``: ``(mine, others)`` for a player's own dice: only the rolls ``mine(purpose)`` are
    asked for; the others are drawn from a fresh ``others()``, as the write path will draw them."""
    probe = _Probe(typed, fill)
    if action is not None:
        source = probe if split is None else OwnDiceSource(probe, split[1](), split[0])
        try:
            engine.apply(state, action, Dice(source))
        except (_Enough, IllegalAction, DiceError, ValueError, KeyError, IndexError, TypeError):
            pass  # the dice noted so far are still the right ones to ask for
    return probe


def _same_die(asked: list[dict], index: int, die: dict) -> bool:
    if index >= len(asked):
        return False
    other = asked[index]
    return all(other[k] == die[k] for k in ("sides", "purpose", "nth", "of"))


def _grouped(dice: list[dict]) -> list[dict]:
    """A prompt's dice numbered and grouped by the roll they belong to (one purpose a group)."""
    groups: list[dict] = []
    for number, d in enumerate(dice, start=1):
        d["number"] = number
        if not groups or groups[-1]["group"] != d["group"]:
            groups.append({"group": d["group"], "purpose": d["purpose"], "maybe": d["maybe"], "dice": []})
        groups[-1]["dice"].append(d)
    return groups


def dice_prompt(encounter, state, action_text: str, *, dm: str = "", faces=(), gm_only: bool = False,
                need=None, bad_index: int | None = None, error: str = "", own_seq: int | None = None) -> dict:
    """The dice prompt of a step: every die it asks for, the typed faces kept, the first empty box focused.

    ``need`` is the :class:`DiceNeeded` the write path raised (used when the probe learns
    nothing); ``bad_index`` the 0-based die a typed face was refused for.  ``own_seq``: a
    player's own dice for the step at that sequence: only the rolls that are their character's
    (``RulesetBase.own_rolls``) are asked for, the others' drawn as the write path draws them.
    """
    engine = encounter.engine
    typed = list(faces)
    try:
        action = Action.parse(action_text)
        if dm:
            action = action.with_params(dm=parse_dm(dm))
        label = engine.describe(state, action)
    except (ValueError, IllegalAction):
        action, label = None, action_text
    split = None
    if own_seq is not None and action is not None:
        mine = engine.own_rolls(state, action)
        if mine is not None:
            split = (mine, lambda: encounter_log.dice_source(encounter, own_seq, mode="auto"))
    probe = _probe(engine, state, action, typed, split=split)
    dice = probe.asked
    # Other outcomes of the dice not typed yet (all low, all middling): a die every one of them
    # asks for in the same place is needed whatever is rolled (each side's initiative), not "if needed".
    others = [_probe(engine, state, action, typed, fill, split).asked for fill in _OTHER_FILLS] if action else []
    if len(dice) < len(typed) or (need is not None and len(dice) < len(typed) + need.count):
        # The probe could not follow the step: ask for what the write path named.
        sides = need.sides if need is not None else 6
        others = []
        dice = [{"sides": sides, "purpose": _("the dice typed so far"), "nth": i + 1, "of": len(typed), "face": f,
                 "group": 0} for i, f in enumerate(typed)]
        if need is not None:
            dice += [{"sides": need.sides, "purpose": render(need.purpose), "nth": n, "of": need.count, "face": None,
                      "group": 1} for n in range(1, need.count + 1)]
    # Certainly needed: every die up to the end of the group holding the first die not typed yet.
    first_empty = next((i for i, d in enumerate(dice) if d["face"] is None), len(dice))
    sure_until = first_empty
    while sure_until < len(dice) and dice[sure_until]["group"] == dice[first_empty]["group"]:
        sure_until += 1
    out = []
    for i, d in enumerate(dice):
        always = i >= first_empty and others and all(_same_die(other, i, d) for other in others)
        out.append({**d, "maybe": i >= sure_until and not always, "bad": i == bad_index})
    focus = (bad_index + 1) if bad_index is not None else first_empty + 1
    groups = _grouped(out)
    return {"action": action_text, "dm": dm, "gm_only": gm_only, "label": label, "dice": out, "groups": groups,
            "focus": focus, "maybe": sum(1 for d in out if d["maybe"]), "face_error": error,
            "bad_index": bad_index if bad_index is not None and bad_index < len(out) else None}


# ---------------------------------------------------------------- the dice of a whole ship's turn


class TurnFaces(DiceSource):
    """The faces of a ship's turn by die key (:func:`die_key`): each step of the turn reads
    the faces typed for its own dice, whatever was typed for dice a branch did not roll (a
    miss rolls no damage).  A die not typed: ``fill(sides)`` (the probe), or :class:`DiceNeeded`.
    Every die asked is noted in ``asked``, in the order the rules roll them."""

    LIMIT = 200

    def __init__(self, typed: dict, fill=None):
        self.typed = dict(typed)
        self.fill = fill
        self.asked: list[dict] = []
        self.action = ""
        self.counts: dict = {}
        self.read: list[int] = []  # the faces the step being walked read from here
        self.requests = 0

    def begin(self, action: str):
        self.action, self.counts, self.read = action, {}, []

    def faces(self, count, sides, purpose="", rule=""):
        words = english(purpose) or "the roll"
        occurrence = self.counts.get(words, 0)
        self.counts[words] = occurrence + 1
        if occurrence >= 2 and self.fill is not None and \
                any(d["face"] is None for d in self.asked if d["words"] == words):
            raise _Enough  # the same roll again and again past a die not typed (a tie rerolled): ask when it comes
        self.requests += 1
        out = []
        for nth in range(1, count + 1):
            if self.fill is not None and len(self.asked) >= self.LIMIT:
                raise _Enough  # the probe asks at most this many at once; the real walk reads them all
            key = die_key(self.action, words, occurrence, nth)
            face = self.typed.get(key)
            self.asked.append({"key": key, "sides": sides, "purpose": render(purpose) or _("the roll"), "words": words,
                               "nth": nth, "of": count, "face": face, "group": self.requests})
            if face is None:
                if self.fill is None:
                    raise DiceNeeded(count, sides, purpose, rule, have=nth - 1)
                out.append(self.fill(sides))
            elif not 1 <= face <= sides:
                if self.fill is None:
                    raise TurnBadFace(key, len(self.asked) - 1, face, sides)
                out.append(self.fill(sides))  # said by the real walk; the probe reads a typical face
            else:
                out.append(face)
        self.read.extend(out)
        return out


class TurnBadFace(InvalidFace):
    """A typed face out of its die's range, named by the die's key."""

    def __init__(self, key: str, index: int, face: int, sides: int):
        self.key = key
        super().__init__(index, face, sides)


def die_key(action: str, words: str, occurrence: int, nth: int) -> str:
    """A die of a ship's turn: the step's action, the roll's purpose (English) and which time
    it is rolled in that step, the die's place in the roll."""
    return f"{action}|{words}|{occurrence}|{nth}"


def turn_faces_from(keys: list[str], values: list[str]) -> dict:
    """The typed faces of a turn's prompt, by die key; empty boxes are dice not typed.
    Raises :class:`BadFace` naming the box for a value that is not a whole number."""
    out = {}
    for i, (key, value) in enumerate(zip(keys, values)):
        value = value.strip()
        if not value:
            continue
        try:
            out[key] = int(value)
        except ValueError:
            raise _BadFace(i, _("Die %(number)s: '%(text)s' is not a whole number.") % {"number": i + 1, "text": value}) from None
    return out


def turn_faces_read(keys: list[str], values: list[str]) -> dict:
    """The typed faces of a turn's prompt that read as whole numbers, by die key (the boxes
    kept as typed when the prompt is shown again)."""
    out = {}
    for key, value in zip(keys, values):
        try:
            out[key] = int(value.strip())
        except ValueError:
            continue
    return out


def turn_dice_prompt(encounter, state, head: int, *, ship: str, seats, typed: dict, bad_key: str = "",
                     error: str = "", own: bool = False) -> dict:
    """Every die of the ship's turn, asked at once in the order the rules roll them: the turn
    walked in memory (:func:`encounters.turn.simulate`) with the faces typed so far and a good
    roll for the others (the branch asking the most dice).  A die after the first one not typed
    whose roll depends on earlier dice is "if needed" (not asked whatever is rolled: probed again
    with all-low and middling faces).  ``bad_key``: a die whose typed face was refused; ``own``:
    a player's own dice (only their rolls asked, the app rolling the others')."""
    from .turn import simulate

    def walk(fill):
        source = TurnFaces(typed, fill)
        try:
            simulate(encounter, state, head, ship, seats, source, limit=200, own=own)
        except (_Enough, DiceError, ValueError, KeyError, IndexError, TypeError):
            pass  # the dice noted so far are still the right ones to ask for
        return source.asked

    dice = walk(_Probe._typical)
    others = [{d["key"] for d in walk(fill)} for fill in _OTHER_FILLS]
    first_empty = next((i for i, d in enumerate(dice) if d["face"] is None), len(dice))
    sure_until = first_empty
    while sure_until < len(dice) and dice[sure_until]["group"] == dice[first_empty]["group"]:
        sure_until += 1
    out = []
    for i, d in enumerate(dice):
        always = all(d["key"] in keys for keys in others)
        wrong = d["face"] is not None and not 1 <= d["face"] <= d["sides"]  # said beside its box, whatever else
        out.append({**d, "maybe": i >= sure_until and not always, "bad": (bool(bad_key) and d["key"] == bad_key) or wrong,
                    "error": face_refusal(InvalidFace(i, d["face"], d["sides"])) if wrong else ""})
    bad_index = next((i for i, d in enumerate(out) if d["bad"]), None)
    focus = (bad_index + 1) if bad_index is not None else first_empty + 1
    groups = _grouped(out)
    name = next((s.name for s in getattr(state, "ships", ()) if getattr(s, "id", None) == ship), ship)
    return {"action": "", "dm": "", "gm_only": False, "label": _("%(ship)s's turn") % {"ship": name},
            "dice": out, "groups": groups, "focus": focus, "maybe": sum(1 for d in out if d["maybe"]),
            "face_error": error, "bad_index": bad_index,
            "turn": {"ship": ship, "seats": [{"actor": a, "choice": c} for a, c in seats]}, "whole_turn": True}


def faces_from(values: list[str]) -> list[int]:
    """The faces typed in the prompt's boxes, in order; trailing empty boxes are dice not needed.

    Raises :class:`ValueError` naming the die for a box that is not a whole number, or an empty
    box before a filled one (the faces would shift to the wrong dice).
    """
    values = [v.strip() for v in values]
    while values and not values[-1]:
        values.pop()
    out = []
    for i, v in enumerate(values):
        if not v:
            raise _BadFace(i, _("Die %(number)s is empty but a later die is filled: type every die in order.")
                           % {"number": i + 1})
        try:
            out.append(int(v))
        except ValueError:
            raise _BadFace(i, _("Die %(number)s: '%(text)s' is not a whole number.") % {"number": i + 1, "text": v}) from None
    return out


class _BadFace(ValueError):
    def __init__(self, index: int, message: str):
        self.index = index
        super().__init__(message)


BadFace = _BadFace


def face_refusal(bad: Exception) -> str:
    """The words for a refused face, in the page's language, said beside its die."""
    if isinstance(bad, InvalidFace):
        return _("Die %(number)s: %(face)s is not a face of a d%(sides)s (1-%(sides)s).") % {
            "number": bad.index + 1, "face": bad.face, "sides": bad.sides}
    return str(bad)


# ---------------------------------------------------------------- a pending prompt survives a reload

# Kept with the encounter (Encounter.dice_prompt), not in the GM's session: another device of
# the GM, or the GM after logging in again, finds the prompt where it was left (issue 27).

def remember_pending(encounter, head: int, *, action: str, dm: str, faces: list[int], gm_only: bool):
    from .models import Encounter

    saved = {"head": head, "action": action, "dm": dm, "faces": list(faces), "gm_only": gm_only}
    Encounter.objects.filter(pk=encounter.pk).update(dice_prompt=saved)
    encounter.dice_prompt = saved


def remember_turn(encounter, head: int, *, turn: dict, typed: dict):
    """The dice prompt of a whole ship's turn: the turn's choices and the faces typed, by die."""
    from .models import Encounter

    saved = {"head": head, "turn": turn, "typed": dict(typed)}
    Encounter.objects.filter(pk=encounter.pk).update(dice_prompt=saved)
    encounter.dice_prompt = saved


def pending_of(encounter, head: int) -> dict | None:
    """The dice prompt the GM left open at this head, or None (a step since makes it moot)."""
    saved = encounter.dice_prompt
    if not saved or saved.get("head") != head:
        return None
    return saved


def forget_pending(encounter):
    from .models import Encounter

    if encounter.dice_prompt is not None:
        Encounter.objects.filter(pk=encounter.pk).update(dice_prompt=None)
        encounter.dice_prompt = None


# ---------------------------------------------------------------- the GM override from a ship card

def _state_ship(state, ship_id):
    for ship in getattr(state, "ships", None) or ():
        if getattr(ship, "id", None) == ship_id:
            return ship
    return None


def override_choices(engine, state, ships: list[dict]) -> dict[str, list[dict]]:
    """Per ship id, the fields the GM may set by name, with their current values.

    From the system's :meth:`override_fields` (rulesets/core/override.py); fields with a
    ``*`` (one per weapon...) are left to the free "ruling" form.  Empty for a system
    that declares no fields: the ship card then asks for the field by name.
    """
    fields = [f for f in engine.override_fields(state) if "*" not in f.name]
    out: dict[str, list[dict]] = {}
    for ship in ships:
        ship_id = ship.get("id")
        rows = []
        for f in fields:
            current = ""
            if f.current is not None:
                try:
                    current = f.current(_state_ship(state, ship_id) or ship, tuple(f.name.split(".")))
                except (AttributeError, KeyError, IndexError, TypeError, ValueError):
                    current = ""
            rows.append({"path": f.name, "label": f.words[:1].upper() + f.words[1:], "current": str(current),
                         "help": f.help})
        out[ship_id] = rows
    return out


def override_path(encounter, ship_id: str, field: str) -> str:
    """The override's path: the ship by its name, as the GM knows it (the shared grammar,
    rulesets/core/override.py, reads a name or an id), a dot and the field."""
    field = field.strip().strip(".")
    if not field:
        raise IllegalAction(_("Name the field to set, e.g. hull."))
    name = next((s.get("name") for s in encounter.setup.get("ships", []) if s.get("id") == ship_id), None)
    if not name:
        raise IllegalAction(_("That ship is not in this encounter."))
    return f"{name}.{field}"


# ---------------------------------------------------------------- undo back to a step

def undo_back_to(encounter, seq: int, *, expected_seq: int, user=None) -> int:
    """Undo every step in effect after step ``seq``: one request, one undo row each.

    Each undo goes through :func:`encounters.log.undo` (the one write path), so each is
    checked, logged and published like a single undo.  Returns how many were undone.
    Raises :class:`encounters.log.StaleStep` when the page was made for an older head,
    :class:`encounters.log.NothingToUndo` when no step after ``seq`` is in effect.
    """
    now = encounter_log.history(encounter)
    later = [a for a in now.applied if a.seq > seq]
    if not later:
        raise encounter_log.NothingToUndo(_("No step after that one is in effect: nothing to undo."))
    head = expected_seq
    for _step in later:
        row = encounter_log.undo(encounter, expected_seq=head, user=user)
        head = row.seq
    return len(later)
