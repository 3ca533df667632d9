"""Demo data: accounts, the template library, and one campaign per ruleset with two fleets.

Safe to run again: it adds what is missing and leaves what is there.

The demo accounts have published passwords, so they are made only in development
(``settings.DEMO_ACCOUNTS``: DEBUG was on as the settings loaded) or when asked with
``--demo-accounts``.  Even then, outside development the staff account ``admin`` gets
a random password, printed once: never the published one.  Without accounts only the
template library is loaded (a demo campaign needs its demo GM).
"""
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, CrewMember, Fleet, Membership, Ship, ShipTemplate
from campaigns.rulesets import clean_stats
from rulesets.core import registry

ACCOUNTS = [
    # username, password, staff
    ("gm", "demo-gm-password", False),
    ("player", "demo-player-password", False),
    ("admin", "demo-admin-password", True),
]


class Command(BaseCommand):
    help = "Create demo accounts, the ship-template library and a ready-to-run campaign per ruleset."

    def add_arguments(self, parser):
        parser.add_argument(
            "--demo-accounts", action="store_true",
            help="make the demo accounts and campaigns even outside development "
                 "(the staff account then gets a random password, printed once)")

    def handle(self, *args, **options):
        development = settings.DEMO_ACCOUNTS
        accounts = development or options["demo_accounts"]
        User = get_user_model()
        users, passwords = {}, {}
        with transaction.atomic():
            if accounts:
                for username, password, staff in ACCOUNTS:
                    if staff and not development:
                        password = secrets.token_urlsafe(18)  # never the published one outside development
                    user, created = User.objects.get_or_create(
                        username=username,
                        defaults={"email": f"{username}@example.com", "is_staff": staff, "is_superuser": staff})
                    if created:
                        user.set_password(password)
                        user.save()
                        passwords[username] = password
                    users[username] = user
            for engine in registry.all_rulesets():
                self._seed_templates(engine)
                if accounts:
                    self._seed_campaign(engine, users["gm"], users["player"])
        self.stdout.write(self.style.SUCCESS("Demo data ready."))
        if not accounts:
            self.stdout.write("  The ship-template library only: demo accounts and campaigns are made in "
                              "development (DEBUG on) or with --demo-accounts.")
        if development:
            passwords = {username: password for username, password, _ in ACCOUNTS}
        for username, password in passwords.items():
            self.stdout.write(f"  log in as {username} / {password}")

    def _seed_templates(self, engine):
        for t in engine.templates():
            ShipTemplate.objects.get_or_create(
                ruleset=engine.key, name=t["name"],
                defaults={"stats": clean_stats(engine.key, t["stats"]), "notes": t.get("notes", "")})

    def _seed_campaign(self, engine, gm, player):
        templates = {t.name: t for t in ShipTemplate.objects.for_ruleset(engine.key)}
        name = f"Demo: {engine.name}"
        if Campaign.objects.filter(name=name, ruleset=engine.key).exists():
            return
        campaign = Campaign.create_for(gm, name=name, ruleset=engine.key,
                                       description=f"A ready-to-run {engine.name} campaign with two opposing fleets.")
        Membership.objects.create(campaign=campaign, user=player, role=Membership.PLAYER)
        first_crew = True
        for f in engine.demo_fleets():
            fleet = Fleet.objects.create(campaign=campaign, name=f["name"], side=f["side"], colour=f.get("colour", "#3366cc"))
            for s in f["ships"]:
                ship = Ship.from_template(templates[s["template"]], fleet, s.get("name", ""))
                for c in s.get("crew", []):
                    member = CrewMember.objects.create(
                        ship=ship, name=c["name"], position=c["position"], station=c.get("station", ""),
                        characteristics=c.get("characteristics", {}), skills=c.get("skills", {}))
                    if first_crew:
                        # The demo player plays the first character of the first fleet, and commands
                        # that character's ship: its own steps and those of positions nobody plays
                        # (a Dropfleet ship is its own character), so every system has a player's step.
                        member.player = player
                        member.save(update_fields=["player"])
                        ship.player = player
                        ship.save(update_fields=["player"])
                        first_crew = False
        self.stdout.write(f"  {campaign.name}: {campaign.fleets.count()} fleets, {campaign.ships.count()} ships")
