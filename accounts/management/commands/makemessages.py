"""Django's makemessages, also reading the rule systems' messages.

A rule says ``msg("<system>.<area>.<what>", "English text", ...)`` or ``msgn(id, singular,
plural, count, ...)`` (rulesets/core/messages.py): the English text is the entry's msgid and the
identifier its context (msgctxt), so each system's words translate into that system's terms.
Needs GNU gettext (xgettext, msgmerge) on the maintainer's machine only: the compiled catalogues
are committed (docs/translations.md).
"""
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = makemessages.Command.xgettext_options + ["--keyword=msg:1c,2", "--keyword=msgn:1c,2,3"]
    # No guessed translations: msgmerge would otherwise give a new entry the words of a similar
    # one ("campaign" the translation of "Campaigns") marked fuzzy, which the tests refuse.
    msgmerge_options = makemessages.Command.msgmerge_options + ["--no-fuzzy-matching"]
