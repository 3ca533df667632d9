"""Wing Commander dogfight forms: ship stats, the pilot sheet, encounter options.

The only module of the ruleset that imports Django.  Weapons are one per line and
skills, advantages and disadvantages one per line; a bad line is named in the error
("Line 2: ..."), next to its field, and nothing typed is lost.
"""
from __future__ import annotations

import re

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy as _

from rulesets.core.lines import LineError, parse_lines, split_fields
from rulesets.core.override import WholeRange
from rulesets.form_fields import WholeNumberField

from . import tables
from .state import FLOWN_BY, MODIFIER_TARGETS, damage_code, parse_damage
from .override import NUMBERS

POSITIONS = [("pilot", _("Pilot")), ("gunner", _("Turret gunner"))]

WEAPON_HELP = _("One weapon per line: name, kind, damage, then for missiles and torpedoes 'MV +1' and 'stock 2'. "
               "Kinds: gun, turret, missile, torpedo. Examples: 'Laser cannons, gun, 2d6' · "
               "'Dart missile, missile, 3d6, MV +1, stock 2'.")
SKILL_HELP = format_lazy(_("Skills, advantages and disadvantages, one per line: name, what it changes, value. It changes "
                           "one of: {targets}. Example: 'Gunnery, attack, +2' · 'Missile Man, dodge_missiles, +1'."),
                         targets=", ".join(MODIFIER_TARGETS))

_MV = re.compile(r"^mv\s*(\S+)$", re.I)
_STOCK = re.compile(r"^stock\s*(\S+)$", re.I)
KIND_WORDS = {"gun": "gun", "guns": "gun", "turret": "turret", "missile": "missile", "missiles": "missile",
              "torpedo": "torpedo", "torpedoes": "torpedo"}


def parse_weapon_line(line: str) -> dict:
    fields = split_fields(line)
    if len(fields) < 3:
        raise ValueError(gettext("give the name, the kind and the damage, separated by commas (e.g. 'Lasers, gun, 2d6')."))
    name, kind_word, code = fields[:3]
    if not name:
        raise ValueError(gettext("the weapon needs a name."))
    kind = KIND_WORDS.get(kind_word.lower())
    if kind is None:
        raise ValueError(gettext("'%(word)s' is not a kind of weapon (gun, turret, missile, torpedo).") % {"word": kind_word})
    count, sides, bonus = parse_damage(code)
    weapon = {"name": name, "kind": kind, "damage": damage_code(count, sides, bonus), "mv": 0}
    for extra in fields[3:]:
        if _MV.match(extra):
            weapon["mv"] = NUMBERS["weapon_mv"].read(_MV.match(extra).group(1))
        elif _STOCK.match(extra):
            weapon["stock"] = NUMBERS["stock"].read(_STOCK.match(extra).group(1))
        else:
            raise ValueError(gettext("'%(word)s' is not 'MV +1' or 'stock 2'.") % {"word": extra})
    if kind in ("missile", "torpedo"):
        weapon.setdefault("stock", 1)
    elif "stock" in weapon or weapon["mv"]:
        raise ValueError(gettext("only missiles and torpedoes have their own MV and a stock, not a %(kind)s.") % {"kind": kind})
    return weapon


def weapon_line(weapon: dict) -> str:
    parts = [weapon["name"], weapon["kind"], weapon["damage"]]
    if weapon["kind"] in ("missile", "torpedo"):
        parts += [f"MV {int(weapon.get('mv', 0)):+d}", f"stock {weapon.get('stock', 1)}"]
    return ", ".join(parts)


def parse_skill_line(line: str) -> tuple[str, list]:
    fields = split_fields(line)
    if len(fields) != 3:
        raise ValueError(gettext("give a name, what it changes and a value (e.g. 'Gunnery, attack, +2')."))
    name, on, value = fields
    if not name:
        raise ValueError(gettext("the skill needs a name."))
    if on.lower() not in MODIFIER_TARGETS:
        raise ValueError(gettext("'%(word)s' is not one of %(targets)s.") % {"word": on, "targets": ", ".join(MODIFIER_TARGETS)})
    return name, [on.lower(), NUMBERS["modifier"].read(value)]


def _lines_field(text, parse):
    try:
        return parse_lines(text, parse)
    except LineError as exc:
        raise forms.ValidationError(exc.messages) from None


