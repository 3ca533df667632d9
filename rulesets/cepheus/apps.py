from django.apps import AppConfig


class CepheusConfig(AppConfig):
    name = "rulesets.cepheus"
    label = "cepheus"
    verbose_name = "Cepheus Engine space combat"
    default_auto_field = "django.db.models.BigAutoField"
