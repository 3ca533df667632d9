import logging
import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("starship_table")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def _requeue_stalled(sender=None, **kwargs):
    """A worker that starts sends again the work that stalled (encounters.tasks.requeue_stalled)."""
    from encounters.tasks import requeue_stalled

    from django.db import connections

    try:
        requeue_stalled()
    except Exception:  # never keep a worker from starting
        logging.getLogger(__name__).exception("could not look for stalled work")
    finally:
        connections.close_all()  # the pool processes fork from this one: no shared connection
