"""Words for a person, not yet rendered: a message is an identifier, its English text and
its parameters.

A rule says *what* happened or *why* it refuses (``msg("wc.refused.guns_out", "{ship}'s guns
are out of action.", ship=name)``); the app renders the message in the reader's language
when someone reads it.  The English text is the message's source text (the catalogue's
msgid): placeholders are ``{name}`` fields filled from the parameters.

Pure Python: no Django import.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Message:
    """An identifier (``system.area.what``), its English text with ``{placeholders}``, and
    the parameters that fill them (kept sorted, so equal messages compare equal)."""

    id: str
    text: str
    params: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.params:
            if k == key:
                return v
        return default

    def render(self) -> str:
        """The English words (the app renders other languages from the same message)."""
        return self.text.format(**dict(self.params)) if self.params else self.text

    def __str__(self) -> str:
        return self.render()


def msg(id: str, text: str, **params: Any) -> Message:
    """``msg("core.refused.over", "The fight is over.")``: a :class:`Message`."""
    return Message(id, text, tuple(sorted(params.items())))
