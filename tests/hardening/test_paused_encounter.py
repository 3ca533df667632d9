"""Issue 15, "Background work survives faults": a paused encounter refuses steps, auto-play and undo."""
import pytest
from django.urls import reverse

from encounters import log
from encounters.models import Encounter, EncounterEvent

pytestmark = pytest.mark.django_db

PAUSED = "This encounter is paused: resume it to play on."


def _pause(encounter):
    Encounter.objects.filter(pk=encounter.pk).update(status=Encounter.PAUSED)


def _first_action(encounter):
    now = log.current(encounter)
    return encounter.engine.legal_actions(now.state)[0].to_str()


def test_the_write_path_refuses_every_change_to_a_paused_encounter_but_a_reveal(encounter, gm):
    log.step(encounter, _first_action(encounter), expected_seq=0, user=gm, gm_only=True)
    _pause(encounter)
    with pytest.raises(log.EncounterClosed, match=PAUSED):
        log.step(encounter, _first_action(encounter), expected_seq=1, user=gm)
    with pytest.raises(log.EncounterClosed, match=PAUSED):
        log.undo(encounter, expected_seq=1, user=gm)
    with pytest.raises(log.EncounterClosed, match=PAUSED):
        log.reroll(encounter, 1, expected_seq=1, user=gm)
    log.reveal(encounter, 1, expected_seq=1, user=gm)  # showing a roll changes nothing in the fight
    assert list(encounter.events.values_list("kind", flat=True)) == [EncounterEvent.STEP, EncounterEvent.REVEAL]


@pytest.mark.parametrize("url, data", [
    ("encounters:step", {"action": "__first__", "expected_seq": "0"}),
    ("encounters:auto", {"mode": "step", "expected_seq": "0"}),
    ("encounters:undo", {"expected_seq": "0"}),
])
def test_the_runner_says_so_and_writes_nothing(as_gm, encounter, url, data):
    if data.get("action") == "__first__":
        data = {**data, "action": _first_action(encounter)}
    _pause(encounter)
    response = as_gm.post(reverse(url, args=[encounter.pk]), data, HTTP_HX_REQUEST="true")
    assert response.status_code in (400, 409)
    assert PAUSED in response.content.decode()
    assert not encounter.events.exists()
