"""The conformance suite: every registered ruleset must pass it.

It checks the engine protocol's promises generically: random playouts driven by
``policy`` end within the ruleset's step limit; states round-trip through JSON;
replaying a recorded log gives the identical state; ``odds`` outcomes sum to 1;
``view`` for a player never contains what ``secrets`` says is GM-only; and every
listed action is legal (``is_legal``, which a ruleset may answer itself) and applies.
"""
from __future__ import annotations

import ast
import json
import random
import re
from pathlib import Path

import pytest

from rulesets.core import registry, serial
from rulesets.core.dice import Dice, RandomSource
from rulesets.core.engine import Action, IllegalAction, Viewer, is_legal
from rulesets.core.messages import Message, render
from rulesets.core.replay import play_out, replay
from tests.rulesets.core.toy import RULESET as TOY

RULESETS = list({r.key: r for r in [*registry.all_rulesets(), TOY]}.values())
SEEDS = range(8)


@pytest.fixture(params=RULESETS, ids=lambda r: r.key)
def ruleset(request):
    return request.param


def _states_along_playout(ruleset, seed, limit=400):
    """States met in one policy playout (every step), for the per-state checks."""
    rng = random.Random(f"conformance:{ruleset.key}:{seed}")
    state = ruleset.setup(ruleset.example_setup(seed % 2))
    out = [state]
    for _ in range(limit):
        if state.over:
            break
        result = play_out(ruleset, state, rng, max_steps=1)
        state = result.state
        out.append(state)
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_policy_playouts_end_within_the_step_limit(ruleset, seed):
    state = ruleset.setup(ruleset.example_setup(seed % 2))
    result = play_out(ruleset, state, random.Random(f"end:{seed}"))
    assert result.state.over, f"not over after {result.steps} steps"
    assert result.steps <= ruleset.step_limit


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_states_round_trip_through_json(ruleset, seed):
    for state in _states_along_playout(ruleset, seed):
        data = json.loads(json.dumps(serial.to_json(state)))
        back = serial.from_json(ruleset.state_class, data)
        assert back == state
        assert serial.to_json(back) == serial.to_json(state)


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_replaying_a_log_gives_the_identical_state(ruleset, seed):
    spec = ruleset.example_setup(seed % 2)
    played = play_out(ruleset, ruleset.setup(spec), random.Random(f"replay:{seed}"), keep_log=True)
    replayed = replay(ruleset, spec, played.recorded)
    assert serial.to_json(replayed) == serial.to_json(played.state)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_odds_outcomes_sum_to_one(ruleset, seed):
    checked = 0
    for state in _states_along_playout(ruleset, seed, limit=120):
        for action in ruleset.legal_actions(state):
            odds = ruleset.odds(state, action)
            if odds is None:
                continue
            checked += 1
            assert abs(odds.total - 1) < 1e-9, (action, odds)
            assert all(0 <= o.probability <= 1 for o in odds.outcomes)
    assert checked > 0, "no action of this ruleset ever had odds"


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_a_players_view_never_contains_gm_only_data(ruleset, seed):
    for state in _states_along_playout(ruleset, seed, limit=150):
        sides = {}
        for ship_id, side in ruleset_ships(ruleset, state):
            sides.setdefault(side, set()).add(ship_id)
        for ships in sides.values():
            viewer = Viewer.player(ships)
            text = json.dumps(ruleset.view(state, viewer), sort_keys=True, default=render)  # words: messages
            secrets = ruleset.secrets(state, viewer)
            for secret in secrets:
                assert secret not in text, f"{secret!r} leaked to a player of {sorted(ships)}"


def ruleset_ships(ruleset, state):
    """(ship id, side) pairs, read from the GM's view, which every ruleset gives."""
    view = ruleset.view(state, Viewer.gm())
    return [(s["id"], s["side"]) for s in view["ships"]]


