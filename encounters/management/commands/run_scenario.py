"""``manage.py run_scenario FILE``: play a scenario file headless and print the result as JSON.

The format is documented in docs/scenarios.md; the work is done by
:mod:`rulesets.core.scenario`.  A bad file is refused with the line and field at
fault, and nothing is printed to stdout.
"""
from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from rulesets.core.scenario import ScenarioError, load_scenario, run_scenario


class Command(BaseCommand):
    # A headless runner of a file: it needs no URLs, models or database, so it does
    # not wait on (or fail with) the project's system checks.
    requires_system_checks = []
    help = "Play a scenario file (docs/scenarios.md) and print the final state, log and rolls as JSON."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the scenario file (YAML)")
        parser.add_argument(
            "--each-step", action="store_true",
            help="also print the state after every action, and the state before the first",
        )
        parser.add_argument(
            "--indent", type=int, default=2,
            help="JSON indentation (default 2; 0 prints everything on one line)",
        )

    def handle(self, *args, **options):
        path = Path(options["file"])
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"{path}: cannot read the file: {getattr(exc, 'strerror', None) or exc}") from None
        try:
            result = run_scenario(load_scenario(text), each_step=options["each_step"])
        except ScenarioError as exc:
            raise CommandError(f"{path}: {exc}") from None
        indent = options["indent"] if options["indent"] > 0 else None
        self.stdout.write(json.dumps(result, indent=indent, ensure_ascii=False))
