"""Star Wars D6 stat forms: ship stats, crew skills, encounter options.

The only module of the ruleset that imports Django.  The stats are checked by
:func:`.rules.validate_stats` (shared with the engine and the import path); the form
puts each problem next to its field, and a weapon problem names its line.
"""
from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext, gettext_lazy as _

from rulesets.core.lines import LineError, parse_lines, refuse_foreign_digits, split_fields
from rulesets.core.override import WholeRange
from rulesets.form_fields import WholeNumberField

from . import rules, tables
from .dice import CodeError, DiceCode
from .override import SPEED

#: Crew positions and the skill each one brings to the ship (seed "2. COMBAT": the
#: gunner's starship gunnery, the pilot's piloting, the shields operator's starship shields).
POSITIONS = [
    ("pilot", _("Pilot")),
    ("gunner", _("Gunner")),
    ("shields", _("Shields operator")),
    ("captain", _("Captain")),
    ("crew", _("Crew")),
    ("passenger", _("Passenger")),
]
SKILL_FIELDS = {
    "gunnery": (_("Starship gunnery"), _("Rolled with a weapon's fire control to hit.")),
    "piloting": (_("Piloting"), _("Starfighter piloting or capital ship piloting, by the ship's scale: rolled with "
                                  "maneuverability to evade and to ram.")),
    "shields": (_("Starship shields"), _("Rolled with the ship's shields against damage.")),
}

#: How a weapon line names its type: the words a GM would type.
_TYPE_WORDS = [
    ("concussion missile", "concussion_missile"), ("missile", "concussion_missile"),
    ("proton torpedo", "proton_torpedo"), ("torpedo", "proton_torpedo"),
    ("turbolaser", "turbolaser"), ("ion cannon", "ion_cannon"), ("ion", "ion_cannon"),
    ("tractor beam", "tractor_beam"), ("tractor", "tractor_beam"),
    ("laser", "laser"), ("blaster", "blaster"),
]
_SHORT_TYPE = {
    "laser": "laser", "blaster": "blaster", "ion_cannon": "ion cannon", "concussion_missile": "concussion missile",
    "proton_torpedo": "proton torpedo", "turbolaser": "turbolaser", "tractor_beam": "tractor beam",
}
WEAPON_HELP = _(
    "One weapon system per line: type, fire control, damage, then any of 'linked N' (fire-linked guns), "
    "'shots N' (capital broadside), 'ammo N'. Types: laser, blaster, ion cannon, concussion missile, "
    "proton torpedo, turbolaser, tractor beam. Example: 'laser, 2D, 5D, linked 2' or "
    "'proton torpedo, 2D, 9D, ammo 3'."
)
_OPTION = re.compile(r"^(linked|shots|ammo)\s+([0-9]+)$")


def parse_weapon_line(line: str) -> tuple[dict | None, list[str]]:
    """One weapon line as a stats dict, or the problems with it."""
    parts = split_fields(line)
    if len(parts) < 3:
        return None, [gettext("give at least the type, the fire control and the damage, separated by commas")]
    errors: list[str] = []
    kind = parts[0].lower()
    wtype = next((t for word, t in _TYPE_WORDS if word in kind), None)
    if wtype is None:
        errors.append(gettext("'%(word)s' is not a weapon type (laser, blaster, ion cannon, concussion missile, "
                              "proton torpedo, turbolaser, tractor beam)") % {"word": parts[0]})
    weapon: dict = {"type": wtype}
    for key, text in (("fire_control", parts[1]), ("damage", parts[2])):
        try:
            weapon[key] = str(DiceCode.parse(text))
        except CodeError:
            errors.append((gettext("fire control '%(text)s' is not a dice code like 2D+1") if key == "fire_control"
                           else gettext("damage '%(text)s' is not a dice code like 2D+1")) % {"text": text})
    for extra in parts[3:]:
        m = _OPTION.match(extra.lower())
        if not m:
            errors.append(gettext("'%(word)s' is not 'linked N', 'shots N' or 'ammo N'") % {"word": extra})
            continue
        value = int(m.group(2))
        if m.group(1) in ("linked", "shots") and value < 1:
            errors.append(gettext("%(option)s must be 1 or more") % {"option": m.group(1)})
        weapon[m.group(1)] = value
    return (None if errors else weapon), errors


def weapon_line(weapon: dict) -> str:
    parts = [_SHORT_TYPE.get(weapon.get("type"), str(weapon.get("type"))),
             str(weapon.get("fire_control", "0D")), str(weapon.get("damage", "0D"))]
    if int(weapon.get("linked", 1)) > 1:
        parts.append(f"linked {weapon['linked']}")
    if int(weapon.get("shots", 1)) > 1:
        parts.append(f"shots {weapon['shots']}")
    if weapon.get("ammo") is not None:
        parts.append(f"ammo {weapon['ammo']}")
    return ", ".join(parts)


