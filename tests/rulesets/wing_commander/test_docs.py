"""docs/rulesets/wing_commander.md maps every inventory number to a test that exists (or a decision)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DOC = (ROOT / "docs" / "rulesets" / "wing_commander.md").read_text()
TESTS = Path(__file__).resolve().parent

NUMBERS = [f"WC-{n:02d}" for n in range(1, 51)] + [f"WC-N{n:02d}" for n in range(1, 18)]


def _tests() -> dict[str, set[str]]:
    out = {}
    for path in TESTS.glob("test_*.py"):
        tree = ast.parse(path.read_text())
        out[path.name] = {node.name for node in tree.body if isinstance(node, ast.FunctionDef)}
    return out


def test_every_inventory_number_has_a_row():
    rows = {line.split("|")[1].strip() for line in DOC.splitlines() if line.startswith("| WC-")}
    assert [n for n in NUMBERS if n not in rows] == []


def test_every_test_the_page_names_exists():
    tests = _tests()
    named = re.findall(r"`(test_[a-z_]+\.py)::(test_[a-z0-9_]+)`", DOC)
    assert named
    missing = [f"{f}::{t}" for f, t in named if t not in tests.get(f, set())]
    assert missing == []
