"""Look-ups every rule system needs over a setup spec or a state: sides in order, by id.

Works on dicts (a setup spec's ``ships``) and on objects with ``id``/``side`` attributes
(a state's ships and crews) alike.
"""
from __future__ import annotations

from typing import Any, Iterable


def _get(item: Any, name: str):
    return item[name] if isinstance(item, dict) else getattr(item, name)


def sides_in_order(ships: Iterable) -> list[str]:
    """The sides in the order their first ship appears (the setup's order is the GM's)."""
    seen: list[str] = []
    for ship in ships:
        side = _get(ship, "side")
        if side not in seen:
            seen.append(side)
    return seen


def by_id(items: Iterable, item_id: str):
    """The item whose id is ``item_id``; KeyError naming it otherwise."""
    for item in items:
        if _get(item, "id") == item_id:
            return item
    raise KeyError(f"No '{item_id}'.")


def index_of(items, item_id: str) -> int:
    """The position of the item whose id is ``item_id`` (for copy-on-write replacement)."""
    for index, item in enumerate(items):
        if _get(item, "id") == item_id:
            return index
    raise KeyError(f"No '{item_id}'.")


#: how many remembered places a ``places`` dict of :func:`remembered_place` keeps (a long-running process
#: meets many fights, whose ids differ): past it the dict is emptied and filled again
PLACES_KEPT = 4096


def remembered_place(items, item_id: str, places: dict) -> int | None:
    """The position of the item (with an ``id`` attribute) whose id is ``item_id`` in ``items``, or None.

    ``places`` remembers where each id was last found.  A state's lists keep their order from step to
    step and ids are unique in a fight, so the remembered place is tried first and the id there
    checked: a wrong guess (another fight, a list that changed) costs one search, never a wrong answer.
    For the rule systems' hottest look-ups (a ship or a person by id, hundreds of times a battle)."""
    i = places.get(item_id)
    if i is not None and i < len(items) and items[i].id == item_id:
        return i
    for i, item in enumerate(items):
        if item.id == item_id:
            if len(places) >= PLACES_KEPT:
                places.clear()
            places[item_id] = i
            return i
    return None


def demo_setup(ruleset, options: dict | None = None) -> dict:
    """A setup spec of the system's demo fleets, as seed_demo builds them (benchmarks, tests).

    Ships take their template's stats; crews their numbers; no player, no damage.
    """
    templates = {t["name"]: t for t in ruleset.templates()}
    ships: list[dict] = []
    crew_count = 0
    for fleet in ruleset.demo_fleets():
        for ship in fleet["ships"]:
            crew: list[dict] = []
            for member in ship.get("crew", []):
                crew_count += 1
                crew.append({"id": f"c{crew_count}", "name": member["name"], "position": member["position"],
                             "station": member.get("station", ""),
                             "characteristics": dict(member.get("characteristics", {})),
                             "skills": dict(member.get("skills", {})), "player": None})
            ships.append({"id": f"s{len(ships) + 1}", "name": ship.get("name") or ship["template"],
                          "side": fleet["side"], "fleet": fleet["name"], "colour": fleet.get("colour", ""),
                          "stats": dict(templates[ship["template"]]["stats"]), "damage": {}, "crew": crew})
    return {"ships": ships, "options": dict(options or {})}