def test_the_gm_view_lists_every_ship_with_id_and_side(ruleset):
    state = ruleset.setup(ruleset.example_setup(0))
    ships = ruleset_ships(ruleset, state)
    assert len(ships) >= 2
    assert len({side for _, side in ships}) >= 2


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_apply_never_changes_the_state_it_is_given(ruleset, seed):
    """The runner keeps recent states in memory and replays from them: apply must copy, not mutate."""
    from rulesets.core.dice import Dice, RandomSource

    rng = random.Random(f"pure:{seed}")
    for state in _states_along_playout(ruleset, seed, limit=150):
        if state.over:
            continue
        before = json.dumps(serial.to_json(state), sort_keys=True)
        ruleset.apply(state, ruleset.policy(state, rng), Dice(RandomSource(rng)))
        assert json.dumps(serial.to_json(state), sort_keys=True) == before


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_every_listed_action_is_legal_and_applies(ruleset, seed):
    """Random legal actions, not the bot's: every one listed passes ``is_legal`` (a ruleset's own
    check must agree with its list) and applies; an unknown action is refused."""
    rng = random.Random(f"legal:{ruleset.key}:{seed}")
    state = ruleset.setup(ruleset.example_setup(seed % 2))
    for _ in range(150):
        if state.over:
            break
        legal = ruleset.legal_actions(state)
        assert legal, "a fight that is not over offers an action"
        assert all(is_legal(ruleset, state, a) for a in legal)
        assert not is_legal(ruleset, state, Action.make("no-such-kind", "nobody"))
        state = ruleset.apply(state, rng.choice(legal), Dice(RandomSource(rng))).state


def test_the_ruleset_fulfils_the_written_contract(ruleset):
    """Everything rulesets/core/contract.py declares is there (the message names what is not)."""
    from rulesets.core.contract import missing

    assert missing(ruleset) == [], f"{ruleset.key} lacks: " + "; ".join(missing(ruleset))


def test_the_forms_module_fulfils_the_contract(ruleset):
    """Positions, the stat form, the crew form and the setup form, with the methods the app calls."""
    from importlib import import_module

    from rulesets.core.contract import forms_missing

    module = import_module(ruleset.forms_module)
    assert forms_missing(module) == [], "; ".join(forms_missing(module))
    assert module.POSITIONS and all(len(p) == 2 for p in module.POSITIONS)


def test_the_demo_templates_pass_the_systems_own_stat_validation(ruleset):
    from importlib import import_module

    from campaigns.rulesets import form_errors

    form_cls = import_module(ruleset.forms_module).ShipStatsForm
    templates = ruleset.templates()
    assert templates, "a system ships templates for the library"
    for template in templates:
        assert form_errors(form_cls, template["stats"]) == {}, template["name"]
    names = {t["name"] for t in templates}
    for fleet in ruleset.demo_fleets():
        for ship in fleet["ships"]:
            assert ship["template"] in names, f"demo fleet {fleet['name']!r} names no template {ship['template']!r}"


def test_the_outcome_is_typed_and_labelled(ruleset):
    from rulesets.core.contract import BattleOutcome

    state = play_out(ruleset, ruleset.setup(ruleset.example_setup(0)), random.Random("outcome")).state
    outcome = ruleset.outcome(state)
    assert isinstance(outcome, BattleOutcome)
    assert ruleset.strength_label and ruleset.strength_label[0].isupper()
    assert all(0 <= s.strength_left <= 1 and s.ships_lost >= 0 for s in outcome.sides)
    assert BattleOutcome.from_json(outcome.to_json()) == outcome


def _result(ruleset, spec, state):
    return ruleset.outcome(state), [ruleset.damage_of(state, ship["id"]) for ship in spec["ships"]]


def test_a_playout_that_records_nothing_plays_the_same_battle(ruleset):
    """Issue 10: for the same seed, playout mode (dice and rules recording nothing) gives exactly the
    same winner, rounds and per-ship results as the recorded path, over 1,000 seeds (through the
    system's own ``playout`` where it has one), and leaves the state it started from as it was."""
    spec = ruleset.example_setup(0)
    start = ruleset.setup(spec)
    before = json.dumps(serial.to_json(start), sort_keys=True)
    for seed in range(1000):
        fast = play_out(ruleset, start, random.Random(f"mode:{seed}"))
        recorded = play_out(ruleset, start, random.Random(f"mode:{seed}"), keep_log=True)
        assert recorded.recorded, "the recorded path records its steps"
        assert fast.steps == recorded.steps, f"seed {seed}"
        assert _result(ruleset, spec, fast.state) == _result(ruleset, spec, recorded.state), f"seed {seed}"
    assert json.dumps(serial.to_json(start), sort_keys=True) == before, "a playout changed the state it started from"


