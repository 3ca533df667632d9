"""The compiled rules (rulesets/core/compiled.py, docs/decisions.md "Compiled rules").

A build of the rule modules is used only while it is the build of the sources as they are, and it plays
exactly the battles the sources play.  The test run itself uses the build (``scripts/test`` runs
``scripts/bootstrap``, which builds it when it is missing or stale), as the web server and the
workers do.
"""
import json
import os
import subprocess
import sys

from rulesets.core import compiled

SUFFIX = compiled.SUFFIX


def fake_build(tmp_path, **change):
    """A build folder whose manifest matches the sources as they are (empty files for the binaries)."""
    modules = {name: compiled.manifest_entry(name, path) for name, path in compiled.modules_to_compile()}
    for entry in modules.values():
        (tmp_path / entry["binary"]).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / entry["binary"]).write_bytes(b"")
    (tmp_path / "abc__mypyc.so").write_bytes(b"")
    manifest = {"python": compiled.python_tag(), "mypyc": "x", "built": "now",
                "shared": {"name": "abc__mypyc", "binary": "abc__mypyc.so"}, "modules": modules}
    manifest.update(change)
    (tmp_path / compiled.MANIFEST).write_text(json.dumps(manifest))
    return manifest


def test_a_build_that_matches_every_source_is_accepted(tmp_path):
    fake_build(tmp_path)
    manifest, why = compiled.check(tmp_path)
    assert why == "" and set(manifest["modules"]) == {name for name, _ in compiled.modules_to_compile()}


def test_a_changed_source_turns_the_whole_build_off_and_is_named(tmp_path):
    manifest = fake_build(tmp_path)
    manifest["modules"]["rulesets.cepheus.attacks"]["sha256"] = "0" * 64
    (tmp_path / compiled.MANIFEST).write_text(json.dumps(manifest))
    assert compiled.check(tmp_path) == (
        None, "rulesets/cepheus/attacks.py changed since the build (scripts/compile_rules.py rebuilds it)")


def test_a_build_for_another_python_or_other_modules_or_missing_is_not_used(tmp_path):
    fake_build(tmp_path, python="cpython-310-x")
    assert "the build is for cpython-310-x" in compiled.check(tmp_path)[1]
    manifest = fake_build(tmp_path)
    del manifest["modules"]["rulesets.void_d20.ships"]
    (tmp_path / compiled.MANIFEST).write_text(json.dumps(manifest))
    assert "other modules than the ones to compile" in compiled.check(tmp_path)[1]
    fake_build(tmp_path)
    (tmp_path / ("rulesets/void_d20/ships" + SUFFIX)).unlink()
    assert compiled.check(tmp_path)[1] == f"the build lacks rulesets/void_d20/ships{SUFFIX}"
    assert compiled.check(tmp_path / "nowhere")[1].startswith("no build in ")


def test_install_never_mixes_a_build_with_modules_already_imported(tmp_path, monkeypatch):
    import rulesets.cepheus.attacks  # noqa: F401  (imported, as every rule module is by now)

    fake_build(tmp_path)
    monkeypatch.delenv("STARSHIP_PURE_RULES", raising=False)
    before = compiled.status()
    finders = list(sys.meta_path)
    try:
        got = compiled.install(tmp_path)
        assert got["compiled"] is False and "was imported before the build could be installed" in got["reason"]
        assert sys.meta_path == finders
        monkeypatch.setenv("STARSHIP_PURE_RULES", "1")
        assert compiled.install(tmp_path) == {"compiled": False, "reason": "STARSHIP_PURE_RULES is set", "modules": 0}
    finally:
        compiled._status = before


def _run(code: str, pure: bool) -> str:
    env = {**os.environ, "STARSHIP_PURE_RULES": "1" if pure else "0"}
    done = subprocess.run([sys.executable, "-c", code], cwd=compiled.ROOT, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_this_test_run_uses_the_build_as_the_app_does():
    """scripts/bootstrap builds the rules; unless STARSHIP_PURE_RULES asks for the sources, the run uses them."""
    import rulesets.cepheus.attacks
    import rulesets.void_d20.ships

    if os.environ.get("STARSHIP_PURE_RULES", "") not in ("", "0"):
        assert compiled.status()["reason"] == "STARSHIP_PURE_RULES is set"
        assert rulesets.cepheus.attacks.__file__.endswith(".py")
        return
    assert compiled.status()["compiled"], compiled.describe()
    assert compiled.status()["modules"] == len(compiled.modules_to_compile())
    assert rulesets.cepheus.attacks.__file__.endswith(SUFFIX)
    assert rulesets.void_d20.ships.__file__.endswith(SUFFIX)


PLAY = """
import hashlib, json
from rulesets.core import compiled, registry
from rulesets.core.simulate import run_trial, trial_seed
from rulesets.core.spec import demo_setup
out = {"status": compiled.status(), "battles": {}}
for key in sorted({name.split(".")[1] for name in compiled.COMPILED}):
    ruleset = registry.get(key)
    digest = hashlib.sha256()
    for n, spec in enumerate([ruleset.example_setup(0), ruleset.example_setup(1), demo_setup(ruleset)]):
        for i in range(150):
            digest.update(json.dumps(run_trial(ruleset, spec, trial_seed("same", n, i)), sort_keys=True,
                                     default=str).encode())
    out["battles"][key] = digest.hexdigest()
print(json.dumps(out))
"""


def test_compiled_and_pure_rules_play_the_same_battles():
    """450 battles of each compiled system (two example setups and the demo fleets), with their outcomes,
    rounds and per-side figures, hashed: the build and the sources give the same hash."""
    pure = json.loads(_run(PLAY, pure=True))
    built = json.loads(_run(PLAY, pure=False))
    assert pure["status"]["compiled"] is False
    assert built["status"]["compiled"] is True, built["status"]["reason"]
    assert built["battles"] == pure["battles"]


def test_the_rule_systems_tests_pass_from_their_sources_too():
    """The run uses the build; the rules a developer edits run from their sources until the next build:
    the rule systems' tests pass both ways (here from the sources, on SQLite)."""
    if not compiled.status()["compiled"]:
        assert compiled.status()["reason"] == "STARSHIP_PURE_RULES is set", compiled.describe()
        return  # this run is the one from the sources
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env["STARSHIP_PURE_RULES"] = "1"
    done = subprocess.run([sys.executable, "-m", "pytest", "tests/rulesets", "-q", "-p", "no:cacheprovider",
                           "--deselect", "tests/rulesets/core/test_compiled.py"],
                          cwd=compiled.ROOT, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout.splitlines()[-1]
