"""Cepheus Engine stat forms: ship stats, crew sheets, encounter options.

The only module of the ruleset that imports Django.  Validation of the stats lives
in :mod:`.stats` (``normalise_stats``, ``parse_mount_line``) so the engine and the
import path share it; the form puts each problem next to its field (a turret
problem names its line).
"""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext, gettext_lazy as _

from rulesets.core.lines import LineError, parse_lines
from rulesets.core.override import WholeRange
from rulesets.form_fields import WholeNumberField, refusal

from .crew import CHARACTERISTICS, POSITIONS, SKILLS, SKILL_LABEL
from .stats import STAT_LIMITS, mount_line, normalise_stats, parse_mount_line
from .tables import BANDS, BAND_DISTANCE, BAND_LABEL, COLLISION_SITUATIONS


POSITIONS = list(POSITIONS)

SENSOR_CHOICES = [("standard", _("Standard")), ("advanced", _("Advanced")), ("very_advanced", _("Very advanced"))]
BAND_CHOICES = [(b, f"{BAND_LABEL[b]} ({BAND_DISTANCE[b]})") for b in BANDS]
HAZARD_CHOICES = [(k, v[0]) for k, v in COLLISION_SITUATIONS.items()]

_INT_FIELDS = {
    "tonnage": (_("Tonnage (displacement tons)"), _("Hull and Structure are derived: 1 point per 50 t (Structure at least 1); under 100 t is a small craft.")),
    "armour": (_("Armour"), _("Subtracted from each weapon's damage.")),
    "thrust": (_("Thrust (M-drive rating)"), ""),
    "jump": (_("Jump rating"), _("0 for no jump drive.")),
    "electronics": (_("Electronics DM"), _("The sensor jamming DM: opposes enemy sensor targeting, helps own sensor checks.")),
    "fire_control": (_("Fire Control program level"), _("Adds to every attack; mans empty turrets and bays.")),
    "expert_pilot": (_("Expert Pilot program level"), _("With Intellect, flies the ship when no one is at the helm (0 = none).")),
    "expert_engineer": (_("Expert Engineer program level"), _("With Intellect and repair drones, stands in as engineer (0 = none).")),
    "fuel": (_("Fuel (tons)"), ""),
    "cargo": (_("Cargo (tons)"), ""),
}
_FLAG_FIELDS = {
    "auto_repair": (_("Auto-Repair program"), _("With repair drones: the drones act as damage control, DM+1.")),
    "intellect": (_("Intellect program"), ""),
    "repair_drones": (_("Repair drones"), ""),
    "nuclear_damper": (_("Nuclear damper (screen)"), _("Against nuclear missiles and fusion guns.")),
    "meson_screen": (_("Meson screen"), _("Against meson guns.")),
}
TURRET_HELP = _("One turret per line, its weapons separated by commas (at most 3): pulse laser, beam laser, "
               "particle beam, fusion gun, missile rack, sandcaster. Ammunition after an x, missile kind in brackets: "
               "'pulse laser, sandcaster x12' or 'missile rack (smart) x9, beam laser'.")
BAY_HELP = _("One bay per line: particle, fusion, meson or missile (with ammunition and kind: 'missile (nuclear) x24'). "
            "Bays need a ship of 200 t or more.")


def _stat(key: str, initial: int) -> WholeNumberField:
    """A stat of the range :data:`.stats.STAT_LIMITS` states once (the engine's checks and the import
    read it too), refused naming the stat and the range (issue 26)."""
    return WholeNumberField(WholeRange(*STAT_LIMITS[key], _INT_FIELDS[key][0]), initial=initial)


