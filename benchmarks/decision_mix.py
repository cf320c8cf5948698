"""What a greedy game's decisions are and what each kind costs (issue #25 item 4: where the
2,000 games/s would have to come from).

Greedy in every seat, stepped from Python over the real kernels (games ``0..--games-1``: board
and dice of seed g, teams from ``default_rng(g)``, as ``lookahead_profile.py`` plays them). Per decision it
records the kind of action greedy chose (the action codec's block name), whether it was the only
legal action, and whether the character had already acted this turn. With ``--time`` it also
times, for every decision, ``_legal`` alone and ``_legal`` + greedy's choice, each repeated
``--reps`` times in one compiled loop on the unchanged state (both leave it as they found it)
less an empty loop's time: a hot-cache lower bound of what the decision costs inside a game,
where the caches hold other characters' data too. With ``--parts`` it times, the same way, the
pieces of greedy's choice on their own (``PARTS``): the act search (``_best_act``), the position
search (``_best_position``, which greedy runs only when nothing is worth acting on) and the two
per-decision tables the position search builds first (``_threats``, ``_pos_base``).

    python benchmarks/decision_mix.py [--games 40] [--time] [--parts] [--reps 200]

Counts do not depend on the machine; times do (print the CPU beside them).
"""

from __future__ import annotations

import argparse
import collections
import time

import numpy as np


# the loops ``_timers`` compiles (``which``): nothing, then what each times
TIMED = ("empty", "legal", "legal+choice")
PARTS = ("best_act", "best_position", "threats", "pos_base")


def _timers():
    """One compiled loop that runs ``which`` (``TIMED + PARTS``) ``n`` times. The parts run
    after ``_legal`` has filled the decision, as greedy runs them; none changes the game."""
    from sim._jit import njit
    from sim.ai.greedy import _best_act, _best_position
    from sim.ai.position_values import _pos_base, _threats
    from sim.ai.play import _choose
    from sim.engine.rules.legal import _legal
    from sim.engine.state import fields as L

    @njit
    def loop(st, S, mask, n, which):
        x = 0.0
        c = st.game.cur
        for _ in range(n):
            if which == 1:
                x += _legal(st, S, mask)
            elif which == 2:
                x += _choose(st, S, mask, _legal(st, S, mask), L.GREEDY, 0)
            elif which == 3:
                x += _best_act(st, S, c, mask)
            elif which == 4:
                x += _best_position(st, S, c, mask)
            elif which == 5:
                x += _threats(st, S, c)[0].shape[0]
            elif which == 6:
                x += _pos_base(st, S, c)[0]
        return x

    return loop


def _ns(loop, st, S, mask, reps, which):
    t0 = time.perf_counter_ns()
    loop(st, S, mask, reps, which)
    return time.perf_counter_ns() - t0


def mix(games: int, reps: int, timed: bool, parts: bool = False):
    """Per (kind, forced, acted): decisions, and with ``timed`` summed ns of legal and of
    legal + choice, with ``parts`` of each of ``PARTS`` too (columns in that order)."""
    from sim.ai.play import _choose
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.teams import random_teams
    from sim.engine.log.record import new_game
    from sim.engine.rules.legal import _legal
    from sim.engine.rules.turn import _apply
    from sim.engine.state import fields as L

    timed = timed or parts
    loop = _timers() if timed else None
    catalogue = load_catalogue()
    # count, the TIMED columns' sums, then decisions with parts timed and the PARTS' sums
    rows = collections.defaultdict(lambda: np.zeros(len(TIMED) + 1 + len(PARTS)))
    for g in range(games):
        teams = random_teams(len(catalogue.cards), np.random.default_rng(g))
        game = new_game(catalogue, teams, g, log=False)
        st, S, mask = game.st, game.S, np.zeros(game.n_actions, np.bool_)
        if timed and g == 0:  # compile the loop (every branch) before anything is timed
            loop(st, S, mask, 0, 0)
        while not game.terminal:
            count = _legal(st, S, mask)
            a = int(_choose(st, S, mask, count, L.GREEDY, 0))
            c = int(st.game.cur)
            key = (game.decode(a).kind, count == 1, int(st.ent.acted[c]))
            row = rows[key]
            row[0] += 1
            if timed:
                empty = _ns(loop, st, S, mask, reps, 0)
                for w in range(1, len(TIMED)):
                    row[w] += (_ns(loop, st, S, mask, reps, w) - empty) / reps
            # the parts where greedy's choice reaches them: a choice, the character placed
            # and not submerged (greedy.py)
            if parts and count > 1 and st.ent.space[c] >= 0 and st.ent.submerged[c] == 0:
                row[len(TIMED)] += 1
                for k in range(len(PARTS)):
                    w = len(TIMED) + k
                    row[w + 1] += (_ns(loop, st, S, mask, reps, w) - empty) / reps
                _legal(st, S, mask)  # the decision's buffers as _apply expects them
            _apply(st, S, np.int64(a))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--time", action="store_true", help="also time legal and greedy's choice")
    ap.add_argument("--parts", action="store_true",
                    help="also time the pieces of greedy's choice (implies --time)")
    ap.add_argument("--reps", type=int, default=200)
    args = ap.parse_args()
    args.time = args.time or args.parts
    rows = mix(args.games, args.reps, args.time, args.parts)
    n = sum(r[0] for r in rows.values())
    total = sum(r[2] for r in rows.values())
    print(f"{args.games} greedy games, {n / args.games:.0f} decisions a game")
    head = "share  chosen            only one  acted"
    print(head + ("   legal ns  legal+choice ns  share of time" if args.time else "")
          + ("   parts ns (each on its own)" if args.parts else ""))
    for (kind, forced, acted), r in sorted(rows.items(), key=lambda kv: -kv[1][0]):
        line = f"{r[0] / n:5.3f}  {kind:17} {'yes' if forced else 'no':8}  {acted:5}"
        if args.time:
            line += f"   {r[1] / r[0]:8.0f}  {r[2] / r[0]:15.0f}  {r[2] / total:13.3f}"
        if args.parts and r[len(TIMED)] > 0:
            line += "   " + "  ".join(f"{name} {r[len(TIMED) + 1 + k] / r[len(TIMED)]:.0f}"
                                      for k, name in enumerate(PARTS))
        print(line)
    if args.time:
        legal = sum(r[1] for r in rows.values())
        print(f"mean per decision (hot caches): legal {legal / n:.0f} ns, "
              f"legal + choice {total / n:.0f} ns")


if __name__ == "__main__":
    main()
