"""``bwlab validate`` checks everything any command loads, and no value slips through a range
check (issue #22, item 1): "`validate` passes what the game rejects or crashes on" (it never read
apocalypses.toml or [game]); NaN and huge numbers; a NUL in a card name; team names.

Each case breaks one value in a private copy of ``cards/`` (helpers of tests/_validation_kit.py)
and asserts exit 2, exactly one ``error: FILE:LINE: FIELD: message`` line, and no traceback; then
``play`` on the same folder is refused the same way (nothing passes validate and fails later).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from sim.cli.main import main
from tests._validation_kit import SHIPPED, edit_toml, expect, parse, read_rows, write_rows

ROOT = SHIPPED.parent

CASES = [  # (file, old text, new text, field, message)
    ("rules.toml", "red_health_fraction = 0.5", "red_health_fraction = nan",
     "star.red_health_fraction", "not a finite number"),
    ("rules.toml", "rotation_cap = 60", "rotation_cap = 0", "game.rotation_cap", "out of range"),
    ("rules.toml", "stalemate_rotations = 10", "stalemate_rotations = -1",
     "game.stalemate_rotations", "out of range"),
    ("rules.toml", "greedy_kill = 60.0", "greedy_kill = inf", "game.greedy_kill",
     "not a finite number"),
    ("tiles.toml", "stat_point = 40.0", "stat_point = nan", "greedy.stat_point",
     "not a finite number"),
    ("abilities.toml", "bonus_attacks = [2, 1, 12]", "bonus_attacks = [2, 1, 99999999999999999999]",
     "strike.params.bonus_attacks", "too large"),
    ("abilities.toml", "bonus_attacks = [2, 1, 12]", "bonus_attacks = [2, 1, 1000]",
     "strike.params.bonus_attacks", "beyond what the engine holds"),
]


@pytest.fixture
def cards(tmp_path) -> Path:
    return Path(shutil.copytree(SHIPPED, tmp_path / "cards"))


def _refused(capsys, argv, field):
    code = main(argv)
    out, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in out + err, err
    assert any(f": {field}: " in line for line in err.splitlines()), err


@pytest.mark.parametrize("file,old,new,field,message", CASES, ids=[c[3] + ":" + c[2].split("= ")[1]
                                                                   for c in CASES])
def test_a_value_no_field_may_hold_is_one_line_in_validate_and_in_play(
        capsys, cards, tmp_path, file, old, new, field, message):
    line = edit_toml(cards, file, old, new)
    expect(capsys, cards, (file, line, field, message))
    log = tmp_path / "game.jsonl"
    _refused(capsys, ["play", "--cards", str(cards), "--seed", "1", "--log", str(log)], field)
    assert not log.exists()


@pytest.mark.parametrize("content", ["garbage = = \n", "\x00\x01binary", ""])
def test_apocalypses_toml_is_validated(capsys, cards, content):
    """"A single Apocalypse Tile must be in play in every game": a broken, binary or empty
    apocalypses.toml is a problem in validate, not an 'ok' followed by a failing play."""
    (cards / "apocalypses.toml").write_text(content, encoding="utf-8")
    code = main(["validate", str(cards)])
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    (problem,) = parse([line for line in err.splitlines() if line.strip()])
    assert problem[0] == "apocalypses.toml"


def test_a_control_character_in_a_card_name_is_refused(capsys, cards):
    rows = read_rows(cards)
    rows[1][0] = rows[1][0] + "\x00x"
    write_rows(cards, rows)
    expect(capsys, cards, ("characters.csv", 2, "name", "control character"))


@pytest.mark.parametrize("column, text", [
    (0, "\u009b2J"),        # a C1 control (CSI): drives a terminal
    (0, "\u202eoiraM"),     # a right-to-left override: the name shows backwards
    (0, "Ma\u200brio"),     # a zero-width space: a second "Mario" no one can tell apart
    (-1, "\x1b[2J\x1b[31m"),  # an escape sequence in the free-text notes column
])
def test_an_invisible_or_control_character_in_any_cell_is_one_line(capsys, cards, column, text):
    """The audit of stop 55: only ASCII's controls were refused, and only in names; a C1
    control, a bidirectional override, a zero-width space or an escape in the notes passed
    validate. Every cell is now checked (diagnostics.CsvRows), one line naming its column."""
    rows = read_rows(cards)
    header = rows[0]
    col = column % len(header)
    if column == -1:
        col = header.index("notes")
    rows[1][col] = text
    write_rows(cards, rows)
    expect(capsys, cards, ("characters.csv", 2, header[col], "control character"))


def test_a_control_character_in_a_header_or_a_line_break_in_a_name_is_shown_quoted(capsys,
                                                                                   cards):
    """The stop 55 review: a problem's field is the file's own header cell (or TOML key), so an
    escape sequence there reached the terminal raw in every problem line of its column, and a
    name holding a line break passed. The field is now printed quoted (repr) and the name is
    refused."""
    rows = read_rows(cards)
    rows[0][rows[0].index("notes")] = "no\x1b[31mtes"
    write_rows(cards, rows)
    code = main(["validate", str(cards)])
    _, err = capsys.readouterr()
    assert code == 2 and "\x1b" not in err, err
    assert "'no\\x1b[31mtes'" in err, err
    rows[0][rows[0].index("no\x1b[31mtes")] = "notes"
    rows[1][0] = "Two\nLines"
    write_rows(cards, rows)
    expect(capsys, cards, ("characters.csv", 2, "name", "line break"))


@pytest.mark.parametrize("old,new,message", [
    ('name = "Ink & Iron"', 'name = "Straw Hats"', "names two teams"),
    ('name = "Ink & Iron"', 'name = "  "', "empty"),
])
def test_team_names_are_distinct_and_not_empty(capsys, tmp_path, old, new, message):
    teams = tmp_path / "teams.toml"
    text = (SHIPPED.parent / "experiments" / "teams" / "example.toml").read_text(encoding="utf-8")
    teams.write_text(text.replace(old, new, 1), encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--teams", str(teams)])
    _, err = capsys.readouterr()
    assert code == 2 and "Traceback" not in err
    (problem,) = parse([line for line in err.splitlines() if line.strip()])
    assert problem[2] == "teams.name" and message in problem[3]


def test_a_team_without_a_list_of_cards_is_one_line(capsys, tmp_path):
    """A team whose `cards` is missing was two lines ("missing" and "expected 5 cards, got 0");
    one problem is one line."""
    teams = tmp_path / "teams.toml"
    text = (SHIPPED.parent / "experiments" / "teams" / "example.toml").read_text(encoding="utf-8")
    lines = text.splitlines()
    first = next(i for i, ln in enumerate(lines) if ln.startswith("cards = "))
    teams.write_text("\n".join(lines[:first] + lines[first + 1:]) + "\n", encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--teams", str(teams)])
    _, err = capsys.readouterr()
    (problem,) = parse([line for line in err.splitlines() if line.strip()])
    assert code == 2 and problem[2] == "teams.cards" and problem[3] == "missing", err


def test_validate_checks_team_and_experiment_files_with_the_cards(capsys):
    root = SHIPPED.parent
    code = main(["validate", str(SHIPPED), "--teams", str(root / "experiments/teams/example.toml"),
                 "--experiment", str(root / "experiments/smoke.toml")])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "also ok" in out and "3 Apocalypses" in out


def test_no_card_folder_is_said_not_silently_replaced(capsys, tmp_path, monkeypatch):
    """"From a folder with no ./cards, validate ... quietly use the installed checkout's cards":
    the folder used is named on stderr."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("BWLAB_CARDS", raising=False)
    from sim.catalogue import loader
    monkeypatch.setattr(loader, "_ANNOUNCED", [])
    assert main(["validate"]) == 0
    _, err = capsys.readouterr()
    assert "no ./cards here; using" in err and "--cards" in err


