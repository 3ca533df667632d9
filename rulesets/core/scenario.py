"""Scenario files: a setup and a list of steps, played headless.

A scenario is a YAML file (documented for GMs in docs/scenarios.md)::

    ruleset: toy
    name: Alpha against Bravo
    seed: "first try"
    setup:
      ships: [...]
      options: {...}
    steps:
      - action: fire target=b
        dice: [4, 5, 3]
      - auto: 3
      - expect: {over: true, winner: blue}

:func:`load_scenario` reads the file and checks its shape; :func:`run_scenario`
plays it and checks what only play can show (is the action legal at that step, do
the dice fit, do the expectations hold).  Every problem is a :class:`ScenarioError`
naming the line and the field at fault: ``line 14, steps[2].dice: 7 is not a face
of a d6 (die 2, for Alpha fires at Bravo)``.

Pure Python, no Django: the management command ``run_scenario`` and the rules tests
both use this module.
"""
from __future__ import annotations

import difflib
import os
import random
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from . import registry, serial
from .dice import Dice, DiceExhausted, InvalidFace, RandomSource, ScriptedSource, SeededSource, derive_seed
from .engine import Action, IllegalAction, RecordedStep, apply_checked, system_refusal

#: the seed of a scenario that does not name one
DEFAULT_SEED = "scenario"
#: ``auto: end`` plays until the fight is over (at most the ruleset's step limit)
AUTO_END = "end"

TOP_KEYS = ("ruleset", "name", "description", "seed", "setup", "steps")
SETUP_KEYS = ("ships", "options")
# The ship and crew keys are those of campaigns' Ship.setup_spec / CrewMember.setup_spec.
SHIP_KEYS = ("id", "name", "side", "fleet", "colour", "stats", "damage", "crew")
CREW_KEYS = ("id", "name", "position", "station", "characteristics", "skills", "player")
STEP_KEYS = ("action", "dice", "seed", "auto", "expect", "refused", "note")


class ScenarioError(ValueError):
    """A scenario file is wrong at ``line``, in ``field`` (a path such as ``steps[2].dice``)."""

    def __init__(self, line: int, field: str, message: str):
        self.line, self.field, self.message = line, field, message
        super().__init__(str(self))

    def __str__(self) -> str:
        where = f"line {self.line}"
        return f"{where}, {self.field}: {self.message}" if self.field else f"{where}: {self.message}"


# --- the parsed scenario ----------------------------------------------------------


@dataclass(frozen=True)
class Expectation:
    """``path`` (dotted, into the state's JSON) should hold ``value``."""

    path: str
    value: Any
    line: int = 0


@dataclass(frozen=True)
class ScenarioStep:
    """One entry of ``steps``: an action, an auto-play, or only expectations.

    ``action`` with ``dice`` (faces in order) or ``seed``; neither means dice from
    the scenario seed.  ``auto`` is a number of policy steps or ``"end"``.
    ``expect`` is checked after the action or auto-play, if any.  ``refused`` (True, or
    the text the refusal must contain) makes an action step pass only when the ruleset
    refuses the action; the state is then unchanged.
    """

    index: int
    line: int = 0
    action: str | None = None
    dice: tuple[int, ...] | None = None
    seed: str | None = None
    auto: int | str | None = None
    expect: tuple[Expectation, ...] = ()
    note: str = ""
    refused: bool | str = False

    @property
    def kind(self) -> str:
        if self.action is not None:
            return "refused" if self.refused is not False else "action"
        if self.auto is not None:
            return "auto"
        return "expect"

    @property
    def field(self) -> str:
        return f"steps[{self.index}]"


@dataclass
class Scenario:
    ruleset: str
    setup: dict
    steps: list[ScenarioStep] = field(default_factory=list)
    name: str = ""
    description: str = ""
    seed: str = DEFAULT_SEED
    #: field path -> line in the file, for messages (empty for scenarios built in code)
    lines: dict[str, int] = field(default_factory=dict)

    def line_of(self, path: str) -> int:
        """The line of ``path``, or of the nearest enclosing field that has one."""
        return _line_in(self.lines, path)


