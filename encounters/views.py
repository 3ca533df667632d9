"""Encounter pages: set one up, run it step by step (GM), follow it (players).

Permissions are checked here, in every view: ``_get_encounter_for_user`` gives 404
to anyone outside the campaign, and the GM's controls raise 403 for players.
"""
from __future__ import annotations

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.models import Campaign, Membership, Ship
from campaigns.rulesets import forms_for
from rulesets.core.dice import DiceNeeded, InvalidFace
from rulesets.core.engine import Action, IllegalAction, Viewer

from . import log as encounter_log
from . import runner
from .autoplay import AutoPlayRefused, auto_play, npc_ships
from .fragments import fragment_key, shared_render, viewer_kind
from .models import Encounter
from .viewers import viewer_for
from .viewing import log_for, names_for, readable_steps, turn_and_order


def _get_encounter_for_user(request, pk, *, gm=False):
    encounter = get_object_or_404(Encounter.objects.for_user(request.user).select_related("campaign"), pk=pk)
    role = encounter.campaign.role_of(request.user)
    if gm and role != Membership.GM:
        raise PermissionDenied(_("Only the campaign's GM runs the encounter."))
    return encounter, role


class EncounterForm(forms.Form):
    name = forms.CharField(max_length=120, label=gettext_lazy("Name"))
    fleets = forms.ModelMultipleChoiceField(queryset=None, widget=forms.CheckboxSelectMultiple,
                                            label=gettext_lazy("Fleets"),
                                            help_text=gettext_lazy("Fleets taking part; at least two sides."))
    dice_mode = forms.ChoiceField(choices=Encounter.DICE_MODES, initial=Encounter.AUTO, label=gettext_lazy("Dice"))
    players_act = forms.BooleanField(
        required=False, initial=True, label=gettext_lazy("Players act themselves"),
        help_text=gettext_lazy("Each player takes their own characters' steps from their phone; auto-play waits for them."))
    gm_confirms = forms.BooleanField(
        required=False, label=gettext_lazy("The GM confirms players' steps"),
        help_text=gettext_lazy("A player's choice waits on your page for one tap: confirm or send back."))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fleets"].queryset = campaign.fleets.all()

    def clean_fleets(self):
        fleets = self.cleaned_data["fleets"]
        if len({f.side for f in fleets}) < 2:
            raise forms.ValidationError(_("Pick fleets from at least two sides."))
        if not Ship.objects.filter(fleet__in=fleets).exists():
            raise forms.ValidationError(_("The chosen fleets have no ships."))
        return fleets


def _viewer(request, encounter, role) -> Viewer:
    return viewer_for(request.user, encounter, role)


@login_required
def encounter_new(request, campaign_pk):
    campaign = get_object_or_404(Campaign.objects.for_user(request.user), pk=campaign_pk)
    if not campaign.is_gm(request.user):
        raise PermissionDenied(_("Only the campaign's GM starts encounters."))
    rules = forms_for(campaign.ruleset)
    data = request.POST if request.method == "POST" else None
    # Every fleet ticked: the usual fight is the whole campaign's; the GM unticks what stays home.
    form = EncounterForm(data, campaign=campaign, initial={"name": _("Encounter %(number)s") % {
                                                               "number": campaign.encounters.count() + 1},
                                                           "fleets": list(campaign.fleets.all())})
    options = rules.SetupOptionsForm(data, prefix="opt")
    if data is not None and form.is_valid() and options.is_valid():
        ships = Ship.objects.filter(fleet__in=form.cleaned_data["fleets"]).select_related("fleet").prefetch_related("crew")
        setup = {"ships": [s.setup_spec() for s in ships], "options": options.options()}
        try:
            campaign.engine.setup(setup)
        except (ValueError, KeyError) as exc:
            form.add_error(None, _("These ships cannot start an encounter: %(problem)s") % {"problem": exc})
        else:
            encounter = Encounter.objects.create(
                campaign=campaign, name=form.cleaned_data["name"], ruleset=campaign.ruleset, setup=setup,
                dice_mode=form.cleaned_data["dice_mode"], created_by=request.user,
                players_act=form.cleaned_data["players_act"], gm_confirms=form.cleaned_data["gm_confirms"])
            return redirect(encounter)
    return render(request, "encounters/new.html", {"campaign": campaign, "form": form, "options": options},
                  status=400 if data is not None else 200)


