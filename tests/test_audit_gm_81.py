"""The GM audit of stop 81: a Game Master preparing a game night with README.md and docs/."""

from __future__ import annotations

import numpy as np


def test_two_unsettled_players_are_not_said_to_reach_the_same_verdict():
    """`bwlab fairness TEAMS --policies greedy,lookahead:16 --games 512` with both checks open
    ended "Every player reaches the same verdict (greedy: inconclusive; lookahead:16:
    inconclusive)" (JSON agree true) while Blue measured 15.8 % under greedy and 24.5 % under
    lookahead:16: two unsettled checks agree on nothing."""
    from sim.analysis.fairness import OPEN, players_verdict

    agree, code, sentence = players_verdict({"greedy": OPEN, "lookahead:16": OPEN})
    assert agree is None and code == 3
    assert "same verdict" not in sentence and "settled" in sentence


def _redundant_proposals(k: int = 5) -> list:
    from sim.runner.suggest import swap_proposals

    out = []
    for seed in range(3):
        rating = np.random.default_rng(seed).normal(0, 1, 20)
        teams = np.arange(20).reshape(4, 5)
        home = {int(c): t for t in range(4) for c in teams[t]}
        for swaps, new in swap_proposals(teams, rating, k):
            where = {int(c): t for t in range(4) for c in new[t]}
            moved = {s.card_a for s in swaps} | {s.card_b for s in swaps}
            if any(where[c] == home[c] for c in moved):
                out.append([(s.card_a, s.team_a, s.card_b, s.team_b) for s in swaps])
    return out


def test_suggested_swaps_never_send_a_card_out_and_back():
    """`bwlab fairness gm/teams.toml --suggest 5 --proposals 16 --games 2048` printed five swaps,
    the first "Starfall Ronin (team 1) <-> Glitch Hopper (team 3)" and the last "Glitch Hopper
    (team 1) <-> Ink Samurai (team 3)": Glitch Hopper ends where it started, the set needs four
    swaps, and the last swap names a team Glitch Hopper is not in in the GM's file. Every card a
    printed swap moves should end in another team than its own."""
    assert _redundant_proposals() == []


def test_fairness_says_which_card_folder_it_played(capsys, tmp_path):
    """A GM tries a house rule from docs/rulings.md in a copy of cards/ (`cp -r cards house`,
    `[advantage] scope = "per_attack"`) and runs `bwlab fairness TEAMS --cards house`: neither
    the text nor the JSON (whose `settings` echo seed, policy, tolerance, boards) says the games
    were played on `house`, so the book's and the house rule's outputs, saved side by side,
    cannot be told apart."""
    import json
    import shutil
    from pathlib import Path

    from tests._cli_kit import run

    house = tmp_path / "house"
    shutil.copytree(Path(__file__).parents[1] / "cards", house)
    code, out, _ = run(capsys, "fairness", "experiments/teams/example.toml", "--cards", house,
                       "--games", "8", "--round", "8", "--boards", "2", "--format", "json", "-q")
    doc = json.loads(out)
    assert doc["settings"]["cards"] == str(house)
    code, out, _ = run(capsys, "fairness", "experiments/teams/example.toml", "--cards", house,
                       "--games", "8", "--round", "8", "--boards", "2", "-q")
    assert f"cards {house})" in out
