"""Dropfleet stat forms: ship stats as the game prints them, crew, encounter options.

The only module of the system that imports Django.  A weapon is one line as a player
writes it (``Heavy railgun, 4+, 3, 1, F``), read by :func:`.model.parse_weapon_line`
through :func:`rulesets.core.lines.parse_lines`, so every bad line is named.
"""
from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext, gettext_lazy as _

from rulesets.core.lines import LineError, parse_lines

from . import tables
from rulesets.core.override import WholeRange
from rulesets.form_fields import WholeNumberField

from .state import parse_save, parse_weapon_line, validate_stats, weapon_line
from .override import NUMBERS, check_on_table, read_position

#: crew positions (the damage rules use no crew skills: the captain is for the GM's story)
POSITIONS = [("captain", _("Captain")), ("officer", _("Officer")), ("crew", _("Crew"))]

TONNAGE_CHOICES = [(k, f"{v} ({k})") for k, v in tables.TONNAGE.items()]


def _lines(text, parse):
    try:
        return parse_lines(text, parse)
    except LineError as exc:
        raise forms.ValidationError(exc.messages) from None


#: model.WEAPON_HELP in the reader's language (the same English words: tests/i18n/test_form_labels.py)
WEAPON_HELP = _("One weapon system per line: name, Lock, Attacks, Damage, Arc, then any of 'close action', "
                "'launch', 'particle', 'calibre H' (tonnage letters L, M, H, S). Damage is a number, D3, D6 or "
                "D6+1; arcs are F, NF (narrow front), S (sides), R, FS (front and sides), A (all round). "
                "Example: 'Heavy railgun, 4+, 3, 1, F' or 'Flak turrets, 5+, 4, 1, A, close action'.")


class ShipStatsForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Class name"))
    tonnage = forms.ChoiceField(choices=TONNAGE_CHOICES, initial="M", label=_("Tonnage"),
                                help_text=_("Light, Medium, Heavy or Super-heavy: what Calibre weapons are built against."))
    scan = WholeNumberField(NUMBERS["scan"], what=_("Scan"), initial=6, help_text=_("Inches. A weapon reaches Scan + the target's Signature."))
    signature = WholeNumberField(NUMBERS["signature"], what=_("Signature"), initial=6, help_text=_("Inches, before spikes."))
    thrust = WholeNumberField(NUMBERS["thrust"], what=_("Thrust"), initial=10, help_text=_("Inches a move may cover."))
    hull = WholeNumberField(NUMBERS["hull"], what=_("Hull"), initial=10, help_text=_("Starting Hull points."))
    armour = forms.CharField(max_length=20, initial="4+", label=_("Armour"),
                             help_text=_("One or more armour saves, e.g. '4+' or '4+, 5+' (the best is used)."))
    passive = forms.CharField(max_length=4, required=False, label=_("Passive countermeasures"),
                              help_text=_("The save after the slash, e.g. 4+ for 3+/4+; blank for none."))
    passive_switchable = forms.BooleanField(required=False, label=_("Shields (switchable passive)"),
                                            help_text=_("Passive works only while shields are raised with orders."))
    shield_signature = WholeNumberField(NUMBERS["shield_signature"], what=_("Signature while shields are up"),
                                        initial=0, required=False,
                                        label=_("Signature while shields are up (+inches)"))
    shields_block_pd = forms.BooleanField(required=False, label=_("No point defence while shields are up"))
    pd = WholeNumberField(NUMBERS["pd"], what=_("Point defence"), initial=0,
                          help_text=_("Dice against Close Action weapons and launch assets; each 5+ blocks a point."))
    dreadnought = forms.BooleanField(required=False, label=_("Dreadnought"), help_text=_("Crippled at 18 and at 10 Hull; its own tables."))
    atmospheric = forms.BooleanField(required=False, label=_("Atmospheric"), help_text=_("May enter the Atmosphere; survives decaying into it."))
    monitor = forms.BooleanField(required=False, label=_("Monitor"), help_text=_("No Course Change or Max Thrust; no Lock penalty between High and Low."))
    weapons = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}), label=_("Weapons"),
                              help_text=WEAPON_HELP)

    def clean_armour(self):
        text = self.cleaned_data["armour"]
        saves = []
        for part in re.split(r"[,/\s]+", text.strip()):
            if not part:
                continue
            try:
                saves.append(parse_save(part))
            except ValueError as exc:
                raise forms.ValidationError(str(exc)) from None
        if not saves:
            raise forms.ValidationError(_("Give at least one armour save such as 4+."))
        return saves

    def clean_passive(self):
        text = (self.cleaned_data.get("passive") or "").strip()
        if not text:
            return None
        try:
            return parse_save(text)
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean_weapons(self):
        weapons = _lines(self.cleaned_data.get("weapons"), parse_weapon_line)
        for index, weapon in enumerate(weapons, start=1):
            weapon["id"] = f"w{index}"
        return weapons

    def clean(self):
        data = super().clean()
        if not self.errors:
            for problem in validate_stats(self._stats(data)):
                self.add_error(None, problem)
        return data

    @staticmethod
    def _stats(data) -> dict:
        return {
            "name": data.get("name", ""), "tonnage": data.get("tonnage", "M"), "scan": data.get("scan"),
            "signature": data.get("signature"), "thrust": data.get("thrust"), "hull": data.get("hull"),
            "armour": list(data.get("armour") or []), "passive": data.get("passive"),
            "passive_switchable": bool(data.get("passive_switchable")),
            "shield_signature": data.get("shield_signature") or 0,
            "shields_block_pd": bool(data.get("shields_block_pd")), "pd": data.get("pd") or 0,
            "dreadnought": bool(data.get("dreadnought")), "atmospheric": bool(data.get("atmospheric")),
            "monitor": bool(data.get("monitor")), "weapons": list(data.get("weapons") or []),
        }

    @classmethod
    def initial_from(cls, stats: dict) -> dict:
        stats = stats or {}
        armour = stats.get("armour") or [4]
        if not isinstance(armour, (list, tuple)):
            armour = [armour]
        return {
            "name": stats.get("name", ""), "tonnage": stats.get("tonnage", "M"), "scan": stats.get("scan", 6),
            "signature": stats.get("signature", 6), "thrust": stats.get("thrust", 10), "hull": stats.get("hull", 10),
            "armour": ", ".join(f"{a}+" for a in armour),
            "passive": f"{stats['passive']}+" if stats.get("passive") else "",
            "passive_switchable": bool(stats.get("passive_switchable")),
            "shield_signature": stats.get("shield_signature", 0), "shields_block_pd": bool(stats.get("shields_block_pd")),
            "pd": stats.get("pd", 0), "dreadnought": bool(stats.get("dreadnought")),
            "atmospheric": bool(stats.get("atmospheric")), "monitor": bool(stats.get("monitor")),
            "weapons": "\n".join(weapon_line(w) for w in stats.get("weapons") or []),
        }

    def stats(self) -> dict:
        return self._stats(self.cleaned_data)


