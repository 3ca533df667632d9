"""Every field of the rule systems' forms is labelled in the reader's language (issue 24): a label
Django would make from the field's name ("Hull") or one taken from the rules' English would stay
English on a German page."""
from __future__ import annotations

import inspect

import pytest
from django import forms
from django.utils.functional import Promise

from campaigns.rulesets import forms_for
from rulesets.core import registry


@pytest.mark.parametrize("key", [k for k, _ in registry.choices() if k != "toy"])
def test_every_field_of_a_rule_systems_forms_has_a_translatable_label(key):
    module = forms_for(key)
    untranslated = []
    for name, cls in vars(module).items():
        if inspect.isclass(cls) and issubclass(cls, forms.BaseForm) and cls.__module__ == module.__name__:
            for field_name, field in cls().fields.items():
                if not isinstance(field.label, Promise):
                    untranslated.append(f"{name}.{field_name}: {field.label!r}")
                if field.help_text and not isinstance(field.help_text, Promise):
                    untranslated.append(f"{name}.{field_name} help: {field.help_text!r}")
    assert untranslated == []


def test_dropfleets_weapon_help_says_in_english_what_the_rules_say():
    from django.utils.translation import override

    from rulesets.dropfleet import forms as dropfleet_forms, state

    with override("en-gb"):
        assert str(dropfleet_forms.WEAPON_HELP) == state.WEAPON_HELP
