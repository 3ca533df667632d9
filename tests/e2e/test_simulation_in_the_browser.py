"""The GM starts a sweep in the browser, watches the progress bar move and reads the chart."""
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import screenshot

pytestmark = [pytest.mark.e2e]


def test_start_a_sweep_watch_the_bar_and_see_the_chart(asgi_server, browser_on, campaign, gm):
    page = browser_on(asgi_server, gm, "gm-password-123")
    page.goto(campaign.get_absolute_url())
    page.click("text=New simulation")
    for box in page.locator("input[name=fleets]").all():
        box.check()
    page.select_option("select[name=sweep]", "max_rounds")
    # Enough battles that the run outlasts several of the page's one-second polls even on
    # a quiet machine (7,000 once finished between two polls in CI).
    page.fill("input[name=trials_per_point]", "20000")
    page.fill("input[name=chunk_size]", "250")
    page.click("button:has-text('Run the simulation')")
    expect(page.locator("h1")).to_have_text("Simulation 1")

    bar = page.locator("#run-progress")
    seen = set()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.locator("#run-status").inner_text() == "Done":
            break
        if bar.count():
            seen.add(bar.get_attribute("value"))
        page.wait_for_timeout(100)
    print(f"sweep watched for {time.monotonic() - deadline + 120:.1f} s: {sorted(seen, key=lambda v: int(v or 0))}")
    expect(page.locator("#run-status")).to_have_text("Done", timeout=10_000)
    assert len(seen - {"0", None}) >= 2, f"the bar did not move: {seen}"
    expect(page.locator("svg.chart").first).to_be_visible()
    expect(page.locator("#results table")).to_contain_text("10 rounds")
    screenshot(page, "simulation-results")
