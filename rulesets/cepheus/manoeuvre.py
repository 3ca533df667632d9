"""The helm and the navigator: speed, evasion, pursuit, docking, ramming, hazards, planets, range.

Each ``do_<kind>`` applies one step of that kind (the engine dispatches on the kind).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.messages import msg, words_to_json

from .checks import CHECKS, contest, declared, perform
from .damage import drop_ship_links, over_check
from .economy import spend_minor, spend_significant
from .queries import band_index, pilot_of, pursuit_dm
from .state import Hit, Pending, pair
from .words import listing
from .tables import (
    BANDS, BAND_LABEL, COLLISION_SITUATIONS, HAZARD_WORD, NO_DM, EXCEPTIONAL, SEC, SEC_COLLISION, SEC_REENTRY, UNSKILLED,
    reentry_dms,
)

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Crew, Ship, Tx


#: modifier labels said the same every time
NO_PILOT_AT_HELM = msg("cepheus.mod.no_pilot_at_helm", "no pilot at the helm")
NO_PILOT = msg("cepheus.mod.no_pilot", "no pilot")
UNCONTROLLED = msg("cepheus.mod.uncontrolled", "uncontrolled")


def do_adjust_speed(tx: Tx, a: Action):
    spend_minor(tx)
    ship = tx.s.acting_ship
    assert ship is not None  # a crew step: the acting ship's
    sh = tx.ship(ship.id)
    sh.speed = int(a.get("speed"))
    tx.say(msg("cepheus.log.speed", "{ship} adjusts speed to {speed}.", ship=sh.name, speed=sh.speed),
           SEC["adjust_speed"])
    for other in tx.s.ships:
        if other.pursuing == sh.id and sh.speed - other.speed >= 7:
            o = tx.ship(other.id)
            o.pursuing, o.pursuit_turns = "", 0
            tx.say(msg("cepheus.log.outruns", "{ship} outruns {other} by 7+: the pursuit ends.", ship=sh.name,
                       other=o.name), SEC["pursue"])


def do_maintain_course(tx: Tx, a: Action):
    spend_minor(tx)
    ship = tx.s.acting_ship
    assert ship is not None
    tx.say(msg("cepheus.log.course", "{ship} maintains course at speed {speed}.", ship=ship.name, speed=ship.speed),
           SEC["maintain_course"])


def do_evasive(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["evasive"], ship, c, a,
                           msg("cepheus.roll.evasive", "{ship}: evasive manoeuvres", ship=ship.name))
    if effect >= 0:
        tx.ship(ship.id).evasive = -2 if effect >= EXCEPTIONAL else -1
        tx.say(msg("cepheus.log.evasive", "{ship} jinks: attacks against it take DM{dm}.", ship=ship.name,
                   dm=tx.s.ship(ship.id).evasive), SEC["evasive"])
    else:
        tx.say(msg("cepheus.log.no_evasive", "{ship}'s evasive manoeuvres fail.", ship=ship.name), SEC["evasive"])


def do_line_up(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["line_up"], ship, c, a,
                           msg("cepheus.roll.line_up", "{ship}: line up the shot", ship=ship.name))
    if effect >= 0:
        tx.ship(ship.id).lined_up = 2 if effect >= EXCEPTIONAL else 1
        tx.inside(ship, msg("cepheus.log.lined_up", "{ship}'s gunners get DM+{n} this turn.", ship=ship.name,
                            n=tx.s.ship(ship.id).lined_up), SEC["line_up"])
    else:
        tx.inside(ship, msg("cepheus.log.not_lined_up", "{ship} cannot line up the shot.", ship=ship.name),
                  SEC["line_up"])


def do_pursue(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    sh = tx.ship(ship.id)
    if ship.pursuing == target.id:
        sh.pursuit_kept = True
        sh.pursuit_turns += 1
        tx.say(msg("cepheus.log.keep_pursuit", "{ship} keeps up the pursuit of {target}: DM+{n} to hit it.",
                   ship=ship.name, target=target.name, n=pursuit_dm(sh, target.id)), SEC["pursue"])
        return
    won = contest(tx, CHECKS["pursue"], ship, c, a, msg("cepheus.roll.pursue", "{ship} pursues {target}",
                                                        ship=ship.name, target=target.name))
    if won:
        sh.pursuing, sh.pursuit_turns, sh.pursuit_kept = target.id, 0, True
        tx.say(msg("cepheus.log.pursuing", "{ship} is on {target}'s tail.", ship=ship.name, target=target.name),
               SEC["pursue"])
    else:
        tx.say(msg("cepheus.log.shaken_off", "{target} shakes off {ship}'s attempt to pursue.", target=target.name,
                   ship=ship.name), SEC["pursue"])


def do_break_pursuit(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    chaser = s.ship(a.get("target"))
    won = contest(tx, CHECKS["break_pursuit"], ship, c, a, msg("cepheus.roll.break_pursuit", "{ship} breaks "
                                                               "{chaser}'s pursuit", ship=ship.name, chaser=chaser.name))
    if won:
        ch = tx.ship(chaser.id)
        ch.pursuing, ch.pursuit_turns = "", 0
        tx.say(msg("cepheus.log.pursuit_broken", "{ship} breaks the pursuit: {chaser} loses its accumulated bonus.",
                   ship=ship.name, chaser=chaser.name), SEC["break_pursuit"])
    else:
        tx.say(msg("cepheus.log.still_pursued", "{chaser} stays on {ship}'s tail.", chaser=chaser.name, ship=ship.name),
               SEC["break_pursuit"])


def do_dock(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    check = declared(s, ship, a)
    assert check is not None  # docking always makes a check
    if check.opponent is not None:
        won = contest(tx, check, ship, c, a, msg("cepheus.roll.dock_unwilling", "{ship} docks with unwilling {target}",
                                                 ship=ship.name, target=target.name))
    else:
        roll, effect = perform(tx, check, ship, c, a, msg("cepheus.roll.dock", "{ship} docks with {target}",
                                                          ship=ship.name, target=target.name))
        won = effect >= 0
    if won:
        s.docked = s.docked + [pair(ship.id, target.id)]
        tx.say(msg("cepheus.log.docked", "{ship} docks with {target}.", ship=ship.name, target=target.name), SEC["dock"])
    else:
        tx.say(msg("cepheus.log.not_docked", "{ship} fails to dock with {target}.", ship=ship.name, target=target.name),
               SEC["dock"])


def do_undock(tx: Tx, a: Action):
    spend_significant(tx)
    s = tx.s
    ship = s.acting_ship
    assert ship is not None
    key = pair(ship.id, a.get("target"))
    s.docked = [p for p in s.docked if p != key]
    s.boarding = [b for b in s.boarding if pair(b.attacker, b.defender) != key]
    tx.say(msg("cepheus.log.undocked", "{ship} casts off from {target}.", ship=ship.name,
               target=s.ship(a.get("target")).name), SEC["dock"])


def do_ram(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    target = s.ship(a.get("target"))
    rams = msg("cepheus.roll.ram", "{ship} rams {target}", ship=ship.name, target=target.name)
    won = contest(tx, CHECKS["ram"], ship, c, a, rams)
    if won:
        diff = ship.speed - target.speed
        s.hits = s.hits + [Hit(target.id, ship.id, words_to_json(rams), "ram", dice=diff),
                           Hit(ship.id, ship.id, words_to_json(msg("cepheus.words.ram_shock",
                                                                   "{ship} takes the ramming shock", ship=ship.name)),
                               "ram", dice=diff)]
        set_band(tx, ship.id, target.id, None, band="adjacent")
        tx.say(msg("cepheus.log.rammed", "{ship} rams {target}: {n}D6 to each, resolved at the end of the turn.",
                   ship=ship.name, target=target.name, n=diff), SEC["ram"])
    else:
        tx.say(msg("cepheus.log.ram_avoided", "{target} avoids {ship}'s ram.", target=target.name, ship=ship.name),
               SEC["ram"])


def do_avoid_collision(tx: Tx, a: Action):
    spend_significant(tx)
    s = tx.s
    ship, crew = s.actor()
    assert ship is not None
    avoid_collision(tx, tx.ship(ship.id), crew, a)


def do_orbit(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["orbit"], ship, c, a, msg("cepheus.roll.orbit", "{ship}: orbit insertion",
                                                                 ship=ship.name))
    sh = tx.ship(ship.id)
    sh.position = "orbit" if effect >= 0 else "decaying"
    if effect >= 0:
        tx.say(msg("cepheus.log.orbit", "{ship} enters a stable orbit.", ship=ship.name), SEC["planetary"])
    else:
        tx.say(msg("cepheus.log.orbit_decays", "{ship} misses the insertion: its orbit decays.", ship=ship.name),
               SEC["planetary"])


def do_reentry(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    reentry(tx, tx.ship(ship.id), c, a)


def do_jump_plot(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    roll, effect = perform(tx, CHECKS["jump_plot"], ship, c, a, msg("cepheus.roll.jump_plot", "{ship}: hurried jump plot",
                                                                     ship=ship.name))
    if effect >= 0:
        tx.ship(ship.id).jump_plotted = True
        tx.inside(ship, msg("cepheus.log.jump_plotted", "{name} has a jump plotted.", name=c.name), SEC["jump_plot"])
    else:
        tx.inside(ship, msg("cepheus.log.no_jump_plot", "{name}'s jump plot fails.", name=c.name), SEC["jump_plot"])


def do_range_check(tx: Tx, a: Action):
    ship, c = spend_significant(tx)
    s = tx.s
    other = s.ship(a.get("target"))
    want = a.get("want")
    won = contest(tx, CHECKS["range_check"], ship, c, a, msg("cepheus.roll.range", "{ship} manoeuvres for range on "
                                                             "{other}", ship=ship.name, other=other.name))
    if won:
        set_band(tx, ship.id, other.id, want)
    else:
        tx.say(msg("cepheus.log.range_lost", "{other} wins the range check and chooses the range.", other=other.name),
               SEC["range_check"])
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
        tx.say(msg("cepheus.log.range", "Range between {a} and {b}: {old} → {new}.", a=s.ship(a).name,
                   b=s.ship(b).name, old=BAND_LABEL[old], new=BAND_LABEL[band]), SEC["range_check"])
    else:
        tx.say(msg("cepheus.log.range_stays", "Range between {a} and {b} stays {band}.", a=s.ship(a).name,
                   b=s.ship(b).name, band=BAND_LABEL[band]), SEC["range_check"])
    if band != "adjacent" and key in s.docked:
        s.docked = [p for p in s.docked if p != key]
        s.boarding = [x for x in s.boarding if pair(x.attacker, x.defender) != key]
        tx.say(msg("cepheus.log.undocked_by_range", "The ships are no longer docked."), SEC["dock"])
    if band_index(band) >= band_index("medium"):
        for x, y in ((a, b), (b, a)):
            if s.ship(x).pursuing == y:
                sh = tx.ship(x)
                sh.pursuing, sh.pursuit_turns = "", 0
                tx.say(msg("cepheus.log.range_ends_pursuit", "The range opens to {band}: {ship}'s pursuit ends.",
                           band=BAND_LABEL[band], ship=sh.name), SEC["pursue"])


def avoid_collision(tx: Tx, sh: Ship, crew: Crew | None, action: Action | None = None):
    """Evitare Collisioni: the pilot's check (``crew`` None: no one at the helm, unskilled)."""
    s = tx.s
    label = COLLISION_SITUATIONS[s.options.hazard][0]
    roll, effect = perform(tx, CHECKS["avoid_collision"], sh, crew, action,
                           msg("cepheus.roll.collision", "{ship} avoids collision ({hazard})", ship=sh.name, hazard=label),
                           extra=[] if crew else [(NO_PILOT_AT_HELM, UNSKILLED)], table=SEC_COLLISION, row=label)
    sh.avoided = True
    if effect >= 0:
        tx.say(msg("cepheus.log.threads", "{ship} threads the {hazard}.", ship=sh.name, hazard=HAZARD_WORD[s.options.hazard]),
               SEC["avoid_collision"])
    elif sh.speed > 0:
        s.hits = s.hits + [Hit(sh.id, sh.id, words_to_json(msg("cepheus.words.collides", "{ship} collides", ship=sh.name)),
                               "collision", dice=sh.speed)]
        tx.say(msg("cepheus.log.collides", "{ship} collides: {n}D6 damage at the end of the turn.", ship=sh.name,
                   n=sh.speed), SEC["avoid_collision"])


