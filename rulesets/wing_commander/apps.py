from django.apps import AppConfig


class WingCommanderConfig(AppConfig):
    name = "rulesets.wing_commander"
    label = "wing_commander"
    verbose_name = "Wing Commander RPG dogfight"
    default_auto_field = "django.db.models.BigAutoField"
