"""``bwlab replay LOG`` with a card folder other than the game's (found by the content audit of
2026-12-07, a newcomer following docs/architecture.md "How to add"): a game played with
``--cards DIR`` holding one more tile, replayed without ``--cards``, named 69 places after the
wrong tiles ("uses the interactable of Dart Range on Firewall (3,4)") and exited 0. The places
come from the board regenerated from the folder's tiles, so another folder's tiles give another
board: the log's own tile events (written with the game's tile names) must agree with the
folder, else one line naming the log, its line and field, exit 2."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "golden" / "example_seed1_greedy.jsonl"

# a tile first in name order: every shipped tile's catalogue index moves up by one
EXTRA_TILE = '''
[[tiles]]
name = "Aardvark Den"
suit = "Cartoons"
size = 1
layers = [2, 3]
doorways = ["N", "E", "S", "W"]
layout = ["."]
[tiles.reward]
name = "Burrow"
ticks = 2
effect = "earn"
params = { amount = 1 }
description = "a coin"
'''


def test_replay_with_other_tiles_than_the_game_is_one_line_exit_2(capsys, tmp_path):
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    with open(cards / "tiles.toml", "a", encoding="utf-8") as f:
        f.write(EXTRA_TILE)
    code, out, err = run(capsys, "replay", GOLDEN, "--cards", cards, "--quiet")
    assert code == 2, (code, out[-500:], err)
    (line,) = err.strip().splitlines()
    assert line.startswith(f"error: {GOLDEN}:14: tile: "), line
    assert "--cards" in line and str(cards) in line, line
    assert out == ""


def test_replay_with_the_games_own_tiles_names_them(capsys):
    code, out, err = run(capsys, "replay", GOLDEN, "--cards", ROOT / "cards", "--quiet")
    assert code == 0, err
    assert "Ember Knight (T1) has 1/2 ticks in Rabbit Hole" in out
