"""Issue 14: parts of the runner that are a pure function of their data are rendered once per
content (encounters/templatetags/runner_tags.py): a log step, a ship card, a ship's override
fields; URLs are reversed once.  What is kept must never depend on more than its key."""
import random

import pytest
from django.template.loader import get_template
from django.urls import reverse

from encounters.templatetags import runner_tags
from encounters.views import ruleset_partials
from rulesets.core import registry
from rulesets.core.engine import Viewer
from rulesets.core.replay import play_out


def test_url_of_gives_what_reverse_gives():
    assert runner_tags.url_of("encounters:reroll", 7, 12) == reverse("encounters:reroll", args=[7, 12])
    assert runner_tags.url_of("encounters:undo", 7) == reverse("encounters:undo", args=[7])
    assert runner_tags.url_of("encounters:undo", 8) == reverse("encounters:undo", args=[8])


@pytest.mark.parametrize("key", [r.key for r in registry.all_rulesets()])
def test_a_ship_card_reads_only_its_ship(key):
    """The contract of the ship-card partial (docs/ruleset-partials.md): the card rendered with
    the whole page's context is the card rendered with its ship alone, so a card kept by
    content is the right card on every page."""
    engine = registry.get(key)
    template = get_template(f"{ruleset_partials(key)}#ship-card")
    state = play_out(engine, engine.setup(engine.example_setup(0)), random.Random(key), max_steps=12).state
    for viewer in (Viewer.gm(), Viewer.player({engine.actor_ship(state) or ""})):
        view = engine.view(state, viewer)
        assert view["ships"]
        for ship in view["ships"]:
            page = {"view": view, "state": state, "is_gm": viewer.is_gm, "head": 12, "board_actions": [],
                    "own_ships": sorted(viewer.ships)}
            alone = template.render({"ship": ship})
            assert template.render({**page, "ship": ship}) == alone
            assert runner_tags.ship_card(ruleset_partials(key), ship) == alone


def test_a_changed_ship_gets_a_new_card_and_an_unchanged_one_the_kept_card():
    partials = ruleset_partials("cepheus")
    ship = {"id": "s1", "name": "Lantern", "side": "Traders", "hull": 10, "structure": 8, "armour": 2}
    first = runner_tags.ship_card(partials, ship)
    assert runner_tags.ship_card(partials, dict(ship)) is first  # kept: the same content
    hit = runner_tags.ship_card(partials, {**ship, "hull": 4})
    assert hit != first and "4" in hit


def test_kept_parts_are_forgotten_past_their_limit(monkeypatch):
    monkeypatch.setattr(runner_tags, "RENDERED", 3)
    partials = ruleset_partials("cepheus")
    for hull in range(10):
        runner_tags.ship_card(partials, {"id": "s1", "name": "Lantern", "side": "Traders", "hull": hull + 100})
    assert len(runner_tags._rendered) <= 3
