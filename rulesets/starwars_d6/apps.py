from django.apps import AppConfig


class StarWarsD6Config(AppConfig):
    name = "rulesets.starwars_d6"
    label = "starwars_d6"
    verbose_name = "Star Wars D6 starship combat"
    default_auto_field = "django.db.models.BigAutoField"
