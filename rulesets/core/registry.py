"""Which rule systems exist.  Pure Python: the engines register, not the Django apps.

Each system's engine module defines ``RULESET`` (a :class:`rulesets.core.contract.RulesetBase`);
this list names them.  A new system is one line here: ``INSTALLED_APPS`` is derived from
this list (docs/adding-a-ruleset.md).
"""
from __future__ import annotations

import os
from functools import lru_cache
from importlib import import_module

ENGINE_MODULES: tuple[str, ...] = (
    "rulesets.cepheus.engine",
    "rulesets.starwars_d6.engine",
    "rulesets.dropfleet.engine",
    "rulesets.wing_commander.engine",
    "rulesets.void_d20.engine",
)

_extra: dict[str, object] = {}


class UnknownRuleset(KeyError):
    pass


def _extra_modules() -> tuple[str, ...]:
    """Extra engine modules named in STARSHIP_EXTRA_RULESETS (tests hand their toy system to workers)."""
    return tuple(m for m in os.environ.get("STARSHIP_EXTRA_RULESETS", "").split(",") if m.strip())


@lru_cache(maxsize=None)
def _loaded() -> dict:
    out = {}
    for path in (*ENGINE_MODULES, *_extra_modules()):
        ruleset = import_module(path).RULESET
        out[ruleset.key] = ruleset
    return out


def register(ruleset) -> None:
    """Register an extra ruleset (tests use this for toy systems)."""
    _extra[ruleset.key] = ruleset


def unregister(key: str) -> None:
    _extra.pop(key, None)


def all_rulesets() -> list:
    return [*_loaded().values(), *_extra.values()]


def get(key: str):
    try:
        return _loaded()[key]
    except KeyError:
        if key in _extra:
            return _extra[key]
        raise UnknownRuleset(f"No ruleset '{key}'.") from None


def choices() -> list[tuple[str, str]]:
    return [(r.key, r.name) for r in all_rulesets()]


def warm_up_in_background() -> None:
    """Warm every system's odds caches in a daemon thread (the web server's start-up).

    The first odds of a page then come from warm caches instead of building their
    distributions on the GM's first click.  Failures only cost the warm-up.
    """
    import threading

    def run():
        for ruleset in all_rulesets():
            try:
                ruleset.warm_up()
            except Exception:  # a warm-up is an optimisation: never take the server down
                pass

    threading.Thread(target=run, name="odds-warm-up", daemon=True).start()
