"""What the app remembers of a person beyond Django's user: the language they read it in."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Profile(models.Model):
    """One per user who has chosen something; made when they first choose."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile")
    #: the language they chose ("" until they choose: their browser's language is used)
    language = models.CharField(_("language"), max_length=10, blank=True, choices=settings.LANGUAGES)

    class Meta:
        verbose_name = _("profile")
        verbose_name_plural = _("profiles")

    def __str__(self) -> str:
        return str(self.user)


def language_of(user) -> str:
    """The language ``user`` chose ("" for none, or for an anonymous visitor)."""
    if not getattr(user, "is_authenticated", False):
        return ""
    try:
        return user.profile.language
    except Profile.DoesNotExist:
        return ""
