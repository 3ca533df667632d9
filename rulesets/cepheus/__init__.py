"""Cepheus Engine space combat (seed: cepheus-engine-space-combat.it.txt).

``engine`` holds the protocol object ``RULESET``; ``rules`` the state and the rules
as plain functions; ``tables`` every table of the text as data; ``forms`` the stat
forms (the only module that imports Django).
"""
