"""Bad input is refused before any work (stop 55 hostile-input audit items 1 and 2): before the
engine's compile (3-8 minutes on a cold cache) and before the first game.

Every case runs on a faked cold compile cache whose compile raises :class:`CompileStarted`
(sim.cli._engine.ready_to_play compiles once every input is checked, then the games follow):
a case that reaches it has let bad input through to the work. The output cases also check that
the flag is named and that nothing is written or lost.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from sim.runner import warm as warm_module
from tests._cli_kit import run
from tests.test_runner import SMALL

ROOT = Path(__file__).resolve().parents[1]


class CompileStarted(Exception):
    """The engine's compile began: the command's input was accepted."""


@pytest.fixture
def cold(monkeypatch, tmp_path):
    """A cold compile cache whose compile raises CompileStarted, in a scratch folder holding a
    copy of the cards (``cards``), the experiments (``experiments``) and a tiny experiment."""
    def fake_warm(**kw):
        compiles.append(1)
        raise CompileStarted

    compiles: list = []

    monkeypatch.setattr(warm_module, "is_warm", lambda: False)
    monkeypatch.setattr(warm_module, "warm", fake_warm)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    shutil.copytree(ROOT / "cards", tmp_path / "cards")
    shutil.copytree(ROOT / "experiments", tmp_path / "experiments")
    shutil.copytree(ROOT / "experiments" / "teams", tmp_path / "teams")
    (tmp_path / "exp.toml").write_text(SMALL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BWLAB_CARDS", str(tmp_path / "cards"))
    return tmp_path, compiles


def _files(folder: Path) -> dict:
    return {p.relative_to(folder): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


GOOD = [  # every game-playing command, with input that passes: it must reach the compile
    ["play", "--seed", "1"],
    ["run", "exp.toml", "--out", "runs/a"],
    ["fairness", "teams/example.toml", "--games", "8", "--round", "8"],
    ["rarity", "--games", "16", "--out", "rep"],
    ["draft", "--random", "20", "--no-alternating"],
    ["power-levels", "--games", "64", "--out", "pl.csv"],
    ["ladder", "--games", "8"],
    ["drift", "--update", "--baseline", "b.json", "--games", "8"],
    ["rulings", "--games", "8", "--rating-games", "0", "--only", "dice.tier_faces"],
    ["report", "--out", "rep", "--teams", "", "--rating-games", "0"],
]


@pytest.mark.parametrize("argv", GOOD, ids=[a[0] for a in GOOD])
def test_every_game_playing_command_compiles_once_its_input_passed(capsys, cold, argv):
    """The design the other tests rely on: each command that plays games asks for the engine
    (sim.cli._engine.ready_to_play) before its first game, so its games never start on an
    uncompiled engine without a word; and it has written nothing by then."""
    from sim.cli.main import ENGINE_COMMANDS, main

    folder, compiles = cold
    assert {a[0] for a in GOOD} == ENGINE_COMMANDS
    before = _files(folder)
    try:
        main(argv)
    except CompileStarted:
        pass
    capsys.readouterr()
    assert compiles == [1]  # drift names it as an internal error (exit 2): it started
    assert _files(folder) == before


BAD = [  # bad input of each kind the audit named: refused before the compile
    (["play", "--seed", "1", "--policy", "junk"], "--policy", "unknown policy 'junk'"),
    (["run", "exp.toml"], "exp.toml:2: games:", "out of range"),
    (["fairness", "badteams.toml"], "badteams.toml:5: teams.cards:", "unknown card 'Nobody'"),
    (["drift", "--baseline", "afile"], "afile:1: --baseline:", "not a baseline"),
    (["power-levels", "--games", "64"], "arena_budget.toml:17: levels.experiment:",
     "no experiment file"),
]


@pytest.mark.parametrize("argv, start, words", BAD, ids=[a[0][0] for a in BAD])
def test_bad_input_is_refused_without_waiting_for_the_compile(capsys, cold, argv, start, words):
    """Item 2: the compile once ran before the command's body, so `play --policy junk` on a
    cold cache said "compiling the game engine" and waited minutes for its one-line error."""
    cold, compiles = cold
    (cold / "exp.toml").write_text(SMALL.replace("games = 16", "games = -5"), encoding="utf-8")
    teams = (cold / "teams" / "example.toml").read_text(encoding="utf-8")
    (cold / "badteams.toml").write_text(teams.replace('"Luffy"', '"Nobody"'), encoding="utf-8")
    (cold / "afile").write_text("{not json", encoding="utf-8")
    (cold / "experiments" / "rarity.toml").unlink()
    code, _, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert code == 2 and len(lines) == 1, err
    assert start in lines[0] and words in lines[0], err
    assert "compiling" not in err and compiles == []


def _teams_as_run_file(folder: Path) -> tuple[list, str]:
    (folder / "out").mkdir()
    shutil.copy(folder / "teams" / "example.toml", folder / "out" / "cards.csv")
    (folder / "exp.toml").write_text(SMALL.replace('"teams/example.toml"', '"out/cards.csv"'),
                                     encoding="utf-8")
    return ["run", "exp.toml", "--out", "out"], "out/cards.csv"


def _experiment_as_manifest(folder: Path) -> tuple[list, str]:
    (folder / "out").mkdir()
    (folder / "out" / "manifest.json").write_text(
        SMALL.replace('"teams/example.toml"', '"../teams/example.toml"'), encoding="utf-8")
    return ["run", "out/manifest.json", "--out", "out"], "out/manifest.json"


OUTPUT_IS_INPUT = [  # (argv, the input it names, its flag) or a maker of them
    (["power-levels", "--games", "4000", "--out", "cards/characters.csv"],
     "cards/characters.csv", "--out"),
    (["power-levels", "--games", "64", "--out", "experiments/rarity.toml"],
     "experiments/rarity.toml", "--out"),
    (["rulings", "--games", "8", "--rating-games", "0", "--only", "dice.tier_faces", "--out",
      "cards/rules.toml"], "cards/rules.toml", "--out"),
    (["drift", "--update", "--baseline", "cards/rules.toml", "--games", "8"], "cards/rules.toml",
     "--baseline"),
    (["report", "--out", "rep", "--teams", "rep/fairness.csv", "--rating-games", "0"],
     "rep/fairness.csv", "--out"),
    (["report", "--out", "rep", "--teams", "", "--rating-games", "0", "--baseline",
      "rep/drift.csv"], "rep/drift.csv", "--out"),
    (_teams_as_run_file, None, "--out"),
    (_experiment_as_manifest, None, "--out"),
]


@pytest.mark.parametrize("case", OUTPUT_IS_INPUT, ids=["power-levels-card", "power-levels-exp",
                                                       "rulings-card", "drift-update-card",
                                                       "report-teams", "report-baseline",
                                                       "run-teams",
                                                       "run-experiment"])
def test_an_output_naming_an_input_is_refused_before_any_game(capsys, cold, case):
    """Item 1: an output path equal to an input was caught only when written, after all the
    games (power-levels played 4,000 and did not name --out; drift --update ended in "internal
    error: FileExistsError"; run wrote batches and its manifest first). Now one line naming the
    flag, before the compile and any game, and every file as it was."""
    cold, compiles = cold
    argv, victim, flag = case
    if callable(argv):
        argv, victim = argv(cold)
    if argv[0] == "report":  # a team file named as the report's fairness table
        (cold / "rep").mkdir()
        shutil.copy(cold / "teams" / "example.toml", cold / "rep" / "fairness.csv")
        # a drift baseline named as the report's drift table: read with its own reader, it
        # was not noted as an input (stop 55 review), so drift.csv would have replaced it
        shutil.copy(ROOT / "reports" / "baseline.json", cold / "rep" / "drift.csv")
    before = _files(cold)
    code, _, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert code == 2 and len(lines) == 1, err
    assert f"{victim}: {flag}: is also an input of this command" in lines[0], err
    assert "compiling" not in err and compiles == []
    assert _files(cold) == before


def test_a_run_into_the_card_folder_is_refused(capsys, cold):
    """Its cards.csv would join the card files every later run digests and loads."""
    cold, _ = cold
    code, _, err = run(capsys, "run", "exp.toml", "--out", "cards")
    assert code == 2 and err.startswith("error: cards: --out: is the card folder"), err
    assert not (cold / "cards" / "cards.csv").exists()


@pytest.mark.skipif(not hasattr(os, "link"), reason="hard links")
def test_a_play_picture_folder_holding_an_input_is_refused(capsys, cold):
    """--png-every DIR writes final.png there: a hard link to the team file named so."""
    cold, _ = cold
    (cold / "frames").mkdir()
    os.link(cold / "teams" / "example.toml", cold / "frames" / "final.png")
    code, _, err = run(capsys, "play", "--seed", "1", "--teams", "teams/example.toml",
                       "--png-every", "1", "frames")
    assert code == 2 and "frames/final.png: --png-every: is also an input" in err, err
