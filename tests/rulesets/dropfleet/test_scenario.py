"""The example scenario files of docs/scenarios/ (dropfleet-*.yaml) run, and every expectation in them holds."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulesets.core.scenario import load_scenario, run_scenario

FILES = sorted((Path(__file__).resolve().parents[3] / "docs" / "scenarios").glob("dropfleet-*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_example_scenario_runs(path):
    result = run_scenario(load_scenario(path))
    assert result["state"]["over"] is True
    assert any("Radiation burst" in entry["text"] for entry in result["log"])
    assert any("is crippled" in entry["text"] for entry in result["log"])


def test_there_is_an_example():
    assert FILES