#: steps shown on the runner and the players' page; the rest behind "show the whole log".
#: Rendering the log is most of a step's cost (40 steps took two thirds of a step's time).
LOG_LIMIT = 15


def ruleset_partials(key: str) -> str:
    """The template with a ruleset's runner partials (ship-card, board), or the generic one."""
    from django.template import TemplateDoesNotExist
    from django.template.loader import get_template

    name = f"{key}/encounter.html"
    try:
        get_template(name)
    except TemplateDoesNotExist:
        return "encounters/ruleset_generic.html"
    return name


def _run_context(request, encounter, role, *, written=None, whole_log=None, **extra):
    """The runner's context.  ``written``: the row this request has just written, whose fold
    is the one to show (no second read of the head).  ``whole_log``: every step, not the
    latest (default: as the address asks, ``?log=all``)."""
    everything = request.GET.get("log") == "all" if whole_log is None else whole_log
    # The snapshot keeps the latest steps; the whole log is folded from the rows on request.
    if everything:
        now = encounter_log.history(encounter)
    elif written is not None:
        now = encounter_log.current_at(encounter, written)
    else:
        now = encounter_log.current(encounter)
    engine = encounter.engine
    viewer = _viewer(request, encounter, role)
    is_gm = role == Membership.GM
    actions, board_actions = [], []
    override = None
    if is_gm and encounter.status == Encounter.ACTIVE and not now.state.over:
        for action in engine.legal_actions(now.state):
            if action.kind == "override":
                override = action
                continue
            if engine.on_board(action):
                # Drawn by the ruleset's board partial (click a hex), not listed as buttons.
                board_actions.append({"action": action, "label": engine.describe(now.state, action),
                                      "params": dict(action.params)})
                continue
            odds = engine.odds(now.state, action)
            actions.append({"action": action, "label": engine.describe(now.state, action), "odds": odds,
                            "secondary": action.kind in engine.secondary_kinds})
    steps = readable_steps(now.applied, is_gm=is_gm)
    older = now.count - len(now.applied)  # steps in effect before the snapshot's window
    view = engine.view(now.state, viewer)
    gm_extras = _gm_context(request, encounter, now, actions, extra, view) if is_gm else {}
    return {
        "encounter": encounter, "campaign": encounter.campaign, "role": role, "is_gm": is_gm, **gm_extras,
        "streaming": bool(settings.REDIS_URL), "partials": ruleset_partials(encounter.ruleset),
        "state": now.state, "head": now.head, "view": view,
        "actions": [a for a in actions if not a["secondary"]],
        "more_actions": [a for a in actions if a["secondary"]], "board_actions": board_actions,
        "wide_board": engine.wide_board, "override": override,
        # the circumstance-DM box, for rule systems whose actions take one (free parameter "dm")
        "takes_dm": "dm" in engine.free_params, "override_help": engine.override_help,
        "steps": list(reversed(steps)) if everything else list(reversed(steps[-LOG_LIMIT:])),
        "hidden_steps": 0 if everything else older + max(0, len(steps) - LOG_LIMIT),
        # the log as this viewer reads it (encounters/viewing.py: what a player may see of it)
        "log": log_for(now, is_gm=is_gm, names=names_for(encounter, viewer), system=encounter.ruleset,
                       limit=None if everything else LOG_LIMIT),
        **(_player_context(engine, now.state, viewer) if not is_gm else {}),
        **(_my_turn_context(request, encounter, now, viewer, extra) if not is_gm else {}), **extra,
    }


