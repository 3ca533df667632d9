"""The GM's preparation pages: campaigns, members and invites, fleets, ships and crews.

Every view fetches its objects through ``_get_campaign_for_user``: an outsider gets
404 (never another campaign's data); a player may look but gets 403 on the GM's
controls.  htmx requests get the changed partial; plain posts redirect.
"""
from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from rulesets.core import registry

from . import exchange
from .forms import (
    AddShipForm, CampaignForm, CloneShipForm, CrewMemberForm, FleetForm, ImportForm, InviteForm, MoveShipForm,
    ShipForm, TransferGMForm,
)
from .models import Campaign, CrewMember, Fleet, Invite, InviteError, Membership, Ship, ShipTemplate
from .rulesets import forms_for


def _get_campaign_for_user(request, pk, *, gm=False) -> tuple[Campaign, str]:
    campaign = get_object_or_404(Campaign.objects.for_user(request.user), pk=pk)
    role = campaign.role_of(request.user)
    if gm and role != Membership.GM:
        raise PermissionDenied(_("Only the campaign's GM can do that."))
    return campaign, role


def _json_download(data: dict, filename: str) -> HttpResponse:
    response = HttpResponse(json.dumps(data, indent=2), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


# -- campaigns ---------------------------------------------------------------

@login_required
def campaign_list(request):
    memberships = (Membership.objects.filter(user=request.user)
                   .select_related("campaign").order_by("campaign__name"))
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = Campaign.create_for(request.user, **form.cleaned_data)
        messages.success(request, _("Campaign “%(campaign)s” created. Add a fleet to start.") % {"campaign": campaign.name})
        return redirect(campaign)
    return render(request, "campaigns/list.html", {
        "memberships": memberships, "form": form, "import_form": ImportForm(),
    })


@login_required
@require_POST
def campaign_import(request):
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            campaign = exchange.import_campaign(form.cleaned_data["file"].read(), request.user)
        except exchange.ImportRefused as exc:
            form.add_error("file", str(exc))
        else:
            messages.success(request, _("Imported campaign “%(campaign)s”.") % {"campaign": campaign.name})
            return redirect(campaign)
    memberships = Membership.objects.filter(user=request.user).select_related("campaign")
    return render(request, "campaigns/list.html", {
        "memberships": memberships, "form": CampaignForm(), "import_form": form,
    }, status=400)


def _detail_context(request, campaign, role, **extra):
    fleets = campaign.visible_fleets(request.user, role).prefetch_related("ships__crew__player", "ships__template")
    ctx = {
        "campaign": campaign,
        "role": role,
        "is_gm": role == Membership.GM,
        "fleets": fleets,
        "members": campaign.memberships.select_related("user"),
        "templates": ShipTemplate.objects.for_ruleset(campaign.ruleset),
        "add_ship_form": AddShipForm(campaign=campaign),
        "fleet_form": FleetForm(campaign=campaign),
        "my_characters": CrewMember.objects.filter(ship__campaign=campaign, player=request.user).select_related("ship"),
        "my_ships": Ship.objects.filter(campaign=campaign, player=request.user),
    }
    if role == Membership.GM:
        ctx.update({
            "invites": campaign.invites.all()[:20],
            "invite_form": InviteForm(),
            "transfer_form": TransferGMForm(campaign=campaign),
            "import_form": ImportForm(),
            "edit_form": CampaignForm(instance=campaign),
            "campaign_players": [m.user for m in campaign.memberships.filter(role=Membership.PLAYER)
                                 .select_related("user")],
        })
    ctx["encounters"] = campaign.encounters.order_by("-created_at")[:20]
    if role == Membership.GM:
        ctx["simulations"] = campaign.simulations.order_by("-created_at")[:20]
    ctx.update(extra)
    return ctx


@login_required
def campaign_detail(request, pk):
    campaign, role = _get_campaign_for_user(request, pk)
    return render(request, "campaigns/detail.html", _detail_context(request, campaign, role))


@login_required
@require_POST
def campaign_edit(request, pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    form = CampaignForm(request.POST, instance=campaign)
    if form.is_valid():
        form.save()
        messages.success(request, _("Campaign saved."))
        return redirect(campaign)
    return render(request, "campaigns/detail.html",
                  _detail_context(request, campaign, role, edit_form=form), status=400)


@login_required
@require_POST
def campaign_delete(request, pk):
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    if request.POST.get("confirm") != campaign.name:
        messages.error(request, _("Type the campaign's name exactly to delete it."))
        return redirect(campaign)
    campaign.delete()
    messages.success(request, _("Campaign “%(campaign)s” deleted.") % {"campaign": campaign.name})
    return redirect("campaigns:list")


@login_required
def campaign_export(request, pk):
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    return _json_download(exchange.export_campaign(campaign), f"{slugify(campaign.name) or 'campaign'}.json")


@login_required
@require_POST
def transfer_gm(request, pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    form = TransferGMForm(request.POST, campaign=campaign)
    if form.is_valid():
        campaign.transfer_gm(form.cleaned_data["new_gm"])
        messages.success(request, _("%(user)s is now the GM; you stay on as a player.") % {
            "user": form.cleaned_data["new_gm"]})
        return redirect(campaign)
    return render(request, "campaigns/detail.html",
                  _detail_context(request, campaign, role, transfer_form=form), status=400)


# -- members and invites -------------------------------------------------------

@login_required
@require_POST
def invite_create(request, pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    form = InviteForm(request.POST)
    if form.is_valid():
        invite = Invite.create(campaign, request.user, single_use=form.cleaned_data["single_use"],
                               days=form.cleaned_data["days"])
        link = request.build_absolute_uri(invite.get_absolute_url())
        messages.success(request, _("Invitation link: %(link)s") % {"link": link})
        return redirect(f"{campaign.get_absolute_url()}#members")
    return render(request, "campaigns/detail.html",
                  _detail_context(request, campaign, role, invite_form=form), status=400)


@login_required
@require_POST
def invite_revoke(request, pk, invite_pk):
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    invite = get_object_or_404(campaign.invites, pk=invite_pk)
    invite.revoked = True
    invite.save(update_fields=["revoked"])
    messages.success(request, _("Invitation revoked."))
    return redirect(f"{campaign.get_absolute_url()}#members")


def join(request, token):
    if "\x00" in token:  # no token holds one, and PostgreSQL cannot even compare it
        raise Http404("No such invitation.")
    invite = get_object_or_404(Invite.objects.select_related("campaign"), token=token)
    if not request.user.is_authenticated:
        return render(request, "campaigns/join.html", {"invite": invite, "anonymous": True})
    if request.method == "POST":
        try:
            invite.accept(request.user)
        except InviteError as exc:
            return render(request, "campaigns/join.html", {"invite": invite, "error": str(exc)}, status=410)
        messages.success(request, _("You joined “%(campaign)s”.") % {"campaign": invite.campaign.name})
        return redirect(invite.campaign)
    already = invite.campaign.memberships.filter(user=request.user).exists()
    error = "" if already or invite.status == "open" else invite.refusal
    return render(request, "campaigns/join.html", {"invite": invite, "already": already, "error": error},
                  status=410 if error else 200)


@login_required
@require_POST
def member_remove(request, pk, member_pk):
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    membership = get_object_or_404(campaign.memberships, pk=member_pk, role=Membership.PLAYER)
    campaign.unlink(membership.user)
    membership.delete()
    messages.success(request, _("%(user)s left the campaign.") % {"user": membership.user})
    return redirect(f"{campaign.get_absolute_url()}#members")


@login_required
@require_POST
def link(request, pk):
    """Who plays whom: the GM links a player to a crew member or a ship (``player`` blank: the
    GM's again).  A character has one player; a player may have several characters."""
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    kind, target = request.POST.get("kind", ""), request.POST.get("id", "")
    if kind == "crew":
        obj = get_object_or_404(CrewMember.objects.select_related("ship"), ship__campaign=campaign,
                                pk=target if target.isdigit() else 0)
    elif kind == "ship":
        obj = get_object_or_404(Ship, campaign=campaign, pk=target if target.isdigit() else 0)
    else:
        raise Http404
    raw = request.POST.get("player", "")
    player = None
    if raw:
        membership = campaign.memberships.filter(role=Membership.PLAYER, user_id=raw if raw.isdigit() else 0
                                                 ).select_related("user").first()
        if membership is None:
            messages.error(request, _("Only a player of this campaign can play a character here."))
            return redirect(f"{campaign.get_absolute_url()}#links")
        player = membership.user
    obj.player = player
    obj.save(update_fields=["player"])
    if player:
        messages.success(request, _("%(player)s plays %(character)s.") % {"player": player, "character": obj.name})
    else:
        messages.success(request, _("%(character)s is the GM's.") % {"character": obj.name})
    return redirect(f"{campaign.get_absolute_url()}#links")


# -- fleets ------------------------------------------------------------------

def _fleet_response(request, campaign, role, fleet, *, status=200, **extra):
    """htmx: the fleet's partial; otherwise back to the campaign page, or, when something
    was refused, the campaign page again with the error next to that fleet's form."""
    if request.htmx:
        ctx = _detail_context(request, campaign, role, fleet=fleet, **extra)
        return render(request, "campaigns/detail.html#fleet", ctx, status=status)
    if status >= 400:
        return render(request, "campaigns/detail.html", _detail_context(request, campaign, role, **extra),
                      status=status)
    return redirect(f"{campaign.get_absolute_url()}#fleet-{fleet.pk}")


@login_required
@require_POST
def fleet_create(request, pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    form = FleetForm(request.POST, campaign=campaign)
    if form.is_valid():
        fleet = form.save()
        messages.success(request, _("Fleet “%(fleet)s” added.") % {"fleet": fleet.name})
        return redirect(f"{campaign.get_absolute_url()}#fleet-{fleet.pk}")
    return render(request, "campaigns/detail.html",
                  _detail_context(request, campaign, role, fleet_form=form), status=400)


@login_required
def fleet_edit(request, pk, fleet_pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    fleet = get_object_or_404(campaign.fleets, pk=fleet_pk)
    form = FleetForm(request.POST or None, instance=fleet, campaign=campaign)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Fleet saved."))
        return redirect(f"{campaign.get_absolute_url()}#fleet-{fleet.pk}")
    return render(request, "campaigns/fleet_form.html", {"campaign": campaign, "fleet": fleet, "form": form},
                  status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def fleet_delete(request, pk, fleet_pk):
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    fleet = get_object_or_404(campaign.fleets, pk=fleet_pk)
    fleet.delete()
    messages.success(request, _("Fleet “%(fleet)s” and its ships deleted.") % {"fleet": fleet.name})
    return redirect(campaign)


@login_required
def fleet_export(request, pk, fleet_pk):
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    fleet = get_object_or_404(campaign.fleets, pk=fleet_pk)
    return _json_download(exchange.export_fleet(fleet), f"{slugify(fleet.name) or 'fleet'}.json")


@login_required
@require_POST
def fleet_import(request, pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    form = ImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            fleet = exchange.import_fleet(form.cleaned_data["file"].read(), campaign)
        except exchange.ImportRefused as exc:
            form.add_error("file", str(exc))
        else:
            messages.success(request, _("Imported fleet “%(fleet)s”.") % {"fleet": fleet.name})
            return redirect(f"{campaign.get_absolute_url()}#fleet-{fleet.pk}")
    return render(request, "campaigns/detail.html",
                  _detail_context(request, campaign, role, import_form=form), status=400)


# -- ships -------------------------------------------------------------------

@login_required
@require_POST
def ship_add(request, pk, fleet_pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    fleet = get_object_or_404(campaign.fleets, pk=fleet_pk)
    form = AddShipForm(request.POST, campaign=campaign)
    if form.is_valid():
        ship = Ship.from_template(form.cleaned_data["template"], fleet, form.cleaned_data["name"].strip())
        if not request.htmx:
            messages.success(request, _("%(ship)s joined %(fleet)s.") % {"ship": ship.name, "fleet": fleet.name})
        return _fleet_response(request, campaign, role, fleet)
    return _fleet_response(request, campaign, role, fleet, status=400, add_ship_form=form, form_fleet=fleet)


def _get_ship(campaign, ship_pk, request=None, role=Membership.GM) -> Ship:
    ships = Ship.objects.select_related("fleet").filter(campaign=campaign)
    if role != Membership.GM:
        ships = ships.filter(fleet__in=campaign.visible_fleets(request.user, role))
    return get_object_or_404(ships, pk=ship_pk)


@login_required
def ship_detail(request, pk, ship_pk):
    """The ship editor: name, fleet, notes and the ruleset's stats form, then the crew."""
    campaign, role = _get_campaign_for_user(request, pk)
    ship = _get_ship(campaign, ship_pk, request, role)
    rules = forms_for(campaign.ruleset)
    is_gm = role == Membership.GM
    if request.method == "POST":
        if not is_gm:
            raise PermissionDenied(_("Only the campaign's GM can edit ships."))
        form = ShipForm(request.POST, instance=ship, campaign=campaign)
        stats_form = rules.ShipStatsForm(request.POST, prefix="stats")
        if form.is_valid() and stats_form.is_valid():
            ship = form.save(commit=False)
            ship.stats = stats_form.stats()
            ship.save()
            messages.success(request, _("%(ship)s saved.") % {"ship": ship.name})
            return redirect("campaigns:ship", campaign.pk, ship.pk)
        status = 400
    else:
        form = ShipForm(instance=ship, campaign=campaign)
        stats_form = rules.ShipStatsForm(initial=rules.ShipStatsForm.initial_from(ship.stats), prefix="stats")
        status = 200
    if not is_gm:  # players look, read-only, and the fleet list holds only the sides they see
        form.fields["fleet"].queryset = campaign.visible_fleets(request.user, role)
        for f in (*form.fields.values(), *stats_form.fields.values()):
            f.disabled = True
    return _render_ship_page(request, campaign, role, ship, form=form, stats_form=stats_form, status=status)


def _damage_carried(campaign, ship) -> list[str]:
    """The ship's carried damage as lines: in the words of its rule system where it has its own
    (Cepheus names the weapon and its turret), else the app's general wording."""
    if not ship.damage:
        return []
    from encounters.templatetags.words import damage_lines

    lines = registry.get(campaign.ruleset).damage_words(
        ship.damage, ship.stats or {}, {f"c{c.pk}": c.name for c in ship.crew.all()})
    return lines if lines is not None else damage_lines(ship.damage, ship)


def _render_ship_page(request, campaign, role, ship, *, form=None, stats_form=None, crew_form=None,
                      sheet_form=None, status=200, crew_open=False):
    """The ship editor page; forms not given are fresh ones for this ship."""
    rules = forms_for(campaign.ruleset)
    if form is None:
        form = ShipForm(instance=ship, campaign=campaign)
    if stats_form is None:
        stats_form = rules.ShipStatsForm(initial=rules.ShipStatsForm.initial_from(ship.stats), prefix="stats")
    if crew_form is None:
        crew_form = CrewMemberForm(campaign=campaign, prefix="crew")
    if sheet_form is None:
        sheet_form = rules.CrewForm(prefix="sheet", initial=rules.CrewForm.initial_from({}))
    return render(request, "campaigns/ship.html", {
        "campaign": campaign, "role": role, "is_gm": role == Membership.GM, "ship": ship,
        "damage_carried": _damage_carried(campaign, ship),
        "form": form, "stats_form": stats_form, "crew": ship.crew.select_related("player"),
        "crew_form": crew_form, "sheet_form": sheet_form,
        "positions": dict(rules.POSITIONS), "crew_open": crew_open,
    }, status=status)


@login_required
@require_POST
def ship_clone(request, pk, ship_pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    ship = _get_ship(campaign, ship_pk)
    form = CloneShipForm(request.POST)
    if not form.is_valid():
        return _fleet_response(request, campaign, role, ship.fleet, status=400, form_fleet=ship.fleet,
                               clone_error=_("Clone of %(ship)s: %(problem)s") % {
                                   "ship": ship.name, "problem": " ".join(form.errors["name"])})
    copy = ship.clone(form.cleaned_data["name"].strip())
    if not request.htmx:
        messages.success(request, _("Cloned %(ship)s as %(copy)s.") % {"ship": ship.name, "copy": copy.name})
    return _fleet_response(request, campaign, role, ship.fleet)


@login_required
@require_POST
def ship_move(request, pk, ship_pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    ship = _get_ship(campaign, ship_pk)
    form = MoveShipForm(request.POST, campaign=campaign)
    if not form.is_valid():
        messages.error(request, _("Pick one of this campaign's fleets."))
        return redirect(campaign)
    old = ship.fleet
    ship.fleet = form.cleaned_data["fleet"]
    ship.save(update_fields=["fleet"])
    if request.htmx:
        # The ship left one fleet and joined another: swap both.
        ctx = _detail_context(request, campaign, role)
        body = render(request, "campaigns/detail.html#fleet", {**ctx, "fleet": old}).content
        body += render(request, "campaigns/detail.html#fleet", {**ctx, "fleet": ship.fleet, "oob": True}).content
        return HttpResponse(body)
    messages.success(request, _("%(ship)s moved to %(fleet)s.") % {"ship": ship.name, "fleet": ship.fleet.name})
    return redirect(f"{campaign.get_absolute_url()}#fleet-{ship.fleet.pk}")


@login_required
@require_POST
def ship_delete(request, pk, ship_pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    ship = _get_ship(campaign, ship_pk)
    fleet = ship.fleet
    ship.delete()
    if not request.htmx:
        messages.success(request, _("%(ship)s deleted.") % {"ship": ship.name})
    return _fleet_response(request, campaign, role, fleet)


@login_required
@require_POST
def ship_repair(request, pk, ship_pk):
    """Clear the damage a ship carries between encounters (a yard visit)."""
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    ship = _get_ship(campaign, ship_pk)
    ship.damage = {}
    ship.save(update_fields=["damage"])
    messages.success(request, _("%(ship)s is fully repaired.") % {"ship": ship.name})
    return redirect("campaigns:ship", campaign.pk, ship.pk)


# -- crew --------------------------------------------------------------------

def _crew_forms(request, campaign, member=None):
    rules = forms_for(campaign.ruleset)
    data = request.POST if request.method == "POST" else None
    form = CrewMemberForm(data, instance=member, campaign=campaign, prefix="crew")
    initial = rules.CrewForm.initial_from({
        "characteristics": member.characteristics if member else {},
        "skills": member.skills if member else {},
    })
    sheet = rules.CrewForm(data, prefix="sheet", initial=initial)
    return form, sheet


@login_required
@require_POST
def crew_add(request, pk, ship_pk):
    campaign, role = _get_campaign_for_user(request, pk, gm=True)
    ship = _get_ship(campaign, ship_pk)
    form, sheet = _crew_forms(request, campaign)
    if form.is_valid() and sheet.is_valid():
        member = form.save(commit=False)
        member.ship = ship
        data = sheet.crew_data()
        member.characteristics, member.skills = data["characteristics"], data["skills"]
        member.save()
        messages.success(request, _("%(person)s joined the crew of %(ship)s.") % {"person": member.name, "ship": ship.name})
        return redirect(f"{ship_url(campaign, ship)}#crew")
    return _render_ship_page(request, campaign, role, ship, crew_form=form, sheet_form=sheet, status=400,
                             crew_open=True)


def ship_url(campaign, ship) -> str:
    return reverse("campaigns:ship", args=[campaign.pk, ship.pk])


@login_required
def crew_edit(request, pk, crew_pk):
    campaign, role = _get_campaign_for_user(request, pk)
    member = get_object_or_404(CrewMember.objects.select_related("ship"), ship__campaign=campaign, pk=crew_pk)
    may_edit = role == Membership.GM
    if request.method == "POST" and not may_edit:
        raise PermissionDenied(_("Only the campaign's GM can edit the crew."))
    if role != Membership.GM and member.player_id != request.user.pk:
        # Players see their own characters' sheets; other sheets stay with the GM.
        raise Http404
    form, sheet = _crew_forms(request, campaign, member)
    if request.method == "POST" and form.is_valid() and sheet.is_valid():
        member = form.save(commit=False)
        data = sheet.crew_data()
        member.characteristics, member.skills = data["characteristics"], data["skills"]
        member.save()
        messages.success(request, _("%(person)s saved.") % {"person": member.name})
        return redirect(f"{ship_url(campaign, member.ship)}#crew")
    if not may_edit:
        for f in (*form.fields.values(), *sheet.fields.values()):
            f.disabled = True
    return render(request, "campaigns/crew.html", {
        "campaign": campaign, "member": member, "form": form, "sheet": sheet, "may_edit": may_edit,
    }, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def crew_delete(request, pk, crew_pk):
    campaign, _role = _get_campaign_for_user(request, pk, gm=True)
    member = get_object_or_404(CrewMember.objects.select_related("ship"), ship__campaign=campaign, pk=crew_pk)
    member.delete()
    messages.success(request, _("%(person)s left the crew.") % {"person": member.name})
    return redirect(f"{ship_url(campaign, member.ship)}#crew")
