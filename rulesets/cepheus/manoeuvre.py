"""The helm and the navigator: speed, evasion, pursuit, docking, ramming, hazards, planets, range.

Each ``do_<kind>`` applies one step of that kind (the engine dispatches on the kind).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .checks import CHECKS, contest, declared, perform
from .damage import drop_ship_links, over_check
from .economy import spend_minor, spend_significant
from .queries import band_index, pilot_of, pursuit_dm
from .state import Hit, Pending, pair
from .tables import (
    BANDS, BAND_LABEL, COLLISION_SITUATIONS, EXCEPTIONAL, SEC, SEC_COLLISION, SEC_REENTRY, UNSKILLED,
    reentry_dms,
)

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Crew, Ship, Tx


def do_adjust_speed(tx: Tx, a: Action):
    spend_minor(tx)
    ship = tx.s.acting_ship
    assert ship is not None  # a crew step: the acting ship's
    sh = tx.ship(ship.id)
    sh.speed = int(a.get("speed"))
    if tx.recording:
        tx.say(f"{sh.name} adjusts speed to {sh.speed}.", SEC["adjust_speed"])
    for other in tx.s.ships:
        if other.pursuing == sh.id and sh.speed - other.speed >= 7:
            o = tx.ship(other.id)
            o.pursuing, o.pursuit_turns = "", 0
            if tx.recording:
                tx.say(f"{sh.name} outruns {o.name} by 7+: the pursuit ends.", SEC["pursue"])


def do_maintain_course(tx: Tx, a: Action):
    spend_minor(tx)
    if tx.recording:
        ship = tx.s.acting_ship
        assert ship is not None
        tx.say(f"{ship.name} maintains course at speed {ship.speed}.", SEC["maintain_course"])


def do_evasive(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["evasive"], ship, c, a, f"{ship.name}: evasive manoeuvres")
    if effect >= 0:
        tx.ship(ship.id).evasive = -2 if effect >= EXCEPTIONAL else -1
        if tx.recording:
            tx.say(f"{ship.name} jinks: attacks against it take DM{tx.s.ship(ship.id).evasive}.", SEC["evasive"])
    else:
        if tx.recording:
            tx.say(f"{ship.name}'s evasive manoeuvres fail.", SEC["evasive"])


def do_line_up(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["line_up"], ship, c, a, f"{ship.name}: line up the shot" if tx.recording else "")
    if effect >= 0:
        tx.ship(ship.id).lined_up = 2 if effect >= EXCEPTIONAL else 1
        if tx.recording:
            tx.inside(ship, f"{ship.name}'s gunners get DM+{tx.s.ship(ship.id).lined_up} this turn.", SEC["line_up"])
    else:
        if tx.recording:
            tx.inside(ship, f"{ship.name} cannot line up the shot.", SEC["line_up"])


def do_pursue(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    sh = tx.ship(ship.id)
    if ship.pursuing == target.id:
        sh.pursuit_kept = True
        sh.pursuit_turns += 1
        tx.say(f"{ship.name} keeps up the pursuit of {target.name}: DM+{pursuit_dm(sh, target.id)} to hit it.",
               SEC["pursue"])
        return
    won = contest(tx, CHECKS["pursue"], ship, c, a, f"{ship.name} pursues {target.name}")
    if won:
        sh.pursuing, sh.pursuit_turns, sh.pursuit_kept = target.id, 0, True
        if tx.recording:
            tx.say(f"{ship.name} is on {target.name}'s tail.", SEC["pursue"])
    else:
        if tx.recording:
            tx.say(f"{target.name} shakes off {ship.name}'s attempt to pursue.", SEC["pursue"])


def do_break_pursuit(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    chaser = s.ship(a.get("target"))
    won = contest(tx, CHECKS["break_pursuit"], ship, c, a, f"{ship.name} breaks {chaser.name}'s pursuit")
    if won:
        ch = tx.ship(chaser.id)
        ch.pursuing, ch.pursuit_turns = "", 0
        if tx.recording:
            tx.say(f"{ship.name} breaks the pursuit: {chaser.name} loses its accumulated bonus.", SEC["break_pursuit"])
    else:
        if tx.recording:
            tx.say(f"{chaser.name} stays on {ship.name}'s tail.", SEC["break_pursuit"])


def do_dock(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    check = declared(s, ship, a)
    assert check is not None  # docking always makes a check
    if check.opponent is not None:
        won = contest(tx, check, ship, c, a, f"{ship.name} docks with unwilling {target.name}")
    else:
        roll, effect = perform(tx, check, ship, c, a, f"{ship.name} docks with {target.name}")
        won = effect >= 0
    if won:
        s.docked = s.docked + [pair(ship.id, target.id)]
        if tx.recording:
            tx.say(f"{ship.name} docks with {target.name}.", SEC["dock"])
    else:
        if tx.recording:
            tx.say(f"{ship.name} fails to dock with {target.name}.", SEC["dock"])


def do_undock(tx: Tx, a: Action):
    spend_significant(tx)
    s = tx.s
    ship = s.acting_ship
    assert ship is not None
    key = pair(ship.id, a.get("target"))
    s.docked = [p for p in s.docked if p != key]
    s.boarding = [b for b in s.boarding if pair(b.attacker, b.defender) != key]
    if tx.recording:
        tx.say(f"{ship.name} casts off from {s.ship(a.get('target')).name}.", SEC["dock"])


def do_ram(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    won = contest(tx, CHECKS["ram"], ship, c, a, f"{ship.name} rams {target.name}")
    if won:
        diff = ship.speed - target.speed
        s.hits = s.hits + [Hit(target.id, ship.id, f"{ship.name} rams {target.name}", "ram", dice=diff),
                           Hit(ship.id, ship.id, f"{ship.name} takes the ramming shock", "ram", dice=diff)]
        set_band(tx, ship.id, target.id, None, band="adjacent")
        if tx.recording:
            tx.say(f"{ship.name} rams {target.name}: {diff}D6 to each, resolved at the end of the turn.", SEC["ram"])
    else:
        if tx.recording:
            tx.say(f"{target.name} avoids {ship.name}'s ram.", SEC["ram"])


def do_avoid_collision(tx: Tx, a: Action):
    spend_significant(tx)
    s = tx.s
    ship, crew = s.actor()
    assert ship is not None
    avoid_collision(tx, tx.ship(ship.id), crew, a)


def do_orbit(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["orbit"], ship, c, a, f"{ship.name}: orbit insertion")
    sh = tx.ship(ship.id)
    sh.position = "orbit" if effect >= 0 else "decaying"
    tx.say(f"{ship.name} {'enters a stable orbit' if effect >= 0 else 'misses the insertion: its orbit decays'}.",
           SEC["planetary"])


def do_reentry(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    reentry(tx, tx.ship(ship.id), c, a)


def do_jump_plot(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["jump_plot"], ship, c, a, f"{ship.name}: hurried jump plot")
    if effect >= 0:
        tx.ship(ship.id).jump_plotted = True
        if tx.recording:
            tx.inside(ship, f"{c.name} has a jump plotted.", SEC["jump_plot"])
    else:
        if tx.recording:
            tx.inside(ship, f"{c.name}'s jump plot fails.", SEC["jump_plot"])


def do_range_check(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    other = s.ship(a.get("target"))
    want = a.get("want")
    won = contest(tx, CHECKS["range_check"], ship, c, a, f"{ship.name} manoeuvres for range on {other.name}" if tx.recording else "")
    if won:
        set_band(tx, ship.id, other.id, want)
    else:
        if tx.recording:
            tx.say(f"{other.name} wins the range check and chooses the range.", SEC["range_check"])
        s.pending = Pending("range", ship.id, other.id, chooser=other.id)
        s.phase = "range"


def do_choose_range(tx: Tx, a: Action):
    p = tx.s.pending
    assert p is not None  # legal only while a range choice is pending
    set_band(tx, p.attacker, p.target, a.get("want"))
    tx.s.pending = None
    tx.s.phase = "crew"


def set_band(tx: Tx, a: str, b: str, want: str | None, band: str | None = None):
    s = tx.s
    key = pair(a, b)
    old = s.band(a, b)
    if band is None:
        i = band_index(old)
        i = i - 1 if want == "closer" else i + 1 if want == "farther" else i
        band = BANDS[max(0, min(len(BANDS) - 1, i))]
    s.ranges = {**s.ranges, key: band}
    if band != old:
        tx.say(f"Range between {s.ship(a).name} and {s.ship(b).name}: {BAND_LABEL[old]} → {BAND_LABEL[band]}.",
               SEC["range_check"])
    else:
        if tx.recording:
            tx.say(f"Range between {s.ship(a).name} and {s.ship(b).name} stays {BAND_LABEL[band]}.", SEC["range_check"])
    if band != "adjacent" and key in s.docked:
        s.docked = [p for p in s.docked if p != key]
        s.boarding = [x for x in s.boarding if pair(x.attacker, x.defender) != key]
        tx.say("The ships are no longer docked.", SEC["dock"])
    if band_index(band) >= band_index("medium"):
        for x, y in ((a, b), (b, a)):
            if s.ship(x).pursuing == y:
                sh = tx.ship(x)
                sh.pursuing, sh.pursuit_turns = "", 0
                if tx.recording:
                    tx.say(f"The range opens to {BAND_LABEL[band]}: {sh.name}'s pursuit ends.", SEC["pursue"])


def avoid_collision(tx: Tx, sh: Ship, crew: Crew | None, action: Action | None = None):
    """Evitare Collisioni: the pilot's check (``crew`` None: no one at the helm, unskilled)."""
    s = tx.s
    label = COLLISION_SITUATIONS[s.options.hazard][0]
    roll, effect = perform(tx, CHECKS["avoid_collision"], sh, crew, action, f"{sh.name} avoids collision ({label})",
                           extra=[] if crew else [("no pilot at the helm", UNSKILLED)], table=SEC_COLLISION, row=label)
    sh.avoided = True
    if effect >= 0:
        if tx.recording:
            tx.say(f"{sh.name} threads the {label.lower()}.", SEC["avoid_collision"])
    elif sh.speed > 0:
        s.hits = s.hits + [Hit(sh.id, sh.id, f"{sh.name} collides", "collision", dice=sh.speed)]
        if tx.recording:
            tx.say(f"{sh.name} collides: {sh.speed}D6 damage at the end of the turn.", SEC["avoid_collision"])