def _my_turn_context(request, encounter, now, viewer, extra) -> dict:
    """The player's own step (encounters/play.py), unless the caller computed it already."""
    from .play import my_turn

    if "my_turn" in extra:
        return {}
    return {"my_turn": my_turn(request, encounter, now, viewer)}


def _gm_context(request, encounter, now, actions, extra, view) -> dict:
    """The runner's GM controls: keys, whose step, what auto-play may do, the override choices,
    and a dice prompt left open before a reload (encounters/runner.py).  ``view`` is the GM's."""
    engine = encounter.engine
    state = now.state
    ships = view.get("ships", [])
    runner.action_keys([a for a in actions if not a["secondary"]] + [a for a in actions if a["secondary"]])
    actor = None if state.over else engine.actor_ship(state)
    turn = None if state.over else engine.turn_ship(state)  # not a ship answering its attack
    out = {
        "whose": "" if state.over else str(state.active),
        # "Play <ship>'s turn" names the ship whose turn it is
        "turn_name": next((s.get("name") for s in ships if s.get("id") == turn), "") if turn else "",
        "actor_is_npc": actor is not None and actor in npc_ships(encounter),
        "auto_dice": encounter.dice_mode != Encounter.MANUAL,
        "override_fields": runner.override_choices(engine, state, ships),
        # the ship's-turn panel (encounters/turn.py): app dice only, for now
        "ship_turn": (_ship_turn(encounter, now, ships)
                      if encounter.status == Encounter.ACTIVE else None),
        **_players_waiting(encounter, now),
    }
    if "pending" not in extra and encounter.status == Encounter.ACTIVE:
        saved = runner.pending_of(encounter, now.head)
        if saved and saved.get("turn"):  # the dice of a whole ship's turn (encounters/turn.py)
            turn = saved["turn"]
            out["pending"] = runner.turn_dice_prompt(
                encounter, state, now.head, ship=turn["ship"], typed=saved.get("typed") or {},
                seats=[(s["actor"], s["choice"]) for s in turn["seats"]])
        elif saved:
            out["pending"] = runner.dice_prompt(encounter, state, saved["action"], dm=saved["dm"],
                                                faces=saved["faces"], gm_only=saved["gm_only"])
    return out


def _ship_turn(encounter, now, ships):
    """The GM's ship's-turn panel: every seat, or with players acting the seats no player takes."""
    from .turn import panel, seat_owner

    if not encounter.players_act:
        return panel(encounter, now, ships)
    owner = seat_owner(encounter, now)
    return panel(encounter, now, ships, only=lambda seat: owner(seat) is None)


def _players_waiting(encounter, now) -> dict:
    from .play import gm_waiting

    return gm_waiting(encounter, now)


def _player_context(engine, state, viewer) -> dict:
    """The players' page: whose turn, the order, their own ships (encounters/viewing.py)."""
    view = engine.view(state, viewer)
    own_sides = sorted({s.get("side") for s in view.get("ships", []) if s.get("id") in viewer.ships})
    return {"view": view, "table": turn_and_order(engine, state, view, viewer), "own_ships": sorted(viewer.ships),
            "own_sides": own_sides}


@login_required
def encounter_detail(request, pk):
    encounter, role = _get_encounter_for_user(request, pk)
    return render(request, _page(role), _run_context(request, encounter, role))


def _page(role) -> str:
    """The GM runs the encounter (run.html); a player follows it (live.html, the players' page)."""
    return "encounters/run.html" if role == Membership.GM else "encounters/live.html"


def _after_change(request, encounter, role, *, status=200, written=None, **extra):
    if request.htmx:
        return render(request, "encounters/run.html#runner",
                      _run_context(request, encounter, role, written=written, **extra), status=status)
    if extra.get("error"):
        messages.error(request, extra["error"])
    return redirect(encounter)


def _expected(request) -> int:
    try:
        return int(request.POST.get("expected_seq", ""))
    except ValueError:
        return -1