class ShipStatsForm(forms.Form):
    ship_class = forms.ChoiceField(label=_("Class"), choices=tables.SHIP_CLASSES, initial="medium",
                                   help_text=_("Sets the order (light fighters first, bombers last, capital ships after)."))
    mv = WholeNumberField(NUMBERS["mv"], what=_("MV"), initial=0,
                          help_text=_("Manoeuvre value: added to gun attacks and to dodges against guns."))
    tw = WholeNumberField(NUMBERS["tw"], what=_("TW"), initial=12,
                          help_text=_("Target value: what an attack on this ship must reach while an NPC flies it, "
                                      "and what a dodge must reach when its NPC pilot attacks."))
    shields = WholeNumberField(NUMBERS["shields"], what=_("Shield points"), label=_("Shields"), initial=10)
    hull = WholeNumberField(NUMBERS["hull"], what=_("Hull points"), label=_("Hull"), initial=12)
    weapons = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}), label=_("Weapons"),
                              help_text=WEAPON_HELP)
    chaff = WholeNumberField(NUMBERS["chaff"], what=_("Chaff pods"), label=_("Chaff"), initial=0, help_text=_("Chaff pods against missiles."))
    chaff_mv = WholeNumberField(NUMBERS["chaff_mv"], what=_("Chaff MV"), initial=0)
    mines = WholeNumberField(NUMBERS["mines"], what=_("Mines"), initial=0, help_text=_("Mines against gun attacks."))
    mines_mv = WholeNumberField(NUMBERS["mines_mv"], what=_("Mines MV"), initial=0)
    cloak = forms.BooleanField(required=False, label=_("Cloaking device"))
    phase_shields = forms.BooleanField(required=False, label=_("Phase shields"),
                                       help_text=_("Capital ships only: a hard torpedo target (torpedoes must lock first)."))

    def clean_weapons(self):
        return _lines_field(self.cleaned_data.get("weapons"), parse_weapon_line)

    def clean(self):
        data = super().clean()
        if data.get("phase_shields") and data.get("ship_class") != "capital":
            self.add_error("phase_shields", _("Only a capital ship has phase shields."))
        if data.get("cloak") and data.get("ship_class") == "capital":
            self.add_error("cloak", _("A cloaking device is for fighters and bombers."))
        return data

    @classmethod
    def initial_from(cls, stats: dict) -> dict:
        return {
            "ship_class": stats.get("class", "medium"), "mv": stats.get("mv", 0), "tw": stats.get("tw", 12),
            "shields": stats.get("shields", 10), "hull": stats.get("hull", 12),
            "weapons": "\n".join(weapon_line(w) for w in stats.get("weapons") or []),
            "chaff": stats.get("chaff", 0), "chaff_mv": stats.get("chaff_mv", 0),
            "mines": stats.get("mines", 0), "mines_mv": stats.get("mines_mv", 0),
            "cloak": bool(stats.get("cloak", False)), "phase_shields": bool(stats.get("phase_shields", False)),
        }

    def stats(self) -> dict:
        d = self.cleaned_data
        return {"class": d["ship_class"], "mv": d["mv"], "tw": d["tw"], "shields": d["shields"], "hull": d["hull"],
                "weapons": d["weapons"], "chaff": d["chaff"], "chaff_mv": d["chaff_mv"], "mines": d["mines"],
                "mines_mv": d["mines_mv"], "cloak": d["cloak"], "phase_shields": d["phase_shields"]}


class CrewForm(forms.Form):
    flown_by = forms.ChoiceField(label=_("Flown by"), choices=FLOWN_BY, initial="character",
                                 help_text=_("An NPC is represented by its ship's TW; the GM may roll for it instead."))
    rank = forms.TypedChoiceField(label=_("Rank"), choices=tables.RANKS, coerce=int, initial=1)
    months = WholeNumberField(NUMBERS["months"], what=_("Months in rank"), initial=0)
    wild_card = forms.BooleanField(required=False, label=_("Wild Card (rolls 1W20 instead of 2W10)"))
    leader = forms.BooleanField(required=False, label=_("Squadron leader"))
    skills = forms.CharField(label=_("Skills, advantages, disadvantages"), required=False,
                             widget=forms.Textarea(attrs={"rows": 3}), help_text=SKILL_HELP)

    def clean_skills(self):
        return dict(_lines_field(self.cleaned_data.get("skills"), parse_skill_line))

    @classmethod
    def initial_from(cls, crew: dict) -> dict:
        chars = crew.get("characteristics") or {}
        skills = crew.get("skills") or {}
        return {
            "flown_by": chars.get("flown_by", "character"), "rank": chars.get("rank", 1),
            "months": chars.get("months", 0), "wild_card": bool(chars.get("wild_card", False)),
            "leader": bool(chars.get("leader", False)),
            "skills": "\n".join(f"{name}, {v[0]}, {int(v[1]):+d}" for name, v in skills.items()
                                if isinstance(v, (list, tuple)) and len(v) == 2),
        }

    def crew_data(self) -> dict:
        d = self.cleaned_data
        return {"characteristics": {"flown_by": d["flown_by"], "rank": d["rank"], "months": d["months"],
                                    "wild_card": d["wild_card"], "leader": d["leader"]},
                "skills": d["skills"]}


class SetupOptionsForm(forms.Form):
    max_rounds = WholeNumberField(WholeRange(1, 200, _("Max rounds")), initial=20,
                                  help_text=_("After this many rounds the fight ends undecided."))
    first_side = forms.CharField(required=False, max_length=60, label=_("Side that moves first on a tie"),
                                 help_text=_("The GM decides whether players or enemies go first (2.1.1); blank: "
                                           "the order the ships were set up in."))
    npc_tw = WholeNumberField(WholeRange(0, NUMBERS["tw"].hi, _("TW of every NPC")), required=False, initial=0,
                              help_text=_("0 or blank: each NPC keeps the TW of its ship."))
    wild_cards = forms.ChoiceField(choices=[("as_set", _("as on the pilot sheets")), ("all", _("every character")),
                                            ("none", _("no one"))], initial="as_set", label=_("Wild Cards"))
    flight_size = WholeNumberField(WholeRange(0, 50, _("Ships per side")), required=False, initial=0,
                                   help_text=_("0 or blank: every ship of the chosen fleets."))

    def options(self) -> dict:
        d = self.cleaned_data
        return {"max_rounds": d["max_rounds"], "first_side": d.get("first_side") or "", "npc_tw": d.get("npc_tw") or 0,
                "wild_cards": d["wild_cards"], "flight_size": d.get("flight_size") or 0}