class ShipStatsForm(forms.Form):
    tonnage = _stat("tonnage", 100)
    armour = _stat("armour", 0)
    thrust = _stat("thrust", 1)
    jump = _stat("jump", 0)
    sensors = forms.ChoiceField(choices=SENSOR_CHOICES, initial="standard", label=_("Sensors"))
    electronics = _stat("electronics", 0)
    fire_control = _stat("fire_control", 0)
    auto_repair = forms.BooleanField(required=False)
    intellect = forms.BooleanField(required=False)
    expert_pilot = _stat("expert_pilot", 0)
    expert_engineer = _stat("expert_engineer", 0)
    repair_drones = forms.BooleanField(required=False)
    nuclear_damper = forms.BooleanField(required=False)
    meson_screen = forms.BooleanField(required=False)
    fuel = _stat("fuel", 0)
    cargo = _stat("cargo", 0)
    turrets = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}), label=_("Turrets"),
                              help_text=TURRET_HELP)
    bays = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 2}), label=_("Bays"), help_text=BAY_HELP)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for name, (label, help_text) in {**_INT_FIELDS, **_FLAG_FIELDS}.items():
            self.fields[name].label = label
            if help_text:
                self.fields[name].help_text = help_text

    def _lines(self, name: str, mount: str) -> list[list[dict]]:
        """One mount per line (rulesets.core.lines: every bad line named, all at once)."""
        def parse(line: str) -> list[dict]:
            weapons, errors = parse_mount_line(line, mount)
            if errors:
                raise ValueError("; ".join(errors))
            return weapons

        try:
            return parse_lines(self.cleaned_data.get(name), parse)
        except LineError as exc:
            raise forms.ValidationError(exc.messages) from None

    def clean_turrets(self):
        return self._lines("turrets", "turret")

    def clean_bays(self):
        bays = self._lines("bays", "bay")
        return [b[0] for b in bays if b]

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        stats = self._raw_stats(data)
        _, errors = normalise_stats(stats)
        for e in errors:
            field = e.split(":", 1)[0].split(" ")[0]
            field = {"turret": "turrets", "bay": "bays"}.get(field, field)
            self.add_error(field if field in self.fields else None, e)
        return data

    def _raw_stats(self, data) -> dict:
        stats = {k: data.get(k) for k in (*_INT_FIELDS, "sensors")}
        stats.update({k: bool(data.get(k)) for k in _FLAG_FIELDS})
        stats["turrets"] = [{"weapons": ws} for ws in data.get("turrets") or []]
        stats["bays"] = list(data.get("bays") or [])
        return stats

    @classmethod
    def problems_of(cls, stats: dict) -> list[str]:
        """What an import must refuse in stored stats, each naming its stat, turret or bay
        (``initial_from`` reads what it can and would drop an unknown weapon silently)."""
        return normalise_stats(stats)[1]

    @classmethod
    def initial_from(cls, stats: dict) -> dict:
        stats = stats or {}
        normal, _ = normalise_stats(stats)
        out = {k: normal.get(k) for k in (*_INT_FIELDS, "sensors")}
        out.update({k: bool(normal.get(k)) for k in _FLAG_FIELDS})
        out["turrets"] = "\n".join(mount_line(t["weapons"]) for t in normal["turrets"])
        out["bays"] = "\n".join(mount_line([b]) for b in normal["bays"])
        return out

    def stats(self) -> dict:
        return normalise_stats(self._raw_stats(self.cleaned_data))[0]


#: a characteristic's score and a skill's level (the sheet's ranges, stated once for the form and the import)
CHARACTERISTIC_RANGE = (0, 15)
SKILL_RANGE = (0, 6)
#: the skills' names in the reader's language (crew.SKILL_LABEL: the English the rules use)
SKILL_WORDS = {
    "pilot": _("Pilot"), "gunnery": _("Gunnery"), "gunnery_turret": _("Gunnery (Turret)"),
    "gunnery_bay": _("Gunnery (Bay)"), "tactics": _("Tactics"), "leadership": _("Leadership"), "comms": _("Comms"),
    "mechanic": _("Mechanic"), "engineering": _("Engineering"), "navigation": _("Navigation"), "screens": _("Screens"),
    "gun_combat": _("Gun Combat"), "vacc_suit": _("Vacc Suit"), "melee": _("Melee"),
}
CHAR_LABEL = {"str": _("Str"), "dex": _("Dex"), "end": _("End"), "int": _("Int"), "edu": _("Edu"), "soc": _("Soc")}


