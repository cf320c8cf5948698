"""Rules audit 82: a game that ends with the last teams falling in one step, played through.
Book l.428: the Apocalypse "continues until ... the game ends with one team victorious"; l.440:
"you win by being the only team with characters left alive and on the board"; l.442: the tie is
"broken by determining which team has the most total health remaining". The book does not say
who wins when the last teams die together; house ruling ``simultaneous_tiebreak``
(docs/rulings.md "Simultaneous elimination"): "health_before" (default: the most health just
before the step wins, though every one of its characters is dead) or "draw" (l.440 read
strictly: nobody is left alive, so nobody wins). The audit found the default's case in 6 of 60
greedy games of the example teams; until now only the helper choosing the team was tested."""

from __future__ import annotations

import numpy as np
import pytest

from sim.engine.state import fields as L
from tests._engine_kit import EXAMPLE_TEAMS, catalogue_with

DRAW = (("rules.toml", 'simultaneous_tiebreak = "health_before"',
         'simultaneous_tiebreak = "draw"'),)


def _played(edits, seed: int):
    """Greedy × 4 on the example teams, the game of ``seed`` (``bwlab play --seed``)."""
    from sim.ai.play import play_game
    from sim.ai.spec import parse_policies
    from sim.engine.log.record import new_game

    specs = parse_policies(["greedy"] * 4)
    game = new_game(catalogue_with(edits), EXAMPLE_TEAMS.cards, seed, log=True)
    result = play_game(game, [s.id for s in specs], [s.budget for s in specs],
                       [s.weights for s in specs])
    return game, result


@pytest.mark.parametrize("seed", [3, 13])
def test_a_simultaneous_elimination_goes_to_a_fallen_team_or_to_no_one_by_the_ruling(seed):
    game, result = _played((), seed)
    assert result.reason == "simultaneous elimination"  # the case this test is about
    ent, rows = game.st.ent, game.event_rows()
    out = rows[rows[:, L.EVC_KIND] == L.EV_ELIMINATED]
    last = out[out[:, L.EVC_ROTATION] == out[-1, L.EVC_ROTATION]]
    fallen = {int(t) for t in last[:, L.EVC_ARGS]}
    assert len(fallen) >= 2 and result.winner in fallen  # one of the teams that fell together
    characters = (ent.kind <= L.K_SUMMONED) & (ent.dormant == 0)
    assert not np.any(characters & (ent.alive != 0))  # nobody is left alive: the ruling's case

    drawn, drawn_result = _played(DRAW, seed)  # the same game up to its end, then no winner
    assert drawn_result.reason == "simultaneous elimination" and drawn_result.winner == -1
    assert len(drawn.event_rows()) == len(rows)
