"""Where a look-ahead decision's time goes (issue #25 item 2): lookahead:BUDGET in every seat,
stepped from Python over the real kernels, each searched decision's candidates, play-outs and
simulated decisions, and what it chose against greedy's choice.

A searched decision costs its simulated decisions (each as dear as a real greedy decision), so
this table says which lever could make the look-ahead cheaper: fewer candidates, fewer play-outs,
shorter play-outs, or fewer searched decisions. Counts, not times: nothing here depends on the
machine. Games ``0..--games-1``: board and dice of seed g, teams from ``default_rng(g)``. The
search sees the true positions (the game loop's ``_choose`` first hides invisible characters).

    python benchmarks/lookahead_profile.py [--budget 16] [--games 2]
"""

from __future__ import annotations

import argparse

import numpy as np


def _profile(budget: int, games: int):
    """One row per searched decision: legal actions, candidates, play-outs, simulated
    decisions, whether greedy's action was chosen, greedy's and the chosen action's kind."""
    from sim.ai.greedy import _greedy_action
    from sim.ai.candidates import MAX_CANDIDATES, _candidates
    from sim.ai.lookahead import _horizon, _search
    from sim.catalogue.loader import load_catalogue
    from sim.catalogue.teams import random_teams
    from sim.engine.log.record import new_game
    from sim.engine.rules.actions import decode
    from sim.engine.rules.legal import _legal
    from sim.engine.rules.turn import _apply

    catalogue = load_catalogue()
    rows = []
    for seed in range(games):
        teams = random_teams(len(catalogue.cards), np.random.default_rng(seed))
        game = new_game(catalogue, teams, seed, log=False)
        st, S = game.st, game.S
        n, m = st.kind.shape[0], st.ent.shape[0]
        mask = np.zeros(game.n_actions, np.bool_)
        while not game.terminal:
            if _legal(st, S, mask) == 1:
                action = int(np.flatnonzero(mask)[0])
            else:
                stats = np.zeros(2, np.int64)
                k = _candidates(st, S, mask, np.empty(MAX_CANDIDATES, np.int64), budget)
                greedy = int(_greedy_action(st, S, mask))
                action = int(_search(st, S, mask, budget, _horizon(budget, False), stats))
                rows.append((int(mask.sum()), k, int(stats[0]), int(stats[1]), action == greedy,
                             decode(greedy, n, m).kind, decode(action, n, m).kind))
            _apply(st, S, np.int64(action))
    return rows


def main() -> None:
    import pandas as pd

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=int, default=16)
    ap.add_argument("--games", type=int, default=2)
    args = ap.parse_args()
    df = pd.DataFrame(_profile(args.budget, args.games),
                      columns=["legal", "candidates", "playouts", "simulated", "greedy_chosen",
                               "greedy_kind", "chosen_kind"])
    early = df.playouts <= df.candidates
    print(f"lookahead:{args.budget}, {args.games} games in self-play: {len(df):,} searched "
          f"decisions, {df.playouts.mean():.1f} play-outs of "
          f"{df.simulated.sum() / max(df.playouts.sum(), 1):.1f} simulated decisions each "
          f"({df.simulated.mean():.0f} a decision)")
    print(f"every candidate tied after the first round: {early.mean():.0%} of the decisions, "
          f"{df.simulated[early].sum() / df.simulated.sum():.0%} of the simulated decisions")
    print(f"greedy's choice kept: {df.greedy_chosen.mean():.0%}")
    with pd.option_context("display.width", 200, "display.max_columns", 30):
        print(df.groupby("greedy_kind").agg(decisions=("candidates", "size"),
                                            candidates=("candidates", "mean"),
                                            playouts=("playouts", "mean"),
                                            simulated=("simulated", "mean"),
                                            kept=("greedy_chosen", "mean")).round(2))
        print(pd.crosstab(df.greedy_kind, df.chosen_kind))


if __name__ == "__main__":
    main()
