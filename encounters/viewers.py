"""Who is looking at an encounter: the engine's :class:`Viewer` for a user and their role."""
from __future__ import annotations

from campaigns.models import Membership, Ship
from rulesets.core.engine import Viewer

from .models import Encounter


def viewer_for(user, encounter: Encounter, role: str | None) -> Viewer:
    """The GM sees everything; a player sees through the ships their characters are aboard.

    A player without a character aboard follows their side's ships.
    """
    return viewers_for(encounter, {user.pk: role})[user.pk]


def viewers_for(encounter: Encounter, roles: dict[int, str | None]) -> dict[int, Viewer]:
    """:func:`viewer_for` of many users at once (a live page each), in at most one query."""
    viewers: dict[int, Viewer] = {}
    ashore: list[int] = []  # players with no character aboard: they follow their side
    for user_id, role in roles.items():
        if role == Membership.GM:
            viewers[user_id] = Viewer.gm()
            continue
        ships = [spec["id"] for spec in encounter.setup["ships"]
                 if spec.get("player") == user_id or any(c.get("player") == user_id for c in spec.get("crew", []))]
        if ships:
            viewers[user_id] = Viewer.player(ships, user_id)
        else:
            ashore.append(user_id)
    if ashore:
        sides: dict[int, set] = {user_id: set() for user_id in ashore}
        for user_id, side in (Ship.objects.filter(campaign=encounter.campaign_id, crew__player__in=ashore)
                              .values_list("crew__player", "fleet__side")):
            sides[user_id].add(side)
        for user_id, side in (Ship.objects.filter(campaign=encounter.campaign_id, player__in=ashore)
                              .values_list("player", "fleet__side")):
            sides[user_id].add(side)
        for user_id in ashore:
            ships = [spec["id"] for spec in encounter.setup["ships"] if spec["side"] in sides[user_id]]
            viewers[user_id] = Viewer.player(ships, user_id)
    return viewers
