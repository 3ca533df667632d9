"""The state of a Void d20 fight: ships, the people aboard them, the range bands.

Plain frozen dataclasses (tuples, no mutation): rules make changed copies with
:mod:`rulesets.core.state`, sharing everything they do not change.  The whole state
round-trips through JSON (:mod:`rulesets.core.serial`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: combatant statuses: who still stands, who is down for a while, who is out for good
STANDING = ("ok", "shock")           # in the fight (shock: sits it out for now)
DOWN = ("bleeding", "unconscious")   # alive, not acting, can be helped
OUT = ("dead", "fled", "surrendered")


@dataclass(frozen=True)
class Item:
    """A piece of gear with Condition (Потеря состояния): a weapon, armour, a shield, a medkit."""

    id: str
    name: str
    kind: str                 # "weapon", "armour", "shield", "medkit"
    condition: int = 3
    max_condition: int = 3
    attack: str = ""          # weapon: "melee", "ranged" or "tech"
    damage: str = ""          # weapon: damage dice such as "d8"
    bonus: int = 0            # armour: + DR while its Condition is above 0
    charges: int = 0          # shield and medkit charges


@dataclass(frozen=True)
class Combatant:
    """A character (full stat line) or one member of an enemy squad (Враги в бою)."""

    id: str
    name: str
    side: str
    ship: str                 # the ship whose crew they are
    aboard: str               # the ship they are in now (boarders go across)
    kind: str = "character"   # "character" or "enemy"
    position: str = "crew"
    squad: str = ""           # the crew entry a squad member comes from (morale is per squad)
    body: int = 0
    agility: int = 0
    mind: int = 0
    technology: int = 0
    hp: int = 6
    max_hp: int = 6
    dr: int = 12
    void: int = 0
    attack: int = 0           # enemies: the attack modifier of their stat line
    morale: int = 7           # enemies: the morale value
    items: tuple[Item, ...] = ()
    cover: str = "none"
    status: str = "ok"
    timer: int = 0            # rounds left of bleeding, unconsciousness or shock
    initiative: int | None = None
    notes: tuple[str, ...] = ()
    player: int | None = None

    @property
    def standing(self) -> bool:
        return self.status in STANDING

    @property
    def alive(self) -> bool:
        return self.status not in OUT


@dataclass(frozen=True)
class Module:
    name: str
    out: bool = False


@dataclass(frozen=True)
class ShipWeapon:
    id: str
    name: str
    damage: str
    reach: str = "standard"   # "standard", "heavy", "missile", "close"
    out: bool = False


@dataclass(frozen=True)
class Ship:
    id: str
    name: str
    side: str
    frame: int
    max_frame: int
    speed: int
    defence: int = 12
    weapons: tuple[ShipWeapon, ...] = ()
    modules: tuple[Module, ...] = ()
    spare_parts: int = 0
    initiative: int | None = None
    evading: bool = False
    weakness: tuple[str, ...] = ()      # ships whose weakness its sensors found
    command: str = ""                   # the station the captain gave +1 this round
    catastrophes: tuple[str, ...] = ()
    reactor: int | None = None          # rounds until the reactor explodes
    reboot: int = 0                     # rounds the systems stay down
    destroyed: bool = False
    escaped: bool = False
    breached: tuple[str, ...] = ()      # ships whose lock this ship's boarders broke

    @property
    def drifting(self) -> bool:
        return self.frame <= 0

    def module_out(self, name: str) -> bool:
        for m in self.modules:
            if m.out and m.name == name:
                return True
        return False

    @property
    def in_space(self) -> bool:
        return not self.destroyed and not self.escaped


@dataclass(frozen=True)
class VoidState:
    ships: tuple[Ship, ...] = ()
    combatants: tuple[Combatant, ...] = ()
    bands: dict[str, str] = field(default_factory=dict)   # "a|b" (ids sorted) -> band key
    round: int = 0
    scale: str = "ship"          # "ship" rounds or "personal" rounds (a boarding fight)
    phase: str = "initiative"    # "initiative" (the round begins) or "turn"
    order: tuple[str, ...] = ()  # who acts this round, in order (ship or combatant ids)
    turn: int = 0                # index into order
    slot: int = 0                # personal: actions used; ship: the station reached
    morale_checked: tuple[str, ...] = ()
    over: bool = False
    winner: str | None = None
    max_rounds: int = 30
    options: dict[str, str] = field(default_factory=dict)
    #: who stands where (:class:`.common.Standing`): worked out from ``combatants`` and ``ships`` by the
    #: helpers that change them (common.py); None until then.  Derived: neither saved nor compared.
    standing: Any = field(default=None, init=False, compare=False, repr=False, metadata={"derived": True})

    @property
    def active(self) -> str:
        if self.over or self.phase != "turn" or self.turn >= len(self.order):
            return ""
        actor = self.order[self.turn]
        for item in (self.ships if self.scale == "ship" else self.combatants):
            if item.id == actor:
                return item.name
        return ""


def pair_key(a: str, b: str) -> str:
    return f"{a}|{b}" if a < b else f"{b}|{a}"
