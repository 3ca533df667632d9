"""Builders for Dropfleet rule tests: ships and states in a few words, scripted dice."""
from __future__ import annotations

import dataclasses

from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.engine import Action
from rulesets.dropfleet import ships as ship_rules
from rulesets.dropfleet.engine import RULESET
from rulesets.dropfleet.state import DropfleetState, Effect, Profile, Ship, Weapon

GUN = Weapon("g", "Railgun", 4, 3, "1", "F")


def weapon(**changes) -> Weapon:
    return dataclasses.replace(GUN, **changes)


def profile(**changes) -> Profile:
    base = Profile(name="Test", tonnage="M", scan=12, signature=6, thrust=10, hull=10, armour=(4,), pd=0,
                   weapons=(GUN,))
    if "weapons" in changes and isinstance(changes["weapons"], Weapon):
        changes["weapons"] = (changes["weapons"],)
    return dataclasses.replace(base, **changes)


def ship(id="t", side="red", x=0.0, y=0.0, heading=0, layer="high", hull=None, effects=(), start=None, **prof) -> Ship:
    """A ship; ``start`` is its starting (profile) Hull, ``hull`` what it has left."""
    if start is not None:
        prof["hull"] = start
    own = {k: prof.pop(k) for k in ("order", "silent", "shields_up", "spike", "weapons_offline", "group") if k in prof}
    p = profile(**prof)
    own.setdefault("group", id)
    return Ship(id=id, name={"a": "Attacker", "t": "Target"}.get(id, id.capitalize()), side=side, **own,
                profile=p, x=float(x), y=float(y), heading=heading, layer=layer,
                hull=p.hull if hull is None else hull,
                effects=tuple(Effect(e) if isinstance(e, str) else e for e in effects))


def attacker(**kw) -> Ship:
    kw.setdefault("y", 10.0)
    return ship("a", "blue", **kw)


def state(*ships_, phase="fire", group=None, **kw) -> DropfleetState:
    ships_ = list(ships_)
    first = ships_[0]
    sides = tuple(dict.fromkeys(s.side for s in ships_))
    return DropfleetState(ships=ships_, phase=phase, group=group or first.group, side=first.side, sides=sides,
                          first_side=sides[0], **kw)


def dice(*faces) -> Dice:
    return Dice(ScriptedSource(list(faces)))


def step(st, text: str, *faces):
    """Apply an action string with scripted faces; every face must be used."""
    d = dice(*faces)
    result = RULESET.apply(st, Action.parse(text), d)
    assert d.source.remaining == 0, f"{d.source.remaining} scripted face(s) unused"
    return result


def fire(st, *faces, weapon_id="g", attacker_id="a", target_id="t"):
    """Declare one weapon system and open fire: the state after the attack and its log text."""
    st = step(st, f"fire actor={attacker_id} weapon={weapon_id} target={target_id}").state
    result = step(st, f"open_fire actor={attacker_id}", *faces)
    return result.state, " ".join(e.text for e in result.log)


def work(st, *faces) -> ship_rules.Work:
    return ship_rules.Work(st, dice(*faces))


def get(st, ship_id):
    return next(s for s in st.ships if s.id == ship_id)
