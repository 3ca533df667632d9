import pytest

from encounters.models import Encounter


@pytest.fixture
def encounter(campaign, gm):
    ships = [s.setup_spec() for s in campaign.ships.select_related("fleet").prefetch_related("crew")]
    return Encounter.objects.create(campaign=campaign, name="Skirmish", ruleset="toy", seed="fixed-seed",
                                    setup={"ships": ships, "options": {"max_rounds": 30}}, created_by=gm)
