"""The report's "does the verdict hold for stronger players?" (``bwlab report --policies``).

The fairness check is played again under each named player with the report's seed (the same
boards, deals and dice streams); the summary says whether every player reaches the same verdict,
and a table puts each team's chance under each player side by side (issue #25 item 3).
"""

from __future__ import annotations

import pandas as pd


def players_section(page, catalogue, teams, games: int, seed: int, main_policy: str,
                    main_verdict, players: list[str]) -> pd.DataFrame:
    """Play the check under every player of ``players`` (besides ``main_policy``, whose verdict
    is given); one summary answer, one table; returns the table for players.csv."""
    from sim.analysis.fairness import FAIR, STATUS_WORDS, players_verdict
    from sim.runner.fairness import check_by_player

    others = check_by_player(catalogue, teams, [p for p in players if p != main_policy],
                             seed=seed, max_games=games, round_games=games)
    verdicts = {main_policy: main_verdict, **{k: r.verdict for k, r in others.items()}}
    agree, _, sentence = players_verdict({k: v.status for k, v in verdicts.items()})
    tone = {True: "ok" if main_verdict.status == FAIR else "warn", None: "warn",
            False: "bad"}[agree]
    page.answer("Players", sentence, "players", tone)
    # "other", not "stronger": --policies may name a weaker player, random (the report audit of
    # stop 81)
    page.heading("Does the verdict hold for other players?", "players")
    page.text(f"The fairness check under each player, same seed ({seed}): same boards, deals "
              f"and dice streams; each settles on its own schedule.")
    rows = []
    for label, v in verdicts.items():
        for k, name in enumerate(teams.names):
            rows.append({"player": label, "team": name, "win_probability": float(v.rate[k]),
                         "low": float(v.lower[k]), "high": float(v.upper[k]),
                         "player_verdict": STATUS_WORDS[v.status]})
    table = pd.DataFrame(rows)
    page.table(table)
    return table
