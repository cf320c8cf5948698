"""What a greedy game's decisions are and what each kind costs (issue #25 item 4: where the
2,000 games/s would have to come from).

Greedy in every seat, stepped from Python over the real kernels (games ``0..--games-1``: board
and dice of seed g, teams from ``default_rng(g)``, as ``lookahead_profile.py`` plays them). Per decision it
records the kind of action greedy chose (the action codec's block name), whether it was the only
legal action, and whether the character had already acted this turn. With ``--time`` it also
times, for every decision, ``_legal`` alone and ``_legal`` + greedy's choice, each repeated
``--reps`` times in one compiled loop on the unchanged state (both leave it as they found it)
less an empty loop's time: a hot-cache lower bound of what the decision costs inside a game,
where the caches hold other characters' data too.

    python benchmarks/decision_mix.py [--games 40] [--time] [--reps 200]

Counts do not depend on the machine; times do (print the CPU beside them).
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np


def _timers():
    """Compiled loops: ``_legal`` alone, ``_legal`` + greedy's choice, and nothing, ``n`` times."""
    from sim._jit import njit
    from sim.ai.play import _choose
    from sim.engine.rules.legal import _legal
    from sim.engine.state import fields as L

    @njit
    def loop(st, S, mask, n, which):
        x = 0
        for _ in range(n):
            if which == 1:
                x += _legal(st, S, mask)
            elif which == 2:
                x += _choose(st, S, mask, _legal(st, S, mask), L.GREEDY, 0)
        return x

    return loop


def _ns(loop, st, S, mask, reps, which):
    t0 = time.perf_counter_ns()
    loop(st, S, mask, reps, which)
    return time.perf_counter_ns() - t0


def mix(games: int, reps: int, timed: bool):
    """Per (kind, forced, acted): decisions, and with ``timed`` summed ns of legal and of
    legal + choice."""
    from sim.ai.play import _choose
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.teams import random_teams
    from sim.engine.log.record import new_game
    from sim.engine.rules.legal import _legal
    from sim.engine.rules.turn import _apply
    from sim.engine.state import fields as L

    loop = _timers() if timed else None
    catalogue = load_catalogue()
    rows = collections.defaultdict(lambda: np.zeros(3))
    for g in range(games):
        teams = random_teams(len(catalogue.cards), np.random.default_rng(g))
        game = new_game(catalogue, teams, g, log=False)
        st, S, mask = game.st, game.S, np.zeros(game.n_actions, np.bool_)
        if timed and g == 0:  # compile the loop before anything is timed
            for which in range(3):
                loop(st, S, mask, 1, which)
        while not game.terminal:
            count = _legal(st, S, mask)
            a = int(_choose(st, S, mask, count, L.GREEDY, 0))
            c = int(st.game.cur)
            key = (game.decode(a).kind, count == 1, int(st.ent.acted[c]))
            row = rows[key]
            row[0] += 1
            if timed:
                empty = _ns(loop, st, S, mask, reps, 0)
                row[1] += (_ns(loop, st, S, mask, reps, 1) - empty) / reps
                row[2] += (_ns(loop, st, S, mask, reps, 2) - empty) / reps
            _apply(st, S, np.int64(a))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--time", action="store_true", help="also time legal and greedy's choice")
    ap.add_argument("--reps", type=int, default=200)
    args = ap.parse_args()
    rows = mix(args.games, args.reps, args.time)
    n = sum(r[0] for r in rows.values())
    total = sum(r[2] for r in rows.values())
    print(f"{args.games} greedy games, {n / args.games:.0f} decisions a game")
    head = "share  chosen            only one  acted"
    print(head + ("   legal ns  legal+choice ns  share of time" if args.time else ""))
    for (kind, forced, acted), r in sorted(rows.items(), key=lambda kv: -kv[1][0]):
        line = f"{r[0] / n:5.3f}  {kind:17} {'yes' if forced else 'no':8}  {acted:5}"
        if args.time:
            line += f"   {r[1] / r[0]:8.0f}  {r[2] / r[0]:15.0f}  {r[2] / total:13.3f}"
        print(line)
    if args.time:
        legal = sum(r[1] for r in rows.values())
        print(f"mean per decision (hot caches): legal {legal / n:.0f} ns, "
              f"legal + choice {total / n:.0f} ns")


if __name__ == "__main__":
    main()
