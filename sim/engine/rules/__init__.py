"""The rules of a turn: the action codec (``actions``), the legal mask (``legal``), applying an
action and advancing the game (``turn``, ``order``), attacks (``attack``), death and victory,
CPUs, movement and sight on the live board (``live_movement``), water-rolls (``water_rolls``),
terrain, and the Apocalypse (``reveal``, ``apocalypse``)."""
