"""The effect row's schema: slot numbers, opcodes, target kinds and stat codes.

Why here, below the engine: an ability, an item and a tile function are all written by the
catalogue as one row of integers (``abilities.SLOTS`` order) that the engine's interpreter
(``sim/engine/effects/interpreter.py:_run_effect``) reads. The catalogue fills the rows and the engine runs
them, so the row's vocabulary belongs to the data layer; ``sim.engine.state.fields`` re-exports every
name here (``L.OP_HEAL``, ``L.FX_AMOUNT``), so the kernels read the schema from below.

The asserts tie each number to the catalogue's own lists: an opcode is its effect's index + 1
(``abilities.EFFECTS``), a slot its index in ``abilities.SLOTS``, a target kind its index in
``abilities.TARGETS``; a new effect that forgets one fails at import.
"""

from __future__ import annotations

from .abilities import EFFECTS, SLOTS, TARGETS

# ---- the slots of an effect row (abilities.SLOTS, in that order); FX_OWN_TURN names the
#      "own_turn_only" slot the catalogue writes (the engine offers a character's ability on its
#      own turn only, so no kernel reads it)
(FX_OP, FX_TARGET, FX_COSTS, FX_OWN_TURN, FX_CHARGES, FX_RANGE, FX_DURATION, FX_AMOUNT, FX_STAT,
 FX_FLAG, FX_COUNT, FX_HEALTH, FX_ATTACKS, FX_TIER) = range(14)
FX_SLOTS = 14
assert FX_SLOTS == len(SLOTS) and SLOTS[FX_OWN_TURN] == "own_turn_only" and SLOTS[FX_TIER] == "tier"

# ---- effects (abilities.EFFECTS: opcode = index + 1) and target kinds (abilities.TARGETS)
(OP_NONE, OP_STRIKE, OP_AREA, OP_HEAL, OP_BUFF, OP_DEBUFF, OP_FREEZE, OP_INVISIBILITY,
 OP_MOBILITY, OP_SUMMON, OP_TILE_CONTROL, OP_REVIVE) = range(12)
assert (OP_STRIKE, OP_REVIVE) == (EFFECTS.index("strike") + 1, EFFECTS.index("revive") + 1)
assert OP_REVIVE == len(EFFECTS)
# entities (names: entities.ENTITY_EFFECTS): a random 6th card joins the user's team; the team
# gains assist character number `amount`
OP_SUMMON_CARD, OP_ASSIST = 24, 25
# opcode blocks of the later slices (each slice names its own; interpreter._run_effect dispatches a
# block to the slice's fx_* module): 12..15 items, 16..23 tile functions, 24..27 entities
OP_ITEM_FIRST, OP_TILE_FIRST, OP_ENT_FIRST = 12, 16, 24
OP_ITEM_DAMAGE, OP_ITEM_BLAST, OP_ITEM_CLEANSE = 12, 13, 14  # items.ITEM_EFFECTS
# tile functions' own effects (tile_functions.TILE_EFFECTS, sim/engine/effects/tile_effects.py)
(OP_GAIN, OP_ITEM_REWARD, OP_TILE_SUMMON, OP_EXTRA_ACTION, OP_TILE_STATE, OP_EARN, OP_LEARN,
 OP_TILE_ASSIST) = range(16, 24)
T_NONE, T_SELF, T_ALLY, T_ENEMY, T_DEAD_ALLY, T_SPACE = range(6)
assert len(TARGETS) == 6 and TARGETS[T_DEAD_ALLY] == "dead_ally" and TARGETS[T_SPACE] == "space"
# buff / de-buff stats (tile_functions.STAT_NAMES)
STAT_SPEED, STAT_RANGE, STAT_DEFENSE, STAT_ATTACKS, STAT_ADVANTAGE, STAT_INVINCIBLE = range(6)
