"""Audit of stop 81: advice is confirmed by simulation before it is printed (helper "advice")."""

from __future__ import annotations

import json
from pathlib import Path

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "experiments" / "teams" / "example.toml"
SMALL = ("--games", "128", "--round", "128", "--boards", "32", "--seed", "1")


def _teams_file(path: Path, teams) -> Path:
    path.write_text("".join(f'[[teams]]\nname = {json.dumps(t["name"])}\n'
                            f'cards = {json.dumps(t["cards"])}\n\n' for t in teams),
                    encoding="utf-8")
    return path


def test_suggested_set_replays_as_measured_from_its_team_file(capsys, tmp_path):
    """fairness --suggest judges a swapped set on the check's own seed; a GM who writes that set
    into a team file and runs `bwlab fairness` with the same seed and games must get the same
    win rates (the search's games are "a pure function of the seed", sim/runner/confirm.py).
    A team file's cards are played in name order (sim/catalogue/teams.py: the order changes the
    games), but the search played the swapped-in card in the slot of the card it replaced, so
    the same seed replayed other games (example.toml, --suggest 3 --games 1024 --tolerance 0.08
    --seed 1: the search measured 24.5, 17.8, 33.1, 24.5 %, its set from a file 27.6, 15.4,
    33.9, 23.0 %). Fixed at stop 81: a fairness check plays every team in name order."""
    code, out, _ = run(capsys, "fairness", EXAMPLE, *SMALL, "--suggest", "1",
                       "--proposals", "1", "--rating-games", "64", "--format", "json", "-q")
    best = json.loads(out)["suggestion"]["best"]
    assert best is not None
    swapped = _teams_file(tmp_path / "swapped.toml", best["teams"])
    code, out, _ = run(capsys, "fairness", swapped, *SMALL, "--format", "json", "-q")
    replay = json.loads(out)
    assert replay["games"] == best["games"]
    assert [t["win_probability"] for t in replay["teams"]] == \
        [t["win_probability"] for t in best["teams"]]


def test_every_fairness_check_plays_its_teams_in_name_order():
    """The experiment of any fairness check (the check itself, --suggest's judge, draft's splits,
    rulings' study) plays each team's cards in name order, as a team file's are: a proposed set
    in any slot order plays the games its team file replays."""
    import numpy as np

    from sim.catalogue.teams import Teams
    from sim.runner.fairness import fairness_experiment

    shuffled = np.array([[9, 3, 7, 1, 5], [2, 8, 0, 6, 4], [19, 11, 15, 13, 17],
                         [10, 18, 12, 16, 14]], np.int64)
    exp = fairness_experiment(Teams(("a", "b", "c", "d"), shuffled), "greedy", 1, 64, 64, 16)
    assert np.array_equal(exp.teams, np.sort(shuffled, axis=1))
    assert shuffled[0, 0] == 9  # the caller's array is left as it was
