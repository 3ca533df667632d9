"""Who is looking at an encounter: the engine's :class:`Viewer` for a user and their role."""
from __future__ import annotations

from campaigns.models import Membership, Ship
from rulesets.core.engine import Viewer

from .models import Encounter


def viewer_for(user, encounter: Encounter, role: str | None) -> Viewer:
    """The GM sees everything; a player sees through the ships their characters are aboard.

    A player without a character aboard follows their side's ships.
    """
    if role == Membership.GM:
        return Viewer.gm()
    ships = [spec["id"] for spec in encounter.setup["ships"]
             if any(c.get("player") == user.pk for c in spec.get("crew", []))]
    if not ships:
        sides = {s.fleet.side for s in Ship.objects.filter(campaign=encounter.campaign, crew__player=user)
                 .select_related("fleet")}
        ships = [spec["id"] for spec in encounter.setup["ships"] if spec["side"] in sides]
    return Viewer.player(ships, user.pk)
