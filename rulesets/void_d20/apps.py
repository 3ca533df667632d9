from django.apps import AppConfig


class VoidD20Config(AppConfig):
    name = "rulesets.void_d20"
    label = "void_d20"
    verbose_name = "Void d20 combat round"
    default_auto_field = "django.db.models.BigAutoField"