def test_the_warm_up_computes_odds_along_a_fight(ruleset):
    """Issue 14: the web server warms the odds caches at start-up, not on the GM's first click."""
    assert ruleset.warm_up(steps=5) > 0


def test_the_demo_fleets_fight_to_the_end(ruleset):
    """The demo campaign's fleets, as seed_demo builds them, set up and fight to a result."""
    from rulesets.core.spec import demo_setup

    result = play_out(ruleset, ruleset.setup(demo_setup(ruleset)), random.Random("demo"))
    assert result.state.over and result.steps <= ruleset.step_limit


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_every_listed_action_is_described_and_every_viewer_served_along_random_play(ruleset, seed):
    """Random legal actions and the bot's, mixed, from the example setups and the demo fleets: every
    action listed has words for the GM and odds (or none), and the GM's and a player's views build, at
    every step."""
    from rulesets.core.spec import demo_setup

    rng = random.Random(f"words:{ruleset.key}:{seed}")
    spec = demo_setup(ruleset) if seed == 2 and ruleset is not TOY else ruleset.example_setup(seed % 2)
    state = ruleset.setup(spec)
    player = Viewer("player", frozenset(s["id"] for s in spec["ships"][:1]), 1)
    for _ in range(120):
        if state.over:
            break
        legal = ruleset.legal_actions(state)
        for action in legal:
            words = ruleset.describe(state, action)  # words, or a message of them (issue 23)
            assert isinstance(words, (str, Message)) and render(words).strip(), action
            ruleset.odds(state, action)
        assert isinstance(ruleset.view(state, Viewer.gm()), dict)
        assert isinstance(ruleset.view(state, player), dict)
        action = rng.choice(legal) if rng.random() < 0.6 else ruleset.policy(state, rng)
        state = ruleset.apply(state, action, Dice(RandomSource(rng))).state


# ---------------------------------------------------------------- issue 23: what every system the app ships keeps
#: the systems the app ships (rulesets.core.registry), each with its GM override and its docs page;
#: the toy above is the tests' own and has neither
SYSTEMS = [r for r in registry.all_rulesets() if r.key != TOY.key]
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=SYSTEMS, ids=lambda r: r.key)
def system(request):
    return request.param


def _state_ship(state, view_ship: dict):
    """The ship as the override's ``current`` reads it: the state's own, else the GM view's (the runner's way)."""
    return next((s for s in (getattr(state, "ships", None) or ()) if getattr(s, "id", None) == view_ship["id"]),
                None) or view_ship


def test_the_gm_override_sets_a_ships_field_and_it_reads_back(system):
    """The GM override (rulesets/core/override.py), as the runner's ship card sends it: every whole-number
    field of a ship the form offers with its current value takes a neighbouring value, and the field then
    reads that value back, as the card shows it."""
    state = system.setup(system.example_setup(0))
    ship = system.view(state, Viewer.gm())["ships"][0]
    override = next(a for a in system.legal_actions(state) if a.kind == "override")
    fields = [f for f in system.override_fields(state) if "*" not in f.name and f.current is not None]
    numbers = []
    for field in fields:
        parts = tuple(field.name.split("."))
        current = str(field.current(_state_ship(state, ship), parts))
        if re.fullmatch(r"-?[0-9]+", current):
            numbers.append((field, parts, int(current)))
    assert numbers, f"{system.key}: the override offers no whole-number field of a ship"
    for field, parts, current in numbers:
        read_back = []
        for value in (current - 1, current + 1):
            try:
                step = system.apply(state, override.with_params(path=f"{ship['name']}.{field.name}", value=str(value)),
                                    Dice(RandomSource(random.Random(0))))
            except IllegalAction:
                continue  # out of the field's range (a ship's full Hull): refused in words
            read_back.append((value, str(field.current(_state_ship(step.state, ship), parts))))
        assert read_back, f"{system.key}: {ship['name']}.{field.name} took neither {current - 1} nor {current + 1}"
        for value, back in read_back:
            assert back == str(value), f"{system.key}: {ship['name']}.{field.name} set to {value} reads {back}"


