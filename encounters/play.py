"""A player's own step from their live page, and the GM's confirm queue (issue 22).

Everything is decided here, on the server: a player acts only in encounters of campaigns
they belong to (``_get_encounter_for_user``), only when the GM lets players act, only for
the characters linked to them now (encounters/players.py), only at those characters'
steps, and only on the page's own head (the form carries the sequence it was made for).
The step then goes through the one write path (:func:`encounters.log.step`), whose lock
checks the head again and whose ``check`` asks once more, under that lock, whether the step
is still this player's: applied exactly once, or refused with the encounter as it is now.
"""
from __future__ import annotations

import secrets

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.shortcuts import render
from django.utils.translation import gettext as _, gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.models import Membership
from rulesets.core.dice import Dice, DiceError, DiceNeeded, InvalidFace, ManualSource
from rulesets.core.engine import Action, IllegalAction
from rulesets.core.messages import words_from_json, words_to_json

from . import log as encounter_log
from . import runner
from .models import Encounter
from .players import band, links_of, owner_of, turn_of, waiting_for
from .viewing import names_for

MOVED_ON = gettext_lazy("The encounter has moved on: here is where it stands now. Nothing of yours was applied.")
NOT_YOURS = gettext_lazy("That is not a step of your character's now: nothing was applied.")
NOT_ON = gettext_lazy("The GM takes every step in this encounter: players do not act from their pages.")


class NotTheirs(Exception):
    pass


# ---------------------------------------------------------------- what the player's page shows


def proposal_of(encounter: Encounter, head: int) -> dict | None:
    """The player's step waiting for the GM, if it was chosen at ``head`` (else moot)."""
    p = encounter.proposal
    if not p or p.get("head") != head:
        return None
    # its action in words, read in this reader's language (kept as the message behind them)
    return {**p, "label": words_from_json(p.get("label", ""))}


def my_turn_key(request, encounter: Encounter, now) -> str | None:
    """Whether the player has a "your turn" panel at ``now``, cheaply (no odds, no words): a key
    naming it ("" when none), so a live page's render can be shared before it is made."""
    if not encounter.players_act or encounter.status != Encounter.ACTIVE or now.state.over:
        return ""
    user = request.user.pk
    proposal = proposal_of(encounter, now.head)
    if proposal and proposal.get("user") == user:
        return f"me:{user}:{proposal.get('token', '')}"
    if _turn_at(encounter, now).mine(user):
        # Another player's step waiting (its token: a new one is a new render, and the page's
        # data-proposal, which the fallback poll sends, names the one it shows).
        return f"me:{user}:{'gm:' + proposal.get('token', '') if proposal else ''}"
    return ""


def my_turn(request, encounter: Encounter, now, viewer) -> dict | None:
    """The "your turn" panel of a player at ``now``: their characters, the actions the rules
    allow them with the chance of each in words, or their step waiting for the GM.  None when
    nothing is theirs (the page is then the one every player of their side shares)."""
    if not encounter.players_act or encounter.status != Encounter.ACTIVE or now.state.over:
        return None
    user = request.user.pk
    proposal = proposal_of(encounter, now.head)
    if proposal and proposal.get("user") == user:
        return {"characters": [proposal.get("character", "")], "actions": [], "proposal": proposal,
                "token": proposal.get("token", "")}
    turn = _turn_at(encounter, now)
    mine = turn.mine(user)
    if not mine:
        return None
    engine, names = encounter.engine, names_for(encounter, viewer)
    # The places the GM clicks on the board (a Dropfleet move, a Star Wars D6 course) are listed
    # in words, apart: on a phone a list is easier to tap than a board.
    board = [a for a in mine if engine.on_board(a)]
    actions = worded_actions(engine, now.state, [a for a in mine if not engine.on_board(a)], names)
    return {"characters": turn.characters_of(user), "actions": actions,
            "board": worded_actions(engine, now.state, board, names, probe=False), "proposal": None,
            "token": (proposal or {}).get("token", ""), "waiting_gm": bool(proposal),
            "ship_turn": _my_ship_turn(encounter, now, viewer, names)}


def _my_ship_turn(encounter, now, viewer, names) -> dict | None:
    """The ship's-turn panel for the player's own seats (encounters/turn.py), when the seat
    acting now is theirs; not while the GM confirms each step (one step waits at a time)."""
    from .turn import panel, seat_owner

    if encounter.gm_confirms:
        return None
    owner = seat_owner(encounter, now)
    return panel(encounter, now, encounter.engine.view(now.state, viewer).get("ships", []),
                 only=lambda seat: owner(seat) == viewer.user_id, words=names)


