"""The example scenario files of docs/scenarios/ (void_d20-*.yaml) run, and every expectation in them holds."""
from __future__ import annotations

from pathlib import Path

import pytest

from rulesets.core.scenario import load_scenario, run_scenario

FILES = sorted((Path(__file__).resolve().parents[3] / "docs" / "scenarios").glob("void_d20-*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_example_scenario_runs(path):
    result = run_scenario(load_scenario(path))
    assert result["state"]["over"] is True
    texts = [entry["text"] for entry in result["log"]]
    assert any(t.startswith("Death table") for t in texts)
    assert any("breaks into Grinder" in t for t in texts)


def test_there_is_an_example():
    assert FILES
