"""Hostile input to the command line (issue #22 items 3 and 4): every case exits 2 with one line
naming the path or file:line and field, prints no traceback, and writes nothing.

The table of broken inputs (each row names the requirement it checks), files the parsers choke
on (TOML nested thousands deep, a CSV cell past the csv module's limit, a device, a pipe), a
broken ./cards or $BWLAB_CARDS, and a bad output path reported with the card folder's problems.
The cases fail while the command line or the experiment is read, before any game, so the table
costs well under a second of CPU per row.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests._cli_hostile_kit import ROOT, _experiment
from tests._cli_kit import run


CASES = [  # id, argv ({exp}: the experiment), edit of it, edit of its teams, line start, words,
    #        and the requirement checked
    ("log-under-file", ["play", "--seed", "1", "--log", "afile/g.jsonl"], None, None,
     "afile/g.jsonl: --log:", "afile is a file", "item 3: a path under a file"),
    ("log-missing-parent", ["play", "--seed", "1", "--log", "nowhere/g.jsonl"], None, None,
     "nowhere/g.jsonl: --log:", "does not exist", "item 3: no silent parent for play --log"),
    ("png-in-proc", ["board", "--seed", "3", "--png", "/proc/x.png"], None, None,
     "/proc/x.png: --png:", "not writable", "item 3: board --png /proc/x.png"),
    ("junit-under-file", ["drift", "--junit", "afile/d.xml"], None, None,
     "afile/d.xml: --junit:", "is a file", "item 3: drift --junit to an unwritable path"),
    ("out-is-file", ["run", "{exp}", "--out", "afile"], None, None, "afile: --out:",
     "is a file", "item 3: --out under a file"),
    ("out-holds-a-users-table", ["run", "{exp}", "--out", "usercsv"], None, None,
     "usercsv/cards.csv: --out:", "no run wrote", "nothing lost: a cards.csv no run wrote in "
     "--out (it was replaced by the run's table)"),
    ("report-out-under-file", ["report", "--out", "afile/sub"], None, None,
     "afile/sub: --out:", "afile is a file", "item 3: every output path checked first"),
    ("rulings-out-is-folder", ["rulings", "--out", "adir"], None, None, "adir: --out:",
     "is a folder", "item 3: every output path checked first"),
    ("replay-deep-json", ["replay", "deep.jsonl"], None, None, "deep.jsonl:1: line:",
     "nested too deeply", "item 3: replay on deeply nested JSON"),
    ("baseline-deep-json", ["validate", "--baseline", "deep.jsonl"], None, None,
     "deep.jsonl: --baseline:", "nested too deeply", "item 3: a baseline nested thousands "
     "deep (validate, drift and report printed a RecursionError's traceback)"),
    ("rulings-results-deep-json", ["validate", "--rulings-results", "deep.jsonl"], None, None,
     "deep.jsonl: rulings:", "nested too deeply", "item 3: a rulings results file nested "
     "thousands deep (validate and report --rulings printed a RecursionError's traceback)"),
    ("replay-header-teams", ["replay", "noteams.jsonl", "--html", "g.html"], None, None,
     "noteams.jsonl:1: teams:", "expected a list of 4 printable team names",
     "item 3: a game header's fields checked one by one, before any line is narrated"),
    ("replay-header-escape", ["replay", "escteam.jsonl", "--html", "g.html"], None, None,
     "escteam.jsonl:1: teams:", "printable team names", "item 3: an escape sequence in a team "
     "name is refused as a team file refuses it (it drew as a missing glyph: a warning a frame)"),
    ("replay-text-escape", ["replay", "esctext.jsonl"], None, None, "esctext.jsonl:1: text:",
     "control character", "item 3: an escape sequence in a logged sentence is not narrated to "
     "the terminal"),
    ("replay-header-seed", ["replay", "seedx.jsonl", "--gif", "g.gif"], None, None,
     "seedx.jsonl:1: seed:", "expected a whole number", "item 3: the field named, not Python's "
     "exception text"),
    ("replay-header-cards", ["replay", "cards3.jsonl", "--html", "g.html"], None, None,
     "cards3.jsonl:1: cards:", '4 lists of 5 card names, got [["Luffy", "Luffy", "Luffy", '
     '"Luffy", "Luffy"], ["Luffy",...', "item 3: three teams in a header, quoted as the JSON "
     "it is and cut to one line"),
    ("play-log-is-html", ["play", "--seed", "1", "--log", "afile", "--html", "afile"], None,
     None, "afile: --html:", "is also the output of --log",
     "item 3: two outputs on one file would keep only the last (nothing lost)"),
    ("replay-html-is-log", ["replay", "seedx.jsonl", "--html", "seedx.jsonl"], None, None,
     "seedx.jsonl: --html:", "is also the input of LOG",
     "item 3: an output over the command's own input (nothing lost)"),
    ("drift-junit-is-baseline", ["drift", "--baseline", "afile", "--junit", "afile"], None, None,
     "afile: --junit:", "is also the input of --baseline",
     "item 3: the JUnit report over the baseline it reads (nothing lost)"),
    ("teams-file-missing", ["run", "{exp}"], ('"teams/example.toml"', '"teams/nope.toml"'),
     None, "{exp}:8: teams:", "no team file", "item 4: a missing referenced file is named where "
     "it is referenced (the experiment's line and field)"),
    ("games-negative-one-line", ["run", "{exp}"], ("games = 16", "games = -1"), None,
     "{exp}:2: games:", "out of range", "item 4: one line per problem (no second line about "
     "duplicate blocks of a fallback)"),
    ("policy-and-policies", ["fairness", "teams/example.toml", "--policy", "random",
                             "--policies", "greedy,random"], None, None, "bwlab fairness:",
     "not both", "item 4: a flag that would be ignored is refused"),
    ("policies-empty-item", ["fairness", "teams/example.toml", "--policies", "greedy,,random"],
     None, None, "bwlab fairness: Invalid value for --policies", "an empty player",
     "item 4: a player left out between commas is refused, not dropped"),
    ("team-budget-alone", ["power-levels", "--team-budget", "7"], None, None,
     "bwlab power-levels:", "give --validate-budget too", "item 4: an ignored flag refused"),
    ("remedy-card-alone", ["rarity", "--remedy-card", "Luffy"], None, None, "bwlab rarity:",
     "give --remedy too", "item 4: an ignored flag refused"),
    ("remedy-card-unknown", ["rarity", "--experiment", str(ROOT / "experiments" / "rarity.toml"),
                             "--remedy", "--remedy-card", "Lufy"], None, None,
     "--remedy-card: name:", "did you mean Luffy", "item 4: the flag named, not the card file"),
    ("report-suggest-no-teams", ["report", "--teams", "", "--suggest", "2", "--out", "rep"],
     None, None, "bwlab report:", "give a team file", "item 4: an ignored flag refused"),
    ("final-frame-is-a-folder", ["play", "--seed", "1", "--png-every", "5", "frames"], None,
     None, "frames/final.png: --png-every:", "not a regular file", "item 3: refused before the "
     "game, not after it with its frames written and no flag named"),
    ("batch-is-a-folder", ["run", "{exp}", "--resume", "--out", "runout"], None, None,
     "runout: --out:", "batch-000001.parquet is a folder where a batch file belongs",
     "item 3: a folder where a batch belongs is named, never deleted"),
    ("empty-out", ["compare-systems", "--out", ""], None, None, "'': --out:",
     "an empty path", "item 3: an empty --out is not the working folder"),
    ("empty-run-out", ["run", "{exp}", "--out", ""], None, None, "'': --out:", "an empty path",
     "item 3: an empty --out is not the working folder"),
    ("sweep-twice", ["combat", "--attacks", "8", "--tier", "2", "--defense", "4", "--sweep",
                     "defense=0..9", "--sweep", "tier=1..4"], None, None, "bwlab combat:",
     "--sweep is given more than once", "item 4: a repeated one-value option is refused (click "
     "kept the last one silently)"),
    ("samples-1e12", ["combat", "--attacks", "8", "--tier", "2", "--defense", "4",
                      "--samples", str(10**12)], None, None, "--samples: samples:",
     "above the maximum", "item 3: combat --samples 10**12 refused, a maximum stated"),
    ("games-1e18", ["run", "{exp}"], ("games = 16", "games = 1000000000000000000"), None,
     "{exp}:2: games:", "above the maximum 100000000", "item 3: games = 10**18"),
    ("games-flag-1e18", ["run", "{exp}", "--games", str(10**18)], None, None,
     "--games: games:", "out of range", "item 3: --games 10**18"),
    ("name-escapes", ["run", "{exp}"], ('name = "tiny"', 'name = "../../escaped"'), None,
     "{exp}:1: name:", "not a file name", "item 4: experiment names are file names"),
    ("duplicate-team", ["run", "{exp}"], None, ('"Ink & Iron"', '" straw hats"'),
     "{teams}:8: teams.name:", "names two teams", "item 4: duplicate team names refused"),
    ("empty-team", ["run", "{exp}"], None, ('"Pixel Party"', '""'),
     "{teams}:12: teams.name:", "empty", "item 4: empty team names refused"),
    ("log-name-too-long", ["play", "--seed", "1", "--log", "g" * 300 + ".jsonl"], None, None,
     "g" * 300 + ".jsonl: --log:", "cannot be used: File name too long",
     "item 3: a name the file system refuses names the flag"),
    ("out-name-too-long", ["run", "{exp}", "--out", "r" * 300], None, None,
     "r" * 300 + ": --out:", "cannot be used: File name too long",
     "item 3: a name the file system refuses names the flag"),
    ("power-levels-out-missing-folder", ["power-levels", "--out", "nowhere/p.csv"], None, None,
     "nowhere/p.csv: --out:", "folder nowhere does not exist",
     "item 3: only the default's folder (reports/) is created; a given one must exist"),
    ("log-link-loop", ["play", "--seed", "1", "--log", "loop1"], None, None, "loop1: --log:",
     "cannot be used: Too many levels of symbolic links",
     "item 3: a loop of links is refused, not replaced by the log (it was)"),
    ("junit-link-loop", ["drift", "--junit", "loop1"], None, None, "loop1: --junit:",
     "Too many levels of symbolic links", "item 3: refused before the games, not after"),
    ("out-link-loop", ["run", "{exp}", "--out", "loop1"], None, None, "loop1: --out:",
     "Too many levels of symbolic links", "item 3: a folder flag names itself ('File exists')"),
    ("out-dangling-link", ["compare-systems", "--out", "gonelink"], None, None,
     "gonelink: --out:", "gonelink is a link to nothing",
     "item 3: a link to nothing is named, not 'File exists' after the work"),
    ("cards-link-loop", ["play", "--seed", "1", "--cards", "loop1"], None, None,
     "loop1: --cards:", "Too many levels of symbolic links",
     "item 4: a loop is not 'no such folder'"),
    ("cards-missing", ["play", "--seed", "1", "--cards", "nocards"], None, None,
     "nocards: --cards:", "no such folder",
     "item 4: a mistyped card folder is one line naming the flag, not one per data file"),
    ("cards-is-file", ["fairness", "{teams}", "--cards", "afile"], None, None,
     "afile: --cards:", "is a file, not a folder", "item 4: --cards names a folder"),
    ("cards-name-too-long", ["combat", "--cards-dir", "c" * 300], None, None,
     "c" * 300 + ": --cards/--cards-dir:", "cannot be used: File name too long",
     "item 4: the old spelling is checked the same way, and the message names it"),
    ("cards-empty", ["run", "{exp}", "--cards", ""], None, None, "'': --cards:",
     "an empty path", "item 4: an empty --cards is not the working folder"),
    ("log-is-final-frame", ["play", "--seed", "1", "--log", "adir/final.png", "--png-every",
                            "100", "adir"], None, None, "adir/final.png: --log:",
     "is also a frame of --png-every adir", "nothing lost: the log was written, then the "
     "final frame over it, exit 0"),
    ("html-is-final-frame", ["play", "--seed", "1", "--html", "adir/../adir/final.png",
                             "--png-every", "100", "adir"], None, None,
     "adir/../adir/final.png: --html:", "is also a frame of --png-every adir",
     "nothing lost: the page replaced by the final frame"),
    ("gif-is-a-rotation-frame", ["play", "--seed", "1", "--gif", "adir/rotation_001.png",
                                 "--png-every", "100", "adir"], None, None,
     "adir/rotation_001.png: --gif:", "is also a frame of --png-every adir",
     "nothing lost: the GIF and the first frame on one file"),
    ("run-experiment-link-loop", ["run", "loop1"], None, None, "{dir}/loop1: file:",
     "cannot be read: Too many levels of symbolic links",
     "item 3: a loop as the experiment (Path.resolve's RuntimeError traceback, exit 1)"),
    ("validate-experiment-link-loop", ["validate", str(ROOT / "cards"), "--experiment",
                                       "loop1"], None, None, "{dir}/loop1: file:",
     "cannot be read: Too many levels of symbolic links",
     "item 3: a loop as the experiment (Path.resolve's RuntimeError traceback, exit 1)"),
    ("validate-baseline-link-loop", ["validate", "--baseline", "loop1"], None, None,
     "loop1: --baseline:", "cannot be read: Too many levels of symbolic links",
     "item 3: a loop is there: not 'not found; create it with --update'"),
    ("drift-baseline-link-loop", ["drift", "--suite", str(ROOT / "experiments" / "drift.toml"),
                                  "--baseline", "loop1"], None, None,
     "loop1: --baseline:", "cannot be read: Too many levels of symbolic links",
     "item 3: a loop is there: not 'not found; create it with --update'"),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_broken_input_is_one_line_exit_2_and_writes_nothing(capsys, workdir, case):
    """Items 3-4 (each row names the requirement it checks): exit 2, exactly one line,
    `path: --option: message` or `file:line: field: message`, no traceback (checked by
    tests/_cli_kit.run), and the working folder holds the same files afterwards."""
    _, argv, edit, teams_edit, start, words, _requirement = case
    exp = _experiment(workdir, edit, teams_edit)
    names = {"{exp}": str(exp), "{teams}": str(workdir / "teams" / "example.toml"),
             "{dir}": str(workdir)}
    argv = [names.get(a, a) for a in argv]
    for key, value in names.items():
        start = start.replace(key, value)
    before = sorted(p.relative_to(workdir) for p in workdir.rglob("*"))
    code, _, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2, err
    assert len(lines) == 1, err
    assert lines[0].startswith("error: " + start) and words in lines[0], err
    assert sorted(p.relative_to(workdir) for p in workdir.rglob("*")) == before


@pytest.mark.parametrize("make, words", [
    (lambda d: (d / "cards").write_text("x", encoding="utf-8"), "is a file, not a folder"),
    (lambda d: (d / "cards").symlink_to(d / "cards"), "Too many levels of symbolic links"),
    (lambda d: (d / "cards").symlink_to(d / "gone"), "is a link to nothing"),
])
@pytest.mark.parametrize("argv", [["board", "--seed", "1"], ["validate"]])
def test_a_broken_default_card_folder_is_refused_not_passed_over(capsys, workdir, monkeypatch,
                                                                  make, words, argv):
    """Item 4: with no --cards and no $BWLAB_CARDS, a ./cards that is a file, a loop of links
    or a link to nothing was passed over for the installed cards, exit 0 (only the "no ./cards
    here" notice), while the same path as --cards or $BWLAB_CARDS is refused. Now one line
    naming ./cards, exit 2; a ./cards that is not there keeps the fallback (tests/
    test_validate_everything.py)."""
    monkeypatch.delenv("BWLAB_CARDS")
    make(workdir)
    code, out, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and out == "" and len(lines) == 1, err
    assert lines[0].startswith(f"error: {workdir / 'cards'}: ./cards: ") and words in lines[0]


def _deep_teams(folder: Path) -> list[str]:
    (folder / "deep.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n"
                                      + (folder / "teams" / "example.toml").read_text("utf-8"),
                                      encoding="utf-8")
    return ["validate", str(ROOT / "cards"), "--teams", "deep.toml"]


def _deep_experiment(folder: Path) -> list[str]:
    _deep_teams(folder)
    return ["validate", str(ROOT / "cards"), "--experiment", "deep.toml"]


def _pipe(option: str):
    def make(folder: Path) -> list[str]:
        os.mkfifo(folder / "fifo")
        return ["validate", str(ROOT / "cards"), option, "fifo"]
    return make


def _long_cell(folder: Path) -> list[str]:
    shutil.copytree(ROOT / "cards", folder / "mycards")
    path = folder / "mycards" / "characters.csv"
    rows = path.read_text(encoding="utf-8").split("\n")
    rows[2] += "x" * 200_000
    path.write_text("\n".join(rows), encoding="utf-8")
    return ["validate", "mycards"]


def _device_weights(folder: Path) -> list[str]:
    return ["play", "--seed", "1", "--policy", "greedy:weights=/dev/zero"]


@pytest.mark.parametrize("make, start, words", [
    (_deep_teams, "deep.toml: syntax:", "nested too deeply"),
    (_long_cell, "mycards/characters.csv:3: row:", "cannot be read as CSV: field larger than"),
    (_device_weights, "/dev/zero: file:", "is a device, not a file"),
    (_deep_experiment, "{dir}/deep.toml: syntax:", "nested too deeply"),
    (_pipe("--baseline"), "fifo: --baseline:", "not a regular file"),
    (_pipe("--rulings-results"), "fifo: rulings:", "not a regular file"),
    (_pipe("--teams"), "fifo: file:", "is a pipe or a socket, not a file"),
    (_pipe("--experiment"), "{dir}/fifo: file:", "is a pipe or a socket, not a file"),
])
def test_files_the_parsers_choke_on_are_one_line(capsys, workdir, make, start, words):
    """Standards: bad input is "one line per problem naming file, line and field, exit 2, no
    traceback". TOML nested 5,000 deep was a RecursionError traceback (tomllib recurses); a CSV
    cell past the csv module's 131,072-character limit a csv.Error traceback; a weights file
    naming /dev/zero never ended (read until memory ran out). validate --experiment of that
    deep TOML was a RecursionError traceback too (the sniff of its kind); a pipe named as a
    rulings results file was waited on for ever, as a baseline "not found", and so was a pipe
    as any data file (a team file, an experiment, a card file, a weights file)."""
    argv = make(workdir)
    code, _, err = run(capsys, *argv)
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1, err
    start = start.format(dir=workdir)  # an experiment is named by its absolute path
    assert lines[0].startswith("error: " + start) and words in lines[0], err


@pytest.mark.parametrize("value,words", [("nocards", "no such folder"),
                                         ("afile", "is a file, not a folder"),
                                         ("c" * 300, "cannot be used: File name too long")])
def test_a_bad_card_folder_variable_is_one_line_naming_it(capsys, workdir, monkeypatch, value,
                                                          words):
    """Item 4: ``$BWLAB_CARDS`` naming no folder was one "not found" line per data file, none
    naming the variable; now one line naming it, exit 2."""
    monkeypatch.setenv("BWLAB_CARDS", value)
    code, _, err = run(capsys, "play", "--seed", "1")
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and lines == [f"error: {value}: $BWLAB_CARDS: {words}"], err


@pytest.mark.parametrize("argv", [
    ["power-levels", "--out", "{tmp}/missing/levels.csv"],
    ["play", "--seed", "1", "--teams", ROOT / "experiments/teams/example.toml",
     "--log", "{tmp}/missing/game.jsonl"],
    ["combat", "--attacks", "2", "--tier", "2", "--png", "{tmp}/missing/c.png"],
    ["drift", "--baseline", ROOT / "reports/baseline.json", "--junit", "{tmp}/missing/d.xml"],
], ids=["power-levels", "play", "combat", "drift"])
def test_a_bad_output_path_comes_with_the_card_folders_problems(capsys, tmp_path, argv):
    """The standard: one line per problem, and a bad output path no longer hides the cards'.
    It was checked while the flags were parsed and raised alone, so a card typo waited for a
    second run (``power-levels --out missing/x.csv``, stop 68's note). Both lines now, exit 2,
    nothing written."""
    cards = tmp_path / "cards"
    shutil.copytree(ROOT / "cards", cards)
    table = cards / "characters.csv"
    lines = table.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[1] = lines[1].replace("Legendary", "Legendry", 1)
    assert "Legendry" in lines[1]
    table.write_text("".join(lines), encoding="utf-8")
    args = [str(a).replace("{tmp}", str(tmp_path)) for a in argv]
    code, out, err = run(capsys, *args, "--cards", cards, "--quiet")
    errors = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert code == 2 and len(errors) == 2, err
    assert "does not exist (create it first)" in errors[0]
    assert "characters.csv:2: rarity: unknown rarity 'Legendry'" in errors[1]
    assert "Traceback" not in err and not (tmp_path / "missing").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cards"]
