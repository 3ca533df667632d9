"""Small builders for the Wing Commander rule tests: ships, pilots, a fight, a step with scripted dice."""
from __future__ import annotations

from rulesets.core.dice import scripted
from rulesets.core.engine import Action, apply_checked
from rulesets.wing_commander.engine import RULESET

GUNS = {"name": "Lasers", "kind": "gun", "damage": "2d6", "mv": 0}
TURRET = {"name": "Turret", "kind": "turret", "damage": "1d6", "mv": 0}
MISSILE = {"name": "Dart", "kind": "missile", "damage": "3d6", "mv": 1, "stock": 2}
TORPEDO = {"name": "Torpedo", "kind": "torpedo", "damage": "2d10", "mv": 2, "stock": 2}


def pilot(name="Pilot", flown_by="character", rank=1, months=0, wild_card=False, leader=False, skills=None):
    return {"id": f"p-{name}", "name": name, "position": "pilot",
            "characteristics": {"rank": rank, "months": months, "wild_card": wild_card, "flown_by": flown_by,
                                "leader": leader},
            "skills": skills or {}}


def ship(sid, side="blue", cls="medium", mv=0, tw=12, shields=0, hull=20, weapons=(GUNS,), crew=None, damage=None,
         **stats):
    return {"id": sid, "name": sid.capitalize(), "side": side,
            "stats": {"class": cls, "mv": mv, "tw": tw, "shields": shields, "hull": hull, "weapons": list(weapons),
                      **stats},
            "crew": crew if crew is not None else [pilot(f"{sid}-pilot")], "damage": damage or {}}


def npc(sid, side="red", tw=12, **kw):
    """An enemy flown by an NPC whose TW stands for it (2.1.4)."""
    return ship(sid, side, tw=tw, crew=[pilot(f"{sid}-npc", "npc")], **kw)


def fight(*ships, **options):
    return RULESET.setup({"ships": list(ships), "options": options})


def step(state, text: str, *faces):
    """Apply the action ``text`` with exactly ``faces`` (each must be used)."""
    dice = scripted(*faces)
    result = apply_checked(RULESET, state, Action.parse(text), dice)
    assert dice.source.remaining == 0, f"{dice.source.remaining} scripted face(s) unused"
    return result.state, result.log, dice.rolls


def text(log) -> str:
    return "\n".join(entry.text for entry in log)


def kinds(state) -> set[str]:
    return {a.kind for a in RULESET.legal_actions(state)}


def actions(state) -> list[str]:
    return [a.to_str() for a in RULESET.legal_actions(state)]


def with_ship(state, ship_id: str, **changes):
    """The state with one ship changed (a situation set up by hand, as the GM override would)."""
    from rulesets.core.state import evolve, update_by_id

    return evolve(state, ships=update_by_id(state.ships, ship_id, **changes))
