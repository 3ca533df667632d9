from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from rulesets.core import registry

from .models import Campaign, CrewMember, Fleet, Ship, ShipTemplate
from .rulesets import forms_for


class CampaignForm(forms.ModelForm):
    class Meta:
        model = Campaign
        fields = ["name", "ruleset", "description", "language"]
        widgets = {"description": forms.Textarea(attrs={"rows": 3})}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["ruleset"].choices = registry.choices()
        if self.instance.pk:
            # Ships' stats belong to the ruleset: changing it would orphan them.
            self.fields["ruleset"].disabled = True
            self.fields["ruleset"].help_text = _("Fixed once the campaign exists.")


#: colours offered to new fleets, one per side, in this order (blue and red first, as the demos have them)
SIDE_COLOURS = ["#3366cc", "#cc3333", "#2e9e5b", "#d4a017", "#8e44ad", "#16a0a0", "#e67e22", "#7f8c8d"]


class FleetForm(forms.ModelForm):
    """A fleet's name, side and colour.

    A new fleet is offered the first colour no fleet of the campaign uses yet (not blue
    whatever its side); left as offered, a fleet joining a side the campaign already has
    takes that side's colour, so a side keeps one colour on the board.
    """

    class Meta:
        model = Fleet
        fields = ["name", "side", "colour"]
        widgets = {"colour": forms.TextInput(attrs={"type": "color"})}

    def __init__(self, *args, campaign, **kwargs):
        self.campaign = campaign
        super().__init__(*args, **kwargs)
        self.offered = None
        if not self.instance.pk:
            used = {c.lower() for c in campaign.fleets.values_list("colour", flat=True)}
            self.offered = next((c for c in SIDE_COLOURS if c not in used),
                                SIDE_COLOURS[len(used) % len(SIDE_COLOURS)])
            self.fields["colour"].initial = self.offered
            self.initial.setdefault("colour", self.offered)
            self.fields["colour"].help_text = _("Left as offered, a fleet joining a side the campaign already has "
                                                "takes that side's colour.")

    def clean(self):
        cleaned = super().clean()
        colour, side = cleaned.get("colour"), (cleaned.get("side") or "").strip()
        if self.offered and colour and colour.lower() == self.offered and side:
            same_side = self.campaign.fleets.filter(side=side).exclude(pk=self.instance.pk).first()
            if same_side is not None:
                cleaned["colour"] = same_side.colour
        return cleaned

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        clash = self.campaign.fleets.filter(name__iexact=name).exclude(pk=self.instance.pk)
        if clash.exists():
            raise forms.ValidationError(_("This campaign already has a fleet of that name."))
        return name

    def save(self, commit=True):
        self.instance.campaign = self.campaign
        return super().save(commit)


class AddShipForm(forms.Form):
    template = forms.ModelChoiceField(queryset=ShipTemplate.objects.none(), empty_label=None, label=_("Template"))
    name = forms.CharField(max_length=120, required=False, label=_("Name"),
                           help_text=_("Leave blank to use the template's name."))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["template"].queryset = ShipTemplate.objects.for_ruleset(campaign.ruleset)


class CloneShipForm(forms.Form):
    name = forms.CharField(max_length=120, required=False, label=_("Name"),
                           help_text=_("Blank: the ship's name with “(copy)”."))


class ShipForm(forms.ModelForm):
    """Name, fleet and notes; the stats are the ruleset's own form beside it."""

    class Meta:
        model = Ship
        fields = ["name", "fleet", "notes"]
        widgets = {"notes": forms.Textarea(attrs={"rows": 2})}

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fleet"].queryset = campaign.fleets.all()
        self.fields["fleet"].empty_label = None


class MoveShipForm(forms.Form):
    fleet = forms.ModelChoiceField(queryset=Fleet.objects.none(), empty_label=None, label=_("Fleet"))

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["fleet"].queryset = campaign.fleets.all()


class CrewMemberForm(forms.ModelForm):
    class Meta:
        model = CrewMember
        fields = ["name", "position", "station", "player"]

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        rules = forms_for(campaign.ruleset)
        self.fields["position"] = forms.ChoiceField(choices=rules.POSITIONS, label=_("Position"))
        User = get_user_model()
        self.fields["player"].queryset = User.objects.filter(
            memberships__campaign=campaign, memberships__role="player"
        ).order_by("username")
        self.fields["player"].required = False


class InviteForm(forms.Form):
    single_use = forms.BooleanField(required=False, initial=True, label=_("Single use"),
                                    help_text=_("The link works once."))
    days = forms.IntegerField(
        required=False, min_value=1, max_value=90, initial=7, label=_("Days"),
        help_text=_("Days until the link expires (blank: never).")
    )


class TransferGMForm(forms.Form):
    new_gm = forms.ModelChoiceField(queryset=None, label=_("New GM"), empty_label=None)

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        User = get_user_model()
        self.fields["new_gm"].queryset = User.objects.filter(
            memberships__campaign=campaign, memberships__role="player"
        ).order_by("username")


class ImportForm(forms.Form):
    file = forms.FileField(label=_("File"), help_text=_("A JSON file exported from this app."))

    MAX_BYTES = 5 * 1024 * 1024

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return f
