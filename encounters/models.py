"""Encounters are event-sourced: a setup snapshot, a seed, and an append-only log."""
from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

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
    STATUSES = [(ACTIVE, _("In progress")), (PAUSED, _("Paused")), (FINISHED, _("Finished"))]
    AUTO, MANUAL, MIXED = "auto", "manual", "mixed"
    DICE_MODES = [(AUTO, _("The app rolls")), (MANUAL, _("GM enters physical dice")),
                  (MIXED, _("Mixed: choose per roll"))]
    #: a player's own dice for their step (not an encounter's mode): the rolls that are their
    #: character's typed, any other side's rolled by the app (RulesetBase.own_rolls)
    OWN = "own"

    campaign = models.ForeignKey(Campaign, verbose_name=_("campaign"),
                                 on_delete=models.CASCADE, related_name="encounters")
    name = models.CharField(verbose_name=_("name"), max_length=120)
    ruleset = models.CharField(verbose_name=_("ruleset"), max_length=40, choices=ruleset_choices)
    setup = models.JSONField(verbose_name=_("setup"),
                             help_text=_("The ships, crews and options at the start: a snapshot."))
    seed = models.CharField(verbose_name=_("seed"), max_length=64, default=_seed)
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=STATUSES, default=ACTIVE)
    dice_mode = models.CharField(verbose_name=_("dice mode"), max_length=10, choices=DICE_MODES, default=AUTO)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)
    damage_carried = models.BooleanField(verbose_name=_("damage carried"),
                                         default=False, help_text=_("Damage was written back to the campaign's ships."))
    forked_from = models.ForeignKey("self", verbose_name=_("forked from"),
                                    null=True, blank=True, on_delete=models.SET_NULL, related_name="forks")
    players_act = models.BooleanField(verbose_name=_("players act"), 
        default=False, help_text=_("Players take their own characters' steps from their live page (issue 22)."))
    gm_confirms = models.BooleanField(verbose_name=_("GM confirms"), 
        default=False, help_text=_("A player's chosen step waits on the GM's page for one tap (confirm or send back)."))
    proposal = models.JSONField(verbose_name=_("proposal"), 
        null=True, blank=True, help_text=_("A player's step waiting for the GM to confirm: the action, the dice and "
                                         "the head it was chosen at (moot once the encounter moves on)."))
    dice_prompt = models.JSONField(verbose_name=_("dice prompt"), 
        null=True, blank=True, help_text=_("The GM's open physical-dice prompt: the action, the DM, the faces typed "
                                         "and the head it was opened at (moot once the encounter moves on). Kept "
                                         "with the encounter, so another device of the GM, or a new login, sees it."))

    objects = EncounterQuerySet.as_manager()

    class Meta:
        verbose_name = _("encounter")
        verbose_name_plural = _("encounters")
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
    KINDS = [(STEP, _("Step")), (UNDO, _("Undo")), (REROLL, _("Reroll")), (REVEAL, _("Reveal"))]

    encounter = models.ForeignKey(Encounter, verbose_name=_("encounter"),
                                  on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField(verbose_name=_("sequence number"))
    kind = models.CharField(verbose_name=_("kind"), max_length=10, choices=KINDS, default=STEP)
    action = models.CharField(verbose_name=_("action"), max_length=500, blank=True)
    dice = models.JSONField(verbose_name=_("dice"), default=list, blank=True, help_text=_('Faces used, as "face/dN".'))
    target_seq = models.PositiveIntegerField(verbose_name=_("target step"),
                                             null=True, blank=True, help_text=_("The step an undo, reroll or reveal is about."))
    rolls = models.JSONField(verbose_name=_("rolls"),
                             default=list, blank=True, help_text=_("The rolls as made when the row was written."))
    log = models.JSONField(verbose_name=_("log"), default=list, blank=True)
    gm_only = models.BooleanField(verbose_name=_("GM only"), default=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("encounter event")
        verbose_name_plural = _("encounter events")
        ordering = ["encounter", "seq"]
        constraints = [models.UniqueConstraint(fields=["encounter", "seq"], name="one_event_per_seq")]

    def __str__(self):
        return f"{self.encounter_id}#{self.seq} {self.kind} {self.action}"


class EncounterSnapshot(models.Model):
    """A cache of the folded state at a sequence number; the log stays the truth."""

    encounter = models.ForeignKey(Encounter, verbose_name=_("encounter"),
                                  on_delete=models.CASCADE, related_name="snapshots")
    seq = models.PositiveIntegerField(verbose_name=_("sequence number"))
    # JSON text, not JSONField: a snapshot is written whole and read whole, never queried inside,
    # and every step writes one (text skips PostgreSQL's jsonb parse, and the steps' JSON is
    # joined from each step's text written once).
    state = models.TextField(verbose_name=_("state"), help_text=_("The state as JSON text (rulesets.core.serial)."))
    applied = models.TextField(verbose_name=_("applied"),
                               default="[]", help_text=_("The latest steps in effect as a JSON list "
                                                       "(log.SNAPSHOT_STEPS at most)."))
    count = models.IntegerField(verbose_name=_("count"),
                                default=-1, help_text=_("How many steps are in effect in all (-1: as many as applied)."))
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("encounter snapshot")
        verbose_name_plural = _("encounter snapshots")
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
    STATUSES = [(QUEUED, _("Queued")), (RUNNING, _("Running")), (DONE, _("Done")), (CANCELLED, _("Cancelled")),
                (FAILED, _("Failed"))]

    campaign = models.ForeignKey(Campaign, verbose_name=_("campaign"),
                                 on_delete=models.CASCADE, related_name="simulations")
    name = models.CharField(verbose_name=_("name"), max_length=120)
    ruleset = models.CharField(verbose_name=_("ruleset"), max_length=40, choices=ruleset_choices)
    setup = models.JSONField(verbose_name=_("setup"))
    sweep = models.CharField(verbose_name=_("sweep"), max_length=40, default="none")
    points = models.JSONField(verbose_name=_("points"), help_text=_("The sweep points: [{label, options}]."))
    trials_per_point = models.PositiveIntegerField(verbose_name=_("trials per point"))
    chunk_size = models.PositiveIntegerField(verbose_name=_("chunk size"),
                                             default=0, help_text=_("Trials per chunk; 0: sized by a measured battle."))
    seed = models.CharField(verbose_name=_("seed"), max_length=64, default=_seed)
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=STATUSES, default=QUEUED)
    error = models.TextField(verbose_name=_("error"), blank=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(verbose_name=_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)
    results = models.JSONField(verbose_name=_("results"),
                               null=True, blank=True, help_text=_("Per sweep point statistics, once done."))

    objects = SimulationRunQuerySet.as_manager()

    class Meta:
        verbose_name = _("simulation")
        verbose_name_plural = _("simulations")
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

    run = models.ForeignKey(SimulationRun, verbose_name=_("run"), on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField(verbose_name=_("index"))
    point = models.PositiveIntegerField(verbose_name=_("point"))
    first_trial = models.PositiveIntegerField(verbose_name=_("first trial"))
    trials = models.PositiveIntegerField(verbose_name=_("trials"), help_text=_("How many trials it holds."))
    outcomes = models.JSONField(verbose_name=_("outcomes"))
    complete = models.BooleanField(verbose_name=_("complete"),
                                   default=True, help_text=_("False when cancelled part-way."))
    seconds = models.FloatField(verbose_name=_("seconds"), default=0)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("simulation chunk")
        verbose_name_plural = _("simulation chunks")
        ordering = ["run", "index"]
        constraints = [models.UniqueConstraint(fields=["run", "index"], name="one_result_per_chunk")]


class EncounterAnalysis(models.Model):
    """A re-roll analysis of a finished encounter: its decisions replayed with fresh dice."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [(QUEUED, _("Queued")), (RUNNING, _("Running")), (DONE, _("Done")), (FAILED, _("Failed"))]

    encounter = models.ForeignKey(Encounter, verbose_name=_("encounter"),
                                  on_delete=models.CASCADE, related_name="analyses")
    replays = models.PositiveIntegerField(verbose_name=_("replays"), default=400)
    per_roll = models.PositiveIntegerField(verbose_name=_("replays per roll"),
                                           default=40, help_text=_("Replays per rolled step for the swing of each roll."))
    seed = models.CharField(verbose_name=_("seed"), max_length=64, default=_seed)
    status = models.CharField(verbose_name=_("status"), max_length=10, choices=STATUSES, default=QUEUED)
    progress = models.FloatField(verbose_name=_("progress"), default=0)
    results = models.JSONField(verbose_name=_("results"), null=True, blank=True)
    error = models.TextField(verbose_name=_("error"), blank=True)
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    finished_at = models.DateTimeField(verbose_name=_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")
        ordering = ["-created_at"]
