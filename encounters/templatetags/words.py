"""Plain words for values a rule system's view hands to a template: never a Python repr.

``{{ value|words }}``: a list becomes "a, b and c" (a list of records, their names), a
mapping "label 3, other 1", True/False "yes"/"no", None and empty "none";
``{{ key|label }}``: "damaged_systems" -> "Damaged systems".
A value may be a rule system's message (rulesets.core.messages): it prints in the reader's language.
"""
from __future__ import annotations

from django import template
from django.utils.translation import pgettext

register = template.Library()


def _join(items: list[str]) -> str:
    items = [i for i in items if i]
    if not items:
        return pgettext("in words", "none")
    if len(items) == 1:
        return items[0]
    return pgettext("in words", "%(items)s and %(last)s") % {"items": ", ".join(items[:-1]), "last": items[-1]}


def in_words(value) -> str:
    if value is None or value == "" or value == [] or value == {}:
        return pgettext("in words", "none")
    if isinstance(value, bool):
        return pgettext("in words", "yes") if value else pgettext("in words", "no")
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
NOT_FACTS = {"id", "name", "side", "status", "side_index", "moving", "sheet", "targeting", "pos", "crew_id",
             "fact_labels"}


@register.filter
def facts(ship: dict) -> list[tuple[str, str]]:
    """A ship of a view as (label, words) pairs: what is known of it, in words.  A view may name
    its keys (``fact_labels``: key -> message, rendered in the reader's language); a key it does
    not name reads as itself ("max_hull": "Max hull")."""
    labels = ship.get("fact_labels") or {}
    return [(str(labels[k]) if k in labels else label(k), in_words(v)) for k, v in ship.items()
            if k not in NOT_FACTS and v not in (None, "", [], {})]


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 22nd..."""
    n = int(n)
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@register.filter
def percentile(share) -> str:
    """A share 0..1 as a percentile in words: 0.22 -> "22nd percentile"."""
    try:
        value = round(float(share) * 100)
    except (TypeError, ValueError):
        return ""
    return f"{ordinal(value)} percentile"


# ---------------------------------------------------------------- damage carried by a campaign's ship

#: amounts a rule system's damage record counts as lost (Cepheus: hull 8 = 8 points of hull lost)
_LOST = {"hull", "structure", "armour", "fuel", "cargo"}
#: hits counted per system or mount
_HITS = {"systems", "mounts"}


def _part(code: str, ship=None) -> str:
    """A mount, weapon or crew member's id in words: t1 -> turret 1, b2 -> bay 2, c15 -> a crew name."""
    code = str(code)
    head, _, tail = code.partition(".")
    if head[:1] in "tb" and head[1:].isdigit():
        words = f"{'turret' if head[0] == 't' else 'bay'} {head[1:]}"
        return f"{words}, weapon {int(tail) + 1}" if tail.isdigit() else words
    if head[:1] == "c" and head[1:].isdigit() and ship is not None:
        member = next((c for c in ship.crew.all() if c.pk == int(head[1:])), None)
        return member.name if member else "a crew member no longer aboard"
    if head[:1] == "w" and head[1:].isdigit() and ship is not None:
        weapons = (ship.stats or {}).get("weapons") or []
        found = next((w for w in weapons if isinstance(w, dict) and w.get("id") == head), None)
        if found:
            return str(found.get("name") or label(found.get("type", "weapon")))
        return f"weapon {head[1:]}"
    return label(code)


@register.filter
def damage_lines(damage, ship=None) -> list[str]:
    """A ship's carried damage as sentences: "Hull: 8 points lost", "M drive: 3 hits", "Dara Voss: 5 damage"."""
    lines = []
    for key, value in (damage or {}).items():
        if value in (None, "", [], {}, False, 0):
            continue
        if value is True:
            lines.append(label(key))
        elif key in _LOST and isinstance(value, (int, float)):
            lines.append(f"{label(key)}: {value:g} point{'s' if value != 1 else ''} lost")
        elif key in _HITS and isinstance(value, dict):
            lines.append(f"{label(key)} hit: " + _join([f"{_part(k, ship)} ({v} hit{'s' if v != 1 else ''})"
                                                      for k, v in value.items()]))
        elif key == "ammo" and isinstance(value, dict):
            lines.append("Ammunition spent: " + _join([f"{_part(k, ship)}: {v}" for k, v in value.items()]))
        elif key == "crew" and isinstance(value, dict):
            lines.append("Crew hurt: " + _join([f"{_part(k, ship)} ({in_words(v)})" for k, v in value.items()]))
        elif key == "codes" and isinstance(value, dict):
            lines.append("Codes now: " + _join([f"{label(k).lower()} {v}" for k, v in value.items()]))
        elif key == "results" and isinstance(value, list):
            lines.append("Damage taken: " + _join([str(v) for v in value]))
        elif key == "weapons" and isinstance(value, dict):
            lines.append("Weapons: " + _join([f"{_part(k, ship)} ({in_words(v)})" for k, v in value.items()]))
        elif isinstance(value, dict):
            lines.append(f"{label(key)}: " + _join([f"{_part(k, ship)} {in_words(v)}" for k, v in value.items()]))
        else:
            lines.append(f"{label(key)}: {in_words(value)}")
    return lines


