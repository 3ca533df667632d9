"""A new user, in a real browser: signs up, creates a campaign, builds a fleet, crews a ship."""
import pytest
from playwright.sync_api import expect

from campaigns.models import CrewMember, Ship, ShipTemplate
from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_new_gm_signs_up_and_builds_a_fleet_in_the_browser(context_for):
    ShipTemplate.objects.create(ruleset="toy", name="Toy frigate", stats={"hull": 10})
    ShipTemplate.objects.create(ruleset="toy", name="Toy cutter", stats={"hull": 6})
    page = context_for()
    page.goto("/")
    page.click("text=Sign up")
    page.fill("input[name=username]", "nadia")
    page.fill("input[name=email]", "nadia@example.com")
    page.fill("input[name=password1]", "a-long-pass-phrase-42")
    page.fill("input[name=password2]", "a-long-pass-phrase-42")
    page.click("button:has-text('Create account')")
    expect(page.locator("h1")).to_have_text("Your campaigns")

    page.fill("input[name=name]", "Border patrol")
    page.select_option("select[name=ruleset]", "toy")
    page.click("button:has-text('Create campaign')")
    expect(page.locator("h1")).to_have_text("Border patrol")

    page.fill("#id_name", "Home guard")
    page.fill("#id_side", "Navy")
    page.click("button:has-text('Add fleet')")
    fleet = page.locator("section.fleet", has_text="Home guard")
    expect(fleet).to_be_visible()

    # htmx: the fleet swaps in place, no page load.
    # The picker shows each template with its stats ("Toy cutter — hull 6").
    picker = fleet.locator("select[name=template]")
    picker.select_option(value=picker.locator("option", has_text="Toy cutter").get_attribute("value"))
    fleet.locator("input[name=name]").fill("Wasp")
    fleet.locator("button:has-text('Add ship')").click()
    expect(page.locator("section.fleet", has_text="Home guard").locator("li.ship", has_text="Wasp")).to_be_visible()
    page.locator("li.ship", has_text="Wasp").locator("button:has-text('Clone')").click()
    expect(page.locator("li.ship", has_text="Wasp (copy)")).to_be_visible()

    page.click("text=Wasp >> nth=0")
    expect(page.locator("h1")).to_have_text("Wasp")
    page.fill("input[name=stats-hull]", "0")
    page.click("button:has-text('Save ship')")
    expect(page.locator(".has-error .errorlist")).to_have_text("Ensure this value is greater than or equal to 1.")
    page.fill("input[name=stats-hull]", "8")
    page.click("button:has-text('Save ship')")
    expect(page.locator(".messages")).to_contain_text("Wasp saved.")

    page.click("summary:has-text('Add a crew member')")
    page.fill("input[name=crew-name]", "Iris")
    page.select_option("select[name=crew-position]", "pilot")
    page.fill("input[name=sheet-gunnery]", "2")
    page.click("button:has-text('Add to crew')")
    expect(page.locator("#crew table")).to_contain_text("Iris")
    screenshot(page, "foundation-ship-editor")

    ship = Ship.objects.get(name="Wasp")
    assert ship.stats == {"hull": 8}
    assert CrewMember.objects.get(name="Iris").ship == ship
    page.goto(ship.campaign.get_absolute_url())
    screenshot(page, "foundation-campaign")
