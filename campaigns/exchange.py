"""JSON export and import of templates, fleets and whole campaigns.

The file format is versioned (see docs/import-export.md)::

    {"format": "starship-table", "version": 1, "kind": "templates" | "fleet" | "campaign", ...}

Import checks the whole file first, every stat through the ruleset's own form, and
writes inside one transaction: a bad file is refused with a message naming the
offending entry, and nothing is half-imported.
"""
from __future__ import annotations

import json
import math

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext

from rulesets.core import registry

from .models import Campaign, CrewMember, Fleet, Ship, ShipTemplate, colour_validator
from .rulesets import clean_crew, clean_stats, dropped_entries, forms_for, misread_entries

FORMAT = "starship-table"
VERSION = 1
KINDS = ("templates", "fleet", "campaign")


class ImportRefused(ValueError):
    """The file was refused; ``str()`` names the entry at fault."""


def _header(kind: str, **extra) -> dict:
    return {"format": FORMAT, "version": VERSION, "kind": kind, **extra}


# -- export ------------------------------------------------------------------

def export_templates(ruleset: str, templates=None) -> dict:
    qs = templates if templates is not None else ShipTemplate.objects.for_ruleset(ruleset)
    return _header(
        "templates", ruleset=ruleset,
        templates=[{"name": t.name, "stats": t.stats, "notes": t.notes} for t in qs],
    )


def crew_key(index: int) -> str:
    """How a file names the ship's crew member at ``index`` where its damage refers to one
    (``"crew[0]"``): the database's ids (``c34``) mean nothing in another installation."""
    return f"crew[{index}]"


def _rekey(value, keys: dict[str, str]):
    """``value`` with every object key found in ``keys`` renamed (crew ids in a ship's damage)."""
    if isinstance(value, dict):
        return {keys.get(k, k): _rekey(v, keys) for k, v in value.items()}
    if isinstance(value, list):
        return [_rekey(v, keys) for v in value]
    return value


def aboard_only(damage: dict, crew_ids) -> dict:
    """``damage`` without what it carries for crew members no longer on the ship (issue 26): a
    wound or a spent Void Point of someone removed from the crew belongs to no one, and the file
    has no crew entry to name them by."""
    crew = damage.get("crew") if isinstance(damage, dict) else None
    if not isinstance(crew, dict):
        return damage
    kept = {k: v for k, v in crew.items() if k in crew_ids}
    if len(kept) == len(crew):
        return damage
    out = {k: v for k, v in damage.items() if k != "crew"}
    if kept:
        out["crew"] = kept
    return out


def _fleet_data(fleet: Fleet) -> dict:
    ships = []
    for ship in fleet.ships.select_related("template").prefetch_related("crew"):
        crew = list(ship.crew.all())
        ships.append({
            "name": ship.name,
            "template": ship.template.name if ship.template else None,
            "stats": ship.stats,
            "damage": _rekey(aboard_only(ship.damage, {c.setup_spec()["id"] for c in crew}),
                             {c.setup_spec()["id"]: crew_key(i) for i, c in enumerate(crew)}),
            "notes": ship.notes,
            "crew": [
                {"name": c.name, "position": c.position, "station": c.station,
                 "characteristics": c.characteristics, "skills": c.skills}
                for c in crew
            ],
        })
    return {"name": fleet.name, "side": fleet.side, "colour": fleet.colour, "ships": ships}


def export_fleet(fleet: Fleet) -> dict:
    return _header("fleet", ruleset=fleet.campaign.ruleset, fleet=_fleet_data(fleet))


def export_campaign(campaign: Campaign) -> dict:
    return _header("campaign", campaign={
        "name": campaign.name,
        "ruleset": campaign.ruleset,
        "description": campaign.description,
        "language": campaign.language,
        "fleets": [_fleet_data(f) for f in campaign.fleets.all()],
    })


# -- checking ----------------------------------------------------------------

MAX_DEPTH = 24  # an export nests about eight deep
MAX_NUMBER = 10**12


def _no_constant(name: str):
    raise ImportRefused(gettext("Not a file this app wrote: %(name)s is not a number an export holds.") % {"name": name})


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        _no_constant(text)
    return value


