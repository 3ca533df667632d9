"""The compiled rules: the same rule modules, built with mypyc, used only while they match the sources.

Simulations and re-roll analyses play thousands of battles; the rule systems with many decisions a
battle (Cepheus, Void d20) are run from a build of their own Python modules compiled by mypyc
(docs/decisions.md, "Compiled rules").  The source stays the one statement of every rule: the build
is made from it, and is used only while it is the build *of* it.

* ``scripts/compile_rules.py`` builds the modules listed in :data:`COMPILED` into ``var/compiled/``
  and writes a manifest there: each module's source file with its SHA-256, and the Python the build
  is for.  ``scripts/bootstrap`` runs it whenever the build is missing or stale.
* :func:`install` (called by ``rulesets/__init__.py``, before any rule module is imported) reads
  the manifest.  When the Python matches and every listed source still hashes as it did, a finder
  on ``sys.meta_path`` loads those modules from the build; otherwise nothing is compiled and every
  module is imported from its source.  It is all or nothing: compiled modules call each other
  directly, so a build is never mixed with a changed source.  An edited rule therefore takes effect
  at once, uncompiled, until the next build.
* ``STARSHIP_PURE_RULES=1`` turns the build off (the pure side of the comparisons: the test that
  compiled and pure play the same battles, ``scripts/bench_playout.py --compare``).
* :func:`status` says which is in use, and why.

Pure Python, no Django; this module itself is never compiled.
"""
from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from pathlib import Path

#: the packages whose modules are compiled, each with the modules left out: the Django ones (apps,
#: forms), and Void d20's state classes (``model``: frozen dataclasses that mypyc would make slower to
#: copy, as their ``__init__`` stays interpreted); and the core modules they call on every step.
#: Core's ``dice`` and ``engine`` stay interpreted: other code subclasses their classes and sets
#: attributes on their objects.
COMPILED: dict[str, tuple[str, ...]] = {
    "rulesets.cepheus": ("apps", "forms"),
    "rulesets.void_d20": ("apps", "forms", "model"),
}
COMPILED_CORE: tuple[str, ...] = ("rulesets.core.faces", "rulesets.core.spec", "rulesets.core.state")

ROOT = Path(__file__).resolve().parents[2]
#: where the build lives (``STARSHIP_COMPILED_DIR`` moves it)
BUILD_DIR = Path(os.environ.get("STARSHIP_COMPILED_DIR") or ROOT / "var" / "compiled")
MANIFEST = "manifest.json"
#: the file ending of an extension module for this Python (a build's binaries end so)
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]

_status: dict = {"compiled": False, "reason": "not looked at yet", "modules": 0}


def modules_to_compile() -> list[tuple[str, Path]]:
    """(module name, source path) of every module the build holds, in a stable order."""
    out = []
    for package, left_out in COMPILED.items():
        folder = ROOT.joinpath(*package.split("."))
        for path in sorted(folder.glob("*.py")):
            if path.stem == "__init__" or path.stem in left_out:
                continue
            out.append((f"{package}.{path.stem}", path))
    for name in COMPILED_CORE:
        out.append((name, ROOT.joinpath(*name.split(".")).with_suffix(".py")))
    return out


def python_tag() -> str:
    """The Python a build is for (an extension module only loads in the Python it was built for)."""
    return f"{sys.implementation.cache_tag}-{SUFFIX}"


def source_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_entry(name: str, path: Path) -> dict:
    """What the manifest records of the module ``name`` built from ``path``: its source, the source's
    hash, and its binary in the build folder."""
    return {"source": str(path.relative_to(ROOT)), "sha256": source_hash(path),
            "binary": str(Path(*name.split(".")).with_suffix(SUFFIX))}


