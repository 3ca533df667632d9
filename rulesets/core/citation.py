"""How a rule system cites the rule behind a log line or a roll: one convention for all.

A citation is stored where the engine always stored it, as a plain string in
``LogEntry.rule`` and ``Roll.rule`` (and it may be written into a log line's text):
the English heading a GM reads.  :func:`cite` returns that string and remembers what
goes with it -- the source text's own heading (shown on hover) and whether the rule
is a house rule or the project's ruling where the text is silent (shown in words).
:func:`read` turns a stored string back into a :class:`Citation`; strings stored
before this convention ("Iniziativa (Initiative)", "RULES-NOTES (cepheus): ...") are
read too, so old event rows and snapshots still show English.

A system writes its section names once, in its tables module::

    SEC_ATTACK = cite("Attack", "Attacco")
    SEC_HASTY = cite("Acting hastily", house_rule=True)     # "House rule: Acting hastily"
    SEC_WILD = cite("The Wild Die", ruling=True)            # "Ruling: The Wild Die"

Pure Python: no Django import.
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass

HOUSE_RULE = "House rule"
RULING = "Ruling"


@dataclass(frozen=True)
class Citation:
    """A rule cited: the English heading, the source's own heading, what kind of rule it is."""

    english: str
    original: str = ""
    house_rule: bool = False
    #: the project's reading where the source text is silent or ambiguous (RULES-NOTES)
    ruling: bool = False
    #: the rule system that registered it ("" for strings read without registration)
    system: str = ""

    @property
    def kind(self) -> str:
        """"house rule", "ruling" or "" (a rule of the source text), in words."""
        return "house rule" if self.house_rule else "ruling" if self.ruling else ""

    @property
    def text(self) -> str:
        """The string stored in ``rule`` fields and written into log lines."""
        if self.house_rule:
            return f"{HOUSE_RULE}: {self.english}"
        if self.ruling:
            return f"{RULING}: {self.english}"
        return self.english

    def __str__(self) -> str:
        return self.text


_REGISTERED: dict[str, list[Citation]] = {}


def cite(english: str, original: str = "", house_rule: bool = False, *, ruling: bool = False,
         system: str = "") -> str:
    """Register a citation and return the string to store (the English heading, marked).

    ``system`` defaults to the calling module's rule-system package
    (``rulesets.cepheus.tables`` -> ``cepheus``), so two systems may share an English heading.
    """
    if not english.strip():
        raise ValueError("A citation needs its English heading.")
    if not system:
        caller = sys._getframe(1).f_globals.get("__name__", "")
        parts = caller.split(".")
        system = parts[1] if len(parts) > 1 and parts[0] == "rulesets" else ""
    citation = Citation(english.strip(), original.strip(), house_rule, ruling, system)
    known = _REGISTERED.setdefault(citation.text, [])
    if citation not in known:
        known.append(citation)
    return citation.text


def cite_row(section: str, row: str) -> str:
    """A table's section and the row consulted, as a log line writes it ("Space Combat Damage: 1-4")."""
    return f"{section}: {row}" if row else section


_LEGACY_NOTES = re.compile(r"^RULES-NOTES(?:\s*\(\w+\)|\s+\w+)?\s*[:,]?\s*")
_LEGACY_PAIR = re.compile(r"^(?P<original>.+?)\s*\((?P<english>[A-Za-z][A-Za-z0-9 ,'&/\-–]*)\)$")


def read(text: str, system: str = "") -> Citation | None:
    """The citation behind a stored ``rule`` string (None for an empty one).

    Registered strings give what :func:`cite` was told (the one of ``system`` first);
    older strings are read by their shape: "Original (English)", "RULES-NOTES ...: what",
    "..., house rule".  Anything else is shown as it is.
    """
    text = (text or "").strip()
    if not text:
        return None
    known = _REGISTERED.get(text)
    if known:
        for citation in known:
            if citation.system == system:
                return citation
        return known[0]
    house = False
    if re.search(r",?\s*\bhouse rule\b", text, re.I):
        house = True
        text = re.sub(r",?\s*\(?\bhouse rule\b\)?", "", text, flags=re.I).strip(" ,:")
    if text.lower().startswith(f"{HOUSE_RULE.lower()}:"):
        house, text = True, text.split(":", 1)[1].strip()
    ruling = False
    if text.startswith("RULES-NOTES"):
        ruling = not house
        text = _LEGACY_NOTES.sub("", text).strip().strip("()").strip() or "the rules notes"
        if text == "the GM's escape hatch":
            return Citation("GM override", system=system)
    elif text.lower().startswith(f"{RULING.lower()}:"):
        ruling, text = True, text.split(":", 1)[1].strip()
    text = re.sub(r"\s*\(RULES-NOTES\)$", "", text)
    pair = _LEGACY_PAIR.match(text) if " — " not in text else None
    if pair and not house and not ruling:
        original = pair["original"]
        if original.lower().startswith("tabella: "):
            return Citation(f"{pair['english']} table", original, system=system)
        return Citation(pair["english"], original, system=system)
    return Citation(_upper_first(text), "", house, ruling, system)


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]

