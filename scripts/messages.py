#!/usr/bin/env python
"""The translation catalogues (locale/<language>/LC_MESSAGES/django.po and .mo).

    .venv/bin/python scripts/messages.py extract   # new and changed words into every .po (needs GNU gettext)
    .venv/bin/python scripts/messages.py compile   # every .po into its .mo (pure Python: polib)
    .venv/bin/python scripts/messages.py check     # what is missing, fuzzy or mistyped, and stale .mo files

``extract`` runs Django's makemessages (the project's own, which also reads the rule systems'
``msg``/``msgn`` calls, the identifier as the context); only a maintainer adding words needs
GNU gettext for it.  The compiled .mo files are committed, so a fresh machine needs nothing but
Python (docs/translations.md).
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
IGNORE = [".venv", "tests", "staticfiles", "var", "test-artifacts", "node_modules"]


def catalogues() -> list[Path]:
    return sorted(LOCALE.glob("*/LC_MESSAGES/django.po"))


def compiled(po: Path) -> bytes:
    """The .mo a .po compiles to (polib writes it the same way every time)."""
    import tempfile

    import polib

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "django.mo"
        polib.pofile(str(po)).save_as_mofile(str(out))
        return out.read_bytes()


def extract() -> int:
    languages = [p.parent.parent.name for p in catalogues()]
    args = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--no-location"]
    args += [f"--ignore={i}" for i in IGNORE] + [f"-l{lang}" for lang in languages]
    return subprocess.call(args, cwd=ROOT)


def compile_all() -> int:
    for po in catalogues():
        po.with_suffix(".mo").write_bytes(compiled(po))
        print(f"compiled {po.relative_to(ROOT)}")
    return 0


def problems(po: Path) -> list[str]:
    """What is wrong with one catalogue: untranslated, fuzzy, placeholders that differ."""
    import re

    import polib

    field = re.compile(r"\{[^{}]*\}|%\([^)]*\)[sd]|%[sd]")
    out = []
    for entry in polib.pofile(str(po)):
        if entry.obsolete:
            continue
        where = f"{po.parent.parent.name}: {entry.msgctxt + ' | ' if entry.msgctxt else ''}{entry.msgid!r}"
        if "fuzzy" in entry.flags:
            out.append(f"{where} is fuzzy")
        texts = [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())
        if not all(texts):
            out.append(f"{where} has no translation")
            continue
        want = sorted(field.findall(entry.msgid))
        for text in texts:
            got = sorted(set(field.findall(text)))
            if got != sorted(set(want)) and not (entry.msgid_plural and set(got) <= set(want)):
                out.append(f"{where}: placeholders {got} where the English has {sorted(set(want))}")
    return out


def stale() -> list[str]:
    return [str(po.with_suffix(".mo").relative_to(ROOT)) for po in catalogues()
            if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").read_bytes() != compiled(po)]


def check() -> int:
    found = [p for po in catalogues() for p in problems(po)] + [f"{m} is stale: run compile" for m in stale()]
    print("\n".join(found) or "every catalogue complete and compiled")
    return 1 if found else 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    sys.exit({"extract": extract, "compile": compile_all, "check": check}[command]())
