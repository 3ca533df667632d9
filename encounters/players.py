"""Players take their own characters' steps (issue 22): who plays the character who acts now.

The rule system names who decides each action (``RulesetBase.acting``: a crew member, a crew
position aboard a ship, or the ship); this module maps that to the campaign's links -- a
crew member's ``player``, else the ship's ``player`` (the player who commands the ship takes
the steps of positions nobody plays) -- and to nobody (the GM) where no player is linked.
No system-specific branch: only the :class:`~rulesets.core.contract.Actor` and the setup.

The links are read from the campaign as they are now (one query each for crew and ships),
not from the encounter's setup snapshot: a player the GM links or unlinks mid-fight, or
removes from the campaign, gains or loses their steps at the next request.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from campaigns.models import CrewMember, Membership, Ship
from rulesets.core.engine import Action

from .models import Encounter


@dataclass
class Links:
    """The encounter's characters and who plays them now."""

    crew_player: dict[str, int] = field(default_factory=dict)   # crew setup id -> user id
    ship_player: dict[str, int] = field(default_factory=dict)   # ship setup id -> user id
    usernames: dict[int, str] = field(default_factory=dict)
    crew: dict[str, dict] = field(default_factory=dict)          # crew setup id -> spec (with "ship")
    ships: dict[str, dict] = field(default_factory=dict)         # ship setup id -> spec

    @property
    def anyone(self) -> bool:
        return bool(self.crew_player or self.ship_player)


def _pk(setup_id: str, prefix: str) -> int | None:
    digits = setup_id[1:] if setup_id.startswith(prefix) else ""
    return int(digits) if digits.isdigit() else None


def links_of(encounter: Encounter) -> Links:
    out = Links()
    crew_pks, ship_pks = {}, {}
    for spec in encounter.setup.get("ships", []):
        out.ships[spec["id"]] = spec
        pk = _pk(spec["id"], "s")
        if pk is not None:
            ship_pks[pk] = spec["id"]
        for c in spec.get("crew", []):
            if c.get("id"):
                out.crew[c["id"]] = {**c, "ship": spec["id"]}
                pk = _pk(c["id"], "c")
                if pk is not None:
                    crew_pks[pk] = c["id"]
    players = dict(Membership.objects.filter(campaign=encounter.campaign_id, role=Membership.PLAYER)
                   .values_list("user_id", "user__username"))
    if crew_pks:
        for pk, user in CrewMember.objects.filter(pk__in=crew_pks, ship__campaign=encounter.campaign_id,
                                                  player__isnull=False).values_list("pk", "player_id"):
            if user in players:
                out.crew_player[crew_pks[pk]] = user
    if ship_pks:
        for pk, user in Ship.objects.filter(pk__in=ship_pks, campaign=encounter.campaign_id,
                                            player__isnull=False).values_list("pk", "player_id"):
            if user in players:
                out.ship_player[ship_pks[pk]] = user
    out.usernames = players
    return out


@dataclass(frozen=True)
class Control:
    """Who takes an action: the user (None: the GM) and the character's name."""

    user: int | None
    character: str


def control_of(links: Links, actor) -> Control:
    """The player of ``actor`` (a :class:`rulesets.core.contract.Actor`, or None: the GM's)."""
    if actor is None:
        return Control(None, "")
    if actor.character:
        spec = links.crew.get(actor.character)
        ship = actor.ship or (spec or {}).get("ship", "")
        user = links.crew_player.get(actor.character) or links.ship_player.get(ship)
        return Control(user, (spec or {}).get("name") or links.ships.get(ship, {}).get("name", ""))
    ship = links.ships.get(actor.ship, {})
    if actor.position:
        crew = [c for c in ship.get("crew", []) if c.get("position") == actor.position and c.get("id")]
        if actor.station:
            at = [c for c in crew if (c.get("station") or "").strip().lower() == actor.station.strip().lower()]
            crew = at or crew
        played = next((c for c in crew if links.crew_player.get(c["id"])), None)
        if played is not None:
            return Control(links.crew_player[played["id"]], played.get("name", ""))
        user = links.ship_player.get(actor.ship)
        return Control(user, ship.get("name", "") if user is None or not crew else crew[0].get("name", ""))
    return Control(links.ship_player.get(actor.ship), ship.get("name", ""))


@dataclass
class Turn:
    """Who may take which action now."""

    owner: dict[str, Control] = field(default_factory=dict)  # action text -> who takes it
    actions: list[Action] = field(default_factory=list)

    def mine(self, user_id: int) -> list[Action]:
        return [a for a in self.actions if self.owner[a.to_str()].user == user_id]

    def characters_of(self, user_id: int) -> list[str]:
        out: list[str] = []
        for a in self.mine(user_id):
            name = self.owner[a.to_str()].character
            if name and name not in out:
                out.append(name)
        return out

    @property
    def players(self) -> list[Control]:
        """Each (player, character) with a step now, in the order of the actions."""
        out: list[Control] = []
        for a in self.actions:
            c = self.owner[a.to_str()]
            if c.user is not None and c not in out:
                out.append(c)
        return out

    @property
    def gm_has_steps(self) -> bool:
        """Whether some action now is nobody's but the GM's (not counting the GM's tools)."""
        return any(self.owner[a.to_str()].user is None for a in self.actions)


def turn_of(encounter: Encounter, state, links: Links | None = None) -> Turn:
    """Who may take which of the legal actions of ``state`` (the override is always the GM's)."""
    out = Turn()
    if getattr(state, "over", False):
        return out
    links = links if links is not None else links_of(encounter)
    engine = encounter.engine
    for action in engine.legal_actions(state):
        if action.kind == "override":
            continue
        out.owner[action.to_str()] = control_of(links, engine.acting(state, action))
        out.actions.append(action)
    return out


def owner_of(encounter: Encounter, state, action: Action, links: Links | None = None) -> Control:
    """Who takes ``action`` at ``state`` (legal or not: the caller checks legality)."""
    links = links if links is not None else links_of(encounter)
    return control_of(links, encounter.engine.acting(state, action))


def waiting_for(encounter: Encounter, state, links: Links | None = None) -> list[dict]:
    """The players the step waits for, with their characters (players acting on only)."""
    if not encounter.players_act:
        return []
    links = links if links is not None else links_of(encounter)
    if not links.anyone:
        return []
    turn = turn_of(encounter, state, links)
    out: dict[int, dict] = {}
    for c in turn.players:
        entry = out.setdefault(c.user, {"player": links.usernames.get(c.user, ""), "characters": []})
        if c.character and c.character not in entry["characters"]:
            entry["characters"].append(c.character)
    return list(out.values())


#: a chance as the player's page words it (templates/encounters/live.html#chance), for odds a
#: character cannot know exactly (hidden enemy values): (lowest probability, key), highest first
BANDS = ((0.999, "certain"), (0.9, "almost"), (0.65, "likely"), (0.35, "even"), (0.1, "unlikely"),
         (0.000001, "longshot"), (0.0, "none"))


def band(probability: float) -> str:
    """The key of the band ``probability`` falls in."""
    for low, key in BANDS:
        if probability >= low:
            return key
    return BANDS[-1][1]
