"""The Django side of a rule system: its stat forms, crew positions and setup options.

Each ruleset app ``rulesets/<key>/`` has a ``forms`` module with ``ShipStatsForm``,
``CrewForm``, ``POSITIONS`` and ``SetupOptionsForm``.  The same stats form serves the
GM's ship editor, the admin's template editor and the import checks.
"""
from __future__ import annotations

import json
from importlib import import_module

from rulesets.core import registry
from rulesets.core.override import read_decimal


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


# Python's complaints when stored data is not the shape a form's ``initial_from`` reads.
_SHAPE_ERRORS = (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError)


def clean_stats(key: str, stats) -> dict:
    """The normalised stats, or ValueError naming the first bad field or entry.

    Nothing is dropped on the way: a key or list entry the ruleset does not read is
    refused by name (a typo in a file must not vanish silently).
    """
    if not isinstance(stats, dict):
        raise ValueError("stats: expected an object of stats, like an export holds.")
    form_cls = forms_for(key).ShipStatsForm
    problems = getattr(form_cls, "problems_of", None)
    try:
        if problems is not None:
            found = problems(stats)
            if found:
                raise ValueError(f"stats: {found[0]}")  # the first, as a form shows one per field
        data = _as_form_data(form_cls, stats)
    except ValueError as exc:
        if str(exc).startswith("stats"):
            raise
        raise ValueError(_unreadable(form_cls, stats)) from None
    except _SHAPE_ERRORS:
        raise ValueError(_unreadable(form_cls, stats)) from None
    form = form_cls(data=data)
    if not form.is_valid():
        field, errs = next(iter(form.errors.items()))
        if field in stats and stats[field] not in (None, "") and "This field is required." in errs:
            # Present, but of a type the field cannot read (a list where a number goes).
            errs = [f"{_short(stats[field])} is not a value this field takes."]
        label = "stats" if field == "__all__" else f"stats.{field}"
        raise ValueError(f"{label}: {' '.join(errs)}")
    cleaned = form.stats()
    dropped = dropped_entries(stats, cleaned, "stats")
    if dropped:
        raise ValueError(f"{dropped[0]}: this ruleset has no such stat or entry (nothing would be kept of it).")
    for where, why in misread_entries(stats, cleaned, "stats"):
        raise ValueError(f"{where}: {why}")
    return cleaned


def _unreadable(form_cls, stats: dict) -> str:
    """Name the stat whose value ``initial_from`` cannot read, in words."""
    for k, value in stats.items():
        try:
            form_cls.initial_from({k: value})
        except _SHAPE_ERRORS:
            return f"stats.{k}: {_short(value)} is not in the form this ruleset reads (see an exported file)."
    return "stats: not in the form this ruleset reads (see an exported file)."


def _short(value, limit: int = 60) -> str:
    """A value as a GM would type it in a file, cut short."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def dropped_entries(given, kept, path: str) -> list[str]:
    """Paths of what ``given`` holds and ``kept`` (its cleaned form) lost.

    Objects are compared key by key and lists entry by entry; a key whose value is
    empty (0, "", null, false, [] or {}) may go (it changes nothing).  Where the cleaned
    form changed a value's type (a code written out, a line parsed) it is not followed.
    """
    if isinstance(given, dict) and isinstance(kept, dict):
        out = []
        for k, value in given.items():
            if k not in kept:
                if value not in (None, "", 0, False, [], {}):
                    out.append(f"{path}.{k}")
                continue
            out.extend(dropped_entries(value, kept[k], f"{path}.{k}"))
        return out
    if isinstance(given, list) and isinstance(kept, list):
        if len(kept) < len(given):
            # Which entry went is not known (the cleaned list closed up): name the list.
            return [path if kept else f"{path}[0]"]
        out = []
        for i, (a, b) in enumerate(zip(given, kept)):
            out.extend(dropped_entries(a, b, f"{path}[{i}]"))
        return out
    return []


def clean_crew(key: str, crew: dict) -> dict:
    """A crew member's sheet, or ValueError naming the bad entry ("skills.gunnery: ...")."""
    for part in ("characteristics", "skills"):
        value = crew.get(part)
        if value is None:
            continue
        if not isinstance(value, dict):
            raise ValueError(f"{part}: expected an object of names and values, like {{\"gunnery\": 1}}.")
    # What a value may be (a tick box's true, a skill line's list, a weapon's 80 characters) is the
    # ruleset's sheet's to say: its form reads the values below, and refuses what it refuses (issue 26:
    # a check here of its own refused Wing Commander's ticks and Void d20's long weapon names).
    form_cls = forms_for(key).CrewForm
    try:
        data = _as_form_data(form_cls, crew)
    except _SHAPE_ERRORS:
        bad = next((f"{part}.{name}: {_short(level)}" for part in ("characteristics", "skills")
                    for name, level in (crew.get(part) or {}).items()
                    if not _reads(form_cls, part, name, level)), "crew")
        raise ValueError(f"{bad} is not a value this ruleset's sheet takes.") from None
    form = form_cls(data=data)
    given = {k: crew.get(k) or {} for k in ("characteristics", "skills")}
    if not form.is_valid():
        field, errs = next(iter(form.errors.items()))
        raise ValueError(f"{_sheet_path(field, given)}: {' '.join(errs)}")
    cleaned = form.crew_data()
    dropped = dropped_entries(given, cleaned, "crew")
    if dropped:
        raise ValueError(f"{dropped[0].removeprefix('crew.')}: not on this ruleset's sheet.")
    for where, why in misread_entries(given, cleaned, "crew"):
        raise ValueError(f"{where.removeprefix('crew.')}: {why}")
    return cleaned


def _sheet_path(field: str, given: dict) -> str:
    """Where in the file a sheet form's field came from: ``hp`` is ``characteristics.hp``,
    Cepheus's ``char_str`` is ``characteristics.str`` (the field's name where none matches)."""
    for part, values in given.items():
        for name in (field, field.partition("_")[2]):
            if name and name in values:
                return f"{part}.{name}"
    return field


def misread_entries(given, kept, path: str):
    """``(path, why)`` of each value the form read as something a person would not have typed:
    a true or false where it keeps a number (``int(True)`` is 1), or text it read as a number
    that is not written in the digits 0-9 (``int("١٢")`` is 12).  Objects are followed key by
    key and lists of one length entry by entry, as in :func:`dropped_entries`."""
    if isinstance(given, dict) and isinstance(kept, dict):
        for k, value in given.items():
            if k in kept:
                yield from misread_entries(value, kept[k], f"{path}.{k}")
    elif isinstance(given, list) and isinstance(kept, list) and len(given) == len(kept):
        for i, (a, b) in enumerate(zip(given, kept)):
            yield from misread_entries(a, b, f"{path}[{i}]")
    elif isinstance(kept, (int, float)) and not isinstance(kept, bool):
        if isinstance(given, bool):
            yield path, f"{_short(given)} is not a value this field takes (it holds a number)."
        elif isinstance(given, str):
            try:
                read_decimal(given)
            except ValueError as exc:
                yield path, str(exc)


def _reads(form_cls, part: str, name: str, level) -> bool:
    try:
        form_cls.initial_from({part: {name: level}})
    except _SHAPE_ERRORS:
        return False
    return True


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
