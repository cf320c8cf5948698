"""Bad input is a clear error (file:line: field, exit 2): team files, [game], the Apocalypse
Index; and the CLI's play/replay round trip."""

from __future__ import annotations

import shutil

import pytest

from sim.catalogue.apocalypses import load_apocalypses
from sim.catalogue.diagnostics import InputError
from sim.catalogue.game_rules import load_game_rules
from sim.catalogue.teams import load_teams
from sim.cli.main import main
from tests._engine_kit import CATALOGUE, ROOT

GOOD = ROOT / "experiments" / "teams" / "example.toml"


def _errors(exc: InputError) -> list[str]:
    return [str(p) for p in exc.problems]


def test_team_file_errors_name_file_line_and_field(tmp_path):
    """"Each game of Board Wars is played with 4 teams, each composed of 5 Character Cards"."""
    bad = tmp_path / "teams.toml"
    text = GOOD.read_text().replace('"Mario", ', '"Marrio", ').replace(', "Squiggle Mage"', "")
    bad.write_text(text)
    with pytest.raises(InputError) as exc:
        load_teams(bad, CATALOGUE.cards)
    msgs = _errors(exc.value)
    assert any(":5: teams.cards: unknown card 'Marrio' (did you mean Mario" in m for m in msgs)
    assert any(":17: teams.cards: expected 5 cards, got 4" in m for m in msgs)


def test_team_file_wrong_team_count_and_duplicate_card(tmp_path):
    """"4 teams"; a card is one physical card (house ruling)."""
    bad = tmp_path / "teams.toml"
    bad.write_text('[[teams]]\ncards = ["Luffy", "Luffy", "Mario", "Paper Ghost", "Ink Samurai"]\n')
    with pytest.raises(InputError) as exc:
        load_teams(bad, CATALOGUE.cards)
    msgs = _errors(exc.value)
    assert any("expected 4 [[teams]], got 1" in m for m in msgs)
    assert any(":2: teams.cards: 'Luffy' is already in team 1" in m for m in msgs)


def test_cli_play_exit_2_on_bad_team_file(tmp_path, capsys):
    """Bad input: one line per problem, exit code 2."""
    bad = tmp_path / "teams.toml"
    bad.write_text("[[teams]]\ncards = 3\n")
    assert main(["play", "--teams", str(bad), "--seed", "1"]) == 2
    assert "teams.cards: expected a list" in capsys.readouterr().err


def test_cli_play_log_and_replay(tmp_path, capsys):
    """`bwlab play --log` writes every event with its rule; `bwlab replay` narrates it; same seed,
    same log."""
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    assert main(["play", "--teams", str(GOOD), "--seed", "3", "--policy", "greedy,random,random,random",
                 "--log", str(a)]) == 0
    out = capsys.readouterr().out
    assert "Result:" in out and "Apocalypse:" in out
    assert main(["play", "--teams", str(GOOD), "--seed", "3", "--policy", "greedy,random,random,random",
                 "--log", str(b)]) == 0
    assert a.read_bytes() == b.read_bytes()
    capsys.readouterr()
    assert main(["replay", str(a)]) == 0
    narration = capsys.readouterr().out
    assert "is placed on Uncovered Tile (" in narration and "game over" in narration
    assert main(["replay", str(tmp_path / "missing.jsonl")]) == 2


def _cards_copy(tmp_path):
    root = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", root)
    return root


def test_game_rules_and_apocalypse_errors(tmp_path):
    """rules.toml [game] and cards/apocalypses.toml are validated like the cards."""
    root = _cards_copy(tmp_path)
    rules = root / "rules.toml"
    rules.write_text(rules.read_text().replace("rotation_cap = 60", "rotation_cap = 0")
                     .replace('cpu_leash = "tile"', 'cpu_leash = "leash"'))
    with pytest.raises(InputError) as exc:
        load_game_rules(root)
    msgs = _errors(exc.value)
    assert any("game.rotation_cap: 0 out of range" in m for m in msgs)
    assert any("game.cpu_leash: unknown value 'leash'" in m for m in msgs)
    apoc = root / "apocalypses.toml"
    apoc.write_text(apoc.read_text().replace('effect = "flood"', 'effect = "fire"')
                    .replace("count = 4", "count = 0"))
    with pytest.raises(InputError) as exc:
        load_apocalypses(root)
    msgs = _errors(exc.value)
    assert any("apocalypses.effect: unknown effect 'fire'" in m for m in msgs)
    assert any("apocalypses.count: 0 out of range" in m for m in msgs)
    # "It is expected to kill characters, and should be assumed to be lethal": a flood must rise
    apoc.write_text(apoc.read_text().replace('effect = "fire"', 'effect = "flood"')
                    .replace("rise = 15", "rise = 0"))
    with pytest.raises(InputError) as exc:
        load_apocalypses(root)
    assert any("apocalypses.rise: a flood needs rise >= 1" in m for m in _errors(exc.value))


def test_shipped_apocalypses_each_end_a_game():
    """"It is expected to kill characters, and should be assumed to be lethal to anyone still on
    the board": each shipped Apocalypse ends a game of passive teams before the rotation cap."""
    from tests._engine_kit import new_game

    apocs = load_apocalypses(ROOT / "cards")
    assert len(apocs) >= 3
    for a in range(len(apocs)):
        game = new_game(2, 1, apocalypse=a, log=False)
        while not game.terminal:  # every character only ever ends its turn (after placement)
            mask = game.legal_mask()
            game.apply(0 if mask[0] else int(mask.nonzero()[0][0]))
        r = game.result()
        assert r.reason in ("last team standing", "simultaneous elimination"), apocs.names[a]
        assert game.st.game.apoc_active == 1