def _faces(request) -> list[int] | None:
    """The faces of physical dice: one box per die (trailing empty boxes: dice not needed), or
    mixed dice typed in one box, "3 5 2".  Raises :class:`runner.BadFace` naming the die."""
    raw = request.POST.getlist("face")
    if not raw and request.POST.get("faces", "").strip():
        raw = request.POST["faces"].replace(",", " ").split()
    return runner.faces_from(raw) or None


def _typed(request) -> list[int]:
    """The faces typed so far, as far as they read (kept when a prompt is shown again)."""
    out = []
    for value in request.POST.getlist("face"):
        try:
            out.append(int(value.strip()))
        except ValueError:
            break
    return out


@login_required
@require_POST
def encounter_step(request, pk):
    encounter, role = _get_encounter_for_user(request, pk, gm=True)
    action_text = request.POST.get("action", "")
    dm = request.POST.get("dm", "").strip()
    gm_only = bool(request.POST.get("gm_only"))
    if request.POST.get("cancel"):
        runner.forget_pending(encounter)
        return _after_change(request, encounter, role)
    override_ship = request.POST.get("override_ship", "")
    try:
        action = Action.parse(action_text)
        if dm:
            action = action.with_params(dm=runner.parse_dm(dm))
        # Free inputs a form adds to an action, e.g. the GM override's path and value.
        extra = {k[2:]: v.strip() for k, v in request.POST.items() if k.startswith("p.") and v.strip()}
        if override_ship:
            # The override from a ship card: the card's ship and a field picked by name.
            extra["path"] = runner.override_path(encounter, override_ship, request.POST.get("override_field", ""))
        if extra:
            action = action.with_params(**extra)
        faces = _faces(request)
        row = encounter_log.step(encounter, action.to_str(), expected_seq=_expected(request), user=request.user,
                                 faces=faces, gm_only=gm_only)
    except DiceNeeded as need:
        typed = _typed(request)
        runner.remember_pending(encounter, encounter_log.head_seq(encounter), action=action_text,
                                dm=dm, faces=typed, gm_only=gm_only)
        return _after_change(request, encounter, role, status=200, pending=runner.dice_prompt(
            encounter, encounter_log.current(encounter).state, action_text, dm=dm, faces=typed, gm_only=gm_only,
            need=need))
    except (InvalidFace, runner.BadFace) as bad:
        message = runner.face_refusal(bad)
        return _after_change(request, encounter, role, status=400, pending=runner.dice_prompt(
            encounter, encounter_log.current(encounter).state, action_text, dm=dm, faces=_typed(request),
            gm_only=gm_only, bad_index=bad.index, error=message))
    except encounter_log.StaleStep as stale:
        runner.forget_pending(encounter)
        return _after_change(request, encounter, role, status=409, error=str(stale))
    except (IllegalAction, ValueError, encounter_log.EncounterClosed) as exc:
        if override_ship:
            # Said on the ship card where the GM typed it, with what was typed kept.
            return _after_change(request, encounter, role, status=400, override_pick={
                "ship": override_ship, "field": request.POST.get("override_field", ""),
                "value": request.POST.get("p.value", ""), "error": str(exc)})
        return _after_change(request, encounter, role, status=400, error=str(exc))
    runner.forget_pending(encounter)
    return _after_change(request, encounter, role, written=row)


@login_required
@require_POST
def encounter_auto(request, pk):
    """Let the ruleset's policy decide: one step, this ship's turn, to the next player decision,
    or the NPCs to the end of the round (encounters/autoplay.py); each step its own row."""
    encounter, role = _get_encounter_for_user(request, pk, gm=True)
    try:
        auto_play(encounter, mode=request.POST.get("mode", "step"), expected_seq=_expected(request),
                  user=request.user)
    except encounter_log.StaleStep as stale:
        return _after_change(request, encounter, role, status=409, error=str(stale))
    except (AutoPlayRefused, encounter_log.EncounterClosed) as exc:
        return _after_change(request, encounter, role, status=400, error=str(exc))
    return _after_change(request, encounter, role)