def _check_values(value, where: str, depth: int = 0) -> None:
    """Refuse what no field can store: NUL characters, absurd nesting, numbers out of all range."""
    if depth > MAX_DEPTH:
        raise ImportRefused(gettext("%(where)s: nested more than %(depth)s deep; this is not an export of this app.")
                            % {"where": where, "depth": MAX_DEPTH})
    if isinstance(value, str):
        if "\x00" in value:
            raise ImportRefused(gettext("%(where)s: holds a NUL character (\\u0000), which no field can store.")
                                % {"where": where})
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, (int, float)):
        if abs(value) > MAX_NUMBER:
            raise ImportRefused(gettext("%(where)s: the number %(value)s is far larger than any stat.")
                                % {"where": where, "value": f"{value:.3g}"})
    elif isinstance(value, dict):
        for k, v in value.items():
            if "\x00" in k:
                raise ImportRefused(gettext("%(where)s: a key holds a NUL character (\\u0000), which no field can store.")
                                    % {"where": where})
            _check_values(v, f"{where}.{k}", depth + 1)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            _check_values(v, f"{where}[{i}]", depth + 1)


def parse(raw: bytes | str, expect: str | None = None) -> dict:
    try:
        data = json.loads(raw, parse_constant=_no_constant, parse_float=_finite)
    except ImportRefused:
        raise
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ImportRefused(gettext("Not a JSON file: %(problem)s.") % {"problem": exc}) from None
    except RecursionError:
        raise ImportRefused(gettext("Not a file this app wrote: it is nested far too deeply.")) from None
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise ImportRefused(gettext("Not a file this app wrote: a number in it has thousands of digits.")) from None
    _check_values(data, "file")
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ImportRefused(gettext("Not a %(format)s export: the top level must have \"format\": \"%(format)s\".")
                            % {"format": FORMAT})
    version = data.get("version")
    if version != VERSION:
        raise ImportRefused(gettext("Unsupported version %(version)s: this app reads version %(supported)s.")
                            % {"version": repr(version), "supported": VERSION})
    kind = data.get("kind")
    if kind not in KINDS:
        raise ImportRefused(gettext("Unknown kind %(kind)s: expected one of %(kinds)s.") % {"kind": repr(kind), "kinds": ", ".join(KINDS)})
    if expect and kind != expect:
        raise ImportRefused(gettext("This file holds a %(kind)s, but a %(expected)s was expected here.")
                            % {"kind": kind, "expected": expect})
    return data


def _obj(value, where: str) -> dict:
    if not isinstance(value, dict):
        raise ImportRefused(gettext("%(where)s: expected an object.") % {"where": where})
    return value


def _list(value, where: str) -> list:
    if not isinstance(value, list):
        raise ImportRefused(gettext("%(where)s: expected a list.") % {"where": where})
    return value


def _text(entry: dict, key: str, where: str, required=True, max_length=120) -> str:
    value = entry.get(key, "")
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise ImportRefused(gettext("%(where)s: expected text.") % {"where": f"{where}.{key}"})
    value = value.strip()
    if required and not value:
        raise ImportRefused(gettext("%(where)s: is required.") % {"where": f"{where}.{key}"})
    if max_length and len(value) > max_length:
        raise ImportRefused(gettext("%(where)s: longer than %(most)s characters.") % {"where": f"{where}.{key}", "most": max_length})
    return value


def _ruleset(key, where: str) -> str:
    try:
        registry.get(key)
    except (registry.UnknownRuleset, TypeError):
        raise ImportRefused(gettext("%(where)s: unknown ruleset %(key)s.") % {"where": where, "key": repr(key)}) from None
    return key


def _language(code) -> str:
    """The campaign's language: blank when the file has none (an export made before it existed)."""
    if code in ("", None):
        return ""
    if code not in {c for c, _name in settings.LANGUAGES}:
        raise ImportRefused(gettext("campaign.language: %(code)s is not a language this app offers.")
                            % {"code": repr(code)})
    return code


def _label(where: str, entry: dict) -> str:
    name = entry.get("name")
    return f"{where} {name!r}" if isinstance(name, str) and name else where


def _check_stats(ruleset: str, stats, where: str) -> dict:
    try:
        return clean_stats(ruleset, _obj(stats, f"{where}.stats"))
    except ValueError as exc:
        raise ImportRefused(f"{where}: {exc}") from None


def _check_templates(data: dict) -> tuple[str, list[dict]]:
    ruleset = _ruleset(data.get("ruleset"), "ruleset")
    out, seen = [], set()
    for i, entry in enumerate(_list(data.get("templates"), "templates")):
        where = f"templates[{i}]"
        entry = _obj(entry, where)
        where = _label(where, entry)
        name = _text(entry, "name", where)
        if name.lower() in seen:
            raise ImportRefused(gettext("%(where)s: the name appears twice in this file.") % {"where": where})
        seen.add(name.lower())
        out.append({"name": name, "stats": _check_stats(ruleset, entry.get("stats"), where),
                    "notes": _text(entry, "notes", where, required=False, max_length=None)})
    return ruleset, out