def _line_in(lines: dict[str, int], path: str) -> int:
    while path:
        if path in lines:
            return lines[path]
        path = _parent(path)
    return lines.get("", 1)


def _parent(path: str) -> str:
    cut = max(path.rfind("."), path.rfind("["))
    return path[:cut] if cut > 0 else ""


# --- reading YAML with the line of every field ------------------------------------


#: limits that no real scenario comes near: aliases that expand a small file into
#: millions of values, and nesting that would exhaust Python's stack, are refused
MAX_VALUES = 100_000
MAX_DEPTH = 40


class _Reader:
    """Turns a composed YAML node tree into plain data, noting each field's line."""

    def __init__(self, loader: yaml.SafeLoader):
        self.loader = loader
        self.lines: dict[str, int] = {}
        self._open: set[int] = set()
        self._count = 0

    def _scalar(self, node: yaml.Node, path: str) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except ValueError:  # Python refuses integers of more than 4,300 digits
            raise ScenarioError(node.start_mark.line + 1, path, "a number with thousands of digits") from None

    def value(self, node: yaml.Node, path: str, depth: int = 0) -> Any:
        line = node.start_mark.line + 1
        self._count += 1
        if self._count > MAX_VALUES:
            raise ScenarioError(line, path, f"the file expands to more than {MAX_VALUES:,} values "
                                            "(aliases repeating aliases?)")
        if depth > MAX_DEPTH:
            raise ScenarioError(line, path, f"nested more than {MAX_DEPTH} deep")
        self.lines.setdefault(path, line)
        if id(node) in self._open:
            raise ScenarioError(line, path, "an alias refers to itself")
        if isinstance(node, yaml.MappingNode):
            self._open.add(id(node))
            written: set = set()
            for key_node, _ in node.value:
                key_line = key_node.start_mark.line + 1
                if not isinstance(key_node, yaml.ScalarNode):
                    raise ScenarioError(key_line, path, "a key must be a plain word or number")
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self._scalar(key_node, path)
                if key in written:
                    raise ScenarioError(key_line, f"{path}.{key}" if path else str(key), "this key appears twice")
                written.add(key)
            # `<<: *anchor` merge keys: the merged pairs come first, the written ones override them.
            self.loader.flatten_mapping(node)
            out: dict = {}
            for key_node, value_node in node.value:
                key = self._scalar(key_node, path)
                key_path = f"{path}.{key}" if path else str(key)
                if key in out:  # a merged value overridden: forget its lines
                    for known in [p for p in self.lines if p == key_path or p.startswith((key_path + ".", key_path + "["))]:
                        del self.lines[known]
                self.lines[key_path] = key_node.start_mark.line + 1
                out[key] = self.value(value_node, key_path, depth + 1)
            self._open.discard(id(node))
            return out
        if isinstance(node, yaml.SequenceNode):
            self._open.add(id(node))
            out_list = [self.value(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(node.value)]
            self._open.discard(id(node))
            return out_list
        return self._scalar(node, path)


def _read_yaml(text: str) -> tuple[Any, dict[str, int]]:
    try:
        loader = yaml.SafeLoader(text)  # checks the characters at once
    except yaml.YAMLError as exc:
        raise ScenarioError(1, "", f"not valid YAML: {exc}") from None
    try:
        node = loader.get_single_node()
        if node is None:
            raise ScenarioError(1, "", "the file is empty")
        reader = _Reader(loader)
        data = reader.value(node, "")
        return data, reader.lines
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 1
        problem = exc.problem or exc.context or "unreadable"
        raise ScenarioError(line, "", f"not valid YAML: {problem}") from None
    except yaml.YAMLError as exc:
        raise ScenarioError(1, "", f"not valid YAML: {exc}") from None
    except RecursionError:  # the YAML composer recurses once per level of nesting
        raise ScenarioError(1, "", f"nested far too deeply (more than {MAX_DEPTH} levels)") from None
    finally:
        loader.dispose()


# --- checking the shape -------------------------------------------------------------


def _kind_of(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"true/false ({str(value).lower()})"
    if isinstance(value, int):
        return f"a number ({value})"
    if isinstance(value, float):
        return f"a decimal number ({value})"
    if isinstance(value, str):
        return f"text ({value!r})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping (key: value lines)"
    return type(value).__name__


class _Checker:
    def __init__(self, lines: dict[str, int]):
        self.lines = lines

    def line(self, path: str) -> int:
        return _line_in(self.lines, path)

    def fail(self, path: str, message: str):
        raise ScenarioError(self.line(path), path, message)

    def keys(self, data: dict, path: str, allowed, required=()) -> None:
        for key in data:
            if key not in allowed:
                key_path = f"{path}.{key}" if path else str(key)
                hint = difflib.get_close_matches(str(key), allowed, n=1)
                msg = f"unknown key {key!r}"
                msg += f" (did you mean {hint[0]!r}?)" if hint else ""
                self.fail(key_path, f"{msg}; allowed here: {', '.join(allowed)}")
        for key in required:
            if key not in data:
                self.fail(path, f"missing key {key!r}" if path else f"missing key {key!r} at the top of the file")

    def mapping(self, value, path) -> dict:
        if not isinstance(value, dict):
            self.fail(path, f"expected a mapping (key: value lines), got {_kind_of(value)}")
        return value

    def sequence(self, value, path) -> list:
        if not isinstance(value, list):
            self.fail(path, f"expected a list, got {_kind_of(value)}")
        return value

    def text(self, value, path, *, quote_hint=False) -> str:
        if not isinstance(value, str):
            hint = " (put it in quotes)" if quote_hint and isinstance(value, (int, float, bool)) else ""
            self.fail(path, f"expected text, got {_kind_of(value)}{hint}")
        return value

    def seed(self, value, path) -> str:
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            self.fail(path, f"a seed is text or a whole number, got {_kind_of(value)}")
        return str(value)


def _check_setup(check: _Checker, setup: Any) -> dict:
    setup = check.mapping(setup, "setup")
    check.keys(setup, "setup", SETUP_KEYS, required=("ships",))
    ships = check.sequence(setup["ships"], "setup.ships")
    if not ships:
        check.fail("setup.ships", "a setup needs at least one ship")
    seen: set[str] = set()
    for i, ship in enumerate(ships):
        path = f"setup.ships[{i}]"
        check.mapping(ship, path)
        check.keys(ship, path, SHIP_KEYS, required=("id", "name", "side"))
        for key in ("id", "name", "side", "fleet", "colour"):
            if key in ship:
                check.text(ship[key], f"{path}.{key}", quote_hint=True)
        if ship["id"] in seen:
            check.fail(f"{path}.id", f"another ship already has the id {ship['id']!r}")
        seen.add(ship["id"])
        for key in ("stats", "damage"):
            if key in ship:
                check.mapping(ship[key], f"{path}.{key}")
        crew_seen: set[str] = set()
        for j, member in enumerate(check.sequence(ship.get("crew", []), f"{path}.crew")):
            cpath = f"{path}.crew[{j}]"
            check.mapping(member, cpath)
            check.keys(member, cpath, CREW_KEYS, required=("id", "name"))
            for key in ("id", "name", "position", "station"):
                if key in member:
                    check.text(member[key], f"{cpath}.{key}", quote_hint=True)
            for key in ("characteristics", "skills"):
                if key in member:
                    check.mapping(member[key], f"{cpath}.{key}")
            if member["id"] in crew_seen:
                check.fail(f"{cpath}.id", f"another crew member of this ship already has the id {member['id']!r}")
            crew_seen.add(member["id"])
    if "options" in setup:
        check.mapping(setup["options"], "setup.options")
    return setup


def _check_step(check: _Checker, raw: Any, index: int) -> ScenarioStep:
    path = f"steps[{index}]"
    if isinstance(raw, str):
        check.fail(path, f"a step is a mapping such as 'action: {raw}', got {_kind_of(raw)}")
    check.mapping(raw, path)
    check.keys(raw, path, STEP_KEYS)
    if not raw:
        check.fail(path, "an empty step: give action, auto or expect")
    if "action" in raw and "auto" in raw:
        check.fail(f"{path}.auto", "a step is either an action or auto, not both")
    if not any(k in raw for k in ("action", "auto", "expect")):
        check.fail(path, "a step needs action, auto or expect")
    if "dice" in raw and "seed" in raw:
        check.fail(f"{path}.seed", "give dice or seed, not both")
    if "dice" in raw and "action" not in raw:
        check.fail(f"{path}.dice", "dice belong to an action step (auto steps take a seed)")
    if "seed" in raw and not ("action" in raw or "auto" in raw):
        check.fail(f"{path}.seed", "a seed belongs to an action or auto step")

    action = None
    if "action" in raw:
        action = check.text(raw["action"], f"{path}.action").strip()
        try:
            Action.parse(action)
        except ValueError as exc:
            check.fail(f"{path}.action", f"cannot read the action {action!r}: {exc}")

    dice = None
    if "dice" in raw:
        faces = check.sequence(raw["dice"], f"{path}.dice")
        for j, face in enumerate(faces):
            if isinstance(face, bool) or not isinstance(face, int) or face < 1:
                check.fail(f"{path}.dice[{j}]", f"a die face is a whole number from 1 up, got {_kind_of(face)}")
        dice = tuple(faces)

    seed = check.seed(raw["seed"], f"{path}.seed") if "seed" in raw else None

    auto = None
    if "auto" in raw:
        auto = raw["auto"]
        ok = auto == AUTO_END or (isinstance(auto, int) and not isinstance(auto, bool) and auto >= 1)
        if not ok:
            check.fail(f"{path}.auto", f"auto takes a number of steps (1 or more) or '{AUTO_END}', got {_kind_of(auto)}")

    expect: list[Expectation] = []
    if "expect" in raw:
        wanted = check.mapping(raw["expect"], f"{path}.expect")
        if not wanted:
            check.fail(f"{path}.expect", "expect needs at least one 'path: value' line")
        for key, value in wanted.items():
            key_path = f"{path}.expect.{key}"
            if not isinstance(key, (str, int)) or isinstance(key, bool) or not str(key).strip():
                check.fail(key_path, f"an expect key is a dotted path such as ships.0.hull, got {_kind_of(key)}")
            expect.append(Expectation(str(key), value, check.line(key_path)))

    refused: bool | str = False
    if "refused" in raw:
        refused = raw["refused"]
        if "action" not in raw:
            check.fail(f"{path}.refused", "refused belongs to an action step: the action the ruleset must refuse")
        if refused is False:
            pass
        elif refused is not True and not (isinstance(refused, str) and refused.strip()):
            check.fail(f"{path}.refused",
                       f"refused takes true, or the text the refusal must contain, got {_kind_of(refused)}")
        elif isinstance(refused, str):
            refused = refused.strip()

    note = check.text(raw["note"], f"{path}.note") if "note" in raw else ""
    return ScenarioStep(index, check.line(path), action, dice, seed, auto, tuple(expect), note, refused)


def parse_scenario(data: Any, lines: dict[str, int] | None = None) -> Scenario:
    """A :class:`Scenario` from already-loaded data (``lines``: field path -> line)."""
    lines = dict(lines or {})
    check = _Checker(lines)
    if not isinstance(data, dict):
        check.fail("", f"a scenario file is a mapping (ruleset:, setup:, steps: ...), got {_kind_of(data)}")
    check.keys(data, "", TOP_KEYS, required=("ruleset", "setup"))
    key = check.text(data["ruleset"], "ruleset")
    try:
        ruleset = registry.get(key)
    except registry.UnknownRuleset:
        known = ", ".join(sorted(r.key for r in registry.all_rulesets())) or "none registered"
        check.fail("ruleset", f"unknown ruleset {key!r} (known: {known})")
    name = check.text(data["name"], "name") if "name" in data else ""
    description = check.text(data["description"], "description") if "description" in data else ""
    seed = check.seed(data["seed"], "seed") if "seed" in data else DEFAULT_SEED
    setup = _check_setup(check, data["setup"])
    steps = [_check_step(check, raw, i) for i, raw in enumerate(check.sequence(data.get("steps", []), "steps"))]
    scenario = Scenario(key, setup, steps, name, description, seed, lines)
    _set_up(scenario, ruleset)  # the ruleset's own checks of the setup
    return scenario


def load_scenario(source: str | os.PathLike) -> Scenario:
    """Read and check a scenario.

    ``source`` is a path (a ``Path``, or a one-line string naming an existing file)
    or the YAML text itself.  Checks the shape of everything and lets the ruleset
    build the setup; what needs play (legal actions, dice counts, expectations) is
    checked by :func:`run_scenario`.
    """
    one_line = isinstance(source, str) and "\n" not in source
    if isinstance(source, os.PathLike) or (one_line and (os.path.isfile(source) or source.endswith((".yaml", ".yml")))):
        text = Path(source).read_text(encoding="utf-8")  # a missing file is FileNotFoundError
    else:
        text = source
    data, lines = _read_yaml(text)
    return parse_scenario(data, lines)


# --- playing it ---------------------------------------------------------------------


def _set_up(scenario: Scenario, ruleset):
    watched: list[_Watched] = []
    spec = _watch_setup(scenario.setup, watched)
    try:
        state = ruleset.setup(spec)
    except Exception as exc:  # the spec is user input: any refusal is the file's fault
        detail = f"missing key {exc.args[0]!r}" if isinstance(exc, KeyError) and exc.args else str(exc) or type(exc).__name__
        raise ScenarioError(scenario.line_of("setup"), "setup", f"the {ruleset.name} ruleset refused this setup: {detail}") from exc
    for mapping in watched:
        unread = mapping.unread()
        if unread:
            key = unread[0]
            path = f"{mapping.path}.{key}"
            hint = difflib.get_close_matches(str(key), [str(k) for k in mapping.read], n=1)
            raise ScenarioError(scenario.line_of(path), path,
                                f"the {ruleset.name} ruleset has no such key, so it would be ignored"
                                + (f" (did you mean {hint[0]!r}?)" if hint else ""))
    return state


class _Watched(dict):
    """A mapping of the setup that notes which keys the ruleset reads while it sets up.

    A key of ``options``, a ship's ``stats`` or its ``damage`` that the ruleset never
    reads would be dropped silently (a typo: ``armor`` for ``armour``): it is refused.
    Reading all keys at once (iterating, copying) counts as reading each; a mapping
    the ruleset did not touch at all (kept whole, read later) is not judged.
    """

    def __init__(self, data: dict, path: str):
        super().__init__(data)
        self.path = path
        self.read: set = set()
        self.touched = False

    def _note(self, key=None):
        self.touched = True
        if key is None:
            self.read.update(dict.keys(self))
        else:
            self.read.add(key)

    def __getitem__(self, key):
        self._note(key)
        return super().__getitem__(key)

    def get(self, key, default=None):
        self._note(key)
        return super().get(key, default)

    def __contains__(self, key):
        self._note(key)
        return super().__contains__(key)

    def pop(self, key, *default):
        self._note(key)
        return super().pop(key, *default)

    def setdefault(self, key, default=None):
        self._note(key)
        return super().setdefault(key, default)

    def __iter__(self):
        self._note()
        return super().__iter__()

    def keys(self):
        self._note()
        return super().keys()

    def items(self):
        self._note()
        return super().items()

    def values(self):
        self._note()
        return super().values()

    def copy(self):
        self._note()
        return dict(super().items())

    def __deepcopy__(self, memo):
        import copy

        self._note()
        return copy.deepcopy(dict(super().items()), memo)

    def __reduce_ex__(self, protocol):
        self._note()
        return dict, (dict(super().items()),)

    def unread(self) -> list:
        if not self.touched:
            return []
        return [k for k in dict.keys(self) if k not in self.read]


def _watch_setup(setup: dict, watched: list) -> dict:
    """The setup with its options and each ship's stats and damage watched (a shallow copy)."""

    def watch(value, path):
        if not isinstance(value, dict):
            return value
        mapping = _Watched(value, path)
        watched.append(mapping)
        return mapping

    out = dict(setup)
    if "options" in setup:
        out["options"] = watch(setup["options"], "setup.options")
    ships = []
    for i, ship in enumerate(setup.get("ships") or []):
        if isinstance(ship, dict):
            ship = dict(ship)
            for key in ("stats", "damage"):
                if key in ship:
                    ship[key] = watch(ship[key], f"setup.ships[{i}].{key}")
        ships.append(ship)
    out["ships"] = ships
    return out


class _StepSource(ScriptedSource):
    """The faces a step gives, remembering what each request was for."""

    def __init__(self, faces):
        super().__init__(faces)
        self.asking = ("", 0, 0)

    def faces(self, count, sides, purpose="", rule=""):
        self.asking = (purpose or "a roll", count, sides)
        return super().faces(count, sides, purpose, rule)


def _free_value(value):
    if isinstance(value, str) and re.fullmatch(r"[+-]?[0-9]+", value):
        return int(value)
    return value


def _situation(state) -> str:
    bits = []
    if getattr(state, "round", None) is not None:
        bits.append(f"round {state.round}")
    active = getattr(state, "active", None)
    if active:
        bits.append(f"{active} to act")
    return ", ".join(bits)


def resolve_action(ruleset, state, text: str) -> Action:
    """The legal action ``text`` means now, or :class:`IllegalAction` listing the legal ones.

    ``actor=`` may be left out when only one actor can take that action; numbers may
    be written ``3`` or ``#3``; free parameters (a GM's ``dm``) are kept on top.
    """
    written = Action.parse(text)
    legal = ruleset.legal_actions(state)
    if not legal:
        over = getattr(state, "over", False)
        why = f"the fight is over (winner: {getattr(state, 'winner', None) or 'none'})" if over else "nobody can act"
        raise IllegalAction(f"{text!r} cannot be taken: {why}; no action is legal")
    free = set(getattr(ruleset, "free_params", ("dm",)))
    want = {k: str(v) for k, v in written.params if k not in free}
    matches = [
        a for a in legal
        if a.kind == written.kind
        and (not written.actor or a.actor == written.actor)
        and {k: str(v) for k, v in a.params if k not in free} == want
    ]
    actors = sorted({a.actor for a in matches})
    if not matches:
        where = _situation(state)
        refusal = system_refusal(ruleset, state, written)
        why = f": {refusal.render()}" if refusal is not None else ""
        raise IllegalAction(
            f"{text!r} is not legal now{f' ({where})' if where else ''}{why}; legal: "
            + "; ".join(a.to_str() for a in legal), refusal
        )
    if len(actors) > 1:
        raise IllegalAction(
            f"{text!r} fits several actors ({', '.join(actors)}); add actor=, one of: "
            + "; ".join(a.to_str() for a in matches)
        )
    extra = {k: _free_value(v) for k, v in written.params if k in free}
    return matches[0].with_params(**extra)


def _dice_for(scenario: Scenario, step: ScenarioStep):
    """The dice source of an action step, and how its record names it."""
    if step.dice is not None:
        return _StepSource(step.dice), {"dice_from": "script"}
    seed = step.seed if step.seed is not None else derive_seed(scenario.seed, step.index)
    return SeededSource(seed), {"dice_from": "seed", "seed": seed}


def _entry(action: Action, dice: Dice, result, state_json=None) -> dict:
    entry = RecordedStep(action.to_str(), tuple(dice.dice)).to_json()
    # a report read by a person: the words in English, not the messages behind them
    entry["rolls"] = [{k: v for k, v in r.to_json().items() if k != "words"} for r in dice.rolls]
    entry["log"] = [{k: v for k, v in e.to_json().items() if k != "msg"} for e in result.log]
    if state_json is not None:
        entry["state"] = state_json
    return entry


def _play_action(scenario, ruleset, state, step: ScenarioStep, each_step: bool):
    field_action = f"{step.field}.action"
    try:
        action = resolve_action(ruleset, state, step.action)
    except ValueError as exc:
        raise ScenarioError(scenario.line_of(field_action), field_action, str(exc)) from None
    source, how = _dice_for(scenario, step)
    dice = Dice(source)
    dice_field = f"{step.field}.dice"
    try:
        result = apply_checked(ruleset, state, action, dice)
    except InvalidFace as exc:
        purpose = source.asking[0] if isinstance(source, _StepSource) else "a roll"
        raise ScenarioError(
            scenario.line_of(f"{dice_field}[{exc.index}]"), dice_field,
            f"{exc.face} is not a face of a d{exc.sides} (die {exc.index + 1}, for {purpose})",
        ) from None
    except DiceExhausted as exc:
        if not isinstance(source, _StepSource):
            raise
        purpose, count, sides = source.asking
        given, left = len(step.dice), source.remaining
        if left:
            detail = f"{given} given, and {purpose} needs {count}d{sides} with only {left} left"
        else:
            detail = f"all {given} given are used, and {purpose} needs {count}d{sides} more"
        raise ScenarioError(scenario.line_of(dice_field), dice_field, f"too few dice: {detail}") from exc
    except IllegalAction as exc:
        raise ScenarioError(scenario.line_of(field_action), field_action, str(exc)) from None
    if isinstance(source, _StepSource) and source.remaining:
        used = len(step.dice) - source.remaining
        rolled = "; ".join(r.describe() for r in dice.rolls) or "no rolls"
        raise ScenarioError(
            scenario.line_of(dice_field), dice_field,
            f"too many dice: {len(step.dice)} given, the step used {used} ({rolled})",
        )
    entry = _entry(action, dice, result, serial.to_json(result.state) if each_step else None)
    return result, [entry], how


def _play_refused(scenario, ruleset, state, step: ScenarioStep) -> str:
    """The refusal's message when the ruleset refuses the step's action; ScenarioError when it takes it."""
    field_refused = f"{step.field}.refused"
    source, _ = _dice_for(scenario, step)
    try:
        action = resolve_action(ruleset, state, step.action)
        result = apply_checked(ruleset, state, action, Dice(source))
    except IllegalAction as exc:
        message = str(exc)
    except (InvalidFace, DiceExhausted) as exc:
        raise ScenarioError(scenario.line_of(f"{step.field}.dice"), f"{step.field}.dice",
                            f"the dice do not fit the action, so it was not refused by the rules: {exc}") from None
    else:
        said = "; ".join(e.text for e in result.log) or "no log line"
        raise ScenarioError(scenario.line_of(field_refused), field_refused,
                            f"expected the ruleset to refuse {step.action!r}, but it was taken ({said})")
    if isinstance(step.refused, str) and step.refused.lower() not in message.lower():
        raise ScenarioError(scenario.line_of(field_refused), field_refused,
                            f"refused, but with another message: expected it to say {step.refused!r}, it said {message!r}")
    return message


def _play_auto(scenario, ruleset, state, step: ScenarioStep, each_step: bool):
    seed = step.seed if step.seed is not None else derive_seed(scenario.seed, step.index)
    rng = random.Random(seed)
    source = RandomSource(rng)
    limit = ruleset.step_limit if step.auto == AUTO_END else step.auto
    entries = []
    taken = 0
    while not state.over and taken < limit:
        action = ruleset.policy(state, rng)
        dice = Dice(source)
        result = apply_checked(ruleset, state, action, dice)
        state = result.state
        taken += 1
        entries.append(_entry(action, dice, result, serial.to_json(state) if each_step else None))
    if step.auto == AUTO_END and not state.over:
        field_auto = f"{step.field}.auto"
        raise ScenarioError(
            scenario.line_of(field_auto), field_auto,
            f"the fight was not over after {limit} steps (the ruleset's step limit)",
        )
    return state, entries, {"dice_from": "seed", "seed": seed}


_MISSING = object()


def _lookup(state, data, path: str):
    """The value at dotted ``path`` in the state's JSON; a reason string when absent.

    A list is indexed by number (``ships.0``) or by the ``id`` of its entries
    (``ships.b``).  The first part may also name a state property (``active``).
    """
    node: Any = data
    walked: list[str] = []
    for i, part in enumerate(path.split(".")):
        where = ".".join(walked) or "the state"
        if isinstance(node, dict):
            if part in node:
                node = node[part]
            elif i == 0 and not part.startswith("_") and hasattr(state, part):
                node = serial.to_json(getattr(state, part))
            else:
                keys = ", ".join(map(str, node)) or "none"
                return _MISSING, f"{where} has no {part!r} (it has: {keys})"
        elif isinstance(node, list):
            if re.fullmatch(r"-?[0-9]+", part):
                pos = int(part)
                if not -len(node) <= pos < len(node):
                    return _MISSING, f"{where} has {len(node)} entries, so no entry {pos}"
                node = node[pos]
            else:
                found = [item for item in node if isinstance(item, dict) and item.get("id") == part]
                if not found:
                    return _MISSING, f"{where} has no entry {part!r} (give a number from 0, or an id)"
                node = found[0]
        else:
            return _MISSING, f"{where} is {node!r}, which has no {part!r}"
        walked.append(part)
    return node, ""


def _same(expected, actual) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(_same(e, a) for e, a in zip(expected, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        return expected.keys() == actual.keys() and all(_same(v, actual[k]) for k, v in expected.items())
    return expected == actual


def _check_expect(scenario, state, step: ScenarioStep) -> dict:
    data = serial.to_json(state)
    checked = {}
    for exp in step.expect:
        field_path = f"{step.field}.expect.{exp.path}"
        line = exp.line or scenario.line_of(field_path)
        actual, why = _lookup(state, data, exp.path)
        if actual is _MISSING:
            raise ScenarioError(line, field_path, why)
        if not _same(exp.value, actual):
            raise ScenarioError(line, field_path, f"expected {_show(exp.value)}, got {_show(actual)}")
        checked[exp.path] = exp.value
    return checked


def _show(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return str(value).lower()
    return repr(value)


def run_scenario(scenario: Scenario, each_step: bool = False) -> dict:
    """Play ``scenario`` and return the result as JSON-ready data.

    ``{"scenario": {...}, "state": final state, "log": [...], "rolls": [...],
    "steps": [per-step records]}``; each record lists the actions taken with the
    dice they used (``"4/d6"``), their rolls and log.  With ``each_step`` every
    action entry also carries the state after it, and ``initial_state`` is added.
    Raises :class:`ScenarioError` at the first step that does not play.
    """
    try:
        ruleset = registry.get(scenario.ruleset)
    except registry.UnknownRuleset:
        raise ScenarioError(scenario.line_of("ruleset"), "ruleset", f"unknown ruleset {scenario.ruleset!r}") from None
    state = _set_up(scenario, ruleset)
    out: dict = {
        "scenario": {"name": scenario.name, "ruleset": scenario.ruleset, "seed": scenario.seed},
    }
    if each_step:
        out["initial_state"] = serial.to_json(state)
    records, log, rolls = [], [], []
    for step in scenario.steps:
        record: dict = {"index": step.index, "line": step.line, "kind": step.kind}
        if step.note:
            record["note"] = step.note
        if step.kind == "refused":
            record["refused"] = _play_refused(scenario, ruleset, state, step)
        elif step.kind == "action":
            result, entries, how = _play_action(scenario, ruleset, state, step, each_step)
            state = result.state
            record.update(how)
            record["actions"] = entries
        elif step.kind == "auto":
            state, entries, how = _play_auto(scenario, ruleset, state, step, each_step)
            record.update(how)
            record["actions"] = entries
        for entry in record.get("actions", []):
            log.extend(entry["log"])
            rolls.extend(entry["rolls"])
        if step.expect:
            record["expect"] = _check_expect(scenario, state, step)
        records.append(record)
    out["state"] = serial.to_json(state)
    out["log"] = log
    out["rolls"] = rolls
    out["steps"] = records
    return out