@login_required
@require_POST
def encounter_turn(request, pk):
    """The ship's-turn panel, submitted once: each seat's choice applied in turn, each its own
    step through the single writer (encounters/turn.py); it stops where the rules interrupt.
    With physical dice, every die of the turn is asked at once first (runner.turn_dice_prompt)."""
    from .turn import TurnDice, TurnMovedOn, play_turn

    encounter, role = _get_encounter_for_user(request, pk, gm=True)
    order = request.POST.getlist("seat")
    seats = [(actor, request.POST.get(f"choice.{actor}", "")) for actor in order]
    ship = request.POST.get("ship", "")
    if request.POST.get("cancel"):
        runner.forget_pending(encounter)
        return _after_change(request, encounter, role)
    if request.POST.get("probe"):
        return _turn_probe(request, encounter, role, ship=ship, seats=seats)
    return _turn_answer(request, encounter, role, ship=ship, seats=seats, user=request.user,
                        play=lambda faces: play_turn(encounter, ship=ship, seats=seats, expected_seq=_expected(request),
                                                     user=request.user, faces=faces),
                        moved_on=(TurnMovedOn,), dice=TurnDice)


def _turn_probe(request, encounter, role, *, ship, seats, answer=None, own=False):
    """The turn's dice prompt again, as faces are typed (nothing applied): the dice the typed
    faces make needed, or not, said at once; the faces kept with the encounter (the GM's)."""
    # a box that is not a whole number is said beside it by the page; the server refuses it on Apply
    typed = runner.turn_faces_read(request.POST.getlist("die"), request.POST.getlist("face"))
    now = encounter_log.current(encounter)
    if now.head != _expected(request):
        return HttpResponse(status=204)  # the encounter moved on: the live page brings the new head
    if answer is None:
        runner.remember_turn(encounter, now.head, turn={"ship": ship, "seats": [{"actor": a, "choice": c} for a, c in seats]},
                             typed=typed)
        answer = lambda **kw: _after_change(request, encounter, role, **kw)  # noqa: E731
    return answer(pending=runner.turn_dice_prompt(encounter, now.state, now.head, ship=ship, seats=seats, typed=typed,
                                                  own=own))