def check(build_dir: Path = BUILD_DIR) -> tuple[dict | None, str]:
    """(the manifest, "") when the build in ``build_dir`` matches this Python and every source it
    was made from; else (None, why not)."""
    try:
        manifest = json.loads((build_dir / MANIFEST).read_text())
    except FileNotFoundError:
        return None, f"no build in {build_dir} (scripts/compile_rules.py makes one)"
    except (OSError, ValueError) as exc:
        return None, f"the build's manifest cannot be read: {exc}"
    if manifest.get("python") != python_tag():
        return None, f"the build is for {manifest.get('python')}, this Python is {python_tag()}"
    wanted = {name: str(path.relative_to(ROOT)) for name, path in modules_to_compile()}
    built = {name: entry["source"] for name, entry in manifest["modules"].items()}
    if built != wanted:
        return None, "the build holds other modules than the ones to compile (scripts/compile_rules.py)"
    for name, entry in manifest["modules"].items():
        source = ROOT / entry["source"]
        if not source.exists() or source_hash(source) != entry["sha256"]:
            return None, f"{entry['source']} changed since the build (scripts/compile_rules.py rebuilds it)"
        if not (build_dir / entry["binary"]).exists():
            return None, f"the build lacks {entry['binary']}"
    return manifest, ""


class _BuildFinder:
    """Finds the built modules (and the build's shared library) in the build folder."""

    def __init__(self, binaries: dict[str, Path]):
        self.binaries = binaries

    def find_spec(self, name, path=None, target=None):
        binary = self.binaries.get(name)
        if binary is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(name, str(binary))
        return importlib.util.spec_from_file_location(name, str(binary), loader=loader)


def install(build_dir: Path = BUILD_DIR) -> dict:
    """Use the build for its modules when it matches the sources (see the module's docstring);
    returns :func:`status`.  Must run before any of those modules is imported."""
    global _status
    if os.environ.get("STARSHIP_PURE_RULES", "") not in ("", "0"):
        _status = {"compiled": False, "reason": "STARSHIP_PURE_RULES is set", "modules": 0}
        return status()
    manifest, why = check(build_dir)
    if manifest is None:
        _status = {"compiled": False, "reason": why, "modules": 0}
        return status()
    already = [name for name in manifest["modules"] if name in sys.modules]
    if already:
        _status = {"compiled": False, "modules": 0,
                   "reason": f"{already[0]} was imported before the build could be installed"}
        return status()
    binaries = {name: build_dir / entry["binary"] for name, entry in manifest["modules"].items()}
    binaries[manifest["shared"]["name"]] = build_dir / manifest["shared"]["binary"]
    sys.meta_path.insert(0, _BuildFinder(binaries))
    _status = {"compiled": True, "reason": f"built {manifest.get('built', '?')} by mypyc {manifest.get('mypyc', '?')}",
               "modules": len(manifest["modules"])}
    return status()


def is_compiled(cls: type) -> bool:
    """Whether ``cls`` comes from a module the build serves (its annotations are erased: mypyc keeps
    ``list`` of ``list[Ship]`` and ``type`` of ``Task | None``)."""
    module = sys.modules.get(cls.__module__)
    return module is not None and str(getattr(module, "__file__", "")).endswith(SUFFIX)


def source_type_hints(cls: type) -> dict:
    """The type hints of a compiled class's fields as its source states them, evaluated in its
    module, as ``typing.get_type_hints`` reads them from the same class uncompiled (every module here
    writes ``from __future__ import annotations``, so a hint is its source text).  Base classes'
    hints first, as ``get_type_hints`` merges them."""
    import ast
    import typing

    hints: dict = {}
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        if not is_compiled(klass):
            hints.update(typing.get_type_hints(klass))
            continue
        module = sys.modules[klass.__module__]
        source = ROOT.joinpath(*klass.__module__.split(".")).with_suffix(".py")
        tree = ast.parse(source.read_text())
        [node] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == klass.__name__]
        for item in node.body:
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                text = ast.unparse(item.annotation)
                if not text.startswith(("ClassVar", "typing.ClassVar", "Final")):
                    hints[item.target.id] = eval(text, vars(module))  # noqa: S307 (our own source)
    return hints


def status() -> dict:
    """{"compiled": bool, "reason": text, "modules": how many are compiled}."""
    return dict(_status)


def describe() -> str:
    """One line for a benchmark or a log: which rules run, and why."""
    s = status()
    if s["compiled"]:
        return f"compiled rules: {s['modules']} modules ({s['reason']})"
    return f"pure-Python rules: {s['reason']}"
