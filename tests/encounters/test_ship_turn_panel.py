"""The ship's-turn panel (issue 27): one form holds every crew seat of the Cepheus ship whose
turn it is; one POST applies the choices as the same steps, with the same dice, as posting them
one by one; a stale form is refused; a target's reaction stops it where the rules interrupt.
(Cepheus, Il turno: each crew member by position takes their actions, then the next.)"""
import pytest
from django.urls import reverse

from encounters import log as encounter_log
from encounters.autoplay import auto_play
from encounters.models import Encounter, EncounterEvent
from encounters.turn import panel, plan_of
from rulesets.core import registry

pytestmark = pytest.mark.django_db

CEP = registry.get("cepheus")
SEED = "ship-turn-panel"


def _fight(campaign, gm, name="Turn") -> Encounter:
    encounter = Encounter.objects.create(campaign=campaign, name=name, ruleset="cepheus", seed=SEED,
                                         setup=CEP.example_setup(0), created_by=gm)
    # the initiative steps (the bot's, seeded): up to the first crew turn
    for _ in range(20):
        now = encounter_log.current(encounter)
        if plan_of(encounter, now):
            return encounter
        auto_play(encounter, mode="step", expected_seq=now.head)
    pytest.fail("no crew turn began")


def _rows(encounter, after: int) -> list[tuple[str, list]]:
    return [(e.action, e.dice) for e in EncounterEvent.objects.filter(encounter=encounter, seq__gt=after).order_by("seq")]


def _form(encounter) -> dict:
    now = encounter_log.current(encounter)
    shown = panel(encounter, now, CEP.view(now.state, _gm_viewer()).get("ships", []))
    data = {"expected_seq": str(now.head), "ship": shown["ship"], "seat": [s["actor"] for s in shown["seats"]]}
    data.update({f"choice.{s['actor']}": s["default"] for s in shown["seats"]})
    return data


def _gm_viewer():
    from rulesets.core.engine import Viewer

    return Viewer(role="gm")


def test_the_runner_shows_every_seat_of_the_ships_turn_with_defaults(campaign, gm, as_gm):
    encounter = _fight(campaign, gm)
    page = as_gm.get(reverse("encounters:detail", args=[encounter.pk])).content.decode()
    assert 'id="ship-turn"' in page
    seats = plan_of(encounter, encounter_log.current(encounter))
    assert len(seats) >= 2  # every crew member still to act: here a pilot and a turret's fire control
    for seat in seats:
        assert f'name="choice.{seat.actor}"' in page
        assert seat.default in seat.choices


def test_one_post_plays_the_turn_as_the_same_steps_one_by_one(campaign, gm, as_gm):
    panelled = _fight(campaign, gm, "Panel")
    by_hand = _fight(campaign, gm, "By hand")
    start = encounter_log.head_seq(panelled)
    assert encounter_log.head_seq(by_hand) == start
    data = _form(panelled)
    response = as_gm.post(reverse("encounters:turn", args=[panelled.pk]), data)
    assert response.status_code == 302
    rows = _rows(panelled, start)
    assert len(rows) > 1

    # The same choices, one step at a time through the runner's step form: each seat's choice,
    # then "done" while that crew member still acts, until the turn ends or a reaction interrupts.
    ship = data["ship"]
    for actor in data["seat"]:
        now = encounter_log.current(by_hand)
        if CEP.turn_ship(now.state) != ship or CEP.actor_ship(now.state) != ship:
            break
        choice = data[f"choice.{actor}"]
        as_gm.post(reverse("encounters:step", args=[by_hand.pk]), {"action": choice, "expected_seq": now.head})
        now = encounter_log.current(by_hand)
        crew = now.state.acting_crew if now.state.phase == "crew" else None
        if crew is not None and crew.id == actor and not choice.startswith("done "):
            as_gm.post(reverse("encounters:step", args=[by_hand.pk]),
                       {"action": f"done actor={actor}", "expected_seq": now.head})
    assert _rows(by_hand, start) == rows