# A docs page maps its rules to tests in tables with a "Test" column ("Test", "Test (`test_rules.py`)",
# "test / decision", "test or decision"). A row's rule id is its first cell: the rule's number where the
# page numbers its rules (WC-07, VD-12, DF-13, DF-N09), else the rule in words with its seed section
# (Cepheus, Star Wars D6). Each row names at least one test; each test named exists: a name alone
# anywhere under tests/, ``file.py::name`` (and a following ``::name``) in that file (the system's own
# tests/rulesets/<key>/ first), ``P::name`` in the file the page's legend gives the letter, ``name_*``
# as a prefix of at least one test, a file or a path as a file.
_CITED = re.compile(r"(?P<file>(?:tests/[\w/]+/)?test_\w+\.py)(?:::(?P<in_file>test_\w+\*?|\*))?"
                    r"|\b(?P<letter>[A-Z])::(?P<lettered>test_\w+\*?)|::(?P<same_file>test_\w+\*?)|\b(?P<name>test_\w+\*?)")


def _tables(text: str):
    """(header cells, rows of cells) of each Markdown table of a page."""
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if (lines[i].lstrip().startswith("|") and i + 1 < len(lines)
                and re.fullmatch(r"\s*\|[\s:|-]+\|\s*", lines[i + 1])):
            rows, j = [], i + 2
            while j < len(lines) and lines[j].lstrip().startswith("|"):
                rows.append(_cells(lines[j]))
                j += 1
            yield _cells(lines[i]), rows
            i = j
        else:
            i += 1


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def _tests_under(root: Path) -> tuple[dict[str, set[Path]], dict[str, set[Path]]]:
    """Every test function's name and every test file's name under ``root``, each with its files."""
    names: dict[str, set[Path]] = {}
    files: dict[str, set[Path]] = {}
    for path in root.rglob("test_*.py"):
        files.setdefault(path.name, set()).add(path)
        for m in re.finditer(r"^\s*(?:async\s+)?def (test_\w+)\(", path.read_text(encoding="utf-8"), re.M):
            names.setdefault(m.group(1), set()).add(path)
    return names, files


def docs_rule_problems(text: str, key: str, tests_root: Path) -> tuple[int, list[str]]:
    """How many rule ids the page's tables list, and each one whose tests are missing, in words."""
    names, files = _tests_under(tests_root)
    own = tests_root / "rulesets" / key
    legend = {m.group(1): m.group(2) for m in re.finditer(r"`([A-Z])` =\s*`(test_\w+\.py)`", text)}
    problems: list[str] = []
    count = 0

    def file_of(cited: str) -> set[Path]:
        if cited.startswith("tests/"):
            path = tests_root.parent / cited
            return {path} if path.exists() else set()
        mine = {p for p in files.get(cited, ()) if own in p.parents}
        return mine or files.get(cited, set())

    def exists(rule: str, test: str, where: set[Path] | None) -> None:
        if test == "*":
            return
        found = [n for n in names if (n.startswith(test[:-1]) if test.endswith("*") else n == test)]
        if not found:
            problems.append(f"{rule}: no test {test}")
        elif where is not None and not any(names[n] & where for n in found):
            problems.append(f"{rule}: {test} is not in {', '.join(sorted(p.name for p in where))}")

    for header, rows in _tables(text):
        column = next((i for i, h in enumerate(header) if h.lower().lstrip("`").startswith("test")), None)
        if column is None:
            continue
        in_header = re.search(r"test_\w+\.py", header[column])
        for row in rows:
            count += 1
            rule, cell = row[0], (row[column] if column < len(row) else "")
            last = file_of(in_header.group(0)) if in_header else None
            cited = 0
            for m in _CITED.finditer(cell):
                cited += 1
                if m.group("file"):
                    where = file_of(m.group("file"))
                    if not where:
                        problems.append(f"{rule}: no test file {m.group('file')}")
                        continue
                    last = where
                    if m.group("in_file"):
                        exists(rule, m.group("in_file"), where)
                elif m.group("letter"):
                    where = file_of(legend.get(m.group("letter"), "-"))
                    if not where:
                        problems.append(f"{rule}: the page's legend gives no test file for {m.group('letter')}::")
                        continue
                    exists(rule, m.group("lettered"), where)
                else:
                    exists(rule, m.group("same_file") or m.group("name"), last)
            if not cited:
                problems.append(f"{rule}: names no test ({cell or 'empty'})")
    return count, problems


