"""What a viewer sees of a Dropfleet fight: plain words and numbers for the templates.

The GM sees everything; a player sees every ship on the table, its layer, heading, spikes
and damage, but not the other side's declared fire before it is resolved (its hidden choice).
The board's SVG numbers (inches scaled to pixels, arcs as paths) are worked out here.
The words are messages (rulesets.core.messages): the template renders them in the reader's
language when it prints them.
"""
from __future__ import annotations

import math

from rulesets.core.engine import Action
from rulesets.core.messages import msg, msgn, chain

from . import geometry
from . import sequence
from . import ships as ship_rules
from . import tables
from . import terms
from .damage import FATES
from .engine import declared_words

PX = 10  # pixels per inch on the board
PHASES = {"orders": msg("dropfleet.phase.orders", "orders"), "move": msg("dropfleet.phase.move", "movement"),
          "fire": msg("dropfleet.phase.fire", "fire"), "pd": msg("dropfleet.phase.pd", "point defence"),
          "end": msg("dropfleet.phase.end", "End phase"), "over": msg("dropfleet.phase.over", "over")}

#: how a ship left play, or that it is in play (a ship card's tag)
STATUS = {**FATES, "removed by the GM": msg("dropfleet.fate.removed_by_gm", "removed by the GM"),
          "crippled": msg("dropfleet.status.crippled", "crippled"), "in play": msg("dropfleet.status.in_play", "in play")}
_SPECIALS = (("close_action", msg("dropfleet.weapon.close_action", "close action")),
             ("launch", msg("dropfleet.weapon.launch", "launch")), ("particle", msg("dropfleet.weapon.particle", "particle")))

#: a ship's facts as the other ships' cards name them (encounters/templatetags/words.facts)
FACT_LABELS = {
    "group": msg("dropfleet.fact.group", "Group"),
    "class": msg("dropfleet.fact.class", "Class"),
    "tonnage": msg("dropfleet.fact.tonnage", "Tonnage"),
    "hull": msg("dropfleet.fact.hull", "Hull"),
    "max_hull": msg("dropfleet.fact.max_hull", "Max hull"),
    "in_play": msg("dropfleet.fact.in_play", "In play"),
    "x": msg("dropfleet.fact.x", "X"),
    "y": msg("dropfleet.fact.y", "Y"),
    "px": msg("dropfleet.fact.px", "Px"),
    "py": msg("dropfleet.fact.py", "Py"),
    "heading": msg("dropfleet.fact.heading", "Heading"),
    "layer": msg("dropfleet.fact.layer", "Layer"),
    "layer_label": msg("dropfleet.fact.layer_label", "Layer label"),
    "spike": msg("dropfleet.fact.spike", "Spike"),
    "silent": msg("dropfleet.fact.silent", "Silent"),
    "signature": msg("dropfleet.fact.signature", "Signature"),
    "scan": msg("dropfleet.fact.scan", "Scan"),
    "thrust": msg("dropfleet.fact.thrust", "Thrust"),
    "armour": msg("dropfleet.fact.armour", "Armour"),
    "passive": msg("dropfleet.fact.passive", "Passive"),
    "switchable": msg("dropfleet.fact.switchable", "Switchable"),
    "shields_up": msg("dropfleet.fact.shields_up", "Shields up"),
    "pd": msg("dropfleet.fact.pd", "Pd"),
    "order": msg("dropfleet.fact.order", "Order"),
    "dreadnought": msg("dropfleet.fact.dreadnought", "Dreadnought"),
    "atmospheric": msg("dropfleet.fact.atmospheric", "Atmospheric"),
    "monitor": msg("dropfleet.fact.monitor", "Monitor"),
    "effects": msg("dropfleet.fact.effects", "Effects"),
    "weapons_offline": msg("dropfleet.fact.weapons_offline", "Weapons offline"),
    "weapons": msg("dropfleet.fact.weapons", "Weapons"),
    "active": msg("dropfleet.fact.active", "Active"),
    "name_dx": msg("dropfleet.fact.name_dx", "Name dx"),
    "name_dy": msg("dropfleet.fact.name_dy", "Name dy"),
    "name_anchor": msg("dropfleet.fact.name_anchor", "Name anchor"),
    "label": msg("dropfleet.fact.label", "Label"),
}