def _turn_answer(request, encounter, role, *, ship, seats, user, play, moved_on, dice, answer=None, own=False):
    """Play a posted ship's turn and answer: the runner after it, the turn's dice prompt (with
    what was typed, a refused face said beside its box), or why it stopped.  ``answer``: how
    the page is rendered (the GM's runner by default); ``own``: a player's own dice (only their
    rolls asked)."""
    gm = answer is None  # the GM's prompt is kept with the encounter; a player's in their browser
    answer = answer or (lambda **kw: _after_change(request, encounter, role, **kw))
    turn = {"ship": ship, "seats": [{"actor": a, "choice": c} for a, c in seats]}
    try:
        typed = runner.turn_faces_from(request.POST.getlist("die"), request.POST.getlist("face"))
    except runner.BadFace as bad:
        keys = request.POST.getlist("die")
        now = encounter_log.current(encounter)
        typed = runner.turn_faces_read(keys, request.POST.getlist("face"))
        return answer(status=400, pending=runner.turn_dice_prompt(
            encounter, now.state, now.head, ship=ship, seats=seats, typed=typed, own=own,
            bad_key=keys[bad.index] if bad.index < len(keys) else "", error=runner.face_refusal(bad)))
    try:
        taken, why = play(typed)
    except moved_on as stale:
        if gm:
            runner.forget_pending(encounter)
        return answer(status=409, error=str(stale))
    except encounter_log.StaleStep:
        # another step came in between two of the turn's: those written stay, the rest is not applied
        return answer(status=409, error=(
            _("The encounter moved on while this ship's turn was being applied (another step came in): "
              "the steps before it are in the log; choose the rest again.")))
    except dice as short:
        now = encounter_log.current(encounter)
        if gm:
            runner.remember_turn(encounter, now.head, turn=turn, typed=typed)
        prompt = runner.turn_dice_prompt(encounter, now.state, now.head, ship=ship, seats=seats, typed=typed, own=own)
        if typed and short.need is not None:
            # Apply pressed with a die the turn needs still empty: said beside that box
            missing = next((d for d in prompt["dice"] if d["face"] is None), None)
            if missing is not None:
                prompt = runner.turn_dice_prompt(
                    encounter, now.state, now.head, ship=ship, seats=seats, typed=typed, own=own, bad_key=missing["key"],
                    error=_("Die %(number)s: the turn needs this die; type its face.") % {"number": missing["number"]})
        return answer(status=200, pending=prompt)
    except runner.TurnBadFace as bad:
        now = encounter_log.current(encounter)
        if gm:
            runner.remember_turn(encounter, now.head, turn=turn, typed=typed)
        prompt = runner.turn_dice_prompt(encounter, now.state, now.head, ship=ship, seats=seats, typed=typed,
                                         bad_key=bad.key, own=own)
        number = prompt["bad_index"] + 1 if prompt["bad_index"] is not None else bad.index + 1
        prompt["face_error"] = runner.face_refusal(InvalidFace(number - 1, bad.face, bad.sides))
        return answer(status=400, pending=prompt)
    except (IllegalAction, ValueError, encounter_log.EncounterClosed) as exc:
        return answer(status=400, error=str(exc))
    if gm:
        runner.forget_pending(encounter)
    if why:
        return answer(status=200, notice=why)
    return answer()


@login_required
@require_POST
def encounter_undo(request, pk):
    encounter, role = _get_encounter_for_user(request, pk, gm=True)
    back_to = request.POST.get("back_to", "").strip()
    try:
        if back_to:
            # Undo back to a step: every later step undone, one undo row each, in one request.
            runner.undo_back_to(encounter, int(back_to), expected_seq=_expected(request), user=request.user)
        else:
            encounter_log.undo(encounter, expected_seq=_expected(request), user=request.user)
    except ValueError:
        return _after_change(request, encounter, role, status=400, error=_("Pick the step to undo back to."))
    except (encounter_log.StaleStep, encounter_log.NothingToUndo, encounter_log.EncounterClosed) as exc:
        return _after_change(request, encounter, role, status=409, error=str(exc))
    runner.forget_pending(encounter)
    return _after_change(request, encounter, role)


@login_required
@require_POST
def encounter_reroll(request, pk, seq):
    encounter, role = _get_encounter_for_user(request, pk, gm=True)
    try:
        encounter_log.reroll(encounter, seq, expected_seq=_expected(request), user=request.user)
    except (encounter_log.StaleStep, encounter_log.NothingToUndo, encounter_log.EncounterClosed) as exc:
        return _after_change(request, encounter, role, status=409, error=str(exc))
    except DiceNeeded:
        return _after_change(request, encounter, role, status=400,
                             error=_("Rerolling in manual-dice mode: undo the step and enter the new dice instead."))
    return _after_change(request, encounter, role)


@login_required
@require_POST
def encounter_reveal(request, pk, seq):
    encounter, role = _get_encounter_for_user(request, pk, gm=True)
    try:
        encounter_log.reveal(encounter, seq, expected_seq=_expected(request), user=request.user)
    except (encounter_log.StaleStep, encounter_log.NothingToUndo, encounter_log.EncounterClosed) as exc:
        return _after_change(request, encounter, role, status=409, error=str(exc))
    return _after_change(request, encounter, role)


