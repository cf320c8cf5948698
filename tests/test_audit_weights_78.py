"""Two minor findings of a user audit of greedy weights files and player specs, each reproduced
through the CLI: bad input is one located line that says what is wrong, exit 2, nothing written.

1. A weights file (``bwlab validate --weights F``, a player ``greedy:weights=F`` or
   ``lookahead:16:weights=F`` given to ``--players``/``--policies``) holding a ``[game]``
   section was one bare "game: unknown key" line: nothing said that ``[game]`` is the rules'
   section (cards/rules.toml) or what a weights file holds instead.
2. A misordered player spec, ``lookahead:weights=F:2`` (the budget after the weights file), read
   the file ``F:2`` and said "F:2: file: not found", which reads as line 2 of F.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from tests._cli_kit import run

ROOT = Path(__file__).resolve().parents[1]
TEAMS = ROOT / "experiments" / "teams" / "example.toml"
TUNED = ROOT / "experiments" / "greedy_tuned.toml"


def _commands(players: str) -> list[list[str]]:
    """Every command that takes a comma-separated list of players, given ``players``."""
    return [["ladder", "--players", players], ["fairness", str(TEAMS), "--policies", players],
            ["rarity", "--policies", players]]


def test_a_weights_file_with_a_game_section_says_what_a_weights_file_holds(tmp_path, capsys):
    """Finding 1: the ``[game]`` header's line, field ``game``, saying that ``[game]`` is the
    rules' section (cards/rules.toml) and that a greedy weights file holds its greedy_* keys at
    its top level; the same one line from validate and from every player list."""
    path = tmp_path / "w.toml"
    path.write_text("# copied from cards/rules.toml\n[game]\ngreedy_damage = 2.0\n",
                    encoding="utf-8")
    runs = [["validate", "--weights", str(path)]]
    for players in (f"greedy,greedy:weights={path}", f"greedy,lookahead:16:weights={path}"):
        runs += _commands(players)
    for args in runs:
        code, out, err = run(capsys, *args)
        lines = err.strip().splitlines()
        assert (code, out, len(lines)) == (2, "", 1), (args, err)
        assert lines[0].startswith(f"error: {path}:2: game: "), (args, err)
        assert "cards/rules.toml" in lines[0] and "greedy weights file" in lines[0], (args, err)
        assert "top level" in lines[0], (args, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.toml"]  # nothing written


def test_a_budget_after_the_weights_file_is_a_misordered_spec_not_a_line_of_the_file(
        tmp_path, capsys):
    """Finding 2: one line naming the player spec as misordered and giving its right spelling
    (the budget before ``weights=``, the file last; greedy takes no budget), from every option
    that takes players; a weights file whose name does end in ``:2`` is still read, and a
    policy that takes no weights file keeps the parser's message."""
    weights = tmp_path / "w.toml"
    shutil.copy(TUNED, weights)
    for spec, right in ((f"lookahead:weights={weights}:2", f"lookahead:2:weights={weights}"),
                        (f"greedy:weights={weights}:2", f"greedy:weights={weights}"),
                        (f"lookahead:4:weights={weights}:2", f"lookahead:4:weights={weights}")):
        runs = _commands(f"greedy,{spec}") + [
            ["fairness", str(TEAMS), "--policy", spec], ["play", "--seed", "1", "--policy", spec],
            ["run", str(ROOT / "experiments" / "smoke.toml"), "--policy", spec,
             "--out", str(tmp_path / "out")]]
        for args in runs:
            code, out, err = run(capsys, *args)
            lines = err.strip().splitlines()
            assert (code, out, len(lines)) == (2, "", 1), (args, err)
            assert "misordered" in lines[0] and right in lines[0], (args, err)
            assert f"{weights}:2: file" not in err, (args, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["w.toml"]  # nothing written
    code, _, err = run(capsys, "ladder", "--players", f"greedy,random:weights={weights}:2")
    assert code == 2 and "misordered" not in err and "random takes no weights file" in err
    from sim.cli._policy import policy_label

    named = tmp_path / "w.toml:2"  # a file of that name is what the spec names
    shutil.copy(TUNED, named)
    assert policy_label(f"lookahead:weights={named}", None) == f"lookahead:32:weights={named}"
