"""The Django side of a rule system: its stat forms, crew positions and setup options.

Each ruleset app ``rulesets/<key>/`` has a ``forms`` module with ``ShipStatsForm``,
``CrewForm``, ``POSITIONS`` and ``SetupOptionsForm``.  The same stats form serves the
GM's ship editor, the admin's template editor and the import checks.
"""
from __future__ import annotations

from importlib import import_module

from rulesets.core import registry


def forms_for(key: str):
    engine = registry.get(key)  # unknown keys fail loudly here, not deep in an import
    return import_module(engine.forms_module)


def stats_errors(key: str, stats: dict) -> dict[str, list[str]]:
    """Errors of a stats dict as the ruleset's form sees them ({} when valid)."""
    return form_errors(forms_for(key).ShipStatsForm, stats)


def form_errors(form_cls, data: dict) -> dict[str, list[str]]:
    """Errors of stored data as ``form_cls`` sees them ({} when valid)."""
    form = form_cls(data=_as_form_data(form_cls, data))
    if form.is_valid():
        return {}
    return {field: [str(e) for e in errs] for field, errs in form.errors.items()}


def clean_stats(key: str, stats: dict) -> dict:
    """The normalised stats, or ValueError naming the first bad field."""
    form_cls = forms_for(key).ShipStatsForm
    form = form_cls(data=_as_form_data(form_cls, stats))
    if not form.is_valid():
        field, errs = next(iter(form.errors.items()))
        label = "stats" if field == "__all__" else f"stats.{field}"
        raise ValueError(f"{label}: {' '.join(errs)}")
    return form.stats()


def clean_crew(key: str, crew: dict) -> dict:
    form_cls = forms_for(key).CrewForm
    form = form_cls(data=_as_form_data(form_cls, crew))
    if not form.is_valid():
        field, errs = next(iter(form.errors.items()))
        raise ValueError(f"{field}: {' '.join(errs)}")
    return form.crew_data()


def _as_form_data(form_cls, data: dict) -> dict:
    """Turn stored JSON into the POST-like data the form validates.

    ``initial_from`` gives field values; booleans that are False are left out, as a
    browser leaves an unticked box out of a post.
    """
    initial = form_cls.initial_from(data)
    out = {}
    for name, value in initial.items():
        if value is False or value is None:
            continue
        if isinstance(value, (list, tuple)):
            out[name] = [str(v) for v in value]
        else:
            out[name] = "on" if value is True else str(value)
    return _QueryDictLike(out)


class _QueryDictLike(dict):
    """Enough of QueryDict for forms: getlist for multiple-choice fields."""

    def getlist(self, key, default=None):
        value = self.get(key, default if default is not None else [])
        return value if isinstance(value, list) else [value]
