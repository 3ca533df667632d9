"""The one write path of an encounter: append a row to its log.

Every change -- a step, an undo, a reroll, a reveal -- goes through :func:`append`.
It checks the sequence the form was made for (a stale form gets :class:`StaleStep`,
"the encounter moved on"), validates the change by applying it, writes the row
under the unique (encounter, seq) constraint, refreshes the snapshot, and after
commit tells the live pages.
"""
from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from rulesets.core import serial
from rulesets.core.dice import Dice, Die, ManualSource, MixedSource, OwnDiceSource, SeededSource, derive_seed
from rulesets.core.engine import Action, apply_checked
from rulesets.core.history import Applied, Entry, fold

from .models import Encounter, EncounterEvent, EncounterSnapshot


class StaleStep(Exception):
    """The form was made for an older sequence number."""

    def __init__(self, expected: int, head: int):
        self.expected, self.head = expected, head
        super().__init__(gettext("The encounter moved on since this page was loaded; it has been refreshed."))


class EncounterClosed(Exception):
    pass


class NothingToUndo(Exception):
    pass


#: How many of the latest steps in effect a snapshot keeps with the state: what the runner
#: and the live pages show.  Older steps are folded from the event rows when the whole log,
#: the replay or an analysis asks for them (:func:`history`), so a snapshot stays the same
#: size however long the fight, and a step's cost does not grow with it.  Twice the runner's
#: fifteen, so that a player (who does not see GM-only steps) still reads fifteen after a run
#: of GM-only ones; every step writes it, so no more than that.
SNAPSHOT_STEPS = 30


@dataclass
class Current:
    """An encounter's state now, the latest steps in effect, and the head sequence.

    ``applied`` holds at most :data:`SNAPSHOT_STEPS` steps (all of them when it comes from
    :func:`history`); ``count`` is how many steps are in effect in all.
    """

    state: object
    applied: list[Applied]
    head: int
    count: int = -1

    def __post_init__(self):
        if self.count < 0:
            self.count = len(self.applied)

    @property
    def complete(self) -> bool:
        """Whether ``applied`` holds every step in effect."""
        return len(self.applied) == self.count


def _entries(encounter: Encounter) -> list[Entry]:
    return [
        Entry(r.seq, r.kind, r.action, tuple(Die.parse(d) for d in r.dice), r.target_seq, r.gm_only)
        for r in encounter.events.order_by("seq")
    ]


def head_seq(encounter: Encounter) -> int:
    return _head(encounter)[0]


# The log is append-only and every change, undo and reroll included, takes a new
# sequence number, so (encounter, head row) always names the same fold and a cached
# entry never goes stale.  The key holds the head row's id and time as well as its
# sequence (ids alone can come back after a rolled-back transaction).
# Callers treat the state as read-only (apply never mutates its input: the
# conformance suite checks it).
_recent: "OrderedDict[tuple, Current]" = OrderedDict()
_RECENT_MAX = 64


def _head(encounter: Encounter):
    """(head sequence, cache key), in one query."""
    row = encounter.events.order_by("-seq").values_list("seq", "pk", "created_at").first()
    head = row[0] if row else 0
    return head, (encounter.pk, encounter.created_at, head, row[1:] if row else None)


def _key(encounter: Encounter, seq: int, row=None):
    """The cache key of the fold at ``seq`` (one query unless the head ``row`` is given)."""
    if row is not None:
        return (encounter.pk, encounter.created_at, seq, (row.pk, row.created_at))
    found = encounter.events.filter(seq=seq).values_list("pk", "created_at").first() if seq else None
    return (encounter.pk, encounter.created_at, seq, found)


def _remember(key, cur: Current) -> Current:
    _recent[key] = cur
    _recent.move_to_end(key)
    while len(_recent) > _RECENT_MAX:
        _recent.popitem(last=False)
    return cur


def current(encounter: Encounter, *, head_and_key=None) -> Current:
    """The state at the head and the latest steps, from this process's recent folds or the snapshot."""
    head, key = head_and_key or _head(encounter)
    cached = _recent.get(key)
    if cached is not None:
        return cached
    engine = encounter.engine
    snap = encounter.snapshots.filter(seq=head).first()
    if snap is not None:
        applied = [Applied.from_json(a) for a in json.loads(snap.applied)]
        return _remember(key, Current(serial.from_json(engine.state_class, json.loads(snap.state)), applied, head,
                                      snap.count if snap.count >= 0 else len(applied)))
    # Only the rows up to the head read above: a step committed since (another writer) is not
    # this head's, and folding it in would store the wrong state under this head's snapshot.
    state, applied = fold(engine, encounter.setup, [e for e in _entries(encounter) if e.seq <= head], encounter.seed)
    try:
        _save_snapshot(encounter, head, state, applied, replace=True)
    except IntegrityError:
        # Another request stored this head's snapshot at the same moment, and a writer has since
        # replaced it with the next head's: the snapshot is only a cache, the fold is the truth.
        pass
    return _window(state, applied, head)


