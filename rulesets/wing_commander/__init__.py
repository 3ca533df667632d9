"""Wing Commander RPG dogfight (seed: wing-commander-rpg-dogfight.de.txt, "Der Dogfight")."""