def test_a_stale_form_is_refused_and_nothing_applied(campaign, gm, as_gm):
    encounter = _fight(campaign, gm)
    data = _form(encounter)
    head = encounter_log.head_seq(encounter)
    data["expected_seq"] = str(head - 1)
    response = as_gm.post(reverse("encounters:turn", args=[encounter.pk]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "has moved on" in response.content.decode()
    assert encounter_log.head_seq(encounter) == head


def test_a_targets_reaction_stops_the_panel_and_the_rest_shows_again(campaign, gm, as_gm):
    encounter = _fight(campaign, gm)
    for _ in range(12):  # ship turns, until one holds an attack whose target may react
        data = _form(encounter)
        response = as_gm.post(reverse("encounters:turn", args=[encounter.pk]), data, HTTP_HX_REQUEST="true")
        now = encounter_log.current(encounter)
        if now.state.phase == "react":
            break
        while not plan_of(encounter, now) and not now.state.over:  # initiative, a delay: the bot's
            auto_play(encounter, mode="step", expected_seq=now.head)
            now = encounter_log.current(encounter)
    else:
        pytest.fail("no attack met a reaction")
    page = response.content.decode()
    assert response.status_code == 200
    assert "The rules interrupt the turn here" in page
    attacker = CEP.turn_ship(now.state)
    target = CEP.actor_ship(now.state)
    assert target != attacker  # the target decides now
    # The panel now holds the reaction first, then the attacker's crew still to act.
    assert 'name="choice.reaction"' in page
    seats = plan_of(encounter, now)
    assert seats[0].actor == "reaction" and "no_reaction" in {a.kind for a in seats[0].choices}
    gunner = now.state.queue[now.state.pos]  # the crew member whose attack waits
    assert gunner in [s.actor for s in seats[1:]]
    # One more submit: the reaction, then the rest of the turn.
    before = encounter_log.head_seq(encounter)
    response = as_gm.post(reverse("encounters:turn", args=[encounter.pk]), _form(encounter), HTTP_HX_REQUEST="true")
    after = encounter_log.current(encounter)
    first = EncounterEvent.objects.get(encounter=encounter, seq=before + 1)
    assert first.action == seats[0].default.to_str()  # the reaction, decided first
    if after.head == before + 1:  # the target may react again (a dodge, then sand): the panel asks again
        assert after.state.phase == "react"
        assert "The rules interrupt the turn here" in response.content.decode()
    else:  # the rest of the turn went on
        assert EncounterEvent.objects.get(encounter=encounter, seq=before + 2).action.startswith("done ")


def test_with_physical_dice_each_rolling_step_asks_its_dice_and_the_turn_goes_on(campaign, gm, as_gm):
    """Physical dice: the panel stops at each step that rolls with the dice prompt, the turn's
    choices kept on it; the faces typed are that step's, typed once, and the turn goes on."""
    import re

    encounter = _fight(campaign, gm)
    Encounter.objects.filter(pk=encounter.pk).update(dice_mode=Encounter.MANUAL)
    encounter.refresh_from_db()
    start = encounter_log.head_seq(encounter)
    data = _form(encounter)
    ship = data["ship"]
    url = reverse("encounters:turn", args=[encounter.pk])
    response = as_gm.post(url, data, HTTP_HX_REQUEST="true")
    typed = []
    for _ in range(30):
        page = response.content.decode()
        if 'id="dice-entry"' not in page:
            break
        prompt = page[page.index('id="dice-entry"'):page.index("</form>", page.index('id="dice-entry"'))]
        assert f'name="ship" value="{ship}"' in prompt  # the turn's choices ride on the prompt
        posted = {"expected_seq": re.search(r'name="expected_seq" value="(\d+)"', prompt).group(1), "ship": ship,
                  "seat": re.findall(r'name="seat" value="([^"]+)"', prompt)}
        posted.update({f"choice.{a}": c for a, c in re.findall(r'name="choice\.([^"]+)" value="([^"]+)"', prompt)})
        assert posted["seat"] == data["seat"]
        boxes = re.findall(r'<input type="number" id="die-\d+" name="face" min="1" max="(\d+)"[^>]*? required', prompt)
        assert boxes, "a prompt asks for at least one die"
        faces = [str(min(4, int(sides))) for sides in boxes]
        typed.append(faces)
        response = as_gm.post(url, {**posted, "face": faces}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
    else:
        pytest.fail("the turn kept asking for dice")
    assert typed, "the turn rolled dice"
    rolled = [dice for _, dice in _rows(encounter, start) if dice]
    # every face typed is in the log once, in the order typed
    assert [[d.split("/")[0] for d in dice] for dice in rolled] == typed
    now = encounter_log.current(encounter)
    assert now.state.over or CEP.turn_ship(now.state) != ship or CEP.actor_ship(now.state) != ship


def test_a_step_landing_between_two_of_the_turns_steps_stops_it_with_nothing_applied_twice(
        campaign, gm, as_gm, monkeypatch):
    """Another tab's step written between two of the turn's: the writer refuses the turn's next
    step (its expected sequence is stale); the steps before stay, once each."""
    import encounters.turn as turn

    encounter = _fight(campaign, gm)
    start = encounter_log.head_seq(encounter)
    data = _form(encounter)
    real = encounter_log.step
    calls = []

    def step_with_a_rival(enc, action, *, expected_seq, **kwargs):
        calls.append(action)
        if len(calls) == 2:  # someone else takes this very step first
            real(enc, action, expected_seq=expected_seq)
        return real(enc, action, expected_seq=expected_seq, **kwargs)

    monkeypatch.setattr(turn.encounter_log, "step", step_with_a_rival)
    response = as_gm.post(reverse("encounters:turn", args=[encounter.pk]), data, HTTP_HX_REQUEST="true")
    assert response.status_code == 409
    assert "moved on while this ship" in response.content.decode()
    rows = _rows(encounter, start)
    assert [a for a, _ in rows] == calls[:2]  # the turn's first step, the rival's; the turn's second not again