@login_required
@require_POST
def encounter_status(request, pk):
    """Pause, resume, or end (carrying the damage back to the campaign's ships)."""
    encounter, role = _get_encounter_for_user(request, pk, gm=True)
    what = request.POST.get("status")
    if encounter.status == Encounter.FINISHED:
        messages.error(request, _("This encounter is finished."))
        return redirect(encounter)
    if what in (Encounter.ACTIVE, Encounter.PAUSED):
        encounter.status = what
        encounter.save(update_fields=["status"])
        # Live pages hear of it like a step (the players' page says "paused by the GM" at once):
        # same head, new status, so a new shared fragment (encounters/fragments.py).
        encounter_log.publish_after_commit(encounter, encounter_log.head_seq(encounter))
    elif what == Encounter.FINISHED:
        try:
            encounter_log.finish(encounter, carry_damage=bool(request.POST.get("carry_damage")))
        except encounter_log.EncounterClosed as exc:
            messages.error(request, str(exc))
    return redirect(encounter)


@login_required
def encounter_replay(request, pk):
    """A read-only replay, step by step, as the viewer saw it (players: the public steps)."""
    encounter, role = _get_encounter_for_user(request, pk)
    if encounter.status != Encounter.FINISHED and role != Membership.GM:
        raise Http404("The replay opens when the encounter is finished.")
    now = encounter_log.history(encounter)
    is_gm = role == Membership.GM
    viewer = _viewer(request, encounter, role)
    # The steps this viewer reads (encounters/viewing.py), oldest first, numbered as in the log.
    steps = list(reversed(log_for(now, is_gm=is_gm, names=names_for(encounter, viewer), system=encounter.ruleset)))
    steps = [s for s in steps if not s.dropped]
    try:
        index = max(0, min(len(steps), int(request.GET.get("step", len(steps)))))
    except ValueError:
        index = len(steps)
    engine = encounter.engine
    if index == len(steps):
        state = now.state
    else:
        state = encounter_log.state_before(encounter, steps[index].seq)
    # "Step N of M" counts the steps in effect, as the log numbers them.
    number = now.count if index == len(steps) else (steps[index - 1].number if index else 0)
    return render(request, "encounters/replay.html", {
        "encounter": encounter, "campaign": encounter.campaign, "is_gm": is_gm, "state": state,
        "partials": ruleset_partials(encounter.ruleset), "replay": True,
        "view": engine.view(state, viewer), "index": index, "total": len(steps),
        "number": number, "count": now.count, "log": list(reversed(steps[:index])), "own_ships": sorted(viewer.ships),
        "steps": list(reversed(steps[:index])), "empty_log": _("The start of the fight."),
        "own_sides": sorted({s["side"] for s in encounter.setup["ships"] if s["id"] in viewer.ships}),
        "prev": max(0, index - 1), "next": min(len(steps), index + 1),
    })


@login_required
def encounter_poll(request, pk):
    """The head sequence, for live pages that poll (the embedded default has no stream)."""
    encounter, role = _get_encounter_for_user(request, pk)
    head = encounter_log.head_seq(encounter)
    try:
        seen = int(request.GET.get("seen", "-1"))
    except ValueError:
        seen = -1
    if request.htmx:
        # A player's step waiting for the GM (or sent back) changes the page at the same head.
        # (Only a proposal made at this head counts: an older one is moot, encounters/play.py.)
        from .play import proposal_of

        proposal = request.GET.get("proposal")
        same_proposal = proposal is None or proposal == ((proposal_of(encounter, head) or {}).get("token") or "")
        # A pause or a resume changes the page at the same head too.
        status = request.GET.get("status")
        same_status = status is None or status == encounter.status
        if seen == head and same_proposal and same_status:
            return HttpResponse(status=204)
        template = _page(role) + "#runner"
        if role == Membership.GM or request.GET.get("log"):
            # The GM's controls carry the GM's CSRF token (forms, a dice prompt): never shared.
            return render(request, template, _run_context(request, encounter, role))
        return HttpResponse(player_fragment(request, encounter, role, head, _viewer(request, encounter, role)))
    return JsonResponse({"head": head, "status": encounter.status})


