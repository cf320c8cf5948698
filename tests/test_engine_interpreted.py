"""The kernels are plain Python under ``NUMBA_DISABLE_JIT=1`` (how they are debugged, and the
interpreted baseline of benchmarks/games.py): the same game must come out, event for event, as
compiled — an oracle for the compiler's integer semantics (wrapping uint64 arithmetic in the
random stream, integer division) as much as for the interpreter path itself."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sim.ai.play import play_game
from sim.engine.state import fields as L
from tests._engine_kit import new_game

ROOT = Path(__file__).resolve().parents[1]
CHILD = """
import json, sys, warnings
warnings.simplefilter("ignore")  # NumPy scalars warn where compiled code wraps silently
from sim.ai.play import play_game
from sim.engine.state import fields as L
from tests._engine_kit import new_game
game = new_game(11, 5)
play_game(game, [L.GREEDY, L.RANDOM, L.LOOKAHEAD, L.GREEDY], [0, 0, 2, 0])
print(json.dumps(game.event_rows().tolist()))
"""


@pytest.mark.slow
def test_interpreted_kernels_play_the_compiled_game():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    interpreted = np.array(json.loads(done.stdout), np.int64)
    game = new_game(11, 5)
    play_game(game, [L.GREEDY, L.RANDOM, L.LOOKAHEAD, L.GREEDY], [0, 0, 2, 0])
    compiled = game.event_rows()
    assert compiled.shape[0] > 100
    assert np.array_equal(interpreted, compiled)
