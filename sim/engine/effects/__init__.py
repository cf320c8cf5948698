"""The effects interpreter (``interpreter``): one kernel runs every ability, item and tile
function from its row of integers (``row``), dispatching each opcode to its effect's own kernel in
``ability_effects``, ``item_effects``, ``tile_effects`` or ``entity_effects`` (each effect's row:
``sim/catalogue/effect_table.py``)."""
