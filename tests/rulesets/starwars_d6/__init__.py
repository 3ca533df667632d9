"""Tests of the Star Wars D6 starship-combat ruleset."""
