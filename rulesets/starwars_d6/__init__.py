"""Star Wars D6 starship combat on a hex board (seed: star-wars-d6-starship-combat.ca.txt)."""
