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
from rulesets.cepheus.turn import THEN
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
    # A crew member's second action (a seat "<id>+then") comes before their "done".
    ship = data["ship"]
    seats = data["seat"]
    for n, actor in enumerate(seats):
        now = encounter_log.current(by_hand)
        if CEP.turn_ship(now.state) != ship or CEP.actor_ship(now.state) != ship:
            break
        member = actor.removesuffix(THEN)
        choice = data[f"choice.{actor}"]
        if actor.endswith(THEN) and choice.startswith("done "):
            continue  # nothing more: the "done" was posted after the first action
        as_gm.post(reverse("encounters:step", args=[by_hand.pk]), {"action": choice, "expected_seq": now.head})
        now = encounter_log.current(by_hand)
        crew = now.state.acting_crew if now.state.phase == "crew" else None
        then_next = n + 1 < len(seats) and seats[n + 1] == member + THEN and \
            not data[f"choice.{seats[n + 1]}"].startswith("done ")
        if crew is not None and crew.id == member and not choice.startswith("done ") and not then_next:
            as_gm.post(reverse("encounters:step", args=[by_hand.pk]),
                       {"action": f"done actor={member}", "expected_seq": now.head})
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


def _prompt(page: str) -> str:
    at = page.index('id="dice-entry"')
    return page[at:page.index("</form>", at)]


def _boxes(prompt: str) -> list[tuple[str, int, bool]]:
    """(die key, sides, asked whatever is rolled) of each box of a whole turn's prompt, in order."""
    import html
    import re

    found = re.findall(r'<input type="hidden" name="die" value="([^"]*)"><input type="number" id="die-\d+" '
                       r'name="face" data-key="[^"]*" min="1" max="(\d+)"([^>]*)>', prompt)
    return [(html.unescape(key), int(sides), " required" in rest) for key, sides, rest in found]


def _manual_fight(campaign, gm, name="Turn") -> Encounter:
    encounter = _fight(campaign, gm, name)
    Encounter.objects.filter(pk=encounter.pk).update(dice_mode=Encounter.MANUAL)
    encounter.refresh_from_db()
    return encounter