class CrewForm(forms.Form):
    """The damage rules use no crew numbers: a crew member is a name and a position."""

    @classmethod
    def initial_from(cls, crew: dict) -> dict:
        return {}

    def crew_data(self) -> dict:
        return {"characteristics": {}, "skills": {}}


PLACEMENT_HELP = _("Optional, one ship per line: its name, a colon, x,y in inches, then any of a heading in degrees "
                  "(0 = up the table, 90 = right), a layer (high, low, atmosphere) and 'group NAME': "
                  "'Steadfast: 20,30 0 low group Line'. Ships not listed line up with their side, the starting "
                  "distance apart, in the layers chosen below, each class of a side in its own battle group.")
_PLACEMENT = re.compile(r"^(.+?)\s*:\s*([0-9]+(?:\.[0-9]+)?)\s*,\s*([0-9]+(?:\.[0-9]+)?)((?:\s+\S+)*)$")


def parse_placement(line: str) -> tuple[str, dict]:
    """One ship's place (where on the table is the form's :meth:`SetupOptionsForm.clean`'s)."""
    m = _PLACEMENT.match(line.strip())
    if not m:
        raise ValueError(gettext("'%(line)s' is not 'Name: x,y [heading] [layer] [group NAME]'") % {"line": line})
    x, y = read_position(f"{m.group(2)},{m.group(3)}")
    place: dict = {"x": x, "y": y}
    words = m.group(4).split()
    i = 0
    while i < len(words):
        word = words[i].lower()
        if word.isascii() and word.isdigit():
            place["heading"] = NUMBERS["heading"].read(word)
        elif word in tables.LAYERS:
            place["layer"] = word
        elif word == "group" and i + 1 < len(words):
            place["group"] = words[i + 1]
            i += 1
        else:
            raise ValueError(gettext("'%(word)s' is not a heading, a layer (high, low, atmosphere) or 'group NAME'")
                             % {"word": words[i]})
        i += 1
    return m.group(1).strip(), place


class SetupOptionsForm(forms.Form):
    width = WholeNumberField(WholeRange(12, 120, _("Table width (inches)")), initial=48)
    height = WholeNumberField(WholeRange(12, 120, _("Table depth (inches)")), initial=48)
    separation = WholeNumberField(WholeRange(0, 110, _("Starting distance (inches)")), initial=24,
                                  help_text=_("How far apart the two lines of ships start, facing each other."))
    layers = forms.ChoiceField(choices=[("high", _("Everyone in High orbit")), ("low", _("Everyone in Low orbit")),
                                        ("mixed", _("First side High, second side Low"))],
                               initial="high", label=_("Orbital layers"))
    max_rounds = WholeNumberField(WholeRange(1, 30, _("Round limit")), initial=6,
                                  help_text=_("After the last round the side with the larger share of its Hull left wins."))
    pd_policy = forms.ChoiceField(choices=[("min_expected", _("Block what would most likely get through")),
                                           ("crit_first", _("Critical points first")),
                                           ("normal_first", _("Normal points first"))],
                                  initial="min_expected", label=_("Bot's point defence"),
                                  help_text=_("How the bot (and the odds shown) spend point-defence successes."))
    placements = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label=_("Ship positions"),
                                 help_text=PLACEMENT_HELP)

    def clean_placements(self):
        return dict(_lines(self.cleaned_data.get("placements"), parse_placement))

    def clean(self):
        data = super().clean()
        width, height = data.get("width"), data.get("height")
        if width and height:
            off = []
            for name, place in (data.get("placements") or {}).items():
                try:
                    check_on_table(place["x"], place["y"], width, height)
                except ValueError as exc:
                    off.append(f"{name}: {exc}.")
            if off:
                self.add_error("placements", off)
        return data

    def options(self) -> dict:
        d = self.cleaned_data
        out = {k: d[k] for k in ("width", "height", "separation", "layers", "max_rounds", "pd_policy")}
        if d.get("placements"):
            out["placements"] = d["placements"]
        return out
