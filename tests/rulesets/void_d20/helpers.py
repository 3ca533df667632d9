"""Small builders for Void d20 rule tests: people, ships and states set up by hand."""
from __future__ import annotations

from rulesets.core.dice import scripted
from rulesets.void_d20.model import Combatant, Item, Module, Ship, ShipWeapon, VoidState, pair_key

PISTOL = Item("weapon", "Laser pistol", "weapon", 3, 3, "tech", "d8")
BLADE = Item("weapon", "Vibro blade", "weapon", 3, 3, "melee", "d6")
RIFLE = Item("weapon", "Slug rifle", "weapon", 3, 3, "ranged", "d10")
SUIT = Item("armour", "Vacc suit", "armour", 3, 3, bonus=1)


def shield(charges=2):
    return Item("shield", "energy shield", "shield", 3, 3, charges=charges)


def medkit(charges=1):
    return Item("medkit", "medkit", "medkit", 3, 3, charges=charges)


def char(cid="ann", name="Ann", side="crew", ship="s1", aboard=None, **kw) -> Combatant:
    kw.setdefault("items", (PISTOL,))
    kw.setdefault("hp", 8)
    kw.setdefault("max_hp", kw["hp"])
    return Combatant(id=cid, name=name, side=side, ship=ship, aboard=aboard or ship, kind="character", **kw)


def foe(cid="r1", name="Raider", side="raiders", ship="s2", aboard=None, squad=None, **kw) -> Combatant:
    kw.setdefault("items", (Item("weapon", "Rivet gun", "weapon", 3, 3, "ranged", "d6"),))
    kw.setdefault("hp", 6)
    kw.setdefault("max_hp", kw["hp"])
    kw.setdefault("dr", 11)
    return Combatant(id=cid, name=name, side=side, ship=ship, aboard=aboard or ship, kind="enemy",
                     squad=squad or cid, **kw)


def vessel(sid="s1", name="Kestrel", side="crew", **kw) -> Ship:
    kw.setdefault("frame", 10)
    kw.setdefault("max_frame", kw["frame"])
    kw.setdefault("speed", 10)
    kw.setdefault("weapons", (ShipWeapon("w1", "Autocannon", "d8", "standard"),))
    kw.setdefault("modules", (Module("engines"), Module("sensors")))
    return Ship(id=sid, name=name, side=side, **kw)


def aboard_state(*people, where="s1") -> VoidState:
    """A boarding fight in ship ``where`` (personal rounds), everyone in the order given."""
    ships = (vessel("s1", "Kestrel", "crew"), vessel("s2", "Grinder", "raiders"))
    people = tuple(p if p.aboard == where else p for p in people)
    return VoidState(ships=ships, combatants=people, bands={pair_key("s1", "s2"): "docked"}, round=1,
                     scale="personal", phase="turn", order=tuple(p.id for p in people), turn=0, slot=0)


def space_state(*ships, people=(), band="medium", order=None) -> VoidState:
    bands = {pair_key(a.id, b.id): band for i, a in enumerate(ships) for b in ships[i + 1:] if a.side != b.side}
    return VoidState(ships=tuple(ships), combatants=tuple(people), bands=bands, round=1, scale="ship", phase="turn",
                     order=order or tuple(s.id for s in ships), turn=0, slot=0)


def dice(*faces):
    """Scripted dice; ``used_up(d)`` tells whether a rule took every face given."""
    return scripted(*faces)


def used_up(d) -> bool:
    return d.source.remaining == 0


def person(state, cid):
    return next(c for c in state.combatants if c.id == cid)


def boat(state, sid):
    return next(s for s in state.ships if s.id == sid)
