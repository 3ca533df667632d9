#!/usr/bin/env python
"""The translation catalogues (locale/<language>/LC_MESSAGES/django.po and .mo; djangojs.po and
.mo for the words the page's scripts say, served by Django's JavaScript catalogue at /jsi18n/).

    .venv/bin/python scripts/messages.py extract   # new and changed words into every .po (needs GNU gettext)
    .venv/bin/python scripts/messages.py compile   # every .po into its .mo (pure Python: polib)
    .venv/bin/python scripts/messages.py check     # what is missing, fuzzy or mistyped, and stale .mo files
    .venv/bin/python scripts/messages.py glossary  # each system's glossary table in its docs page

``extract`` runs Django's makemessages (the project's own, which also reads the rule systems'
``msg``/``msgn`` calls, the identifier as the context); only a maintainer adding words needs
GNU gettext for it.  The compiled .mo files are committed, so a fresh machine needs nothing but
Python (docs/translations.md).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "locale"
IGNORE = [".venv", "tests", "staticfiles", "var", "test-artifacts", "node_modules"]


#: the catalogues' domains: the templates and Python ("django"), the scripts in static/js ("djangojs")
DOMAINS = ("django", "djangojs")


def catalogues(domains=DOMAINS) -> list[Path]:
    return sorted(po for domain in domains for po in LOCALE.glob(f"*/LC_MESSAGES/{domain}.po"))


def compiled(po: Path) -> bytes:
    """The .mo a .po compiles to (polib writes it the same way every time)."""
    import tempfile

    import polib

    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "django.mo"
        polib.pofile(str(po)).save_as_mofile(str(out))
        return out.read_bytes()


#: a rule message's identifier: "<system>.<area>.<what>" (rulesets/core/messages.py)
MESSAGE_ID = r"^(core|toy|cepheus|starwars_d6|void_d20|wing_commander|dropfleet)\.[a-z0-9_]+(\.[a-z0-9_]+)*$"


def rule_messages() -> dict[tuple[str, str], str | None]:
    """Every rule message the code states: {(identifier, English text): English plural or None}.

    Three readers, so that no message escapes the catalogue however a rule builds it:
    ``makemessages`` reads literal ``msg``/``msgn`` calls (and the refusals' ``_no``); this reads
    the source for an identifier written beside its text anywhere else (a helper's arguments,
    ``("id", "text")`` pairs in a table, a function's defaults); and it collects the messages
    the rule modules hold as data when imported (tables whose identifiers are built from keys).
    """
    import ast
    import importlib
    import pkgutil
    import re

    from rulesets.core.messages import Message

    ident = re.compile(MESSAGE_ID)
    found: dict[tuple[str, str], str | None] = {}

    def text(node) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        return None

    for path in sorted((ROOT / "rulesets").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            runs = []
            if isinstance(node, ast.Call):
                runs.append(node.args)
            elif isinstance(node, (ast.Tuple, ast.List)):
                runs.append(node.elts)
            elif isinstance(node, ast.arguments):
                runs.append(node.defaults)
                runs.append([d for d in node.kw_defaults if d is not None])
            for run in runs:
                for i in range(len(run) - 1):
                    first, second = text(run[i]), text(run[i + 1])
                    if first and second is not None and ident.match(first):
                        found.setdefault((first, second), None)

    def walk(value, seen: set) -> None:
        if id(value) in seen:
            return
        seen.add(id(value))
        if isinstance(value, Message):
            found[(value.id, value.text)] = value.plural
            for v in value.params.values():
                walk(v, seen)
        elif isinstance(value, dict):
            for k, v in value.items():
                walk(k, seen)
                walk(v, seen)
        elif isinstance(value, (list, tuple, set, frozenset)):
            for v in value:
                walk(v, seen)
        elif hasattr(value, "__dataclass_fields__") or hasattr(value, "_fields"):
            for name in getattr(value, "__dataclass_fields__", None) or value._fields:
                walk(getattr(value, name, None), seen)

    import rulesets

    for info in pkgutil.walk_packages(rulesets.__path__, "rulesets."):
        if info.name.rsplit(".", 1)[-1] in {"apps", "forms", "admin", "models", "views", "urls", "migrations"}:
            continue
        module = importlib.import_module(info.name)
        for value in list(vars(module).values()):
            walk(value, set())
    # the rules the systems cite (rulesets.core.citation): each English heading, read in the
    # reader's language under the context "<system>.rule" (encounters.viewing.rule_words)
    from rulesets.core.citation import _REGISTERED

    for citations in list(_REGISTERED.values()):
        for c in citations:
            if c.system:
                found.setdefault((f"{c.system}.rule", c.english), None)
    return found


def _setup_django() -> None:
    import os

    import django

    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    django.setup()


def extract() -> int:
    """makemessages, then the rule messages it cannot see; no translation is lost on the way
    (an entry it dropped and this adds back gets its words back)."""
    import polib

    before = {}
    for po in catalogues():
        before[po] = {(e.msgctxt, e.msgid): e for e in polib.pofile(str(po)) if e.translated()}
    languages = sorted({p.parent.parent.name for p in catalogues(("django",))})
    args = [sys.executable, "manage.py", "makemessages", "--no-obsolete", "--no-location"]
    args += [f"--ignore={i}" for i in IGNORE] + [f"-l{lang}" for lang in languages]
    for extra in ([], ["-d", "djangojs"]):
        status = subprocess.call(args + extra, cwd=ROOT)
        if status:
            return status
    _setup_django()
    said = rule_messages()
    for po_path in catalogues():
        po = polib.pofile(str(po_path))
        have = {(e.msgctxt, e.msgid) for e in po}
        if po_path.name != "django.po":  # the rule messages are the app's, not its scripts'
            said_here = {}
        else:
            said_here = said
        plural_forms = int(re.search(r"nplurals=(\d+)", po.metadata.get("Plural-Forms", "nplurals=2")).group(1))
        for (ctx, text), plural in sorted(said_here.items()):
            if (ctx, text) in have:
                continue
            entry = polib.POEntry(msgctxt=ctx, msgid=text, msgstr="", flags=["python-brace-format"] if "{" in text else [])
            if plural is not None:
                entry.msgid_plural = plural
                entry.msgstr_plural = {i: "" for i in range(plural_forms)}
            po.append(entry)
        if po_path.name != "django.po":  # a new domain's header: the language's, as in django.po
            po.metadata.update(polib.pofile(str(po_path.with_name("django.po"))).metadata)
            po.metadata_is_fuzzy = False
            po.header = ""
        old = before.get(po_path, {})
        for entry in po:
            was = old.get((entry.msgctxt, entry.msgid))
            if was is None or entry.translated():
                continue
            if entry.msgid_plural and was.msgid_plural:
                entry.msgstr_plural = dict(was.msgstr_plural)
            elif not entry.msgid_plural and not was.msgid_plural:
                entry.msgstr = was.msgstr
            if "fuzzy" in entry.flags:
                entry.flags.remove("fuzzy")
        po.save(str(po_path))
        print(f"{po_path.relative_to(ROOT)}: {len(po)} entries, {len(po.untranslated_entries())} to translate")
    return 0


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
        want = set(field.findall(entry.msgid))
        if entry.msgid_plural:
            # a plural form may use the singular's placeholders or the plural's ("{missile}" / "{missiles}")
            allowed = want | set(field.findall(entry.msgid_plural))
            wrong = [sorted(set(field.findall(t))) for t in texts if not set(field.findall(t)) <= allowed]
        else:
            allowed = want
            wrong = [sorted(set(field.findall(t))) for t in texts if set(field.findall(t)) != want]
        for got in wrong:
            out.append(f"{where}: placeholders {got} where the English has {sorted(allowed)}")
    return out


def stale() -> list[str]:
    return [str(po.with_suffix(".mo").relative_to(ROOT)) for po in catalogues()
            if not po.with_suffix(".mo").exists() or po.with_suffix(".mo").read_bytes() != compiled(po)]


def check() -> int:
    found = [p for po in catalogues() for p in problems(po)] + [f"{m} is stale: run compile" for m in stale()]
    print("\n".join(found) or "every catalogue complete and compiled")
    return 1 if found else 0


#: each rule system's source language: its glossary lists the terms its source text uses
SOURCE_LANGUAGE = {"cepheus": "it", "starwars_d6": "ca", "void_d20": "ru", "wing_commander": "de", "dropfleet": "es"}
GLOSSARY_LANGUAGES = ["it", "ca", "ru", "de", "es"]
START, END = "<!-- glossary:start -->", "<!-- glossary:end -->"


def _glossary_terms(lang: str) -> dict[tuple[str, str], str]:
    """{(system, English term lowered): the term} from locale/<lang>/glossary.tsv."""
    path = LOCALE / lang / "glossary.tsv"
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines() if path.exists() else []:
        cells = line.split("\t")
        if len(cells) >= 3 and cells[0] and cells[1]:
            out.setdefault((cells[0], cells[1].strip().lower()), cells[2].strip())
    return out


def glossary() -> int:
    """Each system's docs page gets its glossary table, made from the translators' glossary files
    (locale/<lang>/glossary.tsv): the terms the system's source-language glossary lists, in the six
    languages; a term a language's glossary does not list is looked up in its catalogue."""
    import polib

    terms = {lang: _glossary_terms(lang) for lang in GLOSSARY_LANGUAGES}
    catalogue = {}
    for lang in GLOSSARY_LANGUAGES:
        po = polib.pofile(str(LOCALE / lang / "LC_MESSAGES" / "django.po"))
        catalogue[lang] = {((e.msgctxt or "").split(".")[0], e.msgid.lower()): e.msgstr for e in po if e.msgstr}
    names = {"it": "Italiano", "ca": "Català", "ru": "Русский", "de": "Deutsch", "es": "Español"}
    for system, source in SOURCE_LANGUAGE.items():
        rows = []
        path = LOCALE / source / "glossary.tsv"
        for line in path.read_text(encoding="utf-8").splitlines():
            cells = line.split("\t")
            if len(cells) < 3 or cells[0] != system:
                continue
            english = cells[1].strip()
            key = (system, english.lower())
            row = [english]
            for lang in GLOSSARY_LANGUAGES:
                row.append(terms[lang].get(key) or catalogue[lang].get(key) or "")
            rows.append(row)
        head = ["English"] + [f"**{names[l]}** (source)" if l == source else names[l] for l in GLOSSARY_LANGUAGES]
        table = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
        table += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
        section = "\n".join([START, "## Glossary", "",
                              f"The terms of this system in the six languages (issue 24). The "
                              f"{names[source]} column is the source text's own words; the others are the "
                              "established terms of the game's community where they exist. Made by "
                              "`scripts/messages.py glossary` from `locale/<language>/glossary.tsv`; fix a term "
                              "there and in the catalogue (docs/translations.md).", "", *table, END])
        doc = ROOT / "docs" / "rulesets" / f"{system}.md"
        text = doc.read_text(encoding="utf-8")
        if START in text:
            text = text[:text.index(START)] + section + text[text.index(END) + len(END):]
        else:
            text = text.rstrip("\n") + "\n\n" + section + "\n"
        doc.write_text(text, encoding="utf-8")
        print(f"{doc.relative_to(ROOT)}: {len(rows)} terms")
    return 0


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "check"
    sys.exit({"extract": extract, "compile": compile_all, "check": check, "glossary": glossary}[command]())