def test_with_physical_dice_the_whole_turn_asks_every_die_at_once_then_applies_the_steps(campaign, gm, as_gm):
    """Physical dice: one prompt holds every die of the turn, in the order the rules roll them;
    nothing is written until the faces are in; then the same steps as one by one, each with the
    faces it reads, every face typed once (Il turno: each crew member acts in turn)."""
    encounter = _manual_fight(campaign, gm)
    start = encounter_log.head_seq(encounter)
    data = _form(encounter)
    url = reverse("encounters:turn", args=[encounter.pk])
    response = as_gm.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert encounter_log.head_seq(encounter) == start  # nothing written yet
    prompt = _prompt(response.content.decode())
    boxes = _boxes(prompt)
    assert len(boxes) >= 2, "the turn's dice, of more than one roll"
    assert f'name="ship" value="{data["ship"]}"' in prompt
    # the prompt is kept with the encounter: a reload (another device) shows it again
    page = as_gm.get(reverse("encounters:detail", args=[encounter.pk])).content.decode()
    assert _boxes(_prompt(page)) == boxes

    faces = {key: min(4, sides) for key, sides, _ in boxes}
    posted = {**data, "die": [k for k, _, _ in boxes], "face": [str(faces[k]) for k, _, _ in boxes]}
    response = as_gm.post(url, posted, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    for _ in range(3):  # a branch the good roll did not follow asks for the dice it rolls (typed ones kept)
        if 'id="dice-entry"' not in page:
            break
        more = _boxes(_prompt(page))
        assert all(k in faces for k, _, _ in more if k in faces)
        faces.update({key: min(4, sides) for key, sides, _ in more if key not in faces})
        posted = {**data, "die": [k for k, _, _ in more], "face": [str(faces[k]) for k, _, _ in more]}
        page = as_gm.post(url, posted, HTTP_HX_REQUEST="true").content.decode()
    assert 'id="dice-entry"' not in page
    rows = _rows(encounter, start)
    assert len(rows) > 1
    # the same steps, the same faces, as the panel with app dice would write with these faces
    rolled = [int(d.split("/")[0]) for _, dice in rows for d in dice]
    assert rolled and all(f <= 4 for f in rolled)
    assert len(rolled) <= len(faces)
    assert encounter_log.current(encounter).head == start + len(rows)
    assert Encounter.objects.get(pk=encounter.pk).dice_prompt is None


def test_with_physical_dice_the_turn_writes_what_posting_each_step_with_its_faces_writes(campaign, gm, as_gm):
    """The turn's faces, applied as the steps the log records: the same rows as the GM posting
    each step with its own faces through the step form."""
    turned = _manual_fight(campaign, gm, "Turned")
    by_hand = _manual_fight(campaign, gm, "By hand")
    start = encounter_log.head_seq(turned)
    data = _form(turned)
    url = reverse("encounters:turn", args=[turned.pk])
    boxes = _boxes(_prompt(as_gm.post(url, data, HTTP_HX_REQUEST="true").content.decode()))
    as_gm.post(url, {**data, "die": [k for k, _, _ in boxes], "face": [str(min(3, s)) for _, s, _ in boxes]},
               HTTP_HX_REQUEST="true")
    rows = _rows(turned, start)
    assert rows
    for action, dice in rows:
        head = encounter_log.head_seq(by_hand)
        as_gm.post(reverse("encounters:step", args=[by_hand.pk]),
                   {"action": action, "expected_seq": head, "face": [d.split("/")[0] for d in dice]})
    assert _rows(by_hand, start) == rows


def test_a_face_out_of_range_is_refused_beside_its_box_and_nothing_applied(campaign, gm, as_gm):
    encounter = _manual_fight(campaign, gm)
    start = encounter_log.head_seq(encounter)
    data = _form(encounter)
    url = reverse("encounters:turn", args=[encounter.pk])
    boxes = _boxes(_prompt(as_gm.post(url, data, HTTP_HX_REQUEST="true").content.decode()))
    values = [str(min(4, s)) for _, s, _ in boxes]
    values[1] = "9"  # a d6 shows 1 to 6
    response = as_gm.post(url, {**data, "die": [k for k, _, _ in boxes], "face": values}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert encounter_log.head_seq(encounter) == start
    prompt = _prompt(response.content.decode())
    assert 'aria-invalid="true"' in prompt
    assert "Die 2: 9 is not a face of a d6 (1-6)." in prompt
    # the faces typed are kept in the boxes
    assert 'value="9"' in prompt and prompt.count(f'value="{values[0]}"') >= 1
    saved = Encounter.objects.get(pk=encounter.pk).dice_prompt
    assert saved["typed"][boxes[0][0]] == int(values[0])


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


def test_a_crew_members_second_action_is_a_seat_of_its_own(campaign, gm, as_gm):
    """Il turno: each crew member takes one minor and one significant action.  The pilot's second
    action (a change of speed after a manoeuvre) is a seat of its own on the panel, after the
    pilot's first; chosen, it is applied right after the first."""
    encounter = _fight(campaign, gm)
    start = encounter_log.head_seq(encounter)
    seats = plan_of(encounter, encounter_log.current(encounter))
    pilot = next(s for s in seats if s.actor + THEN in {t.actor for t in seats})
    then = next(s for s in seats if s.actor == pilot.actor + THEN)
    assert "a second action" in then.label
    order = [s.actor for s in seats]
    assert order.index(then.actor) == order.index(pilot.actor) + 1
    speed = next(a for a in then.choices if a.kind == "adjust_speed")
    assert pilot.default.kind not in ("adjust_speed", "done")  # the significant one first
    page = as_gm.get(reverse("encounters:detail", args=[encounter.pk])).content.decode()
    assert f'name="choice.{then.actor}"' in page and "a second action" in page
    data = _form(encounter)
    data[f"choice.{then.actor}"] = speed.to_str()
    as_gm.post(reverse("encounters:turn", args=[encounter.pk]), data)
    actions = [a for a, _ in _rows(encounter, start)]
    assert actions[:2] == [pilot.default.to_str(), speed.to_str()]
    # both actions taken, the rules pass on to the next crew member (no "done" left to tap)
    assert all(f"actor={pilot.actor}" not in a for a in actions[2:])


def test_as_faces_are_typed_the_prompt_says_which_dice_they_make_needed_and_keeps_them(campaign, gm, as_gm):
    """The prompt asked again with the faces typed so far (nothing applied): the dice the typed
    faces make needed are asked for, the faces kept with the encounter (a reload, another device)."""
    encounter = _manual_fight(campaign, gm)
    start = encounter_log.head_seq(encounter)
    data = _form(encounter)
    url = reverse("encounters:turn", args=[encounter.pk])
    boxes = _boxes(_prompt(as_gm.post(url, data, HTTP_HX_REQUEST="true").content.decode()))
    first = boxes[0]
    response = as_gm.post(url, {**data, "probe": "1", "die": [k for k, _, _ in boxes],
                                "face": ["2"] + [""] * (len(boxes) - 1)}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert encounter_log.head_seq(encounter) == start
    again = _boxes(_prompt(response.content.decode()))
    assert again[0] == first
    assert Encounter.objects.get(pk=encounter.pk).dice_prompt["typed"] == {first[0]: 2}
    page = as_gm.get(reverse("encounters:detail", args=[encounter.pk])).content.decode()
    assert 'data-key="' in _prompt(page) and 'value="2"' in _prompt(page)


def test_apply_with_a_needed_die_empty_says_so_beside_it_and_applies_nothing(campaign, gm, as_gm):
    encounter = _manual_fight(campaign, gm)
    start = encounter_log.head_seq(encounter)
    data = _form(encounter)
    url = reverse("encounters:turn", args=[encounter.pk])
    boxes = _boxes(_prompt(as_gm.post(url, data, HTTP_HX_REQUEST="true").content.decode()))
    values = [str(min(4, s)) for _, s, _ in boxes]
    values[-1] = ""  # the last die of the turn, needed, left empty
    assert boxes[-1][2]
    response = as_gm.post(url, {**data, "die": [k for k, _, _ in boxes], "face": values}, HTTP_HX_REQUEST="true")
    assert encounter_log.head_seq(encounter) == start
    prompt = _prompt(response.content.decode())
    assert f"Die {len(boxes)}: the turn needs this die; type its face." in prompt
    assert 'aria-invalid="true"' in prompt


def test_a_prompt_asked_again_after_the_encounter_moved_on_changes_nothing(campaign, gm, as_gm):
    encounter = _manual_fight(campaign, gm)
    data = _form(encounter)
    url = reverse("encounters:turn", args=[encounter.pk])
    boxes = _boxes(_prompt(as_gm.post(url, data, HTTP_HX_REQUEST="true").content.decode()))
    stale = {**data, "expected_seq": str(int(data["expected_seq"]) - 1), "probe": "1",
             "die": [k for k, _, _ in boxes], "face": ["3"] * len(boxes)}
    response = as_gm.post(url, stale, HTTP_HX_REQUEST="true")
    assert response.status_code == 204  # nothing swapped: the live page brings the new head
    assert Encounter.objects.get(pk=encounter.pk).dice_prompt["typed"] == {}


def test_a_box_that_is_not_a_number_is_refused_beside_it_the_others_kept(campaign, gm, as_gm):
    encounter = _manual_fight(campaign, gm)
    start = encounter_log.head_seq(encounter)
    data = _form(encounter)
    url = reverse("encounters:turn", args=[encounter.pk])
    boxes = _boxes(_prompt(as_gm.post(url, data, HTTP_HX_REQUEST="true").content.decode()))
    values = ["5", "x"] + ["4"] * (len(boxes) - 2)
    response = as_gm.post(url, {**data, "die": [k for k, _, _ in boxes], "face": values}, HTTP_HX_REQUEST="true")
    assert response.status_code == 400
    assert encounter_log.head_seq(encounter) == start
    prompt = _prompt(response.content.decode())
    assert "Die 2: &#x27;x&#x27; is not a whole number." in prompt
    assert 'id="die-1" name="face" data-key' in prompt and 'value="5"' in prompt
