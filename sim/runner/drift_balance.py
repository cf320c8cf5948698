"""The balance metrics of a drift-gate matchup, now and in the baseline, and their change.

Why: the gate answers "did a win rate move?"; a change can also move how games end (the
same-step health tie-break, stalemates, the rotation cap), how long they last and how often the
lead changes while every win rate stays put (issue #21 item 3). They are shown beside the gate's
test, **informational**: the exit code stays the win-rate test's and the combat tables' (the
gate's design, docs/drift.md: CI fails on a moved win rate, the smallest change worth failing
for being ``delta_elo``; no threshold for the other metrics was ever agreed).

The "before" is what the win-rate test pairs with: the baseline's recorded games (their
endings, lengths and lead changes are recorded since baseline format 3; an older baseline says
"not recorded in the baseline"), or the baseline's cards replayed on the same seeds when the card
files differ. The change is paired game by game and clustered by board
(:mod:`sim.analysis.balance_change`).
"""

from __future__ import annotations

import numpy as np

from sim.analysis.balance import balance_from_pairs, game_balance, pairwise_differences
from sim.analysis.balance_change import (ENDINGS, balance_change, endings_given_marks,
                                         endings_named_by_holm)
from sim.analysis.cluster import clustered_mean, korn_graubard_interval
from sim.analysis.fairness import game_values

from .experiment import Experiment
from .schedule import schedule

NOT_RECORDED = ("not recorded in the baseline (written before baseline format 3); "
                "`bwlab drift --update` records them")
INFORMATIONAL = ("informational: the exit code is the win-rate test's and the combat tables', "
                 "never these metrics'")


def game_metrics(exp: Experiment, cols: dict) -> dict:
    """The balance metrics of a matchup's first games (JSON-ready): ``games``
    (:func:`game_balance`; the winning seat from the schedule) and ``balance`` (Ludii's, from
    the duplicate blocks, with the simultaneous interval of ``bwlab fairness``)."""
    winner = np.asarray(cols["winner_team"])
    sch = schedule(exp, 0, winner.size)
    seat = np.where(winner >= 0, (winner + sch.offset) % 4, -1)
    gb = game_balance(winner, cols["outcome"], cols["rotations"], clusters=sch.board,
                      winner_seat=seat, lead_changes=cols["lead_changes"],
                      eliminated=cols.get("eliminated"))
    pairs, level = pairwise_differences(game_values(winner).reshape(-1, 4, 4),
                                        clusters=sch.board[::4])
    bal, low, high = balance_from_pairs(pairs)
    return {"games": gb.as_dict(),
            "balance": {"balance": bal, "low": low, "high": high, "level": level,
                        "games": int(winner.size)}}


def matchup_balance(exp: Experiment, before: dict | None, after: dict, source: str,
                    same_code: bool = False) -> dict:
    """One matchup's metrics now and before, and their paired change (None where the baseline
    does not record its games' endings). ``source``: where "before" comes from ("recorded",
    "replayed", "not recorded", or "new baseline" when ``after`` is a baseline being written);
    ``same_code``: the same engine and cards as the baseline (every game the same game)."""
    n = int(np.asarray(after["winner_team"]).size)
    doc = {"matchup": exp.name, "teams": list(exp.team_names), "games": n,
           "now": game_metrics(exp, after), "before_source": source,
           "before": None, "change": None, "note": INFORMATIONAL}
    if before is not None:
        board = schedule(exp, 0, n).board

        def sides(c):
            return {"outcome": c["outcome"], "winner": c["winner_team"],
                    "rotations": c["rotations"], "lead_changes": c["lead_changes"]}

        doc["before"] = game_metrics(exp, before)
        doc["change"] = balance_change(sides(before), sides(after), board,
                                       same_code=same_code).as_dict()
    elif source == "not recorded":
        doc["before_missing"] = NOT_RECORDED
    return doc


def mark_moved_endings(balance: list[dict], alpha: float) -> list[dict]:
    """Each matchup's document with ``endings_changed`` (the endings whose share changed) and
    ``endings_p_holm``: Holm over every matchup and ending together, at the suite's ``alpha``, as
    ``bwlab rulings`` names them; ``endings_given_mark``: each marked ending's interval given the
    mark (:func:`sim.analysis.balance_change.endings_given_marks`). Why: the verdict "No drift" once
    said nothing of a rotation cap cut from 60 to 20 that moved cap endings by +44.6 points (printed
    above it, among about 30 intervals); naming every interval that excludes 0 would cry wolf, Holm
    keeps the chance of naming any ending that did not move under ``alpha``. Still informational
    (module doc)."""
    compared = [b for b in balance if b.get("change") is not None]
    named, adjusted = endings_named_by_holm(
        [[b["change"]["endings"][k]["p_value"] for k in ENDINGS] for b in compared], alpha)
    given = endings_given_marks([b["change"]["endings"] for b in compared], alpha)
    marks = iter(zip(named, adjusted, given))
    keys = ("endings_changed", "endings_p_holm", "endings_given_mark")
    return [b if b.get("change") is None else {**b, **dict(zip(keys, next(marks)))}
            for b in balance]


def win_rates(exp: Experiment, winners) -> list[dict]:
    """Each team's win rate over a matchup's games (a game without a winner counts 1/4 to
    each), with its 95 % interval clustered by board (Korn & Graubard's), the one the gate
    prints beside "before" and "now". Why: ``drift --update`` prints them, so that the commit
    rewriting the baseline can say what moved (JSON-ready)."""
    winners = np.asarray(winners)
    m = clustered_mean(game_values(winners), schedule(exp, 0, winners.size).board)
    lower, upper = korn_graubard_interval(m.rate, m.se, winners.size, max(m.df, 1))
    return [{"rate": float(m.rate[k]), "interval": [float(lower[k]), float(upper[k])],
             "games": int(winners.size), "boards": int(m.n_clusters)} for k in range(4)]


__all__ = ["INFORMATIONAL", "NOT_RECORDED", "game_metrics", "mark_moved_endings", "matchup_balance",
           "win_rates"]
