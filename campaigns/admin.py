"""The admin: the ship-template library (with each ruleset's own stats form) and the rest."""
from __future__ import annotations

import copy
import json

from django import forms
from django.contrib import admin, messages
from django.forms.utils import pretty_name
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse

from rulesets.core import registry

from . import exchange
from .forms import ImportForm
from .models import Campaign, CrewMember, Fleet, Invite, Membership, Ship, ShipTemplate
from .rulesets import forms_for

STATS_PREFIX = "stats"


class TemplateAdminForm(forms.ModelForm):
    """Name and notes from the model; the stats fields from the ruleset's own form.

    The ruleset's ``ShipStatsForm`` runs on the same POST data (with the ``stats``
    prefix) so its validation, cross-field checks included, is exactly the GM's.
    """

    stats_form_class = None

    class Meta:
        model = ShipTemplate
        fields = ["ruleset", "name", "notes"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].widget = forms.HiddenInput()
        initial = self.stats_form_class.initial_from(self.instance.stats or {})
        self.stats_form = self.stats_form_class(self.data if self.is_bound else None, prefix=STATS_PREFIX,
                                                initial=initial)
        for name, value in initial.items():
            self.initial.setdefault(self.stats_form.add_prefix(name), value)

    def clean(self):
        cleaned = super().clean()
        if self.is_bound and not self.stats_form.is_valid():
            for name, errors in self.stats_form.errors.items():
                target = None if name == "__all__" else self.stats_form.add_prefix(name)
                if target in self.errors:
                    continue  # the declared copy of the field already said it
                for error in errors:
                    self.add_error(target, error)
        return cleaned

    def save(self, commit=True):
        self.instance.stats = self.stats_form.stats()
        return super().save(commit)


def template_form_for(key: str) -> type[TemplateAdminForm]:
    """The admin form for one ruleset: its stats fields declared, so the admin lists them."""
    stats_cls = forms_for(key).ShipStatsForm
    attrs = {"stats_form_class": stats_cls}
    # The form's own labels and help, as the GM's ship editor shows them (some are set in
    # its __init__), never the prefixed field name ("Stats-tonnage").
    shown = stats_cls().fields
    for name, field in stats_cls.base_fields.items():
        field = copy.deepcopy(field)
        field.label = shown[name].label if name in shown and shown[name].label else pretty_name(name)
        field.help_text = shown[name].help_text if name in shown else field.help_text
        attrs[f"{STATS_PREFIX}-{name}"] = field
    return type(f"ShipTemplateAdminForm_{key}", (TemplateAdminForm,), attrs)


@admin.register(ShipTemplate)
class ShipTemplateAdmin(admin.ModelAdmin):
    list_display = ["name", "ruleset", "updated_at"]
    list_filter = ["ruleset"]
    search_fields = ["name", "notes"]
    actions = ["export_selected"]
    change_list_template = "admin/campaigns/shiptemplate/change_list.html"

    @property
    def ruleset_choices(self):
        return registry.choices()

    def _ruleset_key(self, request, obj=None) -> str:
        if obj is not None:
            return obj.ruleset
        key = request.GET.get("ruleset") or request.POST.get("ruleset")
        keys = [k for k, _ in registry.choices()]
        return key if key in keys else keys[0]

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = template_form_for(self._ruleset_key(request, obj))
        kwargs["fields"] = None
        return super().get_form(request, obj, change, **kwargs)

    def get_changeform_initial_data(self, request):
        return {"ruleset": self._ruleset_key(request)}

    def add_view(self, request, form_url="", extra_context=None):
        extra_context = {**(extra_context or {}), "rulesets": registry.choices(),
                         "current_ruleset": self._ruleset_key(request)}
        return super().add_view(request, form_url, extra_context)

    @admin.action(description="Export selected templates as JSON")
    def export_selected(self, request, queryset):
        keys = set(queryset.values_list("ruleset", flat=True))
        if len(keys) != 1:
            self.message_user(request, "Export templates of one ruleset at a time (filter by ruleset).", messages.ERROR)
            return None
        key = keys.pop()
        data = exchange.export_templates(key, queryset)
        response = HttpResponse(json.dumps(data, indent=2), content_type="application/json")
        response["Content-Disposition"] = f'attachment; filename="templates-{key}.json"'
        return response

    def get_urls(self):
        return [
            path("import/", self.admin_site.admin_view(self.import_view), name="campaigns_shiptemplate_import"),
            *super().get_urls(),
        ]

    def import_view(self, request):
        if not self.has_add_permission(request):
            return redirect("admin:index")
        form = ImportForm(request.POST or None, request.FILES or None)
        if request.method == "POST" and form.is_valid():
            before = {(t.ruleset, t.name): (t.stats, t.notes) for t in ShipTemplate.objects.all()}
            try:
                done = exchange.import_templates(form.cleaned_data["file"].read())
            except exchange.ImportRefused as exc:
                form.add_error("file", str(exc))
            else:
                self.message_user(request, import_summary(done, before), messages.SUCCESS)
                return redirect(reverse("admin:campaigns_shiptemplate_changelist"))
        return render(request, "admin/campaigns/shiptemplate/import.html", {
            **self.admin_site.each_context(request), "form": form, "title": "Import ship templates",
            "opts": self.model._meta,
        })


def import_summary(done, before: dict) -> str:
    """What an import did, in words: new templates, templates updated, templates already the same."""
    new = [t.name for t in done if (t.ruleset, t.name) not in before]
    same = [t.name for t in done if before.get((t.ruleset, t.name)) == (t.stats, t.notes)]
    updated = [t.name for t in done if t.name not in new and t.name not in same]
    parts = []
    if new:
        parts.append(f"added {len(new)} new template{pluralize(len(new))} ({', '.join(new)})")
    if updated:
        parts.append(f"updated {len(updated)} existing template{pluralize(len(updated))} with the file's stats "
                     f"({', '.join(updated)})")
    if same:
        parts.append(f"left {len(same)} template{pluralize(len(same))} as {'they were' if len(same) > 1 else 'it was'}: "
                     f"the library already had {'them' if len(same) > 1 else 'it'} with the same stats ({', '.join(same)})")
    return ("The import " + "; ".join(parts) + ".") if parts else "The file held no templates."


def pluralize(n: int) -> str:
    return "" if n == 1 else "s"


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "ruleset", "created_at"]
    list_filter = ["ruleset"]
    search_fields = ["name", "description"]
    inlines = [MembershipInline]


@admin.register(Fleet)
class FleetAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "side"]
    search_fields = ["name", "campaign__name"]


class CrewInline(admin.TabularInline):
    model = CrewMember
    extra = 0
    fields = ["name", "position", "station", "player"]


@admin.register(Ship)
class ShipAdmin(admin.ModelAdmin):
    list_display = ["name", "fleet", "campaign", "template"]
    list_filter = ["campaign__ruleset"]
    search_fields = ["name", "campaign__name"]
    inlines = [CrewInline]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["campaign", "created_by", "created_at", "single_use", "expires_at", "uses", "revoked"]
    readonly_fields = ["token"]
