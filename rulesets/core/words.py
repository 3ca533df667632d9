"""Small helpers for the words a GM reads: counts with their noun in the right number."""
from __future__ import annotations


def count(n: int, noun: str, plural: str | None = None) -> str:
    """``count(1, "round")`` -> "1 round"; ``count(3, "round")`` -> "3 rounds"; irregular plurals given."""
    return f"{n} {noun if n == 1 else (plural or noun + 's')}"
