"""Small builders for Cepheus engine tests: ships, crews, scripted steps."""
from __future__ import annotations

from dataclasses import replace

from rulesets.cepheus.engine import RULESET
from rulesets.core.dice import Dice, ScriptedSource
from rulesets.core.engine import Action, apply_checked

AVG = {"str": 7, "dex": 7, "end": 7, "int": 7, "edu": 7, "soc": 7}  # every DM 0


def crew(cid, position, station="", chars=None, **skills):
    return {"id": cid, "name": cid.upper(), "position": position, "station": station,
            "characteristics": dict(chars or AVG), "skills": skills, "player": None}


def ship(sid, side, crew_list=(), name=None, damage=None, **stats):
    base = {"tonnage": 200, "armour": 0, "thrust": 2, "jump": 0, "sensors": "standard",
            "turrets": [{"weapons": [{"type": "pulse_laser"}]}]}
    base.update(stats)
    return {"id": sid, "name": name or sid.capitalize(), "side": side, "stats": base,
            "damage": damage or {}, "crew": list(crew_list)}


def setup(*ships, **options):
    return RULESET.setup({"ships": list(ships), "options": options})


def act(state, action, *faces, check_all_used=True):
    """Apply ``action`` (an Action or its string) with exactly ``faces``; returns the Step."""
    if isinstance(action, str):
        action = Action.parse(action)
    source = ScriptedSource(faces)
    dice = Dice(source)
    step = apply_checked(RULESET, state, action, dice)
    if check_all_used:
        assert source.remaining == 0, f"{source.remaining} scripted face(s) unused"
    step.dice = dice
    return step


def start(state, *faces):
    """Roll initiative for every side with ``faces`` (2D6 per ship, Tactics first where a Captain is)."""
    source = ScriptedSource(faces)
    dice = Dice(source)
    while state.phase == "initiative":
        state = RULESET.apply(state, RULESET.legal_actions(state)[0], dice).state
    assert source.remaining == 0, f"{source.remaining} scripted face(s) unused"
    return state


def legal(state, kind=None):
    acts = RULESET.legal_actions(state)
    return [a for a in acts if kind is None or a.kind == kind]


def kinds(state):
    return {a.kind for a in RULESET.legal_actions(state)}


def text(step):
    return "\n".join(e.text for e in step.log)


def edit_ship(state, ship_id, **changes):
    """A copy of ``state`` with one ship's fields changed (test arrangement, not a rule)."""
    ships = [replace(s, **changes) if s.id == ship_id else s for s in state.ships]
    return replace(state, ships=ships)


def duel(attacker_crew=(), defender_crew=(), a_stats=None, d_stats=None, **options):
    """Two ships, A (side blue, acts first) and B (side red), with initiative rolled: A 12, B 2."""
    a = ship("a", "blue", attacker_crew, **(a_stats or {}))
    b = ship("b", "red", defender_crew, **(d_stats or {}))
    options.setdefault("range", "short")
    state = setup(a, b, **options)
    faces = []
    for crew_list, dice in ((attacker_crew, (6, 6)), (defender_crew, (1, 1))):
        if any(c["position"] == "captain" for c in crew_list):
            faces += [4, 4]   # the Captain's Tactics: 8, Effect = Tactics skill
        faces += list(dice)
    return start(state, *faces)
