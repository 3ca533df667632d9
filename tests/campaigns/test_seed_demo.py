"""`manage.py seed_demo`: demo accounts and one ready-to-run campaign per registered ruleset."""
import pytest
from django.core.management import call_command

from campaigns.models import Campaign, ShipTemplate
from rulesets.core import registry

pytestmark = pytest.mark.django_db


def test_seed_demo_makes_accounts_and_a_campaign_per_ruleset_with_two_fleets(django_user_model):
    call_command("seed_demo")
    gm = django_user_model.objects.get(username="gm")
    player = django_user_model.objects.get(username="player")
    assert gm.check_password("demo-gm-password") and django_user_model.objects.get(username="admin").is_staff
    for engine in registry.all_rulesets():
        campaign = Campaign.objects.get(ruleset=engine.key)
        assert campaign.gm == gm and player in campaign.players()
        assert len({f.side for f in campaign.fleets.all()}) == 2
        assert all(f.ships.exists() for f in campaign.fleets.all())
        assert ShipTemplate.objects.filter(ruleset=engine.key).count() == len(engine.templates())
        # Ready to run: its ships make a valid setup for the engine.
        spec = {"ships": [s.setup_spec() for s in campaign.ships.all()], "options": {}}
        assert engine.setup(spec) is not None


def test_seed_demo_is_safe_to_run_twice():
    call_command("seed_demo")
    counts = Campaign.objects.count(), ShipTemplate.objects.count()
    call_command("seed_demo")
    assert (Campaign.objects.count(), ShipTemplate.objects.count()) == counts
