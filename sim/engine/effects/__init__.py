"""The effects interpreter (``interpreter``): one kernel runs every ability, item and tile
function from its row of integers (``row``); the entity, item and tile effects have a module
each."""
