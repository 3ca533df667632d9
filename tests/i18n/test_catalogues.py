"""The compiled catalogues are committed and current: a fresh machine needs only Python (issue 24)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
spec = importlib.util.spec_from_file_location("messages_script", ROOT / "scripts" / "messages.py")
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)


def test_every_language_has_a_catalogue_and_each_compiled_catalogue_is_current():
    from django.conf import settings

    languages = {p.parent.parent.name for p in script.catalogues()}
    assert languages == {code for code, _ in settings.LANGUAGES} - {"en-gb"}
    assert script.stale() == []


def test_no_translation_is_fuzzy_or_changes_a_placeholder():
    wrong = [p for po in script.catalogues() for p in script.problems(po) if "has no translation" not in p]
    assert wrong == []