def _turn_at(encounter: Encounter, now):
    """Who may take which action at ``now``, worked out once per encounter object and head
    (the live stream renders every page of a room from one encounter object)."""
    memo = getattr(encounter, "_turn_memo", None)
    if memo is None or memo[0] != now.head:
        memo = (now.head, turn_of(encounter, now.state, links_of(encounter)))
        encounter._turn_memo = memo
    return memo[1]


def _asks_dice(engine, state, action) -> bool:
    """Whether applying ``action`` now asks for dice (a roll with no odds of its own: the
    player may still roll it with their own dice)."""
    try:
        engine.apply(state, action, Dice(ManualSource([])))
    except DiceNeeded:
        return True
    except (DiceError, IllegalAction, ValueError, KeyError, IndexError, TypeError):
        return False
    return False


def worded_actions(engine, state, actions, names, *, probe: bool = True) -> list[dict]:
    """A player's actions as their page shows them: each in words as the player's ``names``
    read them (an enemy's crew by their post), with the chance of each outcome as a band.

    The odds read values the character may not know (an enemy's armour, skill, Defence): the
    page words them as a band ("likely"), never the exact figure (docs/running-encounters.md).
    """
    out = []
    for action in actions:
        odds = engine.odds(state, action)
        chances = [{"label": names(o.label), "band": band(o.probability)} for o in odds.outcomes] if odds else []
        rolls = odds is not None or (probe and _asks_dice(engine, state, action))
        out.append({"action": action.to_str(), "label": names(engine.describe(state, action)),
                    "chances": chances, "rolls": rolls})
    return out


def gm_waiting(encounter: Encounter, now) -> dict:
    """The GM page's "waiting for <player> (<character>)" and the step waiting for a tap."""
    if not encounter.players_act or encounter.status != Encounter.ACTIVE or now.state.over:
        return {"waiting": [], "proposal": None}
    return {"waiting": waiting_for(encounter, now.state), "proposal": proposal_of(encounter, now.head)}


# ---------------------------------------------------------------- the player's step


def _answer(request, encounter, role, *, status=200, **extra):
    from .views import _run_context

    return render(request, "encounters/live.html#runner", _run_context(request, encounter, role, **extra),
                  status=status)


def _still_theirs(user_id: int, action: Action):
    """The check the write path runs under its lock: players act, and the step is this player's."""
    def check(locked, state):
        if not locked.players_act:
            raise NotTheirs(NOT_ON)
        if owner_of(locked, state, action).user != user_id:
            raise NotTheirs(NOT_YOURS)
    return check


