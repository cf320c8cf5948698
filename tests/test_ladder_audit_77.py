"""The AI-players audit of stop 77 (``bwlab ladder``, weights files, ``play``/``replay``): what a
user comparing players was told wrong, each reproduced on a tiny design."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
TUNED = ROOT / "experiments" / "greedy_tuned.toml"
THREE = f"random,greedy,greedy:weights={TUNED}"


def test_every_match_of_a_ladder_goes_round_all_its_boards(capsys):
    """3 players (3 matches) on 3 boards: deal d was in match d % 3 and on board d % 3, so each
    match's games were all on one board while the design line read "on 3 boards" (4 players on
    the default 32 boards: 16 a match), and its intervals and rung test counted one cluster.
    Each match now plays a run of consecutive deals (sim/runner/ladder.match_deals): all 3
    boards each. With fewer deals than boards a match plays one board a deal, and a note says
    so."""
    args = ["ladder", "--players", THREE, "--games", "48", "--boards", "3", "--seed", "1", "-q"]
    code, out, _ = run(capsys, *args, "--format", "json")
    assert code == 0
    data = json.loads(out)
    assert data["boards"] == 3
    for m in data["matches"]:
        assert m["boards_won"] + m["boards_even"] + m["boards_lost"] == 3 == m["boards"]
    code, out, _ = run(capsys, *args)
    assert code == 0 and "note: each match played on" not in out
    few = ["ladder", "--players", THREE, "--games", "48", "--boards", "8", "--seed", "1", "-q"]
    code, out, _ = run(capsys, *few)
    assert code == 0 and "note: each match played on 4 of the 8 boards (it has 4 deals)" in out


def test_a_ladder_that_cannot_hold_on_its_boards_does_not_ask_for_more_games(capsys):
    """2 players on 4 boards: the one-sided sign test over 4 boards never goes below
    p = 0.0625, so no number of games makes the rung pass at 5 %; only more boards can."""
    args = ["ladder", "--players", "random,greedy", "--games", "64", "--boards", "4",
            "--seed", "1", "-q"]
    code, out, _ = run(capsys, *args)
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert "at this number of games" not in last and "--boards" in last
    code, out, _ = run(capsys, *args, "--format", "json")
    rung = json.loads(out)["rungs"][0]
    assert rung.get("attainable") is False and rung.get("min_p") == pytest.approx(0.0625)


def test_replay_of_a_game_whose_weights_file_changed_names_the_weights(capsys, tmp_path):
    """The log records a player as greedy:weights=PATH, not the weights: replaying with --gif
    after the file changed differs from the log, and the message must name the weights file,
    the likely cause, not only cards or the engine."""
    weights, log = tmp_path / "w.toml", tmp_path / "g.jsonl"
    shutil.copy(TUNED, weights)
    code, _, _ = run(capsys, "play", "--teams", ROOT / "experiments/teams/example.toml",
                     "--seed", "3", "--policy", f"greedy:weights={weights}", "--log", log, "-q")
    assert code == 0
    text = weights.read_text().splitlines()
    weights.write_text("\n".join("greedy_kill = 1.0" if t.startswith("greedy_kill =") else t
                                 for t in text) + "\n")
    code, _, err = run(capsys, "replay", log, "--gif", tmp_path / "g.gif", "-q")
    assert code == 2 and "differs from the log" in err
    assert "weights file" in err and str(weights) in err


def test_a_ladder_on_one_board_does_not_claim_a_board_clustered_interval(capsys):
    """``ladder --games 4``: one deal, one board; the fit falls back to model-based intervals
    (a board-clustered one needs two boards), but the line said "clustered by board (the boards'
    jackknife), t on 0 df". It now says what was computed."""
    code, out, _ = run(capsys, "ladder", "--players", "random,greedy", "--games", "4", "-q")
    assert code == 0
    assert "t on 0 df" not in out and "jackknife" not in out
    assert "intervals model-based, games taken as independent: all were on 1 board" in out


def test_a_ladder_listed_strongest_first_says_the_order_looks_reversed(capsys):
    """``ladder --players greedy,random``: random, the higher rung, loses most boards to greedy,
    and the ladder said it "does NOT hold at this number of games", though no number of games
    could make it hold. The last line now says the order looks reversed and that --players
    lists the weakest first; in the right order nothing of the kind is said."""
    args = ["--games", "96", "--boards", "8", "--seed", "1", "-q"]
    code, out, _ = run(capsys, "ladder", "--players", "greedy,random", *args)
    assert code == 0
    last = out.strip().splitlines()[-1]
    assert last.startswith("ladder does NOT hold, and the order looks reversed: greedy beats "
                           "random"), last
    assert "at this number of games" not in last and "weakest first" in last
    code, out, _ = run(capsys, "ladder", "--players", "random,greedy", *args)
    assert code == 0 and "reversed" not in out