def _listed(words: list):
    """Words one after the other, "a, b, c" (a message; "" for none)."""
    return chain(words, "dropfleet.words.list", "{first}, {then}")


def _armour(ship):
    """ "5+ (passive 4+)": the armour save, and the passive save where the ship has one."""
    text = "/".join(f"{a}+" for a in (ship_rules.armour_save(ship),))
    passive = ship_rules.passive_save(ship)
    return msg("dropfleet.view.armour_passive", "{armour} (passive {passive}+)", armour=text, passive=passive) if passive else text


def _weapon(ship, weapon, enemies):
    specials = [word for flag, word in _SPECIALS if getattr(weapon, flag)]
    if weapon.calibre:
        specials.append(msg("dropfleet.weapon.calibre", "calibre {calibre}", calibre=weapon.calibre))
    sig = max((ship_rules.signature(e) for e in enemies), default=0)
    return {"id": weapon.id, "name": weapon.name, "lock": f"{weapon.lock}+", "attacks": weapon.attacks,
            "damage": weapon.damage, "arc": terms.ARC.get(weapon.arc, weapon.arc), "specials": _listed(specials),
            "usable": ship_rules.weapon_usable(ship, weapon.id),
            "reach": ship_rules.scan(ship) if weapon.close_action else ship_rules.scan(ship) + sig}


def _wedge(x, y, heading, arc, radius):
    """SVG path of a weapon arc of ``radius`` inches."""
    cx, cy = x * PX, y * PX
    r = radius * PX
    paths = []
    for start, end in geometry.arc_wedges(arc, heading):
        width = (end - start) % 360 or 360
        if width >= 359.9:
            paths.append(f"M {cx - r:.1f} {cy:.1f} a {r:.1f} {r:.1f} 0 1 0 {2 * r:.1f} 0 a {r:.1f} {r:.1f} 0 1 0 {-2 * r:.1f} 0")
            continue
        x1, y1 = geometry.point_at(cx, cy, start, r)
        x2, y2 = geometry.point_at(cx, cy, end, r)
        large = 1 if width > 180 else 0
        paths.append(f"M {cx:.1f} {cy:.1f} L {x1:.1f} {y1:.1f} A {r:.1f} {r:.1f} 0 {large} 1 {x2:.1f} {y2:.1f} Z")
    return " ".join(paths)


#: how far (px) the label of a weapon's reach keeps from the table's edges: it names the weapon
#: at the far end of its arc, which may lie off the table
_LABEL_MARGIN_X, _LABEL_MARGIN_Y = 70, 14


def _chosen(state, attacker, weapon, target, action: str, default: bool) -> dict:
    """The arc and reach of one weapon system fired at one target (Scan + the target's Signature,
    spikes and shields included; Close Action: Scan alone; DF-N01), drawn from the attacker."""
    reach = sequence.reach_of(attacker, weapon, target)
    lx, ly = geometry.point_at(attacker.x, attacker.y, attacker.heading + tables.ARCS[weapon.arc][0][0], reach)
    lx = min(max(lx * PX, _LABEL_MARGIN_X), state.width * PX - _LABEL_MARGIN_X)
    ly = min(max(ly * PX, _LABEL_MARGIN_Y), state.height * PX - 6)
    how = (msg("dropfleet.view.reach_close", "Scan") if weapon.close_action else
           msg("dropfleet.view.reach_scan", "Scan {scan}\" + {target}'s Signature {signature}\"",
               scan=ship_rules.scan(attacker), target=target.name, signature=ship_rules.signature(target)))
    return {"action": action, "default": default, "ship": attacker.id, "weapon": weapon.id, "target": target.id,
            "text": msg("dropfleet.view.weapon_reach", "{ship}'s {weapon} at {target}: {arc} arc, reach {reach}\" ({how})",
                        ship=attacker.name, weapon=weapon.name, target=target.name,
                        arc=terms.ARC.get(weapon.arc, weapon.arc), reach=reach, how=how),
            "name": weapon.name, "reach": reach, "path": _wedge(attacker.x, attacker.y, attacker.heading, weapon.arc, reach),
            "lx": lx, "ly": ly}


