"""Form fields the rule systems' forms share (the Django side; ``rulesets.core`` stays pure).

:class:`WholeNumberField` reads a number as the override and the import read it (issue 26):
the digits 0-9 only (Django's ``IntegerField`` takes "١٢" as 12, and "4.0" as 4), within a
:class:`rulesets.core.override.WholeRange` stated once per field, and a refusal names the field
and the range in the same words ("MV is a whole number from -10 to 10; -11 is outside that range.").
"""
from __future__ import annotations

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext

from rulesets.core.lines import foreign_digits
from rulesets.core.override import WholeRange, read_whole


def range_words(span: WholeRange) -> str:
    """"from -10 to 10", "0 or more", "40 or less", in the reader's language (WholeRange.words)."""
    if span.lo is not None and (span.hi is not None or span.upto):
        return gettext("from %(lo)s to %(hi)s") % {"lo": span.lo, "hi": span.upto or span.hi}
    if span.lo is not None:
        return gettext("%(lo)s or more") % {"lo": span.lo}
    if span.hi is not None:
        return gettext("%(hi)s or less") % {"hi": span.hi}
    return gettext("any whole number")


def refusal(span: WholeRange, value: object, what=None) -> str | None:
    """Why ``value`` is not a number of ``span``, in the reader's language (the same English words
    as :meth:`WholeRange.read`: "MV is a whole number from -10 to 10; -11 is outside that range."),
    or None when it is one.  ``what``: the field's name in the reader's language (the span's own,
    ``span.what``, when not given)."""
    words = range_words(span)
    if what is not None:
        span = WholeRange(span.lo, span.hi, what, span.upto)
    try:
        n = read_whole(value)
    except ValueError:
        word = str(value).strip()
        if span.what:
            if foreign_digits(word):
                return gettext("%(what)s is a whole number %(range)s; '%(value)s' is not a whole number written "
                               "in the digits 0-9.") % {"what": span.what, "range": words, "value": word}
            return gettext("%(what)s is a whole number %(range)s; '%(value)s' is not a whole number.") % {
                "what": span.what, "range": words, "value": word}
        if foreign_digits(word):
            return gettext("'%(value)s' is not a whole number written in the digits 0-9; it must be %(range)s.") % {
                "value": word, "range": words}
        return gettext("'%(value)s' is not a whole number; it must be %(range)s.") % {"value": word, "range": words}
    if (span.lo is not None and n < span.lo) or (span.hi is not None and n > span.hi):
        if span.what:
            return gettext("%(what)s is a whole number %(range)s; %(value)s is outside that range.") % {
                "what": span.what, "range": words, "value": n}
        return gettext("must be %(range)s; %(value)s is outside that range.") % {"range": words, "value": n}
    return None


class WholeNumberField(forms.IntegerField):
    """A whole number of ``span`` (its bounds also go to the browser as min and max).

    ``what``: the field's name in the reader's language (a ``gettext_lazy``), where the span is the
    rules' own and names it in English (``NUMBERS["hull"]``): its label unless given, and the name
    its refusal gives it."""

    def __init__(self, span: WholeRange, *, what=None, **kwargs):
        self.span = span
        self.what = what
        name = what if what is not None else span.what
        # (a lazy label stays lazy: read in the reader's language when the form is drawn)
        kwargs.setdefault("label", name if not isinstance(name, str) or name else None)
        super().__init__(min_value=span.lo, max_value=span.hi, **kwargs)
        # The range is checked (and worded) by the span, not by Django's "Ensure this value..."
        self.validators = [v for v in self.validators if not isinstance(v, (MinValueValidator, MaxValueValidator))]

    def to_python(self, value):
        if value in self.empty_values:
            return None
        problem = refusal(self.span, value, self.what)
        if problem is not None:
            raise forms.ValidationError(problem, code="invalid")
        return self.span.read(value)


def whole(lo: int | None, hi: int | None, what: str = "", **kwargs) -> WholeNumberField:
    """A :class:`WholeNumberField` from ``lo`` to ``hi``, named ``what`` (its label unless given)."""
    return WholeNumberField(WholeRange(lo, hi, what), **kwargs)