class DiceCodeField(forms.CharField):
    """A dice code such as 4D+2, stored normalised (pips 0-2)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("max_length", 12)
        super().__init__(*args, **kwargs)
        self.widget.attrs.setdefault("placeholder", _("e.g. 2D+1"))
        self.widget.attrs.setdefault("size", 6)

    def clean(self, value):
        value = super().clean(value)
        if value in self.empty_values:
            return value
        try:
            refuse_foreign_digits(value)
        except ValueError as exc:
            raise forms.ValidationError(gettext("'%(value)s' is not a dice code like 4D+2: %(problem)s")
                                        % {"value": value, "problem": exc}) from None
        try:
            return str(DiceCode.parse(value))
        except CodeError:
            raise forms.ValidationError(gettext("'%(value)s' is not a dice code like 4D+2.") % {"value": value}) from None


class ShipStatsForm(forms.Form):
    name = forms.CharField(max_length=80, label=_("Class name"), help_text=_("Shown in the logs when the ship has no name of its own."))
    scale = forms.ChoiceField(label=_("Scale"), choices=[(s, tables.SCALE_LABEL[s]) for s in tables.SCALES], initial=tables.STARFIGHTER,
                              help_text=_("Decides the scale caps (seed 6. ESCALES) and which piloting skill applies."))
    speed = WholeNumberField(SPEED, what=_("Speed"), initial=5,
                             help_text=_("Movement points per movement phase (seed 1.)."))
    maneuverability = DiceCodeField(label=_("Maneuverability"), initial="1D", help_text=_("Its dice are also the free turns of a movement phase."))
    hull = DiceCodeField(label=_("Hull"), initial="3D")
    shields = DiceCodeField(label=_("Shields"), initial="0D", required=False)
    hyperdrive = forms.CharField(max_length=12, required=False, initial="", label=_("Hyperdrive"),
                                 help_text=_("Multiplier such as x1 or x2; blank for none (then it cannot jump out)."))
    weapons = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}), label=_("Weapons"),
                              help_text=WEAPON_HELP)

    def clean_weapons(self):
        weapons = _lines(self.cleaned_data.get("weapons"), _weapon)
        for number, weapon in enumerate(weapons, start=1):
            weapon["id"] = f"w{number}"
        return weapons

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        for problem in rules.validate_stats(self._raw_stats(data)):
            self.add_error(None, problem)
        return data

    @staticmethod
    def _raw_stats(data) -> dict:
        stats = {k: data.get(k) for k in ("name", "scale", "speed", "maneuverability", "hull")}
        stats["shields"] = data.get("shields") or "0D"
        stats["hyperdrive"] = (data.get("hyperdrive") or "").strip() or None
        stats["weapons"] = list(data.get("weapons") or [])
        return stats

    @classmethod
    def initial_from(cls, stats: dict) -> dict:
        stats = stats or {}
        return {
            "name": stats.get("name", ""), "scale": stats.get("scale", tables.STARFIGHTER),
            "speed": stats.get("speed", 5), "maneuverability": stats.get("maneuverability", "1D"),
            "hull": stats.get("hull", "3D"), "shields": stats.get("shields", "0D"),
            "hyperdrive": stats.get("hyperdrive") or "",
            "weapons": "\n".join(weapon_line(w) for w in stats.get("weapons") or []),
        }

    def stats(self) -> dict:
        return self._raw_stats(self.cleaned_data)


class CrewForm(forms.Form):
    """A character's three starship skills as dice codes (blank: the ship's default)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, (label, help_text) in SKILL_FIELDS.items():
            self.fields[f"skill_{key}"] = DiceCodeField(label=label, required=False, help_text=help_text)

    @classmethod
    def initial_from(cls, crew: dict) -> dict:
        skills = (crew or {}).get("skills") or {}
        return {f"skill_{k}": skills.get(k, "") for k in SKILL_FIELDS}

    def crew_data(self) -> dict:
        d = self.cleaned_data
        return {"characteristics": {}, "skills": {k: d[f"skill_{k}"] for k in SKILL_FIELDS if d.get(f"skill_{k}")}}


FEATURES_HELP = _("One per line: planet, moon or obstacle, then its hex as column,row and an optional name: "
                 "'planet 12,8 Yavin', 'moon 4,3', 'obstacle 9,9 asteroids'. Hexes are numbered from 0,0 at "
                 "the top left. Ships cannot fly into them and they block fire; a hyperspace jump needs "
                 "10 hexes from every planet and 4 from every moon.")