def reentry(tx: Tx, sh: Ship, crew: Crew | None, action: Action | None, extra=()):
    """Rientro in atmosfera: a controlled re-entry is the pilot's action; an uncontrolled one has ``extra``."""
    o = tx.s.options
    dms, auto = reentry_dms(o.world_size, o.world_atmosphere)
    controlled = action is not None
    if auto:
        tx.say(msg("cepheus.log.reentry_auto", "Thin atmosphere: {ship}'s re-entry succeeds automatically.",
                   ship=sh.name), SEC_REENTRY)
        ok = True
    else:
        purpose = (msg("cepheus.roll.reentry", "{ship}: re-entry", ship=sh.name) if controlled else
                   msg("cepheus.roll.reentry_uncontrolled", "{ship}: uncontrolled re-entry", ship=sh.name))
        roll, effect = perform(tx, CHECKS["reentry"], sh, crew, action, purpose,
                               extra=list(extra) + ([] if crew else [(NO_PILOT, UNSKILLED)]),
                               table=SEC_REENTRY, row=listing(s for s, _ in dms) or NO_DM)
        ok = effect >= 0
    if ok:
        sh.position = "atmosphere"
        sh.status = "escaped"
        tx.say(msg("cepheus.log.reentry", "{ship} drops into the atmosphere and leaves the space fight.", ship=sh.name),
               SEC["planetary"])
        drop_ship_links(tx, sh.id)
        over_check(tx)
    else:
        sh.position = "decaying"
        tx.say(msg("cepheus.log.reentry_fails", "{ship}'s re-entry fails: its orbit decays.", ship=sh.name),
               SEC["planetary"])


def uncontrolled_reentry(tx: Tx, sh: Ship):
    """Manovre planetarie: a decaying orbit drags the ship into an uncontrolled re-entry (decision: each turn)."""
    reentry(tx, sh, pilot_of(sh), None, [(UNCONTROLLED, -2)])
