"""The look-ahead's value of the state a play-out reaches: the team's share of the health left —
at the end of the mover's own turn, once the enemies have answered, the answer estimated from
exact combat tables instead of played out (teammates still to act are not played either).

Why (issue #25 item 2): a play-out that runs to the team's next turn spends about five sixths of
its simulated decisions on the three other teams' turns. Cut at the end of the team's turn and
scored by health alone, the search no longer sees what its moves expose — the look-ahead's
gain over greedy is mostly holding back — and it lost to the full play-out (docs/performance.md,
"A look-ahead scored by the enemies' threats"). Scored by this estimate it held its own, cut at
the end of the team's turn and at the end of the mover's own turn alike: every enemy character
throws its expected damage (``values._kill_table``: the exact distribution of its attack dice
against the target's defence and health) at whichever of the team's characters it could reach
and would hurt most.

"Could reach": Chebyshev distance in spaces at most its speed (its vehicle's when it pilots one)
plus its range, at least 1 — the bound greedy's position score uses for CPUs
(``position_values._threats``); walls, tile boundaries and sight can only make the real reach
shorter, so the estimate errs on the side of danger. An invisible character "cannot be targeted
by a direct attack", a frozen one "can do nothing at all", and CPUs answer only when struck
(their retaliation is part of the play-out already).
"""

from __future__ import annotations

from sim._jit import njit
from sim.board.geometry import SPAN
from sim.engine.entities.special import _move_speed
from sim.engine.rules.attack import _attack_star, _threshold
from sim.engine.rules.victory import _team_health

from .values import _kill_table


@njit
def _expected_loss(sim, S, team):
    """Health ``team`` is expected to lose to the enemy characters' next attacks: each throws at
    the reachable character of ``team`` it would take most from (module doc)."""
    ent = sim.ent
    m = ent.shape[0]
    loss = 0.0
    for e in range(m):
        s = ent.space[e]
        if (ent.alive[e] == 0 or s < 0 or ent.team[e] == team or ent.team[e] < 0
                or ent.is_cpu[e] != 0 or ent.frozen[e] != 0):
            continue
        reach = max(_move_speed(ent, e), 0) + max(ent.range[e], 1)
        r, col = s // SPAN, s % SPAN
        best = 0.0
        for d in range(m):
            t = ent.space[d]
            if ent.team[d] != team or ent.alive[d] == 0 or t < 0 or ent.invisible[d] != 0:
                continue
            if max(abs(t // SPAN - r), abs(t % SPAN - col)) > reach:
                continue
            k = _attack_star(sim, S, e, d)
            em = _kill_table(S, ent.atk[e, k], _threshold(S, ent.defense[d]), ent.tier[e, k],
                             ent.health[d] + ent.shield[d])[1]
            best = max(best, em)
        loss += best
    return loss


@njit
def _value(sim, S, team, health, threatened):
    """A finished game: 1 for a win, else 0; otherwise ``team``'s share of the health left —
    with ``threatened``, after :func:`_expected_loss` (what it keeps over what all keep; a
    play-out cut before the enemies' answer), else as it stands (the answer was played)."""
    g = sim.game
    if g.over != 0:
        return 1.0 if g.winner == team else 0.0
    _team_health(sim, health)
    total = float(health.sum())
    if total <= 0:
        return 0.0
    own = float(health[team])
    kept = max(own - _expected_loss(sim, S, team), 0.0) if threatened else own
    return kept / (total - (own - kept))
