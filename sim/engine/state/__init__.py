"""A game's state and the fixed tables its kernels read: the named fields of the state arrays
(``fields``), the state object (``game_state``), a board's compiled tables (``static_tables``)
and one game's starting state (``new_game``)."""
