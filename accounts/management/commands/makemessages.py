"""Django's makemessages, also reading the rule systems' messages.

A rule says ``msg("<system>.<area>.<what>", "English text", ...)`` or ``msgn(id, singular,
plural, count, ...)`` (rulesets/core/messages.py): the English text is the entry's msgid and the
identifier its context (msgctxt), so each system's words translate into that system's terms.
Needs GNU gettext (xgettext, msgmerge) on the maintainer's machine only: the compiled catalogues
are committed (docs/translations.md).
"""
from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = makemessages.Command.xgettext_options + ["--keyword=msg:1c,2", "--keyword=msgn:1c,2,3",
                                                                "--keyword=_no:1c,2"]
    # No guessed translations: a new "Log" or "Your campaigns" is not a fuzzy copy of "Log in" or
    # "Campaigns" (a fuzzy entry fails tests/i18n until someone clears it); it waits, empty, for a translator.
    msgmerge_options = makemessages.Command.msgmerge_options + ["--no-fuzzy-matching"]