@login_required
@require_POST
def player_step(request, pk):
    from .views import _expected, _faces, _get_encounter_for_user, _typed

    encounter, role = _get_encounter_for_user(request, pk)
    if role != Membership.PLAYER:
        raise PermissionDenied(_("The GM takes steps from the runner."))
    action_text = request.POST.get("action", "")
    own = request.POST.get("roll") == "own"
    expected = _expected(request)
    if not encounter.players_act:
        return _answer(request, encounter, role, status=400, play_error=NOT_ON)
    if encounter.status != Encounter.ACTIVE:
        return _answer(request, encounter, role, status=400,
                       play_error=_("The encounter is paused or finished: nothing was applied."))
    now = encounter_log.current(encounter)
    if expected != now.head:
        return _answer(request, encounter, role, status=409, play_error=MOVED_ON)
    try:
        action = Action.parse(action_text)
    except ValueError:
        return _answer(request, encounter, role, status=400, play_error=NOT_YOURS)
    engine = encounter.engine
    # Exactly one of the listed actions: a player adds no free parameter (the GM's DM) of their own.
    if action.kind == "override" or action not in engine.legal_actions(now.state) or \
            owner_of(encounter, now.state, action).user != request.user.pk:
        return _answer(request, encounter, role, status=400, play_error=NOT_YOURS)

    def prompt(status=200, *, need=None, bad_index=None, error=""):
        return _answer(request, encounter, role, status=status, play_prompt=runner.dice_prompt(
            encounter, now.state, action.to_str(), faces=_typed(request), need=need, bad_index=bad_index,
            error=error, own_seq=now.head + 1))

    faces = None
    if own:
        try:
            faces = _faces(request) or []
        except runner.BadFace as bad:
            return prompt(400, bad_index=bad.index, error=runner.face_refusal(bad))
        # Every face checked where it was typed, before anything is kept or applied; the dice the
        # step asks for and were not typed yet are asked for (a step that rolls nothing now, such
        # as a declared shot resolved later, applies at once).
        # Only their own character's rolls are typed: another side's, in the same step (Star Wars
        # D6's initiative), the app rolls, as the write path will (RulesetBase.own_rolls).
        source = encounter_log.dice_source(encounter, now.head + 1, faces, mode=Encounter.OWN,
                                           mine=engine.own_rolls(now.state, action))
        try:
            engine.apply(now.state, action, Dice(source))
        except DiceNeeded as need:
            return prompt(need=need)
        except InvalidFace as bad:
            return prompt(400, bad_index=bad.index, error=runner.face_refusal(bad))
        except DiceError:
            pass  # more faces than the step reads: the write path keeps what it uses
    mode = Encounter.OWN if own else Encounter.AUTO
    owner = owner_of(encounter, now.state, action)
    if encounter.gm_confirms:
        return _propose(request, encounter, role, now, action, faces, mode, owner.character)
    try:
        encounter_log.step(encounter, action.to_str(), expected_seq=expected, user=request.user, faces=faces,
                           dice_mode=mode, check=_still_theirs(request.user.pk, action))
    except encounter_log.StaleStep:
        return _answer(request, encounter, role, status=409, play_error=MOVED_ON)
    except NotTheirs as refused:
        return _answer(request, encounter, role, status=400, play_error=str(refused))
    except DiceNeeded as need:
        return prompt(need=need)
    except InvalidFace as bad:
        return prompt(400, bad_index=bad.index, error=runner.face_refusal(bad))
    except (IllegalAction, ValueError, encounter_log.EncounterClosed) as exc:
        return _answer(request, encounter, role, status=400, play_error=str(exc))
    return _answer(request, encounter, role)


def _propose(request, encounter, role, now, action, faces, mode, character):
    """The GM confirms players' steps: keep the choice for the GM's tap, at this head only."""
    with transaction.atomic():
        locked = Encounter.objects.select_for_update(no_key=True).get(pk=encounter.pk)
        if encounter_log.head_seq(locked) != now.head:
            return _answer(request, encounter, role, status=409, play_error=MOVED_ON)
        if not locked.players_act or owner_of(locked, now.state, action).user != request.user.pk:
            return _answer(request, encounter, role, status=400, play_error=NOT_YOURS)
        waiting = proposal_of(locked, now.head)
        if waiting and waiting.get("user") != request.user.pk:
            return _answer(request, encounter, role, status=409,
                           play_error=_("Another player's step is waiting for the GM: yours was not kept."))
        locked.proposal = {
            "token": secrets.token_hex(8), "head": now.head, "user": request.user.pk,
            "player": request.user.get_username(), "character": character, "action": action.to_str(),
            "label": words_to_json(encounter.engine.describe(now.state, action)),
            "faces": faces or [], "mode": mode,
        }
        locked.save(update_fields=["proposal"])
        encounter_log.publish_after_commit(locked, now.head)
    encounter.proposal = locked.proposal
    return _answer(request, encounter, role)


# ---------------------------------------------------------------- the GM's tap


@login_required
@require_POST
def proposal_decide(request, pk):
    """Confirm a player's waiting step (through the one write path) or send it back."""
    from .views import _after_change, _get_encounter_for_user

    encounter, role = _get_encounter_for_user(request, pk, gm=True)
    token = request.POST.get("token", "")
    p = encounter.proposal
    if not p or p.get("token") != token:
        return _after_change(request, encounter, role, status=409,
                             error=_("That player's step is no longer waiting (sent back, or the encounter moved on)."))
    if request.POST.get("decision") != "confirm":
        Encounter.objects.filter(pk=encounter.pk).update(proposal=None)
        encounter.proposal = None
        # Sent back: the player's page and the GM's other tabs learn it over the live stream
        # (the same head: the player's fragment key and the GM's poll change with the proposal).
        encounter_log.publish_after_commit(encounter, encounter_log.head_seq(encounter))
        return _after_change(request, encounter, role)

    action = Action.parse(p["action"])

    def check(locked, state):
        if not locked.proposal or locked.proposal.get("token") != token:
            raise NotTheirs(_("That player's step is no longer waiting."))
        _still_theirs(p["user"], action)(locked, state)
        locked.proposal = None
        locked.save(update_fields=["proposal"])

    from django.contrib.auth import get_user_model

    player = get_user_model().objects.filter(pk=p["user"]).first()
    try:
        row = encounter_log.step(encounter, p["action"], expected_seq=p["head"], user=player,
                                 faces=p.get("faces") or None, dice_mode=p.get("mode"), check=check)
    except encounter_log.StaleStep:
        Encounter.objects.filter(pk=encounter.pk).update(proposal=None)
        encounter_log.publish_after_commit(encounter, encounter_log.head_seq(encounter))
        return _after_change(request, encounter, role, status=409,
                             error=_("The encounter moved on before this step was confirmed: it was not applied."))
    except (NotTheirs, IllegalAction, ValueError, DiceError, encounter_log.EncounterClosed) as exc:
        Encounter.objects.filter(pk=encounter.pk).update(proposal=None)
        # The player's page stops waiting at once (the live stream, as for a step).
        encounter_log.publish_after_commit(encounter, encounter_log.head_seq(encounter))
        return _after_change(request, encounter, role, status=400, error=str(exc))
    encounter.proposal = None
    return _after_change(request, encounter, role, written=row)