def current_at(encounter: Encounter, row: EncounterEvent) -> Current:
    """What :func:`current` gives when ``row`` (just written by this process) is the head,
    without reading the head again: the write put its fold in this process's cache."""
    return current(encounter, head_and_key=(row.seq, _key(encounter, row.seq, row)))


def history(encounter: Encounter) -> Current:
    """The state at the head with *every* step in effect (the whole log, the replay, analyses).

    Folds the log from its rows when the snapshot's window does not hold every step; the
    runner's pages use :func:`current`, which is cheap.
    """
    now = current(encounter)
    if now.complete:
        return now
    state, applied = fold(encounter.engine, encounter.setup, _entries(encounter), encounter.seed)
    return Current(state, applied, now.head)


def _window(state, applied: list, head: int, count: int | None = None) -> Current:
    return Current(state, applied[-SNAPSHOT_STEPS:], head, len(applied) if count is None else count)


def refold(encounter: Encounter) -> tuple[Current, bool]:
    """Fold the whole log again, store the snapshot at the head, and say whether the old one agreed."""
    head = head_seq(encounter)
    cached = encounter.snapshots.filter(seq=head).first()
    state, applied = fold(encounter.engine, encounter.setup, _entries(encounter), encounter.seed)
    agreed = cached is None or json.loads(cached.state) == serial.to_json(state)
    _save_snapshot(encounter, head, state, applied, replace=True)
    return Current(state, applied, head), agreed


def state_before(encounter: Encounter, seq: int):
    """The state just before step ``seq`` applied, as the log stands now."""
    return fold(encounter.engine, encounter.setup, _entries(encounter), encounter.seed, stop_before=seq)[0]


def _save_snapshot(encounter, seq, state, applied, *, count=None, row=None, replace=False):
    """Store the snapshot at ``seq``: the state and the latest :data:`SNAPSHOT_STEPS` steps.

    A new step's snapshot is a plain insert (its sequence is new) and the older ones are
    dropped in one statement: two queries, whatever the fight's length.  ``replace`` is for
    a fold of a sequence that may already have one (a cache miss, a refold).
    """
    window = _window(state, applied, seq, count)
    fields = {"state": json.dumps(serial.to_json(state)),
              "applied": "[" + ",".join(a.to_json_text() for a in window.applied) + "]", "count": window.count}
    if replace:
        EncounterSnapshot.objects.update_or_create(encounter=encounter, seq=seq, defaults=fields)
    else:
        EncounterSnapshot.objects.create(encounter=encounter, seq=seq, **fields)
    # Older snapshots are only a cache of what the log gives; keep the newest.
    EncounterSnapshot.objects.filter(encounter=encounter, seq__lt=seq).delete()
    # Only once the row that makes ``seq`` the head has committed is it safe to serve.
    transaction.on_commit(lambda: _remember(_key(encounter, seq, row), window))


def dice_source(encounter: Encounter, seq: int, faces=None, attempt: int = 0, mode: str | None = None,
                mine=None):
    """Where the faces of the step at ``seq`` come from, by the encounter's dice mode (or
    ``mode``, a player's own choice for their step: "auto" rolls for them, "own" their dice:
    ``faces`` for the rolls ``mine(purpose)`` says are theirs, the app's for the others' rolls,
    RulesetBase.own_rolls; every roll when ``mine`` is None)."""
    seeded = SeededSource(derive_seed(encounter.seed, seq, attempt))
    mode = mode or encounter.dice_mode
    if mode == Encounter.OWN:
        typed = ManualSource(faces or [])
        return typed if mine is None else OwnDiceSource(typed, seeded, mine)
    if mode == Encounter.AUTO:
        return seeded
    if mode == Encounter.MANUAL:
        return ManualSource(faces or [])
    if mode == Encounter.MIXED and faces:
        return MixedSource(faces, seeded)
    return seeded