class CrewForm(forms.Form):
    """Characteristics (DM = floor(score / 3) - 2) and skills (blank: untrained, checks at -3)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key in CHARACTERISTICS:
            self.fields[f"char_{key}"] = WholeNumberField(WholeRange(*CHARACTERISTIC_RANGE, CHAR_LABEL[key]), initial=7)
        for key in SKILLS:
            self.fields[f"skill_{key}"] = WholeNumberField(
                WholeRange(*SKILL_RANGE, SKILL_WORDS.get(key, SKILL_LABEL[key])), required=False,
                help_text=_("Gunnery counts for Turret and Bay unless a speciality is given.") if key == "gunnery" else "")
        self.fields["other_skills"] = forms.CharField(
            required=False, label=_("Other skills"), help_text=_("Other skills as 'Name level', comma separated: 'Vacc Suit 1, Medic 0'."))

    def clean_other_skills(self):
        text = self.cleaned_data.get("other_skills") or ""
        out, errors = {}, []
        for item in [p.strip() for p in text.split(",") if p.strip()]:
            name, _, level = item.rpartition(" ")
            try:
                span = WholeRange(*SKILL_RANGE, gettext("A skill's level"))
                problem = refusal(span, level)
                if problem:
                    raise ValueError(problem)
                number = span.read(level)
            except ValueError as exc:
                errors.append(gettext("'%(item)s' is not 'Skill level' with a level 0-6: %(problem)s")
                              % {"item": item, "problem": exc})
                continue
            if not name:
                errors.append(gettext("'%(item)s' is not 'Skill level' with a level 0-6") % {"item": item})
                continue
            out[name.strip().lower().replace(" ", "_")] = number
        if errors:
            raise forms.ValidationError(errors)
        return out

    @classmethod
    def initial_from(cls, crew: dict) -> dict:
        crew = crew or {}
        chars = crew.get("characteristics") or {}
        skills = crew.get("skills") or {}
        out = {f"char_{k}": int(chars.get(k, 7)) for k in CHARACTERISTICS}
        for k in SKILLS:
            out[f"skill_{k}"] = int(skills[k]) if k in skills else None
        others = [f"{k.replace('_', ' ').title()} {v}" for k, v in skills.items() if k not in SKILLS]
        out["other_skills"] = ", ".join(others)
        return out

    def crew_data(self) -> dict:
        d = self.cleaned_data
        skills = {k: d[f"skill_{k}"] for k in SKILLS if d.get(f"skill_{k}") is not None}
        skills.update(d.get("other_skills") or {})
        return {"characteristics": {k: d[f"char_{k}"] for k in CHARACTERISTICS}, "skills": skills}


class SetupOptionsForm(forms.Form):
    range = forms.ChoiceField(choices=BAND_CHOICES, initial="short", label=_("Starting range band"),
                              help_text=_("Chance meetings in deep space start at Very Long; near a world, Short or Medium."))
    aware = forms.CharField(required=False, label=_("Aware at the start"),
                            help_text=_("Ship or side names, comma separated, that know of their enemies: if some but not "
                                      "all ships are aware, the aware ones count their initiative 2D6 as 12. Blank: everyone rolls."))
    max_rounds = WholeNumberField(WholeRange(1, 200, _("Round limit")), initial=20,
                                  help_text=_("After this many rounds the fight ends as a draw."))
    hasty = forms.BooleanField(required=False, initial=False, label=_("House rule: hasty crews"),
                               help_text=_("A Captain may declare the crew hasty: one extra minor action each, DM-1 to every check."))
    hazard = forms.ChoiceField(choices=HAZARD_CHOICES, initial="none", label=_("Collision hazard"))
    hazard_mismatch = forms.BooleanField(required=False, label=_("Speed very different from the debris (DM-2)"))
    planet = forms.BooleanField(required=False, label=_("Near a world (ships start in orbit; orbit insertion and re-entry)"))
    world_size = WholeNumberField(WholeRange(0, 15, _("World size code")), initial=7)
    world_atmosphere = WholeNumberField(WholeRange(0, 15, _("World atmosphere code")), initial=6)
    comms_noise = forms.BooleanField(required=False, label=_("Considerable comms noise (DM-2 to maintain comms)"))
    encrypted = forms.BooleanField(required=False, label=_("Enemy comms encrypted (DM-2 to intercept)"))
    auto_repair_checks = forms.TypedChoiceField(choices=[(1, _("one")), (2, _("two"))], coerce=int, initial=1,
                                                label=_("Repair-drone checks per turn"))
    smart_fuel = WholeNumberField(WholeRange(1, 50, _("Smart missile endurance (rounds)")), initial=10)
    hull_zero_disables = forms.BooleanField(required=False, initial=True,
                                            label=_("A ship whose Hull runs out is disabled"))

    def options(self) -> dict:
        d = self.cleaned_data
        return {
            "range": d["range"],
            "aware": [p.strip() for p in (d.get("aware") or "").split(",") if p.strip()],
            "max_rounds": d["max_rounds"], "hasty": d["hasty"], "hazard": d["hazard"],
            "hazard_mismatch": d["hazard_mismatch"], "planet": d["planet"], "world_size": d["world_size"],
            "world_atmosphere": d["world_atmosphere"], "comms_noise": d["comms_noise"], "encrypted": d["encrypted"],
            "auto_repair_checks": d["auto_repair_checks"], "smart_fuel": d["smart_fuel"],
            "hull_zero_disables": d["hull_zero_disables"],
        }
