"""Campaigns, who is in them, and the fleets, ships and crews a GM prepares."""
from __future__ import annotations

import secrets
from datetime import timedelta

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models, transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy as _, pgettext

from rulesets.core import registry


def ruleset_choices():
    return registry.choices()


class CampaignQuerySet(models.QuerySet):
    def for_user(self, user):
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user).distinct()


class Campaign(models.Model):
    name = models.CharField(verbose_name=_("name"), max_length=120)
    ruleset = models.CharField(verbose_name=_("ruleset"), max_length=40, choices=ruleset_choices)
    description = models.TextField(verbose_name=_("description"), blank=True)
    #: what a member who has not chosen a language reads the campaign's pages in (blank: their browser's)
    language = models.CharField(
        verbose_name=_("language"), max_length=10, blank=True, choices=settings.LANGUAGES,
        help_text=_("The language players read this campaign in until they choose their own "
                    "(blank: each browser's language)."))
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        verbose_name = _("campaign")
        verbose_name_plural = _("campaigns")
        ordering = ["name", "pk"]

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("campaigns:detail", args=[self.pk])

    @property
    def engine(self):
        return registry.get(self.ruleset)

    @property
    def gm(self):
        membership = self.memberships.filter(role=Membership.GM).select_related("user").first()
        return membership.user if membership else None

    def role_of(self, user) -> str | None:
        if not user.is_authenticated:
            return None
        return self.memberships.filter(user=user).values_list("role", flat=True).first()

    def is_gm(self, user) -> bool:
        return self.role_of(user) == Membership.GM

    def visible_fleets(self, user, role):
        """The GM sees every fleet; a player sees the sides their characters serve on."""
        fleets = self.fleets.all()
        if role == Membership.GM:
            return fleets
        sides = Ship.objects.filter(Q(crew__player=user) | Q(player=user), campaign=self).values_list(
            "fleet__side", flat=True)
        return fleets.filter(side__in=list(sides))

    def unlink(self, user) -> None:
        """``user`` plays nothing here any more (a removed player loses every link at once)."""
        CrewMember.objects.filter(ship__campaign=self, player=user).update(player=None)
        Ship.objects.filter(campaign=self, player=user).update(player=None)

    def players(self):
        return [m.user for m in self.memberships.filter(role=Membership.PLAYER).select_related("user")]

    @classmethod
    def create_for(cls, gm, **fields) -> "Campaign":
        with transaction.atomic():
            campaign = cls.objects.create(**fields)
            Membership.objects.create(campaign=campaign, user=gm, role=Membership.GM)
        return campaign

    def transfer_gm(self, new_gm) -> None:
        """Hand the GM role to a member; the old GM stays on as a player."""
        with transaction.atomic():
            target = self.memberships.select_for_update().get(user=new_gm)
            if target.role == Membership.GM:
                return
            self.memberships.filter(role=Membership.GM).update(role=Membership.PLAYER)
            target.role = Membership.GM
            target.save(update_fields=["role"])


class Membership(models.Model):
    GM = "gm"
    PLAYER = "player"
    ROLES = [(GM, _("Game master")), (PLAYER, _("Player"))]

    campaign = models.ForeignKey(Campaign, verbose_name=_("campaign"),
                                 on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("user"),
                             on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(verbose_name=_("role"), max_length=10, choices=ROLES, default=PLAYER)
    joined_at = models.DateTimeField(verbose_name=_("joined at"), auto_now_add=True)

    class Meta:
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            models.UniqueConstraint(fields=["campaign"], condition=Q(role="gm"), name="one_gm_per_campaign"),
        ]
        ordering = ["role", "user__username"]

    def __str__(self):
        return gettext("%(user)s (%(role)s) in %(campaign)s") % {
            "user": self.user, "role": self.get_role_display(), "campaign": self.campaign}


def _token():
    return secrets.token_urlsafe(24)


class InviteError(Exception):
    pass


