"""The look-ahead's reset (``game_state._copy_into``) copies the board's graph only when the last
play-out changed it, which it knows from the board's revision (``fields.BOARD_REV``: every
kernel that writes the graph calls ``_board_changed``). These tests are the oracle for that
shortcut: from positions of real greedy games, play-outs run as the look-ahead runs them
(``lookahead._simulate``: tile swaps, transforms, voided coordinates and the Apocalypse's reveal
happen in them), and then

- a play-out that left any graph array different from the real game's also moved the revision
  (a writer that forgot ``_board_changed`` fails here, if its rule happens in these games);
- after the reset every array of the copy equals the real game's, as a full copy would leave it.
"""

from __future__ import annotations

import numpy as np

from sim.ai.play import step
from sim.engine.state import fields as L
from sim.engine.state.game_state import STATE_FIELDS, _copy_into
from tests._engine_kit import new_game, play_out

GRAPH = ("move_nbr", "sight_nbr", "sight_flag", "kind", "tile_pos", "twin", "move_roll",
         "feature")
RESET = tuple(f for f in STATE_FIELDS if f not in ("ev", "decision", "g"))
# the game scalars a copy sets apart from the real game's: no event log in a simulation
OWN_SCALARS = ("log", "nev")


def _same_scalars(a, b) -> bool:
    names = [n for n in L.GAME_DTYPE.names if n not in OWN_SCALARS]
    return all(np.array_equal(a[n], b[n]) for n in names)


def test_a_play_out_that_changes_the_board_moves_its_revision_and_the_reset_undoes_it():
    changed = unchanged = 0
    # two games: 238 play-outs changed the board and 232 did not (four games took 30 s, the
    # per-field checks of the state read through Numba's accessors; stop 78)
    for board_seed, seed in ((3, 11), (8, 12)):
        game = new_game(board_seed, seed, log=False)
        scratch = np.zeros(game.n_actions, np.bool_)
        decision = 0
        while not game.terminal:
            if decision % 4 == 0:
                acts = np.flatnonzero(game.legal_mask())
                for a in acts[:: max(1, acts.size // 2)][:2]:
                    sim = play_out(game.st, game.S, scratch, a, decision, 8, np.zeros(2, np.int64))
                    differs = [f for f in GRAPH
                               if not np.array_equal(getattr(sim, f), getattr(game.st, f))]
                    if differs:
                        changed += 1
                        assert sim.game.board_rev != game.st.game.board_rev, differs
                    else:
                        unchanged += 1
                    _copy_into(sim, game.st)
                    for f in RESET:
                        assert np.array_equal(getattr(sim, f), getattr(game.st, f)), f
                    assert _same_scalars(sim.g[0], game.st.g[0])
            step(game, L.GREEDY)
            decision += 1
    assert changed >= 20 and unchanged >= 20, (changed, unchanged)  # both paths were taken
