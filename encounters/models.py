"""Encounters are event-sourced: a setup snapshot, a seed, and an append-only log."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse

from campaigns.models import Campaign, ruleset_choices
from rulesets.core import registry


def _seed():
    return secrets.token_hex(8)


class EncounterQuerySet(models.QuerySet):
    def for_user(self, user):
        """The encounters of the campaigns ``user`` belongs to (the one visibility rule)."""
        return self.filter(campaign__in=Campaign.objects.for_user(user))


class Encounter(models.Model):
    ACTIVE, PAUSED, FINISHED = "active", "paused", "finished"
    STATUSES = [(ACTIVE, "In progress"), (PAUSED, "Paused"), (FINISHED, "Finished")]
    AUTO, MANUAL, MIXED = "auto", "manual", "mixed"
    DICE_MODES = [(AUTO, "The app rolls"), (MANUAL, "GM enters physical dice"), (MIXED, "Mixed: choose per roll")]
    #: a player's own dice for their step (not an encounter's mode): the rolls that are their
    #: character's typed, any other side's rolled by the app (RulesetBase.own_rolls)
    OWN = "own"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="encounters")
    name = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=40, choices=ruleset_choices)
    setup = models.JSONField(help_text="The ships, crews and options at the start: a snapshot.")
    seed = models.CharField(max_length=64, default=_seed)
    status = models.CharField(max_length=10, choices=STATUSES, default=ACTIVE)
    dice_mode = models.CharField(max_length=10, choices=DICE_MODES, default=AUTO)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    damage_carried = models.BooleanField(default=False, help_text="Damage was written back to the campaign's ships.")
    forked_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="forks")
    players_act = models.BooleanField(
        default=False, help_text="Players take their own characters' steps from their live page (issue 22).")
    gm_confirms = models.BooleanField(
        default=False, help_text="A player's chosen step waits on the GM's page for one tap (confirm or send back).")
    proposal = models.JSONField(
        null=True, blank=True, help_text="A player's step waiting for the GM to confirm: the action, the dice and "
                                         "the head it was chosen at (moot once the encounter moves on).")
    dice_prompt = models.JSONField(
        null=True, blank=True, help_text="The GM's open physical-dice prompt: the action, the DM, the faces typed "
                                         "and the head it was opened at (moot once the encounter moves on). Kept "
                                         "with the encounter, so another device of the GM, or a new login, sees it.")

    objects = EncounterQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("encounters:detail", args=[self.pk])

    @property
    def engine(self):
        return registry.get(self.ruleset)


class EncounterEvent(models.Model):
    """One row of the log.  Appended by encounters.log, never updated or deleted."""

    STEP, UNDO, REROLL, REVEAL = "step", "undo", "reroll", "reveal"
    KINDS = [(STEP, "Step"), (UNDO, "Undo"), (REROLL, "Reroll"), (REVEAL, "Reveal")]

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=KINDS, default=STEP)
    action = models.CharField(max_length=500, blank=True)
    dice = models.JSONField(default=list, blank=True, help_text='Faces used, as "face/dN".')
    target_seq = models.PositiveIntegerField(null=True, blank=True, help_text="The step an undo, reroll or reveal is about.")
    rolls = models.JSONField(default=list, blank=True, help_text="The rolls as made when the row was written.")
    log = models.JSONField(default=list, blank=True)
    gm_only = models.BooleanField(default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["encounter", "seq"]
        constraints = [models.UniqueConstraint(fields=["encounter", "seq"], name="one_event_per_seq")]

    def __str__(self):
        return f"{self.encounter_id}#{self.seq} {self.kind} {self.action}"


class EncounterSnapshot(models.Model):
    """A cache of the folded state at a sequence number; the log stays the truth."""

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField()
    # JSON text, not JSONField: a snapshot is written whole and read whole, never queried inside,
    # and every step writes one (text skips PostgreSQL's jsonb parse, and the steps' JSON is
    # joined from each step's text written once).
    state = models.TextField(help_text="The state as JSON text (rulesets.core.serial).")
    applied = models.TextField(default="[]", help_text="The latest steps in effect as a JSON list "
                                                       "(log.SNAPSHOT_STEPS at most).")
    count = models.IntegerField(default=-1, help_text="How many steps are in effect in all (-1: as many as applied).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["encounter", "seq"], name="one_snapshot_per_seq")]
        ordering = ["encounter", "-seq"]


#: trials per chunk of a run whose chunks were not measured (yet)
DEFAULT_CHUNK = 250


class SimulationRunQuerySet(models.QuerySet):
    def for_user(self, user):
        """The runs of the campaigns ``user`` belongs to (pages check the GM role on top)."""
        return self.filter(campaign__in=Campaign.objects.for_user(user))


class SimulationRun(models.Model):
    """N policy-played battles at each point of a sweep, run in chunks by workers."""

    QUEUED, RUNNING, DONE, CANCELLED, FAILED = "queued", "running", "done", "cancelled", "failed"
    STATUSES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"), (CANCELLED, "Cancelled"), (FAILED, "Failed")]

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="simulations")
    name = models.CharField(max_length=120)
    ruleset = models.CharField(max_length=40, choices=ruleset_choices)
    setup = models.JSONField()
    sweep = models.CharField(max_length=40, default="none")
    points = models.JSONField(help_text="The sweep points: [{label, options}].")
    trials_per_point = models.PositiveIntegerField()
    chunk_size = models.PositiveIntegerField(default=0, help_text="Trials per chunk; 0: sized by a measured battle.")
    seed = models.CharField(max_length=64, default=_seed)
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    results = models.JSONField(null=True, blank=True, help_text="Per sweep point statistics, once done.")

    objects = SimulationRunQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("encounters:simulation", args=[self.pk])

    @property
    def total_trials(self) -> int:
        return self.trials_per_point * len(self.points)

    def chunk_plan(self) -> list[tuple[int, int, int]]:
        """(point index, first trial, last trial + 1) of every chunk, in order.

        A point measured by the start task (``chunk`` in its entry) has chunks of that many
        trials, sized so each costs about the same; the costliest points come first, so no
        worker is left with a long chunk at the end.  Which trials a chunk plays never changes
        the numbers: each trial is seeded by its point and index alone.
        """
        order = sorted(range(len(self.points)), key=lambda i: -self.points[i].get("cost", 0))
        plan = []
        for point in order:
            size = self.points[point].get("chunk") or self.chunk_size or DEFAULT_CHUNK
            for start in range(0, self.trials_per_point, size):
                plan.append((point, start, min(self.trials_per_point, start + size)))
        return plan


class SimulationChunk(models.Model):
    """The outcomes of one chunk.  Unique per (run, chunk): a chunk run twice counts once."""

    run = models.ForeignKey(SimulationRun, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    point = models.PositiveIntegerField()
    first_trial = models.PositiveIntegerField()
    trials = models.PositiveIntegerField(help_text="How many trials it holds.")
    outcomes = models.JSONField()
    complete = models.BooleanField(default=True, help_text="False when cancelled part-way.")
    seconds = models.FloatField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_result_per_chunk")]


class EncounterAnalysis(models.Model):
    """A re-roll analysis of a finished encounter: its decisions replayed with fresh dice."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [(QUEUED, "Queued"), (RUNNING, "Running"), (DONE, "Done"), (FAILED, "Failed")]

    encounter = models.ForeignKey(Encounter, on_delete=models.CASCADE, related_name="analyses")
    replays = models.PositiveIntegerField(default=400)
    per_roll = models.PositiveIntegerField(default=40, help_text="Replays per rolled step for the swing of each roll.")
    seed = models.CharField(max_length=64, default=_seed)
    status = models.CharField(max_length=10, choices=STATUSES, default=QUEUED)
    progress = models.FloatField(default=0)
    results = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
