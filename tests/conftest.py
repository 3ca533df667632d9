"""Shared fixtures: the three personas (GM, player of the campaign, outsider) and a campaign.

The campaign plays the toy ruleset (tests/rulesets/core/toy.py), so these tests show
the app's behaviour whatever the real rule systems do; each real ruleset has its own
tests under tests/rulesets/<key>/.
"""
import os
import uuid

import pytest
from django.conf import settings

from rulesets.core import registry
from tests.rulesets.core.toy import RULESET as TOY

registry.register(TOY)

# This run's own Celery queue: two test runs on one machine (one Redis) never take each other's
# tasks.  The workers and servers the tests start inherit it (tests/workers.py copies the
# environment); this process sends to it.
if "CELERY_QUEUE" not in os.environ:
    os.environ["CELERY_QUEUE"] = f"tests-{uuid.uuid4().hex[:12]}"
settings.CELERY_TASK_DEFAULT_QUEUE = os.environ["CELERY_QUEUE"]
from config.celery import app as _celery_app  # noqa: E402

_celery_app.conf.task_default_queue = os.environ["CELERY_QUEUE"]


@pytest.fixture
def gm(django_user_model):
    return django_user_model.objects.create_user("gm", "gm@example.com", "gm-password-123")


@pytest.fixture
def player(django_user_model):
    return django_user_model.objects.create_user("player", "player@example.com", "player-password-123")


@pytest.fixture
def outsider(django_user_model):
    return django_user_model.objects.create_user("outsider", "outsider@example.com", "outsider-password-123")


@pytest.fixture
def campaign(gm, player):
    from campaigns.models import Campaign, CrewMember, Fleet, Membership, Ship, ShipTemplate

    campaign = Campaign.create_for(gm, name="The Reach", ruleset="toy", description="Pirates.")
    Membership.objects.create(campaign=campaign, user=player, role=Membership.PLAYER)
    frigate = ShipTemplate.objects.create(ruleset="toy", name="Toy frigate", stats={"hull": 10})
    blue = Fleet.objects.create(campaign=campaign, name="Blue squadron", side="blue", colour="#3366cc")
    red = Fleet.objects.create(campaign=campaign, name="Red squadron", side="red", colour="#cc3333")
    alpha = Ship.from_template(frigate, blue, "Alpha")
    bravo = Ship.from_template(frigate, red, "Bravo")
    CrewMember.objects.create(ship=alpha, name="Ann", position="gunner", skills={"gunnery": 1}, player=player)
    CrewMember.objects.create(ship=bravo, name="Bob", position="gunner", skills={"gunnery": 2})
    return campaign


@pytest.fixture
def other_campaign(outsider):
    from campaigns.models import Campaign, Fleet

    campaign = Campaign.create_for(outsider, name="Secret war", ruleset="toy")
    Fleet.objects.create(campaign=campaign, name="Hidden fleet", side="grey")
    return campaign


@pytest.fixture
def as_gm(client, gm):
    client.force_login(gm)
    return client


@pytest.fixture
def as_player(client, player):
    client.force_login(player)
    return client


@pytest.fixture
def as_outsider(client, outsider):
    client.force_login(outsider)
    return client


@pytest.fixture(autouse=True)
def _fast_passwords(request):
    """Quick password hashing in tests (skipped when pure engine tests run with -p no:django)."""
    if not request.config.pluginmanager.hasplugin("django"):
        return
    request.getfixturevalue("settings").PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _each_test_reads_english(request):
    """Each test starts in the default language and leaves nothing behind: a request a test makes
    through Django's test client activates the reader's language in the test's thread, where it
    would stay for the next test (rule messages render through the active language)."""
    yield
    if request.config.pluginmanager.hasplugin("django"):
        from django.utils import translation

        translation.deactivate()
