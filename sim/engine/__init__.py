"""Full AI-vs-AI games: state arrays, legal actions, the turn loop, CPUs, the Apocalypse, victory.

Pipeline: :mod:`tables` turns a catalogue + boards into ``Static`` arrays once;
:func:`setup._init_game` builds one game's ``State`` (NumPy arrays only); :mod:`turn` advances it
(``_advance`` runs everything automatic, ``_legal`` lists a character's actions, ``_apply`` plays
one). The same kernels serve the Python :class:`game.Game` interface (policies in Python, the CLI,
tests) and the jitted loop used for throughput, which calls the built-in policies and so lives
above the engine (:func:`sim.ai.play.play_many`): the engine imports no policy.
"""
