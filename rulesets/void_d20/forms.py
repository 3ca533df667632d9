"""Void d20 forms: ship stats, a person's sheet (a character or an enemy profile), encounter options.

The only module of the system that imports Django.  Lines are read by the same parsers
the engine and the imports use (:mod:`rulesets.void_d20.setup`); a bad weapon line is
named by its number, next to its field, and nothing is lost.
"""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from rulesets.core.lines import LineError, parse_lines, refuse_foreign_digits
from rulesets.form_fields import WholeNumberField, whole

from . import setup, tables

#: crew positions: each ship station's crew member (Действия на корабле), boarders, passengers
#: (the captain commands, the pilot flies on Agility, the gunner shoots on Technology, the sensors
#: officer scans on Mind, the engineer repairs on Technology; marines board and defend)
POSITIONS = list(tables.POSITION_WORDS.items())

WEAPON_HELP = _("One weapon per line: name, damage dice, reach (standard, heavy, missile or close). Heavy weapons and "
               "missiles reach Far; close guns work only at Close. The seed gives no ship weapon damage: these figures "
               "are house data. Example: 'Railgun, 2d6, heavy'.")
MODULE_HELP = _("One module per line (a hit knocks out a random one on a 1 in d6). 'engines' out: no manoeuvres; "
               "'sensors' out: no scans; the rest are for the GM to play.")


def _number(lo: int, hi: int, default: int, label: str, help_text: str = "") -> WholeNumberField:
    """A number of the range stated once (:mod:`.setup`), read and refused as the override and the
    import read it: the digits 0-9, the field and the range named (issue 26)."""
    return whole(lo, hi, label, initial=default, help_text=help_text)


class ShipStatsForm(forms.Form):
    frame = _number(*setup.SHIP_NUMBERS["frame"], _("Frame (Condition)"), _("At 0 the ship drifts: no engines, no life support."))
    speed = _number(*setup.SHIP_NUMBERS["speed"], _("Speed"), _("What a ship breaking away from this one must roll (Agility check)."))
    defence = _number(*setup.SHIP_NUMBERS["defence"], _("Defence"),
                      _("House rule: what gunnery at this ship must reach (the seed gives no target; 12 is the plain check)."))
    spare_parts = _number(*setup.SHIP_NUMBERS["spare_parts"], _("Spare parts"), _("Each repair attempt spends one."))
    modules = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 4}), label=_("Modules"),
                              help_text=MODULE_HELP)
    weapons = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 3}), label=_("Weapons"),
                              help_text=WEAPON_HELP)

    def clean_modules(self):
        names = [line.strip()[:40] for line in (self.cleaned_data.get("modules") or "").splitlines() if line.strip()]
        if len(set(n.lower() for n in names)) != len(names):
            raise forms.ValidationError(_("Each module once, please."))
        return names

    def clean_weapons(self):
        try:
            return parse_lines(self.cleaned_data.get("weapons"), setup.parse_ship_weapon)
        except LineError as exc:
            raise forms.ValidationError(exc.messages) from None

    @classmethod
    def initial_from(cls, stats: dict) -> dict:
        stats = stats or {}
        out = {key: stats.get(key, default) for key, (_, _, default) in setup.SHIP_NUMBERS.items()}
        out["modules"] = "\n".join(stats.get("modules") or setup.DEFAULT_MODULES)
        out["weapons"] = "\n".join(setup.ship_weapon_line(w) for w in stats.get("weapons") or [])
        return out

    def stats(self) -> dict:
        d = self.cleaned_data
        out = {key: d[key] for key in setup.SHIP_NUMBERS}
        out["modules"] = list(d.get("modules") or [])
        out["weapons"] = list(d.get("weapons") or [])
        return out