def test_validate_reads_each_experiment_as_its_command_does(capsys, tmp_path):
    """--experiment takes a run experiment, a drift suite or a rulings study, each through its
    command's own loader: the shipped ones pass, a broken drift suite is one located line."""
    root = SHIPPED.parent
    files = [root / "experiments" / n for n in ("drift.toml", "rulings.toml", "rarity.toml")]
    assert main(["validate", str(SHIPPED), *sum((["--experiment", str(f)] for f in files), [])]) == 0
    capsys.readouterr()
    suite = tmp_path / "drift.toml"
    text = files[0].read_text(encoding="utf-8").replace("delta_elo = 70", "delta_elo = nan")
    suite.write_text(text.replace('"matchups/', f'"{root / "experiments"}/matchups/'),
                     encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--experiment", str(suite)])
    _, err = capsys.readouterr()
    (problem,) = parse([line for line in err.splitlines() if line.strip()])
    assert code == 2 and problem[2] == "delta_elo" and "finite" in problem[3]


def test_validate_reads_the_files_a_rulings_study_names(capsys, tmp_path):
    """A rulings study names a team file and a rating experiment; `bwlab rulings` refused a study
    whose team file held an unknown card while validate said "ok". Now validate reads them as
    the command does: one located line each."""
    root = SHIPPED.parent
    teams = tmp_path / "teams.toml"
    teams.write_text((root / "experiments" / "teams" / "example.toml").read_text("utf-8")
                     .replace('"Luffy"', '"Lufy"', 1), encoding="utf-8")
    study = (root / "experiments" / "rulings.toml").read_text("utf-8")
    assert study.count('teams = "experiments/teams/example.toml"') == 1
    path = tmp_path / "rulings.toml"
    path.write_text(study.replace('teams = "experiments/teams/example.toml"', f'teams = "{teams}"')
                    .replace('"experiments/', f'"{root}/experiments/'), encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--experiment", str(path)])
    _, err = capsys.readouterr()
    (problem,) = parse([line for line in err.splitlines() if line.strip()])
    assert code == 2 and problem[0] == "teams.toml" and "unknown card 'Lufy'" in problem[3], err


@pytest.mark.parametrize("section, key, value, field", [
    ("policies", "example", -1, "policies.example"),
    ("policies", "example", ["greedy"] * 3, "policies.example"),
    ("matchups", "example", "x", "matchups.example.experiment"),
])
def test_validate_refuses_a_baseline_the_drift_gate_would_refuse(capsys, tmp_path, section, key,
                                                                 value, field):
    """`validate --baseline` said "ok" of a baseline whose players were -1 or whose experiment
    digest was "x"; `drift` then refused it. Now both read it through one check, one line naming
    the field."""
    import json

    data = json.loads((SHIPPED.parent / "reports" / "baseline.json").read_text("utf-8"))
    if section == "matchups":
        data["matchups"][key]["experiment"] = value
    else:
        data[section][key] = value
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = main(["validate", str(SHIPPED), "--baseline", str(path)])
    _, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1 and f": {field}: must be" in lines[0], err


@pytest.mark.parametrize("name", ["vehicles.toml", "assists.toml"])
def test_an_entity_note_is_text(capsys, tmp_path, name):
    """A vehicle's or an assist's `notes = [1, 2]` was accepted silently; a note is text, as on
    every other data file."""
    root = tmp_path / "cards"
    shutil.copytree(SHIPPED, root)
    path = root / name
    text = path.read_text(encoding="utf-8")
    start = text.index("\nnotes = ") + 1
    end = text.index("\n", start)
    path.write_text(text[:start] + "notes = [1, 2]" + text[end:], encoding="utf-8")
    code = main(["validate", str(root)])
    _, err = capsys.readouterr()
    lines = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 2 and len(lines) == 1 and ".notes:" in lines[0] and name in lines[0], err


def test_the_pool_experiment_arena_budget_names_is_validated(capsys, tmp_path):
    """Stop 55 audit item 3: a copy of cards/ elsewhere passed validate, then power-levels
    refused it (arena_budget.toml names experiments/rarity.toml beside the folder); a named
    experiment with games = -5 passed too. Missing, it is a warning naming the file and field
    (as a missing arena_budget.toml is: only three commands read it); broken, an error, and
    power-levels refuses it with the same line."""
    copy = Path(shutil.copytree(ROOT / "cards", tmp_path / "pl"))
    code = main(["validate", str(copy)])
    _, err = capsys.readouterr()
    assert code == 0
    line = (ROOT / "cards" / "arena_budget.toml").read_text(encoding="utf-8").splitlines().index(
        'experiment = "experiments/rarity.toml"') + 1  # file, line and field (README)
    assert (f"warning: {copy}: arena_budget.toml:{line}: levels.experiment: no experiment file "
            f"{tmp_path / 'experiments' / 'rarity.toml'}") in err and "power-levels" in err, err
    (tmp_path / "experiments").mkdir()
    text = (ROOT / "experiments" / "rarity.toml").read_text(encoding="utf-8")
    games = next(line for line in text.splitlines() if line.startswith("games ="))
    (tmp_path / "experiments" / "rarity.toml").write_text(text.replace(games, "games = -5"),
                                                          encoding="utf-8")
    line = text.splitlines().index(games) + 1
    for argv in (["validate", str(copy)], ["power-levels", "--games", "64", "--cards", str(copy),
                                           "--out", str(tmp_path / "pl.csv")]):
        code = main(argv)
        _, err = capsys.readouterr()
        errors = [ln for ln in err.splitlines() if ln.startswith("error:")]
        assert code == 2 and len(errors) == 1, err
        assert errors[0].startswith(f"error: {tmp_path / 'experiments' / 'rarity.toml'}:{line}: "
                                    f"games: -5 out of range"), err


def _rename_luffy(data: dict) -> None:
    import hashlib

    text = data["card_files"]["characters.csv"].replace("Luffy", "Luffo")
    data["card_files"]["characters.csv"] = text  # its digest kept consistent: a sound copy
    data["cards"]["characters.csv"] = hashlib.sha256(text.encode()).hexdigest()


BASELINE_EDITS = [  # (edit of the shipped baseline, the field named)
    (lambda d: d["matchups"]["example"].update(root_seed=-1), "matchups.example.root_seed"),
    (lambda d: d["suite"].update(round=0), "suite.round"),
    (lambda d: d["suite"].update(alpha=2.0), "suite.alpha"),
    (lambda d: d["policies"].update(example=["junk"] * 4), "policies.example"),
    (_rename_luffy, "card_files"),
]


@pytest.mark.parametrize("edit, field", BASELINE_EDITS, ids=[e[1] for e in BASELINE_EDITS])
def test_a_baseline_the_gate_would_refuse_fails_validate(capsys, tmp_path, edit, field):
    """Stop 55 audit item 3: validate --baseline accepted a negative root seed, a round of 0
    games, alpha 2.0, players named "junk", and a copy of the cards without a card its teams
    name (drift then refused it: "card_files: Luffy not in the baseline's cards"). Each is one
    line naming the field; the shipped baseline still passes."""
    import json

    data = json.loads((ROOT / "reports" / "baseline.json").read_text(encoding="utf-8"))
    edit(data)
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code = main(["validate", str(ROOT / "cards"), "--baseline", str(path)])
    _, err = capsys.readouterr()
    errors = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert code == 2 and len(errors) == 1, err
    assert errors[0].startswith(f"error: {path}: {field}: "), err
    code = main(["validate", str(ROOT / "cards"), "--baseline", str(ROOT / "reports" /
                                                                   "baseline.json")])
    assert code == 0, capsys.readouterr().err


def test_validate_takes_cards_as_every_command_does(capsys, tmp_path):
    """The designer audit: every command takes --cards DIR, and validate's own "no ./cards here"
    notice advises it, but validate answered "No such option '--cards'" (exit 2). It takes it
    now, as PATH; a mistyped folder is one line naming the flag; two different folders are
    refused."""
    assert main(["validate", "--cards", str(SHIPPED)]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith(f"{SHIPPED}: ok")
    assert main(["validate", "--cards", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--cards" in err and "Traceback" not in err
    assert main(["validate", str(tmp_path), "--cards", str(SHIPPED)]) == 2
    assert "not both" in capsys.readouterr().err


def test_a_quote_left_open_does_not_swallow_the_rows_after_it(capsys, tmp_path):
    """The designer audit: a new card's note with its closing quote forgotten, two rows before
    the end, made those two rows part of its note: validate said "ok — 71 cards" of a file of 73
    (exit 0), and every command played without them. It is one line naming where the quote
    opened and the rows it swallowed, exit 2, in validate and before any game."""
    cards = Path(shutil.copytree(SHIPPED, tmp_path / "cards"))
    path = cards / "characters.csv"
    rows = path.read_text(encoding="utf-8").splitlines()
    new = ('Iron Tide Kid,Anime,Bronze,strike,bonus_attacks=1; charges=2,1,3,1,90,3,4,1,2,1,3,1,'
           '5,1,"tank: a new card')
    rows.insert(len(rows) - 2, new)
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    last = [r.split(",", 1)[0] for r in rows[-2:]]
    assert main(["validate", str(cards)]) == 2
    out, err = capsys.readouterr()
    assert "ok" not in out and err.count("\n") == 1, err
    assert f"characters.csv:{len(rows) - 2}: notes: a quote opened here is not closed" in err
    assert f"({last[0]}, {last[1]})" in err
    assert main(["fairness", str(ROOT / "experiments/teams/example.toml"), "--cards",
                 str(cards), "--games", "8", "--quiet"]) == 2
    err = capsys.readouterr().err
    assert "a quote opened here is not closed" in err and "Traceback" not in err
    # the loader refuses it (sim/catalogue/diagnostics.py:CsvRows), so a command that plays no
    # game and loads the cards refuses it too: combat between a card swallowed and another
    assert main(["combat", last[0], rows[1].split(",", 1)[0], "--cards", str(cards)]) == 2
    err = capsys.readouterr().err
    assert "a quote opened here is not closed" in err and "Traceback" not in err
