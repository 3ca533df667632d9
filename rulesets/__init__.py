"""The rule systems: ``core`` (the engine kit) and one package per system.

Importing this package first installs the compiled rules when their build matches the sources
(:mod:`rulesets.core.compiled`); otherwise every module runs from its source.
"""
from rulesets.core import compiled as _compiled

_compiled.install()
