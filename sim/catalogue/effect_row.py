"""The effect row's schema: slot numbers, opcodes, target kinds and stat codes.

Why here, below the engine: an ability, an item and a tile function are all written by the
catalogue as one row of integers (``abilities.SLOTS`` order) that the engine's interpreter
(``sim/engine/effects/interpreter.py:_run_effect``) reads. The catalogue fills the rows and the
engine runs them, so the row's vocabulary belongs to the data layer; ``sim.engine.state.fields``
re-exports every name here (``L.OP_HEAL``, ``L.FX_AMOUNT``), so the kernels read the schema from
below.

The opcodes are generated: ``OP_<NAME>`` for every row of ``effect_table.EFFECT_TABLE`` (its
``const``), plus ``OP_NONE`` = 0 (no effect). They are module-level ints, so Numba reads them as
compile-time constants (``L.OP_HEAL`` through ``sim.engine.state.fields``, which re-exports
them); ``effect_table.OPCODES`` lists every name with its number.
"""

from __future__ import annotations

from .abilities import SLOTS
from .effect_table import OPCODES, TARGETS

# ---- the slots of an effect row (abilities.SLOTS, in that order); FX_OWN_TURN names the
#      "own_turn_only" slot the catalogue writes (the engine offers a character's ability on its
#      own turn only, so no kernel reads it)
(FX_OP, FX_TARGET, FX_COSTS, FX_OWN_TURN, FX_CHARGES, FX_RANGE, FX_DURATION, FX_AMOUNT, FX_STAT,
 FX_FLAG, FX_COUNT, FX_HEALTH, FX_ATTACKS, FX_TIER) = range(14)
FX_SLOTS = 14
assert FX_SLOTS == len(SLOTS) and SLOTS[FX_OWN_TURN] == "own_turn_only" and SLOTS[FX_TIER] == "tier"

# ---- opcodes, generated from the effect table (one OP_* per row)
globals().update(OPCODES)
OP_NAMES = tuple(OPCODES)  # every generated opcode name, OP_NONE first

# a duration slot's value for an effect that never ends: "All buffs a tile gives you are
# permanent. So is everything else a tile grants ... None of it expires" (the book, l.281)
PERMANENT = -1

T_NONE, T_SELF, T_ALLY, T_ENEMY, T_DEAD_ALLY, T_SPACE = range(6)
assert len(TARGETS) == 6 and TARGETS[T_DEAD_ALLY] == "dead_ally" and TARGETS[T_SPACE] == "space"
# buff / de-buff stats (tile_functions.STAT_NAMES)
STAT_SPEED, STAT_RANGE, STAT_DEFENSE, STAT_ATTACKS, STAT_ADVANTAGE, STAT_INVINCIBLE = range(6)