def _check_damage(ruleset: str, damage: dict, stats: dict, crew: list[dict], where: str) -> dict:
    """Damage a ship carries, as its ruleset reads it: a key the ruleset does not read is refused.

    The ship is set up against a copy of itself and the damage read back
    (``damage_of``): whatever did not come back was not understood.
    """
    if not damage:
        return {}
    _refuse_absent_crew(damage, len(crew), where)
    for path, value in _negatives(damage, f"{where}.damage"):
        raise ImportRefused(gettext("%(where)s: damage is what was lost or spent, a number of 0 or more; "
                                    "%(value)s is outside that range.") % {"where": path, "value": value})
    engine = registry.get(ruleset)
    crew_specs = [{"id": crew_key(i), "player": None, **c} for i, c in enumerate(crew)]

    def spec(ship_id, side, with_damage):
        return {"id": ship_id, "name": ship_id, "side": side, "fleet": side, "colour": "#3366cc", "stats": stats,
                "damage": damage if with_damage else {}, "crew": crew_specs}

    try:
        state = engine.setup({"ships": [spec("s1", "a", True), spec("s2", "b", False)], "options": {}})
        kept = engine.damage_of(state, "s1")
        problems = engine.damage_problems(state, "s1", damage)
    except (TypeError, ValueError, KeyError, AttributeError, IndexError, OverflowError):
        raise ImportRefused(gettext("%(where)s: not in the form this ruleset reads (see an exported file).")
                            % {"where": f"{where}.damage"}) from None
    dropped = dropped_entries(damage, kept, f"{where}.damage")
    if dropped:
        raise ImportRefused(gettext("%(where)s: this ruleset has no such damage (nothing would be kept of it).")
                            % {"where": dropped[0]})
    for path, why in misread_entries(damage, kept, f"{where}.damage"):
        raise ImportRefused(f"{path}: {why}")
    for problem in problems:   # a count beyond what the rules allow (issue 26: Void Points 9)
        raise ImportRefused(f"{where}.damage.{problem}")
    return damage


def _refuse_absent_crew(damage: dict, crew_count: int, where: str) -> None:
    """Refuse damage kept for a crew entry the ship's ``crew`` list does not hold (``crew[5]`` of a crew
    of three, or an installation's id such as ``c34``): whose wounds they are is not known, and a GM
    who removed that crew member from the file meant their damage to go too (docs/import-export.md)."""
    hurt = damage.get("crew")
    if not isinstance(hurt, dict):
        return
    entries = {crew_key(i) for i in range(crew_count)}
    for key in hurt:
        if key not in entries:
            held = (gettext("crew[0] to crew[%(last)s]") % {"last": crew_count - 1} if crew_count > 1
                    else "crew[0]" if crew_count else gettext("none"))
            raise ImportRefused(gettext(
                "%(where)s: no crew entry of this ship is %(key)s (its crew entries: %(held)s); damage of a crew "
                "member no longer aboard belongs to no one: remove it from the file, or add the crew member back "
                "to the ship's crew list.") % {"where": f"{where}.damage.crew.{key}", "key": repr(key), "held": held})


