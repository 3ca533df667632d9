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


@pytest.mark.parametrize("key", ["cepheus", "void_d20"])
def test_damage_of_a_crew_member_later_removed_is_left_out_and_the_campaign_comes_back(key, demo):
    """Issue 26: a ship carried a crew member's damage back, then the GM removed them from the crew.
    Their damage belongs to no one: the export leaves it out and the campaign imports back."""
    campaign = Campaign.objects.get(ruleset=key)
    ship = next(s for s in campaign.ships.all() if s.crew.count() >= 2)
    gone, stays = list(ship.crew.all())[:2]
    ship.damage = {"crew": {gone.setup_spec()["id"]: {"damage": 2} if key == "cepheus" else {"hp_lost": 2, "void": 1},
                            stays.setup_spec()["id"]: {"rads": 5} if key == "cepheus" else {"void": 2}}}
    ship.save(update_fields=["damage"])
    gone.delete()
    exported = exchange.export_campaign(campaign)
    carried = next(s for f in exported["campaign"]["fleets"] for s in f["ships"] if s["name"] == ship.name)["damage"]
    index = [c["name"] for c in next(s for f in exported["campaign"]["fleets"] for s in f["ships"]
                                     if s["name"] == ship.name)["crew"]].index(stays.name)
    assert carried == {"crew": {f"crew[{index}]": {"rads": 5} if key == "cepheus" else {"void": 2}}}
    _assert_round_trips(campaign, demo)


@pytest.mark.parametrize("key", ["cepheus", "void_d20"])
def test_damage_naming_a_crew_entry_the_ship_does_not_hold_is_refused_naming_it(key, demo):
    """Issue 26: a file whose damage names ``crew[5]`` on a ship of fewer is refused, naming the entry
    (docs/import-export.md: dropping it would put the wounds on no one without a word)."""
    data = exchange.export_campaign(Campaign.objects.get(ruleset=key))
    ship = next(s for f in data["campaign"]["fleets"] for s in f["ships"] if s["crew"])
    count = len(ship["crew"])
    ship["damage"] = {"crew": {f"crew[{count}]": {"damage": 2} if key == "cepheus" else {"void": 1}}}
    with pytest.raises(exchange.ImportRefused) as refused:
        exchange.import_campaign(_as_file(data), demo)
    held = f"crew[0] to crew[{count - 1}]" if count > 1 else "crew[0]"
    assert str(refused.value).endswith(
        f".damage.crew.crew[{count}]: no crew entry of this ship is 'crew[{count}]' (its crew entries: {held}); damage "
        f"of a crew member no longer aboard belongs to no one: remove it from the file, or add the crew member "
        f"back to the ship's crew list.")