PLACEMENT_HELP = _("Optional, one ship per line: its name, a colon, column,row and a facing (N, NE, SE, S, SW, NW): "
                  "'Red Leader: 4,2 S'. Ships not listed line up with their side, the starting distance apart.")
_PLACEMENT = re.compile(r"^(.+?)\s*:\s*([0-9]+)\s*,\s*([0-9]+)(?:\s+(N|NE|SE|S|SW|NW))?$", re.I)


def _placement(line: str) -> tuple[str, dict] | None:
    m = _PLACEMENT.match(line.strip())
    if not m:
        return None
    place = {"col": int(m.group(2)), "row": int(m.group(3))}
    if m.group(4):
        place["facing"] = m.group(4).upper()
    return m.group(1).strip(), place


def _weapon(line: str) -> dict:
    weapon, errors = parse_weapon_line(line)
    if errors:
        raise ValueError("; ".join(errors))
    return weapon


def _understood(parse, problem: str):
    """``parse`` of one line, with ``problem`` (words with a ``%(line)s`` placeholder) as the message
    of a line it does not understand."""
    def parse_line(line: str):
        item = parse(line)
        if item is None:
            raise ValueError(problem % {"line": line})
        return item
    return parse_line


def _lines(text: str | None, parse_line) -> list:
    """Each non-blank line of a textarea (rulesets.core.lines: every line not understood is
    reported with its number, all at once, where it was typed)."""
    try:
        return parse_lines(text, parse_line)
    except LineError as exc:
        raise forms.ValidationError(exc.messages) from None


class SetupOptionsForm(forms.Form):
    width = WholeNumberField(WholeRange(8, 80, _("Board width (hex columns)")), initial=30)
    height = WholeNumberField(WholeRange(8, 80, _("Board height (hex rows)")), initial=20)
    separation = WholeNumberField(WholeRange(1, 70, _("Starting distance (hexes)")), initial=12,
                                  help_text=_("How far apart the sides start, lined up facing each other."))
    wild = forms.BooleanField(required=False, initial=True, label=_("Wild Die"),
                              help_text=_("One die of every roll explodes on a 6; a 1 removes it and the highest die."))
    complication = forms.ChoiceField(choices=[("remove", _("A Wild-Die 1 removes itself and the highest die")),
                                              ("add", _("A Wild-Die 1 adds normally (a complication for the GM)"))],
                                     initial="remove", label=_("Wild-Die 1"))
    max_rounds = WholeNumberField(WholeRange(1, 200, _("Round limit")), initial=20,
                                  help_text=_("After this many rounds the fight ends undecided."))
    features = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label=_("Planets, moons and obstacles"),
                               help_text=FEATURES_HELP)
    placements = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label=_("Ship positions"),
                                 help_text=PLACEMENT_HELP)

    def clean_features(self):
        return _lines(self.cleaned_data.get("features"),
                      _understood(rules.parse_feature_line, _("'%(line)s' is not 'planet|moon|obstacle column,row [name]'")))

    def clean_placements(self):
        return dict(_lines(self.cleaned_data.get("placements"),
                           _understood(_placement, _("'%(line)s' is not 'Ship name: column,row [facing]'"))))

    def clean(self):
        data = super().clean()
        width, height = data.get("width"), data.get("height")
        if not (width and height):
            return data
        for name, items in (("features", data.get("features") or []),
                            ("placements", list((data.get("placements") or {}).values()))):
            outside = [f"{p['col']},{p['row']}" for p in items if not (0 <= p["col"] < width and 0 <= p["row"] < height)]
            if outside:
                self.add_error(name, gettext("Off the %(width)s×%(height)s board (columns 0–%(last_column)s, "
                                             "rows 0–%(last_row)s): %(places)s.") % {
                    "width": width, "height": height, "last_column": width - 1, "last_row": height - 1,
                    "places": ", ".join(outside)})
        if data.get("separation") and data["separation"] > height - 2:
            self.add_error("separation", gettext("The sides must start on the board: at most %(most)s hexes on a "
                                                 "board %(height)s rows high.") % {"most": height - 2, "height": height})
        return data

    def options(self) -> dict:
        d = self.cleaned_data
        return {"width": d["width"], "height": d["height"], "separation": d["separation"], "wild": d["wild"],
                "complication": d["complication"], "max_rounds": d["max_rounds"],
                "features": d.get("features") or [], "placements": d.get("placements") or {}}
