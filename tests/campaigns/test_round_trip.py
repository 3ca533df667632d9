"""Issue 26, "Data that does not come back": every system's export imports back to the same export.

A campaign, each of its fleets and the template library of every rule system are exported,
imported and exported again: the second export is the first.  On the demo campaigns
(``manage.py seed_demo``) and on a demo campaign after an encounter played by the bot was
finished with its damage carried back to the ships (``encounters.log.finish``).
"""
import json
import random

import pytest
from django.core.management import call_command

from campaigns import exchange
from campaigns.models import Campaign, ShipTemplate
from encounters import log
from encounters.models import Encounter
from rulesets.core import registry
from rulesets.core.engine import is_legal

pytestmark = pytest.mark.django_db

SYSTEMS = [e.key for e in registry.all_rulesets() if e.key != "toy"]
#: bot steps played before the encounter is finished (enough for hits in every system)
STEPS = 150


@pytest.fixture
def demo(django_user_model):
    call_command("seed_demo", verbosity=0)
    return django_user_model.objects.get(username="gm")


def _as_file(data: dict) -> str:
    return json.dumps(data)


def _assert_round_trips(campaign: Campaign, gm) -> None:
    exported = exchange.export_campaign(campaign)
    copy = exchange.import_campaign(_as_file(exported), gm)
    assert exchange.export_campaign(copy) == exported
    for fleet in campaign.fleets.all():
        exported = exchange.export_fleet(fleet)
        target = Campaign.create_for(gm, name=f"Into {fleet.name}", ruleset=campaign.ruleset)
        imported = exchange.import_fleet(_as_file(exported), target)
        assert exchange.export_fleet(imported) == exported


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_demo_campaign_and_its_fleets_come_back_as_they_were_exported(key, demo):
    _assert_round_trips(Campaign.objects.get(ruleset=key), demo)


@pytest.mark.parametrize("key", SYSTEMS)
def test_the_template_library_comes_back_as_it_was_exported(key, demo):
    exported = exchange.export_templates(key)
    ShipTemplate.objects.filter(ruleset=key).delete()
    exchange.import_templates(_as_file(exported))
    assert exchange.export_templates(key) == exported


def _play_and_carry_back(campaign: Campaign, gm) -> None:
    engine = registry.get(campaign.ruleset)
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    encounter = Encounter.objects.create(campaign=campaign, name="Skirmish", ruleset=campaign.ruleset,
                                         seed="issue-26", setup={"ships": ships, "options": {}}, created_by=gm)
    rng = random.Random(26)
    for _ in range(STEPS):
        now = log.current(encounter)
        if not engine.legal_actions(now.state):
            break
        action = engine.policy(now.state, rng)
        assert is_legal(engine, now.state, action)
        log.step(encounter, action.to_str(), expected_seq=now.head, user=gm)
    log.finish(encounter, carry_damage=True)


@pytest.mark.parametrize("key", SYSTEMS)
def test_a_campaign_that_carried_damage_back_from_an_encounter_comes_back_as_it_was(key, demo):
    campaign = Campaign.objects.get(ruleset=key)
    _play_and_carry_back(campaign, demo)
    assert any(ship.damage for ship in campaign.ships.all()), "the encounter left no damage to carry"
    _assert_round_trips(campaign, demo)
