"""Words for a person, not yet rendered: a message is an identifier, its English text and
its parameters.

A rule says *what* happened or *why* it refuses (``msg("wc.refused.guns_out", "{ship}'s guns
are out of action.", ship=name)``); the app renders the message in the reader's language
when someone reads it.  The English text is the message's source text (the catalogue's
msgid): placeholders are ``{name}`` fields filled from the parameters.  A parameter may itself
be a message (a weapon's kind, a table's row): it is rendered in the same language.

Rules never ask whether anybody will read a message: they say it, and the log that receives
it (:class:`rulesets.core.engine.Log`) keeps it or, in a playout, drops it.  Building a message
is cheap (an identifier, a text and a dict); rendering it is what costs, and happens only when
a page, an export or a test reads it.

Translation: :func:`set_translator` installs the app's lookup (Django's ``pgettext`` and
``npgettext`` in the reader's active language, the message's identifier as the context);
without one, messages render in English.
Pure Python: no Django import.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

#: the installed lookups: (context, text) -> translated text, and (context, singular, plural, n) ->
#: translated text.  The context is the message's identifier, so the same English words in two
#: systems translate into each system's own terms ("hit" in Cepheus and in Wing Commander).
_pgettext: Callable[[str, str], str] | None = None
_npgettext: Callable[[str, str, str, int], str] | None = None


def set_translator(pgettext: Callable[[str, str], str] | None,
                   npgettext: Callable[[str, str, str, int], str] | None = None) -> None:
    """Install the app's translation lookups, Django's ``pgettext`` and ``npgettext`` in the app
    (None: English, the texts as written)."""
    global _pgettext, _npgettext
    _pgettext, _npgettext = pgettext, npgettext


@contextmanager
def translating(pgettext: Callable[[str, str], str] | None,
                npgettext: Callable[[str, str, str, int], str] | None = None) -> Iterator[None]:
    """Render in another language for a while (tests: a made-up language), then put back the
    lookups that were installed (the app's)."""
    previous = (_pgettext, _npgettext)
    set_translator(pgettext, npgettext)
    try:
        yield
    finally:
        set_translator(*previous)


class Message:
    """An identifier (``system.area.what``), its English text with ``{placeholders}``, and the
    parameters that fill them.  ``plural``: the English plural text, for a message whose words
    depend on the number in its ``count`` parameter ("1 round" / "3 rounds"); each language
    chooses among its own plural forms (Russian has three)."""

    __slots__ = ("id", "text", "params", "plural")

    def __init__(self, id: str, text: str, params: Any = (), plural: str | None = None):
        self.id = id
        self.text = text
        # msg() hands over the fresh dict of its keywords: kept as it is, not copied
        self.params: dict[str, Any] = params if type(params) is dict else dict(params)
        self.plural = plural

    def get(self, key: str, default: Any = None) -> Any:
        return self.params.get(key, default)

    def with_params(self, **params: Any) -> "Message":
        return Message(self.id, self.text, {**self.params, **params}, self.plural)

    def render(self) -> str:
        """The words in the installed language (English when none is installed)."""
        if self.plural is not None:
            n = int(self.params.get("count", 0))
            template = (_npgettext(self.id, self.text, self.plural, n) if _npgettext
                        else (self.text if n == 1 else self.plural))
        else:
            template = _pgettext(self.id, self.text) if _pgettext else self.text
        if not self.params:
            return template
        return template.format(**{k: (v.render() if isinstance(v, Message) else v)
                                  for k, v in self.params.items()})

    def english(self) -> str:
        """The English words, whatever language is installed (fingerprints, machine keys)."""
        if self.plural is not None and int(self.params.get("count", 0)) != 1:
            template = self.plural
        else:
            template = self.text
        if not self.params:
            return template
        return template.format(**{k: (v.english() if isinstance(v, Message) else v)
                                  for k, v in self.params.items()})

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"msg({self.id!r}, {self.english()!r})"

    def __eq__(self, other: object) -> bool:
        """Two messages are equal when they say the same thing; a message equals a string that
        is its English words (what a stored log, a scenario file or a test reads)."""
        if isinstance(other, str):
            return self.english() == other
        return (isinstance(other, Message) and self.id == other.id and self.text == other.text
                and self.params == other.params and self.plural == other.plural)

    def __hash__(self) -> int:
        return hash(self.english())  # equal to its English words' hash, as equality asks

    # ---- stored with the log: a stored encounter reads in a language chosen later

    def to_json(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "text": self.text}
        if self.params:
            out["params"] = {k: _param_to_json(v) for k, v in self.params.items()}
        if self.plural is not None:
            out["plural"] = self.plural
        return out

    @classmethod
    def from_json(cls, data: dict) -> "Message":
        params = {k: _param_from_json(v) for k, v in (data.get("params") or {}).items()}
        return cls(data["id"], data["text"], params, data.get("plural"))


def _param_to_json(value: Any) -> Any:
    if isinstance(value, Message):
        return {"msg": value.to_json()}
    if isinstance(value, tuple):
        return list(value)
    return value


def _param_from_json(value: Any) -> Any:
    if isinstance(value, dict) and "msg" in value:
        return Message.from_json(value["msg"])
    return value


_new_object = object.__new__


def msg(id: str, text: str, **params: Any) -> Message:
    """``msg("core.refused.over", "The fight is over.")``: a :class:`Message`.

    Said tens of thousands of times a playout (and dropped by its log), so it fills the slots
    itself, as ``Message(id, text, params)`` would: one call, not a call and an ``__init__``."""
    m = _new_object(Message)
    m.id = id
    m.text = text
    m.params = params  # the fresh dict of the keywords: kept as it is, not copied
    m.plural = None
    return m


def msgn(id: str, singular: str, plural: str, count: int, **params: Any) -> Message:
    """A message whose words follow ``count``: ``msgn("core.rounds", "{count} round",
    "{count} rounds", n)``."""
    m = _new_object(Message)
    m.id = id
    m.text = singular
    m.params = {"count": count, **params}
    m.plural = plural
    return m


Words = Message | str


def chain(items, ident: str, text: str) -> Words:
    """Words one after the other as one message, each pair ``msg(ident, text, first=..., then=...)``
    ("a, b, c"; "a or b"), so each language chooses its own separator; "" for none.  Call it with
    the identifier and the text written out (``chain(bands, "x.words.list", "{first}, {then}")``):
    the catalogue's extractor reads them there."""
    out: Words = ""
    for i, item in enumerate(items):
        out = item if i == 0 else Message(ident, text, {"first": out, "then": item})
    return out


def render(value: Any) -> str:
    """A message in the installed language, a plain string as it is ("" for None)."""
    if value is None:
        return ""
    return value.render() if isinstance(value, Message) else str(value)


def english(value: Any) -> str:
    """A message's English words, a plain string as it is ("" for None)."""
    if value is None:
        return ""
    return value.english() if isinstance(value, Message) else str(value)


def words_to_json(value: Any) -> Any:
    """A stored form of a string or a message: the string itself, or ``{"msg": ...}``."""
    return {"msg": value.to_json()} if isinstance(value, Message) else value


def words_from_json(value: Any) -> Any:
    """The inverse of :func:`words_to_json`."""
    return Message.from_json(value["msg"]) if isinstance(value, dict) and "msg" in value else value
