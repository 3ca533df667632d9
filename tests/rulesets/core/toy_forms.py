"""The toy ruleset's stat forms, shaped like a real ruleset's forms module."""
from django import forms

POSITIONS = [("pilot", "Pilot"), ("gunner", "Gunner")]


class ShipStatsForm(forms.Form):
    hull = forms.IntegerField(min_value=1, max_value=100)

    @classmethod
    def initial_from(cls, stats):
        return {"hull": stats.get("hull", 10)}

    def stats(self):
        return {"hull": self.cleaned_data["hull"]}


class CrewForm(forms.Form):
    gunnery = forms.IntegerField(min_value=0, max_value=5, initial=0)

    @classmethod
    def initial_from(cls, crew):
        return {"gunnery": (crew.get("skills") or {}).get("gunnery", 0)}

    def crew_data(self):
        return {"characteristics": {}, "skills": {"gunnery": self.cleaned_data["gunnery"]}}


class SetupOptionsForm(forms.Form):
    max_rounds = forms.IntegerField(min_value=1, max_value=100, initial=30)

    def options(self):
        return {"max_rounds": self.cleaned_data["max_rounds"]}
