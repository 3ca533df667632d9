"""Round 0 is not a round a person counts: pages say "Before the first round" (issue 27)."""
import pytest

from encounters.templatetags.words import round_title
from tests.encounters.test_leaks import demo_campaign, start


def test_a_round_is_headed_in_words():
    assert round_title(0) == "Before the first round"
    assert round_title(1) == "Round 1" and round_title("12") == "Round 12"


@pytest.mark.django_db
def test_the_runner_and_the_players_page_of_a_fight_not_begun_say_before_the_first_round(client, gm, player):
    campaign = demo_campaign("void_d20", gm, player)  # Void d20 sets up in round 0: initiative begins round 1
    encounter = start(campaign, gm)
    for user in (gm, player):
        client.force_login(user)
        page = client.get(encounter.get_absolute_url()).content.decode()
        assert "Before the first round" in page and "Round 0" not in page
