from django.apps import AppConfig


class DropfleetConfig(AppConfig):
    name = "rulesets.dropfleet"
    label = "dropfleet"
    verbose_name = "Dropfleet Commander"
    default_auto_field = "django.db.models.BigAutoField"
