"""Full AI-vs-AI games: the rules of Board Wars as compiled kernels over NumPy arrays.

One folder per topic (docs/architecture.md draws them):

- ``state/``: the named fields of the state arrays (``fields``), the state object
  (``game_state``), a catalogue and board compiled into ``Static`` tables (``static_tables``),
  one game's starting state (``new_game``);
- ``rules/``: the action codec (``actions``), the legal mask (``legal``), applying an action and
  the turn loop (``turn``, ``order``), attacks, death, victory, CPUs, movement and sight on the
  live board, water-rolls, terrain, the Apocalypse;
- ``effects/``: the interpreter that runs every ability, item and tile function from its row;
- ``tiles/``: tile functions in play, the live board after swaps, paused tiles;
- ``entities/``: special entities and the timed states every entity carries;
- ``items/``: items held, lying on the board, and used;
- ``log/``: the event rows and their words;
- ``game.py``: the Python face of one game (:class:`game.Game`) for policies in Python, the CLI
  and tests.

The jitted loop used for throughput calls the built-in policies and so lives above the engine
(:func:`sim.ai.play.play_many`): the engine imports no policy.
"""