#: stats a picker leaves out: the template's name is already beside the summary
_NOT_SUMMARISED = {"id", "name"}


def _stat_field(fields: dict, key: str):
    return fields.get(key) or fields.get(f"ship_{key}")  # Wing Commander stores "class" from "ship_class"


def _in_form_order(stats: dict, fields: dict) -> list:
    """The stats in the order their form shows them (a JSON column may keep keys in another
    order: PostgreSQL's jsonb sorts them), those the form does not know after, as stored."""
    order: dict[str, int] = {}
    for i, name in enumerate(fields):
        order.setdefault(name, i)
        order.setdefault(name.removeprefix("ship_"), i)
    return sorted(stats.items(), key=lambda kv: order.get(kv[0], len(order)))


def _choice_words(field, value) -> str | None:
    """A choice's label as a person reads it, without the source text's own name in brackets:
    "death_star" -> "Death Star" (not "Death Star (Estrella de la Mort)")."""
    shown = dict(getattr(field, "choices", None) or []).get(value)
    if shown is None:
        return None
    return str(shown).split(" (")[0]


def _count_words(n: int, name: str) -> str:
    """ "1 weapon", "2 weapons": the stat's plural name, made singular for one."""
    if n == 1 and name.endswith("s") and not name.endswith("ss"):
        name = name[:-1]
    return f"{n} {name}"


@register.filter
def stats_summary(stats, ruleset: str | None = None, limit: int = 6) -> str:
    """A template's stats in a few words for a picker: "tonnage 200, armour 1, thrust 1, 2 turrets".

    With the ``ruleset`` (``{{ t.stats|stats_summary:campaign.ruleset }}``) its stats form
    names them: a choice by its label ("scale Death Star", not "scale death_star"), a rules
    abbreviation as the rules write it ("TW 12", not "tw 12").
    """
    fields, as_typed = {}, {}
    if ruleset:
        from campaigns.rulesets import forms_for

        try:
            form_cls = forms_for(ruleset).ShipStatsForm
            fields = form_cls().fields
        except (LookupError, ImportError, AttributeError):
            form_cls = None
        try:  # the stats as the form would show them; a template short of a stat still summarises
            as_typed = form_cls.initial_from(stats or {}) if hasattr(form_cls, "initial_from") else {}
        except (LookupError, TypeError, ValueError, AttributeError):
            as_typed = {}
    out = []
    for key, value in _in_form_order(stats or {}, fields):
        if len(out) >= int(limit):
            break
        if key in _NOT_SUMMARISED or isinstance(value, bool) or value in (None, "", 0, [], {}):
            continue
        field = _stat_field(fields, key)
        shown_label = field.label if field is not None and field.label else ""
        name = shown_label if shown_label.isupper() else label(key).lower()
        typed = as_typed.get(key)
        if (isinstance(value, (list, tuple)) and not any(isinstance(v, (dict, list, str)) for v in value)
                and isinstance(typed, str) and typed and "\n" not in typed):
            # a list the stats form writes on one line (Dropfleet's armour saves [5]: "5+")
            out.append(f"{name} {typed}")
        elif isinstance(value, (list, tuple)):
            out.append(_count_words(len(value), name))
        elif isinstance(value, dict):
            continue
        else:
            out.append(f"{name} {_choice_words(field, value) or value}")
    return ", ".join(out)


@register.filter
def round_title(n) -> str:
    """A round as a page heads it: "Round 3"; round 0 (set up, nobody has acted) is "Before the first round"."""
    from django.utils.translation import gettext as _

    try:
        n = int(n)
    except (TypeError, ValueError):
        return ""
    return _("Before the first round") if n < 1 else _("Round %(n)s") % {"n": n}


@register.filter
def phase_line(phase) -> str:
    """The players' header's phase, lower case: "movement phase", one sentence with the phase its
    parameter ("%(phase)s phase"); a phase whose English name already ends in "phase" ("End
    phase") is printed as it is.  Decided on the English words, never on the reader's: the
    Italian "fase di movimento" does not end in "phase" yet needs no second one."""
    from django.utils.translation import gettext as _

    from rulesets.core.messages import english

    words = label(phase).lower()
    if label(english(phase)).lower().endswith("phase"):
        return words
    return _("%(phase)s phase") % {"phase": words}
