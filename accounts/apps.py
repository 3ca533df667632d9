from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"

    def ready(self) -> None:
        # The rule systems' messages render in the language active for the request reading them.
        from django.utils.translation import npgettext, pgettext

        from rulesets.core.messages import set_translator

        set_translator(pgettext, npgettext)
