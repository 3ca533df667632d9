"""``manage.py run_scenario FILE`` prints the played scenario as JSON, or refuses a bad file."""
from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from rulesets.core import registry
from tests.rulesets.core.toy import RULESET as TOY

SCENARIOS = Path(__file__).resolve().parent.parent / "rulesets" / "core" / "scenarios"


@pytest.fixture(autouse=True)
def toy_ruleset():
    registry.register(TOY)
    yield TOY
    registry.unregister(TOY.key)


def run(*args) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command("run_scenario", *map(str, args), stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_the_command_prints_the_final_state_and_log_as_json():
    out, _ = run(SCENARIOS / "toy-duel.yaml")
    result = json.loads(out)
    assert result["state"]["winner"] == "blue"
    assert [s["hull"] for s in result["state"]["ships"]] == [4, 0]
    assert result["log"][0]["text"] == "Alpha hits Bravo for 3."
    assert result["steps"][0]["actions"][0]["dice"] == ["4/d6", "5/d6", "3/d6"]
    assert "initial_state" not in result


def test_each_step_adds_the_state_after_every_action():
    out, _ = run(SCENARIOS / "toy-duel.yaml", "--each-step")
    result = json.loads(out)
    assert result["initial_state"]["ships"][1]["hull"] == 4
    assert result["steps"][0]["actions"][0]["state"]["ships"][1]["hull"] == 1


def test_indent_zero_prints_one_line():
    out, _ = run(SCENARIOS / "toy-auto.yaml", "--indent", "0")
    assert "\n" not in out.strip()
    assert json.loads(out)["state"]["over"] is True


def test_the_same_file_twice_prints_the_same_json():
    assert run(SCENARIOS / "toy-auto.yaml")[0] == run(SCENARIOS / "toy-auto.yaml")[0]


def test_a_bad_file_is_refused_with_line_and_field_and_prints_nothing(tmp_path):
    bad = tmp_path / "bad.yaml"
    text = (SCENARIOS / "toy-duel.yaml").read_text().replace("dice: [4, 5, 3]", "dice: [4, 7, 3]")
    bad.write_text(text)
    out = StringIO()
    with pytest.raises(CommandError) as info:
        call_command("run_scenario", str(bad), stdout=out)
    assert str(info.value) == f"{bad}: line 23, steps[0].dice: 7 is not a face of a d6 (die 2, for Alpha fires at Bravo)"
    assert out.getvalue() == ""


def test_a_missing_file_is_refused(tmp_path):
    with pytest.raises(CommandError, match="cannot read the file"):
        run(tmp_path / "nowhere.yaml")