def publish_after_commit(encounter: Encounter, seq: int):
    from .live import publish

    transaction.on_commit(lambda: publish(encounter.pk, seq))


def append(encounter: Encounter, *, kind: str, expected_seq: int, user=None, action: str = "",
           faces=None, target: int | None = None, gm_only: bool = False, dice_mode: str | None = None,
           check=None) -> EncounterEvent:
    """Append one row; raise StaleStep, IllegalAction, DiceNeeded, InvalidFace, NothingToUndo.

    ``dice_mode``: where a step's faces come from, if not the encounter's (a player's choice);
    ``check(locked, state)``: called under the lock with the state the step applies to, before
    it applies (a player's step: still theirs?); it raises to refuse."""
    try:
        return _append(encounter, kind=kind, expected_seq=expected_seq, user=user, action=action, faces=faces,
                       target=target, gm_only=gm_only, dice_mode=dice_mode, check=check)
    except IntegrityError:
        # The row lock serialises writers; the unique (encounter, seq) constraint is the last guard.
        raise StaleStep(expected_seq, head_seq(encounter)) from None


def _append(encounter: Encounter, *, kind, expected_seq, user, action, faces, target, gm_only, dice_mode=None,
            check=None) -> EncounterEvent:
    with transaction.atomic():
        # The one writer at a time.  FOR NO KEY UPDATE, not FOR UPDATE: a reader storing a missed
        # snapshot checks its foreign key to this row (FOR KEY SHARE, at its commit), and a plain
        # FOR UPDATE would block that check while this writer waits for the reader's snapshot
        # insert: a deadlock on PostgreSQL.  Writers still exclude each other.
        locked = Encounter.objects.select_for_update(no_key=True).get(pk=encounter.pk)
        if locked.status == Encounter.FINISHED:
            raise EncounterClosed(gettext("This encounter is finished."))
        if locked.status == Encounter.PAUSED and kind != EncounterEvent.REVEAL:
            raise EncounterClosed(gettext("This encounter is paused: resume it to play on."))
        head, key = _head(locked)  # the head is read once, under the lock
        if head != expected_seq:
            raise StaleStep(expected_seq, head)
        seq = head + 1
        now = current(locked, head_and_key=(head, key))
        engine = locked.engine
        row = EncounterEvent(encounter=locked, seq=seq, kind=kind, created_by=user if user and user.is_authenticated else None)

        if kind == EncounterEvent.STEP:
            act = Action.parse(action)
            text = act.to_str()
            typed = [act.actor, *(str(v) for _, v in act.params)]
            if len(text) > EncounterEvent._meta.get_field("action").max_length or any("\x00" in t for t in typed):
                raise ValueError(gettext("This step cannot be recorded: its values are too long or hold a NUL "
                                         "character; shorten what you typed."))
            if check is not None:
                check(locked, now.state)
            mine = engine.own_rolls(now.state, act) if dice_mode == Encounter.OWN else None
            dice = Dice(dice_source(locked, seq, faces, mode=dice_mode, mine=mine))
            result = apply_checked(engine, now.state, act, dice)
            row.action = act.to_str()
            row.dice = [str(d) for d in dice.dice]
            row.rolls = [r.to_json() for r in dice.rolls]
            row.log = [e.to_json() for e in result.log]
            row.gm_only = gm_only
            new_state = result.state
            new_applied = [*now.applied, Applied(seq, row.action, list(dice.dice), list(dice.rolls),
                                                 list(result.log), gm_only)]
            new_count = now.count + 1
        else:
            if not now.complete:
                now = history(locked)  # undo, reroll and reveal fold the whole log anyway
            if kind == EncounterEvent.UNDO:
                if not now.applied:
                    raise NothingToUndo(gettext("There is no step to undo."))
                target = now.applied[-1].seq
            elif kind in (EncounterEvent.REROLL, EncounterEvent.REVEAL):
                step = next((a for a in now.applied if a.seq == target), None)
                if step is None:
                    raise NothingToUndo(gettext("Step %(step)s is not in effect.") % {"step": target})
                if kind == EncounterEvent.REROLL:
                    attempt = 1 + locked.events.filter(kind=EncounterEvent.REROLL, target_seq=target).count()
                    # The rerolled step's own faces: fresh, seeded from (seed, step, attempt).
                    source = dice_source(locked, target, faces, attempt)
                    prior = state_before(locked, target)
                    dice = Dice(source)
                    apply_checked(engine, prior, Action.parse(step.action), dice)
                    row.dice = [str(d) for d in dice.dice]
                    row.rolls = [r.to_json() for r in dice.rolls]
                    row.action = step.action
            else:
                raise ValueError(f"Unknown kind {kind!r}")
            row.target_seq = target
            entries = [*_entries(locked), Entry(seq, kind, row.action, tuple(Die.parse(d) for d in row.dice), target)]
            new_state, new_applied = fold(engine, locked.setup, entries, locked.seed)
            new_count = len(new_applied)

        row.save()
        _save_snapshot(locked, seq, new_state, new_applied, count=new_count, row=row)
        publish_after_commit(locked, seq)
    return row


