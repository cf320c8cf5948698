"""Files that a data file names and a command then writes stay inside the folder they are
written to (the audit of stop 55): a rulings alternative's ``file`` and a drift baseline's
``card_files`` names with a folder part, ``..`` or an absolute path overwrote files outside the
card folder, and ``bwlab validate`` passed both files. Each is now one line, exit 2, before
anything is written (README: "nothing written or lost")."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from sim.runner.drift_baseline import materialise_cards
from sim.runner.file_names import file_name_problem
from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["../victim.toml", "/tmp/victim.toml", "sub/rules.toml", "..",
                                  "a\\b.toml", "rules\x1b.toml", "", None])
def test_a_written_name_is_a_plain_file_name(name):
    assert file_name_problem(name)


def test_a_plain_card_file_name_is_fine():
    assert file_name_problem("rules.toml") is None


def test_a_rulings_alternative_cannot_name_a_file_outside_the_card_folder(capsys, tmp_path):
    victim = tmp_path / "victim.toml"
    victim.write_text("[board]\ndoor_sight_range = 1\n", encoding="utf-8")
    alternatives = tmp_path / "alt.toml"
    alternatives.write_text(
        (ROOT / "experiments" / "rulings.toml").read_text(encoding="utf-8")
        + f'\n[[alternatives]]\nruling = "evil"\nfile = "{"../" * 12}{victim}"\n'
        'key = "board.door_sight_range"\nvalue = 7\ncompletes = "x"\n', encoding="utf-8")
    code, _, err = run(capsys, "validate", "--experiment", alternatives)
    assert code == 2 and "alternatives" in err and "plain file name" in err
    assert f"{alternatives}:" in err                      # file:line names where
    code, _, err = run(capsys, "rulings", "--alternatives", alternatives, "--games", 8,
                       "--boards", 2, "--rating-games", 0, "--only", "board.door_sight_range")
    assert code == 2 and "plain file name" in err
    assert victim.read_text(encoding="utf-8").endswith("door_sight_range = 1\n")


def test_a_baseline_cannot_write_its_card_files_outside_their_folder(capsys, tmp_path):
    data = json.loads((ROOT / "reports" / "baseline.json").read_text(encoding="utf-8"))
    text = "overwritten"
    for name in (str(tmp_path / "victim.txt"), "../" * 12 + str(tmp_path / "pwned.txt")):
        data["card_files"][name] = text
        data["cards"][name] = hashlib.sha256(text.encode()).hexdigest()
    evil = tmp_path / "evil.json"
    evil.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = run(capsys, "validate", "--baseline", evil)
    assert code == 2 and err.count("plain file name") == 2
    code, _, err = run(capsys, "drift", "--baseline", evil, "--games", 8)
    assert code == 2 and "plain file name" in err
    with pytest.raises(ValueError):                       # the writer refuses on its own too
        materialise_cards(data, tmp_path / "cards")
    assert not (tmp_path / "victim.txt").exists() and not (tmp_path / "pwned.txt").exists()
