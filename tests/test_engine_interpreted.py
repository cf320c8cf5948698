"""The kernels are plain Python under ``NUMBA_DISABLE_JIT=1`` (how they are debugged, and the
interpreted baseline of benchmarks/games.py): the same game must come out, event for event, as
compiled — an oracle for the compiler's integer semantics (wrapping uint64 arithmetic in the
random stream, integer division) as much as for the interpreter path itself."""

from __future__ import annotations

import numpy as np
import pytest

from tests._interpreted_kit import mixed_game, mixed_game_interpreted


@pytest.mark.slow
def test_interpreted_kernels_play_the_compiled_game():
    interpreted = mixed_game_interpreted(11, 5)
    compiled = mixed_game(11, 5)
    assert compiled.shape[0] > 100
    assert np.array_equal(interpreted, compiled)
