"""The Star Wars D6 starship-combat rules, in one import: the round as pure functions.

Seed: star-wars-d6-starship-combat.ca.txt; resolutions: RULES-NOTES "starwars_d6".
Every rule takes a state and returns a *new* state (the argument is never changed: it copies
what it changes, :func:`~rulesets.starwars_d6.state.thaw`) and the log lines of what happened.

The round (seed "4. SEQÜENCIA DE JOC"), module by module:

* :mod:`.state` -- the plain data, the values of the moment, who is where, tractor-beam holds;
* :mod:`.stats` -- ship stats and board features: validation and a new combat;
* :mod:`.sequence` -- ``initiative`` (2D per side, ties rerolled, lowest moves first:
  :func:`roll_initiative`) and the ``movement`` phase (:func:`move_options`, :func:`move`,
  :func:`drift`);
* :mod:`.special` -- declared before moving: :func:`ram`, :func:`jump`, :func:`shutdown`,
  :func:`evacuate`, :func:`break_free` (:func:`special_options`);
* :mod:`.firing` -- the ``firing`` phase in the same order: :func:`fire_options`, :func:`fire`
  (broadsides: "Factors de Foc"), :func:`end_fire`, then :func:`resolve_firing` sums the damage
  on each target and applies it (simultaneous fire);
* :mod:`.damage` -- shields, hull, the bands, the damage tables, ion cannons, collisions;
* :mod:`.checks` -- a crew skill + a ship factor under the scale caps, the Wild Die's complication.

Pure Python: no Django import.
"""
from __future__ import annotations

from .dice import SEC_WILD
from .state import (
    SEC_PROCEDURE, SEC_IONISED, SEC_SHIELDS_BLOWN, SEC_CUMULATIVE,
    SEC_SEVERE, SEC_INITIATIVE, SEC_FIRING_PHASE, SEC_SCALE_TO_HIT, SEC_SCALE_EVASION,
    SEC_SCALE_DAMAGE, SEC_COLLISION, SEC_RAM, SEC_RETREAT, SEC_TRACTOR, SEC_DECLARE, SEC_OVERLOAD,
    SEC_STRUCTURAL, CONTROLS_DESTROYED, Weapon, Crew, Ship, Feature, Progress, Shot, BoardSize,
    CombatState, clone, thaw, copy_ship, own, copy_state, COMPLICATIONS, complication_choice,
    controls_dead, penalty, current_maneuverability, current_fire_control, current_damage, is_zero,
    weapon_operative, active_label, sides_in_play, ships_in_order, movement_speed, feature_hexes,
    feature_at, ship_at, occupied, TRACTOR_REACH, holder_of, release, update_holds,
)
from .checks import (
    COMPLICATION_TEXT, note_complication, roll_skill_and_factor,
)
from .stats import (
    validate_stats, build_ship, parse_feature_line, validate_features, build_features, new_combat,
)
from .damage import (
    ionise, considerable_applies, defence_cap, apply_ion, ion_ship, apply_damage, damage_ship, collision_code,
    collision_kind_of, collide,
)
from .sequence import (
    roll_initiative, start_moving, moves_from, course_key, move_options, next_mover, move, make_move,
    drift,
)
from .special import (
    moving_ship, ram_targets, approach_hex, ram, jump_problems, can_jump, jump, can_shutdown, shutdown,
    can_evacuate, evacuate, can_break_free, break_free, special_options,
)
from .firing import (
    weapon_key, line_of_fire, shot_band, holding, guns_left, fire_options, fire_options_with_bands, open_shots,
    fire_control_code, attack_code, evasion_code, broadside_hits, fire, end_fire, resolve_firing,
)

__all__ = [
    "SEC_WILD", "SEC_PROCEDURE", "SEC_IONISED",
    "SEC_SHIELDS_BLOWN", "SEC_CUMULATIVE", "SEC_SEVERE", "SEC_INITIATIVE",
    "SEC_FIRING_PHASE", "SEC_SCALE_TO_HIT", "SEC_SCALE_EVASION", "SEC_SCALE_DAMAGE", "SEC_COLLISION",
    "SEC_RAM", "SEC_RETREAT", "SEC_TRACTOR", "SEC_DECLARE", "SEC_OVERLOAD", "SEC_STRUCTURAL",
    "CONTROLS_DESTROYED", "Weapon", "Crew", "Ship", "Feature", "Progress", "Shot", "BoardSize",
    "CombatState", "clone", "thaw", "copy_ship", "own", "copy_state", "COMPLICATIONS",
    "complication_choice", "controls_dead", "penalty", "current_maneuverability", "current_fire_control",
    "current_damage", "is_zero", "weapon_operative", "active_label", "sides_in_play", "ships_in_order",
    "movement_speed", "feature_hexes", "feature_at", "ship_at", "occupied", "TRACTOR_REACH", "holder_of",
    "release", "update_holds", "COMPLICATION_TEXT", "note_complication", "roll_skill_and_factor",
    "validate_stats", "build_ship", "parse_feature_line", "validate_features", "build_features",
    "new_combat", "ionise", "considerable_applies", "defence_cap", "apply_ion", "ion_ship", "apply_damage",
    "damage_ship", "collision_code", "collision_kind_of", "collide", "roll_initiative", "start_moving",
    "moves_from", "course_key", "move_options", "next_mover", "move", "make_move", "drift", "moving_ship",
    "ram_targets", "approach_hex", "ram", "jump_problems", "can_jump", "jump", "can_shutdown", "shutdown",
    "can_evacuate", "evacuate", "can_break_free", "break_free", "special_options", "weapon_key",
    "line_of_fire", "shot_band", "holding", "guns_left", "fire_options", "fire_options_with_bands", "open_shots",
    "fire_control_code", "attack_code", "evasion_code", "broadside_hits", "fire", "end_fire", "resolve_firing",
]
