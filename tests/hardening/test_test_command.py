"""Issue 15, "A test command that passes on a fresh machine": ./scripts/test finds a browser or says what to install."""
import os
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args, **env):
    base = {k: v for k, v in os.environ.items() if k != "CHROMIUM"}
    return subprocess.run([str(ROOT / "scripts" / "test"), *args], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=300)


def said(result) -> list[str]:
    """What the test command itself said (not pip's first-run noise from the bootstrap)."""
    return [line for line in result.stderr.splitlines() if line.startswith("scripts/test:")]


def test_a_chromium_that_is_not_there_stops_with_one_line():
    result = run("tests/e2e", "--collect-only", "-q", CHROMIUM="/nowhere/chromium")
    assert result.returncode == 1
    assert said(result) == [
        "scripts/test: CHROMIUM=/nowhere/chromium is not an executable browser; point it at Chromium or unset it."]


def test_no_browser_and_no_install_stops_with_one_line_saying_what_to_install():
    # No Debian paths, and no Playwright browser under an empty cache folder.
    result = run("tests/e2e", "--collect-only", "-q", BROWSER_CANDIDATES="/nowhere/a /nowhere/b",
                 CHROMIUM_INSTALL="0", PLAYWRIGHT_BROWSERS_PATH="/nowhere/playwright")
    assert result.returncode == 1
    [line] = said(result)
    assert "apt-get install chromium" in line and "playwright install chromium" in line


def test_a_browser_found_among_the_candidates_is_handed_to_the_browser_tests(tmp_path):
    fake = tmp_path / "chromium"
    fake.write_text("#!/bin/sh\nexit 0\n")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    result = run("tests/e2e", "--collect-only", "-q", "-p", "no:cacheprovider",
                 BROWSER_CANDIDATES=f"/nowhere/a {fake}", CHROMIUM_INSTALL="0")
    assert result.returncode == 0, result.stderr
    assert "tests collected" in result.stdout or "test collected" in result.stdout


def test_a_run_without_browser_tests_needs_no_browser():
    result = run("tests/hardening/test_test_command.py", "--collect-only", "-q", "-p", "no:cacheprovider",
                 BROWSER_CANDIDATES="/nowhere/a", CHROMIUM_INSTALL="0", PLAYWRIGHT_BROWSERS_PATH="/nowhere/pw")
    assert result.returncode == 0, result.stderr