def step(encounter, action: str, *, expected_seq: int, user=None, faces=None, gm_only=False, dice_mode=None,
         check=None):
    return append(encounter, kind=EncounterEvent.STEP, expected_seq=expected_seq, user=user,
                  action=action, faces=faces, gm_only=gm_only, dice_mode=dice_mode, check=check)


def undo(encounter, *, expected_seq: int, user=None):
    return append(encounter, kind=EncounterEvent.UNDO, expected_seq=expected_seq, user=user)


def reroll(encounter, target: int, *, expected_seq: int, user=None, faces=None):
    return append(encounter, kind=EncounterEvent.REROLL, expected_seq=expected_seq, user=user,
                  target=target, faces=faces)


def reveal(encounter, target: int, *, expected_seq: int, user=None):
    return append(encounter, kind=EncounterEvent.REVEAL, expected_seq=expected_seq, user=user, target=target)


def finish(encounter: Encounter, *, carry_damage: bool) -> Encounter:
    """End the encounter, and with ``carry_damage`` write each ship's damage back to the campaign.

    Under the encounter's row lock, like :func:`append`: a step cannot commit between
    reading the final state and finishing, so the damage carried is the damage of the
    last step.  Raises :class:`EncounterClosed` when it is already finished.
    """
    from campaigns.models import Ship

    with transaction.atomic():
        # The one writer at a time.  FOR NO KEY UPDATE, not FOR UPDATE: a reader storing a missed
        # snapshot checks its foreign key to this row (FOR KEY SHARE, at its commit), and a plain
        # FOR UPDATE would block that check while this writer waits for the reader's snapshot
        # insert: a deadlock on PostgreSQL.  Writers still exclude each other.
        locked = Encounter.objects.select_for_update(no_key=True).get(pk=encounter.pk)
        if locked.status == Encounter.FINISHED:
            raise EncounterClosed(gettext("This encounter is finished."))
        now = current(locked)
        if carry_damage:
            engine = locked.engine
            for spec in locked.setup["ships"]:
                Ship.objects.filter(pk=Ship.pk_from_spec_id(spec["id"]), campaign=locked.campaign).update(
                    damage=engine.damage_of(now.state, spec["id"]))
            locked.damage_carried = True
        locked.status = Encounter.FINISHED
        locked.finished_at = timezone.now()
        locked.save(update_fields=["status", "finished_at", "damage_carried"])
        publish_after_commit(locked, now.head)
    return locked


def fork(encounter: Encounter, upto: int, *, user=None, name: str = "") -> Encounter:
    """A new encounter sharing ``encounter``'s history up to step ``upto``, for the GM to play on.

    The steps in effect up to there are copied as plain steps with the faces they
    have now (rerolls included); undone steps are not copied.  This is the log's second
    writer, and the only other one: it writes the rows of a *new* encounter in the
    transaction that creates it, so no other writer can race it (docs/decisions.md).
    """
    now = history(encounter)
    keep = [a for a in now.applied if a.seq <= upto and not a.dropped]
    with transaction.atomic():
        new = Encounter.objects.create(
            campaign=encounter.campaign, name=name or f"{encounter.name} (from step {upto})",
            ruleset=encounter.ruleset, setup=encounter.setup, dice_mode=encounter.dice_mode,
            created_by=user if user and user.is_authenticated else None, forked_from=encounter)
        EncounterEvent.objects.bulk_create([
            EncounterEvent(encounter=new, seq=i, kind=EncounterEvent.STEP, action=a.action,
                           dice=[str(d) for d in a.dice], rolls=[r.to_json() for r in a.rolls],
                           log=[e.to_json() for e in a.log], gm_only=a.gm_only, created_by=new.created_by)
            for i, a in enumerate(keep, start=1)
        ])
    return new
