"""Boarding (Abbordaggio) and its abstract resolution (Regole di abbordaggio astratte)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from rulesets.core.check import circumstance
from rulesets.core.messages import msg, words_to_json
from rulesets.core.state import clone

from .attacks import reaction_options
from .checks import CHECKS, roll_check
from .crew import current_chars
from .damage import drop_ship_links, over_check
from .economy import spend_significant
from .queries import boarding_leader
from .state import Boarding, Hit, Pending, pair
from .tables import BOARDING_RESULTS, EXCEPTIONAL, SEC, SEC_BOARDING

#: who wins a boarding round, and how well (the Abstract Boarding Resolution table's columns)
WINNER = {"attacker": msg("cepheus.words.attacker", "attacker"), "defender": msg("cepheus.words.defender", "defender")}
DEGREE = {"success": msg("cepheus.words.success", "success"),
          "exceptional": msg("cepheus.words.exceptional", "exceptional")}
#: the hits a boarding round gives, as the state keeps them (stored words)
FIGHTING_ABOARD = words_to_json(msg("cepheus.words.fighting_aboard", "Fighting aboard"))
SHIP_TAKEN = words_to_json(msg("cepheus.words.boarders_take", "Boarders take the ship"))

if TYPE_CHECKING:
    from rulesets.core.engine import Action
    from .state import Tx


EARLIER_SUCCESS = msg("cepheus.mod.earlier_boarding", "earlier boarding success")
HIT_CROSSING = msg("cepheus.mod.hit_crossing", "boarders hit crossing")


def do_board(tx: Tx, a: Action):
    spend_significant(tx)
    s = tx.s
    ship, crew = s.actor()
    assert ship is not None and crew is not None  # a crew step: a crew member of the acting ship takes it
    target = s.ship(a.get("target"))
    docked = pair(ship.id, target.id) in s.docked
    pending = Pending("board", ship.id, target.id, crew=crew.id, dm=int(a.get("dm", 0)))
    if docked:
        tx.say(msg("cepheus.log.board_docked", "{ship} launches a boarding action against {target} through the "
                   "airlocks.", ship=ship.name, target=target.name), SEC["boarding"])
    else:
        tx.say(msg("cepheus.log.board_open", "{ship} launches a boarding action against {target} across open space.",
                   ship=ship.name, target=target.name), SEC["boarding"])
    if reaction_options(s, pending, any_one=True):
        s.pending = pending
        s.phase = "react"
    else:
        resolve_boarding(tx, pending)


def resolve_boarding(tx: Tx, p: Pending):
    s = tx.s
    att, dfn = s.ship(p.attacker), s.ship(p.target)
    rec = next((b for b in s.boarding if b.attacker == att.id and b.defender == dfn.id), None)
    if rec is None:
        rec = Boarding(att.id, dfn.id)
    a_lead = boarding_leader(att)
    d_lead = boarding_leader(dfn)
    a_extra = [(EARLIER_SUCCESS, rec.attacker_dm)] + list(circumstance(p.dm))
    d_extra = [(EARLIER_SUCCESS, rec.defender_dm), (HIT_CROSSING, p.defence)]
    check = CHECKS["board"]
    while True:
        r1, e1 = roll_check(tx, att, a_lead, check.skill, check.char, "",
                            msg("cepheus.roll.boarding", "{ship} boarding Tactics", ship=att.name), check.rule,
                            extra=a_extra)
        r2, e2 = roll_check(tx, dfn, d_lead, check.skill, check.char, "",
                            msg("cepheus.roll.defends", "{ship} defends", ship=dfn.name), check.rule, extra=d_extra)
        if e1 != e2:
            break
        c1 = current_chars(a_lead).get(check.char, 7) if a_lead else 0
        c2 = current_chars(d_lead).get(check.char, 7) if d_lead else 0
        if c1 != c2:
            e1, e2 = (e1 + 0.5, e2) if c1 > c2 else (e1, e2 + 0.5)
            break
    winner = "attacker" if e1 > e2 else "defender"
    degree = "exceptional" if max(e1, e2) >= EXCEPTIONAL else "success"
    tx.say(msg("cepheus.log.boarding", "Boarding: the {winner} wins ({degree}): {result}", winner=WINNER[winner], degree=DEGREE[degree],
               result=BOARDING_RESULTS[(winner, degree)]), SEC_BOARDING)
    rec = clone(rec, rounds=rec.rounds + 1, attacker_dm=0, defender_dm=0)
    keep = True
    if winner == "attacker" and degree == "success":
        tx.ship(dfn.id).reactions = 0
        tx.ship(dfn.id).no_reactions = False
        rec.attacker_dm = 2
        s.hits = s.hits + [Hit(dfn.id, att.id, FIGHTING_ABOARD, "boarding", single=1)]
    elif winner == "defender" and degree == "success":
        rec.defender_dm = 2
        s.hits = s.hits + [Hit(dfn.id, att.id, FIGHTING_ABOARD, "boarding", single=1)]
    elif winner == "attacker":
        d = tx.ship(dfn.id)
        d.status = "boarded"  # "needs a turn to take control": captured at the start of the next round
        s.hits = s.hits + [Hit(dfn.id, att.id, SHIP_TAKEN, "boarding", dice=2, ignore_armour=True,
                               internal=True)]
        keep = False
        drop_ship_links(tx, dfn.id)
        s.docked = s.docked + [pair(att.id, dfn.id)] if s.band(att.id, dfn.id) == "adjacent" else s.docked
    else:
        keep = False
    s.boarding = [b for b in s.boarding if not (b.attacker == att.id and b.defender == dfn.id)] + ([rec] if keep else [])
    over_check(tx)
