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
    from sim.analysis.fairness import FAIR
    from sim.runner.fairness import check_fairness

    verdicts = {main_policy: main_verdict}
    for label in players:
        if label not in verdicts:
            verdicts[label] = check_fairness(catalogue, teams, policy=label, seed=seed,
                                             max_games=games, round_games=games).verdict
    statuses = {v.status for v in verdicts.values()}
    word = {"open": "inconclusive"}
    said = "; ".join(f"{label}: {word.get(v.status, v.status)}" for label, v in verdicts.items())
    if len(statuses) == 1:
        tone = "ok" if next(iter(statuses)) == FAIR else "warn"
        page.answer("Players", f"Every player reaches the same verdict ({said}).", "players",
                    tone)
    else:
        page.answer("Players", f"The verdict depends on the players ({said}): act on the "
                               f"stronger player's.", "players", "bad")
    page.heading("Does the verdict hold for stronger players?", "players")
    page.text(f"The fairness check under each player, same seed ({seed}): same boards, deals "
              f"and dice streams; each settles on its own schedule.")
    rows = []
    for label, v in verdicts.items():
        for k, name in enumerate(teams.names):
            rows.append({"player": label, "team": name, "win_probability": float(v.rate[k]),
                         "low": float(v.lower[k]), "high": float(v.upper[k]),
                         "player_verdict": word.get(v.status, v.status)})
    table = pd.DataFrame(rows)
    page.table(table)
    return table
