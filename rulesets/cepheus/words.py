"""Turrets, bays and their weapons in words, for the log, the GM's buttons and the ship cards.

A mount's id (``t1``, ``b2``) and a weapon's index are how the rules and the actions name them;
a person reads "turret 1", "the pulse laser in turret 1", "the two beam lasers".  Each phrase is a
message (:func:`rulesets.core.messages.msg`): an identifier, its English text and its parameters.

Pure Python: no Django import.
"""
from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from rulesets.core.messages import Message, Words, msg, msgn, render, chain

from .tables import MISSILES, WEAPONS

if TYPE_CHECKING:
    from .state import Mount, Ship, Weapon

#: how many of one kind, in words, for "the two beam lasers" (a turret holds at most three)
_NUMBERS = {2: msg("cepheus.words.two", "two"), 3: msg("cepheus.words.three", "three")}


@lru_cache(maxsize=256)
def mount_name(mount_id: str, kind: str = "") -> Words:
    """``t1`` -> "turret 1", ``b2`` -> "bay 2" (an id the ship may not have is left as it is): one message
    for each mount, the same every time a rule names it."""
    code = str(mount_id or "")
    if len(code) > 1 and code[0] in "tb" and code[1:].isdigit():
        if (kind or ("turret" if code[0] == "t" else "bay")) == "turret":
            return msg("cepheus.words.turret", "turret {n}", n=code[1:])
        return msg("cepheus.words.bay", "bay {n}", n=code[1:])
    return code


def nth_weapon(label: Words, n: int) -> Message:
    """One of two weapons of a kind in a turret: "missile rack 2"."""
    return msg("cepheus.words.nth_weapon", "{weapon} {n}", weapon=label, n=n)


def mount_title(mount_id: str) -> str:
    """"Turret 1", "Bay 2": a mount at the start of a line or a table cell."""
    words = render(mount_name(mount_id))
    return words[:1].upper() + words[1:]


def station_name(station: str) -> Words:
    """A crew member's station (``t1``, ``turret-1``) in words; no station is ""."""
    if not station:
        return ""
    code = str(station)
    if "-" in code:
        head, _, n = code.partition("-")
        code = f"{head[:1]}{n}"
    return mount_name(code)


def weapon_list(types: list[str]) -> Words:
    """Weapons (their types) as a noun phrase: ["pulse_laser"] -> "the pulse laser", ["beam_laser",
    "beam_laser"] -> "the two beam lasers", ["pulse_laser", "sandcaster"] -> "the pulse laser and
    the sandcaster"."""
    groups: dict[str, int] = {}
    for key in types:
        groups[key] = groups.get(key, 0) + 1
    parts = [msg("cepheus.words.weapon_one", "the {weapon}", weapon=WEAPONS[key].name) if n == 1 else
             msg("cepheus.words.weapon_many", "the {count} {weapons}", count=_NUMBERS.get(n, str(n)),
                 weapons=WEAPONS[key].names)
             for key, n in groups.items()]
    if len(parts) == 1:
        return parts[0]
    return msg("cepheus.words.and", "{first} and {last}", first=listing(parts[:-1]), last=parts[-1])


def weapons_in(mount: Mount, indices) -> Message:
    """"the pulse laser in turret 4", "the two beam lasers in turret 2"."""
    return _weapons_in(tuple(mount.weapons[i].type for i in indices), mount.id, mount.kind)


@lru_cache(maxsize=256)
def _weapons_in(types: tuple[str, ...], mount_id: str, kind: str) -> Message:
    return msg("cepheus.words.weapons_in", "{weapons} in {mount}", weapons=weapon_list(list(types)),
               mount=mount_name(mount_id, kind))


def weapon_in(mount: Mount, index: int) -> Words:
    """One weapon of a mount: "the missile rack in turret 3" ("missile rack 2" when the turret has two)."""
    types = [w.type for w in mount.weapons]
    if not 0 <= index < len(types):
        return mount_name(mount.id, mount.kind)
    key = types[index]
    label: Words = WEAPONS[key].name
    if types.count(key) > 1:
        label = nth_weapon(label, types[:index + 1].count(key))
    return msg("cepheus.words.weapon_in", "the {weapon} in {mount}", weapon=label,
               mount=mount_name(mount.id, mount.kind))


def weapon_sheet(weapon: Weapon) -> Words:
    """A weapon on a ship card: "pulse laser", "sandcaster (3 loaded, 6 in store)",
    "missile rack, smart missiles (2 loaded, 6 in store)"."""
    kind = WEAPONS[weapon.type]
    label: Words = kind.name
    if weapon.missile and weapon.missile != "standard":
        label = msg("cepheus.words.missile_kind", "{weapon}, {missiles}", weapon=label,
                    missiles=MISSILES[weapon.missile]["many"] if weapon.missile in MISSILES else weapon.missile)
    if not kind.ammo:
        return label
    return msg("cepheus.words.ammo", "{weapon} ({loaded} loaded, {reserve} in store)", weapon=label,
               loaded=weapon.loaded, reserve=weapon.reserve)


#: a craft under 50 tons: no Hull points at all
NO_HULL = msg("cepheus.words.no_hull", "none (under 50 t)")


def points(now: int, most: int) -> Words:
    """Hull or Structure as a card shows it: "3/4".  A craft under 50 tons has no Hull points at all
    (Danno: one per 50 tons, rounded down): "none (under 50 t)", not "0/0"."""
    if most <= 0:
        return NO_HULL
    return f"{now}/{most}"


def mount_of(ship: Ship, mount_id: str) -> Words:
    """A mount of ``ship`` with its weapons: "turret 1 (pulse laser, sandcaster)"."""
    m = ship.mount(mount_id)
    if m is None:
        return mount_name(mount_id)
    return msg("cepheus.words.mount_with", "{mount} ({weapons})", mount=mount_name(m.id, m.kind),
               weapons=listing(WEAPONS[w.type].name for w in m.weapons))


def rounds(n: int) -> Message:
    """"1 round", "3 rounds"."""
    return msgn("cepheus.words.rounds", "{count} round", "{count} rounds", n)


def turns(n: int) -> Message:
    """"1 turn", "3 turns"."""
    return msgn("cepheus.words.turns", "{count} turn", "{count} turns", n)


def hits(n: int) -> Message:
    """"1 hit", "3 hits"."""
    return msgn("cepheus.words.hits", "{count} hit", "{count} hits", n)


def smart_missiles(n: int) -> Message:
    """"1 smart missile", "3 smart missiles"."""
    return msgn("cepheus.words.smart_missiles", "{count} smart missile", "{count} smart missiles", n)


def listing(items) -> Words:
    """Words joined by commas, as one message: "Corsair (9), Raider (7)" ("" for none)."""
    return chain(items, "cepheus.words.list", "{first}, {then}")


def either(items) -> Words:
    """Words joined by "or", as one message: "Pilot or Captain" ("" for none)."""
    return chain(items, "cepheus.words.or", "{first} or {then}")