@login_required
@require_POST
def players_setting(request, pk):
    """The GM's per-encounter setting: players act themselves, and the GM confirms their steps."""
    from django.shortcuts import redirect

    from .views import _get_encounter_for_user

    encounter, _role = _get_encounter_for_user(request, pk, gm=True)
    encounter.players_act = bool(request.POST.get("players_act"))
    encounter.gm_confirms = bool(request.POST.get("gm_confirms"))
    if not (encounter.players_act and encounter.gm_confirms):
        encounter.proposal = None
    encounter.save(update_fields=["players_act", "gm_confirms", "proposal"])
    encounter_log.publish_after_commit(encounter, encounter_log.head_seq(encounter))
    return redirect(encounter)


@login_required
@require_POST
def player_turn(request, pk):
    """A player's own seats of the ship's turn, submitted at once from their page: each choice
    applied as its own step through the one writer, each checked under its lock to be still
    theirs; the turn stops at a seat that is someone else's.  Their own dice ("I roll my own
    dice"): every die of their part of the turn asked at once, as the GM's physical dice."""
    from .turn import TurnDice, TurnMovedOn, play_turn, plan_of, seat_owner
    from .views import _expected, _get_encounter_for_user, _turn_answer, _turn_probe

    encounter, role = _get_encounter_for_user(request, pk)
    if role != Membership.PLAYER:
        raise PermissionDenied("The GM plays the ship's turn from the runner.")
    if not encounter.players_act:
        return _answer(request, encounter, role, status=400, play_error=NOT_ON)
    if encounter.status != Encounter.ACTIVE:
        return _answer(request, encounter, role, status=400,
                       play_error="The encounter is paused or finished: nothing was applied.")
    if encounter.gm_confirms:
        return _answer(request, encounter, role, status=400,
                       play_error="The GM confirms each step: take your steps one at a time.")
    now = encounter_log.current(encounter)
    if _expected(request) != now.head:
        return _answer(request, encounter, role, status=409, play_error=MOVED_ON)
    ship = request.POST.get("ship", "")
    seats = [(actor, request.POST.get(f"choice.{actor}", "")) for actor in request.POST.getlist("seat")]
    owner = seat_owner(encounter, now)
    theirs = {seat.actor for seat in plan_of(encounter, now) or () if owner(seat) == request.user.pk}
    # a player never submits another seat: every posted seat is theirs now, or nothing is applied
    if not seats or any(actor not in theirs for actor, _ in seats):
        return _answer(request, encounter, role, status=400, play_error=NOT_YOURS)
    own = request.POST.get("roll") == "own"

    def answer(*, status=200, pending=None, error="", notice=""):
        return _answer(request, encounter, role, status=status, play_prompt=pending,
                       play_error=error or None, play_notice=notice or None)

    if request.POST.get("probe") and own:
        return _turn_probe(request, encounter, role, ship=ship, seats=seats, answer=answer, own=True)
    user = request.user.pk
    return _turn_answer(
        request, encounter, role, ship=ship, seats=seats, user=request.user, answer=answer, own=own,
        play=lambda faces: play_turn(encounter, ship=ship, seats=seats, expected_seq=now.head, user=request.user,
                                     faces=faces, mode=Encounter.OWN if own else Encounter.AUTO,
                                     check=lambda action: _still_theirs(user, Action.parse(action))),
        moved_on=(TurnMovedOn, NotTheirs), dice=TurnDice)
