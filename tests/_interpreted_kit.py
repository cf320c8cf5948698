"""One mixed game played compiled and interpreted (``NUMBA_DISABLE_JIT=1``), for the tests that
use the interpreter as an oracle for the compiled kernels (tests/test_engine_interpreted.py,
tests/test_engine_item_policies_log.py): greedy, random, ``lookahead:2`` and greedy seated."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np

from sim.ai.play import play_game
from sim.engine.state import fields as L
from tests._engine_kit import ROOT, new_game, seed_items

POLICIES = [L.GREEDY, L.RANDOM, L.LOOKAHEAD, L.GREEDY]
BUDGETS = [0, 0, 2, 0]


def mixed_game(board_seed: int, seed: int, items_seed: int | None = None) -> np.ndarray:
    """The event rows of one game of :data:`POLICIES` on board ``board_seed`` from ``seed``,
    with items seeded on the floor from ``items_seed`` when it is given."""
    game = new_game(board_seed, seed)
    if items_seed is not None:
        seed_items(game, np.random.default_rng(items_seed))
    play_game(game, POLICIES, BUDGETS)
    return game.event_rows()


def mixed_game_interpreted(board_seed: int, seed: int,
                           items_seed: int | None = None) -> np.ndarray:
    """:func:`mixed_game` in a child process whose kernels are plain Python (Numba reads
    ``NUMBA_DISABLE_JIT`` once, at import, so it cannot be switched inside this process)."""
    code = ("import json, warnings\n"
            # NumPy scalars warn where compiled code wraps silently
            "warnings.simplefilter('ignore')\n"
            "from tests._interpreted_kit import mixed_game\n"
            f"print(json.dumps(mixed_game({board_seed}, {seed}, {items_seed!r}).tolist()))\n")
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return np.array(json.loads(done.stdout), np.int64)
