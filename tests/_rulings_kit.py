"""Shared study and alternatives for the ``bwlab rulings`` tests (tests/test_rulings_*.py): the
repository root, the tiny study's flags, a study file over the example teams and a rulings file
of three alternatives (the same-step tie-break, a planted rotation cap, the default diagonal
range cost again), and ``_write``, which puts a rulings file in a test's folder."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TINY = ["--games", "16", "--boards", "4", "--rating-games", "32"]

STUDY = f"""[study]
teams = "{ROOT / 'experiments/teams/example.toml'}"
rating_experiment = "{ROOT / 'experiments/rarity.toml'}"
seed = 5
"""
# the same-step tie-break (docs/rulings.md "Simultaneous elimination"), and its default again
ENTRIES = """
[[alternatives]]
ruling = "Simultaneous elimination"
file = "rules.toml"
key = "game.simultaneous_tiebreak"
value = "draw"
completes = "the tie will be broken by determining which team has the most total health remaining"

[[alternatives]]
ruling = "A planted cap: every game stopped at rotation 8"
file = "rules.toml"
key = "game.rotation_cap"
value = 8
completes = "planted truth for the balance metrics (issue 21 item 3)"

[[alternatives]]
ruling = "Diagonal range cost (the default itself)"
file = "rules.toml"
key = "board.diagonal_range_cost"
value = 1
completes = "It only costs 1 range to attack an enemy on an adjacent space."
"""


def _write(tmp_path, text: str) -> Path:
    path = tmp_path / "rulings.toml"
    path.write_text(text, encoding="utf-8")
    return path
