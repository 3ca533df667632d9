"""Form fields the rule systems' forms share (the Django side; ``rulesets.core`` stays pure).

:class:`WholeNumberField` reads a number as the override and the import read it (issue 26):
the digits 0-9 only (Django's ``IntegerField`` takes "١٢" as 12, and "4.0" as 4), within a
:class:`rulesets.core.override.WholeRange` stated once per field, and a refusal names the field
and the range in the same words ("MV is a whole number from -10 to 10; -11 is outside that range.").
"""
from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator

from rulesets.core.override import WholeRange


class WholeNumberField(forms.IntegerField):
    """A whole number of ``span`` (its bounds also go to the browser as min and max)."""

    def __init__(self, span: WholeRange, **kwargs):
        self.span = span
        kwargs.setdefault("label", span.what or None)
        super().__init__(min_value=span.lo, max_value=span.hi, **kwargs)
        # The range is checked (and worded) by the span, not by Django's "Ensure this value..."
        self.validators = [v for v in self.validators if not isinstance(v, (MinValueValidator, MaxValueValidator))]

    def to_python(self, value):
        if value in self.empty_values:
            return None
        try:
            return self.span.read(value)
        except ValueError as exc:
            raise forms.ValidationError(str(exc), code="invalid") from None


def whole(lo: int | None, hi: int | None, what: str = "", **kwargs) -> WholeNumberField:
    """A :class:`WholeNumberField` from ``lo`` to ``hi``, named ``what`` (its label unless given)."""
    return WholeNumberField(WholeRange(lo, hi, what), **kwargs)
