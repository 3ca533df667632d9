import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_asgi_application()

if os.environ.get("STARSHIP_WARM_UP", "1") != "0":
    from rulesets.core.registry import warm_up_in_background

    warm_up_in_background()  # the odds on a GM's first page come from warm caches