def _negatives(value, path: str):
    """``(path, number)`` of each number below 0 in a ship's damage: every count a ruleset carries
    back (hull or hit points lost, MV lost to thrusters, stock spent, Void Points left) is 0 or more,
    and a negative one would give a ship or a person more than their own (issue 26)."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _negatives(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _negatives(v, f"{path}[{i}]")
    elif isinstance(value, (int, float)) and not isinstance(value, bool) and value < 0:
        yield path, value


def _check_fleet(ruleset: str, entry, where: str) -> dict:
    entry = _obj(entry, where)
    where = _label(where, entry)
    colour = _text(entry, "colour", where, required=False) or "#3366cc"
    try:
        colour_validator(colour)
    except Exception:
        raise ImportRefused(gettext("%(where)s: %(colour)s is not a colour like #3366cc.")
                            % {"where": f"{where}.colour", "colour": repr(colour)}) from None
    positions = {key for key, _ in forms_for(ruleset).POSITIONS}
    ships = []
    for i, ship in enumerate(_list(entry.get("ships", []), f"{where}.ships")):
        swhere = f"{where}.ships[{i}]"
        ship = _obj(ship, swhere)
        swhere = _label(swhere, ship)
        crew = []
        for j, member in enumerate(_list(ship.get("crew", []), f"{swhere}.crew")):
            cwhere = f"{swhere}.crew[{j}]"
            member = _obj(member, cwhere)
            cwhere = _label(cwhere, member)
            position = _text(member, "position", cwhere, max_length=40)
            if position not in positions:
                raise ImportRefused(gettext("%(where)s: %(position)s is not a position of this ruleset.")
                                    % {"where": f"{cwhere}.position", "position": repr(position)})
            try:
                sheet = clean_crew(ruleset, {"characteristics": member.get("characteristics") or {},
                                             "skills": member.get("skills") or {}})
            except ValueError as exc:
                raise ImportRefused(f"{cwhere}: {exc}") from None
            crew.append({"name": _text(member, "name", cwhere), "position": position,
                         "station": _text(member, "station", cwhere, required=False, max_length=40), **sheet})
        damage = _obj(ship.get("damage") or {}, f"{swhere}.damage")
        stats = _check_stats(ruleset, ship.get("stats"), swhere)
        ships.append({
            "name": _text(ship, "name", swhere),
            "template": ship.get("template") if isinstance(ship.get("template"), str) else None,
            "stats": stats,
            "damage": _check_damage(ruleset, damage, stats, crew, swhere),
            "notes": _text(ship, "notes", swhere, required=False, max_length=None),
            "crew": crew,
        })
    return {"name": _text(entry, "name", where), "side": _text(entry, "side", where, max_length=60),
            "colour": colour, "ships": ships}


# -- import ------------------------------------------------------------------

def import_templates(raw) -> list[ShipTemplate]:
    """Add or update library templates (matched by ruleset and name)."""
    ruleset, entries = _check_templates(parse(raw, "templates"))
    with transaction.atomic():
        out = []
        for e in entries:
            template, _ = ShipTemplate.objects.update_or_create(
                ruleset=ruleset, name=e["name"], defaults={"stats": e["stats"], "notes": e["notes"]})
            out.append(template)
    return out


def _create_fleet(campaign: Campaign, data: dict) -> Fleet:
    fleet = Fleet.objects.create(campaign=campaign, name=data["name"], side=data["side"], colour=data["colour"])
    templates = {t.name: t for t in ShipTemplate.objects.for_ruleset(campaign.ruleset)}
    for s in data["ships"]:
        ship = Ship.objects.create(
            campaign=campaign, fleet=fleet, template=templates.get(s["template"]), name=s["name"],
            stats=s["stats"], damage={}, notes=s["notes"])
        crew = [CrewMember.objects.create(ship=ship, **c) for c in s["crew"]]
        if s["damage"]:
            # The file names crew members by their place in the list; the ship, by their new ids.
            ship.damage = _rekey(s["damage"], {crew_key(i): c.setup_spec()["id"] for i, c in enumerate(crew)})
            ship.save(update_fields=["damage"])
    return fleet


def import_fleet(raw, campaign: Campaign) -> Fleet:
    data = parse(raw, "fleet")
    ruleset = _ruleset(data.get("ruleset"), "ruleset")
    if ruleset != campaign.ruleset:
        raise ImportRefused(gettext("ruleset: this fleet is for %(fleet)s, the campaign plays %(campaign)s.")
                            % {"fleet": repr(ruleset), "campaign": repr(campaign.ruleset)})
    fleet = _check_fleet(ruleset, data.get("fleet"), "fleet")
    if campaign.fleets.filter(name__iexact=fleet["name"]).exists():
        raise ImportRefused(gettext("fleet %(name)s: the campaign already has a fleet of that name.")
                            % {"name": repr(fleet["name"])})
    with transaction.atomic():
        return _create_fleet(campaign, fleet)


def import_campaign(raw, gm) -> Campaign:
    data = parse(raw, "campaign")
    entry = _obj(data.get("campaign"), "campaign")
    ruleset = _ruleset(entry.get("ruleset"), "campaign.ruleset")
    name = _text(entry, "name", "campaign")
    description = _text(entry, "description", "campaign", required=False, max_length=None)
    language = _language(entry.get("language", ""))
    fleets, seen = [], set()
    for i, f in enumerate(_list(entry.get("fleets", []), "campaign.fleets")):
        fleet = _check_fleet(ruleset, f, f"campaign.fleets[{i}]")
        if fleet["name"].lower() in seen:
            raise ImportRefused(gettext("%(where)s: the name appears twice in this file.")
                                % {"where": f"campaign.fleets[{i}] {fleet['name']!r}"})
        seen.add(fleet["name"].lower())
        fleets.append(fleet)
    with transaction.atomic():
        campaign = Campaign.create_for(gm, name=name, ruleset=ruleset, description=description,
                                       language=language)
        for fleet in fleets:
            _create_fleet(campaign, fleet)
    return campaign
