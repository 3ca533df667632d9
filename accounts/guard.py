"""Password guessing by username from many addresses: a per-username limit.

django-axes locks one username from one address after ``AXES_FAILURE_LIMIT`` wrong
passwords.  Someone guessing from many addresses gets that many guesses per address.  This
adds a limit per username, whatever the address: once ``LOGIN_FAILURE_LIMIT_PER_USERNAME``
wrong passwords for one username have been counted within ``AXES_COOLOFF_MINUTES``, sign-ins
to that username from *new* addresses are refused (the password is not even checked) until
the count ages out.  Addresses the account has signed in from before
(``LOGIN_KNOWN_ADDRESS_DAYS``, from axes' access log) are let through as usual, so an attack
does not lock the owner out from their own devices.

The trade-off: while an account is under such an attack, its owner cannot sign in from a
place they never used (a new network, a friend's computer) until the attack pauses for the
cool-off time; a password reset still works, and staff can lift it in the admin (Axes:
access attempts).  Guessing slows to the limit per cool-off time (20 per 15 minutes by
default), whatever the number of addresses.

Everything is read from the database (axes' tables): it needs no Redis.
"""
from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Sum
from django.utils import timezone


def failures_for(username: str) -> int:
    """Wrong passwords for ``username`` within the cool-off time, from every address."""
    from axes.models import AccessAttempt

    since = timezone.now() - settings.AXES_COOLOFF_TIME
    total = (AccessAttempt.objects.filter(username=username, attempt_time__gte=since)
             .aggregate(n=Sum("failures_since_start"))["n"])
    return total or 0


def known_address(username: str, address: str | None) -> bool:
    """Whether ``username`` signed in successfully from ``address`` lately."""
    from axes.models import AccessLog

    if not address:
        return False
    since = timezone.now() - timedelta(days=settings.LOGIN_KNOWN_ADDRESS_DAYS)
    return AccessLog.objects.filter(username=username, ip_address=address, attempt_time__gte=since).exists()


def paused(username: str, address: str | None) -> bool:
    """Whether a sign-in to ``username`` from ``address`` is refused by the per-username limit."""
    if failures_for(username) < settings.LOGIN_FAILURE_LIMIT_PER_USERNAME:
        return False
    return not known_address(username, address)