def reentry(tx: Tx, sh: Ship, crew: Crew | None, action: Action | None, extra=()):
    """Rientro in atmosfera: a controlled re-entry is the pilot's action; an uncontrolled one has ``extra``."""
    o = tx.s.options
    dms, auto = reentry_dms(o.world_size, o.world_atmosphere)
    controlled = action is not None
    if auto:
        if tx.recording:
            tx.say(f"Thin atmosphere: {sh.name}'s re-entry succeeds automatically.", SEC_REENTRY)
        ok = True
    else:
        roll, effect = perform(tx, CHECKS["reentry"], sh, crew, action,
                               f"{sh.name}: {'re-entry' if controlled else 'uncontrolled re-entry'}",
                               extra=list(extra) + ([] if crew else [("no pilot", UNSKILLED)]),
                               table=SEC_REENTRY, row=", ".join(s for s, _ in dms) or "no DM")
        ok = effect >= 0
    if ok:
        sh.position = "atmosphere"
        sh.status = "escaped"
        if tx.recording:
            tx.say(f"{sh.name} drops into the atmosphere and leaves the space fight.", SEC["planetary"])
        drop_ship_links(tx, sh.id)
        over_check(tx)
    else:
        sh.position = "decaying"
        if tx.recording:
            tx.say(f"{sh.name}'s re-entry fails: its orbit decays.", SEC["planetary"])


def uncontrolled_reentry(tx: Tx, sh: Ship):
    """Manovre planetarie: a decaying orbit drags the ship into an uncontrolled re-entry (decision: each turn)."""
    reentry(tx, sh, pilot_of(sh), None, [("uncontrolled", -2)])