def test_the_docs_page_maps_every_rule_it_lists_to_a_test_that_exists(system):
    """docs/rulesets/<key>.md: every rule id of its rules-and-tests tables names a test, and every test
    or test file it names exists (a test renamed or removed leaves the page wrong)."""
    page = ROOT / "docs" / "rulesets" / f"{system.key}.md"
    count, problems = docs_rule_problems(page.read_text(encoding="utf-8"), system.key, ROOT / "tests")
    assert count >= 20, f"{page.name} lists {count} rules with their tests"
    assert problems == [], f"{page.name}:\n" + "\n".join(problems)


def test_the_docs_check_names_a_rule_whose_test_or_file_does_not_exist():
    """The check above finds what it is for: a test renamed, a file gone, a test in another file, a rule
    with no test, a legend letter with no file; a prefix, a file in the header and ``::`` continuations pass."""
    page = "\n".join([
        "`P` = `test_conformance.py`",
        "", "| # | Rule | Test |", "|---|---|---|",
        "| X-01 | fine | `test_conformance.py::test_the_gm_view_lists_every_ship_with_id_and_side`, "
        "::test_the_outcome_is_typed_and_labelled, P::test_the_warm_up_computes_odds_along_a_fight |",
        "| X-02 | a prefix | `test_conformance.py::test_the_docs_*` |",
        "| X-03 | renamed | `test_no_such_test_anywhere` |",
        "| X-04 | gone | `test_no_such_file.py::test_x` |",
        "| X-05 | elsewhere | `test_conformance.py::test_a_pilot_rolling_their_own_dice_types_only_their_sides_initiative` |",
        "| X-06 | untested | a decision |",
        "| X-07 | no legend | Q::test_the_outcome_is_typed_and_labelled |",
        "", "| Rule | Test (`test_conformance.py`) |", "|---|---|",
        "| in the header's file | `test_the_outcome_is_typed_and_labelled` |",
    ])
    count, problems = docs_rule_problems(page, "toy", ROOT / "tests")
    assert count == 8
    assert problems == [
        "X-03: no test test_no_such_test_anywhere",
        "X-04: no test file test_no_such_file.py",
        "X-05: test_a_pilot_rolling_their_own_dice_types_only_their_sides_initiative is not in test_conformance.py",
        "X-06: names no test (a decision)",
        "X-07: the page's legend gives no test file for Q::",
    ]


def _imports_core_check(system) -> list[str]:
    """The modules of the system's package that import ``rulesets.core.check`` (or names from it)."""
    package = ROOT.joinpath(*type(system).__module__.split(".")[:-1])
    out = []
    for path in sorted(package.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (
                    node.module == "rulesets.core.check"
                    or (node.module == "rulesets.core" and any(a.name == "check" for a in node.names))):
                out.append(path.name)
            elif isinstance(node, ast.Import) and any(a.name == "rulesets.core.check" for a in node.names):
                out.append(path.name)
    return sorted(set(out))


def _checks_built_in_a_recorded_fight(system, monkeypatch) -> int:
    """How many core Check instances a recorded fight of the example setup builds."""
    from rulesets.core.check import Check

    built = []
    make = Check.__new__

    def counting(cls, *args, **kwargs):
        built.append(1)
        return make(cls, *args, **kwargs)

    monkeypatch.setattr(Check, "__new__", staticmethod(counting))
    play_out(system, system.setup(system.example_setup(0)), random.Random("checks"), keep_log=True)
    return len(built)


def test_the_system_rolls_its_checks_as_core_checks(system, monkeypatch):
    """Issue 23: a check is declared once, as the core Check (rulesets/core/check.py): the checks the
    system's rules roll in a recorded fight are core Check instances (importing the module is not
    enough: a system could import its helpers and roll its own dice)."""
    importing = _imports_core_check(system)
    built = _checks_built_in_a_recorded_fight(system, monkeypatch)
    assert importing and built, f"{system.key}'s recorded fight built no core Check (its modules importing it: {importing})"