def _chosen_weapons(state, viewer, own_sides, by_id) -> list[dict]:
    """The weapon systems whose arc and reach the board can show (decision D20): one per fire
    button (shown while the button is under the pointer or focused), and the weapon about to
    fire (shown otherwise): the last one declared, or the attack waiting for point defence.
    Declarations are the other side's hidden choice, so only the GM and the side's own players
    see those; the attack waiting for point defence is on the table for everyone."""
    out = []
    if state.phase == "fire":
        group_side = state.side
        if viewer.is_gm or group_side in own_sides:
            for attacker, weapon, target in sequence.fire_options(state):
                action = Action.make("fire", attacker.id, weapon=weapon.id, target=target.id).to_str()
                out.append(_chosen(state, attacker, weapon, target, action, False))
            if state.declared:
                d = state.declared[-1]
                attacker = by_id[d.ship]
                out.append(_chosen(state, attacker, ship_rules.weapon(attacker, d.weapon), by_id[d.target], "", True))
    elif state.phase == "pd" and state.pending is not None:
        p = state.pending
        attacker = by_id[p.ship]
        out.append(_chosen(state, attacker, ship_rules.weapon(attacker, p.weapon), by_id[p.target], "", True))
    return out


#: a ship's name on the table (SVG units) and where it may go from the ship's centre, in order of
#: preference: (dx, baseline dy, text-anchor): under, over, right, left, and further under and over
NAME_FONT = 10
NAME_CHARS = 14
_NAME_SPOTS = ((0, 25, "middle"), (0, -19, "middle"), (17, 4, "start"), (-17, 4, "end"),
               (0, 37, "middle"), (0, -31, "middle"))


def _name_box(x: float, baseline: float, anchor: str, text: str) -> tuple[float, float, float, float]:
    """The box a name covers (0.62 em a letter, a font's line box: 0.93 em up, 0.24 down)."""
    width = 0.62 * NAME_FONT * len(text)
    left = x - width / 2 if anchor == "middle" else (x if anchor == "start" else x - width)
    return (left, baseline - 0.93 * NAME_FONT, left + width, baseline + 0.24 * NAME_FONT)


def _boxes_meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_names(ships: list[dict], width: float, height: float) -> None:
    """Where each ship's name goes (``name_dx``, ``name_dy``: its baseline from the ship's centre;
    ``name_anchor``): the first of :data:`_NAME_SPOTS` that crosses no other ship (its halo), no
    name placed before it (with a small gap) and stays on the table; when none does, the one
    crossing the fewest."""
    shown = [s for s in ships if s["in_play"]]
    glyphs = {s["id"]: (s["px"] - 18, s["py"] - 18, s["px"] + 20, s["py"] + 18) for s in shown}
    placed: list[tuple] = []
    for s in shown:
        text = s["name"] if len(s["name"]) <= NAME_CHARS else s["name"][:NAME_CHARS - 1] + "…"
        best = None
        for dx, dy, anchor in _NAME_SPOTS:
            box = _name_box(s["px"] + dx, s["py"] + dy, anchor, text)
            gap = (box[0] - 3, box[1] - 1, box[2] + 3, box[3] + 1)
            clashes = 2 * sum(_boxes_meet(box, g) for i, g in glyphs.items() if i != s["id"])
            clashes += 3 * sum(_boxes_meet(gap, n) for n in placed)
            clashes += 5 * (box[0] < -10 or box[1] < -10 or box[2] > width + 10 or box[3] > height + 10)
            if best is None or clashes < best[0]:
                best = (clashes, dx, dy, anchor, box)
            if not clashes:
                break
        _, s["name_dx"], s["name_dy"], s["name_anchor"], box = best
        s["label"] = text
        placed.append(box)