def player_fragment(request, encounter, role, head: int, viewer: Viewer) -> str:
    """A player's runner fragment at ``head``, as the poll view and the live stream send it.

    Every player who sees through the same ships gets the same fragment at this head:
    rendered once, shared through the cache (encounters/fragments.py).  Never the GM's.
    """
    assert role != Membership.GM, "the GM's fragment carries the GM's controls: never shared"
    from .play import my_turn_key

    template = _page(role) + "#runner"
    kind = viewer_kind(viewer, request.user.pk)
    # The state at ``head``, read once per encounter object: the stream renders every page of a
    # room from one object, so its pages cost no query of their own here.
    memo = getattr(encounter, "_now_memo", None)
    if memo is None or memo.head != head:
        memo = encounter_log.current(encounter) if encounter.players_act else None
        encounter._now_memo = memo
    if memo is not None and memo.head != head:
        # A step landed since ``head`` was read: decide the turn, render and key the fragment at
        # the state read (keyed at the older head without the player's panel, it was served to the
        # player's page as the newer head's, and the page, already at that head, waited for ever).
        head = memo.head
    mine = my_turn_key(request, encounter, memo) if memo is not None else ""
    if mine:
        # Their own step (forms with their CSRF token, their characters): theirs alone, and
        # worked out (odds, words) only when this render is made.
        kind += "|" + mine
    # The latest steps, whatever the address asked: a render shared with other pages must not
    # depend on one page's query (a stream opened with ?log=all).
    return shared_render(key=fragment_key(encounter.pk, head, encounter.status, kind, template),
                         render=lambda: render_to_string(template, _run_context(
                             request, encounter, role, whole_log=False, **({} if mine else {"my_turn": None})),
                             request=request))


@login_required
@require_POST
def encounter_fork(request, pk, seq):
    """Reroll from here: a new encounter with this one's history up to step ``seq``."""
    encounter, _role = _get_encounter_for_user(request, pk, gm=True)
    new = encounter_log.fork(encounter, seq, user=request.user)
    messages.success(request, _("“%(new)s” starts from step %(step)s of “%(encounter)s”.") % {
        "new": new.name, "step": seq, "encounter": encounter.name})
    return redirect(new)


@login_required
@require_POST
def analysis_start(request, pk):
    from .models import EncounterAnalysis
    from .tasks import QueueUnavailable, analyse_encounter, dispatch

    encounter, _role = _get_encounter_for_user(request, pk, gm=True)
    if encounter.status != Encounter.FINISHED:
        messages.error(request, _("End the encounter first: the analysis replays a finished fight."))
        return redirect(encounter)
    analysis = EncounterAnalysis.objects.create(encounter=encounter)
    try:
        dispatch(analyse_encounter, analysis, analysis.pk)
    except QueueUnavailable as exc:  # the analysis was not kept
        messages.error(request, str(exc))
        return redirect(encounter)
    return redirect("encounters:analysis", encounter.pk, analysis.pk)


@login_required
def analysis_detail(request, pk, analysis_pk):
    encounter, _role = _get_encounter_for_user(request, pk, gm=True)
    analysis = get_object_or_404(encounter.analyses, pk=analysis_pk)
    template = "encounters/analysis.html#analysis" if request.htmx else "encounters/analysis.html"
    steps = {}
    if analysis.status == "done":
        # The turning points in words: each step as the log reads it, with its number in the log.
        steps = {s.seq: s for s in log_for(encounter_log.history(encounter), is_gm=True, names=names_for(
            encounter, _viewer(request, encounter, Membership.GM)), system=encounter.ruleset)}
    from .analysis_page import analysis_context

    return render(request, template, {"encounter": encounter, "campaign": encounter.campaign, "analysis": analysis,
                                      "strength_label": encounter.campaign.engine.strength_label,
                                      "said": analysis_context(analysis, steps) if analysis.results else None})
