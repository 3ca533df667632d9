#!/usr/bin/env python
"""Build the compiled rules: the rule modules named in ``rulesets.core.compiled.COMPILED``, compiled by
mypyc into ``var/compiled/`` with a manifest of the sources they were built from.

    .venv/bin/python scripts/compile_rules.py [--if-stale] [--quiet] [--status]

``--if-stale`` builds only when there is no build matching the sources (what ``scripts/bootstrap``
runs).  The build is made in a fresh folder and moved into place only when it succeeds; a failed
build leaves the previous state (and the app runs the rules from their sources) and prints where
its log is.  ``--status`` only says whether the build matches the sources, and why not.  Needs a C compiler and the Python headers.  Exits 0 on success, 1 on a failed build.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["STARSHIP_PURE_RULES"] = "1"  # this process reads the sources, never a build

from rulesets.core import compiled  # noqa: E402

#: the build itself, run in a child process so that setuptools' argv handling stays out of ours
BUILD = """
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, out, temp, target = sys.argv[1].split(","), sys.argv[2], sys.argv[3], sys.argv[4]
setup(name="starship-compiled-rules", ext_modules=mypycify(paths, opt_level="3", target_dir=target),
      script_args=["build_ext", "--build-lib", out, "--build-temp", temp, "--parallel", sys.argv[5]])
"""


def build(quiet: bool) -> int:
    import mypy.version

    modules = compiled.modules_to_compile()
    build_dir = compiled.BUILD_DIR
    build_dir.parent.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="compiled-", dir=build_dir.parent))
    out = work / "out"
    log = build_dir.parent / "compile_rules.log"
    began = time.monotonic()
    if not quiet:
        print(f"compile_rules: compiling {len(modules)} rule modules with mypyc {mypy.version.__version__} "
              f"(a minute or three)...", flush=True)
    try:
        with open(log, "w") as handle:
            done = subprocess.run(
                [sys.executable, "-c", BUILD, ",".join(str(p.relative_to(ROOT)) for _, p in modules),
                 str(out), str(work / "temp"), str(work / "c"), str(os.cpu_count() or 1)],
                cwd=ROOT, stdout=handle, stderr=subprocess.STDOUT,
                env={**os.environ, "MYPY_CACHE_DIR": str(work / "mypy-cache")})
        if done.returncode != 0:
            print(f"compile_rules: the build failed (log: {log}); the rules run from their sources.", file=sys.stderr)
            return 1
        shared = [p for p in out.iterdir() if p.name.endswith("__mypyc" + compiled.SUFFIX)]
        if len(shared) != 1:
            print(f"compile_rules: expected one shared library in the build, found {len(shared)}", file=sys.stderr)
            return 1
        manifest = {
            "python": compiled.python_tag(),
            "mypyc": mypy.version.__version__,
            "built": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "shared": {"name": shared[0].name[: -len(compiled.SUFFIX)], "binary": shared[0].name},
            "modules": {name: compiled.manifest_entry(name, path) for name, path in modules},
        }
        missing = [e["binary"] for e in manifest["modules"].values() if not (out / e["binary"]).exists()]
        if missing:
            print(f"compile_rules: the build has no {missing[0]}", file=sys.stderr)
            return 1
        (out / compiled.MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True))
        old = build_dir.with_name(build_dir.name + ".old")
        shutil.rmtree(old, ignore_errors=True)
        if build_dir.exists():
            build_dir.rename(old)
        out.rename(build_dir)
        shutil.rmtree(old, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not quiet:
        print(f"compile_rules: built {len(modules)} modules into {build_dir} in {time.monotonic() - began:.0f} s")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--if-stale", action="store_true", help="build only when no build matches the sources")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--status", action="store_true", help="say whether the build matches the sources; build nothing")
    args = parser.parse_args(argv)
    if args.status:
        manifest, why = compiled.check()
        print(f"compile_rules: the build matches the sources ({len(manifest['modules'])} modules, built "
              f"{manifest['built']})" if manifest is not None else f"compile_rules: {why}")
        return 0 if manifest is not None else 1
    if args.if_stale:
        manifest, why = compiled.check()
        if manifest is not None:
            return 0
        if not args.quiet:
            print(f"compile_rules: {why}")
    return build(args.quiet)


if __name__ == "__main__":
    raise SystemExit(main())
