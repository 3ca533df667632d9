"""Plain words for values a rule system's view hands to a template: never a Python repr.

``{{ value|words }}``: a list becomes "a, b and c" (a list of records, their names), a
mapping "label 3, other 1", True/False "yes"/"no", None and empty "none";
``{{ key|label }}``: "damaged_systems" -> "Damaged systems".
"""
from __future__ import annotations

from django import template

register = template.Library()


def _join(items: list[str]) -> str:
    items = [i for i in items if i]
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def in_words(value) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict):
        if "name" in value:
            return str(value["name"])
        return _join([f"{label(k).lower() if isinstance(k, str) else k} {in_words(v)}"
                      if not isinstance(v, bool) else (label(k).lower() if v else "") for k, v in value.items()])
    if isinstance(value, (list, tuple, set, frozenset)):
        return _join([in_words(v) for v in value])
    return str(value)


def label(key) -> str:
    text = str(key).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


register.filter("words", in_words)
register.filter("label", label)


#: keys of a ship in a view that are not facts to read (ids, colours, positions on a drawn board)
NOT_FACTS = {"id", "name", "side", "status", "side_index", "moving", "sheet", "targeting", "pos", "crew_id"}


@register.filter
def facts(ship: dict) -> list[tuple[str, str]]:
    """A ship of a view as (label, words) pairs: what is known of it, in words."""
    return [(label(k), in_words(v)) for k, v in ship.items()
            if k not in NOT_FACTS and v not in (None, "", [], {})]
