"""Issue 15, "Background work survives faults": starting work while the broker is down.

The broker really is unreachable here: the Celery app is pointed at a Redis port nobody
listens on.  The GM sees a clear message, and no row is left "queued" forever.
"""
import pytest
from celery import current_app
from django.urls import reverse

from encounters.models import Encounter, EncounterAnalysis, SimulationRun

pytestmark = pytest.mark.django_db(transaction=True)  # views run outside a transaction, as in production

DOWN = "The background workers&#x27; queue cannot be reached just now, so nothing was started."


@pytest.fixture
def broker_down():
    conf = current_app.conf
    saved = conf.broker_url, conf.broker_transport_options, conf.broker_connection_timeout

    def reset_pools():
        current_app._pool = None
        current_app.amqp._producer_pool = None

    conf.broker_url, conf.broker_transport_options, conf.broker_connection_timeout = "redis://127.0.0.1:9/0", {}, 1
    reset_pools()
    yield
    conf.broker_url, conf.broker_transport_options, conf.broker_connection_timeout = saved
    reset_pools()


def test_a_simulation_asked_for_while_the_broker_is_down_is_refused_in_words(as_gm, campaign, broker_down):
    data = {"name": "Sweep", "fleets": [f.pk for f in campaign.fleets.all()], "sweep": "max_rounds",
            "trials_per_point": "10", "chunk_size": "10", "seed": "", "opt-max_rounds": "30"}
    response = as_gm.post(reverse("encounters:simulation_new", args=[campaign.pk]), data)
    assert response.status_code == 400
    assert DOWN in response.content.decode()
    assert response.context["form"].data["name"] == "Sweep"  # what was typed is still there
    assert not SimulationRun.objects.exists()


def test_an_analysis_asked_for_while_the_broker_is_down_is_refused_in_words(as_gm, encounter, broker_down):
    Encounter.objects.filter(pk=encounter.pk).update(status=Encounter.FINISHED)
    response = as_gm.post(reverse("encounters:analysis_start", args=[encounter.pk]), follow=True)
    assert DOWN in response.content.decode()
    assert not EncounterAnalysis.objects.exists()
