"""Simulation pages: ask for a sweep, watch it run, read and download the results."""
from __future__ import annotations

import csv
import json
import time

from django import forms
from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Sum
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from campaigns.models import Campaign, Ship
from campaigns.rulesets import forms_for
from rulesets.core import registry
from rulesets.core.messages import english
from rulesets.core.simulate import sides_of, sweep_by_key, sweeps_of

from . import charts
from .models import SimulationRun
from .tasks import QueueUnavailable, aggregate, dispatch, start_simulation
from .verdict import thresholds, verdict


class SimulationForm(forms.Form):
    name = forms.CharField(max_length=120, label=_lazy("Name"))
    fleets = forms.ModelMultipleChoiceField(queryset=None, widget=forms.CheckboxSelectMultiple, label=_lazy("Fleets"),
                                            help_text=_lazy("The fleets that fight; exactly two sides."))
    sweep = forms.ChoiceField(label=_lazy("Sweep"), help_text=_lazy("What varies between the groups of battles."))
    trials_per_point = forms.IntegerField(min_value=1, initial=1000, label=_lazy("Battles per sweep point"))
    chunk_size = forms.IntegerField(min_value=10, max_value=10_000, required=False, label=_lazy("Chunk size"),
                                    help_text=_lazy("Battles per worker task. Leave it blank: the workers measure a "
                                                    "battle and size their tasks by it. It never changes the results."))
    seed = forms.CharField(max_length=64, required=False, label=_lazy("Seed"),
                           help_text=_lazy("The same seed repeats the same numbers."))
    repaired = forms.BooleanField(required=False, label=_lazy("Simulate the ships as repaired"),
                                  help_text=_lazy("Leave the damage they carry from earlier fights out of the "
                                                  "simulation."))

    def __init__(self, *args, campaign, fixed_setup=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.campaign = campaign
        if fixed_setup:
            del self.fields["fleets"]  # the encounter's ships
        else:
            self.fields["fleets"].queryset = campaign.fleets.all()
        self.sweeps = {s.key: s for s in sweeps_of(campaign.engine)}
        self.fields["sweep"].choices = [(s.key, s.label) for s in self.sweeps.values()]

    def clean_fleets(self):
        fleets = self.cleaned_data["fleets"]
        if len({f.side for f in fleets}) != 2:
            raise forms.ValidationError(_("Pick fleets from exactly two sides."))
        if not Ship.objects.filter(fleet__in=fleets).exists():
            raise forms.ValidationError(_("The chosen fleets have no ships."))
        return fleets

    def clean(self):
        cleaned = super().clean()
        sweep, trials = cleaned.get("sweep"), cleaned.get("trials_per_point")
        if sweep and trials:
            total = trials * len(self.sweeps[sweep].points)
            cap = settings.SIMULATION_MAX_TRIALS
            if total > cap:
                self.add_error("trials_per_point", _(
                    "That is %(total)s battles (%(trials)s × %(points)s sweep points); the limit is %(cap)s per run.") % {
                    "total": f"{total:,}", "trials": f"{trials:,}", "points": len(self.sweeps[sweep].points),
                    "cap": f"{cap:,}"})
        return cleaned


def _campaign_for_gm(request, pk) -> Campaign:
    campaign = get_object_or_404(Campaign.objects.for_user(request.user), pk=pk)
    if not campaign.is_gm(request.user):
        raise PermissionDenied(_("Only the campaign's GM runs simulations."))
    return campaign


def _run_for_gm(request, pk) -> SimulationRun:
    run = get_object_or_404(SimulationRun.objects.for_user(request.user).select_related("campaign"), pk=pk)
    if not run.campaign.is_gm(request.user):
        raise PermissionDenied(_("Only the campaign's GM sees simulations."))
    return run


@login_required
def simulation_new(request, campaign_pk):
    """A simulation of fleets of the campaign (their ships as they are now)."""
    campaign = _campaign_for_gm(request, campaign_pk)
    return _simulation_form(request, campaign)


@login_required
def simulation_from_encounter(request, pk):
    """A simulation of an encounter's setup: its ships and options as the encounter started."""
    from .views import _get_encounter_for_user

    encounter, _role = _get_encounter_for_user(request, pk, gm=True)
    return _simulation_form(request, encounter.campaign, encounter=encounter)


def _simulation_form(request, campaign, encounter=None):
    rules = forms_for(campaign.ruleset)
    data = request.POST if request.method == "POST" else None
    name = (_("%(encounter)s: simulation") % {"encounter": encounter.name} if encounter
            else _("Simulation %(number)s") % {"number": campaign.simulations.count() + 1})
    # The fleets of the first two sides ticked (every fleet, in the usual two-sided campaign), as
    # the encounter form ticks every fleet: the GM unticks what stays home.
    form = SimulationForm(data, campaign=campaign, initial={"name": name, "fleets": _two_sides(campaign)},
                          fixed_setup=encounter is not None)
    options = rules.SetupOptionsForm(data, prefix="opt") if encounter is None else None
    if encounter is not None:
        damaged = [s["name"] for s in encounter.setup["ships"] if s.get("damage")]
    else:
        damaged = [s.name for s in Ship.objects.filter(campaign=campaign).order_by("name") if s.damage]
    if not damaged:
        del form.fields["repaired"]
    if data is not None and form.is_valid() and (options is None or options.is_valid()):
        if encounter is not None:
            setup = encounter.setup
        else:
            ships = (Ship.objects.filter(fleet__in=form.cleaned_data["fleets"])
                     .select_related("fleet").prefetch_related("crew"))
            setup = {"ships": [s.setup_spec() for s in ships], "options": options.options()}
        if form.cleaned_data.get("repaired"):
            setup = {**setup, "ships": [{**s, "damage": {}} for s in setup["ships"]]}
        if len(sides_of(setup)) != 2:
            form.add_error(None, _("A simulation needs exactly two sides."))
        else:
            sweep = form.sweeps[form.cleaned_data["sweep"]]
            fields = {"seed": form.cleaned_data["seed"]} if form.cleaned_data["seed"] else {}
            run = SimulationRun.objects.create(
                campaign=campaign, name=form.cleaned_data["name"], ruleset=campaign.ruleset, setup=setup,
                sweep=sweep.key, points=[{"label": p.label, "options": p.options} for p in sweep.points],
                trials_per_point=form.cleaned_data["trials_per_point"], chunk_size=form.cleaned_data["chunk_size"] or 0,
                created_by=request.user, **fields)
            try:
                dispatch(start_simulation, run, run.pk)
            except QueueUnavailable as exc:
                form.add_error(None, str(exc))  # the run was not kept
            else:
                return redirect(run)
    return render(request, "encounters/simulation_new.html", {
        "campaign": campaign, "encounter": encounter, "form": form, "options": options,
        "cap": settings.SIMULATION_MAX_TRIALS, "damaged": damaged}, status=400 if data is not None else 200)


def _two_sides(campaign) -> list:
    """The campaign's fleets of its first two sides (fleets are ordered by side)."""
    fleets = list(campaign.fleets.all())
    sides = list(dict.fromkeys(f.side for f in fleets))[:2]
    return [f for f in fleets if f.side in sides]


def _progress(run: SimulationRun) -> dict:
    """How far the run is, and its time in words that say what they measure.

    ``elapsed``: from the moment a worker started the run (not when the GM asked: a queue
    wait is not counted) to its last chunk, or to now while it runs.  ``work``: the
    seconds the workers spent playing battles, summed over the chunks, and ``busy`` that
    divided by ``elapsed``: about how many workers were playing at once.
    """
    totals = run.chunks.aggregate(n=Sum("trials"), work=Sum("seconds"))
    done, work = totals["n"] or 0, totals["work"] or 0.0
    tasks = run.chunks.count()
    total = run.total_trials
    elapsed = eta = busy = None
    if run.started_at:
        end = run.finished_at or timezone.now()
        elapsed = (end - run.started_at).total_seconds()
        if run.status == SimulationRun.RUNNING and done:
            eta = elapsed * (total - done) / done
        if elapsed > 0 and work:
            busy = work / elapsed
    words = _timing_words(run, elapsed, eta, work, tasks, busy)
    return {"done": done, "total": total, "percent": int(100 * done / total) if total else 0,
            "elapsed": elapsed, "eta": eta, "work": work, "tasks": tasks, "busy": busy, "timing": words}


def duration(seconds: float) -> str:
    """Seconds in words: "0.4 s", "12 s", "3 min 5 s", "1 h 2 min"."""
    if seconds < 10:
        return _("%(s)s s") % {"s": f"{seconds:.1f}"}
    seconds = round(seconds)
    if seconds < 60:
        return _("%(s)s s") % {"s": seconds}
    if seconds < 3600:
        return _("%(m)s min %(s)s s") % {"m": seconds // 60, "s": seconds % 60}
    return _("%(h)s h %(m)s min") % {"h": seconds // 3600, "m": seconds % 3600 // 60}


def _timing_words(run, elapsed, eta, work, tasks, busy) -> str:
    if run.status == SimulationRun.QUEUED or elapsed is None:
        return _("Waiting for a worker to start it.")
    if run.status == SimulationRun.RUNNING:
        words = _("Running for %(elapsed)s since a worker started it") % {"elapsed": duration(elapsed)}
        if eta is not None:
            words += "; " + _("about %(eta)s to go") % {"eta": duration(eta)}
        return words + "."
    words = _("Computed in %(elapsed)s, from the start of the first worker task to the end of the last") % {
        "elapsed": duration(elapsed)}
    if tasks:
        words += "; " + ngettext(
            "the battles took %(work)s of worker time in %(tasks)s task",
            "the battles took %(work)s of worker time in %(tasks)s tasks", tasks) % {
            "work": duration(work), "tasks": tasks}
        if busy is not None and tasks > 1:
            words += " " + _("(about %(busy)s workers busy at once)") % {"busy": f"{busy:.1f}"}
    return words + "."


def _results(run: SimulationRun):
    if run.results is not None:
        return run.results
    if run.status in (SimulationRun.CANCELLED, SimulationRun.RUNNING) and run.chunks.exists():
        return aggregate(run)
    return None


@login_required
def simulation_detail(request, pk):
    run = _run_for_gm(request, pk)
    results = _results(run) if run.status != SimulationRun.RUNNING else None
    sides = sides_of(run.setup)
    try:
        sweep_label = sweep_by_key(run.campaign.engine, run.sweep).label
    except KeyError:  # the ruleset no longer offers it
        sweep_label = run.sweep
    ctx = {"run": run, "campaign": run.campaign, "progress": _progress(run), "results": results, "sides": sides,
           "sweep_label": sweep_label, "strength_label": run.campaign.engine.strength_label,
           # ships that started the simulated battles with damage from earlier fights
           "damaged": [s["name"] for s in run.setup.get("ships", []) if s.get("damage")]}
    if results:
        ctx["verdict"] = verdict(results, sides)
        ctx["verdict_thresholds"] = thresholds()
        ctx["win_chart"] = charts.win_probability(results, sides[0])
        # one scale for every point's histogram, so that they compare at a glance
        counts = [(int(k), v) for r in results for k, v in r.get("rounds", {}).items()]
        if counts:
            first, last = min(k for k, _v in counts), max(k for k, _v in counts)
            top = max(v for _k, v in counts)
            ctx["histograms"] = [(r["label"], charts.rounds_histogram(r, first, last, top)) for r in results]
    if request.htmx:
        return render(request, "encounters/simulation.html#progress", ctx)
    return render(request, "encounters/simulation.html", ctx)


@login_required
@require_POST
def simulation_cancel(request, pk):
    run = _run_for_gm(request, pk)
    if run.status in (SimulationRun.QUEUED, SimulationRun.RUNNING):
        SimulationRun.objects.filter(pk=run.pk, status__in=[SimulationRun.QUEUED, SimulationRun.RUNNING]).update(
            status=SimulationRun.CANCELLED, finished_at=timezone.now())
    return redirect(run)


@login_required
def simulation_download(request, pk, fmt):
    run = _run_for_gm(request, pk)
    results = _results(run) or []
    stem = f"simulation-{run.pk}"
    if fmt == "json":
        body = json.dumps({"simulation": run.name, "ruleset": run.ruleset, "seed": run.seed, "sweep": run.sweep,
                           "strength_label": registry.get(run.ruleset).strength_label,
                           "trials_per_point": run.trials_per_point, "status": run.status, "points": results},
                          indent=2)
        response = HttpResponse(body, content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="{stem}.json"'
        return response
    response = HttpResponse(content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{stem}.csv"'
    writer = csv.writer(response)
    sides = sides_of(run.setup)
    label = registry.get(run.ruleset).strength_label
    writer.writerow(["point", "trials", "side", "wins", "losses", "draws", "win_rate", "win_low", "win_high",
                     "draw_rate", "mean_rounds",
                     *[f"{_column(label)}_{s}" for s in sides], *[f"ships_lost_{s}" for s in sides]])
    for r in results:
        writer.writerow([r["label"], r["trials"], r["side"], r["wins"], r["losses"], r["draws"],
                         f"{r['win_rate']:.4f}", f"{r['win_interval'][0]:.4f}", f"{r['win_interval'][1]:.4f}",
                         f"{r['draw_rate']:.4f}", f"{r['mean_rounds']:.2f}",
                         *[f"{r['sides'][s]['strength_left']:.4f}" for s in sides],
                         *[f"{r['sides'][s]['ships_lost']:.3f}" for s in sides]])
    return response


def _column(label: str) -> str:
    """A CSV column name from a ruleset's strength label ("Hull left" -> "hull_left")."""
    return "_".join(english(label).lower().split())


def wait_for(run_id: int, timeout: float = 60) -> SimulationRun:
    """Poll until a run leaves queued/running (tests and benchmarks)."""
    deadline = time.monotonic() + timeout
    while True:
        run = SimulationRun.objects.get(pk=run_id)
        if run.status not in (SimulationRun.QUEUED, SimulationRun.RUNNING) or time.monotonic() > deadline:
            return run
        time.sleep(0.2)