class Invite(models.Model):
    campaign = models.ForeignKey(Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(verbose_name=_("token"), max_length=64, unique=True, default=_token, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("created by"),
                                   on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(verbose_name=_("created at"), auto_now_add=True)
    single_use = models.BooleanField(verbose_name=_("single use"), default=True)
    expires_at = models.DateTimeField(verbose_name=_("expires at"), null=True, blank=True)
    used_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("used by"),
                                null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    used_at = models.DateTimeField(verbose_name=_("used at"), null=True, blank=True)
    uses = models.PositiveIntegerField(verbose_name=_("uses"), default=0)
    revoked = models.BooleanField(verbose_name=_("revoked"), default=False)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        ordering = ["-created_at"]

    def __str__(self):
        return gettext("Invite to %(campaign)s") % {"campaign": self.campaign}

    @classmethod
    def create(cls, campaign, user, *, single_use=True, days=None):
        expires = timezone.now() + timedelta(days=days) if days else None
        return cls.objects.create(campaign=campaign, created_by=user, single_use=single_use, expires_at=expires)

    def get_absolute_url(self):
        return reverse("campaigns:join", args=[self.token])

    @property
    def status(self) -> str:
        if self.revoked:
            return "revoked"
        if self.single_use and self.uses:
            return "used"
        if self.expires_at and self.expires_at <= timezone.now():
            return "expired"
        return "open"

    @property
    def status_label(self) -> str:
        """The status in the reader's language (``status`` stays the machine word)."""
        return {"revoked": pgettext("invitation", "revoked"), "used": pgettext("invitation", "used"),
                "expired": pgettext("invitation", "expired"), "open": pgettext("invitation", "open")}[self.status]

    @property
    def refusal(self) -> str:
        """Why this invitation no longer lets anyone join, in the reader's language."""
        return {
            "revoked": gettext("This invitation is revoked; ask your GM for a new one."),
            "used": gettext("This invitation is used; ask your GM for a new one."),
            "expired": gettext("This invitation is expired; ask your GM for a new one."),
        }.get(self.status, "")

    def accept(self, user) -> Membership:
        """Join the campaign as a player.  Safe against two people racing for one link."""
        with transaction.atomic():
            invite = Invite.objects.select_for_update().get(pk=self.pk)
            existing = invite.campaign.memberships.filter(user=user).first()
            if existing:
                return existing
            if invite.status != "open":
                raise InviteError(invite.refusal)
            membership = Membership.objects.create(campaign=invite.campaign, user=user, role=Membership.PLAYER)
            invite.uses += 1
            invite.used_by = user
            invite.used_at = timezone.now()
            invite.save(update_fields=["uses", "used_by", "used_at"])
        return membership


colour_validator = RegexValidator(r"^#[0-9a-fA-F]{6}$", _("Use a colour like #3366cc."))


class Fleet(models.Model):
    campaign = models.ForeignKey(Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="fleets")
    name = models.CharField(verbose_name=_("name"), max_length=120)
    colour = models.CharField(verbose_name=_("colour"), max_length=7, default="#3366cc", validators=[colour_validator])
    side = models.CharField(verbose_name=_("side"),
                            max_length=60, help_text=_("Fleets on the same side fight together."))

    class Meta:
        verbose_name = _("fleet")
        verbose_name_plural = _("fleets")
        ordering = ["side", "name", "pk"]
        constraints = [models.UniqueConstraint(fields=["campaign", "name"], name="fleet_name_unique_in_campaign")]

    def __str__(self):
        return self.name


class ShipTemplateQuerySet(models.QuerySet):
    def for_ruleset(self, key):
        return self.filter(ruleset=key)


class ShipTemplate(models.Model):
    """The admin-curated library a GM picks ships from."""

    ruleset = models.CharField(verbose_name=_("ruleset"), max_length=40, choices=ruleset_choices)
    name = models.CharField(verbose_name=_("name"), max_length=120)
    stats = models.JSONField(verbose_name=_("stats"), default=dict)
    notes = models.TextField(verbose_name=_("notes"), blank=True)
    updated_at = models.DateTimeField(verbose_name=_("updated at"), auto_now=True)

    objects = ShipTemplateQuerySet.as_manager()

    class Meta:
        verbose_name = _("ship template")
        verbose_name_plural = _("ship templates")
        ordering = ["ruleset", "name"]
        constraints = [models.UniqueConstraint(fields=["ruleset", "name"], name="template_name_unique_in_ruleset")]

    def __str__(self):
        return f"{self.name} ({self.get_ruleset_display()})"


class Ship(models.Model):
    campaign = models.ForeignKey(Campaign, verbose_name=_("campaign"), on_delete=models.CASCADE, related_name="ships")
    fleet = models.ForeignKey(Fleet, verbose_name=_("fleet"), on_delete=models.CASCADE, related_name="ships")
    template = models.ForeignKey(ShipTemplate, verbose_name=_("template"),
                                 null=True, blank=True, on_delete=models.SET_NULL, related_name="ships")
    name = models.CharField(verbose_name=_("name"), max_length=120)
    stats = models.JSONField(verbose_name=_("stats"), default=dict)
    damage = models.JSONField(verbose_name=_("damage"),
                              default=dict, blank=True, help_text=_("Damage carried between encounters."))
    notes = models.TextField(verbose_name=_("notes"), blank=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="ships_commanded",
        help_text=_("The player who commands the ship itself: its own steps (a Dropfleet ship, a squadron), and "
                  "the steps of a crew position nobody plays."),
    )

    class Meta:
        verbose_name = _("ship")
        verbose_name_plural = _("ships")
        ordering = ["fleet", "name", "pk"]

    def __str__(self):
        return self.name

    @classmethod
    def from_template(cls, template: ShipTemplate, fleet: Fleet, name: str = "") -> "Ship":
        return cls.objects.create(
            campaign=fleet.campaign, fleet=fleet, template=template,
            name=name or template.name, stats=dict(template.stats), notes=template.notes,
        )

    def clone(self, name: str = "") -> "Ship":
        with transaction.atomic():
            copy = Ship.objects.create(
                campaign=self.campaign, fleet=self.fleet, template=self.template,
                name=name or gettext("%(name)s (copy)") % {"name": self.name}, stats=dict(self.stats),
                damage=dict(self.damage), notes=self.notes,
            )
            for crew in self.crew.all():
                crew.pk = None
                crew.ship = copy
                crew.player = None
                crew.save()
        # A copy is nobody's yet: the GM links it (a character has one player).
        return copy

    @property
    def spec_id(self) -> str:
        """The ship's id in an encounter's setup."""
        return f"s{self.pk}"

    @staticmethod
    def pk_from_spec_id(spec_id: str) -> int | None:
        """The campaign ship a setup id stands for (None for ships that are not campaign ships)."""
        digits = spec_id[1:] if spec_id.startswith("s") else ""
        return int(digits) if digits.isdigit() else None

    def setup_spec(self) -> dict:
        """This ship as the engine's setup spec expects it."""
        return {
            "id": self.spec_id,
            "name": self.name,
            "side": self.fleet.side,
            "fleet": self.fleet.name,
            "colour": self.fleet.colour,
            "stats": self.stats,
            "damage": self.damage,
            "player": self.player_id,
            "crew": [c.setup_spec() for c in self.crew.all()],
        }


class CrewMember(models.Model):
    ship = models.ForeignKey(Ship, verbose_name=_("ship"), on_delete=models.CASCADE, related_name="crew")
    name = models.CharField(verbose_name=_("name"), max_length=120)
    position = models.CharField(verbose_name=_("position"), max_length=40)
    station = models.CharField(verbose_name=_("station"),
                               max_length=40, blank=True, help_text=_("Which turret or bay, where it matters."))
    characteristics = models.JSONField(verbose_name=_("characteristics"), default=dict, blank=True)
    skills = models.JSONField(verbose_name=_("skills"), default=dict, blank=True)
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, verbose_name=_("player"), null=True, blank=True, on_delete=models.SET_NULL,
        related_name="characters",
        help_text=_("The player who owns this character, if any."),
    )

    class Meta:
        verbose_name = _("crew member")
        verbose_name_plural = _("crew members")
        ordering = ["ship", "position", "name", "pk"]

    def __str__(self):
        return f"{self.name} ({self.position})"

    def setup_spec(self) -> dict:
        return {
            "id": f"c{self.pk}",
            "name": self.name,
            "position": self.position,
            "station": self.station,
            "characteristics": self.characteristics,
            "skills": self.skills,
            "player": self.player_id,
        }
