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


def test_swaps_in_a_cycle_say_they_apply_in_order_and_the_after_interval_its_level(capsys):
    """Net swaps over three teams take a step more, one card moving twice: the text says they
    apply in order; the after interval states its level (the GM audit of stop 81)."""
    from sim.cli._fairness_text import echo_suggestion

    teams = [{"name": f"T{k}", "cards": ["a"], "win_probability": 0.25, "low": 0.2,
              "high": 0.3} for k in range(4)]
    shown = {"design": "64 games", "text": "open", "interval_level": 0.9875, "teams": teams,
             "largest_gap_from_25": 0.1,
             "swaps": [{"card_a": "A", "team_a": 1, "card_b": "C", "team_b": 3},
                       {"card_a": "B", "team_a": 2, "card_b": "A", "team_b": 3}]}
    s = {"needed": True, "proposals": 1, "rating_games": 64, "proposals_played": 1,
         "games": 64, "game_budget": 64, "confirmed": None, "best": shown, "gap_as_given": 0.3}
    echo_suggestion(s, {"teams": teams})
    out = capsys.readouterr().out
    assert "in this order: a card moves twice" in out and "after interval (98.75 %)" in out
    shown["swaps"] = shown["swaps"][:1]
    echo_suggestion(s, {"teams": teams})
    assert "in this order" not in capsys.readouterr().out