def view(ruleset, state, viewer) -> dict:
    sides = list(state.sides)
    own_sides = {s.side for s in state.ships if s.id in viewer.ships}
    ships = []
    for ship in state.ships:
        enemies = [e for e in state.ships if e.in_play and e.side != ship.side]
        effects = []
        for e in ship.effects:
            text = terms.CRIPPLING_NAME.get(e.key) or tables.CRIPPLING_ROWS[e.key].name
            if e.key == "weapon_destroyed" and e.weapon:
                text = msg("dropfleet.view.effect_weapon", "{effect} ({weapon})", effect=text,
                           weapon=ship_rules.weapon(ship, e.weapon).name)
            if e.repairs_left:
                text = msgn("dropfleet.view.repairable", "{effect}, repairable ({count} repair needed)",
                            "{effect}, repairable ({count} repairs needed)", e.repairs_left, effect=text)
            effects.append(text)
        status = ship.fate if ship.destroyed else ("crippled" if ship_rules.crippled(ship) else "in play")
        status = STATUS.get(status, status)
        ships.append({
            "id": ship.id, "name": ship.name, "side": ship.side, "side_index": sides.index(ship.side),
            "group": ship.group, "class": ship.profile.name, "tonnage": terms.TONNAGE.get(ship.profile.tonnage, ""),
            "hull": ship.hull, "max_hull": ship.profile.hull, "in_play": ship.in_play, "status": status,
            "x": ship.x, "y": ship.y, "px": ship.x * PX, "py": ship.y * PX, "heading": ship.heading,
            "layer": ship.layer, "layer_label": terms.layer(ship.layer),
            "spike": terms.SPIKE[ship.spike], "silent": ship.silent, "signature": ship_rules.signature(ship),
            "scan": ship_rules.scan(ship), "thrust": ship_rules.thrust(ship), "armour": _armour(ship),
            "passive": f"{ship.profile.passive}+" if ship.profile.passive else "",
            "switchable": ship.profile.passive_switchable, "shields_up": ship.shields_up,
            "pd": ship_rules.point_defence(ship), "order": terms.ORDER[ship.order] if ship.order else "",
            "dreadnought": ship.profile.dreadnought, "atmospheric": ship.profile.atmospheric,
            "monitor": ship.profile.monitor, "effects": effects, "weapons_offline": ship.weapons_offline,
            "weapons": [_weapon(ship, w, enemies) for w in ship.profile.weapons],
            "active": ship.group == state.group and not state.over, "fact_labels": FACT_LABELS,
        })
    place_names(ships, state.width * PX, state.height * PX)
    by_id = {s.id: s for s in state.ships}
    declared = []
    for d in state.declared:
        if viewer.is_gm or by_id[d.ship].side in own_sides:
            a, t = by_id[d.ship], by_id[d.target]
            declared.append({"text": declared_words(by_id, d),
                             "x1": a.x * PX, "y1": a.y * PX, "x2": t.x * PX, "y2": t.y * PX})
    arcs = []
    current = None
    if state.phase == "move":
        current = sequence.mover(state)
    elif state.phase == "fire":
        current = sequence.lead(state, state.group)
    sees_orders = current is not None and (viewer.is_gm or current.side in own_sides)
    if sees_orders:  # no weapon chosen: the ship's arcs, faint, to Scan + the largest enemy Signature
        enemies = [e for e in state.ships if e.in_play and e.side != current.side]
        for w in current.profile.weapons:
            reach = ship_rules.scan(current) + (0 if w.close_action else max((ship_rules.signature(e) for e in enemies), default=0))
            arcs.append({"name": w.name, "reach": reach, "path": _wedge(current.x, current.y, current.heading, w.arc, reach)})
    chosen = _chosen_weapons(state, viewer, own_sides, by_id)
    pending = None
    if state.pending is not None:
        p = state.pending
        pending = {"defender": by_id[p.target].name, "attacker": by_id[p.ship].name,
                   "weapon": ship_rules.weapon(by_id[p.ship], p.weapon).name, "normal": p.normal, "critical": p.critical,
                   "successes": p.successes}
    explosions = [{"px": x * PX, "py": y * PX, "r": r * PX, "radius": r, "layer": terms.layer(layer)}
                  for x, y, r, layer in state.explosions]
    group_ships = sequence.group_ships(state, state.group) if state.group else []
    return {
        "round": state.round, "max_rounds": state.max_rounds, "phase": PHASES.get(state.phase, state.phase),
        "over": state.over, "winner": state.winner,
        "active": ", ".join(s.name for s in group_ships), "side": state.side,
        "mover": current.name if current is not None and state.phase == "move" else "",
        "mover_allowance": sequence.allowance(current) if current is not None and state.phase == "move" else 0,
        "width": state.width, "height": state.height, "px_width": state.width * PX, "px_height": state.height * PX,
        "grid": [i * PX for i in range(0, max(state.width, state.height) + 1, 6)],
        "sides": [{"name": side, "index": i} for i, side in enumerate(sides)],
        "ships": ships, "declared": declared, "arcs": arcs, "chosen": chosen,
        "chosen_default": next((c for c in chosen if c["default"]), None),
        "pending": pending, "explosions": explosions,
        "scale": PX, "half_pi": math.pi / 2,
    }