class CrewForm(forms.Form):
    """A character's full sheet, or an enemy profile's simplified stat line (Враги в бою)."""

    profile = forms.ChoiceField(label=_("Profile"), choices=[("character", _("Character (full stat line, death table, Void Points)")),
                                         ("enemy", _("Enemy profile (HP, DR, attack, damage, morale; a squad)"))],
                                initial="character")
    body = _number(*setup.CHARACTER_NUMBERS["body"], _("Body"), _("Melee attacks, forcing doors."))
    agility = _number(*setup.CHARACTER_NUMBERS["agility"], _("Agility"), _("Ranged attacks, initiative, piloting."))
    mind = _number(*setup.CHARACTER_NUMBERS["mind"], _("Mind"), _("Sensors."))
    technology = _number(*setup.CHARACTER_NUMBERS["technology"], _("Technology"), _("Tech weapons, gunnery, repair, hacking."))
    hp = _number(*setup.CHARACTER_NUMBERS["hp"], _("HP"))
    dr = _number(*setup.CHARACTER_NUMBERS["dr"], _("Defence Rating"), _("Armour adds to it while its Condition lasts."))
    void_points = _number(*setup.CHARACTER_NUMBERS["void_points"], _("Void Points"), _("At most 4; spend one for 2d20, the higher."))
    attack = _number(*setup.ENEMY_NUMBERS["attack"], _("Attack modifier"), _("Enemies: 1d20 + this against the target's DR."))
    morale = _number(*setup.ENEMY_NUMBERS["morale"], _("Morale"), _("Enemies: 2d6 higher than this and they flee or surrender."))
    count = _number(*setup.ENEMY_NUMBERS["count"], _("Squad size"), _("Enemies: how many of them."))
    weapon = forms.CharField(required=False, max_length=80, label=_("Weapon"),
                             help_text=_("Name, kind (melee, ranged or tech), damage, Condition: 'Laser pistol, tech, d8, 3'."))
    armour = forms.CharField(required=False, max_length=80, label=_("Armour"), help_text=_("Name, + DR, Condition: 'Vacc suit, 1, 3'."))
    shield = _number(0, 10, 0, _("Energy shield charges"), _("+2 DR while charged; a hit costs a charge."))
    medkit = _number(0, 10, 0, _("Medkit charges"), _("d6+1 HP a charge."))

    def clean_weapon(self):
        text = (self.cleaned_data.get("weapon") or "").strip()
        if text:
            try:
                refuse_foreign_digits(text)
                setup.parse_personal_weapon(text)
            except ValueError as exc:
                raise forms.ValidationError(str(exc)) from None
        return text

    def clean_armour(self):
        text = (self.cleaned_data.get("armour") or "").strip()
        if text:
            try:
                refuse_foreign_digits(text)
                setup.parse_armour(text)
            except ValueError as exc:
                raise forms.ValidationError(str(exc)) from None
        return text

    @classmethod
    def initial_from(cls, crew: dict) -> dict:
        numbers = (crew or {}).get("characteristics") or {}
        gear = (crew or {}).get("skills") or {}
        out = {"profile": gear.get("profile", "character")}
        for table in (setup.CHARACTER_NUMBERS, setup.ENEMY_NUMBERS):
            for key, (_, _, default) in table.items():
                out.setdefault(key, numbers.get(key, default))
        out.update({"weapon": gear.get("weapon", ""), "armour": gear.get("armour", ""),
                    "shield": gear.get("shield", 0) or 0, "medkit": gear.get("medkit", 0) or 0})
        return out

    def crew_data(self) -> dict:
        d = self.cleaned_data
        if d["profile"] == "enemy":
            numbers = {k: d[k] for k in ("hp", "dr", "attack", "morale", "count")}
            gear = {"profile": "enemy", "weapon": d.get("weapon") or ""}
        else:
            numbers = {k: d[k] for k in setup.CHARACTER_NUMBERS}
            gear = {"profile": "character", "weapon": d.get("weapon") or "", "armour": d.get("armour") or "",
                    "shield": d["shield"], "medkit": d["medkit"]}
        return {"characteristics": numbers, "skills": gear}


class SetupOptionsForm(forms.Form):
    scene = forms.ChoiceField(label=_("Scene"), choices=[("space", _("In space: the ships fight, then perhaps board")),
                                       ("corridors", _("In the corridors: the first side's boarders are already inside"))],
                              initial="space")
    start_band = forms.ChoiceField(choices=[(b, tables.BANDS[b].label) for b in ("far", "medium", "close", "docked")],
                                   initial="medium", label=_("Range band at the start"))
    max_rounds = whole(1, 200, _("Round limit"), initial=setup.DEFAULT_MAX_ROUNDS,
                       help_text=_("After this many rounds the fight ends undecided."))
    void_points = whole(0, tables.MAX_VOID_POINTS, _("Void Points for every character"), required=False,
                        help_text=_("Blank: each character's own."))
    squad_bonus = whole(0, 6, _("Extra members per enemy squad"), initial=0)

    def options(self) -> dict:
        d = self.cleaned_data
        out = {"scene": d["scene"], "start_band": d["start_band"], "max_rounds": d["max_rounds"],
               "squad_bonus": d.get("squad_bonus") or 0}
        if d.get("void_points") is not None:
            out["void_points"] = d["void_points"]
        return out
